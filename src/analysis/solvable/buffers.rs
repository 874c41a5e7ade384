//! The buffers of a step ([`Solver::step_at`]): how a position names its shard ([`Keys`]),
//! one unit's children per shard ([`Out`]), and the next layer's shards while they are
//! gathered from the buffers ([`Building`], [`gather`]).

use super::*;

/// How a position names its shard of a layer. On boards of up to 40 holes, by
/// [`Packed`]: a layer being built keeps 32-bit keys in its buffers, half the bytes of the
/// positions, and unpacks the distinct ones at the end ([`Solver::step`]). Larger boards
/// hash the whole position ([`Bits::shard`]) and keep it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Keys(pub(super) Option<Packed>);

impl Keys {
    pub(super) fn new(holes: usize) -> Keys {
        Keys(Packed::new(holes, SHARDS))
    }

    /// Bits of a packed key, if keys are packed.
    pub(super) fn low_bits(&self) -> Option<usize> {
        self.0.map(|p| p.low_bits() as usize)
    }

    #[inline]
    pub(super) fn shard<K: Bits>(&self, pos: K) -> usize {
        match self.0 {
            Some(p) => p.split(pos.to_u128() as u64).0,
            None => pos.shard(SHARDS),
        }
    }
}

/// One unit's children, per shard: packed ([`Keys`]) where the board allows.
pub(super) struct Out<K> {
    pub(super) keys: Keys,
    pub(super) narrow: Vec<Vec<u32>>,
    pub(super) wide: Vec<Vec<K>>,
    /// Packed keys in the high half, payloads ([`JumpOrder::payload`]) in the low half.
    pub(super) tagged: Vec<Vec<u64>>,
}

impl<K: Bits> Out<K> {
    pub(super) fn new(keys: Keys) -> Self {
        Out {
            keys,
            narrow: vec![Vec::new(); SHARDS],
            wide: vec![Vec::new(); SHARDS],
            tagged: vec![Vec::new(); SHARDS],
        }
    }

    pub(super) fn clear(&mut self) {
        self.narrow.iter_mut().for_each(Vec::clear);
        self.wide.iter_mut().for_each(Vec::clear);
        self.tagged.iter_mut().for_each(Vec::clear);
    }

    /// The bytes its buffers hold.
    pub(super) fn bytes(&self) -> usize {
        self.narrow.iter().map(|v| v.capacity() * 4).sum::<usize>()
            + self
                .wide
                .iter()
                .map(|v| v.capacity() * std::mem::size_of::<K>())
                .sum::<usize>()
            + self.tagged.iter().map(|v| v.capacity() * 8).sum::<usize>()
    }

    #[inline]
    pub(super) fn push(&mut self, pos: K) {
        match self.keys.0 {
            Some(p) => {
                let (shard, key) = p.split(pos.to_u128() as u64);
                self.narrow[shard].push(key);
            }
            None => self.wide[pos.shard(SHARDS)].push(pos),
        }
    }

    /// [`Out::push`] of a child with its payload ([`JumpOrder::payload`]); packed keys
    /// only.
    #[inline]
    pub(super) fn push_tagged(&mut self, pos: K, payload: u32) {
        let p = self.keys.0.expect("packed keys");
        let (shard, key) = p.split(pos.to_u128() as u64);
        self.tagged[shard].push(u64::from(key) << 32 | u64::from(payload));
    }
}

/// Appends a batch's buffers of one shard (`parts`) to the shard's table, and removes the
/// repeats once they could bloat the memory (`clean`: the table's length when it last had
/// none; keys below `2^bits`).
pub(super) fn gather<'a, T: Bits>(
    table: &mut Vec<T>,
    parts: impl Iterator<Item = &'a [T]> + Clone,
    clean: &mut usize,
    bits: usize,
) {
    table.reserve(parts.clone().map(<[T]>::len).sum());
    for part in parts {
        table.extend_from_slice(part);
    }
    if table.len() > 4 * *clean + 65536 {
        radix_sort_dedup(table, bits);
        *clean = table.len();
    }
}

