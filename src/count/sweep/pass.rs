//! One pass of a layer on disk ([`Sweep::disk_pass`]): every shard file of the current
//! layer read, a batch of readers at a time and each in rounds ([`Rounds`]), each entry
//! expanded by the same step as in memory ([`super::step`]), and the children of the next
//! layer's shards in the pass's range kept; those shards then written.

use super::CountOptions;
use super::SHARDS;
use super::buckets::Buckets;
use super::expand::Sweep;
use super::lanes::{Codec, Key, Lane};
use super::plan::{Budget, batch_units};
use super::rounds::Rounds;
use super::run::Run;
use super::shard::{Frozen, Out, Shard, split};
use super::step::{self, Buffers};
use super::tally::LayerAcc;
use super::wire::route_forms;
use crate::count::disk::{Identity, LayerFiles, ShardReader, ShardWriter, Written};
use crate::error::Result;
use crate::geometry::bits::Bits;
use crate::total::Total;
use rayon::prelude::*;
use std::ops::Range;
use std::path::Path;

/// A pass done: the files of its shards, its entries that carry past their lanes, and,
/// when it gathered them, the layer's statistics and positions up to the whole group.
pub(super) type PassDone<const N: usize> = (Vec<Written>, u64, Option<(LayerAcc<N>, [u64; N])>);

/// What one unit of a round did: entries read, their tallies, their canonical forms.
type Round<K, const N: usize> = (usize, LayerAcc<N>, Vec<K>);

/// The state of a pass over the next layer's shards in `range`.
struct Pass<K, S, L, const N: usize> {
    range: Range<usize>,
    /// Gathers the layer's statistics (the first pass to finish), and, when `reduce`, its
    /// canonical forms under `K` into `buckets`.
    stats: bool,
    reduce: bool,
    tables: Vec<Shard<S, L, N>>,
    plan: Rounds,
    budget: Budget,
    buckets: Option<Buckets<K>>,
    acc: LayerAcc<N>,
    pool: Vec<Buffers<S, L, N>>,
}

