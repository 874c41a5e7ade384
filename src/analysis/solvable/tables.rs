//! Membership tables for the probes of the passes: a filter of a layer's keys
//! ([`KeyFilter`]), a hash table of keys and their values ([`WinTable`], [`probe`]), the
//! same lookups shard by shard ([`exchange`]), the places of a forward layer's positions
//! ([`Places`], [`locate`]) and the parents they give ([`Links`]).

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

/// The keys of one unit's neighbours as [`exchange`] passes them on, by the neighbour's
/// shard: shard `s`'s are `pairs[starts[s]..starts[s + 1]]`, each the neighbour's key
/// within its shard ([`Packed::split`]) in the high half and the position's index in the
/// unit in the low half. A group's units keep their vectors from group to group.
#[derive(Default)]
pub(super) struct Bucketed {
    pub(super) pairs: Vec<u64>,
    pub(super) starts: Vec<usize>,
}

impl Bucketed {
    /// Replaces the pairs by the neighbours of the positions of `unit` (`keys(pos, out)`
    /// pushes them into `buf`) and returns how many there are: listed first in the order
    /// found (`found`, their shards in `shards`), then counted and placed shard by shard.
    /// The three buffers are the caller's, kept from unit to unit.
    pub(super) fn fill<K: Bits>(
        &mut self,
        unit: &[K],
        packed: Packed,
        keys: impl Fn(K, &mut Vec<K>),
        (buf, found, shards): &mut (Vec<K>, Vec<u64>, Vec<u8>),
    ) -> usize {
        const { assert!(SHARDS <= 256, "a shard fits a byte") };
        assert!(
            unit.len() <= u32::MAX as usize,
            "a unit's index fits 32 bits"
        );
        found.clear();
        shards.clear();
        for (i, &pos) in unit.iter().enumerate() {
            buf.clear();
            keys(pos, buf);
            for &k in buf.iter() {
                let (s, key) = packed.split(k.to_u128() as u64);
                found.push(u64::from(key) << 32 | i as u64);
                shards.push(s as u8);
            }
        }
        self.starts.clear();
        self.starts.resize(SHARDS + 1, 0);
        for &s in shards.iter() {
            self.starts[s as usize + 1] += 1;
        }
        for s in 0..SHARDS {
            self.starts[s + 1] += self.starts[s];
        }
        let mut at = self.starts.clone();
        self.pairs.clear();
        self.pairs.resize(found.len(), 0);
        for (&p, &s) in found.iter().zip(shards.iter()) {
            self.pairs[at[s as usize]] = p;
            at[s as usize] += 1;
        }
        found.len()
    }
}

/// For each position of each unit of `units`, the sum of the values of the keys that
/// `keys(pos, out)` pushes and `before` holds (`values`, aligned with `before`'s shards):
/// what [`probe`] finds, by an exchange that keeps each lookup within one shard. First each
/// unit lists its keys by shard ([`Bucketed`]); then, shard by shard, a table of the
/// shard's keys (a megabyte or so, which stays in the caches while it is used) is looked
/// up for those keys of every unit, the keys not held are dropped and the values of the
/// others listed; then each unit adds its values up, with [`add`]. A probe into a gigabyte
/// of tables instead waits for memory, and so does a [`KeyFilter`] of the whole layer. The
/// units go through in groups whose keys and values take about `budget` bytes (at least a
/// batch of units a group: four a thread, at most 64), their vectors kept from group to
/// group, and `check` is asked after each batch and after the lookups
/// ([`Solver::check_resident`]). Values are passed on as `u64` when every one of `values`
/// fits.
pub(super) fn exchange<K: Bits>(
    units: &Shards<K>,
    before: &Shards<K>,
    values: &[Vec<u128>],
    packed: Packed,
    budget: usize,
    keys: impl Fn(K, &mut Vec<K>) + Sync,
    check: impl Fn() -> Result<()>,
) -> Result<Vec<Vec<u128>>> {
    let narrow = values
        .par_iter()
        .all(|v| v.iter().all(|&x| x <= u128::from(u64::MAX)));
    if narrow {
        exchange_as::<K, u64>(units, before, values, packed, budget, keys, check)
    } else {
        exchange_as::<K, u128>(units, before, values, packed, budget, keys, check)
    }
}

/// [`exchange`], its values passed on as `V`, which must hold every one of `values`.
fn exchange_as<K: Bits, V>(
    units: &Shards<K>,
    before: &Shards<K>,
    values: &[Vec<u128>],
    packed: Packed,
    budget: usize,
    keys: impl Fn(K, &mut Vec<K>) + Sync,
    check: impl Fn() -> Result<()>,
) -> Result<Vec<Vec<u128>>>
where
    V: Copy + Send + Sync + Into<u128> + TryFrom<u128>,
    <V as TryFrom<u128>>::Error: std::fmt::Debug,
{
    // A batch's buffers hold its units' keys: at most 64 of the 256 units.
    let batch = (4 * rayon::current_num_threads()).clamp(8, 64);
    let per_key = 8 + std::mem::size_of::<V>();
    let mut sums: Vec<Vec<u128>> = Vec::with_capacity(units.len());
    // The group's units; a batch's buffers; per shard, the values of the group's keys that
    // it holds, unit `g`'s from `at[g]` to `at[g + 1]`.
    let mut group: Vec<Bucketed> = Vec::new();
    let mut lists: Vec<(Vec<K>, Vec<u64>, Vec<u8>)> =
        (0..batch).map(|_| Default::default()).collect();
    let mut found: Vec<(Vec<V>, Vec<usize>)> = (0..SHARDS).map(|_| Default::default()).collect();
    let mut next = 0;
    while next < units.len() {
        let first = next;
        let mut held = 0usize;
        while next < units.len() && (next == first || held < budget) {
            let end = (next + batch).min(units.len());
            let (from, to) = (next - first, end - first);
            if group.len() < to {
                group.resize_with(to, Bucketed::default);
            }
            let n: usize = group[from..to]
                .par_iter_mut()
                .zip(&units[next..end])
                .zip(lists.par_iter_mut())
                .map(|((b, unit), list)| b.fill(unit, packed, &keys, list))
                .sum();
            held += n * per_key;
            next = end;
            check()?;
        }
        let members = &mut group[..next - first];
        look_up_group(members, before, values, packed, &mut found);
        check()?;
        sums.extend(sum_group(members, &units[first..next], &found)?);
    }
    Ok(sums)
}

