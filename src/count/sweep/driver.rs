//! The driver: seed or resume, the narrow phase, the wide phase, finish. Each layer is
//! swept in memory while it and the next fit the budget ([`Sweep::memory_layer`]), on disk
//! from then on ([`Sweep::disk_layer`]).

use super::expand::Sweep;
use super::lanes::{Codec, Lane, Mass, Wide};
use super::plan::{Budget, batch_units, guess_next, guess_on_disk, stays_narrow};
use super::run::{Current, LayerDone, Run, checkpoint, rank_dir};
use super::shard::Out;
use super::tally::LayerAcc;
use super::{CountOptions, DEFAULT_WORK_DIR, SHARDS, Swept, Weight};
use crate::count::disk::Work;
use crate::count::stats::Counts;
use crate::error::Result;
use crate::geometry::bits::Bits;
use std::path::PathBuf;

/// A layer swept: the next layer, its tallies, its positions up to the whole group, and
/// the entries of the next layer that carry past their lanes (this rank's).
type Stepped<S, L, const N: usize> = (Current<S, L, N>, LayerAcc<N>, [u64; N], u64);

impl<K: Bits, const N: usize> Sweep<'_, K, N> {
    /// Runs the sweep, its tables keyed by `codec`: from the last checkpoint in the work
    /// directory if it has one, from the starts otherwise; with narrow lanes while carries
    /// are rare, then wide ones (not where narrow lanes would only be padding).
    pub(super) fn run<C: Codec<K>>(&self, codec: &C, opts: &CountOptions) -> Result<Swept> {
        let mut run = self.new_run::<C>(opts);
        if self.weight == Weight::Random {
            // Masses take one lane width from the start ([`Mass`]).
            let (current, jumps) = match self.resume(codec, &mut run)? {
                Some((files, _)) => {
                    let layer = files.layer;
                    (Current::Disk(files), layer)
                }
                None => {
                    let whole = 1u128 << crate::count::random::FIXED_BITS;
                    (Current::Memory(self.seed(codec, &opts.cluster, whole)?), 0)
                }
            };
            self.layers::<Mass, C>(codec, current, jumps, false, &mut run, opts)?;
            return self.finish(run, opts);
        }
        let can_narrow = size_of::<(C::S, [u32; N])>() < size_of::<(C::S, [Wide; N])>();
        let (current, jumps, narrow) = match self.resume(codec, &mut run)? {
            Some((files, narrow)) => {
                let layer = files.layer;
                (Current::Disk(files), layer, narrow && can_narrow)
            }
            None => (
                Current::Memory(self.seed::<u64, C>(codec, &opts.cluster, 1)?),
                0,
                can_narrow,
            ),
        };
        if narrow {
            let (rest, jumps) =
                self.layers::<u32, C>(codec, current.relane(), jumps, true, &mut run, opts)?;
            self.layers::<Wide, C>(codec, rest.relane(), jumps, false, &mut run, opts)?;
        } else {
            self.layers::<Wide, C>(codec, current.relane(), jumps, false, &mut run, opts)?;
        }
        self.finish(run, opts)
    }

    /// A fresh run, its work directory named by the sweep and this rank.
    fn new_run<C: Codec<K>>(&self, opts: &CountOptions) -> Run {
        let cluster = opts.cluster;
        let root = opts
            .work_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_WORK_DIR));
        let name = format!(
            "{} from {}{}{}",
            self.board.name(),
            self.start_names(),
            if opts.stop_at_dead_end {
                " to the first dead end"
            } else {
                ""
            },
            if self.weight == Weight::Random {
                ", random player"
            } else {
                ""
            }
        );
        let id = self.identity::<C>(&cluster);
        let work = Work::new(&rank_dir(&root, &cluster), &name, id, opts.keep_work);
        let start_pegs = self.starts[0].count_ones() as usize;
        Run::new(
            work,
            self.starts.len(),
            self.board.holes(),
            start_pegs,
            opts,
        )
    }

    /// The statistics of every start, once the last layer is swept; the work directory
    /// removed, or left for the caller ([`CountOptions::defer_cleanup`]).
    fn finish(&self, run: Run, opts: &CountOptions) -> Result<Swept> {
        run.bar.finish();
        let work = if opts.defer_cleanup {
            run.work.defer()
        } else {
            run.work.finish()?;
            None
        };
        let start_pegs = self.starts[0].count_ones() as usize;
        let counts = self
            .starts
            .iter()
            .zip(run.tally.layers)
            .zip(run.tally.finish)
            .map(|((&start, layers), finish)| Counts {
                board: self.board.name().to_string(),
                start: self.board.start_name(start.to_u128()),
                holes: self.board.holes(),
                start_pegs,
                layers,
                finish: finish
                    .iter()
                    .enumerate()
                    .filter(|&(_, &w)| !w.is_zero())
                    .map(|(h, &w)| (self.board.hole_name(h), w))
                    .collect(),
            })
            .collect();
        Ok(Swept {
            counts,
            before: run.before,
            least_dead_ends: run.tally.least_ends,
            work,
        })
    }

    /// Sweeps layer `jumps` (`current`) and the layers after it, recording their statistics
    /// in `run`, until no position is left or, when `narrow`, until more than one entry in
    /// 64 of a finished layer carries into the high parts. Returns the layer not yet swept
    /// and its number.
    fn layers<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        mut current: Current<C::S, L, N>,
        mut jumps: usize,
        narrow: bool,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<(Current<C::S, L, N>, usize)> {
        // Children buffers, one set per unit of a batch, reused across batches and layers.
        let mut pool: Vec<Vec<Out<C::S, L, N>>> = (0..batch_units())
            .map(|_| vec![Out::default(); SHARDS])
            .collect();
        let cluster = run.cluster;
        loop {
            // The whole layer's entries, on every rank.
            let entries = cluster.sum(&[current.entries()])[0];
            if entries == 0 {
                return Ok((current, jumps));
            }
            run.begin_layer();
            // Every rank takes the same path.
            let in_memory = cluster.all(self.fits_in_memory::<L, C>(&current, entries, run, opts));
            let (next, acc, reduced, carried) = if in_memory {
                self.step_in_memory(codec, current, jumps, &mut pool, run, opts)?
            } else {
                pool.iter_mut().flatten().for_each(|o| *o = Out::default());
                self.step_on_disk(codec, current, entries, jumps, narrow, run, opts)?
            };
            run.growth.push(entries);
            run.tally.record(&acc, reduced, jumps)?;
            if opts.stop_at_dead_end && run.tally.every_start_ended() {
                // The shortest games are counted: the rest is not swept (every rank
                // holds the same statistics, so all stop here).
                drop(next);
                return Ok((Current::Memory(Vec::new()), jumps + 1));
            }
            current = next;
            jumps += 1;
            let [next_entries, carried] = cluster.sum(&[current.entries(), carried])[..] else {
                unreachable!("two sums")
            };
            let on_disk = matches!(current, Current::Disk(_));
            let before = [run.growth.carried, entries];
            let still_narrow = narrow && stays_narrow(before, [carried, next_entries], on_disk);
            run.growth.carried_before = run.growth.carried;
            run.growth.carried = carried;
            let disk = if let Current::Disk(files) = &current {
                checkpoint(run, files, still_narrow)?;
                files.bytes()
            } else {
                0
            };
            run.layer_done(&LayerDone {
                layer: jumps,
                swept: entries,
                entries: next_entries,
                carried,
                lanes: N,
                lane_bits: L::BITS,
                in_memory,
                disk,
            });
            if narrow && !still_narrow {
                return Ok((current, jumps));
            }
        }
    }

    /// Whether the layer after `current` (`entries`, every rank's) is swept in memory: while
    /// this layer, the next one's tables and the children buffers fit the budget.
    fn fits_in_memory<L: Lane, C: Codec<K>>(
        &self,
        current: &Current<C::S, L, N>,
        entries: u64,
        run: &Run,
        opts: &CountOptions,
    ) -> bool {
        let Current::Memory(m) = current else {
            return false;
        };
        if run.forced {
            return false;
        }
        let entry_bytes = size_of::<(C::S, [L; N])>() as u64;
        let guess = guess_next(entries, run.growth.previous).min(self.most_children(entries));
        let share = guess / run.cluster.size() as u64;
        let held: u64 = m.iter().map(|t| t.bytes()).sum();
        let growth = guess as f64 / entries as f64;
        Budget(opts.max_memory).fits_memory_layer(held, share * entry_bytes, run.buffers, growth)
    }

    /// Sweeps layer `jumps`, in memory, into the next one, in memory.
    fn step_in_memory<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        current: Current<C::S, L, N>,
        jumps: usize,
        pool: &mut [Vec<Out<C::S, L, N>>],
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<Stepped<C::S, L, N>> {
        let Current::Memory(mut m) = current else {
            unreachable!("a layer on disk is swept on disk")
        };
        let (next, acc, reduced) = self.memory_layer(codec, &mut m, jumps, pool, run, opts)?;
        let carried = next.iter().map(|t| t.high.len() as u64).sum();
        Ok((Current::Memory(next), acc, reduced, carried))
    }

    /// Sweeps layer `jumps` (`entries`, every rank's) into the next one on disk, writing it
    /// to disk first if it is in memory.
    #[allow(clippy::too_many_arguments)]
    fn step_on_disk<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        current: Current<C::S, L, N>,
        entries: u64,
        jumps: usize,
        narrow: bool,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<Stepped<C::S, L, N>> {
        let files = match current {
            Current::Disk(files) => files,
            Current::Memory(m) => self.spill(m, jumps, narrow, run, opts)?,
        };
        let growth = &run.growth;
        let guess = guess_on_disk(entries, growth.previous, growth.before_previous)
            .min(self.most_children(entries));
        let (next, acc, reduced, carried) =
            self.disk_layer::<L, C>(codec, &files, guess, run, opts)?;
        Ok((Current::Disk(next), acc, reduced, carried))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::sweep::lanes::Whole;
    use crate::geometry::bits::Packed;
    use crate::geometry::board::Board;

    #[test]
    fn packed_and_whole_keys_count_alike() {
        // The pairs of keys and lanes `sweep_many` compiles: 64-bit keys packed or whole
        // with one start, packed with several, 128-bit keys whole.
        let opts = CountOptions::default();
        let b = Board::from_spec("tri:5").unwrap();
        let one = [b.default_start()];
        let sweep = Sweep::<u64, 1>::new(&b, &one);
        let packed = sweep.run(&Packed::new(b.holes(), SHARDS).unwrap(), &opts);
        let packed = packed.unwrap();
        assert_eq!(packed.counts, sweep.run(&Whole, &opts).unwrap().counts);
        let wide = Sweep::<u128, 1>::new(&b, &one).run(&Whole, &opts);
        assert_eq!(packed.counts, wide.unwrap().counts);
        let b = Board::from_spec("tri:6").unwrap();
        let two = [4, 7].map(|h| b.start_with_empty(&[h]));
        let packed = Sweep::<u64, 2>::new(&b, &two)
            .run(&Packed::new(b.holes(), SHARDS).unwrap(), &opts)
            .unwrap();
        let wide = Sweep::<u128, 2>::new(&b, &two).run(&Whole, &opts);
        assert_eq!(packed.counts, wide.unwrap().counts);
    }
}
