//! `pegsol solvable` and `pegsol hint`: published figures, the count engine, and a plain
//! brute force without symmetry.

use crate::common::{self, pegsol};
use pegsol::analysis::solvable::{Finish, SolveOptions, hint, solvable};
use pegsol::geometry::board::{Board, Pegs};
use std::collections::{HashMap, HashSet};

fn opts(threads: usize) -> SolveOptions {
    SolveOptions {
        threads,
        ..SolveOptions::default()
    }
}

/// With the reachable counts: the full forward sweep, today's reference path.
fn full(threads: usize) -> SolveOptions {
    SolveOptions {
        reachable: true,
        ..opts(threads)
    }
}

/// published.md, English board: "Reachable positions from which a one-peg finish at the
/// centre is still possible: 1,679,072 up to symmetry (OEIS A112738: 1, 1, 2, 8, 38, 164,
/// ...)"; "Wins finishing at the centre d4: 40,861,647,040,079,968"; reachable positions
/// 23,475,688 up to symmetry (A112737: 1, 1, 2, 8, 39, 171, ...), 187,636,299 raw.
#[test]
fn english_centre_to_centre_matches_a112738() {
    let b = Board::from_spec("english").unwrap();
    let d4 = b.hole("d4").unwrap();
    let s = solvable(&b, b.default_start(), Finish::Hole(d4), &full(0)).unwrap();
    assert_eq!(s.positions_reduced(), 1_679_072);
    let per_jump: Vec<u64> = s.layers.iter().map(|l| l.positions_reduced).collect();
    assert_eq!(per_jump[..6], [1, 1, 2, 8, 38, 164]);
    assert_eq!(s.wins, 40_861_647_040_079_968);
    assert_eq!(s.reachable_reduced(), Some(23_475_688));
    assert_eq!(s.reachable(), Some(187_636_299));
    let reach: Vec<u64> = s
        .layers
        .iter()
        .map(|l| l.reachable_reduced.unwrap())
        .collect();
    assert_eq!(reach[..6], [1, 1, 2, 8, 39, 171]);
    // Centre to centre is its own reverse: layer j and layer 31 - j correspond by
    // complementing the board, so the solvable counts are a palindrome.
    let raw: Vec<u64> = s.layers.iter().map(|l| l.positions).collect();
    assert!(raw.iter().eq(raw.iter().rev()));
}

/// english from the centre to one peg anywhere. From the first jump on, its backward side
/// is the complements of its forward side (the goals of the centre's class, un-jumped once,
/// are the complements of the start's children), so the meeting grows the forward side alone
/// and takes the other's layers as complements. Its layers must match the full sweep's
/// (`tests/data/solvable/english-d4-any.csv`, written with `--reachable` at 9a810f8, before
/// the mirror was noticed), on one thread and on two, and its wins must be the sum of the
/// count engine's wins by finishing hole from d4 (results/finish.csv: d4, and d1, a4, g4,
/// d7 each 10,215,411,760,019,992): twice the centre's published 40,861,647,040,079,968.
#[test]
fn english_centre_to_any_hole_mirrors_after_one_jump() {
    let b = Board::from_spec("english").unwrap();
    let want = std::fs::read_to_string("tests/data/solvable/english-d4-any.csv").unwrap();
    let finish: HashMap<String, u128> = std::fs::read_to_string("results/finish.csv")
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("english,d4,"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[2].to_string(), f[3].parse().unwrap())
        })
        .collect();
    assert_eq!(finish["d4"], 40_861_647_040_079_968);
    assert_eq!(finish.len(), 5);
    for threads in [1, 2] {
        let s = solvable(&b, b.default_start(), Finish::Any, &opts(threads)).unwrap();
        assert_eq!(s.wins, finish.values().sum::<u128>());
        assert_eq!(s.wins, 81_723_294_080_159_936);
        for (layer, line) in s.layers.iter().zip(want.lines().skip(1)) {
            let f: Vec<u64> = line
                .split(',')
                .skip(3)
                .map(|x| x.parse().unwrap())
                .collect();
            assert_eq!(
                [layer.jumps as u64, layer.positions, layer.positions_reduced],
                f[..3],
                "{line}"
            );
        }
        assert_eq!(s.layers.len(), want.lines().count() - 1);
    }
}

/// published.md, triangle of side 5: wins per start class, and wins ending on the start.
/// The "any hole" wins must also equal the count engine's, hole by hole.
#[test]
fn tri5_wins_match_published_and_engine() {
    let b = Board::from_spec("tri:5").unwrap();
    for (start, wins, home) in [
        ("a1", 29_760u128, 6_816u128),
        ("a2", 14_880, 720),
        ("a3", 85_258, 51_452),
        ("b3", 1_550, 0),
    ] {
        let s0 = b.start_from_names(&[start.to_string()]).unwrap();
        let any = solvable(&b, s0, Finish::Any, &full(2)).unwrap();
        assert_eq!(any.wins, wins, "{start}");
        let h = b.hole(start).unwrap();
        assert_eq!(
            solvable(&b, s0, Finish::Hole(h), &opts(2)).unwrap().wins,
            home
        );
        let counts = common::run("tri:5", &[start], 2);
        assert_eq!(any.reachable(), Some(counts.positions()));
        assert_eq!(any.reachable_reduced(), Some(counts.positions_reduced()));
        for hole in 0..b.holes() {
            let s = solvable(&b, s0, Finish::Hole(hole), &opts(1)).unwrap();
            assert_eq!(
                s.wins,
                counts.wins_at(&b.hole_name(hole)),
                "{start} -> {hole}"
            );
        }
    }
}

