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
use super::work::WalkState;
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
    /// The positions dropped by the bound at each depth below the frontier.
    dropped_per_depth: Vec<u64>,
    dropped: u64,
    /// The positions a trial's chunk may visit (looked up or dropped), and whether it
    /// stopped there.
    cap: u64,
    cut: bool,
}

/// What walking a frontier found: the figures of the blocks that met no game within the
/// limit (with those of the walk kept, when it went on from one), and each chunk's walk of
/// the block that met one, in order, if one did.
struct Walked<K: Bits> {
    done: WalkState,
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
    ///
    /// With a work directory, how far the walk has gone is kept every
    /// minute (`PEGSOL_WALK_SAVE` seconds when set; see [`WalkState`]), and a run that finds a kept walk of the same
    /// side, depth and layers goes on from there: its game and figures are those of a walk
    /// run at once (the frontier is walked in the same order, and a block without a game
    /// leaves nothing but figures).
    pub(super) fn dive(&mut self, i: usize, k: usize) -> Result<Option<(usize, K)>> {
        let seen_cap = self.seen_cap(i);
        self.order_frontier(i);
        let frontier = std::mem::take(&mut self.sides[i].frontier);
        // The frontier is walked block by block, the chunks of a block in parallel: the walk
        // stops after the first block with a game within the limit, and takes the game of
        // its first chunk that has one (later chunks of the block are skipped, earlier ones
        // finished), so that the game found does not depend on timing.
        let block = chunk_size(k) * 16 * rayon::current_num_threads();
        let order = order_digest(&frontier);
        let kept = self.kept_walk(i, k);
        self.kept_walk = None;
        let kept = match kept {
            Some(w) if w.order == order => {
                use thousands::Separable;
                crate::observe::notice(&format!(
                    "pegsol: going on with the walk of the last {k} layers after {} of {} frontier positions",
                    w.walked.separate_with_commas(),
                    frontier.len().separate_with_commas()
                ));
                Some(w)
            }
            Some(_) => {
                crate::observe::notice(&format!(
                    "pegsol: the walk of the last {k} layers kept was in another order (another \
                     version of pegsol): it starts again"
                ));
                None
            }
            None => None,
        };
        let kept = kept.unwrap_or_else(|| WalkState::new(i, self.sides[i].depth, k, order));
        let walked = self.walk(i, k, &frontier, block, seen_cap, None, kept)?;
        drop(frontier);
        self.settle(i, k, walked)
    }

    /// The kept walk ([`Search::restore`]) if it is of side `i`'s last `k` layers from its
    /// frontier now.
    pub(super) fn kept_walk(&self, i: usize, k: usize) -> Option<WalkState> {
        self.kept_walk
            .clone()
            .filter(|w| w.side == i && w.depth == self.sides[i].depth && w.layers == k)
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
        let start = WalkState::new(i, self.sides[i].depth, k, 0);
        let walked = self.walk(i, k, &frontier, block, seen_cap, Some((budget, cap)), start)?;
        if !walked.hit {
            self.sides[i].frontier = frontier;
            return Ok(None);
        }
        drop(frontier);
        self.settle(i, k, walked)
    }

