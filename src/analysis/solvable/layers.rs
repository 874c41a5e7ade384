//! Building a layer from the one before: one step over the shards as work units
//! ([`Solver::step_at`]), the children or parents of each position written to one buffer
//! per next-layer shard and merged per shard (sorted, repeats removed), optionally with the
//! cuts ([`Solver::expand`]) and the order of commuting jumps ([`Solver::expand_ordered`]).
//! Also the layer helpers: [`Keys`], [`Out`], [`intersect`], the sorts and the repeats' removal.

use super::*;

impl<'a, K: Bits> Solver<'a, K> {
    /// The next layer: `f(pos, out, acc)` pushes the canonical successors of `pos` into
    /// `out` ([`Out::push`], which picks the shard) and may note statistics of `pos` in the
    /// unit's accumulator `acc`.
    /// Units are the shards of `layer`, in batches; per-shard buffers are merged one task
    /// per shard, then sorted and deduplicated. On boards of up to 40 holes the buffers
    /// and the shards being built hold 32-bit keys ([`Keys`]), unpacked once the repeats
    /// are gone, which is faster and smaller (docs/experiments.md, "Figures that were in
    /// code comments"). Returns the next layer and the units' accumulators, or [`Error::Memory`] when the layer's
    /// buffers take the process past its limit ([`Solver::check_resident`], asked each time
    /// they grew by a sixty-fourth of the limit).
    pub(super) fn step<A: Default + Send + Sync>(
        &self,
        layer: &Shards<K>,
        f: impl Fn(K, &mut Out<K>, &mut A) + Sync,
    ) -> Result<(Shards<K>, Vec<A>)> {
        self.step_with(layer, f, |_, _| {})
    }

    /// [`Solver::step`], calling `end(out, acc)` after the last position of each unit.
    pub(super) fn step_with<A: Default + Send + Sync>(
        &self,
        layer: &Shards<K>,
        f: impl Fn(K, &mut Out<K>, &mut A) + Sync,
        end: impl Fn(&mut Out<K>, &mut A) + Sync,
    ) -> Result<(Shards<K>, Vec<A>)> {
        let (next, _, accs) =
            self.step_at(layer, false, |pos, _, out, acc| f(pos, out, acc), end)?;
        Ok((next, accs))
    }

    /// [`Solver::step_with`], where `f` also gets the position's index in the layer
    /// (shard by shard), and with `tagged` pushes its children with their payloads
    /// ([`Out::push_tagged`], packed keys only): of a child's arrivals the smallest
    /// payload is kept, and the payloads are returned in the next layer's order, shard by
    /// shard ([`JumpOrder`]).
    pub(super) fn step_at<A: Default + Send + Sync>(
        &self,
        layer: &Shards<K>,
        tagged: bool,
        f: impl Fn(K, usize, &mut Out<K>, &mut A) + Sync,
        end: impl Fn(&mut Out<K>, &mut A) + Sync,
    ) -> Result<(Shards<K>, Vec<u32>, Vec<A>)> {
        let batch = (4 * rayon::current_num_threads()).clamp(8, SHARDS);
        // The buffers' bytes at which the memory is asked about next.
        let every = self.watch.map_or(usize::MAX, |w| {
            usize::try_from(w.limit() / 64)
                .unwrap_or(usize::MAX)
                .max(4 << 20)
        });
        let mut ask_at = every;
        let offsets: Vec<usize> = layer
            .iter()
            .scan(0, |at, t| {
                let o = *at;
                *at += t.len();
                Some(o)
            })
            .collect();
        let mut building = Building::new();
        let mut accs = Vec::with_capacity(SHARDS);
        let bits = self.board.holes();
        let low = self.keys.low_bits();
        assert!(!tagged || low.is_some(), "tagged children need packed keys");
        // One unit's children per shard, the buffers kept from batch to batch.
        let mut outs: Vec<Out<K>> = (0..batch).map(|_| Out::new(self.keys)).collect();
        for (b, units) in layer.chunks(batch).enumerate() {
            let results: Vec<A> = units
                .par_iter()
                .zip(outs.par_iter_mut())
                .enumerate()
                .map(|(u, (unit, out))| {
                    let mut acc = A::default();
                    out.clear();
                    let at = offsets[b * batch + u];
                    for (i, &pos) in unit.iter().enumerate() {
                        f(pos, at + i, out, &mut acc);
                    }
                    end(out, &mut acc);
                    acc
                })
                .collect();
            let outs = &outs[..units.len()];
            building.gather(outs, tagged, low, bits);
            accs.extend(results);
            let held = outs.iter().map(Out::bytes).sum::<usize>() + building.bytes();
            if held >= ask_at {
                self.check_resident()?;
                ask_at = held.saturating_add(every);
            }
        }
        drop(outs);
        let (next, payloads) = building.finish(self.keys, tagged, bits);
        Ok((next, payloads, accs))
    }