/// published.md: G. I. Bell's impossible start/finish pairs on tri:5.
#[test]
fn tri5_impossible_pairs_have_no_solvable_position() {
    let b = Board::from_spec("tri:5").unwrap();
    for (start, finish) in [
        ("b3", "a1"),
        ("a1", "b3"),
        ("b3", "b3"),
        ("a4", "b3"),
        ("b3", "a4"),
    ] {
        let s0 = b.start_from_names(&[start.to_string()]).unwrap();
        let f = Finish::Hole(b.hole(finish).unwrap());
        let s = solvable(&b, s0, f, &opts(1)).unwrap();
        assert_eq!((s.positions(), s.wins), (0, 0), "{start} -> {finish}");
    }
}

/// Plain memoized count of the jump sequences from `p` to one peg inside `goal` (a mask),
/// without symmetry: the reference the solvable tables are checked against.
fn wins(b: &Board, p: Pegs, goal: Pegs, memo: &mut HashMap<Pegs, u128>) -> u128 {
    if let Some(&w) = memo.get(&p) {
        return w;
    }
    let w = if p.count_ones() == 1 {
        u128::from(p & goal != 0)
    } else {
        b.jumps()
            .iter()
            .filter(|j| j.is_legal(p))
            .map(|j| wins(b, p ^ j.mask(), goal, memo))
            .sum()
    };
    memo.insert(p, w);
    w
}

/// What a direct enumeration without symmetry finds: per layer (reachable raw, reachable
/// up to the whole group, solvable raw, solvable up to the group), and the wins.
fn brute(b: &Board, start: Pegs, goal: Pegs) -> (Vec<[u64; 4]>, u128) {
    let canon = |p: Pegs| {
        b.symmetries()
            .iter()
            .map(|s| b.transform(s, p))
            .min()
            .unwrap()
    };
    let mut memo = HashMap::new();
    let mut layer: HashSet<Pegs> = HashSet::from([start]);
    let mut rows = Vec::new();
    while !layer.is_empty() {
        let solv: Vec<Pegs> = layer
            .iter()
            .copied()
            .filter(|&p| wins(b, p, goal, &mut memo) > 0)
            .collect();
        let reduced =
            |v: &mut dyn Iterator<Item = Pegs>| v.map(canon).collect::<HashSet<_>>().len() as u64;
        rows.push([
            layer.len() as u64,
            reduced(&mut layer.iter().copied()),
            solv.len() as u64,
            reduced(&mut solv.iter().copied()),
        ]);
        layer = layer
            .iter()
            .flat_map(|&p| {
                b.jumps()
                    .iter()
                    .filter(move |j| j.is_legal(p))
                    .map(move |j| p ^ j.mask())
            })
            .collect();
    }
    let w = wins(b, start, goal, &mut memo);
    (rows, w)
}

fn check_against_brute(spec: &str, start: &str, finish: Option<&str>) {
    let b = Board::from_spec(spec).unwrap();
    let s0 = b.parse_position(start).unwrap();
    let f = Finish::parse(&b, finish).unwrap();
    let (rows, w) = brute(&b, s0, f.mask(&b));
    for threads in [1, 2] {
        let s = solvable(&b, s0, f, &full(threads)).unwrap();
        let got: Vec<[u64; 4]> = s
            .layers
            .iter()
            .map(|l| {
                [
                    l.reachable.unwrap(),
                    l.reachable_reduced.unwrap(),
                    l.positions,
                    l.positions_reduced,
                ]
            })
            .collect();
        assert_eq!(got, rows, "{spec} {start} -> {finish:?}");
        assert_eq!(s.wins, w, "{spec} {start} -> {finish:?}");
        // Meeting in the middle: the same solvable counts and wins, no reachable counts.
        let m = solvable(&b, s0, f, &opts(threads)).unwrap();
        let solv: Vec<[u64; 2]> = m
            .layers
            .iter()
            .map(|l| [l.positions, l.positions_reduced])
            .collect();
        let want: Vec<[u64; 2]> = rows.iter().map(|r| [r[2], r[3]]).collect();
        assert_eq!(solv, want, "meet: {spec} {start} -> {finish:?}");
        assert_eq!(m.wins, w, "meet: {spec} {start} -> {finish:?}");
        assert!(m.layers.iter().all(|l| l.reachable.is_none()));
    }
}

