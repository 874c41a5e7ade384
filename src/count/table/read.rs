//! Reading a table back from its files (CSV or JSON), refusing what pegsol did not write.

use super::check::{RandomRow, Sources, Wins, check_counts, check_entry, check_random, check_run};
use super::model::{
    Entry, Format, Table, csv_files, random_files, random_summary_header, runs_headers_before,
    summary_header,
};
use super::plan::Key;
use crate::error::{Error, Result};
use crate::memory;
use std::collections::BTreeMap;
use std::path::Path;

impl Table {
    /// Reads the table stored in `dir` (empty when `dir` holds none). Rows of pairs without
    /// a `runs.csv` row (left by a kill between two renames) are dropped: they will be
    /// computed again.
    ///
    /// ```
    /// # use pegsol::count::table::{self, BatchOptions, Format};
    /// # let plan = table::plan(&["tri:5".into()], &[]).unwrap();
    /// # let opts = BatchOptions {
    /// #     threads: 1,
    /// #     max_memory: pegsol::memory::default_budget(),
    /// #     progress: false,
    /// #     dir: None,
    /// #     format: Format::Csv,
    /// #     command: String::new(),
    /// #     work_dir: None,
    /// #     keep_work: false,
    /// #     max_disk: None,
    /// #     cluster: Default::default(),
    /// #     cancel: None,
    /// # };
    /// # let t = table::run_batch(&plan, &opts).unwrap().table; // tri:5, its four start classes
    /// // `t`: a table of tri:5 from each of its four start classes.
    /// let dir = tempfile::tempdir().unwrap();
    /// assert!(table::Table::load(dir.path(), Format::Csv).unwrap().entries.is_empty());
    /// t.save(dir.path(), Format::Json).unwrap();
    /// assert_eq!(table::Table::load(dir.path(), Format::Json).unwrap(), t);
    /// ```
    pub fn load(dir: &Path, format: Format) -> Result<Table> {
        let mut table = Table::load_all(dir, format)?;
        table.entries.retain(|_, e| e.is_whole());
        Ok(table)
    }

    /// Reads the table stored in `dir` as [`Table::load`] does, but refuses a pair whose
    /// rows a file lost, naming the file, instead of dropping it: what `pegsol report`
    /// reads, which must not leave a start out of a board's totals.
    ///
    /// ```
    /// # use pegsol::count::table::{self, BatchOptions, Format};
    /// # let plan = table::plan(&["tri:4".into()], &[]).unwrap();
    /// # let opts = BatchOptions {
    /// #     threads: 1,
    /// #     max_memory: pegsol::memory::default_budget(),
    /// #     progress: false,
    /// #     dir: None,
    /// #     format: Format::Csv,
    /// #     command: String::new(),
    /// #     work_dir: None,
    /// #     keep_work: false,
    /// #     max_disk: None,
    /// #     cluster: Default::default(),
    /// #     cancel: None,
    /// # };
    /// # let t = table::run_batch(&plan, &opts).unwrap().table; // tri:4, its three start classes
    /// // `t`: a table of tri:4 from each of its three start classes.
    /// let dir = tempfile::tempdir().unwrap();
    /// t.save(dir.path(), Format::Csv).unwrap();
    /// assert_eq!(table::Table::load_complete(dir.path(), Format::Csv).unwrap(), t);
    /// // a2's 14 wins lose their finishing holes.
    /// let finish = dir.path().join("finish.csv");
    /// let text = std::fs::read_to_string(&finish).unwrap();
    /// let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("tri:4,a2,")).collect();
    /// std::fs::write(&finish, kept.join("\n") + "\n").unwrap();
    /// let e = table::Table::load_complete(dir.path(), Format::Csv).unwrap_err();
    /// assert!(e.to_string().ends_with("finish.csv: no finish rows for tri:4 a2; run pegsol table again to count it"), "{e}");
    /// assert_eq!(table::Table::load(dir.path(), Format::Csv).unwrap().entries.len(), 2);
    /// ```
    pub fn load_complete(dir: &Path, format: Format) -> Result<Table> {
        let table = Table::load_all(dir, format)?;
        let sources = Sources::of(dir, format);
        for (key, e) in &table.entries {
            if let Some(part) = e.missing() {
                return Err(Error::input(format!(
                    "{}: no {part} rows for {} {}; run pegsol table again to count it",
                    sources.file(part),
                    key.board,
                    key.start
                )));
            }
        }
        Ok(table)
    }

