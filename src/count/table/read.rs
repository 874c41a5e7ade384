//! Reading a table back from its files (CSV or JSON), refusing what pegsol did not write.

use super::check::{Sources, check_counts, check_entry, check_run};
use super::model::{
    Entry, Format, JSON_FILE, RUNS_HEADER, Table, csv_files, random_files, random_summary_header,
    runs_headers_before, summary_header,
};
use super::plan::Key;
use crate::count::{export, random};
use crate::error::{Error, Result};
use crate::memory;
use serde_json::Value;
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
        let mut files: BTreeMap<&str, Vec<(Key, Vec<String>)>> = BTreeMap::new();
        for (name, header, _) in csv_files() {
            let rows = if name == "runs.csv" {
                let [v2, v1] = runs_headers_before();
                read_csv(&dir.join(name), &header).or_else(|e| {
                    // An older runs.csv: its rows padded with the missing columns.
                    let mut rows = read_csv(&dir.join(name), v2)
                        .or_else(|_| read_csv(&dir.join(name), v1))
                        .map_err(|_| e)?;
                    for (_, r) in &mut rows {
                        r.resize(header.len() - 2, String::new());
                    }
                    Ok::<_, Error>(rows)
                })?
            } else if name == "summary.csv" {
                read_summary(dir)?
            } else {
                let rows = read_csv(&dir.join(name), &header)?;
                for (key, row) in &rows {
                    check_counts(&dir.join(name).display().to_string(), &header, key, row)?;
                }
                rows
            };
            files.insert(name, rows);
        }
        let mut table = Table::default();
        // A pair has one row in runs.csv and in summary.csv; pegsol never writes two (a
        // second one in pegs_left, finish or depth fails the sums of `check_entry`).
        let twice = |name: &str, key: &Key| {
            Error::input(format!(
                "{} was not written by pegsol table: a second row for {} {}",
                dir.join(name).display(),
                key.board,
                key.start
            ))
        };
        for (key, run) in files.remove("runs.csv").unwrap_or_default() {
            let entry = Entry {
                run,
                ..Entry::default()
            };
            if table.entries.contains_key(&key) {
                return Err(twice("runs.csv", &key));
            }
            table.entries.insert(key, entry);
        }
        for (name, rows) in files {
            for (key, row) in rows {
                let Some(e) = table.entries.get_mut(&key) else {
                    continue;
                };
                match name {
                    "summary.csv" if !e.summary.is_empty() => return Err(twice(name, &key)),
                    "summary.csv" => {
                        // The random player's cells, if the file has its columns and the
                        // pair its figures.
                        let short = summary_header().len() - 2;
                        let mut row = row;
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
            }
        }
        // The random player's files, where a table has them.
        for (name, header, _) in random_files() {
            if !dir.join(name).exists() {
                continue;
            }
            for (key, row) in read_csv(&dir.join(name), &header)? {
                if let Some(e) = table.entries.get_mut(&key) {
                    match name {
                        "random.csv" => e.random.push(row),
                        _ => e.random_finish.push(row),
                    }
                }
            }
        }
        Ok(table)
    }

    fn load_json(dir: &Path) -> Result<Table> {
        let path = dir.join(JSON_FILE);
        check_readable(&path, JSON_READ_BYTES_PER_BYTE)?;
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Table::default()),
            Err(e) => return Err(Error::input(format!("cannot read {}: {e}", path.display()))),
        };
        let file = JsonFile { path: &path };
        let doc: Value = serde_json::from_str(&text).map_err(|e| file.bad(&e.to_string()))?;
        let pairs = doc
            .get("pairs")
            .and_then(Value::as_array)
            .ok_or_else(|| file.bad("no \"pairs\" array"))?;
        let mut table = Table::default();
        for p in pairs {
            let (key, entry) = file.pair(p)?;
            file.check_pair_counts(&key, &entry)?;
            if table.entries.contains_key(&key) {
                return Err(file.bad(&format!("a second pair {} {}", key.board, key.start)));
            }
            table.entries.insert(key, entry);
        }
        Ok(table)
    }
}

/// table.json being read ([`Table::load_all`]).
struct JsonFile<'a> {
    path: &'a Path,
}

