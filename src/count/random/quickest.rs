//! The quickest loss: how soon a game from a start can reach a position from which no
//! one-peg finish (on the hole asked, or anywhere) is possible any more.
//!
//! The positions from which a win is still possible come from `solvable`'s machinery (a
//! [`HintCache`]: reachable from the start, and winnable). From the start, layer by layer,
//! the walk keeps only those positions, with the number of jump sequences into each; the
//! first layer with a jump out of the set is the quickest loss, and the sequences into it
//! are the sequences of its parents times their losing jumps.

use crate::analysis::solvable::{Finish, HintCache, SolveOptions};
use crate::error::{Error, Result};
use crate::geometry::board::{Board, Pegs};
use serde::Serialize;
use std::collections::HashMap;

/// The quickest loss from a start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct QuickestLoss {
    /// The fewest jumps after which no win is possible (0: the start has none). `None`:
    /// every game from the start wins.
    pub jumps: Option<usize>,
    /// The jump sequences of that length whose last position cannot win while every
    /// position before it could (1 for a start without a win: the empty sequence).
    pub sequences: u128,
}

impl QuickestLoss {
    /// The summary line, as `count --random` and `solvable` print it.
    ///
    /// ```
    /// use pegsol::count::random::QuickestLoss;
    /// let q = QuickestLoss { jumps: Some(3), sequences: 12 };
    /// assert_eq!(q.line(), "quickest loss        3 jumps (12 sequences)");
    /// ```
    pub fn line(&self) -> String {
        use thousands::Separable;
        match self.jumps {
            Some(j) => format!(
                "quickest loss        {j} jumps ({} sequences)",
                self.sequences.separate_with_commas()
            ),
            None => "quickest loss        none (every game wins)".into(),
        }
    }

    /// The two cells of summary.csv: jumps and sequences, both empty when every game wins.
    pub fn cells(&self) -> [String; 2] {
        match self.jumps {
            Some(j) => [j.to_string(), self.sequences.to_string()],
            None => [String::new(), String::new()],
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
    let cache = HintCache::build(board, start, finish, opts)?;
    walk(board, start, |p| cache.is_solvable(board, p))
}

/// The quickest loss from `start`, given which positions can still win: the walk through
/// the winnable positions described in the module's notes, over raw positions.
pub fn walk(board: &Board, start: Pegs, winnable: impl Fn(Pegs) -> bool) -> Result<QuickestLoss> {
    if !winnable(start) {
        return Ok(QuickestLoss {
            jumps: Some(0),
            sequences: 1,
        });
    }
    let overflow = || Error::Overflow("the quickest loss's sequences exceed 2^128".into());
    let mut layer: HashMap<Pegs, u128> = HashMap::from([(start, 1)]);
    for depth in 1.. {
        let mut next: HashMap<Pegs, u128> = HashMap::new();
        let mut lost = 0u128;
        for (&pos, &n) in &layer {
            for jump in board.jumps().iter().filter(|j| j.is_legal(pos)) {
                let child = pos ^ jump.mask();
                if winnable(child) {
                    let slot = next.entry(child).or_insert(0);
                    *slot = slot.checked_add(n).ok_or_else(overflow)?;
                } else {
                    lost = lost.checked_add(n).ok_or_else(overflow)?;
                }
            }
        }
        if lost > 0 {
            return Ok(QuickestLoss {
                jumps: Some(depth),
                sequences: lost,
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
    })
}
