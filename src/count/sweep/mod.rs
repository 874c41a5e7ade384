//! The counting engine: a layer-by-layer sweep over symmetry-reduced positions, for one
//! start or for several starts at once.
//!
//! Layer `j` holds every position reachable in `j` jumps from any of the starts, merged into
//! orbits under `H`, the symmetries of the board that map the set of starts onto itself.
//! Each orbit carries one count per start: for start `s`, the number of jump sequences into
//! the orbit of the pair (position, `s`) under `H` (the orbit counts of DESIGN.md, taken over
//! pairs). A jump from one representative into orbit `O'` adds the representative's counts
//! to `O'`, the starts permuted by the symmetry that makes the child canonical. From these,
//! hole-level statistics (wins by finishing hole) and raw position counts of every start are
//! exact. With one start, `H` is the stabiliser of that start and each orbit carries one
//! count: the sweep of a single `pegsol count`.
//!
//! Why several starts: single-vacancy starts whose difference lies in the span of the jump
//! masks ([`Board::position_classes`]) reach largely the same positions (english c1, c4, c7
//! and f4: 251.7 million positions together, against 758 million counted start by start), so
//! `pegsol table` sweeps each such class once (DESIGN.md, "Several starts in one sweep").
//!
//! Parallelism: a layer's table is split into [`SHARDS`] shards by a hash of the key. The
//! shards of the current layer are the *work units*: a batch of them is expanded on the
//! rayon pool, each unit writing its children into one buffer per next-layer shard; then
//! every next-layer shard absorbs its buffers, one task per shard, with no locks. Sums are

mod buckets;
mod driver;
mod expand;
mod in_memory;
mod lanes;
mod on_disk;
mod pass;
mod plan;
mod resume;
mod rounds;
mod run;
mod shard;
mod step;
mod tally;
mod wire;

use crate::count::cluster::Cluster;
use crate::count::disk::Spent;
use crate::count::stats::Counts;
use crate::error::{Error, Result};
use crate::geometry::bits::Packed;
use crate::geometry::board::{Board, Pegs};
use expand::Sweep;
use lanes::Whole;
use plan::Budget;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Number of shards of each layer's table (a power of two).
pub const SHARDS: usize = 64;

/// The most starts one sweep carries ([`count_many`]).
pub const MAX_STARTS: usize = 16;

/// How to run a count.
#[derive(Clone, Debug)]
pub struct CountOptions {
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Refuse to grow the tables past this many bytes.
    pub max_memory: u64,
    /// Report progress and notices to the installed observer ([`crate::observe`]): on the
    /// command line, a progress bar on stderr when it is a terminal.
    pub progress: bool,
    /// Set to stop the run early with [`Error::Interrupted`].
    pub cancel: Option<Arc<AtomicBool>>,
    /// Where layers go when they outgrow `max_memory`, and checkpoints with them. When
    /// given, every layer is kept there from the start, so that the sweep resumes from its
    /// last finished layer; when not, [`DEFAULT_WORK_DIR`] is used if a layer would not fit.
    pub work_dir: Option<PathBuf>,
    /// Keep the sweep's folder in the work directory after it succeeds.
    pub keep_work: bool,
    /// The most bytes the layer files may take on disk.
    pub max_disk: Option<u64>,
    /// The ranks sharing the sweep ([`Cluster::single`] outside MPI): each expands its own
    /// shards and sends the children to the ranks owning theirs. Under several ranks,
    /// `max_memory`, `max_disk` and `work_dir` are each rank's.
    pub cluster: Cluster,
    /// Stop after the first layer in which every start has a dead end: the shortest games
    /// (`pegsol extremes`). The layers after it are not swept; [`Swept::least_dead_ends`]
    /// holds that layer's smallest dead end per start. Such a sweep keeps its own folder
    /// in the work directory, apart from a whole sweep's.
    pub stop_at_dead_end: bool,
    /// Leave the sweep's folder in the work directory when it succeeds, and name it in
    /// [`Swept::work`], for the caller to remove ([`crate::count::disk::remove_work`]) once
    /// the results are written: a failed write then costs a resume from the last layer,
    /// not the sweep.
    pub defer_cleanup: bool,
}

/// What a sweep carries along each jump sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Weight {
    /// The number of sequences: the games' counts.
    #[default]
    Count,
    /// The random player's probability, in units of `2^-124`
    /// ([`crate::count::random::FIXED_BITS`]): each start weighs `2^124`, and a position
    /// shares its weight among its jumps, rounding down. The statistics' "games" are then
    /// masses ([`sweep_weighted`]).
    Random,
}

