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
//! exact and commutative, so the result does not depend on the number of threads.

use crate::count::cluster::Cluster;
use crate::count::disk::{
    self, Identity, LayerFiles, Progress, ShardReader, ShardWriter, Spent, Work, Written,
};
use crate::count::slots::{self, SlotKey, Slots};
use crate::count::stats::{Counts, Layer};
use crate::error::{Error, Result};
use crate::geometry::bits::{Bits, Packed};
use crate::geometry::board::{Board, Pegs};
use crate::geometry::moves::{MAX_GROUP, MoveTable};
use crate::output::progress;
use crate::total::Total;
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Number of shards of each layer's table (a power of two).
pub const SHARDS: usize = 64;

/// The most starts one sweep carries ([`count_many`]).
pub const MAX_STARTS: usize = 16;

type Hasher = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;

/// The low part of a count, which every entry holds for each start: `u64`, or `u32` while
/// the counts of a sweep of several starts are small (docs/experiments.md, "Narrow lanes").
/// The rest of a count, its value shifted right by `BITS`, lives in a sparse map beside the
/// entries.
trait Lane: Copy + Default + Ord + num_traits::ConstZero + Send + Sync + Debug + 'static {
    const BITS: u32;
    /// The low `BITS` bits of `x`.
    fn low(x: u128) -> Self;
    fn wide(self) -> u128;
    fn add(self, other: Self) -> (Self, bool);
}

macro_rules! lanes {
    ($($t:ty)*) => {$(
        impl Lane for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn low(x: u128) -> Self {
                x as $t
            }
            #[inline]
            fn wide(self) -> u128 {
                self.into()
            }
            #[inline]
            fn add(self, other: Self) -> (Self, bool) {
                self.overflowing_add(other)
            }
        }
    )*};
}
lanes!(u32 u64);

/// A 64-bit lane stored at 4-byte alignment: beside a 4-byte key an entry takes 12 bytes
/// where `(u32, [u64; 1])` takes 16, so the wide phase of a sweep holds a quarter less and a
/// layer on disk needs fewer passes (DESIGN.md, "Layers on disk"). The wide lanes of every
/// sweep; an entry that straddles two cache lines has both fetched ([`Slots::prefetch`]).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
#[repr(C, packed(4))]
struct Wide(u64);

impl Debug for Wide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        v.fmt(f)
    }
}

impl Ord for Wide {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let (a, b) = (self.0, other.0);
        a.cmp(&b)
    }
}

impl PartialOrd for Wide {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::ops::Add for Wide {
    type Output = Wide;
    fn add(self, other: Wide) -> Wide {
        let (a, b) = (self.0, other.0);
        Wide(a + b)
    }
}

impl num_traits::Zero for Wide {
    fn zero() -> Self {
        Wide(0)
    }
    fn is_zero(&self) -> bool {
        let v = self.0;
        v == 0
    }
}

impl num_traits::ConstZero for Wide {
    const ZERO: Self = Wide(0);
}

impl Lane for Wide {
    const BITS: u32 = u64::BITS;
    #[inline]
    fn low(x: u128) -> Self {
        Wide(x as u64)
    }
    #[inline]
    fn wide(self) -> u128 {
        let v = self.0;
        v.into()
    }
    #[inline]
    fn add(self, other: Self) -> (Self, bool) {
        let (a, b) = (self.0, other.0);
        let (sum, carry) = a.overflowing_add(b);
        (Wide(sum), carry)
    }
}

/// A key as a shard's table stores it (hashed also by the sparse map of high parts), and
/// as a layer file keeps it: its low `size_of::<Self>()` bytes.
trait Key: SlotKey + Default + Hash + Send + Sync + 'static {
    fn wide(self) -> u128;
    fn narrow(x: u128) -> Self;
}

macro_rules! keys {
    ($($t:ty)*) => {$(
        impl Key for $t {
            #[inline]
            fn wide(self) -> u128 {
                self as u128
            }
            #[inline]
            fn narrow(x: u128) -> Self {
                x as $t
            }
        }
    )*};
}
keys!(u32 u64 u128);

/// How a canonical position is split into its shard and the key its shard's table stores,
/// and joined again.
trait Codec<K>: Sync {
    type S: Key;
    fn split(&self, pos: K) -> (usize, Self::S);
    fn join(&self, shard: usize, key: Self::S) -> K;
}

/// The whole position as the key, the shard chosen by a hash of it: boards of more than
/// 38 holes ([`Packed`]).
struct Whole;

impl<K: Bits + Key> Codec<K> for Whole {
    type S = K;
    #[inline]
    fn split(&self, pos: K) -> (usize, K) {
        (pos.shard(SHARDS), pos)
    }
    #[inline]
    fn join(&self, _: usize, key: K) -> K {
        key
    }
}

/// Boards of up to 38 holes ([`Packed`] with [`SHARDS`] shards): the position times an odd
/// constant, modulo `2^holes` (a bijection), names its shard by its top bits and is stored
/// as the rest, in 32 bits. Entries shrink by 4 or 8 bytes (docs/experiments.md, "Keys within a
/// shard").
impl Codec<u64> for Packed {
    type S = u32;
    #[inline]
    fn split(&self, pos: u64) -> (usize, u32) {
        Packed::split(self, pos)
    }
    #[inline]
    fn join(&self, shard: usize, key: u32) -> u64 {
        Packed::join(self, shard, key)
    }
}

/// The high parts of the counts of the entries that carry past their lanes (each count
/// shifted right by the lane's bits), by stored key. Most fit 128 bits and are kept so, in
/// slots of 32 bytes with one start as before counts were 256-bit; the rare ones past
/// 2^128 are kept whole in `wide`. An entry is in one map or the other.
#[derive(Default)]
struct Highs<K, const N: usize> {
    narrow: HashMap<K, [u128; N], Hasher>,
    wide: HashMap<K, [Total; N], Hasher>,
}

impl<K: Key, const N: usize> Highs<K, N> {
    fn len(&self) -> usize {
        self.narrow.len() + self.wide.len()
    }

    fn is_empty(&self) -> bool {
        self.narrow.is_empty() && self.wide.is_empty()
    }

    /// Bytes of both maps: 7/8 of their buckets hold entries, each bucket an entry plus a
    /// control byte.
    fn bytes(&self) -> u64 {
        let buckets = |capacity: usize| (capacity.div_ceil(7) * 8) as u64;
        buckets(self.narrow.capacity()) * (size_of::<(K, [u128; N])>() as u64 + 1)
            + buckets(self.wide.capacity()) * (size_of::<(K, [Total; N])>() as u64 + 1)
    }

    /// `key`'s high parts, if it has any.
    #[inline]
    fn get(&self, key: &K) -> Option<[Total; N]> {
        if let Some(hi) = self.narrow.get(key) {
            return Some(hi.map(Total::from));
        }
        if self.wide.is_empty() {
            None
        } else {
            self.wide.get(key).copied()
        }
    }

    /// Sets `key`'s high parts, which it has none of yet.
    fn insert(&mut self, key: K, hi: [Total; N]) {
        if hi.iter().all(|h| h.fits(128)) {
            self.narrow.insert(key, hi.map(Total::low_u128));
        } else {
            self.wide.insert(key, hi);
        }
    }

    /// Adds `hi` to `key`'s high parts; each must stay below `2^bits` (at least 2^128).
    fn add(&mut self, key: K, hi: &[Total; N], bits: u32) -> Result<()> {
        let overflow = || Error::Overflow(format!("a count of position {key:?} exceeds 2^256"));
        if self.wide.is_empty() || !self.wide.contains_key(&key) {
            let slot = self.narrow.entry(key).or_insert([0; N]);
            let mut sum = *slot;
            let mut fits = true;
            for k in 0..N {
                match hi[k].to_u128().and_then(|h| sum[k].checked_add(h)) {
                    Some(x) => sum[k] = x,
                    None => fits = false,
                }
            }
            if fits {
                *slot = sum;
                return Ok(());
            }
            // Past 2^128: the entry moves to the wide map.
            let old = self.narrow.remove(&key).expect("just inserted");
            self.wide.insert(key, old.map(Total::from));
        }
        let slot = self.wide.get_mut(&key).expect("in the wide map");
        for k in 0..N {
            slot[k] = slot[k]
                .plus(hi[k])
                .ok()
                .filter(|x| x.fits(bits))
                .ok_or_else(overflow)?;
        }
        Ok(())
    }
}

/// One shard of a layer: stored key ([`Codec`]) -> one count per start (`N` lanes).
///
/// A count is split into its low `L::BITS` bits, kept in `low` for every entry, and the
/// rest, kept in `high` only for the entries that have it. `low` is a [`Slots`] table, whose
/// inserts fetch their cache line ahead; `high` is small and a plain hash map. The sweep is
/// bound by memory traffic, so entries are kept small: with one start and [`Packed`] keys
/// they are 8 bytes while counts fit 32 bits, then 16 (docs/experiments.md, "Memory", "Keys
/// within a shard" and "Slot tables").
#[derive(Default)]
struct Shard<K, L, const N: usize> {
    low: Slots<K, [L; N]>,
    high: Highs<K, N>,
}

impl<K: Key, L: Lane, const N: usize> Shard<K, L, N> {
    fn len(&self) -> usize {
        self.low.len()
    }

    /// Bytes held by both maps (the slots of `low`; entry plus control byte per slot of
    /// `high`).
    fn bytes(&self) -> u64 {
        (self.low.capacity() * size_of::<(K, [L; N])>()) as u64 + self.high.bytes()
    }

    /// Adds each `(key, lo)` of `entries` with [`Shard::add_low`], fetching the slots of
    /// later keys meanwhile (docs/experiments.md, "Slot tables"). Kept out of line so that profiles
    /// name the insert phase.
    #[inline(never)]
    fn add_all(&mut self, entries: &[(K, [L; N])]) -> Result<()> {
        const AHEAD: usize = 16;
        for (key, _) in entries.iter().take(AHEAD) {
            self.low.prefetch(*key);
        }
        for (i, (key, lo)) in entries.iter().enumerate() {
            if let Some((later, _)) = entries.get(i + AHEAD) {
                self.low.prefetch(*later);
            }
            self.add_low(*key, lo)?;
        }
        Ok(())
    }

    /// Adds `lo` to the low parts of `key`'s counts, carrying into the high parts. Always
    /// inlined: left to the compiler, the wide-lane `add_all` of english called it.
    #[inline(always)]
    fn add_low(&mut self, key: K, lo: &[L; N]) -> Result<()> {
        let slot = self.low.entry(key);
        let mut any = false;
        for k in 0..N {
            let (sum, c) = Lane::add(slot[k], lo[k]);
            slot[k] = sum;
            any |= c;
        }
        if any {
            // A lane carried exactly when its sum came out below what was added.
            let carry = std::array::from_fn(|k| Total::from(u128::from(slot[k] < lo[k])));
            self.add_high(key, &carry)
        } else {
            Ok(())
        }
    }

    /// Adds `hi * 2^L::BITS` to `key`'s counts.
    #[cold]
    #[inline(never)]
    fn add_high(&mut self, key: K, hi: &[Total; N]) -> Result<()> {
        self.high.add(key, hi, 256 - L::BITS)
    }
}

/// A finished layer's shard, packed for the next sweep: its entries in a vector of exactly
/// their number (where the table held about 1.6 times that on average), the sparse high
/// parts kept as they were. The vector is freed as soon as its unit is expanded.
struct Frozen<K, L, const N: usize> {
    low: Vec<(K, [L; N])>,
    high: Highs<K, N>,
}

impl<K: Key, L: Lane, const N: usize> Frozen<K, L, N> {
    fn new(shard: Shard<K, L, N>) -> Self {
        Frozen {
            low: shard.low.into_entries(),
            high: shard.high,
        }
    }

    fn len(&self) -> usize {
        self.low.len()
    }

    fn bytes(&self) -> u64 {
        (self.low.capacity() * size_of::<(K, [L; N])>()) as u64 + self.high.bytes()
    }

    /// Takes every `(position, counts)` out, leaving the shard empty.
    fn drain(&mut self) -> impl Iterator<Item = (K, [Total; N])> + use<K, L, N> {
        let low = std::mem::take(&mut self.low);
        let high = std::mem::take(&mut self.high);
        low.into_iter().map(move |(k, lo)| {
            if !high.is_empty()
                && let Some(hi) = high.get(&k)
            {
                return (
                    k,
                    std::array::from_fn(|i| Total::join(lo[i].wide(), hi[i], L::BITS)),
                );
            }
            (k, lo.map(|l| Total::from(l.wide())))
        })
    }

