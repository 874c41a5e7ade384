//! Pagoda functions: weights on the holes such that no jump raises the total weight of the
//! pegs.
//!
//! A pagoda function `w` satisfies `w(to) <= w(from) + w(over)` for every jump of the board,
//! so the weight `P(p) = sum of w over the pegs of p` never increases along a game. A
//! position whose weight is below every goal's weight can therefore never reach a goal:
//! the search ([`crate::games::solve`]) drops it without looking further.
//!
//! The candidates here are generic (any board, any lattice): weights that fall off
//! Fibonacci-like with the distance from the goal hole, by several distances. Each
//! candidate is checked exactly against every jump of the board ([`is_pagoda`]) and kept
//! only when it holds, so a wrong guess can cost time but never a solution.

use crate::geometry::board::{Board, Pegs};

/// Whether `w` (one integer weight per hole) is a pagoda function of `board`:
/// `w(to) <= w(from) + w(over)` for every jump.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::is_pagoda};
/// let b = Board::from_spec("line:4").unwrap();
/// assert!(is_pagoda(&b, &[1, 1, 2, 3]));
/// assert!(!is_pagoda(&b, &[0, 0, 1, 0])); // a1 over b1 into c1 would gain weight
/// ```
pub fn is_pagoda(board: &Board, w: &[i64]) -> bool {
    w.len() == board.holes()
        && board
            .jumps()
            .iter()
            .all(|j| w[j.to] <= w[j.from] + w[j.over])
}

/// The weight of a position under `w`.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::weight};
/// let b = Board::from_spec("line:4").unwrap();
/// assert_eq!(weight(&[1, 1, 2, 3], 0b1010), 4);
/// ```
pub fn weight(w: &[i64], pos: Pegs) -> i64 {
    w.iter()
        .enumerate()
        .filter(|&(h, _)| pos >> h & 1 == 1)
        .map(|(_, &x)| x)
        .sum()
}

/// Pagoda functions carried down the jumps of a search: a position's weight under each of
/// them (at most `N`), and the fixed amount each jump of the board adds to those weights,
/// so that a child's weights cost `N` additions instead of a sum over its pegs.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::{JumpWeights, goal_pagodas, weight}};
/// let b = Board::from_spec("english").unwrap();
/// let d4 = b.hole("d4").unwrap();
/// let ws = JumpWeights::<8>::new(&b, goal_pagodas(&b, 1 << d4, 8));
/// let start = b.default_start();
/// let (j, jump) = b.jumps().iter().enumerate().find(|(_, j)| j.is_legal(start)).unwrap();
/// let child = start ^ jump.mask();
/// assert_eq!(ws.after(&ws.weigh(start), j), ws.weigh(child));
/// assert_eq!(ws.weigh(child)[0], weight(&ws.functions()[0], child));
/// ```
#[derive(Clone, Debug)]
pub struct JumpWeights<const N: usize> {
    functions: Vec<Vec<i64>>,
    /// Per jump of the board: what it adds to the weight under each function.
    delta: Vec<[i64; N]>,
}

impl<const N: usize> JumpWeights<N> {
    /// The weights of `functions` (at most `N`, one weight a hole each) on `board`.
    pub fn new(board: &Board, functions: Vec<Vec<i64>>) -> Self {
        assert!(functions.len() <= N, "at most {N} pagoda functions");
        let mut delta = vec![[0; N]; board.jumps().len()];
        for (j, jump) in board.jumps().iter().enumerate() {
            for (p, w) in functions.iter().enumerate() {
                delta[j][p] = w[jump.to] - w[jump.from] - w[jump.over];
            }
        }
        JumpWeights { functions, delta }
    }

    /// The functions, in the order of the weights.
    pub fn functions(&self) -> &[Vec<i64>] {
        &self.functions
    }

    /// How many functions there are.
    pub fn len(&self) -> usize {
        self.functions.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.functions.is_empty()
    }

    /// The weights of `pos` (0 past the last function).
    pub fn weigh(&self, pos: Pegs) -> [i64; N] {
        std::array::from_fn(|p| self.functions.get(p).map_or(0, |w| weight(w, pos)))
    }

