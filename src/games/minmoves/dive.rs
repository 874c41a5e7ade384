//! The last layers within the limit walked depth first instead of stored
//! ([`Search::dive`]): a layer too large to store is never built, and in the search that finds
//! the fewest moves the walk stops at its first game.
//!
//! Every position `k` moves or fewer beyond a side's frontier is visited by a depth-first walk
//! from each frontier position, pruned by the bound as the layers are, and looked up in the
//! other side. A chunk of frontier positions remembers the positions it has visited (at their
//! smallest depth), so that the many orders of the same moves are walked once a chunk; across
//! chunks a position may be walked again, which costs time but not memory.

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
    /// Positions visited in this chunk, canonical, at the smallest depth seen.
    seen: HashMap<K, u8, ahash::RandomState>,
    /// The positions from the frontier down to the current one (concrete).
    stack: Vec<K>,
    /// The best meeting (total moves, meeting position) and the path to it from the
    /// frontier; the walk stops at the first meeting within the limit.
    best: Option<(usize, K)>,
    chain: Vec<K>,
    hit: bool,
    pruned: Option<usize>,
    looked: u64,
    dropped: u64,
}

impl<K: Bits> Search<'_, K> {
    /// Walks the last `k` layers of side `i` depth first (see the module), and returns the best
    /// meeting with the other side as [`Search::probe`] does. The positions of the game found
    /// are stored, the rest not; the side's depth becomes its depth plus `k`.
    pub(super) fn dive(&mut self, i: usize, k: usize) -> Result<Option<(usize, K)>> {
        let frontier = std::mem::take(&mut self.sides[i].frontier);
        let base = self.sides[i].depth;
        let need_fresh = self.pruned.is_none();
        // The frontier is walked block by block, the chunks of a block in parallel: the walk
        // stops after the first block with a game within the limit, and takes the game of
        // its first chunk that has one (later chunks of the block are skipped, earlier ones
        // finished), so that the game found does not depend on timing.
        let chunk = (256usize >> (2 * (k.min(4) - 2))).max(16);
        let block = chunk * 16 * rayon::current_num_threads();
        let mut walks: Vec<Walk<K>> = Vec::new();
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
                        stack: Vec::with_capacity(k),
                        best: None,
                        chain: Vec::new(),
                        hit: false,
                        pruned: None,
                        looked: 0,
                        dropped: 0,
                    };
                    if c > first_hit.load(Ordering::Relaxed) {
                        return w; // skipped: a chunk before it has a game
                    }
                    for &pos in positions {
                        self.descend(pos, base, &mut w);
                        if w.hit {
                            first_hit.fetch_min(c, Ordering::Relaxed);
                            break;
                        }
                    }
                    w.seen = HashMap::default();
                    w
                })
                .collect();
            let hit = found.iter().any(|w| w.hit);
            walks.extend(found);
            if hit {
                if crate::observe::tracing() {
                    crate::observe::trace(&format!(
                        "walk: a game in block {} of {}",
                        b + 1,
                        frontier.len().div_ceil(block)
                    ));
                }
                break;
            }
        }
        drop(frontier);
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

    /// Walks the positions up to `w.k` moves beyond the frontier from `pos`, at `depth`.
    fn descend(&self, pos: K, depth: usize, w: &mut Walk<K>) {
        let i = w.side;
        let side = &self.sides[i];
        let next_depth = depth + 1;
        self.moves(i, pos, &mut |next, _| {
            if w.hit {
                return;
            }
            // The bound first: most children are dropped by it, and only a kept child (or
            // a dropped one while the next bound still needs a fresh position) needs its
            // canonical form and a lookup. A stored position was reached (and met) at its
            // true, smaller distance.
            let f = next_depth + self.estimate(i, next);
            if f > self.limit {
                if !(w.need_fresh && side.dist.contains(side.transforms.canonical(next))) {
                    w.pruned = Some(w.pruned.map_or(f, |p| p.min(f)));
                }
                w.dropped += 1;
                return;
            }
            let c = side.transforms.canonical(next);
            if side.dist.contains(c) {
                return;
            }
            if next_depth == w.base + 1 {
                w.fresh = true;
            }
            let d = next_depth as u8;
            if w.seen.get(&c).is_some_and(|&s| s <= d) {
                return;
            }
            w.seen.insert(c, d);
            w.looked += 1;
            w.stack.push(next);
            if let Some(m) = self.meeting(i, next_depth, next)
                && w.best.is_none_or(|b| m < b)
            {
                w.best = Some(m);
                w.chain = w.stack.clone();
                if m.0 <= self.limit {
                    w.hit = true;
                }
            }
            if !w.hit && next_depth < w.base + w.k {
                self.descend(next, next_depth, &mut *w);
            }
            w.stack.pop();
        });
    }
}
