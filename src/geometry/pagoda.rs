//! Pagoda functions: weights on the holes such that no jump raises the total weight of the
//! pegs.
//!
//! A pagoda function `w` satisfies `w(to) <= w(from) + w(over)` for every jump of the board,
//! so the weight `P(p) = sum of w over the pegs of p` never increases along a game. A
//! position whose weight is below every goal's weight can therefore never reach a goal:
//! the search ([`crate::games::solve`]) drops it without looking further.
//!
//! The candidates here are generic (any board, any lattice): weights that fall off
//! Fibonacci-like with the distance from the goal hole, by several distances. Each
//! candidate is checked exactly against every jump of the board ([`is_pagoda`]) and kept
//! only when it holds, so a wrong guess can cost time but never a solution.

use crate::geometry::board::{Board, Pegs};

/// Whether `w` (one integer weight per hole) is a pagoda function of `board`:
/// `w(to) <= w(from) + w(over)` for every jump.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::is_pagoda};
/// let b = Board::from_spec("line:4").unwrap();
/// assert!(is_pagoda(&b, &[1, 1, 2, 3]));
/// assert!(!is_pagoda(&b, &[0, 0, 1, 0])); // a1 over b1 into c1 would gain weight
/// ```
pub fn is_pagoda(board: &Board, w: &[i64]) -> bool {
    w.len() == board.holes()
        && board
            .jumps()
            .iter()
            .all(|j| w[j.to] <= w[j.from] + w[j.over])
}

/// The weight of a position under `w`.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::weight};
/// let b = Board::from_spec("line:4").unwrap();
/// assert_eq!(weight(&[1, 1, 2, 3], 0b1010), 4);
/// ```
pub fn weight(w: &[i64], pos: Pegs) -> i64 {
    w.iter()
        .enumerate()
        .filter(|&(h, _)| pos >> h & 1 == 1)
        .map(|(_, &x)| x)
        .sum()
}

/// Distances between holes by steps along the lattice's directions (holes only), from
/// `target`: `usize::MAX` for a hole that cannot be reached that way.
fn steps_from(board: &Board, target: usize) -> Vec<usize> {
    let cells = board.cells();
    let mut dist = vec![usize::MAX; cells.len()];
    dist[target] = 0;
    let mut queue = std::collections::VecDeque::from([target]);
    while let Some(h) = queue.pop_front() {
        let (r, c) = cells[h];
        for &(dr, dc) in board.lattice().directions() {
            if let Some(n) = board.hole_at((r + dr, c + dc))
                && dist[n] == usize::MAX
            {
                dist[n] = dist[h] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// Pagoda functions of `board` for finishing in one of the holes of `goal` (a mask), each
/// checked by [`is_pagoda`] and able to rule something out (some goal hole weighs more than
/// nothing), distinct, at most `max` of them.
///
/// Candidates, for each goal hole `t`: `w(h) = F(k - d(h))` (0 below index 0), `F` the
/// Fibonacci numbers 1, 1, 2, 3, 5, ..., `d` the distance from `t` in lattice steps, in
/// rows, in columns or the larger of the two, the sum of those two, `k` from 1 to 6.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::{goal_pagodas, is_pagoda}};
/// let b = Board::from_spec("english").unwrap();
/// let d4 = b.hole("d4").unwrap();
/// let p = goal_pagodas(&b, 1 << d4, 8);
/// assert!(!p.is_empty() && p.iter().all(|w| is_pagoda(&b, w) && w[d4] > 0));
/// ```
pub fn goal_pagodas(board: &Board, goal: Pegs, max: usize) -> Vec<Vec<i64>> {
    let fib = |i: i64| -> i64 {
        if i < 0 {
            return 0;
        }
        let (mut a, mut b) = (1i64, 1i64);
        for _ in 0..i {
            (a, b) = (b, a + b);
        }
        a
    };
    let cells = board.cells();
    let mut out: Vec<Vec<i64>> = Vec::new();
    for t in (0..board.holes()).filter(|&t| goal >> t & 1 == 1) {
        let (tr, tc) = cells[t];
        let steps = steps_from(board, t);
        let metrics: Vec<Box<dyn Fn(usize) -> usize>> = vec![
            Box::new(|h| steps[h]),
            Box::new(|h| cells[h].0.abs_diff(tr) as usize),
            Box::new(|h| cells[h].1.abs_diff(tc) as usize),
            Box::new(|h| (cells[h].0.abs_diff(tr) as usize).max(cells[h].1.abs_diff(tc) as usize)),
            Box::new(|h| (cells[h].0.abs_diff(tr) + cells[h].1.abs_diff(tc)) as usize),
        ];
        for d in &metrics {
            for k in 1..=6i64 {
                let w: Vec<i64> = (0..board.holes())
                    .map(|h| match d(h) {
                        usize::MAX => 0,
                        x => fib(k - x.min(64) as i64),
                    })
                    .collect();
                let least = (0..board.holes())
                    .filter(|&g| goal >> g & 1 == 1)
                    .map(|g| w[g])
                    .min()
                    .unwrap_or(0);
                if least > 0 && is_pagoda(board, &w) && !out.contains(&w) {
                    out.push(w);
                }
            }
        }
    }
    out.truncate(max);
    out
}