/// Starts and finishes fixed by the whole group, by part of it, and by nothing.
#[test]
fn small_boards_match_brute_force() {
    check_against_brute("tri:5", "a1", None);
    check_against_brute("tri:5", "a1", Some("c5"));
    check_against_brute("tri:5", "b3", Some("a1"));
    check_against_brute("tri:5", "a3", Some("c3"));
    // The 19-hole hexagon has no win from any single vacancy (the count engine agrees),
    // but its reachable counts under a group of 12 are still worth checking.
    check_against_brute("boards/hex2.txt", "c3", None);
    check_against_brute("boards/hex2.txt", "a1", Some("c3"));
    check_against_brute("tri:6", "b3", None);
    check_against_brute("tri:6", "c5", Some("c5"));
    check_against_brute("tri:6", "b4", Some("f6"));
    // The goal's complement is the start moved by a symmetry outside `H` (a reflection):
    // a mirrored meeting through that symmetry.
    check_against_brute("tri:5", "a2", Some("d5"));
    check_against_brute("tri:6", "a2", Some("a5"));
    check_against_brute("tri:6", "a3", Some("d6"));
    let rect = rectangle();
    let rect = rect.path().to_str().unwrap();
    check_against_brute(rect, "c3", None);
    check_against_brute(rect, "c3", Some("c2"));
    check_against_brute(rect, "b2", Some("d3"));
    check_against_brute("line:9", "a1", None);
}

/// A 5 x 4 rectangle, centre-ish hole empty: a group of 4, of which the start keeps 2.
fn rectangle() -> tempfile::NamedTempFile {
    use std::io::Write;
    let mut f = tempfile::Builder::new().suffix(".txt").tempfile().unwrap();
    f.write_all(b"ooooo\nooooo\noo.oo\nooooo\n").unwrap();
    f
}

#[test]
fn hint_splits_the_wins_among_the_jumps() {
    let b = Board::from_spec("tri:5").unwrap();
    let start = b.default_start();
    let h = hint(&b, start, Finish::Any, &opts(1)).unwrap();
    assert_eq!(h.wins, 29_760);
    assert_eq!(h.jumps.len(), 2);
    assert_eq!(h.jumps.iter().map(|j| j.wins).sum::<u128>(), h.wins);
    // Play the best jump, then ask again: the total is what the first hint promised.
    let best = h.jumps[0];
    let next = start ^ best.jump.mask();
    let h2 = hint(&b, next, Finish::Any, &opts(2)).unwrap();
    assert_eq!(h2.wins, best.wins);
    // A lost position: one jump left, leading to two pegs.
    let lost = b.parse_position("./../.../..../oo..o").unwrap();
    let h3 = hint(&b, lost, Finish::Any, &opts(1)).unwrap();
    assert_eq!(h3.wins, 0);
    assert!(h3.jumps.iter().all(|j| j.wins == 0));
}

/// Hints merge positions under the goal's symmetries even when they move the position:
/// every jump's count must still be exact. Checked against plain memoized counting on
/// unsymmetric positions of tri:5 and the hexagon, with symmetric and unsymmetric goals.
#[test]
fn hints_match_plain_counting() {
    let mut checked = 0;
    for (spec, start, finishes) in [
        ("tri:5", "a2", &[None, Some("a1"), Some("c3")][..]),
        ("tri:6", "b4", &[None, Some("c5"), Some("a1")][..]),
        ("rect", "c3", &[None, Some("c2"), Some("a1")][..]),
    ] {
        let rect = rectangle();
        let b = if spec == "rect" {
            Board::from_file(rect.path()).unwrap()
        } else {
            Board::from_spec(spec).unwrap()
        };
        let s0 = b.parse_position(start).unwrap();
        // A few positions along the first legal jumps, all unsymmetric.
        let mut positions = vec![s0];
        let mut p = s0;
        for _ in 0..3 {
            let j = b.jumps().iter().find(|j| j.is_legal(p)).unwrap();
            p ^= j.mask();
            positions.push(p);
        }
        for &f in finishes {
            let finish = Finish::parse(&b, f).unwrap();
            let goal = finish.mask(&b);
            let mut memo = HashMap::new();
            for &p in &positions {
                let h = hint(&b, p, finish, &opts(2)).unwrap();
                assert_eq!(h.wins, wins(&b, p, goal, &mut memo), "{spec} {f:?}");
                checked += u128::from(h.wins > 0);
                for j in &h.jumps {
                    let want = wins(&b, p ^ j.jump.mask(), goal, &mut memo);
                    assert_eq!(j.wins, want, "{spec} {f:?} {:?}", j.jump);
                }
            }
        }
    }
    assert!(
        checked >= 12,
        "too few winnable positions checked: {checked}"
    );
}

