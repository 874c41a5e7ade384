//! The places of a forward layer's positions ([`Places`], [`locate`]) and the parents
//! they give ([`Links`]).

use super::*;

/// Where each position of a layer is, by its packed key ([`Keys`]): per shard, open
/// addressing with linear probing, at most half full, every shard's table in one
/// allocation. A slot holds the packed key (high half) and the position's index in the
/// layer, flattened shard by shard, plus one (low half); zero marks an empty slot.
pub(super) struct Places {
    pub(super) slots: Vec<u64>,
    /// Per shard: its first slot and the shift of its hash.
    pub(super) shards: Vec<(usize, u32)>,
}

impl Places {
    /// The places of `layer`'s positions (fewer than `u32::MAX`).
    pub(super) fn new<K: Bits>(layer: &Shards<K>, packed: Packed) -> Places {
        debug_assert!(size(layer) < u32::MAX as usize);
        let mut shards = Vec::with_capacity(layer.len());
        let mut total = 0;
        for t in layer {
            let n = Self::slots(t.len());
            shards.push((total, 64 - n.trailing_zeros()));
            total += n;
        }
        let mut slots = crate::memory::filled(total, 0u64);
        let lens: Vec<usize> = shards
            .iter()
            .zip(shards.iter().skip(1).map(|s| s.0).chain([total]))
            .map(|(s, end)| end - s.0)
            .collect();
        let mut base = 0u32;
        let parts: Vec<_> = split_by_mut(&mut slots, &lens)
            .into_iter()
            .zip(layer)
            .zip(&shards)
            .map(|((part, t), &(_, shift))| {
                base += t.len() as u32;
                (part, t, base - t.len() as u32, shift)
            })
            .collect();
        parts.into_par_iter().for_each(|(part, t, base, shift)| {
            for (i, &pos) in t.iter().enumerate() {
                place(
                    part,
                    shift,
                    packed.split(pos.to_u128() as u64).1,
                    base + i as u32,
                );
            }
        });
        Places { slots, shards }
    }

    /// The slots of each shard of `layer`: at least twice its positions, a power of two.
    pub(super) fn slots(t: usize) -> usize {
        (2 * t).next_power_of_two().max(16)
    }

    /// The bytes of the places of `layer`.
    pub(super) fn bytes<K>(layer: &Shards<K>) -> usize {
        layer.iter().map(|t| Self::slots(t.len())).sum::<usize>() * 8
    }

    #[inline]
    pub(super) fn index(key: u32, shift: u32) -> usize {
        (u64::from(key).wrapping_mul(crate::hash::MIX) >> shift) as usize
    }

    /// The slots of shard `shard` and the shift of their hash.
    #[inline]
    fn shard(&self, shard: usize) -> (&[u64], u32) {
        let (first, shift) = self.shards[shard];
        (&self.slots[first..first + (1 << (64 - shift))], shift)
    }

    #[inline]
    pub(super) fn prefetch(&self, (shard, key): (usize, u32)) {
        let (part, shift) = self.shard(shard);
        prefetch_place(part, shift, key);
    }

    /// The index of the position of packed key `(shard, key)`, if the layer holds it.
    #[inline]
    pub(super) fn get(&self, (shard, key): (usize, u32)) -> Option<u32> {
        let (part, shift) = self.shard(shard);
        place_of(part, shift, key)
    }
}

/// Puts `key` with `value` into `part`, the slots of one shard of [`Places`] (or of one
/// shard in [`exchange`]): a power of two of them, `shift` the shift of their hash
/// ([`Places::index`]), linear probing. The slot holds the key in its high half and
/// `value + 1` in its low half, so that zero marks an empty slot.
#[inline]
pub(super) fn place(part: &mut [u64], shift: u32, key: u32, value: u32) {
    let mask = part.len() - 1;
    let mut i = Places::index(key, shift);
    while part[i] != 0 {
        i = (i + 1) & mask;
    }
    part[i] = u64::from(key) << 32 | u64::from(value + 1);
}

