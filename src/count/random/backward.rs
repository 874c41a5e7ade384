//! The winnable positions with few pegs, every one of them: grown backwards from the one-peg
//! finishes of a position class, a layer of un-jumps at a time, for as many layers as a
//! share of the memory limit holds.
//!
//! A position with `p` pegs can end with one peg on a finish exactly when it is reached from
//! that one-peg position by `p - 1` un-jumps (a jump played backwards), so layer `p` of the
//! growth is the whole set of winnable positions with `p` pegs, and the depth-first search
//! of [`super::winnable`] stops there: a position with that few pegs is looked up, never
//! searched. The layers hold canonical forms under the symmetries the search uses (those
//! fixing the finish), which carry the set onto itself.

use crate::geometry::bits::Bits;
use crate::geometry::moves::MoveTable;
use dashmap::DashSet;
use rayon::prelude::*;

/// Bytes a position takes in the set a layer is gathered into, with the set's slack and
/// its doubling (a sorted layer takes `size_of::<K>()`).
const GATHER_BYTES: u64 = 40;

/// Every winnable position of one position class with up to [`Backward::most_pegs`] pegs.
pub(super) struct Backward<K: Bits> {
    /// `layers[p - 1]`: the canonical forms of the winnable positions with `p` pegs, sorted.
    layers: Vec<Vec<K>>,
}

impl<K: Bits> Backward<K> {
    /// Grows the layers from a peg on each of `finishes` (holes of one position class),
    /// canonical under `moves`' symmetries, while the next layer is guessed to fit in
    /// `budget` bytes beside the layers before it and `stop` (asked before each layer)
    /// says no: the layers grown are whole whenever it stops.
    pub(super) fn grow(
        moves: &MoveTable<K>,
        finishes: &[usize],
        budget: u64,
        stop: impl Fn() -> bool,
    ) -> Backward<K> {
        let mut first: Vec<K> = finishes
            .iter()
            .map(|&h| moves.canonical(K::bit(h)))
            .collect();
        first.sort_unstable();
        first.dedup();
        let mut layers = vec![first];
        let width = std::mem::size_of::<K>() as u64;
        loop {
            let last = layers.last().expect("a layer");
            let before = layers.len().checked_sub(2).map_or(1, |i| layers[i].len());
            let held: u64 = layers.iter().map(|l| l.len() as u64 * width).sum();
            // The next layer guessed from the last growth carried on (at least tenfold
            // while the layers are small).
            let n = last.len() as u64;
            let guess = n.saturating_mul((n / before.max(1) as u64).max(10));
            if n == 0 || held.saturating_add(guess.saturating_mul(GATHER_BYTES)) > budget || stop()
            {
                break;
            }
            let next: DashSet<K, ahash::RandomState> = DashSet::default();
            last.par_iter().for_each(|&pos| {
                moves.each_move(pos, true, |j| {
                    next.insert(moves.canonical(pos ^ moves.mask(j)));
                });
            });
            let mut next: Vec<K> = next.into_iter().collect();
            next.par_sort_unstable();
            if crate::observe::tracing() {
                crate::observe::trace(&format!(
                    "quickest loss: {} winnable positions with {} pegs (up to symmetry)",
                    next.len(),
                    layers.len() + 1
                ));
            }
            layers.push(next);
        }
        // The last layer may be empty (every peg count of the board grown): drop it.
        if layers.len() > 1 && layers.last().is_some_and(Vec::is_empty) {
            layers.pop();
        }
        Backward { layers }
    }

    /// The most pegs a layer holds: every position with this many pegs or fewer is
    /// answered by [`Backward::holds`].
    pub(super) fn most_pegs(&self) -> u32 {
        self.layers.len() as u32
    }

    /// Whether the canonical form `key` of a position with `pegs` pegs (at most
    /// [`Backward::most_pegs`], at least 1) can win.
    pub(super) fn holds(&self, key: K, pegs: u32) -> bool {
        self.layers[pegs as usize - 1].binary_search(&key).is_ok()
    }

    /// The positions held, over every layer.
    pub(super) fn len(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::random::reference::Winnable as Plain;
    use crate::geometry::board::Board;

    /// On tri:5 and tri:6, every layer is the set of positions of the class with that many
    /// pegs that the plain recursion finds winnable, whatever the budget stops it at.
    #[test]
    fn the_layers_are_every_winnable_position_with_that_many_pegs() {
        for spec in ["tri:5", "tri:6"] {
            let b = Board::from_spec(spec).unwrap();
            let moves = MoveTable::<u64>::new(&b, |_| true);
            for class in b.position_classes() {
                let mut plain = Plain::new(&b, b.full());
                let whole = Backward::grow(&moves, &class, u64::MAX, || false);
                let small = Backward::grow(&moves, &class, 1 << 12, || false);
                assert!(small.most_pegs() < whole.most_pegs());
                // Stopped before its first growth: the finishes alone.
                let stopped = Backward::grow(&moves, &class, u64::MAX, || true);
                assert_eq!(stopped.layers[..], whole.layers[..1]);
                assert_eq!(small.layers[..], whole.layers[..small.layers.len()]);
                // Every position of the class, by brute force over all subsets; the
                // canonical forms of the winnable ones, per number of pegs (a canonical
                // form may lie in another class: its image under a symmetry).
                let one = 1u128 << class[0];
                let mut seen = vec![std::collections::HashSet::new(); b.holes() + 1];
                for pos in 1..1u64 << b.holes() {
                    let pegs = pos.count_ones();
                    if pegs > whole.most_pegs() || !b.same_class(pos.into(), one) {
                        continue;
                    }
                    let key = moves.canonical(pos);
                    let wins = plain.can_win(pos.into());
                    assert_eq!(whole.holds(key, pegs), wins, "{spec} {pos:b}");
                    if wins {
                        seen[pegs as usize].insert(key);
                    }
                }
                for (p, layer) in whole.layers.iter().enumerate() {
                    assert_eq!(layer.len(), seen[p + 1].len(), "{spec}: {} pegs", p + 1);
                }
            }
        }
    }
}