    /// The canonical children (`backward`: parents, by un-jumps) of a layer, and how many
    /// children `prune` ruled out.
    pub(super) fn expand(
        &self,
        layer: &Shards<K>,
        backward: bool,
        prune: Option<&Pruner>,
    ) -> Result<(Shards<K>, u64)> {
        let h = self.moves.subgroup_order();
        let chunks = self.board.holes().div_ceil(8);
        let jumps = self.board.jumps().len();
        let (next, accs) = self.step(layer, |pos, out, acc: &mut (u64, Vec<K>)| {
            let img = self.moves.images(pos, h);
            let Some(p) = prune else {
                self.moves.each_move(pos, backward, |j| {
                    let c = self.moves.canonical_child(&img, j);
                    out.push(c);
                });
                return;
            };
            // Every child is written to `kids`, and only those kept are counted: no branch
            // on the cuts' answer ([`Pruner::keeps`]). A jump is legal from a position at
            // most once, so `kids` never holds more than the board's jumps.
            let (cut, kids) = acc;
            kids.resize(jumps, K::zero());
            let slack = p.slack(pos, chunks);
            let (mut n, mut kept) = (0, 0);
            self.moves.each_move(pos, backward, |j| {
                kids[kept] = self.moves.canonical_child(&img, j);
                kept += usize::from(p.keeps(&slack, j, backward));
                n += 1;
            });
            for &c in &kids[..kept] {
                out.push(c);
            }
            *cut += (n - kept) as u64;
        })?;
        Ok((next, accs.iter().map(|a| a.0).sum()))
    }

    /// [`Solver::expand`] with the order of jumps when the layer has `tags`
    /// ([`Solver::expand_ordered`], `ranks` as there), plainly otherwise; the next layer's
    /// tags, if any.
    pub(super) fn expand_with(
        &self,
        layer: &Shards<K>,
        tags: Option<&[u32]>,
        backward: bool,
        prune: Option<&Pruner>,
        ranks: bool,
    ) -> Result<(Shards<K>, Option<Vec<u32>>, u64)> {
        match tags {
            Some(t) => self.expand_ordered(layer, t, backward, prune, ranks),
            None => {
                let (next, cut) = self.expand(layer, backward, prune)?;
                Ok((next, None, cut))
            }
        }
    }

    /// The tags of a first layer (a start, or the goals), when the order of jumps applies
    /// ([`JumpOrder`]: a board of at most 126 jumps, packed keys).
    pub(super) fn first_tags(&self, layer: &Shards<K>) -> Option<Vec<u32>> {
        let order = self.order.as_ref()?;
        self.keys.0?;
        Some((0..size(layer) as u32).map(|r| order.start(r)).collect())
    }

