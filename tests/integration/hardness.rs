//! How hard each board is, as a reader gets it (issue 67): the quickest loss `solvable
//! --quickest-loss` prints against a plain search, and the picture and table `report`
//! draws from the random player's columns of a table's summary.

use crate::common::pegsol;
use pegsol::count::random::QuickestLoss;
use pegsol::count::random::reference::{self, Winnable};
use pegsol::geometry::board::{Board, Pegs};
use pegsol::output::plot::{one_in, significant};
use std::path::Path;

/// The `quickest loss` line of `pegsol solvable ARGS --quickest-loss`.
fn quickest_line(args: &[&str]) -> String {
    let out = pegsol()
        .arg("solvable")
        .args(args)
        .arg("--quickest-loss")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let found = text.lines().filter(|l| l.starts_with("quickest loss"));
    let lines: Vec<&str> = found.collect();
    assert_eq!(lines.len(), 1, "{args:?}: {text}");
    lines[0].to_string()
}

/// The plain search's quickest loss (a memoized search for a win, jump sequences walked
/// depth by depth), as the line `solvable` prints.
fn plain_line(board: &Board, start: Pegs, goal: Pegs) -> String {
    let mut w = Winnable::new(board, goal);
    let found = reference::quickest_loss(board, start, &mut |p| w.can_win(p), board.holes());
    let every_game_wins = QuickestLoss {
        jumps: None,
        sequences: 0,
        at_least: None,
    };
    found.unwrap_or(every_game_wins).line()
}

