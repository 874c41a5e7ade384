//! `pegsol table`: counts every start class of several boards in one resumable batch.
//!
//! A batch is a list of [`Pair`]s (board, start hole), one per symmetry class of
//! single-vacancy starts (the class's smallest hole stands for it). The pairs of a board are
//! grouped into sweeps, one per position class ([`group_sweeps`]): a sweep counts several
//! starts at once and answers all its pairs together. Finished pairs live in a [`Table`];
//! after each sweep the whole table is written to the output directory with
//! [`files::write_atomically`], so an interrupted batch (Ctrl-C, SIGTERM, SIGKILL) loses at
//! most the sweep in progress, and rerunning the command skips every pair already complete.
//!
//! Files (CSV format): the four files of `pegsol count` with the same columns, plus the
//! column `start_class_size` at the end of `summary.csv`, plus `runs.csv` (one provenance row
//! per pair, [`RUNS_HEADER`]). `runs.csv` is renamed into place last: a pair counts as
//! complete only when its `runs.csv` row exists, so a kill between two renames is harmless.
//! JSON format: the same data in one file, `table.json`.
//!
//! Rows are sorted by board (natural order: `tri:4` before `tri:10`), then start hole
//! (row, then column), whatever order the pairs were computed in.

use crate::count::cluster::Cluster;
use crate::count::disk;
use crate::count::export::{self, CsvRows};
use crate::count::stats::Counts;
use crate::count::sweep::{self, CountOptions};
use crate::error::{Error, Result};
use crate::geometry::board::{Board, column_name};
use crate::output::files;
use crate::total::Total;
use crate::{memory, output::progress};
use serde_json::{Map, Value};
use std::cmp::Ordering as CmpOrdering;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The extra column of `summary.csv` in a table, after [`export::SUMMARY_HEADER`].
pub const CLASS_SIZE_COLUMN: &str = "start_class_size";

/// Columns of `runs.csv`. The first two identify the pair; the rest describe the run that
/// produced it and change from run to run (except `pegsol_version`).
pub const RUNS_HEADER: &[&str] = &[
    "board",
    "start",
    "pegsol_version",
    "git_commit",
    "date_utc",
    "threads",
    "wall_seconds",
    "peak_memory_bytes",
    "command",
    "sweep",
    "board_geometry",
];

/// `runs.csv` as written before its last columns: without `board_geometry` (v2), and
/// without `sweep` either (v1). Still read, the missing columns empty, so that a table
/// started by an earlier pegsol can be resumed.
fn runs_headers_before() -> [&'static [&'static str]; 2] {
    [
        &RUNS_HEADER[..RUNS_HEADER.len() - 1],
        &RUNS_HEADER[..RUNS_HEADER.len() - 2],
    ]
}

/// Where a pair's run row (`runs.csv` without board and start) names the board's geometry
/// ([`Board::geometry`]), empty in rows written before it: a table refuses to add a board
/// whose name it holds with another geometry (a board file named `english`, two files
/// `x.txt` in different folders).
const GEOMETRY_IN_RUN: usize = RUNS_HEADER.len() - 3;

/// The file `--format json` writes.
pub const JSON_FILE: &str = "table.json";

/// How the table is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// summary.csv, pegs_left.csv, finish.csv, depth.csv and runs.csv.
    Csv,
    /// One file, table.json.
    Json,
}

impl Format {
    /// The files a table in this format is kept in.
    ///
    /// ```
    /// use pegsol::count::table::Format;
    /// assert_eq!(Format::Json.file_names(), ["table.json"]);
    /// assert_eq!(Format::Csv.file_names().len(), 5);
    /// ```
    pub fn file_names(self) -> Vec<&'static str> {
        match self {
            Format::Csv => csv_files().iter().map(|f| f.0).collect(),
            Format::Json => vec![JSON_FILE],
        }
    }
}

/// One (board, start) pair of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The board as the table names it ([`Board::name`]: `tri:5`, a board file's stem).
    pub board: String,
    /// The spec the board is read from again ([`Board::spec`]: `tri:5`, a board file's
    /// path as given).
    pub spec: String,
    /// The empty hole at the start (`a1`).
    pub start: String,
    /// The hole's index on the board.
    pub hole: usize,
    /// How many holes the start's symmetry class holds.
    pub class_size: usize,
}

/// Expands board ranges: `tri:4..7` becomes `tri:4`, `tri:5`, `tri:6`, `tri:7` (any
/// `PREFIX:A..B`, bounds included); other specs pass through. Duplicates are dropped.
///
/// ```
/// let b = pegsol::count::table::expand_boards(&["tri:4..6".into(), "english".into()]).unwrap();
/// assert_eq!(b, ["tri:4", "tri:5", "tri:6", "english"]);
/// let b = pegsol::count::table::expand_boards(&["Tri:4..5".into(), "tri:5".into()]).unwrap();
/// assert_eq!(b, ["tri:4", "tri:5"]);
/// ```
pub fn expand_boards(specs: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for spec in specs {
        let spec = &crate::geometry::board::builtin_spec(spec).into_owned();
        let expanded = match spec.split_once(':') {
            Some((prefix, range)) if range.contains("..") => {
                let (a, b) = range.split_once("..").expect("checked");
                let bad = || {
                    Error::input(format!(
                        "board range '{spec}': expected {prefix}:A..B with whole numbers A <= B"
                    ))
                };
                let a: usize = a.trim().parse().map_err(|_| bad())?;
                let b: usize = b
                    .trim()
                    .trim_start_matches('=')
                    .parse()
                    .map_err(|_| bad())?;
                if a > b {
                    return Err(bad());
                }
                // The bounds are boards before the range is spelled out: `tri:3..100000`
                // is refused at once, not after a hundred thousand names.
                for n in [a, b] {
                    Board::from_spec(&format!("{prefix}:{n}"))?;
                }
                (a..=b).map(|n| format!("{prefix}:{n}")).collect()
            }
            _ => vec![spec.clone()],
        };
        for s in expanded {
            if seen.insert(s.clone()) {
                out.push(s);
            }
        }
    }
    Ok(out)
}

