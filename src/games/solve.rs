//! Finding one game that reaches a goal, or proving there is none; counting the jump
//! sequences between two positions.
//!
//! The search is a depth-first search with a table of *hopeless* positions
//! ([`HopelessTable`]): once every jump from a position has been tried without reaching the
//! goal, the position (in canonical form) is recorded and never expanded again. The
//! canonical form is taken under the symmetries that map the goal onto itself (all of them
//! for a single peg at the centre, fewer for an off-centre finish or an arbitrary goal
//! position), so a failure of `s` is a failure of every image of `s` under them; it costs
//! one XOR per symmetry from the parent's images ([`MoveTable::canonical_child`]). Legal
//! jumps come from the move table's line shifts, sorted into the search's order (most
//! weight off the board first). Children that a pagoda function rules out
//! ([`crate::geometry::pagoda`]: weights no jump increases, and the child weighs less than
//! every goal) are not visited. The search ends either with a game or after every
//! reachable position was tried or ruled out: "no solution" is then a proof, never a
//! time-out.
//!
//! A search that has not ended after [`BEAM_AFTER`] positions pauses for a *beam search*
//! (layer by layer, the best few thousand positions by a heuristic, each canonical form
//! once, none that a pagoda function or the table rules out). A game it finds is the
//! answer; if it finds none, the exhaustive search goes on where its table left off, so the
//! proof of "no solution" is unchanged. Wiegleb centre to centre: 3.8-5.5 s instead of 63 s.
//!
//! Threads: the top levels of the search tree are split into *work units* (the positions a
//! few jumps deep, about 16 per thread, each canonical form once; one unit, the start, on
//! one thread), which the threads of the rayon pool take in the search's order. All units
//! share one table of hopeless positions, so a position proved hopeless under one unit is
//! never expanded again under another; the first unit to reach the goal stops the others.
//! With `PEGSOL_TRACE=1` the search reports its units, positions expanded and the table's
//! inserts and hits on stderr.
//!
//! Before searching, the goal is checked against the *position classes* of the board
//! ([`Classes`]): a jump never changes a position's class, so a goal in another class than
//! the start is unreachable. This proves at once that the French board has no one-peg
//! finish from its centre, and it narrows "any one-peg finish" to the holes of the right
//! class.

use crate::error::{Error, Result, add};
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Jump, Pegs, bit};
use crate::geometry::moves::MoveTable;
use crate::geometry::symmetry::{Symmetry, Transforms};
use std::collections::HashMap;
use std::collections::HashSet;

type Hasher = ahash::RandomState;

fn hasher() -> Hasher {
    Hasher::with_seeds(7, 11, 13, 17)
}

/// What a search must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// One peg left, standing in one of these holes (a mask).
    OnePeg(Pegs),
    /// Exactly this position.
    Position(Pegs),
    /// A game's end (no jump left) with exactly this many pegs (two or more: one is
    /// [`Goal::OnePeg`]), all within these holes (a mask). [`Goal::is_met`] counts the
    /// pegs; the search also requires that no jump is left.
    PegsLeft(u32, Pegs),
}

impl Goal {
    /// One peg left anywhere on the board.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, games::solve::Goal};
    /// let e = Board::from_spec("english").unwrap();
    /// let g = Goal::one_peg_anywhere(&e);
    /// assert_eq!(g.pegs(), 1);
    /// assert!(g.is_met(pegsol::geometry::board::bit(e.hole("c1").unwrap())));
    /// ```
    pub fn one_peg_anywhere(board: &Board) -> Goal {
        Goal::OnePeg(board.full())
    }

    /// A game ending with `left` pegs anywhere on the board: [`Goal::one_peg_anywhere`]
    /// for one peg, otherwise [`Goal::PegsLeft`].
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, games::solve::{search, Goal, Outcome}};
    /// let f = Board::from_spec("french").unwrap();
    /// let g = Goal::pegs_anywhere(&f, 2);
    /// assert_eq!(g.pegs(), 2);
    /// assert!(g.is_met(0b101) && !g.is_met(0b111));
    /// // published (CSPLib 037): from its centre, french's best is two pegs
    /// let s = search(&f, f.default_start(), g, 1 << 26).unwrap();
    /// assert!(matches!(s.outcome, Outcome::Found(ref j) if j.len() == 34));
    /// ```
    pub fn pegs_anywhere(board: &Board, left: u32) -> Goal {
        match left {
            1 => Goal::one_peg_anywhere(board),
            _ => Goal::PegsLeft(left, board.full()),
        }
    }

    /// The pegs the goal leaves.
    ///
    /// ```
    /// use pegsol::games::solve::Goal;
    /// assert_eq!(Goal::OnePeg(0b111).pegs(), 1);
    /// assert_eq!(Goal::Position(0b1011).pegs(), 3);
    /// assert_eq!(Goal::PegsLeft(2, 0b1111).pegs(), 2);
    /// ```
    pub fn pegs(self) -> u32 {
        match self {
            Goal::OnePeg(_) => 1,
            Goal::Position(p) => p.count_ones(),
            Goal::PegsLeft(left, _) => left,
        }
    }

    /// Whether `pos` is a goal position.
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, games::solve::Goal};
    /// let e = Board::from_spec("english").unwrap();
    /// let d4 = bit(e.hole("d4").unwrap());
    /// assert!(Goal::OnePeg(d4).is_met(d4));
    /// assert!(!Goal::OnePeg(d4).is_met(bit(e.hole("c1").unwrap())));
    /// assert!(Goal::Position(e.default_start()).is_met(e.default_start()));
    /// ```
    pub fn is_met(self, pos: Pegs) -> bool {
        match self {
            Goal::OnePeg(holes) => pos.count_ones() == 1 && pos & holes != 0,
            Goal::Position(p) => pos == p,
            Goal::PegsLeft(left, holes) => pos.count_ones() == left && pos & !holes == 0,
        }
    }

    /// The set the symmetries must preserve (the finish holes, or the goal position).
    fn mask(self) -> Pegs {
        match self {
            Goal::OnePeg(m) | Goal::Position(m) | Goal::PegsLeft(_, m) => m,
        }
    }
}

/// The symmetries of the board that map the goal onto itself, identity first.
///
/// ```
/// use pegsol::{geometry::board::{Board, bit}, games::solve::{Goal, goal_symmetries}};
/// let e = Board::from_spec("english").unwrap();
/// let on = |h| Goal::OnePeg(bit(e.hole(h).unwrap()));
/// assert_eq!(goal_symmetries(&e, on("d4")).len(), 8); // the centre: the whole group
/// assert_eq!(goal_symmetries(&e, on("d1")).len(), 2); // a mirror line's end: one reflection
/// assert_eq!(goal_symmetries(&e, on("c1")).len(), 1);
/// ```
pub fn goal_symmetries(board: &Board, goal: Goal) -> Vec<&Symmetry> {
    let m = goal.mask();
    board
        .symmetries()
        .iter()
        .filter(|s| board.transform(s, m) == m)
        .collect()
}

