//! The state of a run, split by concern: the tallies that become [`crate::count::Counts`]
//! ([`Tallies`]), the growth history the plan reads ([`Growth`]), the work directory and
//! its checkpoints, and the telemetry of a layer (its meter, notices and trace lines, told
//! to the installed [`crate::observe::Observer`]; the exchange's bytes and time).

use super::lanes::{Key, Lane};
use super::shard::Frozen;
use super::tally::Tallies;
use crate::count::cluster::Cluster;
use crate::count::disk::{LayerFiles, Progress, Spent, Work};
use crate::error::Result;
use crate::observe::{self, Meter};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The sizes of the layers swept so far, for the guesses of the next layer's size and
/// the choice of lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Growth {
    /// Entries of the layer before the current one, for the guess of the next layer's size.
    pub(super) previous: usize,
    /// Entries of the layer before that (0 when unknown), for the disk path's sharper guess
    /// ([`super::plan::guess_on_disk`]).
    pub(super) before_previous: usize,
    /// Entries of the current layer whose counts carried past narrow lanes (0 when
    /// unknown), for the disk path's choice of lanes ([`super::plan::stays_narrow`]).
    pub(super) carried: u64,
    /// Those of the layer before (0 when unknown, as after a resume), for the growth of the
    /// carries the disk path plans for ([`super::plan::foretold_carry_share`]).
    pub(super) carried_before: u64,
}

impl Growth {
    /// A layer of `entries` (every rank's) was swept.
    pub(super) fn push(&mut self, entries: u64) {
        self.before_previous = self.previous;
        self.previous = entries as usize;
    }
}

/// What a layer's sweep reports when it is done.
pub(super) struct LayerDone {
    /// The number of the layer made (the next one).
    pub(super) layer: usize,
    /// Entries of the layer swept, every rank's.
    pub(super) swept: u64,
    /// Entries of the layer made, every rank's, and those that carry.
    pub(super) entries: u64,
    pub(super) carried: u64,
    pub(super) lanes: usize,
    pub(super) lane_bits: u32,
    pub(super) in_memory: bool,
    /// Bytes of the layer made on disk (0 in memory).
    pub(super) disk: u64,
}

/// A sweep in progress.
pub(super) struct Run {
    pub(super) started: Instant,
    /// What earlier processes spent on this sweep, when it resumed from a checkpoint.
    pub(super) before: Spent,
    /// The meter of the layers swept ([`observe::meter`]).
    pub(super) bar: Box<dyn Meter>,
    /// Per start, the layers and the wins per finishing hole so far.
    pub(super) tally: Tallies,
    pub(super) growth: Growth,
    /// Bytes of the children buffers after the last layer swept in memory.
    pub(super) buffers: u64,
    /// The sweep's folder in the work directory (created when first needed).
    pub(super) work: Work,
    /// Every layer goes to disk: a work directory was given.
    pub(super) forced: bool,
    /// Show notices on stderr (not `--quiet`).
    pub(super) notices: bool,
    /// The sweep's folder was made and not yet named on stderr ([`Run::announce`]).
    pub(super) unannounced: bool,
    /// The ranks sharing the sweep.
    pub(super) cluster: Cluster,
    /// When the current layer began.
    pub(super) layer_clock: Instant,
    /// Bytes this rank sent other ranks during the current layer.
    pub(super) sent: u64,
    /// Time this rank spent exchanging children during the current layer.
    pub(super) exchange: Duration,
}

impl Run {
    /// A fresh run of `starts` starts of `start_pegs` pegs on a board of `holes` holes,
    /// keeping its layers in `work` when they go to disk.
    pub(super) fn new(
        work: Work,
        starts: usize,
        holes: usize,
        start_pegs: usize,
        opts: &super::CountOptions,
    ) -> Run {
        Run {
            started: Instant::now(),
            before: Spent::default(),
            bar: observe::meter(start_pegs as u64, "jumps", opts.progress),
            tally: Tallies::new(starts, holes),
            growth: Growth::default(),
            buffers: 0,
            work,
            forced: opts.work_dir.is_some(),
            notices: opts.progress,
            unannounced: false,
            cluster: opts.cluster,
            layer_clock: Instant::now(),
            sent: 0,
            exchange: Duration::ZERO,
        }
    }

    /// A run of one start that keeps nothing on disk, for unit tests of its parts.
    #[cfg(test)]
    pub(super) fn for_tests() -> Run {
        let id = crate::count::disk::Identity::new("test", &[1], "test");
        let work = Work::new(Path::new("unused"), "test", id, false);
        Run::new(work, 1, 1, 1, &super::CountOptions::default())
    }

    /// The statistics so far, for a checkpoint.
    pub(super) fn progress(&self, narrow: bool) -> Progress {
        let (layers, finish) = self.tally.to_text();
        Progress {
            layers,
            finish,
            positions: self.tally.positions,
            previous: self.growth.previous,
            before_previous: self.growth.before_previous,
            carried: self.growth.carried,
            narrow,
            spent: self.spent(),
        }
    }

    /// What the sweep has cost so far, earlier processes included.
    pub(super) fn spent(&self) -> Spent {
        Spent {
            millis: self.before.millis + self.started.elapsed().as_millis() as u64,
            peak_rss: self
                .before
                .peak_rss
                .max(crate::memory::peak_rss().unwrap_or(0)),
        }
    }

    /// Takes the statistics of a checkpoint back.
    pub(super) fn restore(&mut self, p: &Progress) -> Result<()> {
        self.tally.restore(&p.layers, &p.finish)?;
        self.tally.positions = p.positions;
        self.growth = Growth {
            previous: p.previous,
            before_previous: p.before_previous,
            carried: p.carried,
            carried_before: 0,
        };
        self.before = p.spent;
        Ok(())
    }

