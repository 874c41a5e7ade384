//! The tables of a layer: a shard's table while it is built ([`Shard`]), its entries once
//! finished ([`Frozen`]), the sparse high parts of the counts that carry ([`Highs`]), and a
//! unit's buffers of children ([`Out`]).

use super::lanes::{Key, Lane};
use crate::count::slots::Slots;
use crate::error::{Error, Result};
use crate::total::Total;
use std::collections::HashMap;

pub(super) type Hasher = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;

/// shifted right by the lane's bits), by stored key. Most fit 128 bits and are kept so, in
/// slots of 32 bytes with one start as before counts were 256-bit; the rare ones past
/// 2^128 are kept whole in `wide`. An entry is in one map or the other.
#[derive(Default)]
pub(super) struct Highs<K, const N: usize> {
    pub(super) narrow: HashMap<K, [u128; N], Hasher>,
    pub(super) wide: HashMap<K, [Total; N], Hasher>,
}

impl<K: Key, const N: usize> Highs<K, N> {
    pub(super) fn len(&self) -> usize {
        self.narrow.len() + self.wide.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.narrow.is_empty() && self.wide.is_empty()
    }

    /// Bytes of both maps: 7/8 of their buckets hold entries, each bucket an entry plus a
    /// control byte.
    pub(super) fn bytes(&self) -> u64 {
        let buckets = |capacity: usize| (capacity.div_ceil(7) * 8) as u64;
        buckets(self.narrow.capacity()) * (size_of::<(K, [u128; N])>() as u64 + 1)
            + buckets(self.wide.capacity()) * (size_of::<(K, [Total; N])>() as u64 + 1)
    }

    /// `key`'s high parts, if it has any.
    #[inline]
    pub(super) fn get(&self, key: &K) -> Option<[Total; N]> {
        if let Some(hi) = self.narrow.get(key) {
            return Some(hi.map(Total::from));
        }
        if self.wide.is_empty() {
            None
        } else {
            self.wide.get(key).copied()
        }
    }

    /// Sets `key`'s high parts, which it has none of yet.
    pub(super) fn insert(&mut self, key: K, hi: [Total; N]) {
        if hi.iter().all(|h| h.fits(128)) {
            self.narrow.insert(key, hi.map(Total::low_u128));
        } else {
            self.wide.insert(key, hi);
        }
    }

    /// Adds `hi` to `key`'s high parts; each must stay below `2^bits` (at least 2^128).
    pub(super) fn add(&mut self, key: K, hi: &[Total; N], bits: u32) -> Result<()> {
        let overflow = || Error::Overflow(format!("a count of position {key:?} exceeds 2^256"));
        if self.wide.is_empty() || !self.wide.contains_key(&key) {
            let slot = self.narrow.entry(key).or_insert([0; N]);
            let mut sum = *slot;
            let mut fits = true;
            for k in 0..N {
                match hi[k].to_u128().and_then(|h| sum[k].checked_add(h)) {
                    Some(x) => sum[k] = x,
                    None => fits = false,
                }
            }
            if fits {
                *slot = sum;
                return Ok(());
            }
            // Past 2^128: the entry moves to the wide map.
            let old = self.narrow.remove(&key).expect("just inserted");
            self.wide.insert(key, old.map(Total::from));
        }
        let slot = self.wide.get_mut(&key).expect("in the wide map");
        for k in 0..N {
            slot[k] = slot[k]
                .plus(hi[k])
                .ok()
                .filter(|x| x.fits(bits))
                .ok_or_else(overflow)?;
        }
        Ok(())
    }
}

/// One shard of a layer: stored key ([`Codec`]) -> one count per start (`N` lanes).
///
/// A count is split into its low `L::BITS` bits, kept in `low` for every entry, and the
/// rest, kept in `high` only for the entries that have it. `low` is a [`Slots`] table, whose
/// inserts fetch their cache line ahead; `high` is small and a plain hash map. The sweep is
/// bound by memory traffic, so entries are kept small: with one start and [`Packed`] keys
/// they are 8 bytes while counts fit 32 bits, then 16 (docs/experiments.md, "Memory", "Keys
/// within a shard" and "Slot tables").
#[derive(Default)]
pub(super) struct Shard<K, L, const N: usize> {
    pub(super) low: Slots<K, [L; N]>,
    pub(super) high: Highs<K, N>,
}