/// Position classes: invariants of a position that no jump changes.
///
/// For a linear form `f(r, c) = a r + b c` that is non-zero mod 3 on every jump direction,
/// the three holes of any jump get the three different colours `f mod 3`, so a jump changes
/// the number of pegs of each colour by one: the parities of `n0 + n1` and `n1 + n2` never
/// change. The square lattice has two such forms (`r + c` and `r - c`: 16 classes), the
/// triangular lattice one (4 classes), the square lattice with diagonals none.
///
/// ```
/// use pegsol::{geometry::board::Board, games::solve::Classes};
/// let f = Board::from_spec("french").unwrap();
/// let classes = Classes::new(&f);
/// let start = classes.of(f.default_start());
/// // No single peg on the French board is in the class of the centre start.
/// assert!((0..f.holes()).all(|h| classes.of(1 << h) != start));
/// let e = Board::from_spec("english").unwrap();
/// let ce = Classes::new(&e);
/// assert_eq!(ce.of(e.default_start()), ce.of(1 << e.hole("d4").unwrap()));
/// ```
#[derive(Clone, Debug)]
pub struct Classes {
    /// Per form: the holes of colour 0, 1 and 2.
    colours: Vec<[Pegs; 3]>,
}

impl Classes {
    /// The class invariants of a board's lattice.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, games::solve::Classes};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = Classes::new(&b);
    /// // tri:5 from a1 can finish in a1, so a1 alone is in the start's class.
    /// assert_eq!(c.of(b.default_start()), c.of(1));
    /// ```
    pub fn new(board: &Board) -> Classes {
        let dirs = board.lattice().directions();
        let colours = [(1, 1), (1, 2), (0, 1), (1, 0)]
            .into_iter()
            .filter(|&(a, b)| {
                dirs.iter()
                    .all(|&(dr, dc)| (a * dr + b * dc).rem_euclid(3) != 0)
            })
            .map(|(a, b)| {
                let mut masks = [0 as Pegs; 3];
                for (h, &(r, c)) in board.cells().iter().enumerate() {
                    masks[(a * r + b * c).rem_euclid(3) as usize] |= bit(h);
                }
                masks
            })
            .collect();
        Classes { colours }
    }

    /// The class of a position, as a small number (two bits per form).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, games::solve::Classes};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = Classes::new(&b);
    /// let start = b.default_start();
    /// // No jump changes the class.
    /// assert!(b.jumps().iter().filter(|j| j.is_legal(start)).all(|j| c.of(start ^ j.mask()) == c.of(start)));
    /// // One form, two bits, four classes: a single peg is in one of three (by its
    /// // colour), the empty board in the fourth.
    /// let mut singles: Vec<u32> = (0..15).map(|h| c.of(1 << h)).collect();
    /// singles.sort();
    /// singles.dedup();
    /// assert_eq!((singles, c.of(0)), (vec![1, 2, 3], 0));
    /// ```
    pub fn of(&self, pos: Pegs) -> u32 {
        self.colours.iter().fold(0, |acc, m| {
            let n = m.map(|x| (x & pos).count_ones() & 1);
            acc << 2 | ((n[0] ^ n[1]) << 1) | (n[1] ^ n[2])
        })
    }

