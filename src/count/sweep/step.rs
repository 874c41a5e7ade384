//! One step of a layer, the same in memory and on disk: a batch of work units expanded on
//! the rayon pool, each into its own buffers of children ([`expand_batch`]); then the
//! children exchanged between ranks and absorbed into the next layer's tables, one task per
//! shard, with no locks ([`exchange_absorb`]). Where a unit's entries come from (a frozen
//! shard, or a shard file) is the only difference between the two layers, and lies in the
//! closure each passes.

use super::CountOptions;
use super::lanes::{Key, Lane};
use super::run::Run;
use super::shard::{Out, Shard};
use super::wire::trade;
use crate::count::cluster::Cluster;
use crate::error::Result;
use crate::total::Total;
use rayon::prelude::*;
use std::ops::Range;

/// A unit's buffers of children, one per next-layer shard.
pub(super) type Buffers<S, L, const N: usize> = Vec<Out<S, L, N>>;

/// Stops with [`Error::Interrupted`] when the run was asked to stop.
pub(super) fn cancelled(opts: &CountOptions) -> Result<()> {
    crate::error::interrupted(opts.cancel.as_deref())
}

/// How many batches of `batch` units every rank makes of its `units` units: as many as the
/// rank with the most, for the exchange after each (a collective).
pub(super) fn batches(cluster: &Cluster, units: usize, batch: usize) -> usize {
    cluster.max(&[units.div_ceil(batch) as u64])[0] as usize
}

/// The units of batch `round` of `units` units, `batch` at a time (empty past the last).
pub(super) fn batch_range(round: usize, batch: usize, units: usize) -> Range<usize> {
    let from = (round * batch).min(units);
    from..(from + batch).min(units)
}

/// Expands each of `units` into its own buffers of `pool` with `expand_unit`, on the rayon
/// pool; the results in the order of the units.
pub(super) fn expand_batch<U, R, S, L, const N: usize>(
    units: impl IndexedParallelIterator<Item = U>,
    pool: &mut [Buffers<S, L, N>],
    expand_unit: impl Fn(U, &mut [Out<S, L, N>]) -> Result<R> + Sync + Send,
) -> Result<Vec<R>>
where
    U: Send,
    R: Send,
    S: Send,
    L: Send,
{
    units
        .zip(pool.par_iter_mut())
        .map(|(unit, out)| expand_unit(unit, out))
        .collect()
}

/// Sends the children in `pool` bound for other ranks' shards to those ranks, and adds the
/// rest, and what the other ranks sent, to `tables` (the shards from `offset` on). Returns
/// the bytes of the buffers received.
pub(super) fn exchange_absorb<S: Key, L: Lane, const N: usize>(
    pool: &mut [Buffers<S, L, N>],
    tables: &mut [Shard<S, L, N>],
    offset: usize,
    run: &mut Run,
) -> Result<u64> {
    let received = trade(pool, run)?;
    absorb(tables, offset, pool)?;
    absorb(tables, offset, &received)?;
    Ok(buffer_bytes(&received))
}

/// Adds the children in `pool` to `tables`, the shards from `offset` on: one task per shard.
pub(super) fn absorb<S: Key, L: Lane, const N: usize>(
    tables: &mut [Shard<S, L, N>],
    offset: usize,
    pool: &[Buffers<S, L, N>],
) -> Result<()> {
    tables
        .par_iter_mut()
        .enumerate()
        .try_for_each(|(i, table)| -> Result<()> {
            for out in pool {
                let out = &out[offset + i];
                table.add_all(&out.low)?;
                for (key, hi) in &out.high {
                    table.add_high(*key, hi)?;
                }
            }
            Ok(())
        })
}

/// Bytes held by the children buffers.
pub(super) fn buffer_bytes<S, L, const N: usize>(pool: &[Buffers<S, L, N>]) -> u64 {
    let entry_bytes = size_of::<(S, [L; N])>() as u64;
    pool.iter()
        .flatten()
        .map(|b| {
            b.low.capacity() as u64 * entry_bytes
                + (b.high.capacity() * size_of::<(S, [Total; N])>()) as u64
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_cover_every_unit_once() {
        let one = Cluster::single();
        assert_eq!(batches(&one, 64, 4), 16);
        assert_eq!(batches(&one, 10, 4), 3);
        let ranges: Vec<_> = (0..4).map(|r| batch_range(r, 4, 10)).collect();
        assert_eq!(ranges, [0..4, 4..8, 8..10, 10..10]);
    }

    #[test]
    fn a_step_absorbs_every_child_exactly() {
        // Two units, children in shards 1 and 3; one carries past its 32-bit lane.
        let mut pool: Vec<Buffers<u32, u32, 1>> = vec![vec![Out::default(); 4]; 2];
        let units = vec![(1u32, [u32::MAX]), (1, [5])];
        let made = expand_batch(units.into_par_iter(), &mut pool, |(key, lo), out| {
            out[1].low.push((key, lo));
            out[3].low.push((key + 1, [1]));
            Ok(key)
        })
        .unwrap();
        assert_eq!(made, [1, 1]);
        let mut tables: Vec<Shard<u32, u32, 1>> = (0..4).map(|_| Shard::default()).collect();
        let mut run = Run::for_tests();
        assert_eq!(
            exchange_absorb(&mut pool, &mut tables, 0, &mut run).unwrap(),
            0
        );
        assert_eq!(
            (tables[1].len(), tables[3].len(), tables[0].len()),
            (1, 1, 0)
        );
        let mut one = super::super::shard::Frozen::new(std::mem::take(&mut tables[1]));
        let all: Vec<_> = one.drain().collect();
        assert_eq!(all, [(1, [Total::from(u128::from(u32::MAX) + 5)])]);
        assert!(buffer_bytes(&pool) >= 4 * 8);
    }
}