    /// Every pair of the table in `dir`, whole or not, its whole pairs checked
    /// ([`check_entry`], and their labels: [`crate::count::labels`]).
    fn load_all(dir: &Path, format: Format) -> Result<Table> {
        let table = match format {
            Format::Csv => Table::load_csv(dir)?,
            Format::Json => Table::load_json(dir)?,
        };
        let sources = Sources::of(dir, format);
        crate::count::labels::check_table(&table, &|part| sources.file(part).to_string())?;
        let mut boards = BTreeMap::new();
        // The start class of each whole pair of a built-in board: one pair a class.
        let mut classes: BTreeMap<(&str, usize), &str> = BTreeMap::new();
        for (key, e) in &table.entries {
            check_run(&sources.runs, key, &e.run)?;
            if e.is_whole()
                && let Some(class) = check_entry(&sources, key, e, &mut boards)?
                && let Some(other) = classes.insert((&key.board, class), &key.start)
            {
                return Err(Error::input(format!(
                    "{}: {} {}: {other} and {} are starts of one class; a table holds one \
                     pair a class",
                    sources.file("summary"),
                    key.board,
                    key.start,
                    key.start
                )));
            }
        }
        Ok(table)
    }

    fn load_csv(dir: &Path) -> Result<Table> {
        let mut files = read_count_files(dir)?;
        let mut table = Table::default();
        for (key, run) in files.remove("runs.csv").unwrap_or_default() {
            let entry = Entry {
                run,
                ..Entry::default()
            };
            if table.entries.contains_key(&key) {
                return Err(twice(dir, "runs.csv", &key));
            }
            table.entries.insert(key, entry);
        }
        for (name, rows) in files {
            for (key, row) in rows {
                if let Some(e) = table.entries.get_mut(&key) {
                    put(e, name, row).map_err(|_| twice(dir, name, &key))?;
                }
            }
        }
        read_random(dir, &mut table)?;
        Ok(table)
    }
}

/// Rows keyed by board and start: the cells after those two.
type Rows = Vec<(Key, Vec<String>)>;

/// The rows of the five files every table in CSV format has, by file name, their counts
/// checked ([`check_counts`]).
fn read_count_files(dir: &Path) -> Result<BTreeMap<&'static str, Rows>> {
    let mut files = BTreeMap::new();
    for (name, header, _) in csv_files() {
        let rows = match name {
            "runs.csv" => read_runs(&dir.join(name), &header)?,
            "summary.csv" => read_summary(dir)?,
            _ => {
                let rows = read_csv(&dir.join(name), &header)?;
                for (key, row) in &rows {
                    check_counts(&dir.join(name).display().to_string(), &header, key, row)?;
                }
                rows
            }
        };
        files.insert(name, rows);
    }
    Ok(files)
}

/// runs.csv's rows; an older runs.csv ([`runs_headers_before`]) with its rows padded with
/// the missing columns.
fn read_runs(path: &Path, header: &[&str]) -> Result<Rows> {
    let [v2, v1] = runs_headers_before();
    read_csv(path, header).or_else(|e| {
        let mut rows = read_csv(path, v2)
            .or_else(|_| read_csv(path, v1))
            .map_err(|_| e)?;
        for (_, r) in &mut rows {
            r.resize(header.len() - 2, String::new());
        }
        Ok(rows)
    })
}

/// A pair has one row in runs.csv and in summary.csv; pegsol never writes two (a second
/// one in pegs_left, finish or depth fails the sums of `check_entry`).
fn twice(dir: &Path, name: &str, key: &Key) -> Error {
    Error::input(format!(
        "{} was not written by pegsol table: a second row for {} {}",
        dir.join(name).display(),
        key.board,
        key.start
    ))
}

/// Puts a row of file `name` into the entry of its pair; Err(()) for a second summary row.
fn put(e: &mut Entry, name: &str, mut row: Vec<String>) -> std::result::Result<(), ()> {
    match name {
        "summary.csv" if !e.summary.is_empty() => return Err(()),
        "summary.csv" => {
            // The random player's cells, if the file has its columns and the pair its
            // figures.
            let short = summary_header().len() - 2;
            let random = row.split_off(short.min(row.len()));
            if random.iter().any(|c| !c.is_empty()) {
                e.random_summary = random;
            }
            e.summary = row;
        }
        "pegs_left.csv" => e.pegs_left.push(row),
        "finish.csv" => e.finish.push(row),
        "depth.csv" => e.depth.push(row),
        _ => unreachable!("known files"),
    }
    Ok(())
}