    /// How many invariant forms the lattice has.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, games::solve::Classes};
    /// assert_eq!(Classes::new(&Board::from_spec("english").unwrap()).forms(), 2);
    /// assert_eq!(Classes::new(&Board::from_spec("tri:5").unwrap()).forms(), 1);
    /// let diag = Board::parse_file("d", "lattice: square-diagonal\nooo\no.o\nooo\n").unwrap();
    /// assert_eq!(Classes::new(&diag).forms(), 0);
    /// ```
    pub fn forms(&self) -> usize {
        self.colours.len()
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A game reaching the goal.
    Found(Vec<Jump>),
    /// There is none; the sentence says how that was established.
    Impossible(String),
}

/// A search's outcome and how much work it took.
#[derive(Clone, Debug)]
pub struct Search {
    /// The game, or the proof that none exists.
    pub outcome: Outcome,
    /// Positions expanded (one per visit of a position not known to fail).
    pub nodes: u64,
    /// Positions (up to the goal's symmetries) recorded as failed.
    pub failed: usize,
    /// The width of the beam search that found the game, when one did (the exhaustive
    /// search paused after [`BEAM_AFTER`] positions).
    pub beam: Option<usize>,
}

/// The goal narrowed by the position classes: `None` when the class rules it out.
///
/// ```
/// use pegsol::{geometry::board::{Board, bit}, games::solve::{Goal, narrow_goal}};
/// let f = Board::from_spec("french").unwrap();
/// // published (CSPLib 037): from its centre, french never ends with one peg
/// assert_eq!(narrow_goal(&f, f.default_start(), Goal::one_peg_anywhere(&f)), None);
/// let e = Board::from_spec("english").unwrap();
/// let d4 = bit(e.hole("d4").unwrap());
/// assert!(narrow_goal(&e, e.default_start(), Goal::OnePeg(d4)).is_some());
/// ```
pub fn narrow_goal(board: &Board, start: Pegs, goal: Goal) -> Option<Goal> {
    let classes = Classes::new(board);
    let c = classes.of(start);
    match goal {
        Goal::Position(p) => (classes.of(p) == c).then_some(goal),
        // Not narrowed: the classes are compared for one-peg finishes only.
        Goal::PegsLeft(..) => Some(goal),
        Goal::OnePeg(holes) => {
            let ok = (0..board.holes())
                .filter(|&h| holes & bit(h) != 0 && classes.of(bit(h)) == c)
                .fold(0, |m, h| m | bit(h));
            (ok != 0).then_some(Goal::OnePeg(ok))
        }
    }
}

/// Searches for a game from `start` reaching `goal`, exhaustively.
///
/// Runs on the current rayon pool ([`HopelessTable`] and the module documentation: work
/// units, one shared table of hopeless positions). `max_memory` bounds that table (8 bytes
/// a slot, sized once); a full table forgets positions, which costs time, never an answer.
///
/// ```
/// use pegsol::{geometry::board::Board, games::solve::{search, Goal, Outcome}};
/// let b = Board::from_spec("english").unwrap();
/// let d4 = b.hole("d4").unwrap();
/// let s = search(&b, b.default_start(), Goal::OnePeg(1 << d4), u64::MAX).unwrap();
/// assert!(matches!(s.outcome, Outcome::Found(ref j) if j.len() == 31));
/// let f = Board::from_spec("french").unwrap();
/// let s = search(&f, f.default_start(), Goal::one_peg_anywhere(&f), u64::MAX).unwrap();
/// assert!(matches!(s.outcome, Outcome::Impossible(_)));
/// ```
pub fn search(board: &Board, start: Pegs, goal: Goal, max_memory: u64) -> Result<Search> {
    Ok(search_within(board, start, goal, max_memory, u64::MAX)?
        .expect("a search without a limit ends with an outcome"))
}

/// [`search`], but giving up (`None`) once the exhaustive search has expanded about `limit`
/// positions without an outcome (the beam searches run first when `limit` is above the
/// pause for them, `BEAM_AFTER`). For a quick question whose answer has a slower way too:
/// `solvable`, when no position can win, asks for a game leaving one, two or three pegs,
/// whose length is that of the longest game ([`crate::analysis::solvable`]).
///
/// ```
/// use pegsol::{geometry::board::Board, games::solve::{search_within, Goal, Outcome}};
/// let b = Board::from_spec("english").unwrap();
/// let s = search_within(&b, b.default_start(), Goal::one_peg_anywhere(&b), 1 << 26, 1 << 21);
/// assert!(matches!(s.unwrap().unwrap().outcome, Outcome::Found(ref j) if j.len() == 31));
/// let f = Board::from_spec("french").unwrap();
/// let s = search_within(&f, f.default_start(), Goal::one_peg_anywhere(&f), 1 << 26, 1);
/// assert!(matches!(s.unwrap().unwrap().outcome, Outcome::Impossible(_))); // by class
/// ```
pub fn search_within(
    board: &Board,
    start: Pegs,
    goal: Goal,
    max_memory: u64,
    limit: u64,
) -> Result<Option<Search>> {
    let classes = Classes::new(board);
    let Some(goal) = narrow_goal(board, start, goal) else {
        let what = match goal {
            Goal::OnePeg(h) if h == board.full() => {
                "no position with a single peg is in that class".to_string()
            }
            Goal::OnePeg(_) => {
                "a single peg in the finishing hole is not in that class".to_string()
            }
            Goal::Position(p) => format!("the goal position is in class {}", classes.of(p)),
            Goal::PegsLeft(..) => "no position with that many pegs is in that class".into(),
        };
        return Ok(Some(Search {
            outcome: Outcome::Impossible(format!(
                "the start is in position class {}, {what}; a jump never changes a \
                 position's class ({} invariant form{} mod 3 on this lattice), so no game can \
                 get there",
                classes.of(start),
                classes.forms(),
                if classes.forms() == 1 { "" } else { "s" }
            )),
            nodes: 0,
            failed: 0,
            beam: None,
        }));
    };
    if start.count_ones() < goal.pegs() || (start & !board.full()) != 0 {
        return Ok(Some(Search {
            outcome: Outcome::Impossible(
                "the goal has more pegs than the start, and jumps only remove pegs".into(),
            ),
            nodes: 0,
            failed: 0,
            beam: None,
        }));
    }
    Ok(if board.holes() <= 64 {
        run_search::<u64>(board, start, goal, max_memory, limit)
    } else {
        run_search::<u128>(board, start, goal, max_memory, limit)
    })
}

/// Pagoda functions a search checks at once (at most): the generic ones
/// ([`crate::geometry::pagoda::goal_pagodas`]), then those found by linear programming
/// from positions of random games ([`crate::geometry::pagoda::sampled_cuts`]).
const PAGODAS: usize = 16;
/// Of which generic.
const GENERIC_PAGODAS: usize = 4;
/// Positions the exhaustive search expands before it pauses for a beam search: searches
/// that end sooner (every board up to english and french from the usual starts) never run
/// one.
const BEAM_AFTER: u64 = 1 << 21;
/// The widths of the beam searches tried, in turn, when the exhaustive search pauses.
const BEAM_WIDTHS: [usize; 2] = [1 << 14, 1 << 17];
/// The exhaustive search adds up its workers' positions in steps of this many.
const SPENT_STEP: u64 = 4096;

/// Positions proved hopeless (every jump tried, no goal reached), in canonical form under the
/// goal's symmetries, shared by every work unit of a search.
///
/// For boards of up to 64 holes it is a lock-free table of `AtomicU64` buckets of eight
/// slots (one cache line): a probe reads one line; an insert fills an empty slot of the
/// key's bucket or, when the bucket is full, replaces the key with the fewest pegs (the
/// cheapest to prove again). Forgetting a position is always safe, since the search then
/// only proves it again, and a key is never half written, so a hit is always a position
/// that was proved hopeless. Above 64 holes: a `DashSet` of `u128` keys, never forgetting.
pub struct HopelessTable {
    kind: TableKind,
}

/// One cache line of eight slots; 0 marks an empty slot (a stored position has pegs).
#[repr(align(64))]
struct Bucket([std::sync::atomic::AtomicU64; 8]);

enum TableKind {
    Atomic(Buckets),
    Dash(dashmap::DashSet<u128, Hasher>),
}

/// The buckets of the lock-free table, in an anonymous memory map whose pages the system
/// hands out zeroed when they are first written, and a bitmap of the pages written so far.
/// A probe of a page not yet written answers "not there" without reading it, and an
/// insert writes such a page before it reads it: a page read first would map the shared
/// zero page, and the write after it would then flush every core's TLB (on two threads
/// that cost `solvable --board french` a second). So the part of the table a search never
/// reaches costs neither time nor memory. (`std::alloc::alloc_zeroed` writes the zeros
/// itself for an alignment of 64: english's 128 MiB table took 0.07-0.08 s of system time
/// and 139 MB for a search of 684 positions; docs/experiments.md has the figures.)
struct Buckets {
    map: memmap2::MmapMut,
    len: usize,
    /// Bit `p` set once page `p` of the map (`BUCKETS_PER_PAGE` buckets) has been written.
    written: Box<[std::sync::atomic::AtomicU64]>,
}

/// Buckets in a page of 4 KiB.
const BUCKETS_PER_PAGE: usize = 4096 / size_of::<Bucket>();

impl Buckets {
    /// `len` buckets (a power of two), all slots 0 (empty), no page written; fewer, halved
    /// until the system grants the mapping, when it refuses it (an address-space limit,
    /// `ulimit -v`: `extremes --board french` aborted on a 128 MiB table): the table only
    /// remembers positions known to be hopeless, so a smaller one costs time, never an
    /// answer. Aborts, as a failed allocation does, when even 1,024 buckets are refused.
    fn zeroed(len: usize) -> Buckets {
        let mut len = len;
        let map = loop {
            let layout = std::alloc::Layout::array::<Bucket>(len).expect("a table that fits");
            match memmap2::MmapMut::map_anon(layout.size()) {
                Ok(map) => break map,
                Err(_) if len > 1024 => len /= 2,
                Err(_) => std::alloc::handle_alloc_error(layout),
            }
        };
        // A mapping starts on a page boundary, so every bucket is aligned to 64.
        assert_eq!(map.as_ptr() as usize % align_of::<Bucket>(), 0);
        let pages = len.div_ceil(BUCKETS_PER_PAGE);
        let written = (0..pages.div_ceil(64))
            .map(|_| std::sync::atomic::AtomicU64::new(0))
            .collect();
        Buckets { map, len, written }
    }

