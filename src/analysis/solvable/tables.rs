//! Membership tables for the probes of the passes: a filter of a layer's keys
//! ([`KeyFilter`]) and a hash table of keys and their values ([`WinTable`], [`probe`]).
//! The same lookups shard by shard are in `exchange.rs`, the places of a forward layer's
//! positions and the parents they give in `places.rs`.

use super::*;

/// A set of keys as one bit per hash ([`KeyFilter::may_hold`]: every key added, and at
/// most about one other key in 16): a cheap first test of membership, before a sorted
/// intersection.
pub(super) struct KeyFilter {
    pub(super) bits: Vec<u64>,
    pub(super) shift: u32,
}

impl KeyFilter {
    pub(super) fn new<K: Bits>(keys: impl Iterator<Item = K> + Clone) -> Self {
        let n = keys.clone().count();
        // 16 bits per key, at least one word.
        let size = (16 * n).next_power_of_two().max(64);
        let mut f = KeyFilter {
            bits: crate::memory::filled(size / 64, 0),
            shift: 64 - size.trailing_zeros(),
        };
        for k in keys {
            let i = f.index(k);
            f.bits[i / 64] |= 1 << (i % 64);
        }
        f
    }

    #[inline]
    pub(super) fn index<K: Bits>(&self, key: K) -> usize {
        // Another multiplier than the shard hash's and the win table's.
        (key.fold64().wrapping_mul(crate::hash::SPREAD) >> self.shift) as usize
    }

    /// Asks for the word of `key` ahead of [`KeyFilter::may_hold`].
    #[inline]
    pub(super) fn prefetch<K: Bits>(&self, key: K) {
        crate::hash::prefetch(self.bits.as_ptr().wrapping_add(self.index(key) / 64));
    }

    /// Whether `key` may have been added: always when it was.
    #[inline]
    pub(super) fn may_hold<K: Bits>(&self, key: K) -> bool {
        let i = self.index(key);
        self.bits[i / 64] >> (i % 64) & 1 == 1
    }
}

/// Nonzero keys and their `W`: open addressing with linear probing, at most half full,
/// zero marking an empty slot (no position without pegs is stored). A value is kept as two
/// `u64` halves beside its key, so that an entry is 24 bytes with 64-bit keys and a probe,
/// hit or miss, touches one entry.
pub(super) struct WinTable<K> {
    pub(super) slots: Vec<(K, [u64; 2])>,
    pub(super) shift: u32,
}

impl<K: Bits> WinTable<K> {
    pub(super) fn new(keys: &[K], wins: &[u128]) -> Self {
        let size = Self::slots(keys.len());
        let mut t = WinTable {
            slots: crate::memory::filled(size, (K::zero(), [0; 2])),
            shift: 64 - size.trailing_zeros(),
        };
        for (&k, &w) in keys.iter().zip(wins) {
            let mut i = t.index(k);
            while t.slots[i].0 != K::zero() {
                i = (i + 1) & (size - 1);
            }
            t.slots[i] = (k, [w as u64, (w >> 64) as u64]);
        }
        t
    }

    /// The slots of a table of `n` keys: at least twice as many, a power of two.
    pub(super) fn slots(n: usize) -> usize {
        (2 * n).next_power_of_two().max(16)
    }

    /// The bytes of the tables of `layer`, one a shard.
    pub(super) fn bytes(layer: &Shards<K>) -> usize {
        layer.iter().map(|t| Self::slots(t.len())).sum::<usize>()
            * std::mem::size_of::<(K, [u64; 2])>()
    }

    #[inline]
    pub(super) fn index(&self, key: K) -> usize {
        // A multiplier other than the shard hash's, so that one shard's keys spread out.
        (key.fold64().wrapping_mul(crate::hash::MIX) >> self.shift) as usize
    }

    /// Asks for the line of `key`'s first slot ([`probe`]).
    #[inline]
    pub(super) fn prefetch(&self, key: K) {
        crate::hash::prefetch(self.slots.as_ptr().wrapping_add(self.index(key)));
    }

    #[inline]
    pub(super) fn get(&self, key: K) -> Option<u128> {
        let mask = self.slots.len() - 1;
        let mut i = self.index(key);
        loop {
            let (k, [lo, hi]) = self.slots[i];
            if k == key {
                return Some(u128::from(lo) | u128::from(hi) << 64);
            }
            if k == K::zero() {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
}

/// For each position `unit[i]`, looks up in `tables` (one per shard) the keys that
/// `keys(pos, out)` pushes (its canonical children or parents), and calls
/// `found(i, key, value)` for each key held. The keys of a block of positions are listed
/// first and sifted through `filter` (a [`KeyFilter`] of every key of `tables`), each
/// filter word asked for before it is tested; then the table slot of each key kept is
/// fetched [`PROBE_AHEAD`] keys before it is probed. The tables of english's middle layers
/// are larger than the caches, and probes that waited for their line one at a time were
/// most of the time of the `W` and `N` passes; about half the keys are not in the table
/// (english d4's `N` pass: 4.9 million of 10.4 million parents), and the filter, a
/// twelfth of the table's size, turns most of those away from the caches.
pub(super) fn probe<K: Bits>(
    unit: &[K],
    tables: &[WinTable<K>],
    filter: &KeyFilter,
    keys_of: &Keys,
    mut keys: impl FnMut(K, &mut Vec<K>),
    mut found: impl FnMut(usize, K, u128) -> Result<()>,
) -> Result<()> {
    const BLOCK: usize = 32;
    let mut buf: Vec<K> = Vec::with_capacity(BLOCK * 16);
    let mut owner: Vec<u32> = Vec::with_capacity(BLOCK * 16);
    for (b, block) in unit.chunks(BLOCK).enumerate() {
        buf.clear();
        owner.clear();
        for (i, &pos) in block.iter().enumerate() {
            let from = buf.len();
            keys(pos, &mut buf);
            for &k in &buf[from..] {
                filter.prefetch(k);
            }
            owner.resize(buf.len(), (b * BLOCK + i) as u32);
        }
        // Keep the keys that the filter may hold, in place.
        let mut kept = 0;
        for n in 0..buf.len() {
            let (k, i) = (buf[n], owner[n]);
            buf[kept] = k;
            owner[kept] = i;
            kept += usize::from(filter.may_hold(k));
        }
        buf.truncate(kept);
        for &k in buf.iter().take(PROBE_AHEAD) {
            tables[keys_of.shard(k)].prefetch(k);
        }
        for (n, (&k, &i)) in buf.iter().zip(&owner).enumerate() {
            if let Some(&later) = buf.get(n + PROBE_AHEAD) {
                tables[keys_of.shard(later)].prefetch(later);
            }
            if let Some(x) = tables[keys_of.shard(k)].get(k) {
                found(i as usize, k, x)?;
            }
        }
    }
    Ok(())
}

/// How many keys ahead [`probe`] fetches a slot.
pub(super) const PROBE_AHEAD: usize = 16;
