//! The table behind each shard of the engine: an open-addressing map of count entries, its
//! keys and values side by side in one array, so that an insert touches one cache line (two
//! where an entry straddles them), and with [`Slots::prefetch`] to ask for those lines some
//! inserts ahead.
//!
//! Why not `hashbrown`: the sweep is bound by memory latency (most of an insert waits on
//! the bucket load: docs/experiments.md, "Figures that were in code comments"). hashbrown
//! keeps control bytes and entries in two arrays, two lines per
//! insert, and has no way to fetch a key's line ahead of time (docs/experiments.md, "Slot tables").
//!
//! Linear probing from `hash * capacity >> 64`; the key [`SlotKey::EMPTY`] marks a free
//! slot, and the entry of that key, when there is one, is kept aside. The table holds at most
//! [`MAX_LOAD`] of its slots.

use num_traits::ConstZero;
use std::fmt::Debug;

/// A key of a [`Slots`] table.
pub(crate) trait SlotKey: Copy + Eq + Debug {
    /// The key that marks a free slot (it can still be stored, aside).
    const EMPTY: Self;
    /// A 64-bit hash whose high bits depend on every bit of the key.
    fn hash64(self) -> u64;
}

// The hashes' odd multiplier (the shards are chosen with another, see
// [`crate::geometry::bits::Bits::shard`]).
use crate::hash::{MIX, prefetch};

/// Every width of position, and the count engine's packed keys (`u32`, whose `x >> 32` is
/// zero: the hash is `x * MIX`).
impl<T: crate::geometry::bits::Bits> SlotKey for T {
    const EMPTY: Self = T::ZERO;
    #[inline]
    fn hash64(self) -> u64 {
        let x = self.fold64();
        (x ^ x >> 32).wrapping_mul(MIX)
    }
}

/// A value of a [`Slots`] table: counts, zero where missing.
pub(crate) trait Value: Copy {
    const ZERO: Self;
}

impl<T: ConstZero + Copy, const N: usize> Value for [T; N] {
    const ZERO: Self = [T::ZERO; N];
}

/// The most slots a table fills, as a fraction `numerator / denominator`, before it grows.
pub(crate) const MAX_LOAD: (usize, usize) = (4, 5);

/// An open-addressing map from `K` to `V`, whose missing values read as `V::ZERO`.
#[derive(Debug)]
pub(crate) struct Slots<K, V> {
    slots: Vec<(K, V)>,
    /// Keys other than [`SlotKey::EMPTY`] in `slots`.
    filled: usize,
    /// The value of key [`SlotKey::EMPTY`], which cannot live in `slots`.
    aside: Option<V>,
}

impl<K, V> Default for Slots<K, V> {
    fn default() -> Self {
        Slots {
            slots: Vec::new(),
            filled: 0,
            aside: None,
        }
    }
}

impl<K: SlotKey, V: Value> Slots<K, V> {
    /// Entries held.
    pub(crate) fn len(&self) -> usize {
        self.filled + usize::from(self.aside.is_some())
    }

    /// Slots allocated.
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Makes room for `more` entries beyond those held without growing.
    pub(crate) fn reserve(&mut self, more: usize) {
        let need = (self.filled + more) * MAX_LOAD.1 / MAX_LOAD.0 + 1;
        if need > self.slots.len() {
            self.resize(need);
        }
    }

    #[inline]
    fn home(&self, key: K) -> usize {
        ((u128::from(key.hash64()) * self.slots.len() as u128) >> 64) as usize
    }

    /// Asks the processor to bring in the cache line where `key`'s probe starts.
    #[inline]
    pub(crate) fn prefetch(&self, key: K) {
        if let Some(slot) = self.slots.get(self.home(key)) {
            let first: *const (K, V) = slot;
            prefetch(first);
            // An entry whose size does not divide a line (english's four narrow lanes: 20
            // bytes) may straddle two: fetch the line of its last byte too (docs/experiments.md,
            // "Writing children, and page faults").
            if 64 % size_of::<(K, V)>() != 0 {
                prefetch(first.cast::<u8>().wrapping_add(size_of::<(K, V)>() - 1));
            }
        }
    }

