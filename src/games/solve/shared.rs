//! What every work unit of a search shares ([`Shared`]): the jumps in the search's order,
//! the pagoda functions that bound it, the table of hopeless positions; the work units.

use super::*;
use crate::geometry::pagoda::JumpWeights;

/// What every work unit of a search shares.
pub(super) struct Shared<K: Bits> {
    pub(super) goal: Goal,
    pub(super) goal_pegs: u32,
    /// Jumps, and canonical forms under the goal's symmetries.
    pub(super) moves: MoveTable<K>,
    /// Per jump of the board: its place in the order the search tries jumps.
    pub(super) rank: Vec<u16>,
    /// Per place in that order: the jump.
    pub(super) by_rank: Vec<u16>,
    /// The pagoda functions that bound the search, weighed down the jumps.
    pub(super) pagodas: JumpWeights<PAGODAS>,
    /// Per pagoda function: the least weight of a goal (positions lighter are hopeless).
    pub(super) floor: [i64; PAGODAS],
    pub(super) table: HopelessTable,
    /// Set when a unit found a game, or the search ran out of its budget: the others stop.
    pub(super) stop: std::sync::atomic::AtomicBool,
    /// Positions the units may expand before the search pauses for a beam search
    /// ([`BEAM_AFTER`]), and how many they expanded (in steps of [`SPENT_STEP`]; the
    /// search paused when they reached the limit).
    pub(super) limit: std::sync::atomic::AtomicU64,
    pub(super) spent: std::sync::atomic::AtomicU64,
    /// Adjacent pairs of holes, for [`Shared::score`].
    pub(super) pairs: Vec<(usize, usize)>,
}

/// One thread's search state inside a unit, and its tallies.
pub(super) struct Worker<'s, K: Bits> {
    pub(super) s: &'s Shared<K>,
    pub(super) path: Vec<u16>,
    pub(super) nodes: u64,
    pub(super) hits: u64,
    pub(super) cuts: u64,
    pub(super) inserts: u64,
}

/// A work unit: a position a few jumps from the start, the jumps that lead there, its
/// canonical form and its pagoda weights.
pub(super) struct Unit<K> {
    pub(super) path: Vec<u16>,
    pub(super) pos: K,
    pub(super) key: K,
    pub(super) weights: [i64; PAGODAS],
}

impl<K: Bits> Shared<K> {
    /// Whether `pos` (with no more pegs than the goal) is a goal: for
    /// [`Goal::PegsLeft`], only once no jump is left, since a game ends there.
    pub(super) fn met(&self, pos: K) -> bool {
        self.goal.is_met(pos.to_u128())
            && (!matches!(self.goal, Goal::PegsLeft(..)) || !self.moves.each_jump(pos, |_| {}))
    }

    pub(super) fn new(board: &Board, start: Pegs, goal: Goal, max_memory: u64) -> Self {
        let m = goal.mask();
        let moves = MoveTable::new(board, |s| board.transform(s, m) == m);
        let order = jump_order(board, goal);
        let mut rank = vec![0u16; order.len()];
        for (r, &j) in order.iter().enumerate() {
            rank[j] = r as u16;
        }
        let ws: Vec<Vec<i64>> = match goal {
            Goal::OnePeg(holes) => {
                use crate::geometry::pagoda::{Question, goal_pagodas, random_games, sampled_cuts};
                let mut ws = goal_pagodas(board, holes, GENERIC_PAGODAS);
                // The middle game: positions a quarter to three quarters of the way.
                let pegs = start.count_ones() as usize;
                let samples = random_games(board, &[start], false, pegs / 4..=3 * pegs / 4, 128);
                let goals = (0..board.holes())
                    .filter(|&h| holes >> h & 1 == 1)
                    .map(|h| 1 << h)
                    .collect();
                let cuts = sampled_cuts(board, &Question::Reach(goals), &samples, &[], PAGODAS);
                for c in cuts {
                    if ws.len() < PAGODAS && !ws.contains(&c.weights) {
                        ws.push(c.weights);
                    }
                }
                ws
            }
            Goal::Position(_) | Goal::PegsLeft(..) => Vec::new(),
        };
        let mut floor = [i64::MIN; PAGODAS];
        for (p, w) in ws.iter().enumerate() {
            floor[p] = (0..board.holes())
                .filter(|&h| m >> h & 1 == 1)
                .map(|h| w[h])
                .min()
                .unwrap_or(i64::MIN);
        }
        Shared {
            goal,
            goal_pegs: goal.pegs(),
            moves,
            rank,
            by_rank: order.iter().map(|&j| j as u16).collect(),
            pagodas: JumpWeights::new(board, ws),
            floor,
            table: HopelessTable::new(board.holes(), max_memory),
            stop: std::sync::atomic::AtomicBool::new(false),
            limit: std::sync::atomic::AtomicU64::new(u64::MAX),
            spent: std::sync::atomic::AtomicU64::new(0),
            pairs: adjacent_pairs(board),
        }
    }

    pub(super) fn canonical(&self, pos: K) -> K {
        self.moves.canonical(pos)
    }

    pub(super) fn weights(&self, pos: K) -> [i64; PAGODAS] {
        self.pagodas.weigh(pos.to_u128())
    }