    /// Takes every entry out, leaving the shard empty: the entries with their low parts,
    /// and the high parts of the few that have them. [`Sweep::expand`] reads both in place,
    /// so that the common count, one lane, is never widened.
    fn take(&mut self) -> (Vec<(K, [L; N])>, Highs<K, N>) {
        (
            std::mem::take(&mut self.low),
            std::mem::take(&mut self.high),
        )
    }

    /// The same entries with lanes of another width.
    fn relane<M: Lane>(mut self) -> Frozen<K, M, N> {
        let mut out = Frozen {
            low: Vec::with_capacity(self.len()),
            high: Highs::default(),
        };
        for (k, v) in self.drain() {
            let (low, high) = split::<M, N>(&v);
            out.low.push((k, low));
            if let Some(high) = high {
                out.high.insert(k, high);
            }
        }
        out
    }
}

/// Counts as lanes of `L` and, where one does not fit its lane, the high parts of all.
#[inline]
fn split<L: Lane, const N: usize>(counts: &[Total; N]) -> ([L; N], Option<[Total; N]>) {
    let low = counts.map(|c| L::low(c.low_u128()));
    let high = counts
        .iter()
        .any(|c| !c.fits(L::BITS))
        .then(|| counts.map(|c| c.shr(L::BITS)));
    (low, high)
}

/// Children of one work unit, per next-layer shard: `(canonical child, low parts of the
/// counts)`, and the high parts of the counts that have them.
#[derive(Clone, Default)]
struct Out<K, L, const N: usize> {
    low: Vec<(K, [L; N])>,
    high: Vec<(K, [Total; N])>,
}

/// How to run a count.
#[derive(Clone, Debug)]
pub struct CountOptions {
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Refuse to grow the tables past this many bytes.
    pub max_memory: u64,
    /// Show a progress bar on stderr (only drawn when stderr is a terminal).
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
    let pool = crate::pool::build(opts.threads)?;
    // Each worker fills buffers of children for every shard, and a pass whose buffers
    // outgrow the budget is run again split in two: below 16 KiB a thread, passes split
    // until every shard is one and the sweep crawls (tri:6 at 64K: 8 s on 4 threads, 45 s
    // on 32, minutes on 1,024). Refused at once rather than left to crawl.
    let threads = pool.current_num_threads() as u64;
    if opts.max_memory / threads < MIN_BYTES_PER_THREAD {
        return Err(Error::input(format!(
            "--max-memory {} is too small for {threads} threads (at least {} a thread): \
             give at most {} threads, or more memory",
            crate::memory::human(opts.max_memory),
            crate::memory::human(MIN_BYTES_PER_THREAD),
            (opts.max_memory / MIN_BYTES_PER_THREAD).max(1)
        )));
    }
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
            let sweep = Sweep::<u64, 1>::new(board, starts);
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
                return pool.install(|| Sweep::<u64, $lanes>::new(board, starts).run(packed, opts));
            }
        )*};
    }
    macro_rules! wide {
        ($($lanes:literal)*) => {$(
            if n <= $lanes {
                debug_assert!(bits($lanes) <= 128);
                return pool.install(|| Sweep::<u128, $lanes>::new(board, starts).run(&Whole, opts));
            }
        )*};
    }
    // More lanes never fit where fewer did not, so `narrow` takes the first that is enough.
    narrow!(2 3 4 5 6 8 10 12 16);
    wide!(1 2 4 8 16);
    unreachable!("n <= MAX_STARTS")
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

/// Per-unit accumulator of one layer's statistics, one lane per start.
struct LayerAcc<const N: usize> {
    positions: [u64; N],
    dead_ends: [u64; N],
    games_ended: [Total; N],
    /// Entries (orbits under `H`) with a position reachable from each start.
    reached: [u64; N],
    /// (start, hole, wins) for one-peg dead ends.
    finish: Vec<(usize, usize, Total)>,
    /// The smallest dead end reached from each start (`u128::MAX`: none yet).
    least_end: [u128; N],
}

impl<const N: usize> Default for LayerAcc<N> {
    fn default() -> Self {
        LayerAcc {
            positions: [0; N],
            dead_ends: [0; N],
            games_ended: [Total::ZERO; N],
            reached: [0; N],
            finish: Vec::new(),
            least_end: [u128::MAX; N],
        }
    }
}

impl<const N: usize> LayerAcc<N> {
    fn absorb(&mut self, other: LayerAcc<N>) -> Result<()> {
        for k in 0..N {
            self.positions[k] += other.positions[k];
            self.dead_ends[k] += other.dead_ends[k];
            self.reached[k] += other.reached[k];
            self.games_ended[k] = self.games_ended[k].plus(other.games_ended[k])?;
            self.least_end[k] = self.least_end[k].min(other.least_end[k]);
        }
        self.finish.extend(other.finish);
        Ok(())
    }

    /// The layer's statistics over every rank of `cluster`, the same on every rank (a
    /// collective): each rank's, added exactly.
    fn gather(self, cluster: &Cluster) -> Result<Self> {
        if cluster.size() == 1 {
            return Ok(self);
        }
        let mut total = LayerAcc::default();
        for bytes in cluster.all_gather(&self.to_bytes()) {
            total.absorb(LayerAcc::from_bytes(&bytes)?)?;
        }
        Ok(total)
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        for k in 0..N {
            b.extend(self.positions[k].to_le_bytes());
            b.extend(self.dead_ends[k].to_le_bytes());
            b.extend(self.reached[k].to_le_bytes());
            b.extend(self.games_ended[k].to_le_bytes());
            b.extend(self.least_end[k].to_le_bytes());
        }
        for &(k, hole, wins) in &self.finish {
            b.extend((k as u64).to_le_bytes());
            b.extend((hole as u64).to_le_bytes());
            b.extend(wins.to_le_bytes());
        }
        b
    }

    fn from_bytes(b: &[u8]) -> Result<Self> {
        let mut r = Bytes(b);
        let mut acc = LayerAcc::default();
        for k in 0..N {
            acc.positions[k] = r.u64()?;
            acc.dead_ends[k] = r.u64()?;
            acc.reached[k] = r.u64()?;
            acc.games_ended[k] = r.total()?;
            acc.least_end[k] = r.u128()?;
        }
        while !r.0.is_empty() {
            acc.finish
                .push((r.u64()? as usize, r.u64()? as usize, r.total()?));
        }
        Ok(acc)
    }
}

/// Reads little-endian numbers off the front of a message from another rank.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn take(&mut self, n: usize) -> Result<u128> {
        if self.0.len() < n {
            return Err(Error::input("a message from another rank ended early"));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        let mut x = [0u8; 16];
        x[..n].copy_from_slice(head);
        Ok(u128::from_le_bytes(x))
    }
    fn u64(&mut self) -> Result<u64> {
        Ok(self.take(8)? as u64)
    }
    fn u128(&mut self) -> Result<u128> {
        self.take(16)
    }
    fn total(&mut self) -> Result<Total> {
        let (lo, hi) = (self.u128()?, self.u128()?);
        let mut x = [0u8; 32];
        x[..16].copy_from_slice(&lo.to_le_bytes());
        x[16..].copy_from_slice(&hi.to_le_bytes());
        Ok(Total::from_le_bytes(x))
    }
}

/// Children of a batch bound for other ranks, as bytes: for every shard `keep` accepts and
/// every unit, its number (one byte), the entries of its low parts (key, then each lane)
/// and those of its high parts.
fn pack<S: Key, L: Lane, const N: usize>(
    pool: &[Vec<Out<S, L, N>>],
    keep: impl Fn(usize) -> bool,
) -> Vec<u8> {
    let (kb, lb) = (size_of::<S>(), (L::BITS / 8) as usize);
    let mut b = Vec::new();
    for unit in pool {
        for (s, out) in unit.iter().enumerate() {
            if !keep(s) || (out.low.is_empty() && out.high.is_empty()) {
                continue;
            }
            b.reserve(1 + 16 + out.low.len() * (kb + N * lb) + out.high.len() * (kb + N * 32));
            b.push(s as u8);
            b.extend((out.low.len() as u64).to_le_bytes());
            for (key, lanes) in &out.low {
                b.extend_from_slice(&key.wide().to_le_bytes()[..kb]);
                for l in lanes {
                    b.extend_from_slice(&l.wide().to_le_bytes()[..lb]);
                }
            }
            b.extend((out.high.len() as u64).to_le_bytes());
            for (key, his) in &out.high {
                b.extend_from_slice(&key.wide().to_le_bytes()[..kb]);
                for h in his {
                    b.extend(h.to_le_bytes());
                }
            }
        }
    }
    b
}

/// The children [`pack`] wrote, one buffer per shard.
fn unpack<S: Key, L: Lane, const N: usize>(bytes: &[u8]) -> Result<Vec<Out<S, L, N>>> {
    let (kb, lb) = (size_of::<S>(), (L::BITS / 8) as usize);
    let mut outs: Vec<Out<S, L, N>> = vec![Out::default(); SHARDS];
    let mut r = Bytes(bytes);
    while !r.0.is_empty() {
        let s = r.take(1)? as usize;
        let out = outs
            .get_mut(s)
            .ok_or_else(|| Error::input("a message from another rank names no shard"))?;
        let n = r.u64()? as usize;
        out.low.reserve(n);
        for _ in 0..n {
            let key = S::narrow(r.take(kb)?);
            let mut lanes = [L::default(); N];
            for l in lanes.iter_mut() {
                *l = L::low(r.take(lb)?);
            }
            out.low.push((key, lanes));
        }
        let n = r.u64()? as usize;
        for _ in 0..n {
            let key = S::narrow(r.take(kb)?);
            let mut his = [Total::ZERO; N];
            for h in his.iter_mut() {
                *h = r.total()?;
            }
            out.high.push((key, his));
        }
    }
    Ok(outs)
}

/// Sends the children in `pool` that belong to other ranks' shards to those ranks (and
/// empties their buffers), and returns the children the other ranks sent this one, one
/// set of buffers per rank. Counts the bytes sent and the time taken in `run`.
fn trade<S: Key, L: Lane, const N: usize>(
    pool: &mut [Vec<Out<S, L, N>>],
    run: &mut Run,
) -> Result<Vec<Vec<Out<S, L, N>>>> {
    let cluster = run.cluster;
    if cluster.size() == 1 {
        return Ok(Vec::new());
    }
    let clock = Instant::now();
    let send: Vec<Vec<u8>> = (0..cluster.size())
        .into_par_iter()
        .map(|d| {
            if d == cluster.rank() {
                Vec::new()
            } else {
                pack(pool, |s| cluster.owner(s) == d)
            }
        })
        .collect();
    run.sent += send.iter().map(|b| b.len() as u64).sum::<u64>();
    pool.par_iter_mut().for_each(|unit| {
        for (s, out) in unit.iter_mut().enumerate() {
            if !cluster.owns(s) {
                out.low.clear();
                out.high.clear();
            }
        }
    });
    let got = cluster.exchange(send)?;
    let outs = got
        .par_iter()
        .map(|b| unpack::<S, L, N>(b))
        .collect::<Result<Vec<_>>>()?;
    run.exchange += clock.elapsed();
    Ok(outs)
}

/// `x` with lane `k` moved to lane `to[k]`.
#[inline]
fn permute<T: Copy + Default, const N: usize>(x: &[T; N], to: &[usize; N]) -> [T; N] {
    let mut out = [T::default(); N];
    for k in 0..N {
        out[to[k]] = x[k];
    }
    out
}

/// Whether `PEGSOL_TRACE` asks for one line per layer on stderr (sizes, memory, seconds
/// since the sweep began).
fn trace() -> bool {
    std::env::var_os("PEGSOL_TRACE").is_some()
}

