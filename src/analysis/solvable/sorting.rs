//! Sorted shards of keys: the radix sort and the removal of repeats ([`distinct`],
//! [`drop_repeats`], [`least_payloads`]), the unpacking of key-payload pairs, the
//! intersection of two layers, and slices cut by lengths.

use super::*;

/// The number of positions of a layer.
pub(super) fn size<K>(layer: &Shards<K>) -> usize {
    layer.iter().map(Vec::len).sum()
}

/// The keys of `a` that `b` holds, shard by shard (both sorted).
pub(super) fn intersect<K: Bits>(a: Shards<K>, b: &Shards<K>) -> Shards<K> {
    a.into_par_iter()
        .zip(b.par_iter())
        .map(|(mut p, f)| {
            let mut k = 0;
            p.retain(|x| {
                while k < f.len() && f[k] < *x {
                    k += 1;
                }
                k < f.len() && f[k] == *x
            });
            p.shrink_to_fit();
            p
        })
        .collect()
}

/// The most keys [`distinct`] hashes: a table of 2^17 slots, 1 MB of `u64` keys, within a
/// core's 2 MB second-level cache: hashing shards of millions of keys is slower than
/// sorting them (docs/experiments.md, "Figures that were in code comments").
pub(super) const DISTINCT_MAX: usize = 1 << 16;

/// Sorts `v` (keys below `2^bits`) and removes its repeats. Between 256 and
/// [`DISTINCT_MAX`] keys, the repeats go first through a hash table in `slots` (reused
/// from call to call; linear probing, at most half full; zero, the empty board, is handled
/// aside), so that only the distinct keys are radix-sorted. A shard of a layer being built
/// repeats its keys: english's layer 15 is reached by 7.2 million kept jumps from layer 14
/// for 1.24 million positions. The table of one shard stays within the caches, so a repeat
/// costs one probe, where sorting it costs three passes.
pub(super) fn distinct<K: Bits>(v: &mut Vec<K>, bits: usize, slots: &mut Vec<K>) {
    if (256..=DISTINCT_MAX).contains(&v.len()) {
        drop_repeats(v, slots);
    }
    radix_sort_dedup(v, bits);
}

/// The hash table of [`distinct`]: keeps the first of each key, in place.
pub(super) fn drop_repeats<K: Bits>(v: &mut Vec<K>, slots: &mut Vec<K>) {
    let size = (2 * v.len()).next_power_of_two();
    let shift = 64 - size.trailing_zeros();
    let mask = size - 1;
    slots.clear();
    slots.resize(size, K::zero());
    let mut zero = false;
    let mut n = 0;
    for i in 0..v.len() {
        let k = v[i];
        if k == K::zero() {
            zero = true;
            continue;
        }
        // Another multiplier than the shard hash's: one shard's keys spread out.
        let mut at = (k.fold64().wrapping_mul(crate::hash::MIX) >> shift) as usize;
        loop {
            let x = slots[at];
            if x == k {
                break;
            }
            if x == K::zero() {
                slots[at] = k;
                v[n] = k;
                n += 1;
                break;
            }
            at = (at + 1) & mask;
        }
    }
    v.truncate(n);
    if zero {
        v.push(K::zero());
    }
}

/// `v` cut into consecutive slices of lengths `lens`.
pub(super) fn split_by<'a, T>(mut v: &'a [T], lens: &[usize]) -> Vec<&'a [T]> {
    lens.iter()
        .map(|&n| {
            let (part, rest) = v.split_at(n);
            v = rest;
            part
        })
        .collect()
}

/// [`split_by`] for a mutable slice.
pub(super) fn split_by_mut<'a, T>(mut v: &'a mut [T], lens: &[usize]) -> Vec<&'a mut [T]> {
    lens.iter()
        .map(|&n| {
            let (part, rest) = std::mem::take(&mut v).split_at_mut(n);
            v = rest;
            part
        })
        .collect()
}