/// The pairs of a batch: for each board, one pair per start class (its smallest hole), or,
/// when `starts` names cells, one pair per named cell (standing for its class). `starts`
/// empty or `["all"]` means every class. Two cells of the same class are refused: the table
/// would count that class twice.
///
/// ```
/// let p = pegsol::count::table::plan(&["tri:5".into()], &[]).unwrap();
/// let v: Vec<(&str, usize)> = p.iter().map(|p| (p.start.as_str(), p.class_size)).collect();
/// assert_eq!(v, [("a1", 3), ("a2", 6), ("a3", 3), ("b3", 3)]);
/// ```
pub fn plan(boards: &[String], starts: &[String]) -> Result<Vec<Pair>> {
    let all = starts.is_empty() || starts.iter().any(|s| s.eq_ignore_ascii_case("all"));
    if all && starts.len() > 1 {
        return Err(Error::input("--starts all cannot be combined with cells"));
    }
    let mut pairs = Vec::new();
    let mut names: Vec<(String, &str)> = Vec::new();
    for spec in boards {
        let board = Board::from_spec(spec)?;
        // The table keys its rows by the board's name: two specs of one name would share
        // rows (board files of the same stem in two folders).
        match names.iter().find(|(name, _)| name == board.name()) {
            Some((name, other)) if *other != spec => {
                return Err(Error::input(format!(
                    "boards {other} and {spec} are both named {name} in a table; rename one"
                )));
            }
            Some(_) => {}
            None => names.push((board.name().to_string(), spec)),
        }
        let classes = board.hole_classes();
        let class_of = |h: usize| classes.iter().find(|c| c.contains(&h)).expect("class");
        if all {
            for class in &classes {
                pairs.push(pair(&board, class[0], class.len()));
            }
            continue;
        }
        let mut seen: Vec<(usize, String)> = Vec::new();
        for name in starts {
            let hole = board.hole(name)?;
            let class = class_of(hole);
            if let Some((_, other)) = seen.iter().find(|(h, _)| class.contains(h)) {
                if *other == board.hole_name(hole) {
                    continue;
                }
                return Err(Error::input(format!(
                    "starts {other} and {} on {spec} are symmetric (the same start class); \
                     give one of them",
                    board.hole_name(hole)
                )));
            }
            seen.push((hole, board.hole_name(hole)));
            pairs.push(pair(&board, hole, class.len()));
        }
    }
    Ok(pairs)
}

fn pair(board: &Board, hole: usize, class_size: usize) -> Pair {
    Pair {
        board: board.name().to_string(),
        spec: board.spec().to_string(),
        start: board.hole_name(hole),
        hole,
        class_size,
    }
}

/// The identity of a pair, ordered for output: boards in natural order, then starts by
/// (row, column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// Board spec.
    pub board: String,
    /// Start name.
    pub start: String,
}

impl Key {
    /// The key of a board and start.
    ///
    /// ```
    /// use pegsol::count::table::Key;
    /// assert_eq!(Key::new("tri:5", "a1").start, "a1");
    /// // Boards in natural order, then starts by row and column.
    /// assert!(Key::new("tri:9", "a1") < Key::new("tri:10", "a1"));
    /// assert!(Key::new("tri:5", "c1") < Key::new("tri:5", "a2"));
    /// ```
    pub fn new(board: &str, start: &str) -> Key {
        Key {
            board: board.to_string(),
            start: start.to_string(),
        }
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> CmpOrdering {
        natural(&self.board)
            .cmp(&natural(&other.board))
            .then_with(|| self.board.cmp(&other.board))
            .then_with(|| cell_order(&self.start).cmp(&cell_order(&other.start)))
            .then_with(|| self.start.cmp(&other.start))
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}

/// Splits a string into text and number chunks so that `tri:9` sorts before `tri:10`.
fn natural(s: &str) -> Vec<(String, usize, String)> {
    let mut chunks = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        let text_end = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (text, tail) = rest.split_at(text_end);
        let num_end = tail
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(tail.len());
        let (num, tail) = tail.split_at(num_end);
        let num = num.trim_start_matches('0');
        chunks.push((text.to_string(), num.len(), num.to_string()));
        rest = tail;
    }
    chunks
}

/// (row, column) of a cell name such as `b3`; cells that do not parse sort last.
fn cell_order(name: &str) -> (usize, usize) {
    let split = name
        .find(|c: char| !c.is_ascii_lowercase())
        .unwrap_or(name.len());
    let (letters, digits) = name.split_at(split);
    let col = letters
        .bytes()
        .try_fold(0usize, |acc, b| {
            acc.checked_mul(26)?.checked_add((b - b'a' + 1) as usize)
        })
        .filter(|&c| c > 0);
    match (col, digits.parse::<usize>()) {
        (Some(col), Ok(row)) if column_name(col - 1) == letters => (row, col),
        _ => (usize::MAX, usize::MAX),
    }
}

/// Everything the table stores about one finished pair: its rows in each file, without
/// the board and start columns (they are the key).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// summary.csv: the values after board and start, `start_class_size` last.
    pub summary: Vec<String>,
    /// pegs_left.csv rows.
    pub pegs_left: Vec<Vec<String>>,
    /// finish.csv rows.
    pub finish: Vec<Vec<String>>,
    /// depth.csv rows.
    pub depth: Vec<Vec<String>>,
    /// runs.csv: the values after board and start.
    pub run: Vec<String>,
}

impl Entry {
    /// The entry of a finished count.
    ///
    /// ```
    /// use pegsol::{count::{count, table::Entry, CountOptions}, geometry::Board};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// let e = Entry::new(&c, 3, vec![]);
    /// // summary.csv's values after board and start, then the class size (published figures)
    /// assert_eq!(e.summary, ["3016", "1544", "568630", "29760", "8", "2", "6", "2", "3"]);
    /// assert_eq!(e.finish[0], ["a1", "6816"]);
    /// ```
    pub fn new(counts: &Counts, class_size: usize, run: Vec<String>) -> Entry {
        let rows = CsvRows::of(counts);
        let strip = |rows: Vec<Vec<String>>| -> Vec<Vec<String>> {
            rows.into_iter().map(|r| r[2..].to_vec()).collect()
        };
        let mut summary = rows.summary[2..].to_vec();
        summary.push(class_size.to_string());
        Entry {
            summary,
            pegs_left: strip(rows.pegs_left),
            finish: strip(rows.finish),
            depth: strip(rows.depth),
            run,
        }
    }

    /// Whether the entry holds what every count has: its summary, a row of depth.csv (the
    /// start, no jump made), one of pegs_left.csv (some game ends), and, when it has wins,
    /// one of finish.csv. A table's pair whose rows a file lost is not complete, and is
    /// counted again.
    ///
    /// ```
    /// use pegsol::{count::{count, table::Entry, CountOptions}, geometry::Board};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let mut e = Entry::new(&count(&b, b.default_start(), &CountOptions::default()).unwrap(), 3, vec![]);
    /// assert!(e.is_whole());
    /// e.finish.clear(); // 29,760 wins, but no finishing hole
    /// assert!(!e.is_whole());
    /// ```
    pub fn is_whole(&self) -> bool {
        self.missing().is_none()
    }

    /// The cell of summary.csv's column `column`, if the row has it.
    fn summary_cell(&self, column: &str) -> Option<&str> {
        let i = summary_header()
            .iter()
            .position(|h| *h == column)
            .expect("column")
            - 2;
        self.summary.get(i).map(String::as_str)
    }

    /// The first part of a count the entry lacks (`summary`, `depth`, `pegs_left`,
    /// `finish`), if any: see [`Entry::is_whole`].
    fn missing(&self) -> Option<&'static str> {
        if self.summary.is_empty() {
            Some("summary")
        } else if self.depth.is_empty() {
            Some("depth")
        } else if self.pegs_left.is_empty() {
            Some("pegs_left")
        } else if self.finish.is_empty() && self.summary_cell("wins").is_some_and(|w| w != "0") {
            Some("finish")
        } else {
            None
        }
    }
}

/// The finished pairs of a batch, in output order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// Finished pairs.
    pub entries: BTreeMap<Key, Entry>,
}