impl<K: Key, L: Lane, const N: usize> Shard<K, L, N> {
    pub(super) fn len(&self) -> usize {
        self.low.len()
    }

    /// Bytes held by both maps (the slots of `low`; entry plus control byte per slot of
    /// `high`).
    pub(super) fn bytes(&self) -> u64 {
        (self.low.capacity() * size_of::<(K, [L; N])>()) as u64 + self.high.bytes()
    }

    /// Adds each `(key, lo)` of `entries` with [`Shard::add_low`], fetching the slots of
    /// later keys meanwhile (docs/experiments.md, "Slot tables"). Kept out of line so that profiles
    /// name the insert phase.
    #[inline(never)]
    pub(super) fn add_all(&mut self, entries: &[(K, [L; N])]) -> Result<()> {
        const AHEAD: usize = 16;
        for (key, _) in entries.iter().take(AHEAD) {
            self.low.prefetch(*key);
        }
        for (i, (key, lo)) in entries.iter().enumerate() {
            if let Some((later, _)) = entries.get(i + AHEAD) {
                self.low.prefetch(*later);
            }
            self.add_low(*key, lo)?;
        }
        Ok(())
    }

    /// Adds `lo` to the low parts of `key`'s counts, carrying into the high parts. Always
    /// inlined: left to the compiler, the wide-lane `add_all` of english called it.
    #[inline(always)]
    pub(super) fn add_low(&mut self, key: K, lo: &[L; N]) -> Result<()> {
        let slot = self.low.entry(key);
        let mut any = false;
        for k in 0..N {
            let (sum, c) = Lane::add(slot[k], lo[k]);
            slot[k] = sum;
            any |= c;
        }
        if any {
            // A lane carried exactly when its sum came out below what was added.
            let carry = std::array::from_fn(|k| Total::from(u128::from(slot[k] < lo[k])));
            self.add_high(key, &carry)
        } else {
            Ok(())
        }
    }

    /// Adds `hi * 2^L::BITS` to `key`'s counts.
    #[cold]
    #[inline(never)]
    pub(super) fn add_high(&mut self, key: K, hi: &[Total; N]) -> Result<()> {
        self.high.add(key, hi, 256 - L::BITS)
    }
}

/// A finished layer's shard, packed for the next sweep: its entries in a vector of exactly
/// their number (where the table held about 1.6 times that on average), the sparse high
/// parts kept as they were. The vector is freed as soon as its unit is expanded.
pub(super) struct Frozen<K, L, const N: usize> {
    pub(super) low: Vec<(K, [L; N])>,
    pub(super) high: Highs<K, N>,
}

impl<K: Key, L: Lane, const N: usize> Frozen<K, L, N> {
    pub(super) fn new(shard: Shard<K, L, N>) -> Self {
        Frozen {
            low: shard.low.into_entries(),
            high: shard.high,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.low.len()
    }

    pub(super) fn bytes(&self) -> u64 {
        (self.low.capacity() * size_of::<(K, [L; N])>()) as u64 + self.high.bytes()
    }

    /// Takes every `(position, counts)` out, leaving the shard empty.
    pub(super) fn drain(&mut self) -> impl Iterator<Item = (K, [Total; N])> + use<K, L, N> {
        let low = std::mem::take(&mut self.low);
        let high = std::mem::take(&mut self.high);
        low.into_iter().map(move |(k, lo)| {
            if !high.is_empty()
                && let Some(hi) = high.get(&k)
            {
                return (
                    k,
                    std::array::from_fn(|i| Total::join(lo[i].wide(), hi[i], L::BITS)),
                );
            }
            (k, lo.map(|l| Total::from(l.wide())))
        })
    }

    /// Takes every entry out, leaving the shard empty: the entries with their low parts,
    /// and the high parts of the few that have them. [`Sweep::expand`] reads both in place,
    /// so that the common count, one lane, is never widened.
    pub(super) fn take(&mut self) -> (Vec<(K, [L; N])>, Highs<K, N>) {
        (
            std::mem::take(&mut self.low),
            std::mem::take(&mut self.high),
        )
    }

    /// The same entries with lanes of another width.
    pub(super) fn relane<M: Lane>(mut self) -> Frozen<K, M, N> {
        let mut out = Frozen {
            low: Vec::with_capacity(self.len()),
            high: Highs::default(),
        };
        for (k, v) in self.drain() {
            let (low, high) = split::<M, N>(&v);
            out.low.push((k, low));
            if let Some(high) = high {
                out.high.insert(k, high);
            }
        }
        out
    }
}

/// Counts as lanes of `L` and, where one does not fit its lane, the high parts of all.
#[inline]
pub(super) fn split<L: Lane, const N: usize>(counts: &[Total; N]) -> ([L; N], Option<[Total; N]>) {
    let low = counts.map(|c| L::low(c.low_u128()));
    let high = counts
        .iter()
        .any(|c| !c.fits(L::BITS))
        .then(|| counts.map(|c| c.shr(L::BITS)));
    (low, high)
}

/// Children of one work unit, per next-layer shard: `(canonical child, low parts of the
/// counts)`, and the high parts of the counts that have them.
#[derive(Clone, Default)]
pub(super) struct Out<K, L, const N: usize> {
    pub(super) low: Vec<(K, [L; N])>,
    pub(super) high: Vec<(K, [Total; N])>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::sweep::lanes::Wide;

