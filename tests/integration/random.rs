//! The random player and the quickest loss (issue 67) against plain references: exact
//! fractions over raw positions for every start of tri:4..6 and two board files, the
//! engine's fixed point within its shortfall of them, the same files for any threads,
//! budget and resume, a Monte Carlo estimate on english, and a plain search for the
//! quickest loss.

use crate::common::pegsol;
use num_bigint::BigUint;
use pegsol::analysis::solvable::{Finish, SolveOptions};
use pegsol::count::random::reference::{self, Winnable};
use pegsol::count::random::{
    FIXED_BITS, Odds, Prob, QuickestLoss, engine_odds, quickest_loss, random_player,
};
use pegsol::count::sweep::CountOptions;
use pegsol::geometry::board::{Board, Pegs};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn memory(bytes: u64) -> CountOptions {
    CountOptions {
        max_memory: bytes,
        ..CountOptions::default()
    }
}

const MEMORY: u64 = 2 << 30;

/// Every single-vacancy start of a board, one per symmetry class.
fn starts(board: &Board) -> Vec<Pegs> {
    board
        .hole_classes()
        .iter()
        .map(|class| board.start_with_empty(&[class[0]]))
        .collect()
}

fn boards() -> Vec<Board> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut all: Vec<Board> = ["tri:4", "tri:5", "tri:6"]
        .iter()
        .map(|s| Board::from_spec(s).unwrap())
        .collect();
    for file in ["boards/trapezoid.txt", "boards/hex2.txt"] {
        all.push(Board::from_file(&std::path::Path::new(root).join(file)).unwrap());
    }
    all
}

#[test]
fn the_exact_odds_match_a_plain_recursion_on_small_boards() {
    let mut checked = 0;
    for board in boards() {
        for start in starts(&board) {
            let odds = random_player(&board, start, &memory(MEMORY)).unwrap();
            let (pegs, holes) = reference::random_player(&board, start);
            let name = format!("{} {}", board.name(), board.start_name(start));
            assert!(odds.exact(), "{name}");
            assert_eq!(odds.pegs_left, pegs, "{name}");
            assert_eq!(odds.finish, holes, "{name}");
            let total = pegs.iter().fold(Prob::zero(), |a, (_, p)| a.plus(p));
            assert_eq!(total.fraction(), "1/1", "{name}");
            let win = pegs.iter().find(|(k, _)| *k == 1).map(|(_, p)| p.clone());
            assert_eq!(
                Some(odds.win.clone()).filter(|p| !p.is_zero()),
                win,
                "{name}"
            );
            let by_hole = holes.iter().fold(Prob::zero(), |a, (_, p)| a.plus(p));
            assert_eq!(by_hole, odds.win, "{name}");
            checked += 1;
        }
    }
    // tri:4 2, tri:5 4, tri:6 4, the trapezoid and the hexagon theirs.
    assert!(checked >= 12, "{checked}");
}

/// `value` within `[fixed, fixed + shortfall units]`, where `fixed` is the engine's
/// figure in units of `2^-FIXED_BITS`.
fn within(fixed: &Prob, shortfall: u128, value: &Prob) -> bool {
    let one = BigUint::from(1u8) << FIXED_BITS;
    assert!(!fixed.exact);
    // fixed <= p / q <= fixed + shortfall / 2^124
    let (f, d) = (&fixed.num, &fixed.den);
    let low = f * &value.den <= &value.num * d;
    let high = &value.num * d * &one <= (f * &one + d * shortfall) * &value.den;
    low && high
}

