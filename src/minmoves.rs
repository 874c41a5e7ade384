//! Solutions with the fewest moves, where a *move* is a run of consecutive jumps by one peg.
//!
//! The search is a bidirectional breadth-first search *by moves*. The forward side starts
//! from the start position(s) and adds, layer by layer, every position one move further
//! (one peg making one or more jumps). The backward side starts from the goal position(s)
//! (one peg in the finishing hole, or in any hole) and adds every position one move
//! *before*: a peg undoing one or more jumps (stepping back over an empty hole, which it
//! refills, into an empty hole). (Complements do not help here: undoing a move is a run of
//! jumps in the complement, but not by one peg.)
//!
//! Each side stores every position it has reached (canonical form under the symmetries
//! preserving its set of sources) with its distance in moves. When a position `s` is known
//! to both sides, a game of `d_f(s) + d_b(s)` moves exists. Every game of `m` moves passes,
//! after its first `i` moves, through a position with `d_f <= i` and `d_b <= m - i`, so once
//! the sides have been expanded to depths `a` and `b` every game of at most `a + b` moves
//! has been seen: the search stops when the best meeting is `<= a + b`, or when a side
//! has no new positions (then every pair has been seen). The answer is exact.

use crate::bits::Bits;
use crate::board::{Board, Jump, Pegs, bit};
use crate::error::{Error, Result};
use crate::symmetry::{Symmetry, Transforms};
use rayon::prelude::*;
use std::collections::HashMap;
use thousands::Separable;

type Table<K> = HashMap<K, u8, ahash::RandomState>;

/// Where games start or end for a fewest-moves search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ends {
    /// One given position (a start), or one peg in one given hole (a finish).
    Hole(usize),
    /// Every single vacancy (starts) or every single peg (finishes).
    Any,
}

/// What the search found.
#[derive(Clone, Debug)]
pub struct MinMoves {
    /// The fewest moves, with a game achieving them; `None` when no game exists.
    pub best: Option<(usize, Pegs, Vec<Jump>)>,
    /// Positions stored by the forward and backward sides (up to symmetry).
    pub positions: usize,
    /// The depths (in moves) the two sides were expanded to.
    pub depths: (usize, usize),
    /// How the answer was established.
    pub proof: String,
}

/// The fewest moves of a game from `start` to one peg at `finish`.
///
/// `start` is `Some(position)` for one start, or `None` for every single-vacancy start.
///
/// ```
/// use pegsol::{board::Board, minmoves::{min_moves, Ends}};
/// let b = Board::from_spec("tri:4").unwrap();
/// // OEIS A127500: the triangle of side 4 needs 5 moves at best.
/// let r = min_moves(&b, None, Ends::Any, u64::MAX).unwrap();
/// assert_eq!(r.best.unwrap().0, 5);
/// ```
pub fn min_moves(
    board: &Board,
    start: Option<Pegs>,
    finish: Ends,
    max_memory: u64,
) -> Result<MinMoves> {
    let full = board.full();
    let fwd: Vec<Pegs> = match start {
        Some(p) => vec![p],
        None => (0..board.holes()).map(|h| full ^ bit(h)).collect(),
    };
    let mut bwd: Vec<Pegs> = match finish {
        Ends::Hole(h) => vec![bit(h)],
        Ends::Any => (0..board.holes()).map(bit).collect(),
    };
    if let Some(p) = start {
        // A jump never changes a position's class: keep the goals in the start's class.
        let classes = crate::solve::Classes::new(board);
        bwd.retain(|&g| classes.of(g) == classes.of(p));
        if bwd.is_empty() {
            return Ok(MinMoves {
                best: None,
                positions: 0,
                depths: (0, 0),
                proof: "no goal is in the start's position class".into(),
            });
        }
    }
    if board.holes() <= 64 {
        Search::<u64>::new(board, &fwd, &bwd, max_memory).run()
    } else {
        Search::<u128>::new(board, &fwd, &bwd, max_memory).run()
    }
}

/// The symmetries mapping a set of positions onto itself.
fn set_stabiliser<'a>(board: &'a Board, set: &[Pegs]) -> Vec<&'a Symmetry> {
    let mut sorted = set.to_vec();
    sorted.sort_unstable();
    board
        .symmetries()
        .iter()
        .filter(|s| {
            let mut img: Vec<Pegs> = set.iter().map(|&p| board.transform(s, p)).collect();
            img.sort_unstable();
            img == sorted
        })
        .collect()
}

