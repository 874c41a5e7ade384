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
//! the number of layers to report (the longest game plus one) comes from quick searches
//! for a game leaving one, two or three pegs anywhere, and otherwise from a forward sweep
//! without cuts that keeps only its frontier (`Solver::depth`).
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
//!
//! Where the parts are, in the order a run meets them: this file holds the public API;
//! `solver` the [`Solver`] of one run and its drive ([`Solver::solvable`],
//! [`Solver::solvable_meet`]); `prune` the pagoda cuts; `layers` one layer from the one
//! before ([`Solver::step_at`]), with its buffers in `buffers` and its sorts in `sorting`;
//! `meet` the meeting in the middle and the back pass to the start; `mirror` the mirrored
//! meeting; `sums` the `N` and `W` sums; `tables` the probing structures, `exchange` the
//! same lookups shard by shard, `places` the places of a forward layer's positions and
//! their links; `reference` the passes of `--reachable`; `cache` the [`HintCache`] and its
//! file.

use super::order::JumpOrder;
use crate::error::{Error, Result, add};
use crate::geometry::bits::{Bits, Packed};
use crate::geometry::board::{Board, Jump, Pegs, bit};
use crate::geometry::moves::MoveTable;
use crate::geometry::symmetry::{Symmetry, Transforms};
use crate::observe::Meter;
use crate::output::files::csv_bytes;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};

mod buffers;
mod cache;
mod exchange;
mod layers;
mod meet;
mod mirror;
mod places;
mod prune;
mod reference;
mod solver;
mod sorting;
mod sums;
mod tables;
#[cfg(test)]
mod tests;

use buffers::*;
pub use cache::HintCache;
use exchange::*;
use places::*;
use prune::*;
use solver::*;
use sorting::*;
use tables::*;

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
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::Finish};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// assert_eq!(Finish::Any.mask(&b).count_ones(), 15);
    /// let c3 = b.hole("c3").unwrap();
    /// assert_eq!(Finish::Hole(c3).mask(&b), 1 << c3);
    /// ```
    pub fn mask(self, board: &Board) -> Pegs {
        match self {
            Finish::Any => board.full(),
            Finish::Hole(h) => bit(h),
        }
    }

    /// `any` or the hole's name.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::Finish};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// assert_eq!(Finish::Any.name(&b), "any");
    /// assert_eq!(Finish::Hole(b.hole("c3").unwrap()).name(&b), "c3");
    /// ```
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
    /// Report progress to the installed observer ([`crate::observe`]): on the command
    /// line, a progress bar on stderr when it is a terminal.
    pub progress: bool,
    /// Also count every reachable position ([`SolvableLayer::reachable`]): a full forward
    /// sweep, many times the work of the solvable set alone (see [`solvable`]).
    pub reachable: bool,
    /// Set to stop the run with [`Error::Interrupted`] within a moment: [`solvable`], a
    /// [`HintCache`]'s build and the quickest loss's position-by-position search
    /// ([`crate::count::random::quickest_loss`]) look at it; `table` sets it on Ctrl-C or
    /// SIGTERM.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: 0,
            max_memory: crate::memory::default_budget(),
            progress: false,
            reachable: false,
            cancel: None,
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
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{solvable, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let s = solvable(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(s.positions(), 769); // of 3,016 reachable (tests/data/solvable/tri5-a1-any.csv)
    /// ```
    pub fn positions(&self) -> u64 {
        self.layers.iter().map(|l| l.positions).sum()
    }

    /// Solvable reachable positions up to symmetry.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{solvable, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let s = solvable(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(s.positions_reduced(), 390); // tests/data/solvable/tri5-a1-any.csv
    /// ```
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
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{solvable, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let opts = SolveOptions { reachable: true, ..SolveOptions::default() };
    /// let s = solvable(&b, b.default_start(), Finish::Any, &opts).unwrap();
    /// assert_eq!(s.reachable_reduced(), Some(1_544)); // the count's positions_reduced
    /// let quick = solvable(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(quick.reachable_reduced(), None);
    /// ```
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
///
/// ```
/// use pegsol::{geometry::board::Board, analysis::solvable::{solvable, Finish, SolveOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// use pegsol::analysis::solvable::csv_file;
/// let s = solvable(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
/// let text = String::from_utf8(csv_file(&[s]).unwrap()).unwrap();
/// let lines: Vec<&str> = text.lines().collect();
/// assert_eq!(lines.len(), 1 + 14); // the header, then jumps 0 to 13
/// assert_eq!(lines[1], "tri:5,a1,any,0,1,1,,");
/// assert_eq!(lines[14], "tri:5,a1,any,13,4,3,,");
/// ```
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
///
/// ```
/// use pegsol::{geometry::board::Board, analysis::solvable::{solvable, Finish, SolveOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// use pegsol::analysis::solvable::summary_text;
/// let opts = SolveOptions { reachable: true, ..SolveOptions::default() };
/// let text = summary_text(&solvable(&b, b.default_start(), Finish::Any, &opts).unwrap());
/// assert!(text.contains("solvable positions          769 of 3,016 reachable\n"));
/// assert!(text.contains("winning jump sequences      29,760\n")); // published
/// ```
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
            let s = Solver::<u64>::new(board, start, finish, true)
                .within(opts.max_memory)
                .cancellable(opts);
            if opts.reachable {
                s.solvable(opts)
            } else {
                s.solvable_meet(opts)
            }
        } else {
            let s = Solver::<u128>::new(board, start, finish, true)
                .within(opts.max_memory)
                .cancellable(opts);
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

impl Hint {
    /// Whether the hint adds up: a position's winning sequences are those of its jumps
    /// together, and a position with no jump left wins once (it is the goal) or not at all.
    /// A hint read from a cache file that was edited, its checksum made again, can fail
    /// this ([`HintCache::read`] trusts a file whose checksum matches).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{hint, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let mut h = hint(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert!(h.adds_up() && h.wins == 29_760); // published: tri:5 from a1
    /// h.wins += 1;
    /// assert!(!h.adds_up());
    /// ```
    pub fn adds_up(&self) -> bool {
        if self.jumps.is_empty() {
            return self.wins <= 1;
        }
        self.jumps
            .iter()
            .try_fold(0u128, |sum, j| sum.checked_add(j.wins))
            == Some(self.wins)
    }
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
///
/// ```
/// use pegsol::{geometry::board::Board, analysis::solvable::{hint, hint_text, Finish, SolveOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let a1 = Finish::Hole(b.hole("a1").unwrap());
/// let h = hint(&b, b.default_start(), a1, &SolveOptions::default()).unwrap();
/// let text = hint_text(&b, b.default_start(), a1, &h);
/// assert!(text.contains("14 pegs, finish a1: 6,816 winning jump sequences\n")); // published
/// assert!(text.contains("  a3-a1 (over a2)  3,408 wins\n"));
/// ```
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
    crate::pool::build(opts.threads)?.install(f)
}

/// Whether the installed observer wants trace lines (on the command line, `PEGSOL_TRACE`):
/// the passes then report their layers.
fn trace() -> bool {
    crate::observe::tracing()
}
