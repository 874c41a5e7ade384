//! Games written down: jump notation, grouping jumps into moves, replaying and checking.
//!
//! A jump is written `from-to` with hole names (`f4-d4`). A *move* is a run of consecutive
//! jumps by one peg (each jump starts where the previous one ended) and is written as the
//! holes the peg visits joined by `-` (`c1-a1-a3` is two jumps).
//!
//! A game file, as `pegsol solve` prints it and `pegsol check` reads it:
//!
//! ```text
//! # comments start with '#'
//! board: english          (optional; --board overrides it)
//! start: d4               (optional: empty holes, or a picture with rows joined by '/')
//!  1. d2-d4
//!  2. f3-d3 ...
//! ```
//!
//! Move numbers (`12.`) are skipped, and so are lines drawn only with `o`, `.` and spaces
//! (the boards `--show` prints after each move), so the output of `solve --show` can be
//! checked as it is.

use crate::error::{Error, Result};
use crate::geometry::board::{Board, Jump, Pegs, bit};

/// Splits a list of jumps into moves: a jump joins the current move when it starts in the
/// hole where the previous jump ended.
///
/// ```
/// use pegsol::{geometry::board::Board, games::notation};
/// let b = Board::from_spec("tri:5").unwrap();
/// let jumps = notation::parse_jumps(&b, "f6-d4 d4-f4").unwrap_or_default();
/// assert!(jumps.is_empty()); // f6 is not a hole of tri:5
/// let jumps = notation::parse_jumps(&b, "a3-a1 c3-a3 a1-c3").unwrap();
/// assert_eq!(notation::group_moves(&jumps).len(), 3);
/// ```
pub fn group_moves(jumps: &[Jump]) -> Vec<Vec<Jump>> {
    let mut moves: Vec<Vec<Jump>> = Vec::new();
    for &j in jumps {
        match moves.last_mut() {
            Some(m) if m.last().is_some_and(|l| l.to == j.from) => m.push(j),
            _ => moves.push(vec![j]),
        }
    }
    moves
}

/// The number of moves in a list of jumps.
///
/// ```
/// use pegsol::{geometry::board::Board, games::notation};
/// let b = Board::from_spec("tri:5").unwrap();
/// let jumps = notation::parse_jumps(&b, "a3-a1 a1-c3").unwrap();
/// assert_eq!(notation::count_moves(&jumps), 1); // one peg, two jumps
/// ```
pub fn count_moves(jumps: &[Jump]) -> usize {
    group_moves(jumps).len()
}

/// One move in notation: the holes the peg visits, joined by `-` (`c1-a1-a3`).
///
/// ```
/// use pegsol::{geometry::board::Board, games::notation};
/// let b = Board::from_spec("tri:5").unwrap();
/// let jumps = notation::parse_jumps(&b, "a3-a1, a1-c3").unwrap();
/// assert_eq!(notation::move_text(&b, &jumps), "a3-a1-c3");
/// ```
pub fn move_text(board: &Board, mv: &[Jump]) -> String {
    let mut holes = vec![board.hole_name(mv[0].from)];
    holes.extend(mv.iter().map(|j| board.hole_name(j.to)));
    holes.join("-")
}

/// The jump from `from` to `to` (two holes apart on a lattice line), if the board has one.
///
/// ```
/// use pegsol::{geometry::board::Board, games::notation::jump_between};
/// let e = Board::from_spec("english").unwrap();
/// let h = |n| e.hole(n).unwrap();
/// let j = jump_between(&e, h("f4"), h("d4")).unwrap();
/// assert_eq!(e.hole_name(j.over), "e4");
/// assert!(jump_between(&e, h("d4"), h("d5")).is_none()); // neighbours, not a jump
/// ```
pub fn jump_between(board: &Board, from: usize, to: usize) -> Option<Jump> {
    board
        .jumps()
        .iter()
        .copied()
        .find(|j| j.from == from && j.to == to)
}

/// The jump that turns `before` into `after`, if they differ by exactly one legal jump.
///
/// ```
/// use pegsol::{geometry::board::Board, games::notation::{jump_between, jump_from_diff}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let start = b.default_start();
/// let a3_a1 = jump_between(&b, b.hole("a3").unwrap(), b.hole("a1").unwrap()).unwrap();
/// let after = start ^ a3_a1.mask();
/// assert_eq!(jump_from_diff(&b, start, after), Some(a3_a1));
/// assert_eq!(jump_from_diff(&b, after, start), None); // backwards: not a legal jump
/// assert_eq!(jump_from_diff(&b, start, start), None);
/// ```
pub fn jump_from_diff(board: &Board, before: Pegs, after: Pegs) -> Option<Jump> {
    board
        .jumps()
        .iter()
        .copied()
        .find(|j| j.is_legal(before) && before ^ j.mask() == after)
}