/// The header of a table's summary.csv.
///
/// ```
/// let h = pegsol::count::table::summary_header();
/// assert_eq!(h[..2], ["board", "start"]);
/// assert_eq!(h.last(), Some(&"start_class_size"));
/// assert_eq!(h.len(), pegsol::count::export::SUMMARY_HEADER.len() + 1);
/// ```
pub fn summary_header() -> Vec<&'static str> {
    let mut h = export::SUMMARY_HEADER.to_vec();
    h.push(CLASS_SIZE_COLUMN);
    h
}

/// The five files of one table in CSV format, runs.csv last, as (name, header, key
/// columns + field accessor).
type FileSpec = (
    &'static str,
    Vec<&'static str>,
    fn(&Entry) -> Vec<Vec<String>>,
);

fn csv_files() -> Vec<FileSpec> {
    vec![
        ("summary.csv", summary_header(), |e| vec![e.summary.clone()]),
        ("pegs_left.csv", export::PEGS_LEFT_HEADER.to_vec(), |e| {
            e.pegs_left.clone()
        }),
        ("finish.csv", export::FINISH_HEADER.to_vec(), |e| {
            e.finish.clone()
        }),
        ("depth.csv", export::DEPTH_HEADER.to_vec(), |e| {
            e.depth.clone()
        }),
        ("runs.csv", RUNS_HEADER.to_vec(), |e| vec![e.run.clone()]),
    ]
}

impl Table {
    /// The built-in board that the pairs named `name` were counted on: None for a board
    /// file's name, or when the pairs record another geometry (runs.csv's
    /// `board_geometry`: a board file named `english.txt` is keyed `english`), or a name
    /// not spelled as pegsol spells the board (`TRI:5`). Rows from before that column are
    /// taken to be of the built-in board when their starts and class sizes are its.
    ///
    /// ```
    /// use pegsol::count::table::Table;
    /// let t = Table::default();
    /// assert_eq!(t.builtin_board("tri:5").unwrap().holes(), 15);
    /// assert!(t.builtin_board("boards/trapezoid.txt").is_none());
    /// assert!(t.builtin_board("TRI:5").is_none());
    /// ```
    pub fn builtin_board(&self, name: &str) -> Option<Board> {
        use crate::geometry::board::{builtin_spec, is_builtin};
        if !is_builtin(name) || builtin_spec(name) != name {
            return None;
        }
        let board = Board::from_spec(name).ok()?;
        let geometry = board.geometry();
        let classes = board.hole_classes();
        // A pair without a geometry is the built-in board's when its start is a hole
        // named as the board names it and its class size is that hole's class's.
        let builtin_start = |start: &str, e: &Entry| {
            let Some(hole) = board
                .hole(start)
                .ok()
                .filter(|&h| board.hole_name(h) == start)
            else {
                return false;
            };
            let size = e.summary_cell(CLASS_SIZE_COLUMN).unwrap_or("");
            classes
                .iter()
                .find(|c| c.contains(&hole))
                .is_some_and(|c| c.len().to_string() == size)
        };
        let other = self.entries.iter().any(|(k, e)| {
            k.board == name
                && match e.run.get(GEOMETRY_IN_RUN).map_or("", String::as_str) {
                    "" => !builtin_start(&k.start, e),
                    g => g != geometry,
                }
        });
        (!other).then_some(board)
    }

    /// Whether the pair is finished.
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
    /// // `t`: a table of tri:5 from each of its four start classes (a1 stands for the corners).
    /// assert!(t.contains("tri:5", "a1") && t.contains("tri:5", "b3"));
    /// assert!(!t.contains("tri:5", "a5") && !t.contains("tri:6", "a1"));
    /// ```
    pub fn contains(&self, board: &str, start: &str) -> bool {
        self.entries.contains_key(&Key::new(board, start))
    }

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
    /// ([`check_entry`], and their labels: [`super::labels`]).
    fn load_all(dir: &Path, format: Format) -> Result<Table> {
        let table = match format {
            Format::Csv => Table::load_csv(dir)?,
            Format::Json => Table::load_json(dir)?,
        };
        let sources = Sources::of(dir, format);
        super::labels::check_table(&table, &|part| sources.file(part).to_string())?;
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
                    "summary.csv" => e.summary = row,
                    "pegs_left.csv" => e.pegs_left.push(row),
                    "finish.csv" => e.finish.push(row),
                    "depth.csv" => e.depth.push(row),
                    _ => unreachable!("known files"),
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
        let bad = |what: &str| {
            Error::input(format!(
                "{} was not written by pegsol table: {what}",
                path.display()
            ))
        };
        let doc: Value = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
        let pairs = doc
            .get("pairs")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("no \"pairs\" array"))?;
        let mut table = Table::default();
        for p in pairs {
            let field = |name: &str| -> Result<String> {
                p.get(name)
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| bad(&format!("a pair without \"{name}\"")))
            };
            let key = Key::new(&field("board")?, &field("start")?);
            // One CSV row (the columns after board and start) from a JSON object.
            let row = |name: &str, o: &Value, header: &[&str]| -> Result<Vec<String>> {
                header[2..]
                    .iter()
                    .map(|h| {
                        o.get(*h)
                            .map(cell_text)
                            .ok_or_else(|| bad(&format!("\"{name}\" without \"{h}\"")))
                    })
                    .collect()
            };
            let object = |name: &str, header: &[&str]| -> Result<Vec<String>> {
                let o = p.get(name).ok_or_else(|| bad(&format!("no \"{name}\"")))?;
                row(name, o, header)
            };
            let list = |name: &str, header: &[&str]| -> Result<Vec<Vec<String>>> {
                p.get(name)
                    .and_then(Value::as_array)
                    .ok_or_else(|| bad(&format!("no \"{name}\" array")))?
                    .iter()
                    .map(|o| row(name, o, header))
                    .collect()
            };
            let entry = Entry {
                summary: object("summary", &summary_header())?,
                pegs_left: list("pegs_left", export::PEGS_LEFT_HEADER)?,
                finish: list("finish", export::FINISH_HEADER)?,
                depth: list("depth", export::DEPTH_HEADER)?,
                // A table written before the last columns of runs.csv: those are empty.
                run: {
                    let o = p.get("run").ok_or_else(|| bad("no \"run\""))?;
                    let mut padded = o.clone();
                    if let Some(m) = padded.as_object_mut() {
                        for h in &RUNS_HEADER[RUNS_HEADER.len() - 2..] {
                            m.entry(*h).or_insert(Value::String(String::new()));
                        }
                    }
                    row("run", &padded, RUNS_HEADER)?
                },
            };
            let where_ = path.display().to_string();
            check_counts(&where_, &summary_header(), &key, &entry.summary)?;
            for (rows, header) in [
                (&entry.pegs_left, export::PEGS_LEFT_HEADER),
                (&entry.finish, export::FINISH_HEADER),
                (&entry.depth, export::DEPTH_HEADER),
            ] {
                for row in rows {
                    check_counts(&where_, header, &key, row)?;
                }
            }
            if table.entries.contains_key(&key) {
                return Err(bad(&format!("a second pair {} {}", key.board, key.start)));
            }
            table.entries.insert(key, entry);
        }
        Ok(table)
    }

    /// The files of the table in `format`, as (file name, bytes); in CSV format runs.csv
    /// comes last, so that writing them in this order makes a pair complete only once all
    /// its rows are in place.
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
    /// let names: Vec<&str> = t.files(Format::Csv).unwrap().iter().map(|f| f.0).collect();
    /// assert_eq!(names, ["summary.csv", "pegs_left.csv", "finish.csv", "depth.csv", "runs.csv"]);
    /// let summary = String::from_utf8(t.files(Format::Csv).unwrap()[0].1.clone()).unwrap();
    /// assert!(summary.contains("\ntri:5,a1,3016,1544,568630,29760,8,2,6,2,3\n")); // published
    /// assert_eq!(t.files(Format::Json).unwrap()[0].0, "table.json");
    /// ```
    pub fn files(&self, format: Format) -> Result<Vec<(&'static str, Vec<u8>)>> {
        match format {
            Format::Csv => csv_files()
                .into_iter()
                .map(|(name, header, rows_of)| {
                    let rows: Vec<Vec<String>> = self
                        .entries
                        .iter()
                        .flat_map(|(k, e)| {
                            rows_of(e).into_iter().map(move |r| {
                                let mut row = vec![k.board.clone(), k.start.clone()];
                                row.extend(r);
                                row
                            })
                        })
                        .collect();
                    Ok((name, files::csv_bytes(&header, &rows)?))
                })
                .collect(),
            Format::Json => {
                let mut text = serde_json::to_string_pretty(&self.to_json())
                    .map_err(|e| Error::input(format!("cannot format JSON: {e}")))?;
                text.push('\n');
                Ok(vec![(JSON_FILE, text.into_bytes())])
            }
        }
    }

    /// The table as one JSON document: `{"pairs": [{board, start, summary, pegs_left,
    /// finish, depth, run}, ...]}`, field names as in the CSV headers, integers as JSON
    /// numbers (exact, however large).
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
    /// let j = t.to_json();
    /// assert_eq!(j["pairs"][0]["start"], "a1");
    /// assert_eq!(j["pairs"][0]["summary"]["games"].to_string(), "568630"); // published
    /// assert_eq!(j["pairs"][3]["summary"]["wins"].to_string(), "1550"); // b3, published
    /// ```
    pub fn to_json(&self) -> Value {
        let object = |header: &[&str], values: &[String]| -> Value {
            let map: Map<String, Value> = header[2..]
                .iter()
                .zip(values)
                .map(|(h, v)| (h.to_string(), json_cell(v)))
                .collect();
            Value::Object(map)
        };
        let list = |header: &[&str], rows: &[Vec<String>]| -> Value {
            Value::Array(rows.iter().map(|r| object(header, r)).collect())
        };
        let pairs = self
            .entries
            .iter()
            .map(|(k, e)| {
                let mut m = Map::new();
                m.insert("board".into(), Value::String(k.board.clone()));
                m.insert("start".into(), Value::String(k.start.clone()));
                m.insert("summary".into(), object(&summary_header(), &e.summary));
                m.insert(
                    "pegs_left".into(),
                    list(export::PEGS_LEFT_HEADER, &e.pegs_left),
                );
                m.insert("finish".into(), list(export::FINISH_HEADER, &e.finish));
                m.insert("depth".into(), list(export::DEPTH_HEADER, &e.depth));
                m.insert("run".into(), object(RUNS_HEADER, &e.run));
                Value::Object(m)
            })
            .collect();
        let mut doc = Map::new();
        doc.insert("pairs".into(), Value::Array(pairs));
        Value::Object(doc)
    }

    /// Writes the table into `dir`, every file replaced atomically.
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
    /// t.save(dir.path(), Format::Csv).unwrap();
    /// let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    /// assert!(summary.contains("\ntri:5,b3,"));
    /// assert_eq!(summary.lines().count(), 1 + 4);
    /// assert_eq!(table::Table::load(dir.path(), Format::Csv).unwrap(), t);
    /// ```
    pub fn save(&self, dir: &Path, format: Format) -> Result<()> {
        files::write_atomically(dir, &self.files(format)?)
    }
}

