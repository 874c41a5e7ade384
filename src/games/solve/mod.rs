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
//! proof of "no solution" is unchanged. Wiegleb centre to centre gains most
//! (docs/experiments.md, "Figures that were in code comments").
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

mod beam;
mod count;
mod goal;
mod hopeless;
mod search;
mod shared;

pub use count::{count_sequences, count_sequences_within};
pub use goal::{Classes, Goal, goal_symmetries};
pub use hopeless::HopelessTable;
use search::run_search;
pub(crate) use shared::jump_masks;
use shared::*;

type Hasher = ahash::RandomState;

fn hasher() -> Hasher {
    Hasher::with_seeds(7, 11, 13, 17)
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

/// Whether the installed observer wants trace lines (on the command line, `PEGSOL_TRACE`):
/// the search then reports its units and table.
fn trace() -> bool {
    crate::observe::tracing()
}
