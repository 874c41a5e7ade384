//! Canonical forms under the subgroup: of a position, and of a child from its parent's
//! images with one XOR per symmetry.

use super::{MAX_GROUP, MoveTable};
use crate::geometry::bits::Bits;

impl<K: Bits> MoveTable<K> {
    /// The canonical form of `pos` under the subgroup: its smallest image.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("english").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// let (c3, e3) = (b.hole("c3").unwrap(), b.hole("e3").unwrap());
    /// // Two mirror images, one canonical form.
    /// assert_eq!(t.canonical(1 << c3), t.canonical(1 << e3));
    /// ```
    #[inline]
    pub fn canonical(&self, pos: K) -> K {
        let img = self.images(pos, self.h);
        img[..self.h].iter().copied().min().unwrap_or(pos)
    }

    /// The canonical form under the subgroup of `pos ^ mask(j)`, given `img`, the images of
    /// `pos` under (at least) the subgroup.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let e = Board::from_spec("english").unwrap();
    /// let t = MoveTable::<u64>::new(&e, |_| true);
    /// let start = e.default_start() as u64;
    /// let img = t.images(start, t.subgroup_order());
    /// let mut children = Vec::new();
    /// t.each_jump(start, |j| children.push(t.canonical_child(&img, j)));
    /// // The four first jumps into d4 are images of one another: one canonical child.
    /// assert_eq!(children.len(), 4);
    /// assert!(children.iter().all(|&c| c == children[0]));
    /// t.each_jump(start, |j| assert_eq!(children[0], t.canonical(start ^ t.mask(j))));
    /// ```
    #[inline]
    pub fn canonical_child(&self, img: &[K; MAX_GROUP], j: usize) -> K {
        self.canonical_child_by(img, j).0
    }

    /// [`MoveTable::canonical_child`] and the subgroup element that gives it: the child's
    /// canonical form is its image under symmetry `i` (the first such `i`).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let e = Board::from_spec("english").unwrap();
    /// let t = MoveTable::<u64>::new(&e, |_| true);
    /// let start = e.default_start() as u64;
    /// let img = t.images(start, t.subgroup_order());
    /// let mut by = Vec::new();
    /// t.each_jump(start, |j| {
    ///     let (canon, i) = t.canonical_child_by(&img, j);
    ///     assert_eq!(t.transforms().apply(i, start ^ t.mask(j)), canon);
    ///     by.push(i);
    /// });
    /// // Exactly one of the four first jumps is its own canonical form.
    /// assert_eq!(by.iter().filter(|&&i| i == 0).count(), 1);
    /// ```
    #[inline]
    pub fn canonical_child_by(&self, img: &[K; MAX_GROUP], j: usize) -> (K, usize) {
        let images = &self.jump_images[j * self.h..(j + 1) * self.h];
        let mut canon = img[0] ^ images[0];
        let mut by = 0;
        for i in 1..self.h {
            let x = img[i] ^ images[i];
            if x < canon {
                canon = x;
                by = i;
            }
        }
        (canon, by)
    }

    /// [`MoveTable::canonical_child_by`] without a branch, for boards with at least 4 bits
    /// to spare in `K` (the subgroup has at most 16 elements): each image carries its
    /// symmetry's number in 4 low bits while the smallest is taken. The first such
    /// symmetry, as [`MoveTable::canonical_child_by`] gives it.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("english").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// let start = b.default_start() as u64;
    /// let img = t.images(start, t.subgroup_order());
    /// t.each_jump(start, |j| {
    ///     assert_eq!(t.canonical_child_tagged(&img, j), t.canonical_child_by(&img, j));
    /// });
    /// ```
    #[inline(always)]
    pub fn canonical_child_tagged(&self, img: &[K; MAX_GROUP], j: usize) -> (K, usize) {
        let images = &self.jump_images[j * self.h..(j + 1) * self.h];
        let tagged = |i: usize| (img[i] ^ images[i]) << 4 | K::from(i).expect("i < 16");
        let best = (1..self.h).map(tagged).fold(tagged(0), |a, b| a.min(b));
        (
            best >> 4,
            (best & K::from(15).expect("15")).to_usize().expect("i"),
        )
    }

    /// The largest image under the subgroup of `pos ^ mask(j)`, given `img` as for
    /// [`MoveTable::canonical_child`]. Complementing reverses the order of positions and
    /// commutes with the symmetries, so the complement (within the board) of this image
    /// is the canonical form of the child's complement, with no images of its own.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("english").unwrap();
    /// let full = b.full() as u64;
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// let start = b.default_start() as u64;
    /// let img = t.images(start, t.subgroup_order());
    /// t.each_jump(start, |j| {
    ///     let child = start ^ t.mask(j);
    ///     let canon = t.transforms().canonical(full ^ child);
    ///     assert_eq!(full ^ t.largest_child(&img, j), canon);
    /// });
    /// ```
    #[inline]
    pub fn largest_child(&self, img: &[K; MAX_GROUP], j: usize) -> K {
        let images = &self.jump_images[j * self.h..(j + 1) * self.h];
        let mut most = img[0] ^ images[0];
        for i in 1..self.h {
            let x = img[i] ^ images[i];
            if x > most {
                most = x;
            }
        }
        most
    }
}