/// A CSV value as JSON: a number when it reads as one, a string otherwise.
fn json_cell(v: &str) -> Value {
    let numeric = !v.is_empty()
        && v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && v.as_bytes()[0].is_ascii_digit();
    if numeric && let Ok(n) = serde_json::from_str::<serde_json::Number>(v) {
        return Value::Number(n);
    }
    Value::String(v.to_string())
}

/// A JSON value back as CSV text.
fn cell_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Bytes of memory that reading a table takes for each byte of its files, rounded up
/// (measured on 29 November 2026 by `report`'s peak; docs/experiments.md, "Limits the
/// process cannot see in /proc/meminfo, and the last bad-input gaps"): CSV, a depth.csv of 55 MB
/// took 473 MB (8.6 a byte); JSON, a compact table.json of 21 MB took 414 MB (19.7; the
/// same indented, 40 MB, 429 MB).
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

/// Refuses a row of a table's count files (`row`: the columns after board and start) in
/// which a count is not a whole number that fits 256 bits ([`Total`]): every column but
/// `finish`, which names a hole.
fn check_counts(file: &str, header: &[&str], key: &Key, row: &[String]) -> Result<()> {
    for (name, v) in header[2..].iter().zip(row) {
        if *name != "finish" && !(super::labels::is_count(v) && v.parse::<Total>().is_ok()) {
            return Err(Error::input(format!(
                "{file} was not written by pegsol table: {name} of {} from {} is '{}', not a \
                 count",
                key.board,
                key.start,
                v.escape_debug()
            )));
        }
    }
    Ok(())
}

/// Where each part of a table is read from, for messages: the CSV file of each part, or
/// `table.json` for all of them.
struct Sources {
    /// summary.csv or table.json, as displayed.
    summary: String,
    pegs_left: String,
    finish: String,
    depth: String,
    runs: String,
    /// How a message names the summary: `summary.csv` or `the summary`.
    summary_name: &'static str,
}

impl Sources {
    fn of(dir: &Path, format: Format) -> Sources {
        let path = |name: &str| dir.join(name).display().to_string();
        match format {
            Format::Csv => Sources {
                summary: path("summary.csv"),
                pegs_left: path("pegs_left.csv"),
                finish: path("finish.csv"),
                depth: path("depth.csv"),
                runs: path("runs.csv"),
                summary_name: "summary.csv",
            },
            Format::Json => Sources {
                summary: path(JSON_FILE),
                pegs_left: path(JSON_FILE),
                finish: path(JSON_FILE),
                depth: path(JSON_FILE),
                runs: path(JSON_FILE),
                summary_name: "the summary",
            },
        }
    }

    /// The file of a part: `summary`, `pegs_left`, `finish`, `depth` or `run`.
    fn file(&self, part: &str) -> &str {
        match part {
            "summary" => &self.summary,
            "pegs_left" => &self.pegs_left,
            "finish" => &self.finish,
            "depth" => &self.depth,
            _ => &self.runs,
        }
    }
}

