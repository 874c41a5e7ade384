//! `pegsol report`: reads a table written by `pegsol table --csv DIR` and writes a side by
//! side comparison of boards (comparison.csv, comparison.md) and pictures (SVG, see
//! [`crate::output::plot`]). Everything is derived from the table's files; nothing is typed in.

mod comparison;
mod hardness;
mod load;
mod pictures;

pub use hardness::{HARDNESS_FILES, Hardness, Loss, hardness_rows, hardness_table};
pub use load::table_format;
pub use pictures::sweep_costs;

use crate::count::table::{self, Table};
use crate::error::{Error, Result};
use crate::output::files;
use crate::total::Total;
use std::path::Path;

/// Columns of `comparison.csv`. Rows with start `all` total every start of the board, each
/// class weighted by its size (`positions` is then a sum over starts, not a count of
/// distinct positions); `win_share_percent` is wins / games, rounded to 4 decimals.
pub const COMPARISON_HEADER: &[&str] = &[
    "board",
    "start",
    "start_class_size",
    "wins",
    "games",
    "win_share_percent",
    "positions",
    "max_dead_end_pegs",
    "max_dead_end_games",
    "shortest_game_jumps",
];

/// One row of the comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Board spec.
    pub board: String,
    /// Start hole, or `all` for the total over every start.
    pub start: String,
    /// Holes the row stands for.
    pub class_size: usize,
    /// Wins.
    pub wins: Total,
    /// Games.
    pub games: Total,
    /// Reachable positions (summed over starts in a total).
    pub positions: Total,
    /// Most pegs left at a dead end.
    pub max_dead_end_pegs: usize,
    /// Games leaving that many.
    pub max_dead_end_games: Total,
    /// Fewest jumps of a game.
    pub shortest_game_jumps: usize,
}

/// `wins / games` in percent with 4 decimals, computed exactly in integers (rounded half
/// up, [`Total::scaled`]), for any counts.
///
/// ```
/// use pegsol::count::{Total, report::share};
/// let share = |w: u128, g: u128| share(Total::from(w), Total::from(g));
/// assert_eq!(share(1, 3), "33.3333");
/// assert_eq!(share(0, 0), "0.0000");
/// assert_eq!(share(29_760, 568_630), "5.2336"); // tri:5 from a1
/// // Counts past 2^127 (wins * 2,000,000 wrapped before).
/// assert_eq!(share(u128::MAX / 3, u128::MAX), "33.3333");
/// assert_eq!(share(u128::MAX, u128::MAX), "100.0000");
/// ```
pub fn share(wins: Total, games: Total) -> String {
    // In units of 1e-4 percent.
    let Some(units) = wins.scaled(games, 1_000_000) else {
        return if games.is_zero() {
            "0.0000".into()
        } else {
            "more than 10^73".into() // 2^256 units of 10^-4 %
        };
    };
    let digits = format!("{units:0>5}");
    let (whole, decimals) = digits.split_at(digits.len() - 4);
    format!("{whole}.{decimals}")
}

