//! Still-solvable positions: which reachable positions can still be won, and how many
//! winning continuations each jump keeps.
//!
//! By default ([`solvable`], [`hint`]) the solvable set is found by **meeting in the
//! middle** (techniques.md, "Meet in the middle"): a jump played backwards on a position is
//! a forward jump on its complement, so the positions from which a goal can be reached in
//! `k` jumps are found by un-jumps from the goals. Layer `j` (positions after `j` jumps)
//! is grown forward from the start and backward from the goals (one peg in a goal hole of
//! the start's position class), each side growing the one whose next layer should be the
//! smaller, until both reach the same layer `m`. There the solvable positions are the
//! intersection; from there they extend towards the start (parents of solvable positions
//! that the forward side holds) and towards the goals (children that the backward side
//! holds). When the goal is the start's complement (english centre to centre: one peg on
//! d4 is the complement of the board with d4 empty), the backward side is the forward side
//! complemented, so only the forward side grows, and the solvable layers after the middle
//! are the complements of those before it (`Solver::mirrored`; "complement" may also be
//! the complement moved by a symmetry of the board that takes the goal's complement to the
//! start, as for french d2 to d6, `Solver::with_mirror`); then only layers up to
//! `last / 2` are built at all: `W` of a position is `N` (sequences from the start) of its
//! complement, and the wins are the sum of `N * W` over the middle layer, read off layer
//! `last / 2` (`Solver::wins_mirrored`). The back pass records each solvable position's
//! parents there (`Links`), so the `N` pass sums without a probe. Without cuts the
//! mirror may also begin `d` jumps in (`Solver::mirrors_from`: english `--finish any`
//! from `d = 1`); from there the backward layers are taken as complements, not grown.
//!
//! **Pagoda cuts** prune both sides: pagoda functions found by linear programming from the
//! positions of random games ([`crate::geometry::pagoda::sampled_cuts`]) rule out, before
//! they are stored, children that cannot reach a goal (forward side) and parents that the
//! start cannot reach (backward side). Such positions lie on no winning path, so the
//! solvable sets and `W` are unchanged; english centre to centre keeps 1.24 million
//! positions in its layer 15 instead of 2.6 million. Where each child gets a probe anyway
//! (the middle's meetings, the `W` and `N` passes), the cuts are not tested: a probe costs
//! less, and finds nothing for a position on no winning path. When nothing is solvable,
//! the number of layers to report (the longest game plus one) comes from a forward sweep
//! without cuts that keeps only its frontier.
//!
//! With [`SolveOptions::reachable`], the reachable counts need the full sweep, and the
//! analysis runs today's reference passes instead:
//!
//! 1. **Forward**: every position reachable from the start, layer by layer, each layer kept
//!    as [`SHARDS`] sorted vectors of canonical forms (shard chosen by a hash of the key).
//! 2. **Backward**: the goals (one peg, on the finish hole or anywhere) of the last layer,
//!    then layer by layer the *parents* (un-jumps) of the solvable positions of layer
//!    `j + 1` that are reachable, i.e. present in forward layer `j`. A reachable position is
//!    solvable exactly when one of its jumps leads to a solvable position, and that child is
//!    itself reachable, so this finds every solvable reachable position and no other. It
//!    touches only solvable positions: english centre has 1.7 million of them up to
//!    symmetry against 23.5 million reachable.
//!
//! Either way, **wins**: `W(p)`, the number of jump sequences from `p` to a goal, from the
//! last layer back: `W(p) = sum of W(child)` over the jumps of `p` into solvable positions.
//!
//! Symmetry: positions are merged into orbits under `H`, the symmetries of the board that
//! fix both the start and the set of goal holes. Such a symmetry maps reachable positions
//! to reachable ones, goals to goals and jumps to jumps, so the reachable set, the solvable
//! set and `W` are all unions of (constant on) `H`-orbits. Raw counts add up orbit sizes
//! (`|H| / |stabiliser|`); "up to symmetry" counts distinct orbits under the board's whole
//! group, which may be larger than `H` (a corner finish on a symmetric start).
//!
//! Each pass runs the shards of a layer as work units on the rayon pool, every unit writing
//! into one buffer per next-layer shard, merged per shard without locks, as the count
//! engine does.

use super::order::JumpOrder;
use crate::error::{Error, Result, add};
use crate::geometry::bits::{Bits, Packed};
use crate::geometry::board::{Board, Jump, Pegs, bit};
use crate::geometry::moves::MoveTable;
use crate::geometry::symmetry::{Symmetry, Transforms};
use crate::output::files::csv_bytes;
use crate::output::progress;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};

/// Number of shards of each layer (a power of two).
pub const SHARDS: usize = 256;

/// One layer: [`SHARDS`] sorted, deduplicated vectors of canonical positions.
type Shards<K> = Vec<Vec<K>>;

/// Where a win must end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// One peg anywhere.
    Any,
    /// One peg in this hole.
    Hole(usize),
}

impl Finish {
    /// Parses `--finish`: absent or `any` for any hole, else a hole name.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::Finish};
    /// let e = Board::from_spec("english").unwrap();
    /// assert_eq!(Finish::parse(&e, None).unwrap(), Finish::Any);
    /// assert_eq!(Finish::parse(&e, Some("ANY")).unwrap(), Finish::Any);
    /// assert_eq!(Finish::parse(&e, Some("d4")).unwrap(), Finish::Hole(e.hole("d4").unwrap()));
    /// assert!(Finish::parse(&e, Some("a1")).is_err());
    /// ```
    pub fn parse(board: &Board, name: Option<&str>) -> Result<Finish> {
        match name {
            None => Ok(Finish::Any),
            Some(n) if n.eq_ignore_ascii_case("any") => Ok(Finish::Any),
            Some(n) => Ok(Finish::Hole(board.hole(n)?)),
        }
    }

    /// The holes a last peg may stand in, as a mask.
    pub fn mask(self, board: &Board) -> Pegs {
        match self {
            Finish::Any => board.full(),
            Finish::Hole(h) => bit(h),
        }
    }

    /// `any` or the hole's name.
    pub fn name(self, board: &Board) -> String {
        match self {
            Finish::Any => "any".into(),
            Finish::Hole(h) => board.hole_name(h),
        }
    }
}

/// How to run an analysis.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Refuse to keep more than this many bytes of positions.
    pub max_memory: u64,
    /// Show a progress bar on stderr (only drawn when stderr is a terminal).
    pub progress: bool,
    /// Also count every reachable position ([`SolvableLayer::reachable`]): a full forward
    /// sweep, many times the work of the solvable set alone (see [`solvable`]).
    pub reachable: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: 0,
            max_memory: crate::memory::default_budget(),
            progress: false,
            reachable: false,
        }
    }
}

/// The solvable positions after a given number of jumps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SolvableLayer {
    /// Jumps made from the start.
    pub jumps: usize,
    /// Reachable positions from which a win is still possible (no symmetry reduction).
    pub positions: u64,
    /// The same counted up to the board's symmetry group.
    pub positions_reduced: u64,
    /// All reachable positions after `jumps` jumps; `None` unless
    /// [`SolveOptions::reachable`] asked for them.
    pub reachable: Option<u64>,
    /// The same counted up to the board's symmetry group.
    pub reachable_reduced: Option<u64>,
}

/// What `pegsol solvable` reports for one (board, start, finish).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Solvable {
    /// The board spec as given.
    pub board: String,
    /// The start's empty holes joined by `+`.
    pub start: String,
    /// The finish hole's name, or `any`.
    pub finish: String,
    /// Pegs at the start.
    pub start_pegs: usize,
    /// One entry per number of jumps, from 0 to the last reachable layer.
    pub layers: Vec<SolvableLayer>,
    /// Winning jump sequences from the start (to the finish hole, or to any hole).
    pub wins: u128,
}

impl Solvable {
    /// Solvable reachable positions, the start included if it is solvable.
    pub fn positions(&self) -> u64 {
        self.layers.iter().map(|l| l.positions).sum()
    }

    /// Solvable reachable positions up to symmetry.
    pub fn positions_reduced(&self) -> u64 {
        self.layers.iter().map(|l| l.positions_reduced).sum()
    }

    /// Reachable positions (`None` unless [`SolveOptions::reachable`] asked for them).
    ///
    /// ```
    /// use pegsol::{count::{count, CountOptions}, geometry::Board};
    /// use pegsol::analysis::solvable::{solvable, Finish, SolveOptions};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let opts = SolveOptions { reachable: true, ..SolveOptions::default() };
    /// let s = solvable(&b, b.default_start(), Finish::Any, &opts).unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// assert_eq!(s.reachable(), Some(c.positions())); // two engines, one figure: 3,016
    /// assert!(s.positions() < c.positions());
    /// let quick = solvable(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!((quick.reachable(), quick.positions()), (None, s.positions()));
    /// ```
    pub fn reachable(&self) -> Option<u64> {
        self.layers.iter().map(|l| l.reachable).sum()
    }

    /// Reachable positions up to symmetry (`None` unless asked for).
    pub fn reachable_reduced(&self) -> Option<u64> {
        self.layers.iter().map(|l| l.reachable_reduced).sum()
    }
}

/// Columns of `solvable.csv`.
pub const SOLVABLE_HEADER: &[&str] = &[
    "board",
    "start",
    "finish",
    "jumps",
    "positions",
    "positions_reduced",
    "reachable",
    "reachable_reduced",
];

/// `solvable.csv` for one or more analyses: one row per (analysis, number of jumps),
/// layers with no solvable position included (their `positions` is 0). The `reachable`
/// columns are empty unless the analysis counted them ([`SolveOptions::reachable`]).
pub fn csv_file(results: &[Solvable]) -> Result<Vec<u8>> {
    let rows: Vec<Vec<String>> = results
        .iter()
        .flat_map(|s| {
            s.layers.iter().map(move |l| {
                vec![
                    s.board.clone(),
                    s.start.clone(),
                    s.finish.clone(),
                    l.jumps.to_string(),
                    l.positions.to_string(),
                    l.positions_reduced.to_string(),
                    l.reachable.map_or(String::new(), |n| n.to_string()),
                    l.reachable_reduced.map_or(String::new(), |n| n.to_string()),
                ]
            })
        })
        .collect();
    csv_bytes(SOLVABLE_HEADER, &rows)
}

/// The readable summary `pegsol solvable` prints. Without the reachable counts
/// ([`SolveOptions::reachable`]) the reachable columns are left out and one line says so.
pub fn summary_text(s: &Solvable) -> String {
    use thousands::Separable;
    let (Some(reachable), Some(reachable_reduced)) = (s.reachable(), s.reachable_reduced()) else {
        let mut out = format!(
            "board {}, start {}, finish {} ({} pegs)\n\
             solvable positions          {}\n\
             solvable up to symmetry     {}\n\
             winning jump sequences      {}\n\
             reachable positions         not counted (--reachable: a full forward sweep)\n\
             per number of jumps:\n\
             {:>5} {:>14} {:>14}\n",
            s.board,
            s.start,
            s.finish,
            s.start_pegs,
            s.positions().separate_with_commas(),
            s.positions_reduced().separate_with_commas(),
            s.wins.separate_with_commas(),
            "jumps",
            "solvable",
            "reduced",
        );
        for l in &s.layers {
            out.push_str(&format!(
                "{:>5} {:>14} {:>14}\n",
                l.jumps,
                l.positions.separate_with_commas(),
                l.positions_reduced.separate_with_commas(),
            ));
        }
        return out;
    };
    let mut out = format!(
        "board {}, start {}, finish {} ({} pegs)\n\
         solvable positions          {} of {} reachable\n\
         solvable up to symmetry     {} of {}\n\
         winning jump sequences      {}\n\
         per number of jumps:\n\
         {:>5} {:>14} {:>14} {:>14} {:>14}\n",
        s.board,
        s.start,
        s.finish,
        s.start_pegs,
        s.positions().separate_with_commas(),
        reachable.separate_with_commas(),
        s.positions_reduced().separate_with_commas(),
        reachable_reduced.separate_with_commas(),
        s.wins.separate_with_commas(),
        "jumps",
        "solvable",
        "reduced",
        "reachable",
        "reduced",
    );
    for l in &s.layers {
        let opt = |n: Option<u64>| n.map_or(String::new(), |n| n.separate_with_commas());
        out.push_str(&format!(
            "{:>5} {:>14} {:>14} {:>14} {:>14}\n",
            l.jumps,
            l.positions.separate_with_commas(),
            l.positions_reduced.separate_with_commas(),
            opt(l.reachable),
            opt(l.reachable_reduced)
        ));
    }
    out
}

/// The reachable positions of `board` from `start` from which a win (ending on `finish`)
/// is still possible, per number of jumps, and the number of winning sequences.
///
/// ```
/// use pegsol::{geometry::board::Board, analysis::solvable::{solvable, Finish, SolveOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let a1 = b.hole("a1").unwrap();
/// let s = solvable(&b, b.default_start(), Finish::Hole(a1), &SolveOptions::default()).unwrap();
/// assert_eq!(s.wins, 6_816); // published: wins from a1 ending on a1
/// let any = solvable(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
/// assert_eq!(any.wins, 29_760);
/// ```
pub fn solvable(
    board: &Board,
    start: Pegs,
    finish: Finish,
    opts: &SolveOptions,
) -> Result<Solvable> {
    with_pool(opts, || {
        if board.holes() <= 64 {
            let s = Solver::<u64>::new(board, start, finish, true).within(opts.max_memory);
            if opts.reachable {
                s.solvable(opts)
            } else {
                s.solvable_meet(opts)
            }
        } else {
            let s = Solver::<u128>::new(board, start, finish, true).within(opts.max_memory);
            if opts.reachable {
                s.solvable(opts)
            } else {
                s.solvable_meet(opts)
            }
        }
    })
}

/// One legal jump from a position and the winning sequences that start with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JumpWins {
    /// The jump.
    pub jump: Jump,
    /// Winning continuations after it (0: the jump loses).
    pub wins: u128,
}

/// The answer to "what should I play here?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Winning jump sequences from the position.
    pub wins: u128,
    /// Every legal jump, winning ones first (most wins first), then in board order.
    pub jumps: Vec<JumpWins>,
}

/// Every legal jump from `position` with the number of winning continuations it keeps
/// (wins ending on `finish`).
///
/// Same passes as [`solvable`], with positions merged under every symmetry that fixes the
/// goal, whether or not it fixes `position`: `W` is the same on a whole orbit of such
/// symmetries, and the orbit of a reachable position is all the passes need to know. A
/// position of an unsymmetric mid-game thus costs no more than a symmetric start.
///
/// ```
/// use pegsol::{geometry::board::Board, analysis::solvable::{hint, Finish, SolveOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let h = hint(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
/// assert_eq!(h.wins, 29_760);
/// assert_eq!(h.jumps.iter().map(|j| j.wins).sum::<u128>(), 29_760);
/// ```
pub fn hint(board: &Board, position: Pegs, finish: Finish, opts: &SolveOptions) -> Result<Hint> {
    // Only the position and its children are asked about: with the goal the complement
    // of the position, their `W` alone is found (`Solver::first_wins_mirrored`).
    let cache = HintCache::build_layers(board, position, finish, opts, false)?;
    Ok(cache.hint(board, position).unwrap_or_else(|| {
        let mut jumps: Vec<JumpWins> = board
            .jumps()
            .iter()
            .filter(|j| j.is_legal(position))
            .map(|&jump| JumpWins { jump, wins: 0 })
            .collect();
        jumps.sort_by_key(|a| a.jump);
        Hint { wins: 0, jumps }
    }))
}

/// The readable answer of `pegsol hint`.
pub fn hint_text(board: &Board, position: Pegs, finish: Finish, h: &Hint) -> String {
    use thousands::Separable;
    let mut out = format!(
        "{}{} pegs, finish {}: {} winning jump sequences\n",
        board.draw_position(position),
        position.count_ones(),
        finish.name(board),
        h.wins.separate_with_commas()
    );
    if h.jumps.is_empty() {
        out.push_str("no jump is possible\n");
        return out;
    }
    if h.wins == 0 {
        out.push_str("no jump keeps the position winnable\n");
    }
    for j in &h.jumps {
        let verdict = if j.wins > 0 {
            format!("{} wins", j.wins.separate_with_commas())
        } else {
            "loses".into()
        };
        out.push_str(&format!(
            "  {}-{} (over {})  {}\n",
            board.hole_name(j.jump.from),
            board.hole_name(j.jump.to),
            board.hole_name(j.jump.over),
            verdict
        ));
    }
    out
}

fn with_pool<T: Send>(opts: &SolveOptions, f: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| Error::input(format!("cannot start {} threads: {e}", opts.threads)))?;
    pool.install(f)
}

/// The three passes for one (board, start, goal) with bitboards of type `K`.
struct Solver<'a, K: Bits> {
    board: &'a Board,
    start: K,
    finish: Finish,
    goal: K,
    /// Jumps and symmetries; canonical forms under the symmetries fixing the goal (and
    /// the start, with `fix_start`).
    moves: MoveTable<K>,
    /// Those symmetries (`H`).
    h: Vec<Symmetry>,
    /// One order for jumps that commute ([`JumpOrder`]): forward layers skip the jumps
    /// that only repeat a position; `None` on boards with too many jumps.
    order: Option<JumpOrder>,
    /// The meeting's cuts ([`Solver::pruners`]), once found: ahead (positions that cannot
    /// reach a goal) and behind (positions that the start cannot reach).
    cuts: std::sync::OnceLock<[Option<Pruner>; 2]>,
    /// How a position names its shard, and what of it a shard's buffers keep.
    keys: Keys,
    /// The largest table of a forward layer ([`Places`], in bytes) for which a half
    /// meeting records [`Links`] for the `N` pass ([`Solver::links_pay`]): [`LINK_CACHE`];
    /// tests set 0 (no links) or a small size (links for the small layers only) to
    /// compare with the probes.
    link_cache: usize,
    /// Whether the goal's complement is the start up to a symmetry `t` of the board
    /// ([`Solver::with_mirror`]); `Solver::mirrored` meetings then take `t` of a
    /// position's complement for its complement.
    mirror: Mirror<K>,
    /// The memory limit ([`SolveOptions::max_memory`]) that a run holds to as it grows
    /// ([`Solver::within`], [`Solver::check_resident`]); `None` in unit tests.
    watch: Option<crate::memory::Watch>,
}

