//! The table of fewest moves per start (`solve --min-moves --table`, results/min_moves.csv)
//! against a plain breadth-first search by moves, through `check`, and on 1 and 2 threads.

use crate::common::pegsol;
use pegsol::games::minmoves::reference::fewest_moves_by_bfs;
use pegsol::games::minmoves::table::{Row, read, start_games, start_rows};
use pegsol::games::notation;
use pegsol::geometry::board::{Board, bit};

/// The rows a plain breadth-first search by moves gives for every start class of `spec`.
fn plain_rows(spec: &str) -> Vec<Row> {
    let b = Board::from_spec(spec).unwrap();
    let mut rows = Vec::new();
    for class in b.hole_classes() {
        let s = class[0];
        let plain = fewest_moves_by_bfs(&b, b.full() ^ bit(s));
        let row = |finish: String, moves| Row {
            board: spec.to_string(),
            start: b.hole_name(s),
            finish,
            moves,
        };
        if let Some(m) = plain.iter().flatten().min() {
            rows.push(row(String::new(), *m));
        }
        for (h, m) in plain.iter().enumerate() {
            if let Some(m) = m {
                rows.push(row(b.hole_name(h), *m));
            }
        }
    }
    rows
}

/// The best over the starts of a table's rows (its "anywhere" rows).
fn best(rows: &[Row]) -> Option<usize> {
    rows.iter()
        .filter(|r| r.finish.is_empty())
        .map(|r| r.moves)
        .min()
}

#[test]
fn table_agrees_with_a_plain_search_on_tri4_to_tri6() {
    // The best over the starts is OEIS A127500's: 5, 9, 9.
    for (spec, published) in [("tri:4", 5), ("tri:5", 9), ("tri:6", 9)] {
        let b = Board::from_spec(spec).unwrap();
        let mut rows = Vec::new();
        for class in b.hole_classes() {
            rows.extend(start_rows(&b, class[0], u64::MAX, &mut |_, _| {}).unwrap());
        }
        let plain = plain_rows(spec);
        assert_eq!(rows, plain, "{spec}");
        assert_eq!(best(&rows), Some(published), "{spec}");
    }
}

/// The rows of `spec` in results/min_moves.csv against the plain search.
fn committed_rows_agree_with_a_plain_search(spec: &str, published: usize) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/results/min_moves.csv");
    let rows: Vec<Row> = read(std::path::Path::new(path))
        .unwrap()
        .into_iter()
        .filter(|r| r.board == spec)
        .collect();
    assert_eq!(rows, plain_rows(spec), "{spec}");
    assert_eq!(best(&rows), Some(published), "{spec}");
}

#[test]
fn committed_table_agrees_with_a_plain_search_on_tri4_to_tri6() {
    for (spec, published) in [("tri:4", 5), ("tri:5", 9), ("tri:6", 9)] {
        committed_rows_agree_with_a_plain_search(spec, published);
    }
}

#[test]
#[ignore = "about 33 minutes of CPU (2 December 2026: 1,987 s, 1.7 GiB; the plain search \
            over every start class of tri:7): \
            cargo test --release -- --ignored committed_table_agrees_with_a_plain_search_on_tri7"]
fn committed_table_agrees_with_a_plain_search_on_tri7() {
    committed_rows_agree_with_a_plain_search("tri:7", 12); // OEIS A127500
}

#[test]
#[ignore = "minutes on 2 cores (the table and the plain search over every start class of \
            tri:7): cargo test --release -- --ignored table_agrees_with_a_plain_search_on_tri7"]
fn table_agrees_with_a_plain_search_on_tri7() {
    let b = Board::from_spec("tri:7").unwrap();
    let mut rows = Vec::new();
    for class in b.hole_classes() {
        rows.extend(start_rows(&b, class[0], u64::MAX, &mut |_, _| {}).unwrap());
    }
    assert_eq!(rows, plain_rows("tri:7"));
    assert_eq!(best(&rows), Some(12)); // OEIS A127500
}

