//! Finding, checking and showing games: `solve`, `reach`, `extremes`, `check`, `--svg`.
//! Figures from ../shared/reference/published.md.

use crate::common::{self, pegsol};
use pegsol::count::sweep::CountOptions;
use pegsol::games::extremes::{shortest_dead_end, shortest_dead_end_plain};
use pegsol::games::minmoves::{Ends, min_moves};
use pegsol::games::notation;
use pegsol::games::solve::{Goal, Outcome, count_sequences, search};
use pegsol::geometry::board::{Board, Pegs, bit};
use pegsol::total::Total;
use predicates::prelude::*;

fn stdout_of(args: &[&str]) -> (String, i32) {
    let out = pegsol().args(args).output().expect("run pegsol");
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        out.status.code().expect("exit code"),
    )
}

/// Feeds a printed game to `pegsol check` and returns its report.
fn check(text: &str, extra: &[&str]) -> String {
    let mut args = vec!["check", "-"];
    args.extend_from_slice(extra);
    let out = pegsol()
        .args(&args)
        .write_stdin(text)
        .output()
        .expect("run check");
    assert_eq!(out.status.code(), Some(0), "check rejected:\n{text}");
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn solve_english_centre_to_centre_passes_check() {
    let (text, code) = stdout_of(&["solve", "--board", "english", "--finish", "d4"]);
    assert_eq!(code, 0);
    let report = check(&text, &[]);
    assert!(report.starts_with("legal: 31 jumps"), "{report}");
    assert!(report.contains("final position: 1 peg (d4)"), "{report}");
}

#[test]
fn solve_with_show_output_passes_check() {
    for board in ["tri:5", "english", "boards/hex2.txt"] {
        let (text, code) = stdout_of(&["solve", "--board", board, "--show"]);
        assert_solved_or_proved(&text, code, board);
    }
}

/// `solve`'s output is either a proof that there is no solution (exit 1) or a game that
/// `pegsol check` replays to one peg (exit 0).
fn assert_solved_or_proved(text: &str, code: i32, what: &str) {
    if code == 1 {
        assert!(text.starts_with("no solution"), "{what}: {text}");
        return;
    }
    assert_eq!(code, 0, "{what}: {text}");
    let report = check(text, &[]);
    assert!(report.contains("final position: 1 peg"), "{what}: {report}");
}

#[test]
fn every_tri5_start_and_finish_agrees_with_count_and_bells_catalogue() {
    // published.md (G. I. Bell): among the start/finish pairs that the position classes
    // allow, exactly b3->a1, a1->b3, b3->b3, a4->b3, b3->a4 (up to symmetry) are impossible.
    // The search must also agree with the engine's wins by finishing hole.
    let b = Board::from_spec("tri:5").unwrap();
    let classes = pegsol::games::solve::Classes::new(&b);
    let impossible = [
        ("b3", "a1"),
        ("a1", "b3"),
        ("b3", "b3"),
        ("a4", "b3"),
        ("b3", "a4"),
    ];
    for s in 0..b.holes() {
        let start = b.full() ^ bit(s);
        let counts = common::run("tri:5", &[&b.hole_name(s)], 0);
        for f in 0..b.holes() {
            let r = search(&b, start, Goal::OnePeg(bit(f)), u64::MAX).unwrap();
            let listed = b.symmetries().iter().any(|g| {
                impossible.iter().any(|&(a, z)| {
                    g.perm()[b.hole(a).unwrap()] == s && g.perm()[b.hole(z).unwrap()] == f
                })
            });
            let same_class = classes.of(start) == classes.of(bit(f));
            let pair = format!("{} -> {}", b.hole_name(s), b.hole_name(f));
            match r.outcome {
                Outcome::Found(jumps) => {
                    assert!(same_class && !listed, "{pair} should be impossible");
                    assert!(counts.wins_at(&b.hole_name(f)) > 0, "{pair}");
                    assert_eq!(notation::replay(&b, start, &jumps), Ok(bit(f)));
                }
                Outcome::Impossible(_) => {
                    assert!(listed || !same_class, "{pair} should be solvable");
                    assert_eq!(counts.wins_at(&b.hole_name(f)), 0, "{pair}");
                }
            }
        }
    }
}

#[test]
fn french_from_the_centre_has_no_solution() {
    // published.md: from the centre start no game on the French board ends with one peg.
    pegsol()
        .args(["solve", "--board", "french"])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("no solution"));
    pegsol()
        .args([
            "solve",
            "--board",
            "french",
            "--min-moves",
            "--finish",
            "d4",
        ])
        .assert()
        .code(1);
}