/// The value that [`place`] put into `part` with `key`, if any.
#[inline]
pub(super) fn place_of(part: &[u64], shift: u32, key: u32) -> Option<u32> {
    let mask = part.len() - 1;
    let mut i = Places::index(key, shift);
    loop {
        let s = part[i];
        if s == 0 {
            return None;
        }
        if (s >> 32) as u32 == key {
            return Some(s as u32 - 1);
        }
        i = (i + 1) & mask;
    }
}

/// Asks for the line of `key`'s first slot in `part` ahead of [`place_of`].
#[inline]
pub(super) fn prefetch_place(part: &[u64], shift: u32, key: u32) {
    crate::hash::prefetch(part.as_ptr().wrapping_add(Places::index(key, shift)));
}

/// The solvable parents of the positions of a solvable layer, per shard of the layer:
/// `(starts, to)`, position `i`'s parents being `to[starts[i]..starts[i + 1]]`, each an
/// index into the solvable layer before (flattened shard by shard), once per un-jump
/// ([`Solver::back_to_start`]).
pub(super) struct Links(pub(super) Vec<(Vec<u32>, Vec<u32>)>);

impl Links {
    /// Per shard of the layer, each position's `lanes` values: the sums of its parents'
    /// (`before`, per shard of the layer before, `lanes` values a position).
    pub(super) fn sum(&self, before: &[Vec<u128>], lanes: usize) -> Result<Vec<Vec<u128>>> {
        let prev: Vec<u128> = before.concat();
        self.0
            .par_iter()
            .map(|(starts, to)| {
                let mut out = crate::memory::filled((starts.len() - 1) * lanes, 0u128);
                for (i, w) in starts.windows(2).enumerate() {
                    let sum = &mut out[i * lanes..][..lanes];
                    for &t in &to[w[0] as usize..w[1] as usize] {
                        let from = &prev[t as usize * lanes..][..lanes];
                        for (s, &x) in sum.iter_mut().zip(from) {
                            *s = add(*s, x)?;
                        }
                    }
                }
                Ok(out)
            })
            .collect()
    }
}

/// For each position `unit[i]`, looks up in `places` the keys that `keys(pos, out)`
/// pushes, and calls `found(i, index)` for each key held, in the order of the positions.
/// As [`probe`], the keys of a block of positions are listed first, and the slot of each
/// is fetched [`PROBE_AHEAD`] keys before it is looked up. (No [`KeyFilter`] first: about
/// half the keys are held, and building the filter cost more than it saved.)
pub(super) fn locate<K: Bits>(
    unit: &[K],
    places: &Places,
    packed: Packed,
    mut keys: impl FnMut(K, &mut Vec<K>),
    mut found: impl FnMut(usize, u32),
) {
    const BLOCK: usize = 32;
    let mut buf: Vec<K> = Vec::with_capacity(BLOCK * 16);
    let mut split: Vec<((usize, u32), u32)> = Vec::with_capacity(BLOCK * 16);
    for (b, block) in unit.chunks(BLOCK).enumerate() {
        split.clear();
        for (i, &pos) in block.iter().enumerate() {
            buf.clear();
            keys(pos, &mut buf);
            let owner = (b * BLOCK + i) as u32;
            split.extend(
                buf.iter()
                    .map(|&k| (packed.split(k.to_u128() as u64), owner)),
            );
        }
        for &(k, _) in split.iter().take(PROBE_AHEAD) {
            places.prefetch(k);
        }
        for (n, &(k, i)) in split.iter().enumerate() {
            if let Some(&(later, _)) = split.get(n + PROBE_AHEAD) {
                places.prefetch(later);
            }
            if let Some(at) = places.get(k) {
                found(i as usize, at);
            }
        }
    }
}

/// The largest [`Places`] of a forward layer for which the back pass records [`Links`]
/// ([`Solver::links_pay`]): 16 MiB, half the third-level cache of the machine it was
/// measured on (docs/experiments.md, "Figures that were in code comments"). Past it each
/// probe waits for memory, and sorting the parents costs less.
pub(super) const LINK_CACHE: usize = 16 << 20;
