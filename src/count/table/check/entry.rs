//! A whole entry of a loaded table checked: its start class, and the sums of its rows
//! against its summary.

use super::Sources;
use crate::count::export;
use crate::count::table::model::{CLASS_SIZE_COLUMN, Entry, GEOMETRY_IN_RUN, summary_header};
use crate::count::table::plan::Key;
use crate::error::{Error, Result};
use crate::geometry::board::Board;
use crate::total::Total;
use std::collections::BTreeMap;

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
pub(in crate::count::table) fn check_entry(
    sources: &Sources,
    key: &Key,
    e: &Entry,
    boards: &mut BTreeMap<String, Option<KnownBoard>>,
) -> Result<Option<usize>> {
    let c = EntryCheck { sources, key, e };
    let class_of = c.check_class_size(boards)?;
    c.check_sums()?;
    c.check_labels()?;
    c.check_extremes()?;
    Ok(class_of)
}

/// One entry of a table being checked ([`check_entry`]): where its rows come from, its
/// board and start, and its rows.
pub(super) struct EntryCheck<'a> {
    sources: &'a Sources,
    key: &'a Key,
    pub(super) e: &'a Entry,
}

impl EntryCheck<'_> {
    /// The refusal of the entry's rows from file `part` (`summary`, `pegs_left`, ...).
    pub(super) fn refuse(&self, part: &str, what: String) -> Error {
        let (board, start) = (&self.key.board, &self.key.start);
        Error::input(format!(
            "{}: {board} {start}: {what}",
            self.sources.file(part)
        ))
    }

    /// The count `v` read from file `part`.
    fn number(&self, part: &str, v: &str) -> Result<Total> {
        v.parse()
            .map_err(|_| self.refuse(part, format!("'{}' is not a count", v.escape_debug())))
    }

    /// The summary's count in column `name`.
    pub(super) fn summary_col(&self, name: &str) -> Result<Total> {
        let header = summary_header();
        let i = header.iter().position(|h| *h == name).expect("column") - 2;
        self.number("summary", self.e.summary.get(i).map_or("", String::as_str))
    }

    /// Refuses a start class size other than the start's class's (a built-in board) or
    /// outside 1..=MAX_HOLES (a board file); the index of the start's class on a built-in
    /// board.
    fn check_class_size(
        &self,
        boards: &mut BTreeMap<String, Option<KnownBoard>>,
    ) -> Result<Option<usize>> {
        let (board, start) = (&self.key.board, &self.key.start);
        let size = self.summary_col(CLASS_SIZE_COLUMN)?;
        let geometry = self.e.run.get(GEOMETRY_IN_RUN).map_or("", String::as_str);
        let known = boards
            .entry(format!("{board}\n{geometry}"))
            .or_insert_with(|| builtin_board(board, geometry));
        let Some((b, classes)) = known else {
            let max = crate::geometry::board::MAX_HOLES;
            if !size
                .to_u128()
                .is_some_and(|s| (1..=max as u128).contains(&s))
            {
                return Err(self.refuse(
                    "summary",
                    format!("start_class_size is {size}; a start class holds 1 to {max} holes"),
                ));
            }
            return Ok(None);
        };
        let hole = b
            .hole(start)
            .ok()
            .filter(|&h| b.hole_name(h) == *start)
            .ok_or_else(|| self.refuse("summary", format!("{start} is not a hole of {board}")))?;
        let at = classes
            .iter()
            .position(|c| c.contains(&hole))
            .expect("class");
        let class = &classes[at];
        if size != class.len() as u128 {
            return Err(self.refuse(
                "summary",
                format!(
                    "start_class_size is {size}, but the start class of {start} holds {} holes",
                    class.len()
                ),
            ));
        }
        Ok(Some(at))
    }

    /// The sum of column `column` of `rows` (read by `header`); None past 256 bits.
    fn sum(
        &self,
        part: &str,
        rows: &[Vec<String>],
        header: &[&str],
        column: &str,
    ) -> Result<Option<Total>> {
        let i = header.iter().position(|h| *h == column).expect("column") - 2;
        rows.iter().try_fold(Some(Total::ZERO), |acc, r| {
            let v = self.number(part, r.get(i).map_or("", String::as_str))?;
            Ok::<_, Error>(acc.and_then(|a| a.plus(v).ok()))
        })
    }

    /// Refuses `found` (the rows' `what`) unless it is the summary's `column`.
    fn agree(&self, part: &str, found: Option<Total>, what: &str, column: &str) -> Result<()> {
        let said = self.summary_col(column)?;
        if found == Some(said) {
            return Ok(());
        }
        let found = found.map_or("2^256 or more".into(), |n| n.to_string());
        Err(self.refuse(
            part,
            format!("{what} {found}, {} says {said}", self.sources.summary_name),
        ))
    }

    /// The rows of pegs_left, finish and depth against the summary.
    fn check_sums(&self) -> Result<()> {
        let e = self.e;
        let games = self.sum("pegs_left", &e.pegs_left, export::PEGS_LEFT_HEADER, "games")?;
        self.agree(
            "pegs_left",
            games,
            "the games per pegs left sum to",
            "games",
        )?;
        let one_peg = e
            .pegs_left
            .iter()
            .find(|r| r.first().is_some_and(|p| p == "1"))
            .map_or(Ok(Total::ZERO), |r| self.number("pegs_left", &r[1]))?;
        self.agree(
            "pegs_left",
            Some(one_peg),
            "the games leaving 1 peg are",
            "wins",
        )?;
        let wins = self.sum("finish", &e.finish, export::FINISH_HEADER, "wins")?;
        self.agree("finish", wins, "the wins per finish sum to", "wins")?;
        for (column, what) in [
            ("games_ended", "the games ended per depth sum to"),
            ("positions", "the positions per depth sum to"),
            (
                "positions_reduced",
                "the reduced positions per depth sum to",
            ),
        ] {
            let found = self.sum("depth", &e.depth, export::DEPTH_HEADER, column)?;
            let against = if column == "games_ended" {
                "games"
            } else {
                column
            };
            self.agree("depth", found, what, against)?;
        }
        Ok(())
    }

    /// Refuses rows of one pair that name a label twice (pegs left, finishing hole, jumps).
    fn check_labels(&self) -> Result<()> {
        let e = self.e;
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
                    return Err(self.refuse(part, format!("two rows for {what} {label}")));
                }
            }
        }
        Ok(())
    }
}