    /// The pagoda weights of the child by jump `j` of a position of weights `weights`.
    #[inline]
    pub(super) fn child_weights(&self, weights: &[i64; PAGODAS], j: usize) -> [i64; PAGODAS] {
        self.pagodas.after(weights, j)
    }

    /// Whether a pagoda function rules out a position of these weights.
    #[inline]
    pub(super) fn hopeless(&self, weights: &[i64; PAGODAS]) -> bool {
        (0..self.pagodas.len()).any(|p| weights[p] < self.floor[p])
    }

    /// The legal jumps of `pos` in the search's order, into `buf`; returns how many.
    #[inline]
    pub(super) fn ordered_jumps(&self, pos: K, buf: &mut [u16; 512]) -> usize {
        let mut n = 0;
        self.moves.each_jump(pos, |j| {
            let r = self.rank[j];
            // Insertion sort: a handful of jumps per position.
            let mut i = n;
            while i > 0 && buf[i - 1] > r {
                buf[i] = buf[i - 1];
                i -= 1;
            }
            buf[i] = r;
            n += 1;
        });
        n
    }

    /// The work units: the positions `depth` jumps from the start (or fewer, on a branch
    /// that ends earlier), in the search's order, each canonical form once, none ruled out
    /// by a pagoda function. `Err(path)` when a goal is met on the way.
    pub(super) fn units(
        &self,
        start: K,
        depth: usize,
    ) -> std::result::Result<Vec<Unit<K>>, Vec<u16>> {
        let mut units = vec![Unit {
            path: Vec::new(),
            pos: start,
            key: self.canonical(start),
            weights: self.weights(start),
        }];
        let mut buf = [0u16; 512];
        for _ in 0..depth {
            let mut next = Vec::new();
            let mut seen: HashSet<K, Hasher> = HashSet::with_hasher(hasher());
            let mut grew = false;
            for u in units {
                if u.pos.count_ones() <= self.goal_pegs {
                    if self.met(u.pos) {
                        return Err(u.path);
                    }
                    continue;
                }
                let n = self.ordered_jumps(u.pos, &mut buf);
                if n == 0 {
                    next.push(u);
                    continue;
                }
                grew = true;
                for &r in &buf[..n] {
                    let j = self.by_rank[r as usize] as usize;
                    let pos = u.pos ^ self.moves.mask(j);
                    let weights = self.child_weights(&u.weights, j);
                    if self.hopeless(&weights) {
                        continue;
                    }
                    let key = self.canonical(pos);
                    if seen.insert(key) {
                        let mut path = u.path.clone();
                        path.push(j as u16);
                        next.push(Unit {
                            path,
                            pos,
                            key,
                            weights,
                        });
                    }
                }
            }
            units = next;
            if !grew {
                break;
            }
        }
        Ok(units)
    }
}

/// The order in which the search tries jumps: first those that take the most weight off
/// the board, where a peg weighs its squared distance to the goal (the finishing hole, or the
/// centre of the goal's holes). Pegs far from where the game must end are the hard ones to
/// remove; clearing them early finds solutions sooner. Only the order changes, not what is
/// searched.
pub(super) fn jump_order(board: &Board, goal: Goal) -> Vec<usize> {
    let w = goal_distances(board, goal);
    let jumps = board.jumps();
    let mut order: Vec<usize> = (0..jumps.len()).collect();
    order.sort_by(|&a, &b| {
        let d = |j: &Jump| w[j.to] - w[j.from] - w[j.over];
        d(&jumps[a]).total_cmp(&d(&jumps[b])).then(a.cmp(&b))
    });
    order
}

/// Per hole, its squared distance to the goal (the finishing hole, or the centre of the
/// goal's holes), on the board's lattice.
pub(super) fn goal_distances(board: &Board, goal: Goal) -> Vec<f64> {
    let place = |h: usize| {
        let (r, c) = board.cells()[h];
        match board.lattice() {
            crate::geometry::lattice::Lattice::Triangular => {
                (c as f64 - r as f64 / 2.0, r as f64 * 3f64.sqrt() / 2.0)
            }
            _ => (c as f64, r as f64),
        }
    };
    let m = goal.mask();
    let holes: Vec<usize> = (0..board.holes()).filter(|&h| m & bit(h) != 0).collect();
    let n = holes.len().max(1) as f64;
    let (cx, cy) = holes
        .iter()
        .map(|&h| place(h))
        .fold((0.0, 0.0), |(x, y), (a, b)| (x + a / n, y + b / n));
    (0..board.holes())
        .map(|h| {
            let (x, y) = place(h);
            (x - cx).powi(2) + (y - cy).powi(2)
        })
        .collect()
}

/// The pairs of adjacent holes (two holes of one jump's line, side by side), each once.
pub(super) fn adjacent_pairs(board: &Board) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = board
        .jumps()
        .iter()
        .flat_map(|j| [(j.from, j.over), (j.over, j.to)])
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Per jump of the board: (mask of its three holes, mask of from and over).
pub(crate) fn jump_masks<K: Bits>(board: &Board) -> Vec<(K, K)> {
    board
        .jumps()
        .iter()
        .map(|j| {
            let fo = K::bit(j.from) | K::bit(j.over);
            (fo | K::bit(j.to), fo)
        })
        .collect()
}
