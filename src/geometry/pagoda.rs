//! Pagoda functions: weights on the holes such that for every jump (`a` over `b` into `c`)
//! `w(c) <= w(a) + w(b)`. No jump increases the weight of a position, so a position
//! lighter than every goal can never reach one, and a position heavier than the start can
//! never have been reached from it (techniques.md, "Pagoda functions"; Beasley, "The Ins
//! and Outs of Peg Solitaire", chapter 4).
//!
//! The functions built here are Conway's resource counts in integers: for a target hole
//! `t`, `w(h) = F(D + 2 - d(h, t))` with `F` the Fibonacci numbers, `d` the distance in
//! jumps' unit steps on the whole lattice and `D` the largest distance on the board. A jump
//! straight towards `t` removes pegs at distances `n + 2` and `n + 1` and adds one at `n`:
//! `F(k) = F(k - 1) + F(k - 2)`; every other jump adds no more weight than it removes.
//! Each function is checked against every jump of the board ([`is_pagoda`]) and dropped if
//! one breaks it, so a lattice where the argument would not hold costs pruning, never
//! correctness.

use crate::geometry::board::{Board, Pegs, bit};
use std::collections::{HashMap, VecDeque};

/// Whether `w` (one weight per hole) is a pagoda function of `board`.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::is_pagoda};
/// let b = Board::from_spec("tri:5").unwrap();
/// assert!(is_pagoda(&b, &vec![1; b.holes()])); // 1 <= 1 + 1 on every jump
/// let mut w = vec![0; b.holes()];
/// w[b.hole("a1").unwrap()] = 1; // a1 can be jumped into from holes of weight 0
/// assert!(!is_pagoda(&b, &w));
/// ```
pub fn is_pagoda(board: &Board, w: &[i64]) -> bool {
    w.len() == board.holes()
        && board
            .jumps()
            .iter()
            .all(|j| w[j.to] <= w[j.from].saturating_add(w[j.over]))
}

/// The weight of a position under `w`.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::weight};
/// let b = Board::from_spec("tri:5").unwrap();
/// assert_eq!(weight(&vec![2; b.holes()], b.default_start()), 28); // 14 pegs
/// ```
pub fn weight(w: &[i64], pos: Pegs) -> i64 {
    w.iter()
        .enumerate()
        .filter(|&(h, _)| pos & bit(h) != 0)
        .map(|(_, &x)| x)
        .sum()
}

/// One resource count per hole of `targets` (a mask), each a verified pagoda function;
/// none on boards where the weights would not fit an `i64` sum.
///
/// ```
/// use pegsol::geometry::{Board, pagoda::{resource_counts, weight}};
/// let b = Board::from_spec("english").unwrap();
/// let d4 = b.hole("d4").unwrap();
/// let w = &resource_counts(&b, 1 << d4)[0];
/// // Two pegs on the far corners of an arm weigh less than one peg in the centre: no
/// // game from them can end in d4.
/// let corners = (1u128 << b.hole("c1").unwrap()) | (1u128 << b.hole("e1").unwrap());
/// assert!(weight(w, corners) < weight(w, 1 << d4));
/// ```
pub fn resource_counts(board: &Board, targets: Pegs) -> Vec<Vec<i64>> {
    let cells = board.cells();
    let dirs = board.lattice().directions();
    let (r0, r1) = cells
        .iter()
        .fold((i32::MAX, i32::MIN), |(a, b), &(r, _)| (a.min(r), b.max(r)));
    let (c0, c1) = cells
        .iter()
        .fold((i32::MAX, i32::MIN), |(a, b), &(_, c)| (a.min(c), b.max(c)));
    let mut out = Vec::new();
    for t in (0..board.holes()).filter(|&t| targets & bit(t) != 0) {
        // Distances on the lattice within the board's bounding box, padded by one.
        let mut dist: HashMap<(i32, i32), i64> = HashMap::from([(cells[t], 0)]);
        let mut queue = VecDeque::from([cells[t]]);
        while let Some((r, c)) = queue.pop_front() {
            let d = dist[&(r, c)];
            for &(dr, dc) in dirs {
                let n = (r + dr, c + dc);
                if n.0 < r0 - 1 || n.0 > r1 + 1 || n.1 < c0 - 1 || n.1 > c1 + 1 {
                    continue;
                }
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(n) {
                    e.insert(d + 1);
                    queue.push_back(n);
                }
            }
        }
        let d: Vec<i64> = cells.iter().map(|c| dist[c]).collect();
        let far = d.iter().copied().max().unwrap_or(0);
        if far > 80 {
            continue;
        }
        let mut fib = vec![0i64, 1];
        while fib.len() < far as usize + 3 {
            fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
        }
        let w: Vec<i64> = d.iter().map(|&x| fib[(far + 2 - x) as usize]).collect();
        let fits = w.iter().try_fold(0i64, |s, &x| s.checked_add(x)).is_some();
        if fits && is_pagoda(board, &w) {
            out.push(w);
        }
    }
    out
}
