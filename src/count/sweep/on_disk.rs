//! A layer swept on disk: the next layer's shards built in passes, each reading the current
//! layer's files once.

use super::CountOptions;
use super::SHARDS;
use super::expand::Sweep;
use super::lanes::{Codec, Lane};
use super::plan::{carry_bytes, foretold_carry_share, pass_ranges, split_shards};
use super::run::Run;
use super::tally::LayerAcc;
use crate::count::disk::{self, LayerFiles, Written};
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use std::ops::Range;
use std::path::PathBuf;

impl<K: Bits, const N: usize> Sweep<'_, K, N> {
    /// Refuses to go on when the next layer (about `need` bytes) would not fit the disk's
    /// free space or `--max-disk` with the current one (`have` bytes).
    pub(super) fn check_disk(
        &self,
        run: &Run,
        opts: &CountOptions,
        have: u64,
        need: u64,
        layer: usize,
    ) -> Result<()> {
        let dir = run.work.dir();
        // A guess beyond any disk (only statistics that do not belong to the sweep could
        // make one, the guesses being capped by [`Sweep::most_children`]) is refused as
        // such, not reported as a number of bytes that wrapped or saturated.
        let Some(total) = have.checked_add(need).filter(|_| need < u64::MAX) else {
            return Err(Error::Disk(format!(
                "{} from {}: the size of layer {layer} on disk cannot be estimated (the guess \
                 passes 2^64 bytes); remove {} to start over",
                self.board.name(),
                self.start_names(),
                dir.display()
            )));
        };
        if let Some(max) = opts.max_disk
            && total > max
        {
            // Before the first layer on disk nothing is kept (the folder is not made yet).
            let kept = if disk::has_checkpoint(dir) {
                format!("; its work is kept in {}", dir.display())
            } else {
                String::new()
            };
            let with = if have > 0 {
                format!(" with the {have} of the layer before")
            } else {
                String::new()
            };
            return Err(Error::Disk(format!(
                "{} from {}: layer {layer} needs about {need} bytes on disk{with}, more than \
                 --max-disk {} ({max} bytes){kept}",
                self.board.name(),
                self.start_names(),
                crate::memory::human(max),
            )));
        }
        if let Some(free) = disk::free_bytes(dir)
            && need > free
        {
            // No room where the directory cannot be made at all (`/proc/nope`): say that.
            disk::check_creatable(dir)?;
            return Err(Error::Disk(format!(
                "{} from {}: layer {layer} needs about {need} bytes on disk and {} has {free} \
                 bytes free; free some space or give another --work-dir",
                self.board.name(),
                self.start_names(),
                dir.display()
            )));
        }
        Ok(())
    }

    /// Sweeps layer `cur.layer`, on disk, into the next one, on disk: the next layer's
    /// shards are built in passes, as many at a time as `opts.max_memory` holds, each pass
    /// reading the current layer's files once (DESIGN.md, "Layers on disk"). A pass whose
    /// tables outgrow the budget is split in two and run again. Returns the next layer's
    /// files, the statistics, the positions up to symmetry and the entries that carry.
    #[allow(clippy::type_complexity)]
    pub(super) fn disk_layer<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        cur: &LayerFiles,
        guess: u64,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<(LayerFiles, LayerAcc<N>, [u64; N], u64)> {
        let (dir, mut queue) = self.plan_disk_layer::<L, C>(cur, guess, run, opts)?;
        let mut shards = vec![Written::default(); SHARDS];
        let mut stats = None;
        let mut carried = 0;
        while let Some(range) = queue.pop() {
            match self.disk_pass::<L, C>(
                codec,
                cur,
                &dir,
                range.clone(),
                stats.is_none(),
                guess,
                run,
                opts,
            )? {
                Some((written, carry, pass_stats)) => {
                    shards[range].copy_from_slice(&written);
                    carried += carry;
                    if pass_stats.is_some() {
                        stats = pass_stats;
                    }
                    self.check_disk_used(cur, &shards, run, opts)?;
                }
                None if range.len() > 1 => {
                    let mid = range.start + range.len() / 2;
                    queue.push(mid..range.end);
                    queue.push(range.start..mid);
                }
                None => {
                    return Err(Error::memory_limit(
                        &format!("{} from {}", self.board.name(), self.start_names()),
                        &format!(
                            "one shard of the tables after {} jumps needs",
                            cur.layer + 1
                        ),
                        &crate::memory::human(opts.max_memory),
                        "",
                    ));
                }
            }
        }
        let (acc, reduced) = stats.expect("the first pass to finish gathers the statistics");
        let next = LayerFiles {
            layer: cur.layer + 1,
            dir,
            shards,
        };
        Ok((next, acc, reduced, carried))
    }

    /// Before the passes of layer `cur.layer + 1` (about `guess` entries, every rank's): the
    /// disk checked for it ([`Sweep::check_disk`]), the sweep's folder named, the layer's
    /// folder made, and the passes planned, as many as the rank that needs most asks for.
    fn plan_disk_layer<L: Lane, C: Codec<K>>(
        &self,
        cur: &LayerFiles,
        guess: u64,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<(PathBuf, Vec<Range<usize>>)> {
        // This rank's entries; `guess` is of the whole next layer, every rank's together.
        let entries = cur.entries();
        let share = guess / run.cluster.size() as u64;
        let per_entry = cur.bytes() as f64 / entries.max(1) as f64;
        let reduce = self.moves.outer_order() > self.moves.subgroup_order();
        let reduce_bytes = if reduce {
            entries.saturating_mul(size_of::<K>() as u64)
        } else {
            0
        };
        self.check_disk(
            run,
            opts,
            cur.bytes(),
            ((share as f64 * per_entry * 1.25) as u64).saturating_add(reduce_bytes),
            cur.layer + 1,
        )?;
        run.announce();
        let dir = run.work.fresh_layer_dir(cur.layer + 1)?;
        let entry_bytes = size_of::<(C::S, [L; N])>() as u64;
        // Under several ranks each holds its share of the tables, and all take the most
        // passes that any rank asks for.
        let cluster = run.cluster;
        let carries = self.carries_foretold::<L, C>(entries, share, run);
        let own = pass_ranges(share, entry_bytes, carries, opts.max_memory);
        let queue = split_shards(cluster.max(&[own.len() as u64])[0] as usize);
        run.trace(|| {
            let carries = match carries {
                0 => String::new(),
                b => format!(" and {} for carries", crate::memory::human(b)),
            };
            format!(
                "layer {}: about {guess} entries of {entry_bytes} bytes{carries}, in {} passes",
                cur.layer + 1,
                queue.len()
            )
        });
        Ok((dir, queue))
    }

    /// The bytes the sparse maps of this rank's carrying entries will take in the next
    /// layer (`share` entries), as the carries of the current layer (`entries`, this rank's)
    /// and the one before foretell them; none in wide lanes, whose counts seldom carry.
    fn carries_foretold<L: Lane, C: Codec<K>>(&self, entries: u64, share: u64, run: &Run) -> u64 {
        if L::BITS >= 64 {
            return 0;
        }
        let g = &run.growth;
        let whole = entries * run.cluster.size() as u64;
        let foretold =
            foretold_carry_share([g.carried_before, g.previous as u64], [g.carried, whole]);
        let slot = size_of::<(C::S, [u128; N])>() as u64;
        carry_bytes((share as f64 * foretold) as u64, slot)
    }

    /// Refuses to go on once the shards written so far (`shards`) and the layer before
    /// take more than `--max-disk`.
    fn check_disk_used(
        &self,
        cur: &LayerFiles,
        shards: &[Written],
        run: &Run,
        opts: &CountOptions,
    ) -> Result<()> {
        let used = cur.bytes() + shards.iter().map(|w| w.bytes).sum::<u64>();
        if let Some(max) = opts.max_disk
            && used > max
        {
            return Err(Error::Disk(format!(
                "{} from {}: layer {} takes more than --max-disk {} ({max} bytes) \
                 with the layer before; its work is kept in {}",
                self.board.name(),
                self.start_names(),
                cur.layer + 1,
                crate::memory::human(max),
                run.work.dir().display()
            )));
        }
        Ok(())
    }
}
