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
//! one-hole oracle rules out nothing. So the example ends with such sums: for 200
//! unsolvable and 50 solvable positions of layer 14, whether a pagoda function with terms
//! on pairs of holes rules each out, one linear program a position
//! ([`pair_pagoda_rules_out`]); it asserts that none of the solvable ones is.
//!
//! Between the two, abstractions of the whole board: a position's pegs counted in each
//! orbit of holes under a subgroup of the symmetries, moved between classes by "abstract
//! jumps" (a jump whose classes hold the pegs and the hole it needs). If `p` at layer `k`
//! can win, its complement is reachable at layer `31 - k`, so the counts of `~p` are
//! reachable by abstract jumps, from the start's counts or from those of every image of
//! forward layer `k - 1`. The example counts the unsolvable positions of layers 13 to 15
//! whose complements' counts are not, asserts that no solvable one is among them, and
//! times the abstract sweep from the start (the count vectors of each layer, sorted).
//!
//! The layers are made here plainly (hash sets of canonical positions, one thread), cut by
//! the pagoda functions `solvable` finds (the same samples of random games), and the
//! solvable ones found by meeting in the middle.
//! The example asserts OEIS A112738's 1,679,072 solvable positions up to symmetry.
//!
//! `cargo run --release --example local_tests` (about 80 s of wall time on 2 cores: the
//! layers on one thread, the regions and abstractions on all).