#[test]
fn cli_solvable_writes_csv_independent_of_threads() {
    let dirs: Vec<tempfile::TempDir> = (0..2).map(|_| tempfile::tempdir().unwrap()).collect();
    for (dir, threads) in dirs.iter().zip(["1", "2"]) {
        pegsol()
            .args(["solvable", "--board", "tri:5", "--finish", "a1", "--csv"])
            .arg(dir.path())
            .args(["-j", threads])
            .assert()
            .success()
            .stdout(predicates::str::contains(
                "winning jump sequences      6,816",
            ));
    }
    let read =
        |d: &tempfile::TempDir| std::fs::read_to_string(d.path().join("solvable.csv")).unwrap();
    let csv = read(&dirs[0]);
    assert_eq!(csv, read(&dirs[1]));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "board,start,finish,jumps,positions,positions_reduced,reachable,reachable_reduced"
    );
    // Without --reachable the reachable columns are empty.
    assert_eq!(lines.next().unwrap(), "tri:5,a1,a1,0,1,1,,");
    assert_eq!(lines.count(), 13);
}

#[test]
fn cli_hint_and_bad_input() {
    pegsol()
        .args([
            "hint",
            "--board",
            "tri:5",
            "--position",
            "a1",
            "--finish",
            "a1",
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains("a3-a1 (over a2)  3,408 wins"));
    pegsol()
        .args(["solvable", "--board", "tri:5", "--finish", "z9"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("hole 'z9' is not on board"));
    pegsol()
        .args(["hint", "--board", "tri:5", "--position", "./oo"])
        .assert()
        .code(2);
}

/// `solvable.csv` as the full forward sweep wrote it at 3285e25, before `solvable` met in the
/// middle (tests/data/solvable/README.md), against today's: byte for byte with
/// `--reachable`, and the same rows with empty reachable columns without it. Solvable and
/// unsolvable pairs on tri:5, tri:6, tri:7 and english. english-d4-d1.csv was written the
/// same way later, at abe7337 (tests/data/solvable/README.md).
#[test]
fn solvable_csv_matches_the_full_sweep_of_3285e25() {
    let cases: &[(&str, &str, &str, &str, bool)] = &[
        // file, board, start, finish ("" = any), also with --reachable
        ("tri5-a1-any", "tri:5", "a1", "", true),
        ("tri5-b3-a1", "tri:5", "b3", "a1", true),
        ("tri5-a3-c3", "tri:5", "a3", "c3", true),
        ("tri6-b3-any", "tri:6", "b3", "", true),
        ("tri6-a1-a1", "tri:6", "a1", "a1", true),
        ("tri6-c5-f6", "tri:6", "c5", "f6", true),
        ("tri7-a1-any", "tri:7", "a1", "", false),
        ("tri7-d7-a1", "tri:7", "d7", "a1", false),
        ("english-d4-d4", "english", "d4", "d4", false),
        ("english-d4-c4", "english", "d4", "c4", false),
        ("english-d4-d1", "english", "d4", "d1", false),
    ];
    let mut solvable_cases = 0;
    for &(file, board, start, finish, reachable) in cases {
        let want = std::fs::read_to_string(format!("tests/data/solvable/{file}.csv")).unwrap();
        let blank = |csv: &str| -> String {
            csv.lines()
                .enumerate()
                .map(|(i, l)| {
                    if i == 0 {
                        return format!("{l}\n");
                    }
                    let f: Vec<&str> = l.split(',').collect();
                    format!("{},,\n", f[..6].join(","))
                })
                .collect()
        };
        solvable_cases += usize::from(
            want.lines()
                .skip(1)
                .any(|l| l.split(',').nth(4) != Some("0")),
        );
        for with_reachable in [false, true] {
            if with_reachable && !reachable {
                continue;
            }
            let dir = tempfile::tempdir().unwrap();
            let mut cmd = pegsol();
            cmd.args(["solvable", "-q", "--board", board, "--hole", start, "--csv"])
                .arg(dir.path());
            if !finish.is_empty() {
                cmd.args(["--finish", finish]);
            }
            if with_reachable {
                cmd.arg("--reachable");
            }
            cmd.assert().success();
            let got = std::fs::read_to_string(dir.path().join("solvable.csv")).unwrap();
            if with_reachable {
                assert_eq!(got, want, "{file} --reachable");
            } else {
                assert_eq!(got, blank(&want), "{file}");
            }
        }
    }
    assert!(
        solvable_cases >= 4,
        "too few solvable pairs: {solvable_cases}"
    );
}

/// English from the centre to d1, a meeting whose backward side does not mirror its forward
/// one: its wins are the games that the count engine sees finish at d1
/// (10,215,411,760,019,992), and its counts per layer are the full sweep's
/// (`solvable_csv_matches_the_full_sweep_of_3285e25`, english-d4-d1.csv).
#[test]
fn english_centre_to_d1_wins_as_the_count_engine_finishes() {
    let b = Board::from_spec("english").unwrap();
    let s0 = b.default_start();
    let f = Finish::parse(&b, Some("d1")).unwrap();
    let met = solvable(&b, s0, f, &opts(2)).unwrap();
    let counted = common::english_centre();
    assert_eq!(met.wins, counted.wins_at("d1"));
    assert_eq!(met.wins, 10_215_411_760_019_992);
}

/// `hint` against `solvable`: from the start and a few positions along the best line, every
/// jump `hint` calls winning leads to a position `solvable` finds winnable with exactly that
/// many wins, losing jumps to positions with none, and the jumps' wins add up to the
/// position's. The same answers come from a [`HintCache`] built once at the start, and
/// through its file.
#[test]
fn hints_agree_with_solvable_and_the_cache() {
    use pegsol::analysis::solvable::HintCache;
    let mut winning = 0;
    for (spec, start, finish) in [
        ("tri:5", "a1", None),
        ("tri:5", "a3", Some("c3")),
        ("tri:6", "b3", None),
        ("tri:6", "a1", Some("a1")),
        // Goal the start's complement with jumps of different W from the start: c5's two
        // orbits of two jumps, c3's four jumps of four different counts.
        ("tri:6", "c5", Some("c5")),
        ("tri:6", "c3", Some("c3")),
    ] {
        let b = Board::from_spec(spec).unwrap();
        let s0 = b.start_from_names(&[start.to_string()]).unwrap();
        let f = Finish::parse(&b, finish).unwrap();
        let cache = HintCache::build(&b, s0, f, &opts(2)).unwrap();
        let file = tempfile::NamedTempFile::new().unwrap();
        cache.write(file.path()).unwrap();
        let read = HintCache::read(file.path(), &b, f, 1 << 30).unwrap();
        assert_eq!(read, cache);
        let mut p = s0;
        for _ in 0..4 {
            let h = hint(&b, p, f, &opts(1)).unwrap();
            assert_eq!(h.jumps.iter().map(|j| j.wins).sum::<u128>(), h.wins);
            if h.wins > 0 {
                assert_eq!(cache.hint(&b, p).as_ref(), Some(&h), "{spec} {p:b}");
            }
            for j in &h.jumps {
                let child = p ^ j.jump.mask();
                let s = solvable(&b, child, f, &opts(2)).unwrap();
                assert_eq!(s.wins, j.wins, "{spec} {start} {finish:?} {:?}", j.jump);
                assert_eq!(s.layers[0].positions > 0, j.wins > 0);
                winning += usize::from(j.wins > 0);
            }
            match h.jumps.first() {
                Some(best) if best.wins > 0 => p ^= best.jump.mask(),
                _ => break,
            }
        }
    }
    assert!(winning >= 10, "too few winning jumps checked: {winning}");
}

/// `hint --cache`: written on the first call, read on the next (same answer), refused with
/// one line and exit 2 for another finish or board.
#[test]
fn cli_hint_cache() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("tri5.cache");
    let run = |board: &str, finish: &str| {
        pegsol()
            .args([
                "hint",
                "-q",
                "--board",
                board,
                "--position",
                "a1",
                "--finish",
                finish,
            ])
            .arg("--cache")
            .arg(&cache)
            .output()
            .unwrap()
    };
    let first = run("tri:5", "a1");
    assert_eq!(first.status.code(), Some(0));
    assert!(cache.exists());
    let again = run("tri:5", "a1");
    assert_eq!(again.stdout, first.stdout);
    assert!(
        String::from_utf8_lossy(&first.stdout).contains("a3-a1 (over a2)  3,408 wins"),
        "{}",
        String::from_utf8_lossy(&first.stdout)
    );
    for (board, finish) in [("tri:5", "any"), ("tri:6", "a1")] {
        let out = run(board, finish);
        assert_eq!(out.status.code(), Some(2), "{board} {finish}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("the hint cache is for board tri:5, finish a1"),
            "{err}"
        );
    }
    std::fs::write(&cache, b"not a cache\n").unwrap();
    assert_eq!(run("tri:5", "a1").status.code(), Some(2));
}

/// `pegsol hint` on tri:5 from a1 with `--cache cache` and `extra` arguments (a 60 s
/// timeout, so that a read that never ends fails the test).
fn hint_tri5_cached(cache: &std::path::Path, extra: &[&str]) -> std::process::Output {
    pegsol()
        .args([
            "hint",
            "-q",
            "--board",
            "tri:5",
            "--position",
            "a1",
            "--cache",
        ])
        .arg(cache)
        .args(extra)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap()
}

/// `hint --cache` on a damaged cache: a flipped byte anywhere in the body (where the
/// header's checks cannot see it) or in the header, and a cache of the format before the
/// checksum, are each one line and exit 2, never counts.
#[test]
fn cli_hint_cache_damaged_body_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("c5.bin");
    let run = || hint_tri5_cached(&cache, &[]);
    let first = run();
    assert_eq!(first.status.code(), Some(0));
    let good = std::fs::read(&cache).unwrap();
    assert!(good.len() > 12_000, "{}", good.len());
    let refused = |what: &str, want: &str| {
        let out = run();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(out.stdout.is_empty(), "{what}");
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(err.contains(want), "{what}: {err}");
    };
    for at in [300, 322, good.len() / 2, good.len() - 1, 5, 60] {
        let mut bad = good.clone();
        bad[at] ^= 0x01;
        std::fs::write(&cache, &bad).unwrap();
        refused(&format!("byte {at}"), "c5.bin");
    }
    for at in [300, 322, good.len() - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x01;
        std::fs::write(&cache, &bad).unwrap();
        refused(&format!("byte {at}"), "damaged hint cache");
    }
    // Format 1: no checksum line.
    let ends: Vec<usize> = (0..good.len())
        .filter(|&i| good[i] == b'\n')
        .take(4)
        .collect();
    let (head, crc_end) = (ends[2] + 1, ends[3] + 1);
    assert!(good[head..].starts_with(b"crc32 "));
    let mut old = b"pegsol hint cache 1".to_vec();
    old.extend_from_slice(&good[b"pegsol hint cache 2".len()..head]);
    old.extend_from_slice(&good[crc_end..]);
    std::fs::write(&cache, &old).unwrap();
    refused("format 1", "older pegsol");
    // The start's wins edited and the checksum made again: the checksum cannot tell, but
    // the hint does not add up over its jumps.
    let mut body = good[crc_end..].to_vec();
    assert_eq!(body[..8], 1u64.to_le_bytes()); // layer 0: the start alone
    assert_eq!(body[24..40], 29_760u128.to_le_bytes()); // its wins, published
    body[24..40].copy_from_slice(&29_761u128.to_le_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(&good[..head]);
    crc.update(&body);
    let mut forged = good[..head].to_vec();
    forged.extend_from_slice(format!("crc32 {:08x}\n", crc.finalize()).as_bytes());
    forged.extend_from_slice(&body);
    std::fs::write(&cache, &forged).unwrap();
    refused(
        "wins edited, checksum made again",
        "is damaged: the winning sequences of this position do not add up over its jumps",
    );
    // Every W doubled, or one set to 0, or the start moved off the board, each with its
    // checksum made again: what the hint adds up stays true, but no cache holds these.
    let forge = |edit: &dyn Fn(&mut Vec<u8>, &mut Vec<u8>)| {
        let (mut head, mut body) = (good[..head].to_vec(), good[crc_end..].to_vec());
        edit(&mut head, &mut body);
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        crc.update(&body);
        let mut forged = head;
        forged.extend_from_slice(format!("crc32 {:08x}\n", crc.finalize()).as_bytes());
        forged.extend_from_slice(&body);
        std::fs::write(&cache, &forged).unwrap();
    };
    // The entries (position, W) of the body's layers, 32 bytes each after a count.
    let entries = |body: &[u8]| {
        let mut at = 0;
        let mut all = Vec::new();
        while at < body.len() {
            let n = u64::from_le_bytes(body[at..at + 8].try_into().unwrap()) as usize;
            all.extend((0..n).map(|i| at + 8 + 32 * i));
            at += 8 + 32 * n;
        }
        all
    };
    let w = |body: &[u8], e: usize| u128::from_le_bytes(body[e + 16..e + 32].try_into().unwrap());
    forge(&|_, body| {
        for e in entries(body) {
            let doubled = 2 * w(body, e);
            body[e + 16..e + 32].copy_from_slice(&doubled.to_le_bytes());
        }
    });
    refused(
        "every W doubled",
        "a damaged hint cache (values no cache can hold)",
    );
    forge(&|_, body| {
        let e = entries(body)[40];
        body[e + 16..e + 32].copy_from_slice(&0u128.to_le_bytes());
    });
    refused(
        "a W of 0",
        "a damaged hint cache (values no cache can hold)",
    );
    forge(&|head, _| {
        let text = String::from_utf8(head.clone()).unwrap();
        *head = text.replace("start 32766 ", "start 65534 ").into_bytes();
        assert_ne!(head.as_slice(), text.as_bytes(), "{text}");
    });
    refused(
        "a start off the board",
        "a damaged hint cache (values no cache can hold)",
    );
    // A label of the numbers' line renamed, or a number padded, the checksum made again: the
    // line is read only as written.
    for (from, to) in [("start ", "begin "), ("layers ", "layers 0")] {
        forge(&|head, _| {
            let text = String::from_utf8(head.clone()).unwrap();
            *head = text.replacen(from, to, 1).into_bytes();
            assert_ne!(head.as_slice(), text.as_bytes(), "{text}");
        });
        refused(to, "not a pegsol hint cache, or a damaged one");
    }
    // The checksum's line renamed: no cache without its checksum is read.
    let mut renamed = good.clone();
    renamed[head..head + 6].copy_from_slice(b"crc33 ");
    std::fs::write(&cache, &renamed).unwrap();
    refused("crc33", "not a pegsol hint cache, or a damaged one");
    // The good file still answers as the first time.
    std::fs::write(&cache, &good).unwrap();
    assert_eq!(run().stdout, first.stdout);
}

/// `hint --cache` reads only a regular file no larger than the memory budget: a device
/// (which would never end), a FIFO (which would block), a directory and a file larger than
/// `--max-memory` are each one line and exit 2, at once.
#[test]
fn cli_hint_cache_refuses_what_it_cannot_read() {
    let dir = tempfile::tempdir().unwrap();
    let run = hint_tri5_cached;
    let refused = |cache: &std::path::Path, extra: &[&str], want: &str| {
        let out = run(cache, extra);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {err}", cache.display());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{err}");
    };
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    refused(&fifo, &[], "is not a regular file");
    refused(
        std::path::Path::new("/dev/zero"),
        &[],
        "is not a regular file",
    );
    refused(dir.path(), &[], "it is a directory");
    // A cache of 12,000-odd bytes answers; a file of 100 KB under a budget of 64 KiB (the
    // least) is refused by its size, before it is read.
    let cache = dir.path().join("c5.bin");
    assert_eq!(run(&cache, &[]).status.code(), Some(0));
    let big = dir.path().join("big.bin");
    std::fs::write(&big, vec![b'x'; 100_000]).unwrap();
    refused(&big, &["--max-memory", "64K"], "holds 100000 bytes");
    assert_eq!(run(&cache, &["--max-memory", "1M"]).status.code(), Some(0));
}

