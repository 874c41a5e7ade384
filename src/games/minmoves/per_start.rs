//! One start towards every finish at once: the search behind the table of fewest moves
//! ([`super::table`]).
//!
//! Searching each finish on its own (as [`super::min_moves`] does) repeats the forward side,
//! by far the larger one, for every finish. Here the forward side is pruned by the bound
//! towards the *nearest* finish of the start's position class (a region bound that holds for
//! every finish of the class) and grown once per limit `L`, to a depth `a` its memory
//! allows; then each finish still open gets its own small backward side, grown or probed to
//! depth `L - a`, which looks its positions up in the shared forward side.
//!
//! The proof is the bidirectional one of [`super`]: every game of at most `L` moves to the
//! finish passes, after `i <= a` moves, through a position the forward side holds at its
//! true distance (the bound is consistent and the same for every finish of the class), and
//! `L - i` moves before the end through one the backward side reaches. A limit that finds no
//! meeting of at most `L` moves proves that no game is that short; the limits run upwards
//! from the bound at the start, so the first meeting within the limit is the fewest.

use super::search::Search;
use super::side::{Side, fixes};
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Jump, Pegs, bit};
use crate::geometry::regions::{Bound, Regions};

/// The fewest moves from `start` to one peg in each hole of `finishes` (each with a win),
/// with a game achieving them; `class` is every hole where a game from `start` can end.
pub(super) fn fewest_to_each<K: Bits>(
    board: &Board,
    start: Pegs,
    finishes: &[usize],
    class: &[usize],
    max_memory: u64,
) -> Result<Vec<(usize, Vec<Jump>)>> {
    let goals: Vec<Pegs> = class.iter().map(|&h| bit(h)).collect();
    let regions = Regions::new(board);
    let bound = Bound::<K>::new(&regions, &goals, &[start]);
    let mut limit = bound.to_finish(K::from_u128(start));
    let mut found: Vec<Option<(usize, Vec<Jump>)>> = vec![None; finishes.len()];
    while found.iter().any(Option::is_none) {
        if limit > board.holes() {
            return Err(Error::input(format!(
                "{}: the fewest-moves search found no game from {} where one exists",
                board.name(),
                board.start_name(start)
            )));
        }
        // The forward side, once for every finish of this limit.
        let mut search = Search::<K>::new(board, &[start], &goals, &bound, limit, max_memory);
        search.grow_forward()?;
        for (k, &f) in finishes.iter().enumerate() {
            if found[k].is_some() {
                continue;
            }
            search.backward_from(&[bit(f)], start);
            if let Some(x) = search.backward_run()? {
                found[k] = Some(search.game_through(x));
            }
        }
        limit += 1;
    }
    Ok(found.into_iter().flatten().collect())
}

impl<K: Bits> Search<'_, K> {
    /// Expands the forward side while its depth stays below the limit and its next layer,
    /// as guessed from its growth (doubled for safety), fits in half the memory limit.
    fn grow_forward(&mut self) -> Result<()> {
        loop {
            let side = &self.sides[0];
            if side.done || side.depth + 1 >= self.limit {
                return Ok(());
            }
            let guess = (2.0 * side.next_size()) as usize;
            if side.depth > 0 && self.bytes_needed(0, guess) > self.max_bytes / 2 {
                return Ok(());
            }
            self.expand(0)?;
        }
    }

    /// Replaces the backward side by one from the positions `goals`.
    fn backward_from(&mut self, goals: &[Pegs], start: Pegs) {
        self.sides[1] = Side::new(self.board, goals);
        self.image_min[1] = !fixes(self.board, goals, &[start]);
    }

    /// Grows the backward side against the forward side as it stands: the meeting position
    /// of a game of at most the limit's moves, or `None` when there is none.
    fn backward_run(&mut self) -> Result<Option<K>> {
        // A forward side with no new positions holds every position within the limit.
        let a = if self.sides[0].done {
            self.limit
        } else {
            self.sides[0].depth
        };
        let mut best = self.meet(1);
        loop {
            if let Some((t, x)) = best
                && t <= self.limit
            {
                return Ok(Some(x));
            }
            let b = self.sides[1].depth;
            if self.sides[1].done || a + b >= self.limit {
                return Ok(None);
            }
            let next = if a + b + 1 >= self.limit {
                self.probe(1)?
            } else {
                self.expand(1)?;
                self.meet(1)
            };
            if let Some(n) = next
                && best.is_none_or(|o| n < o)
            {
                best = Some(n);
            }
        }
    }

    /// The moves and jumps of the game through the meeting position `x`.
    fn game_through(&self, x: K) -> (usize, Vec<Jump>) {
        let (_, mut steps) = self.path_from_source(x);
        steps.extend(self.path_to_goal(x));
        let jumps: Vec<Jump> = steps
            .iter()
            .map(|&(f, t)| crate::games::notation::jump_between(self.board, f, t).expect("a jump"))
            .collect();
        (crate::games::notation::count_moves(&jumps), jumps)
    }
}
