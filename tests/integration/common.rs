//! Helpers shared by the test modules.

#![allow(dead_code)]

use pegsol::count::stats::Counts;
use pegsol::count::sweep::{CountOptions, count};
use pegsol::geometry::board::Board;

/// Counts a board spec from the named empty holes with `threads` threads.
pub fn run(spec: &str, holes: &[&str], threads: usize) -> Counts {
    let board = Board::from_spec(spec).expect("board");
    let names: Vec<String> = holes.iter().map(|s| s.to_string()).collect();
    let start = board.start_from_names(&names).expect("start");
    let opts = CountOptions {
        threads,
        ..CountOptions::default()
    };
    count(&board, start, &opts).expect("count")
}

/// The path of the `pegsol` binary under test.
pub fn pegsol() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("pegsol").expect("binary")
}
