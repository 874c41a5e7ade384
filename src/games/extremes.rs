//! Extreme dead ends: the shortest game (Fool's solitaire) and the game leaving the most
//! pegs.
//!
//! Every jump removes one peg, so a game that leaves the most pegs at a dead end is a game
//! with the fewest jumps: both questions have the same answer, the first layer (by number
//! of jumps) that contains a dead end. [`shortest_dead_end`] sweeps the layers breadth
//! first over raw positions, carrying for each the number of jump sequences reaching it and
//! one parent, stops at the first layer with a dead end, and reads off the number of games
//! ending there and one of them. This is independent of [`crate::count::sweep`], whose
//! `shortest_game()` and `max_dead_end()` it must agree with.

use crate::error::{Error, Result, add};
use crate::games::notation;
use crate::games::solve::jump_masks;
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Jump, Pegs};
use std::collections::HashMap;

type Table<K> = HashMap<K, (u128, K), ahash::RandomState>;

/// The shortest games of one start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extremes {
    /// Pegs at the start.
    pub start_pegs: usize,
    /// The fewest jumps of any game.
    pub jumps: usize,
    /// How many games (jump sequences ending in a dead end) are that short.
    pub games: u128,
    /// Distinct dead-end positions those games end in.
    pub dead_ends: u64,
    /// One such game.
    pub example: Vec<Jump>,
    /// The dead end it reaches.
    pub end: Pegs,
}

impl Extremes {
    /// The most pegs a dead end leaves (reached by the shortest games).
    pub fn most_pegs_left(&self) -> usize {
        self.start_pegs - self.jumps
    }
}

/// Finds the shortest games from `start` and counts them.
///
/// ```
/// use pegsol::{geometry::board::Board, games::extremes::shortest_dead_end};
/// let b = Board::from_spec("tri:5").unwrap();
/// let x = shortest_dead_end(&b, b.default_start(), u64::MAX).unwrap();
/// // published: corner start, 8 pegs left by 2 games (6 jumps)
/// assert_eq!((x.jumps, x.most_pegs_left(), x.games), (6, 8, 2));
/// ```
pub fn shortest_dead_end(board: &Board, start: Pegs, max_memory: u64) -> Result<Extremes> {
    if board.holes() <= 64 {
        sweep::<u64>(board, start, max_memory)
    } else {
        sweep::<u128>(board, start, max_memory)
    }
}

/// The bytes a table takes ([`crate::memory::hash_table_bytes`]).
fn table_bytes<K>(t: &Table<K>) -> u64 {
    crate::memory::hash_table_bytes::<(K, (u128, K))>(t.capacity())
}

fn sweep<K: Bits>(board: &Board, start: Pegs, max_memory: u64) -> Result<Extremes> {
    let jumps = jump_masks::<K>(board);
    let watch = crate::memory::Watch::new(max_memory);
    let mut layers: Vec<Table<K>> = Vec::new();
    let mut first = Table::with_hasher(ahash::RandomState::with_seeds(3, 1, 4, 1));
    first.insert(K::from_u128(start), (1, K::zero()));
    layers.push(first);
    // The tables kept, in bytes. The layer being built is weighed before each time it may
    // double its slots (its old slots and the new, three times its bytes), and so is the
    // process's memory ([`crate::memory::Watch`]): french's sweep took 1.5 GB for a limit
    // of 500 MB when only the entries of finished layers counted.
    let mut held = table_bytes(&layers[0]);
    loop {
        let current = layers.last().expect("a layer");
        let mut next = Table::with_hasher(ahash::RandomState::with_seeds(3, 1, 4, 1));
        let mut games = 0u128;
        let mut dead: Vec<K> = Vec::new();
        let over = |bytes: u64| {
            (bytes > max_memory || watch.over().is_some()).then(|| {
                Error::Memory(format!(
                    "the breadth-first sweep needs more than {} (the limit) for the positions \
                     of {} jumps, with no dead end yet; raise --max-memory",
                    crate::memory::human(max_memory),
                    layers.len()
                ))
            })
        };
        for (&pos, &(m, _)) in current {
            if next.len() + jumps.len() > next.capacity()
                && let Some(e) = over(held + 3 * table_bytes(&next))
            {
                return Err(e);
            }
            let mut moved = false;
            for &(all, fo) in &jumps {
                if pos & all == fo {
                    moved = true;
                    let slot = next.entry(pos ^ all).or_insert((0, pos));
                    slot.0 = add(slot.0, m)?;
                }
            }
            if !moved {
                games = add(games, m)?;
                dead.push(pos);
            }
        }
        if !dead.is_empty() {
            let end = *dead.iter().min().expect("a dead end");
            let mut path = Vec::new();
            let mut pos = end;
            for layer in layers[1..].iter().rev() {
                let parent = layer[&pos].1;
                let j = notation::jump_from_diff(board, parent.to_u128(), pos.to_u128())
                    .expect("parent and child differ by a jump");
                path.push(j);
                pos = parent;
            }
            path.reverse();
            return Ok(Extremes {
                start_pegs: start.count_ones() as usize,
                jumps: layers.len() - 1,
                games,
                dead_ends: dead.len() as u64,
                example: path,
                end: end.to_u128(),
            });
        }
        held += table_bytes(&next);
        if let Some(e) = over(held) {
            return Err(e);
        }
        layers.push(next);
    }
}
