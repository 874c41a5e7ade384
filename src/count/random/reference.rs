//! Plain references for the random player and the quickest loss, for the tests: no
//! symmetry, no common denominators, no solvable machinery; raw positions throughout.

use super::{ByHole, ByPegs, Prob, QuickestLoss};
use crate::geometry::board::{Board, Pegs};
use std::collections::HashMap;

/// The random player's odds by a plain forward pass over raw positions with exact
/// fractions: (pegs left, probability) ascending, and (hole, probability of one peg there)
/// in hole order, zeros left out.
///
/// ```
/// use pegsol::{geometry::board::Board, count::random::{random_player, reference}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let (pegs, holes) = reference::random_player(&b, b.default_start());
/// let odds = random_player(&b, b.default_start(), &Default::default()).unwrap();
/// assert_eq!((pegs, holes), (odds.pegs_left, odds.finish));
/// ```
pub fn random_player(board: &Board, start: Pegs) -> (ByPegs, ByHole) {
    let mut by_pegs = vec![Prob::zero(); board.holes() + 1];
    let mut by_hole = vec![Prob::zero(); board.holes()];
    let mut layer: HashMap<Pegs, Prob> =
        HashMap::from([(start, Prob::exact(1u32.into(), 1u32.into()))]);
    while !layer.is_empty() {
        let mut next: HashMap<Pegs, Prob> = HashMap::new();
        for (pos, p) in layer {
            let legal: Vec<_> = board.jumps().iter().filter(|j| j.is_legal(pos)).collect();
            if legal.is_empty() {
                let pegs = pos.count_ones() as usize;
                by_pegs[pegs] = by_pegs[pegs].plus(&p);
                if pegs == 1 {
                    let h = pos.trailing_zeros() as usize;
                    by_hole[h] = by_hole[h].plus(&p);
                }
                continue;
            }
            let share = Prob::exact(p.num.clone(), &p.den * legal.len());
            for j in legal {
                let slot = next.entry(pos ^ j.mask()).or_insert_with(Prob::zero);
                *slot = slot.plus(&share);
            }
        }
        layer = next;
    }
    let pegs = by_pegs
        .into_iter()
        .enumerate()
        .filter(|(_, p)| !p.is_zero())
        .map(|(k, p)| (k as u32, p))
        .collect();
    let holes = by_hole
        .into_iter()
        .enumerate()
        .filter(|(_, p)| !p.is_zero())
        .map(|(h, p)| (board.hole_name(h), p))
        .collect();
    (pegs, holes)
}

/// Whether a one-peg finish in `goal` (a mask of holes) is possible from a position: a
/// plain memoized search.
pub struct Winnable<'a> {
    board: &'a Board,
    goal: Pegs,
    memo: HashMap<Pegs, bool>,
}

impl<'a> Winnable<'a> {
    /// A search for one peg in `goal`.
    pub fn new(board: &'a Board, goal: Pegs) -> Self {
        Winnable {
            board,
            goal,
            memo: HashMap::new(),
        }
    }

    /// Whether one peg in the goal can be reached from `pos`.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, count::random::reference::Winnable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let mut w = Winnable::new(&b, b.full());
    /// assert!(w.can_win(b.default_start()));
    /// ```
    pub fn can_win(&mut self, pos: Pegs) -> bool {
        if pos.count_ones() == 1 {
            return pos & self.goal != 0;
        }
        if let Some(&known) = self.memo.get(&pos) {
            return known;
        }
        let board = self.board;
        let won = board
            .jumps()
            .iter()
            .filter(|j| j.is_legal(pos))
            .any(|j| self.can_win(pos ^ j.mask()));
        self.memo.insert(pos, won);
        won
    }
}

/// The quickest loss by a depth-first search over jump sequences, one depth after another
/// up to `max_depth`: the sequences of each length whose positions before the last can
/// win and whose last cannot. `None` past `max_depth`.
pub fn quickest_loss(
    board: &Board,
    start: Pegs,
    winnable: &mut impl FnMut(Pegs) -> bool,
    max_depth: usize,
) -> Option<QuickestLoss> {
    if !winnable(start) {
        return Some(QuickestLoss {
            jumps: Some(0),
            sequences: 1,
            at_least: None,
        });
    }
    fn lost_at(
        board: &Board,
        pos: Pegs,
        left: usize,
        winnable: &mut impl FnMut(Pegs) -> bool,
    ) -> u128 {
        let mut n = 0;
        for j in board.jumps().iter().filter(|j| j.is_legal(pos)) {
            let child = pos ^ j.mask();
            let can = winnable(child);
            if left == 1 {
                n += u128::from(!can);
            } else if can {
                n += lost_at(board, child, left - 1, winnable);
            }
        }
        n
    }
    (1..=max_depth).find_map(|depth| {
        let n = lost_at(board, start, depth, winnable);
        (n > 0).then_some(QuickestLoss {
            jumps: Some(depth),
            sequences: n,
            at_least: None,
        })
    })
}

/// Plays `games` random games from `start` (each legal jump equally likely, by a fixed
/// generator seeded with `seed`) and counts them by pegs left (index = pegs).
///
/// ```
/// use pegsol::{geometry::board::Board, count::random::reference::play_random};
/// let b = Board::from_spec("tri:5").unwrap();
/// let counts = play_random(&b, b.default_start(), 1_000, 7);
/// assert_eq!(counts.iter().sum::<u64>(), 1_000);
/// ```
pub fn play_random(board: &Board, start: Pegs, games: u64, seed: u64) -> Vec<u64> {
    let mut state = seed;
    // SplitMix64.
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut counts = vec![0u64; board.holes() + 1];
    let mut legal: Vec<&crate::geometry::board::Jump> = Vec::new();
    for _ in 0..games {
        let mut pos = start;
        loop {
            legal.clear();
            legal.extend(board.jumps().iter().filter(|j| j.is_legal(pos)));
            if legal.is_empty() {
                break;
            }
            // Multiply-shift: an index below `legal.len()` with a bias under 2^-58.
            let i = ((u128::from(next()) * legal.len() as u128) >> 64) as usize;
            pos ^= legal[i].mask();
        }
        counts[pos.count_ones() as usize] += 1;
    }
    counts
}