    /// Counts as plain integers, for the tests whose counts fit 128 bits.
    fn plain<K, const N: usize>(
        entries: impl Iterator<Item = (K, [Total; N])>,
    ) -> Vec<(K, [u128; N])> {
        entries
            .map(|(k, v)| (k, v.map(|x| x.to_u128().expect("below 2^128"))))
            .collect()
    }

    #[test]
    fn wide_lanes_take_twelve_bytes_and_carry_exactly() {
        assert_eq!(size_of::<(u32, [Wide; 1])>(), 12);
        assert_eq!(size_of::<(u32, [Wide; 3])>(), 28);
        let mut s = Shard::<u32, Wide, 2>::default();
        s.add_low(7, &[Wide(u64::MAX), Wide(1)]).unwrap();
        s.add_low(7, &[Wide(2), Wide(u64::MAX)]).unwrap();
        s.add_low(9, &[Wide(5), Wide(0)]).unwrap();
        let mut all = plain(Frozen::new(s).drain());
        all.sort_unstable();
        let big = u128::from(u64::MAX);
        assert_eq!(all, vec![(7, [big + 2, big + 1]), (9, [5, 0])]);
    }

    #[test]
    fn shard_counts_carry_into_the_high_half() {
        let mut s = Shard::<u64, u64, 1>::default();
        s.add_low(7, &[u64::MAX]).unwrap();
        s.add_low(7, &[2]).unwrap(); // carries: 2^64 + 1
        s.add_high(7, &[Total::from(3)]).unwrap(); // + 3 * 2^64
        s.add_low(9, &[5]).unwrap();
        assert_eq!(s.len(), 2);
        let mut frozen = Frozen::new(s);
        assert_eq!(frozen.len(), 2);
        let mut all = plain(frozen.drain());
        all.sort_unstable();
        assert_eq!(all, [(7, [(4u128 << 64) + 1]), (9, [5])]);
        assert_eq!(frozen.len(), 0);
    }

    #[test]
    fn each_lane_carries_on_its_own() {
        let mut s = Shard::<u64, u64, 2>::default();
        s.add_low(1, &[u64::MAX, 4]).unwrap();
        s.add_low(1, &[1, u64::MAX]).unwrap(); // lane 0: 2^64; lane 1: 2^64 + 3
        let all = plain(Frozen::new(s).drain());
        assert_eq!(all, [(1, [1u128 << 64, (1u128 << 64) + 3])]);
    }

