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

/// The counts of english from the centre on 2 threads, swept once per test process: the
/// published figures and the wins of `solvable` are checked against the same sweep (4 s
/// on 2 cores each time, in CI's 15 minutes).
pub fn english_centre() -> &'static Counts {
    static COUNTS: std::sync::OnceLock<Counts> = std::sync::OnceLock::new();
    COUNTS.get_or_init(|| run("english", &["d4"], 2))
}

/// The path of the `pegsol` binary under test.
pub fn pegsol() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("pegsol").expect("binary")
}

/// Runs `pegsol args` (a shell-quoted argument string) under an address-space limit of
/// `kib` KiB (`ulimit -v`).
#[cfg(target_os = "linux")]
pub fn under_ulimit(kib: u64, args: &str) -> std::process::Output {
    under_ulimit_with(kib, &[], args)
}

/// [`under_ulimit`] with variables set in pegsol's environment.
pub fn under_ulimit_with(kib: u64, env: &[(&str, &str)], args: &str) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("pegsol");
    std::process::Command::new("sh")
        .envs(env.iter().copied())
        .arg("-c")
        .arg(format!(
            "ulimit -v {kib} && exec '{}' {args}",
            bin.display()
        ))
        .output()
        .expect("sh")
}