/// The engine's fixed point (a sweep carrying masses) against the exact fractions on every
/// start of tri:4..6 and the trapezoid: every row of both files at or below the exact
/// value by at most the shortfall, the same rows, and the win and expected pegs likewise;
/// the shortfall is what the layers' masses leave of the whole.
#[test]
fn the_engines_fixed_point_is_within_its_shortfall_of_the_exact_odds() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut specs: Vec<Board> = ["tri:4", "tri:5", "tri:6"]
        .iter()
        .map(|s| Board::from_spec(s).unwrap())
        .collect();
    specs.push(Board::from_file(&Path::new(root).join("boards/trapezoid.txt")).unwrap());
    let mut rows = 0;
    for board in specs {
        let all = starts(&board);
        // One sweep of every start class at once, as a table would run it.
        let fixed = engine_odds(&board, &all, &memory(MEMORY)).unwrap();
        for (start, f) in all.iter().zip(&fixed) {
            let exact = random_player(&board, *start, &memory(MEMORY)).unwrap();
            let name = format!("{} {}", board.name(), board.start_name(*start));
            assert!(exact.exact() && !f.exact(), "{name}");
            let by_pegs = |o: &Odds| o.pegs_left.iter().map(|(k, _)| *k).collect::<Vec<_>>();
            assert_eq!(by_pegs(f), by_pegs(&exact), "{name}");
            for ((_, p), (_, q)) in f.pegs_left.iter().zip(&exact.pegs_left) {
                assert!(within(p, f.shortfall, q), "{name}: {p:?} against {q:?}");
                rows += 1;
            }
            let holes = |o: &Odds| o.finish.iter().map(|(h, _)| h.clone()).collect::<Vec<_>>();
            assert_eq!(holes(f), holes(&exact), "{name}");
            for ((_, p), (_, q)) in f.finish.iter().zip(&exact.finish) {
                assert!(within(p, f.shortfall, q), "{name}: {p:?} against {q:?}");
                rows += 1;
            }
            assert!(within(&f.win, f.shortfall, &exact.win), "{name}");
            let pegs = u128::from(f.start_pegs) * f.shortfall;
            assert!(
                within(&f.expected_pegs, pegs, &exact.expected_pegs),
                "{name}"
            );
            let units: BigUint = f.pegs_left.iter().map(|(_, p)| &p.num).sum();
            assert_eq!(
                units + f.shortfall,
                BigUint::from(1u8) << FIXED_BITS,
                "{name}"
            );
            assert!(f.shortfall < 1 << 20, "{name}: {}", f.shortfall);
        }
    }
    assert!(rows > 60, "{rows}");
}

#[test]
fn tri6_denominators_pass_ten_to_the_sixty() {
    let b = Board::from_spec("tri:6").unwrap();
    let odds = random_player(&b, b.default_start(), &memory(MEMORY)).unwrap();
    let largest = odds
        .pegs_left
        .iter()
        .map(|(_, p)| p.den.bits())
        .max()
        .unwrap();
    assert!(largest > 200, "{largest} bits"); // 10^60 is about 2^199
}

/// The english random player against 300,000 random games (seed 67): the probability of
/// each number of pegs left within five standard deviations (plus one game), and the
/// expected pegs within five standard errors.
#[test]
fn english_odds_match_a_monte_carlo_estimate() {
    let b = Board::from_spec("english").unwrap();
    // Past exact fractions: the engine's sweep of masses.
    let odds = random_player(&b, b.default_start(), &memory(6 << 30)).unwrap();
    assert!(
        !odds.exact() && odds.shortfall < 1 << 40,
        "{}",
        odds.shortfall
    );
    let games = 300_000u64;
    let counts = reference::play_random(&b, b.default_start(), games, 67);
    let n = games as f64;
    let p_of = |k: usize| {
        odds.pegs_left
            .iter()
            .find(|(p, _)| *p as usize == k)
            .map_or(0.0, |(_, p)| p.to_f64())
    };
    let mut mean = 0.0;
    let mut second = 0.0;
    for (k, &c) in counts.iter().enumerate() {
        let p = p_of(k);
        let f = c as f64 / n;
        let sd = (p * (1.0 - p) / n).sqrt();
        assert!(
            (f - p).abs() <= 5.0 * sd + 1.0 / n,
            "{k} pegs: {f} against {p}"
        );
        mean += k as f64 * f;
        second += (k * k) as f64 * f;
    }
    let expected = odds.expected_pegs.to_f64();
    let se = ((second - mean * mean) / n).sqrt();
    assert!(
        (mean - expected).abs() <= 5.0 * se,
        "{mean} against {expected}"
    );
    // Every row the sweep gives is one a game can end in.
    assert!(odds.pegs_left.iter().all(|(k, p)| *k >= 1 && !p.is_zero()));
}

fn plain_quickest(board: &Board, start: Pegs, goal: Pegs) -> Option<QuickestLoss> {
    let mut w = Winnable::new(board, goal);
    reference::quickest_loss(board, start, &mut |p| w.can_win(p), board.holes())
}

#[test]
fn the_quickest_loss_matches_a_plain_search_on_small_triangles() {
    for spec in ["tri:4", "tri:5", "tri:6"] {
        let board = Board::from_spec(spec).unwrap();
        for start in starts(&board) {
            let name = format!("{spec} {}", board.start_name(start));
            let got = quickest_loss(&board, start, Finish::Any, &SolveOptions::default()).unwrap();
            let want = plain_quickest(&board, start, board.full());
            assert_eq!(
                Some(got),
                want.or(Some(QuickestLoss {
                    jumps: None,
                    sequences: 0,
                    at_least: None,
                })),
                "{name}"
            );
            // And for finishing on the start's hole.
            let hole = (start ^ board.full()).trailing_zeros() as usize;
            let got =
                quickest_loss(&board, start, Finish::Hole(hole), &SolveOptions::default()).unwrap();
            let want = plain_quickest(&board, start, 1 << hole);
            assert_eq!(
                Some(got),
                want.or(Some(QuickestLoss {
                    jumps: None,
                    sequences: 0,
                    at_least: None,
                })),
                "{name} to its hole"
            );
        }
    }
}