impl<'a, K: Bits> Solver<'a, K> {
    /// `fix_start`: reduce under the symmetries fixing both the start and the goal (needed
    /// for exact raw counts of reachable positions); otherwise under all the symmetries
    /// fixing the goal, which leaves `W` and solvability exact and merges more: a forward
    /// layer then holds the orbits of reachable positions (see [`hint`]).
    fn new(board: &'a Board, start: Pegs, finish: Finish, fix_start: bool) -> Self {
        let goal = finish.mask(board);
        let fixes = |s: &Symmetry| {
            (!fix_start || board.transform(s, start) == start) && board.transform(s, goal) == goal
        };
        let moves = MoveTable::new(board, fixes);
        Solver {
            board,
            start: K::from_u128(start),
            finish,
            goal: K::from_u128(goal),
            order: JumpOrder::new(board, &moves),
            moves,
            h: board
                .symmetries()
                .iter()
                .filter(|s| fixes(s))
                .cloned()
                .collect(),
            cuts: std::sync::OnceLock::new(),
            keys: Keys::new(board.holes()),
            link_cache: LINK_CACHE,
            mirror: Mirror::No,
            watch: None,
        }
        .with_mirror()
    }

    /// Holds the run to `max_memory` bytes from now ([`crate::memory::Watch`]): a layer
    /// that grows past it, or its buffers, stops the run with [`Error::Memory`] instead
    /// of the system's killing it.
    fn within(mut self, max_memory: u64) -> Self {
        self.watch = Some(crate::memory::Watch::new(max_memory));
        self
    }

    /// [`Error::Memory`] once the process holds more than [`Solver::within`] allows.
    /// (`solvable --board wiegleb --max-memory 1G` reached 4.4 GB before this, whose
    /// limit counted only the layers kept, not the buffers of the one being built; with
    /// the default limit it was killed at 21.7 GB.)
    fn check_resident(&self) -> Result<()> {
        let Some(watch) = &self.watch else {
            return Ok(());
        };
        match watch.over() {
            None => Ok(()),
            Some(taken) => Err(Error::Memory(format!(
                "{} from {}: the search needs more than {} (the limit; it had taken {} when \
                 stopped). Raise --max-memory if the machine has the memory",
                self.board.name(),
                self.board.start_name(self.start.to_u128()),
                crate::memory::human(watch.limit()),
                crate::memory::human(taken)
            ))),
        }
    }

    /// Sets [`Solver::mirror`]: a symmetry `t` of the board that maps the goal's
    /// complement into the start's orbit under `H`, the identity if it does. A game from
    /// `p` to the goal is, complemented, reversed and moved by `t`, a game from the start
    /// to `t(complement of p)`: the positions that reach the goal in `k` jumps are those
    /// whose `t`-complements are reachable in `k` jumps. Canonical forms carry over when
    /// `t` maps `H`-orbits onto `H`-orbits (`t H = H t`) and `t` twice is in `H`: then `t`
    /// of a complement, taken twice, gives back the position's orbit, and layer
    /// `last - j` of the solvable positions is the `t`-complements of layer `j`.
    fn with_mirror(mut self) -> Self {
        let goal = self.goal.to_u128();
        if goal.count_ones() != 1 {
            return self;
        }
        let canon = |x: Pegs| self.transforms_canon_h(K::from_u128(x));
        let same = |a: &Symmetry, b: &Symmetry| a.perm() == b.perm();
        let in_h = |a: &Symmetry| self.h.iter().any(|b| same(a, b));
        let start = canon(self.start.to_u128());
        let flipped = self.board.full() ^ goal;
        let found = self.board.symmetries().iter().find(|t| {
            canon(self.board.transform(t, flipped)) == start
                && in_h(&t.compose(t))
                && self
                    .h
                    .iter()
                    .all(|a| self.h.iter().any(|b| same(&t.compose(a), &b.compose(t))))
        });
        self.mirror = match found {
            None => Mirror::No,
            Some(t) if t.is_identity() => Mirror::Complement,
            Some(t) => Mirror::Through(t.clone(), Transforms::new(&[t], self.board.holes())),
        };
        self
    }

    /// `t` of the complement of `pos` ([`Solver::mirror`]), not canonical.
    #[inline]
    fn mirror_image(&self, pos: K) -> K {
        let full = K::from_u128(self.board.full());
        match &self.mirror {
            Mirror::Through(_, t) => full ^ t.apply(0, pos),
            _ => full ^ pos,
        }
    }

    /// The position whose children [`MoveTable::largest_child`] complements for the
    /// `t`-complements of `pos`'s children: `t(pos)`, whose children are `t` of `pos`'s.
    #[inline]
    fn mirror_parent(&self, pos: K) -> K {
        match &self.mirror {
            Mirror::Through(_, t) => t.apply(0, pos),
            _ => pos,
        }
    }

    /// The size of `pos`'s orbit under `H`, from its images (`img[..|H|]`, the subgroup's
    /// first): `|H|` over the number of symmetries that fix it.
    fn orbit_size(&self, img: &[K], pos: K) -> usize {
        let h = self.moves.subgroup_order();
        h / img[..h].iter().filter(|&&x| x == pos).count()
    }

    fn contains(&self, layer: &Shards<K>, key: K) -> Option<usize> {
        layer[self.keys.shard(key)].binary_search(&key).ok()
    }

    fn is_goal(&self, pos: K) -> bool {
        pos.count_ones() == 1 && pos & self.goal != K::zero()
    }

    /// The next layer: `f(pos, out, acc)` pushes the canonical successors of `pos` into
    /// `out` ([`Out::push`], which picks the shard) and may note statistics of `pos` in the
    /// unit's accumulator `acc`.
    /// Units are the shards of `layer`, in batches; per-shard buffers are merged one task
    /// per shard, then sorted and deduplicated. On boards of up to 40 holes the buffers
    /// and the shards being built hold 32-bit keys ([`Keys`]), unpacked once the repeats
    /// are gone: english d4 0.67 s against 0.73 s, and 81 MB against 124 MB. Returns the
    /// next layer and the units' accumulators, or [`Error::Memory`] when the layer's
    /// buffers take the process past its limit ([`Solver::check_resident`], asked each time
    /// they grew by a sixty-fourth of the limit).
    fn step<A: Default + Send + Sync>(
        &self,
        layer: &Shards<K>,
        f: impl Fn(K, &mut Out<K>, &mut A) + Sync,
    ) -> Result<(Shards<K>, Vec<A>)> {
        self.step_with(layer, f, |_, _| {})
    }

    /// [`Solver::step`], calling `end(out, acc)` after the last position of each unit.
    fn step_with<A: Default + Send + Sync>(
        &self,
        layer: &Shards<K>,
        f: impl Fn(K, &mut Out<K>, &mut A) + Sync,
        end: impl Fn(&mut Out<K>, &mut A) + Sync,
    ) -> Result<(Shards<K>, Vec<A>)> {
        let (next, _, accs) =
            self.step_at(layer, false, |pos, _, out, acc| f(pos, out, acc), end)?;
        Ok((next, accs))
    }

    /// [`Solver::step_with`], where `f` also gets the position's index in the layer
    /// (shard by shard), and with `tagged` pushes its children with their payloads
    /// ([`Out::push_tagged`], packed keys only): of a child's arrivals the smallest
    /// payload is kept, and the payloads are returned in the next layer's order, shard by
    /// shard ([`JumpOrder`]).
    fn step_at<A: Default + Send + Sync>(
        &self,
        layer: &Shards<K>,
        tagged: bool,
        f: impl Fn(K, usize, &mut Out<K>, &mut A) + Sync,
        end: impl Fn(&mut Out<K>, &mut A) + Sync,
    ) -> Result<(Shards<K>, Vec<u32>, Vec<A>)> {
        let batch = (4 * rayon::current_num_threads()).clamp(8, SHARDS);
        // The buffers' bytes at which the memory is asked about next.
        let every = self.watch.map_or(usize::MAX, |w| {
            usize::try_from(w.limit() / 64)
                .unwrap_or(usize::MAX)
                .max(4 << 20)
        });
        let mut ask_at = every;
        let offsets: Vec<usize> = layer
            .iter()
            .scan(0, |at, t| {
                let o = *at;
                *at += t.len();
                Some(o)
            })
            .collect();
        let mut next: Shards<K> = vec![Vec::new(); SHARDS];
        // The shards being built, in the buffers' form (packed keys where they fit).
        let mut packed: Vec<Vec<u32>> = vec![Vec::new(); SHARDS];
        let mut pairs: Vec<Vec<u64>> = vec![Vec::new(); SHARDS];
        let mut clean = vec![0usize; SHARDS];
        let mut accs = Vec::with_capacity(SHARDS);
        let bits = self.board.holes();
        let low = self.keys.low_bits();
        assert!(!tagged || low.is_some(), "tagged children need packed keys");
        // One unit's children per shard, the buffers kept from batch to batch.
        let mut outs: Vec<Out<K>> = (0..batch).map(|_| Out::new(self.keys)).collect();
        for (b, units) in layer.chunks(batch).enumerate() {
            let results: Vec<A> = units
                .par_iter()
                .zip(outs.par_iter_mut())
                .enumerate()
                .map(|(u, (unit, out))| {
                    let mut acc = A::default();
                    out.clear();
                    let at = offsets[b * batch + u];
                    for (i, &pos) in unit.iter().enumerate() {
                        f(pos, at + i, out, &mut acc);
                    }
                    end(out, &mut acc);
                    acc
                })
                .collect();
            let outs = &outs[..units.len()];
            next.par_iter_mut()
                .zip(packed.par_iter_mut())
                .zip(pairs.par_iter_mut())
                .zip(clean.par_iter_mut())
                .enumerate()
                .for_each(|(i, (((table, packed), pairs), clean))| match low {
                    _ if tagged => {
                        gather_pairs(pairs, outs.iter().map(|o| &o.tagged[i][..]), clean)
                    }
                    Some(low) => gather(packed, outs.iter().map(|o| &o.narrow[i][..]), clean, low),
                    None => gather(table, outs.iter().map(|o| &o.wide[i][..]), clean, bits),
                });
            accs.extend(results);
            let held = outs.iter().map(Out::bytes).sum::<usize>()
                + next
                    .iter()
                    .map(|t| t.capacity() * std::mem::size_of::<K>())
                    .sum::<usize>()
                + packed.iter().map(|t| t.capacity() * 4).sum::<usize>()
                + pairs.iter().map(|t| t.capacity() * 8).sum::<usize>();
            if held >= ask_at {
                self.check_resident()?;
                ask_at = held.saturating_add(every);
            }
        }
        drop(outs);
        // One hash table per task, reused: a fresh one per shard cost page faults.
        let payloads: Vec<Vec<u32>> = next
            .par_iter_mut()
            .zip(packed.par_iter_mut())
            .zip(pairs.par_iter_mut())
            .enumerate()
            .map_init(
                || (Vec::new(), Vec::new(), Vec::new()),
                |(slots, slots32, slots64), (i, ((t, p), pairs))| {
                    let mut payloads = Vec::new();
                    if tagged {
                        let packed = self.keys.0.expect("packed keys");
                        least_payloads(pairs, slots64);
                        (*t, payloads) = unpack_pairs(pairs, |k| packed.join(i, k), bits);
                        *pairs = Vec::new();
                    } else if let Some(packed) = self.keys.0 {
                        // Repeats out; the order comes after unpacking.
                        if (256..=DISTINCT_MAX).contains(&p.len()) {
                            drop_repeats(p, slots32);
                        } else {
                            radix_sort_dedup(p, packed.low_bits() as usize);
                        }
                        *t = p
                            .iter()
                            .map(|&x| K::from_u128(u128::from(packed.join(i, x))))
                            .collect();
                        *p = Vec::new();
                        radix_sort_dedup(t, bits);
                    } else {
                        distinct(t, bits, slots);
                    }
                    t.shrink_to_fit();
                    payloads
                },
            )
            .collect();
        Ok((next, payloads.concat(), accs))
    }

    /// Pass 1: the reachable positions, layer by layer, with each layer's (raw, reduced)
    /// counts.
    #[allow(clippy::type_complexity)]
    fn forward(
        &self,
        opts: &SolveOptions,
        bar: &indicatif::ProgressBar,
    ) -> Result<(Vec<Shards<K>>, Vec<(u64, u64)>)> {
        let mut first: Shards<K> = vec![Vec::new(); SHARDS];
        let start = self.transforms_canon_h(self.start);
        first[self.keys.shard(start)].push(start);
        let mut layers = vec![first];
        let mut counts = Vec::new();
        let mut held = 0u64;
        let (g, h) = (self.moves.group_order(), self.moves.subgroup_order());
        loop {
            let last = layers.last().expect("one layer");
            let (next, accs) = self.step(last, |pos, out, acc: &mut (u64, Vec<K>)| {
                let img = self.moves.images(pos, g);
                acc.0 += self.orbit_size(&img, pos) as u64;
                if g > h {
                    acc.1.push(*img[..g].iter().min().expect("identity"));
                }
                self.moves.each_jump(pos, |j| {
                    let c = self.moves.canonical_child(&img, j);
                    out.push(c);
                });
            })?;
            counts.push(Self::reduce_counts(last, accs, g > h));
            bar.inc(1);
            let n: usize = next.iter().map(|t| t.len()).sum();
            if n == 0 {
                break;
            }
            held += (n * std::mem::size_of::<K>()) as u64;
            if held > opts.max_memory {
                return Err(Error::Memory(format!(
                    "{} from {}: keeping the reachable positions of {} jumps needs more than {} \
                     (the limit). Raise --max-memory if the machine has the memory",
                    self.board.name(),
                    self.board.start_name(self.start.to_u128()),
                    layers.len(),
                    crate::memory::human(opts.max_memory)
                )));
            }
            layers.push(next);
        }
        Ok((layers, counts))
    }

    /// A layer's (raw, reduced) counts from its units' accumulators of (orbit sizes under
    /// `H`, canonical forms under the whole group when it is larger).
    fn reduce_counts(layer: &Shards<K>, accs: Vec<(u64, Vec<K>)>, larger: bool) -> (u64, u64) {
        let raw = accs.iter().map(|a| a.0).sum();
        if !larger {
            return (raw, layer.iter().map(|t| t.len() as u64).sum());
        }
        let mut reduced: Vec<K> = accs.into_iter().flat_map(|a| a.1).collect();
        reduced.par_sort_unstable();
        reduced.dedup();
        (raw, reduced.len() as u64)
    }

    fn transforms_canon_h(&self, pos: K) -> K {
        self.moves.canonical(pos)
    }

    /// Pass 2: the solvable positions of each forward layer.
    fn backward(
        &self,
        forward: &[Shards<K>],
        bar: &indicatif::ProgressBar,
    ) -> Result<Vec<Shards<K>>> {
        let last = forward.len() - 1;
        let mut layers: Vec<Shards<K>> = vec![vec![Vec::new(); SHARDS]; forward.len()];
        layers[last] = forward[last]
            .par_iter()
            .map(|t| t.iter().copied().filter(|&p| self.is_goal(p)).collect())
            .collect();
        for j in (0..last).rev() {
            let (parents, _) = self.step(&layers[j + 1], |q, out, _: &mut ()| {
                let img = self.moves.images(q, self.moves.subgroup_order());
                self.moves.each_unjump(q, |k| {
                    let c = self.moves.canonical_child(&img, k);
                    out.push(c);
                });
            })?;
            // Keep the parents that are reachable: a sorted intersection per shard.
            layers[j] = intersect(parents, &forward[j]);
            bar.inc(1);
        }
        Ok(layers)
    }

    /// Pass 3: `W` of every solvable position, aligned with the shards of `solvable`.
    fn wins(&self, solvable: &[Shards<K>]) -> Result<Vec<Vec<Vec<u128>>>> {
        let last = solvable.len() - 1;
        let top = solvable[last].iter().map(|t| vec![1; t.len()]).collect();
        self.wins_from(solvable, top)
    }

    /// `W` of every position of `solvable`, given `W` of its last layer (`top`): each
    /// position's `W` is the sum of its solvable children's.
    fn wins_from(
        &self,
        solvable: &[Shards<K>],
        top: Vec<Vec<u128>>,
    ) -> Result<Vec<Vec<Vec<u128>>>> {
        let down: Vec<&Shards<K>> = solvable.iter().rev().collect();
        let mut wins = self.sums(&down, top, &[], |pos, out| self.children(pos, out))?;
        wins.reverse();
        Ok(wins)
    }