    /// Whether the page of bucket `i` has been written ([`Buckets::mark`]).
    #[inline]
    fn is_written(&self, i: usize) -> bool {
        let p = i / BUCKETS_PER_PAGE;
        self.written[p / 64].load(std::sync::atomic::Ordering::Relaxed) >> (p % 64) & 1 == 1
    }

    /// Records that the page of bucket `i` has been written.
    #[inline]
    fn mark(&self, i: usize) {
        let p = i / BUCKETS_PER_PAGE;
        self.written[p / 64].fetch_or(1 << (p % 64), std::sync::atomic::Ordering::Relaxed);
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: the mapping holds `len` buckets' bytes, is aligned for them (checked in
        // `zeroed`) and lives as long as `self`; all-zero bytes are a valid bucket (eight
        // `AtomicU64` of 0), and every later write goes through those atomics.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<Bucket>(), self.len) }
    }
}

impl HopelessTable {
    /// A table of at most `max_bytes` (at least 64 KiB, at most 1 GiB for the lock-free
    /// table, which is sized once), for keys of `holes` holes.
    ///
    /// ```
    /// use pegsol::games::solve::HopelessTable;
    /// let t = HopelessTable::new(33, 1 << 20);
    /// assert!(!t.contains(0b1011));
    /// t.insert(0b1011);
    /// assert!(t.contains(0b1011));
    /// ```
    pub fn new(holes: usize, max_bytes: u64) -> Self {
        if holes > 64 {
            return HopelessTable {
                kind: TableKind::Dash(dashmap::DashSet::with_hasher(hasher())),
            };
        }
        // 2^(holes - 9) slots, from 2^13 to 2^24 (128 MiB: english, french); 2^27 (1 GiB)
        // above 40 holes; within the budget.
        let want: u64 = if holes > 40 {
            1 << 27
        } else {
            1 << holes.saturating_sub(9).clamp(13, 24)
        };
        let fit = (max_bytes / 8).max(8192);
        let buckets = (want.min(1 << fit.ilog2()) / 8) as usize;
        let table = Buckets::zeroed(buckets);
        HopelessTable {
            kind: TableKind::Atomic(table),
        }
    }

    /// The bucket of `key` (a power-of-two number of buckets).
    #[inline]
    fn bucket(buckets: &[Bucket], key: u64) -> usize {
        (key.wrapping_mul(crate::hash::FIBONACCI) >> 32) as usize & (buckets.len() - 1)
    }

    /// Whether `key` (a canonical position with at least one peg, as [`HopelessTable::insert`]
    /// takes; the empty position is not a key, since 0 marks an empty slot) was recorded as
    /// hopeless.
    ///
    /// ```
    /// use pegsol::games::solve::HopelessTable;
    /// for holes in [33, 80] { // the lock-free table, and the set above 64 holes
    ///     let t = HopelessTable::new(holes, 1 << 20);
    ///     assert!(!t.contains(0b1011));
    ///     t.insert(0b1011);
    ///     assert!(t.contains(0b1011) && !t.contains(0b0111));
    /// }
    /// ```
    #[inline]
    pub fn contains(&self, key: u128) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        match &self.kind {
            TableKind::Atomic(b) => {
                let key = key as u64;
                let i = Self::bucket(b, key);
                // A page never written holds nothing; reading it would map the zero page.
                b.is_written(i) && b[i].0.iter().any(|s| s.load(Relaxed) == key)
            }
            TableKind::Dash(d) => d.contains(&key),
        }
    }

    /// Records `key` (a canonical position with at least one peg) as hopeless.
    ///
    /// ```
    /// use pegsol::games::solve::HopelessTable;
    /// let t = HopelessTable::new(33, 0); // the smallest table: 1,024 buckets of 8
    /// let keys: Vec<u128> = (1..=100).map(|k| k << 20 | 0b111).collect();
    /// for &k in &keys {
    ///     t.insert(k);
    ///     t.insert(k); // twice: kept once
    /// }
    /// assert!(keys.iter().all(|&k| t.contains(k)));
    /// ```
    #[inline]
    pub fn insert(&self, key: u128) {
        use std::sync::atomic::Ordering::Relaxed;
        match &self.kind {
            TableKind::Atomic(b) => {
                let key = key as u64;
                let i = Self::bucket(b, key);
                let slots = &b[i].0;
                if !b.is_written(i) {
                    // Written before it is read (a compare-exchange is a write): the page
                    // comes in fresh, not as the zero page copied. If another thread got
                    // there first, its key is in slot 0 and the page is in; go on below.
                    let first = slots[0].compare_exchange(0, key, Relaxed, Relaxed);
                    b.mark(i);
                    if first.is_ok() {
                        return;
                    }
                }
                let mut victim = 0;
                let mut fewest = u32::MAX;
                for (i, s) in slots.iter().enumerate() {
                    let x = s.load(Relaxed);
                    if x == key {
                        return;
                    }
                    if x == 0 {
                        if s.compare_exchange(0, key, Relaxed, Relaxed).is_ok() {
                            return;
                        }
                        continue;
                    }
                    if x.count_ones() < fewest {
                        fewest = x.count_ones();
                        victim = i;
                    }
                }
                if fewest <= key.count_ones() {
                    slots[victim].store(key, Relaxed);
                }
            }
            TableKind::Dash(d) => {
                d.insert(key);
            }
        }
    }
}