use pegsol::geometry::pagoda::{Cut, Question, random_games, sampled_cuts};
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

    // The cuts `solvable` finds: from positions 7 to 16 jumps into 256 random games.
    let samples = random_games(&b, &[start], false, 7..=16, 256);
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
    // A position is solvable if one of its children wins: at the middle, a child whose
    // complement is in layer 15 (the goal is the start's complement); below it, a child
    // solvable in the layer above.
    let solvable = |layer: &FxHashSet<Pegs>, wins: &dyn Fn(Pegs) -> bool| -> FxHashSet<Pegs> {
        let any_child_wins = |p: &Pegs| children(*p).into_iter().any(wins);
        layer.iter().copied().filter(any_child_wins).collect()
    };
    let mut s: Vec<FxHashSet<Pegs>> = vec![FxHashSet::default(); m + 1];
    s[m] = solvable(&f[m], &|c| f[m].contains(&canon(full ^ c)));
    for k in (0..m).rev() {
        let below = solvable(&f[k], &|c| s[k + 1].contains(&canon(c)));
        s[k] = below;
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
        // Every image of every solvable position, once for all the regions.
        let solvable_images: Vec<Pegs> = s[k].iter().flat_map(|&p| images(p)).collect();
        for (name, regions) in &families {
            let patterns: Vec<FxHashSet<Pegs>> = regions
                .par_iter()
                .map(|&r| solvable_images.iter().map(|i| i & r).collect())
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

    // Abstractions of the whole board: the pegs counted in each orbit of holes under a
    // subgroup of the symmetries. A jump moves counts between classes, and is possible on
    // some position with given counts when its classes hold the pegs and the holes it needs
    // ("abstract jumps"). If `p` at layer `k` can win, `~p` is reachable at layer `31 - k`
    // (the goal is the start's complement), so the counts of `~p` are reachable by abstract
    // jumps: from the start's counts (`A_{31-k}`), or from the counts of forward layer
    // `k - 1` in `32 - 2k` abstract jumps (`~p` is reached from `~t`, `t` the position
    // `p` passes through at layer `32 - k`, whose complement is in layer `k - 1` up to
    // symmetry: every image, since the counts see only the subgroup's symmetries).
    let quarter = |(r, c): (i32, i32), m: usize| -> (i32, i32) {
        let (mut y, mut x) = (r - 3, c - 3);
        for _ in 0..m % 4 {
            (y, x) = (x, -y);
        }
        if m >= 4 {
            x = -x;
        }
        (y + 3, x + 3)
    };
    let hole_at = |rc: (i32, i32)| {
        cells
            .iter()
            .position(|&c| c == rc)
            .expect("english is symmetric")
    };
    let subgroups: Vec<(&str, Vec<usize>)> = vec![
        ("all 8 symmetries", (0..8).collect()),
        ("the 4 rotations", vec![0, 1, 2, 3]),
        ("the 2 diagonal mirrors", vec![0, 2, 5, 7]),
        ("the 2 axis mirrors", vec![0, 2, 4, 6]),
        ("the half turn", vec![0, 2]),
        ("one axis mirror", vec![0, 4]),
    ];
    let from_f = [13usize, 14, 15];
    println!(
        "abstractions: pegs counted per orbit of holes, ruled out when ~p's counts are not reachable at layer 31 - k by abstract jumps"
    );
    for (name, group) in &subgroups {
        let mut class = vec![usize::MAX; cells.len()];
        let mut sizes: Vec<u32> = Vec::new();
        for h in 0..cells.len() {
            if class[h] == usize::MAX {
                for &m in group {
                    class[hole_at(quarter(cells[h], m))] = sizes.len();
                }
                sizes.push(0);
            }
        }
        for &c in &class {
            sizes[c] += 1;
        }
        let widths: Vec<u32> = sizes.iter().map(|&n| 32 - n.leading_zeros()).collect();
        let shifts: Vec<u32> = widths
            .iter()
            .scan(0, |a, &w| {
                *a += w;
                Some(*a - w)
            })
            .collect();
        assert!(widths.iter().sum::<u32>() <= 64);
        let counts = |x: Pegs| -> u64 {
            (0..cells.len())
                .filter(|&h| x >> h & 1 == 1)
                .map(|h| 1u64 << shifts[class[h]])
                .sum()
        };
        let (sizes, shifts, widths) = (&sizes, &shifts, &widths);
        let count = move |v: u64, c: usize| (v >> shifts[c]) as u32 & ((1 << widths[c]) - 1);
        // Each abstract jump once: the classes of its two pegs and of its hole.
        let mut moves: Vec<(usize, usize, usize)> = b
            .jumps()
            .iter()
            .map(|j| {
                let (x, y) = (class[j.from], class[j.over]);
                (x.min(y), x.max(y), class[j.to])
            })
            .collect();
        moves.sort_unstable();
        moves.dedup();
        let moves = &moves;
        let step = |layer: &[u64]| -> Vec<u64> {
            let mut next: Vec<u64> = layer
                .par_iter()
                .flat_map_iter(|&v| {
                    moves.iter().filter_map(move |&(x, y, z)| {
                        let pegs = |c: usize| u32::from(c == x) + u32::from(c == y);
                        let ok = [x, y, z].iter().all(|&c| {
                            count(v, c) >= pegs(c) && sizes[c] - count(v, c) >= u32::from(c == z)
                        });
                        ok.then(|| v - (1 << shifts[x]) - (1 << shifts[y]) + (1 << shifts[z]))
                    })
                })
                .collect();
            next.par_sort_unstable();
            next.dedup();
            next
        };
        // From the start, to layer 31 - 13.
        let clock = std::time::Instant::now();
        let mut a: Vec<Vec<u64>> = vec![vec![counts(start)]];
        for _ in 0..31 - 13 {
            let next = step(&a[a.len() - 1]);
            a.push(next);
        }
        let (sweep, swept) = (
            clock.elapsed().as_secs_f64(),
            a.iter().map(Vec::len).sum::<usize>(),
        );
        let space: u64 = sizes.iter().map(|&n| u64::from(n) + 1).product();
        let line: Vec<String> = from_f
            .iter()
            .map(|&k| {
                let seeded = {
                    let mut l: Vec<u64> = f[k - 1]
                        .iter()
                        .flat_map(|&q| images(q))
                        .map(counts)
                        .collect();
                    l.par_sort_unstable();
                    l.dedup();
                    for _ in 0..32 - 2 * k {
                        l = step(&l);
                    }
                    l
                };
                let from_start = &a[31 - k];
                let ruled =
                    |within: &[u64], q: Pegs| within.binary_search(&counts(full ^ q)).is_err();
                for q in &s[k] {
                    assert!(
                        !ruled(from_start, *q) && !ruled(&seeded, *q),
                        "a solvable position ruled out"
                    );
                }
                let lost: Vec<Pegs> = f[k].iter().copied().filter(|q| !s[k].contains(q)).collect();
                let share = |within: &[u64]| {
                    let n = lost.par_iter().filter(|&&q| ruled(within, q)).count();
                    100.0 * n as f64 / lost.len() as f64
                };
                format!(
                    "layer {k} {:4.1}% / {:4.1}% ({} / {} counts)",
                    share(from_start),
                    share(&seeded),
                    from_start.len(),
                    seeded.len()
                )
            })
            .collect();
        println!(
            "  {name:24} {:2} classes ({space:9} count vectors; from the start to layer 18: {swept:8} in {sweep:5.2} s), of the unsolvable ruled out, from the start / from layer k - 1: {}",
            sizes.len(),
            line.join(", ")
        );
    }

    // Pagoda functions with terms on pairs of holes, one linear program per position.
    let layer = 14;
    let mut unsolvable: Vec<Pegs> = f[layer]
        .iter()
        .copied()
        .filter(|p| !s[layer].contains(p))
        .collect();
    let mut winnable: Vec<Pegs> = s[layer].iter().copied().collect();
    unsolvable.sort_unstable();
    winnable.sort_unstable();
    let every = |v: &[Pegs], n: usize| -> Vec<Pegs> {
        v.iter().step_by(v.len() / n).take(n).copied().collect()
    };
    let (lost, won) = (every(&unsolvable, 200), every(&winnable, 50));
    let neighbours = |a: usize, b: usize| {
        let ((r, c), (r2, c2)) = (cells[a], cells[b]);
        (r - r2).abs() + (c - c2).abs() == 1
    };
    let (top, bottom) = (
        cells.iter().map(|c| c.0).min().unwrap_or(0),
        cells.iter().map(|c| c.0).max().unwrap_or(0),
    );
    let (left, right) = (
        cells.iter().map(|c| c.1).min().unwrap_or(0),
        cells.iter().map(|c| c.1).max().unwrap_or(0),
    );
    let end_row = |a: usize, b: usize| {
        let ((r, c), (r2, c2)) = (cells[a], cells[b]);
        neighbours(a, b)
            && ((r == r2 && (r == top || r == bottom)) || (c == c2 && (c == left || c == right)))
    };
    let pairs_where = |keep: &dyn Fn(usize, usize) -> bool| -> Vec<(usize, usize)> {
        let n = cells.len();
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| keep(a, b))
            .collect()
    };
    let kinds: Vec<(&str, Vec<(usize, usize)>)> = vec![
        ("none (a linear pagoda function)", Vec::new()),
        ("the arms' end rows", pairs_where(&end_row)),
        ("neighbours along a line", pairs_where(&neighbours)),
    ];
    println!(
        "layer {layer}: pagoda functions with terms on pairs of holes, one linear program for each of {} unsolvable and {} solvable positions",
        lost.len(),
        won.len()
    );
    for (name, pairs) in &kinds {
        let out = lost
            .par_iter()
            .filter(|&&p| pair_pagoda_rules_out(&b, pairs, p, goal))
            .count();
        let wrong = won
            .par_iter()
            .filter(|&&p| pair_pagoda_rules_out(&b, pairs, p, goal))
            .count();
        assert_eq!(wrong, 0, "a pagoda function ruled out a solvable position");
        println!(
            "  {name:36} {:2} pair terms: rules out {out:3} ({:4.1}%), solvable ruled out: {wrong}",
            pairs.len(),
            100.0 * out as f64 / lost.len() as f64
        );
    }
}