/// The work directory of a sweep whose layers outgrow memory when none is given.
pub const DEFAULT_WORK_DIR: &str = "pegsol-work";

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions {
            threads: 0,
            max_memory: crate::memory::default_budget(),
            progress: false,
            cancel: None,
            work_dir: None,
            keep_work: false,
            max_disk: None,
            cluster: Cluster::single(),
            stop_at_dead_end: false,
            defer_cleanup: false,
        }
    }
}

/// Counts every game of `board` from `start` and gathers the end-state statistics.
///
/// ```
/// use pegsol::{geometry::board::Board, count::sweep::{count, CountOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
/// assert_eq!((c.wins(), c.games()), (29_760.into(), 568_630.into()));
/// ```
pub fn count(board: &Board, start: Pegs, opts: &CountOptions) -> Result<Counts> {
    let mut counts = count_many(board, &[start], opts)?;
    Ok(counts.pop().expect("one start, one result"))
}

/// Counts every game from each of `starts` (at most [`MAX_STARTS`], all with the same number
/// of pegs) in one sweep, and returns their statistics in the same order: each equal to what
/// [`count`] gives for that start alone. Starts in one position class
/// ([`Board::position_classes`]) share most of their positions, so one sweep costs far less
/// than one per start.
///
/// ```
/// use pegsol::{geometry::board::Board, count::sweep::{count_many, CountOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let starts = [b.start_with_empty(&[0]), b.start_with_empty(&[4])]; // a1, b3
/// let c = count_many(&b, &starts, &CountOptions::default()).unwrap();
/// assert_eq!((c[0].wins(), c[0].games()), (29_760.into(), 568_630.into()));
/// assert_eq!((c[1].wins(), c[1].games()), (1_550.into(), 137_846.into()));
/// ```
pub fn count_many(board: &Board, starts: &[Pegs], opts: &CountOptions) -> Result<Vec<Counts>> {
    sweep_many(board, starts, opts).map(|s| s.counts)
}

/// A finished sweep: the statistics of each start, and what earlier processes spent on it.
#[derive(Clone, Debug)]
pub struct Swept {
    /// Per start, in the order given.
    pub counts: Vec<Counts>,
    /// Wall time and peak memory of the processes that worked on the sweep before this one
    /// resumed it from a checkpoint; zero when this process swept it all.
    pub before: Spent,
    /// Per start, the smallest dead end (a position of the board, as [`Pegs`]) of the first
    /// layer holding one, when this process swept that layer (not when the sweep resumed
    /// from a checkpoint past it): the same for any threads, ranks and memory budget.
    pub least_dead_ends: Vec<Option<Pegs>>,
    /// With [`CountOptions::defer_cleanup`], the sweep's folder in the work directory, left
    /// for the caller to remove once the results are written (None: there is none to
    /// remove, or `keep_work` keeps it).
    pub work: Option<PathBuf>,
}

/// [`count_many`], with what earlier processes spent on the sweep ([`Swept::before`]).
///
/// ```
/// use pegsol::{geometry::board::Board, count::sweep::{sweep_many, CountOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let s = sweep_many(&b, &[b.default_start()], &CountOptions::default()).unwrap();
/// assert_eq!((s.counts[0].wins(), s.before.millis), (29_760.into(), 0));
/// ```
pub fn sweep_many(board: &Board, starts: &[Pegs], opts: &CountOptions) -> Result<Swept> {
    sweep_weighted(board, starts, opts, Weight::Count)
}