/// Parses moves (`c1-a1-a3`, `f4-d4`, separated by spaces, commas or new lines) into jumps.
/// Checks that each step is a jump of the board, not that it is legal in a position. Move
/// numbers (`1.`) may be left out; those given must count 1, 2, 3, ... in order.
///
/// ```
/// use pegsol::{geometry::board::Board, games::notation::parse_jumps};
/// let e = Board::from_spec("english").unwrap();
/// let jumps = parse_jumps(&e, "1. d2-d4\n2. f3-d3").unwrap();
/// assert_eq!(jumps.len(), 2);
/// assert!(parse_jumps(&e, "d2-d3").is_err()); // not a jump: d3 is next to d2
/// assert!(parse_jumps(&e, "1. d2-d4\n1. f3-d3").is_err()); // a move number repeated
/// ```
pub fn parse_jumps(board: &Board, text: &str) -> Result<Vec<Jump>> {
    let mut jumps = Vec::new();
    // Move numbers are optional; those given must run 1., 2., 3., ... in order.
    let mut numbers = 0u64;
    for token in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        if token.is_empty() {
            continue;
        }
        if is_move_number(token) {
            numbers += 1;
            if token[..token.len() - 1].parse::<u64>().ok() != Some(numbers) {
                return Err(Error::input(format!(
                    "move number '{token}' where {numbers}. was expected (numbers run 1., 2., 3., ... in order)"
                )));
            }
            continue;
        }
        let holes = token
            .split('-')
            .map(|n| board.hole(n))
            .collect::<Result<Vec<_>>>()
            .map_err(|e| Error::input(format!("move '{token}': {e}")))?;
        if holes.len() < 2 {
            return Err(Error::input(format!(
                "move '{token}': expected holes joined by '-', e.g. f4-d4"
            )));
        }
        for pair in holes.windows(2) {
            let j = jump_between(board, pair[0], pair[1]).ok_or_else(|| {
                Error::input(format!(
                    "move '{token}': {}-{} is not a jump on {} (the holes must be two apart on a line)",
                    board.hole_name(pair[0]),
                    board.hole_name(pair[1]),
                    board.name()
                ))
            })?;
            jumps.push(j);
        }
    }
    Ok(jumps)
}

fn is_move_number(token: &str) -> bool {
    token.len() > 1
        && token.ends_with('.')
        && token[..token.len() - 1].bytes().all(|b| b.is_ascii_digit())
}

/// A game file read as text: optional board spec and start, and the jumps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText {
    /// The `board:` line, if any.
    pub board: Option<String>,
    /// The `start:` line (a position), if any.
    pub start: Option<String>,
    /// Everything else: the moves.
    pub moves: String,
}

/// Splits a game file into its `board:` and `start:` lines and the moves, dropping
/// comments and drawn boards. A `board:` or `start:` line given twice is refused.
///
/// ```
/// use pegsol::games::notation::split_game_text;
/// let g = split_game_text("board: tri:5  # the triangle\nstart: a1\n  .\n o o\n1. a3-a1\n2. c3-a3\n")?;
/// assert_eq!(g.board.as_deref(), Some("tri:5"));
/// assert_eq!(g.start.as_deref(), Some("a1"));
/// assert_eq!(g.moves, "1. a3-a1\n2. c3-a3\n");
/// assert!(split_game_text("start: a1\nstart: b3\n1. a3-a1\n").is_err());
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn split_game_text(text: &str) -> Result<GameText> {
    let twice = |key: &str| Error::input(format!("the game has a second '{key}' line"));
    let mut out = GameText {
        board: None,
        start: None,
        moves: String::new(),
    };
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(v) = trimmed.strip_prefix("board:") {
            if out.board.replace(v.trim().to_string()).is_some() {
                return Err(twice("board:"));
            }
        } else if let Some(v) = line.trim_start().strip_prefix("start:") {
            // One space separates the key from the value; any further blank belongs to a
            // picture whose first row starts with cells without a hole.
            let v = v.trim_matches(|c| c == '\r' || c == '\n');
            if out
                .start
                .replace(v.strip_prefix(' ').unwrap_or(v).to_string())
                .is_some()
            {
                return Err(twice("start:"));
            }
        } else if trimmed.chars().all(|c| c == 'o' || c == '.' || c == ' ') {
            continue; // a board drawn by --show
        } else {
            out.moves.push_str(trimmed);
            out.moves.push('\n');
        }
    }
    Ok(out)
}

/// Why a replay failed: the jump (0-based index), and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    /// Index of the offending jump in the list.
    pub index: usize,
    /// Which move (1-based) it belongs to.
    pub mv: usize,
    /// A sentence saying what is wrong.
    pub reason: String,
}

