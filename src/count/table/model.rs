//! The table's model: its entries (one per pair), its files' names and headers.

use super::plan::Key;
use crate::count::export::{self, CsvRows};
use crate::count::random::{self, Odds, QuickestLoss};
use crate::count::stats::Counts;
use crate::geometry::board::Board;
use std::collections::BTreeMap;

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
pub(super) fn runs_headers_before() -> [&'static [&'static str]; 2] {
    [
        &RUNS_HEADER[..RUNS_HEADER.len() - 1],
        &RUNS_HEADER[..RUNS_HEADER.len() - 2],
    ]
}

/// Where a pair's run row (`runs.csv` without board and start) names the board's geometry
/// ([`Board::geometry`]), empty in rows written before it: a table refuses to add a board
/// whose name it holds with another geometry (a board file named `english`, two files
/// `x.txt` in different folders).
pub(super) const GEOMETRY_IN_RUN: usize = RUNS_HEADER.len() - 3;

/// The file `--format json` writes.
pub const JSON_FILE: &str = "table.json";

/// The random player's files of a table in CSV format, written only when a pair has its
/// figures (`table --random`).
pub const RANDOM_FILES: [&str; 2] = ["random.csv", "random_finish.csv"];

/// How the table is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// summary.csv, pegs_left.csv, finish.csv, depth.csv and runs.csv; with the random
    /// player's figures, random.csv and random_finish.csv too.
    Csv,
    /// One file, table.json.
    Json,
}

impl Format {
    /// The files a table in this format may be kept in: every one of them is checked
    /// before a run ([`crate::output::files::prepare_files`]) and is one set when the table
    /// is saved. In CSV format the five every table has, then [`RANDOM_FILES`], which a
    /// table has only with the random player's figures (a table without them gains no
    /// empty ones).
    ///
    /// ```
    /// use pegsol::count::table::{Format, RANDOM_FILES};
    /// assert_eq!(Format::Json.file_names(), ["table.json"]);
    /// let csv = Format::Csv.file_names();
    /// assert_eq!(csv.len(), 7);
    /// assert_eq!(csv[4..], ["runs.csv", "random.csv", "random_finish.csv"]);
    /// assert_eq!(csv[5..], RANDOM_FILES);
    /// ```
    pub fn file_names(self) -> Vec<&'static str> {
        match self {
            Format::Csv => csv_files()
                .iter()
                .map(|f| f.0)
                .chain(RANDOM_FILES)
                .collect(),
            Format::Json => vec![JSON_FILE],
        }
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
    /// With the random player (`table --random`): summary.csv's values of
    /// [`export::RANDOM_SUMMARY_COLUMNS`], after `start_class_size`; empty without.
    pub random_summary: Vec<String>,
    /// random.csv rows (pegs left, probability, exact).
    pub random: Vec<Vec<String>>,
    /// random_finish.csv rows (finish, probability, exact).
    pub random_finish: Vec<Vec<String>>,
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
            ..Entry::default()
        }
    }

    /// The entry with the random player's odds and the quickest loss from its start: the
    /// rows `count --random` writes.
    ///
    /// ```
    /// use pegsol::{count::{count, table::Entry, CountOptions}, geometry::Board};
    /// use pegsol::count::random::{random_player, quickest_loss};
    /// use pegsol::analysis::solvable::{Finish, SolveOptions};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// let odds = random_player(&b, b.default_start(), &Default::default()).unwrap();
    /// let quick = quickest_loss(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// let e = Entry::new(&c, 3, vec![]).with_random(&odds, &quick);
    /// assert_eq!(e.random_summary[0], "0.00686175588768131"); // 1 in 146
    /// assert_eq!(e.random_summary[2..], ["3", "14"]); // the quickest loss
    /// assert_eq!(e.random_finish[0][0], "a1"); // 6,816 of the wins end there
    /// assert_eq!(e.random_finish[0][2].split('/').count(), 2); // exact: p/q
    /// ```
    pub fn with_random(self, odds: &Odds, quick: &QuickestLoss) -> Entry {
        let strip = |rows: Vec<Vec<String>>| -> Vec<Vec<String>> {
            rows.into_iter().map(|r| r[2..].to_vec()).collect()
        };
        let (pegs, finish) = random::csv_rows(odds);
        let mut random_summary = vec![odds.win.decimal(), odds.expected_pegs.decimal()];
        random_summary.extend(quick.cells());
        Entry {
            random_summary,
            random: strip(pegs),
            random_finish: strip(finish),
            ..self
        }
    }

    /// Whether the entry has the random player's figures.
    pub fn has_random(&self) -> bool {
        !self.random_summary.is_empty()
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
    pub(super) fn summary_cell(&self, column: &str) -> Option<&str> {
        let i = summary_header()
            .iter()
            .position(|h| *h == column)
            .expect("column")
            - 2;
        self.summary.get(i).map(String::as_str)
    }

    /// The first part of a count the entry lacks (`summary`, `depth`, `pegs_left`,
    /// `finish`), if any: see [`Entry::is_whole`].
    pub(super) fn missing(&self) -> Option<&'static str> {
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
pub(super) type FileSpec = (
    &'static str,
    Vec<&'static str>,
    fn(&Entry) -> Vec<Vec<String>>,
);

pub(super) fn csv_files() -> Vec<FileSpec> {
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

/// The header of a table's summary.csv with the random player's columns
/// ([`export::RANDOM_SUMMARY_COLUMNS`]) after `start_class_size`.
pub(super) fn random_summary_header() -> Vec<&'static str> {
    let mut h = summary_header();
    h.extend_from_slice(export::RANDOM_SUMMARY_COLUMNS);
    h
}

/// The random player's two files of a table, written before runs.csv when any pair has
/// the random player's figures, as (name, header, rows of an entry).
pub(super) fn random_files() -> [FileSpec; 2] {
    [
        (RANDOM_FILES[0], random::RANDOM_HEADER.to_vec(), |e| {
            e.random.clone()
        }),
        (
            RANDOM_FILES[1],
            random::RANDOM_FINISH_HEADER.to_vec(),
            |e| e.random_finish.clone(),
        ),
    ]
}

impl Table {
    /// Whether any pair has the random player's figures: then summary.csv has its columns
    /// (empty for the pairs without) and random.csv and random_finish.csv are written.
    pub fn has_random(&self) -> bool {
        self.entries.values().any(Entry::has_random)
    }

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
}