/// One side of the search.
struct Side<K: Bits> {
    transforms: Transforms<K>,
    dist: Table<K>,
    frontier: Vec<K>,
    depth: usize,
    done: bool,
}

impl<K: Bits> Side<K> {
    fn new(board: &Board, sources: &[Pegs]) -> Self {
        let syms = set_stabiliser(board, sources);
        let transforms = Transforms::new(&syms, board.holes());
        let mut dist = Table::with_hasher(ahash::RandomState::with_seeds(5, 8, 13, 21));
        let mut frontier = Vec::new();
        for &s in sources {
            let c = transforms.canonical(K::from_u128(s));
            if dist.insert(c, 0).is_none() {
                frontier.push(c);
            }
        }
        Side {
            transforms,
            dist,
            frontier,
            depth: 0,
            done: false,
        }
    }

    fn distance(&self, pos: K) -> Option<usize> {
        self.dist
            .get(&self.transforms.canonical(pos))
            .map(|&d| d as usize)
    }
}

/// Per hole `h` holding the moving peg: the steps it can take, as (mask of the jump's three
/// holes, the pattern they must show, the hole the peg lands in).
type Steps<K> = Vec<Vec<(K, K, usize)>>;

struct Search<'a, K: Bits> {
    board: &'a Board,
    /// Forward: jumps from `h` (pegs in from and over, `to` empty).
    jumps: Steps<K>,
    /// Backward: jumps undone by the peg in `h` (peg in `to`, over and from empty).
    undo: Steps<K>,
    /// Side 0 searches forward from the starts, side 1 backward from the goals.
    sides: [Side<K>; 2],
    max_entries: usize,
}

impl<'a, K: Bits> Search<'a, K> {
    fn new(board: &'a Board, fwd: &[Pegs], bwd: &[Pegs], max_memory: u64) -> Self {
        let mut jumps = vec![Vec::new(); board.holes()];
        let mut undo = vec![Vec::new(); board.holes()];
        for j in board.jumps() {
            let all = K::bit(j.from) | K::bit(j.over) | K::bit(j.to);
            jumps[j.from].push((all, K::bit(j.from) | K::bit(j.over), j.to));
            undo[j.to].push((all, K::bit(j.to), j.from));
        }
        Search {
            board,
            jumps,
            undo,
            sides: [Side::new(board, fwd), Side::new(board, bwd)],
            max_entries: (max_memory / 24).min(usize::MAX as u64) as usize,
        }
    }

    /// Calls `f` with every position one move from `pos` (forward for side 0, undone for
    /// side 1) and the steps `(from, to)` of the moving peg.
    fn moves(&self, side: usize, pos: K, f: &mut impl FnMut(K, &[(usize, usize)])) {
        let steps = if side == 0 { &self.jumps } else { &self.undo };
        let mut path = Vec::new();
        for h in 0..steps.len() {
            if pos & K::bit(h) != K::zero() {
                Self::chain(steps, pos, h, &mut path, f);
            }
        }
    }

    fn chain(
        steps: &Steps<K>,
        pos: K,
        h: usize,
        path: &mut Vec<(usize, usize)>,
        f: &mut impl FnMut(K, &[(usize, usize)]),
    ) {
        for &(all, pattern, to) in &steps[h] {
            if pos & all == pattern {
                let next = pos ^ all;
                path.push((h, to));
                f(next, path);
                Self::chain(steps, next, to, path, f);
                path.pop();
            }
        }
    }

    /// Expands side `i` by one layer; returns the new positions.
    fn expand(&mut self, i: usize) -> Result<Vec<K>> {
        let frontier = std::mem::take(&mut self.sides[i].frontier);
        let side = &self.sides[i];
        let found: Vec<Vec<K>> = frontier
            .par_chunks(1024)
            .map(|chunk| {
                let mut out = Vec::new();
                for &pos in chunk {
                    self.moves(i, pos, &mut |next, _| {
                        let c = side.transforms.canonical(next);
                        if !side.dist.contains_key(&c) {
                            out.push(c);
                        }
                    });
                }
                out.sort_unstable();
                out.dedup();
                out
            })
            .collect();
        let side = &mut self.sides[i];
        let depth = side.depth + 1;
        let d = u8::try_from(depth).map_err(|_| Error::input("more than 255 moves"))?;
        let mut fresh = Vec::new();
        for c in found.into_iter().flatten() {
            if let std::collections::hash_map::Entry::Vacant(e) = side.dist.entry(c) {
                e.insert(d);
                fresh.push(c);
            }
        }
        side.depth = depth;
        side.done = fresh.is_empty();
        side.frontier = fresh.clone();
        let held: usize = self.sides.iter().map(|s| s.dist.len()).sum();
        if held > self.max_entries {
            return Err(Error::Memory(format!(
                "the fewest-moves search holds {held} positions at depth {depth}, more than the \
                 memory limit allows; raise --max-memory"
            )));
        }
        Ok(fresh)
    }

