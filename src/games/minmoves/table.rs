//! The table of fewest moves per start class: from each single-vacancy start, the fewest
//! moves to one peg anywhere and to one peg in each hole where a win ends
//! (`results/min_moves.csv`, written by `pegsol solve --min-moves --table`).
//!
//! For a start `s`, only holes in the start's position class can hold the last peg
//! ([`crate::games::solve::Classes`]). A symmetry fixing `s` maps finishes to finishes with
//! the same fewest moves, so one finish of each orbit is searched: first by
//! [`crate::games::solve::search`], which finds a game or proves there is none (a pagoda
//! function, or an exhaustive search); then one search from the start finds the fewest
//! moves to every finish with a game at once, sharing its forward side between them
//! ([`super::per_start`]). "Anywhere" is the smallest of the finishes' figures.

use super::per_start::fewest_to_each;
use crate::count::table::Key;
use crate::error::{Error, Result};
use crate::games::solve::{Classes, Goal, Outcome, search};
use crate::geometry::board::{Board, Jump, bit};
use std::cmp::Ordering;
use std::path::Path;

/// Columns of `min_moves.csv`; `finish` is empty for "one peg anywhere".
pub const HEADER: &[&str] = &["board", "start", "finish", "moves"];

/// The file the table is kept in.
pub const FILE: &str = "min_moves.csv";

/// One row of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The board's name (`tri:5`).
    pub board: String,
    /// The start hole standing for its class (the class's smallest hole, or the hole asked
    /// for by name).
    pub start: String,
    /// The finishing hole, or empty for one peg anywhere.
    pub finish: String,
    /// The fewest moves.
    pub moves: usize,
}

impl Row {
    fn cmp_key(&self, other: &Row) -> Ordering {
        let cell = |c: &str| Key::new("", c);
        Key::new(&self.board, &self.start)
            .cmp(&Key::new(&other.board, &other.start))
            .then_with(|| (!self.finish.is_empty()).cmp(&!other.finish.is_empty()))
            .then_with(|| cell(&self.finish).cmp(&cell(&other.finish)))
    }
}

