//! The positions a side has reached, with their distances, in 9 bytes or so each.
//!
//! An entry is one word: the position mixed by a bijection of the word's top `BITS - 8`
//! bits, shifted up, and its distance in moves in the low byte. Entries are kept sorted; as
//! the mixed positions are spread evenly, an index of the first entry of each bucket (the
//! entries' top bits, about eight entries a bucket) finds a position in two memory reads,
//! as a hash table would, at a third or less of a hash table's memory and with no doubling.
//! A layer is added by sorting its entries and merging them in from the back.

use crate::geometry::bits::Bits;
use rayon::prelude::*;

/// Entries per bucket aimed at.
const PER_BUCKET: usize = 8;

/// A set of positions with one distance each.
#[derive(Debug)]
pub(super) struct Store<K: Bits> {
    entries: Vec<K>,
    /// Bucket `b` (an entry's top bits, `entry >> shift`) is `entries[index[b]..index[b + 1]]`.
    index: Vec<u32>,
    shift: u32,
}

/// The bits of a position an entry keeps: all but the low byte.
fn key_bits<K: Bits>() -> u32 {
    K::BITS as u32 - 8
}

/// A bijection of the `key_bits` low bits: multiply, fold the top half down, multiply.
#[inline]
fn mix<K: Bits>(pos: K) -> K {
    let m = key_bits::<K>();
    let mask = u128::MAX >> (128 - m);
    let mut x = pos.to_u128();
    x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835) & mask;
    x ^= x >> (m / 2);
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9_94d0_49bb_1331_11eb) & mask;
    K::from_u128(x)
}

impl<K: Bits> Store<K> {
    /// The most holes a position may have: the low byte holds the distance.
    pub(super) fn max_holes() -> usize {
        key_bits::<K>() as usize
    }

    pub(super) fn new() -> Self {
        let mut s = Store {
            entries: Vec::new(),
            index: Vec::new(),
            shift: 0,
        };
        s.reindex();
        s
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The bytes a store of `len` entries holds.
    pub(super) fn bytes_for(len: usize) -> u64 {
        let buckets = Self::buckets(len) as u64;
        len as u64 * std::mem::size_of::<K>() as u64 + 4 * (buckets + 1)
    }

    /// The distance of `pos`, if stored.
    #[inline]
    pub(super) fn get(&self, pos: K) -> Option<u8> {
        let key = mix(pos) << 8;
        let b = (key >> self.shift as usize).to_usize().unwrap_or(0);
        let (lo, hi) = (self.index[b] as usize, self.index[b + 1] as usize);
        let low = K::from_u128(0xff);
        self.entries[lo..hi]
            .iter()
            .find(|&&e| e & !low == key)
            .map(|&e| (e & low).to_u128() as u8)
    }

    #[inline]
    pub(super) fn contains(&self, pos: K) -> bool {
        self.get(pos).is_some()
    }

    /// Adds `pos` at distance `depth` unless it is stored (a whole merge: for the few
    /// positions of a meeting's path, not for layers).
    pub(super) fn insert_one(&mut self, pos: K, depth: u8) {
        if !self.contains(pos) {
            self.add(&[pos], depth);
        }
    }

    /// Adds `positions` (none stored yet, no repeats) at distance `depth`.
    pub(super) fn add(&mut self, positions: &[K], depth: u8) {
        let d = K::from_u128(u128::from(depth));
        let mut new: Vec<K> = positions.iter().map(|&p| mix(p) << 8 | d).collect();
        new.par_sort_unstable();
        let (n, m) = (self.entries.len(), new.len());
        assert!(n + m < u32::MAX as usize, "at most 2^32 positions a side");
        self.entries.reserve_exact(m);
        self.entries.resize(n + m, K::zero());
        // Merge from the back, so that no second copy of the entries is needed.
        let (mut i, mut j) = (n, m);
        while j > 0 {
            if i > 0 && self.entries[i - 1] > new[j - 1] {
                self.entries[i + j - 1] = self.entries[i - 1];
                i -= 1;
            } else {
                self.entries[i + j - 1] = new[j - 1];
                j -= 1;
            }
        }
        drop(new);
        self.reindex();
    }

    /// Rebuilds the bucket index for the entries' count.
    fn reindex(&mut self) {
        let len = self.entries.len();
        let buckets = Self::buckets(len);
        self.shift = K::BITS as u32 - buckets.trailing_zeros();
        self.index.clear();
        self.index.reserve_exact(buckets + 1);
        let bucket = |e: K| (e >> self.shift as usize).to_usize().unwrap_or(usize::MAX);
        let mut at = 0usize;
        for b in 0..buckets {
            // The first entry of bucket `b` or later.
            self.index.push(at as u32);
            while at < len && bucket(self.entries[at]) == b {
                at += 1;
            }
        }
        self.index.push(len as u32);
    }

    /// The buckets for `len` entries: a power of two, at least two.
    fn buckets(len: usize) -> usize {
        (len / PER_BUCKET).next_power_of_two().max(2)
    }
}

#[cfg(test)]
mod tests {
    use super::Store;
    use std::collections::HashMap;

    /// Layers of pseudo-random positions, with repeats across layers filtered as a side
    /// does: the store answers as a hash map does, for present and absent positions.
    fn agrees<K: super::Bits>(holes: u32) {
        let mut store = Store::<K>::new();
        let mut map = HashMap::new();
        let mut x: u128 = 0x1234_5678_9abc_def1;
        let mask = (1u128 << holes) - 1;
        for depth in 0..6u8 {
            let mut layer = Vec::new();
            for _ in 0..(1usize << (2 * depth + 1)) {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pos = K::from_u128((x >> 7) & mask);
                if let std::collections::hash_map::Entry::Vacant(e) = map.entry(pos) {
                    e.insert(depth);
                    layer.push(pos);
                }
            }
            store.add(&layer, depth);
            assert_eq!(store.len(), map.len());
            for (&p, &d) in &map {
                assert_eq!(store.get(p), Some(d));
            }
            for k in 0..200u128 {
                let q = K::from_u128((k * 0x9e37_79b9 + 17) & mask);
                assert_eq!(store.get(q), map.get(&q).copied());
            }
        }
        store.insert_one(K::from_u128(mask), 9);
        store.insert_one(K::from_u128(mask), 10);
        assert_eq!(
            store.get(K::from_u128(mask)),
            map.get(&K::from_u128(mask)).copied().or(Some(9))
        );
        assert!(Store::<K>::bytes_for(1000) < 1000 * (std::mem::size_of::<K>() as u64 + 1));
    }

    #[test]
    fn a_store_answers_as_a_hash_map_does() {
        agrees::<u64>(45);
        agrees::<u64>(56);
        agrees::<u128>(66);
        agrees::<u128>(120);
    }
}
