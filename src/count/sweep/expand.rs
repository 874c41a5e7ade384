//! The sweep of one board ([`Sweep`]) and its hot core: the expansion of one orbit
//! representative into its children in named steps (its stabiliser, the pair-orbit merge,
//! the push of children or of the random player's shares; the tally of the position is in
//! `tally.rs`), and the positions up to the whole group.

use super::SHARDS;
use super::Weight;
use super::lanes::{Codec, Key, Lane};
use super::shard::{Out, Shard, split};
use super::tally::LayerAcc;
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Pegs};
use crate::geometry::moves::{MAX_GROUP, MoveTable};
use crate::total::Total;
use rayon::prelude::*;
use std::ops::Range;

/// `x` with lane `k` moved to lane `to[k]`.
#[inline]
pub(super) fn permute<T: Copy + Default, const N: usize>(x: &[T; N], to: &[usize; N]) -> [T; N] {
    let mut out = [T::default(); N];
    for k in 0..N {
        out[to[k]] = x[k];
    }
    out
}

/// The symmetries of `H` that fix `pos`, of images `img` under `H`: their numbers, in the
/// first of the returned slots, and how many there are.
#[inline(always)]
fn stabiliser<K: Bits>(pos: K, img: &[K]) -> ([usize; MAX_GROUP], usize) {
    let mut stab = [0usize; MAX_GROUP];
    let mut fixed = 0;
    for (i, &x) in img.iter().enumerate() {
        if x == pos {
            stab[fixed] = i;
            fixed += 1;
        }
    }
    (stab, fixed)
}

/// A pair-orbit merge ([`Sweep::merge_pair_orbits`]): per start, its pair orbit's count,
/// and the counts the children carry, as lanes and high parts.
pub(super) type Merged<L, const N: usize> = ([Total; N], [L; N], Option<[Total; N]>);

/// The sweep of one board from up to `N` starts, with bitboards of type `K`.
pub(super) struct Sweep<'a, K: Bits, const N: usize> {
    pub(super) board: &'a Board,
    pub(super) starts: Vec<K>,
    /// Jumps and symmetries; canonical forms under `H`, the symmetries that map the set of
    /// starts onto itself, then `K` ([`Sweep::reduced_counts`]).
    pub(super) moves: MoveTable<K>,
    /// For each element `i` of `H` and start `k`: `fwd[i][k]` is the start that symmetry
    /// `i` sends start `k` to, `inv[i][k]` the one it sends to start `k`. Lanes past the
    /// last start map to themselves.
    pub(super) fwd: Vec<[usize; N]>,
    pub(super) inv: Vec<[usize; N]>,
    /// What travels along the jumps: counts, or the random player's masses.
    pub(super) weight: Weight,
}

impl<'a, K: Bits, const N: usize> Sweep<'a, K, N> {
    /// The most entries a layer after one of `entries` can hold: each is a child of an
    /// entry by one of the board's jumps. Caps the guesses of the next layer's size, which
    /// a checkpoint's statistics feed.
    pub(super) fn most_children(&self, entries: u64) -> u64 {
        entries.saturating_mul(self.board.jumps().len() as u64)
    }

    pub(super) fn new(board: &'a Board, starts: &[Pegs]) -> Self {
        // `K`: the symmetries that keep the starts' position class, when they share one (the
        // whole group otherwise); see [`Sweep::reduced_counts`].
        let one_class = starts.iter().all(|&x| board.same_class(x, starts[0]));
        let moves = MoveTable::nested(
            board,
            |s| {
                starts
                    .iter()
                    .all(|&x| starts.contains(&board.transform(s, x)))
            },
            |s| !one_class || board.same_class(board.transform(s, starts[0]), starts[0]),
        );
        let starts: Vec<K> = starts.iter().map(|&s| K::from_u128(s)).collect();
        let h = moves.subgroup_order();
        let mut fwd = vec![std::array::from_fn(|k| k); h];
        let mut inv = fwd.clone();
        for i in 0..h {
            for (k, &s) in starts.iter().enumerate() {
                let image = moves.transforms().apply(i, s);
                let to = starts
                    .iter()
                    .position(|&x| x == image)
                    .expect("H maps starts");
                fwd[i][k] = to;
                inv[i][to] = k;
            }
        }
        Sweep {
            board,
            starts,
            moves,
            fwd,
            inv,
            weight: Weight::Count,
        }
    }

    /// The same sweep carrying `weight` along the jumps.
    pub(super) fn with_weight(self, weight: Weight) -> Self {
        Sweep { weight, ..self }
    }

    pub(super) fn new_tables<S: Key, L: Lane>() -> Vec<Shard<S, L, N>> {
        (0..SHARDS).map(|_| Shard::default()).collect()
    }

