//! The lookups of [`super::tables::probe`] shard by shard ([`exchange`]): each unit lists
//! its keys by shard ([`Bucketed`]), and each shard's table is looked up for the keys of
//! every unit while it stays in the caches.

use super::*;

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

/// The bytes of the keys and values of one group of [`exchange`]'s units, at most
/// ([`Solver::exchange_budget`]).
pub(super) const EXCHANGE_BYTES: usize = 1 << 30;
