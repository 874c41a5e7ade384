//! The move table: every jump of a board as bit masks, with the images of those masks under
//! a subgroup of the symmetries, so that the canonical form of a position after a jump costs
//! one XOR per symmetry.
//!
//! Symmetries are bit permutations, so `g(pos ^ jump) = g(pos) ^ g(jump)`: with the images
//! of a parent computed once ([`MoveTable::images`]), each child's images are XORs with the
//! precomputed images of the jump ([`MoveTable::canonical_child`]).
//!
//! Legal jumps are found a whole line class at a time with shifts (techniques.md,
//! "Generating jumps"): for each class of parallel lattice lines the holes are renumbered so
//! that every line is a run of consecutive bits ([`Lines`]); after one byte-table permutation
//! of the position, `x & x >> 1 & !(x >> 2)` marks every jump along those lines in one
//! direction, and `!x & x >> 1 & x >> 2` in the other ([`MoveTable::each_jump`]).
//!
//! The rooms: the table and its group here; the line layouts in `lines`; canonical forms
//! of children in `canonical`; the legal jumps and un-jumps in `legal`.

mod canonical;
mod legal;
mod lines;

pub use lines::Lines;

use crate::geometry::bits::Bits;
use crate::geometry::board::Board;
use crate::geometry::symmetry::{Symmetry, Transforms};

/// The largest symmetry group of a lattice (the hexagon's 12).
pub const MAX_GROUP: usize = 12;

/// A board's jumps as masks of type `K`, and the board's symmetries ordered so that the
/// subgroup canonical forms are taken under comes first, then the rest of a larger group
/// ([`MoveTable::nested`]), then the rest.
#[derive(Clone, Debug)]
pub struct MoveTable<K: Bits> {
    /// Every symmetry of the board: the `h` of the subgroup first (identity at 0), then the
    /// rest of the `outer` of the larger group.
    transforms: Transforms<K>,
    h: usize,
    outer: usize,
    /// Per jump: the mask of its three holes.
    all: Vec<K>,
    /// Per jump `j` and subgroup element `i`: the image of `all[j]`, at `j * h + i`.
    jump_images: Vec<K>,
    lines: Lines<K>,
}
impl<K: Bits> MoveTable<K> {
    /// The move table of `board`, canonical forms taken under the symmetries for which
    /// `in_subgroup` holds (they must form a group; the identity always does).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let start = b.default_start() as u64;
    /// let t = MoveTable::<u64>::new(&b, |s| b.transform(s, start as u128) == start as u128);
    /// assert_eq!((t.group_order(), t.subgroup_order()), (6, 2));
    /// let mut children = Vec::new();
    /// let img = t.images(start, t.subgroup_order());
    /// t.each_jump(start, |j| children.push(t.canonical_child(&img, j)));
    /// // The two first jumps from a1 are mirror images: one canonical child.
    /// assert_eq!(children.len(), 2);
    /// assert_eq!(children[0], children[1]);
    /// ```
    pub fn new(board: &Board, in_subgroup: impl Fn(&Symmetry) -> bool) -> Self {
        Self::nested(board, in_subgroup, |_| true)
    }