/// The lookups of a group of units ([`exchange`]): each shard takes its part of every
/// unit's pairs and keeps the values of those it holds in `found` ([`look_up`]).
fn look_up_group<K: Bits, V: Copy + Send + Sync + TryFrom<u128>>(
    members: &mut [Bucketed],
    before: &Shards<K>,
    values: &[Vec<u128>],
    packed: Packed,
    found: &mut [(Vec<V>, Vec<usize>)],
) where
    <V as TryFrom<u128>>::Error: std::fmt::Debug,
{
    let mut by_shard: Vec<Vec<&mut [u64]>> = (0..SHARDS)
        .map(|_| Vec::with_capacity(members.len()))
        .collect();
    for b in members.iter_mut() {
        let lens: Vec<usize> = b.starts.windows(2).map(|w| w[1] - w[0]).collect();
        for (s, part) in split_by_mut(&mut b.pairs, &lens).into_iter().enumerate() {
            by_shard[s].push(part);
        }
    }
    by_shard
        .into_par_iter()
        .zip(found.par_iter_mut())
        .enumerate()
        .for_each_init(Vec::new, |slots, (s, (parts, (out, at)))| {
            look_up(&before[s], &values[s], packed, slots, parts, out, at)
        });
}

/// Each unit's sums of the values found for its positions' keys ([`exchange`]), with
/// [`add`].
fn sum_group<K: Bits, V: Copy + Sync + Into<u128>>(
    members: &[Bucketed],
    units: &[Vec<K>],
    found: &[(Vec<V>, Vec<usize>)],
) -> Result<Vec<Vec<u128>>> {
    members
        .par_iter()
        .zip(units)
        .enumerate()
        .map(|(g, (b, unit))| {
            let mut sum = crate::memory::filled(unit.len(), 0u128);
            for (s, (out, at)) in found.iter().enumerate() {
                // The pairs that shard `s` holds, first in its part of the unit's.
                let pairs = &b.pairs[b.starts[s]..];
                for (&p, &x) in pairs.iter().zip(&out[at[g]..at[g + 1]]) {
                    let i = p as u32 as usize;
                    sum[i] = add(sum[i], x.into())?;
                }
            }
            Ok(sum)
        })
        .collect()
}

/// The second phase of [`exchange`] for one shard, whose keys are `keys` and their values
/// `values`: puts them in a table (`slots`, a buffer the caller keeps, filled as one shard
/// of [`Places`] is, by [`place`] with each key's index as its value), then for each
/// unit's pairs of the shard (`parts`, [`Bucketed`]) keeps those whose key the shard holds
/// at the front of the part, in order, and appends their values to `out`; `at` gets where
/// each unit's values begin, and where the last ends. Each key's slot is fetched
/// [`PROBE_AHEAD`] keys before it is looked up.
fn look_up<K: Bits, V>(
    keys: &[K],
    values: &[u128],
    packed: Packed,
    slots: &mut Vec<u64>,
    parts: Vec<&mut [u64]>,
    out: &mut Vec<V>,
    at: &mut Vec<usize>,
) where
    V: TryFrom<u128>,
    <V as TryFrom<u128>>::Error: std::fmt::Debug,
{
    let size = Places::slots(keys.len());
    slots.clear();
    slots.resize(size, 0);
    let shift = 64 - size.trailing_zeros();
    for (n, &k) in keys.iter().enumerate() {
        place(slots, shift, packed.split(k.to_u128() as u64).1, n as u32);
    }
    let slots = &slots[..];
    out.clear();
    at.clear();
    at.push(0);
    for part in parts {
        for &p in part.iter().take(PROBE_AHEAD) {
            prefetch_place(slots, shift, (p >> 32) as u32);
        }
        let mut kept = 0;
        for n in 0..part.len() {
            if let Some(&later) = part.get(n + PROBE_AHEAD) {
                prefetch_place(slots, shift, (later >> 32) as u32);
            }
            let p = part[n];
            if let Some(x) = place_of(slots, shift, (p >> 32) as u32) {
                part[kept] = p;
                kept += 1;
                out.push(V::try_from(values[x as usize]).expect("every value fits"));
            }
        }
        at.push(out.len());
    }
}

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
fn place(part: &mut [u64], shift: u32, key: u32, value: u32) {
    let mask = part.len() - 1;
    let mut i = Places::index(key, shift);
    while part[i] != 0 {
        i = (i + 1) & mask;
    }
    part[i] = u64::from(key) << 32 | u64::from(value + 1);
}

/// The value that [`place`] put into `part` with `key`, if any.
#[inline]
fn place_of(part: &[u64], shift: u32, key: u32) -> Option<u32> {
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
fn prefetch_place(part: &[u64], shift: u32, key: u32) {
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

/// The bytes of the keys and values of one group of [`exchange`]'s units, at most
/// ([`Solver::exchange_budget`]).
pub(super) const EXCHANGE_BYTES: usize = 1 << 30;

/// How many keys ahead [`probe`] fetches a slot.
pub(super) const PROBE_AHEAD: usize = 16;
