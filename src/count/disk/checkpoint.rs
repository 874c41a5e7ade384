//! The checkpoint of a sweep: the last complete layer and the statistics before it,
//! sealed by a checksum.

use super::*;

/// One layer's statistics in a checkpoint: jumps, positions, positions up to symmetry,
/// games ended (a decimal string), dead ends.
pub(crate) type LayerRow = (usize, u64, u64, String, u64);

/// A sweep's statistics so far, as a checkpoint keeps them (counts as decimal strings).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Progress {
    /// Per start, per layer: jumps, positions, positions up to symmetry, games ended (as
    /// a decimal string), dead ends.
    pub layers: Vec<Vec<LayerRow>>,
    /// Per start, per hole: wins finishing there (decimal strings).
    pub finish: Vec<Vec<String>>,
    /// Positions counted so far.
    pub positions: u64,
    /// Entries of the layer before the checkpoint's.
    pub previous: usize,
    /// Entries of the layer before that (zero in checkpoints of pegsol before it kept this).
    #[serde(default)]
    pub before_previous: usize,
    /// Entries of the checkpoint's layer whose counts carried past narrow lanes (zero in
    /// checkpoints of pegsol before it kept this).
    #[serde(default)]
    pub carried: u64,
    /// Whether counts are still kept in narrow lanes.
    pub narrow: bool,
    /// What the sweep cost up to this checkpoint, over every process that worked on it
    /// (zero in checkpoints of pegsol before it kept this).
    #[serde(default)]
    pub spent: Spent,
}

/// What a sweep cost up to a checkpoint, over every process that worked on it: a sweep
/// resumed after an interruption reports the whole (`runs.csv`), not only its last part.
/// The time between an interruption and the resume, and the work lost with the layer in
/// progress, are not counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spent {
    /// Wall time, in milliseconds.
    pub millis: u64,
    /// The largest peak resident set size of those processes, in bytes (0: unknown).
    pub peak_rss: u64,
}

/// The checkpoint file of a sweep.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Checkpoint {
    pub(super) format: String,
    #[serde(flatten)]
    pub(super) id: Identity,
    /// The layer whose shard files are complete and not yet swept.
    pub(super) layer: usize,
    /// Entries and bytes per shard file of that layer.
    pub(super) shards: Vec<(u64, u64)>,
    pub(super) progress: Progress,
    /// The CRC-32 of the checkpoint's compact JSON without this field
    /// ([`Checkpoint::checksum`]). Always written; a checkpoint read without it (of a pegsol
    /// before it kept one, or edited) is refused ([`Checkpoint::sealed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) crc32: Option<u32>,
}

impl Checkpoint {
    /// The CRC-32 of the checkpoint's content: its compact JSON with no `crc32` field, the
    /// fields in their declared order (one serialization for one content, whatever the
    /// file's spacing or field order).
    pub(super) fn checksum(&self) -> u32 {
        let bare = Checkpoint {
            format: self.format.clone(),
            id: self.id.clone(),
            layer: self.layer,
            shards: self.shards.clone(),
            progress: self.progress.clone(),
            crc32: None,
        };
        crc32fast::hash(&serde_json::to_vec(&bare).expect("a checkpoint serializes"))
    }

    /// Checks that the checkpoint read from `text` is as pegsol writes it (byte for byte:
    /// no field added, renamed, dropped or reordered) and carries its checksum, and that the
    /// checksum matches. A checkpoint without one (of a pegsol before it kept one, or with
    /// its key renamed) is refused: its figures cannot be told from edited ones.
    pub(super) fn sealed(&self, text: &[u8]) -> std::result::Result<(), String> {
        let Some(stored) = self.crc32 else {
            return Err("it has no checksum: written by an older pegsol, or edited".into());
        };
        if serde_json::to_vec_pretty(self).expect("a checkpoint serializes") != text {
            return Err("not as pegsol writes it: a field added, renamed or reordered".into());
        }
        if stored != self.checksum() {
            return Err("checksum mismatch".into());
        }
        Ok(())
    }

    /// Checks what a checkpoint of layer `layer` always holds, since the sweep records one
    /// row per start for each layer swept before `layer` in which that start still has
    /// positions: per start, rows for jumps `0, 1, ..., m - 1` with `m <= layer`, and
    /// `m == layer` for some start (the layer swept last had entries); positions up to
    /// symmetry and dead ends within the positions, games ended exactly where there are
    /// dead ends; `positions` the sum of the rows' positions; `previous` the entries of
    /// layer `layer - 1` (at least one, at most its positions over all starts, none at
    /// layer 0), `before_previous` those of layer `layer - 2` (or 0, unknown); the wins
    /// per hole decimal, as many holes for every start. Returns what does not hold.
    pub(super) fn consistent(&self) -> std::result::Result<(), String> {
        let p = &self.progress;
        let starts = self.id.starts.len();
        if p.layers.len() != starts || p.finish.len() != starts {
            return Err(format!(
                "statistics of {} and {} starts for a sweep of {starts}",
                p.layers.len(),
                p.finish.len()
            ));
        }
        if self.shards.is_empty() {
            return Err("no shard files".into());
        }
        let mut total: u128 = 0;
        for (k, rows) in p.layers.iter().enumerate() {
            if rows.len() > self.layer {
                return Err(format!(
                    "{} layers of statistics for start {k} before layer {}",
                    rows.len(),
                    self.layer
                ));
            }
        }
        // The layer number is checked against the statistics before anything is sized by
        // it (a layer of 2^64 - 1 with a matching CRC once asked for that many counters).
        let longest = p.layers.iter().map(Vec::len).max().unwrap_or(0);
        if starts > 0 && longest != self.layer {
            return Err(format!(
                "statistics of {longest} layers before layer {}",
                self.layer
            ));
        }
        let mut per_layer = vec![0u128; longest];
        for (k, rows) in p.layers.iter().enumerate() {
            // A start's games, summed as `Counts::games` will sum them.
            let mut games_so_far = Total::ZERO;
            for (j, (jumps, positions, reduced, games, dead)) in rows.iter().enumerate() {
                let games: Total = games
                    .parse()
                    .map_err(|_| format!("games ended {games:?} is not a count"))?;
                games_so_far = games_so_far
                    .plus(games)
                    .map_err(|_| format!("the games of start {k} sum past 2^256"))?;
                if *jumps != j
                    || *positions == 0
                    || reduced > positions
                    || dead > positions
                    || games.is_zero() != (*dead == 0)
                {
                    return Err(format!("row {j} of start {k} does not add up"));
                }
                total += u128::from(*positions);
                per_layer[j] += u128::from(*positions);
            }
        }
        if total != u128::from(p.positions) {
            return Err(format!(
                "{} positions where its layers hold {total}",
                p.positions
            ));
        }
        let most = |j: Option<usize>| j.and_then(|j| per_layer.get(j).copied()).unwrap_or(0);
        let (previous, before) = (p.previous as u128, p.before_previous as u128);
        if (self.layer > 0 && previous == 0)
            || previous > most(self.layer.checked_sub(1))
            || before > most(self.layer.checked_sub(2))
        {
            return Err(format!(
                "{} and {} entries in the layers before layer {}",
                p.previous, p.before_previous, self.layer
            ));
        }
        let holes = p.finish.first().map_or(0, Vec::len);
        for f in &p.finish {
            if f.len() != holes || f.iter().any(|w| w.parse::<Total>().is_err()) {
                return Err("the wins per hole are not counts".into());
            }
        }
        Ok(())
    }
}