    /// The best meeting among `new` positions of side `i` (at that side's depth): the
    /// total moves and the concrete position where the sides meet.
    fn meet(&self, i: usize, new: &[K]) -> Option<(usize, K)> {
        let side = &self.sides[i];
        let other = &self.sides[1 - i];
        new.par_iter()
            .filter_map(|&s| {
                (0..side.transforms.len())
                    .filter_map(|g| {
                        let x = side.transforms.apply(g, s);
                        other.distance(x).map(|d| (side.depth + d, x))
                    })
                    .min()
            })
            .min()
    }

    fn run(mut self) -> Result<MinMoves> {
        let sources: Vec<K> = self.sides[0].frontier.clone();
        let mut best = self.meet(0, &sources);
        loop {
            let (a, b) = (self.sides[0].depth, self.sides[1].depth);
            let exhausted = self.sides.iter().any(|s| s.done);
            if exhausted || best.is_some_and(|(t, _)| t <= a + b) {
                break;
            }
            // Expand the side with the smaller frontier.
            let i = usize::from(self.sides[1].frontier.len() < self.sides[0].frontier.len());
            let fresh = self.expand(i)?;
            if std::env::var_os("PEGSOL_TRACE").is_some() {
                eprintln!(
                    "side {i} depth {}: {} new, {} stored",
                    self.sides[i].depth,
                    fresh.len(),
                    self.sides[i].dist.len()
                );
            }
            if let Some((t, x)) = self.meet(i, &fresh)
                && best.is_none_or(|(bt, _)| t < bt)
            {
                best = Some((t, x));
            }
        }
        let positions = self.sides.iter().map(|s| s.dist.len()).sum();
        let depths = (self.sides[0].depth, self.sides[1].depth);
        let best = best.map(|(t, x)| {
            let (start, mut steps) = self.path_from_source(x);
            steps.extend(self.path_to_goal(x));
            let jumps: Vec<Jump> = steps
                .iter()
                .map(|&(f, t)| crate::game::jump_between(self.board, f, t).expect("a jump"))
                .collect();
            let moves = crate::game::count_moves(&jumps);
            debug_assert_eq!(moves, t);
            (moves, start.to_u128(), jumps)
        });
        Ok(MinMoves {
            best,
            positions,
            depths,
            proof: format!(
                "bidirectional breadth-first search by moves ({} positions up to \
                 symmetry, depths {}+{})",
                positions.separate_with_commas(),
                depths.0,
                depths.1
            ),
        })
    }

    /// A game from a start to `pos` in `d_f(pos)` moves: the start and the steps.
    fn path_from_source(&self, pos: K) -> (K, Vec<(usize, usize)>) {
        let side = &self.sides[0];
        let mut pos = pos;
        let mut d = side.distance(pos).expect("a stored position");
        let mut rev: Vec<Vec<(usize, usize)>> = Vec::new();
        while d > 0 {
            // Undo one move, to a position one move closer to a start.
            let mut step = None;
            self.moves(1, pos, &mut |prev, path| {
                if step.is_none() && side.distance(prev) == Some(d - 1) {
                    step = Some((prev, path.to_vec()));
                }
            });
            let (prev, path) = step.expect("a predecessor one move closer");
            // Undone h0 -> h1 -> ... ; played forward the peg goes back along it.
            rev.push(path.iter().rev().map(|&(f, t)| (t, f)).collect());
            pos = prev;
            d -= 1;
        }
        rev.reverse();
        (pos, rev.into_iter().flatten().collect())
    }

    /// A game from `pos` to a goal in `d_b(pos)` moves, as steps.
    fn path_to_goal(&self, pos: K) -> Vec<(usize, usize)> {
        let side = &self.sides[1];
        let mut pos = pos;
        let mut d = side.distance(pos).expect("a stored position");
        let mut steps = Vec::new();
        while d > 0 {
            let mut step = None;
            self.moves(0, pos, &mut |next, path| {
                if step.is_none() && side.distance(next) == Some(d - 1) {
                    step = Some((next, path.to_vec()));
                }
            });
            let (next, path) = step.expect("a successor one move closer");
            steps.extend(path);
            pos = next;
            d -= 1;
        }
        steps
    }
}