/// Refuses a row of runs.csv (`run`: the columns after board and start) whose `threads`,
/// `wall_seconds`, `peak_memory_bytes` or `board_geometry` is not what pegsol writes there:
/// a whole number of threads from 1, seconds as digits and a point, bytes as a whole
/// number or `unknown`, a geometry line ([`Board::is_geometry`]) or nothing (rows from
/// before that column).
fn check_run(file: &str, key: &Key, run: &[String]) -> Result<()> {
    let field = |name: &str| {
        let i = RUNS_HEADER.iter().position(|h| *h == name).expect("column") - 2;
        run.get(i).map_or("", String::as_str)
    };
    let digits = |v: &str| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit());
    let threads = field("threads");
    let seconds = field("wall_seconds");
    let bytes = field("peak_memory_bytes");
    let bad = if !(digits(threads) && threads.parse::<usize>().is_ok_and(|n| n > 0)) {
        Some(("threads", threads, "a number of threads"))
    } else if !(seconds.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && seconds.parse::<f64>().is_ok_and(f64::is_finite))
    {
        Some(("wall_seconds", seconds, "a number of seconds"))
    } else if !(bytes == "unknown" || (digits(bytes) && bytes.parse::<u64>().is_ok())) {
        Some(("peak_memory_bytes", bytes, "a number of bytes"))
    } else if let geometry = field("board_geometry")
        && !(geometry.is_empty() || Board::is_geometry(geometry))
    {
        Some(("board_geometry", geometry, "a board's geometry"))
    } else {
        None
    };
    match bad {
        Some((name, v, what)) => Err(Error::input(format!(
            "{file} was not written by pegsol table: {name} of {} from {} is '{}', not {what}",
            key.board,
            key.start,
            v.escape_debug()
        ))),
        None => Ok(()),
    }
}

/// A built-in board with its start classes ([`Board::hole_classes`]).
type KnownBoard = (Board, Vec<Vec<usize>>);

/// A built-in board named `name` whose geometry is `geometry` (runs.csv's
/// `board_geometry`), with its start classes; None for a board file's name, which the
/// table cannot read again, and for rows from before that column (`geometry` empty), which
/// may hold a board file named `english.txt` under the name `english`.
fn builtin_board(name: &str, geometry: &str) -> Option<KnownBoard> {
    use crate::geometry::board::{builtin_spec, is_builtin};
    if geometry.is_empty() || !is_builtin(name) || builtin_spec(name) != name {
        return None;
    }
    let board = Board::from_spec(name).ok()?;
    if board.name() != name || board.geometry() != geometry {
        return None;
    }
    let classes = board.hole_classes();
    Some((board, classes))
}

/// Refuses a whole entry whose numbers cannot be right: a start class size other than
/// the size of the start's orbit under the board's symmetries (for a board file, outside
/// 1..=[`MAX_HOLES`](crate::geometry::board::MAX_HOLES)), or rows of pegs_left, finish
/// and depth that do not add up to the summary: games by pegs left to `games`, games
/// leaving one peg to `wins`, wins by finishing hole to `wins`, games ended, positions and
/// reduced positions by depth to `games`, `positions` and `positions_reduced`. Sums are
/// checked: past 256 bits they cannot equal a summary's count.
fn check_entry(
    sources: &Sources,
    key: &Key,
    e: &Entry,
    boards: &mut BTreeMap<String, Option<KnownBoard>>,
) -> Result<Option<usize>> {
    let (board, start) = (&key.board, &key.start);
    let refuse = |part: &str, what: String| {
        Error::input(format!("{}: {board} {start}: {what}", sources.file(part)))
    };
    let number = |part: &str, v: &str| -> Result<Total> {
        v.parse()
            .map_err(|_| refuse(part, format!("'{}' is not a count", v.escape_debug())))
    };
    let summary_col = |name: &str| -> Result<Total> {
        let header = summary_header();
        let i = header.iter().position(|h| *h == name).expect("column") - 2;
        number("summary", e.summary.get(i).map_or("", String::as_str))
    };
    // The class size.
    let size = summary_col(CLASS_SIZE_COLUMN)?;
    let geometry = e.run.get(GEOMETRY_IN_RUN).map_or("", String::as_str);
    let known = boards
        .entry(format!("{board}\n{geometry}"))
        .or_insert_with(|| builtin_board(board, geometry));
    let mut class_of = None;
    match known {
        Some((b, classes)) => {
            let hole = b
                .hole(start)
                .ok()
                .filter(|&h| b.hole_name(h) == *start)
                .ok_or_else(|| refuse("summary", format!("{start} is not a hole of {board}")))?;
            let at = classes
                .iter()
                .position(|c| c.contains(&hole))
                .expect("class");
            class_of = Some(at);
            let class = &classes[at];
            if size != class.len() as u128 {
                return Err(refuse(
                    "summary",
                    format!(
                        "start_class_size is {size}, but the start class of {start} holds {} \
                         holes",
                        class.len()
                    ),
                ));
            }
        }
        None => {
            let max = crate::geometry::board::MAX_HOLES;
            if !size
                .to_u128()
                .is_some_and(|s| (1..=max as u128).contains(&s))
            {
                return Err(refuse(
                    "summary",
                    format!("start_class_size is {size}; a start class holds 1 to {max} holes"),
                ));
            }
        }
    }
    // The rows against the summary.
    let sum = |part: &str, rows: &[Vec<String>], header: &[&str], column: &str| {
        let i = header.iter().position(|h| *h == column).expect("column") - 2;
        rows.iter().try_fold(Some(Total::ZERO), |acc, r| {
            let v = number(part, r.get(i).map_or("", String::as_str))?;
            Ok::<_, Error>(acc.and_then(|a| a.plus(v).ok()))
        })
    };
    let agree = |part: &str, found: Option<Total>, what: &str, column: &str| -> Result<()> {
        let said = summary_col(column)?;
        if found == Some(said) {
            return Ok(());
        }
        let found = found.map_or("2^256 or more".into(), |n| n.to_string());
        Err(refuse(
            part,
            format!("{what} {found}, {} says {said}", sources.summary_name),
        ))
    };
    let games = sum("pegs_left", &e.pegs_left, export::PEGS_LEFT_HEADER, "games")?;
    agree(
        "pegs_left",
        games,
        "the games per pegs left sum to",
        "games",
    )?;
    let one_peg = e
        .pegs_left
        .iter()
        .find(|r| r.first().is_some_and(|p| p == "1"))
        .map_or(Ok(Total::ZERO), |r| number("pegs_left", &r[1]))?;
    agree(
        "pegs_left",
        Some(one_peg),
        "the games leaving 1 peg are",
        "wins",
    )?;
    let wins = sum("finish", &e.finish, export::FINISH_HEADER, "wins")?;
    agree("finish", wins, "the wins per finish sum to", "wins")?;
    for (column, what) in [
        ("games_ended", "the games ended per depth sum to"),
        ("positions", "the positions per depth sum to"),
        (
            "positions_reduced",
            "the reduced positions per depth sum to",
        ),
    ] {
        let found = sum("depth", &e.depth, export::DEPTH_HEADER, column)?;
        let against = if column == "games_ended" {
            "games"
        } else {
            column
        };
        agree("depth", found, what, against)?;
    }
    check_extremes(e, &refuse, &summary_col)?;
    Ok(class_of)
}