    /// The value of `key`, inserted as `V::ZERO` if missing.
    #[inline]
    pub(crate) fn entry(&mut self, key: K) -> &mut V {
        if key == K::EMPTY {
            return self.aside.get_or_insert(V::ZERO);
        }
        if (self.filled + 1) * MAX_LOAD.1 > self.slots.len() * MAX_LOAD.0 {
            self.resize((self.slots.len() * 3 / 2).max(16));
        }
        let cap = self.slots.len();
        let mut i = self.home(key);
        loop {
            let k = self.slots[i].0;
            if k == key {
                return &mut self.slots[i].1;
            }
            if k == K::EMPTY {
                self.filled += 1;
                self.slots[i].0 = key;
                return &mut self.slots[i].1;
            }
            i += 1;
            if i == cap {
                i = 0;
            }
        }
    }

    /// The value of `key`, if held.
    #[cfg(test)]
    pub(crate) fn get(&self, key: K) -> Option<&V> {
        if key == K::EMPTY {
            return self.aside.as_ref();
        }
        if self.slots.is_empty() {
            return None;
        }
        let cap = self.slots.len();
        let mut i = self.home(key);
        loop {
            let (k, v) = &self.slots[i];
            if *k == key {
                return Some(v);
            }
            if *k == K::EMPTY {
                return None;
            }
            i = if i + 1 == cap { 0 } else { i + 1 };
        }
    }

    fn resize(&mut self, slots: usize) {
        // Written out rather than allocated zeroed ([`crate::memory::filled`]).
        let fresh = crate::memory::filled(slots, (K::EMPTY, V::ZERO));
        let old = std::mem::replace(&mut self.slots, fresh);
        self.filled = 0;
        for (k, v) in old {
            if k != K::EMPTY {
                *self.entry(k) = v;
            }
        }
    }

    /// The entries, in slot order, compacted in place (the array is reused and shrunk).
    pub(crate) fn into_entries(self) -> Vec<(K, V)> {
        let mut slots = self.slots;
        let mut kept = 0;
        for i in 0..slots.len() {
            if slots[i].0 != K::EMPTY {
                slots[kept] = slots[i];
                kept += 1;
            }
        }
        slots.truncate(kept);
        if let Some(v) = self.aside {
            slots.push((K::EMPTY, v));
        }
        slots.shrink_to_fit();
        slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn agrees_with_a_hash_map() {
        let mut slots = Slots::<u32, [u64; 1]>::default();
        let mut map = HashMap::new();
        let mut x = 12345u64;
        for i in 0..200_000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Few distinct keys, key 0 (the free-slot mark) among them.
            let key = (x >> 40) as u32 % 50_000;
            slots.prefetch(key);
            slots.entry(key)[0] += i;
            map.entry(key).or_insert([0])[0] += i;
            assert!(slots.len() * MAX_LOAD.1 <= slots.capacity() * MAX_LOAD.0 + MAX_LOAD.1);
        }
        assert_eq!(slots.len(), map.len());
        for (k, v) in &map {
            assert_eq!(slots.get(*k), Some(v));
        }
        assert_eq!(slots.get(50_001), None);
        let mut entries = slots.into_entries();
        entries.sort_unstable();
        let mut expected: Vec<_> = map.into_iter().collect();
        expected.sort_unstable();
        assert_eq!(entries, expected);
    }

    #[test]
    fn reserved_tables_do_not_grow() {
        let mut slots = Slots::<u64, [u32; 3]>::default();
        slots.reserve(1000);
        let cap = slots.capacity();
        for k in 0..1000u64 {
            slots.entry(k * 7919)[1] += 1;
        }
        assert_eq!(slots.capacity(), cap);
        assert_eq!(slots.len(), 1000);
        assert_eq!(slots.get(0), Some(&[0, 1, 0]));
        assert_eq!(slots.into_entries().len(), 1000);
    }
}