/// Whether a function `P(x) = sum w_h x_h + sum u_ab x_a x_b` over `pairs` exists that no
/// jump increases, whatever the other holes hold, and with `P(pos) < P(goal)`: then `pos`
/// cannot reach `goal`. A jump changes a pair term only where the pair holds one of its
/// three holes, by a term linear in the pair's other hole `n`; the worst case over the
/// other holes is the sum of the positive parts of those terms, bounded by one auxiliary
/// variable per jump and hole `n`. So the question is one linear program.
fn pair_pagoda_rules_out(board: &Board, pairs: &[(usize, usize)], pos: Pegs, goal: Pegs) -> bool {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    const BOUND: f64 = 64.0;
    let n = board.holes();
    let mut lp = Problem::new(OptimizationDirection::Minimize);
    let w: Vec<_> = (0..n).map(|_| lp.add_var(0.0, (-BOUND, BOUND))).collect();
    let u: Vec<_> = pairs
        .iter()
        .map(|_| lp.add_var(0.0, (-BOUND, BOUND)))
        .collect();
    let term = |a: usize, b: usize| pairs.iter().position(|&p| p == (a.min(b), a.max(b)));
    for j in board.jumps() {
        let (a, o, c) = (j.from, j.over, j.to);
        let mut base = vec![(w[c], 1.0), (w[a], -1.0), (w[o], -1.0)];
        if let Some(k) = term(a, o) {
            base.push((u[k], -1.0)); // a and o held pegs, and hold none after
        }
        // Every other hole n paired with a, o (emptied) or c (filled).
        for m in (0..n).filter(|&m| m != a && m != o && m != c) {
            let row: Vec<_> = [(a, -1.0), (o, -1.0), (c, 1.0)]
                .iter()
                .filter_map(|&(x, sign)| term(x, m).map(|k| (u[k], sign)))
                .collect();
            if row.is_empty() {
                continue;
            }
            let t = lp.add_var(0.0, (0.0, 3.0 * BOUND));
            base.push((t, 1.0));
            let mut row = row;
            row.push((t, -1.0));
            lp.add_constraint(row, ComparisonOp::Le, 0.0);
        }
        lp.add_constraint(base, ComparisonOp::Le, 0.0);
    }
    // P(goal) - P(pos) >= 1.
    let mut margin: Vec<_> = (0..n)
        .map(|h| (w[h], (goal >> h & 1) as f64 - (pos >> h & 1) as f64))
        .filter(|&(_, x)| x != 0.0)
        .collect();
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let both = |p: Pegs| (p >> a & 1 == 1 && p >> b & 1 == 1) as i32 as f64;
        let x = both(goal) - both(pos);
        if x != 0.0 {
            margin.push((u[k], x));
        }
    }
    lp.add_constraint(margin, ComparisonOp::Ge, 1.0);
    lp.solve().is_ok()
}
