//! Checking a loaded table: counts, provenance rows, and the sums of each entry.

use super::model::{
    CLASS_SIZE_COLUMN, Entry, Format, GEOMETRY_IN_RUN, JSON_FILE, RUNS_HEADER, summary_header,
};
use super::plan::Key;
use crate::count::export;
use crate::error::{Error, Result};
use crate::geometry::board::Board;
use crate::total::Total;
use std::collections::BTreeMap;
use std::path::Path;

/// Refuses a row of a table's count files (`row`: the columns after board and start) in
/// which a count is not a whole number that fits 256 bits ([`Total`]): every column but
/// `finish`, which names a hole.
pub(super) fn check_counts(file: &str, header: &[&str], key: &Key, row: &[String]) -> Result<()> {
    for (name, v) in header[2..].iter().zip(row) {
        if *name != "finish" && !(crate::count::labels::is_count(v) && v.parse::<Total>().is_ok()) {
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
pub(super) struct Sources {
    /// summary.csv or table.json, as displayed.
    summary: String,
    pegs_left: String,
    finish: String,
    depth: String,
    pub(super) runs: String,
    /// How a message names the summary: `summary.csv` or `the summary`.
    summary_name: &'static str,
}

impl Sources {
    pub(super) fn of(dir: &Path, format: Format) -> Sources {
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
    pub(super) fn file(&self, part: &str) -> &str {
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
pub(super) fn check_run(file: &str, key: &Key, run: &[String]) -> Result<()> {
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
pub(super) fn builtin_board(name: &str, geometry: &str) -> Option<KnownBoard> {
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
pub(super) fn check_entry(
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
struct EntryCheck<'a> {
    sources: &'a Sources,
    key: &'a Key,
    e: &'a Entry,
}

impl EntryCheck<'_> {
    /// The refusal of the entry's rows from file `part` (`summary`, `pegs_left`, ...).
    fn refuse(&self, part: &str, what: String) -> Error {
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
    fn summary_col(&self, name: &str) -> Result<Total> {
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

    /// The number in column `i` of row `r` of file `part`.
    fn value(&self, part: &str, r: &[String], i: usize) -> Result<Total> {
        r.get(i)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| self.refuse(part, "a row without its numbers".into()))
    }

    /// The (pegs, games) of pegs_left.csv, and the (jumps, games ended) of depth.csv's
    /// rows with games ended; refuses a depth row with more dead ends or reduced positions
    /// than positions.
    #[allow(clippy::type_complexity)]
    fn ends(&self) -> Result<(Vec<(Total, Total)>, Vec<(Total, Total)>)> {
        let mut ends: Vec<(Total, Total)> = Vec::new();
        for r in &self.e.pegs_left {
            ends.push((
                self.value("pegs_left", r, 0)?,
                self.value("pegs_left", r, 1)?,
            ));
        }
        // depth.csv: (jumps, positions, reduced, ended, dead).
        let mut ended: Vec<(Total, Total)> = Vec::new();
        for r in &self.e.depth {
            let [jumps, positions, reduced, games, dead] =
                [0, 1, 2, 3, 4].map(|i| self.value("depth", r, i));
            let (jumps, positions, reduced, games, dead) =
                (jumps?, positions?, reduced?, games?, dead?);
            if reduced > positions || dead > positions {
                return Err(self.refuse(
                    "depth",
                    format!(
                        "after {jumps} jumps: {positions} positions, but {reduced} up to \
                         symmetry and {dead} dead ends"
                    ),
                ));
            }
            if !games.is_zero() {
                ended.push((jumps, games));
            }
        }
        Ok((ends, ended))
    }

    /// Refuses extremes in the summary other than its rows': the most pegs a dead end
    /// leaves and its games are the highest row of pegs_left.csv, the shortest game and its
    /// games the first depth with games ended, and every game's pegs left and jumps add up
    /// to the start's pegs.
    fn check_extremes(&self) -> Result<()> {
        let (ends, ended) = self.ends()?;
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
            let s = self.summary_col(column)?;
            if s != found {
                return Err(self.refuse(
                    part,
                    format!("{column} is {s} in the summary, {found} by its rows"),
                ));
            }
        }
        if most.0.plus(first.0).ok() != fewest.0.plus(last.0).ok() {
            return Err(self.refuse(
                "depth",
                format!(
                    "games ending after {} and {} jumps leave {} and {} pegs: not one start's",
                    first.0, last.0, most.0, fewest.0
                ),
            ));
        }
        Ok(())
    }
}
