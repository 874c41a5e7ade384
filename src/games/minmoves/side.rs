//! One side of the fewest-moves search: the positions it has reached, each with its
//! distance in moves, and its frontier; and the symmetries a side may merge positions by.

use super::store::Store;
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Pegs};
use crate::geometry::symmetry::{Symmetry, Transforms};

/// The symmetries mapping a set of positions onto itself.
pub(super) fn set_stabiliser<'a>(board: &'a Board, set: &[Pegs]) -> Vec<&'a Symmetry> {
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

/// Whether every symmetry mapping the set `own` onto itself maps `other` onto itself.
pub(super) fn fixes(board: &Board, own: &[Pegs], other: &[Pegs]) -> bool {
    let theirs = set_stabiliser(board, other);
    set_stabiliser(board, own)
        .iter()
        .all(|s| theirs.iter().any(|t| t.perm() == s.perm()))
}

/// One side of the search.
pub(super) struct Side<K: Bits> {
    pub(super) transforms: Transforms<K>,
    pub(super) dist: Store<K>,
    pub(super) frontier: Vec<K>,
    /// The size of the frontier before the last expansion.
    pub(super) previous: usize,
    pub(super) depth: usize,
    pub(super) done: bool,
    /// Per depth stored: the new positions, and the positions one move further that the
    /// bound dropped.
    pub(super) layers: Vec<(usize, u64)>,
}

impl<K: Bits> Side<K> {
    pub(super) fn new(board: &Board, sources: &[Pegs]) -> Self {
        let syms = set_stabiliser(board, sources);
        let transforms = Transforms::new(&syms, board.holes());
        let mut frontier: Vec<K> = Vec::new();
        for &s in sources {
            let c = transforms.canonical(K::from_u128(s));
            if !frontier.contains(&c) {
                frontier.push(c);
            }
        }
        let mut dist = Store::new();
        dist.add(&frontier, 0);
        let frontier_len = frontier.len();
        Side {
            transforms,
            dist,
            frontier,
            previous: 0,
            depth: 0,
            done: false,
            layers: vec![(frontier_len, 0)],
        }
    }

    /// The side as a kept search left it ([`super::work`]): its layers from depth 1 (each
    /// sorted), its figures per depth, and whether its last layer had no new position.
    pub(super) fn restore(&mut self, layers: Vec<Vec<K>>, figures: Vec<(usize, u64)>, done: bool) {
        let mut previous = self.frontier.len();
        for (d, layer) in layers.into_iter().enumerate() {
            self.dist.add(&layer, (d + 1) as u8);
            previous = std::mem::replace(&mut self.frontier, layer).len();
            self.depth = d + 1;
        }
        self.previous = if self.depth == 0 { 0 } else { previous };
        self.layers = figures;
        self.done = done;
    }

    /// A guess at the size of the next layer: the frontier times its last growth. (The
    /// pruning makes the sides grow at very different rates: on tri:8 the backward side
    /// grew 150-fold where the forward side grew 5-fold.)
    pub(super) fn next_size(&self) -> f64 {
        let now = self.frontier.len() as f64;
        if self.previous == 0 {
            now
        } else {
            now * now / self.previous as f64
        }
    }

    pub(super) fn distance(&self, pos: K) -> Option<usize> {
        self.dist
            .get(self.transforms.canonical(pos))
            .map(usize::from)
    }
}
