//! The jumps of a board: a peg jumps over a neighbour along a lattice line into the empty
//! hole beyond it.

use super::{Board, Pegs, bit};
use crate::geometry::lattice::Lattice;
use std::collections::HashMap;

/// One jump: the peg in `from` jumps over `over` into the empty hole `to` (hole indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Jump {
    pub from: usize,
    pub over: usize,
    pub to: usize,
}

impl Jump {
    /// The three holes the jump touches, as a mask.
    ///
    /// ```
    /// use pegsol::geometry::board::{Jump, bit};
    /// let j = Jump { from: 3, over: 1, to: 0 }; // tri:5: a3 over a2 into a1
    /// assert_eq!(j.mask(), bit(0) | bit(1) | bit(3));
    /// ```
    pub fn mask(self) -> Pegs {
        bit(self.from) | bit(self.over) | bit(self.to)
    }

    /// Whether the jump is legal in `pegs`.
    ///
    /// ```
    /// use pegsol::geometry::board::{Board, Jump};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let j = Jump { from: 3, over: 1, to: 0 }; // a3 over a2 into a1
    /// assert!(j.is_legal(b.default_start()));
    /// assert!(!j.is_legal(b.full())); // a1 is not empty
    /// ```
    pub fn is_legal(self, pegs: Pegs) -> bool {
        pegs & self.mask() == bit(self.from) | bit(self.over)
    }
}

/// Every jump of the board of `cells` on `lattice` (`index`: the hole at each cell), by
/// hole: from each hole, along each lattice direction in order.
pub(super) fn jump_list(
    lattice: Lattice,
    cells: &[(i32, i32)],
    index: &HashMap<(i32, i32), usize>,
) -> Vec<Jump> {
    let mut jumps = Vec::new();
    for (from, &(r, c)) in cells.iter().enumerate() {
        for &(dr, dc) in lattice.directions() {
            if let (Some(&over), Some(&to)) = (
                index.get(&(r + dr, c + dc)),
                index.get(&(r + 2 * dr, c + 2 * dc)),
            ) {
                jumps.push(Jump { from, over, to });
            }
        }
    }
    jumps
}

impl Board {
    /// Every jump of the board (each direction counted separately).
    ///
    /// ```
    /// use pegsol::geometry::board::{Board, Jump};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// assert_eq!(b.jumps().len(), 36);
    /// assert!(b.jumps().contains(&Jump { from: 3, over: 1, to: 0 })); // a3 over a2 into a1
    /// assert_eq!(Board::from_spec("english").unwrap().jumps().len(), 76);
    /// ```
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The number of each jump (its place in [`Board::jumps`]) by its holes
    /// `(from, over, to)`: how a jump moved by a symmetry is found again.
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let index = b.jump_index();
    /// assert_eq!(index.len(), 36); // 3 directions, both ways, 6 lines of 3 holes each
    /// let j = &b.jumps()[7];
    /// assert_eq!(index[&(j.from, j.over, j.to)], 7);
    /// ```
    pub fn jump_index(&self) -> std::collections::HashMap<(usize, usize, usize), usize> {
        self.jumps
            .iter()
            .enumerate()
            .map(|(k, j)| ((j.from, j.over, j.to), k))
            .collect()
    }
}
