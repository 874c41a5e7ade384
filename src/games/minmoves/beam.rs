//! A beam before the walk ([`Search::beam`]): the rest of the limit searched a layer at a
//! time from the frontier's most promising positions only, in case a game is found there.
//!
//! Each layer keeps, for each bound (so each number of moves to spare), the `width`
//! positions with the fewest jumps left, then the smallest word (a total order, so that the
//! beam is the same on any number of threads), and looks every child within the limit up
//! in the other side. A game found there is within the limit, and the searches before
//! proved that none has fewer moves, so it is the answer; a beam that meets nothing proves
//! nothing and changes nothing. With `PEGSOL_ROLLOUT=1` the best `2 * width` of each bound
//! are scored first by a greedy game to the limit ([`Search::rollout`]), fewest jumps left
//! at its end first; the greedy game looks every child up in the other side, and a meeting
//! within the limit there is a game too.
//!
//! A width per bound, not for all: on tri:10's search bounded at 18, forward depth 10 holds
//! 715,770 positions with a move to spare and 78,038,480 without; a beam narrower than the
//! first group would never hold a position of the second, where every game from a start
//! with no move to spare lies.
//!
//! Measured on tri:9's search bounded at 16, from forward depth 10 (45,615,364 positions,
//! 5 moves left): a beam of width 2^16 meets a game in about 10 s, where the walk in the
//! order of the words visited 88 million positions first. On tri:10's bounded at 18, from
//! forward depth 10 (78,754,250 positions, 7 moves left), beams of 10^5, 10^6 and 10^7
//! met none, nor did beams of 2^16 a bound, with or without rollouts (docs/experiments.md).

use super::search::Search;
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use rayon::prelude::*;

/// One position of a beam's layer: its [`key`] and canonical word, the concrete position and
/// the index of its parent in the layer before.
type Node<K> = ((u32, K), K, u32);

/// A meeting within the limit (total moves, meeting position), the index of the parent and
/// the child that met.
type Met<K> = ((usize, K), u32, K);

/// A greedy game's meeting (total moves, meeting position) and its positions up to it.
type Rolled<K> = ((usize, K), Vec<K>);

/// A parent's children kept, the children the bound dropped, and its best meeting.
type Children<K> = (Vec<Node<K>>, u64, Option<Met<K>>);

/// The widest beam tried before a walk by default: 2^20 (on tri:10's search bounded at 18,
/// from forward depth 10 with 7 moves left, a beam of 10^6 took about 3 minutes on 2 cores
/// and one of 10^7 about 50; neither met a game).
const MAX_WIDTH: usize = 1 << 20;

/// A greedy game's move is the child with the fewest of (jumps left + `GREEDY_BOUND` times
/// its bound). Measured on tri:9's search bounded at 16 from forward depth 8 (7 layers
/// left, as on tri:10 from depth 10): by the jumps left alone the narrowest beam with
/// rollouts that met a game was 24,576 wide; with 4, 8, 16 or 100 here, 6,144 (1 or 2:
/// none up to 16,384). A move that keeps the bound low keeps the moves to spare.
const GREEDY_BOUND: u32 = 4;

/// The parents of a beam's layer expanded at once.
const BEAM_SLICE: usize = 1 << 14;

/// A beam's key for a position: its bound (high 16 bits), its rollout's jumps left
/// (middle byte, 0 before a rollout) and its own jumps left (low byte).
fn key(bound: usize, rolled: u32, left: u32) -> u32 {
    (bound.min(0xffff) as u32) << 16 | rolled.min(255) << 8 | left.min(255)
}

/// Keeps one node of each position (its first parent) and the first `width` of each
/// bound by key ([`per_bound`]).
fn cut<K: Bits>(kids: &mut Vec<Node<K>>, width: usize) {
    kids.par_sort_unstable_by_key(|n| (n.0.1, n.2));
    kids.dedup_by_key(|n| n.0.1);
    kids.par_sort_unstable_by_key(|n| n.0);
    per_bound(kids, width, |n| n.0.0);
    kids.shrink_to(2 * width);
}

