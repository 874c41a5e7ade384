//! A layer swept in memory, and a layer written to disk when the next would not fit.

use super::CountOptions;
use super::SHARDS;
use super::expand::Sweep;
use super::lanes::{Codec, Key, Lane};
use super::pass::write_shard;
use super::plan::{Budget, guess_next};
use super::run::{Run, checkpoint};
use super::shard::{Frozen, Out, Shard};
use super::step::{self, Buffers};
use super::tally::LayerAcc;
use super::wire::route_forms;
use crate::count::disk::LayerFiles;
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use rayon::prelude::*;

impl<K: Bits, const N: usize> Sweep<'_, K, N> {
    /// Sweeps layer `jumps`, held in memory, into the next one (in memory): its shards are
    /// expanded a batch at a time ([`super::step`]), each shard freed once expanded.
    /// Returns the next layer, the statistics and the positions up to symmetry.
    #[allow(clippy::type_complexity)]
    pub(super) fn memory_layer<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        current: &mut [Frozen<C::S, L, N>],
        jumps: usize,
        pool: &mut [Buffers<C::S, L, N>],
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<(Vec<Frozen<C::S, L, N>>, LayerAcc<N>, [u64; N])> {
        let batch = pool.len();
        let entries: usize = current.iter().map(|t| t.len()).sum();
        // Canonical forms under K are gathered only where it is larger than H.
        let reduce = self.moves.outer_order() > self.moves.subgroup_order();
        let mut next = self.reserved_tables::<C::S, L>(entries, run);
        let mut acc = LayerAcc::default();
        // One canonical form per entry, each unit writing its own stretch: no vector per
        // unit and no copy (docs/experiments.md, "Writing children, and page faults").
        let mut reduced = vec![K::zero(); if reduce { entries } else { 0 }];
        let reduced_bytes = std::mem::size_of_val(&reduced[..]) as u64;
        let mut rest = &mut reduced[..];
        // This rank's shards (every shard outside MPI), a batch at a time.
        let cluster = run.cluster;
        let mut mine: Vec<(usize, &mut Frozen<C::S, L, N>)> = current
            .iter_mut()
            .enumerate()
            .filter(|(s, _)| cluster.owns(*s))
            .collect();
        for round in 0..step::batches(&cluster, mine.len(), batch) {
            step::cancelled(opts)?;
            let len = mine.len();
            let units = &mut mine[step::batch_range(round, batch, len)];
            let pool = &mut pool[..units.len()];
            let mut stretches = Vec::with_capacity(units.len());
            for (_, unit) in units.iter() {
                let (own, later) = rest.split_at_mut(if reduce { unit.len() } else { 0 });
                stretches.push(own);
                rest = later;
            }
            let units = units.par_iter_mut().zip(stretches);
            let accs = step::expand_batch(units, pool, |((shard, unit), stretch), out| {
                self.expand_frozen(codec, *shard, unit, out, stretch, reduce)
            })?;
            let received = step::exchange_absorb(pool, &mut next, 0, run)?;
            let buffers = step::buffer_bytes(pool) + received;
            run.buffers = buffers;
            for unit_acc in accs {
                acc.absorb(unit_acc)?;
            }
            let held: u64 = mine.iter().map(|(_, t)| t.bytes()).sum::<u64>()
                + next.iter().map(|t| t.bytes()).sum::<u64>()
                + reduced_bytes;
            if !Budget(opts.max_memory).holds(held + buffers) {
                let so_far = next.iter().map(|t| t.len()).sum::<usize>();
                return Err(self.out_of_memory(jumps + 1, so_far, opts.max_memory));
            }
        }
        let acc = acc.gather(&cluster)?;
        let reduced = self.reduced_counts(&acc, reduced, run)?;
        let next = next.into_par_iter().map(Frozen::new).collect();
        Ok((next, acc, reduced))
    }

    /// The next layer's tables, each reserving its share of the size guessed from the last
    /// growth (the layer before carried over from narrow lanes), so that tables seldom grow
    /// (docs/experiments.md, "Reserved tables"). `entries`: this rank's.
    fn reserved_tables<S: Key, L: Lane>(&self, entries: usize, run: &Run) -> Vec<Shard<S, L, N>> {
        let mut next = Self::new_tables::<S, L>();
        let all_entries = run.cluster.sum(&[entries as u64])[0];
        if run.growth.previous > 0 {
            let guess = guess_next(all_entries, run.growth.previous);
            let each = guess.min(self.most_children(all_entries)) as usize / SHARDS;
            if each >= 1024 {
                next.par_iter_mut().for_each(|t| t.low.reserve(each));
            }
        }
        next
    }

    /// Expands every entry of one frozen shard (`shard`) into the unit's buffers `out`,
    /// emptied first; writes the canonical forms under `K` into `stretch` when `reduce`.
    /// The entries are freed as the unit ends.
    fn expand_frozen<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        shard: usize,
        unit: &mut Frozen<C::S, L, N>,
        out: &mut [Out<C::S, L, N>],
        stretch: &mut [K],
        reduce: bool,
    ) -> Result<LayerAcc<N>> {
        out.iter_mut().for_each(|o| {
            o.low.clear();
            o.high.clear();
        });
        let mut acc = LayerAcc::default();
        let mut jumps = vec![0u32; self.board.jumps().len()];
        let (entries, high) = unit.take();
        for (n, (key, lo)) in entries.iter().enumerate() {
            let hi = if high.is_empty() { None } else { high.get(key) };
            let hi = hi.as_ref();
            let pos = codec.join(shard, *key);
            let all = &(0..SHARDS);
            let canon = self.expand(codec, pos, lo, hi, out, &mut jumps, &mut acc, all)?;
            if reduce {
                stretch[n] = canon;
            }
        }
        Ok(acc)
    }

    /// The refusal of layer `layer`, whose tables outgrew `max` bytes with `so_far` entries.
    fn out_of_memory(&self, layer: usize, so_far: usize, max: u64) -> Error {
        Error::memory_limit(
            &format!("{} from {}", self.board.name(), self.start_names()),
            &format!("the tables after {layer} jumps need"),
            &crate::memory::human(max),
            &format!("; layer {layer} has {so_far} positions up to symmetry so far"),
        )
    }

    /// Writes layer `layer`, held in memory, to the work directory (freeing it shard by
    /// shard) and records it as the checkpoint.
    pub(super) fn spill<S: Key, L: Lane>(
        &self,
        current: Vec<Frozen<S, L, N>>,
        layer: usize,
        narrow: bool,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<LayerFiles> {
        let entries: u64 = current.iter().map(|t| t.len() as u64).sum();
        // About 4 bytes a count as varints; a mass about 16.
        let lane_bytes = if L::MASS { 16 } else { 4 };
        // Checked before the folder is made, so that a refusal leaves nothing behind.
        self.check_disk(
            run,
            opts,
            0,
            entries.saturating_mul((size_of::<S>() + lane_bytes * N) as u64),
            layer,
        )?;
        run.work_dir()?;
        let dir = run.work.fresh_layer_dir(layer)?;
        let id = run.work.id();
        let shards = current
            .into_par_iter()
            .enumerate()
            .map(|(s, mut t)| write_shard(&dir, id, layer, s, t.drain()))
            .collect::<Result<Vec<_>>>()?;
        let files = LayerFiles { layer, dir, shards };
        checkpoint(run, &files, narrow)?;
        Ok(files)
    }

    /// Positions up to the whole group `G` per start, from the canonical forms under `K`
    /// of the layer's entries ([`Sweep::expand`]), when `K` is larger than `H`.
    ///
    /// `K` is the stabiliser of the starts' position class `C` ([`Board::same_class`]) when
    /// they share one. A symmetry that keeps one position of `C` in `C` maps `C` onto
    /// itself, so `G`-orbits meet `C` in single `K`-orbits, and every position reachable
    /// from a start lies in `C`: positions up to `G` are positions up to `K`. Where `K` is
    /// `H` (every sweep of the english table), they are the entries that reach the start,
    /// with no canonical forms to gather and sort (docs/experiments.md, "Positions up to symmetry
    /// within a class").
    ///
    /// Under several ranks `acc` is the whole layer's, and each canonical form is sent to
    /// a rank chosen by a hash of it, so that equal forms from different ranks meet; each
    /// rank counts its own and the counts are added.
    pub(super) fn reduced_counts(
        &self,
        acc: &LayerAcc<N>,
        mut reduced: Vec<K>,
        run: &mut Run,
    ) -> Result<[u64; N]> {
        if self.moves.outer_order() == self.moves.subgroup_order() {
            return Ok(acc.reached);
        }
        let cluster = run.cluster;
        if cluster.size() == 1 {
            return Ok(Self::distinct(&mut reduced));
        }
        let mut forms = route_forms(reduced, N, run)?;
        let mine = Self::distinct(&mut forms);
        let all = cluster.sum(&mine);
        Ok(std::array::from_fn(|k| all[k]))
    }
}