/// What every work unit of a search shares.
struct Shared<K: Bits> {
    goal: Goal,
    goal_pegs: u32,
    /// Jumps, and canonical forms under the goal's symmetries.
    moves: MoveTable<K>,
    /// Per jump of the board: its place in the order the search tries jumps.
    rank: Vec<u16>,
    /// Per place in that order: the jump.
    by_rank: Vec<u16>,
    /// Per jump: the change of each pagoda function's weight.
    delta: Vec<[i64; PAGODAS]>,
    /// Per pagoda function: the least weight of a goal (positions lighter are hopeless).
    floor: [i64; PAGODAS],
    pagodas: usize,
    /// Per pagoda function: the weight of each hole.
    hole_weights: Vec<Vec<i64>>,
    table: HopelessTable,
    /// Set when a unit found a game, or the search ran out of its budget: the others stop.
    stop: std::sync::atomic::AtomicBool,
    /// Positions the units may expand before the search pauses for a beam search
    /// ([`BEAM_AFTER`]), and how many they expanded (in steps of [`SPENT_STEP`]; the
    /// search paused when they reached the limit).
    limit: std::sync::atomic::AtomicU64,
    spent: std::sync::atomic::AtomicU64,
    /// Adjacent pairs of holes, for [`Shared::score`].
    pairs: Vec<(usize, usize)>,
}

/// One thread's search state inside a unit, and its tallies.
struct Worker<'s, K: Bits> {
    s: &'s Shared<K>,
    path: Vec<u16>,
    nodes: u64,
    hits: u64,
    cuts: u64,
    inserts: u64,
}

/// A work unit: a position a few jumps from the start, the jumps that lead there, its
/// canonical form and its pagoda weights.
struct Unit<K> {
    path: Vec<u16>,
    pos: K,
    key: K,
    weights: [i64; PAGODAS],
}

impl<K: Bits> Shared<K> {
    /// Whether `pos` (with no more pegs than the goal) is a goal: for
    /// [`Goal::PegsLeft`], only once no jump is left, since a game ends there.
    fn met(&self, pos: K) -> bool {
        self.goal.is_met(pos.to_u128())
            && (!matches!(self.goal, Goal::PegsLeft(..)) || !self.moves.each_jump(pos, |_| {}))
    }

    fn new(board: &Board, start: Pegs, goal: Goal, max_memory: u64) -> Self {
        let m = goal.mask();
        let moves = MoveTable::new(board, |s| board.transform(s, m) == m);
        let order = jump_order(board, goal);
        let mut rank = vec![0u16; order.len()];
        for (r, &j) in order.iter().enumerate() {
            rank[j] = r as u16;
        }
        let ws: Vec<Vec<i64>> = match goal {
            Goal::OnePeg(holes) => {
                use crate::geometry::pagoda::{Question, goal_pagodas, random_games, sampled_cuts};
                let mut ws = goal_pagodas(board, holes, GENERIC_PAGODAS);
                // The middle game: positions a quarter to three quarters of the way.
                let pegs = start.count_ones() as usize;
                let samples = random_games(board, &[start], false, pegs / 4..=3 * pegs / 4, 128);
                let goals = (0..board.holes())
                    .filter(|&h| holes >> h & 1 == 1)
                    .map(|h| 1 << h)
                    .collect();
                let cuts = sampled_cuts(board, &Question::Reach(goals), &samples, &[], PAGODAS);
                for c in cuts {
                    if ws.len() < PAGODAS && !ws.contains(&c.weights) {
                        ws.push(c.weights);
                    }
                }
                ws
            }
            Goal::Position(_) | Goal::PegsLeft(..) => Vec::new(),
        };
        let mut floor = [i64::MIN; PAGODAS];
        let mut delta = vec![[0i64; PAGODAS]; board.jumps().len()];
        for (p, w) in ws.iter().enumerate() {
            floor[p] = (0..board.holes())
                .filter(|&h| m >> h & 1 == 1)
                .map(|h| w[h])
                .min()
                .unwrap_or(i64::MIN);
            for (j, jump) in board.jumps().iter().enumerate() {
                delta[j][p] = w[jump.to] - w[jump.from] - w[jump.over];
            }
        }
        Shared {
            goal,
            goal_pegs: goal.pegs(),
            moves,
            rank,
            by_rank: order.iter().map(|&j| j as u16).collect(),
            delta,
            floor,
            pagodas: ws.len(),
            hole_weights: ws,
            table: HopelessTable::new(board.holes(), max_memory),
            stop: std::sync::atomic::AtomicBool::new(false),
            limit: std::sync::atomic::AtomicU64::new(u64::MAX),
            spent: std::sync::atomic::AtomicU64::new(0),
            pairs: adjacent_pairs(board),
        }
    }

    fn canonical(&self, pos: K) -> K {
        self.moves.canonical(pos)
    }

    fn weights(&self, pos: K) -> [i64; PAGODAS] {
        let mut out = [0i64; PAGODAS];
        for (p, o) in out.iter_mut().enumerate().take(self.pagodas) {
            *o = self.hole_weights[p]
                .iter()
                .enumerate()
                .filter(|&(h, _)| pos & K::bit(h) != K::zero())
                .map(|(_, &x)| x)
                .sum();
        }
        out
    }

    /// The pagoda weights of the child by jump `j` of a position of weights `weights`.
    #[inline]
    fn child_weights(&self, weights: &[i64; PAGODAS], j: usize) -> [i64; PAGODAS] {
        let mut w = *weights;
        for (x, d) in w.iter_mut().zip(&self.delta[j]).take(self.pagodas) {
            *x += d;
        }
        w
    }

    /// Whether a pagoda function rules out a position of these weights.
    #[inline]
    fn hopeless(&self, weights: &[i64; PAGODAS]) -> bool {
        (0..self.pagodas).any(|p| weights[p] < self.floor[p])
    }

    /// The legal jumps of `pos` in the search's order, into `buf`; returns how many.
    #[inline]
    fn ordered_jumps(&self, pos: K, buf: &mut [u16; 512]) -> usize {
        let mut n = 0;
        self.moves.each_jump(pos, |j| {
            let r = self.rank[j];
            // Insertion sort: a handful of jumps per position.
            let mut i = n;
            while i > 0 && buf[i - 1] > r {
                buf[i] = buf[i - 1];
                i -= 1;
            }
            buf[i] = r;
            n += 1;
        });
        n
    }