    /// Walks `frontier` a block at a time (see [`Search::dive`]), from where `done` left it;
    /// a trial (`Some((budget, cap))`) stops after a block that met no game once its
    /// chunks have visited `budget` positions (a chunk that reaches its `cap` leaves the rest
    /// of its positions).
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        i: usize,
        k: usize,
        frontier: &[K],
        block: usize,
        seen_cap: usize,
        trial: Option<(u64, u64)>,
        mut done: WalkState,
    ) -> Result<Walked<K>> {
        let base = self.sides[i].depth;
        let need_fresh = self.pruned.is_none();
        // Moves that can only be dropped are not made once a position at the limit's next
        // bound has been dropped (what they would drop no longer changes the figures that
        // steer the search), forward, and in a whole walk (a trial's budget counts the
        // positions dropped, so its reach, and the game it meets, stay as they were).
        let skip = i == 0 && trial.is_none() && self.pruned == Some(self.limit + 1);
        let chunk = chunk_size(k);
        let cap = trial.map_or(u64::MAX, |t| t.1);
        let from = usize::try_from(done.walked).map_or(frontier.len(), |w| w.min(frontier.len()));
        let blocks = frontier.len().div_ceil(block);
        let skipped = from / block;
        let save_every = save_every();
        let mut saved = std::time::Instant::now();
        for (b, positions) in frontier[from..].chunks(block).enumerate() {
            let b = b + skipped;
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
                        dropped_per_depth: vec![0; k],
                        dropped: 0,
                        cap,
                        cut: false,
                    };
                    if c > first_hit.load(Ordering::Relaxed) {
                        return w; // skipped: a chunk before it has a game
                    }
                    for &pos in positions {
                        let bound = if skip {
                            self.estimate_within(i, pos, self.limit - base)
                        } else {
                            self.estimate(i, pos)
                        };
                        self.descend(pos, base, bound, &mut w);
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
            if found.iter().any(|w| w.hit) {
                if crate::observe::tracing() {
                    crate::observe::trace(&format!("walk: a game in block {} of {blocks}", b + 1));
                }
                return Ok(Walked {
                    done,
                    walks: found,
                    hit: true,
                });
            }
            // Every meeting of a walk is within the limit (the walk ends where the other
            // side's depth makes up the limit), so a block without a game leaves only
            // figures.
            debug_assert!(found.iter().all(|w| w.best.is_none()));
            for w in &found {
                done.add(w);
            }
            done.walked += positions.len() as u64;
            let visited = done.looked + done.dropped;
            if trial.is_none() && (b + 1).is_power_of_two() && crate::observe::tracing() {
                crate::observe::trace(&format!(
                    "walk of {k} layers: no game in {} of {blocks} blocks ({visited} positions; \
                     looked up per layer below the frontier: {:?}, dropped: {:?})",
                    b + 1,
                    done.looked_per_depth,
                    done.dropped_per_depth
                ));
            }
            if trial.is_none() {
                use thousands::Separable;
                self.meter.message(format!(
                    "(bound {}: walking the last {k} layers depth first: {} of {} blocks, {} \
                     positions visited)",
                    self.limit,
                    (b + 1).separate_with_commas(),
                    blocks.separate_with_commas(),
                    visited.separate_with_commas()
                ));
                if let Some(work) = self.work
                    && saved.elapsed() >= save_every
                {
                    work.walked(&done)?;
                    saved = std::time::Instant::now();
                    // A run stopped here, for the tests of going on (`PEGSOL_WALK_STOP=n`:
                    // after n blocks walked by this run).
                    if stop_after().is_some_and(|n| b + 1 - skipped >= n) {
                        return Err(Error::Interrupted);
                    }
                }
            }
            if let Some((budget, _)) = trial
                && visited >= budget
            {
                if crate::observe::tracing() {
                    crate::observe::trace(&format!(
                        "trial walk of {k} layers: no game in {} of {blocks} blocks ({visited} positions)",
                        b + 1,
                    ));
                }
                break;
            }
        }
        Ok(Walked {
            done,
            walks: Vec::new(),
            hit: false,
        })
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

    /// Takes the walk's figures and best game into the search: the game's positions are
    /// stored, and side `i` is `k` layers deeper.
    fn settle(&mut self, i: usize, k: usize, walked: Walked<K>) -> Result<Option<(usize, K)>> {
        let base = self.sides[i].depth;
        let mut done = walked.done;
        let mut best: Option<(usize, K)> = None;
        let mut chain = Vec::new();
        for w in walked.walks {
            done.add(&w);
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
        if let Some(p) = done.pruned {
            self.pruned = Some(self.pruned.map_or(p, |q| q.min(p)));
        }
        let side = &mut self.sides[i];
        for (d, &x) in chain.iter().enumerate() {
            let d = u8::try_from(base + 1 + d).map_err(|_| Error::input("more than 255 moves"))?;
            side.dist.insert_one(side.transforms.canonical(x), d);
        }
        side.depth = base + k;
        side.done = !done.fresh;
        side.previous = 0;
        self.probed = Some((i, base + k, done.looked, done.dropped));
        self.walked = k;
        Ok(best)
    }

    /// Walks the positions up to `w.k` moves beyond the frontier from `pos`, at `depth`,
    /// whose bound is `bound` (its regions' part where `w.skip`).
    ///
    /// A forward position with no move to spare under the limit makes only the moves that
    /// start in its full regions (with `w.skip`): any other leaves the bound where it was
    /// ([`crate::geometry::regions::Bound::full_holes`]), so its position would be dropped.
    /// On tri:10's search bounded at 18, walked from forward depth 10, 461 million of the
    /// 475 million positions of the first block were dropped by the bound.
    fn descend(&self, pos: K, depth: usize, bound: usize, w: &mut Walk<K>) {
        let next_depth = depth + 1;
        // The skip rests on the regions' bound alone (a move from outside the full
        // regions may take a position to one move from a single peg), which is what
        // `bound` is where the skip is on ([`Search::estimate_within`]).
        let tight = w.skip && depth + bound >= self.limit;
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
        let bound = if w.skip {
            self.estimate_within(i, next, self.limit.saturating_sub(next_depth))
        } else {
            self.estimate(i, next)
        };
        let f = next_depth + bound;
        if f > self.limit {
            if !(w.need_fresh && side.dist.contains(side.transforms.canonical(next))) {
                w.pruned = Some(w.pruned.map_or(f, |p| p.min(f)));
            }
            w.dropped += 1;
            w.dropped_per_depth[next_depth - w.base - 1] += 1;
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

impl WalkState {
    /// A walk of side `side`'s last `layers` layers from its frontier at `depth` (in the
    /// order of CRC-32 `order`), not begun.
    fn new(side: usize, depth: usize, layers: usize, order: u32) -> Self {
        WalkState {
            side,
            depth,
            layers,
            order,
            looked_per_depth: vec![0; layers],
            dropped_per_depth: vec![0; layers],
            ..WalkState::default()
        }
    }

    /// Adds a chunk's figures.
    fn add<K: Bits>(&mut self, w: &Walk<K>) {
        self.looked += w.looked;
        self.dropped += w.dropped;
        self.fresh |= w.fresh;
        if let Some(p) = w.pruned {
            self.pruned = Some(self.pruned.map_or(p, |q| q.min(p)));
        }
        for (t, n) in self.looked_per_depth.iter_mut().zip(&w.per_depth) {
            *t += n;
        }
        for (t, n) in self.dropped_per_depth.iter_mut().zip(&w.dropped_per_depth) {
            *t += n;
        }
    }
}

/// A CRC-32 of a frontier in its order.
fn order_digest<K: Bits>(frontier: &[K]) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    let mut buf = Vec::with_capacity(16 * 4096);
    for part in frontier.chunks(4096) {
        buf.clear();
        for p in part {
            buf.extend_from_slice(&Bits::to_u128(*p).to_le_bytes());
        }
        crc.update(&buf);
    }
    crc.finalize()
}

/// Seconds between two keepings of a walk's progress in the work directory:
/// `PEGSOL_WALK_SAVE` (0: after every block), 60 unless set.
fn save_every() -> std::time::Duration {
    std::time::Duration::from_secs(
        std::env::var("PEGSOL_WALK_SAVE")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(60),
    )
}

/// `PEGSOL_WALK_STOP`: the blocks a walk kept in a work directory walks before the run
/// stops as if interrupted (for tests).
fn stop_after() -> Option<usize> {
    std::env::var("PEGSOL_WALK_STOP")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// The frontier positions a chunk walks, fewer the more layers it spans.
fn chunk_size(k: usize) -> usize {
    (256usize >> (2 * (k.min(4) - 2))).max(16)
}