impl<K: Bits, const N: usize> Sweep<'_, K, N> {
    /// One pass of [`Sweep::disk_layer`]: reads every shard file of `cur`, a batch at a
    /// time in chunks, expands each entry, keeps the children of the next layer's shards in
    /// `range`, and writes those shards' files into `dir`. Gathers the layer's statistics
    /// when `stats`. `None` when the tables outgrow the budget.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn disk_pass<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        cur: &LayerFiles,
        dir: &Path,
        range: Range<usize>,
        stats: bool,
        guess: u64,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<Option<PassDone<N>>> {
        let mut pass = self.new_pass::<C::S, L>(range, stats, guess, run, opts)?;
        let id = run.work.id().clone();
        let cluster = run.cluster;
        // This rank's shards (every shard outside MPI), a batch of readers at a time; every
        // rank reads as many batches and rounds as the rank with the most, for the exchange
        // of children after each round.
        let mine: Vec<usize> = (0..SHARDS).filter(|&s| cluster.owns(s)).collect();
        let batch = pass.pool.len();
        for group in 0..step::batches(&cluster, mine.len(), batch) {
            let readers = mine[step::batch_range(group, batch, mine.len())]
                .iter()
                .map(|&s| Ok((s, ShardReader::open(&cur.path(s), &id, cur.layer, s)?)))
                .collect::<Result<Vec<_>>>()?;
            if !self.read_group(codec, cur, &mut pass, readers, run, opts)? {
                return Ok(None);
            }
        }
        self.end_pass(pass, cur.layer + 1, dir, &id, run).map(Some)
    }

    /// A pass's tables, each of this rank's (under MPI the others stay empty here) with the
    /// tenth more that `pass_ranges` budgets, so that a guess a little low grows no table
    /// (a table grows by half at once); its plan of rounds, its buckets of canonical forms
    /// and its buffers of children.
    fn new_pass<S: Key, L: Lane>(
        &self,
        range: Range<usize>,
        stats: bool,
        guess: u64,
        run: &Run,
        opts: &CountOptions,
    ) -> Result<Pass<K, S, L, N>> {
        let batch = batch_units();
        let reduce = stats && self.moves.outer_order() > self.moves.subgroup_order();
        let cluster = run.cluster;
        let mut tables: Vec<Shard<S, L, N>> = range.clone().map(|_| Shard::default()).collect();
        let each = guess as usize / SHARDS / 10 * 11;
        if each >= 1024 {
            tables
                .par_iter_mut()
                .enumerate()
                .filter(|(i, _)| cluster.owns(range.start + i))
                .for_each(|(_, t)| t.low.reserve(each));
        }
        // The buffers of a round's children take what the tables leave of the budget
        // ([`Budget::buffer_share`]), set again after each round, as the tables grow.
        let budget = Budget(opts.max_memory);
        let plan = Rounds::new(
            budget.buffer_share(tables.iter().map(|t| t.bytes()).sum::<u64>()),
            batch,
            range.len(),
            size_of::<(S, [L; N])>() as u64,
            size_of::<(S, [Total; N])>() as u64,
        );
        let buckets = if reduce {
            let shift = if N > 1 { N } else { 0 };
            Some(Buckets::<K>::new(run.work.dir(), shift)?)
        } else {
            None
        };
        Ok(Pass {
            range,
            stats,
            reduce,
            tables,
            plan,
            budget,
            buckets,
            acc: LayerAcc::default(),
            pool: (0..batch).map(|_| vec![Out::default(); SHARDS]).collect(),
        })
    }

    /// Reads a batch of `readers` to their ends, a round at a time, each round one step.
    /// `false` when the pass's tables outgrow the budget.
    fn read_group<S: Key, L: Lane, C: Codec<K, S = S>>(
        &self,
        codec: &C,
        cur: &LayerFiles,
        pass: &mut Pass<K, S, L, N>,
        mut readers: Vec<(usize, ShardReader)>,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<bool> {
        let units = readers.len();
        // The entries each unit read in the last round of this batch of readers, and the
        // children each of its buffers took then (low and high).
        let mut last_chunk = None;
        let mut had = vec![vec![(0, 0); pass.range.len()]; units];
        loop {
            step::cancelled(opts)?;
            let chunk = pass.plan.chunk(last_chunk.is_none());
            let (plan, range, reduce) = (&pass.plan, &pass.range, pass.reduce);
            let batch = readers.par_iter_mut().zip(had.par_iter());
            let rounds =
                step::expand_batch(batch, &mut pass.pool[..units], |((s, r), had), out| {
                    let rooms = out[range.clone()].iter_mut().zip(&plan.room).zip(had);
                    for ((o, &(low, high)), &(had_low, had_high)) in rooms {
                        plan.ready(&mut o.low, had_low, low, chunk, last_chunk);
                        plan.ready(&mut o.high, had_high, high, chunk, last_chunk);
                    }
                    self.expand_read(codec, *s, r, out, chunk, range, reduce)
                })?;
            if run.cluster.all(rounds.iter().all(|r| r.0 == 0)) {
                return Ok(true);
            }
            pass.measure(&rounds, units, chunk);
            last_chunk = Some(chunk);
            // Before the exchange, which empties the buffers of other ranks' shards.
            for (had, out) in had.iter_mut().zip(&pass.pool[..units]) {
                for (h, o) in had.iter_mut().zip(&out[pass.range.clone()]) {
                    *h = (o.low.len(), o.high.len());
                }
            }
            let start = pass.range.start;
            let received =
                step::exchange_absorb(&mut pass.pool[..units], &mut pass.tables, start, run)?;
            pass.take_in(rounds, run)?;
            let table_bytes = pass.tables.iter().map(|t| t.bytes()).sum::<u64>();
            let buffers = step::buffer_bytes(&pass.pool) + received;
            let held = table_bytes + buffers;
            if !run.cluster.all(pass.budget.holds(held)) {
                run.trace(|| {
                    format!(
                        "layer {}: the pass over shards {:?} outgrew the budget ({} held: \
                         tables {}, buffers {}); split in two",
                        cur.layer + 1,
                        pass.range,
                        crate::memory::human(held),
                        crate::memory::human(table_bytes),
                        crate::memory::human(buffers)
                    )
                });
                return Ok(false);
            }
            pass.plan.set_share(pass.budget.buffer_share(table_bytes));
        }
    }

    /// Reads up to `chunk` entries of shard `shard` and expands each into `out`, keeping
    /// the children of the shards in `range`; with the canonical forms under `K` when
    /// `reduce`.
    #[allow(clippy::too_many_arguments)]
    fn expand_read<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        shard: usize,
        reader: &mut ShardReader,
        out: &mut [Out<C::S, L, N>],
        chunk: usize,
        range: &Range<usize>,
        reduce: bool,
    ) -> Result<Round<K, N>> {
        let key_bytes = size_of::<C::S>();
        let mut acc = LayerAcc::default();
        let mut canon = Vec::new();
        let mut jumps = vec![0u32; self.board.jumps().len()];
        let mut counts = [Total::ZERO; N];
        let mut n = 0;
        while n < chunk {
            let Some(key) = reader.next_into(key_bytes, &mut counts)? else {
                break;
            };
            let pos = codec.join(shard, C::S::narrow(key));
            let (lo, hi) = split::<L, N>(&counts);
            let hi = hi.as_ref();
            let c = self.expand(codec, pos, &lo, hi, out, &mut jumps, &mut acc, range)?;
            if reduce {
                canon.push(c);
            }
            n += 1;
        }
        Ok((n, acc, canon))
    }

    /// Writes a finished pass's shards as layer `layer` in `dir`, and gathers the layer's
    /// statistics when the pass kept them (a collective).
    fn end_pass<S: Key, L: Lane>(
        &self,
        pass: Pass<K, S, L, N>,
        layer: usize,
        dir: &Path,
        id: &Identity,
        run: &mut Run,
    ) -> Result<PassDone<N>> {
        let Pass {
            range,
            stats,
            tables,
            buckets,
            acc,
            ..
        } = pass;
        let carried = tables.iter().map(|t| t.high.len() as u64).sum();
        let written = tables
            .into_par_iter()
            .enumerate()
            .map(|(i, t)| write_shard(dir, id, layer, range.start + i, Frozen::new(t).drain()))
            .collect::<Result<Vec<_>>>()?;
        if !stats {
            return Ok((written, carried, None));
        }
        let cluster = run.cluster;
        let acc = acc.gather(&cluster)?;
        let reduced = match buckets {
            Some(b) => {
                let mine = b.distinct(Self::distinct)?;
                let all = cluster.sum(&mine);
                std::array::from_fn(|k| all[k])
            }
            None => acc.reached,
        };
        Ok((written, carried, Some((acc, reduced))))
    }
}