    /// The weights after jump `j` of a position weighing `weights`.
    #[inline]
    pub fn after(&self, weights: &[i64; N], j: usize) -> [i64; N] {
        let mut w = *weights;
        for (x, d) in w.iter_mut().zip(&self.delta[j]).take(self.functions.len()) {
            *x += d;
        }
        w
    }
}

/// Distances between holes by steps along the lattice's directions (holes only), from
/// `target`: `usize::MAX` for a hole that cannot be reached that way.
fn steps_from(board: &Board, target: usize) -> Vec<usize> {
    let cells = board.cells();
    let mut dist = vec![usize::MAX; cells.len()];
    dist[target] = 0;
    let mut queue = std::collections::VecDeque::from([target]);
    while let Some(h) = queue.pop_front() {
        let (r, c) = cells[h];
        for &(dr, dc) in board.lattice().directions() {
            if let Some(n) = board.hole_at((r + dr, c + dc))
                && dist[n] == usize::MAX
            {
                dist[n] = dist[h] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// Pagoda functions of `board` for finishing in one of the holes of `goal` (a mask), each
/// checked by [`is_pagoda`] and able to rule something out (some goal hole weighs more than
/// nothing), distinct, at most `max` of them.
///
/// Candidates, for each goal hole `t`: `w(h) = F(k - d(h))` (0 below index 0), `F` the
/// Fibonacci numbers 1, 1, 2, 3, 5, ..., `d` the distance from `t` in lattice steps, in
/// rows, in columns or the larger of the two, the sum of those two, `k` from 1 to 6.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::{goal_pagodas, is_pagoda}};
/// let b = Board::from_spec("english").unwrap();
/// let d4 = b.hole("d4").unwrap();
/// let p = goal_pagodas(&b, 1 << d4, 8);
/// assert!(!p.is_empty() && p.iter().all(|w| is_pagoda(&b, w) && w[d4] > 0));
/// ```
pub fn goal_pagodas(board: &Board, goal: Pegs, max: usize) -> Vec<Vec<i64>> {
    let fib = |i: i64| -> i64 {
        if i < 0 {
            return 0;
        }
        let (mut a, mut b) = (1i64, 1i64);
        for _ in 0..i {
            (a, b) = (b, a + b);
        }
        a
    };
    let cells = board.cells();
    let mut out: Vec<Vec<i64>> = Vec::new();
    for t in (0..board.holes()).filter(|&t| goal >> t & 1 == 1) {
        let (tr, tc) = cells[t];
        let steps = steps_from(board, t);
        let metrics: Vec<Box<dyn Fn(usize) -> usize>> = vec![
            Box::new(|h| steps[h]),
            Box::new(|h| cells[h].0.abs_diff(tr) as usize),
            Box::new(|h| cells[h].1.abs_diff(tc) as usize),
            Box::new(|h| (cells[h].0.abs_diff(tr) as usize).max(cells[h].1.abs_diff(tc) as usize)),
            Box::new(|h| (cells[h].0.abs_diff(tr) + cells[h].1.abs_diff(tc)) as usize),
        ];
        for d in &metrics {
            for k in 1..=6i64 {
                let w: Vec<i64> = (0..board.holes())
                    .map(|h| match d(h) {
                        usize::MAX => 0,
                        x => fib(k - x.min(64) as i64),
                    })
                    .collect();
                let least = (0..board.holes())
                    .filter(|&g| goal >> g & 1 == 1)
                    .map(|g| w[g])
                    .min()
                    .unwrap_or(0);
                if least > 0 && is_pagoda(board, &w) && !out.contains(&w) {
                    out.push(w);
                }
            }
        }
    }
    out.truncate(max);
    out
}

/// A pagoda function proving that no position of `from` reaches any of `to`: integer
/// weights `w`, checked by [`is_pagoda`], with `w(f) < w(t)` for every `f` of `from` and
/// `t` of `to`. `None` when none exists with weights in `-4..=4` (before scaling to
/// integers), or when rounding the linear program's answer to integers failed (rare; never
/// a wrong answer).
///
/// Found by linear programming (techniques.md, "Pagoda functions"; Beasley, "The Ins and
/// Outs of Peg Solitaire", ch. 4): the weights, a ceiling above every `w(f)` and a floor
/// below every `w(t)`, minimising ceiling minus floor under the pagoda inequality of every
/// jump.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::{separating_pagoda, is_pagoda, weight}};
/// let b = Board::from_spec("english").unwrap();
/// let d4 = 1u128 << b.hole("d4").unwrap();
/// // Two pegs on c1 and e1, with d1 empty between them: they can never end as one peg on d4.
/// let far = (1u128 << b.hole("c1").unwrap()) | (1u128 << b.hole("e1").unwrap());
/// let w = separating_pagoda(&b, &[far], &[d4]).unwrap();
/// assert!(is_pagoda(&b, &w) && weight(&w, far) < weight(&w, d4));
/// // The start reaches d4: no pagoda function says otherwise.
/// assert!(separating_pagoda(&b, &[b.default_start()], &[d4]).is_none());
/// ```
pub fn separating_pagoda(board: &Board, from: &[Pegs], to: &[Pegs]) -> Option<Vec<i64>> {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    const BOUND: f64 = 4.0;
    let n = board.holes();
    let mut lp = Problem::new(OptimizationDirection::Minimize);
    let w: Vec<_> = (0..n).map(|_| lp.add_var(0.0, (-BOUND, BOUND))).collect();
    let range = (-BOUND * n as f64, BOUND * n as f64);
    let ceiling = lp.add_var(1.0, range);
    let floor = lp.add_var(-1.0, range);
    for j in board.jumps() {
        lp.add_constraint(
            [(w[j.to], 1.0), (w[j.from], -1.0), (w[j.over], -1.0)],
            ComparisonOp::Le,
            0.0,
        );
    }
    let row = |p: Pegs, bound, sign: f64| -> Vec<_> {
        let mut row: Vec<_> = (0..n)
            .filter(|&h| p >> h & 1 == 1)
            .map(|h| (w[h], sign))
            .collect();
        row.push((bound, -sign));
        row
    };
    for &f in from {
        // w(f) - ceiling <= 0
        lp.add_constraint(row(f, ceiling, 1.0), ComparisonOp::Le, 0.0);
    }
    for &t in to {
        // floor - w(t) <= 0
        lp.add_constraint(row(t, floor, -1.0), ComparisonOp::Le, 0.0);
    }
    let solution = lp.solve().ok()?.into_solution().ok()?;
    if solution.objective() > -1e-6 {
        return None;
    }
    let x: Vec<f64> = w.iter().map(|&v| solution.var_value(v)).collect();
    // A vertex of this program has small denominators: find a common one.
    let q = (1..=720).find(|&q| {
        x.iter()
            .all(|&v| (v * q as f64 - (v * q as f64).round()).abs() < 1e-6)
    })?;
    let ints: Vec<i64> = x.iter().map(|&v| (v * q as f64).round() as i64).collect();
    let heaviest = from.iter().map(|&f| weight(&ints, f)).max()?;
    let lightest = to.iter().map(|&t| weight(&ints, t)).min()?;
    (is_pagoda(board, &ints) && heaviest < lightest).then_some(ints)
}

/// A test that rules positions out: a position `p` with `weights(p) < threshold` cannot
/// lie on the path sought (see [`Cut::reach`], [`Cut::reached_from`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// One weight per hole: a pagoda function, or a pagoda function negated.
    pub weights: Vec<i64>,
    /// Positions lighter than this are ruled out.
    pub threshold: i64,
}

impl Cut {
    /// The cut of pagoda function `w` for reaching one of `goals`: a position lighter
    /// than every goal cannot reach any of them.
    ///
    /// ```
    /// use pegsol::geometry::pagoda::Cut;
    /// // line:4 (holes a1 b1 c1 d1), pagoda function 1 1 2 3, goal one peg on d1 (weight 3).
    /// let c = Cut::reach(&[1, 1, 2, 3], &[0b1000]);
    /// assert!(c.rules_out(0b0011)); // a1 b1 weigh 2: they cannot end on d1
    /// assert!(!c.rules_out(0b0110)); // b1 c1 weigh 3 (and b1 over c1 lands on d1)
    /// ```
    pub fn reach(w: &[i64], goals: &[Pegs]) -> Cut {
        Cut {
            weights: w.to_vec(),
            threshold: goals
                .iter()
                .map(|&g| weight(w, g))
                .min()
                .unwrap_or(i64::MIN),
        }
    }

    /// The cut of pagoda function `w` for being reached from one of `starts`: no game
    /// from a start ends on a position heavier than it (the weights are `-w`, the threshold
    /// minus the heaviest start's weight).
    ///
    /// ```
    /// use pegsol::geometry::pagoda::Cut;
    /// let c = Cut::reached_from(&[1, 1, 2, 3], &[0b0011]); // line:4, pegs a1 b1: weight 2
    /// assert!(c.rules_out(0b1000)); // d1 weighs 3: not reachable from a1 b1
    /// assert!(!c.rules_out(0b0100)); // c1 is (a1 over b1)
    /// ```
    pub fn reached_from(w: &[i64], starts: &[Pegs]) -> Cut {
        Cut {
            weights: w.iter().map(|&x| -x).collect(),
            threshold: starts
                .iter()
                .map(|&s| -weight(w, s))
                .min()
                .unwrap_or(i64::MIN),
        }
    }

    /// Whether this cut rules `pos` out: its weight is below the threshold.
    ///
    /// ```
    /// use pegsol::geometry::pagoda::Cut;
    /// let c = Cut { weights: vec![1, 1, 2, 3], threshold: 3 };
    /// assert!(c.rules_out(0b0011)); // weight 2
    /// assert!(!c.rules_out(0b0101)); // weight 3: not below
    /// assert!(!c.rules_out(0b1000));
    /// ```
    pub fn rules_out(&self, pos: Pegs) -> bool {
        weight(&self.weights, pos) < self.threshold
    }

    /// The same cut moved by a symmetry of the board (hole `h`'s weight to `perm[h]`), its
    /// threshold recomputed by `threshold` on the moved weights.
    fn moved(&self, perm: &[usize], threshold: impl Fn(&[i64]) -> i64) -> Cut {
        let mut weights = vec![0; self.weights.len()];
        for (h, &p) in perm.iter().enumerate() {
            weights[p] = self.weights[h];
        }
        let threshold = threshold(&weights);
        Cut { weights, threshold }
    }
}

/// What a set of cuts rules out.
#[derive(Clone, Debug)]
pub enum Question {
    /// Positions that cannot reach any of these goals.
    Reach(Vec<Pegs>),
    /// Positions that cannot be reached from any of these starts.
    ReachedFrom(Vec<Pegs>),
}

/// Cuts found from sample positions: each sample that none of the cuts so far rules out
/// gets a [`separating_pagoda`] (for [`Question::Reach`], one from the sample to the goals;
/// for [`Question::ReachedFrom`], one from the starts to the sample), and each one found is
/// added with its images under `symmetries` (holes permuted; each image's threshold
/// recomputed, so any symmetry of the board is sound). At most `max` cuts, distinct, each
/// pagoda function checked by [`is_pagoda`]. The programs of the next few samples left
/// are solved at once on the rayon pool, one per thread, and their answers are taken in
/// the samples' order, each dropped if a cut found from an earlier sample of the batch
/// rules its sample out: the cuts are the same for any number of threads.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::{sampled_cuts, Question}};
/// let b = Board::from_spec("english").unwrap();
/// let d4 = 1u128 << b.hole("d4").unwrap();
/// let far = (1u128 << b.hole("c1").unwrap()) | (1u128 << b.hole("e1").unwrap());
/// let cuts = sampled_cuts(&b, &Question::Reach(vec![d4]), &[far, b.default_start()], &[], 8);
/// assert_eq!(cuts.len(), 1); // the start needs none: it is solvable
/// assert!(cuts[0].rules_out(far) && !cuts[0].rules_out(b.default_start()));
/// ```
pub fn sampled_cuts(
    board: &Board,
    question: &Question,
    samples: &[Pegs],
    symmetries: &[crate::geometry::symmetry::Symmetry],
    max: usize,
) -> Vec<Cut> {
    use rayon::prelude::*;
    let solve = |p: Pegs| match question {
        Question::Reach(goals) => {
            separating_pagoda(board, &[p], goals).map(|w| Cut::reach(&w, goals))
        }
        Question::ReachedFrom(starts) => {
            separating_pagoda(board, starts, &[p]).map(|w| Cut::reached_from(&w, starts))
        }
    };
    // An image's threshold, from its moved weights.
    let threshold = |w: &[i64]| match question {
        Question::Reach(goals) => goals
            .iter()
            .map(|&g| weight(w, g))
            .min()
            .unwrap_or(i64::MIN),
        // The weights are negated already: the lightest start under them.
        Question::ReachedFrom(starts) => starts
            .iter()
            .map(|&s| weight(w, s))
            .min()
            .unwrap_or(i64::MIN),
    };
    let mut cuts: Vec<Cut> = Vec::new();
    // The samples are taken in order, as one at a time would: the linear programs of the
    // next few that the cuts so far leave are solved at once on the pool, and a sample that
    // a cut of an earlier one in the same batch rules out is dropped unused, so the cuts
    // are the same for any number of threads.
    let batch = rayon::current_num_threads().max(1);
    let mut rest = samples;
    while !rest.is_empty() && cuts.len() < max {
        let mut ahead: Vec<(Pegs, Option<Cut>)> = Vec::with_capacity(batch);
        let mut taken = 0;
        for &p in rest {
            if ahead.len() == batch {
                break;
            }
            taken += 1;
            if !cuts.iter().any(|c| c.rules_out(p)) {
                ahead.push((p, None));
            }
        }
        rest = &rest[taken..];
        ahead.par_iter_mut().for_each(|(p, cut)| *cut = solve(*p));
        for (p, found) in ahead {
            if cuts.len() >= max {
                break;
            }
            if cuts.iter().any(|c| c.rules_out(p)) {
                continue;
            }
            let Some(cut) = found else { continue };
            let mut images = vec![cut.clone()];
            for s in symmetries {
                images.push(cut.moved(s.perm(), threshold));
            }
            for c in images {
                if cuts.len() < max && !cuts.contains(&c) {
                    cuts.push(c);
                }
            }
        }
    }
    cuts
}

/// Random games for sampling cuts: `n` positions, each after a random number of jumps in
/// `depths` from `from` (undone jumps, with `backward`), stopping early where no jump is
/// left. A fixed seed: the same samples every run.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::random_games};
/// let b = Board::from_spec("english").unwrap();
/// let s = random_games(&b, &[b.default_start()], false, 3..=3, 4);
/// assert_eq!(s.len(), 4);
/// assert!(s.iter().all(|p| p.count_ones() == 29)); // three jumps from 32 pegs
/// assert_eq!(s, random_games(&b, &[b.default_start()], false, 3..=3, 4)); // fixed seed
/// ```
pub fn random_games(
    board: &Board,
    from: &[Pegs],
    backward: bool,
    depths: std::ops::RangeInclusive<usize>,
    n: usize,
) -> Vec<Pegs> {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    if from.is_empty() || depths.is_empty() {
        return Vec::new();
    }
    let span = (depths.end() - depths.start() + 1) as u64;
    let mut out = Vec::with_capacity(n);
    let mut legal: Vec<crate::geometry::board::Jump> = Vec::new();
    for _ in 0..n {
        let mut pos = from[(next() % from.len() as u64) as usize];
        let depth = depths.start() + (next() % span) as usize;
        for _ in 0..depth {
            legal.clear();
            legal.extend(board.jumps().iter().copied().filter(|j| {
                if backward {
                    pos & crate::geometry::board::bit(j.to) != 0
                        && pos
                            & (crate::geometry::board::bit(j.from)
                                | crate::geometry::board::bit(j.over))
                            == 0
                } else {
                    j.is_legal(pos)
                }
            }));
            if legal.is_empty() {
                break;
            }
            pos ^= legal[(next() % legal.len() as u64) as usize].mask();
        }
        out.push(pos);
    }
    out
}
