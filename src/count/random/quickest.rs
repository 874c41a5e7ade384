//! The quickest loss: how soon a game from a start can reach a position from which no
//! one-peg finish (on the hole asked, or anywhere) is possible any more.
//!
//! From the start, layer by layer, the walk keeps only the positions that can still win,
//! with the number of jump sequences into each; the first layer with a jump out of them is
//! the quickest loss, and the sequences into it are the sequences of its parents times their
//! losing jumps. Whether a position can still win is answered by `solvable`'s machinery
//! where every winnable position from the start fits in `--max-memory` (a
//! [`HintCache`]: a meeting in the middle); where they do not (tri:8, the French board),
//! by a depth-first search that remembers what it settled ([`super::winnable`]), the
//! children of a layer asked about in parallel.

use super::winnable::Winnable;
use crate::analysis::solvable::{Finish, HintCache, SolveOptions};
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Pegs};
use crate::geometry::moves::MoveTable;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

/// The quickest loss from a start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct QuickestLoss {
    /// The fewest jumps after which no win is possible (0: the start has none). `None`:
    /// every game from the start wins, or (with `at_least`) the search did not settle it.
    pub jumps: Option<usize>,
    /// The jump sequences of that length whose last position cannot win while every
    /// position before it could (1 for a start without a win: the empty sequence).
    pub sequences: u128,
    /// Set when the search ran out of its memory limit before it settled the quickest loss:
    /// every position of the layers before this one can still win, so no game is lost in
    /// fewer jumps (`jumps` is then `None` and `sequences` 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_least: Option<usize>,
}

impl QuickestLoss {
    /// The summary line, as `count --random` and `solvable` print it.
    ///
    /// ```
    /// use pegsol::count::random::QuickestLoss;
    /// let q = QuickestLoss { jumps: Some(3), sequences: 12, at_least: None };
    /// assert_eq!(q.line(), "quickest loss        3 jumps (12 sequences)");
    /// let open = QuickestLoss { jumps: None, sequences: 0, at_least: Some(11) };
    /// assert_eq!(open.line(),
    ///     "quickest loss        at least 11 jumps (not settled within the memory limit)");
    /// ```
    pub fn line(&self) -> String {
        use thousands::Separable;
        match (self.jumps, self.at_least) {
            (Some(j), _) => format!(
                "quickest loss        {j} jumps ({} sequences)",
                self.sequences.separate_with_commas()
            ),
            (None, Some(d)) => {
                format!(
                    "quickest loss        at least {d} jumps (not settled within the memory limit)"
                )
            }
            (None, None) => "quickest loss        none (every game wins)".into(),
        }
    }

    /// The two cells of summary.csv: jumps and sequences; both empty when every game wins;
    /// `>=N` and empty when the search settled only that no game is lost in fewer than `N`
    /// jumps.
    ///
    /// ```
    /// use pegsol::count::random::QuickestLoss;
    /// let open = QuickestLoss { jumps: None, sequences: 0, at_least: Some(11) };
    /// assert_eq!(open.cells(), [">=11".to_string(), String::new()]);
    /// ```
    pub fn cells(&self) -> [String; 2] {
        match (self.jumps, self.at_least) {
            (Some(j), _) => [j.to_string(), self.sequences.to_string()],
            (None, Some(d)) => [format!(">={d}"), String::new()],
            (None, None) => [String::new(), String::new()],
        }
    }
}