    /// The work units: the positions `depth` jumps from the start (or fewer, on a branch
    /// that ends earlier), in the search's order, each canonical form once, none ruled out
    /// by a pagoda function. `Err(path)` when a goal is met on the way.
    fn units(&self, start: K, depth: usize) -> std::result::Result<Vec<Unit<K>>, Vec<u16>> {
        let mut units = vec![Unit {
            path: Vec::new(),
            pos: start,
            key: self.canonical(start),
            weights: self.weights(start),
        }];
        let mut buf = [0u16; 512];
        for _ in 0..depth {
            let mut next = Vec::new();
            let mut seen: HashSet<K, Hasher> = HashSet::with_hasher(hasher());
            let mut grew = false;
            for u in units {
                if u.pos.count_ones() <= self.goal_pegs {
                    if self.met(u.pos) {
                        return Err(u.path);
                    }
                    continue;
                }
                let n = self.ordered_jumps(u.pos, &mut buf);
                if n == 0 {
                    next.push(u);
                    continue;
                }
                grew = true;
                for &r in &buf[..n] {
                    let j = self.by_rank[r as usize] as usize;
                    let pos = u.pos ^ self.moves.mask(j);
                    let weights = self.child_weights(&u.weights, j);
                    if self.hopeless(&weights) {
                        continue;
                    }
                    let key = self.canonical(pos);
                    if seen.insert(key) {
                        let mut path = u.path.clone();
                        path.push(j as u16);
                        next.push(Unit {
                            path,
                            pos,
                            key,
                            weights,
                        });
                    }
                }
            }
            units = next;
            if !grew {
                break;
            }
        }
        Ok(units)
    }
}

/// A beam search's node: a position, its canonical form, its score (lower is better), and
/// the index of its parent in the layer before with the jump that leads here.
#[derive(Clone, Copy)]
struct BeamChild<K> {
    key: K,
    pos: K,
    score: i32,
    parent: u32,
    jump: u16,
}

impl<K: Bits> Shared<K> {
    /// The heuristic a beam search ranks positions by: the number of adjacent pairs of
    /// holes with a peg in one and not the other (the length of the boundary between pegs
    /// and holes; compact groups of pegs are easier to clear). Lower is better. It only
    /// orders the beam: a game the beam finds is a game whatever the heuristic. (Adding the
    /// pegs' squared distance to the goal made wiegleb's beam slower: 3.3 s against 2.4.)
    fn score(&self, pos: K) -> i32 {
        let mut s = 0;
        for &(a, b) in &self.pairs {
            let (x, y) = (pos & K::bit(a) != K::zero(), pos & K::bit(b) != K::zero());
            s += i32::from(x != y);
        }
        s
    }

    /// A beam search of width `width`: layer by layer from `start`, the children of the
    /// kept positions that no pagoda function rules out, each canonical form once, and of
    /// those the `width` best by [`Shared::score`] (ties by canonical form, so that the
    /// beam, and the game it finds, do not depend on the number of threads). Returns a
    /// game reaching the goal, or `None` when the beam empties first, which proves nothing.
    fn beam(&self, start: K, width: usize) -> Option<Vec<u16>> {
        use rayon::prelude::*;
        let mut links: Vec<Vec<(u32, u16)>> = Vec::new();
        let mut frontier: Vec<(K, [i64; PAGODAS])> = vec![(start, self.weights(start))];
        // `links[k]`: per position of layer `k + 1`, its parent in layer `k` and the jump.
        let path = |links: &[Vec<(u32, u16)>], mut at: u32, last: u16| {
            let mut jumps = vec![last];
            for layer in links.iter().rev() {
                let (parent, jump) = layer[at as usize];
                jumps.push(jump);
                at = parent;
            }
            jumps.reverse();
            jumps
        };
        while !frontier.is_empty() {
            let mut children: Vec<BeamChild<K>> = frontier
                .par_iter()
                .enumerate()
                .flat_map_iter(|(i, &(pos, weights))| {
                    let img = self.moves.images(pos, self.moves.subgroup_order());
                    let mut out = Vec::new();
                    self.moves.each_jump(pos, |j| {
                        if self.hopeless(&self.child_weights(&weights, j)) {
                            return;
                        }
                        let child = pos ^ self.moves.mask(j);
                        let key = self.moves.canonical_child(&img, j);
                        if child.count_ones() > self.goal_pegs && self.table.contains(key.to_u128())
                        {
                            return;
                        }
                        out.push(BeamChild {
                            key,
                            pos: child,
                            score: self.score(child),
                            parent: i as u32,
                            jump: j as u16,
                        });
                    });
                    out
                })
                .collect();
            if children.is_empty() {
                return None;
            }
            if children[0].pos.count_ones() <= self.goal_pegs {
                let mut met: Vec<&BeamChild<K>> =
                    children.iter().filter(|c| self.met(c.pos)).collect();
                met.sort_unstable_by_key(|c| (c.parent, c.jump));
                return met.first().map(|c| path(&links, c.parent, c.jump));
            }
            children.par_sort_unstable_by_key(|c| (c.key, c.parent, c.jump));
            children.dedup_by_key(|c| c.key);
            if children.len() > width {
                children.select_nth_unstable_by_key(width, |c| (c.score, c.key));
                children.truncate(width);
                children.par_sort_unstable_by_key(|c| c.key);
            }
            links.push(children.iter().map(|c| (c.parent, c.jump)).collect());
            frontier = children
                .par_iter()
                .map(|c| {
                    let weights = &frontier[c.parent as usize].1;
                    (c.pos, self.child_weights(weights, c.jump as usize))
                })
                .collect();
        }
        None
    }
}

impl<K: Bits> Worker<'_, K> {
    /// Searches below `pos` (canonical form `key`, pagoda weights `weights`, not known to be
    /// hopeless); `Some(true)` with the game in `path` when a goal is reached, `None` when
    /// another unit found one first.
    fn dfs(&mut self, pos: K, key: K, weights: &[i64; PAGODAS]) -> Option<bool> {
        let s = self.s;
        if pos.count_ones() <= s.goal_pegs {
            return Some(s.met(pos));
        }
        if s.stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(SPENT_STEP) {
            use std::sync::atomic::Ordering::Relaxed;
            if s.spent.fetch_add(SPENT_STEP, Relaxed) + SPENT_STEP >= s.limit.load(Relaxed) {
                s.stop.store(true, Relaxed);
                return None;
            }
        }
        let img = s.moves.images(pos, s.moves.subgroup_order());
        let mut buf = [0u16; 512];
        let n = s.ordered_jumps(pos, &mut buf);
        let leaf = pos.count_ones() - 1 <= s.goal_pegs;
        for &r in &buf[..n] {
            let j = s.by_rank[r as usize] as usize;
            let child = pos ^ s.moves.mask(j);
            let w = s.child_weights(weights, j);
            if s.hopeless(&w) {
                self.cuts += 1;
                continue;
            }
            let ckey = if leaf {
                child
            } else {
                let c = s.moves.canonical_child(&img, j);
                if s.table.contains(c.to_u128()) {
                    self.hits += 1;
                    continue;
                }
                c
            };
            self.path.push(j as u16);
            match self.dfs(child, ckey, &w) {
                Some(true) => return Some(true),
                None => return None,
                Some(false) => {}
            }
            self.path.pop();
        }
        s.table.insert(key.to_u128());
        self.inserts += 1;
        Some(false)
    }
}