/// The rows of the start class of `start` (a hole): one peg anywhere first, then each
/// finishing hole with a win, in hole order; none when no game from `start` wins.
/// `progress` is called with (finishes searched, finishes to search) after each one.
///
/// ```
/// use pegsol::{geometry::board::Board, games::minmoves::table::start_rows};
/// let b = Board::from_spec("tri:5")?;
/// let mut best = usize::MAX;
/// for class in b.hole_classes() {
///     let rows = start_rows(&b, class[0], u64::MAX, &mut |_, _| {})?;
///     if let Some(anywhere) = rows.first() {
///         assert!(anywhere.finish.is_empty());
///         assert!(rows[1..].iter().all(|r| r.moves >= anywhere.moves));
///         best = best.min(anywhere.moves);
///     }
/// }
/// // OEIS A127500: tri:5 needs 9 moves, best over all starts and finishes.
/// assert_eq!(best, 9);
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn start_rows(
    board: &Board,
    start: usize,
    max_memory: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Row>> {
    let stabiliser = stabiliser(board, start);
    let mut moves: Vec<Option<usize>> = vec![None; board.holes()];
    for (f, m, _) in start_games(board, start, max_memory, progress)? {
        for p in &stabiliser {
            moves[p[f]] = Some(m);
        }
    }
    let row = |finish: String, moves: usize| Row {
        board: board.name().to_string(),
        start: board.hole_name(start),
        finish,
        moves,
    };
    let Some(best) = moves.iter().flatten().min() else {
        return Ok(Vec::new());
    };
    let mut rows = vec![row(String::new(), *best)];
    for (h, m) in moves.iter().enumerate() {
        if let Some(m) = m {
            rows.push(row(board.hole_name(h), *m));
        }
    }
    Ok(rows)
}

/// From the single-vacancy start `start` (a hole): for one finishing hole of each orbit of
/// the symmetries fixing the start, where a win ends there, the fewest moves and a game
/// with that many, as (finish, moves, jumps). `progress` is called with (finishes searched,
/// finishes to search) after each one is found winnable or not.
///
/// ```
/// use pegsol::{geometry::board::{Board, bit}, games::{minmoves::table::start_games, notation}};
/// let b = Board::from_spec("tri:4")?;
/// let a2 = b.hole("a2")?;
/// let games = start_games(&b, a2, u64::MAX, &mut |_, _| {})?;
/// // tri:4 from a2 ends only in b2, in 5 moves (OEIS A127500).
/// assert_eq!(games.len(), 1);
/// let (finish, moves, jumps) = &games[0];
/// assert_eq!((b.hole_name(*finish).as_str(), *moves), ("b2", 5));
/// let end = notation::replay(&b, b.full() ^ bit(a2), jumps).unwrap();
/// assert_eq!(end, bit(*finish));
/// assert_eq!(notation::count_moves(jumps), 5);
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn start_games(
    board: &Board,
    start: usize,
    max_memory: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<(usize, usize, Vec<Jump>)>> {
    let pos = board.full() ^ bit(start);
    let classes = Classes::new(board);
    let stabiliser = stabiliser(board, start);
    // The holes where a game from `start` may end, and one of each orbit of the stabiliser.
    let class: Vec<usize> = (0..board.holes())
        .filter(|&f| classes.of(bit(f)) == classes.of(pos))
        .collect();
    let finishes: Vec<usize> = class
        .iter()
        .copied()
        .filter(|&f| stabiliser.iter().all(|p| p[f] >= f))
        .collect();
    // The finishes with a win (a game found, or proved impossible, by `solve`'s search).
    let mut winning = Vec::new();
    for (k, &f) in finishes.iter().enumerate() {
        let found = search(board, pos, Goal::OnePeg(bit(f)), max_memory)?;
        if let Outcome::Found(_) = found.outcome {
            winning.push(f);
        }
        progress(k + 1, finishes.len());
    }
    let games = if board.holes() <= super::store::Store::<u64>::max_holes() {
        fewest_to_each::<u64>(board, pos, &winning, &class, max_memory)?
    } else if board.holes() <= super::store::Store::<u128>::max_holes() {
        fewest_to_each::<u128>(board, pos, &winning, &class, max_memory)?
    } else {
        return Err(super::too_large(board));
    };
    Ok(winning
        .into_iter()
        .zip(games)
        .map(|(f, (m, jumps))| (f, m, jumps))
        .collect())
}

/// Reads `min_moves.csv`: its header must be [`HEADER`] and every `moves` a whole number.
pub fn read(path: &Path) -> Result<Vec<Row>> {
    let bad = |what: String| Error::input(format!("{}: {what}", path.display()));
    let text = std::fs::read_to_string(path).map_err(|e| bad(crate::output::files::io_text(&e)))?;
    let mut lines = text.lines();
    if lines.next() != Some(HEADER.join(",").as_str()) {
        return Err(bad(format!("the first line is not {}", HEADER.join(","))));
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let cols: Vec<&str> = line.split(',').collect();
        let moves = match cols[..] {
            [_, _, _, m] => m.parse::<usize>().ok(),
            _ => None,
        };
        let Some(moves) = moves else {
            return Err(bad(format!(
                "line {} is not board,start,finish,moves: {line}",
                i + 2
            )));
        };
        rows.push(Row {
            board: cols[0].to_string(),
            start: cols[1].to_string(),
            finish: cols[2].to_string(),
            moves,
        });
    }
    Ok(rows)
}

/// The table `old` with the rows of the (board, start) pairs in `done` replaced by `new`,
/// sorted by board (`tri:9` before `tri:10`), start, then finish (anywhere first), as CSV.
///
/// ```
/// use pegsol::games::minmoves::table::{Row, merged_csv};
/// let row = |s: &str, f: &str, m| Row { board: "tri:5".into(), start: s.into(), finish: f.into(), moves: m };
/// let old = vec![row("b3", "", 10), row("a1", "", 7)];
/// let csv = merged_csv(old, vec![row("a1", "a1", 9), row("a1", "", 9)], &[("tri:5".into(), "a1".into())])?;
/// assert_eq!(csv, b"board,start,finish,moves\ntri:5,a1,,9\ntri:5,a1,a1,9\ntri:5,b3,,10\n");
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn merged_csv(old: Vec<Row>, new: Vec<Row>, done: &[(String, String)]) -> Result<Vec<u8>> {
    let mut rows: Vec<Row> = old
        .into_iter()
        .filter(|r| !done.iter().any(|(b, s)| *b == r.board && *s == r.start))
        .chain(new)
        .collect();
    rows.sort_by(Row::cmp_key);
    let cells: Vec<Vec<String>> = rows
        .into_iter()
        .map(|r| vec![r.board, r.start, r.finish, r.moves.to_string()])
        .collect();
    crate::output::files::csv_bytes(HEADER, &cells)
}

/// The symmetries of `board` that fix the hole `start`, as permutations of its holes.
fn stabiliser(board: &Board, start: usize) -> Vec<&[usize]> {
    board
        .symmetries()
        .iter()
        .map(|s| s.perm())
        .filter(|p| p[start] == start)
        .collect()
}
