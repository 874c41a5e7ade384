//! Extreme dead ends: the shortest game (Fool's solitaire) and the game leaving the most
//! pegs.
//!
//! Every jump removes one peg, so a game that leaves the most pegs at a dead end is a game
//! with the fewest jumps: both questions have the same answer, the first layer (by number
//! of jumps) that contains a dead end. [`shortest_dead_end`] runs the counting engine
//! ([`crate::count::sweep`], symmetry-reduced, on the rayon pool, on disk past memory) up
//! to that layer only ([`CountOptions::stop_at_dead_end`]), which gives the number of
//! games ending there and the smallest dead end; one game to it comes from a search
//! backwards ([`game_to`]). [`shortest_dead_end_plain`] is the plain reference: a
//! breadth-first sweep over raw positions on one thread, carrying for each the number of
//! jump sequences reaching it and one parent, which the tests hold the engine's answer to.

use crate::count::sweep::{CountOptions, sweep_many};
use crate::error::{Error, Result, add};
use crate::games::notation;
use crate::games::solve::{Goal, Outcome, jump_masks, search};
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Jump, Pegs};
use crate::total::Total;
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
    pub games: Total,
    /// Distinct dead-end positions those games end in.
    pub dead_ends: u64,
    /// One such game.
    pub example: Vec<Jump>,
    /// The dead end it reaches.
    pub end: Pegs,
}

impl Extremes {
    /// The most pegs a dead end leaves (reached by the shortest games).
    ///
    /// ```
    /// use pegsol::games::extremes::Extremes;
    /// // tri:5 from a1 (published): 14 pegs, 6 jumps to the first dead end.
    /// let x = Extremes { start_pegs: 14, jumps: 6, games: 2.into(), dead_ends: 1, example: vec![], end: 0 };
    /// assert_eq!(x.most_pegs_left(), 8);
    /// ```
    pub fn most_pegs_left(&self) -> usize {
        self.start_pegs - self.jumps
    }
}

/// Finds the shortest games from `start` and counts them, by the counting engine run to
/// the first layer holding a dead end (`opts` as for a count: threads, memory, disk; the
/// answer is the same for every value). The example game ends in that layer's smallest
/// dead end, so it is the same on every run too.
///
/// ```
/// use pegsol::{geometry::board::Board, games::extremes::shortest_dead_end};
/// use pegsol::count::sweep::CountOptions;
/// let b = Board::from_spec("tri:5").unwrap();
/// let x = shortest_dead_end(&b, b.default_start(), &CountOptions::default()).unwrap();
/// // published: corner start, 8 pegs left by 2 games (6 jumps)
/// assert_eq!((x.jumps, x.most_pegs_left(), x.games), (6, 8, 2.into()));
/// ```
pub fn shortest_dead_end(board: &Board, start: Pegs, opts: &CountOptions) -> Result<Extremes> {
    let opts = CountOptions {
        stop_at_dead_end: true,
        ..opts.clone()
    };
    let swept = sweep_many(board, &[start], &opts)?;
    let counts = &swept.counts[0];
    // The last layer holds only dead ends, so some layer does.
    let layer = counts
        .layers
        .iter()
        .find(|l| !l.games_ended.is_zero())
        .expect("the last layer of a sweep is dead ends");
    let example = match swept.least_dead_ends[0] {
        _ if layer.jumps == 0 => Vec::new(),
        Some(end) => game_to(board, start, end, opts.max_memory)?,
        // A stopped sweep resumes only its own folder, whose last checkpoint comes before
        // the layer it stops at: that layer is always swept here.
        None => {
            return Err(Error::Disk(
                "the sweep resumed past its first dead end; remove its folder in the work \
                 directory and run again"
                    .into(),
            ));
        }
    };
    let end = notation::replay(board, start, &example)
        .map_err(|e| Error::input(format!("the example game does not replay: {}", e.reason)))?;
    Ok(Extremes {
        start_pegs: start.count_ones() as usize,
        jumps: layer.jumps,
        games: layer.games_ended,
        dead_ends: layer.dead_ends,
        example,
        end,
    })
}

/// A game from `start` to `end`, a position known to be reachable, found backwards: a
/// jump played backwards on a position is the same jump played forwards on its complement,
/// so a game from the complement of `end` to the complement of `start` (one peg in the
/// start's hole, where the solver is at its best), played in reverse order, goes from
/// `start` to `end`. Searched on one thread, so that it is the same game on every run.
///
/// ```
/// use pegsol::{geometry::board::Board, games::extremes::game_to, games::notation::replay};
/// let b = Board::from_spec("english").unwrap();
/// let d4 = 1u128 << b.hole("d4").unwrap();
/// let game = game_to(&b, b.default_start(), d4, u64::MAX).unwrap();
/// assert_eq!(game.len(), 31);
/// assert_eq!(replay(&b, b.default_start(), &game).unwrap(), d4);
/// ```
pub fn game_to(board: &Board, start: Pegs, end: Pegs, max_memory: u64) -> Result<Vec<Jump>> {
    let full = board.full();
    let holes = full & !start;
    let goal = if holes.count_ones() == 1 {
        Goal::OnePeg(holes)
    } else {
        Goal::Position(holes)
    };
    let mut game = found(one_thread(|| search(board, full & !end, goal, max_memory))?)?;
    game.reverse();
    Ok(game)
}

/// The game a search found; an error when it found none (the position was not
/// reachable).
fn found(s: crate::games::solve::Search) -> Result<Vec<Jump>> {
    match s.outcome {
        Outcome::Found(game) => Ok(game),
        Outcome::Impossible(why) => Err(Error::input(format!(
            "no game reaches that dead end: {why}"
        ))),
    }
}

/// Runs `f` on a pool of one thread: the solver's search then takes its work units in one
/// order, and finds the same game every time.
fn one_thread<T: Send>(f: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    crate::pool::build(1)?.install(f)
}

/// The plain reference for [`shortest_dead_end`]: a breadth-first sweep over raw
/// positions on one thread, keeping every layer with one parent per position; it gives up
/// with [`Error::Memory`] past `max_memory` bytes (french is refused where the engine
/// answers: docs/experiments.md, "Figures that were in code comments").
///
/// ```
/// use pegsol::{geometry::board::Board, games::extremes::shortest_dead_end_plain};
/// let b = Board::from_spec("tri:5").unwrap();
/// let x = shortest_dead_end_plain(&b, b.default_start(), u64::MAX).unwrap();
/// assert_eq!((x.jumps, x.most_pegs_left(), x.games), (6, 8, 2.into()));
/// ```
pub fn shortest_dead_end_plain(board: &Board, start: Pegs, max_memory: u64) -> Result<Extremes> {
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
    // process's memory ([`crate::memory::Watch`]): when only the entries of finished
    // layers counted, french's sweep passed its limit three times over (docs/experiments.md,
    // "Figures that were in code comments").
    let mut held = table_bytes(&layers[0]);
    loop {
        let current = layers.last().expect("a layer");
        let mut next = Table::with_hasher(ahash::RandomState::with_seeds(3, 1, 4, 1));
        let mut games = Total::ZERO;
        let mut dead: Vec<K> = Vec::new();
        let over = |bytes: u64| {
            (bytes > max_memory || watch.over().is_some()).then(|| {
                Error::memory_limit(
                    &format!("{} from {}", board.name(), board.start_name(start)),
                    &format!(
                        "the breadth-first sweep for the positions of {} jumps needs",
                        layers.len()
                    ),
                    &crate::memory::human(max_memory),
                    "; no dead end yet",
                )
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
                games = games.plus_count(m)?;
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
