//! How much of english d4's unsolvable middle layers could a test that looks at only part
//! of the board rule out? (Issue 21, DESIGN.md "Known limits".)
//!
//! `solvable --board english --finish d4` spends its time on the positions near the middle
//! that pass the pagoda cuts and still cannot win (78% of layer 14). This example measures
//! the most that *any* sound test confined to a region `R` of holes could remove there: the
//! exact oracle on `R`. For each region it collects the patterns on `R` of every solvable
//! position of the layer (all eight images), and counts the unsolvable positions whose
//! pattern on some region of a family is not among them. A sound test on `R` cannot know
//! more than that set, so what the oracle leaves, every such test leaves. It does not bound
//! sums of terms over the whole board: a pagoda function is a sum of one-hole terms, and the
//! one-hole oracle rules out nothing (docs/experiments.md measures pagoda functions with
//! terms on pairs of holes).
//!
//! The layers are made here plainly (hash sets of canonical positions, one thread), cut by
//! pagoda functions found from 256 random games as `solvable` finds its own (its figures
//! differ slightly: other samples), and the solvable ones found by meeting in the middle.
//! The example asserts OEIS A112738's 1,679,072 solvable positions up to symmetry.
//!
//! `cargo run --release --example local_tests` (about 50 s: the layers on one thread, the
//! regions on all).

use pegsol::geometry::pagoda::{Cut, Question, sampled_cuts};
use pegsol::geometry::{Board, Pegs};
use rayon::prelude::*;
use rustc_hash::FxHashSet;

fn main() {
    let b = Board::from_spec("english").expect("english is a built-in board");
    let full = b.full();
    let goal: Pegs = 1u128 << b.hole("d4").expect("english has d4");
    let start = full ^ goal;
    let jumps: Vec<(Pegs, Pegs)> = b
        .jumps()
        .iter()
        .map(|j| ((1u128 << j.from) | (1u128 << j.over), 1u128 << j.to))
        .collect();
    let syms = b.symmetries().to_vec();
    let images = |p: Pegs| -> Vec<Pegs> { syms.iter().map(|s| b.transform(s, p)).collect() };
    let canon = |p: Pegs| images(p).into_iter().min().expect("identity");
    let children = |p: Pegs| -> Vec<Pegs> {
        jumps
            .iter()
            .filter(|&&(ab, c)| p & ab == ab && p & c == 0)
            .map(|&(ab, c)| p ^ ab ^ c)
            .collect()
    };

    // Cuts from random positions 7 to 16 jumps into random games (a fixed seed).
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let samples: Vec<Pegs> = (0..256)
        .map(|_| {
            let mut p = start;
            for _ in 0..7 + rnd() % 10 {
                let kids = children(p);
                if kids.is_empty() {
                    break;
                }
                p = kids[(rnd() % kids.len() as u64) as usize];
            }
            p
        })
        .collect();
    let cuts: Vec<Cut> = sampled_cuts(&b, &Question::Reach(vec![goal]), &samples, &syms, 64);
    let kept = |p: Pegs| !cuts.iter().any(|c| c.rules_out(p));

    // Forward layers 0..=15, canonical, cut; then the solvable ones.
    let m = 15;
    let mut f: Vec<FxHashSet<Pegs>> = vec![[start].into_iter().collect()];
    let mut uncut: Vec<usize> = vec![1];
    for k in 0..m {
        let all: FxHashSet<Pegs> = f[k].iter().flat_map(|&p| children(p)).map(canon).collect();
        uncut.push(all.len());
        f.push(all.into_iter().filter(|&c| kept(c)).collect());
    }
    let mut s: Vec<FxHashSet<Pegs>> = vec![FxHashSet::default(); m + 1];
    s[m] = f[m]
        .iter()
        .copied()
        .filter(|&p| {
            children(p)
                .into_iter()
                .any(|c| f[m].contains(&canon(full ^ c)))
        })
        .collect();
    for k in (0..m).rev() {
        s[k] = f[k]
            .iter()
            .copied()
            .filter(|&p| {
                children(p)
                    .into_iter()
                    .any(|c| s[k + 1].contains(&canon(c)))
            })
            .collect();
    }
    let half: usize = s.iter().map(|l| l.len()).sum();
    assert_eq!(
        2 * half,
        1_679_072,
        "OEIS A112738: solvable positions up to symmetry"
    );

    // Region families, each closed under the board's symmetries.
    let cells = b.cells().to_vec();
    let rect = |r0: i32, r1: i32, c0: i32, c1: i32| -> Pegs {
        cells
            .iter()
            .enumerate()
            .filter(|(_, (r, c))| (r0..=r1).contains(r) && (c0..=c1).contains(c))
            .fold(0, |m, (h, _)| m | 1u128 << h)
    };
    let closed = |base: Vec<Pegs>| -> Vec<Pegs> {
        let mut v: Vec<Pegs> = Vec::new();
        for i in base.into_iter().flat_map(images) {
            if i != 0 && !v.contains(&i) {
                v.push(i);
            }
        }
        v
    };
    let windows = |h: i32, w: i32| -> Vec<Pegs> {
        closed(
            (0..=7 - h)
                .flat_map(|r| (0..=7 - w).map(move |c| (r, c)))
                .map(|(r, c)| rect(r, r + h - 1, c, c + w - 1))
                .collect(),
        )
    };
    let families: Vec<(&str, Vec<Pegs>)> = vec![
        ("3x3 windows", windows(3, 3)),
        ("3x4 windows", windows(3, 4)),
        ("4x4 windows", windows(4, 4)),
        (
            "an arm and its row (rows 1-3)",
            closed(vec![rect(0, 2, 0, 6)]),
        ),
        (
            "a quadrant (rows 1-4, columns a-d)",
            closed(vec![rect(0, 3, 0, 3)]),
        ),
        ("4x5 windows", windows(4, 5)),
        (
            "an arm and two rows (rows 1-4)",
            closed(vec![rect(0, 3, 0, 6)]),
        ),
        ("5x5 windows", windows(5, 5)),
    ];
    println!(
        "english d4 to d4: forward layers cut by {} pagoda functions",
        cuts.len()
    );
    for k in [13usize, 14, 15] {
        let unsolvable: Vec<Pegs> = f[k].iter().copied().filter(|p| !s[k].contains(p)).collect();
        println!(
            "layer {k}: {} children of layer {}, {} kept by the cuts: {} solvable, {} not",
            uncut[k],
            k - 1,
            f[k].len(),
            s[k].len(),
            unsolvable.len()
        );
        for (name, regions) in &families {
            let patterns: Vec<FxHashSet<Pegs>> = regions
                .par_iter()
                .map(|&r| {
                    s[k].iter()
                        .flat_map(|&p| images(p))
                        .map(|i| i & r)
                        .collect()
                })
                .collect();
            let out = unsolvable
                .par_iter()
                .filter(|&&q| {
                    regions
                        .iter()
                        .zip(&patterns)
                        .any(|(&r, p)| !p.contains(&(q & r)))
                })
                .count();
            let holes = regions.iter().map(|r| r.count_ones()).max().unwrap_or(0);
            let most = patterns.iter().map(|p| p.len()).max().unwrap_or(0);
            println!(
                "  {name:36} {:2} regions of up to {holes:2} holes ({most:7} patterns): the oracle rules out {out:6} ({:4.1}%)",
                regions.len(),
                100.0 * out as f64 / unsolvable.len() as f64
            );
        }
    }
}
