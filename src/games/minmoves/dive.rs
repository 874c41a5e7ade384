//! The last layers within the limit walked depth first instead of stored
//! ([`Search::dive`]): a layer too large to store is never built, and in the search that finds
//! the fewest moves the walk stops at its first game.
//!
//! Every position `k` moves or fewer beyond a side's frontier is visited by a depth-first walk
//! from each frontier position, pruned by the bound as the layers are, and looked up in the
//! other side. A chunk of frontier positions remembers the positions it has visited (at their
//! smallest depth), so that the many orders of the same moves are walked once a chunk; across
//! chunks a position may be walked again, which costs time but not memory.
//!
//! A walk can also be a *trial* ([`Search::try_dive`]): before a side grows a layer, the
//! first chunks of its frontier are walked to the limit, up to a budget of positions about
//! that of the layer, in case a game is found there. Where games within the limit are many
//! they are met in the first chunks (tri:8's search bounded at 13 meets one in the first
//! block of its frontier's 431, tri:9's bounded at 16 in the first of 55,501), and the
//! layers a full search would still grow are never built; where there is none the trial
//! costs a fraction of the layer's expansion, which visits every child of every position.

use super::search::Search;
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What one chunk's walk found.
struct Walk<K: Bits> {
    /// The side walked and its depth at the frontier.
    side: usize,
    base: usize,
    /// How deep below the frontier the walk goes.
    k: usize,
    /// Whether a position one move beyond the frontier is new to the side (asked only while
    /// nothing has been pruned: whether the search is exhaustive).
    need_fresh: bool,
    fresh: bool,
    /// Positions visited in this chunk, canonical, at the smallest depth seen; at most
    /// `seen_cap` of them (past that a position may be walked again: time, not memory).
    seen: HashMap<K, u8, ahash::RandomState>,
    seen_cap: usize,
    /// The positions from the frontier down to the current one (concrete).
    stack: Vec<K>,
    /// The best meeting (total moves, meeting position) and the path to it from the
    /// frontier; the walk stops at the first meeting within the limit.
    best: Option<(usize, K)>,
    chain: Vec<K>,
    hit: bool,
    pruned: Option<usize>,
    /// Whether a position with no move to spare makes only the moves from its full
    /// regions ([`Search::descend`]).
    skip: bool,
    looked: u64,
    /// The positions looked up at each depth below the frontier (1 to `k`), for the trace.
    per_depth: Vec<u64>,
    dropped: u64,
    /// The positions a trial's chunk may visit (looked up or dropped), and whether it
    /// stopped there.
    cap: u64,
    cut: bool,
}

/// What walking a frontier found: each chunk's walk, in order, and whether one of them met
/// a game within the limit.
struct Walked<K: Bits> {
    walks: Vec<Walk<K>>,
    hit: bool,
}

/// How many chunks a trial's block holds: fixed, so that the trial walks the same chunks and
/// finds the same game on any number of threads.
const TRIAL_BLOCK: usize = 64;

/// The chunks whose tables of positions seen share the memory left (as many as walk at
/// once, on up to this many threads): fixed, so that the figures do not depend on
/// `--threads` up to there.
const SEEN_SHARES: usize = 64;

/// The bytes a remembered position takes in a chunk's table (key, depth and the table's
/// slack), for a trial's memory.
const SEEN_BYTES: u64 = 48;

