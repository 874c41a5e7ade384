//! `pegsol report`: reads a table written by `pegsol table --csv DIR` and writes a side by
//! side comparison of boards (comparison.csv, comparison.md) and pictures (SVG, see
//! [`crate::output::plot`]). Everything is derived from the table's files; nothing is typed in.

use crate::count::table::{self, Format, JSON_FILE, Table};
use crate::error::{Error, Result};
use crate::output::files;
use crate::output::plot;
use crate::total::Total;
use std::path::Path;
use thousands::Separable;

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

fn no_table(dir: &Path) -> Error {
    Error::input(format!(
        "no table in {} (run pegsol table --csv {} first)",
        dir.display(),
        dir.display()
    ))
}

/// The format of the table in `dir`: JSON when it holds `table.json` and no `runs.csv`
/// (a table written with `--format json` is one file), CSV when it holds all five CSV
/// files. A folder holding some of them only, or a `table.json` that is not a file, is
/// refused with one line naming what is missing.
///
/// ```
/// use pegsol::count::{report::table_format, table::Format};
/// let dir = tempfile::tempdir().unwrap();
/// let e = table_format(dir.path()).unwrap_err();
/// assert!(e.to_string().starts_with("no table in "), "{e}");
/// std::fs::write(dir.path().join("summary.csv"), "").unwrap();
/// let e = table_format(dir.path()).unwrap_err();
/// assert!(e.to_string().contains("holds summary.csv but not pegs_left.csv, finish.csv, depth.csv, runs.csv"), "{e}");
/// std::fs::write(dir.path().join("table.json"), "{}").unwrap();
/// assert_eq!(table_format(dir.path()).unwrap(), Format::Json);
/// ```
pub fn table_format(dir: &Path) -> Result<Format> {
    let json = dir.join(JSON_FILE);
    let names = Format::Csv.file_names();
    let (here, missing): (Vec<&str>, Vec<&str>) = names
        .iter()
        .partition(|n| dir.join(n).symlink_metadata().is_ok());
    if missing.is_empty() {
        return Ok(Format::Csv);
    }
    if !here.contains(&"runs.csv") && json.is_file() {
        return Ok(Format::Json);
    }
    if !here.is_empty() {
        return Err(Error::input(format!(
            "{} holds {} but not {}: not a whole table (run pegsol table --csv {} again to \
             complete it)",
            dir.display(),
            here.join(", "),
            missing.join(", "),
            dir.display()
        )));
    }
    if json.symlink_metadata().is_ok() {
        let what = if json.is_dir() {
            "it is a directory"
        } else {
            "it is not a regular file"
        };
        return Err(Error::input(format!(
            "cannot read {}: {what}",
            json.display()
        )));
    }
    Err(no_table(dir))
}

fn slug(board: &str) -> String {
    board
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect::<String>()
        .replace("tri_", "tri")
}

/// One point per sweep of the table, from runs.csv (wall time, peak memory, the starts
/// swept together) and summary.csv (positions, summed over the sweep's pairs). Pairs of
/// one sweep share its runs.csv values; pairs from before the `sweep` column are a sweep
/// each.
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
/// // `t`: a table of tri:5 from each of its four start classes, one sweep for all four.
/// let costs = pegsol::count::report::sweep_costs(&t);
/// assert_eq!(costs.len(), 1);
/// assert_eq!(costs[0].board, "tri:5");
/// // The columns of runs.csv, by name: the sweep's starts and the process's peak memory.
/// assert!(costs[0].sweep.starts_with("a1 "), "{}", costs[0].sweep);
/// assert!(costs[0].peak_bytes > 1 << 20);
/// ```
pub fn sweep_costs(table: &Table) -> Vec<plot::SweepCost> {
    let mut out: Vec<(String, plot::SweepCost)> = Vec::new();
    for (key, e) in &table.entries {
        // `run` holds runs.csv's values after board and start.
        let field = |name: &str| {
            let i = table::RUNS_HEADER.iter().position(|&h| h == name);
            let i = i.expect("a column of runs.csv") - 2;
            e.run.get(i).cloned().unwrap_or_default()
        };
        let sweep = Some(field("sweep"))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| key.start.clone());
        let (date, seconds) = (field("date_utc"), field("wall_seconds"));
        let id = format!("{}|{sweep}|{date}|{seconds}", key.board);
        // A count of positions past 64 bits is drawn at the edge, not wrapped.
        let positions: Total = e
            .summary
            .first()
            .and_then(|p| p.parse().ok())
            .unwrap_or_default();
        let positions = positions
            .to_u128()
            .and_then(|p| u64::try_from(p).ok())
            .unwrap_or(u64::MAX);
        match out.iter_mut().find(|(k, _)| *k == id) {
            Some((_, s)) => s.positions = s.positions.saturating_add(positions),
            None => out.push((
                id,
                plot::SweepCost {
                    board: key.board.clone(),
                    sweep,
                    positions,
                    seconds: seconds.parse().unwrap_or(0.0),
                    peak_bytes: field("peak_memory_bytes").parse().unwrap_or(0),
                },
            )),
        }
    }
    out.into_iter().map(|(_, s)| s).collect()
}