#[test]
fn the_quickest_loss_on_english_matches_a_plain_search() {
    // The plain search's winnable test: `solve`'s depth-first search (a game, or a proof
    // that there is none), remembered per position; no solvable machinery.
    use pegsol::games::solve::{Goal, Outcome, search};
    use std::collections::HashMap;
    let b = Board::from_spec("english").unwrap();
    let start = b.default_start();
    let got = quickest_loss(&b, start, Finish::Any, &SolveOptions::default()).unwrap();
    let mut memo: HashMap<Pegs, bool> = HashMap::new();
    let mut winnable = |p: Pegs| {
        *memo.entry(p).or_insert_with(|| {
            let found = search(&b, p, Goal::OnePeg(b.full()), MEMORY).unwrap();
            matches!(found.outcome, Outcome::Found(_))
        })
    };
    let want = reference::quickest_loss(&b, start, &mut winnable, 12);
    assert_eq!(Some(got), want);
    assert!(got.jumps.unwrap() > 1);
}

#[test]
fn a_start_without_a_win_is_lost_at_once() {
    let b = Board::from_spec("tri:4").unwrap();
    let q = quickest_loss(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    assert_eq!((q.jumps, q.sequences), (Some(0), 1));
}

/// The random player's files of `pegsol count --board tri:7 --random ARGS --csv OUT`, run
/// in `cwd`.
fn tri7_random(cwd: &Path, args: &[&str], out: &Path) -> [String; 2] {
    pegsol()
        .current_dir(cwd)
        .args(["count", "--board", "tri:7", "--random", "-q"])
        .args(args)
        .arg("--csv")
        .arg(out)
        .assert()
        .success();
    ["random.csv", "random_finish.csv"].map(|f| std::fs::read_to_string(out.join(f)).unwrap())
}

/// The random sweep's folder in `work`, if it has made one.
fn random_folder(work: &Path) -> Option<PathBuf> {
    std::fs::read_dir(work)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().contains("random"))
}