    /// [`MoveTable::new`] with the symmetries of a group between the subgroup and the whole
    /// group (`in_outer` must hold on the subgroup) ordered right after the subgroup, so that
    /// [`MoveTable::images`] of the first [`MoveTable::outer_order`] symmetries are its
    /// images.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("english").unwrap();
    /// let c2 = b.start_with_empty(&[b.hole("c2").unwrap()]);
    /// // Only the identity fixes c2; it and one mirror keep c2's position class.
    /// let t = MoveTable::<u64>::nested(
    ///     &b,
    ///     |s| b.transform(s, c2) == c2,
    ///     |s| b.same_class(b.transform(s, c2), c2),
    /// );
    /// assert_eq!((t.subgroup_order(), t.outer_order(), t.group_order()), (1, 2, 8));
    /// ```
    pub fn nested(
        board: &Board,
        in_subgroup: impl Fn(&Symmetry) -> bool,
        in_outer: impl Fn(&Symmetry) -> bool,
    ) -> Self {
        let group = board.symmetries();
        let mut order: Vec<&Symmetry> = group.iter().filter(|s| in_subgroup(s)).collect();
        let h = order.len();
        order.extend(group.iter().filter(|s| !in_subgroup(s) && in_outer(s)));
        let outer = order.len();
        order.extend(group.iter().filter(|s| !in_subgroup(s) && !in_outer(s)));
        assert!(
            order[0].is_identity(),
            "the symmetries start with the identity"
        );
        let transforms = Transforms::new(&order, board.holes()).with_cells(board.cells());
        let all: Vec<K> = board
            .jumps()
            .iter()
            .map(|j| K::bit(j.from) | K::bit(j.over) | K::bit(j.to))
            .collect();
        let jump_images = all
            .iter()
            .flat_map(|&m| (0..h).map(move |i| (m, i)))
            .map(|(m, i)| transforms.apply(i, m))
            .collect();
        MoveTable {
            transforms,
            h,
            outer,
            all,
            jump_images,
            lines: Lines::new(board),
        }
    }

    /// Order of the whole symmetry group.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let e = Board::from_spec("english").unwrap();
    /// assert_eq!(MoveTable::<u64>::new(&e, |s| s.is_identity()).group_order(), 8);
    /// ```
    pub fn group_order(&self) -> usize {
        self.transforms.len()
    }

    /// Order of the subgroup canonical forms are taken under.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// assert_eq!(MoveTable::<u64>::new(&b, |_| true).subgroup_order(), 6);
    /// assert_eq!(MoveTable::<u64>::new(&b, |s| s.is_identity()).subgroup_order(), 1);
    /// ```
    pub fn subgroup_order(&self) -> usize {
        self.h
    }

    /// Order of the group between the subgroup and the whole group ([`MoveTable::nested`];
    /// the whole group's order for [`MoveTable::new`]).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |s| s.is_identity());
    /// assert_eq!((t.subgroup_order(), t.outer_order()), (1, 6));
    /// ```
    pub fn outer_order(&self) -> usize {
        self.outer
    }

    /// The symmetries, subgroup first.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// let start = b.default_start() as u64;
    /// assert_eq!(t.transforms().len(), 6);
    /// assert_eq!(t.transforms().apply(0, start), start); // the identity first
    /// // a1 empty: its images have a1, a5 or e5 empty; the smallest has hole 14 (e5) empty.
    /// assert_eq!(t.transforms().canonical(start), b.full() as u64 & !(1 << 14));
    /// ```
    pub fn transforms(&self) -> &Transforms<K> {
        &self.transforms
    }

    /// The mask of the three holes of jump `j`: `pos ^ mask(j)` makes (or undoes) it.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// for (j, jump) in b.jumps().iter().enumerate() {
    ///     assert_eq!(t.mask(j), jump.mask() as u64);
    /// }
    /// let a3_a1 = b.jumps().iter().position(|j| (j.from, j.to) == (3, 0)).unwrap();
    /// assert_eq!(t.mask(a3_a1), 0b1011); // a1, a2 and a3
    /// ```
    #[inline]
    pub fn mask(&self, j: usize) -> K {
        self.all[j]
    }

    /// The images of `pos` under the first `n` symmetries (the first is the identity).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// let start = b.default_start() as u64;
    /// let img = t.images(start, 6);
    /// assert_eq!(img[0], start);
    /// let mut names: Vec<String> = img[..6].iter().map(|&p| b.start_name(p as u128)).collect();
    /// names.sort();
    /// names.dedup();
    /// assert_eq!(names, ["a1", "a5", "e5"]); // the three corners
    /// assert_eq!(img[6..], [0u64; 6]); // past n: zero
    /// ```
    #[inline(always)]
    pub fn images(&self, pos: K, n: usize) -> [K; MAX_GROUP] {
        let mut img = [K::zero(); MAX_GROUP];
        self.transforms.images(pos, &mut img[..n]);
        img
    }
}