/// Runs the search from `start` on the current rayon pool: one unit (the start) on one
/// thread; on more, the positions a few jumps deep as units, taken in the search's order
/// by the threads, sharing the table of hopeless positions. `None` when `limit` positions
/// gave no outcome ([`search_within`]).
fn run_search<K: Bits>(
    board: &Board,
    start: Pegs,
    goal: Goal,
    max_memory: u64,
    limit: u64,
) -> Option<Search> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let shared = Shared::<K>::new(board, start, goal, max_memory);
    let threads = rayon::current_num_threads().max(1);
    let clock = std::time::Instant::now();
    let start = K::from_u128(start);
    let found = |path: Vec<u16>, nodes: u64, failed: usize| Search {
        outcome: Outcome::Found(path.iter().map(|&j| board.jumps()[j as usize]).collect()),
        nodes,
        failed,
        beam: None,
    };
    if shared.hopeless(&shared.weights(start)) {
        return Some(Search {
            outcome: Outcome::Impossible(
                "a pagoda function (weights on the holes that no jump increases) weighs the \
                 start less than the goal"
                    .into(),
            ),
            nodes: 0,
            failed: 0,
            beam: None,
        });
    }
    // About 16 units per thread, one unit (the start) on one thread.
    let mut depth = 0;
    let units = loop {
        match shared.units(start, depth) {
            Err(path) => return Some(found(path, 0, 0)),
            Ok(units) if threads == 1 || units.len() >= 16 * threads || depth >= 8 => {
                break units;
            }
            Ok(_) => depth += 1,
        }
    };
    // The workers' positions, table hits, pagoda cuts and table inserts, over both phases.
    let tallies: Mutex<[u64; 4]> = Mutex::new([0; 4]);
    // Runs the units (again) until a game, a proof, or `limit` positions; returns the game.
    let phase = |limit: u64| -> Option<(usize, Vec<u16>)> {
        shared.limit.store(limit, Ordering::Relaxed);
        shared.stop.store(false, Ordering::Relaxed);
        let next = AtomicUsize::new(0);
        let best: Mutex<Option<(usize, Vec<u16>)>> = Mutex::new(None);
        rayon::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|_| {
                    let mut w = Worker {
                        s: &shared,
                        path: Vec::new(),
                        nodes: 0,
                        hits: 0,
                        cuts: 0,
                        inserts: 0,
                    };
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= units.len() || shared.stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let u = &units[i];
                        if u.pos.count_ones() > shared.goal_pegs
                            && shared.table.contains(u.key.to_u128())
                        {
                            w.hits += 1;
                            continue;
                        }
                        w.path.clone_from(&u.path);
                        match w.dfs(u.pos, u.key, &u.weights) {
                            Some(true) => {
                                shared.stop.store(true, Ordering::Relaxed);
                                let mut b = best.lock().expect("no panic holds the lock");
                                if b.as_ref().is_none_or(|(at, _)| i < *at) {
                                    *b = Some((i, std::mem::take(&mut w.path)));
                                }
                                break;
                            }
                            None => break,
                            Some(false) => {}
                        }
                    }
                    let mut t = tallies.lock().expect("no panic holds the lock");
                    for (x, y) in t.iter_mut().zip([w.nodes, w.hits, w.cuts, w.inserts]) {
                        *x += y;
                    }
                });
            }
        });
        best.into_inner().expect("no panic held the lock")
    };
    let mut best = phase(BEAM_AFTER.min(limit));
    let mut beam: Option<(usize, Vec<u16>)> = None;
    let paused = best.is_none() && shared.spent.load(Ordering::Relaxed) >= BEAM_AFTER.min(limit);
    if paused && limit <= BEAM_AFTER {
        if trace() {
            crate::observe::trace(&format!(
                "solve: gave up after {} positions, the limit ({:.2} s)",
                tallies.lock().expect("no panic holds the lock")[0],
                clock.elapsed().as_secs_f64()
            ));
        }
        return None;
    }
    if paused {
        // A long search: a beam search often finds a game at once where the exhaustive
        // search would take minutes; if it finds none, the exhaustive search goes on (its
        // table keeps what it proved).
        for width in BEAM_WIDTHS {
            let at = clock.elapsed().as_secs_f64();
            let found = shared.beam(start, width);
            if trace() {
                crate::observe::trace(&format!(
                    "solve: paused after {} positions; a beam of width {width} {} ({:.2} s)",
                    tallies.lock().expect("no panic holds the lock")[0],
                    if found.is_some() {
                        "found a game"
                    } else {
                        "found none"
                    },
                    clock.elapsed().as_secs_f64() - at
                ));
            }
            if let Some(path) = found {
                beam = Some((width, path));
                break;
            }
        }
        if beam.is_none() {
            best = phase(limit);
            if best.is_none() && shared.spent.load(Ordering::Relaxed) >= limit {
                return None;
            }
        }
    }
    let [nodes, hits, cuts, inserts] = tallies.into_inner().expect("no panic held the lock");
    if trace() {
        crate::observe::trace(&format!(
            "solve: {} units at depth {depth} on {threads} thread{}, {} pagoda function{}; \
             {nodes} positions expanded, hopeless table: {inserts} inserts, {hits} hits; \
             {cuts} children cut by a pagoda function ({:.2} s)",
            units.len(),
            if threads == 1 { "" } else { "s" },
            shared.pagodas,
            if shared.pagodas == 1 { "" } else { "s" },
            clock.elapsed().as_secs_f64()
        ));
    }
    let failed = inserts as usize;
    if let Some((width, path)) = beam {
        return Some(Search {
            beam: Some(width),
            ..found(path, nodes, failed)
        });
    }
    Some(match best {
        Some((_, path)) => found(path, nodes, failed),
        None => Search {
            outcome: Outcome::Impossible(format!(
                "exhaustive search: every position reachable from the start was tried, \
                 up to the goal's {} symmetries, but those that a pagoda function rules out",
                shared.moves.subgroup_order()
            )),
            nodes,
            failed,
            beam: None,
        },
    })
}

