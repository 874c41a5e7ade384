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

/// The board's holes renumbered once per class of parallel lattice lines, each line a run of
/// consecutive bits, with the jump along each run of three.
#[derive(Clone, Debug)]
pub struct Lines<K: Bits> {
    /// Per class: board bit order to line order (`None`: the identity).
    layouts: Vec<Option<Transforms<K>>>,
    /// Per class: bit `i` set when line-order bits `i`, `i + 1`, `i + 2` are on one line.
    triples: Vec<K>,
    /// Per class and bit `i` (at `class * K::BITS + i`): the jump from `i` over `i + 1` to
    /// `i + 2`, and the jump from `i + 2` over `i + 1` to `i`.
    forward: Vec<u32>,
    backward: Vec<u32>,
}

impl<K: Bits> Lines<K> {
    /// The line layouts of `board`'s lattice lines.
    fn new(board: &Board) -> Self {
        let cells = board.cells();
        let jump = board.jump_index();
        let mut lines = Lines {
            layouts: Vec::new(),
            triples: Vec::new(),
            forward: Vec::new(),
            backward: Vec::new(),
        };
        let classes = board
            .lattice()
            .directions()
            .iter()
            .filter(|&&(dr, dc)| (dr, dc) > (-dr, -dc));
        for &(dr, dc) in classes {
            // Each maximal line, walked from its first hole, numbered consecutively.
            let mut order: Vec<usize> = Vec::with_capacity(cells.len());
            let mut triples = K::zero();
            let (mut forward, mut backward) = (vec![0; K::BITS], vec![0; K::BITS]);
            for (h, &(r, c)) in cells.iter().enumerate() {
                if board.hole_at((r - dr, c - dc)).is_some() {
                    continue;
                }
                let line: Vec<usize> = (0..)
                    .map_while(|k| board.hole_at((r + k * dr, c + k * dc)))
                    .collect();
                debug_assert_eq!(line[0], h);
                for (k, w) in line.windows(3).enumerate() {
                    let i = order.len() + k;
                    triples = triples | K::bit(i);
                    forward[i] = jump[&(w[0], w[1], w[2])] as u32;
                    backward[i] = jump[&(w[2], w[1], w[0])] as u32;
                }
                order.extend(line);
            }
            if triples == K::zero() {
                continue;
            }
            let mut perm = vec![0; cells.len()];
            for (i, &h) in order.iter().enumerate() {
                perm[h] = i;
            }
            let identity = perm.iter().enumerate().all(|(h, &i)| h == i);
            lines
                .layouts
                .push((!identity).then(|| Transforms::from_perms(&[&perm], cells.len())));
            lines.triples.push(triples);
            lines.forward.extend(forward);
            lines.backward.extend(backward);
        }
        debug_assert_eq!(
            2 * lines
                .triples
                .iter()
                .map(|t| t.count_ones() as usize)
                .sum::<usize>(),
            board.jumps().len(),
            "every jump lies on exactly one line"
        );
        lines
    }

    /// The jumps of `set` (bit `j` for jump `j`) as [`Lines::each_within`] takes them:
    /// per line class, the line-order bits of the runs taken forwards, then backwards.
    fn masks(&self, set: u128) -> Vec<u128> {
        let mut out = Vec::with_capacity(2 * self.triples.len());
        for (c, &t) in self.triples.iter().enumerate() {
            let (mut fwd, mut bwd) = (0u128, 0u128);
            for i in 0..K::BITS {
                if t >> i & K::one() == K::one() {
                    // A jump numbered 128 or more is never in a `u128` set.
                    let has = |j: u32| set.checked_shr(j).unwrap_or(0) & 1;
                    fwd |= has(self.forward[c * K::BITS + i]) << i;
                    bwd |= has(self.backward[c * K::BITS + i]) << i;
                }
            }
            out.extend([fwd, bwd]);
        }
        out
    }

    /// Calls `f(j)` for every jump `j` whose three holes hold the pattern `want`: for each
    /// line class, `want(x, x >> 1, x >> 2)` of the position `x` in line order gives the
    /// runs matched forwards, and `want(x >> 2, x >> 1, x)` those matched backwards.
    #[inline]
    fn each(&self, pos: K, want: impl Fn(K, K, K) -> K, f: impl FnMut(usize)) -> bool {
        self.each_within(pos, want, None, f)
    }

    /// [`Lines::each`] for the jumps of `within` only (per line class, the line-order
    /// bits of the runs taken forwards and backwards, as [`Lines::masks`] gives them).
    #[inline]
    fn each_within(
        &self,
        pos: K,
        want: impl Fn(K, K, K) -> K,
        within: Option<&[u128]>,
        mut f: impl FnMut(usize),
    ) -> bool {
        let mut any = false;
        for (c, layout) in self.layouts.iter().enumerate() {
            let x = layout.as_ref().map_or(pos, |t| t.apply(0, pos));
            let (y, z) = (x >> 1, x >> 2);
            let (wf, wb) = within.map_or((self.triples[c], self.triples[c]), |w| {
                (K::from_u128(w[2 * c]), K::from_u128(w[2 * c + 1]))
            });
            let mut fwd = want(x, y, z) & self.triples[c] & wf;
            let mut bwd = want(z, y, x) & self.triples[c] & wb;
            any |= (fwd | bwd) != K::zero();
            let base = c * K::BITS;
            while fwd != K::zero() {
                f(self.forward[base + fwd.trailing_zeros() as usize] as usize);
                fwd = fwd & (fwd - K::one());
            }
            while bwd != K::zero() {
                f(self.backward[base + bwd.trailing_zeros() as usize] as usize);
                bwd = bwd & (bwd - K::one());
            }
        }
        any
    }
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