impl<K: Bits, S: Key, L: Lane, const N: usize> Pass<K, S, L, N> {
    /// Takes in how many children a round's entries made in each shard of the pass.
    fn measure(&mut self, rounds: &[Round<K, N>], units: usize, chunk: usize) {
        let read = rounds.iter().map(|r| r.0 as u64).sum::<u64>();
        let made: Vec<(u64, u64)> = self
            .range
            .clone()
            .map(|s| {
                self.pool[..units].iter().fold((0, 0), |(l, h), out| {
                    (l + out[s].low.len() as u64, h + out[s].high.len() as u64)
                })
            })
            .collect();
        self.plan.measured(read, &made, units, chunk);
    }

    /// Adds a round's tallies to the pass's (when it keeps them), and sends its canonical
    /// forms to their buckets (a collective under several ranks).
    fn take_in(&mut self, rounds: Vec<Round<K, N>>, run: &mut Run) -> Result<()> {
        let mut forms = Vec::new();
        for (_, a, canon) in rounds {
            if self.stats {
                self.acc.absorb(a)?;
            }
            if self.reduce {
                forms.extend(canon);
            }
        }
        if let Some(b) = self.buckets.as_mut() {
            b.push(&route_forms(forms, N, run)?)?;
        }
        Ok(())
    }
}

/// Writes one shard file of a layer from its entries.
pub(super) fn write_shard<S: Key, const N: usize>(
    dir: &Path,
    id: &Identity,
    layer: usize,
    shard: usize,
    entries: impl Iterator<Item = (S, [Total; N])>,
) -> Result<Written> {
    let mut w = ShardWriter::create(&dir.join(format!("shard-{shard:02}")), id, layer, shard)?;
    for (key, counts) in entries {
        w.push(key.wide(), size_of::<S>(), &counts)?;
    }
    w.finish()
}