/// Whether the installed observer wants trace lines (on the command line, `PEGSOL_TRACE`):
/// the search then reports its units and table.
fn trace() -> bool {
    crate::observe::tracing()
}

/// The order in which the search tries jumps: first those that take the most weight off
/// the board, where a peg weighs its squared distance to the goal (the finishing hole, or the
/// centre of the goal's holes). Pegs far from where the game must end are the hard ones to
/// remove; clearing them early finds solutions sooner. Only the order changes, not what is
/// searched.
fn jump_order(board: &Board, goal: Goal) -> Vec<usize> {
    let w = goal_distances(board, goal);
    let jumps = board.jumps();
    let mut order: Vec<usize> = (0..jumps.len()).collect();
    order.sort_by(|&a, &b| {
        let d = |j: &Jump| w[j.to] - w[j.from] - w[j.over];
        d(&jumps[a]).total_cmp(&d(&jumps[b])).then(a.cmp(&b))
    });
    order
}

/// Per hole, its squared distance to the goal (the finishing hole, or the centre of the
/// goal's holes), on the board's lattice.
fn goal_distances(board: &Board, goal: Goal) -> Vec<f64> {
    let place = |h: usize| {
        let (r, c) = board.cells()[h];
        match board.lattice() {
            crate::geometry::lattice::Lattice::Triangular => {
                (c as f64 - r as f64 / 2.0, r as f64 * 3f64.sqrt() / 2.0)
            }
            _ => (c as f64, r as f64),
        }
    };
    let m = goal.mask();
    let holes: Vec<usize> = (0..board.holes()).filter(|&h| m & bit(h) != 0).collect();
    let n = holes.len().max(1) as f64;
    let (cx, cy) = holes
        .iter()
        .map(|&h| place(h))
        .fold((0.0, 0.0), |(x, y), (a, b)| (x + a / n, y + b / n));
    (0..board.holes())
        .map(|h| {
            let (x, y) = place(h);
            (x - cx).powi(2) + (y - cy).powi(2)
        })
        .collect()
}

/// The pairs of adjacent holes (two holes of one jump's line, side by side), each once.
fn adjacent_pairs(board: &Board) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = board
        .jumps()
        .iter()
        .flat_map(|j| [(j.from, j.over), (j.over, j.to)])
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Per jump of the board: (mask of its three holes, mask of from and over).
pub(crate) fn jump_masks<K: Bits>(board: &Board) -> Vec<(K, K)> {
    board
        .jumps()
        .iter()
        .map(|j| {
            let fo = K::bit(j.from) | K::bit(j.over);
            (fo | K::bit(j.to), fo)
        })
        .collect()
}

/// The exact number of jump sequences from `from` to the position `to` (0 when there is
/// none), by a memoized search: `W(s)` = the sum of `W` over the positions one jump away,
/// keyed by canonical form under the symmetries fixing `to`. Fails on overflow of `u128`.
///
/// ```
/// use pegsol::{geometry::board::Board, games::solve::count_sequences};
/// let b = Board::from_spec("tri:5").unwrap();
/// // Sequences from the corner start to a single peg in the corner a1: 6,816 wins.
/// let n = count_sequences(&b, b.default_start(), 1 << b.hole("a1").unwrap()).unwrap();
/// assert_eq!(n, 6_816);
/// ```
pub fn count_sequences(board: &Board, from: Pegs, to: Pegs) -> Result<u128> {
    count_sequences_within(board, from, to, crate::memory::default_budget())
}

/// [`count_sequences`] with a memory limit: it stops with [`Error::Memory`] before its memo
/// (a hash table of 33 bytes a slot, one slot in eight empty: about 38 bytes a position)
/// would take more than `max_memory` bytes, the old slots and the new counted while the
/// table doubles.
///
/// ```
/// use pegsol::{geometry::board::Board, games::solve::count_sequences_within};
/// let b = Board::from_spec("tri:5").unwrap();
/// let a1 = 1 << b.hole("a1").unwrap();
/// assert_eq!(count_sequences_within(&b, b.default_start(), a1, 1 << 30).unwrap(), 6_816);
/// assert!(count_sequences_within(&b, b.default_start(), a1, 1000).is_err()); // too little memory
/// ```
pub fn count_sequences_within(
    board: &Board,
    from: Pegs,
    to: Pegs,
    max_memory: u64,
) -> Result<u128> {
    let goal = Goal::Position(to);
    if narrow_goal(board, from, goal).is_none() || from.count_ones() < to.count_ones() {
        return Ok(0);
    }
    if board.holes() <= 64 {
        Counter::<u64>::new(board, goal, max_memory).count(u64::from_u128(from))
    } else {
        Counter::<u128>::new(board, goal, max_memory).count(from)
    }
}

struct Counter<K: Bits> {
    jumps: Vec<(K, K)>,
    transforms: Transforms<K>,
    memo: HashMap<K, u128, Hasher>,
    to: K,
    to_pegs: u32,
    max_memory: u64,
}

impl<K: Bits> Counter<K> {
    fn new(board: &Board, goal: Goal, max_memory: u64) -> Self {
        let syms = goal_symmetries(board, goal);
        Counter {
            max_memory,
            jumps: jump_masks(board),
            transforms: Transforms::new(&syms, board.holes()),
            memo: HashMap::with_hasher(hasher()),
            to: K::from_u128(goal.mask()),
            to_pegs: goal.pegs(),
        }
    }

    fn count(&mut self, pos: K) -> Result<u128> {
        if pos.count_ones() <= self.to_pegs {
            return Ok(u128::from(pos == self.to));
        }
        let key = self.transforms.canonical(pos);
        if let Some(&n) = self.memo.get(&key) {
            return Ok(n);
        }
        let mut total = 0u128;
        for j in 0..self.jumps.len() {
            let (all, fo) = self.jumps[j];
            if pos & all == fo {
                total = add(total, self.count(pos ^ all)?)?;
            }
        }
        // A full table doubles on the next insert: its slots (7 used in 8) and twice as
        // many new ones are held at once. (It weighed 40 bytes a position before, and
        // `reach --count --max-memory 200M` took 413 MB.)
        let cap = self.memo.capacity();
        if self.memo.len() == cap {
            let bytes = 3 * crate::memory::hash_table_bytes::<(K, u128)>(cap);
            if bytes > self.max_memory {
                return Err(Error::Memory(format!(
                    "the count holds {} positions, and doubling its table would pass the \
                     memory limit ({}); raise --max-memory",
                    self.memo.len(),
                    crate::memory::human(self.max_memory)
                )));
            }
        }
        self.memo.insert(key, total);
        Ok(total)
    }
}