impl<K: Bits> Search<'_, K> {
    /// Walks the last `k` layers of side `i` depth first (see the module), and returns the best
    /// meeting with the other side as [`Search::probe`] does. The positions of the game found
    /// are stored, the rest not; the side's depth becomes its depth plus `k`.
    pub(super) fn dive(&mut self, i: usize, k: usize) -> Result<Option<(usize, K)>> {
        let seen_cap = self.seen_cap(i);
        self.order_frontier(i);
        let frontier = std::mem::take(&mut self.sides[i].frontier);
        // The frontier is walked block by block, the chunks of a block in parallel: the walk
        // stops after the first block with a game within the limit, and takes the game of
        // its first chunk that has one (later chunks of the block are skipped, earlier ones
        // finished), so that the game found does not depend on timing.
        let block = chunk_size(k) * 16 * rayon::current_num_threads();
        let walked = self.walk(i, k, &frontier, block, seen_cap, None);
        drop(frontier);
        self.settle(i, k, walked.walks)
    }

    /// A trial walk of side `i`'s last `k` layers (see the module): the frontier's first
    /// blocks of [`TRIAL_BLOCK`] chunks, until a block meets a game within the limit or
    /// `budget` positions have been visited (looked up or dropped by the bound). Returns the
    /// game, the search left as [`Search::dive`] leaves it; or `None`, the search untouched but
    /// for the order of the frontier ([`Search::order_frontier`]).
    pub(super) fn try_dive(
        &mut self,
        i: usize,
        k: usize,
        budget: u64,
    ) -> Result<Option<(usize, K)>> {
        // Each chunk of a block visits its share of the budget at most (the budget is
        // checked between blocks).
        let cap = budget / TRIAL_BLOCK as u64;
        let seen_cap = self.seen_cap(i);
        if cap == 0 || seen_cap == 0 {
            return Ok(None);
        }
        self.order_frontier(i);
        let frontier = std::mem::take(&mut self.sides[i].frontier);
        let block = chunk_size(k) * TRIAL_BLOCK;
        let walked = self.walk(i, k, &frontier, block, seen_cap, Some((budget, cap)));
        if !walked.hit {
            self.sides[i].frontier = frontier;
            return Ok(None);
        }
        drop(frontier);
        self.settle(i, k, walked.walks)
    }

    /// Walks `frontier` a block at a time (see [`Search::dive`]); a trial (`Some((budget,
    /// cap))`) stops after a block that met no game once its chunks have visited `budget`
    /// positions (a chunk that reaches its `cap` leaves the rest of its positions).
    fn walk(
        &self,
        i: usize,
        k: usize,
        frontier: &[K],
        block: usize,
        seen_cap: usize,
        trial: Option<(u64, u64)>,
    ) -> Walked<K> {
        let base = self.sides[i].depth;
        let need_fresh = self.pruned.is_none();
        // Moves that can only be dropped are not made once a position at the limit's next
        // bound has been dropped (what they would drop no longer changes the figures that
        // steer the search), forward, and in a whole walk (a trial's budget counts the
        // positions dropped, so its reach, and the game it meets, stay as they were).
        let skip = i == 0 && trial.is_none() && self.pruned == Some(self.limit + 1);
        let chunk = chunk_size(k);
        let cap = trial.map_or(u64::MAX, |t| t.1);
        let mut walks: Vec<Walk<K>> = Vec::new();
        let mut visited = 0u64;
        for (b, positions) in frontier.chunks(block).enumerate() {
            let first_hit = AtomicUsize::new(usize::MAX);
            let found: Vec<Walk<K>> = positions
                .par_chunks(chunk)
                .enumerate()
                .map(|(c, positions)| {
                    let mut w = Walk {
                        side: i,
                        base,
                        k,
                        need_fresh,
                        fresh: false,
                        seen: HashMap::with_hasher(ahash::RandomState::with_seeds(3, 1, 4, 1)),
                        seen_cap,
                        stack: Vec::with_capacity(k),
                        best: None,
                        chain: Vec::new(),
                        hit: false,
                        pruned: None,
                        skip,
                        looked: 0,
                        per_depth: vec![0; k],
                        dropped: 0,
                        cap,
                        cut: false,
                    };
                    if c > first_hit.load(Ordering::Relaxed) {
                        return w; // skipped: a chunk before it has a game
                    }
                    for &pos in positions {
                        self.descend(pos, base, self.estimate(i, pos), &mut w);
                        if w.hit {
                            first_hit.fetch_min(c, Ordering::Relaxed);
                            break;
                        }
                        if w.cut {
                            break;
                        }
                    }
                    w.seen = HashMap::default();
                    w
                })
                .collect();
            let hit = found.iter().any(|w| w.hit);
            visited += found.iter().map(|w| w.looked + w.dropped).sum::<u64>();
            walks.extend(found);
            if hit {
                if crate::observe::tracing() {
                    crate::observe::trace(&format!(
                        "walk: a game in block {} of {}",
                        b + 1,
                        frontier.len().div_ceil(block)
                    ));
                }
                return Walked { walks, hit };
            }
            if trial.is_none() && (b + 1).is_power_of_two() && crate::observe::tracing() {
                let mut per_depth = vec![0u64; k];
                for w in &walks {
                    for (t, n) in per_depth.iter_mut().zip(&w.per_depth) {
                        *t += n;
                    }
                }
                crate::observe::trace(&format!(
                    "walk of {k} layers: no game in {} of {} blocks ({visited} positions; \
                     looked up per layer below the frontier: {per_depth:?})",
                    b + 1,
                    frontier.len().div_ceil(block)
                ));
            }
            if trial.is_none() {
                use thousands::Separable;
                self.meter.message(format!(
                    "(bound {}: walking the last {k} layers depth first: {} of {} blocks, {} \
                     positions visited)",
                    self.limit,
                    (b + 1).separate_with_commas(),
                    frontier.len().div_ceil(block).separate_with_commas(),
                    visited.separate_with_commas()
                ));
            }
            if let Some((budget, _)) = trial
                && visited >= budget
            {
                if crate::observe::tracing() {
                    crate::observe::trace(&format!(
                        "trial walk of {k} layers: no game in {} of {} blocks ({visited} positions)",
                        b + 1,
                        frontier.len().div_ceil(block)
                    ));
                }
                break;
            }
        }
        Walked { walks, hit: false }
    }

    /// Puts side `i`'s frontier in the order it is walked: the positions whose bound leaves
    /// the most moves to spare first, then those with the fewest jumps left ([`Search::rank`]), ties in the order
    /// they had (the same on any number of threads, and after a resume: a frontier is
    /// stored sorted by word). On tri:9's search
    /// bounded at 16, walked from forward depth 10, the first game came after 17.6 million
    /// positions visited in this order, 88 million in the order of the words
    /// (docs/experiments.md).
    pub(super) fn order_frontier(&mut self, i: usize) {
        // A stable counting sort by rank: two bytes a position beside the frontier and
        // its copy, where sorting (rank, word) pairs took sixteen.
        let frontier = std::mem::take(&mut self.sides[i].frontier);
        let keys: Vec<u16> = frontier.par_iter().map(|&x| self.rank(i, x)).collect();
        let mut start = vec![0usize; 1 << 16];
        for &k in &keys {
            start[usize::from(k)] += 1;
        }
        let mut sum = 0;
        for s in start.iter_mut() {
            (*s, sum) = (sum, sum + *s);
        }
        let mut ordered = vec![K::zero(); frontier.len()];
        for (&x, &k) in frontier.iter().zip(&keys) {
            ordered[start[usize::from(k)]] = x;
            start[usize::from(k)] += 1;
        }
        self.sides[i].frontier = ordered;
    }

    /// A position's place in side `i`'s walk or beam: the most moves to spare under the
    /// bound first, then the fewest jumps left to make (forward the pegs, backward the
    /// empty holes).
    pub(super) fn rank(&self, i: usize, x: K) -> u16 {
        rank(self.estimate(i, x), self.jumps_left(i, x))
    }

    /// The jumps side `i` has still to make from `x`: forward its pegs, backward its empty
    /// holes (one more than the jumps, the same order).
    pub(super) fn jumps_left(&self, i: usize, x: K) -> u32 {
        let pegs = x.count_ones();
        if i == 0 {
            pegs
        } else {
            self.board.holes() as u32 - pegs
        }
    }

    /// How many positions a chunk's table may hold: the memory left beside the stored
    /// sides (frontiers included), shared by the chunks that walk at once.
    pub(super) fn seen_cap(&self, i: usize) -> usize {
        let left = self.max_bytes.saturating_sub(self.bytes_needed(i, 0));
        let shares = SEEN_SHARES.max(rayon::current_num_threads()) as u64;
        usize::try_from(left / (SEEN_BYTES * shares)).unwrap_or(usize::MAX)
    }

    /// Takes the walks' figures and best game into the search: the game's positions are
    /// stored, and side `i` is `k` layers deeper.
    fn settle(&mut self, i: usize, k: usize, walks: Vec<Walk<K>>) -> Result<Option<(usize, K)>> {
        let base = self.sides[i].depth;
        let (mut looked, mut dropped, mut fresh) = (0, 0, false);
        let mut best: Option<(usize, K)> = None;
        let mut chain = Vec::new();
        for w in walks {
            looked += w.looked;
            dropped += w.dropped;
            fresh |= w.fresh;
            if let Some(p) = w.pruned {
                self.pruned = Some(self.pruned.map_or(p, |q| q.min(p)));
            }
            if let Some(b) = w.best
                && best.is_none_or(|x| b < x)
            {
                best = Some(b);
                chain = w.chain;
                if b.0 <= self.limit {
                    break;
                }
            }
        }
        let side = &mut self.sides[i];
        for (d, &x) in chain.iter().enumerate() {
            let d = u8::try_from(base + 1 + d).map_err(|_| Error::input("more than 255 moves"))?;
            side.dist.insert_one(side.transforms.canonical(x), d);
        }
        side.depth = base + k;
        side.done = !fresh;
        side.previous = 0;
        self.probed = Some((i, base + k, looked, dropped));
        self.walked = k;
        Ok(best)
    }

    /// Walks the positions up to `w.k` moves beyond the frontier from `pos`, at `depth`,
    /// whose bound is `bound`.
    ///
    /// A forward position with no move to spare under the limit makes only the moves that
    /// start in its full regions (with `w.skip`): any other leaves the bound where it was
    /// ([`crate::geometry::regions::Bound::full_holes`]), so its position would be dropped.
    /// On tri:10's search bounded at 18, walked from forward depth 10, 461 million of the
    /// 475 million positions of the first block were dropped by the bound.
    fn descend(&self, pos: K, depth: usize, bound: usize, w: &mut Walk<K>) {
        let next_depth = depth + 1;
        // The skip rests on the regions' bound alone: a move from outside the full
        // regions may take a position to one move from a single peg.
        let tight = w.skip
            && depth + bound >= self.limit
            && depth + self.regions_part(w.side, pos, bound) >= self.limit;
        let mut starts = if tight {
            self.bound.full_holes(pos)
        } else {
            K::max_value()
        };
        // Into the last layer, while the backward side holds only the goals and the
        // positions one move before them, a child must be one move from a single peg.
        if w.skip
            && next_depth == w.base + w.k
            && self.sides[1].depth <= 1
            && let Some(last) = &self.last
        {
            starts = starts & last.movers(pos);
        }
        self.moves_from(w.side, pos, starts, &mut |next, _| {
            if w.hit || w.cut {
                return;
            }
            if let Some(bound) = self.visit(next, next_depth, w) {
                w.stack.push(next);
                if !w.hit && !w.cut && next_depth < w.base + w.k {
                    self.descend(next, next_depth, bound, &mut *w);
                }
                w.stack.pop();
            }
        });
    }

    /// Takes child `next` at `next_depth` into walk `w`: the bound, the side's stored
    /// positions and the chunk's table of positions seen decide whether it is walked on
    /// (its bound, when it is); a meeting within the limit ends the walk.
    fn visit(&self, next: K, next_depth: usize, w: &mut Walk<K>) -> Option<usize> {
        let i = w.side;
        let side = &self.sides[i];
        if w.looked + w.dropped >= w.cap {
            w.cut = true;
            return None;
        }
        // The bound first: most children are dropped by it, and only a kept child (or
        // a dropped one while the next bound still needs a fresh position) needs its
        // canonical form and a lookup. A stored position was reached (and met) at its
        // true, smaller distance.
        let bound = self.estimate(i, next);
        let f = next_depth + bound;
        if f > self.limit {
            if !(w.need_fresh && side.dist.contains(side.transforms.canonical(next))) {
                w.pruned = Some(w.pruned.map_or(f, |p| p.min(f)));
            }
            w.dropped += 1;
            return None;
        }
        let c = side.transforms.canonical(next);
        if side.dist.contains(c) {
            return None;
        }
        if next_depth == w.base + 1 {
            w.fresh = true;
        }
        let d = next_depth as u8;
        let room = w.seen.len() < w.seen_cap;
        match w.seen.get_mut(&c) {
            Some(s) if *s <= d => return None,
            Some(s) => *s = d,
            None if room => {
                w.seen.insert(c, d);
            }
            None => {}
        }
        w.looked += 1;
        w.per_depth[next_depth - w.base - 1] += 1;
        if let Some(m) = self.meeting(i, next_depth, next)
            && w.best.is_none_or(|b| m < b)
        {
            w.best = Some(m);
            w.chain = w.stack.clone();
            w.chain.push(next);
            if m.0 <= self.limit {
                w.hit = true;
            }
        }
        Some(bound)
    }
}

/// A position's place in a walk or a beam (smaller first) from its bound and the jumps
/// its side has still to make (see [`Search::rank`]).
pub(super) fn rank(bound: usize, left: u32) -> u16 {
    (bound.min(255) as u16) << 8 | left.min(255) as u16
}

/// The frontier positions a chunk walks, fewer the more layers it spans.
fn chunk_size(k: usize) -> usize {
    (256usize >> (2 * (k.min(4) - 2))).max(16)
}