/// [`Table::load_complete`], read again while a `table` run holds `dir`
/// ([`files::in_use`]): that run saves a pair by renaming its files one after another, and
/// a table read between two renames is refused as incomplete. A save takes milliseconds
/// and pairs end minutes apart, so the table is read again every 0.1 s, for at most 5 s;
/// a table still refused then, or refused while no run holds it, is refused.
fn load_settled(dir: &Path) -> Result<(Format, Table)> {
    let mut tries = 0;
    loop {
        let read =
            table_format(dir).and_then(|format| Ok((format, Table::load_complete(dir, format)?)));
        match read {
            Err(_) if tries < 50 && files::in_use(dir) => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            // A run that held it until the read failed may have saved and ended since:
            // read once more.
            Err(_) if tries < 51 => tries = 51,
            read => return read,
        }
    }
}

/// Writes the report for the table in `dir` into `out`: `comparison.csv` and
/// `comparison.md` for `boards` (all boards of the table when empty), `pegs_left.svg` (games
/// by pegs left, one line per compared board), `scaling.svg` (wall time and peak memory
/// against positions, one point per sweep, from runs.csv), and for every board of the table
/// `classes_BOARD.svg` and `finish_BOARD.svg`. Returns the names of the files written.
/// The table is read from its CSV files, or from `table.json` when `dir` holds no
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
/// let csv = std::fs::read_to_string(out.join("comparison.csv")).unwrap();
/// assert!(csv.contains("\ntri:5,all,15,438984,7335390,")); // published totals
/// ```
pub fn write(dir: &Path, boards: &[String], out: &Path) -> Result<Vec<String>> {
    let (format, table) = load_settled(dir)?;
    if table.entries.is_empty() {
        return Err(no_table(dir));
    }
    let mut all: Vec<String> = Vec::new();
    for k in table.entries.keys() {
        if !all.contains(&k.board) {
            all.push(k.board.clone());
        }
    }
    let compared: Vec<String> = if boards.is_empty() {
        all.clone()
    } else {
        for b in boards {
            if !all.contains(b) {
                return Err(Error::input(format!(
                    "board {b} is not in the table in {} (it has {})",
                    dir.display(),
                    all.join(", ")
                )));
            }
        }
        boards.to_vec()
    };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();

    let mut csv_rows: Vec<Vec<String>> = Vec::new();
    let mut md = String::new();
    let command = format!(
        "pegsol report DIR{}",
        compared
            .iter()
            .map(|b| format!(" --board {b}"))
            .collect::<String>()
    );
    md.push_str(&format!(
        "# Comparison of {}\n\nGenerated by `{command}` from the table's {source}; do not \
         edit. Per start class: the start hole standing for the class, the number of holes in \
         the class, wins, games, the win share (wins / games), reachable positions, the most \
         pegs left at a dead end (and the games leaving that many) and the shortest game. The \
         row **all** totals every single-vacancy start of the board, each class weighted by \
         its size (positions are then summed over starts).\n\n",
        compared.join(", "),
        source = match format {
            Format::Csv => "summary.csv",
            Format::Json => JSON_FILE,
        }
    ));
    md.push_str(
        "| board | start | class size | wins | games | win share | positions | most pegs at a dead end (games) | shortest game (jumps) |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for b in &compared {
        for r in rows(&table, b)? {
            csv_rows.push(vec![
                r.board.clone(),
                r.start.clone(),
                r.class_size.to_string(),
                r.wins.to_string(),
                r.games.to_string(),
                share(r.wins, r.games),
                r.positions.to_string(),
                r.max_dead_end_pegs.to_string(),
                r.max_dead_end_games.to_string(),
                r.shortest_game_jumps.to_string(),
            ]);
            let bold = |s: String| {
                if r.start == "all" {
                    format!("**{s}**")
                } else {
                    s
                }
            };
            md.push_str(&format!(
                "| {} | {} | {} | {} | {} | {}% | {} | {} ({}) | {} |\n",
                r.board,
                bold(r.start.clone()),
                r.class_size,
                bold(r.wins.separate_with_commas()),
                bold(r.games.separate_with_commas()),
                share(r.wins, r.games),
                r.positions.separate_with_commas(),
                r.max_dead_end_pegs,
                r.max_dead_end_games.separate_with_commas(),
                r.shortest_game_jumps,
            ));
        }
    }
    files.push((
        "comparison.csv".into(),
        files::csv_bytes(COMPARISON_HEADER, &csv_rows)?,
    ));
    files.push(("comparison.md".into(), md.into_bytes()));

    let mut series = Vec::new();
    for b in &compared {
        let label = if total(&table, b)?.is_some() {
            format!("{b}, all starts")
        } else {
            format!("{b}, starts in table")
        };
        series.push((label, pegs_left_total(&table, b)?));
    }
    files.push((
        "pegs_left.svg".into(),
        plot::pegs_left_chart("Games by pegs left at the end", &series).into_bytes(),
    ));

    files.push((
        "scaling.svg".into(),
        plot::scaling_chart(&sweep_costs(&table)).into_bytes(),
    ));

    for b in &all {
        let Some(board) = table.builtin_board(b) else {
            continue; // a board file's name: its picture is not in the table
        };
        files.push((
            format!("classes_{}.svg", slug(b)),
            plot::start_classes(&board).into_bytes(),
        ));
        let mut panels = Vec::new();
        for r in rows(&table, b)?.iter().filter(|r| r.start != "all") {
            let e = &table.entries[&table::Key::new(b, &r.start)];
            let mut wins = vec![Total::ZERO; board.holes()];
            for row in &e.finish {
                let hole = board.hole(&row[0])?;
                wins[hole] = row[1].parse().unwrap_or_default();
            }
            panels.push(plot::HeatPanel {
                start: board.hole(&r.start)?,
                class_size: r.class_size,
                wins,
            });
        }
        files.push((
            format!("finish_{}.svg", slug(b)),
            plot::finish_heat_maps(&board, &panels).into_bytes(),
        ));
    }

    files.extend(min_moves_pictures(dir)?);

    let named: Vec<(&str, Vec<u8>)> = files.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    let names: Vec<&str> = named.iter().map(|f| f.0).collect();
    files::prepare_files(out, &names)?;
    files::write_atomically(out, &named)?;
    Ok(files.into_iter().map(|(n, _)| n).collect())
}