/// Sorts `v` and removes duplicates, for keys below `2^bits`: a least-significant-digit
/// radix sort, 11 bits per pass (3 passes for the 33 holes of english), all digit counts
/// taken in one read, which beats a comparison sort on the shards' random keys.
pub(super) fn radix_sort_dedup<K: Bits>(v: &mut Vec<K>, bits: usize) {
    const DIGIT: usize = 11;
    const MAX_PASSES: usize = 128usize.div_ceil(DIGIT);
    if v.len() < 256 {
        v.sort_unstable();
        v.dedup();
        return;
    }
    let passes = bits.div_ceil(DIGIT);
    let mask = K::from((1usize << DIGIT) - 1).expect("digit mask fits");
    let digit = |x: K, pass: usize| {
        ((x >> (pass * DIGIT)) & mask)
            .to_usize()
            .expect("digit fits")
    };
    let mut counts = vec![[0usize; 1 << DIGIT]; passes.min(MAX_PASSES)];
    for &x in v.iter() {
        for (pass, count) in counts.iter_mut().enumerate() {
            count[digit(x, pass)] += 1;
        }
    }
    let mut buf = vec![K::zero(); v.len()];
    let mut src = std::mem::take(v);
    for (pass, count) in counts.iter_mut().enumerate() {
        let mut sum = 0;
        for c in count.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for &x in &src {
            let d = digit(x, pass);
            buf[count[d]] = x;
            count[d] += 1;
        }
        std::mem::swap(&mut src, &mut buf);
    }
    src.dedup();
    *v = src;
}

/// Keeps one entry per key (the high half of each entry) of `v`, the one of smallest
/// payload (the low half), in no particular order: by a hash table in `slots` up to
/// [`DISTINCT_MAX`] entries, as [`drop_repeats`], else by sorting.
pub(super) fn least_payloads(v: &mut Vec<u64>, slots: &mut Vec<u64>) {
    if v.len() > DISTINCT_MAX {
        v.sort_unstable();
        v.dedup_by_key(|x| *x >> 32);
        return;
    }
    let size = (2 * v.len()).next_power_of_two().max(2);
    let shift = 64 - size.trailing_zeros();
    let mask = size - 1;
    slots.clear();
    slots.resize(size, 0);
    // A slot holds a key and the place of its entry in `v`, plus one; zero when empty.
    let mut n = 0;
    for i in 0..v.len() {
        let e = v[i];
        let key = e >> 32;
        let mut at = (key.wrapping_mul(crate::hash::MIX) >> shift) as usize;
        loop {
            let x = slots[at];
            if x == 0 {
                slots[at] = (key << 32 | n as u64) + 1;
                v[n] = e;
                n += 1;
                break;
            }
            if (x - 1) >> 32 == key {
                let k = ((x - 1) & 0xffff_ffff) as usize;
                v[k] = v[k].min(e);
                break;
            }
            at = (at + 1) & mask;
        }
    }
    v.truncate(n);
}

/// The positions of `pairs` (packed keys and payloads, one entry a key), unpacked by
/// `join` and sorted, and their payloads in the same order.
pub(super) fn unpack_pairs<K: Bits>(
    pairs: &[u64],
    join: impl Fn(u32) -> u64,
    holes: usize,
) -> (Vec<K>, Vec<u32>) {
    let room = 64 - holes;
    if holes <= 40 && (pairs.len() as u64) < 1u64 << room {
        // The position above its index in `pairs`: one sort of plain integers.
        let mut v: Vec<u64> = pairs
            .iter()
            .enumerate()
            .map(|(i, &e)| join((e >> 32) as u32) << room | i as u64)
            .collect();
        crate::analysis::order::radix_sort_high(&mut v, room, holes);
        let index = |x: u64| (x & ((1 << room) - 1)) as usize;
        let keys = v
            .iter()
            .map(|&x| K::from_u128(u128::from(x >> room)))
            .collect();
        let payloads = v.iter().map(|&x| pairs[index(x)] as u32).collect();
        return (keys, payloads);
    }
    let mut v: Vec<(u64, u32)> = pairs
        .iter()
        .map(|&e| (join((e >> 32) as u32), e as u32))
        .collect();
    v.sort_unstable();
    (
        v.iter()
            .map(|&(k, _)| K::from_u128(u128::from(k)))
            .collect(),
        v.iter().map(|&(_, p)| p).collect(),
    )
}