    /// Sums along the layers `layers[0], layers[1], ...`: the value of a position of
    /// `layers[j]` is the sum of the values of its neighbours (`next` pushes their
    /// canonical forms) held by `layers[j - 1]`, starting from `first`, the values of
    /// `layers[0]`. The values come out aligned with the layers' shards. Both the `W` pass
    /// (from the goals down, over children) and the `N` pass (from the start up, over
    /// parents) are this. Where `links[j]` holds the [`Links`] of `layers[j]` (its
    /// neighbours in `layers[j - 1]`), the sums follow them, without a probe.
    fn sums(
        &self,
        layers: &[&Shards<K>],
        first: Vec<Vec<u128>>,
        links: &[Option<Links>],
        next: impl Fn(K, &mut Vec<K>) + Sync,
    ) -> Result<Vec<Vec<Vec<u128>>>> {
        let mut sums: Vec<Vec<Vec<u128>>> = Vec::with_capacity(layers.len());
        sums.push(first);
        for j in 1..layers.len() {
            if let Some(Some(l)) = links.get(j) {
                sums.push(l.sum(&sums[j - 1], 1)?);
                continue;
            }
            // The previous layer and its values, as hash tables: one probe per neighbour.
            let before: Vec<WinTable<K>> = layers[j - 1]
                .par_iter()
                .zip(sums[j - 1].par_iter())
                .map(|(keys, w)| WinTable::new(keys, w))
                .collect();
            let filter = KeyFilter::new(layers[j - 1].iter().flatten().copied());
            self.check_resident()?;
            let layer = layers[j]
                .par_iter()
                .map(|unit| {
                    let mut sum = vec![0u128; unit.len()];
                    probe(unit, &before, &filter, &self.keys, &next, |i, _, x| {
                        sum[i] = add(sum[i], x)?;
                        Ok(())
                    })?;
                    Ok(sum)
                })
                .collect::<Result<_>>()?;
            sums.push(layer);
        }
        Ok(sums)
    }

    /// (raw positions, positions up to the board's group) of a layer.
    fn layer_counts(&self, layer: &Shards<K>) -> (u64, u64) {
        let g = self.moves.group_order();
        let h = self.moves.subgroup_order();
        let (raw, mut reduced): (u64, Vec<K>) = layer
            .par_iter()
            .map(|unit| {
                let mut raw = 0u64;
                let mut reduced = Vec::new();
                for &pos in unit {
                    let img = self.moves.images(pos, g);
                    raw += self.orbit_size(&img, pos) as u64;
                    if g > h {
                        reduced.push(*img[..g].iter().min().expect("identity"));
                    }
                }
                (raw, reduced)
            })
            .reduce(
                || (0, Vec::new()),
                |(a, mut x), (b, y)| {
                    x.extend(y);
                    (a + b, x)
                },
            );
        if g == h {
            return (raw, layer.iter().map(|t| t.len() as u64).sum());
        }
        reduced.par_sort_unstable();
        reduced.dedup();
        (raw, reduced.len() as u64)
    }

    fn solvable(&self, opts: &SolveOptions) -> Result<Solvable> {
        let pegs = self.start.count_ones() as usize;
        let bar = progress::bar(2 * pegs as u64, "layers", opts.progress);
        let (forward, reach) = self.forward(opts, &bar)?;
        let solvable = self.backward(&forward, &bar)?;
        let wins = self.wins(&solvable)?;
        bar.finish_and_clear();
        let layers = reach
            .iter()
            .zip(&solvable)
            .enumerate()
            .map(|(jumps, (&(reachable, reachable_reduced), s))| {
                let (positions, positions_reduced) = self.layer_counts(s);
                SolvableLayer {
                    jumps,
                    positions,
                    positions_reduced,
                    reachable: Some(reachable),
                    reachable_reduced: Some(reachable_reduced),
                }
            })
            .collect();
        let start = self.transforms_canon_h(self.start);
        let w0 = self
            .contains(&solvable[0], start)
            .map_or(0, |at| wins[0][self.keys.shard(start)][at]);
        Ok(self.result(pegs, layers, w0))
    }

    /// The answer: the layers' counts and the winning sequences from the start.
    fn result(&self, pegs: usize, layers: Vec<SolvableLayer>, w0: u128) -> Solvable {
        Solvable {
            board: self.board.name().to_string(),
            start: self.board.start_name(self.start.to_u128()),
            finish: self.finish.name(self.board),
            start_pegs: pegs,
            layers,
            wins: w0,
        }
    }

    /// The goal positions (one peg in a goal hole) in the start's position class (no jump
    /// changes a position's class: [`crate::games::solve::Classes`]), canonical, as a layer.
    fn goals(&self) -> Shards<K> {
        let classes = crate::games::solve::Classes::new(self.board);
        let class = classes.of(self.start.to_u128());
        let mut layer: Shards<K> = vec![Vec::new(); SHARDS];
        for h in 0..self.board.holes() {
            let p = K::bit(h);
            if p & self.goal != K::zero() && classes.of(bit(h)) == class {
                let c = self.transforms_canon_h(p);
                layer[self.keys.shard(c)].push(c);
            }
        }
        for t in &mut layer {
            t.sort_unstable();
            t.dedup();
        }
        layer
    }

    /// The canonical children (`backward`: parents, by un-jumps) of a layer, and how many
    /// children `prune` ruled out.
    fn expand(
        &self,
        layer: &Shards<K>,
        backward: bool,
        prune: Option<&Pruner>,
    ) -> Result<(Shards<K>, u64)> {
        let h = self.moves.subgroup_order();
        let chunks = self.board.holes().div_ceil(8);
        let jumps = self.board.jumps().len();
        let (next, accs) = self.step(layer, |pos, out, acc: &mut (u64, Vec<K>)| {
            let img = self.moves.images(pos, h);
            let Some(p) = prune else {
                self.moves.each_move(pos, backward, |j| {
                    let c = self.moves.canonical_child(&img, j);
                    out.push(c);
                });
                return;
            };
            // Every child is written to `kids`, and only those kept are counted: no branch
            // on the cuts' answer ([`Pruner::keeps`]). A jump is legal from a position at
            // most once, so `kids` never holds more than the board's jumps.
            let (cut, kids) = acc;
            kids.resize(jumps, K::zero());
            let slack = p.slack(pos, chunks);
            let (mut n, mut kept) = (0, 0);
            self.moves.each_move(pos, backward, |j| {
                kids[kept] = self.moves.canonical_child(&img, j);
                kept += usize::from(p.keeps(&slack, j, backward));
                n += 1;
            });
            for &c in &kids[..kept] {
                out.push(c);
            }
            *cut += (n - kept) as u64;
        })?;
        Ok((next, accs.iter().map(|a| a.0).sum()))
    }

    /// [`Solver::expand`] with the order of jumps when the layer has `tags`
    /// ([`Solver::expand_ordered`]), plainly otherwise; the next layer's tags, if any.
    fn expand_with(
        &self,
        layer: &Shards<K>,
        tags: Option<&[u32]>,
        backward: bool,
        prune: Option<&Pruner>,
    ) -> Result<(Shards<K>, Option<Vec<u32>>, u64)> {
        match tags {
            Some(t) => self.expand_ordered(layer, t, backward, prune),
            None => {
                let (next, cut) = self.expand(layer, backward, prune)?;
                Ok((next, None, cut))
            }
        }
    }

    /// The tags of a first layer (a start, or the goals), when the order of jumps applies
    /// ([`JumpOrder`]: a board of at most 126 jumps, packed keys).
    fn first_tags(&self, layer: &Shards<K>) -> Option<Vec<u32>> {
        let order = self.order.as_ref()?;
        self.keys.0?;
        Some((0..size(layer) as u32).map(|r| order.start(r)).collect())
    }

    /// [`Solver::expand`] from a layer whose positions carry tags (`tags`, in the
    /// layer's order), skipping the jumps that [`JumpOrder`] shows to repeat a position:
    /// the same next layer, from fewer jumps (english d4's layer 15: 3.7 million jumps
    /// made and 2.8 million kept, instead of 9.5 and 7.2 million). Returns the next
    /// layer, its tags (`None` when its ranks would not fit a tag) and the children cut.
    fn expand_ordered(
        &self,
        layer: &Shards<K>,
        tags: &[u32],
        backward: bool,
        prune: Option<&Pruner>,
    ) -> Result<(Shards<K>, Option<Vec<u32>>, u64)> {
        let order = self.order.as_ref().expect("an order of jumps");
        let h = self.moves.subgroup_order();
        let chunks = self.board.holes().div_ceil(8);
        let jumps = self.board.jumps().len();
        let (next, mut payloads, accs) = self.step_at(
            layer,
            true,
            |pos, at, out, acc: &mut (u64, Vec<(K, u32)>)| {
                let tag = tags[at];
                let within = order.within(tag);
                let img = self.moves.images(pos, h);
                let Some(p) = prune else {
                    self.moves.each_move_within(pos, backward, within, |j| {
                        let (c, by) = self.moves.canonical_child_tagged(&img, j);
                        out.push_tagged(c, order.payload(tag, j, by));
                    });
                    return;
                };
                // As in `expand`: every child written, only those kept counted.
                let (cut, kids) = acc;
                kids.resize(jumps, (K::zero(), 0));
                let slack = p.slack(pos, chunks);
                let (mut n, mut kept) = (0, 0);
                self.moves.each_move_within(pos, backward, within, |j| {
                    let (c, by) = self.moves.canonical_child_tagged(&img, j);
                    kids[kept] = (c, order.payload(tag, j, by));
                    kept += usize::from(p.keeps(&slack, j, backward));
                    n += 1;
                });
                for &(c, payload) in &kids[..kept] {
                    out.push_tagged(c, payload);
                }
                *cut += (n - kept) as u64;
            },
            |_, _| {},
        )?;
        let tags = order.rank(&mut payloads).then_some(payloads);
        Ok((next, tags, accs.iter().map(|a| a.0).sum()))
    }

    /// The cuts ahead and behind ([`Solver::cuts`]), once [`Solver::meet`] found them.
    fn ahead(&self) -> Option<&Pruner> {
        self.cuts.get().and_then(|c| c[0].as_ref())
    }

    fn behind(&self) -> Option<&Pruner> {
        self.cuts.get().and_then(|c| c[1].as_ref())
    }

    /// Cuts for the meeting's two sides ([`crate::geometry::pagoda::sampled_cuts`]), from
    /// random games: forward from the start, positions that cannot reach a goal; backward
    /// from the goals, positions that no image of the start under `H` reaches. When the
    /// goal is the start's complement (`mirrored`; `H` then fixes the start, which is the
    /// goal's complement), the cuts behind are those ahead on complements: `p` is
    /// reachable only if its complement can reach the goal, so `w(full) - w(p)` is at
    /// least the threshold. A cut rules out only positions on no winning path, so the
    /// solvable positions, and `W`, are those of the sweep without cuts.
    fn pruners(&self, goals: &Shards<K>, mirrored: bool) -> (Option<Pruner>, Option<Pruner>) {
        use crate::geometry::pagoda::{Question, sampled_cuts};
        const SAMPLES: usize = 256;
        let last = self.start.count_ones() as usize - 1;
        // Several goals (`--finish any`): a cut must hold for every goal, so it rules out
        // little, and finding and testing the cuts cost more than they saved (english
        // `--finish any`: 6.31 s with cuts against 5.73 s without, docs/experiments.md).
        if last < 4 || goals.iter().flatten().count() > 1 {
            return (None, None);
        }
        let depths = (last / 4).max(1)..=(last - last / 2 + 1).min(last);
        // Every goal position, not only the canonical ones: a child is tested as it lies.
        let mut targets: Vec<Pegs> = Vec::new();
        for &g in goals.iter().flatten() {
            for s in &self.h {
                let t = self.board.transform(s, g.to_u128());
                if !targets.contains(&t) {
                    targets.push(t);
                }
            }
        }
        if targets.is_empty() {
            // No goal in the start's class: nothing is solvable, nothing to cut.
            return (None, None);
        }
        let mut starts: Vec<Pegs> = Vec::new();
        for s in &self.h {
            let t = self.board.transform(s, self.start.to_u128());
            if !starts.contains(&t) {
                starts.push(t);
            }
        }
        let max = MAX_BLOCKS * LANE;
        let start = self.start.to_u128();
        let (fwd, bwd) = rayon::join(
            || {
                let samples = crate::geometry::pagoda::random_games(
                    self.board,
                    &[start],
                    false,
                    depths.clone(),
                    SAMPLES,
                );
                let q = Question::Reach(targets.clone());
                sampled_cuts(self.board, &q, &samples, &self.h, max)
            },
            || {
                if mirrored {
                    return Vec::new();
                }
                let samples = crate::geometry::pagoda::random_games(
                    self.board,
                    &targets,
                    true,
                    depths.clone(),
                    SAMPLES,
                );
                let q = Question::ReachedFrom(starts.clone());
                sampled_cuts(self.board, &q, &samples, &self.h, max)
            },
        );
        // With `t` ([`Solver::mirror`]), `p` is reachable only if `complement of t⁻¹(p)`
        // can reach the goal: hole `t(i)` weighs minus what hole `i` weighs ahead.
        let bwd = if mirrored {
            let perm: Vec<usize> = match &self.mirror {
                Mirror::Through(t, _) => t.perm().to_vec(),
                _ => (0..self.board.holes()).collect(),
            };
            fwd.iter()
                .map(|c| {
                    let mut weights = vec![0; c.weights.len()];
                    for (i, &x) in c.weights.iter().enumerate() {
                        weights[perm[i]] = -x;
                    }
                    crate::geometry::pagoda::Cut {
                        weights,
                        threshold: c.threshold - c.weights.iter().sum::<i64>(),
                    }
                })
                .collect()
        } else {
            bwd
        };
        if trace() {
            eprintln!(
                "meet: {} forward and {} backward cuts from {SAMPLES} random games each",
                fwd.len(),
                bwd.len()
            );
        }
        (Pruner::new(self.board, &fwd), Pruner::new(self.board, &bwd))
    }

    /// The solvable positions of every layer by meeting in the middle: forward from the
    /// start and backward (un-jumps) from the goals, each side growing its smaller frontier,
    /// until the two reach the same layer `m`; there the solvable positions are the
    /// intersection, and from there they extend layer by layer: parents of solvable
    /// positions that the forward side holds towards the start, children that the backward
    /// side holds towards the goal.
    fn meet(&self, opts: &SolveOptions, bar: &indicatif::ProgressBar) -> Result<Meet<K>> {
        let pegs = self.start.count_ones() as usize;
        if pegs == 0 {
            return Ok(Meet::None(1));
        }
        let last = pegs - 1;
        let mut first: Shards<K> = vec![Vec::new(); SHARDS];
        let start = self.transforms_canon_h(self.start);
        first[self.keys.shard(start)].push(start);
        let goals = self.goals();
        let mirrored = self.mirrored(&goals);
        let clock = std::time::Instant::now();
        let (ahead, behind) = self.pruners(&goals, mirrored);
        if trace() {
            eprintln!("meet: cuts found in {:.3} s", clock.elapsed().as_secs_f64());
        }
        let _ = self.cuts.set([ahead, behind]);
        let (ahead, behind) = (self.ahead(), self.behind());
        if mirrored {
            return self.meet_mirrored(opts, bar, vec![first], ahead, Vec::new());
        }
        // fwd[j]: layer j; bwd[k]: layer last - k.
        let mut fwd = vec![first];
        let mut bwd = vec![goals];
        let mut held = 0u64;
        let mut empty = size(&fwd[0]) == 0 || size(&bwd[0]) == 0;
        // Tags for the order of jumps ([`JumpOrder`]) on both sides.
        let (mut ftags, mut btags) = (self.first_tags(&fwd[0]), self.first_tags(&bwd[0]));
        // The side to grow: the one whose next layer should be the smaller, guessed from
        // its last layer and its last growth ratio.
        let guess = |side: &[Shards<K>]| -> f64 {
            let n = size(&side[side.len() - 1]) as f64;
            match side.len() {
                1 => n,
                k => n * n / (size(&side[k - 2]).max(1) as f64),
            }
        };
        let middle_layer = last - last / 2;
        while !empty && fwd.len() - 1 < last - (bwd.len() - 1) {
            let forward = guess(&fwd) <= guess(&bwd);
            let (next, cut) = if forward {
                let (next, tags, cut) =
                    self.expand_with(fwd.last().expect("a layer"), ftags.as_deref(), false, ahead)?;
                ftags = tags;
                (next, cut)
            } else {
                let (next, tags, cut) =
                    self.expand_with(bwd.last().expect("a layer"), btags.as_deref(), true, behind)?;
                btags = tags;
                (next, cut)
            };
            empty = size(&next) == 0;
            if trace() {
                eprintln!(
                    "meet: {} layer {} holds {} positions, {cut} children cut ({:.2} s)",
                    if forward { "forward" } else { "backward" },
                    if forward { fwd.len() } else { last - bwd.len() },
                    size(&next),
                    clock.elapsed().as_secs_f64()
                );
            }
            held += (size(&next) * std::mem::size_of::<K>()) as u64;
            self.check_memory(held, opts, fwd.len() + bwd.len())?;
            if forward {
                fwd.push(next);
            } else {
                bwd.push(next);
            }
            bar.inc(1);
            // Once backward layer `last - d` is the complements of forward layer `d`, so is
            // every later backward layer (`Solver::mirrors_from`): the forward side alone
            // grows on. Short of the middle only, where that saves a side's growth.
            let d = if forward { fwd.len() } else { bwd.len() } - 1;
            if !empty
                && ahead.is_none()
                && behind.is_none()
                && d < fwd.len()
                && d < bwd.len()
                && fwd.len() < middle_layer
                && self.mirrors_from(&fwd[d], &bwd[d])?
            {
                if trace() {
                    eprintln!(
                        "meet: backward layer {} is the complements of forward layer {d}",
                        last - d
                    );
                }
                bwd.truncate(d);
                return self.meet_mirrored(opts, bar, fwd, None, bwd);
            }
        }
        let m = fwd.len() - 1;
        let middle = if empty {
            None
        } else {
            let f = fwd.pop().expect("the middle layer");
            let b = bwd.pop().expect("the middle layer");
            let s = intersect(f, &b);
            (size(&s) > 0).then_some(s)
        };
        let Some(middle) = middle else {
            drop((fwd, bwd));
            return Ok(Meet::None(self.depth(opts)?));
        };
        let (mut solvable, _) = self.back_to_start(middle, m, last, &mut fwd, false, bar)?;
        for j in m + 1..=last {
            let b = bwd.pop().expect("a backward layer");
            solvable[j] = intersect(self.expand(&solvable[j - 1], false, ahead)?.0, &b);
            bar.inc(1);
        }
        if trace() {
            eprintln!(
                "meet: met at layer {m}; {} solvable positions in all ({:.2} s)",
                solvable.iter().map(size).sum::<usize>(),
                clock.elapsed().as_secs_f64()
            );
        }
        Ok(Meet::Solvable(solvable))
    }