/// Refuses rows of one pair that name a label twice (pegs left, finishing hole, jumps), a
/// depth row with more dead ends or reduced positions than positions, and extremes in the
/// summary other than its rows': the most pegs a dead end leaves and its games are the
/// highest row of pegs_left.csv, the shortest game and its games the first depth with
/// games ended, and every game's pegs left and jumps add up to the start's pegs.
fn check_extremes(
    e: &Entry,
    refuse: &dyn Fn(&str, String) -> Error,
    summary_col: &dyn Fn(&str) -> Result<Total>,
) -> Result<()> {
    let value = |part: &str, r: &[String], i: usize| -> Result<Total> {
        r.get(i)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| refuse(part, "a row without its numbers".into()))
    };
    let mut seen = std::collections::BTreeSet::new();
    for (part, rows, what) in [
        ("pegs_left", &e.pegs_left, "pegs left"),
        ("finish", &e.finish, "finish"),
        ("depth", &e.depth, "jumps"),
    ] {
        seen.clear();
        for r in rows.iter() {
            let label = r.first().map_or(String::new(), |l| l.to_ascii_lowercase());
            let label = match label.parse::<u128>() {
                Ok(n) => n.to_string(),
                Err(_) => label,
            };
            if !seen.insert(label.clone()) {
                return Err(refuse(part, format!("two rows for {what} {label}")));
            }
        }
    }
    // pegs_left.csv: (pegs, games); depth.csv: (jumps, positions, reduced, ended, dead).
    let mut ends: Vec<(Total, Total)> = Vec::new();
    for r in &e.pegs_left {
        ends.push((value("pegs_left", r, 0)?, value("pegs_left", r, 1)?));
    }
    let mut ended: Vec<(Total, Total)> = Vec::new();
    for r in &e.depth {
        let [jumps, positions, reduced, games, dead] =
            [0, 1, 2, 3, 4].map(|i| value("depth", r, i));
        let (jumps, positions, reduced, games, dead) =
            (jumps?, positions?, reduced?, games?, dead?);
        if reduced > positions || dead > positions {
            return Err(refuse(
                "depth",
                format!(
                    "after {jumps} jumps: {positions} positions, but {reduced} up to symmetry \
                     and {dead} dead ends"
                ),
            ));
        }
        if !games.is_zero() {
            ended.push((jumps, games));
        }
    }
    let (Some(&most), Some(&fewest)) = (ends.iter().max(), ends.iter().min()) else {
        return Ok(());
    };
    let (Some(&first), Some(&last)) = (ended.iter().min(), ended.iter().max()) else {
        return Ok(());
    };
    let said = [
        ("max_dead_end_pegs", most.0, "pegs_left"),
        ("max_dead_end_games", most.1, "pegs_left"),
        ("shortest_game_jumps", first.0, "depth"),
        ("shortest_game_games", first.1, "depth"),
    ];
    for (column, found, part) in said {
        let s = summary_col(column)?;
        if s != found {
            return Err(refuse(
                part,
                format!("{column} is {s} in the summary, {found} by its rows"),
            ));
        }
    }
    if most.0.plus(first.0).ok() != fewest.0.plus(last.0).ok() {
        return Err(refuse(
            "depth",
            format!(
                "games ending after {} and {} jumps leave {} and {} pegs: not one start's",
                first.0, last.0, most.0, fewest.0
            ),
        ));
    }
    Ok(())
}

/// The git commit pegsol was built from (`-dirty` when its sources, `src/`, `build.rs`,
/// `Cargo.toml` or `Cargo.lock`, had changes), or `unknown` outside a git checkout.
///
/// ```
/// let c = pegsol::count::table::git_commit();
/// let hash = c.trim_end_matches("-dirty");
/// assert!(c == "unknown" || (hash.len() == 40 && hash.chars().all(|x| x.is_ascii_hexdigit())));
/// ```
pub fn git_commit() -> &'static str {
    option_env!("PEGSOL_GIT_COMMIT").unwrap_or("unknown")
}

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// Worker threads (0 = one per core).
    pub threads: usize,
    /// Memory budget of each count.
    pub max_memory: u64,
    /// Draw progress bars.
    pub progress: bool,
    /// Where the table lives (None: keep it in memory only).
    pub dir: Option<std::path::PathBuf>,
    /// File format in `dir`.
    pub format: Format,
    /// The command line, recorded in runs.csv.
    pub command: String,
    /// Where sweeps keep their layers on disk ([`CountOptions::work_dir`]).
    pub work_dir: Option<std::path::PathBuf>,
    /// Keep each sweep's folder in the work directory.
    pub keep_work: bool,
    /// The most disk the layer files may take.
    pub max_disk: Option<u64>,
    /// The ranks sharing each sweep ([`CountOptions::cluster`]); rank 0 alone reads and
    /// writes the table.
    pub cluster: Cluster,
    /// Set to stop the batch with [`Error::Interrupted`] at the next batch of work, every
    /// finished pair saved (`pegsol table` sets it on Ctrl-C and SIGTERM; the library
    /// installs no signal handler of its own).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// What a batch did.
#[derive(Debug)]
pub struct BatchReport {
    /// The table after the batch (all pairs, earlier runs' included).
    pub table: Table,
    /// Pairs computed by this run.
    pub computed: usize,
    /// Pairs found complete and skipped.
    pub skipped: usize,
    /// The peak resident memory of this run, in bytes (the largest of the pairs' peaks:
    /// the peak is reset before each pair, see [`memory::reset_peak_rss`]).
    pub peak_bytes: Option<u64>,
}