    /// Creates the sweep's folder; where it is is said once its first layer is recorded
    /// ([`Run::announce`]).
    pub(super) fn work_dir(&mut self) -> Result<()> {
        if !self.work.dir().exists() {
            self.work.create()?;
            self.unannounced = self.notices;
        }
        Ok(())
    }

    /// Says where the sweep's folder is, once a layer is checkpointed and the next one
    /// passed [`super::expand::Sweep::check_disk`]: a run refused by `--max-disk` or the
    /// disk's free space prints its one line of error only, which names the folder when
    /// work is kept.
    pub(super) fn announce(&mut self) {
        if std::mem::take(&mut self.unannounced) {
            self.notice(&format!(
                "pegsol: layers kept on disk in {} (--work-dir sets where); the same command \
                 resumes an interrupted sweep",
                self.work.dir().display()
            ));
        }
    }

    /// A notice to the observer (shown above the progress bar), unless the run is quiet.
    pub(super) fn notice(&self, text: &str) {
        if self.notices {
            observe::notice(text);
        }
    }

    /// A trace line to the observer, formatted only if it wants one
    /// ([`observe::tracing`]: `PEGSOL_TRACE` on the command line).
    pub(super) fn trace(&self, text: impl FnOnce() -> String) {
        if observe::tracing() {
            observe::trace(&text());
        }
    }

    /// A layer begins: its clock and the exchange's telemetry start from zero.
    pub(super) fn begin_layer(&mut self) {
        self.layer_clock = Instant::now();
        self.sent = 0;
        self.exchange = Duration::ZERO;
    }

    /// A layer is done: the progress bar moves on, and under `PEGSOL_TRACE` rank 0 traces
    /// its sizes, memory and speed (a collective: under several ranks, the largest peak of
    /// a rank, the bytes all ranks sent and the longest time a rank spent exchanging).
    pub(super) fn layer_done(&mut self, d: &LayerDone) {
        let secs = self.layer_clock.elapsed().as_secs_f64().max(1e-9);
        let cluster = self.cluster;
        let [peak, sent, exchange_us] = cluster.max(&[
            crate::memory::peak_rss().unwrap_or(0),
            cluster.sum(&[self.sent])[0],
            self.exchange.as_micros() as u64,
        ])[..] else {
            unreachable!("three maxima")
        };
        let memory = crate::memory::human(peak);
        let speed = d.swept as f64 / secs / 1e6;
        self.bar.message(format!(
            "layer {}: {} entries, memory {memory}, disk {}, {speed:.1} M entries/s",
            d.layer,
            thousands::Separable::separate_with_commas(&d.entries),
            crate::memory::human(d.disk),
        ));
        self.bar.inc(1);
        if cluster.rank() == 0 {
            self.trace(|| {
                let ranks = match cluster.size() {
                    1 => String::new(),
                    k => format!(
                        ", {k} ranks: sent {sent} bytes, exchange {:.3} s",
                        exchange_us as f64 / 1e6
                    ),
                };
                format!(
                    "layer {}: {} entries ({} carry), {} lanes of {} bits, {}, peak RSS {} MiB, \
                     disk {} MiB, {speed:.1} M entries/s, at {:.2} s{ranks}",
                    d.layer,
                    d.entries,
                    d.carried,
                    d.lanes,
                    d.lane_bits,
                    if d.in_memory { "in memory" } else { "on disk" },
                    peak >> 20,
                    d.disk >> 20,
                    self.started.elapsed().as_secs_f64()
                )
            });
        }
    }
}

/// A layer not yet swept: in memory, or in its files on disk.
pub(super) enum Current<S, L, const N: usize> {
    Memory(Vec<Frozen<S, L, N>>),
    Disk(LayerFiles),
}

impl<S: Key, L: Lane, const N: usize> Current<S, L, N> {
    pub(super) fn entries(&self) -> u64 {
        match self {
            Current::Memory(m) => m.iter().map(|t| t.len() as u64).sum(),
            Current::Disk(d) => d.entries(),
        }
    }

    /// The same layer with lanes of another width (files keep whole counts).
    pub(super) fn relane<M: Lane>(self) -> Current<S, M, N> {
        match self {
            Current::Memory(m) => Current::Memory(m.into_par_iter().map(Frozen::relane).collect()),
            Current::Disk(d) => Current::Disk(d),
        }
    }
}

/// The work directory of this rank: `dir` outside MPI; under several ranks `dir` with
/// `{rank}` replaced by the rank (0 outside MPI), or, without `{rank}`, its folder `rank-R`.
///
/// Each rank keeps its own shards' files and checkpoint there.
pub(super) fn rank_dir(dir: &Path, cluster: &Cluster) -> PathBuf {
    let text = dir.to_string_lossy();
    if text.contains("{rank}") {
        PathBuf::from(text.replace("{rank}", &cluster.rank().to_string()))
    } else if cluster.size() == 1 {
        dir.to_path_buf()
    } else {
        dir.join(format!("rank-{}", cluster.rank()))
    }
}

/// Records `files` as the sweep's checkpoint. Under several ranks the layer before is kept
/// until every rank has recorded its own (a collective), so that a job stopped in between
/// resumes, on every rank, from the last layer all ranks finished ([`Work::resume`]).
pub(super) fn checkpoint(run: &mut Run, files: &LayerFiles, narrow: bool) -> Result<()> {
    let progress = run.progress(narrow);
    if run.cluster.size() == 1 {
        run.work.checkpoint(files, &progress)?;
    } else {
        run.work.checkpoint_keeping(files, &progress)?;
        if !run.cluster.all(true) {
            unreachable!("all(true) holds on every rank");
        }
        run.work.forget_before(files.layer)?;
    }
    Ok(())
}
