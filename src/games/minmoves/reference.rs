//! A plain reference for the fewest-moves search: a breadth-first search *by moves* over
//! every position reachable from one start, with no bound, no symmetry and no second side.
//! It is slow and obviously correct: layer `d` holds the positions first reached after `d`
//! moves, so a one-peg position appears in the layer of its fewest moves. The tests compare
//! [`super::min_moves`] and [`super::table`] with it on every start of tri:4 to tri:7.

use crate::geometry::board::{Board, Pegs};
use rustc_hash::FxHashSet;

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
    // Per hole: the jumps from it, as (the jump's three holes, the pegs it needs, landing).
    let mut steps: Vec<Vec<(u64, u64, usize)>> = vec![Vec::new(); board.holes()];
    for j in board.jumps() {
        let (f, o, t) = (1u64 << j.from, 1u64 << j.over, 1u64 << j.to);
        steps[j.from].push((f | o | t, f | o, j.to));
    }
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