/// The comparison rows of one board: one per start in the table, then the total over all
/// starts when the starts' classes cover every hole of the board.
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
/// let rows = pegsol::count::report::rows(&t, "tri:5").unwrap();
/// let starts: Vec<&str> = rows.iter().map(|r| r.start.as_str()).collect();
/// assert_eq!(starts, ["a1", "a2", "a3", "b3", "all"]);
/// assert_eq!((rows[0].class_size, rows[0].wins, rows[0].games), (3, 29_760.into(), 568_630.into())); // published
/// ```
pub fn rows(table: &Table, board: &str) -> Result<Vec<Row>> {
    let header = table::summary_header();
    let col = |name: &str| header.iter().position(|h| *h == name).expect("column") - 2;
    let mut out = Vec::new();
    for (key, e) in table.entries.iter().filter(|(k, _)| k.board == board) {
        let s = &e.summary;
        let num = |name: &str| -> Result<Total> {
            let v = s.get(col(name)).map_or("", String::as_str);
            v.parse().map_err(|_| {
                Error::input(format!(
                    "the table's summary: {name} of {board} from {} is '{}', not a number",
                    key.start,
                    v.escape_debug()
                ))
            })
        };
        // Holes and jumps: at most a board's holes, never wrapped.
        let small = |name: &str| -> Result<usize> {
            num(name)?
                .to_u128()
                .and_then(|n| usize::try_from(n).ok())
                .filter(|&n| n <= crate::geometry::board::MAX_HOLES)
                .ok_or_else(|| {
                    Error::input(format!(
                        "the table's summary: {name} of {board} from {} is {}, more than a board's holes",
                        key.start,
                        s[col(name)]
                    ))
                })
        };
        out.push(Row {
            board: key.board.clone(),
            start: key.start.clone(),
            class_size: small(table::CLASS_SIZE_COLUMN)?,
            wins: num("wins")?,
            games: num("games")?,
            positions: num("positions")?,
            max_dead_end_pegs: small("max_dead_end_pegs")?,
            max_dead_end_games: num("max_dead_end_games")?,
            shortest_game_jumps: small("shortest_game_jumps")?,
        });
    }
    let covered: usize = out.iter().map(|r| r.class_size).sum();
    let holes = table.builtin_board(board).map(|b| b.holes());
    if !out.is_empty() && holes == Some(covered) {
        let max_pegs = out.iter().map(|r| r.max_dead_end_pegs).max().unwrap_or(0);
        let row = Row {
            board: board.to_string(),
            start: "all".into(),
            class_size: covered,
            wins: weighted_sum(out.iter().map(|r| (r, r.wins)))?,
            games: weighted_sum(out.iter().map(|r| (r, r.games)))?,
            positions: weighted_sum(out.iter().map(|r| (r, r.positions)))?,
            max_dead_end_pegs: max_pegs,
            max_dead_end_games: weighted_sum(
                out.iter()
                    .filter(|r| r.max_dead_end_pegs == max_pegs)
                    .map(|r| (r, r.max_dead_end_games)),
            )?,
            shortest_game_jumps: out.iter().map(|r| r.shortest_game_jumps).min().unwrap_or(0),
        };
        out.push(row);
    }
    Ok(out)
}

/// The total over the starts of `rows`, each weighted by its class size: checked, never
/// wrapped.
fn weighted_sum<'a>(mut rows: impl Iterator<Item = (&'a Row, Total)>) -> Result<Total> {
    rows.try_fold(Total::ZERO, |acc, (r, v)| {
        acc.plus(v.times(r.class_size as u64)?)
    })
}

/// The total over all starts of `board` (the row with start `all`), if the table covers
/// every start class.
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
/// let all = pegsol::count::report::total(&t, "tri:5").unwrap().unwrap();
/// // published: over the 15 single-vacancy starts
/// assert_eq!((all.class_size, all.wins, all.games), (15, 438_984.into(), 7_335_390.into()));
/// assert_eq!(pegsol::count::report::total(&t, "tri:6").unwrap(), None);
/// ```
pub fn total(table: &Table, board: &str) -> Result<Option<Row>> {
    Ok(rows(table, board)?.into_iter().find(|r| r.start == "all"))
}

/// Games by pegs left over every start of `board` in the table (classes weighted by size).
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
/// let rows = pegsol::count::report::pegs_left_total(&t, "tri:5").unwrap();
/// assert_eq!(rows[0], (1, 438_984.into())); // published: wins over the 15 starts
/// let games = pegsol::total::Total::sum(rows.iter().map(|r| r.1)).unwrap();
/// assert_eq!(games, 7_335_390); // and games
/// assert_eq!(rows.last(), Some(&(10, (2 * 3).into()))); // 2 games from each interior start
/// ```
pub fn pegs_left_total(table: &Table, board: &str) -> Result<Vec<(usize, Total)>> {
    let mut acc: std::collections::BTreeMap<usize, Total> = Default::default();
    for r in rows(table, board)?.iter().filter(|r| r.start != "all") {
        let e = &table.entries[&table::Key::new(board, &r.start)];
        for row in &e.pegs_left {
            let pegs: usize = row[0].parse().unwrap_or(0);
            let games: Total = row[1].parse().unwrap_or_default();
            let weighted = games.times(r.class_size as u64)?;
            let sum = acc.entry(pegs).or_default();
            *sum = sum.plus(weighted)?;
        }
    }
    Ok(acc.into_iter().collect())
}