/// [`gather`] of packed keys with their payloads: the repeats of a key go, keeping the
/// smallest payload, once they could bloat the memory.
pub(super) fn gather_pairs<'a>(
    table: &mut Vec<u64>,
    parts: impl Iterator<Item = &'a [u64]> + Clone,
    clean: &mut usize,
) {
    table.reserve(parts.clone().map(<[u64]>::len).sum());
    for part in parts {
        table.extend_from_slice(part);
    }
    if table.len() > 4 * *clean + 65536 {
        table.sort_unstable();
        table.dedup_by_key(|x| *x >> 32);
        *clean = table.len();
    }
}

/// The shards of the next layer while [`Solver::step_at`] builds it, in the buffers' form:
/// packed keys where they fit, key-payload pairs when tagged, full keys otherwise; `clean`
/// counts each shard's entries already free of repeats.
pub(super) struct Building<K> {
    next: Shards<K>,
    packed: Vec<Vec<u32>>,
    pairs: Vec<Vec<u64>>,
    clean: Vec<usize>,
}

impl<K: Bits> Building<K> {
    pub(super) fn new() -> Self {
        Building {
            next: vec![Vec::new(); SHARDS],
            packed: vec![Vec::new(); SHARDS],
            pairs: vec![Vec::new(); SHARDS],
            clean: vec![0usize; SHARDS],
        }
    }

    /// Merges a batch's buffers into the shards, one task per shard.
    pub(super) fn gather(
        &mut self,
        outs: &[Out<K>],
        tagged: bool,
        low: Option<usize>,
        bits: usize,
    ) {
        self.next
            .par_iter_mut()
            .zip(self.packed.par_iter_mut())
            .zip(self.pairs.par_iter_mut())
            .zip(self.clean.par_iter_mut())
            .enumerate()
            .for_each(|(i, (((table, packed), pairs), clean))| match low {
                _ if tagged => gather_pairs(pairs, outs.iter().map(|o| &o.tagged[i][..]), clean),
                Some(low) => gather(packed, outs.iter().map(|o| &o.narrow[i][..]), clean, low),
                None => gather(table, outs.iter().map(|o| &o.wide[i][..]), clean, bits),
            });
    }

    /// The bytes the shards being built hold.
    pub(super) fn bytes(&self) -> usize {
        self.next
            .iter()
            .map(|t| t.capacity() * std::mem::size_of::<K>())
            .sum::<usize>()
            + self.packed.iter().map(|t| t.capacity() * 4).sum::<usize>()
            + self.pairs.iter().map(|t| t.capacity() * 8).sum::<usize>()
    }

    /// The next layer, each shard sorted and free of repeats, and (`tagged`) its children's
    /// least payloads in its order, shard by shard.
    pub(super) fn finish(mut self, keys: Keys, tagged: bool, bits: usize) -> (Shards<K>, Vec<u32>) {
        // One hash table per task, reused: a fresh one per shard cost page faults.
        let payloads: Vec<Vec<u32>> = self
            .next
            .par_iter_mut()
            .zip(self.packed.par_iter_mut())
            .zip(self.pairs.par_iter_mut())
            .enumerate()
            .map_init(
                || (Vec::new(), Vec::new(), Vec::new()),
                |(slots, slots32, slots64), (i, ((t, p), pairs))| {
                    let mut payloads = Vec::new();
                    if tagged {
                        let packed = keys.0.expect("packed keys");
                        least_payloads(pairs, slots64);
                        (*t, payloads) = unpack_pairs(pairs, |k| packed.join(i, k), bits);
                        *pairs = Vec::new();
                    } else if let Some(packed) = keys.0 {
                        // Repeats out; the order comes after unpacking.
                        if (256..=DISTINCT_MAX).contains(&p.len()) {
                            drop_repeats(p, slots32);
                        } else {
                            radix_sort_dedup(p, packed.low_bits() as usize);
                        }
                        *t = p
                            .iter()
                            .map(|&x| K::from_u128(u128::from(packed.join(i, x))))
                            .collect();
                        *p = Vec::new();
                        radix_sort_dedup(t, bits);
                    } else {
                        distinct(t, bits, slots);
                    }
                    t.shrink_to_fit();
                    payloads
                },
            )
            .collect();
        (self.next, payloads.concat())
    }
}