/// Keeps, of `v` sorted by [`key`] (the bound in the high bits), the first `width` of each
/// bound. A beam that kept the best `width` of all would, where the
/// positions with a move to spare outnumber it, never look at one without: a game whose
/// start leaves no move to spare under the bound (or that spends its spare move early)
/// would never be in the beam.
fn per_bound<T>(v: &mut Vec<T>, width: usize, rank: impl Fn(&T) -> u32) {
    let mut group = None;
    let mut n = 0usize;
    v.retain(|x| {
        let g = rank(x) >> 16;
        if group != Some(g) {
            group = Some(g);
            n = 0;
        }
        n += 1;
        n <= width
    });
}

/// Of nodes sorted by [`key`], each bound's count and its first node's key, for traces.
fn by_bound<K>(nodes: &[Node<K>]) -> Vec<(u32, usize, u32)> {
    let mut groups: Vec<(u32, usize, u32)> = Vec::new();
    for n in nodes {
        match groups.last_mut() {
            Some((g, c, _)) if *g == n.0.0 >> 16 => *c += 1,
            _ => groups.push((n.0.0 >> 16, 1, n.0.0)),
        }
    }
    groups
}

/// The positions from the beam's first layer after the frontier to the one whose parent is
/// `p` in the last of `levels`, followed by `tail`.
fn chain<K: Bits>(levels: &[Vec<(K, u32)>], mut p: u32, tail: Vec<K>) -> Vec<K> {
    let mut back = Vec::new();
    for level in levels[1..].iter().rev() {
        back.push(level[p as usize].0);
        p = level[p as usize].1;
    }
    back.reverse();
    back.extend(tail);
    back
}