/// Writes the report for the table in `dir` into `out`: `comparison.csv` and
/// `comparison.md` for `boards` (all boards of the table when empty), `pegs_left.svg` (games
/// by pegs left, one line per compared board), `scaling.svg` (wall time and peak memory
/// against positions, one point per sweep, from runs.csv), and for every board of the table
/// `classes_BOARD.svg` and `finish_BOARD.svg`, `min_moves_BOARD.svg` when `dir` holds
/// `min_moves.csv`, and [`HARDNESS_FILES`] when its summary has the random player's columns
/// (`hardness.svg` and `hardness.md` for every board of the table, the pairs without those
/// columns left out). Returns the names of the files written. The table is read from its CSV files, or from `table.json` when `dir` holds no
/// `runs.csv` (a table written with `--format json`), with [`Table::load_complete`]: a
/// table some of whose files or rows are missing, or whose numbers cannot be right, is
/// refused, the file named.
///
/// ```
/// use pegsol::count::table::{self, BatchOptions, Format};
/// let dir = tempfile::tempdir().unwrap();
/// let plan = table::plan(&["tri:5".into()], &[]).unwrap();
/// let opts = BatchOptions {
///     threads: 1,
///     max_memory: pegsol::memory::default_budget(),
///     progress: false,
///     dir: Some(dir.path().join("table")),
///     format: Format::Csv,
///     command: String::new(),
///     work_dir: None,
///     keep_work: false,
///     max_disk: None,
///     cluster: Default::default(),
///     cancel: None,
/// };
/// table::run_batch(&plan, &opts).unwrap();
/// let out = dir.path().join("report");
/// let names = pegsol::count::report::write(&dir.path().join("table"), &[], &out).unwrap();
/// assert_eq!(names[..2], ["comparison.csv", "comparison.md"]);
/// assert!(!names.iter().any(|n| n.starts_with("hardness"))); // no random player's columns
/// let csv = std::fs::read_to_string(out.join("comparison.csv")).unwrap();
/// assert!(csv.contains("\ntri:5,all,15,438984,7335390,")); // published totals
/// ```
pub fn write(dir: &Path, boards: &[String], out: &Path) -> Result<Vec<String>> {
    let (format, table) = load::load_settled(dir)?;
    if table.entries.is_empty() {
        return Err(load::no_table(dir));
    }
    let mut all: Vec<String> = Vec::new();
    for k in table.entries.keys() {
        if !all.contains(&k.board) {
            all.push(k.board.clone());
        }
    }
    let compared = compared_boards(dir, &all, boards)?;
    let mut files = comparison::files(&table, &compared, format)?;
    files.push(pictures::pegs_left(&table, &compared)?);
    files.push((
        "scaling.svg".into(),
        crate::output::plot::scaling_chart(&sweep_costs(&table)).into_bytes(),
    ));
    files.extend(pictures::board_pictures(&table, &all)?);
    files.extend(pictures::min_moves_pictures(dir)?);
    files.extend(hardness::files(dir, format, &table, &all)?);
    let named: Vec<(&str, Vec<u8>)> = files.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    let names: Vec<&str> = named.iter().map(|f| f.0).collect();
    files::prepare_files(out, &names)?;
    files::write_atomically(out, &named)?;
    Ok(files.into_iter().map(|(n, _)| n).collect())
}

/// The boards to compare: `boards`, each of which must be in the table (`all`), or every
/// board of the table when none is given.
fn compared_boards(dir: &Path, all: &[String], boards: &[String]) -> Result<Vec<String>> {
    if boards.is_empty() {
        return Ok(all.to_vec());
    }
    for b in boards {
        if !all.contains(b) {
            return Err(Error::input(format!(
                "board {b} is not in the table in {} (it has {})",
                dir.display(),
                all.join(", ")
            )));
        }
    }
    Ok(boards.to_vec())
}