    /// Whether the goal is the start's complement up to a symmetry ([`Solver::mirror`]):
    /// one goal position in the start's class, whose complement some symmetry `t` (with
    /// `t H = H t` and `t` twice in `H`) maps to the start. A jump backwards on a position
    /// is a jump forwards on its complement, so the positions that reach the goal in `k`
    /// jumps are then the `t`-complements of those reachable in `k` jumps from the start
    /// (english centre to centre, `t` the identity; french d2 to d6, `t` the top-bottom
    /// flip), and the solvable positions `k` jumps before the end are the `t`-complements
    /// of those `k` jumps after the start.
    fn mirrored(&self, goals: &Shards<K>) -> bool {
        let mut all = goals.iter().flatten();
        !matches!(self.mirror, Mirror::No) && matches!((all.next(), all.next()), (Some(_), None))
    }

    /// Whether backward layer `last - d` (`bwd`) is the complements of forward layer `d`
    /// (`fwd`), for a meeting without cuts. A jump backwards on a position is a jump
    /// forwards on its complement, and complementing commutes with the symmetries, so the
    /// parents of the complements of a layer are the complements of its children: from
    /// there on every backward layer `last - j` is the complements of forward layer `j`.
    /// english `--finish any` mirrors from `d = 1`: the one-peg goals of the centre's
    /// class, un-jumped once, are the complements of the centre start's children.
    fn mirrors_from(&self, fwd: &Shards<K>, bwd: &Shards<K>) -> Result<bool> {
        let full = K::from_u128(self.board.full());
        Ok(size(fwd) == size(bwd) && self.images_of(fwd, |pos| full ^ pos)? == *bwd)
    }

    /// The canonical `t`-complements of a layer's positions ([`Solver::mirror_image`]),
    /// as a layer.
    fn complements(&self, layer: &Shards<K>) -> Result<Shards<K>> {
        self.images_of(layer, |pos| self.mirror_image(pos))
    }

    /// The canonical forms of `f` of a layer's positions, as a layer.
    fn images_of(&self, layer: &Shards<K>, f: impl Fn(K) -> K + Sync) -> Result<Shards<K>> {
        Ok(self
            .step(layer, |pos, out, _: &mut ()| {
                out.push(self.transforms_canon_h(f(pos)));
            })?
            .0)
    }

    /// The solvable layers `0..=m` from the solvable middle layer `m`: each earlier layer is
    /// the forward layer (popped from `fwd`) cut to the positions with a jump into the next
    /// solvable one. The layers after `m`, up to `last`, are left empty for the caller.
    /// With `linked`, also returns for each layer `j` in `1..=m` its [`Links`] to layer
    /// `j - 1`: the parents of a solvable position that the forward layer holds are its
    /// solvable parents, found by one probe each ([`Places`]), so that the `N` pass
    /// ([`Solver::paths`]) sums along them without another probe. (Every reachable parent
    /// of a solvable position lies on a winning path, so no cut removed it from the forward
    /// layer.) Without, each layer is the forward one intersected with the canonical
    /// parents of the next solvable one, which needs no table of the forward layer.
    #[allow(clippy::type_complexity)]
    fn back_to_start(
        &self,
        middle: Shards<K>,
        m: usize,
        last: usize,
        fwd: &mut Vec<Shards<K>>,
        linked: bool,
        bar: &indicatif::ProgressBar,
    ) -> Result<(Vec<Shards<K>>, Vec<Option<Links>>)> {
        let mut solvable: Vec<Shards<K>> = vec![Vec::new(); last + 1];
        let mut links: Vec<Option<Links>> = (0..=m).map(|_| None).collect();
        solvable[m] = middle;
        for j in (0..m).rev() {
            let f = fwd.pop().expect("a forward layer");
            if linked && self.links_pay(&solvable[j + 1], &f) {
                let (s, l) = self.linked_parents(&solvable[j + 1], f);
                solvable[j] = s;
                links[j + 1] = Some(l);
            } else {
                let parents = self.expand(&solvable[j + 1], true, self.behind())?.0;
                solvable[j] = intersect(parents, &f);
            }
            bar.inc(1);
        }
        Ok((solvable, links))
    }

    /// Whether the back pass from solvable layer `layer` into forward layer `f` should
    /// record [`Links`]: when the table of `f` ([`Places`]) fits in [`Solver::link_cache`]
    /// and `layer` holds at least an eighth as many positions as `f`. Otherwise the
    /// probes into a table of every position of `f` cost more than sorting the parents
    /// and the `N` pass's probes into the smaller solvable layer (english d1 to d1, whose
    /// solvable layers hold 2% of the forward ones: 0.40 s without links against 0.47 s
    /// with; d3 to d3, 64 MB tables: 2.8 s against 3.2 s; french d2 to d6: 58 s either
    /// way, 3.4 GB against 4.8 GB; d4, 16 MB tables and a quarter solvable: 0.49 s with
    /// links against 0.53 s without).
    fn links_pay(&self, layer: &Shards<K>, f: &Shards<K>) -> bool {
        Places::bytes(f) <= self.link_cache && 8 * size(layer) >= size(f)
    }

    /// The positions of forward layer `f` that are parents of some position of `layer`,
    /// and the [`Links`] of `layer` to them.
    fn linked_parents(&self, layer: &Shards<K>, f: Shards<K>) -> (Shards<K>, Links) {
        let packed = self.keys.0.expect("links need packed keys");
        let places = Places::new(&f, packed);
        let hit: Vec<AtomicBool> = (0..size(&f)).map(|_| AtomicBool::new(false)).collect();
        let mut units: Vec<(Vec<u32>, Vec<u32>)> = layer
            .par_iter()
            .map(|unit| {
                let mut starts = vec![0u32; unit.len() + 1];
                let mut to = Vec::with_capacity(8 * unit.len());
                locate(
                    unit,
                    &places,
                    packed,
                    |pos, out| self.parents(pos, out),
                    |i, at| {
                        starts[i + 1] += 1;
                        to.push(at);
                        hit[at as usize].store(true, Ordering::Relaxed);
                    },
                );
                for i in 0..unit.len() {
                    starts[i + 1] += starts[i];
                }
                (starts, to)
            })
            .collect();
        drop(places);
        // The solvable positions keep the forward layer's order; `rank` renumbers them.
        let lens: Vec<usize> = f.iter().map(Vec::len).collect();
        let hit = split_by(&hit, &lens);
        let kept: Vec<u32> = hit
            .par_iter()
            .map(|h| h.iter().filter(|x| x.load(Ordering::Relaxed)).count() as u32)
            .collect();
        let first: Vec<u32> = kept
            .iter()
            .scan(0, |n, &k| {
                *n += k;
                Some(*n - k)
            })
            .collect();
        let mut rank = vec![0u32; lens.iter().sum()];
        let solvable: Shards<K> = f
            .into_par_iter()
            .zip(hit.into_par_iter())
            .zip(split_by_mut(&mut rank, &lens).into_par_iter())
            .zip(first.into_par_iter().zip(kept))
            .map(|(((t, h), r), (mut n, k))| {
                let mut out = Vec::with_capacity(k as usize);
                for ((x, h), r) in t.into_iter().zip(h).zip(r.iter_mut()) {
                    *r = n;
                    if h.load(Ordering::Relaxed) {
                        out.push(x);
                        n += 1;
                    }
                }
                out
            })
            .collect();
        units.par_iter_mut().for_each(|(_, to)| {
            for t in to.iter_mut() {
                *t = rank[*t as usize];
            }
        });
        (solvable, Links(units))
    }

    /// [`Solver::meet`] when the backward side is the forward side complemented: from the
    /// goal on when the goal is the start's complement ([`Solver::mirrored`], `tail`
    /// empty), or from backward layer `last - d` on, `tail` holding backward layers `last`
    /// down to `last - d + 1` ([`Solver::mirrors_from`]). The forward side alone grows
    /// (from the layers of `fwd`), to the middle layer `m` (half the jumps, rounded up);
    /// there the solvable positions are those of layer `m` whose complements are in layer
    /// `last - m`; they extend towards the start as in [`Solver::meet`], and each layer `j`
    /// after the middle, up to `last - d`, is the complements of the solvable layer
    /// `last - j`. Without `tail` only the layers up to the middle are returned
    /// ([`Meet::Half`]); with it the last `d` layers are the children of the one before
    /// that `tail` holds.
    fn meet_mirrored(
        &self,
        opts: &SolveOptions,
        bar: &indicatif::ProgressBar,
        mut fwd: Vec<Shards<K>>,
        prune: Option<&Pruner>,
        mut tail: Vec<Shards<K>>,
    ) -> Result<Meet<K>> {
        let last = self.start.count_ones() as usize - 1;
        let m = last - last / 2;
        let d = tail.len();
        let clock = std::time::Instant::now();
        let mut held = 0u64;
        // A game of an odd number of jumps: the solvable layer `last - m`, just before the
        // middle, is found from that forward layer alone ([`Solver::meetings`]), and the
        // middle is its complements (between `d` and `last - d`, a solvable layer `j` is
        // the complements of solvable layer `last - j`).
        let odd = m >= 1 && last - m == m - 1 && last - m >= d;
        let grow_to = if odd { m - 1 } else { m };
        // Tags for the order of jumps ([`JumpOrder`]), from the start on, while the ranks
        // fit.
        let mut tags = if fwd.len() == 1 {
            self.first_tags(&fwd[0])
        } else {
            None
        };
        while fwd.len() - 1 < grow_to {
            let (next, next_tags, cut) =
                self.expand_with(fwd.last().expect("a layer"), tags.as_deref(), false, prune)?;
            tags = next_tags;
            if trace() {
                eprintln!(
                    "meet: forward layer {} holds {} positions, {cut} children cut ({:.2} s)",
                    fwd.len(),
                    size(&next),
                    clock.elapsed().as_secs_f64()
                );
            }
            if size(&next) == 0 {
                drop(fwd);
                return Ok(Meet::None(self.depth(opts)?));
            }
            held += (size(&next) * std::mem::size_of::<K>()) as u64;
            self.check_memory(held, opts, fwd.len())?;
            fwd.push(next);
            bar.inc(1);
        }
        // A half meeting of an odd number of jumps keeps no middle layer: it is the
        // complements of the solvable layer `last - m` ([`Solver::unmirror`]), and the
        // wins and the counts come from that layer ([`Solver::wins_mirrored`]).
        let (below, middle) = if odd {
            let below = self.meetings(&fwd.pop().expect("layer last - m"), tags.as_deref())?;
            bar.inc(2);
            let middle = if d > 0 {
                Some(self.complements(&below)?)
            } else {
                None
            };
            (Some(below), middle)
        } else {
            // Layer `last - m` is the middle itself.
            let f = fwd.pop().expect("the middle layer");
            let mirror = self.complements(&f)?;
            (None, Some(intersect(f, &mirror)))
        };
        let found = middle.as_ref().or(below.as_ref()).map_or(0, size);
        if trace() {
            eprintln!(
                "meet: middle layer {m} holds {found} solvable positions ({:.2} s)",
                clock.elapsed().as_secs_f64()
            );
        }
        if found == 0 {
            drop(fwd);
            return Ok(Meet::None(self.depth(opts)?));
        }
        // Links for the `N` pass of a half meeting, unless the table of the largest
        // forward layer (about four times its positions' bytes) could pass the limit;
        // then layer by layer where they pay ([`Solver::links_pay`]).
        let linked = d == 0
            && self.link_cache > 0
            && self.keys.0.is_some()
            && held < u64::from(u32::MAX)
            && held.saturating_mul(4) <= opts.max_memory;
        let (mut solvable, links) = match below {
            Some(below) => {
                let (mut s, l) = self.back_to_start(below, m - 1, last, &mut fwd, linked, bar)?;
                if let Some(middle) = middle {
                    s[m] = middle;
                }
                (s, l)
            }
            None => {
                let middle = middle.expect("an even number of jumps");
                self.back_to_start(middle, m, last, &mut fwd, linked, bar)?
            }
        };
        if d == 0 {
            solvable.truncate(last / 2 + 1);
        } else {
            for j in m + 1..=last {
                solvable[j] = if last - j >= d {
                    self.complements(&solvable[last - j])?
                } else {
                    let next = self.expand(&solvable[j - 1], false, prune)?.0;
                    intersect(next, &tail.pop().expect("a backward layer"))
                };
                bar.inc(1);
            }
        }
        if trace() {
            eprintln!(
                "meet: the backward side mirrors the forward side from layer {}; met at layer \
                 {m}; {} solvable positions {} ({:.2} s)",
                last - d,
                solvable.iter().map(size).sum::<usize>(),
                if d == 0 {
                    "up to layer last / 2"
                } else {
                    "in all"
                },
                clock.elapsed().as_secs_f64()
            );
        }
        Ok(if d == 0 {
            Meet::Half(solvable, last, links)
        } else {
            Meet::Solvable(solvable)
        })
    }

    /// The solvable positions of forward layer `last - m` when a game has an odd number
    /// of jumps and the backward side mirrors the forward side: a position `q` of the
    /// layer is solvable when the complement of `q` is reachable, a child of a position
    /// `p` of the same layer. (The same jump then takes `q` to the complement of `p`.)
    /// With a symmetry `t` ([`Solver::mirror`]) the complements are `t`-complements, and the
    /// children those of `t(q)` ([`Solver::mirror_parent`]).
    /// Each child's complement is found in canonical form from the parent's images
    /// ([`MoveTable::largest_child`]) and kept only if a filter of the layer may hold it,
    /// then the few kept are intersected with the layer.
    ///
    /// With the layer's `tags` ([`JumpOrder`]; not through a symmetry other than the
    /// identity) only the children that [`JumpOrder::within`] lets through are made:
    /// every reachable child is still made at least once, and a solvable position's
    /// ancestors pass the cuts, so the positions found are the same (english d4: 4.8
    /// million children instead of 12.5 million).
    fn meetings(&self, layer: &Shards<K>, tags: Option<&[u32]>) -> Result<Shards<K>> {
        let full = K::from_u128(self.board.full());
        let h = self.moves.subgroup_order();
        let tags = match self.mirror {
            Mirror::Through(..) => None,
            _ => tags.zip(self.order.as_ref()),
        };
        let filter = KeyFilter::new(layer.iter().flatten().copied());
        // No cuts: with the filter a child costs one probe, less than the cuts' test. The
        // probes wait for memory, so a unit lists a few hundred keys, asking for each one's
        // word of the filter, before it tests them.
        let test = |keys: &mut Vec<K>, out: &mut Out<K>| {
            for &q in keys.iter() {
                if filter.may_hold(q) {
                    out.push(q);
                }
            }
            keys.clear();
        };
        let (found, _, _) = self.step_at(
            layer,
            false,
            |pos, at, out, pending: &mut Vec<K>| {
                let pos = self.mirror_parent(pos);
                let img = self.moves.images(pos, h);
                let mut take = |j| {
                    let q = full ^ self.moves.largest_child(&img, j);
                    filter.prefetch(q);
                    pending.push(q);
                };
                match tags {
                    Some((t, o)) => self.moves.each_jump_within(pos, o.within(t[at]), take),
                    None => self.moves.each_jump(pos, &mut take),
                };
                if pending.len() >= 256 {
                    test(pending, out);
                }
            },
            |out, pending| test(pending, out),
        )?;
        Ok(intersect(found, layer))
    }

    /// The layers of [`Meet::Half`] up to the middle layer `last - last / 2`, which a game
    /// of an odd number of jumps leaves out: the complements of layer `last / 2`.
    fn with_middle(&self, mut half: Vec<Shards<K>>, last: usize) -> Result<Vec<Shards<K>>> {
        if half.len() <= last - last / 2 {
            let c = self.complements(&half[last / 2])?;
            half.push(c);
        }
        Ok(half)
    }

    /// Every solvable layer from [`Meet::Half`]: the layers after `last / 2` are the
    /// complements of those as far before the end.
    fn unmirror(&self, mut half: Vec<Shards<K>>, last: usize) -> Result<Vec<Shards<K>>> {
        for j in half.len()..=last {
            let c = self.complements(&half[last - j])?;
            half.push(c);
        }
        Ok(half)
    }

    /// Pushes the canonical children of `pos`. The `W` and `N` passes take every child
    /// or parent, without the cuts: one that a cut rules out is not solvable, so the
    /// neighbouring layer does not hold it, and one probe for it costs less than testing
    /// every neighbour against the cuts (english d4's `N` pass: 0.14 s against 0.18 s).
    fn children(&self, pos: K, out: &mut Vec<K>) {
        self.neighbours(pos, false, out);
    }

    /// Pushes the canonical parents of `pos` (un-jumps), as [`Solver::children`].
    fn parents(&self, pos: K, out: &mut Vec<K>) {
        self.neighbours(pos, true, out);
    }

    /// [`Solver::parents`] (`backward`) or [`Solver::children`].
    fn neighbours(&self, pos: K, backward: bool, out: &mut Vec<K>) {
        let img = self.moves.images(pos, self.moves.subgroup_order());
        self.moves.each_move(pos, backward, |j| {
            out.push(self.moves.canonical_child(&img, j))
        });
    }

    /// `N` of every position of `layers` (solvable layers `0..`, in the start's orbit
    /// under `H` first): the jump sequences from the start to it, `N(c) = sum of N(p)` over
    /// its parents. Every reachable parent of a solvable position is solvable, so the
    /// solvable layers hold them all.
    /// Where `links` holds a layer's [`Links`], its sums follow them instead.
    fn paths(&self, layers: &[Shards<K>], links: &[Option<Links>]) -> Result<Vec<Vec<Vec<u128>>>> {
        let up: Vec<&Shards<K>> = layers.iter().collect();
        let first = layers[0].iter().map(|t| vec![1; t.len()]).collect();
        self.sums(&up, first, links, |pos, out| self.parents(pos, out))
    }

