//! The move table: every jump of a board as bit masks, with the images of those masks under
//! a subgroup of the symmetries, so that the canonical form of a position after a jump costs
//! one XOR per symmetry.
//!
//! Symmetries are bit permutations, so `g(pos ^ jump) = g(pos) ^ g(jump)`: with the images
//! of a parent computed once ([`MoveTable::images`]), each child's images are XORs with the
//! precomputed images of the jump ([`MoveTable::canonical_child`]). Legal jumps are found 64
//! at a time as a bit mask, without a branch per jump ([`MoveTable::each_jump`]).

use crate::bits::Bits;
use crate::board::Board;
use crate::symmetry::{Symmetry, Transforms};

/// The largest symmetry group of a lattice (the hexagon's 12).
pub const MAX_GROUP: usize = 12;

/// A board's jumps as masks of type `K`, and the board's symmetries ordered so that the
/// subgroup canonical forms are taken under comes first.
#[derive(Clone, Debug)]
pub struct MoveTable<K: Bits> {
    /// Every symmetry of the board: the `h` of the subgroup first (identity at 0).
    transforms: Transforms<K>,
    h: usize,
    /// Per jump: the mask of its three holes, of from and over, and of to.
    all: Vec<K>,
    from_over: Vec<K>,
    to: Vec<K>,
    /// Per jump `j` and subgroup element `i`: the image of `all[j]`, at `j * h + i`.
    jump_images: Vec<K>,
}

impl<K: Bits> MoveTable<K> {
    /// The move table of `board`, canonical forms taken under the symmetries for which
    /// `in_subgroup` holds (they must form a group; the identity always does).
    ///
    /// ```
    /// use pegsol::{board::Board, moves::MoveTable};
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
        let group = board.symmetries();
        let mut order: Vec<&Symmetry> = group.iter().filter(|s| in_subgroup(s)).collect();
        let h = order.len();
        order.extend(group.iter().filter(|s| !in_subgroup(s)));
        let transforms = Transforms::new(&order, board.holes());
        let from_over: Vec<K> = board
            .jumps()
            .iter()
            .map(|j| K::bit(j.from) | K::bit(j.over))
            .collect();
        let to: Vec<K> = board.jumps().iter().map(|j| K::bit(j.to)).collect();
        let all: Vec<K> = from_over.iter().zip(&to).map(|(&a, &b)| a | b).collect();
        let jump_images = all
            .iter()
            .flat_map(|&m| (0..h).map(move |i| (m, i)))
            .map(|(m, i)| transforms.apply(i, m))
            .collect();
        MoveTable {
            transforms,
            h,
            all,
            from_over,
            to,
            jump_images,
        }
    }

    /// Order of the whole symmetry group.
    pub fn group_order(&self) -> usize {
        self.transforms.len()
    }

    /// Order of the subgroup canonical forms are taken under.
    pub fn subgroup_order(&self) -> usize {
        self.h
    }

    /// The symmetries, subgroup first.
    pub fn transforms(&self) -> &Transforms<K> {
        &self.transforms
    }

    /// The mask of the three holes of jump `j`: `pos ^ mask(j)` makes (or undoes) it.
    #[inline]
    pub fn mask(&self, j: usize) -> K {
        self.all[j]
    }

    /// The images of `pos` under the first `n` symmetries.
    #[inline]
    pub fn images(&self, pos: K, n: usize) -> [K; MAX_GROUP] {
        let mut img = [K::zero(); MAX_GROUP];
        for (i, x) in img.iter_mut().enumerate().take(n) {
            *x = self.transforms.apply(i, pos);
        }
        img
    }

    /// The canonical form under the subgroup of `pos ^ mask(j)`, given `img`, the images of
    /// `pos` under (at least) the subgroup.
    #[inline]
    pub fn canonical_child(&self, img: &[K; MAX_GROUP], j: usize) -> K {
        let images = &self.jump_images[j * self.h..(j + 1) * self.h];
        let mut canon = img[0] ^ images[0];
        for i in 1..self.h {
            let x = img[i] ^ images[i];
            if x < canon {
                canon = x;
            }
        }
        canon
    }

    /// Calls `f(j)` for every legal jump `j` of `pos`; returns whether there was one.
    #[inline]
    pub fn each_jump(&self, pos: K, f: impl FnMut(usize)) -> bool {
        self.each_matching(pos, &self.from_over, f)
    }

    /// Calls `f(j)` for every jump `j` that could have led to `pos` (its legal un-jumps:
    /// `to` full, `from` and `over` empty); returns whether there was one.
    #[inline]
    pub fn each_unjump(&self, pos: K, f: impl FnMut(usize)) -> bool {
        self.each_matching(pos, &self.to, f)
    }

    /// `f(j)` for every `j` with `pos & all[j] == want[j]`, 64 jumps per bit mask.
    #[inline]
    fn each_matching(&self, pos: K, want: &[K], mut f: impl FnMut(usize)) -> bool {
        let mut any = false;
        for (c, (all, want)) in self.all.chunks(64).zip(want.chunks(64)).enumerate() {
            let mut m = 0u64;
            for (i, (&a, &w)) in all.iter().zip(want).enumerate() {
                m |= u64::from(pos & a == w) << i;
            }
            any |= m != 0;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                f(c * 64 + i);
            }
        }
        any
    }
}