/// A game ending with `k` pegs (`--leave`, [`Goal::PegsLeft`]) exists exactly when the
/// count engine finds games ending with `k` pegs, from one hole of every class of tri:4
/// (whose a1 ends with three pegs at best) and tri:5, and from english's centre (1 to 27
/// pegs: its dead ends leave 26 at most); each game found replays to a dead end with `k`
/// pegs.
#[test]
fn games_leaving_k_pegs_agree_with_count() {
    for spec in ["tri:4", "tri:5", "english"] {
        let b = Board::from_spec(spec).unwrap();
        let starts: Vec<String> = match spec {
            "english" => vec!["d4".to_string()],
            _ => b.hole_classes().iter().map(|c| b.hole_name(c[0])).collect(),
        };
        assert!(spec == "english" || starts.len() >= 3, "{spec}");
        for name in &starts {
            let name = name.as_str();
            let start = b.start_from_names(&[name.to_string()]).unwrap();
            let ends = common::run(spec, &[name], 0).pegs_left();
            let pegs = start.count_ones();
            for k in 1..=pegs.min(27) {
                let games = ends
                    .iter()
                    .find(|&&(p, _)| p == k as usize)
                    .map_or(Total::ZERO, |e| e.1);
                let goal = Goal::pegs_anywhere(&b, k);
                let what = format!("{spec} {name} leaving {k}");
                match search(&b, start, goal, 1 << 26).unwrap().outcome {
                    Outcome::Found(jumps) => {
                        assert!(games > 0, "{what}: found, but count has no such game");
                        let end = notation::replay(&b, start, &jumps).unwrap();
                        assert_eq!(end.count_ones(), k, "{what}");
                        let dead = notation::is_dead_end(&b, end);
                        assert!(dead, "{what}: the game does not end there");
                    }
                    Outcome::Impossible(_) => assert_eq!(games, 0, "{what}: count has games"),
                }
            }
        }
    }
}

/// published.md (CSPLib 037): from french's centre no game ends with one peg; the best is
/// two, which `solve --leave 2` finds and `check` replays.
#[test]
fn french_centre_leaves_two_pegs() {
    let (text, code) = stdout_of(&["solve", "--board", "french", "--leave", "2"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("to 2 pegs anywhere: 34 jumps"), "{text}");
    let report = check(&text, &[]);
    assert!(report.starts_with("legal: 34 jumps"), "{report}");
    assert!(report.contains("final position: 2 pegs"), "{report}");
    pegsol()
        .args([
            "solve", "--board", "french", "--leave", "2", "--finish", "d4",
        ])
        .assert()
        .code(2);
    pegsol()
        .args(["solve", "--board", "french", "--leave", "0"])
        .assert()
        .code(2);
}

#[test]
fn check_reports_illegal_jumps_and_bad_input() {
    pegsol()
        .args(["check", "-", "--board", "english"])
        .write_stdin("d2-d4\nd2-d4\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "jump 2 (d2-d4) in move 2: d2 holds no peg",
        ));
    pegsol()
        .args(["check", "-", "--board", "english"])
        .write_stdin("d2-d5\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a jump"));
    pegsol()
        .args(["check", "-"])
        .write_stdin("d2-d4\n")
        .assert()
        .code(2);
}

/// The engine's shortest games ([`shortest_dead_end`], the count stopped at the first
/// layer with a dead end) against the plain breadth-first reference and a whole count: the
/// same length, games and dead ends, and the same example game for 1 and 2 threads and for
/// a run with every layer on disk.
#[test]
fn extremes_agree_with_count() {
    let dir = tempfile::tempdir().unwrap();
    // The shortest dead end's jumps where published.md gives it (tri:5 per start class,
    // english's centre).
    for (spec, holes, published) in [
        ("tri:4", vec![], None),
        ("tri:4", vec!["b3"], None),
        ("tri:5", vec![], Some(6)),
        ("tri:5", vec!["a2"], Some(6)),
        ("tri:5", vec!["a3"], Some(7)),
        ("tri:5", vec!["b3"], Some(4)),
        ("tri:6", vec![], None),
        ("tri:6", vec!["c5"], None),
        ("tri:6", vec!["a1", "b2"], None),
        ("english", vec![], Some(6)),
        ("line:9", vec![], None),
    ] {
        let counts = common::run(spec, &holes, 0);
        let b = Board::from_spec(spec).unwrap();
        let names: Vec<String> = holes.iter().map(|s| s.to_string()).collect();
        let start = b.start_from_names(&names).unwrap();
        let plain = shortest_dead_end_plain(&b, start, u64::MAX).unwrap();
        let run = |threads, disk: bool| {
            let opts = CountOptions {
                threads,
                work_dir: disk.then(|| dir.path().to_path_buf()),
                ..CountOptions::default()
            };
            shortest_dead_end(&b, start, &opts).unwrap()
        };
        let x = run(1, false);
        assert_eq!(x, run(2, false), "{spec} {holes:?}: threads");
        assert_eq!(x, run(2, true), "{spec} {holes:?}: on disk");
        assert_eq!(
            (x.jumps, x.games, x.dead_ends),
            (plain.jumps, plain.games, plain.dead_ends),
            "{spec} {holes:?}: plain reference"
        );
        if let Some(jumps) = published {
            assert_eq!(x.jumps, jumps, "{spec} {holes:?}: published");
        }
        assert_eq!(
            (x.jumps, x.games),
            counts.shortest_game(),
            "{spec} {holes:?}"
        );
        assert_eq!(
            (x.most_pegs_left(), x.games),
            counts.max_dead_end(),
            "{spec} {holes:?}"
        );
        for y in [&x, &plain] {
            let end = notation::replay(&b, start, &y.example).unwrap();
            assert_eq!(end, y.end);
            assert_eq!(y.example.len(), y.jumps);
            assert!(notation::is_dead_end(&b, end));
        }
    }
    // Every sweep's folder is gone once it succeeded (and the work directory with them,
    // once empty).
    assert!(!dir.path().exists() || std::fs::read_dir(dir.path()).unwrap().count() == 0);
}