    /// `W` of the middle layer `m` of [`Meet::Half`] (the last of `half`), aligned with
    /// its shards: a game from `p` to the goal is, complemented and reversed, a game from
    /// the goal's complement (the start, which `H` then fixes) to the complement of `p`,
    /// so `W(p) = N(complement of p)`, found in layer `last - m` of `n` ([`Solver::paths`]
    /// of at least layers `0..=last - m`).
    fn middle_wins(&self, half: &[Shards<K>], last: usize, n: &[Vec<u128>]) -> Vec<Vec<u128>> {
        let m = half.len() - 1;
        let other: Vec<WinTable<K>> = half[last - m]
            .par_iter()
            .zip(n.par_iter())
            .map(|(keys, w)| WinTable::new(keys, w))
            .collect();
        half[m]
            .par_iter()
            .map(|unit| {
                unit.iter()
                    .map(|&pos| {
                        let c = self.transforms_canon_h(self.mirror_image(pos));
                        other[self.keys.shard(c)].get(c).unwrap_or(0)
                    })
                    .collect()
            })
            .collect()
    }

    /// `W` of the start and of its solvable children (canonical, layer 1) when the goal is
    /// the start's complement ([`Meet::Half`], `last >= 2`) and `H` fixes the start (see
    /// [`Solver::table`]), without `W` of the layers in between: what a hint from a start
    /// needs. [`Solver::paths`] is split by the orbit of the first jump: lane `c` of a
    /// position counts the jump sequences from the orbit of child `c` under `H` to it (`H`
    /// fixes the start, so it maps such sequences onto each other, and the sum over the
    /// lanes is `N`). As in [`Solver::wins_mirrored`], the
    /// wins through the orbit of child `c` are the sum over the middle layer of lane `c`
    /// times `W`, each orbit counted by its size; divided by the size of `c`'s orbit, they
    /// are `W(c)`. `half` must hold the middle layer ([`Solver::with_middle`]); where
    /// `links` holds a layer's [`Links`], the lanes are summed along them, without a probe.
    fn first_wins_mirrored(
        &self,
        half: &[Shards<K>],
        last: usize,
        links: &[Option<Links>],
    ) -> Result<(u128, Vec<(K, u128)>)> {
        let m = half.len() - 1;
        let h = self.moves.subgroup_order();
        let children: Vec<K> = half[1].iter().flatten().copied().collect();
        let lanes = children.len();
        let lane_sums = |f: &[Vec<u128>]| -> Result<Vec<Vec<u128>>> {
            f.iter()
                .map(|t| {
                    t.chunks(lanes.max(1))
                        .map(|l| l.iter().try_fold(0, |a, &b| add(a, b)))
                        .collect()
                })
                .collect()
        };
        // f[shard][i * lanes + c]: lane c of position i of the shard.
        let mut f: Vec<Vec<u128>> = half[1].iter().map(|t| vec![0; t.len() * lanes]).collect();
        let mut c = 0;
        for (shard, t) in half[1].iter().enumerate() {
            for i in 0..t.len() {
                f[shard][i * lanes + c] = 1;
                c += 1;
            }
        }
        // N of layer last - m (at least 1, at most m), for W of the middle layer.
        let mut other = if last - m == 1 {
            Some(lane_sums(&f)?)
        } else {
            None
        };
        for j in 2..=m {
            if let Some(Some(l)) = links.get(j) {
                let next = l.sum(&f, lanes)?;
                if j == last - m {
                    other = Some(lane_sums(&next)?);
                }
                f = next;
                continue;
            }
            let above: Vec<WinTable<K>> = half[j - 1]
                .par_iter()
                .map(|keys| {
                    let at: Vec<u128> = (0..keys.len() as u128).collect();
                    WinTable::new(keys, &at)
                })
                .collect();
            let filter = KeyFilter::new(half[j - 1].iter().flatten().copied());
            let prev = &f;
            let next: Vec<Vec<u128>> = half[j]
                .par_iter()
                .map(|unit| {
                    let mut out = vec![0u128; unit.len() * lanes];
                    // A parent's value in `above` is its index in its shard.
                    probe(
                        unit,
                        &above,
                        &filter,
                        &self.keys,
                        |pos, keys| self.parents(pos, keys),
                        |i, c, at| {
                            let from = &prev[self.keys.shard(c)][at as usize * lanes..][..lanes];
                            for (s, &x) in out[i * lanes..][..lanes].iter_mut().zip(from) {
                                *s = add(*s, x)?;
                            }
                            Ok(())
                        },
                    )?;
                    Ok(out)
                })
                .collect::<Result<_>>()?;
            if j == last - m {
                other = Some(lane_sums(&next)?);
            }
            f = next;
        }
        let other = other.expect("last - m is between 1 and m");
        let w = self.middle_wins(half, last, &other);
        let orbit = |pos: K| self.orbit_size(&self.moves.images(pos, h), pos) as u128;
        let through: Vec<u128> = half[m]
            .par_iter()
            .zip(f.par_iter().zip(w.par_iter()))
            .map(|(unit, (lanes_of, wins))| {
                let mut acc = vec![0u128; lanes];
                for (i, (&pos, &after)) in unit.iter().zip(wins).enumerate() {
                    if after == 0 {
                        continue;
                    }
                    let size = orbit(pos);
                    for (a, &before) in acc.iter_mut().zip(&lanes_of[i * lanes..(i + 1) * lanes]) {
                        let term = size
                            .checked_mul(before)
                            .and_then(|x| x.checked_mul(after))
                            .ok_or_else(|| {
                                Error::Overflow(format!("{before} * {after} exceeds u128"))
                            })?;
                        *a = add(*a, term)?;
                    }
                }
                Ok(acc)
            })
            .try_reduce(
                || vec![0; lanes],
                |a, b| a.iter().zip(&b).map(|(&x, &y)| add(x, y)).collect(),
            )?;
        let w0 = through.iter().try_fold(0, |a, &b| add(a, b))?;
        let children = children
            .into_iter()
            .zip(through)
            .map(|(c, t)| (c, t / orbit(c)))
            .collect();
        Ok((w0, children))
    }

    /// The winning sequences from the start when the goal is the start's complement and
    /// `H` fixes the start, from the solvable layers `0..=k` (`k = last / 2`, [`Meet::Half`])
    /// and their `N`. A game from `p` to the goal is, complemented and reversed, a game from
    /// the start to the complement of `p`, so `W(p) = N(complement of p)`. With an even
    /// number of jumps, a game passes through one position `q` of the middle layer `k`:
    /// the wins are the sum over that layer of `N(q) * W(q)`. With an odd number, it passes
    /// through one position `r` of the middle layer `k + 1`, the complement of one `q` of
    /// layer `k`: `W(r) = N(q)`, and `N(r)` is the sum of `N` over the complements of
    /// `q`'s children (an un-jump of `r` is the complement of a jump of `q`, and a
    /// reachable parent of `r` is solvable, so layer `k` holds it). Either way each `q`
    /// counts once per position of its orbit (a complement's orbit is as large), and
    /// both factors are looked up in layer `k`, one probe per child: no middle layer, no
    /// `N` of it.
    fn wins_mirrored(
        &self,
        half: &[Shards<K>],
        last: usize,
        links: &[Option<Links>],
    ) -> Result<u128> {
        let k = half.len() - 1;
        debug_assert_eq!(k, last / 2);
        let clock = std::time::Instant::now();
        let n = self.paths(half, links)?;
        if trace() {
            eprintln!(
                "wins: N of {} layers ({:.2} s)",
                half.len(),
                clock.elapsed().as_secs_f64()
            );
        }
        let full = K::from_u128(self.board.full());
        let h = self.moves.subgroup_order();
        let even = last == 2 * k;
        let tables: Vec<WinTable<K>> = half[k]
            .par_iter()
            .zip(n[k].par_iter())
            .map(|(keys, n)| WinTable::new(keys, n))
            .collect();
        let filter = KeyFilter::new(half[k].iter().flatten().copied());
        let total = half[k]
            .par_iter()
            .zip(n[k].par_iter())
            .map(|(unit, counts)| {
                // The other factor of each position: `W(q)`, or `N` of the middle's `r`.
                let mut other = vec![0u128; unit.len()];
                probe(
                    unit,
                    &tables,
                    &filter,
                    &self.keys,
                    |q, out| {
                        if even {
                            out.push(self.transforms_canon_h(self.mirror_image(q)));
                        } else {
                            let q = self.mirror_parent(q);
                            let img = self.moves.images(q, h);
                            self.moves.each_jump(q, |j| {
                                out.push(full ^ self.moves.largest_child(&img, j))
                            });
                        }
                    },
                    |i, _, x| {
                        other[i] = add(other[i], x)?;
                        Ok(())
                    },
                )?;
                let mut total = 0u128;
                for ((&q, &before), &after) in unit.iter().zip(counts).zip(&other) {
                    let size = self.orbit_size(&self.moves.images(q, h), q);
                    let term = (size as u128)
                        .checked_mul(before)
                        .and_then(|x| x.checked_mul(after))
                        .ok_or_else(|| {
                            Error::Overflow(format!("{before} * {after} exceeds u128"))
                        })?;
                    total = add(total, term)?;
                }
                Ok(total)
            })
            .try_reduce(|| 0, add);
        if trace() {
            eprintln!(
                "wins: the middle's N and W and the total ({:.2} s)",
                clock.elapsed().as_secs_f64()
            );
        }
        total
    }

    /// The number of layers of reachable positions (the longest game plus one), by a
    /// forward sweep that keeps only its frontier: what `solvable` reports as its layers
    /// when no position is solvable.
    fn depth(&self, opts: &SolveOptions) -> Result<usize> {
        let mut layer: Shards<K> = vec![Vec::new(); SHARDS];
        let start = self.transforms_canon_h(self.start);
        layer[self.keys.shard(start)].push(start);
        // No cuts: with the order of jumps every layer is the plain one, from fewer jumps.
        let mut tags = self.first_tags(&layer);
        let mut depth = 1;
        loop {
            let (next, next_tags, _) = self.expand_with(&layer, tags.as_deref(), false, None)?;
            tags = next_tags;
            let n: usize = next.iter().map(Vec::len).sum();
            if n == 0 {
                return Ok(depth);
            }
            self.check_memory((n * std::mem::size_of::<K>()) as u64, opts, depth)?;
            layer = next;
            depth += 1;
        }
    }

    fn check_memory(&self, held: u64, opts: &SolveOptions, layers: usize) -> Result<()> {
        if held <= opts.max_memory {
            return self.check_resident();
        }
        Err(Error::Memory(format!(
            "{} from {}: keeping {layers} layers of positions needs more than {} (the limit). \
             Raise --max-memory if the machine has the memory",
            self.board.name(),
            self.board.start_name(self.start.to_u128()),
            crate::memory::human(opts.max_memory)
        )))
    }

    /// [`solvable`] by meeting in the middle, without the reachable counts.
    fn solvable_meet(&self, opts: &SolveOptions) -> Result<Solvable> {
        let pegs = self.start.count_ones() as usize;
        let bar = progress::bar(2 * pegs as u64, "layers", opts.progress);
        let (solvable, w0, last) = match self.meet(opts, &bar)? {
            Meet::Solvable(solvable) => {
                let wins = self.wins(&solvable)?;
                let start = self.transforms_canon_h(self.start);
                let w0 = self
                    .contains(&solvable[0], start)
                    .map_or(0, |at| wins[0][self.keys.shard(start)][at]);
                let last = solvable.len() - 1;
                (solvable, w0, last)
            }
            // `solvable` reduces under symmetries that fix the start (`fix_start`).
            Meet::Half(half, last, links) => {
                let w0 = self.wins_mirrored(&half, last, &links)?;
                (half, w0, last)
            }
            Meet::None(layers) => (vec![vec![Vec::new(); SHARDS]; layers], 0, layers - 1),
        };
        bar.finish_and_clear();
        // Layers past those kept (a mirrored meeting) are the complements of layers as far
        // before the end: complementing commutes with every symmetry, so they count alike.
        let clock = std::time::Instant::now();
        let counts: Vec<(u64, u64)> = solvable.iter().map(|s| self.layer_counts(s)).collect();
        if trace() {
            eprintln!(
                "solvable: layer counts ({:.2} s)",
                clock.elapsed().as_secs_f64()
            );
        }
        let layers = (0..=last)
            .map(|jumps| {
                let (positions, positions_reduced) = counts
                    .get(jumps)
                    .copied()
                    .unwrap_or_else(|| counts[last - jumps]);
                SolvableLayer {
                    jumps,
                    positions,
                    positions_reduced,
                    reachable: None,
                    reachable_reduced: None,
                }
            })
            .collect();
        Ok(self.result(pegs, layers, w0))
    }

    /// The solvable positions from the start and their `W`, each layer as (canonical
    /// position, `W`) sorted by position: what [`HintCache`] keeps. Without `whole`, a
    /// mirrored meeting ([`Meet::Half`]) keeps the start and its children only, their `W`
    /// from [`Solver::first_wins_mirrored`] when `H` fixes the start (no `W` of the layers
    /// between; otherwise, or with fewer than three jumps in a game, the layers up to the
    /// middle, their `W` from the middle layer's: there `W(p)` is `N` of the complement of
    /// `p`, [`Solver::wins_mirrored`]).
    fn table(&self, opts: &SolveOptions, whole: bool) -> Result<Vec<Vec<(Pegs, u128)>>> {
        let pegs = self.start.count_ones() as usize;
        if pegs == 0 {
            return Err(Error::input("the position has no peg"));
        }
        let bar = progress::bar(2 * pegs as u64, "layers", opts.progress);
        let met = match self.meet(opts, &bar)? {
            Meet::Half(half, last, _) if whole => Meet::Solvable(self.unmirror(half, last)?),
            Meet::Half(half, last, links) => Meet::Half(self.with_middle(half, last)?, last, links),
            met => met,
        };
        // Lanes by first jump need `H` to fix the start (it need not for a hint: `H` fixes
        // only the goal, and a goal `any` makes `H` the whole group).
        let h = self.moves.subgroup_order();
        let fixed = self.moves.images(self.start, h)[..h]
            .iter()
            .all(|&x| x == self.start);
        if let Meet::Half(half, last, links) = &met
            && *last >= 2
            && fixed
        {
            let (w0, children) = self.first_wins_mirrored(half, *last, links)?;
            let start = self.transforms_canon_h(self.start);
            let mut one: Vec<(Pegs, u128)> = children
                .into_iter()
                .map(|(k, w)| (k.to_u128(), w))
                .collect();
            one.sort_unstable();
            bar.finish_and_clear();
            return Ok(vec![vec![(start.to_u128(), w0)], one]);
        }
        let solved = match met {
            Meet::Half(half, last, links) => {
                let n = self.paths(&half[..=last - (half.len() - 1)], &links)?;
                let top = self.middle_wins(&half, last, &n[last - (half.len() - 1)]);
                let wins = self.wins_from(&half, top)?;
                Some((half, wins))
            }
            Meet::Solvable(solvable) => {
                let wins = self.wins(&solvable)?;
                Some((solvable, wins))
            }
            Meet::None(_) => None,
        };
        let table = match solved {
            Some((solvable, wins)) => solvable
                .into_par_iter()
                .zip(wins)
                .map(|(keys, wins)| {
                    let mut layer: Vec<(Pegs, u128)> = keys
                        .iter()
                        .zip(&wins)
                        .flat_map(|(k, w)| k.iter().zip(w).map(|(&k, &w)| (Bits::to_u128(k), w)))
                        .collect();
                    layer.sort_unstable();
                    layer
                })
                .collect(),
            None => Vec::new(),
        };
        bar.finish_and_clear();
        Ok(table)
    }
}

/// A solvable set and the winning continuations of each of its positions, kept for
/// [`hint`]s: built once from a position (the start of a game), it answers at once for
/// every position reachable from there, in a file if wished ([`HintCache::write`],
/// [`HintCache::read`]). Positions are kept in canonical form under the symmetries that
/// fix the goal.
///
/// ```
/// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let cache = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
/// let h = cache.hint(&b, b.default_start()).unwrap();
/// assert_eq!(h.wins, 29_760); // published: tri:5 from a1
/// // After the best jump, the cache still knows the answer.
/// let next = b.default_start() ^ h.jumps[0].jump.mask();
/// assert_eq!(cache.hint(&b, next).unwrap().wins, h.jumps[0].wins);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HintCache {
    /// Which board and goal: [`HintCache::identity`].
    identity: String,
    /// The position the cache was built from.
    start: Pegs,
    goal: Pegs,
    /// Layer `j`: the solvable positions `j` jumps after the start, sorted, with their `W`.
    layers: Vec<Vec<(Pegs, u128)>>,
}

/// The first line of a hint cache file.
const CACHE_MAGIC: &str = "pegsol hint cache 1";

impl HintCache {
    /// The solvable positions from `position` (ending on `finish`) and their wins.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(c.hint(&b, b.default_start()).unwrap().wins, 29_760); // published
    /// ```
    pub fn build(
        board: &Board,
        position: Pegs,
        finish: Finish,
        opts: &SolveOptions,
    ) -> Result<HintCache> {
        Self::build_layers(board, position, finish, opts, true)
    }