#[test]
fn solvable_prints_the_quickest_loss_of_a_plain_search() {
    let mut checked = 0;
    for spec in ["tri:4", "tri:5"] {
        let board = Board::from_spec(spec).unwrap();
        for class in board.hole_classes() {
            let hole = class[0];
            let start = board.start_with_empty(&[hole]);
            let name = board.hole_name(hole);
            let any = quickest_line(&["--board", spec, "--hole", &name]);
            assert_eq!(
                any,
                plain_line(&board, start, board.full()),
                "{spec} {name}"
            );
            // Finishing on the start's hole.
            let args = ["--board", spec, "--hole", &name, "--finish", &name];
            let own = quickest_line(&args);
            assert_eq!(own, plain_line(&board, start, 1 << hole), "{args:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 3 + 4); // tri:4 a1, a2, b3; tri:5 a1, a2, a3, b3
    // Known figures: tri:5 from a1 (as README shows), tri:4 from a1 (no win at all).
    let a1 = quickest_line(&["--board", "tri:5"]);
    assert_eq!(a1, "quickest loss        3 jumps (14 sequences)");
    let lost = quickest_line(&["--board", "tri:4"]);
    assert_eq!(lost, "quickest loss        0 jumps (1 sequences)");
}

#[test]
fn the_quickest_loss_is_the_same_for_any_threads() {
    // tri:6 from b4: 5 jumps, 46 sequences (results/summary.csv), from the winnable
    // positions found at once.
    for threads in ["1", "2"] {
        let args = ["--board", "tri:6", "--hole", "b4", "--threads", threads];
        let line = quickest_line(&args);
        assert_eq!(
            line, "quickest loss        5 jumps (46 sequences)",
            "{args:?}"
        );
    }
    // The depth-first search that takes over where the winnable positions do not fit,
    // forced: the same figures (tri:6 from b4: 5 jumps, 46 sequences).
    for threads in ["1", "2"] {
        let out = pegsol()
            .env("PEGSOL_QUICKEST", "search")
            .args([
                "solvable",
                "--board",
                "tri:6",
                "--hole",
                "b4",
                "--quickest-loss",
            ])
            .args(["--threads", threads])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let want = "quickest loss        5 jumps (46 sequences)";
        assert!(
            text.lines().any(|l| l == want),
            "--threads {threads}: {text}"
        );
    }
}

/// Ctrl-C (SIGTERM here) while `table --random` works out a quickest loss position by
/// position: the run stops inside it, before its first layer is settled, with exit code
/// 130 and one line, and writes no pair. (tri:7 from a3 loses at 6 jumps at the earliest,
/// results/summary.csv; the search first grows the winnable positions with few pegs, for
/// seconds, and asks about depth 1 only after that.)
#[test]
fn a_signal_inside_the_quickest_loss_stops_table() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("pegsol"))
        .args(["table", "--board", "tri:7", "--starts", "a3", "--random"])
        .args(["--threads", "1", "--csv"])
        .arg(dir.path())
        .env("PEGSOL_QUICKEST", "search")
        .env("PEGSOL_TRACE", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines
        .by_ref()
        .map(Result::unwrap)
        .find(|l| l.starts_with("quickest loss:"));
    assert!(first.is_some(), "the quickest loss never started");
    let signalled = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(signalled.success());
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{rest:?}");
    assert!(
        !rest.iter().any(|l| l.starts_with("quickest loss: depth")),
        "a layer was settled after the signal: {rest:?}"
    );
    assert_eq!(
        rest.last().map(String::as_str),
        Some("pegsol: interrupted before the first pair was saved"),
        "{rest:?}"
    );
    assert!(!dir.path().join("summary.csv").exists());
}

#[test]
fn solvable_quickest_loss_refuses_bad_input_in_one_line() {
    for args in [
        ["--board", "tri:5", "--finish", "z9"],
        ["--board", "tri:5", "--hole", "q1"],
        ["--board", "english", "--max-memory", "64K"],
    ] {
        let out = pegsol()
            .arg("solvable")
            .args(args)
            .arg("--quickest-loss")
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("pegsol: ") && !err.contains("panicked"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// The random player's four summary cells of `spec` from `hole`, by column, as `pegsol
/// count --random --csv` writes them.
fn random_cells(spec: &str, hole: &str) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("c");
    let args = ["count", "--board", spec, "--hole", hole, "--random", "-q"];
    pegsol()
        .args(args)
        .arg("--csv")
        .arg(&csv)
        .assert()
        .success();
    let text = std::fs::read_to_string(csv.join("summary.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let wanted = pegsol::count::export::RANDOM_SUMMARY_COLUMNS;
    let cells = header.iter().zip(&row).filter(|(h, _)| wanted.contains(h));
    cells.map(|(h, v)| (h.to_string(), v.to_string())).collect()
}

/// A table of tri:4 and tri:5 in `--format json` in `dir`.
fn json_table(dir: &Path) {
    let args = [
        "table", "--board", "tri:4..5", "--starts", "all", "--format", "json",
    ];
    pegsol()
        .args(args)
        .arg("--csv")
        .arg(dir)
        .arg("-q")
        .assert()
        .success();
}

/// Adds the random player's cells of each pair of `dir/table.json` but those in `skip`,
/// `edit` applied to them.
fn add_random_cells(dir: &Path, skip: &[(&str, &str)], edit: impl Fn(&str, &str, &mut String)) {
    let path = dir.join("table.json");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for pair in doc["pairs"].as_array_mut().unwrap() {
        let (board, start) = (
            pair["board"].as_str().unwrap(),
            pair["start"].as_str().unwrap(),
        );
        let (board, start) = (board.to_string(), start.to_string());
        if skip.contains(&(board.as_str(), start.as_str())) {
            continue;
        }
        let summary = pair["summary"].as_object_mut().unwrap();
        for (column, mut value) in random_cells(&board, &start) {
            edit(&start, &column, &mut value);
            summary.insert(column, serde_json::Value::String(value));
        }
    }
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
}

#[test]
fn report_draws_how_hard_each_start_is_from_the_random_columns() {
    let dir = tempfile::tempdir().unwrap();
    let (table, out) = (dir.path().join("t"), dir.path().join("r"));
    json_table(&table);
    add_random_cells(&table, &[("tri:5", "b3")], |_, _, _| {});
    let report = pegsol()
        .arg("report")
        .arg(&table)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0));
    let listed = String::from_utf8(report.stdout).unwrap();
    for name in ["hardness.svg", "hardness.md"] {
        assert!(listed.contains(&format!("/r/{name}\n")), "{listed}");
    }
    let md = std::fs::read_to_string(out.join("hardness.md")).unwrap();
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| tri:")).collect();
    // tri:4 a1, a2 and b3, tri:5 a1, a2 and a3; tri:5 b3 has no random cells: left out.
    assert_eq!(rows.len(), 6, "{md}");
    assert!(!md.contains("| tri:5 | b3 |"), "{md}");
    // What `count --board tri:5 --random` prints, and 29,760 wins of 568,630 games.
    let a1 = "| tri:5 | a1 | 3 | 5.2336% (1 in 19) | 0.006862 | 1 in 146 | 3.916 | 3 | 14 |";
    assert!(rows.contains(&a1), "{md}");
    // tri:4 from a1 has no win: the random player never wins, lost before any jump.
    assert!(
        rows.contains(&"| tri:4 | a1 | 3 | 0.0000% (never) | 0 | never | 3.000 | 0 (no win) | 1 |"),
        "{md}"
    );
    // Every row's random figure is the count's, rounded.
    for row in &rows {
        let cells: Vec<&str> = row.split(" | ").collect();
        let (board, start) = (cells[0].trim_start_matches("| "), cells[1]);
        let p: f64 = random_cells(board, start)[0].1.parse().unwrap();
        assert_eq!(
            (cells[4], cells[5]),
            (significant(p).as_str(), one_in(p).as_str()),
            "{row}"
        );
    }
    let svg = std::fs::read_to_string(out.join("hardness.svg")).unwrap();
    assert!(svg.contains(">tri:5 a2 (class of 6)</text>"), "{svg}");
    assert!(!svg.contains(">tri:5 b3 "));
    assert_eq!(svg.matches("<circle").count(), 2 * 6 + 2); // two a row, two in the key
    assert!(svg.contains("<title>tri:5 a1: the random player wins 0.006862 (1 in 146)</title>"));
}

#[test]
fn report_refuses_a_random_column_that_is_not_a_probability() {
    let dir = tempfile::tempdir().unwrap();
    let (table, out) = (dir.path().join("t"), dir.path().join("r"));
    json_table(&table);
    add_random_cells(&table, &[], |start, column, value| {
        if start == "a2" && column == "random_win_probability" {
            *value = "1.5".into();
        }
    });
    let report = pegsol()
        .arg("report")
        .arg(&table)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8(report.stderr).unwrap();
    assert_eq!(report.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("random_win_probability of tri:4 from a2 is '1.5'"),
        "{err}"
    );
    assert!(!out.join("comparison.md").exists()); // nothing written
}

#[test]
fn report_without_the_random_columns_draws_no_hardness() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("t");
    let args = [
        "table", "--board", "tri:4", "--starts", "all", "-q", "--csv",
    ];
    pegsol().args(args).arg(&table).assert().success();
    let report = pegsol().arg("report").arg(&table).output().unwrap();
    assert_eq!(report.status.code(), Some(0));
    let listed = String::from_utf8(report.stdout).unwrap();
    assert!(
        listed.contains("comparison.md") && !listed.contains("hardness"),
        "{listed}"
    );
    assert!(!table.join("hardness.svg").exists() && !table.join("hardness.md").exists());
}

/// README's "How hard is each board?" shows, between two markers, the table `report`
/// writes into hardness.md for results/ (and results/hardness.md is that file); while
/// results/ has no random player's columns, neither exists and the README says so.
#[test]
fn readme_shows_the_hardness_table_report_writes_for_results() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = tempfile::tempdir().unwrap();
    let results = root.join("results");
    pegsol()
        .arg("report")
        .arg(results)
        .arg("--out")
        .arg(out.path())
        .assert()
        .success();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let (begin, end) = (HARDNESS_BEGIN, HARDNESS_END);
    let block = readme.split(begin).nth(1).and_then(|r| r.split(end).next());
    let block = block.expect("README.md marks the hardness table").trim();
    let committed = std::fs::read_to_string(root.join("results/hardness.md")).ok();
    match std::fs::read_to_string(out.path().join("hardness.md")) {
        Ok(md) => {
            let table: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
            assert_eq!(
                block,
                table.join("\n"),
                "README.md's table is not results/'"
            );
            assert_eq!(
                committed.as_deref(),
                Some(md.as_str()),
                "results/hardness.md is stale"
            );
        }
        Err(_) => {
            assert_eq!(block, HARDNESS_NOT_YET);
            assert_eq!(committed, None, "results/hardness.md without the columns");
        }
    }
}

const HARDNESS_BEGIN: &str =
    "<!-- hardness table: `pegsol report results/` writes it into results/hardness.md -->";
const HARDNESS_END: &str = "<!-- end of the hardness table -->";
const HARDNESS_NOT_YET: &str =
    "(The table comes here once results/ holds the random player's columns: `table --random`.)";