/// `min_moves_{board}.svg` for each built-in board of `DIR/min_moves.csv` (written by
/// `pegsol solve --min-moves --table --csv DIR`), when the file exists: one panel per start
/// class with rows (a start without a win has none).
fn min_moves_pictures(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    use crate::games::minmoves::table as moves;
    use crate::geometry::board::{Board, builtin_spec, is_builtin};
    use crate::output::moves_map::{MovesPanel, min_moves_maps};
    let path = dir.join(moves::FILE);
    if !path.exists() {
        return Ok(Vec::new());
    }
    let rows = moves::read(&path)?;
    let mut boards: Vec<&str> = Vec::new();
    for r in &rows {
        if !boards.contains(&r.board.as_str()) {
            boards.push(&r.board);
        }
    }
    let mut out = Vec::new();
    for b in boards {
        if !is_builtin(b) || builtin_spec(b) != b {
            continue; // a board file's name: its picture is not in the table
        }
        let board = Board::from_spec(b)?;
        let mut panels = Vec::new();
        for class in board.hole_classes() {
            let start = board.hole_name(class[0]);
            let mut panel = MovesPanel {
                start: class[0],
                class_size: class.len(),
                anywhere: None,
                moves: vec![None; board.holes()],
            };
            for r in rows.iter().filter(|r| r.board == b && r.start == start) {
                if r.finish.is_empty() {
                    panel.anywhere = Some(r.moves);
                } else {
                    panel.moves[board.hole(&r.finish)?] = Some(r.moves);
                }
            }
            if panel.anywhere.is_some() {
                panels.push(panel);
            }
        }
        out.push((
            format!("min_moves_{}.svg", slug(b)),
            min_moves_maps(&board, &panels).into_bytes(),
        ));
    }
    Ok(out)
}
