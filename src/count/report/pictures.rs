//! The report's pictures drawn from the table: games by pegs left, the cost of each sweep,
//! each board's start classes and wins by finishing hole, and the fewest-moves maps.

use super::{pegs_left_total, rows, total};
use crate::count::table::{self, Table};
use crate::error::Result;
use crate::output::plot;
use crate::total::Total;
use std::path::Path;

pub(super) fn slug(board: &str) -> String {
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

/// `pegs_left.svg`: games by pegs left, one line per compared board.
pub(super) fn pegs_left(table: &Table, compared: &[String]) -> Result<(String, Vec<u8>)> {
    let mut series = Vec::new();
    for b in compared {
        let label = if total(table, b)?.is_some() {
            format!("{b}, all starts")
        } else {
            format!("{b}, starts in table")
        };
        series.push((label, pegs_left_total(table, b)?));
    }
    let svg = plot::pegs_left_chart("Games by pegs left at the end", &series);
    Ok(("pegs_left.svg".into(), svg.into_bytes()))
}

/// `classes_BOARD.svg` and `finish_BOARD.svg` for each built-in board of `all`.
pub(super) fn board_pictures(table: &Table, all: &[String]) -> Result<Vec<(String, Vec<u8>)>> {
    let mut files = Vec::new();
    for b in all {
        let Some(board) = table.builtin_board(b) else {
            continue; // a board file's name: its picture is not in the table
        };
        files.push((
            format!("classes_{}.svg", slug(b)),
            plot::start_classes(&board).into_bytes(),
        ));
        let mut panels = Vec::new();
        for r in rows(table, b)?.iter().filter(|r| r.start != "all") {
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
    Ok(files)
}

/// `min_moves_{board}.svg` for each built-in board of `DIR/min_moves.csv` (written by
/// `pegsol solve --min-moves --table --csv DIR`), when the file exists: one panel per start
/// class with rows (a start without a win has none).
pub(super) fn min_moves_pictures(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
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