impl<K: Bits> Search<'_, K> {
    /// Keeps the best `width` nodes of each bound ([`cut`]); with `rolls`, the best
    /// `2 * width` of each bound by [`key`] are scored by their rollouts
    /// ([`Search::rollout`], positions at `depth`) first. Returns the first meeting a
    /// rollout made, in the layer's order (the same on any number of threads), with the
    /// node it rolled from (as [`Met`]) and the rollout's positions; the nodes are then
    /// left uncut.
    fn best_of(
        &self,
        i: usize,
        depth: usize,
        kids: &mut Vec<Node<K>>,
        width: usize,
        rolls: bool,
    ) -> Option<(Met<K>, Vec<K>)> {
        let mut met = None;
        if rolls {
            cut(kids, 2 * width);
            let found: Vec<Option<(Met<K>, Vec<K>)>> = kids
                .par_iter_mut()
                .map(|n| {
                    let (left, game) = self.rollout(i, depth, n.1);
                    n.0.0 |= left.min(255) << 8;
                    game.map(|(m, path)| ((m, n.2, n.1), path))
                })
                .collect();
            met = found.into_iter().flatten().next();
        }
        if met.is_none() {
            cut(kids, width);
        }
        met
    }

    /// A greedy game from `pos` (at `depth`) to the limit: each move the child within the
    /// bound with the fewest jumps left plus [`GREEDY_BOUND`] times its bound (then the
    /// smallest bound, then the smallest word), every child looked up in the other side.
    /// Returns the jumps left at its end, and the first meeting within the limit with the
    /// positions after `pos` up to it. A game of the fewest moves is a run of long moves
    /// within the bound; the greedy game tells how many jumps a position's pegs still let
    /// the moves make, and the lookups make it a probe of the whole rest of the limit.
    fn rollout(&self, i: usize, depth: usize, pos: K) -> (u32, Option<Rolled<K>>) {
        let left = |x: K| self.jumps_left(i, x);
        let side = &self.sides[i];
        let (mut pos, mut d) = (pos, depth);
        let mut path = Vec::new();
        while d < self.limit {
            let mut best: Option<(u32, usize, K)> = None;
            let mut met: Option<((usize, K), K)> = None;
            self.moves(i, pos, &mut |next, _| {
                let est = self.estimate(i, next);
                if d + 1 + est > self.limit || side.dist.contains(side.transforms.canonical(next)) {
                    return;
                }
                if let Some(m) = self.meeting(i, d + 1, next)
                    && m.0 <= self.limit
                    && met.is_none_or(|b| (m, next) < b)
                {
                    met = Some((m, next));
                }
                let k = (left(next) + GREEDY_BOUND * est as u32, est, next);
                if best.is_none_or(|b| k < b) {
                    best = Some(k);
                }
            });
            if let Some((m, next)) = met {
                path.push(next);
                return (0, Some((m, path)));
            }
            match best {
                Some((_, _, next)) => {
                    (pos, d) = (next, d + 1);
                    path.push(next);
                }
                None => break,
            }
        }
        (left(pos), None)
    }

    /// Searches side `i`'s last `k` layers through the `width` most promising positions of
    /// each (see the module). Returns the game found, the search left as [`Search::dive`]
    /// leaves it; or `None`, the search untouched.
    pub(super) fn beam(&mut self, i: usize, k: usize, width: usize) -> Result<Option<(usize, K)>> {
        let base = self.sides[i].depth;
        let rolls = super::search::rollout_setting();
        // The frontier's best `width`, a slice at a time (no more than twice the width kept).
        let mut first: Vec<Node<K>> = Vec::new();
        // The frontier's positions of each bound, for the trace.
        let mut all: std::collections::BTreeMap<u32, u64> = Default::default();
        for slice in self.sides[i].frontier.chunks(BEAM_SLICE * 16) {
            let at = first.len();
            first.par_extend(slice.par_iter().map(|&x| {
                let est = self.estimate(i, x);
                ((key(est, 0, self.jumps_left(i, x)), x), x, u32::MAX)
            }));
            if crate::observe::tracing() {
                for x in &first[at..] {
                    *all.entry(x.0.0 >> 16).or_default() += 1;
                }
            }
            if first.len() > 8 * width {
                cut(&mut first, 2 * width);
            }
        }
        if let Some(((m, _, _), path)) = self.best_of(i, base, &mut first, width, rolls) {
            self.take_beam(i, &path, (0, 0), width, "a greedy game met")?;
            return Ok(Some(m));
        }
        if crate::observe::tracing() {
            let groups: Vec<(u32, usize)> = by_bound(&first)
                .into_iter()
                .map(|(g, c, _)| (g, c))
                .collect();
            crate::observe::trace(&format!(
                "beam of width {width} from depth {base}: (bound, positions) {groups:?} of \
                 the frontier's {all:?}"
            ));
        }
        let mut levels: Vec<Vec<(K, u32)>> =
            vec![first.into_iter().map(|(_, x, p)| (x, p)).collect()];
        let (mut looked, mut dropped) = (0u64, 0u64);
        for d in 1..=k {
            let depth = base + d;
            let layer = levels.last().expect("a layer");
            // Every child within the limit, not stored, with its meeting if any; the layer's
            // parents a slice at a time, the children kept no more than twice the width.
            let mut kids: Vec<Node<K>> = Vec::new();
            let mut met: Option<Met<K>> = None;
            for (s, slice) in layer.chunks(BEAM_SLICE).enumerate() {
                let found: Vec<Children<K>> = slice
                    .par_iter()
                    .enumerate()
                    .map(|(p, &(pos, _))| {
                        self.beam_children(i, depth, pos, (s * BEAM_SLICE + p) as u32)
                    })
                    .collect();
                looked += found.iter().map(|f| f.0.len() as u64).sum::<u64>();
                dropped += found.iter().map(|f| f.1).sum::<u64>();
                // The first parent's best meeting: the same on any number of threads.
                met = found.iter().find_map(|f| f.2);
                if met.is_some() || d == k {
                    if met.is_some() {
                        break;
                    }
                    continue;
                }
                kids.extend(found.into_iter().flat_map(|f| f.0));
                if kids.len() > 8 * width {
                    cut(&mut kids, 2 * width);
                }
            }
            if let Some((m, p, next)) = met {
                let chain = chain(&levels, p, vec![next]);
                self.take_beam(i, &chain, (looked, dropped), width, "a beam's layer met")?;
                return Ok(Some(m));
            }
            if d == k {
                break;
            }
            if let Some(((m, p, pos), mut path)) = self.best_of(i, depth, &mut kids, width, rolls) {
                path.insert(0, pos);
                let chain = chain(&levels, p, path);
                self.take_beam(i, &chain, (looked, dropped), width, "a greedy game met")?;
                return Ok(Some(m));
            }
            if crate::observe::tracing() {
                let firsts: Vec<(u32, (u32, u32))> = by_bound(&kids)
                    .into_iter()
                    .map(|(g, _, k)| (g, ((k >> 8) & 255, k & 255)))
                    .collect();
                crate::observe::trace(&format!(
                    "beam depth {depth}: {} kept; best per bound (bound, (pegs left after its \
                     greedy game, pegs left); backward: empty holes): {firsts:?}",
                    kids.len()
                ));
            }
            levels.push(kids.into_iter().map(|(_, x, p)| (x, p)).collect());
        }
        if crate::observe::tracing() {
            crate::observe::trace(&format!(
                "beam of width {width} over {k} layers: no game ({looked} positions looked up, \
                 {dropped} dropped by the bound)"
            ));
        }
        Ok(None)
    }

    /// The children of `pos` (at `depth - 1`, index `p` in its layer) within the limit and
    /// not stored, the positions the bound dropped, and the best meeting within the limit.
    fn beam_children(&self, i: usize, depth: usize, pos: K, p: u32) -> Children<K> {
        let side = &self.sides[i];
        let mut kids = Vec::new();
        let mut drop = 0u64;
        let mut met: Option<Met<K>> = None;
        self.moves(i, pos, &mut |next, _| {
            let est = self.estimate(i, next);
            if depth + est > self.limit {
                drop += 1;
                return;
            }
            let c = side.transforms.canonical(next);
            if side.dist.contains(c) {
                return;
            }
            if let Some(m) = self.meeting(i, depth, next)
                && m.0 <= self.limit
                && met.is_none_or(|b| (m, next) < (b.0, b.2))
            {
                met = Some((m, p, next));
            }
            kids.push(((key(est, 0, self.jumps_left(i, next)), c), next, p));
        });
        (kids, drop, met)
    }

    /// The widths of the beams tried before side `i`'s last `k` layers are walked: 2^16,
    /// then four times wider each, up to [`MAX_WIDTH`] and half the memory left beside the
    /// stored sides; or the one width `PEGSOL_BEAM` sets (0: none).
    pub(super) fn beam_widths(&self, i: usize, k: usize) -> Vec<usize> {
        let left = self.max_bytes.saturating_sub(self.bytes_needed(i, 0)) / 2;
        // A layer kept (position and parent), and the children kept between two cuts, for
        // two bounds (a bound with a move to spare and one without).
        let per = (2 * k * (size_of::<K>() + 4) + 8 * size_of::<Node<K>>()) as u64;
        let most = usize::try_from(left / per)
            .unwrap_or(usize::MAX)
            .min(MAX_WIDTH);
        match super::search::beam_setting() {
            Some(w) => [w].into_iter().filter(|&w| w > 0).collect(),
            None => std::iter::successors(Some(1usize << 16), |w| Some(w * 4))
                .take_while(|&w| w <= most)
                .collect(),
        }
    }

    /// Stores the positions of a game the beam of `width` found (`chain`, one move apart
    /// from the frontier on; `how`: a layer or a greedy game met it), and its figures.
    fn take_beam(
        &mut self,
        i: usize,
        chain: &[K],
        (looked, dropped): (u64, u64),
        width: usize,
        how: &str,
    ) -> Result<()> {
        let base = self.sides[i].depth;
        if crate::observe::tracing() {
            crate::observe::trace(&format!(
                "beam of width {width}: {how} the other side {} moves after depth {base}",
                chain.len()
            ));
        }
        self.beamed = Some(width);
        let side = &mut self.sides[i];
        for (d, &x) in chain.iter().enumerate() {
            let d = u8::try_from(base + 1 + d).map_err(|_| Error::input("more than 255 moves"))?;
            side.dist.insert_one(side.transforms.canonical(x), d);
        }
        side.depth = base + chain.len();
        side.previous = 0;
        self.probed = Some((i, base + chain.len(), looked, dropped));
        self.walked = chain.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{key, per_bound};

    #[test]
    fn a_beam_keeps_its_width_of_each_bound() {
        let mut v = vec![
            key(3, 0, 5),
            key(3, 0, 6),
            key(3, 0, 9),
            key(4, 0, 1),
            key(4, 0, 2),
            key(4, 0, 7),
            key(6, 0, 0),
        ];
        v.sort_unstable();
        per_bound(&mut v, 2, |&k| k);
        assert_eq!(
            v,
            [
                key(3, 0, 5),
                key(3, 0, 6),
                key(4, 0, 1),
                key(4, 0, 2),
                key(6, 0, 0)
            ]
        );
        // The rollout's jumps left come before the position's own.
        assert!(key(4, 1, 30) < key(4, 2, 3));
        assert!(key(4, 9, 0) < key(5, 0, 0));
    }
}