    /// Calls `f(j)` for every legal jump `j` of `pos` (from and over full, to empty), in no
    /// particular order; returns whether there was one.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let e = Board::from_spec("english").unwrap();
    /// let t = MoveTable::<u64>::new(&e, |_| true);
    /// let mut into = Vec::new();
    /// assert!(t.each_jump(e.default_start() as u64, |j| into.push(e.hole_name(e.jumps()[j].to))));
    /// assert_eq!(into, ["d4"; 4]); // the four first jumps, all into the centre
    /// let d4 = 1u64 << e.hole("d4").unwrap();
    /// assert!(!t.each_jump(d4, |_| unreachable!())); // one peg: none
    /// ```
    #[inline]
    pub fn each_jump(&self, pos: K, f: impl FnMut(usize)) -> bool {
        self.lines.each(pos, |from, over, to| from & over & !to, f)
    }

    /// [`MoveTable::each_jump`] for the jumps of a set only, given as
    /// [`MoveTable::jump_masks`] of it.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("english").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// let start = b.default_start() as u64;
    /// let mut all = Vec::new();
    /// t.each_jump(start, |j| all.push(j));
    /// // Only the first of the four jumps into d4.
    /// let masks = t.jump_masks(1 << all[0]);
    /// let mut some = Vec::new();
    /// t.each_jump_within(start, &masks, |j| some.push(j));
    /// assert_eq!((all.len(), some), (4, vec![all[0]]));
    /// ```
    #[inline]
    pub fn each_jump_within(&self, pos: K, masks: &[u128], f: impl FnMut(usize)) -> bool {
        self.lines
            .each_within(pos, |from, over, to| from & over & !to, Some(masks), f)
    }

    /// [`MoveTable::each_move`] for the jumps of a set only, as
    /// [`MoveTable::each_jump_within`]; with `backward`, the un-jumps.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// // One peg in a1: two un-jumps, and only one of them in a set that holds one.
    /// let mut all = Vec::new();
    /// t.each_move(1, true, |j| all.push(j));
    /// let mut some = Vec::new();
    /// t.each_move_within(1, true, &t.jump_masks(1 << all[1]), |j| some.push(j));
    /// assert_eq!((all.len(), some), (2, vec![all[1]]));
    /// ```
    #[inline]
    pub fn each_move_within(
        &self,
        pos: K,
        backward: bool,
        masks: &[u128],
        f: impl FnMut(usize),
    ) -> bool {
        if backward {
            self.lines
                .each_within(pos, |from, over, to| !from & !over & to, Some(masks), f)
        } else {
            self.each_jump_within(pos, masks, f)
        }
    }

    /// A set of jumps (bit `j` for jump `j`; jumps numbered 128 or more cannot be in it,
    /// so on boards of more than 128 jumps they are left out) in the form
    /// [`MoveTable::each_jump_within`] takes: per line class, the line-order bits of the runs
    /// taken forwards and backwards.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// // Three classes of parallel lines, each taken forwards and backwards.
    /// assert_eq!(t.jump_masks(0), vec![0; 6]);
    /// let every = t.jump_masks((1 << b.jumps().len()) - 1);
    /// assert_eq!(every.iter().map(|m| m.count_ones()).sum::<u32>(), 36);
    /// // tri:9 has 168 jumps: a full set holds the first 128.
    /// let t = MoveTable::<u64>::new(&Board::from_spec("tri:9").unwrap(), |_| true);
    /// let first = t.jump_masks(u128::MAX);
    /// assert_eq!(first.iter().map(|m| m.count_ones()).sum::<u32>(), 128);
    /// ```
    pub fn jump_masks(&self, set: u128) -> Vec<u128> {
        self.lines.masks(set)
    }

    /// [`MoveTable::each_unjump`] with `backward`, else [`MoveTable::each_jump`].
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// let (mut ahead, mut behind) = (0, 0);
    /// // The start of tri:5 without a1 has two jumps; one peg in a1, two un-jumps.
    /// t.each_move(b.default_start() as u64, false, |_| ahead += 1);
    /// t.each_move(1, true, |_| behind += 1);
    /// assert_eq!((ahead, behind), (2, 2));
    /// ```
    #[inline]
    pub fn each_move(&self, pos: K, backward: bool, f: impl FnMut(usize)) -> bool {
        if backward {
            self.each_unjump(pos, f)
        } else {
            self.each_jump(pos, f)
        }
    }

    /// Calls `f(j)` for every jump `j` that could have led to `pos` (its legal un-jumps:
    /// `to` full, `from` and `over` empty), in no particular order; returns whether there
    /// was one.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// let mut n = 0;
    /// // One peg in a1: the last jump came from a3 over a2, or from c3 over b2.
    /// assert!(t.each_unjump(1, |_| n += 1));
    /// assert_eq!(n, 2);
    /// ```
    #[inline]
    pub fn each_unjump(&self, pos: K, f: impl FnMut(usize)) -> bool {
        self.lines.each(pos, |from, over, to| !from & !over & to, f)
    }
}