    /// [`HintCache::build`]; without `whole`, when the goal is the position's complement,
    /// only the layers up to the middle (enough for the position itself and its children).
    fn build_layers(
        board: &Board,
        position: Pegs,
        finish: Finish,
        opts: &SolveOptions,
        whole: bool,
    ) -> Result<HintCache> {
        let layers = with_pool(opts, || {
            if board.holes() <= 64 {
                Solver::<u64>::new(board, position, finish, false)
                    .within(opts.max_memory)
                    .table(opts, whole)
            } else {
                Solver::<u128>::new(board, position, finish, false)
                    .within(opts.max_memory)
                    .table(opts, whole)
            }
        })?;
        Ok(HintCache {
            identity: Self::identity(board, finish),
            start: position,
            goal: finish.mask(board),
            layers,
        })
    }

    /// The board (name, holes, lattice, jumps) and the goal a cache belongs to, as one line.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// assert!(HintCache::identity(&b, Finish::Any).starts_with("board tri:5, finish any"));
    /// ```
    pub fn identity(board: &Board, finish: Finish) -> String {
        format!(
            "board {}, finish {}, {} holes on the {} lattice at {:?}, {} jumps",
            board.name(),
            finish.name(board),
            board.holes(),
            board.lattice().name(),
            board.cells(),
            board.jumps().len()
        )
    }

    /// Solvable positions kept.
    pub fn len(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }

    /// Every solvable position kept, layer by layer, in canonical form under the symmetries
    /// that fix the goal (the other members of their orbits are solvable too).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(c.positions().count(), c.len());
    /// // The first is the start (in canonical form): as many pegs.
    /// assert_eq!(c.positions().next().map(u128::count_ones), Some(b.default_start().count_ones()));
    /// ```
    pub fn positions(&self) -> impl Iterator<Item = Pegs> + '_ {
        self.layers.iter().flatten().map(|&(k, _)| k)
    }

    /// Whether no position is solvable from the cache's start.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `W` of `pos` when the cache knows it: `Some(0)` for a position reachable from the
    /// cache's start (it has a solvable parent... or none, as far as the cache can tell, see
    /// [`HintCache::hint`]) is never returned; `None` when `pos` is not a kept position.
    fn wins_of(&self, board: &Board, pos: Pegs) -> Option<u128> {
        let start_pegs = self.start.count_ones();
        let pegs = pos.count_ones();
        if pegs > start_pegs {
            return None;
        }
        let layer = self.layers.get((start_pegs - pegs) as usize)?;
        let key = board
            .symmetries()
            .iter()
            .filter(|s| board.transform(s, self.goal) == self.goal)
            .map(|s| board.transform(s, pos))
            .min()
            .unwrap_or(pos);
        layer
            .binary_search_by(|&(k, _)| k.cmp(&key))
            .ok()
            .map(|i| layer[i].1)
    }

    /// The hint for `position` when it is one of the cache's solvable positions (reachable
    /// from the cache's start and winnable): then every solvable child is kept too, and a
    /// child not kept loses. `None` for any other position (lost, or not reachable from the
    /// cache's start): [`hint`] answers those.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// let h = c.hint(&b, b.default_start()).unwrap();
    /// // The two first jumps are mirror images: 14,880 wins each.
    /// assert_eq!(h.jumps.iter().map(|j| j.wins).collect::<Vec<_>>(), [14_880, 14_880]);
    /// let won = c.hint(&b, 1).unwrap(); // one peg, in a1: a finished win
    /// assert_eq!((won.wins, won.jumps.len()), (1, 0));
    /// ```
    pub fn hint(&self, board: &Board, position: Pegs) -> Option<Hint> {
        let wins = self.wins_of(board, position)?;
        let mut jumps: Vec<JumpWins> = board
            .jumps()
            .iter()
            .filter(|j| j.is_legal(position))
            .map(|&jump| JumpWins {
                jump,
                wins: self.wins_of(board, position ^ jump.mask()).unwrap_or(0),
            })
            .collect();
        jumps.sort_by(|a, b| b.wins.cmp(&a.wins).then(a.jump.cmp(&b.jump)));
        Some(Hint { wins, jumps })
    }

    /// The cache as bytes: a text header (magic line, identity, start, number of layers),
    /// then per layer its length and (position, `W`) pairs as little-endian `u128`s.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{CACHE_MAGIC}\n{}\nstart {} goal {} layers {}\n",
            self.identity,
            self.start,
            self.goal,
            self.layers.len()
        )
        .into_bytes();
        out.reserve(self.len() * 32 + self.layers.len() * 8);
        for layer in &self.layers {
            out.extend_from_slice(&(layer.len() as u64).to_le_bytes());
            for &(k, w) in layer {
                out.extend_from_slice(&k.to_le_bytes());
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out
    }

    /// Reads a cache written by [`HintCache::to_bytes`], refusing one of another board or
    /// goal than `board` and `finish`, or a damaged one.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(HintCache::from_bytes(&c.to_bytes(), &b, Finish::Any).unwrap(), c);
    /// let a1 = Finish::Hole(b.hole("a1").unwrap());
    /// assert!(HintCache::from_bytes(&c.to_bytes(), &b, a1).is_err());
    /// ```
    pub fn from_bytes(bytes: &[u8], board: &Board, finish: Finish) -> Result<HintCache> {
        let damaged = || Error::input("not a pegsol hint cache, or a damaged one");
        let mut rest = bytes;
        let mut line = || -> Result<String> {
            let end = rest.iter().position(|&b| b == b'\n').ok_or_else(damaged)?;
            let text = std::str::from_utf8(&rest[..end]).map_err(|_| damaged())?;
            rest = &rest[end + 1..];
            Ok(text.to_string())
        };
        if line()? != CACHE_MAGIC {
            return Err(damaged());
        }
        let identity = line()?;
        let want = Self::identity(board, finish);
        if identity != want {
            let short = |s: &str| s.split(", ").take(2).collect::<Vec<_>>().join(", ");
            return Err(Error::input(format!(
                "the hint cache is for {}, not {}{}",
                short(&identity),
                short(&want),
                if short(&identity) == short(&want) {
                    " (the board file changed)"
                } else {
                    ""
                }
            )));
        }
        let numbers: Vec<u128> = line()?
            .split(' ')
            .skip(1)
            .step_by(2)
            .map(|x| x.parse().map_err(|_| damaged()))
            .collect::<Result<_>>()?;
        let [start, goal, count] = numbers[..] else {
            return Err(damaged());
        };
        let mut layers = Vec::new();
        for _ in 0..count {
            let n = u64::from_le_bytes(
                rest.get(..8)
                    .ok_or_else(damaged)?
                    .try_into()
                    .expect("8 bytes"),
            ) as usize;
            rest = &rest[8..];
            let body = rest
                .get(..n.checked_mul(32).ok_or_else(damaged)?)
                .ok_or_else(damaged)?;
            let word = |c: &[u8]| u128::from_le_bytes(c.try_into().expect("16 bytes"));
            let layer: Vec<(Pegs, u128)> = body
                .chunks_exact(32)
                .map(|c| (word(&c[..16]), word(&c[16..])))
                .collect();
            if !layer.is_sorted() {
                return Err(damaged());
            }
            layers.push(layer);
            rest = &rest[n * 32..];
        }
        if !rest.is_empty() {
            return Err(damaged());
        }
        Ok(HintCache {
            identity,
            start,
            goal,
            layers,
        })
    }

    /// Writes the cache to `path` (through a temporary file, renamed at the end).
    pub fn write(&self, path: &std::path::Path) -> Result<()> {
        let fail =
            |e: std::io::Error| Error::input(format!("cannot write {}: {e}", path.display()));
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => std::path::Path::new("."),
        };
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(fail)?;
        std::io::Write::write_all(&mut tmp, &self.to_bytes()).map_err(fail)?;
        tmp.persist(path).map_err(|e| fail(e.error))?;
        Ok(())
    }

    /// Reads the cache in `path` ([`HintCache::from_bytes`]).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("tri5-any.cache");
    /// c.write(&path).unwrap();
    /// assert_eq!(HintCache::read(&path, &b, Finish::Any).unwrap(), c);
    /// let other = Board::from_spec("tri:6").unwrap();
    /// assert!(HintCache::read(&path, &other, Finish::Any).is_err());
    /// ```
    pub fn read(path: &std::path::Path, board: &Board, finish: Finish) -> Result<HintCache> {
        let bytes = std::fs::read(path)
            .map_err(|e| Error::input(format!("cannot read {}: {e}", path.display())))?;
        Self::from_bytes(&bytes, board, finish)
            .map_err(|e| Error::input(format!("{}: {e}", path.display())))
    }
}

/// Whether `PEGSOL_TRACE` is set: the passes then report their layers on stderr.
fn trace() -> bool {
    std::env::var_os("PEGSOL_TRACE").is_some_and(|v| !v.is_empty() && v != "0")
}

/// How the goal mirrors the start ([`Solver::with_mirror`]).
enum Mirror<K: Bits> {
    /// No symmetry suits: `--finish any`, or a goal hole whose complement no symmetry
    /// with the properties of [`Solver::with_mirror`] takes to the start.
    No,
    /// The goal's complement is the start up to `H` (english d4 to d4).
    Complement,
    /// The goal's complement is `t` of the start up to `H`, `t` as a permutation and as a
    /// transform of positions (french d2 to d6: the top-bottom flip).
    Through(Symmetry, Transforms<K>),
}

/// What meeting in the middle finds.
enum Meet<K> {
    /// The solvable positions of every layer from the start's to the goal's.
    Solvable(Vec<Shards<K>>),
    /// The goal is the start's complement ([`Solver::meet_mirrored`]): the solvable
    /// positions of layers `0..=last / 2` only, and the last layer's number; layer
    /// `j > last / 2` is the complements of layer `last - j` ([`Solver::unmirror`], and
    /// [`Solver::with_middle`] for the middle layer of an odd number of jumps). Then the
    /// [`Links`] of each layer to the one before, where [`Solver::back_to_start`] recorded
    /// them.
    Half(Vec<Shards<K>>, usize, Vec<Option<Links>>),
    /// No position is solvable; the number of layers of reachable positions.
    None(usize),
}

/// Appends a batch's buffers of one shard (`parts`) to the shard's table, and removes the
/// repeats once they could bloat the memory (`clean`: the table's length when it last had
/// none; keys below `2^bits`).
fn gather<'a, T: Bits>(
    table: &mut Vec<T>,
    parts: impl Iterator<Item = &'a [T]> + Clone,
    clean: &mut usize,
    bits: usize,
) {
    table.reserve(parts.clone().map(<[T]>::len).sum());
    for part in parts {
        table.extend_from_slice(part);
    }
    if table.len() > 4 * *clean + 65536 {
        radix_sort_dedup(table, bits);
        *clean = table.len();
    }
}

/// [`gather`] of packed keys with their payloads: the repeats of a key go, keeping the
/// smallest payload, once they could bloat the memory.
fn gather_pairs<'a>(
    table: &mut Vec<u64>,
    parts: impl Iterator<Item = &'a [u64]> + Clone,
    clean: &mut usize,
) {
    table.reserve(parts.clone().map(<[u64]>::len).sum());
    for part in parts {
        table.extend_from_slice(part);
    }
    if table.len() > 4 * *clean + 65536 {
        table.sort_unstable();
        table.dedup_by_key(|x| *x >> 32);
        *clean = table.len();
    }
}

/// Keeps one entry per key (the high half of each entry) of `v`, the one of smallest
/// payload (the low half), in no particular order: by a hash table in `slots` up to
/// [`DISTINCT_MAX`] entries, as [`drop_repeats`], else by sorting.
fn least_payloads(v: &mut Vec<u64>, slots: &mut Vec<u64>) {
    if v.len() > DISTINCT_MAX {
        v.sort_unstable();
        v.dedup_by_key(|x| *x >> 32);
        return;
    }
    let size = (2 * v.len()).next_power_of_two().max(2);
    let shift = 64 - size.trailing_zeros();
    let mask = size - 1;
    slots.clear();
    slots.resize(size, 0);
    // A slot holds a key and the place of its entry in `v`, plus one; zero when empty.
    let mut n = 0;
    for i in 0..v.len() {
        let e = v[i];
        let key = e >> 32;
        let mut at = (key.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> shift) as usize;
        loop {
            let x = slots[at];
            if x == 0 {
                slots[at] = (key << 32 | n as u64) + 1;
                v[n] = e;
                n += 1;
                break;
            }
            if (x - 1) >> 32 == key {
                let k = ((x - 1) & 0xffff_ffff) as usize;
                v[k] = v[k].min(e);
                break;
            }
            at = (at + 1) & mask;
        }
    }
    v.truncate(n);
}

/// The positions of `pairs` (packed keys and payloads, one entry a key), unpacked by
/// `join` and sorted, and their payloads in the same order.
fn unpack_pairs<K: Bits>(
    pairs: &[u64],
    join: impl Fn(u32) -> u64,
    holes: usize,
) -> (Vec<K>, Vec<u32>) {
    let room = 64 - holes;
    if holes <= 40 && (pairs.len() as u64) < 1u64 << room {
        // The position above its index in `pairs`: one sort of plain integers.
        let mut v: Vec<u64> = pairs
            .iter()
            .enumerate()
            .map(|(i, &e)| join((e >> 32) as u32) << room | i as u64)
            .collect();
        super::order::radix_sort_high(&mut v, room, holes);
        let index = |x: u64| (x & ((1 << room) - 1)) as usize;
        let keys = v
            .iter()
            .map(|&x| K::from_u128(u128::from(x >> room)))
            .collect();
        let payloads = v.iter().map(|&x| pairs[index(x)] as u32).collect();
        return (keys, payloads);
    }
    let mut v: Vec<(u64, u32)> = pairs
        .iter()
        .map(|&e| (join((e >> 32) as u32), e as u32))
        .collect();
    v.sort_unstable();
    (
        v.iter()
            .map(|&(k, _)| K::from_u128(u128::from(k)))
            .collect(),
        v.iter().map(|&(_, p)| p).collect(),
    )
}

/// How a position names its shard of a layer. On boards of up to 40 holes, by
/// [`Packed`]: a layer being built keeps 32-bit keys in its buffers, half the bytes of the
/// positions, and unpacks the distinct ones at the end ([`Solver::step`]). Larger boards
/// hash the whole position ([`Bits::shard`]) and keep it.
#[derive(Clone, Copy, Debug)]
struct Keys(Option<Packed>);

impl Keys {
    fn new(holes: usize) -> Keys {
        Keys(Packed::new(holes, SHARDS))
    }

    /// Bits of a packed key, if keys are packed.
    fn low_bits(&self) -> Option<usize> {
        self.0.map(|p| p.low_bits() as usize)
    }

    #[inline]
    fn shard<K: Bits>(&self, pos: K) -> usize {
        match self.0 {
            Some(p) => p.split(pos.to_u128() as u64).0,
            None => pos.shard(SHARDS),
        }
    }
}

/// One unit's children, per shard: packed ([`Keys`]) where the board allows.
struct Out<K> {
    keys: Keys,
    narrow: Vec<Vec<u32>>,
    wide: Vec<Vec<K>>,
    /// Packed keys in the high half, payloads ([`JumpOrder::payload`]) in the low half.
    tagged: Vec<Vec<u64>>,
}

impl<K: Bits> Out<K> {
    fn new(keys: Keys) -> Self {
        Out {
            keys,
            narrow: vec![Vec::new(); SHARDS],
            wide: vec![Vec::new(); SHARDS],
            tagged: vec![Vec::new(); SHARDS],
        }
    }

    fn clear(&mut self) {
        self.narrow.iter_mut().for_each(Vec::clear);
        self.wide.iter_mut().for_each(Vec::clear);
        self.tagged.iter_mut().for_each(Vec::clear);
    }

    /// The bytes its buffers hold.
    fn bytes(&self) -> usize {
        self.narrow.iter().map(|v| v.capacity() * 4).sum::<usize>()
            + self
                .wide
                .iter()
                .map(|v| v.capacity() * std::mem::size_of::<K>())
                .sum::<usize>()
            + self.tagged.iter().map(|v| v.capacity() * 8).sum::<usize>()
    }

    #[inline]
    fn push(&mut self, pos: K) {
        match self.keys.0 {
            Some(p) => {
                let (shard, key) = p.split(pos.to_u128() as u64);
                self.narrow[shard].push(key);
            }
            None => self.wide[pos.shard(SHARDS)].push(pos),
        }
    }

    /// [`Out::push`] of a child with its payload ([`JumpOrder::payload`]); packed keys
    /// only.
    #[inline]
    fn push_tagged(&mut self, pos: K, payload: u32) {
        let p = self.keys.0.expect("packed keys");
        let (shard, key) = p.split(pos.to_u128() as u64);
        self.tagged[shard].push(u64::from(key) << 32 | u64::from(payload));
    }
}

/// The number of positions of a layer.
fn size<K>(layer: &Shards<K>) -> usize {
    layer.iter().map(Vec::len).sum()
}

/// The keys of `a` that `b` holds, shard by shard (both sorted).
fn intersect<K: Bits>(a: Shards<K>, b: &Shards<K>) -> Shards<K> {
    a.into_par_iter()
        .zip(b.par_iter())
        .map(|(mut p, f)| {
            let mut k = 0;
            p.retain(|x| {
                while k < f.len() && f[k] < *x {
                    k += 1;
                }
                k < f.len() && f[k] == *x
            });
            p.shrink_to_fit();
            p
        })
        .collect()
}

/// The most keys [`distinct`] hashes: a table of 2^17 slots, 1 MB of `u64` keys, within a
/// core's 2 MB second-level cache. (french d2 to d6 hashing shards of millions of keys took
/// more than twice as long as sorting them.)
const DISTINCT_MAX: usize = 1 << 16;