/// The quickest loss of `board` from `start`, a win ending as `finish` asks.
///
/// ```
/// use pegsol::{geometry::board::Board, count::random::quickest_loss};
/// use pegsol::analysis::solvable::{Finish, SolveOptions};
/// let b = Board::from_spec("tri:4").unwrap();
/// // tri:4 has no one-peg finish from a1: lost before the first jump.
/// let q = quickest_loss(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
/// assert_eq!((q.jumps, q.sequences), (Some(0), 1));
/// ```
pub fn quickest_loss(
    board: &Board,
    start: Pegs,
    finish: Finish,
    opts: &SolveOptions,
) -> Result<QuickestLoss> {
    // Every winnable position at once, where they fit: fastest on the boards whose
    // solvable positions are few (english: seconds, against minutes one by one).
    // `PEGSOL_QUICKEST=search` in the environment skips it (an experiment's setting: the
    // answer is the same, the time and memory differ).
    let pool = crate::pool::build(opts.threads)?;
    let search_only = std::env::var("PEGSOL_QUICKEST").is_ok_and(|v| v == "search");
    if !search_only {
        match HintCache::build(board, start, finish, opts) {
            Ok(cache) => {
                return pool
                    .install(|| walk(board, start, finish, |p| Ok(cache.is_solvable(board, p))));
            }
            Err(Error::Memory(_)) => {}
            Err(e) => return Err(e),
        }
    }
    crate::observe::trace(
        "quickest loss: the winnable positions do not fit; asking position by position",
    );
    pool.install(|| {
        if board.holes() <= 64 {
            by_search::<u64>(board, start, finish, opts)
        } else {
            by_search::<u128>(board, start, finish, opts)
        }
    })
}

/// The walk, each position asked about by the depth-first search of [`Winnable`].
fn by_search<K: Bits>(
    board: &Board,
    start: Pegs,
    finish: Finish,
    opts: &SolveOptions,
) -> Result<QuickestLoss> {
    let mut oracle = Winnable::<K>::new(board, finish, opts.max_memory);
    oracle.cancel = opts.cancel.clone();
    let answer = walk(board, start, finish, |p| oracle.can_win(p));
    let (won, lost) = oracle.remembered();
    crate::observe::trace(&format!(
        "quickest loss: {} positions searched, {won} winnable and {lost} lost remembered",
        oracle.searched()
    ));
    answer
}

/// The quickest loss from `start`, given which positions can still win (a question that
/// must have the same answer for a position and its images under the symmetries that fix
/// the start and the finish): the walk through the winnable positions described in the
/// module's notes, each layer's children asked about in parallel.
///
/// A layer holds one position per class of those symmetries (its smallest image), with the
/// jump sequences into every position of the class: the children of the one stand for the
/// children of all, as in `count`'s sweep.
///
/// ```
/// use pegsol::{geometry::board::Board, count::random::quickest::walk};
/// use pegsol::{analysis::solvable::Finish, count::random::reference::Winnable};
/// let b = Board::from_spec("tri:5").unwrap();
/// let plain = std::sync::Mutex::new(Winnable::new(&b, b.full()));
/// let can_win = |p| Ok(plain.lock().unwrap().can_win(p));
/// let q = walk(&b, b.default_start(), Finish::Any, can_win).unwrap();
/// assert_eq!((q.jumps, q.sequences), (Some(3), 14));
/// ```
pub fn walk(
    board: &Board,
    start: Pegs,
    finish: Finish,
    winnable: impl Fn(Pegs) -> Result<bool> + Sync,
) -> Result<QuickestLoss> {
    let goal = finish.mask(board);
    let fixed = MoveTable::<u128>::new(board, |s| {
        board.transform(s, start) == start && board.transform(s, goal) == goal
    });
    let unsettled = |depth: usize, why: &str| {
        crate::observe::trace(&format!("quickest loss: depth {depth}: {why}"));
        Ok(QuickestLoss {
            jumps: None,
            sequences: 0,
            at_least: Some(depth),
        })
    };
    let start_wins = match winnable(start) {
        Err(Error::Memory(why)) => return unsettled(0, &why),
        other => other?,
    };
    if !start_wins {
        return Ok(QuickestLoss {
            jumps: Some(0),
            sequences: 1,
            at_least: None,
        });
    }
    let mut layer: Vec<(Pegs, u128)> = vec![(start, 1)];
    for depth in 1.. {
        // Each child once, with the sequences into it (gathered in parallel, the sums the
        // same in any order); then each asked about once.
        let children = layer
            .par_iter()
            .try_fold(Children::new, |mut acc, &(pos, n)| {
                for jump in board.jumps().iter().filter(|j| j.is_legal(pos)) {
                    add(&mut acc, fixed.canonical(pos ^ jump.mask()), n)?;
                }
                Ok(acc)
            })
            .try_reduce(Children::new, |a, b| {
                let (mut into, from) = if a.len() >= b.len() { (a, b) } else { (b, a) };
                for (child, n) in from {
                    add(&mut into, child, n)?;
                }
                Ok(into)
            })?;
        let asked: Vec<(Pegs, u128)> = children.into_iter().collect();
        let can: Vec<bool> = match asked.par_iter().map(|&(p, _)| winnable(p)).collect() {
            Ok(can) => can,
            // Out of memory while asking about this layer: every earlier one could win.
            Err(Error::Memory(why)) => return unsettled(depth, &why),
            Err(e) => return Err(e),
        };
        let mut next = Vec::new();
        let mut lost = 0u128;
        for (&(child, n), won) in asked.iter().zip(can) {
            if won {
                next.push((child, n));
            } else {
                lost = lost.checked_add(n).ok_or_else(overflow)?;
            }
        }
        crate::observe::trace(&format!(
            "quickest loss: depth {depth}: {} positions asked (up to symmetry), {} can win",
            asked.len(),
            next.len()
        ));
        if lost > 0 {
            return Ok(QuickestLoss {
                jumps: Some(depth),
                sequences: lost,
                at_least: None,
            });
        }
        if next.is_empty() {
            break;
        }
        layer = next;
    }
    Ok(QuickestLoss {
        jumps: None,
        sequences: 0,
        at_least: None,
    })
}

