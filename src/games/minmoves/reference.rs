//! A plain reference for the fewest-moves search: a breadth-first search *by moves* over
//! every position reachable from one start, with no bound, no symmetry and no second side.
//! It is slow and obviously correct: layer `d` holds the positions first reached after `d`
//! moves, so a one-peg position appears in the layer of its fewest moves. The tests compare
//! [`super::min_moves`] and [`super::table`] with it on every start of tri:4 to tri:7.

use crate::geometry::board::{Board, Pegs};
use rustc_hash::{FxHashMap, FxHashSet};

/// The fewest moves from `start` to one peg in each hole (index = hole; `None` where no game
/// ends there). Boards of at most 64 holes.
///
/// ```
/// use pegsol::{geometry::board::Board, games::minmoves::reference::fewest_moves_by_bfs};
/// let b = Board::from_spec("tri:4")?;
/// // OEIS A127500: the triangle of side 4 needs 5 moves, best over starts and finishes.
/// let best = b
///     .hole_classes()
///     .iter()
///     .flat_map(|class| fewest_moves_by_bfs(&b, b.full() ^ (1 << class[0])))
///     .flatten()
///     .min();
/// assert_eq!(best, Some(5));
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn fewest_moves_by_bfs(board: &Board, start: Pegs) -> Vec<Option<usize>> {
    assert!(
        board.holes() <= 64,
        "the reference search takes boards of 64 holes at most"
    );
    let steps = steps(board);
    let mut best = vec![None; board.holes()];
    let start = start as u64;
    let mut seen = FxHashSet::default();
    seen.insert(start);
    let mut layer = vec![start];
    let mut moves = 0;
    while !layer.is_empty() {
        let mut next = Vec::new();
        for &pos in &layer {
            if pos.count_ones() == 1 {
                best[pos.trailing_zeros() as usize].get_or_insert(moves);
            }
            for h in (0..board.holes()).filter(|&h| pos & (1 << h) != 0) {
                chain(&steps, pos, h, &mut |p| {
                    if seen.insert(p) {
                        next.push(p);
                    }
                });
            }
        }
        layer = next;
        moves += 1;
    }
    best
}

/// Every position reachable from `start`, with the fewest moves that reach it (boards of at
/// most 64 holes). The tests hold the region bounds against it.
///
/// ```
/// use pegsol::{geometry::board::Board, games::minmoves::reference::moves_to_reach};
/// let b = Board::from_spec("tri:4")?;
/// let a2 = b.start_from_names(&["a2".into()])?;
/// let d = moves_to_reach(&b, a2);
/// assert_eq!(d[&(a2 as u64)], 0);
/// // The fewest moves to one peg from a2 (OEIS A127500: 5 on the triangle of side 4).
/// assert_eq!(d.iter().filter(|(p, _)| p.count_ones() == 1).map(|(_, &m)| m).min(), Some(5));
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn moves_to_reach(board: &Board, start: Pegs) -> FxHashMap<u64, usize> {
    assert!(
        board.holes() <= 64,
        "the reference takes boards of 64 holes at most"
    );
    let steps = steps(board);
    let start = start as u64;
    let mut dist = FxHashMap::default();
    dist.insert(start, 0);
    let mut layer = vec![start];
    let mut moves = 0;
    while !layer.is_empty() {
        moves += 1;
        let mut next = Vec::new();
        for &pos in &layer {
            for h in (0..board.holes()).filter(|&h| pos & (1 << h) != 0) {
                chain(&steps, pos, h, &mut |p| {
                    if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(p) {
                        e.insert(moves);
                        next.push(p);
                    }
                });
            }
        }
        layer = next;
    }
    dist
}

/// Every position one move after `pos` (boards of at most 64 holes).
///
/// ```
/// use pegsol::{geometry::board::Board, games::minmoves::reference::one_move};
/// let b = Board::from_spec("tri:4")?;
/// // From a1 empty: a3 or c3 jumps into a1, and neither can jump on.
/// assert_eq!(one_move(&b, b.default_start() as u64).len(), 2);
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn one_move(board: &Board, pos: u64) -> Vec<u64> {
    let steps = steps(board);
    let mut out = Vec::new();
    for h in (0..board.holes()).filter(|&h| pos & (1 << h) != 0) {
        chain(&steps, pos, h, &mut |p| out.push(p));
    }
    out
}

/// Per hole: the jumps from it, as (the jump's three holes, the pegs it needs, landing).
fn steps(board: &Board) -> Vec<Vec<(u64, u64, usize)>> {
    let mut steps: Vec<Vec<(u64, u64, usize)>> = vec![Vec::new(); board.holes()];
    for j in board.jumps() {
        let (f, o, t) = (1u64 << j.from, 1u64 << j.over, 1u64 << j.to);
        steps[j.from].push((f | o | t, f | o, j.to));
    }
    steps
}

/// Calls `f` with every position the peg in `h` reaches by one or more jumps.
fn chain(steps: &[Vec<(u64, u64, usize)>], pos: u64, h: usize, f: &mut impl FnMut(u64)) {
    for &(all, need, to) in &steps[h] {
        if pos & all == need {
            let next = pos ^ all;
            f(next);
            chain(steps, next, to, f);
        }
    }
}
