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
//! `pegsol table` sweeps each such class once (DESIGN.md, "One sweep per position class").
//!
//! Parallelism: a layer's table is split into [`SHARDS`] shards by a hash of the key. The
//! shards of the current layer are the *work units*: a batch of them is expanded on the
//! rayon pool, each unit writing its children into one buffer per next-layer shard; then
//! every next-layer shard absorbs its buffers, one task per shard, with no locks. Sums are
//! exact and commutative, so the result does not depend on the number of threads.

use crate::count::slots::{SlotKey, Slots};
use crate::count::stats::{Counts, Layer};
use crate::error::{Error, Result, add};
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Pegs};
use crate::geometry::moves::{MAX_GROUP, MoveTable};
use crate::output::progress;
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Number of shards of each layer's table (a power of two).
pub const SHARDS: usize = 64;

/// The most starts one sweep carries ([`count_many`]).
pub const MAX_STARTS: usize = 16;

type Hasher = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;

/// The low part of a count, which every entry holds for each start: `u64`, or `u32` while
/// the counts of a sweep of several starts are small (DESIGN.md, "Narrow lanes"). The rest
/// of a count, its value shifted right by `BITS`, lives in a sparse map beside the entries.
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

/// A key as a shard's table stores it (hashed also by the sparse map of high parts).
trait Key: SlotKey + Default + Hash + Send + Sync + 'static {}
impl<T: SlotKey + Default + Hash + Send + Sync + 'static> Key for T {}

/// How a canonical position is split into its shard and the key its shard's table stores,
/// and joined again.
trait Codec<K>: Sync {
    type S: Key;
    fn split(&self, pos: K) -> (usize, Self::S);
    fn join(&self, shard: usize, key: Self::S) -> K;
}

/// The whole position as the key, the shard chosen by a hash of it: boards of more than
/// [`Packed::MAX_HOLES`] holes.
struct Whole;

impl<K: Bits> Codec<K> for Whole {
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

/// Boards of up to [`Packed::MAX_HOLES`] holes: the position times an odd constant, modulo
/// `2^holes` (a bijection), names its shard by its top bits and is stored as the rest, in
/// 32 bits. Entries shrink by 4 or 8 bytes (DESIGN.md, "Keys within a shard").
struct Packed {
    /// Bits of the stored key: `holes - log2(SHARDS)`.
    low: u32,
    /// `2^holes - 1`.
    mask: u64,
    /// The inverse of [`Packed::MIX`] modulo `2^64`.
    inv: u64,
}

impl Packed {
    const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
    /// Bits of the product that name the shard.
    const SHARD_BITS: usize = SHARDS.trailing_zeros() as usize;
    const MAX_HOLES: usize = 32 + Self::SHARD_BITS;

    /// The codec for boards of `holes` holes, if they fit.
    fn new(holes: usize) -> Option<Self> {
        if holes <= Self::SHARD_BITS || holes > Self::MAX_HOLES {
            return None;
        }
        // Newton's iteration doubles the correct low bits of the inverse (3 to start).
        let mut inv = Self::MIX;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(Self::MIX.wrapping_mul(inv)));
        }
        debug_assert_eq!(inv.wrapping_mul(Self::MIX), 1);
        Some(Packed {
            low: (holes - Self::SHARD_BITS) as u32,
            mask: u64::MAX >> (64 - holes),
            inv,
        })
    }
}

impl Codec<u64> for Packed {
    type S = u32;
    #[inline]
    fn split(&self, pos: u64) -> (usize, u32) {
        let m = pos.wrapping_mul(Self::MIX) & self.mask;
        ((m >> self.low) as usize, (m & ((1 << self.low) - 1)) as u32)
    }
    #[inline]
    fn join(&self, shard: usize, key: u32) -> u64 {
        ((shard as u64) << self.low | u64::from(key)).wrapping_mul(self.inv) & self.mask
    }
}