#[test]
fn table_games_replay_through_check_with_their_moves() {
    // Every game behind the table's rows of tri:5 and tri:6, written as `solve` writes
    // games and read back by `check`: legal, one peg in its finish, in the stated moves.
    let mut games = 0;
    for spec in ["tri:5", "tri:6"] {
        let b = Board::from_spec(spec).unwrap();
        for class in b.hole_classes() {
            let s = class[0];
            let start = b.full() ^ bit(s);
            for (f, moves, jumps) in start_games(&b, s, u64::MAX, &mut |_, _| {}).unwrap() {
                let text = notation::write_game(&b, start, &jumps, false);
                let out = pegsol()
                    .args(["check", "-"])
                    .write_stdin(text.clone())
                    .output()
                    .unwrap();
                let report = String::from_utf8(out.stdout).unwrap();
                assert_eq!(out.status.code(), Some(0), "{text}");
                assert!(report.contains(&format!("in {moves} moves")), "{report}");
                let end = format!("final position: 1 peg ({})", b.hole_name(f));
                assert!(report.contains(&end), "{report}");
                games += 1;
            }
        }
    }
    assert!(games > 20, "{games}");
}

fn run(args: &[&str]) -> (String, String, i32) {
    let out = pegsol().args(args).output().expect("run pegsol");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn table_is_the_same_on_one_and_two_threads_and_its_games_pass_check() {
    let table = |threads: &str| {
        let (out, err, code) = run(&[
            "solve",
            "--board",
            "tri:5",
            "--min-moves",
            "--table",
            "--threads",
            threads,
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let one = table("1");
    assert_eq!(one, table("2"));
    let mut lines = one.lines();
    assert_eq!(lines.next(), Some("board,start,finish,moves"));
    let mut rows = 0;
    for line in lines {
        rows += 1;
        let cols: Vec<&str> = line.split(',').collect();
        let (start, finish, moves) = (cols[1], cols[2], cols[3]);
        let mut args = vec!["solve", "--board", "tri:5", "--hole", start, "--min-moves"];
        if !finish.is_empty() {
            args.extend(["--finish", finish]);
        }
        let (game, err, code) = run(&args);
        assert_eq!(code, 0, "{line}: {err}");
        let out = pegsol()
            .args(["check", "-"])
            .write_stdin(game.clone())
            .output()
            .unwrap();
        let report = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{line}: {game}");
        assert!(
            report.contains(&format!("in {moves} moves")),
            "{line}: {report}"
        );
        let end = if finish.is_empty() {
            "final position: 1 peg (".to_string()
        } else {
            format!("final position: 1 peg ({finish})")
        };
        assert!(report.contains(&end), "{line}: {report}");
    }
    // tri:5: a1 finishes in 6 holes, a2 in 4, a3 in 6, b3 in 2, plus "anywhere" for each.
    assert!(rows > 4, "{one}");
}

#[test]
fn table_csv_merges_by_board_and_start_and_refuses_a_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let csv = dir.path().join("min_moves.csv");
    let (_, err, code) = run(&[
        "solve",
        "-b",
        "tri:5",
        "--min-moves",
        "--table",
        "--hole",
        "b3",
        "--csv",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, err, code) = run(&["solve", "-b", "tri:4", "--min-moves", "--table", "--csv", d]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    // tri:4 before tri:5 (tri:4 wins only from the edge class of a2, in 5 moves to b2);
    // tri:5 keeps the b3 rows.
    assert!(
        text.starts_with("board,start,finish,moves\ntri:4,a2,,5\ntri:4,a2,b2,5\ntri:5,b3,,"),
        "{text}"
    );
    assert!(text.contains("\ntri:5,b3,,"), "{text}");
    assert!(!text.contains("\ntri:5,a1,"), "{text}");
    // The same class again, named by another of its cells (c4): its rows are replaced, not
    // added, named c4, with c4's own finishes (as a plain search from c4 finds them).
    let (_, err, code) = run(&[
        "solve",
        "-b",
        "tri:5",
        "--min-moves",
        "--table",
        "--hole",
        "c4",
        "--csv",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    let again = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(again.lines().count(), text.lines().count(), "{again}");
    assert!(!again.contains("\ntri:5,b3,"), "{again}");
    let b = Board::from_spec("tri:5").unwrap();
    let c4 = b.hole("c4").unwrap();
    let plain = fewest_moves_by_bfs(&b, b.full() ^ bit(c4));
    let c4_rows: Vec<Row> = read(&csv)
        .unwrap()
        .into_iter()
        .filter(|r| r.board == "tri:5")
        .collect();
    let mut expected = vec![Row {
        board: "tri:5".into(),
        start: "c4".into(),
        finish: String::new(),
        moves: *plain.iter().flatten().min().unwrap(),
    }];
    for (h, m) in plain.iter().enumerate() {
        if let Some(m) = m {
            expected.push(Row {
                board: "tri:5".into(),
                start: "c4".into(),
                finish: b.hole_name(h),
                moves: *m,
            });
        }
    }
    assert_eq!(c4_rows, expected);
    // A file that is not a table: one line, exit 2, left as it was.
    std::fs::write(&csv, "board,start\n").unwrap();
    let (_, err, code) = run(&["solve", "-b", "tri:4", "--min-moves", "--table", "--csv", d]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is not board,start,finish,moves"), "{err}");
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "board,start\n");
    // --table asks for --min-moves.
    let (_, _, code) = run(&["solve", "-b", "tri:4", "--table"]);
    assert_eq!(code, 2);
}

/// `solve --min-moves` with `case`, variables set in its environment, on `threads`
/// threads: its stdout (exit 0 asserted).
fn solve_with(case: &[&str], vars: &[(&str, &str)], threads: &str) -> String {
    let out = pegsol()
        .args(["solve", "--min-moves", "--threads", threads])
        .args(case)
        .envs(vars.iter().copied())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{case:?} {vars:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Asserts that `solved` (a run's stdout) gives the answer line `first` and a game that
/// replays through `check` in the moves that line states.
fn assert_same_answer_and_replays(solved: &str, first: &str, what: &str) {
    assert_eq!(solved.lines().next().unwrap(), first, "{what}");
    let moves: usize = first.rsplit(' ').next().unwrap().parse().unwrap();
    let out = pegsol()
        .args(["check", "-"])
        .write_stdin(solved.to_string())
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{solved}");
    assert!(report.contains(&format!("in {moves} moves")), "{report}");
}

/// A run's output but the line with the time taken.
fn untimed(text: String) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with("# proved"))
        .map(str::to_string)
        .collect()
}

/// The problems the walks and beams are checked on: every start of tri:5 and tri:6, one
/// start and finish of tri:6 and of tri:7.
const WALK_CASES: [&[&str]; 4] = [
    &["--board", "tri:5", "--all-starts"],
    &["--board", "tri:6", "--all-starts"],
    &["--board", "tri:6", "--hole", "a2", "--finish", "d5"],
    &["--board", "tri:7", "--hole", "a3", "--finish", "a2"],
];

/// The last layers walked depth first (`PEGSOL_DIVE=k`, the walk the search takes when a
/// layer would not fit in memory; `PEGSOL_BEAM=0`, no beam before it) find the same fewest
/// moves as the layers stored, with a game that replays through `check` in those moves, on
/// 1 and 2 threads.
#[test]
fn walking_the_last_layers_depth_first_finds_the_same_fewest_moves() {
    for case in WALK_CASES {
        let solve = |dive: &str, threads: &str| {
            solve_with(
                case,
                &[("PEGSOL_DIVE", dive), ("PEGSOL_BEAM", "0")],
                threads,
            )
        };
        let stored = solve("0", "2");
        let first = stored.lines().next().unwrap();
        for (dive, threads) in [("2", "1"), ("2", "2"), ("3", "2"), ("9", "2")] {
            let what = format!("{case:?} PEGSOL_DIVE={dive}");
            assert_same_answer_and_replays(&solve(dive, threads), first, &what);
        }
        // The same game and figures on 1 and 2 threads (all but the time taken).
        assert_eq!(
            untimed(solve("2", "1")),
            untimed(solve("2", "2")),
            "{case:?}"
        );
    }
}

/// The beams tried before a walk (`PEGSOL_BEAM=w`, one of width `w`) find the same fewest
/// moves as the layers stored, with a game that replays through `check`, and the same game
/// and figures on 1 and 2 threads; a beam as wide as the layers (2^16 on these boards) meets
/// the game itself, a beam of width 1 seldom does and leaves it to the walk. The same with
/// the beam's positions scored by greedy rollouts (`PEGSOL_ROLLOUT=1`).
#[test]
fn beams_before_a_walk_find_the_same_fewest_moves_as_the_layers() {
    for case in WALK_CASES {
        let solve = |width: &str, rollout: &str, threads: &str| {
            solve_with(
                case,
                &[
                    ("PEGSOL_DIVE", "3"),
                    ("PEGSOL_BEAM", width),
                    ("PEGSOL_ROLLOUT", rollout),
                ],
                threads,
            )
        };
        let stored = solve_with(case, &[("PEGSOL_TRIAL", "0")], "2");
        let first = stored.lines().next().unwrap();
        for (width, rollout) in [
            ("1", "0"),
            ("64", "0"),
            ("65536", "0"),
            ("64", "1"),
            ("65536", "1"),
        ] {
            let beamed = solve(width, rollout, "2");
            let what = format!("{case:?} {width} {rollout}");
            assert_same_answer_and_replays(&beamed, first, &what);
            assert_eq!(
                untimed(solve(width, rollout, "1")),
                untimed(beamed.clone()),
                "{what}"
            );
            if width == "65536" {
                assert!(
                    beamed.contains("searched by a beam of width 65,536"),
                    "{beamed}"
                );
            }
        }
    }
}

/// The trial walks before each layer (on unless `PEGSOL_TRIAL=0`) find the same fewest moves
/// as the layers stored to the end, with a game that replays through `check` in those moves,
/// and the same game and figures on 1 and 2 threads.
#[test]
fn trial_walks_find_the_same_fewest_moves_as_the_layers() {
    let cases: [&[&str]; 5] = [
        &["--board", "tri:5", "--all-starts"],
        &["--board", "tri:6", "--all-starts"],
        &["--board", "tri:6", "--hole", "a2", "--finish", "d5"],
        &["--board", "tri:7", "--hole", "a3"],
        &["--board", "tri:7", "--hole", "a3", "--finish", "a2"],
    ];
    for case in cases {
        let solve =
            |trial: &str, threads: &str| solve_with(case, &[("PEGSOL_TRIAL", trial)], threads);
        let layers = solve("0", "2");
        let first = layers.lines().next().unwrap();
        let tried = solve("1", "2");
        assert_same_answer_and_replays(&tried, first, &format!("{case:?}"));
        assert_eq!(untimed(solve("1", "1")), untimed(tried), "{case:?}");
    }
}

#[test]
fn committed_tri8_rows_agree_with_the_counts_and_the_published_best() {
    // No plain search reaches tri:8; its committed rows are held to what is known of it:
    // a start's rows name exactly the holes where results/finish.csv counts wins from it,
    // its "anywhere" row is the least of them, and none beats OEIS A127500's 13.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    let rows: Vec<Row> = read(&path.join("min_moves.csv"))
        .unwrap()
        .into_iter()
        .filter(|r| r.board == "tri:8")
        .collect();
    let finish = std::fs::read_to_string(path.join("finish.csv")).unwrap();
    let mut starts: Vec<&str> = rows.iter().map(|r| r.start.as_str()).collect();
    starts.dedup();
    for start in starts {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.start == start).collect();
        let mut wins: Vec<String> = finish
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("tri:8,{start},")))
            .filter(|l| !l.ends_with(",0"))
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect();
        let mut named: Vec<String> = mine.iter().map(|r| r.finish.clone()).collect();
        named.retain(|f| !f.is_empty());
        wins.sort();
        named.sort();
        assert_eq!(named, wins, "tri:8 from {start}: finishes");
        let least = mine
            .iter()
            .filter(|r| !r.finish.is_empty())
            .map(|r| r.moves)
            .min();
        let anywhere = mine.iter().find(|r| r.finish.is_empty()).map(|r| r.moves);
        assert_eq!(anywhere, least, "tri:8 from {start}: anywhere");
        assert!(
            least.is_some_and(|m| m >= 13),
            "tri:8 from {start}: {least:?}"
        );
    }
}

/// `--table --csv DIR` saves each start class's rows as soon as they are found: the file
/// first appears with fewer classes than the whole table while the run goes on, a kill
/// then leaves a readable table of the classes finished, each with the rows of the whole
/// run, and the rows of other boards kept.
#[test]
fn table_saves_each_class_as_it_is_found() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let whole = tempfile::tempdir().unwrap();
    let w = whole.path().to_str().unwrap();
    let (_, err, code) = run(&["solve", "-b", "tri:6", "--min-moves", "--table", "--csv", w]);
    assert_eq!(code, 0, "{err}");
    let all = read(&whole.path().join("min_moves.csv")).unwrap();
    let classes = |rows: &[Row]| {
        let mut s: Vec<String> = rows.iter().map(|r| r.start.clone()).collect();
        s.dedup();
        s
    };
    assert_eq!(
        classes(&all).len(),
        5,
        "tri:6 wins from all five start classes"
    );

    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("min_moves.csv");
    // A row of another board, to be kept.
    std::fs::write(&csv, "board,start,finish,moves\ntri:4,a2,,5\n").unwrap();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("pegsol"))
        .args([
            "solve",
            "-b",
            "tri:6",
            "--min-moves",
            "--table",
            "--threads",
            "1",
        ])
        .arg("--csv")
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    let first = loop {
        let rows = read(&csv).unwrap();
        if rows.iter().any(|r| r.board == "tri:6") {
            break rows;
        }
        assert!(Instant::now() < deadline, "no class saved");
        std::thread::sleep(Duration::from_millis(5));
    };
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    let mine: Vec<Row> = first
        .iter()
        .filter(|r| r.board == "tri:6")
        .cloned()
        .collect();
    assert!(running, "the run ended before it saved its first class");
    assert!(
        classes(&mine).len() < 5,
        "saved only at the end: {:?}",
        classes(&mine)
    );
    // What the kill left: readable, the other board's row kept, each class finished whole.
    let left = read(&csv).unwrap();
    assert!(left.iter().any(|r| r.board == "tri:4"));
    let done: Vec<Row> = left.into_iter().filter(|r| r.board == "tri:6").collect();
    for start in classes(&done) {
        let got: Vec<&Row> = done.iter().filter(|r| r.start == start).collect();
        let want: Vec<&Row> = all.iter().filter(|r| r.start == start).collect();
        assert_eq!(got, want, "tri:6 from {start}");
    }
}

/// `solve --min-moves --work-dir DIR` keeps the search layer by layer: killed (SIGKILL)
/// in the middle of its last bound, the same command resumes it and prints the same
/// game and figures as a run at once (tri:7 from a3: 12 moves, OEIS A127500's 12 for
/// tri:7), then removes its folder. A layer file changed on disk, a manifest edited,
/// or a folder of another search is refused with one line and exit code 2, and nothing
/// is printed on stdout.
#[test]
fn a_killed_search_resumes_from_its_work_dir_and_a_damaged_one_is_refused() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    // Without the trial walks, which end the search bounded at 12 a few layers after the
    // kill's point, so that the kill does not race the end of the search.
    let run = |args: &[&str]| -> (String, String, i32) {
        let out = pegsol()
            .args(args)
            .env("PEGSOL_TRIAL", "0")
            .output()
            .expect("run pegsol");
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
            out.status.code().unwrap(),
        )
    };
    let timeless = |s: &str| -> String {
        s.lines()
            .map(|l| l.split(" in ").next().unwrap_or(l).to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let args = [
        "solve",
        "-b",
        "tri:7",
        "--hole",
        "a3",
        "--min-moves",
        "--threads",
        "1",
    ];
    let (once, err, code) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        once.contains("fewest moves from a3 to one peg anywhere: 12"),
        "{once}"
    );

    // Killed once the last bound's forward side is 4 layers deep.
    let kill = |dir: &std::path::Path| {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("pegsol"))
            .args(args)
            .arg("--work-dir")
            .arg(dir)
            .env("PEGSOL_TRIAL", "0")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let manifest = dir.join("min-moves-tri-7-a3-any").join("search.json");
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            let kept: Option<serde_json::Value> = std::fs::read(&manifest)
                .ok()
                .and_then(|t| serde_json::from_slice(&t).ok());
            if kept.is_some_and(|m| m["limit"] == 12 && m["sides"][0]["depth"].as_u64() >= Some(4))
            {
                break;
            }
            assert!(
                child.try_wait().unwrap().is_none(),
                "the search ended first"
            );
            assert!(Instant::now() < deadline, "no layer kept");
            std::thread::sleep(Duration::from_millis(2));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        manifest
    };
    let dir = tempfile::tempdir().unwrap();
    kill(dir.path());
    let w = dir.path().to_str().unwrap();
    let mut again_args = args.to_vec();
    again_args.extend(["--work-dir", w]);
    let (again, err, code) = run(&again_args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("pegsol: resuming the search bounded at 12 moves from forward depth"),
        "{err}"
    );
    assert_eq!(timeless(&again), timeless(&once));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "the folder stays"
    );

    // A byte of a layer file changed.
    let manifest = kill(dir.path());
    let layer = manifest.with_file_name("forward-03.bin");
    let mut bytes = std::fs::read(&layer).unwrap();
    bytes[5] ^= 1;
    std::fs::write(&layer, bytes).unwrap();
    let refused = |what: &str| {
        let (out, err, code) = run(&again_args);
        assert_eq!(code, 2, "{what}: {err}");
        assert!(out.is_empty(), "{what}: {out}");
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(
            err.contains("cannot be resumed (delete the folder to start it again)"),
            "{what}: {err}"
        );
        err
    };
    assert!(refused("layer").contains("forward-03.bin does not match its checksum"));
    // The manifest edited: another bound.
    std::fs::remove_dir_all(manifest.parent().unwrap()).unwrap();
    let manifest = kill(dir.path());
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace("\"limit\": 12", "\"limit\": 13")).unwrap();
    assert!(refused("manifest").contains("search.json does not match its checksum"));
    // The folder of another search (the manifest of a3 to anywhere under the name of a3
    // to a2).
    std::fs::write(&manifest, text).unwrap();
    let other = dir.path().join("min-moves-tri-7-a3-a2");
    std::fs::rename(manifest.parent().unwrap(), &other).unwrap();
    let mut to_a2 = again_args.clone();
    to_a2.extend(["--finish", "a2"]);
    let (out, err, code) = run(&to_a2);
    assert_eq!(code, 2, "{err}");
    assert!(
        out.is_empty() && err.contains("is of another search"),
        "{err}"
    );
}