/// [`sweep_many`] carrying `weight` along the jumps. With [`Weight::Random`], each
/// layer's `games_ended` is the random player's mass that ends there (the probability of
/// ending with that many pegs, in units of `2^-124`), and `finish` the mass that ends with
/// one peg on each hole; every figure is a sum of masses rounded down on the way, and what
/// the roundings lost is `2^124` less the sum of the layers' masses
/// ([`crate::count::random::engine_odds`] turns them into odds). The same bytes for any
/// threads, memory budget, layers on disk and ranks.
///
/// ```
/// use pegsol::{geometry::board::Board, count::sweep::{sweep_weighted, CountOptions, Weight}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let s = sweep_weighted(&b, &[b.default_start()], &CountOptions::default(), Weight::Random)
///     .unwrap();
/// // The mass of the games ending with one peg (13 jumps from a1), in units of 2^-124:
/// // the random player wins 0.00686175588768131... of its games (exactly
/// // 232443128903009/33875167334400000), the floors losing far less than 10^-15.
/// let wins = s.counts[0].layers[13].games_ended.to_f64() / 2f64.powi(124);
/// assert!((wins - 232443128903009.0 / 33875167334400000.0).abs() < 1e-15);
/// ```
pub fn sweep_weighted(
    board: &Board,
    starts: &[Pegs],
    opts: &CountOptions,
    weight: Weight,
) -> Result<Swept> {
    check_starts(board, starts)?;
    let n = starts.len();
    let pool = crate::pool::build(opts.threads)?;
    check_threads(opts, pool.current_num_threads() as u64)?;
    // The one runtime choice: bitboard width, number of count lanes and how keys are stored
    // ([`Packed`] where the board allows). A sweep of several starts also packs a mask of `N`
    // bits beside each canonical form (`LayerAcc::reduced`). Every (keys, lanes) pair is
    // another copy of the engine to compile (docs/experiments.md, "Fewer copies of the
    // count engine"), so the lane counts sized to each group of starts are kept for
    // [`Packed`] keys, where the tables that outgrow memory are (tri:8, french); one start on
    // any board of up to 64 holes takes 64-bit keys; every other sweep (several starts on a
    // board too large or too small to pack) takes 128-bit keys and a power of two of lanes,
    // which [`max_starts`] allows for.
    let bits = |lanes: usize| board.holes() + if lanes > 1 { lanes } else { 0 };
    let packed = Packed::new(board.holes(), SHARDS);
    if n == 1 && bits(1) <= 64 {
        return pool.install(|| {
            let sweep = Sweep::<u64, 1>::new(board, starts).with_weight(weight);
            match &packed {
                Some(packed) => sweep.run(packed, opts),
                None => sweep.run(&Whole, opts),
            }
        });
    }
    macro_rules! narrow {
        ($($lanes:literal)*) => {$(
            if let Some(packed) = &packed
                && n <= $lanes
                && bits($lanes) <= 64
            {
                return pool.install(|| {
                    Sweep::<u64, $lanes>::new(board, starts)
                        .with_weight(weight)
                        .run(packed, opts)
                });
            }
        )*};
    }
    macro_rules! wide {
        ($($lanes:literal)*) => {$(
            if n <= $lanes {
                debug_assert!(bits($lanes) <= 128);
                return pool.install(|| {
                    Sweep::<u128, $lanes>::new(board, starts)
                        .with_weight(weight)
                        .run(&Whole, opts)
                });
            }
        )*};
    }
    // More lanes never fit where fewer did not, so `narrow` takes the first that is enough.
    narrow!(2 3 4 5 6 8 10 12 16);
    wide!(1 2 4 8 16);
    unreachable!("n <= MAX_STARTS")
}

/// Refuses starts one sweep cannot take: none, more than [`max_starts`], one that is not a
/// position of `board`, two with different numbers of pegs, or one given twice.
fn check_starts(board: &Board, starts: &[Pegs]) -> Result<()> {
    let n = starts.len();
    if n == 0 || n > max_starts(board) {
        return Err(Error::input(format!(
            "one sweep of {} takes 1 to {} starts, not {n}",
            board.name(),
            max_starts(board)
        )));
    }
    for (i, &s) in starts.iter().enumerate() {
        if s & !board.full() != 0 || s.count_ones() != starts[0].count_ones() {
            return Err(Error::input(
                "the starts of one sweep must be positions of the board with equal numbers of pegs",
            ));
        }
        if starts[..i].contains(&s) {
            return Err(Error::input("the starts of one sweep must be distinct"));
        }
    }
    Ok(())
}

/// Refuses a memory budget too small for `threads` threads: at once, rather than leave
/// them to crawl ([`Budget::MIN_PER_THREAD`]).
fn check_threads(opts: &CountOptions, threads: u64) -> Result<()> {
    if !Budget(opts.max_memory).enough_for(threads) {
        return Err(Error::input(format!(
            "--max-memory {} is too small for {threads} threads (at least {} a thread): \
             give at most {} threads, or more memory",
            crate::memory::human(opts.max_memory),
            crate::memory::human(Budget::MIN_PER_THREAD),
            (opts.max_memory / Budget::MIN_PER_THREAD).max(1)
        )));
    }
    Ok(())
}

/// How many starts one sweep of `board` can carry: [`MAX_STARTS`], fewer on boards so large
/// that a canonical form and a mask of one bit per start no longer fit 128 bits (then a
/// power of two: 8 on a board of 115 holes).
///
/// ```
/// use pegsol::{geometry::board::Board, count::sweep::max_starts};
/// assert_eq!(max_starts(&Board::from_spec("english").unwrap()), 16);
/// ```
pub fn max_starts(board: &Board) -> usize {
    match 128usize.saturating_sub(board.holes()) {
        0 => 1,
        // 128-bit keys carry a power of two of lanes ([`sweep_many`]).
        room => 1 << room.min(MAX_STARTS).ilog2(),
    }
}