/// Every how many positions (in key order) the cuts are sought from.
const SAMPLE_STRIDE: usize = 7;

/// The cuts do not depend on the number of threads: `sampled_cuts` solves the linear
/// programs of a few samples at once on the pool, but takes their answers in the samples'
/// order, dropping those a cut of an earlier sample already rules out. Every 7th
/// reachable position of tri:5 from c3 (one peg anywhere) and of english from d4 to depth
/// 7 (to d4), each with a child, in pools of 1, 2 and 3 threads.
#[test]
fn sampled_cuts_are_the_same_for_any_thread_count() {
    use pegsol::geometry::pagoda::{Question, sampled_cuts};
    for (spec, start, finish, depth) in
        [("tri:5", "c3", None, 99), ("english", "d4", Some("d4"), 7)]
    {
        let b = Board::from_spec(spec).unwrap();
        let s0 = b.start_from_names(&[start.to_string()]).unwrap();
        let goal = Finish::parse(&b, finish).unwrap().mask(&b);
        let goals: Vec<Pegs> = (0..b.holes())
            .map(|h| 1 << h)
            .filter(|&g| g & goal != 0)
            .collect();
        let mut seen: HashSet<Pegs> = HashSet::from([s0]);
        let mut layer = vec![s0];
        for _ in 0..depth {
            let mut next = Vec::new();
            for &p in &layer {
                for j in b.jumps().iter().filter(|j| j.is_legal(p)) {
                    if seen.insert(p ^ j.mask()) {
                        next.push(p ^ j.mask());
                    }
                }
            }
            layer = next;
        }
        let mut all: Vec<Pegs> = seen.into_iter().collect();
        all.sort_unstable();
        // Each sample followed by a child: a cut that rules a position out rules out its
        // children too (no jump raises a pagoda function's weight), so the child is often
        // dropped when the two share a batch.
        let sample: Vec<Pegs> = all
            .iter()
            .step_by(SAMPLE_STRIDE)
            .flat_map(|&p| {
                let child = b
                    .jumps()
                    .iter()
                    .find(|j| j.is_legal(p))
                    .map(|j| p ^ j.mask());
                std::iter::once(p).chain(child)
            })
            .collect();
        let cuts = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                sampled_cuts(
                    &b,
                    &Question::Reach(goals.clone()),
                    &sample,
                    b.symmetries(),
                    64,
                )
            })
        };
        let one = cuts(1);
        assert!(!one.is_empty(), "{spec}: no cut");
        assert_eq!(one, cuts(2), "{spec}: 2 threads");
        assert_eq!(one, cuts(3), "{spec}: 3 threads");
    }
}

