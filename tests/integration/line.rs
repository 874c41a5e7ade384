//! `pegsol line`: the backward (un-jump) search against the published figures, a forward
//! search from every configuration of small width, and a recogniser of the regular
//! language of solvable configurations.

use crate::common::pegsol;
use pegsol::analysis::line::{Config, LineLayer, reduce, solvable};
use std::collections::HashSet;

/// Every configuration whose first and last cells hold pegs, of width 1..=w, each once.
fn all_configs(w: u32) -> impl Iterator<Item = Config> {
    std::iter::once(Config::new(1)).chain((2..=w).flat_map(|width| {
        let ends = 1u128 | 1 << (width - 1);
        (0..1u128 << (width - 2)).map(move |inner| Config::new(ends | inner << 1))
    }))
}

fn backward_set(layers: &[LineLayer]) -> HashSet<Config> {
    layers
        .iter()
        .flat_map(|l| l.configs.iter().copied())
        .collect()
}

/// published.md: "With 3 pegs the only solvable configuration, up to translation and
/// reversal, is `II.I`; with 7 pegs there are 8 such configurations."
#[test]
fn published_three_and_seven_pegs() {
    let layers = solvable(1, 7).unwrap();
    let three = &layers[2];
    let pics: Vec<String> = three.configs.iter().map(|c| c.picture()).collect();
    assert_eq!(pics.len(), 2);
    assert!(pics.contains(&"II.I".to_string()) && pics.contains(&"I.II".to_string()));
    assert_eq!(
        three
            .reduced()
            .iter()
            .map(|c| c.picture())
            .collect::<Vec<_>>(),
        ["II.I"]
    );
    assert_eq!(layers[6].reduced().len(), 8);
    assert_eq!((layers[0].configs.len(), layers[1].configs.len()), (1, 1));
}

/// Forward search (memoized, pegs may leave the picture) from every configuration of
/// width <= 14: reducible to one peg exactly when the backward search lists it.
#[test]
fn forward_search_agrees_for_small_widths() {
    const W: u32 = 14;
    let back = backward_set(&solvable(1, W as usize).unwrap());
    let mut n = 0;
    for c in all_configs(W) {
        let forward = reduce(&c).unwrap().pegs == 1;
        assert_eq!(forward, back.contains(&c), "{}", c.picture());
        n += 1;
    }
    assert_eq!(n, 1 << (W - 1));
}

/// The regular expression of the solvable configurations (Moore and Eppstein, "One-
/// Dimensional Peg Solitaire, and Duotaire", 2002, prove the language regular). The form
/// below is the reconstruction in the public notes ToF/SPOJ `LONER/design.md`, with two
/// corrections found by this test: the bare `11` is solvable, and the language is closed
/// under reversal (the notes give one of each mirror pair). `1` is a peg, `0` a hole.
fn recogniser() -> impl Fn(&str) -> bool {
    let p = regex::Regex::new(
        r"^0*(1|11|11(01)*(11)*01|11(01)*00(11)*(10)*11|11(01)*1101(11)*(10)*11)0*$",
    )
    .unwrap();
    move |s: &str| {
        let bits: String = s
            .chars()
            .map(|c| if c == 'I' { '1' } else { '0' })
            .collect();
        let rev: String = bits.chars().rev().collect();
        p.is_match(&bits) || p.is_match(&rev)
    }
}

#[test]
fn regular_language_agrees_up_to_width_20() {
    const W: u32 = 20;
    let accepts = recogniser();
    let back = backward_set(&solvable(1, W as usize).unwrap());
    for c in all_configs(W) {
        assert_eq!(accepts(&c.picture()), back.contains(&c), "{}", c.picture());
    }
}

/// Beyond brute-force widths: everything the backward search lists with up to 30 pegs is
/// in the language.
#[test]
fn regular_language_accepts_all_found_up_to_30_pegs() {
    let accepts = recogniser();
    for l in solvable(1, 30).unwrap() {
        for c in &l.configs {
            assert!(accepts(&c.picture()), "{}", c.picture());
        }
        // Reversal maps solvable configurations to solvable ones.
        let set: HashSet<Config> = l.configs.iter().copied().collect();
        assert!(l.configs.iter().all(|c| set.contains(&c.reversed())));
    }
}

#[test]
fn parallel_layers_do_not_depend_on_threads() {
    let one = pegsol::analysis::line::solvable_with_threads(1, 24, 1).unwrap();
    let two = pegsol::analysis::line::solvable_with_threads(1, 24, 2).unwrap();
    assert_eq!(one, two);
}

/// Replays a reduction cell by cell on an unbounded strip.
fn replay(c: &Config) -> usize {
    let r = reduce(c).unwrap();
    let mut pegs: HashSet<i64> = (0..c.width() as i64)
        .filter(|&i| c.mask() >> i & 1 == 1)
        .collect();
    for j in &r.jumps {
        assert_eq!((j.over - j.from).abs(), 1);
        assert_eq!(j.to - j.over, j.over - j.from);
        assert!(pegs.remove(&j.from) && pegs.remove(&j.over) && pegs.insert(j.to));
    }
    assert_eq!(pegs.len(), r.pegs as usize);
    pegs.len()
}

#[test]
fn reductions_are_legal_and_minimal() {
    for (pic, best) in [
        ("II.I", 1),
        ("I.I", 2),
        ("III", 2),
        ("IIII", 2),
        ("II..II", 1),
        ("I", 1),
        ("I...I", 2),
    ] {
        assert_eq!(replay(&Config::parse(pic).unwrap()), best, "{pic}");
    }
    // A peg must leave the picture: II solves only by jumping outside it.
    let r = reduce(&Config::parse("II").unwrap()).unwrap();
    assert!(r.jumps[0].to < 0 || r.jumps[0].to > 1);
    for c in [".IIIIIIIIIIII.", "IIII.IIII.IIII", "I.II.III.IIII"] {
        replay(&Config::parse(c).unwrap());
    }
}

#[test]
fn cli_line_lists_and_writes_csv() {
    pegsol()
        .args(["line", "--pegs", "3"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "3 pegs: 2 configurations reducible to one peg, 1 up to reversal\n  II.I\n",
        ));
    let dir = tempfile::tempdir().unwrap();
    pegsol()
        .args([
            "line",
            "--pegs",
            "1",
            "--to",
            "30",
            "--counts-only",
            "--csv",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let csv = std::fs::read_to_string(dir.path().join("line.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "pegs,configurations,configurations_reduced"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 30);
    assert_eq!(rows[2], "3,2,1");
    assert!(rows[6].starts_with("7,") && rows[6].ends_with(",8"));
    let configs = std::fs::read_to_string(dir.path().join("line_configurations.csv")).unwrap();
    assert!(configs.lines().any(|l| l == "3,II.I,I.II,4"));
    pegsol()
        .args(["line", "--reduce", "IIII"])
        .assert()
        .success()
        .stdout(predicates::str::contains("reducible to 2 pegs"));
    pegsol().args(["line", "--reduce", "II?I"]).assert().code(2);
    pegsol().args(["line", "--pegs", "0"]).assert().code(2);
    // Counts of a thousand or more are printed with separators, as elsewhere.
    pegsol()
        .args(["line", "--pegs", "60", "--counts-only"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "60 pegs: 3,195 configurations reducible to one peg, 1,598 up to reversal\n",
        ));
}