/// A walk of the last layers kept in a work directory (`PEGSOL_WALK_SAVE=0`: after every
/// block) and stopped after a few blocks (`PEGSOL_WALK_STOP=n`, exit code 130) goes on from
/// there when the same command runs again, on the same or another number of threads: the
/// same answer, game and figures as the walk run at once, and the folder removed.
#[test]
fn a_walk_stopped_midway_goes_on_from_its_work_dir() {
    let case = ["--board", "tri:7", "--hole", "a3"];
    let vars = [
        ("PEGSOL_DIVE", "4"),
        ("PEGSOL_BEAM", "0"),
        ("PEGSOL_TRIAL", "0"),
        ("PEGSOL_WALK_SAVE", "0"),
    ];
    let once = untimed(solve_with(&case, &vars, "1"));
    for (stop, first, then) in [
        ("1", "1", "1"),
        ("3", "1", "2"),
        ("2", "2", "1"),
        ("5", "1", "1"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let w = dir.path().to_str().unwrap();
        let solve = |threads: &str, stop: Option<&str>| {
            pegsol()
                .args([
                    "solve",
                    "--min-moves",
                    "--threads",
                    threads,
                    "--work-dir",
                    w,
                ])
                .args(case)
                .envs(vars)
                .envs(stop.map(|s| ("PEGSOL_WALK_STOP", s)))
                .output()
                .unwrap()
        };
        let stopped = solve(first, Some(stop));
        assert_eq!(stopped.status.code(), Some(130), "stop {stop}");
        assert!(stopped.stdout.is_empty());
        let again = solve(then, None);
        let err = String::from_utf8(again.stderr).unwrap();
        assert_eq!(again.status.code(), Some(0), "{err}");
        assert!(
            err.contains("pegsol: going on with the walk of the last 4 layers after"),
            "stop {stop}: {err}"
        );
        assert_eq!(
            untimed(String::from_utf8(again.stdout).unwrap()),
            once,
            "stopped after {stop} blocks on {first} threads, went on on {then}"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}

/// The committed tri:10 game (results/min_moves_tri10.txt, pegsol's answer to A127500's
/// n = 10) replays through `check` in the 18 moves its first line states, to one peg.
#[test]
fn committed_tri10_game_replays_in_18_moves() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/min_moves_tri10.txt");
    let solved = std::fs::read_to_string(path).unwrap();
    let first = "# tri:10: fewest moves from any single vacancy to one peg anywhere: 18";
    assert_same_answer_and_replays(&solved, first, "results/min_moves_tri10.txt");
    let out = pegsol()
        .args(["check", "-"])
        .write_stdin(solved)
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("final position: 1 peg (g9)"), "{report}");
}