/// One shard of a layer: stored key ([`Codec`]) -> one count per start (`N` lanes).
///
/// A count is split into its low `L::BITS` bits, kept in `low` for every entry, and the
/// rest, kept in `high` only for the entries that have it. `low` is a [`Slots`] table, whose
/// inserts fetch their cache line ahead; `high` is small and a plain hash map. The sweep is
/// bound by memory traffic, so entries are kept small: with one start and [`Packed`] keys
/// they are 8 bytes while counts fit 32 bits, then 16 (DESIGN.md, "Memory", "Keys within a
/// shard" and "Slot tables").
#[derive(Default)]
struct Shard<K, L, const N: usize> {
    low: Slots<K, [L; N]>,
    high: HashMap<K, [u128; N], Hasher>,
}

impl<K: Key, L: Lane, const N: usize> Shard<K, L, N> {
    fn len(&self) -> usize {
        self.low.len()
    }

    /// Bytes held by both maps (the slots of `low`; entry plus control byte per slot of
    /// `high`).
    fn bytes(&self) -> u64 {
        let low = std::mem::size_of::<(K, [L; N])>();
        let high = std::mem::size_of::<(K, [u128; N])>() + 1;
        (self.low.capacity() * low + self.high.capacity() * high) as u64
    }

    /// Adds each `(key, lo)` of `entries` with [`Shard::add_low`], fetching the slots of
    /// later keys meanwhile (DESIGN.md, "Slot tables"). Kept out of line so that profiles
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
            let carry = std::array::from_fn(|k| u128::from(slot[k] < lo[k]));
            self.add_high(key, &carry)
        } else {
            Ok(())
        }
    }

    /// Adds `hi * 2^L::BITS` to `key`'s counts.
    #[cold]
    #[inline(never)]
    fn add_high(&mut self, key: K, hi: &[u128; N]) -> Result<()> {
        let slot = self.high.entry(key).or_insert([0; N]);
        for k in 0..N {
            slot[k] = slot[k]
                .checked_add(hi[k])
                .filter(|&x| x >> (128 - L::BITS) == 0)
                .ok_or_else(|| {
                    Error::Overflow(format!("a count of position {key:?} exceeds u128"))
                })?;
        }
        Ok(())
    }
}

/// A finished layer's shard, packed for the next sweep: its entries in a vector of exactly
/// their number (where the table held about 1.6 times that on average), the sparse high
/// parts kept as they were. The vector is freed as soon as its unit is expanded.
struct Frozen<K, L, const N: usize> {
    low: Vec<(K, [L; N])>,
    high: HashMap<K, [u128; N], Hasher>,
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
        let low = std::mem::size_of::<(K, [L; N])>();
        let high = std::mem::size_of::<(K, [u128; N])>() + 1;
        (self.low.capacity() * low + self.high.capacity() * high) as u64
    }

    /// Takes every `(position, counts)` out, leaving the shard empty.
    fn drain(&mut self) -> impl Iterator<Item = (K, [u128; N])> + use<K, L, N> {
        let low = std::mem::take(&mut self.low);
        let high = std::mem::take(&mut self.high);
        low.into_iter().map(move |(k, lo)| {
            let mut v = lo.map(L::wide);
            if !high.is_empty()
                && let Some(hi) = high.get(&k)
            {
                for (x, h) in v.iter_mut().zip(hi) {
                    *x |= h << L::BITS;
                }
            }
            (k, v)
        })
    }

    /// The same entries with lanes of another width.
    fn relane<M: Lane>(mut self) -> Frozen<K, M, N> {
        let mut out = Frozen {
            low: Vec::with_capacity(self.len()),
            high: HashMap::default(),
        };
        for (k, v) in self.drain() {
            out.low.push((k, v.map(M::low)));
            let hi = v.map(|x| x >> M::BITS);
            if hi.iter().any(|&x| x != 0) {
                out.high.insert(k, hi);
            }
        }
        out
    }
}