/// Runs the pairs of `plan` not yet in the table stored in `opts.dir`, saving the table
/// after each sweep. Returns [`Error::Interrupted`] once `opts.cancel` is set, with every
/// pair finished so far saved.
///
/// ```
/// use pegsol::count::table::{self, BatchOptions, Format};
/// let dir = tempfile::tempdir().unwrap();
/// let plan = table::plan(&["tri:5".into()], &[]).unwrap();
/// let opts = BatchOptions {
///     threads: 1,
///     max_memory: pegsol::memory::default_budget(),
///     progress: false,
///     dir: Some(dir.path().to_path_buf()),
///     format: Format::Csv,
///     command: String::new(),
///     work_dir: None,
///     keep_work: false,
///     max_disk: None,
///     cluster: Default::default(),
///     cancel: None,
/// };
/// let first = table::run_batch(&plan, &opts).unwrap();
/// assert_eq!((first.computed, first.skipped), (4, 0));
/// assert_eq!(first.table.entries.values().next().unwrap().summary[3], "29760"); // a1, published
/// let again = table::run_batch(&plan, &opts).unwrap(); // resumed: nothing left to do
/// assert_eq!((again.computed, again.skipped), (0, 4));
/// assert_eq!(again.table, first.table);
/// ```
pub fn run_batch(plan: &[Pair], opts: &BatchOptions) -> Result<BatchReport> {
    let first = opts.cluster.rank() == 0;
    let mut _lock = None;
    let mut table = match &opts.dir {
        Some(dir) if first => {
            files::prepare_files(dir, &opts.format.file_names())?;
            _lock = Some(files::lock_dir(dir, "--csv")?);
            remove_stale_temporaries(dir);
            Table::load(dir, opts.format)?
        }
        _ => Table::default(),
    };
    // Boards in the plan's order. One the table holds under the same name must be the
    // same board.
    let mut boards: Vec<(&Pair, Board)> = Vec::new();
    for p in plan {
        if boards.iter().any(|(b, _)| b.spec == p.spec) {
            continue;
        }
        let board = Board::from_spec(&p.spec)?;
        let geometry = board.geometry();
        let held = table.entries.iter().find(|(k, e)| {
            k.board == p.board
                && e.run
                    .get(GEOMETRY_IN_RUN)
                    .is_some_and(|g| !g.is_empty() && *g != geometry)
        });
        if let Some((_, e)) = held {
            return Err(Error::input(format!(
                "{} holds another board named {} ({}, where {} is {geometry}); \
                 rename the board file or use another directory",
                opts.dir
                    .as_ref()
                    .map_or("the table".into(), |d| d.display().to_string()),
                p.board,
                e.run[GEOMETRY_IN_RUN],
                p.spec,
            )));
        }
        boards.push((p, board));
    }
    // A pair the table holds must have the class size the board in hand gives its start
    // (a board file's, or a row older than board_geometry, is not checked on loading).
    for p in plan {
        let Some(e) = table.entries.get(&Key::new(&p.board, &p.start)) else {
            continue;
        };
        let size = e.summary_cell(CLASS_SIZE_COLUMN).unwrap_or("");
        if e.is_whole() && size != p.class_size.to_string() {
            return Err(Error::input(format!(
                "{}: {} {}: start_class_size is {size}, but the start class of {} holds {} \
                 holes",
                opts.dir.as_ref().map_or("the table".into(), |d| {
                    Sources::of(d, opts.format).file("summary").to_string()
                }),
                p.board,
                p.start,
                p.start,
                p.class_size
            )));
        }
    }
    // Rank 0's table decides which pairs are left, for every rank.
    let pending: Vec<u8> = plan
        .iter()
        .map(|p| u8::from(!table.contains(&p.board, &p.start)))
        .collect();
    let pending = opts.cluster.all_gather(&pending).swap_remove(0);
    let todo: Vec<&Pair> = plan
        .iter()
        .zip(&pending)
        .filter(|&(_, &left)| left == 1)
        .map(|(p, _)| p)
        .collect();
    let skipped = plan.len() - todo.len();
    let threads = crate::pool::threads(opts.threads);
    let bar = progress::bar(todo.len() as u64, "pairs", opts.progress);
    let mut computed = 0;
    let mut peak_bytes = memory::peak_rss();
    for (of, board) in &boards {
        let pairs: Vec<&Pair> = todo.iter().copied().filter(|p| p.spec == of.spec).collect();
        if pairs.is_empty() {
            continue;
        }
        for p in &pairs {
            let class = board
                .hole_classes()
                .into_iter()
                .find(|c| c.contains(&p.hole))
                .expect("every hole has a class");
            if let Some(other) = class
                .iter()
                .map(|&h| board.hole_name(h))
                .find(|name| table.contains(&p.board, name))
            {
                bar.abandon();
                return Err(Error::input(format!(
                    "{} already holds {} from {other}, which is in the same start class as {}; \
                     give --starts {other} (or use another directory)",
                    opts.dir
                        .as_ref()
                        .map_or("the table".into(), |d| d.display().to_string()),
                    p.board,
                    p.start
                )));
            }
        }
        for group in group_sweeps(board, &pairs) {
            if opts
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::SeqCst))
            {
                bar.abandon();
                return Err(Error::Interrupted);
            }
            let names: Vec<&str> = group
                .members
                .iter()
                .map(|m| m.pair.start.as_str())
                .collect();
            bar.set_message(format!("{} from {}", board.name(), names.join(", ")));
            let count_opts = CountOptions {
                threads: opts.threads,
                max_memory: opts.max_memory,
                progress: opts.progress,
                cancel: opts.cancel.clone(),
                work_dir: opts.work_dir.clone(),
                keep_work: opts.keep_work,
                max_disk: opts.max_disk,
                cluster: opts.cluster,
                stop_at_dead_end: false,
                // The sweep's layers stay until its pairs are saved (one process only:
                // ranks do not wait for rank 0's files).
                defer_cleanup: opts.dir.is_some() && opts.cluster.size() == 1,
            };
            memory::reset_peak_rss();
            let clock = Instant::now();
            let starts: Vec<_> = group
                .starts
                .iter()
                .map(|&h| board.start_with_empty(&[h]))
                .collect();
            let done =
                sweep::sweep_many(board, &starts, &count_opts).inspect_err(|_| bar.abandon())?;
            let (counts, before, work) = (done.counts, done.before, done.work);
            // A sweep resumed from a checkpoint adds what its earlier processes spent.
            let secs = clock.elapsed().as_secs_f64() + before.millis as f64 / 1e3;
            let peak = memory::peak_rss().max((before.peak_rss > 0).then_some(before.peak_rss));
            peak_bytes = peak_bytes.max(peak);
            let swept: Vec<String> = group.starts.iter().map(|&h| board.hole_name(h)).collect();
            for m in &group.members {
                let run = vec![
                    env!("CARGO_PKG_VERSION").to_string(),
                    git_commit().to_string(),
                    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
                    threads.to_string(),
                    format!("{secs:.3}"),
                    peak.map_or("unknown".into(), |b| b.to_string()),
                    opts.command.clone(),
                    swept.join(" "),
                    board.geometry(),
                ];
                let counts = relabel(board, &counts[m.slot], m.pair.hole, m.symmetry);
                table.entries.insert(
                    Key::new(&m.pair.board, &m.pair.start),
                    Entry::new(&counts, m.pair.class_size, run),
                );
            }
            if let Some(dir) = &opts.dir
                && first
            {
                table.save(dir, opts.format)?;
            }
            if let Some(work) = work {
                disk::remove_work(&work)?;
            }
            computed += group.members.len();
            bar.inc(group.members.len() as u64);
        }
    }
    bar.finish_and_clear();
    Ok(BatchReport {
        table,
        computed,
        skipped,
        peak_bytes: peak_bytes.max(memory::peak_rss()),
    })
}

/// One sweep of a batch: the start holes swept together, and the pairs it answers.
#[derive(Debug)]
pub struct Group<'p> {
    /// Holes whose single-vacancy starts the sweep carries.
    pub starts: Vec<usize>,
    /// The pairs answered, each by one of the starts.
    pub members: Vec<Member<'p>>,
}

/// A pair answered by a sweep: by the start in lane `slot`, which is the image of the
/// pair's hole under `symmetry` (an index into the board's symmetries).
#[derive(Debug)]
pub struct Member<'p> {
    /// The pair.
    pub pair: &'p Pair,
    /// Its lane among the sweep's starts.
    pub slot: usize,
    /// The symmetry taking the pair's hole to that start.
    pub symmetry: usize,
}