/// The layer of the random sweep's checkpoint in `work`, if it has one yet.
fn random_checkpoint(work: &Path) -> Option<usize> {
    let text = std::fs::read_to_string(random_folder(work)?.join("checkpoint.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["layer"].as_u64().map(|l| l as usize)
}

/// tri:7 past exact fractions: random.csv and random_finish.csv the same bytes with 1 and
/// 2 threads, in memory, on disk in a small budget (several passes a layer), and resumed
/// after the process was killed in the middle of the random sweep; the random sweep keeps
/// a folder of its own beside the count's.
#[test]
fn the_random_files_are_the_same_for_any_threads_budget_and_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let memory_1 = tri7_random(dir, &["-j1"], &dir.join("m1"));
    assert!(memory_1[0].lines().count() > 5, "{}", memory_1[0]);
    assert!(!memory_1[0].contains(",1/"), "fixed point has no fraction");
    let memory_2 = tri7_random(dir, &["-j2"], &dir.join("m2"));
    assert_eq!(memory_1, memory_2, "threads 1 and 2 in memory");
    let disk_1 = tri7_random(
        dir,
        &["-j1", "--max-memory", "16M", "--work-dir", "w1"],
        &dir.join("d1"),
    );
    assert_eq!(memory_1, disk_1, "on disk in 16M");
    // Killed once the random sweep has a checkpoint past layer 8, then run again.
    let work = dir.join("w2");
    let args = ["-j2", "--max-memory", "32M", "--work-dir"];
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("pegsol"))
        .current_dir(dir)
        .args(["count", "--board", "tri:7", "--random", "-q"])
        .args(args)
        .arg(&work)
        .arg("--csv")
        .arg(dir.join("r"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while random_checkpoint(&work).is_none_or(|l| l < 8) && Instant::now() < deadline {
        assert!(child.try_wait().unwrap().is_none(), "ended before the kill");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let layer = random_checkpoint(&work).expect("a checkpoint of the random sweep");
    assert!(!dir.join("r").join("random.csv").exists());
    let work_arg = work.to_string_lossy().into_owned();
    let resumed = pegsol()
        .current_dir(dir)
        .args(["count", "--board", "tri:7", "--random"])
        .args(args)
        .arg(&work_arg)
        .arg("--csv")
        .arg(dir.join("r"))
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&resumed.get_output().stderr).into_owned();
    assert!(
        stderr.contains(&format!("resuming from layer {layer}")),
        "{stderr}"
    );
    let read = |f: &str| std::fs::read_to_string(dir.join("r").join(f)).unwrap();
    assert_eq!(
        memory_1,
        [read("random.csv"), read("random_finish.csv")],
        "resumed"
    );
    assert!(random_folder(&work).is_none(), "work removed after success");
}

/// Runs `pegsol ARGS` in `cwd`, asserting success.
fn run_in(cwd: &Path, args: &[&str]) {
    pegsol()
        .current_dir(cwd)
        .args(args)
        .arg("-q")
        .assert()
        .success();
}

fn read_in(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// summary.csv's last four cells (the random player's columns) of the row of `start`.
fn random_cells(summary: &str, board: &str, start: &str) -> Vec<String> {
    let row = summary
        .lines()
        .find(|l| l.split(',').take(2).eq([board, start]))
        .unwrap_or_else(|| panic!("no row of {start} in {summary}"));
    let cells: Vec<String> = row.split(',').map(str::to_string).collect();
    cells[cells.len() - 4..].to_vec()
}

/// `table --random` on tri:7 (past exact fractions) writes for a start the very bytes of
/// `count --random`'s random.csv and random_finish.csv and the same four summary cells;
/// extended without `--random`, the table keeps them, and the new pair's cells are empty
/// until a run with `--random` adds them.
#[test]
fn table_random_rows_are_count_random_rows_and_stay() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    run_in(
        dir,
        &[
            "count", "--board", "tri:7", "--hole", "a2", "--random", "--csv", "c",
        ],
    );
    run_in(
        dir,
        &[
            "table", "--board", "tri:7", "--starts", "a2", "--random", "--csv", "t",
        ],
    );
    let (c, t) = (dir.join("c"), dir.join("t"));
    for f in ["random.csv", "random_finish.csv"] {
        assert_eq!(read_in(&c, f), read_in(&t, f), "{f}");
    }
    let header = read_in(&t, "summary.csv");
    assert!(
        header.starts_with("board,start,")
            && header.lines().next().unwrap().ends_with(
                "start_class_size,random_win_probability,random_expected_pegs,\
             quickest_loss_jumps,quickest_loss_sequences"
            ),
        "{header}"
    );
    let want = random_cells(&read_in(&c, "summary.csv"), "tri:7", "a2");
    assert_eq!(random_cells(&header, "tri:7", "a2"), want);
    // tri:6 a2 (exact) added without --random: tri:7's figures stay, tri:6's cells are empty.
    run_in(
        dir,
        &["table", "--board", "tri:6", "--starts", "a2", "--csv", "t"],
    );
    let summary = read_in(&t, "summary.csv");
    assert_eq!(random_cells(&summary, "tri:7", "a2"), want);
    assert_eq!(random_cells(&summary, "tri:6", "a2"), ["", "", "", ""]);
    assert_eq!(read_in(&c, "random.csv"), read_in(&t, "random.csv"));
    // With --random, only the pair without the figures is counted again.
    let done = pegsol()
        .current_dir(dir)
        .args([
            "table", "--board", "tri:6", "--board", "tri:7", "--starts", "a2", "--random",
        ])
        .args(["--csv", "t"])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&done.get_output().stderr).into_owned();
    assert!(
        stderr.contains("1 computed, 1 already complete"),
        "{stderr}"
    );
    let summary = read_in(&t, "summary.csv");
    assert!(
        random_cells(&summary, "tri:6", "a2")[2]
            .parse::<u32>()
            .is_ok(),
        "{summary}"
    );
    assert!(read_in(&t, "random.csv").contains("\ntri:6,a2,1,"));
}

/// `table --random --format json`: each pair's summary holds the four fields and the pair
/// the lists `random` and `random_finish`, which a run without `--random` keeps.
#[test]
fn table_random_json_keeps_its_fields() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let args = [
        "table", "--board", "tri:5", "--format", "json", "--csv", "j",
    ];
    run_in(dir, &[&args[..], &["--random"]].concat());
    let first = read_in(&dir.join("j"), "table.json");
    let doc: serde_json::Value = serde_json::from_str(&first).unwrap();
    let a1 = &doc["pairs"][0];
    assert_eq!(a1["start"], "a1");
    assert_eq!(
        a1["summary"]["random_win_probability"].to_string(),
        "0.00686175588768131"
    );
    assert_eq!(a1["summary"]["quickest_loss_jumps"].to_string(), "3");
    assert_eq!(a1["random"][0]["pegs_left"].to_string(), "1");
    assert!(
        a1["random_finish"]
            .as_array()
            .is_some_and(|f| !f.is_empty())
    );
    run_in(dir, &args);
    assert_eq!(read_in(&dir.join("j"), "table.json"), first);
}