/// Children of one work unit, per next-layer shard: `(canonical child, low parts of the
/// counts)`, and the high parts of the counts that have them.
#[derive(Clone, Default)]
struct Out<K, L, const N: usize> {
    low: Vec<(K, [L; N])>,
    high: Vec<(K, [u128; N])>,
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
}

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions {
            threads: 0,
            max_memory: crate::memory::default_budget(),
            progress: false,
            cancel: None,
        }
    }
}

/// Counts every game of `board` from `start` and gathers the end-state statistics.
///
/// ```
/// use pegsol::{geometry::board::Board, count::sweep::{count, CountOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
/// assert_eq!((c.wins(), c.games()), (29_760, 568_630));
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
/// assert_eq!((c[0].wins(), c[0].games()), (29_760, 568_630));
/// assert_eq!((c[1].wins(), c[1].games()), (1_550, 137_846));
/// ```
pub fn count_many(board: &Board, starts: &[Pegs], opts: &CountOptions) -> Result<Vec<Counts>> {
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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| Error::input(format!("cannot start {} threads: {e}", opts.threads)))?;
    // The one runtime choice: bitboard width, number of count lanes and how keys are stored
    // ([`Packed`] where the board allows). A sweep of several starts also packs a mask of `N`
    // bits beside each canonical form (`LayerAcc::reduced`).
    macro_rules! sweep {
        ($($lanes:literal)*) => {$(
            if n <= $lanes {
                let bits = board.holes() + if $lanes > 1 { $lanes } else { 0 };
                return pool.install(|| {
                    if bits <= 64 {
                        let sweep = Sweep::<u64, $lanes>::new(board, starts);
                        match Packed::new(board.holes()) {
                            Some(packed) => sweep.run(&packed, opts),
                            None => sweep.run(&Whole, opts),
                        }
                    } else {
                        Sweep::<u128, $lanes>::new(board, starts).run(&Whole, opts)
                    }
                });
            }
        )*};
    }
    sweep!(1 2 3 4 5 6 8 10 12 16);
    unreachable!("n <= MAX_STARTS")
}

/// How many starts one sweep of `board` can carry: [`MAX_STARTS`], fewer on boards so large
/// that a canonical form and a mask of one bit per start no longer fit 128 bits.
///
/// ```
/// use pegsol::{geometry::board::Board, count::sweep::max_starts};
/// assert_eq!(max_starts(&Board::from_spec("english").unwrap()), 16);
/// ```
pub fn max_starts(board: &Board) -> usize {
    match 128usize.saturating_sub(board.holes()) {
        0 => 1,
        room => room.min(MAX_STARTS),
    }
}

/// Per-unit accumulator of one layer's statistics, one lane per start.
struct LayerAcc<const N: usize> {
    positions: [u64; N],
    dead_ends: [u64; N],
    games_ended: [u128; N],
    /// Entries (orbits under `H`) with a position reachable from each start.
    reached: [u64; N],
    /// (start, hole, wins) for one-peg dead ends.
    finish: Vec<(usize, usize, u128)>,
}

impl<const N: usize> Default for LayerAcc<N> {
    fn default() -> Self {
        LayerAcc {
            positions: [0; N],
            dead_ends: [0; N],
            games_ended: [0; N],
            reached: [0; N],
            finish: Vec::new(),
        }
    }
}

impl<const N: usize> LayerAcc<N> {
    fn absorb(&mut self, other: LayerAcc<N>) -> Result<()> {
        for k in 0..N {
            self.positions[k] += other.positions[k];
            self.dead_ends[k] += other.dead_ends[k];
            self.reached[k] += other.reached[k];
            self.games_ended[k] = add(self.games_ended[k], other.games_ended[k])?;
        }
        self.finish.extend(other.finish);
        Ok(())
    }
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
    bar: indicatif::ProgressBar,
    layers: Vec<Vec<Layer>>,
    finish: Vec<Vec<u128>>,
    /// Positions (not reduced) counted so far, all starts together, for the progress bar.
    positions: u64,
    /// Entries of the layer before the current one, for the guess of the next layer's size.
    previous: usize,
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

