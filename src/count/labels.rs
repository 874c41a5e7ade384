//! The labels of a table's rows, checked as strictly as pegsol writes them: what `table`
//! (deciding which pairs it may skip) and `report` (reading them) both ask of a table's
//! files, through [`Table::load`] and [`Table::load_complete`], so that neither keeps a
//! row the other refuses.
//!
//! - a count is decimal digits with no sign, space or leading zero (`0` itself);
//! - depth.csv's rows of a pair run `jumps` 0, 1, 2, ... in order, one per layer with
//!   positions, and never past the `holes - 2` jumps a board of `holes` holes allows;
//! - pegs_left.csv's `pegs_left` is from 1 to `holes - 1`;
//! - finish.csv's `finish` is a hole named exactly as the board prints it (`b5`, not `B5`,
//!   `b05` or ` b5`), one of the board's holes when the board is a built-in one the table
//!   knows ([`Table::builtin_board`]); for a board file, a name of that form.

use crate::count::table::{Entry, Key, Table};
use crate::error::{Error, Result};
use crate::geometry::board::{Board, MAX_HOLES};
use std::collections::BTreeMap;

/// Whether `v` is a count as pegsol writes one: decimal digits, no sign, space or leading
/// zero.
///
/// ```
/// use pegsol::count::labels::is_count;
/// assert!(is_count("0") && is_count("29760"));
/// assert!(!is_count("05") && !is_count(" 5") && !is_count("+5") && !is_count(""));
/// ```
pub fn is_count(v: &str) -> bool {
    !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) && (v == "0" || !v.starts_with('0'))
}

/// Whether `v` has the form of a hole's name as pegsol prints it: lower-case column letters,
/// then a row number from 1 with no leading zero.
///
/// ```
/// use pegsol::count::labels::is_hole_name;
/// assert!(is_hole_name("b5") && is_hole_name("aa12"));
/// assert!(!is_hole_name("B5") && !is_hole_name("b05") && !is_hole_name(" b5"));
/// assert!(!is_hole_name("b0") && !is_hole_name("5") && !is_hole_name("b"));
/// ```
pub fn is_hole_name(v: &str) -> bool {
    let digits = v.trim_start_matches(|c: char| c.is_ascii_lowercase());
    digits.len() < v.len() && is_count(digits) && digits != "0"
}

/// Checks the labels of every whole pair of `table` ([`Entry::is_whole`]) as the module
/// says; `file(part)` names the file a part (`depth`, `pegs_left`, `finish`) was read from.
pub(crate) fn check_table(table: &Table, file: &dyn Fn(&str) -> String) -> Result<()> {
    let mut boards: BTreeMap<&str, Option<Board>> = BTreeMap::new();
    for (key, e) in table.entries.iter().filter(|(_, e)| e.is_whole()) {
        let board = boards
            .entry(&key.board)
            .or_insert_with(|| table.builtin_board(&key.board));
        check_entry(key, e, board.as_ref()).map_err(|(part, what)| {
            Error::input(format!(
                "{}: {} {}: {what}; pegsol table did not write it",
                file(part),
                key.board,
                key.start
            ))
        })?;
    }
    Ok(())
}

/// The labels of one pair, on `board` when the table knows it: the part and what is wrong
/// with it, if anything.
fn check_entry(
    key: &Key,
    e: &Entry,
    board: Option<&Board>,
) -> std::result::Result<(), (&'static str, String)> {
    let holes = board.map_or(MAX_HOLES, Board::holes);
    let on = board.map_or(String::new(), |_| format!(" of {}", key.board));
    let label = |r: &[String]| r.first().cloned().unwrap_or_default();
    for (i, r) in e.depth.iter().enumerate() {
        let jumps = label(r);
        if jumps != i.to_string() {
            return Err((
                "depth",
                format!(
                    "a row for jumps '{}' where jumps {i} comes (rows run 0, 1, 2, ...)",
                    jumps.escape_debug()
                ),
            ));
        }
        if i + 2 > holes {
            return Err((
                "depth",
                format!(
                    "a row for {i} jumps, past the {} a board{on} allows",
                    holes.saturating_sub(2)
                ),
            ));
        }
    }
    for r in &e.pegs_left {
        let pegs = label(r);
        let fits = is_count(&pegs) && pegs.parse::<usize>().is_ok_and(|p| p >= 1 && p < holes);
        if !fits {
            return Err((
                "pegs_left",
                format!(
                    "'{}' pegs left, not from 1 to {}{on}",
                    pegs.escape_debug(),
                    holes - 1
                ),
            ));
        }
    }
    for r in &e.finish {
        let name = label(r);
        let known = match board {
            Some(b) => b.hole(&name).is_ok_and(|h| b.hole_name(h) == name),
            None => is_hole_name(&name),
        };
        if !known {
            return Err((
                "finish",
                format!(
                    "finish hole '{}' is not a hole{on} named as pegsol names it",
                    name.escape_debug()
                ),
            ));
        }
    }
    Ok(())
}