/// Plays `jumps` from `start`, checking each one is legal; returns the final position.
///
/// ```
/// use pegsol::{geometry::board::Board, games::notation};
/// let b = Board::from_spec("tri:3").unwrap();
/// let jumps = notation::parse_jumps(&b, "a3-a1").unwrap();
/// let end = notation::replay(&b, b.default_start(), &jumps).unwrap();
/// assert_eq!(b.picture(end), "o/.o/.oo");
/// assert!(notation::replay(&b, end, &jumps).is_err());
/// ```
pub fn replay(board: &Board, start: Pegs, jumps: &[Jump]) -> std::result::Result<Pegs, Illegal> {
    let mut pos = start;
    let mut mv = 0;
    for (i, j) in jumps.iter().enumerate() {
        if i == 0 || jumps[i - 1].to != j.from {
            mv += 1;
        }
        let name = |h| board.hole_name(h);
        let problem = if pos & bit(j.from) == 0 {
            Some(format!("{} holds no peg", name(j.from)))
        } else if pos & bit(j.over) == 0 {
            Some(format!("{} (jumped over) holds no peg", name(j.over)))
        } else if pos & bit(j.to) != 0 {
            Some(format!("{} is not empty", name(j.to)))
        } else {
            None
        };
        if let Some(reason) = problem {
            return Err(Illegal {
                index: i,
                mv,
                reason: format!(
                    "jump {} ({}-{}) in move {mv}: {reason}",
                    i + 1,
                    name(j.from),
                    name(j.to)
                ),
            });
        }
        pos ^= j.mask();
    }
    Ok(pos)
}

/// Whether no jump is possible in `pos`.
///
/// ```
/// use pegsol::{geometry::board::Board, games::notation::is_dead_end};
/// let b = Board::from_spec("tri:5").unwrap();
/// assert!(!is_dead_end(&b, b.default_start()));
/// assert!(is_dead_end(&b, 1)); // one peg, in a1
/// ```
pub fn is_dead_end(board: &Board, pos: Pegs) -> bool {
    !board.jumps().iter().any(|j| j.is_legal(pos))
}

/// How a start position is written on a `start:` line: its empty holes when there are at
/// most three, else its picture ([`picture`]).
///
/// ```
/// use pegsol::{geometry::board::Board, games::notation::start_text};
/// let e = Board::from_spec("english").unwrap();
/// assert_eq!(start_text(&e, e.default_start()), "d4");
/// assert_eq!(start_text(&e, 0), "--.../--.../......./......./......./--.../--...");
/// ```
pub fn start_text(board: &Board, start: Pegs) -> String {
    let empty = board.holes() - start.count_ones() as usize;
    if (1..=3).contains(&empty) {
        board.start_name(start)
    } else {
        picture(board, start)
    }
}

/// A position as a one-line picture with `-` for the cells without a hole, so that it can
/// be pasted as a command-line argument or a `start:` line without losing leading blanks.
///
/// ```
/// let e = pegsol::geometry::board::Board::from_spec("english").unwrap();
/// let p = pegsol::games::notation::picture(&e, e.default_start());
/// assert!(p.starts_with("--ooo/--ooo/ooooooo/ooo.ooo/"));
/// assert_eq!(e.parse_position(&p).unwrap(), e.default_start());
/// ```
pub fn picture(board: &Board, pos: Pegs) -> String {
    board.picture(pos).replace(' ', "-")
}

/// Writes a game in the file format above: `board:` ([`Board::spec`], so that
/// [`Board::from_spec`] reads a board file again) and `start:` lines, one numbered move
/// per line, and with `show` the board after each move.
///
/// ```
/// use pegsol::{geometry::board::Board, games::notation::{parse_jumps, write_game}};
/// let b = Board::from_spec("tri:3").unwrap();
/// let jumps = parse_jumps(&b, "a3-a1").unwrap();
/// let text = write_game(&b, b.default_start(), &jumps, false);
/// assert_eq!(text, "board: tri:3\nstart: a1\n1. a3-a1\n");
/// let shown = write_game(&b, b.default_start(), &jumps, true);
/// assert_eq!(shown, "board: tri:3\nstart: a1\n      .\n     o o\n    o o o\n1. a3-a1\n      o\n     . o\n    . o o\n");
/// ```
pub fn write_game(board: &Board, start: Pegs, jumps: &[Jump], show: bool) -> String {
    let mut out = format!(
        "board: {}\nstart: {}\n",
        board.spec(),
        start_text(board, start)
    );
    let mut pos = start;
    if show {
        out.push_str(&indent(&board.draw_position(pos)));
    }
    let moves = group_moves(jumps);
    let width = moves.len().to_string().len();
    for (i, mv) in moves.iter().enumerate() {
        out.push_str(&format!("{:>width$}. {}\n", i + 1, move_text(board, mv)));
        for j in mv {
            pos ^= j.mask();
        }
        if show {
            out.push_str(&indent(&board.draw_position(pos)));
        }
    }
    out
}

fn indent(drawing: &str) -> String {
    drawing.lines().map(|l| format!("    {l}\n")).collect()
}

/// The holes holding a peg, named and joined by `+` (`d4`, `c3+e5`), or `none`.
///
/// ```
/// use pegsol::{geometry::board::{Board, bit}, games::notation::peg_names};
/// let e = Board::from_spec("english").unwrap();
/// assert_eq!(peg_names(&e, bit(e.hole("d4").unwrap())), "d4");
/// assert_eq!(peg_names(&e, 0), "none");
/// ```
pub fn peg_names(board: &Board, pos: Pegs) -> String {
    board.hole_names(pos)
}