/// The pagoda cuts that prune the meeting (issue 21) never rule out a position on a winning
/// path: cuts found from every 7th reachable position of tri:6 (from b3, one peg anywhere,
/// and from a1 back to a1) rule out no position from which a goal is reachable, and the
/// cuts "not reachable from the start", found from every 7th position that reaches a goal,
/// rule out no reachable position. Each cut's weights are a pagoda function (or one negated).
#[test]
fn pagoda_cuts_never_rule_out_a_winning_path() {
    use pegsol::geometry::pagoda::{Question, is_pagoda, sampled_cuts};
    let b = Board::from_spec("tri:6").unwrap();
    let mut ruled_out = 0;
    for (start, finish) in [("b3", None), ("a1", Some("a1"))] {
        let s0 = b.start_from_names(&[start.to_string()]).unwrap();
        let f = Finish::parse(&b, finish).unwrap();
        let goal = f.mask(&b);
        let goals: Vec<Pegs> = (0..b.holes())
            .map(|h| 1 << h)
            .filter(|&g| g & goal != 0)
            .collect();
        // Every reachable position, and whether it can still win.
        let mut memo = HashMap::new();
        let mut reachable: HashSet<Pegs> = HashSet::from([s0]);
        let mut frontier = vec![s0];
        while let Some(p) = frontier.pop() {
            for j in b.jumps().iter().filter(|j| j.is_legal(p)) {
                if reachable.insert(p ^ j.mask()) {
                    frontier.push(p ^ j.mask());
                }
            }
        }
        let mut all: Vec<Pegs> = reachable.iter().copied().collect();
        all.sort_unstable();
        let winning: Vec<Pegs> = all
            .iter()
            .copied()
            .filter(|&p| wins(&b, p, goal, &mut memo) > 0)
            .collect();
        assert!(!winning.is_empty());
        // Cuts are sought from a sample (a linear program for each position no cut rules
        // out yet, which is every winning one) and checked against every position.
        let sample =
            |v: &[Pegs]| -> Vec<Pegs> { v.iter().step_by(SAMPLE_STRIDE).copied().collect() };
        let ahead = sampled_cuts(
            &b,
            &Question::Reach(goals.clone()),
            &sample(&all),
            b.symmetries(),
            64,
        );
        assert!(!ahead.is_empty(), "tri:6 {start}: no cut ahead");
        for c in &ahead {
            assert!(is_pagoda(&b, &c.weights));
            for &p in &winning {
                assert!(
                    !c.rules_out(p),
                    "tri:6 {start}: a cut ahead rules out {p:b}"
                );
            }
            ruled_out += all.iter().filter(|&&p| c.rules_out(p)).count();
        }
        // Positions that reach a goal, by un-jumps from the goals: the cuts behind may rule
        // out any of them that the start does not reach, and none that it does.
        let mut back: HashSet<Pegs> = goals.iter().copied().collect();
        let mut frontier = goals.clone();
        while let Some(p) = frontier.pop() {
            for j in b.jumps() {
                let undone = p & (1 << j.to) != 0 && p & ((1 << j.from) | (1 << j.over)) == 0;
                if undone && p.count_ones() < s0.count_ones() && back.insert(p ^ j.mask()) {
                    frontier.push(p ^ j.mask());
                }
            }
        }
        let mut back: Vec<Pegs> = back.into_iter().collect();
        back.sort_unstable();
        let behind = sampled_cuts(
            &b,
            &Question::ReachedFrom(vec![s0]),
            &sample(&back),
            &[],
            64,
        );
        assert!(!behind.is_empty(), "tri:6 {start}: no cut behind");
        for c in &behind {
            let w: Vec<i64> = c.weights.iter().map(|&x| -x).collect();
            assert!(is_pagoda(&b, &w));
            for &p in &all {
                assert!(
                    !c.rules_out(p),
                    "tri:6 {start}: a cut behind rules out {p:b}"
                );
            }
        }
    }
    assert!(ruled_out > 0, "the cuts rule nothing out");
}