    #[test]
    fn narrow_lanes_carry_and_widen_exactly() {
        let mut s = Shard::<u64, u32, 2>::default();
        s.add_low(3, &[u32::MAX, 1]).unwrap();
        s.add_low(3, &[2, 2]).unwrap(); // lane 0: 2^32 + 1, lane 1: 3
        s.add_high(3, &[Total::from(1u128 << 90), Total::ZERO])
            .unwrap();
        // Past 2^128: 2^32 * 2^100 more, kept exactly.
        s.add_high(3, &[Total::from(1u128 << 100), Total::ZERO])
            .unwrap();
        let want = Total::from((1u128 << 122) + (1 << 32) + 1)
            .plus(Total::from(1u128 << 100).times(1 << 32).unwrap())
            .unwrap();
        assert_eq!(want.to_u128(), None);
        // 2^132 + 2^122 + 2^32 + 1.
        assert_eq!(want.to_string(), "5449834782718155078905608947153707728897");
        let wide = Frozen::new(s).relane::<u64>();
        assert_eq!(wide.high.len(), 1);
        let all: Vec<_> = wide.relane::<u32>().drain().collect();
        assert_eq!(all, [(3, [want, Total::from(3)])]);
    }

    /// High parts stay in 128 bits (32-byte slots) until one passes 2^128; that entry then
    /// moves to the wide map, where later carries find it, and counts stay exact through
    /// both maps and through a change of lane width.
    #[test]
    fn high_parts_move_to_the_wide_map_past_2_128() {
        let mut s = Shard::<u64, u64, 2>::default();
        s.add_high(5, &[Total::from(u128::MAX), Total::from(1)])
            .unwrap();
        assert_eq!((s.high.narrow.len(), s.high.wide.len()), (1, 0));
        s.add_high(5, &[Total::from(1), Total::from(2)]).unwrap(); // lane 0: 2^128
        assert_eq!((s.high.narrow.len(), s.high.wide.len()), (0, 1));
        s.add_high(5, &[Total::from(3), Total::ZERO]).unwrap();
        s.add_low(5, &[7, 0]).unwrap();
        s.add_low(5, &[u64::MAX, 0]).unwrap(); // carries: lane 0's high part 2^128 + 4
        s.add_low(6, &[1, 1]).unwrap();
        let two_128 = Total::from(u128::MAX).plus(Total::from(1)).unwrap();
        let two_64 = Total::from(1u128 << 64);
        // (2^128 + 4) * 2^64 + 6, and 3 * 2^64.
        let lane0 = two_128
            .plus(Total::from(4))
            .unwrap()
            .times(1 << 32)
            .unwrap()
            .times(1 << 32)
            .unwrap()
            .plus(Total::from(6))
            .unwrap();
        let lane1 = two_64.times(3).unwrap();
        let want = vec![(5, [lane0, lane1]), (6, [Total::from(1), Total::from(1)])];
        let narrow = Frozen::new(s).relane::<u32>();
        assert_eq!((narrow.high.narrow.len(), narrow.high.wide.len()), (0, 1));
        let mut all: Vec<_> = narrow.relane::<u64>().drain().collect();
        all.sort_unstable_by_key(|e| e.0);
        assert_eq!(all, want);
    }

    #[test]
    fn shard_overflow_past_2_256_is_an_error() {
        // 64-bit lanes: the high part holds the top 192 bits.
        let mut s = Shard::<u64, u64, 1>::default();
        let top = Total::from(u128::MAX).times(u64::MAX).unwrap(); // below 2^192
        let room = Total::from(u128::MAX)
            .times(1 << 63)
            .unwrap()
            .times(2)
            .unwrap(); // 2^192 - 2^64
        let last = room.plus(Total::from(u128::from(u64::MAX))).unwrap(); // 2^192 - 1
        s.add_high(1, &[top]).unwrap();
        s.add_high(1, &[last]).unwrap_err(); // past 2^192 in the high part
        let mut s = Shard::<u64, u64, 1>::default();
        s.add_high(1, &[last]).unwrap();
        s.add_low(1, &[u64::MAX]).unwrap(); // 2^256 - 1 exactly
        let all: Vec<_> = Frozen::new(s).drain().collect();
        assert_eq!(
            all[0].1[0].to_string(),
            "115792089237316195423570985008687907853269984665640564039457584007913129639935"
        );
        let mut s = Shard::<u64, u64, 1>::default();
        s.add_high(1, &[last]).unwrap();
        s.add_low(1, &[u64::MAX]).unwrap();
        let err = s.add_low(1, &[1]).unwrap_err(); // 2^256
        assert!(matches!(err, Error::Overflow(_)), "{err}");
    }
}