/// An `extremes` run with `--work-dir` and `--keep-work` leaves its folder checkpointed at
/// the layer before the first dead end (it stops without sweeping further); the same
/// command resumes from there, sweeps that layer again, and prints the same.
#[test]
fn extremes_resumes_from_its_kept_folder() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    let run = |keep: bool| {
        let mut cmd = pegsol();
        cmd.args(["extremes", "--board", "tri:7", "--work-dir"])
            .arg(&work);
        if keep {
            cmd.arg("--keep-work");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        // The first line holds the wall time.
        (text.lines().skip(1).collect::<Vec<_>>().join("\n"), stderr)
    };
    let (first, _) = run(true);
    assert!(first.contains("9 jumps, 2,268 games"), "{first}");
    let (again, said) = run(false);
    assert!(said.contains("resuming from layer"), "{said}");
    assert_eq!(first, again);
    assert!(!work.exists());
}

#[test]
fn extremes_cli_prints_a_checkable_game() {
    // published.md: tri:5 interior start b3 leaves at most 10 pegs (2 games), english 6 jumps.
    let (text, code) = stdout_of(&["extremes", "--board", "tri:5", "--hole", "b3", "--show"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("shortest game (Fool's solitaire): 4 jumps, 2 games"),
        "{text}"
    );
    assert!(
        text.contains("most pegs left at a dead end: 10 pegs, 2 games"),
        "{text}"
    );
    let report = check(&text, &[]);
    assert!(report.contains("final position: 10 pegs"), "{report}");
    assert!(report.contains("dead end"), "{report}");
    let (text, _) = stdout_of(&["extremes", "--board", "english"]);
    assert!(text.contains("6 jumps, 32 games"), "{text}");
}

/// The outer ring of tri:5 (12 holes) and its three middle holes b3, b4, c4.
fn ring(b: &Board) -> (Pegs, Pegs) {
    let middle = ["b3", "b4", "c4"]
        .iter()
        .fold(0, |m, h| m | bit(b.hole(h).unwrap()));
    (b.full() & !middle, middle)
}

#[test]
fn the_ring_question_on_tri5() {
    // The question: from a full board with one hole empty, can three jumps leave pegs
    // all around the outside with the middle three holes (b3, b4, c4) empty?
    let b = Board::from_spec("tri:5").unwrap();
    let (outside, middle) = ring(&b);
    assert_eq!(outside.count_ones(), 12);
    // All twelve outside holes full and the middle empty is 12 pegs: from 14 pegs that is
    // a two-jump goal, and it is unreachable from every start (position classes).
    for s in 0..b.holes() {
        let start = b.full() ^ bit(s);
        let r = search(&b, start, Goal::Position(outside), u64::MAX).unwrap();
        assert!(
            matches!(r.outcome, Outcome::Impossible(_)),
            "from {}",
            b.hole_name(s)
        );
        assert_eq!(count_sequences(&b, start, outside).unwrap(), 0);
    }
    // Three jumps leave 11 pegs: every peg on the outside, the middle empty, one outside
    // hole empty. Which (start, empty outside hole) pairs are reachable, and how many ways.
    let mut reachable = 0;
    let mut sequences = 0u128;
    for s in 0..b.holes() {
        for t in (0..b.holes()).filter(|&t| outside & bit(t) != 0) {
            let start = b.full() ^ bit(s);
            let goal = outside ^ bit(t);
            assert_eq!(goal & middle, 0);
            let n = count_sequences(&b, start, goal).unwrap();
            let r = search(&b, start, Goal::Position(goal), u64::MAX).unwrap();
            match r.outcome {
                Outcome::Found(jumps) => {
                    assert_eq!(jumps.len(), 3);
                    assert_eq!(notation::replay(&b, start, &jumps), Ok(goal));
                    assert!(n > 0);
                    reachable += 1;
                    sequences += n;
                }
                Outcome::Impossible(_) => assert_eq!(n, 0),
            }
        }
    }
    assert!(reachable > 0);
    println!("ring minus one: {reachable} (start, goal) pairs, {sequences} jump sequences");
    // The witness from the corner start, as the CLI prints it, passes check.
    let (text, code) = stdout_of(&[
        "reach",
        "--board",
        "tri:5",
        "--from",
        "a1",
        "--to",
        "o/oo/o.o/o..o/oo.oo",
        "--count",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("# reachable: 3 jumps"), "{text}");
    check(&text, &[]);
    // The twelve-peg ring is refused with its proof.
    pegsol()
        .args([
            "reach",
            "--board",
            "tri:5",
            "--from",
            "a1",
            "--to",
            "o/oo/o.o/o..o/ooooo",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("unreachable").and(predicate::str::contains("proof:")));
    // A goal with more pegs than the start is unreachable, and the header says why
    // rather than counting negative jumps.
    pegsol()
        .args([
            "reach", "--board", "tri:5", "--from", "b3+b4+c4", "--to", "a1",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "(12 pegs to 14: the goal has more pegs)",
        ));
}

#[test]
fn reach_count_matches_count() {
    // published.md: corner start, 6,816 wins end on the start hole a1; interior b3 has none.
    let (text, code) = stdout_of(&[
        "reach",
        "--board",
        "tri:5",
        "--from",
        "a1",
        "--to",
        "a2+a3+b2+b3+c3+a4+b4+c4+d4+a5+b5+c5+d5+e5",
        "--count",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("jump sequences from the start to the goal: 6816"),
        "{text}"
    );
    let b = Board::from_spec("tri:5").unwrap();
    let counts = common::run("tri:5", &["a3"], 0);
    for f in 0..b.holes() {
        let n = count_sequences(&b, b.full() ^ bit(b.hole("a3").unwrap()), bit(f)).unwrap();
        assert_eq!(n, counts.wins_at(&b.hole_name(f)));
    }
}

#[test]
fn fewest_moves_on_small_triangles() {
    // published.md, OEIS A127500: sides 4, 5, 6 need 5, 9, 9 moves (best over all
    // single-vacancy starts and finishes).
    let published = [(4, 5), (5, 9), (6, 9)];
    for (n, moves) in published {
        let b = Board::from_spec(&format!("tri:{n}")).unwrap();
        let r = min_moves(&b, None, Ends::Any, u64::MAX).unwrap();
        let (m, start, jumps) = r.best.expect("a solution");
        assert_eq!(m, moves, "tri:{n}");
        let end = notation::replay(&b, start, &jumps).unwrap();
        assert_eq!(end.count_ones(), 1);
        assert_eq!(start.count_ones() as usize, b.holes() - 1);
        assert_eq!(notation::count_moves(&jumps), moves);
    }
    // The CLI output passes check and states the figure.
    let (text, code) = stdout_of(&["solve", "--board", "tri:5", "--min-moves", "--all-starts"]);
    assert_eq!(code, 0);
    assert!(text.contains("fewest moves from any single vacancy to one peg anywhere: 9"));
    let report = check(&text, &[]);
    assert!(report.contains("in 9 moves"), "{report}");
}

#[test]
fn fewest_moves_agree_with_brute_force_on_tri5() {
    // An independent check: a plain search over (position, last peg) states by moves.
    let b = Board::from_spec("tri:5").unwrap();
    for s in ["a1", "a3", "b3"] {
        let start = b.start_from_names(&[s.to_string()]).unwrap();
        let fast = min_moves(&b, Some(start), Ends::Any, u64::MAX)
            .unwrap()
            .best
            .map(|x| x.0);
        assert_eq!(fast, brute_min_moves(&b, start, None), "from {s}");
        for f in ["a1", "a3", "b3", "c5"] {
            let h = b.hole(f).unwrap();
            let r = min_moves(&b, Some(start), Ends::Hole(h), u64::MAX).unwrap();
            if let Some((m, st, jumps)) = &r.best {
                assert_eq!(*st, start);
                assert_eq!(notation::replay(&b, start, jumps), Ok(bit(h)));
                assert_eq!(notation::count_moves(jumps), *m);
            }
            let fast = r.best.map(|x| x.0);
            assert_eq!(fast, brute_min_moves(&b, start, Some(h)), "{s} -> {f}");
        }
    }
}

/// Fewest moves to one peg by breadth-first search over (position, hole of the peg that
/// moved last), 0-1 weights: continuing with the same peg is free.
fn brute_min_moves(b: &Board, start: Pegs, finish: Option<usize>) -> Option<usize> {
    use std::collections::{HashMap, VecDeque};
    let none = usize::MAX;
    let mut dist: HashMap<(Pegs, usize), usize> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert((start, none), 0);
    queue.push_back((start, none));
    let mut best: Option<usize> = None;
    while let Some((pos, last)) = queue.pop_front() {
        let d = dist[&(pos, last)];
        if pos.count_ones() == 1 && finish.is_none_or(|h| pos == bit(h)) {
            best = Some(best.map_or(d, |b| b.min(d)));
        }
        for j in b.jumps().iter().filter(|j| j.is_legal(pos)) {
            let cost = usize::from(j.from != last);
            let key = (pos ^ j.mask(), j.to);
            if dist.get(&key).is_none_or(|&old| d + cost < old) {
                dist.insert(key, d + cost);
                if cost == 0 {
                    queue.push_front(key);
                } else {
                    queue.push_back(key);
                }
            }
        }
    }
    best
}

#[test]
fn svg_animation_is_written_and_renders() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("game.svg");
    let svg_arg = svg.to_str().unwrap();
    for args in [
        vec!["solve", "--board", "english", "--svg", svg_arg],
        vec!["extremes", "--board", "tri:5", "--svg", svg_arg],
        vec![
            "reach",
            "--board",
            "tri:5",
            "--to",
            "o/oo/o.o/o..o/oo.oo",
            "--svg",
            svg_arg,
        ],
    ] {
        pegsol().args(&args).assert().success();
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
        assert!(text.contains("<animate"));
    }
    // One frame per move: english from the centre, frames = moves + 1.
    let (text, _) = stdout_of(&["solve", "--board", "english", "--svg", svg_arg]);
    let moves = notation::count_moves(
        &notation::parse_jumps(
            &Board::from_spec("english").unwrap(),
            &notation::split_game_text(&text).unwrap().moves,
        )
        .unwrap(),
    );
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    let values = svg_text
        .split("values=\"")
        .nth(1)
        .and_then(|v| v.split('"').next())
        .unwrap();
    assert_eq!(values.split(';').count(), moves + 1);
    // Render it in headless Chromium when it is installed.
    let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists());
    let Some(chromium) = chromium else {
        // .ci/run installs chromium and sets PEGSOL_REQUIRE_CHROMIUM: there, skipping fails.
        assert!(
            std::env::var_os("PEGSOL_REQUIRE_CHROMIUM").is_none(),
            "PEGSOL_REQUIRE_CHROMIUM is set but chromium is not installed"
        );
        println!("notice: chromium not installed; skipping the browser rendering check");
        return;
    };
    // Screenshot the animation paused at t = 0 (the start) and at t = 1.5 s (after the
    // first move): both must render, and differ.
    let shoot = |t: f64, name: &str| -> Vec<u8> {
        let html = dir.path().join(format!("{name}.html"));
        std::fs::write(
            &html,
            format!(
                "<!doctype html><html><body style=\"margin:0\">{svg_text}<script>\
                 const s = document.querySelector('svg'); s.pauseAnimations(); \
                 s.setCurrentTime({t});</script></body></html>"
            ),
        )
        .unwrap();
        let png = dir.path().join(format!("{name}.png"));
        let profile = tempfile::tempdir().unwrap();
        let out = std::process::Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                &format!("--user-data-dir={}", profile.path().display()),
                &format!("--screenshot={}", png.display()),
                "--window-size=400,400",
                &format!("file://{}", html.display()),
            ])
            .output()
            .expect("run chromium");
        assert!(out.status.success(), "chromium failed");
        let bytes = std::fs::read(&png).expect("a screenshot");
        assert!(bytes.starts_with(b"\x89PNG") && bytes.len() > 2000);
        bytes
    };
    let start = shoot(0.0, "start");
    let first = shoot(1.5, "first");
    assert_ne!(start, first, "the animation does not move");
}