impl JsonFile<'_> {
    /// The refusal of a file that pegsol table did not write.
    fn bad(&self, what: &str) -> Error {
        Error::input(format!(
            "{} was not written by pegsol table: {what}",
            self.path.display()
        ))
    }

    /// The key and entry of one of the file's pairs, each of its objects read as the CSV
    /// row it stands for.
    fn pair(&self, p: &Value) -> Result<(Key, Entry)> {
        let field = |name: &str| -> Result<String> {
            p.get(name)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| self.bad(&format!("a pair without \"{name}\"")))
        };
        let key = Key::new(&field("board")?, &field("start")?);
        let object = |name: &str, header: &[&str]| -> Result<Vec<String>> {
            let o = p
                .get(name)
                .ok_or_else(|| self.bad(&format!("no \"{name}\"")))?;
            self.row(name, o, header)
        };
        let list = |name: &str, header: &[&str]| -> Result<Vec<Vec<String>>> {
            p.get(name)
                .and_then(Value::as_array)
                .ok_or_else(|| self.bad(&format!("no \"{name}\" array")))?
                .iter()
                .map(|o| self.row(name, o, header))
                .collect()
        };
        let random_list = |name: &str, header: &[&str]| -> Result<Vec<Vec<String>>> {
            match p.get(name) {
                Some(_) => list(name, header),
                None => Ok(Vec::new()),
            }
        };
        let random_summary = match p.get("random") {
            Some(_) => {
                object("summary", &random_summary_header())?.split_off(summary_header().len() - 2)
            }
            None => Vec::new(),
        };
        let entry = Entry {
            random_summary,
            random: random_list("random", random::RANDOM_HEADER)?,
            random_finish: random_list("random_finish", random::RANDOM_FINISH_HEADER)?,
            summary: object("summary", &summary_header())?,
            pegs_left: list("pegs_left", export::PEGS_LEFT_HEADER)?,
            finish: list("finish", export::FINISH_HEADER)?,
            depth: list("depth", export::DEPTH_HEADER)?,
            run: self.run_row(p)?,
        };
        Ok((key, entry))
    }

    /// One CSV row (the columns after board and start) from a JSON object.
    fn row(&self, name: &str, o: &Value, header: &[&str]) -> Result<Vec<String>> {
        header[2..]
            .iter()
            .map(|h| {
                o.get(*h)
                    .map(cell_text)
                    .ok_or_else(|| self.bad(&format!("\"{name}\" without \"{h}\"")))
            })
            .collect()
    }

    /// A pair's runs.csv row. A table written before the last columns of runs.csv: those
    /// are empty.
    fn run_row(&self, p: &Value) -> Result<Vec<String>> {
        let o = p.get("run").ok_or_else(|| self.bad("no \"run\""))?;
        let mut padded = o.clone();
        if let Some(m) = padded.as_object_mut() {
            for h in &RUNS_HEADER[RUNS_HEADER.len() - 2..] {
                m.entry(*h).or_insert(Value::String(String::new()));
            }
        }
        self.row("run", &padded, RUNS_HEADER)
    }

    /// Refuses a pair whose rows hold something other than counts ([`check_counts`]).
    fn check_pair_counts(&self, key: &Key, entry: &Entry) -> Result<()> {
        let where_ = self.path.display().to_string();
        check_counts(&where_, &summary_header(), key, &entry.summary)?;
        for (rows, header) in [
            (&entry.pegs_left, export::PEGS_LEFT_HEADER),
            (&entry.finish, export::FINISH_HEADER),
            (&entry.depth, export::DEPTH_HEADER),
        ] {
            for row in rows {
                check_counts(&where_, header, key, row)?;
            }
        }
        Ok(())
    }
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

/// A JSON value back as CSV text.
fn cell_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Bytes of memory that reading a table takes for each byte of its files, rounded up from
/// `report`'s peak (docs/experiments.md, "Limits the process cannot see in /proc/meminfo,
/// and the last bad-input gaps", and "Figures that were in code comments").
const CSV_READ_BYTES_PER_BYTE: u64 = 10;
const JSON_READ_BYTES_PER_BYTE: u64 = 24;

/// Refuses to read a table file that is not a regular file (a FIFO or a device, which a
/// read would wait on or never end), or one too large to read into the memory there is
/// ([`memory::usable`]), at `per_byte` bytes of memory a byte: one line, not a run killed
/// by the system.
fn check_readable(path: &Path, per_byte: u64) -> Result<()> {
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
fn read_csv(path: &Path, header: &[&str]) -> Result<Vec<(Key, Vec<String>)>> {
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
        let row: Vec<String> = rec.iter().map(str::to_string).collect();
        rows.push((Key::new(&row[0], &row[1]), row[2..].to_vec()));
    }
    Ok(rows)
}