/// Sorts `v` (keys below `2^bits`) and removes its repeats. Between 256 and
/// [`DISTINCT_MAX`] keys, the repeats go first through a hash table in `slots` (reused
/// from call to call; linear probing, at most half full; zero, the empty board, is handled
/// aside), so that only the distinct keys are radix-sorted. A shard of a layer being built
/// repeats its keys: english's layer 15 is reached by 7.2 million kept jumps from layer 14
/// for 1.24 million positions. The table of one shard stays within the caches, so a repeat
/// costs one probe, where sorting it costs three passes.
fn distinct<K: Bits>(v: &mut Vec<K>, bits: usize, slots: &mut Vec<K>) {
    if (256..=DISTINCT_MAX).contains(&v.len()) {
        drop_repeats(v, slots);
    }
    radix_sort_dedup(v, bits);
}

/// The hash table of [`distinct`]: keeps the first of each key, in place.
fn drop_repeats<K: Bits>(v: &mut Vec<K>, slots: &mut Vec<K>) {
    let size = (2 * v.len()).next_power_of_two();
    let shift = 64 - size.trailing_zeros();
    let mask = size - 1;
    slots.clear();
    slots.resize(size, K::zero());
    let mut zero = false;
    let mut n = 0;
    for i in 0..v.len() {
        let k = v[i];
        if k == K::zero() {
            zero = true;
            continue;
        }
        // Another multiplier than the shard hash's: one shard's keys spread out.
        let mut at = (k.fold64().wrapping_mul(0xD6E8_FEB8_6659_FD93) >> shift) as usize;
        loop {
            let x = slots[at];
            if x == k {
                break;
            }
            if x == K::zero() {
                slots[at] = k;
                v[n] = k;
                n += 1;
                break;
            }
            at = (at + 1) & mask;
        }
    }
    v.truncate(n);
    if zero {
        v.push(K::zero());
    }
}

/// A set of keys as one bit per hash ([`KeyFilter::may_hold`]: every key added, and at
/// most about one other key in 16): a cheap first test of membership, before a sorted
/// intersection.
struct KeyFilter {
    bits: Vec<u64>,
    shift: u32,
}

impl KeyFilter {
    fn new<K: Bits>(keys: impl Iterator<Item = K> + Clone) -> Self {
        let n = keys.clone().count();
        // 16 bits per key, at least one word.
        let size = (16 * n).next_power_of_two().max(64);
        let mut f = KeyFilter {
            bits: vec![0; size / 64],
            shift: 64 - size.trailing_zeros(),
        };
        for k in keys {
            let i = f.index(k);
            f.bits[i / 64] |= 1 << (i % 64);
        }
        f
    }

    #[inline]
    fn index<K: Bits>(&self, key: K) -> usize {
        // Another multiplier than the shard hash's and the win table's.
        (key.fold64().wrapping_mul(0xA076_1D64_78BD_642F) >> self.shift) as usize
    }

    /// Asks for the word of `key` ahead of [`KeyFilter::may_hold`].
    #[inline]
    fn prefetch<K: Bits>(&self, key: K) {
        crate::count::prefetch(self.bits.as_ptr().wrapping_add(self.index(key) / 64));
    }

    /// Whether `key` may have been added: always when it was.
    #[inline]
    fn may_hold<K: Bits>(&self, key: K) -> bool {
        let i = self.index(key);
        self.bits[i / 64] >> (i % 64) & 1 == 1
    }
}

/// Nonzero keys and their `W`: open addressing with linear probing, at most half full,
/// zero marking an empty slot (no position without pegs is stored). A value is kept as two
/// `u64` halves beside its key, so that an entry is 24 bytes with 64-bit keys and a probe,
/// hit or miss, touches one entry.
struct WinTable<K> {
    slots: Vec<(K, [u64; 2])>,
    shift: u32,
}

impl<K: Bits> WinTable<K> {
    fn new(keys: &[K], wins: &[u128]) -> Self {
        let size = (2 * keys.len()).next_power_of_two().max(16);
        let mut t = WinTable {
            slots: vec![(K::zero(), [0; 2]); size],
            shift: 64 - size.trailing_zeros(),
        };
        for (&k, &w) in keys.iter().zip(wins) {
            let mut i = t.index(k);
            while t.slots[i].0 != K::zero() {
                i = (i + 1) & (size - 1);
            }
            t.slots[i] = (k, [w as u64, (w >> 64) as u64]);
        }
        t
    }

    #[inline]
    fn index(&self, key: K) -> usize {
        // A multiplier other than the shard hash's, so that one shard's keys spread out.
        (key.fold64().wrapping_mul(0xD6E8_FEB8_6659_FD93) >> self.shift) as usize
    }

    /// Asks for the line of `key`'s first slot ([`probe`]).
    #[inline]
    fn prefetch(&self, key: K) {
        crate::count::prefetch(self.slots.as_ptr().wrapping_add(self.index(key)));
    }

    #[inline]
    fn get(&self, key: K) -> Option<u128> {
        let mask = self.slots.len() - 1;
        let mut i = self.index(key);
        loop {
            let (k, [lo, hi]) = self.slots[i];
            if k == key {
                return Some(u128::from(lo) | u128::from(hi) << 64);
            }
            if k == K::zero() {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
}

/// For each position `unit[i]`, looks up in `tables` (one per shard) the keys that
/// `keys(pos, out)` pushes (its canonical children or parents), and calls
/// `found(i, key, value)` for each key held. The keys of a block of positions are listed
/// first and sifted through `filter` (a [`KeyFilter`] of every key of `tables`), each
/// filter word asked for before it is tested; then the table slot of each key kept is
/// fetched [`PROBE_AHEAD`] keys before it is probed. The tables of english's middle layers
/// are larger than the caches, and probes that waited for their line one at a time were
/// most of the time of the `W` and `N` passes; about half the keys are not in the table
/// (english d4's `N` pass: 4.9 million of 10.4 million parents), and the filter, a
/// twelfth of the table's size, turns most of those away from the caches.
fn probe<K: Bits>(
    unit: &[K],
    tables: &[WinTable<K>],
    filter: &KeyFilter,
    keys_of: &Keys,
    mut keys: impl FnMut(K, &mut Vec<K>),
    mut found: impl FnMut(usize, K, u128) -> Result<()>,
) -> Result<()> {
    const BLOCK: usize = 32;
    let mut buf: Vec<K> = Vec::with_capacity(BLOCK * 16);
    let mut owner: Vec<u32> = Vec::with_capacity(BLOCK * 16);
    for (b, block) in unit.chunks(BLOCK).enumerate() {
        buf.clear();
        owner.clear();
        for (i, &pos) in block.iter().enumerate() {
            let from = buf.len();
            keys(pos, &mut buf);
            for &k in &buf[from..] {
                filter.prefetch(k);
            }
            owner.resize(buf.len(), (b * BLOCK + i) as u32);
        }
        // Keep the keys that the filter may hold, in place.
        let mut kept = 0;
        for n in 0..buf.len() {
            let (k, i) = (buf[n], owner[n]);
            buf[kept] = k;
            owner[kept] = i;
            kept += usize::from(filter.may_hold(k));
        }
        buf.truncate(kept);
        for &k in buf.iter().take(PROBE_AHEAD) {
            tables[keys_of.shard(k)].prefetch(k);
        }
        for (n, (&k, &i)) in buf.iter().zip(&owner).enumerate() {
            if let Some(&later) = buf.get(n + PROBE_AHEAD) {
                tables[keys_of.shard(later)].prefetch(later);
            }
            if let Some(x) = tables[keys_of.shard(k)].get(k) {
                found(i as usize, k, x)?;
            }
        }
    }
    Ok(())
}

/// `v` cut into consecutive slices of lengths `lens`.
fn split_by<'a, T>(mut v: &'a [T], lens: &[usize]) -> Vec<&'a [T]> {
    lens.iter()
        .map(|&n| {
            let (part, rest) = v.split_at(n);
            v = rest;
            part
        })
        .collect()
}

/// [`split_by`] for a mutable slice.
fn split_by_mut<'a, T>(mut v: &'a mut [T], lens: &[usize]) -> Vec<&'a mut [T]> {
    lens.iter()
        .map(|&n| {
            let (part, rest) = std::mem::take(&mut v).split_at_mut(n);
            v = rest;
            part
        })
        .collect()
}

/// Where each position of a layer is, by its packed key ([`Keys`]): per shard, open
/// addressing with linear probing, at most half full, every shard's table in one
/// allocation. A slot holds the packed key (high half) and the position's index in the
/// layer, flattened shard by shard, plus one (low half); zero marks an empty slot.
struct Places {
    slots: Vec<u64>,
    /// Per shard: its first slot and the shift of its hash.
    shards: Vec<(usize, u32)>,
}

impl Places {
    /// The places of `layer`'s positions (fewer than `u32::MAX`).
    fn new<K: Bits>(layer: &Shards<K>, packed: Packed) -> Places {
        debug_assert!(size(layer) < u32::MAX as usize);
        let mut shards = Vec::with_capacity(layer.len());
        let mut total = 0;
        for t in layer {
            let n = Self::slots(t.len());
            shards.push((total, 64 - n.trailing_zeros()));
            total += n;
        }
        let mut slots = vec![0u64; total];
        let lens: Vec<usize> = shards
            .iter()
            .zip(shards.iter().skip(1).map(|s| s.0).chain([total]))
            .map(|(s, end)| end - s.0)
            .collect();
        let mut base = 0u32;
        let parts: Vec<_> = split_by_mut(&mut slots, &lens)
            .into_iter()
            .zip(layer)
            .zip(&shards)
            .map(|((part, t), &(_, shift))| {
                base += t.len() as u32;
                (part, t, base - t.len() as u32, shift)
            })
            .collect();
        parts.into_par_iter().for_each(|(part, t, base, shift)| {
            let mask = part.len() - 1;
            for (i, &pos) in t.iter().enumerate() {
                let key = packed.split(pos.to_u128() as u64).1;
                let mut at = Self::index(key, shift);
                while part[at] != 0 {
                    at = (at + 1) & mask;
                }
                part[at] = u64::from(key) << 32 | u64::from(base + i as u32 + 1);
            }
        });
        Places { slots, shards }
    }

    /// The slots of each shard of `layer`: at least twice its positions, a power of two.
    fn slots(t: usize) -> usize {
        (2 * t).next_power_of_two().max(16)
    }

    /// The bytes of the places of `layer`.
    fn bytes<K>(layer: &Shards<K>) -> usize {
        layer.iter().map(|t| Self::slots(t.len())).sum::<usize>() * 8
    }

    #[inline]
    fn index(key: u32, shift: u32) -> usize {
        (u64::from(key).wrapping_mul(0xD6E8_FEB8_6659_FD93) >> shift) as usize
    }

    #[inline]
    fn prefetch(&self, (shard, key): (usize, u32)) {
        let (first, shift) = self.shards[shard];
        crate::count::prefetch(
            self.slots
                .as_ptr()
                .wrapping_add(first + Self::index(key, shift)),
        );
    }

    /// The index of the position of packed key `(shard, key)`, if the layer holds it.
    #[inline]
    fn get(&self, (shard, key): (usize, u32)) -> Option<u32> {
        let (first, shift) = self.shards[shard];
        let mask = (1usize << (64 - shift)) - 1;
        let mut i = Self::index(key, shift);
        loop {
            let s = self.slots[first + i];
            if s == 0 {
                return None;
            }
            if (s >> 32) as u32 == key {
                return Some(s as u32 - 1);
            }
            i = (i + 1) & mask;
        }
    }
}

/// The solvable parents of the positions of a solvable layer, per shard of the layer:
/// `(starts, to)`, position `i`'s parents being `to[starts[i]..starts[i + 1]]`, each an
/// index into the solvable layer before (flattened shard by shard), once per un-jump
/// ([`Solver::back_to_start`]).
struct Links(Vec<(Vec<u32>, Vec<u32>)>);

impl Links {
    /// Per shard of the layer, each position's `lanes` values: the sums of its parents'
    /// (`before`, per shard of the layer before, `lanes` values a position).
    fn sum(&self, before: &[Vec<u128>], lanes: usize) -> Result<Vec<Vec<u128>>> {
        let prev: Vec<u128> = before.concat();
        self.0
            .par_iter()
            .map(|(starts, to)| {
                let mut out = vec![0u128; (starts.len() - 1) * lanes];
                for (i, w) in starts.windows(2).enumerate() {
                    let sum = &mut out[i * lanes..][..lanes];
                    for &t in &to[w[0] as usize..w[1] as usize] {
                        let from = &prev[t as usize * lanes..][..lanes];
                        for (s, &x) in sum.iter_mut().zip(from) {
                            *s = add(*s, x)?;
                        }
                    }
                }
                Ok(out)
            })
            .collect()
    }
}

/// For each position `unit[i]`, looks up in `places` the keys that `keys(pos, out)`
/// pushes, and calls `found(i, index)` for each key held, in the order of the positions.
/// As [`probe`], the keys of a block of positions are listed first, and the slot of each
/// is fetched [`PROBE_AHEAD`] keys before it is looked up. (No [`KeyFilter`] first: about
/// half the keys are held, and building the filter cost more than it saved.)
fn locate<K: Bits>(
    unit: &[K],
    places: &Places,
    packed: Packed,
    mut keys: impl FnMut(K, &mut Vec<K>),
    mut found: impl FnMut(usize, u32),
) {
    const BLOCK: usize = 32;
    let mut buf: Vec<K> = Vec::with_capacity(BLOCK * 16);
    let mut split: Vec<((usize, u32), u32)> = Vec::with_capacity(BLOCK * 16);
    for (b, block) in unit.chunks(BLOCK).enumerate() {
        split.clear();
        for (i, &pos) in block.iter().enumerate() {
            buf.clear();
            keys(pos, &mut buf);
            let owner = (b * BLOCK + i) as u32;
            split.extend(
                buf.iter()
                    .map(|&k| (packed.split(k.to_u128() as u64), owner)),
            );
        }
        for &(k, _) in split.iter().take(PROBE_AHEAD) {
            places.prefetch(k);
        }
        for (n, &(k, i)) in split.iter().enumerate() {
            if let Some(&(later, _)) = split.get(n + PROBE_AHEAD) {
                places.prefetch(later);
            }
            if let Some(at) = places.get(k) {
                found(i as usize, at);
            }
        }
    }
}

/// The largest [`Places`] of a forward layer for which the back pass records [`Links`]
/// ([`Solver::links_pay`]): 16 MiB, half the 32 MiB third-level cache of the machine
/// measured. Past it each probe waits for memory, and sorting the parents costs less.
const LINK_CACHE: usize = 16 << 20;

/// How many keys ahead [`probe`] fetches a slot.
const PROBE_AHEAD: usize = 16;

/// Sorts `v` and removes duplicates, for keys below `2^bits`: a least-significant-digit
/// radix sort, 11 bits per pass (3 passes for the 33 holes of english), all digit counts
/// taken in one read, which beats a comparison sort on the shards' random keys.
fn radix_sort_dedup<K: Bits>(v: &mut Vec<K>, bits: usize) {
    const DIGIT: usize = 11;
    const MAX_PASSES: usize = 128usize.div_ceil(DIGIT);
    if v.len() < 256 {
        v.sort_unstable();
        v.dedup();
        return;
    }
    let passes = bits.div_ceil(DIGIT);
    let mask = K::from((1usize << DIGIT) - 1).expect("digit mask fits");
    let digit = |x: K, pass: usize| {
        ((x >> (pass * DIGIT)) & mask)
            .to_usize()
            .expect("digit fits")
    };
    let mut counts = vec![[0usize; 1 << DIGIT]; passes.min(MAX_PASSES)];
    for &x in v.iter() {
        for (pass, count) in counts.iter_mut().enumerate() {
            count[digit(x, pass)] += 1;
        }
    }
    let mut buf = vec![K::zero(); v.len()];
    let mut src = std::mem::take(v);
    for (pass, count) in counts.iter_mut().enumerate() {
        let mut sum = 0;
        for c in count.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for &x in &src {
            let d = digit(x, pass);
            buf[count[d]] = x;
            count[d] += 1;
        }
        std::mem::swap(&mut src, &mut buf);
    }
    src.dedup();
    *v = src;
}

/// Lanes of [`Pruner`]: one cut per lane, sixteen lanes to a block (256 bits).
const LANE: usize = 16;
/// At most this many blocks of cuts per side.
const MAX_BLOCKS: usize = 4;
/// A lane: `i16` does the work of `i32` in half the instructions. Cuts whose weights do
/// not fit are left out ([`Pruner::new`]); a cut is only ever a shortcut.
type Lane = i16;
/// A cut fits when the sum of its weights' sizes is below this, and so is its threshold's
/// size: a slack, before or after a jump, then stays below 3 times this, inside `i16`.
const LANE_LIMIT: i64 = 1 << 13;

/// Cuts ([`crate::geometry::pagoda::Cut`]) applied to the children of a sweep, each cut in
/// one [`Lane`]: a parent's slack (weight minus threshold, per cut) from byte tables, a
/// child's from the parent's plus the jump's change of weight. A child with a negative
/// slack in some lane is ruled out.
struct Pruner {
    /// Blocks holding cuts; the others, up to [`MAX_BLOCKS`], never cut (their lanes
    /// carry a large slack and no weights), so that every test runs the same fixed lanes.
    blocks: usize,
    /// Per byte of a position, per byte value: the weight of those pegs.
    tables: Vec<Slack>,
    /// Minus the thresholds (a large number in the unused lanes).
    base: Slack,
    /// Per jump: the change of weight when the jump is made...
    forward: Vec<Slack>,
    /// ... and when it is undone.
    backward: Vec<Slack>,
}

/// One lane per cut: [`MAX_BLOCKS`] blocks of [`LANE`] lanes.
type Slack = [[Lane; LANE]; MAX_BLOCKS];