#[test]
fn no_solution_by_exhaustive_search() {
    // published.md (G. I. Bell): b3 -> b3 on tri:5 is impossible although the position
    // classes allow it, so the answer must come from the exhaustive search.
    pegsol()
        .args([
            "solve", "--board", "tri:5", "--hole", "b3", "--finish", "b3",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("proof: exhaustive search"));
    pegsol()
        .args([
            "solve",
            "--board",
            "tri:5",
            "--hole",
            "b3",
            "--finish",
            "b3",
            "--min-moves",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("no solution"));
}

#[test]
fn reach_with_pictures_round_trips_through_check() {
    // Start and goal given as pictures (with '-' for cells without a hole, as pegsol
    // prints them): the printed game, whose start: line is a picture, passes check.
    let b = Board::from_spec("english").unwrap();
    let d4 = b.hole("d4").unwrap();
    let Outcome::Found(jumps) = search(&b, b.default_start(), Goal::OnePeg(bit(d4)), u64::MAX)
        .unwrap()
        .outcome
    else {
        panic!("english is solvable");
    };
    let from = notation::replay(&b, b.default_start(), &jumps[..3]).unwrap();
    let to = notation::replay(&b, b.default_start(), &jumps[..7]).unwrap();
    let (from_text, to_text) = (notation::picture(&b, from), notation::picture(&b, to));
    let (text, code) = stdout_of(&[
        "reach", "--board", "english", "--from", &from_text, "--to", &to_text, "--count",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains(&format!("start: {from_text}")), "{text}");
    let report = check(&text, &[]);
    assert!(report.contains("legal: 4 jumps"), "{report}");
    assert_eq!(b.parse_position(&from_text).unwrap(), from);
}

#[test]
fn fewest_moves_english_centre_to_centre() {
    // published.md: 18 moves (Bergholt 1912; proved minimal by Beasley). About 20 s.
    let (text, code) = stdout_of(&[
        "solve",
        "--board",
        "english",
        "--finish",
        "d4",
        "--min-moves",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("fewest moves from d4 to one peg d4: 18"),
        "{text}"
    );
    let report = check(&text, &[]);
    assert!(report.contains("31 jumps in 18 moves"), "{report}");
    assert!(report.contains("final position: 1 peg (d4)"), "{report}");
}

#[test]
fn merson_regions_are_regions_and_their_bounds_are_consistent() {
    use pegsol::geometry::regions::Regions;
    for spec in ["tri:5", "tri:7", "tri:8", "english", "french"] {
        let b = Board::from_spec(spec).unwrap();
        let regions = Regions::new(&b);
        let all = regions.regions();
        for &r in &all {
            // No jump passes over a region from outside it to outside it.
            for j in b.jumps() {
                let inside = |h: usize| r & bit(h) != 0;
                assert!(
                    !(inside(j.over) && !inside(j.from) && !inside(j.to)),
                    "{spec}: a jump crosses region {r:#x}"
                );
            }
            // Minimal: no other region inside it.
            assert!(all.iter().all(|&o| o == r || o & r != o), "{spec}: {r:#x}");
        }
        // Zones do not overlap one another.
        let mut seen: Pegs = 0;
        for z in regions.zones() {
            let holes = z.iter().fold(0, |acc, &r| acc | r);
            assert_eq!(seen & holes, 0, "{spec}: zones overlap");
            seen |= holes;
        }
    }
    // Along random games on tri:7 and english, no move lowers the bound to a finish, or
    // raises the bound from a start, by more than one.
    for (spec, start) in [("tri:7", "c5"), ("english", "d4")] {
        let b = Board::from_spec(spec).unwrap();
        let regions = Regions::new(&b);
        let goals: Vec<Pegs> = (0..b.holes()).map(bit).collect();
        let sources: Vec<Pegs> = (0..b.holes()).map(|h| b.full() ^ bit(h)).collect();
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20 {
            let mut pos = b.start_from_names(&[start.to_string()]).unwrap();
            loop {
                let (to_finish, from_start) = (
                    regions.moves_to_finish(pos, &goals),
                    regions.moves_from_start(pos, &sources),
                );
                for next in one_move(&b, pos) {
                    assert!(regions.moves_to_finish(next, &goals) + 1 >= to_finish);
                    assert!(regions.moves_from_start(next, &sources) <= from_start + 1);
                }
                let legal: Vec<_> = b.jumps().iter().filter(|j| j.is_legal(pos)).collect();
                if legal.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos ^= legal[(seed >> 33) as usize % legal.len()].mask();
            }
        }
    }
}

/// Every position one move (one peg making one or more jumps) after `pos`.
fn one_move(b: &Board, pos: Pegs) -> Vec<Pegs> {
    fn chain(b: &Board, pos: Pegs, h: usize, out: &mut Vec<Pegs>) {
        for j in b.jumps().iter().filter(|j| j.from == h && j.is_legal(pos)) {
            let next = pos ^ j.mask();
            out.push(next);
            chain(b, next, j.to, out);
        }
    }
    let mut out = Vec::new();
    for h in (0..b.holes()).filter(|&h| pos & bit(h) != 0) {
        chain(b, pos, h, &mut out);
    }
    out
}

#[test]
fn fewest_moves_tri8_over_all_starts() {
    // published.md, OEIS A127500: the triangle of side 8 needs 13 moves, best over all
    // single-vacancy starts and finishes. The search bounded at 12 moves finds nothing: the
    // proof that 12 do not suffice (about 10 s and 120 MB on one thread).
    let (text, code) = stdout_of(&[
        "solve",
        "--board",
        "tri:8",
        "--min-moves",
        "--all-starts",
        "--threads",
        "1",
        "--max-memory",
        "8GiB",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("fewest moves from any single vacancy to one peg anywhere: 13"),
        "{text}"
    );
    assert!(text.contains("no game within 12 moves"), "{text}");
    let report = check(&text, &[]);
    assert!(report.contains("in 13 moves"), "{report}");
    assert!(report.contains("final position: 1 peg"), "{report}");
}

/// Runs `f` on a rayon pool of `threads` threads.
fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool")
        .install(f)
}

#[test]
fn search_on_one_and_two_threads_agrees_with_the_count_engine() {
    // Table-driven against the brute-force count: on tri:5 and tri:6, from every single
    // vacancy to every finishing hole, the search (work units sharing one table of
    // hopeless positions, pagoda functions) finds a game exactly when the count engine
    // has wins ending there, on 1 and on 2 threads, and every game it finds replays to the
    // goal.
    for spec in ["tri:5", "tri:6"] {
        let b = Board::from_spec(spec).unwrap();
        for s in 0..b.holes() {
            let start = b.full() ^ bit(s);
            let counts = common::run(spec, &[&b.hole_name(s)], 0);
            for f in 0..b.holes() {
                let wins = counts.wins_at(&b.hole_name(f));
                for threads in [1, 2] {
                    let r = on_threads(threads, || {
                        search(&b, start, Goal::OnePeg(bit(f)), u64::MAX).unwrap()
                    });
                    let pair = format!(
                        "{spec} {} -> {} on {threads} threads",
                        b.hole_name(s),
                        b.hole_name(f)
                    );
                    match r.outcome {
                        Outcome::Found(jumps) => {
                            assert!(wins > 0, "{pair}: found a game the count has not");
                            assert_eq!(notation::replay(&b, start, &jumps), Ok(bit(f)), "{pair}");
                        }
                        Outcome::Impossible(_) => assert_eq!(wins, 0, "{pair}"),
                    }
                }
            }
        }
    }
}

#[test]
fn solve_on_one_and_two_threads_passes_check() {
    // Any --threads gives a game that `pegsol check` accepts (english centre to centre:
    // published solvable; hex2 and tri:6 from their default starts).
    for (board, finish) in [("english", "d4"), ("tri:6", "a1"), ("boards/hex2.txt", "")] {
        for threads in ["1", "2"] {
            let mut args = vec!["solve", "--board", board, "--threads", threads];
            if !finish.is_empty() {
                args.extend(["--finish", finish]);
            }
            let (text, code) = stdout_of(&args);
            assert_solved_or_proved(&text, code, &format!("{board} -j {threads}"));
        }
    }
}

#[test]
fn solve_trace_shows_the_shared_tables_hits() {
    // PEGSOL_TRACE=1: the search reports its work units and the hits of the table of
    // hopeless positions they share (english d4 to d1 revisits many positions).
    let table = regex::Regex::new(r"hopeless table: \d+ inserts, (\d+) hits").unwrap();
    for threads in ["1", "2"] {
        let out = pegsol()
            .env("PEGSOL_TRACE", "1")
            .args([
                "solve",
                "--board",
                "english",
                "--finish",
                "d1",
                "--threads",
                threads,
            ])
            .output()
            .expect("run pegsol");
        assert_eq!(out.status.code(), Some(0));
        let err = String::from_utf8(out.stderr).expect("utf-8");
        let hits: u64 = table
            .captures(&err)
            .unwrap_or_else(|| panic!("no table line in: {err}"))[1]
            .parse()
            .unwrap();
        assert!(hits > 0, "{err}");
        assert!(err.contains(" units at depth "), "{err}");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        assert!(check(&text, &[]).contains("final position: 1 peg (d1)"));
    }
}

#[test]
fn pagoda_functions_never_rule_out_a_solvable_position() {
    // The pagoda functions the search uses are checked against every jump when they are
    // made; here, independently, no position from which a goal can still be reached
    // (the solvable set of the analysis, every layer) weighs less than the goal.
    use pegsol::analysis::solvable::{Finish, HintCache, SolveOptions};
    use pegsol::geometry::pagoda::{Question, goal_pagodas, is_pagoda, sampled_cuts, weight};
    for (spec, finish) in [
        ("tri:5", "a1"),
        ("tri:6", "a1"),
        ("tri:6", "c5"),
        ("english", "d1"),
    ] {
        let b = Board::from_spec(spec).unwrap();
        let f = b.hole(finish).unwrap();
        let mut pagodas = goal_pagodas(&b, bit(f), 8);
        assert!(!pagodas.is_empty(), "{spec} {finish}");
        // And those found by linear programming (issue 21), here from every two-peg
        // position: most of them cannot end on the finish hole.
        let pairs: Vec<Pegs> = (0..b.holes())
            .flat_map(|x| (0..x).map(move |y| bit(x) | bit(y)))
            .collect();
        let cuts = sampled_cuts(&b, &Question::Reach(vec![bit(f)]), &pairs, &[], 16);
        assert!(
            !cuts.is_empty(),
            "{spec} {finish}: no pagoda function found"
        );
        for c in &cuts {
            assert_eq!(c.threshold, c.weights[f]);
            pagodas.push(c.weights.clone());
        }
        for w in &pagodas {
            assert!(is_pagoda(&b, w));
        }
        let cache = HintCache::build(
            &b,
            b.default_start(),
            Finish::Hole(f),
            &SolveOptions::default(),
        )
        .unwrap();
        // The cache keeps one position per orbit under the symmetries fixing the goal.
        let syms: Vec<_> = b
            .symmetries()
            .iter()
            .filter(|s| b.transform(s, bit(f)) == bit(f))
            .collect();
        let mut seen = 0;
        for canon in cache.positions() {
            for s in &syms {
                let pos = b.transform(s, canon);
                for w in &pagodas {
                    assert!(weight(w, pos) >= w[f], "{spec} {finish}: {pos:b}");
                }
            }
            seen += 1;
        }
        assert!(seen > 0, "{spec} {finish}");
    }
}

#[test]
fn wiegleb_centre_to_centre_is_found_by_the_beam_on_one_and_two_threads() {
    // Issue 21: the exhaustive search pauses after 2^21 positions and a beam search finds
    // a game; any --threads gives one that `pegsol check` replays to one peg in the centre.
    for threads in ["1", "2"] {
        let (text, code) = stdout_of(&[
            "solve",
            "--board",
            "wiegleb",
            "--finish",
            "e5",
            "--threads",
            threads,
        ]);
        assert_eq!(code, 0, "-j {threads}: {text}");
        assert!(
            text.starts_with("# wiegleb: a solution from e5 to one peg e5: 43 jumps")
                && text.contains("found by a beam search of width"),
            "-j {threads}: {text}"
        );
        let report = check(&text, &[]);
        assert!(
            report.contains("final position: 1 peg (e5)"),
            "-j {threads}: {report}"
        );
    }
}

#[test]
fn tri11_is_found_by_the_beam_with_128_bit_positions() {
    // 66 holes: positions are u128, the table a DashSet; the beam finds a game of 64 jumps.
    let (text, code) = stdout_of(&["solve", "--board", "tri:11"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.starts_with("# tri:11: a solution from a1 to one peg anywhere: 64 jumps")
            && text.contains("found by a beam search of width"),
        "{text}"
    );
    assert!(check(&text, &[]).contains("final position: 1 peg"));
}

/// `--finish any` is the default spelled out, as `solvable` and `hint` take it.
#[test]
fn solve_takes_finish_any() {
    for finish in ["any", "ANY"] {
        let (text, code) = stdout_of(&["solve", "--board", "english", "--finish", finish]);
        assert_eq!(code, 0, "{text}");
        assert!(text.contains("to one peg anywhere"), "{text}");
        let report = check(&text, &[]);
        assert!(report.contains("final position: 1 peg"), "{report}");
    }
}

/// A game on a board file names the file's path on its `board:` line, so that `check`
/// reads the same board again (the board's name, the file's stem, would not).
#[test]
fn games_on_board_files_pass_check() {
    let (text, code) = stdout_of(&["solve", "--board", "boards/trapezoid.txt"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("board: boards/trapezoid.txt\n"), "{text}");
    let report = check(&text, &[]);
    assert!(report.contains("final position: 1 peg"), "{report}");
    // A game naming its start (or board) twice is malformed, not an illegal game.
    let twice = text.replacen("start: a1\n", "start: a1\nstart: b1\n", 1);
    let out = pegsol()
        .args(["check", "-"])
        .write_stdin(twice)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("a second 'start:' line"), "{stderr}");
}

/// A game file's `board:` path is looked up from the current directory, then from the
/// game file's folder (a link's, then its target's), so a game kept beside its board file
/// checks from anywhere; and
/// `check` reads at most 16 MiB (`/dev/zero` and an oversized board file are refused with
/// one line, not read until the memory is gone).
#[test]
fn game_files_find_their_board_and_stay_small() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    std::fs::copy("boards/trapezoid.txt", games.join("tz.txt")).unwrap();
    let out = pegsol()
        .current_dir(&games)
        .args(["solve", "--board", "tz.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let game = String::from_utf8(out.stdout).unwrap();
    assert!(game.contains("\nboard: tz.txt\n"), "{game}");
    std::fs::write(games.join("g.txt"), &game).unwrap();
    // From the folder above: tz.txt is not in the current directory, but beside the game.
    let out = pegsol()
        .current_dir(dir.path())
        .args(["check", "games/g.txt"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("final position: 1 peg"));
    // Through a symbolic link in another folder: beside the file the link leads to.
    #[cfg(unix)]
    {
        let links = dir.path().join("links");
        std::fs::create_dir(&links).unwrap();
        std::os::unix::fs::symlink(games.join("g.txt"), links.join("g.txt")).unwrap();
        pegsol()
            .current_dir(dir.path())
            .args(["check", "links/g.txt"])
            .assert()
            .code(0)
            .stdout(predicate::str::contains("final position: 1 peg"));
    }
    // The current directory comes first: a game written from the repository's root names
    // boards/trapezoid.txt, and checks from there wherever the game file is.
    let (text, code) = stdout_of(&["solve", "--board", "boards/trapezoid.txt"]);
    assert_eq!(code, 0);
    let elsewhere = dir.path().join("elsewhere.txt");
    std::fs::write(&elsewhere, text).unwrap();
    pegsol()
        .args(["check", elsewhere.to_str().unwrap()])
        .assert()
        .code(0);
    // Read from standard input, the path is the current directory's only.
    pegsol()
        .current_dir(dir.path())
        .args(["check", "-"])
        .write_stdin(game)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("tz.txt"));
    // Inputs too large to be a game or a board.
    let big = dir.path().join("big.txt");
    let mut text = String::from("board: tri:5\n");
    text.push_str(&"# a comment\n".repeat((17 << 20) / 12));
    std::fs::write(&big, &text).unwrap();
    for args in [
        vec!["check".to_string(), "/dev/zero".into()],
        vec!["check".into(), big.display().to_string()],
        vec!["count".into(), "--board".into(), big.display().to_string()],
    ] {
        let out = pegsol().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("it holds more than 16 MiB, more than a game or board file"),
            "{args:?}: {stderr}"
        );
    }
    // Just under the limit, the same comments are read.
    text.truncate((16 << 20) - 6);
    let cut = text.rfind('\n').unwrap() + 1;
    text.truncate(cut);
    text.push_str("a3-a1\n");
    std::fs::write(&big, &text).unwrap();
    pegsol()
        .args(["check", big.to_str().unwrap()])
        .assert()
        .code(0);
}

/// `solve --quiet` (no progress bar, as in count and table) changes nothing else: the same
/// fewest moves and game (tri:5: 9 moves, OEIS A127500), the same table, nothing on stderr.
#[test]
fn solve_quiet_prints_the_same() {
    for args in [
        &["solve", "--board", "tri:5", "--min-moves", "--all-starts"][..],
        &["solve", "--board", "tri:5", "--min-moves", "--table"][..],
    ] {
        let loud = pegsol().args(args).output().unwrap();
        let quiet = pegsol().args(args).arg("--quiet").output().unwrap();
        assert_eq!(quiet.status.code(), Some(0), "{args:?}");
        assert!(quiet.stderr.is_empty(), "{args:?}");
        let text = |o: &std::process::Output| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                // The proof's line ends with its time: "... in 0.01 s".
                .filter(|l| !(l.contains(" in ") && l.ends_with(" s")))
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(text(&quiet), text(&loud), "{args:?}");
    }
    let (out, code) = stdout_of(&["solve", "-b", "tri:5", "--min-moves", "--all-starts", "-q"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("fewest moves from any single vacancy to one peg anywhere: 9"),
        "{out}"
    );
}