/// Meeting in the middle with pagoda cuts against the full sweep (which has none), mostly
/// on larger boards than the brute force reaches: the same solvable counts per layer, raw
/// and up to symmetry, and the same wins. Pairs where the goal is the start's complement
/// (the mirrored meeting) and others, one peg anywhere (tri:6 from a3: tri:7 from a3 took
/// 100 s of the CI's 15 minutes on a 2-core, 24 GiB AMD EPYC at 2.6 GHz, 27 November 2026;
/// english's centre to any hole is checked against the reference passes' file in
/// `english_centre_to_any_hole_mirrors_after_one_jump`), and pairs with no win (tri:7 from
/// a1). English from d4 to d1, whose full sweep took 26 s (half a minute of the CI's time,
/// on a 2-core, 24 GiB Intel Xeon, 28 November 2026, 7a28e49), is checked against that
/// sweep's file in `solvable_csv_matches_the_full_sweep_of_3285e25` and against the count
/// engine in `english_centre_to_d1_wins_as_the_count_engine_finishes`.
#[test]
fn pruned_meeting_matches_the_full_sweep() {
    let mut some_win = 0;
    for (spec, start, finish) in [
        ("tri:7", "a1", Some("a1")),
        ("tri:6", "a3", None),
        ("tri:7", "b4", Some("g7")),
        ("tri:6", "a1", Some("a1")),
    ] {
        let b = Board::from_spec(spec).unwrap();
        let s0 = b.start_from_names(&[start.to_string()]).unwrap();
        let f = Finish::parse(&b, finish).unwrap();
        let full = solvable(&b, s0, f, &full(2)).unwrap();
        let met = solvable(&b, s0, f, &opts(2)).unwrap();
        let counts = |s: &pegsol::analysis::solvable::Solvable| -> Vec<[u64; 2]> {
            s.layers
                .iter()
                .map(|l| [l.positions, l.positions_reduced])
                .collect()
        };
        assert_eq!(counts(&met), counts(&full), "{spec} {start} -> {finish:?}");
        assert_eq!(met.wins, full.wins, "{spec} {start} -> {finish:?}");
        some_win += usize::from(met.wins > 0);
    }
    assert!(some_win >= 2, "too few winnable pairs: {some_win}");
}
