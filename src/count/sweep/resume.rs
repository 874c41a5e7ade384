//! Resuming a sweep: its identity in the work directory, the checks a checkpoint passes
//! before it is trusted, and the seed of layer 0 when there is none.

use super::expand::Sweep;
use super::lanes::{Codec, Key, Lane};
use super::run::Run;
use super::shard::Frozen;
use super::{SHARDS, Weight};
use crate::count::cluster::Cluster;
use crate::count::disk::{Identity, LayerFiles, Progress, ShardReader};
use crate::error::Result;
use crate::geometry::bits::Bits;
use std::path::Path;

impl<K: Bits, const N: usize> Sweep<'_, K, N> {
    /// The sweep's identity for its files: board, starts, key encoding and lanes.
    pub(super) fn identity<C: Codec<K>>(&self, cluster: &Cluster) -> Identity {
        let mut fp = crc32fast::Hasher::new();
        for j in self.board.jumps() {
            fp.update(format!("{j:?}").as_bytes());
        }
        Identity::new(
            &format!(
                "{} ({} holes, {} jumps, {:08x})",
                self.board.name(),
                self.board.holes(),
                self.board.jumps().len(),
                fp.finalize()
            ),
            &self
                .starts
                .iter()
                .map(|&s| Bits::to_u128(s))
                .collect::<Vec<_>>(),
            &format!(
                "{} keys of {} bytes, {N} lanes{}, {SHARDS} shards{}",
                std::any::type_name::<C>(),
                size_of::<C::S>(),
                match self.weight {
                    Weight::Count => "",
                    Weight::Random => " of the random player's masses",
                },
                match cluster.size() {
                    1 => String::new(),
                    k => format!(", those of rank {} of {k}", cluster.rank()),
                }
            ),
        )
    }

    /// The last checkpoint in the work directory, checked and taken into `run`: the layer
    /// to go on from, and whether it was swept with narrow lanes. `None` when there is none
    /// (a fresh sweep). Under several ranks every rank resumes from the last layer all
    /// ranks finished (one may have recorded a layer the others had not when the job
    /// stopped), or starts over.
    pub(super) fn resume<C: Codec<K>>(
        &self,
        codec: &C,
        run: &mut Run,
    ) -> Result<Option<(LayerFiles, bool)>> {
        let cluster = run.cluster;
        let id = run.work.id().clone();
        let verify = |path: &Path, layer: usize, shard| {
            ShardReader::open(path, &id, layer, shard)?.verify_with(
                size_of::<C::S>(),
                N,
                |key, counts| self.check_entry(codec, layer, shard, key, counts),
            )
        };
        let resumed = if cluster.size() == 1 {
            run.work.resume(verify)?
        } else {
            let layers = run.work.checkpoint_layers()?;
            let newest = layers.first().map_or(0, |&l| l as u64 + 1);
            let agreed = cluster.min(&[newest])[0];
            run.work
                .resume_layer(agreed.checked_sub(1).map(|l| l as usize), verify)?
        };
        let Some((files, progress)) = resumed else {
            return Ok(None);
        };
        self.check_checkpoint(&files, &progress, run)?;
        run.notice(&format!(
            "pegsol: resuming from layer {} in {}",
            files.layer,
            run.work.dir().display()
        ));
        run.bar.set_position(files.layer as u64);
        Ok(Some((files, progress.narrow)))
    }

    /// What each entry of a layer file must be: a canonical position of the board (the
    /// least of its images under `H`), stored in its own shard, with the start's pegs less
    /// one a jump, and some game into it. A file edited and its checksum made again fails
    /// here (its counts cannot be checked without counting again).
    fn check_entry<C: Codec<K>>(
        &self,
        codec: &C,
        layer: usize,
        shard: usize,
        key: u128,
        counts: &[crate::total::Total],
    ) -> std::result::Result<(), String> {
        let start_pegs = self.starts[0].count_ones() as usize;
        let Some(pegs) = start_pegs.checked_sub(layer) else {
            return Err(format!("layer {layer} from a start of {start_pegs} pegs"));
        };
        let h = self.moves.subgroup_order();
        let off_board = !self.board.full();
        let stored = C::S::narrow(key);
        let pos = codec.join(shard, stored);
        let wide = Bits::to_u128(pos);
        if stored.wide() != key || codec.split(pos) != (shard, stored) {
            return Err(format!("key {key:#x} does not belong in shard {shard}"));
        }
        if wide & off_board != 0 || wide.count_ones() as usize != pegs {
            return Err(format!(
                "position {wide:#x} is not one of {pegs} pegs on the board"
            ));
        }
        if self.moves.images(pos, h)[..h].iter().any(|&x| x < pos) {
            return Err(format!("position {wide:#x} is not in canonical form"));
        }
        if counts.iter().all(|c| c.is_zero()) {
            return Err(format!("position {wide:#x} with no game into it"));
        }
        Ok(())
    }

    /// Beyond what the checkpoint checks of itself: a layer of every shard, no more entries
    /// than the layer before could make (each entry is a child of one before it by one of
    /// the board's jumps), statistics that fit this sweep, one row a layer, in order, none
    /// past the layer resumed from. Takes the statistics into `run`.
    fn check_checkpoint(
        &self,
        files: &LayerFiles,
        progress: &Progress,
        run: &mut Run,
    ) -> Result<()> {
        if files.shards.len() != SHARDS {
            return Err(run.work.damaged(&format!(
                "{} shard files where a sweep has {SHARDS}",
                files.shards.len()
            )));
        }
        let most = progress.previous as u128 * self.board.jumps().len() as u128;
        if files.layer > 0 && u128::from(files.entries()) > most {
            return Err(run.work.damaged(&format!(
                "layer {} holds {} entries, more than the {} of the layer before could make",
                files.layer,
                files.entries(),
                progress.previous
            )));
        }
        run.restore(progress)
            .map_err(|e| run.work.damaged(&e.to_string()))?;
        for rows in &progress.layers {
            if rows
                .iter()
                .enumerate()
                .any(|(i, r)| r.0 != i || r.0 > files.layer)
            {
                return Err(run.work.damaged(&format!(
                    "its statistics name layers other than 0 to {}",
                    files.layer
                )));
            }
        }
        Ok(())
    }

    /// Layer 0: each start is one sequence (the empty one) into the orbit of the pair
    /// (start, start), in the lane of the start's canonical form, weighing `one` (1 for a
    /// count, the whole mass for the random player). Only this rank's shards.
    pub(super) fn seed<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        cluster: &Cluster,
        one: u128,
    ) -> Result<Vec<Frozen<C::S, L, N>>> {
        let mut first_layer = Self::new_tables::<C::S, L>();
        let h = self.moves.subgroup_order();
        for &s in &self.starts {
            let canon = *self.moves.images(s, h)[..h].iter().min().expect("identity");
            let slot = self.starts.iter().position(|&x| x == canon);
            let mut lanes = [L::ZERO; N];
            lanes[slot.expect("H maps starts to starts")] = L::low(one);
            let (shard, key) = codec.split(canon);
            if cluster.owns(shard) {
                first_layer[shard].add_low(key, &lanes)?;
            }
        }
        Ok(first_layer.into_iter().map(Frozen::new).collect())
    }
}