    /// [`Solver::expand`] from a layer whose positions carry tags (`tags`, in the
    /// layer's order), skipping the jumps that [`JumpOrder`] shows to repeat a position:
    /// the same next layer, from fewer jumps (english d4's layer 15: 3.7 million jumps
    /// made and 2.8 million kept, instead of 9.5 and 7.2 million). Returns the next
    /// layer, its tags (`None` when its ranks would not fit a tag) and the children cut.
    ///
    /// Without `ranks` the next layer's tags hold no ranks ([`JumpOrder::unranked`]): they
    /// choose its positions' jumps ([`JumpOrder::within`]) but cannot order a layer after
    /// it, which saves ranking a layer that only the meetings take (english d4's forward
    /// layer 15, 1.24 million positions).
    pub(super) fn expand_ordered(
        &self,
        layer: &Shards<K>,
        tags: &[u32],
        backward: bool,
        prune: Option<&Pruner>,
        ranks: bool,
    ) -> Result<(Shards<K>, Option<Vec<u32>>, u64)> {
        let order = self.order.as_ref().expect("an order of jumps");
        let h = self.moves.subgroup_order();
        let chunks = self.board.holes().div_ceil(8);
        let jumps = self.board.jumps().len();
        let (next, mut payloads, accs) = self.step_at(
            layer,
            true,
            |pos, at, out, acc: &mut (u64, Vec<(K, u32)>)| {
                let tag = tags[at];
                let within = order.within(tag);
                let img = self.moves.images(pos, h);
                let Some(p) = prune else {
                    self.moves.each_move_within(pos, backward, within, |j| {
                        let (c, by) = self.moves.canonical_child_tagged(&img, j);
                        out.push_tagged(c, order.payload(tag, j, by));
                    });
                    return;
                };
                // As in `expand`: every child written, only those kept counted.
                let (cut, kids) = acc;
                kids.resize(jumps, (K::zero(), 0));
                let slack = p.slack(pos, chunks);
                let (mut n, mut kept) = (0, 0);
                self.moves.each_move_within(pos, backward, within, |j| {
                    let (c, by) = self.moves.canonical_child_tagged(&img, j);
                    kids[kept] = (c, order.payload(tag, j, by));
                    kept += usize::from(p.keeps(&slack, j, backward));
                    n += 1;
                });
                for &(c, payload) in &kids[..kept] {
                    out.push_tagged(c, payload);
                }
                *cut += (n - kept) as u64;
            },
            |_, _| {},
        )?;
        let tags = if ranks {
            order.rank(&mut payloads).then_some(payloads)
        } else {
            order.unranked(&mut payloads);
            Some(payloads)
        };
        Ok((next, tags, accs.iter().map(|a| a.0).sum()))
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

/// The shards of the next layer while [`Solver::step_at`] builds it, in the buffers' form:
/// packed keys where they fit, key-payload pairs when tagged, full keys otherwise; `clean`
/// counts each shard's entries already free of repeats.
struct Building<K> {
    next: Shards<K>,
    packed: Vec<Vec<u32>>,
    pairs: Vec<Vec<u64>>,
    clean: Vec<usize>,
}

impl<K: Bits> Building<K> {
    fn new() -> Self {
        Building {
            next: vec![Vec::new(); SHARDS],
            packed: vec![Vec::new(); SHARDS],
            pairs: vec![Vec::new(); SHARDS],
            clean: vec![0usize; SHARDS],
        }
    }

    /// Merges a batch's buffers into the shards, one task per shard.
    fn gather(&mut self, outs: &[Out<K>], tagged: bool, low: Option<usize>, bits: usize) {
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
    fn bytes(&self) -> usize {
        self.next
            .iter()
            .map(|t| t.capacity() * std::mem::size_of::<K>())
            .sum::<usize>()
            + self.packed.iter().map(|t| t.capacity() * 4).sum::<usize>()
            + self.pairs.iter().map(|t| t.capacity() * 8).sum::<usize>()
    }

    /// The next layer, each shard sorted and free of repeats, and (`tagged`) its children's
    /// least payloads in its order, shard by shard.
    fn finish(mut self, keys: Keys, tagged: bool, bits: usize) -> (Shards<K>, Vec<u32>) {
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