/// Groups the pairs of one board into sweeps. Single-vacancy starts of one position class
/// ([`Board::position_classes`]) reach largely the same positions, so each class that holds
/// an image of several pairs' holes is swept once, carrying the images of those holes in it
/// ([`sweep::count_many`]); classes are taken greedily, most pairs first. A pair that no
/// class shares stays a sweep of its own start, exactly as `pegsol count` runs it.
///
/// ```
/// use pegsol::{geometry::board::Board, count::table};
/// let plan = table::plan(&["english".into()], &[]).unwrap();
/// let pairs: Vec<&table::Pair> = plan.iter().collect();
/// let groups = table::group_sweeps(&Board::from_spec("english").unwrap(), &pairs);
/// let answered: Vec<Vec<&str>> = groups
///     .iter()
///     .map(|g| g.members.iter().map(|m| m.pair.start.as_str()).collect())
///     .collect();
/// // c1, d2, d3 in one sweep of c1 c4 f4 c7; d1, d4 in one; c2, c3 in one.
/// assert_eq!(answered, [vec!["c1", "d2", "d3"], vec!["d1", "d4"], vec!["c2", "c3"]]);
/// ```
pub fn group_sweeps<'p>(board: &Board, pairs: &[&'p Pair]) -> Vec<Group<'p>> {
    let classes = board.position_classes();
    let symmetries = board.symmetries();
    // The images of a pair's hole in a class, smallest first.
    let images = |p: &Pair, class: &[usize]| -> Vec<usize> {
        let mut v: Vec<usize> = symmetries
            .iter()
            .map(|s| s.perm()[p.hole])
            .filter(|h| class.contains(h))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let mut left: Vec<&Pair> = pairs.to_vec();
    let mut groups = Vec::new();
    while !left.is_empty() {
        let best = classes
            .iter()
            .max_by_key(|c| {
                let n = left.iter().filter(|p| !images(p, c).is_empty()).count();
                (n, std::cmp::Reverse(c[0]))
            })
            .expect("a board has holes");
        let (here, rest): (Vec<&Pair>, Vec<&Pair>) =
            left.iter().partition(|p| !images(p, best).is_empty());
        left = rest;
        let mut starts: Vec<usize> = here.iter().flat_map(|p| images(p, best)).collect();
        starts.sort_unstable();
        starts.dedup();
        if here.len() == 1 || starts.len() > sweep::max_starts(board) {
            groups.extend(here.into_iter().map(|p| Group {
                starts: vec![p.hole],
                members: vec![Member {
                    pair: p,
                    slot: 0,
                    symmetry: 0,
                }],
            }));
            continue;
        }
        let members = here
            .into_iter()
            .map(|p| {
                let to = images(p, best)[0];
                Member {
                    pair: p,
                    slot: starts.iter().position(|&h| h == to).expect("an image"),
                    symmetry: symmetries
                        .iter()
                        .position(|s| s.perm()[p.hole] == to)
                        .expect("a symmetry"),
                }
            })
            .collect();
        groups.push(Group { starts, members });
    }
    groups
}

/// The counts of a sweep's start seen from the pair's own hole `hole`: the start sent there
/// by `symmetry` (an index into the board's symmetries) was counted, so its finishing holes
/// are mapped back. Every other statistic is the same for symmetric starts.
fn relabel(board: &Board, counts: &Counts, hole: usize, symmetry: usize) -> Counts {
    let perm = board.symmetries()[symmetry].perm();
    let mut back = vec![0; perm.len()];
    for (h, &to) in perm.iter().enumerate() {
        back[to] = h;
    }
    let mut finish: Vec<(usize, Total)> = counts
        .finish
        .iter()
        .map(|(name, w)| (back[board.hole(name).expect("a hole of the board")], *w))
        .collect();
    finish.sort_unstable();
    Counts {
        start: board.hole_name(hole),
        finish: finish
            .into_iter()
            .map(|(h, w)| (board.hole_name(h), w))
            .collect(),
        ..counts.clone()
    }
}

/// Quotes a command line for the shell, so it can be pasted back.
///
/// ```
/// let c = pegsol::count::table::shell_words(&["pegsol".into(), "--csv".into(), "my dir".into()]);
/// assert_eq!(c, "pegsol --csv 'my dir'");
/// ```
pub fn shell_words(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The readable table `pegsol table` prints: the pairs of `plan`, one line each, then per
/// board the totals over all its starts (each class weighted by its size) when the plan
/// covers every class.
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
/// let text = table::summary_text(&t, &plan);
/// let last: Vec<&str> = text.lines().last().unwrap().split_whitespace().collect();
/// assert_eq!(last, ["tri:5", "all", "15", "7,335,390", "438,984"]); // published
/// ```
pub fn summary_text(table: &Table, plan: &[Pair]) -> String {
    use thousands::Separable;
    let header = summary_header();
    let col = |name: &str| header.iter().position(|h| *h == name).expect("column") - 2;
    let (games, wins, size) = (col("games"), col("wins"), col(CLASS_SIZE_COLUMN));
    // Rows of (board, start, class, games, wins), laid out once all are known.
    let mut rows: Vec<[String; 5]> = Vec::new();
    // Per board (name, spec): holes covered, then games and wins weighted by class size
    // (None past 256 bits).
    type Sums<'a> = (&'a str, &'a str, usize, Option<Total>, Option<Total>);
    let mut totals: Vec<Sums> = Vec::new();
    let text = |n: Option<Total>| n.map_or("2^256 or more".into(), |n| n.separate_with_commas());
    for p in plan {
        let Some(e) = table.entries.get(&Key::new(&p.board, &p.start)) else {
            continue;
        };
        // Loaded tables hold whole numbers only (`check_counts`).
        let g: Total = e.summary[games].parse().unwrap_or_default();
        let w: Total = e.summary[wins].parse().unwrap_or_default();
        let s: usize = e.summary[size].parse().unwrap_or(0);
        rows.push([
            p.board.clone(),
            p.start.clone(),
            s.to_string(),
            g.separate_with_commas(),
            w.separate_with_commas(),
        ]);
        let weigh = |n: Total| n.times(s as u64).ok();
        let add = |a: Option<Total>, b: Option<Total>| a?.plus(b?).ok();
        match totals.last_mut() {
            Some(t) if t.1 == p.spec => {
                t.2 += s;
                t.3 = add(t.3, weigh(g));
                t.4 = add(t.4, weigh(w));
            }
            _ => totals.push((&p.board, &p.spec, s, weigh(g), weigh(w))),
        }
    }
    for (board, spec, holes, g, w) in totals {
        let complete = Board::from_spec(spec).is_ok_and(|b| b.holes() == holes);
        if complete {
            rows.push([
                board.into(),
                "all".into(),
                holes.to_string(),
                text(g),
                text(w),
            ]);
        }
    }
    // Columns as wide as their widest figure (games past 2^128 take 51 characters).
    let width = |i: usize, least: usize| rows.iter().map(|r| r[i].len()).fold(least, usize::max);
    let (gw, ww) = (width(3, 30), width(4, 26));
    let line = |r: [&str; 5]| {
        format!(
            "{:<10} {:<6} {:>5} {:>gw$} {:>ww$}\n",
            r[0], r[1], r[2], r[3], r[4]
        )
    };
    let mut out = line(["board", "start", "class", "games", "wins"]);
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4]]));
    }
    out
}

/// Removes temporary files a killed run of an earlier version left behind in `dir`
/// (`.summary.csv.XXXXXX` and the like; [`files::write_atomically`] now names them
/// `.pegsol-tmp-PID.NAME.XXXXXX` and removes them itself); the files they were meant to
/// replace are intact.
fn remove_stale_temporaries(dir: &Path) {
    let names: Vec<&str> = csv_files().iter().map(|f| f.0).chain([JSON_FILE]).collect();
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in listing.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        if names.iter().any(|n| file.starts_with(&format!(".{n}."))) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