    /// Expands one orbit representative `pos` carrying one count per start, `lo` and `hi`:
    /// the count of start `k` is `lo[k] + hi[k] * 2^L::BITS`, with `hi` `None` where every
    /// count fits its lane (nearly always: [`super::shard::Frozen::take`]). Merges the
    /// counts of pair orbits ([`Sweep::merge_pair_orbits`]), pushes each child's canonical
    /// form, with the counts permuted to the child's starts, into `out[shard]`
    /// ([`Sweep::push_children`]), and tallies the layer's statistics ([`Sweep::tally`]).
    /// `jumps` is scratch, one slot per jump of the board. Returns the canonical form of
    /// `pos` under `K`, with several starts shifted left by `N` bits, the low bits marking
    /// the starts that reach it (see [`Sweep::reduced_counts`]); zero where `K` is `H`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn expand<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        pos: K,
        lo: &[L; N],
        hi: Option<&[Total; N]>,
        out: &mut [Out<C::S, L, N>],
        jumps: &mut [u32],
        acc: &mut LayerAcc<N>,
        keep: &Range<usize>,
    ) -> Result<K> {
        let (outer, h) = (self.moves.outer_order(), self.moves.subgroup_order());
        let img = self.moves.images(pos, outer);
        let (stab, fixed) = stabiliser(pos, &img[..h]);
        let stab = &stab[..fixed];
        let count = |k: usize| match hi {
            Some(hi) => Total::join(lo[k].wide(), hi[k], L::BITS),
            None => Total::from(lo[k].wide()),
        };
        // Where no symmetry of `pos` permutes starts, the counts are `lo` and `hi` as they
        // came, used in place.
        let sums = if N > 1 && fixed > 1 {
            Some(self.merge_pair_orbits::<L>(stab, count)?)
        } else {
            None
        };
        let (low, high) = match &sums {
            Some((_, low, high)) => (*low, high.as_ref()),
            None => (*lo, hi),
        };
        // The legal jumps are gathered first and the children made in a plain loop: a
        // closure called for each jump was not inlined, and its calls cost about 16 of the
        // 67 instructions per child (docs/experiments.md, "Instructions per child").
        let mut legal = 0;
        let moved = self.moves.each_jump(pos, |j| {
            jumps[legal] = j as u32;
            legal += 1;
        });
        if L::MASS {
            self.push_shares(codec, pos, &img, &jumps[..legal], &low, high, out, keep)?;
        } else {
            self.push_children(codec, &img, &jumps[..legal], &low, high, out, keep);
        }
        // The orbit count of start `q`, and whether it is zero.
        let total = |q: usize| match &sums {
            Some((total, _, _)) => total[q],
            None => count(q),
        };
        let unreached = |q: usize| match &sums {
            Some((total, _, _)) => total[q].is_zero(),
            None => lo[q] == L::ZERO && hi.is_none_or(|hi| hi[q].is_zero()),
        };
        let mask = self.tally(pos, &img, stab, moved, unreached, total, L::MASS, acc)?;
        if outer == h {
            return Ok(K::zero());
        }
        let canon = *img[..outer].iter().min().expect("group has identity");
        Ok(if N > 1 {
            canon << N | K::from_u128(mask)
        } else {
            canon
        })
    }

    /// The pair-orbit merge of a position whose symmetries `stab` (of `H`) permute starts:
    /// parents credited the orbit of the pair (position, start `k`) under any start of its
    /// orbit, so that orbit's count is their sum (`count(q)` for start `q`). Returns, per
    /// start, its pair orbit's count, and the counts the children carry: each orbit's sum
    /// on its first start only, zero on the others, as lanes of `L` and high parts.
    #[inline]
    pub(super) fn merge_pair_orbits<L: Lane>(
        &self,
        stab: &[usize],
        count: impl Fn(usize) -> Total,
    ) -> Result<Merged<L, N>> {
        let mut total: [Total; N] = std::array::from_fn(&count);
        let mut carried = total;
        let mut seen = [false; N];
        for k in 0..self.starts.len() {
            if seen[k] {
                continue;
            }
            let mut orbit = [0usize; MAX_GROUP];
            let mut len = 0;
            let mut sum = Total::ZERO;
            for &i in stab {
                let q = self.fwd[i][k];
                if !seen[q] {
                    seen[q] = true;
                    orbit[len] = q;
                    len += 1;
                    sum = sum.plus(count(q))?;
                }
            }
            for &q in &orbit[..len] {
                total[q] = sum;
                carried[q] = Total::ZERO;
            }
            carried[k] = sum;
        }
        let (low, high) = split::<L, N>(&carried);
        Ok((total, low, high))
    }

    /// The random player's push of the children of `pos` (images `img`): each of the
    /// `jumps` takes the mass `low` over the number of jumps, rounded down (every member of
    /// the orbit has as many). Masses never pass their lane ([`super::lanes::Mass`]): a
    /// high part `high` is an overflow.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn push_shares<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        pos: K,
        img: &[K; MAX_GROUP],
        jumps: &[u32],
        low: &[L; N],
        high: Option<&[Total; N]>,
        out: &mut [Out<C::S, L, N>],
        keep: &Range<usize>,
    ) -> Result<()> {
        if high.is_some() {
            return Err(Error::Overflow(format!(
                "a random player's mass at position {:#x} exceeds 2^128",
                pos.to_u128()
            )));
        }
        // A share rounded down to nothing is not pushed: no entry of a layer is
        // without mass (a checkpoint's check refuses one), and it would add nothing.
        let shared = low.map(|m| L::low(m.wide() / jumps.len().max(1) as u128));
        if shared.iter().any(|&m| m != L::ZERO) {
            self.push_children(codec, img, jumps, &shared, None, out, keep);
        }
        Ok(())
    }

    /// Pushes the child of the position of images `img` by each of `jumps`, in canonical
    /// form, with the counts `low` and `high` permuted to the child's starts, into the
    /// buffer of its shard in `out`, for the shards `keep` holds (a pass of a sweep on disk
    /// builds only some shards of the next layer).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn push_children<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        img: &[K; MAX_GROUP],
        jumps: &[u32],
        low: &[L; N],
        high: Option<&[Total; N]>,
        out: &mut [Out<C::S, L, N>],
        keep: &Range<usize>,
    ) {
        for &j in jumps {
            let (canon, by) = self.moves.canonical_child_by(img, j as usize);
            let (shard, key) = codec.split(canon);
            if !keep.contains(&shard) {
                continue;
            }
            let out = &mut out[shard];
            // Fetch the line two lines past this buffer's end: the 64 buffers are too many
            // streams for the hardware prefetcher, and a push into a line not in cache
            // stalled the expansion (docs/experiments.md, "Writing children, and page faults").
            let ahead = 128 / size_of::<(C::S, [L; N])>();
            crate::hash::prefetch(out.low.as_ptr().wrapping_add(out.low.len() + ahead));
            if N == 1 || by == 0 {
                out.low.push((key, *low));
                if let Some(high) = high {
                    out.high.push((key, *high));
                }
            } else {
                let to = &self.fwd[by];
                out.low.push((key, permute(low, to)));
                if let Some(high) = &high {
                    out.high.push((key, permute(high, to)));
                }
            }
        }
    }

    /// Per start, the distinct canonical forms under `K` in `reduced` whose mask has the
    /// start (see [`Sweep::expand`]).
    pub(super) fn distinct(reduced: &mut [K]) -> [u64; N] {
        reduced.par_sort_unstable();
        let mut counts = [0u64; N];
        if N == 1 {
            let distinct = reduced.windows(2).filter(|w| w[0] != w[1]).count();
            counts[0] = (distinct + usize::from(!reduced.is_empty())) as u64;
            return counts;
        }
        let low = K::from_u128((1u128 << N) - 1);
        let mut i = 0;
        while i < reduced.len() {
            let canon = reduced[i] >> N;
            let mut mask = K::zero();
            while i < reduced.len() && reduced[i] >> N == canon {
                mask = mask | (reduced[i] & low);
                i += 1;
            }
            for (k, c) in counts.iter_mut().enumerate() {
                if mask & K::bit(k) != K::zero() {
                    *c += 1;
                }
            }
        }
        counts
    }

    /// The starts, for messages.
    pub(super) fn start_names(&self) -> String {
        self.starts
            .iter()
            .map(|&s| self.board.start_name(s.to_u128()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two starts swapped by a symmetry of the board: a position that symmetry fixes is one
    /// pair orbit for both starts, whose count is the sum of what each was credited, carried
    /// on by the first start alone.
    #[test]
    fn the_pair_orbit_merge_adds_the_starts_a_symmetry_swaps() {
        let b = Board::from_spec("tri:5").unwrap();
        // b1 and b2 are mirror images; the position with both empty is its own mirror.
        let (s1, s2) = (b.start_with_empty(&[1]), b.start_with_empty(&[2]));
        let sweep = Sweep::<u64, 2>::new(&b, &[s1, s2]);
        let pos = (s1 & s2) as u64;
        let h = sweep.moves.subgroup_order();
        let img = sweep.moves.images(pos, h);
        let stab: Vec<usize> = (0..h).filter(|&i| img[i] == pos).collect();
        assert!(stab.len() > 1 && stab.iter().any(|&i| sweep.fwd[i][0] == 1));
        let counts = [Total::from(3), Total::from(u128::from(u64::MAX))];
        let (total, low, high) = sweep
            .merge_pair_orbits::<u32>(&stab, |k| counts[k])
            .unwrap();
        let sum = Total::from(u128::from(u64::MAX) + 3);
        assert_eq!(total, [sum, sum]);
        // The sum passes 32 bits: its low lane and its high part, on the first start only.
        assert_eq!(low, [2, 0]);
        assert_eq!(high, Some([Total::from(1u128 << 32), Total::ZERO]));
        // A symmetry that fixes every start merges nothing.
        let (total, low, high) = sweep.merge_pair_orbits::<u64>(&[0], |k| counts[k]).unwrap();
        assert_eq!(total, counts);
        assert_eq!((low, high), ([3, u64::MAX], None));
    }
}