/// What a sweep has gathered so far: per start, the layers and the wins per finishing hole.
struct Run {
    started: Instant,
    /// What earlier processes spent on this sweep, when it resumed from a checkpoint.
    before: Spent,
    bar: indicatif::ProgressBar,
    layers: Vec<Vec<Layer>>,
    finish: Vec<Vec<Total>>,
    /// Positions (not reduced) counted so far, all starts together, for the progress bar.
    positions: u64,
    /// Entries of the layer before the current one, for the guess of the next layer's size.
    previous: usize,
    /// Entries of the layer before that (0 when unknown), for the disk path's sharper guess
    /// ([`guess_on_disk`]).
    before_previous: usize,
    /// Entries of the current layer whose counts carried past narrow lanes (0 when
    /// unknown), for the disk path's choice of lanes ([`stays_narrow`]).
    carried: u64,
    /// Bytes of the children buffers after the last layer swept in memory.
    buffers: u64,
    /// The sweep's folder in the work directory (created when first needed).
    work: Work,
    /// Every layer goes to disk: a work directory was given.
    forced: bool,
    /// Show notices on stderr (not `--quiet`).
    notices: bool,
    /// The sweep's folder was made and not yet named on stderr ([`Run::announce`]).
    unannounced: bool,
    /// The ranks sharing the sweep.
    cluster: Cluster,
    /// Bytes this rank sent other ranks during the current layer.
    sent: u64,
    /// Time this rank spent exchanging children during the current layer.
    exchange: std::time::Duration,
    /// Per start, the smallest dead end of its first layer with one, once swept here.
    least_ends: Vec<Option<u128>>,
}

impl Run {
    /// The statistics so far, for a checkpoint.
    fn progress(&self, narrow: bool) -> Progress {
        Progress {
            layers: self
                .layers
                .iter()
                .map(|ls| {
                    ls.iter()
                        .map(|l| {
                            (
                                l.jumps,
                                l.positions,
                                l.positions_reduced,
                                l.games_ended.to_string(),
                                l.dead_ends,
                            )
                        })
                        .collect()
                })
                .collect(),
            finish: self
                .finish
                .iter()
                .map(|f| f.iter().map(Total::to_string).collect())
                .collect(),
            positions: self.positions,
            previous: self.previous,
            before_previous: self.before_previous,
            carried: self.carried,
            narrow,
            spent: self.spent(),
        }
    }

    /// What the sweep has cost so far, earlier processes included.
    fn spent(&self) -> Spent {
        Spent {
            millis: self.before.millis + self.started.elapsed().as_millis() as u64,
            peak_rss: self
                .before
                .peak_rss
                .max(crate::memory::peak_rss().unwrap_or(0)),
        }
    }

    /// Takes the statistics of a checkpoint back.
    fn restore(&mut self, p: &Progress) -> Result<()> {
        let bad = || Error::Disk("its statistics do not fit this sweep".into());
        let number = |t: &String| t.parse::<Total>().map_err(|_| bad());
        if p.layers.len() != self.layers.len() || p.finish.len() != self.finish.len() {
            return Err(bad());
        }
        for (mine, theirs) in self.layers.iter_mut().zip(&p.layers) {
            *mine = theirs
                .iter()
                .map(|(jumps, positions, reduced, games, dead)| {
                    Ok(Layer {
                        jumps: *jumps,
                        positions: *positions,
                        positions_reduced: *reduced,
                        games_ended: number(games)?,
                        dead_ends: *dead,
                    })
                })
                .collect::<Result<_>>()?;
        }
        for (mine, theirs) in self.finish.iter_mut().zip(&p.finish) {
            if mine.len() != theirs.len() {
                return Err(bad());
            }
            *mine = theirs.iter().map(number).collect::<Result<_>>()?;
        }
        self.positions = p.positions;
        self.previous = p.previous;
        self.before_previous = p.before_previous;
        self.carried = p.carried;
        self.before = p.spent;
        Ok(())
    }

    /// Creates the sweep's folder; where it is is said once its first layer is recorded
    /// ([`Run::announce`]).
    fn work_dir(&mut self) -> Result<()> {
        if !self.work.dir().exists() {
            self.work.create()?;
            self.unannounced = self.notices;
        }
        Ok(())
    }

    /// Says where the sweep's folder is, once a layer is checkpointed and the next one
    /// passed [`Sweep::check_disk`]: a run refused by `--max-disk` or the disk's free space
    /// prints its one line of error only, which names the folder when work is kept.
    fn announce(&mut self) {
        if std::mem::take(&mut self.unannounced) {
            self.bar.suspend(|| {
                eprintln!(
                    "pegsol: layers kept on disk in {} (--work-dir sets where); the same command \
                     resumes an interrupted sweep",
                    self.work.dir().display()
                )
            });
        }
    }
}

/// A layer not yet swept: in memory, or in its files on disk.
enum Current<S, L, const N: usize> {
    Memory(Vec<Frozen<S, L, N>>),
    Disk(LayerFiles),
}

impl<S: Key, L: Lane, const N: usize> Current<S, L, N> {
    fn entries(&self) -> u64 {
        match self {
            Current::Memory(m) => m.iter().map(|t| t.len() as u64).sum(),
            Current::Disk(d) => d.entries(),
        }
    }

    /// The same layer with lanes of another width (files keep whole counts).
    fn relane<M: Lane>(self) -> Current<S, M, N> {
        match self {
            Current::Memory(m) => Current::Memory(m.into_par_iter().map(Frozen::relane).collect()),
            Current::Disk(d) => Current::Disk(d),
        }
    }
}

/// The passes of a layer on disk ([`Sweep::disk_layer`]), as ranges of next-layer shards,
/// last pass first: the next layer's tables, `guess` entries of `entry_bytes` each with the
/// slack of the load factor and a tenth for a low guess, split into as few passes of about
/// equal size as fit seven eighths of `budget`. The buffers of children take what the
/// tables leave ([`Rounds`]).
fn pass_ranges(guess: u64, entry_bytes: u64, budget: u64) -> Vec<Range<usize>> {
    let (num, den) = slots::MAX_LOAD;
    let tables = guess as u128 * entry_bytes as u128 * den as u128 * 11 / (num as u128 * 10);
    let room = u128::from((budget - budget / 8).max(1));
    split_shards(tables.div_ceil(room).clamp(1, SHARDS as u128) as usize)
}

/// The [`SHARDS`] shards in `passes` ranges of about equal size, last first.
fn split_shards(passes: usize) -> Vec<Range<usize>> {
    let per_pass = SHARDS.div_ceil(passes.clamp(1, SHARDS));
    (0..SHARDS)
        .step_by(per_pass)
        .map(|a| a..(a + per_pass).min(SHARDS))
        .rev()
        .collect()
}

/// The guess of a layer on disk: the last growth ratio times its change from the one
/// before, when three layers are known. On the tri:8 sweeps (five classes, layers 14 to
/// 24) this came within 2% of every layer, where [`guess_next`] was 12% to 20% high, which
/// cost a third pass in the widest layers (docs/experiments.md, ninth session). It is
/// never below four fifths of [`guess_next`], and a pass reserves the tenth more that
/// [`pass_ranges`] plans for, so a low guess grows no table.
fn guess_on_disk(entries: u64, previous: usize, before_previous: usize) -> u64 {
    let first = guess_next(entries, previous);
    if previous == 0 || before_previous == 0 || entries == 0 {
        return first;
    }
    let (e, p, b) = (entries as f64, previous as f64, before_previous as f64);
    let second = e * (e / p) * (e / p) / (p / b);
    (second as u64).max(first / 5 * 4)
}

/// Whether the layer after `now` (`[carried, entries]`, the layer before it `before`)
/// keeps narrow lanes: while at most one entry in 64 carries into the high parts, and, on
/// disk, while the carries' growth foretells fewer than one entry in 11 carrying in the
/// next layer (their share times its last growth, at most 16-fold).
///
/// One in 11 is where the two widths hold about the same memory on disk: a narrow entry
/// takes 8 bytes in a table at most 4/5 full, plus, when it carries, a slot of the sparse
/// map (33 bytes at most 7/8 full, about half again for its growth by doubling; the rare
/// high parts past 2^128 take wider slots, in a second map); a wide entry takes 12. The
/// tri:8 sweeps' last narrow layer with 13% to 17% of entries carrying (a3, b3) ran at
/// 0.6-0.7 million entries a second against 0.8-1.1 in the wide layer after it, and made
/// a3's peak memory, 1.2 GiB past `--max-memory`; with 8% (a2) both widths ran alike
/// (docs/experiments.md, tenth session). There the share had grown 16- to 7,000-fold from
/// the layer before, so the disk path now widens a layer earlier.
fn stays_narrow(before: [u64; 2], now: [u64; 2], on_disk: bool) -> bool {
    let [carried, entries] = now;
    if carried.saturating_mul(64) > entries {
        return false;
    }
    if !on_disk || carried == 0 {
        return true;
    }
    let share = carried as f64 / entries.max(1) as f64;
    let earlier = before[0] as f64 / before[1].max(1) as f64;
    let growth = if earlier > 0.0 {
        (share / earlier).clamp(1.0, 16.0)
    } else {
        16.0
    };
    share * growth * 11.0 <= 1.0
}

/// The guess of the next layer's entries from the growth of the last.
fn guess_next(entries: u64, previous: usize) -> u64 {
    if previous == 0 {
        entries.saturating_mul(8)
    } else {
        (entries as f64 * (entries as f64 / previous as f64)) as u64
    }
}

/// The sweep of one board from up to `N` starts, with bitboards of type `K`.
struct Sweep<'a, K: Bits, const N: usize> {
    board: &'a Board,
    starts: Vec<K>,
    /// Jumps and symmetries; canonical forms under `H`, the symmetries that map the set of
    /// starts onto itself, then `K` ([`Sweep::reduced_counts`]).
    moves: MoveTable<K>,
    /// For each element `i` of `H` and start `k`: `fwd[i][k]` is the start that symmetry
    /// `i` sends start `k` to, `inv[i][k]` the one it sends to start `k`. Lanes past the
    /// last start map to themselves.
    fwd: Vec<[usize; N]>,
    inv: Vec<[usize; N]>,
}

impl<'a, K: Bits, const N: usize> Sweep<'a, K, N> {
    /// The most entries a layer after one of `entries` can hold: each is a child of an
    /// entry by one of the board's jumps. Caps the guesses of the next layer's size, which
    /// a checkpoint's statistics feed.
    fn most_children(&self, entries: u64) -> u64 {
        entries.saturating_mul(self.board.jumps().len() as u64)
    }

    fn new(board: &'a Board, starts: &[Pegs]) -> Self {
        // `K`: the symmetries that keep the starts' position class, when they share one (the
        // whole group otherwise); see [`Sweep::reduced_counts`].
        let one_class = starts.iter().all(|&x| board.same_class(x, starts[0]));
        let moves = MoveTable::nested(
            board,
            |s| {
                starts
                    .iter()
                    .all(|&x| starts.contains(&board.transform(s, x)))
            },
            |s| !one_class || board.same_class(board.transform(s, starts[0]), starts[0]),
        );
        let starts: Vec<K> = starts.iter().map(|&s| K::from_u128(s)).collect();
        let h = moves.subgroup_order();
        let mut fwd = vec![std::array::from_fn(|k| k); h];
        let mut inv = fwd.clone();
        for i in 0..h {
            for (k, &s) in starts.iter().enumerate() {
                let image = moves.transforms().apply(i, s);
                let to = starts
                    .iter()
                    .position(|&x| x == image)
                    .expect("H maps starts");
                fwd[i][k] = to;
                inv[i][to] = k;
            }
        }
        Sweep {
            board,
            starts,
            moves,
            fwd,
            inv,
        }
    }

    fn new_tables<S: Key, L: Lane>() -> Vec<Shard<S, L, N>> {
        (0..SHARDS).map(|_| Shard::default()).collect()
    }