    /// Expands one orbit representative `pos` carrying `counts` (one per start): records its
    /// layer statistics and pushes each child's canonical form, with the counts permuted to
    /// the child's starts, into `out[shard]`. `jumps` is scratch, one slot per jump of the
    /// board. Returns the canonical form of `pos` under `K`, with several starts shifted
    /// left by `N` bits, the low bits marking the starts that reach it (see
    /// [`Sweep::reduced_counts`]); zero where `K` is `H`.
    #[inline]
    fn expand<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        pos: K,
        counts: [u128; N],
        out: &mut [Out<C::S, L, N>],
        jumps: &mut [u32],
        acc: &mut LayerAcc<N>,
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
        // `total[k]`: the count of the orbit of the pair (pos, start k). When a symmetry of
        // `pos` permutes starts, parents credited that pair orbit under any of its starts:
        // the orbit's count is their sum, carried on by its first start only.
        let mut total = counts;
        let mut carried = counts;
        if N > 1 && fixed > 1 {
            let mut seen = [false; N];
            for k in 0..n {
                if seen[k] {
                    continue;
                }
                let mut orbit = [0usize; MAX_GROUP];
                let mut len = 0;
                let mut sum = 0u128;
                for &i in &stab[..fixed] {
                    let q = self.fwd[i][k];
                    if !seen[q] {
                        seen[q] = true;
                        orbit[len] = q;
                        len += 1;
                        sum = add(sum, counts[q])?;
                    }
                }
                for &q in &orbit[..len] {
                    total[q] = sum;
                    carried[q] = 0;
                }
                carried[k] = sum;
            }
        }
        let low = carried.map(L::low);
        let high = carried.map(|c| c >> L::BITS);
        let has_high = high.iter().any(|&x| x != 0);
        // The legal jumps are gathered first and the children made in a plain loop: a
        // closure called for each jump was not inlined, and its calls cost about 16 of the
        // 67 instructions per child (DESIGN.md, "Instructions per child").
        let mut legal = 0;
        let moved = self.moves.each_jump(pos, |j| {
            jumps[legal] = j as u32;
            legal += 1;
        });
        for &j in &jumps[..legal] {
            let (canon, by) = self.moves.canonical_child_by(&img, j as usize);
            let (shard, key) = codec.split(canon);
            let out = &mut out[shard];
            // Fetch the line two lines past this buffer's end: the 64 buffers are too many
            // streams for the hardware prefetcher, and a push into a line not in cache
            // stalled the expansion (DESIGN.md, "Writing children, and page faults").
            let ahead = 128 / size_of::<(C::S, [L; N])>();
            crate::count::slots::prefetch(out.low.as_ptr().wrapping_add(out.low.len() + ahead));
            if N == 1 || by == 0 {
                out.low.push((key, low));
                if has_high {
                    out.high.push((key, high));
                }
            } else {
                let to = &self.fwd[by];
                out.low.push((key, permute(&low, to)));
                if has_high {
                    out.high.push((key, permute(&high, to)));
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
                let m = total[q];
                if m == 0 {
                    continue;
                }
                reached = true;
                acc.positions[k] += 1;
                if !moved {
                    let keep = stab[..fixed]
                        .iter()
                        .filter(|&&x| self.fwd[x][q] == q)
                        .count();
                    let size = (h / keep) as u128;
                    let each = m / size;
                    debug_assert_eq!(each * size, m);
                    acc.dead_ends[k] += 1;
                    acc.games_ended[k] = add(acc.games_ended[k], each)?;
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
    /// with no canonical forms to gather and sort (DESIGN.md, "Positions up to symmetry
    /// within a class").
    fn reduced_counts(&self, acc: &LayerAcc<N>, reduced: &mut [K]) -> [u64; N] {
        if self.moves.outer_order() == self.moves.subgroup_order() {
            return acc.reached;
        }
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

    /// Runs the sweep, its tables keyed by `codec`.
    fn run<C: Codec<K>>(&self, codec: &C, opts: &CountOptions) -> Result<Vec<Counts>> {
        let n = self.starts.len();
        let start_pegs = self.starts[0].count_ones() as usize;
        let mut run = Run {
            started: Instant::now(),
            bar: progress::bar(start_pegs as u64, "jumps", opts.progress),
            layers: vec![Vec::new(); n],
            finish: vec![vec![0u128; self.board.holes()]; n],
            positions: 0,
            previous: 0,
        };
        let mut first_layer = Self::new_tables::<C::S, u64>();
        let h = self.moves.subgroup_order();
        for &s in &self.starts {
            // Each start is one sequence (the empty one) into the orbit of the pair (start,
            // start): slot `canon` of the start's canonical form `canon`.
            let canon = *self.moves.images(s, h)[..h].iter().min().expect("identity");
            let slot = self.starts.iter().position(|&x| x == canon);
            let mut one = [0u64; N];
            one[slot.expect("H maps starts to starts")] = 1;
            let (shard, key) = codec.split(canon);
            first_layer[shard].add_low(key, &one)?;
        }
        let first: Vec<Frozen<C::S, u64, N>> = first_layer.into_iter().map(Frozen::new).collect();
        // Narrow lanes while carries are rare, then wide ones; not where narrow lanes would
        // only be padding.
        if size_of::<(C::S, [u32; N])>() < size_of::<(C::S, [u64; N])>() {
            let first = first.into_iter().map(Frozen::relane::<u32>).collect();
            let (rest, jumps) = self.layers::<u32, C>(codec, first, 0, true, &mut run, opts)?;
            let rest = rest.into_par_iter().map(Frozen::relane::<u64>).collect();
            self.layers::<u64, C>(codec, rest, jumps, false, &mut run, opts)?;
        } else {
            self.layers::<u64, C>(codec, first, 0, false, &mut run, opts)?;
        }
        run.bar.finish_and_clear();
        Ok(self
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
                    .filter(|&(_, &w)| w > 0)
                    .map(|(h, &w)| (self.board.hole_name(h), w))
                    .collect(),
            })
            .collect())
    }

    /// Sweeps layer `jumps` (`current`) and the layers after it, recording their statistics
    /// in `run`, until no position is left or, when `narrow`, until more than one entry in
    /// 64 of a finished layer carries into the high parts. Returns the layer not yet swept
    /// and its number.
    #[allow(clippy::type_complexity)]
    fn layers<L: Lane, C: Codec<K>>(
        &self,
        codec: &C,
        mut current: Vec<Frozen<C::S, L, N>>,
        mut jumps: usize,
        narrow: bool,
        run: &mut Run,
        opts: &CountOptions,
    ) -> Result<(Vec<Frozen<C::S, L, N>>, usize)> {
        let entry_bytes = std::mem::size_of::<(C::S, [L; N])>() as u64;
        let batch = (2 * rayon::current_num_threads()).clamp(4, SHARDS);
        // Canonical forms under K are gathered only where it is larger than H.
        let reduce = self.moves.outer_order() > self.moves.subgroup_order();
        // Children buffers, one set per unit of a batch, reused across batches and layers.
        let mut pool: Vec<Vec<Out<C::S, L, N>>> =
            (0..batch).map(|_| vec![Out::default(); SHARDS]).collect();
        loop {
            let entries: usize = current.iter().map(|t| t.len()).sum();
            if entries == 0 {
                return Ok((current, jumps));
            }
            let mut next = Self::new_tables::<C::S, L>();
            // Reserve the next layer's size guessed from the last growth (the layer before
            // carried over from narrow lanes), so that tables seldom grow (DESIGN.md,
            // "Reserved tables").
            if run.previous > 0 {
                let guess = entries as f64 * (entries as f64 / run.previous as f64);
                let each = guess as usize / SHARDS;
                if each >= 1024 {
                    next.par_iter_mut().for_each(|t| t.low.reserve(each));
                }
            }
            run.previous = entries;
            let mut acc = LayerAcc::default();
            // One canonical form per entry, each unit writing its own stretch: no vector per
            // unit and no copy (DESIGN.md, "Writing children, and page faults").
            let mut reduced = vec![K::zero(); if reduce { entries } else { 0 }];
            let reduced_bytes = std::mem::size_of_val(&reduced[..]) as u64;
            let mut rest = &mut reduced[..];
            for first in (0..SHARDS).step_by(batch) {
                if opts
                    .cancel
                    .as_ref()
                    .is_some_and(|c| c.load(Ordering::Relaxed))
                {
                    return Err(Error::Interrupted);
                }
                let units = &mut current[first..(first + batch).min(SHARDS)];
                let pool = &mut pool[..units.len()];
                let mut stretches = Vec::with_capacity(units.len());
                for unit in units.iter() {
                    let (mine, later) = rest.split_at_mut(if reduce { unit.len() } else { 0 });
                    stretches.push(mine);
                    rest = later;
                }
                let accs: Vec<LayerAcc<N>> = units
                    .par_iter_mut()
                    .enumerate()
                    .zip(pool.par_iter_mut())
                    .zip(stretches)
                    .map(|(((i, unit), out), stretch)| {
                        out.iter_mut().for_each(|o| {
                            o.low.clear();
                            o.high.clear();
                        });
                        let mut acc = LayerAcc::default();
                        let mut jumps = vec![0u32; self.board.jumps().len()];
                        for (n, (key, m)) in unit.drain().enumerate() {
                            let pos = codec.join(first + i, key);
                            let canon = self.expand(codec, pos, m, out, &mut jumps, &mut acc)?;
                            if reduce {
                                stretch[n] = canon;
                            }
                        }
                        Ok(acc)
                    })
                    .collect::<Result<_>>()?;
                next.par_iter_mut()
                    .enumerate()
                    .try_for_each(|(i, table)| -> Result<()> {
                        for out in pool.iter() {
                            table.add_all(&out[i].low)?;
                            for (key, hi) in &out[i].high {
                                table.add_high(*key, hi)?;
                            }
                        }
                        Ok(())
                    })?;
                let buffers: u64 = pool
                    .iter()
                    .flatten()
                    .map(|b| {
                        b.low.capacity() as u64 * entry_bytes
                            + (b.high.capacity() * std::mem::size_of::<(C::S, [u128; N])>()) as u64
                    })
                    .sum();
                for unit_acc in accs {
                    acc.absorb(unit_acc)?;
                }
                let held: u64 = current.iter().map(|t| t.bytes()).sum::<u64>()
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
            let reduced = self.reduced_counts(&acc, &mut reduced);
            for &(k, hole, wins) in &acc.finish {
                run.finish[k][hole] = add(run.finish[k][hole], wins)?;
            }
            for (k, layers) in run.layers.iter_mut().enumerate() {
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
            let secs = run.started.elapsed().as_secs_f64().max(1e-9);
            run.bar.set_message(format!(
                "{} positions, {:.1} M/s",
                thousands::Separable::separate_with_commas(&run.positions),
                run.positions as f64 / secs / 1e6
            ));
            run.bar.inc(1);
            let held: u64 = next.iter().map(|t| t.bytes()).sum();
            current = next.into_par_iter().map(Frozen::new).collect();
            jumps += 1;
            if trace() {
                eprintln!(
                    "layer {jumps}: {} entries ({} carry), {} lanes of {} bits, tables {} MiB, \
                     peak RSS {} MiB, at {:.2} s",
                    current.iter().map(|t| t.len()).sum::<usize>(),
                    current.iter().map(|t| t.high.len()).sum::<usize>(),
                    N,
                    L::BITS,
                    held >> 20,
                    crate::memory::peak_rss().unwrap_or(0) >> 20,
                    run.started.elapsed().as_secs_f64()
                );
            }
            if narrow {
                let carried: usize = current.iter().map(|t| t.high.len()).sum();
                let entries: usize = current.iter().map(|t| t.len()).sum();
                if carried * 64 > entries {
                    return Ok((current, jumps));
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_counts_carry_into_the_high_half() {
        let mut s = Shard::<u64, u64, 1>::default();
        s.add_low(7, &[u64::MAX]).unwrap();
        s.add_low(7, &[2]).unwrap(); // carries: 2^64 + 1
        s.add_high(7, &[3u128]).unwrap(); // + 3 * 2^64
        s.add_low(9, &[5]).unwrap();
        assert_eq!(s.len(), 2);
        let mut frozen = Frozen::new(s);
        assert_eq!(frozen.len(), 2);
        let mut all: Vec<(u64, [u128; 1])> = frozen.drain().collect();
        all.sort_unstable();
        assert_eq!(all, [(7, [(4u128 << 64) + 1]), (9, [5])]);
        assert_eq!(frozen.len(), 0);
    }

    #[test]
    fn each_lane_carries_on_its_own() {
        let mut s = Shard::<u64, u64, 2>::default();
        s.add_low(1, &[u64::MAX, 4]).unwrap();
        s.add_low(1, &[1, u64::MAX]).unwrap(); // lane 0: 2^64; lane 1: 2^64 + 3
        let all: Vec<(u64, [u128; 2])> = Frozen::new(s).drain().collect();
        assert_eq!(all, [(1, [1u128 << 64, (1u128 << 64) + 3])]);
    }

    #[test]
    fn narrow_lanes_carry_and_widen_exactly() {
        let mut s = Shard::<u64, u32, 2>::default();
        s.add_low(3, &[u32::MAX, 1]).unwrap();
        s.add_low(3, &[2, 2]).unwrap(); // lane 0: 2^32 + 1, lane 1: 3
        s.add_high(3, &[1u128 << 90, 0]).unwrap();
        assert!(
            s.add_high(3, &[1u128 << 96, 0]).is_err(),
            "2^32 * 2^96 exceeds u128"
        );
        let want = [(1u128 << 122) + (1 << 32) + 1, 3];
        let wide = Frozen::new(s).relane::<u64>();
        assert_eq!(wide.high.len(), 1);
        let all: Vec<(u64, [u128; 2])> = wide.relane::<u32>().drain().collect();
        assert_eq!(all, [(3, want)]);
    }

    #[test]
    fn shard_overflow_past_u128_is_an_error() {
        let mut s = Shard::<u64, u64, 1>::default();
        s.add_high(1, &[u64::MAX as u128]).unwrap();
        s.add_low(1, &[u64::MAX]).unwrap();
        let err = s.add_low(1, &[1]).unwrap_err();
        assert!(matches!(err, Error::Overflow(_)), "{err}");
    }

    #[test]
    fn packed_keys_split_and_join_back() {
        assert!(
            Packed::new(Packed::SHARD_BITS).is_none(),
            "no bits left for the key"
        );
        assert!(
            Packed::new(Packed::MAX_HOLES + 1).is_none(),
            "key past 32 bits"
        );
        let mut x = 0x1234_5678_9abc_def1u64;
        for holes in [Packed::SHARD_BITS + 1, 15, 33, 37, Packed::MAX_HOLES] {
            let codec = Packed::new(holes).unwrap();
            let mut shards = [0usize; SHARDS];
            for _ in 0..20_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let pos = x >> (64 - holes);
                let (shard, key) = codec.split(pos);
                assert!(shard < SHARDS && u64::from(key) >> codec.low == 0);
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
        let opts = CountOptions::default();
        for (spec, holes) in [("tri:5", &[0usize][..]), ("tri:6", &[4, 7][..])] {
            let b = Board::from_spec(spec).unwrap();
            let starts: Vec<Pegs> = holes.iter().map(|&h| b.start_with_empty(&[h])).collect();
            let sweep = Sweep::<u64, 2>::new(&b, &starts);
            let packed = sweep.run(&Packed::new(b.holes()).unwrap(), &opts).unwrap();
            let whole = sweep.run(&Whole, &opts).unwrap();
            assert_eq!(packed, whole, "{spec}");
            let wide = Sweep::<u128, 2>::new(&b, &starts).run(&Whole, &opts);
            assert_eq!(packed, wide.unwrap(), "{spec}");
        }
    }
}
