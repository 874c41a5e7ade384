//! Checking a loaded table, by concern: here the counts and provenance rows as read and
//! where each part comes from; `entry` a whole entry (its start class and the sums of its
//! rows against its summary) and `extremes` (its most pegs left and shortest game);
//! `random` the random player's rows (`table --random`).

mod entry;
mod extremes;
mod random;

pub(super) use entry::check_entry;
pub(super) use random::{RandomRow, Wins, check_random};

use super::model::{Format, JSON_FILE, RUNS_HEADER};
use super::plan::Key;
use crate::error::{Error, Result};
use crate::geometry::board::Board;
use crate::total::Total;
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