    /// Expands one orbit representative `pos` carrying one count per start, `lo` and `hi`:
    /// the count of start `k` is `lo[k] + hi[k] * 2^L::BITS`, with `hi` `None` where every
    /// count fits its lane (nearly always: [`Frozen::take`]). Records its layer statistics
    /// and pushes each child's canonical form, with the counts permuted to the child's
    /// starts, into `out[shard]`. `jumps` is scratch, one slot per jump of the board.
    /// Returns the canonical form of `pos` under `K`, with several starts shifted left by
    /// `N` bits, the low bits marking the starts that reach it (see
    /// [`Sweep::reduced_counts`]); zero where `K` is `H`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn expand<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        pos: K,
        lo: &[L; N],
        hi: Option<&[Total; N]>,
        out: &mut [Out<C::S, L, N>],
        jumps: &mut [u32],
        acc: &mut LayerAcc<N>,
        keep: &Range<usize>,
    ) -> Result<K> {
        let (outer, h) = (self.moves.outer_order(), self.moves.subgroup_order());
        let n = self.starts.len();
        let img = self.moves.images(pos, outer);
        // The symmetries of H that fix `pos`.
        let mut stab = [0usize; MAX_GROUP];
        let mut fixed = 0;
        for (i, &x) in img[..h].iter().enumerate() {
            if x == pos {
                stab[fixed] = i;
                fixed += 1;
            }
        }
        let count = |k: usize| match hi {
            Some(hi) => Total::join(lo[k].wide(), hi[k], L::BITS),
            None => Total::from(lo[k].wide()),
        };
        // `total[k]`: the count of the orbit of the pair (pos, start k). When a symmetry of
        // `pos` permutes starts, parents credited that pair orbit under any of its starts:
        // the orbit's count is their sum, carried on by its first start only. Elsewhere
        // the counts are `lo` and `hi` as they came, used in place.
        let mut sums = None;
        if N > 1 && fixed > 1 {
            let mut total: [Total; N] = std::array::from_fn(count);
            let mut carried = total;
            let mut seen = [false; N];
            for k in 0..n {
                if seen[k] {
                    continue;
                }
                let mut orbit = [0usize; MAX_GROUP];
                let mut len = 0;
                let mut sum = Total::ZERO;
                for &i in &stab[..fixed] {
                    let q = self.fwd[i][k];
                    if !seen[q] {
                        seen[q] = true;
                        orbit[len] = q;
                        len += 1;
                        sum = sum.plus(count(q))?;
                    }
                }
                for &q in &orbit[..len] {
                    total[q] = sum;
                    carried[q] = Total::ZERO;
                }
                carried[k] = sum;
            }
            let (low, high) = split::<L, N>(&carried);
            sums = Some((total, low, high));
        }
        let (low, high) = match &sums {
            Some((_, low, high)) => (*low, high.as_ref()),
            None => (*lo, hi),
        };
        // The orbit count of start `q`, and whether it is zero.
        let total = |q: usize| match &sums {
            Some((total, _, _)) => total[q],
            None => count(q),
        };
        let unreached = |q: usize| match &sums {
            Some((total, _, _)) => total[q].is_zero(),
            None => lo[q] == L::ZERO && hi.is_none_or(|hi| hi[q].is_zero()),
        };
        // The legal jumps are gathered first and the children made in a plain loop: a
        // closure called for each jump was not inlined, and its calls cost about 16 of the
        // 67 instructions per child (docs/experiments.md, "Instructions per child").
        let mut legal = 0;
        let moved = self.moves.each_jump(pos, |j| {
            jumps[legal] = j as u32;
            legal += 1;
        });
        for &j in &jumps[..legal] {
            let (canon, by) = self.moves.canonical_child_by(&img, j as usize);
            let (shard, key) = codec.split(canon);
            // A pass of a sweep on disk builds only some shards of the next layer.
            if !keep.contains(&shard) {
                continue;
            }
            let out = &mut out[shard];
            // Fetch the line two lines past this buffer's end: the 64 buffers are too many
            // streams for the hardware prefetcher, and a push into a line not in cache
            // stalled the expansion (docs/experiments.md, "Writing children, and page faults").
            let ahead = 128 / size_of::<(C::S, [L; N])>();
            crate::count::slots::prefetch(out.low.as_ptr().wrapping_add(out.low.len() + ahead));
            if N == 1 || by == 0 {
                out.low.push((key, low));
                if let Some(high) = high {
                    out.high.push((key, *high));
                }
            } else {
                let to = &self.fwd[by];
                out.low.push((key, permute(&low, to)));
                if let Some(high) = &high {
                    out.high.push((key, permute(high, to)));
                }
            }
        }
        // Each distinct position `img[i]` of the orbit is reached from start `k` by as many
        // sequences as `pos` is from start `inv[i][k]`: that pair orbit's count over its size.
        let one_peg = pos.count_ones() == 1;
        let mut distinct = [0usize; MAX_GROUP];
        let mut positions = 0;
        for i in 0..h {
            if fixed == 1 || !img[..i].contains(&img[i]) {
                distinct[positions] = i;
                positions += 1;
            }
        }
        let mut mask = 0u128;
        for k in 0..n {
            let mut reached = false;
            for &i in &distinct[..positions] {
                let q = self.inv[i][k];
                if unreached(q) {
                    continue;
                }
                reached = true;
                acc.positions[k] += 1;
                if !moved {
                    let keep = stab[..fixed]
                        .iter()
                        .filter(|&&x| self.fwd[x][q] == q)
                        .count();
                    let each = total(q).div_exact((h / keep) as u64);
                    acc.dead_ends[k] += 1;
                    acc.games_ended[k] = acc.games_ended[k].plus(each)?;
                    acc.least_end[k] = acc.least_end[k].min(img[i].to_u128());
                    if one_peg {
                        acc.finish.push((k, img[i].trailing_zeros() as usize, each));
                    }
                }
            }
            if reached {
                acc.reached[k] += 1;
                mask |= 1 << k;
            }
        }
        if outer == h {
            return Ok(K::zero());
        }
        let canon = *img[..outer].iter().min().expect("group has identity");
        Ok(if N > 1 {
            canon << N | K::from_u128(mask)
        } else {
            canon
        })
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
    fn reduced_counts(
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

    /// Per start, the distinct canonical forms under `K` in `reduced` whose mask has the
    /// start (see [`Sweep::expand`]).
    fn distinct(reduced: &mut [K]) -> [u64; N] {
        reduced.par_sort_unstable();
        let mut counts = [0u64; N];
        if N == 1 {
            let distinct = reduced.windows(2).filter(|w| w[0] != w[1]).count();
            counts[0] = (distinct + usize::from(!reduced.is_empty())) as u64;
            return counts;
        }
        let low = K::from_u128((1u128 << N) - 1);
        let mut i = 0;
        while i < reduced.len() {
            let canon = reduced[i] >> N;
            let mut mask = K::zero();
            while i < reduced.len() && reduced[i] >> N == canon {
                mask = mask | (reduced[i] & low);
                i += 1;
            }
            for (k, c) in counts.iter_mut().enumerate() {
                if mask & K::bit(k) != K::zero() {
                    *c += 1;
                }
            }
        }
        counts
    }

    /// The sweep's identity for its files: board, starts, key encoding and lanes.
    fn identity<C: Codec<K>>(&self, cluster: &Cluster) -> Identity {
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
                "{} keys of {} bytes, {N} lanes, {SHARDS} shards{}",
                std::any::type_name::<C>(),
                size_of::<C::S>(),
                match cluster.size() {
                    1 => String::new(),
                    k => format!(", those of rank {} of {k}", cluster.rank()),
                }
            ),
        )
    }

    /// Runs the sweep, its tables keyed by `codec`: from the last checkpoint in the work
    /// directory if it has one, from the starts otherwise.
    fn run<C: Codec<K>>(&self, codec: &C, opts: &CountOptions) -> Result<Swept> {
        let n = self.starts.len();
        let start_pegs = self.starts[0].count_ones() as usize;
        let cluster = opts.cluster;
        let root = rank_dir(
            &opts
                .work_dir
                .clone()
                .unwrap_or_else(|| PathBuf::from(DEFAULT_WORK_DIR)),
            &cluster,
        );
        let name = format!(
            "{} from {}{}",
            self.board.name(),
            self.start_names(),
            if opts.stop_at_dead_end {
                " to the first dead end"
            } else {
                ""
            }
        );
        let mut run = Run {
            started: Instant::now(),
            before: Spent::default(),
            bar: progress::bar(start_pegs as u64, "jumps", opts.progress),
            layers: vec![Vec::new(); n],
            finish: vec![vec![Total::ZERO; self.board.holes()]; n],
            positions: 0,
            previous: 0,
            before_previous: 0,
            carried: 0,
            buffers: 0,
            work: Work::new(&root, &name, self.identity::<C>(&cluster), opts.keep_work),
            forced: opts.work_dir.is_some(),
            notices: opts.progress,
            unannounced: false,
            cluster,
            sent: 0,
            exchange: std::time::Duration::ZERO,
            least_ends: vec![None; n],
        };
        // Narrow lanes while carries are rare, then wide ones; not where narrow lanes would
        // only be padding.
        let can_narrow = size_of::<(C::S, [u32; N])>() < size_of::<(C::S, [Wide; N])>();
        let id = run.work.id().clone();
        // What each entry of a layer file must be: a canonical position of the board (the
        // least of its images under `H`), stored in its own shard, with the start's pegs
        // less one a jump, and some game into it. A file edited and its checksum made
        // again fails here (its counts cannot be checked without counting again).
        let h = self.moves.subgroup_order();
        let off_board = !self.board.full();
        let verify = |path: &Path, layer: usize, shard| {
            let pegs = start_pegs.checked_sub(layer);
            ShardReader::open(path, &id, layer, shard)?.verify_with(
                size_of::<C::S>(),
                N,
                |key, counts| {
                    let Some(pegs) = pegs else {
                        return Err(format!("layer {layer} from a start of {start_pegs} pegs"));
                    };
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
                },
            )
        };
        let resumed = if cluster.size() == 1 {
            run.work.resume(verify)?
        } else {
            // Every rank resumes from the last layer all ranks finished (one may have
            // recorded a layer the others had not when the job stopped), or starts over.
            let layers = run.work.checkpoint_layers()?;
            let newest = layers.first().map_or(0, |&l| l as u64 + 1);
            let agreed = cluster.min(&[newest])[0];
            run.work
                .resume_layer(agreed.checked_sub(1).map(|l| l as usize), verify)?
        };
        let (current, jumps, narrow) = match resumed {
            Some((files, progress)) => {
                // Beyond what the checkpoint checks of itself: a layer of every shard, and
                // no more entries than the layer before could make (each entry is a child
                // of one before it by one of the board's jumps).
                if files.shards.len() != SHARDS {
                    return Err(run.work.damaged(&format!(
                        "{} shard files where a sweep has {SHARDS}",
                        files.shards.len()
                    )));
                }
                let most = progress.previous as u128 * self.board.jumps().len() as u128;
                if files.layer > 0 && u128::from(files.entries()) > most {
                    return Err(run.work.damaged(&format!(
                        "layer {} holds {} entries, more than the {} of the layer before \
                         could make",
                        files.layer,
                        files.entries(),
                        progress.previous
                    )));
                }
                run.restore(&progress)
                    .map_err(|e| run.work.damaged(&e.to_string()))?;
                // Its rows: one a layer, in order, none past the layer resumed from.
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
                if run.notices {
                    run.bar.suspend(|| {
                        eprintln!(
                            "pegsol: resuming from layer {} in {}",
                            files.layer,
                            run.work.dir().display()
                        )
                    });
                }
                run.bar.set_position(files.layer as u64);
                let layer = files.layer;
                (Current::Disk(files), layer, progress.narrow && can_narrow)
            }
            None => {
                let mut first_layer = Self::new_tables::<C::S, u64>();
                let h = self.moves.subgroup_order();
                for &s in &self.starts {
                    // Each start is one sequence (the empty one) into the orbit of the pair
                    // (start, start): slot `canon` of the start's canonical form `canon`.
                    let canon = *self.moves.images(s, h)[..h].iter().min().expect("identity");
                    let slot = self.starts.iter().position(|&x| x == canon);
                    let mut one = [0u64; N];
                    one[slot.expect("H maps starts to starts")] = 1;
                    let (shard, key) = codec.split(canon);
                    if cluster.owns(shard) {
                        first_layer[shard].add_low(key, &one)?;
                    }
                }
                let first = first_layer.into_iter().map(Frozen::new).collect();
                (Current::Memory(first), 0, can_narrow)
            }
        };
        if narrow {
            let (rest, jumps) =
                self.layers::<u32, C>(codec, current.relane(), jumps, true, &mut run, opts)?;
            self.layers::<Wide, C>(codec, rest.relane(), jumps, false, &mut run, opts)?;
        } else {
            self.layers::<Wide, C>(codec, current.relane(), jumps, false, &mut run, opts)?;
        }
        run.bar.finish_and_clear();
        let work = if opts.defer_cleanup {
            run.work.defer()
        } else {
            run.work.finish()?;
            None
        };
        let before = run.before;
        let counts = self
            .starts
            .iter()
            .zip(run.layers)
            .zip(run.finish)
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
            before,
            least_dead_ends: run.least_ends,
            work,
        })
    }

    /// Sweeps layer `jumps` (`current`) and the layers after it, recording their statistics
    /// in `run`, until no position is left or, when `narrow`, until more than one entry in
    /// 64 of a finished layer carries into the high parts. Returns the layer not yet swept
    /// and its number. A layer is swept in memory while it and the next fit
    /// `opts.max_memory`, and on disk from then on ([`Sweep::disk_layer`]).
    #[allow(clippy::type_complexity)]
    fn layers<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        mut current: Current<C::S, L, N>,
        mut jumps: usize,
        narrow: bool,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<(Current<C::S, L, N>, usize)> {
        let entry_bytes = size_of::<(C::S, [L; N])>() as u64;
        let batch = batch_units();
        // Children buffers, one set per unit of a batch, reused across batches and layers.
        let mut pool: Vec<Vec<Out<C::S, L, N>>> =
            (0..batch).map(|_| vec![Out::default(); SHARDS]).collect();
        let cluster = run.cluster;
        loop {
            // The whole layer's entries, on every rank.
            let entries = cluster.sum(&[current.entries()])[0];
            if entries == 0 {
                return Ok((current, jumps));
            }
            let layer_clock = Instant::now();
            run.sent = 0;
            run.exchange = std::time::Duration::ZERO;
            let guess = guess_next(entries, run.previous).min(self.most_children(entries));
            let share = guess / cluster.size() as u64;
            // In memory while this layer, the next one's tables (about twice their entries,
            // for the load factor and growth) and the children buffers fit the budget.
            let in_memory = match &current {
                Current::Memory(m) if !run.forced => {
                    let held: u64 = m.iter().map(|t| t.bytes()).sum();
                    let growth = guess as f64 / entries as f64;
                    let need = held as f64
                        + 2.0 * (share * entry_bytes) as f64
                        + run.buffers as f64 * growth.max(1.0);
                    need <= 0.8 * opts.max_memory as f64
                }
                _ => false,
            };
            // Every rank takes the same path.
            let in_memory = cluster.all(in_memory);
            let (next, acc, reduced, carried) = if in_memory {
                let Current::Memory(mut m) = current else {
                    unreachable!("checked above")
                };
                let (next, acc, reduced) =
                    self.memory_layer(codec, &mut m, jumps, &mut pool, run, opts)?;
                let carried = next.iter().map(|t| t.high.len() as u64).sum();
                (Current::Memory(next), acc, reduced, carried)
            } else {
                let files = match current {
                    Current::Disk(files) => files,
                    Current::Memory(m) => self.spill(m, jumps, narrow, run, opts)?,
                };
                pool.iter_mut().flatten().for_each(|o| *o = Out::default());
                let guess = guess_on_disk(entries, run.previous, run.before_previous)
                    .min(self.most_children(entries));
                let (next, acc, reduced, carried) =
                    self.disk_layer::<L, C>(codec, &files, guess, run, opts)?;
                (Current::Disk(next), acc, reduced, carried)
            };
            run.before_previous = run.previous;
            run.previous = entries as usize;
            self.record(run, &acc, reduced, jumps)?;
            if opts.stop_at_dead_end
                && run
                    .layers
                    .iter()
                    .all(|ls| ls.iter().any(|l| l.games_ended > 0))
            {
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
            let still_narrow =
                narrow && stays_narrow([run.carried, entries], [carried, next_entries], on_disk);
            run.carried = carried;
            let disk = if let Current::Disk(files) = &current {
                checkpoint(run, files, still_narrow)?;
                files.bytes()
            } else {
                0
            };
            let secs = layer_clock.elapsed().as_secs_f64().max(1e-9);
            // Under several ranks: the largest peak of a rank, the bytes all ranks sent and
            // the longest time a rank spent exchanging.
            let [peak, sent, exchange_us] = cluster.max(&[
                crate::memory::peak_rss().unwrap_or(0),
                cluster.sum(&[run.sent])[0],
                run.exchange.as_micros() as u64,
            ])[..] else {
                unreachable!("three maxima")
            };
            let memory = crate::memory::human(peak);
            run.bar.set_message(format!(
                "layer {jumps}: {} entries, memory {memory}, disk {}, {:.1} M entries/s",
                thousands::Separable::separate_with_commas(&next_entries),
                crate::memory::human(disk),
                entries as f64 / secs / 1e6
            ));
            run.bar.inc(1);
            if trace() && cluster.rank() == 0 {
                let ranks = match cluster.size() {
                    1 => String::new(),
                    k => format!(
                        ", {k} ranks: sent {sent} bytes, exchange {:.3} s",
                        exchange_us as f64 / 1e6
                    ),
                };
                eprintln!(
                    "layer {jumps}: {next_entries} entries ({carried} carry), {} lanes of {} bits, \
                     {}, peak RSS {} MiB, disk {} MiB, {:.1} M entries/s, at {:.2} s{ranks}",
                    N,
                    L::BITS,
                    if in_memory { "in memory" } else { "on disk" },
                    peak >> 20,
                    disk >> 20,
                    entries as f64 / secs / 1e6,
                    run.started.elapsed().as_secs_f64()
                );
            }
            if narrow && !still_narrow {
                return Ok((current, jumps));
            }
        }
    }

    /// Records the statistics of layer `jumps`, swept.
    fn record(
        &self,
        run: &mut Run,
        acc: &LayerAcc<N>,
        reduced: [u64; N],
        jumps: usize,
    ) -> Result<()> {
        for &(k, hole, wins) in &acc.finish {
            run.finish[k][hole] = run.finish[k][hole].plus(wins)?;
        }
        for (k, layers) in run.layers.iter_mut().enumerate() {
            if !acc.games_ended[k].is_zero() && layers.iter().all(|l| l.games_ended.is_zero()) {
                run.least_ends[k] = Some(acc.least_end[k]);
            }
            if acc.positions[k] > 0 {
                layers.push(Layer {
                    jumps,
                    positions: acc.positions[k],
                    positions_reduced: reduced[k],
                    games_ended: acc.games_ended[k],
                    dead_ends: acc.dead_ends[k],
                });
            }
        }
        run.positions += acc.positions.iter().sum::<u64>();
        Ok(())
    }

    /// Sweeps layer `jumps`, held in memory, into the next one (in memory): its shards are
    /// expanded a batch at a time, each shard freed once expanded. Returns the next layer,
    /// the statistics and the positions up to symmetry.
    #[allow(clippy::type_complexity)]
    fn memory_layer<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        current: &mut [Frozen<C::S, L, N>],
        jumps: usize,
        pool: &mut [Vec<Out<C::S, L, N>>],
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<(Vec<Frozen<C::S, L, N>>, LayerAcc<N>, [u64; N])> {
        let entry_bytes = size_of::<(C::S, [L; N])>() as u64;
        let batch = pool.len();
        let entries: usize = current.iter().map(|t| t.len()).sum();
        let all_entries = run.cluster.sum(&[entries as u64])[0];
        // Canonical forms under K are gathered only where it is larger than H.
        let reduce = self.moves.outer_order() > self.moves.subgroup_order();
        let mut next = Self::new_tables::<C::S, L>();
        // Reserve the next layer's size guessed from the last growth (the layer before
        // carried over from narrow lanes), so that tables seldom grow (docs/experiments.md,
        // "Reserved tables").
        if run.previous > 0 {
            let each = guess_next(all_entries, run.previous).min(self.most_children(all_entries))
                as usize
                / SHARDS;
            if each >= 1024 {
                next.par_iter_mut().for_each(|t| t.low.reserve(each));
            }
        }
        let mut acc = LayerAcc::default();
        // One canonical form per entry, each unit writing its own stretch: no vector per
        // unit and no copy (docs/experiments.md, "Writing children, and page faults").
        let mut reduced = vec![K::zero(); if reduce { entries } else { 0 }];
        let reduced_bytes = std::mem::size_of_val(&reduced[..]) as u64;
        let mut rest = &mut reduced[..];
        // This rank's shards (every shard outside MPI), a batch at a time; every rank makes
        // as many batches as the rank with the most, for the exchange after each.
        let cluster = run.cluster;
        let mut mine: Vec<(usize, &mut Frozen<C::S, L, N>)> = current
            .iter_mut()
            .enumerate()
            .filter(|(s, _)| cluster.owns(*s))
            .collect();
        let rounds = cluster.max(&[mine.len().div_ceil(batch) as u64])[0] as usize;
        for round in 0..rounds {
            if opts
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
            {
                return Err(Error::Interrupted);
            }
            let from = (round * batch).min(mine.len());
            let to = (from + batch).min(mine.len());
            let units = &mut mine[from..to];
            let pool = &mut pool[..units.len()];
            let mut stretches = Vec::with_capacity(units.len());
            for (_, unit) in units.iter() {
                let (own, later) = rest.split_at_mut(if reduce { unit.len() } else { 0 });
                stretches.push(own);
                rest = later;
            }
            let accs: Vec<LayerAcc<N>> = units
                .par_iter_mut()
                .zip(pool.par_iter_mut())
                .zip(stretches)
                .map(|(((shard, unit), out), stretch)| {
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
                        let pos = codec.join(*shard, *key);
                        let all = &(0..SHARDS);
                        let canon =
                            self.expand(codec, pos, lo, hi, out, &mut jumps, &mut acc, all)?;
                        if reduce {
                            stretch[n] = canon;
                        }
                    }
                    Ok(acc)
                })
                .collect::<Result<_>>()?;
            let received = trade(pool, run)?;
            absorb(&mut next, 0, pool)?;
            absorb(&mut next, 0, &received)?;
            let buffers = buffer_bytes(pool, entry_bytes) + buffer_bytes(&received, entry_bytes);
            run.buffers = buffers;
            drop(received);
            for unit_acc in accs {
                acc.absorb(unit_acc)?;
            }
            let held: u64 = mine.iter().map(|(_, t)| t.bytes()).sum::<u64>()
                + next.iter().map(|t| t.bytes()).sum::<u64>()
                + reduced_bytes;
            if held + buffers > opts.max_memory {
                return Err(Error::Memory(format!(
                    "{} from {}: the tables after {} jumps need more than {} (the limit); \
                     layer {} has {} positions up to symmetry so far. Raise --max-memory if \
                     the machine has the memory",
                    self.board.name(),
                    self.start_names(),
                    jumps + 1,
                    crate::memory::human(opts.max_memory),
                    jumps + 1,
                    next.iter().map(|t| t.len()).sum::<usize>()
                )));
            }
        }
        let acc = acc.gather(&cluster)?;
        let reduced = self.reduced_counts(&acc, reduced, run)?;
        let next = next.into_par_iter().map(Frozen::new).collect();
        Ok((next, acc, reduced))
    }

    /// Writes layer `layer`, held in memory, to the work directory (freeing it shard by
    /// shard) and records it as the checkpoint.
    fn spill<S: Key, L: Lane>(
        &self,
        current: Vec<Frozen<S, L, N>>,
        layer: usize,
        narrow: bool,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<LayerFiles> {
        let entries: u64 = current.iter().map(|t| t.len() as u64).sum();
        // Checked before the folder is made, so that a refusal leaves nothing behind.
        self.check_disk(
            run,
            opts,
            0,
            entries.saturating_mul((size_of::<S>() + 4 * N) as u64),
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

    /// Refuses to go on when the next layer (about `need` bytes) would not fit the disk's
    /// free space or `--max-disk` with the current one (`have` bytes).
    fn check_disk(
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
    fn disk_layer<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        cur: &LayerFiles,
        guess: u64,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<(LayerFiles, LayerAcc<N>, [u64; N], u64)> {
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
        let own = pass_ranges(share, entry_bytes, opts.max_memory);
        let mut queue = split_shards(cluster.max(&[own.len() as u64])[0] as usize);
        if trace() {
            eprintln!(
                "layer {}: about {guess} entries of {entry_bytes} bytes, in {} passes",
                cur.layer + 1,
                queue.len()
            );
        }
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
                }
                None if range.len() > 1 => {
                    let mid = range.start + range.len() / 2;
                    queue.push(mid..range.end);
                    queue.push(range.start..mid);
                }
                None => {
                    return Err(Error::Memory(format!(
                        "{} from {}: one shard of the tables after {} jumps needs more than {} \
                         (the limit); raise --max-memory",
                        self.board.name(),
                        self.start_names(),
                        cur.layer + 1,
                        crate::memory::human(opts.max_memory)
                    )));
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

    /// One pass of [`Sweep::disk_layer`]: reads every shard file of `cur`, a batch at a
    /// time in chunks, expands each entry, keeps the children of the next layer's shards in
    /// `range`, and writes those shards' files into `dir`. Gathers the layer's statistics
    /// when `stats`. `None` when the tables outgrow the budget.
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    fn disk_pass<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        cur: &LayerFiles,
        dir: &std::path::Path,
        range: Range<usize>,
        stats: bool,
        guess: u64,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<Option<(Vec<Written>, u64, Option<(LayerAcc<N>, [u64; N])>)>> {
        let entry_bytes = size_of::<(C::S, [L; N])>() as u64;
        let key_bytes = size_of::<C::S>();
        let batch = batch_units();
        let reduce = stats && self.moves.outer_order() > self.moves.subgroup_order();
        let cluster = run.cluster;
        let mut tables: Vec<Shard<C::S, L, N>> = range.clone().map(|_| Shard::default()).collect();
        // This rank's shards (under MPI the others stay empty here), each with the tenth
        // more that `pass_ranges` budgets, so that a guess a little low grows no table (a
        // table grows by half at once).
        let each = guess as usize / SHARDS / 10 * 11;
        if each >= 1024 {
            tables
                .par_iter_mut()
                .enumerate()
                .filter(|(i, _)| cluster.owns(range.start + i))
                .for_each(|(_, t)| t.low.reserve(each));
        }
        // The buffers of a round's children take what the tables leave of the budget, less
        // a thirty-second for what no plan sees (the sparse maps of carries, the readers),
        // and at most an eighth, as `pass_ranges` plans: the tables reserved in 7/8 and the
        // buffers in 1/8 left nothing spare, and the tri:7 table at 48M outgrew the budget
        // by a fraction of a percent in 9 passes of 25, each then run again split in two.
        // The share is set again after each round, as the tables grow.
        let budget = opts.max_memory;
        let share = |tables: u64| {
            budget
                .saturating_sub(tables + budget / 32)
                .clamp(budget / 64, budget / 8)
        };
        let mut rounds_plan = Rounds::new(
            share(tables.iter().map(|t| t.bytes()).sum::<u64>()),
            batch,
            range.len(),
            entry_bytes,
            size_of::<(C::S, [Total; N])>() as u64,
        );
        let mut buckets = if reduce {
            Some(Buckets::<K>::new(
                run.work.dir(),
                if N > 1 { N } else { 0 },
            )?)
        } else {
            None
        };
        let mut acc = LayerAcc::default();
        let mut pool: Vec<Vec<Out<C::S, L, N>>> =
            (0..batch).map(|_| vec![Out::default(); SHARDS]).collect();
        let id = run.work.id().clone();
        // This rank's shards (every shard outside MPI), a batch of readers at a time; every
        // rank reads as many batches and rounds as the rank with the most, for the exchange
        // of children after each round.
        let mine: Vec<usize> = (0..SHARDS).filter(|&s| cluster.owns(s)).collect();
        let groups = cluster.max(&[mine.len().div_ceil(batch) as u64])[0] as usize;
        for group in 0..groups {
            let from = (group * batch).min(mine.len());
            let to = (from + batch).min(mine.len());
            let mut readers = mine[from..to]
                .iter()
                .map(|&s| Ok((s, ShardReader::open(&cur.path(s), &id, cur.layer, s)?)))
                .collect::<Result<Vec<_>>>()?;
            // The entries each unit read in the last round of this batch of readers, and
            // the children each of its buffers took then (low and high).
            let mut last_chunk = None;
            let mut had = vec![vec![(0, 0); range.len()]; readers.len()];
            loop {
                if opts
                    .cancel
                    .as_ref()
                    .is_some_and(|c| c.load(Ordering::Relaxed))
                {
                    return Err(Error::Interrupted);
                }
                let plan = &rounds_plan;
                let chunk = plan.chunk(last_chunk.is_none());
                let rounds: Vec<(usize, LayerAcc<N>, Vec<K>)> = readers
                    .par_iter_mut()
                    .zip(pool.par_iter_mut())
                    .zip(had.par_iter())
                    .map(|(((s, reader), out), had)| {
                        let rooms = out[range.clone()].iter_mut().zip(&plan.room).zip(had);
                        for ((o, &(low, high)), &(had_low, had_high)) in rooms {
                            plan.ready(&mut o.low, had_low, low, chunk, last_chunk);
                            plan.ready(&mut o.high, had_high, high, chunk, last_chunk);
                        }
                        let mut acc = LayerAcc::default();
                        let mut canon = Vec::new();
                        let mut jumps = vec![0u32; self.board.jumps().len()];
                        let mut counts = [Total::ZERO; N];
                        let mut n = 0;
                        while n < chunk {
                            let Some(key) = reader.next_into(key_bytes, &mut counts)? else {
                                break;
                            };
                            let pos = codec.join(*s, C::S::narrow(key));
                            let (lo, hi) = split::<L, N>(&counts);
                            let c = self.expand(
                                codec,
                                pos,
                                &lo,
                                hi.as_ref(),
                                out,
                                &mut jumps,
                                &mut acc,
                                &range,
                            )?;
                            if reduce {
                                canon.push(c);
                            }
                            n += 1;
                        }
                        Ok((n, acc, canon))
                    })
                    .collect::<Result<_>>()?;
                if cluster.all(rounds.iter().all(|r| r.0 == 0)) {
                    break;
                }
                let read = rounds.iter().map(|r| r.0 as u64).sum::<u64>();
                let made: Vec<(u64, u64)> = range
                    .clone()
                    .map(|s| {
                        pool[..readers.len()].iter().fold((0, 0), |(l, h), out| {
                            (l + out[s].low.len() as u64, h + out[s].high.len() as u64)
                        })
                    })
                    .collect();
                rounds_plan.measured(read, &made, readers.len(), chunk);
                last_chunk = Some(chunk);
                // Before the exchange, which empties the buffers of other ranks' shards.
                for (had, out) in had.iter_mut().zip(&pool[..readers.len()]) {
                    for (h, o) in had.iter_mut().zip(&out[range.clone()]) {
                        *h = (o.low.len(), o.high.len());
                    }
                }
                let received = trade(&mut pool[..readers.len()], run)?;
                absorb(&mut tables, range.start, &pool[..readers.len()])?;
                absorb(&mut tables, range.start, &received)?;
                let mut forms = Vec::new();
                for (_, a, canon) in rounds {
                    if stats {
                        acc.absorb(a)?;
                    }
                    if reduce {
                        forms.extend(canon);
                    }
                }
                if let Some(b) = buckets.as_mut() {
                    b.push(&route_forms(forms, N, run)?)?;
                }
                let table_bytes = tables.iter().map(|t| t.bytes()).sum::<u64>();
                let buffers =
                    buffer_bytes(&pool, entry_bytes) + buffer_bytes(&received, entry_bytes);
                let held = table_bytes + buffers;
                if !cluster.all(held <= opts.max_memory) {
                    if trace() {
                        eprintln!(
                            "layer {}: the pass over shards {range:?} outgrew the budget ({} held: \
                             tables {}, buffers {}); split in two",
                            cur.layer + 1,
                            crate::memory::human(held),
                            crate::memory::human(table_bytes),
                            crate::memory::human(buffers)
                        );
                    }
                    return Ok(None);
                }
                rounds_plan.set_share(share(table_bytes));
            }
        }
        let carried = tables.iter().map(|t| t.high.len() as u64).sum();
        let written = tables
            .into_par_iter()
            .enumerate()
            .map(|(i, t)| {
                write_shard(
                    dir,
                    &id,
                    cur.layer + 1,
                    range.start + i,
                    Frozen::new(t).drain(),
                )
            })
            .collect::<Result<Vec<_>>>()?;
        let stats = if stats {
            let acc = acc.gather(&cluster)?;
            let reduced = match buckets {
                Some(b) => {
                    let mine = b.distinct(Self::distinct)?;
                    let all = cluster.sum(&mine);
                    std::array::from_fn(|k| all[k])
                }
                None => acc.reached,
            };
            Some((acc, reduced))
        } else {
            None
        };
        Ok(Some((written, carried, stats)))
    }

    /// The starts, for messages.
    fn start_names(&self) -> String {
        self.starts
            .iter()
            .map(|&s| self.board.start_name(s.to_u128()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The work directory of this rank: `dir` outside MPI; under several ranks `dir` with
/// `{rank}` replaced by the rank (0 outside MPI), or, without `{rank}`, its folder `rank-R`.
///
/// Each rank keeps its own shards' files and checkpoint there.
fn rank_dir(dir: &Path, cluster: &Cluster) -> PathBuf {
    let text = dir.to_string_lossy();
    if text.contains("{rank}") {
        PathBuf::from(text.replace("{rank}", &cluster.rank().to_string()))
    } else if cluster.size() == 1 {
        dir.to_path_buf()
    } else {
        dir.join(format!("rank-{}", cluster.rank()))
    }
}

/// Sends each canonical form under `K` (with `lanes` bits of starts below it when the sweep
/// has several) to the rank chosen by a hash of the form, and returns those this rank
/// receives: equal forms from any rank meet on one rank (a collective). Outside MPI,
/// `forms` itself.
fn route_forms<K: Bits>(forms: Vec<K>, lanes: usize, run: &mut Run) -> Result<Vec<K>> {
    let cluster = run.cluster;
    if cluster.size() == 1 {
        return Ok(forms);
    }
    let clock = Instant::now();
    let kb = size_of::<K>();
    let shift = if lanes > 1 { lanes } else { 0 };
    let mut send = vec![Vec::new(); cluster.size()];
    for f in forms {
        let to = cluster.owner((f >> shift).shard(SHARDS));
        send[to].extend_from_slice(&Bits::to_u128(f).to_le_bytes()[..kb]);
    }
    run.sent += send
        .iter()
        .enumerate()
        .filter(|&(r, _)| r != cluster.rank())
        .map(|(_, b)| b.len() as u64)
        .sum::<u64>();
    let forms = cluster
        .exchange(send)?
        .iter()
        .flat_map(|b| b.chunks_exact(kb))
        .map(|c| {
            let mut x = [0u8; 16];
            x[..kb].copy_from_slice(c);
            K::from_u128(u128::from_le_bytes(x))
        })
        .collect();
    run.exchange += clock.elapsed();
    Ok(forms)
}

/// Records `files` as the sweep's checkpoint. Under several ranks the layer before is kept
/// until every rank has recorded its own (a collective), so that a job stopped in between
/// resumes, on every rank, from the last layer all ranks finished ([`Work::resume`]).
fn checkpoint(run: &mut Run, files: &LayerFiles, narrow: bool) -> Result<()> {
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

/// The size of a round of [`Sweep::disk_pass`], so that a round's buffers of children take
/// the `share` of the budget: how many entries each of the `batch` units reads, from the
/// children an entry read made in each of the pass's shards in the rounds so far; and how
/// many entries each buffer reserves for them, a fifth more than its share of the children
/// was in the unit's last round. A unit's children spread over the shards unevenly, and
/// differently for each shard it reads, so the first round of a batch of readers reads
/// half as much, with room from the average over the shards read before. A buffer reserves
/// its room before each round, so that it does not grow (a `Vec` grows to twice its size),
/// and gives back what is past a quarter more.
#[derive(Debug)]
struct Rounds {
    share: u64,
    batch: usize,
    /// Bytes of an entry with low and with high parts.
    low_bytes: f64,
    high_bytes: f64,
    /// Children per entry read in each shard of the pass, with low and with high parts:
    /// guessed, then measured.
    per_read: Vec<(f64, f64)>,
    /// Entries a unit reads in a round, once its batch of readers has had one.
    full: usize,
    /// Each buffer's room for the average unit that reads `full` entries.
    room: Vec<(usize, usize)>,
    /// Whether `per_read` is measured.
    measured: bool,
}

impl Rounds {
    const SPREAD: f64 = 1.2;

    fn new(share: u64, batch: usize, shards: usize, low_bytes: u64, high_bytes: u64) -> Self {
        let mut r = Rounds {
            share,
            batch,
            low_bytes: low_bytes as f64,
            high_bytes: high_bytes as f64,
            // About 8 children an entry, over every shard.
            per_read: vec![(8.0 / SHARDS as f64, 0.0); shards],
            full: 0,
            room: Vec::new(),
            measured: false,
        };
        // A quarter of the share until measured, so that a guess too low stays within it.
        r.plan(4.0);
        r
    }

    /// Plans the next rounds within `share` bytes.
    fn set_share(&mut self, share: u64) {
        if share != self.share {
            self.share = share;
            self.plan(if self.measured { 1.0 } else { 4.0 });
        }
    }

    /// Plans the next rounds within a `1/fraction` of the share.
    fn plan(&mut self, fraction: f64) {
        let per_read = self
            .per_read
            .iter()
            .map(|&(l, h)| l * self.low_bytes + h * self.high_bytes)
            .sum::<f64>()
            .max(1.0);
        let bytes = self.share as f64 / fraction / Self::SPREAD;
        self.full =
            ((bytes / (self.batch as f64 * per_read)) as u64).clamp(1 << 4, 1 << 20) as usize;
        let each = self.full as f64 * Self::SPREAD;
        self.room = self
            .per_read
            .iter()
            .map(|&(l, h)| ((each * l) as usize, (each * h).ceil() as usize))
            .collect();
    }

    /// The entries each unit reads in the next round: half as many in the `first` round of
    /// a batch of readers.
    fn chunk(&self, first: bool) -> usize {
        if first {
            (self.full / 2).max(1)
        } else {
            self.full
        }
    }

    /// Readies a unit's buffer for a round of `chunk` entries: empty, with room for its
    /// children, from the `had` it took in its own last round of `last` entries, or else
    /// from `room`, the average buffer's room for [`Rounds::full`] entries.
    fn ready<T>(
        &self,
        buffer: &mut Vec<T>,
        had: usize,
        room: usize,
        chunk: usize,
        last: Option<usize>,
    ) {
        let want = match last {
            Some(last) => (had as f64 * chunk as f64 / last.max(1) as f64 * Self::SPREAD) as usize,
            None => (room as f64 * chunk as f64 / self.full as f64) as usize,
        } + 4;
        buffer.clear();
        if buffer.capacity() > want + want / 4 {
            buffer.shrink_to(want);
        }
        buffer.reserve_exact(want);
    }

    /// Takes in a round's measure: `read` entries by `units` units reading up to `chunk`
    /// each made `made[i]` children (low and high) in the pass's shard `i`. A round too
    /// small to tell (the last of a batch) changes nothing.
    fn measured(&mut self, read: u64, made: &[(u64, u64)], units: usize, chunk: usize) {
        if read == 0 || read < (units as u64 * chunk as u64) / 2 {
            return;
        }
        let read = read as f64;
        self.per_read = made
            .iter()
            .map(|&(l, h)| (l as f64 / read, h as f64 / read))
            .collect();
        self.measured = true;
        self.plan(1.0);
    }
}

/// Work units expanded at once: two per thread, at least 4, at most every shard.
/// The least memory budget a sweep takes per worker thread.
const MIN_BYTES_PER_THREAD: u64 = 16 << 10;

fn batch_units() -> usize {
    (2 * rayon::current_num_threads()).clamp(4, SHARDS)
}

/// Adds the children in `pool` to `tables`, the shards from `offset` on: one task per shard.
fn absorb<S: Key, L: Lane, const N: usize>(
    tables: &mut [Shard<S, L, N>],
    offset: usize,
    pool: &[Vec<Out<S, L, N>>],
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
fn buffer_bytes<S, L, const N: usize>(pool: &[Vec<Out<S, L, N>>], entry_bytes: u64) -> u64 {
    pool.iter()
        .flatten()
        .map(|b| {
            b.low.capacity() as u64 * entry_bytes
                + (b.high.capacity() * size_of::<(S, [Total; N])>()) as u64
        })
        .sum()
}

/// Writes one shard file of a layer from its entries.
fn write_shard<S: Key, const N: usize>(
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

/// The canonical forms under `K` of a layer on disk, in [`SHARDS`] bucket files by a hash
/// of the form, so that each bucket's distinct forms are counted in memory on their own.
struct Buckets<K> {
    dir: PathBuf,
    files: Vec<std::io::BufWriter<std::fs::File>>,
    /// The mask of starts beside the form, in bits (0 with one start).
    shift: usize,
    _key: std::marker::PhantomData<K>,
}

impl<K: Bits> Buckets<K> {
    fn new(work: &Path, shift: usize) -> Result<Self> {
        let dir = work.join("reduce");
        let fail = |e: std::io::Error| Error::Disk(format!("cannot write {}: {e}", dir.display()));
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(fail)?;
        }
        std::fs::create_dir_all(&dir).map_err(fail)?;
        let files = (0..SHARDS)
            .map(|b| {
                std::fs::File::create(dir.join(format!("bucket-{b:02}")))
                    .map(|f| std::io::BufWriter::with_capacity(1 << 16, f))
                    .map_err(fail)
            })
            .collect::<Result<_>>()?;
        Ok(Buckets {
            dir,
            files,
            shift,
            _key: std::marker::PhantomData,
        })
    }

    fn push(&mut self, forms: &[K]) -> Result<()> {
        use std::io::Write;
        for &f in forms {
            let b = (f >> self.shift).shard(SHARDS);
            self.files[b]
                .write_all(&Bits::to_u128(f).to_le_bytes()[..size_of::<K>()])
                .map_err(|e| Error::Disk(format!("cannot write {}: {e}", self.dir.display())))?;
        }
        Ok(())
    }

    /// The sum over the buckets of `distinct` of each bucket's forms; removes the buckets.
    fn distinct<const N: usize>(self, distinct: impl Fn(&mut [K]) -> [u64; N]) -> Result<[u64; N]> {
        let fail =
            |e: std::io::Error| Error::Disk(format!("cannot read {}: {e}", self.dir.display()));
        let mut total = [0u64; N];
        for (b, file) in self.files.into_iter().enumerate() {
            file.into_inner().map_err(|e| fail(e.into_error()))?;
            let bytes = std::fs::read(self.dir.join(format!("bucket-{b:02}"))).map_err(fail)?;
            let mut forms: Vec<K> = bytes
                .chunks_exact(size_of::<K>())
                .map(|c| {
                    let mut x = [0u8; 16];
                    x[..c.len()].copy_from_slice(c);
                    K::from_u128(u128::from_le_bytes(x))
                })
                .collect();
            for (t, d) in total.iter_mut().zip(distinct(&mut forms)) {
                *t += d;
            }
        }
        std::fs::remove_dir_all(&self.dir).map_err(fail)?;
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layer's statistics between ranks (`LayerAcc::gather`): games past 2^128 cross
    /// exactly, and two ranks' sums add exactly.
    #[test]
    fn layer_statistics_cross_ranks_past_128_bits() {
        let big = Total::from(u128::MAX).plus_count(7).unwrap(); // 2^128 + 6
        let mut a = LayerAcc::<2> {
            positions: [3, 4],
            dead_ends: [1, 2],
            games_ended: [big, Total::from(9)],
            reached: [3, 4],
            finish: vec![(1, 5, big)],
            least_end: [12, u128::MAX],
        };
        let back = LayerAcc::<2>::from_bytes(&a.to_bytes()).unwrap();
        assert_eq!(back.games_ended, a.games_ended);
        assert_eq!(back.finish, a.finish);
        assert_eq!((back.positions, back.least_end), (a.positions, a.least_end));
        let copy = LayerAcc::<2>::from_bytes(&a.to_bytes()).unwrap();
        a.absorb(copy).unwrap();
        assert_eq!(
            a.games_ended[0].to_string(),
            "680564733841876926926749214863536422924"
        );
        assert_eq!(a.games_ended[1], 18);
        // A message cut short is refused, never read as zeros.
        assert!(LayerAcc::<2>::from_bytes(&a.to_bytes()[..100]).is_err());
    }

    /// Children sent to another rank (`pack`, `unpack`) keep their high parts past 2^128
    /// exactly, and only the shards asked for are sent.
    #[test]
    fn children_cross_ranks_past_128_bits() {
        let huge = Total::from(u128::MAX).times(u64::MAX).unwrap(); // about 2^192
        let mut unit: Vec<Out<u32, u32, 2>> = vec![Out::default(); SHARDS];
        unit[3].low.push((7, [5, 6]));
        unit[3].high.push((7, [huge, Total::from(1)]));
        unit[9].low.push((8, [1, 2]));
        let pool = vec![unit];
        let outs = unpack::<u32, u32, 2>(&pack(&pool, |s| s == 3)).unwrap();
        assert_eq!(outs[3].low, [(7, [5, 6])]);
        assert_eq!(outs[3].high, [(7, [huge, Total::from(1)])]);
        assert!(outs[9].low.is_empty());
        let all = unpack::<u32, u32, 2>(&pack(&pool, |_| true)).unwrap();
        assert_eq!(all[9].low, [(8, [1, 2])]);
        // A message cut inside a high part is refused.
        let bytes = pack(&pool, |s| s == 3);
        assert!(unpack::<u32, u32, 2>(&bytes[..bytes.len() - 1]).is_err());
    }

    #[test]
    fn passes_split_the_shards_evenly() {
        // 1 billion entries of 12 bytes on 12 GiB: 16.5 GB of tables, two passes of 32.
        assert_eq!(
            pass_ranges(1_000_000_000, 12, 12 << 30),
            vec![32..64, 0..32]
        );
        // Of 16 bytes on 8 GiB: 22 GB, three passes of 22, 22 and 20 shards.
        assert_eq!(
            pass_ranges(1_000_000_000, 16, 8 << 30),
            vec![44..64, 22..44, 0..22]
        );
        // A small layer is one pass; a budget too small for one shard still gives 64.
        assert_eq!(pass_ranges(1000, 8, 1 << 20), vec![0..64]);
        assert_eq!(pass_ranges(1 << 40, 16, 1 << 20).len(), 64);
    }

    #[test]
    fn rounds_keep_their_buffers_within_the_share() {
        let (share, batch, low, high) = (8u64 << 20, 4usize, 44u64, 176u64);
        let mut r = Rounds::new(share, batch, 32, low, high);
        // Before a measure: a quarter of the share, for 8 children an entry over 64 shards.
        let guessed = r.chunk(false) as f64 * batch as f64 * 4.0 * low as f64;
        assert!(
            guessed <= share as f64 / 4.0 && guessed > share as f64 / 5.0,
            "{guessed}"
        );
        // Twice as many children as guessed, half of them in the first shard, some carrying.
        let read = (batch * r.chunk(false)) as u64;
        let mut made = vec![(read / 4, 0); 32];
        made[0] = (read * 8, read / 10);
        r.measured(read, &made, batch, r.chunk(false));
        let bytes = |chunk: usize| {
            let per_read = made
                .iter()
                .map(|&(l, h)| (l * low + h * high) as f64 / read as f64)
                .sum::<f64>();
            chunk as f64 * batch as f64 * per_read
        };
        let full = r.chunk(false);
        assert!(
            bytes(full) * Rounds::SPREAD <= share as f64,
            "{}",
            bytes(full)
        );
        assert!(
            bytes(full) * Rounds::SPREAD > share as f64 * 0.9,
            "{}",
            bytes(full)
        );
        // A first round of a batch of readers reads half as much.
        assert_eq!(r.chunk(true), full / 2);
        // The room of each buffer follows its shard: the first holds most, the average
        // unit's room summed over the units is the share.
        let room: u64 = r
            .room
            .iter()
            .map(|&(l, h)| l as u64 * low + h as u64 * high)
            .sum();
        assert!(room * batch as u64 <= share && room * batch as u64 > share * 9 / 10);
        assert!(r.room[0].0 > 30 * r.room[1].0 && r.room[0].1 > 0 && r.room[1].1 == 0);
        // A buffer gets the room of its own last round, a fifth more, and gives back what
        // is past a quarter more than that.
        let mut buffer: Vec<u64> = vec![0; 1000];
        r.ready(&mut buffer, 1000, 0, full, Some(full));
        assert!(buffer.is_empty() && buffer.capacity() >= 1204);
        let mut big: Vec<u64> = Vec::with_capacity(100_000);
        r.ready(&mut big, 100, 0, full, Some(full));
        assert!(big.capacity() < 200, "{}", big.capacity());
        // What it took, not what it holds (an exchange between ranks empties the buffers
        // of other ranks' shards before the next round).
        let mut sent: Vec<u64> = Vec::with_capacity(1204);
        r.ready(&mut sent, 1000, 0, full, Some(full));
        assert_eq!(sent.capacity(), 1204);
        // Smaller shares, as the tables grow, plan smaller rounds.
        r.set_share(share / 4);
        assert!(r.chunk(false) <= full / 4 + 1);
        // A round too small to tell (the last of a batch) changes nothing.
        let before = r.chunk(false);
        r.measured(10, &vec![(1000, 0); 32], batch, before);
        assert_eq!(r.chunk(false), before);
    }

    #[test]
    fn the_disk_guess_follows_the_change_of_growth() {
        // tri:8 from a2 (docs/experiments.md, ninth session): layers 15, 16 and 17 held
        // 1,129,895,776, 1,645,773,708 and 2,002,288,537 entries; layer 18 held
        // 2,050,002,306, in 12-byte entries.
        let (l15, l16): (usize, usize) = (1_129_895_776, 1_645_773_708);
        let (l17, l18): (u64, u64) = (2_002_288_537, 2_050_002_306);
        let first = guess_next(l17, l16);
        let second = guess_on_disk(l17, l16, l15);
        assert!(first > l18 * 118 / 100, "{first}");
        assert!(second.abs_diff(l18) < l18 / 50, "{second}");
        // Within 18G that is two passes instead of three.
        assert_eq!(pass_ranges(first, 12, 18 << 30).len(), 3);
        assert_eq!(pass_ranges(second, 12, 18 << 30).len(), 2);
        // Without the layer before the previous one, the first-order guess.
        assert_eq!(guess_on_disk(l17, l16, 0), first);
        // A turn from doubling to halving is not followed below four fifths of the
        // first-order guess (500 here; the second-order one would be 125).
        assert_eq!(guess_next(1000, 2000), 500);
        assert_eq!(guess_on_disk(1000, 2000, 1000), 400);
    }

    #[test]
    fn the_disk_path_widens_before_carries_swell() {
        // Layers 14 to 16 of the tri:8 sweeps (docs/experiments.md, ninth and tenth
        // sessions): [carried entries, entries].
        let a3 = [
            [0, 802_944_932],
            [1_396, 1_320_159_932],
            [13_594_714, 1_822_333_430],
        ];
        // After layer 15, few carries: narrow. After layer 16, a share of 0.75% grown
        // 7,000-fold: wide for layer 17, which carried 287 million of 2.1 billion (13.5%).
        assert!(stays_narrow(a3[0], a3[1], true));
        assert!(!stays_narrow(a3[1], a3[2], true));
        // In memory, only the carries of the finished layer count.
        assert!(stays_narrow(a3[1], a3[2], false));
        // b3: the same turn at layer 16 (1.4% carrying; 16.8% in layer 17).
        let b3 = [
            [0, 266_070_041],
            [7_997, 474_101_721],
            [9_891_914, 715_647_599],
        ];
        assert!(stays_narrow(b3[0], b3[1], true));
        assert!(!stays_narrow(b3[1], b3[2], true));
        // a2 stays narrow for layer 17 (0.18% foretells 2.9%; it carried 8.1%, where both
        // widths cost alike).
        let a2 = [[0, 1_129_895_776], [2_966_800, 1_645_773_708]];
        assert!(stays_narrow(a2[0], a2[1], true));
        // c5 (0.1% after layer 15) and d7 stay narrow for layer 16, which then carried
        // 6.2% and 2.5%, past one in 64: both widen from layer 17 on either path.
        let c5 = [
            [0, 434_374_107],
            [729_880, 696_725_006],
            [58_130_031, 942_178_837],
        ];
        assert!(stays_narrow(c5[0], c5[1], true));
        assert!(!stays_narrow(c5[1], c5[2], false));
        let d7 = [
            [0, 321_321_133],
            [86_774, 551_996_165],
            [19_907_970, 802_062_061],
        ];
        assert!(stays_narrow(d7[0], d7[1], true));
        assert!(!stays_narrow(d7[1], d7[2], false));
        // No layer before, or none carrying: narrow unless the share is past 1/64 already.
        assert!(stays_narrow([0, 0], [0, 1_000], true));
        assert!(!stays_narrow([0, 0], [16, 1_000], true));
    }

    /// Counts as plain integers, for the tests whose counts fit 128 bits.
    fn plain<K, const N: usize>(
        entries: impl Iterator<Item = (K, [Total; N])>,
    ) -> Vec<(K, [u128; N])> {
        entries
            .map(|(k, v)| (k, v.map(|x| x.to_u128().expect("below 2^128"))))
            .collect()
    }

    #[test]
    fn wide_lanes_take_twelve_bytes_and_carry_exactly() {
        assert_eq!(size_of::<(u32, [Wide; 1])>(), 12);
        assert_eq!(size_of::<(u32, [Wide; 3])>(), 28);
        let mut s = Shard::<u32, Wide, 2>::default();
        s.add_low(7, &[Wide(u64::MAX), Wide(1)]).unwrap();
        s.add_low(7, &[Wide(2), Wide(u64::MAX)]).unwrap();
        s.add_low(9, &[Wide(5), Wide(0)]).unwrap();
        let mut all = plain(Frozen::new(s).drain());
        all.sort_unstable();
        let big = u128::from(u64::MAX);
        assert_eq!(all, vec![(7, [big + 2, big + 1]), (9, [5, 0])]);
    }

    #[test]
    fn shard_counts_carry_into_the_high_half() {
        let mut s = Shard::<u64, u64, 1>::default();
        s.add_low(7, &[u64::MAX]).unwrap();
        s.add_low(7, &[2]).unwrap(); // carries: 2^64 + 1
        s.add_high(7, &[Total::from(3)]).unwrap(); // + 3 * 2^64
        s.add_low(9, &[5]).unwrap();
        assert_eq!(s.len(), 2);
        let mut frozen = Frozen::new(s);
        assert_eq!(frozen.len(), 2);
        let mut all = plain(frozen.drain());
        all.sort_unstable();
        assert_eq!(all, [(7, [(4u128 << 64) + 1]), (9, [5])]);
        assert_eq!(frozen.len(), 0);
    }

    #[test]
    fn each_lane_carries_on_its_own() {
        let mut s = Shard::<u64, u64, 2>::default();
        s.add_low(1, &[u64::MAX, 4]).unwrap();
        s.add_low(1, &[1, u64::MAX]).unwrap(); // lane 0: 2^64; lane 1: 2^64 + 3
        let all = plain(Frozen::new(s).drain());
        assert_eq!(all, [(1, [1u128 << 64, (1u128 << 64) + 3])]);
    }

    #[test]
    fn narrow_lanes_carry_and_widen_exactly() {
        let mut s = Shard::<u64, u32, 2>::default();
        s.add_low(3, &[u32::MAX, 1]).unwrap();
        s.add_low(3, &[2, 2]).unwrap(); // lane 0: 2^32 + 1, lane 1: 3
        s.add_high(3, &[Total::from(1u128 << 90), Total::ZERO])
            .unwrap();
        // Past 2^128: 2^32 * 2^100 more, kept exactly.
        s.add_high(3, &[Total::from(1u128 << 100), Total::ZERO])
            .unwrap();
        let want = Total::from((1u128 << 122) + (1 << 32) + 1)
            .plus(Total::from(1u128 << 100).times(1 << 32).unwrap())
            .unwrap();
        assert_eq!(want.to_u128(), None);
        // 2^132 + 2^122 + 2^32 + 1.
        assert_eq!(want.to_string(), "5449834782718155078905608947153707728897");
        let wide = Frozen::new(s).relane::<u64>();
        assert_eq!(wide.high.len(), 1);
        let all: Vec<_> = wide.relane::<u32>().drain().collect();
        assert_eq!(all, [(3, [want, Total::from(3)])]);
    }

    /// High parts stay in 128 bits (32-byte slots) until one passes 2^128; that entry then
    /// moves to the wide map, where later carries find it, and counts stay exact through
    /// both maps and through a change of lane width.
    #[test]
    fn high_parts_move_to_the_wide_map_past_2_128() {
        let mut s = Shard::<u64, u64, 2>::default();
        s.add_high(5, &[Total::from(u128::MAX), Total::from(1)])
            .unwrap();
        assert_eq!((s.high.narrow.len(), s.high.wide.len()), (1, 0));
        s.add_high(5, &[Total::from(1), Total::from(2)]).unwrap(); // lane 0: 2^128
        assert_eq!((s.high.narrow.len(), s.high.wide.len()), (0, 1));
        s.add_high(5, &[Total::from(3), Total::ZERO]).unwrap();
        s.add_low(5, &[7, 0]).unwrap();
        s.add_low(5, &[u64::MAX, 0]).unwrap(); // carries: lane 0's high part 2^128 + 4
        s.add_low(6, &[1, 1]).unwrap();
        let two_128 = Total::from(u128::MAX).plus(Total::from(1)).unwrap();
        let two_64 = Total::from(1u128 << 64);
        // (2^128 + 4) * 2^64 + 6, and 3 * 2^64.
        let lane0 = two_128
            .plus(Total::from(4))
            .unwrap()
            .times(1 << 32)
            .unwrap()
            .times(1 << 32)
            .unwrap()
            .plus(Total::from(6))
            .unwrap();
        let lane1 = two_64.times(3).unwrap();
        let want = vec![(5, [lane0, lane1]), (6, [Total::from(1), Total::from(1)])];
        let narrow = Frozen::new(s).relane::<u32>();
        assert_eq!((narrow.high.narrow.len(), narrow.high.wide.len()), (0, 1));
        let mut all: Vec<_> = narrow.relane::<u64>().drain().collect();
        all.sort_unstable_by_key(|e| e.0);
        assert_eq!(all, want);
    }

    #[test]
    fn shard_overflow_past_2_256_is_an_error() {
        // 64-bit lanes: the high part holds the top 192 bits.
        let mut s = Shard::<u64, u64, 1>::default();
        let top = Total::from(u128::MAX).times(u64::MAX).unwrap(); // below 2^192
        let room = Total::from(u128::MAX)
            .times(1 << 63)
            .unwrap()
            .times(2)
            .unwrap(); // 2^192 - 2^64
        let last = room.plus(Total::from(u128::from(u64::MAX))).unwrap(); // 2^192 - 1
        s.add_high(1, &[top]).unwrap();
        s.add_high(1, &[last]).unwrap_err(); // past 2^192 in the high part
        let mut s = Shard::<u64, u64, 1>::default();
        s.add_high(1, &[last]).unwrap();
        s.add_low(1, &[u64::MAX]).unwrap(); // 2^256 - 1 exactly
        let all: Vec<_> = Frozen::new(s).drain().collect();
        assert_eq!(
            all[0].1[0].to_string(),
            "115792089237316195423570985008687907853269984665640564039457584007913129639935"
        );
        let mut s = Shard::<u64, u64, 1>::default();
        s.add_high(1, &[last]).unwrap();
        s.add_low(1, &[u64::MAX]).unwrap();
        let err = s.add_low(1, &[1]).unwrap_err(); // 2^256
        assert!(matches!(err, Error::Overflow(_)), "{err}");
    }

    #[test]
    fn packed_keys_split_and_join_back() {
        let shard_bits = SHARDS.trailing_zeros() as usize;
        assert!(
            Packed::new(shard_bits, SHARDS).is_none(),
            "no bits left for the key"
        );
        assert!(
            Packed::new(32 + shard_bits + 1, SHARDS).is_none(),
            "key past 32 bits"
        );
        let mut x = 0x1234_5678_9abc_def1u64;
        for holes in [shard_bits + 1, 15, 33, 37, 32 + shard_bits] {
            let codec = Packed::new(holes, SHARDS).unwrap();
            let mut shards = [0usize; SHARDS];
            for _ in 0..20_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let pos = x >> (64 - holes);
                let (shard, key) = codec.split(pos);
                assert!(shard < SHARDS && u64::from(key) >> codec.low_bits() == 0);
                assert_eq!(codec.join(shard, key), pos, "{holes} holes, {pos:#x}");
                shards[shard] += 1;
            }
            if holes >= 15 {
                assert!(shards.iter().all(|&n| n > 150), "{holes} holes: {shards:?}");
            }
        }
    }

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