impl Pruner {
    /// The pruner of `cuts` (at most [`MAX_BLOCKS`] * [`LANE`] of them are used); `None`
    /// without cuts.
    fn new(board: &Board, cuts: &[crate::geometry::pagoda::Cut]) -> Option<Pruner> {
        let fits = |c: &&crate::geometry::pagoda::Cut| {
            let total: i64 = c.weights.iter().map(|w| w.abs()).sum();
            total < LANE_LIMIT && c.threshold.abs() < LANE_LIMIT
        };
        let cuts: Vec<_> = cuts.iter().filter(fits).take(MAX_BLOCKS * LANE).collect();
        if cuts.is_empty() {
            return None;
        }
        let chunks = board.holes().div_ceil(8);
        let mut p = Pruner {
            blocks: cuts.len().div_ceil(LANE),
            tables: vec![[[0; LANE]; MAX_BLOCKS]; chunks * 256],
            base: [[2 * LANE_LIMIT as Lane; LANE]; MAX_BLOCKS],
            forward: vec![[[0; LANE]; MAX_BLOCKS]; board.jumps().len()],
            backward: vec![[[0; LANE]; MAX_BLOCKS]; board.jumps().len()],
        };
        for (k, c) in cuts.iter().enumerate() {
            let (b, l) = (k / LANE, k % LANE);
            p.base[b][l] = -c.threshold as Lane;
            for chunk in 0..chunks {
                for v in 0..256 {
                    let w: i64 = (0..8)
                        .filter(|&i| v >> i & 1 == 1 && 8 * chunk + i < board.holes())
                        .map(|i| c.weights[8 * chunk + i])
                        .sum();
                    p.tables[chunk * 256 + v][b][l] = w as Lane;
                }
            }
            for (j, jump) in board.jumps().iter().enumerate() {
                let d = c.weights[jump.to] - c.weights[jump.from] - c.weights[jump.over];
                p.forward[j][b][l] = d as Lane;
                p.backward[j][b][l] = -d as Lane;
            }
        }
        if trace() {
            eprintln!(
                "meet: {} cuts fit the pruner's lanes, in {} of {MAX_BLOCKS} blocks",
                cuts.len(),
                p.blocks
            );
        }
        Some(p)
    }

    /// The slack of `pos` in each lane.
    #[inline]
    fn slack<K: Bits>(&self, pos: K, chunks: usize) -> Slack {
        let mut s = self.base;
        for chunk in 0..chunks {
            let t = &self.tables[chunk * 256 + pos.byte(chunk)];
            for (x, y) in s.iter_mut().zip(t) {
                for i in 0..LANE {
                    x[i] += y[i];
                }
            }
        }
        s
    }

    /// Whether the child by jump `j` (undone, with `unjump`) of a position of slack `s`
    /// escapes every cut. The same fixed lanes every time and no branch: the compiler
    /// vectorises it, and the callers use the answer without branching on it (a child is
    /// cut about one time in four, at random: english d4's layer 15 took 0.164 s with a
    /// branch, 0.131 s without, docs/experiments.md).
    #[inline]
    fn keeps(&self, s: &Slack, j: usize, unjump: bool) -> bool {
        let d = if unjump {
            &self.backward[j]
        } else {
            &self.forward[j]
        };
        let mut sign = [0 as Lane; LANE];
        for (x, y) in s.iter().zip(d) {
            for i in 0..LANE {
                sign[i] |= x[i].wrapping_add(y[i]);
            }
        }
        sign.iter().fold(0, |a, &b| a | b) >= 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::pagoda::Cut;
    use indicatif::ProgressBar;

    /// A fixed sequence of 64-bit keys (splitmix64).
    fn keys(seed: u64, n: usize) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = x;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                (z ^ (z >> 31)) | 1
            })
            .collect()
    }

    #[test]
    fn key_filter_holds_every_key_and_few_others() {
        let held = keys(1, 10_000);
        let f = KeyFilter::new(held.iter().copied());
        assert!(held.iter().all(|&k| f.may_hold(k)));
        let others = keys(2, 100_000);
        let false_positives = others.iter().filter(|&&k| f.may_hold(k)).count();
        // 10,000 bits set of 262,144: about 3.8% of other keys pass.
        assert!(false_positives < 6_000, "{false_positives} false positives");
        assert!(false_positives > 1_000, "{false_positives} false positives");
    }

    /// Every child (and parent) of every position of tri:5, through `Pruner`'s `i16` lanes,
    /// against the weights summed plainly: a cut in each lane of two blocks, one of them
    /// with large weights (near the limit) that must not wrap.
    #[test]
    fn pruner_lanes_match_plain_weights() {
        let b = Board::from_spec("tri:5").unwrap();
        let n = b.holes();
        let cuts: Vec<Cut> = (0..LANE + 3)
            .map(|k| {
                let big = if k == 0 { 200 } else { 1 };
                Cut {
                    weights: (0..n)
                        .map(|h| big * (((h * 7 + k * 3) % 9) as i64 - 4))
                        .collect(),
                    threshold: (k as i64 % 5) - 2,
                }
            })
            .collect();
        let total: i64 = cuts[0].weights.iter().map(|w| w.abs()).sum();
        assert!(total > 1_000 && total < LANE_LIMIT);
        let p = Pruner::new(&b, &cuts).expect("the cuts fit");
        assert_eq!(p.blocks, 2);
        let weight = |c: &Cut, pos: u64| -> i64 {
            (0..n)
                .filter(|&h| pos >> h & 1 == 1)
                .map(|h| c.weights[h])
                .sum()
        };
        let chunks = n.div_ceil(8);
        for pos in 0..1u64 << n {
            let s = p.slack(pos, chunks);
            for (j, jump) in b.jumps().iter().enumerate() {
                let (f, o, t) = (1u64 << jump.from, 1u64 << jump.over, 1u64 << jump.to);
                if pos & f != 0 && pos & o != 0 && pos & t == 0 {
                    let child = pos ^ f ^ o ^ t;
                    let plain = cuts.iter().all(|c| weight(c, child) >= c.threshold);
                    assert_eq!(p.keeps(&s, j, false), plain, "{pos:b} jump {j}");
                }
                if pos & f == 0 && pos & o == 0 && pos & t != 0 {
                    let parent = pos ^ f ^ o ^ t;
                    let plain = cuts.iter().all(|c| weight(c, parent) >= c.threshold);
                    assert_eq!(p.keeps(&s, j, true), plain, "{pos:b} un-jump {j}");
                }
            }
        }
    }

    #[test]
    fn cuts_too_heavy_for_the_lanes_are_left_out() {
        let b = Board::from_spec("tri:5").unwrap();
        let heavy = Cut {
            weights: vec![1_000; b.holes()],
            threshold: 0,
        };
        assert!(Pruner::new(&b, &[heavy]).is_none());
    }

    #[test]
    fn distinct_keeps_each_key_once() {
        for n in [0, 100, 10_000] {
            // Keys with many repeats, and the empty board (zero) among them.
            let mut v: Vec<u64> = keys(3, n).iter().map(|k| k % 997).collect();
            v.extend([0, 0]);
            let want: std::collections::BTreeSet<u64> = v.iter().copied().collect();
            distinct(&mut v, 64, &mut Vec::new());
            let got: std::collections::BTreeSet<u64> = v.iter().copied().collect();
            assert_eq!(got, want);
            assert_eq!(v.len(), want.len(), "{n} keys: a repeat is left");
        }
    }

    /// Layers built with packed keys ([`Keys`], boards of up to 40 holes) and with whole
    /// positions give the same answers: the meeting, the full sweep (`--reachable`), and
    /// a goal that is not the start's complement.
    #[test]
    fn packed_and_whole_keys_solve_alike() {
        let opts = SolveOptions::default();
        for (spec, start, finish) in [
            ("tri:6", None, "any"),
            ("tri:6", Some("c3"), "a1"),
            ("tri:7", None, "any"),
            ("english", None, "d4"),
        ] {
            let b = Board::from_spec(spec).unwrap();
            let start = start.map_or(b.default_start(), |h| {
                b.start_with_empty(&[b.hole(h).unwrap()])
            });
            let finish = Finish::parse(&b, Some(finish)).unwrap();
            let packed: Solver<u64> = Solver::new(&b, start, finish, true);
            assert!(packed.keys.0.is_some(), "{spec} fits packed keys");
            let mut whole: Solver<u64> = Solver::new(&b, start, finish, true);
            whole.keys = Keys(None);
            let want = whole.solvable_meet(&opts).unwrap();
            assert!(want.wins > 0 || spec != "english", "{spec}");
            assert_eq!(packed.solvable_meet(&opts).unwrap(), want, "{spec}");
            if spec == "tri:6" {
                assert_eq!(
                    packed.solvable(&opts).unwrap(),
                    whole.solvable(&opts).unwrap()
                );
            }
        }
    }

    /// A goal whose complement is the start moved by a symmetry `t` outside `H` (french
    /// d2 to d6, tri:6 a2 to a5: a reflection) meets in the middle mirrored through `t`
    /// ([`Solver::with_mirror`]), with the answers of the two-sided meeting.
    #[test]
    fn mirrors_by_a_symmetry_meet_as_two_sides_do() {
        let opts = SolveOptions::default();
        let setup = |spec: &str, hole: &str, finish: &str| {
            let b = Board::from_spec(spec).unwrap();
            let start = b.start_with_empty(&[b.hole(hole).unwrap()]);
            let finish = Finish::parse(&b, Some(finish)).unwrap();
            (b, start, finish)
        };
        // Which meetings are mirrored, and by what.
        let mirror = |spec: &str, hole: &str, finish: &str| {
            let (b, start, finish) = setup(spec, hole, finish);
            let s: Solver<u64> = Solver::new(&b, start, finish, true);
            match &s.mirror {
                Mirror::No => "no".to_string(),
                Mirror::Complement => "complement".to_string(),
                Mirror::Through(t, _) => b.hole_name(t.perm()[b.hole(hole).unwrap()]),
            }
        };
        assert_eq!(mirror("english", "d4", "d4"), "complement");
        assert_eq!(mirror("french", "d2", "d6"), "d6");
        assert_eq!(mirror("english", "c1", "c7"), "c7");
        assert_eq!(mirror("tri:5", "a1", "c5"), "no");
        // The same answers as the two-sided meeting, for `solvable` and for hints.
        for (spec, hole, finish) in [
            ("tri:5", "a2", "d5"),
            ("tri:6", "a2", "a5"),
            ("tri:6", "a3", "d6"),
        ] {
            for fix_start in [true, false] {
                let (b, start, finish) = setup(spec, hole, finish);
                let mirrored: Solver<u64> = Solver::new(&b, start, finish, fix_start);
                assert!(
                    matches!(mirrored.mirror, Mirror::Through(..)),
                    "{spec} {hole}"
                );
                let mut plain: Solver<u64> = Solver::new(&b, start, finish, fix_start);
                plain.mirror = Mirror::No;
                if fix_start {
                    let want = plain.solvable_meet(&opts).unwrap();
                    assert!(want.wins > 0, "{spec} {hole}");
                    assert_eq!(
                        mirrored.solvable_meet(&opts).unwrap(),
                        want,
                        "{spec} {hole}"
                    );
                    // Without links the back pass cuts parents by the mirrored cuts.
                    let mut probed: Solver<u64> = Solver::new(&b, start, finish, fix_start);
                    probed.link_cache = 0;
                    assert_eq!(probed.solvable_meet(&opts).unwrap(), want, "{spec} {hole}");
                }
                // Without `whole`, a mirrored table holds the start and its children.
                for whole in [false, true] {
                    let (got, want) = (
                        mirrored.table(&opts, whole).unwrap(),
                        plain.table(&opts, whole).unwrap(),
                    );
                    let n = if whole { want.len() } else { 2 };
                    assert_eq!(got[..n], want[..n], "{spec} {hole} {fix_start} {whole}");
                }
            }
        }
    }

    /// The `N` pass along the links that the back pass records gives what probing the
    /// layers gives: solvable counts, wins and the first jumps' `W` (a hint from the
    /// start), in games of an odd (english, tri:5) and an even (rect-diag) number of jumps.
    #[test]
    fn links_and_probes_count_alike() {
        let opts = SolveOptions::default();
        for (spec, finish) in [
            ("english", "d4"),
            ("tri:5", "a1"),
            ("boards/rect-diag.txt", "a1"),
        ] {
            let b = Board::from_spec(&format!("{}/{spec}", env!("CARGO_MANIFEST_DIR")))
                .or_else(|_| Board::from_spec(spec))
                .unwrap();
            let finish = Finish::parse(&b, Some(finish)).unwrap();
            let start = b.default_start();
            // Links everywhere the solvable layers are large enough, or only into the
            // small forward layers (english: the first 9 or so), against none.
            let solver = |fix_start: bool, cache: usize| {
                let mut s: Solver<u64> = Solver::new(&b, start, finish, fix_start);
                s.link_cache = cache;
                s
            };
            let links = |s: &Solver<u64>| match s.meet(&opts, &ProgressBar::hidden()) {
                Ok(Meet::Half(_, _, links)) => (
                    links.iter().skip(1).filter(|l| l.is_some()).count(),
                    links.len() - 1,
                ),
                _ => panic!("{spec}: a half meeting"),
            };
            let (all, mixed) = (usize::MAX, 256 << 10);
            let (linked, layers) = links(&solver(true, all));
            assert!(
                linked > layers / 2,
                "{spec}: {linked} of {layers} layers linked"
            );
            if spec == "english" {
                let (some, _) = links(&solver(true, mixed));
                assert!(some > 0 && some < linked, "{spec}: {some} of {linked}");
            }
            let want = solver(true, 0).solvable_meet(&opts).unwrap();
            assert!(want.wins > 0, "{spec}");
            let want_table = solver(false, 0).table(&opts, false).unwrap();
            assert_eq!(want_table[0][0].1, want.wins);
            for cache in [all, mixed, LINK_CACHE] {
                let got = solver(true, cache).solvable_meet(&opts).unwrap();
                assert_eq!(got, want, "{spec} {cache}");
                let got = solver(false, cache).table(&opts, false).unwrap();
                assert_eq!(got, want_table, "{spec} {cache}");
            }
        }
    }

    /// `meetings` against the plain definition: the positions of a layer whose canonical
    /// complements are among the layer's canonical children (tri:5 from a1 back to a1,
    /// layer 6 of 13 jumps).
    #[test]
    fn meetings_are_the_positions_whose_complements_are_children() {
        let b = Board::from_spec("tri:5").unwrap();
        let finish = Finish::parse(&b, Some("a1")).unwrap();
        let s: Solver<u64> = Solver::new(&b, b.default_start(), finish, true);
        let mut layer: Shards<u64> = vec![Vec::new(); SHARDS];
        let start = s.transforms_canon_h(s.start);
        layer[s.keys.shard(start)].push(start);
        for _ in 0..6 {
            layer = s.expand(&layer, false, None).unwrap().0;
        }
        let children = s.expand(&layer, false, None).unwrap().0;
        let want = intersect(layer.clone(), &s.complements(&children).unwrap());
        let got = s.meetings(&layer, None).unwrap();
        assert!(size(&want) > 0);
        assert_eq!(got, want);
    }

    /// Without cuts, skipping the jumps that [`JumpOrder`] shows to repeat a position
    /// leaves every layer as the plain sweep builds it, from fewer jumps; and the meetings
    /// from tagged layers are the plain ones. Boards with 8, 2 and 1 symmetries fixing the
    /// start, and one whose start has a frame of its own (tri:6 from b3).
    #[test]
    fn ordered_layers_are_the_plain_layers() {
        for (spec, start, depth) in [
            ("english", None, 9),
            ("tri:6", None, 9),
            ("tri:6", Some("b3"), 8),
            ("tri:5", None, 8),
        ] {
            let b = Board::from_spec(spec).unwrap();
            let start = start.map_or(b.default_start(), |h| {
                b.start_with_empty(&[b.hole(h).unwrap()])
            });
            let s: Solver<u64> = Solver::new(&b, start, Finish::Any, false);
            let order = s.order.as_ref().expect("an order");
            let mut layer: Shards<u64> = vec![Vec::new(); SHARDS];
            let first = s.transforms_canon_h(s.start);
            layer[s.keys.shard(first)].push(first);
            let mut tags = vec![order.start(0)];
            let (mut plain_jumps, mut ordered_jumps) = (0, 0);
            for k in 0..depth {
                let (next, _) = s.expand(&layer, false, None).unwrap();
                let (ordered, next_tags, _) = s.expand_ordered(&layer, &tags, false, None).unwrap();
                assert_eq!(ordered, next, "{spec} layer {}", k + 1);
                let count = |t: Option<&[u32]>| {
                    let mut n = 0;
                    for (i, &pos) in layer.iter().flatten().enumerate() {
                        match t {
                            Some(t) => s
                                .moves
                                .each_jump_within(pos, order.within(t[i]), |_| n += 1),
                            None => s.moves.each_jump(pos, |_| n += 1),
                        };
                    }
                    n
                };
                plain_jumps += count(None);
                ordered_jumps += count(Some(&tags));
                if size(&next) > 0 {
                    let plain = s.meetings(&next, None).unwrap();
                    let tagged = next_tags.as_deref();
                    assert_eq!(s.meetings(&next, tagged).unwrap(), plain, "{spec} meetings");
                }
                tags = next_tags.expect("ranks fit");
                layer = next;
            }
            assert!(size(&layer) > 0, "{spec}");
            assert!(
                ordered_jumps < plain_jumps,
                "{spec}: {ordered_jumps} of {plain_jumps}"
            );
            // Backwards (un-jumps) from the goals, several starts of the order at once.
            let mut layer = s.goals();
            let mut tags = s.first_tags(&layer).expect("an order");
            assert!(tags.len() > 1, "{spec}");
            for k in 0..depth {
                let (next, _) = s.expand(&layer, true, None).unwrap();
                let (ordered, next_tags, _) = s.expand_ordered(&layer, &tags, true, None).unwrap();
                assert_eq!(ordered, next, "{spec} backward layer {}", k + 1);
                tags = next_tags.expect("ranks fit");
                layer = next;
            }
            assert!(size(&layer) > 0, "{spec} backward");
        }
    }
}