/// A layer's children, with the jump sequences into each.
type Children = HashMap<Pegs, u128>;

fn overflow() -> Error {
    Error::Overflow("the quickest loss's sequences exceed 2^128".into())
}

/// Adds `n` sequences into `child`.
fn add(children: &mut Children, child: Pegs, n: u128) -> Result<()> {
    let slot = children.entry(child).or_insert(0);
    *slot = slot.checked_add(n).ok_or_else(overflow)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search's walk gives results/summary.csv's figures (tri:6, where the winnable
    /// positions would fit), with one thread or two, on either key width.
    #[test]
    fn the_search_walk_is_the_same_for_any_threads() {
        let b = Board::from_spec("tri:6").unwrap();
        for (hole, jumps, sequences) in [("a1", 5, 6), ("b4", 5, 46)] {
            let start = b.start_with_empty(&[b.hole(hole).unwrap()]);
            for threads in [1, 2] {
                let pool = crate::pool::build(threads).unwrap();
                let opts = SolveOptions {
                    max_memory: u64::MAX,
                    ..Default::default()
                };
                let narrow = pool.install(|| by_search::<u64>(&b, start, Finish::Any, &opts));
                let wide = pool.install(|| by_search::<u128>(&b, start, Finish::Any, &opts));
                let want = QuickestLoss {
                    jumps: Some(jumps),
                    sequences,
                    at_least: None,
                };
                assert_eq!(narrow.unwrap(), want, "{hole}, {threads} threads");
                assert_eq!(wide.unwrap(), want, "{hole}, {threads} threads");
            }
        }
    }

    /// A cancel flag set before (Ctrl-C in `table`) stops the search with
    /// [`Error::Interrupted`], not with a bound or a figure.
    #[test]
    fn a_set_cancel_flag_interrupts_the_search() {
        use std::sync::{Arc, atomic::AtomicBool};
        let b = Board::from_spec("tri:7").unwrap();
        let a3 = b.start_with_empty(&[b.hole("a3").unwrap()]);
        let opts = SolveOptions {
            max_memory: 64 << 20,
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..Default::default()
        };
        let got = by_search::<u64>(&b, a3, Finish::Any, &opts);
        assert!(matches!(got, Err(Error::Interrupted)), "{got:?}");
    }
}