/// The random player's files, where a table has them: their rows checked
/// ([`check_random`]), then put into the entries of their pairs.
fn read_random(dir: &Path, table: &mut Table) -> Result<()> {
    let mut read = Vec::new();
    for (name, header, _) in random_files() {
        let path = dir.join(name);
        let rows: Vec<RandomRow> = read_csv_lines(&path, &header)?
            .into_iter()
            .map(|(line, key, cells)| RandomRow {
                place: format!("{}: line {line}", path.display()),
                key,
                cells,
            })
            .collect();
        read.push(rows);
    }
    let summary = dir.join("summary.csv").display().to_string();
    let wins: Wins = table
        .entries
        .iter()
        .filter(|(_, e)| e.has_random())
        .map(|(k, e)| (k.clone(), (summary.clone(), e.random_summary[0].clone())))
        .collect();
    check_random(&read[0], &read[1], &wins)?;
    for (i, rows) in read.into_iter().enumerate() {
        for r in rows {
            if let Some(e) = table.entries.get_mut(&r.key) {
                let to = if i == 0 {
                    &mut e.random
                } else {
                    &mut e.random_finish
                };
                to.push(r.cells);
            }
        }
    }
    Ok(())
}

/// summary.csv's rows, with the random player's columns at their end when the file has
/// them ([`random_summary_header`]); the counts of each checked.
fn read_summary(dir: &Path) -> Result<Vec<(Key, Vec<String>)>> {
    let path = dir.join("summary.csv");
    let short = summary_header();
    let rows = read_csv(&path, &random_summary_header()).or_else(|_| read_csv(&path, &short))?;
    for (key, row) in &rows {
        let counts = &row[..row.len().min(short.len() - 2)];
        check_counts(&path.display().to_string(), &short, key, counts)?;
    }
    Ok(rows)
}
/// Bytes of memory that reading a table takes for each byte of its files, rounded up from
/// `report`'s peak (docs/experiments.md, "Limits the process cannot see in /proc/meminfo,
/// and the last bad-input gaps", and "Figures that were in code comments").
const CSV_READ_BYTES_PER_BYTE: u64 = 10;
pub(super) const JSON_READ_BYTES_PER_BYTE: u64 = 24;

/// Refuses to read a table file that is not a regular file (a FIFO or a device, which a
/// read would wait on or never end), or one too large to read into the memory there is
/// ([`memory::usable`]), at `per_byte` bytes of memory a byte: one line, not a run killed
/// by the system.
pub(super) fn check_readable(path: &Path, per_byte: u64) -> Result<()> {
    let Ok(m) = std::fs::metadata(path) else {
        return Ok(()); // missing: an empty part; unreadable: the read says why
    };
    if !m.is_file() {
        return Err(Error::input(format!(
            "cannot read {}: it is not a regular file",
            path.display()
        )));
    }
    let need = m.len().saturating_mul(per_byte);
    if let Some(room) = memory::usable()
        && need > room
    {
        let (need, room) = memory::human_apart(need, room);
        return Err(Error::Memory(format!(
            "cannot read {}: a file of {} bytes takes about {need} of memory to read, and \
             {room} is free",
            path.display(),
            m.len()
        )));
    }
    Ok(())
}

/// Reads a CSV file written by [`Table::files`]: rows keyed by their first two columns.
/// A missing file is empty; a file with another header is refused.
fn read_csv(path: &Path, header: &[&str]) -> Result<Rows> {
    let rows = read_csv_lines(path, header)?;
    Ok(rows.into_iter().map(|(_, k, r)| (k, r)).collect())
}

/// [`read_csv`], each row with the number of the line it starts on.
fn read_csv_lines(path: &Path, header: &[&str]) -> Result<Vec<(u64, Key, Vec<String>)>> {
    check_readable(path, CSV_READ_BYTES_PER_BYTE)?;
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::input(format!("cannot read {}: {e}", path.display()))),
    };
    let bad = |what: String| {
        Error::input(format!(
            "{} was not written by pegsol table ({what}); use an empty directory",
            path.display()
        ))
    };
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_slice());
    let found: Vec<String> = r
        .headers()
        .map_err(|e| bad(e.to_string()))?
        .iter()
        .map(str::to_string)
        .collect();
    if found != header {
        return Err(bad(format!("columns {}", found.join(","))));
    }
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| bad(e.to_string()))?;
        let line = rec.position().map_or(0, csv::Position::line);
        let row: Vec<String> = rec.iter().map(str::to_string).collect();
        rows.push((line, Key::new(&row[0], &row[1]), row[2..].to_vec()));
    }
    Ok(rows)
}
