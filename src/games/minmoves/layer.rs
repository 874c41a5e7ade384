//! Growing a side by one layer: stored ([`Search::expand`]) or, for the last layer within
//! the limit, only probed against the other side ([`Search::probe`]); and the memory both
//! may take.

use super::search::Search;
use super::store::Store;
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// What a chunk of a probed layer found: its best meeting (total moves, position), whether it
/// had a new position, the smallest distance plus bound it pruned, and how many positions it
/// looked up and dropped.
type ChunkProbe<K> = (Option<(usize, K)>, bool, Option<usize>, u64, u64);

impl<K: Bits> Search<'_, K> {
    /// Expands side `i` by one layer; its frontier becomes the new positions.
    pub(super) fn expand(&mut self, i: usize) -> Result<()> {
        let frontier = std::mem::take(&mut self.sides[i].frontier);
        let side = &self.sides[i];
        let depth = side.depth + 1;
        // The new positions are weighed as they are found, not only once all are: a layer
        // can pass the limit before a check after it (tri:8's depth 9: docs/experiments.md,
        // "Figures that were in code comments"). A chunk that finds the room gone stops
        // the others.
        let room = self.max_bytes.saturating_sub(self.bytes_needed(i, 0));
        let taken = AtomicU64::new(0);
        let full = AtomicBool::new(false);
        let found: Vec<(Vec<K>, Option<usize>, u64)> = frontier
            .par_chunks(1024)
            .map(|chunk| {
                let mut out = Vec::new();
                let mut pruned: Option<usize> = None;
                let mut dropped = 0u64;
                if full.load(Ordering::Relaxed) {
                    return (out, pruned, dropped);
                }
                for &pos in chunk {
                    self.moves(i, pos, &mut |next, _| {
                        let c = side.transforms.canonical(next);
                        if side.dist.contains(c) {
                            return;
                        }
                        let f = depth + self.estimate(i, c);
                        if f > self.limit {
                            pruned = Some(pruned.map_or(f, |p| p.min(f)));
                            dropped += 1;
                        } else {
                            out.push(c);
                        }
                    });
                }
                out.sort_unstable();
                out.dedup();
                out.shrink_to_fit();
                // As `bytes_needed` weighs them.
                let bytes = (out.len() * 3 * std::mem::size_of::<K>()) as u64;
                if taken.fetch_add(bytes, Ordering::Relaxed) + bytes > room {
                    full.store(true, Ordering::Relaxed);
                }
                (out, pruned, dropped)
            })
            .collect();
        let frontier_len = frontier.len();
        drop(frontier);
        let new_total: usize = found.iter().map(|(v, _, _)| v.len()).sum();
        let dropped: u64 = found.iter().map(|(_, _, n)| n).sum();
        if full.load(Ordering::Relaxed) {
            return Err(self.memory_error(depth, self.bytes_needed(i, new_total), new_total));
        }
        self.check_memory(i, depth, new_total)?;
        let side = &mut self.sides[i];
        let d = u8::try_from(depth).map_err(|_| Error::input("more than 255 moves"))?;
        // The new positions sorted are the next frontier, and are merged into the side's
        // store. Each chunk's positions are freed as they are copied, so that the layer is
        // held about once (a copy of it all beside the chunks took tri:8's peak memory).
        let mut fresh: Vec<K> = Vec::with_capacity(new_total);
        for (v, p, _) in found {
            if let Some(p) = p {
                self.pruned = Some(self.pruned.map_or(p, |q| q.min(p)));
            }
            fresh.extend_from_slice(&v);
        }
        fresh.par_sort_unstable();
        fresh.dedup();
        fresh.shrink_to_fit();
        side.dist.add(&fresh, d);
        side.depth = depth;
        side.done = fresh.is_empty();
        side.previous = frontier_len;
        side.layers.push((fresh.len(), dropped));
        side.frontier = fresh;
        Ok(())
    }

    /// The last layer of side `i` before the depths reach the limit, probed instead of
    /// stored: every new position (not stored, not pruned) is looked up in the other side.
    /// Returns the best meeting, as [`Search::meet`] does, and whether any new position
    /// was found. A meeting position is stored (for the path); the rest of the layer is not,
    /// which spares the memory of the largest layer.
    pub(super) fn probe(&mut self, i: usize) -> Result<Option<(usize, K)>> {
        let frontier = std::mem::take(&mut self.sides[i].frontier);
        let side = &self.sides[i];
        let depth = side.depth + 1;
        // The first chunk holding a game of `limit` moves (the fewest): later chunks are
        // skipped, earlier ones finished, so that the game found does not depend on timing.
        let first_hit = AtomicUsize::new(usize::MAX);
        // After any pruning the search cannot be exhaustive: whether the layer holds new
        // positions no longer matters.
        let need_fresh = self.pruned.is_none();
        let found: Vec<ChunkProbe<K>> = frontier
            .par_chunks(1024)
            .enumerate()
            .map(|(k, chunk)| {
                let mut best: Option<(usize, K)> = None;
                let mut fresh = false;
                let mut pruned: Option<usize> = None;
                let (mut looked, mut dropped) = (0u64, 0u64);
                if k > first_hit.load(Ordering::Relaxed) {
                    return (best, true, pruned, looked, dropped);
                }
                for &pos in chunk {
                    self.moves(i, pos, &mut |next, _| {
                        // The bound and the meeting take any image of a position; the
                        // (costly) look-up in this side's table is needed only to tell
                        // whether the search is exhaustive. A stored position looked up
                        // again meets the other side one move later than it did when stored:
                        // never within the limit, since no game is shorter than the limit.
                        let stored = |x: K| side.dist.contains(side.transforms.canonical(x));
                        let f = depth + self.estimate(i, next);
                        if f > self.limit {
                            if !(need_fresh && stored(next)) {
                                pruned = Some(pruned.map_or(f, |p| p.min(f)));
                            }
                            dropped += 1;
                            return;
                        }
                        looked += 1;
                        if need_fresh && !fresh && !stored(next) {
                            fresh = true;
                        }
                        if let Some(m) = self.meeting(i, depth, next)
                            && best.is_none_or(|b| m < b)
                        {
                            best = Some(m);
                        }
                    });
                }
                if best.is_some_and(|(t, _)| t <= self.limit) {
                    first_hit.fetch_min(k, Ordering::Relaxed);
                }
                (best, fresh, pruned, looked, dropped)
            })
            .collect();
        drop(frontier);
        let mut best: Option<(usize, K)> = None;
        let mut fresh = false;
        let (mut looked, mut dropped) = (0, 0);
        for (b, f, p, l, n) in found {
            looked += l;
            dropped += n;
            if let Some(p) = p {
                self.pruned = Some(self.pruned.map_or(p, |q| q.min(p)));
            }
            fresh |= f;
            if let Some(b) = b
                && best.is_none_or(|x| b < x)
            {
                best = Some(b);
                if b.0 <= self.limit {
                    // The first chunk with a game of the fewest moves.
                    break;
                }
            }
        }
        let d = u8::try_from(depth).map_err(|_| Error::input("more than 255 moves"))?;
        let side = &mut self.sides[i];
        if let Some((_, x)) = best {
            side.dist.insert_one(side.transforms.canonical(x), d);
        }
        side.depth = depth;
        side.done = !fresh;
        side.previous = 0;
        self.probed = Some((i, depth, looked, dropped));
        Ok(best)
    }

    /// Stops before inserting `new` positions into side `i` if the tables, grown to hold
    /// them, and the frontier vectors would pass the memory limit.
    pub(super) fn check_memory(&self, i: usize, depth: usize, new: usize) -> Result<()> {
        let bytes = self.bytes_needed(i, new);
        if bytes > self.max_bytes {
            return Err(self.memory_error(depth, bytes, new));
        }
        Ok(())
    }

    /// The memory limit's error at `depth`, the search needing `bytes` for `new` positions
    /// (at least: a search stopped early has not found them all).
    pub(super) fn memory_error(&self, depth: usize, bytes: u64, new: usize) -> Error {
        let (need, limit) = crate::memory::human_apart(bytes, self.max_bytes);
        Error::memory_limit(
            self.board.name(),
            "the fewest-moves search needs",
            &limit,
            &format!(
                "; {need} at depth {depth}: {} positions stored, {new} new at least",
                self.sides.iter().map(|s| s.dist.len()).sum::<usize>(),
            ),
        )
    }

    /// The bytes the tables and frontiers need once side `i` holds `new` more positions.
    pub(super) fn bytes_needed(&self, i: usize, new: usize) -> u64 {
        // A store holds a word a position and its index (grown in place); the old
        // frontier; the new positions, sorted (the next frontier) and as the words merged
        // into the store.
        let mut bytes = 0u64;
        for (k, s) in self.sides.iter().enumerate() {
            let len = s.dist.len() + if k == i { new } else { 0 };
            bytes += Store::<K>::bytes_for(len);
            bytes += (s.frontier.len() as u64) * std::mem::size_of::<K>() as u64;
        }
        bytes + 2 * new as u64 * std::mem::size_of::<K>() as u64
    }
}
