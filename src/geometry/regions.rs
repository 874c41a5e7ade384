//! Merson regions: lower bounds on the number of moves a game still needs.
//!
//! A *Merson region* is a set of holes `R` such that no jump has its middle hole in `R` and
//! both ends outside `R`. While `R` is full, no peg can land in it and no peg from outside
//! can jump over one of its pegs, so the first jump that changes `R` is made by a peg of `R`,
//! and it is the first jump of its move (an earlier jump of the same move would have had to
//! land in `R`). Distinct full regions therefore need distinct moves: from a position with
//! `F` full regions a one-peg finish needs at least `F` more moves, less one when the last
//! peg may stay where it stands in a full one-hole region. The same argument run from the
//! start bounds the moves needed to *reach* a position: every region full at the start and
//! not full in the position has been opened by a move of its own.
//!
//! Both bounds drop by at most one per move (a move opens at most the one full region it
//! starts in), so they are *consistent*: a breadth-first search that discards every position
//! whose distance plus bound exceeds `L` still reaches every position of every game of at
//! most `L` moves at its true distance ([`crate::games::minmoves`]).
//!
//! The regions found here are the one-hole regions (holes no jump passes over: the corners
//! of a triangle) and pairs of neighbouring holes that are only ever jumped over along the
//! line joining them (two consecutive edge holes of a triangle). On the triangle of side 8
//! the 3 corners and 9 edge pairs give 10 moves (vacancy on the edge) or 11 (vacancy
//! inside) at the start, against the 13 that OEIS A127500 gives as the optimum: within a
//! limit of 12 moves at most two moves may fail to open a region.

use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Pegs, bit};

/// Disjoint Merson regions of a board, and their images under the board's symmetries (each
/// image is another valid set of regions; bounds take the best of them).
#[derive(Clone, Debug)]
pub struct Regions {
    /// One entry per distinct image of the chosen regions: the regions as hole masks.
    partitions: Vec<Vec<Pegs>>,
}

impl Regions {
    /// The one-hole regions and a greedy choice of disjoint two-hole regions, with their
    /// images under the board's symmetry group.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::regions::Regions};
    /// let tri8 = Board::from_spec("tri:8")?;
    /// // 3 corners and 3 pairs of edge holes on each side.
    /// assert_eq!(Regions::new(&tri8).regions().len(), 12);
    /// let english = Board::from_spec("english")?;
    /// // The 8 outer corners of the arms (c1, e1, a3, ...).
    /// assert_eq!(Regions::new(&english).regions().len(), 8);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn new(board: &Board) -> Self {
        let n = board.holes();
        // For each hole, the holes at the ends of the lines it is the middle of.
        let mut ends: Vec<Vec<usize>> = vec![Vec::new(); n];
        for j in board.jumps() {
            ends[j.over].push(j.from);
            ends[j.over].push(j.to);
        }
        let mut used = vec![false; n];
        let mut regions: Vec<Pegs> = Vec::new();
        for h in 0..n {
            if ends[h].is_empty() {
                used[h] = true;
                regions.push(bit(h));
            }
        }
        // A pair {u, v} is a region when every line through u has v at one end (so its
        // other end is outside the pair, and the line's other end is v) and vice versa: each
        // jump over u has v as its from or its to.
        let only_with = |u: usize, v: usize| {
            !ends[u].is_empty() && ends[u].chunks(2).all(|e| e[0] == v || e[1] == v)
        };
        for u in 0..n {
            if used[u] {
                continue;
            }
            if let Some(v) = (u + 1..n).find(|&v| !used[v] && only_with(u, v) && only_with(v, u)) {
                used[u] = true;
                used[v] = true;
                regions.push(bit(u) | bit(v));
            }
        }
        let mut partitions: Vec<Vec<Pegs>> = Vec::new();
        for sym in board.symmetries() {
            let mut image: Vec<Pegs> = regions.iter().map(|&r| board.transform(sym, r)).collect();
            image.sort_unstable();
            if !partitions.contains(&image) {
                partitions.push(image);
            }
        }
        Regions { partitions }
    }

    /// The regions chosen (the first of their images).
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, geometry::regions::Regions};
    /// let b = Board::from_spec("tri:5")?;
    /// let r = Regions::new(&b);
    /// // The 3 corners, and one pair of edge holes on each side.
    /// assert_eq!(r.regions().len(), 6);
    /// assert_eq!(r.regions().iter().filter(|m| m.count_ones() == 1).count(), 3);
    /// assert_eq!(r.regions()[0], bit(b.hole("a1")?));
    /// let all = r.regions().iter().fold(0, |acc, &m| acc | m);
    /// assert_eq!(all.count_ones(), 9); // disjoint
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn regions(&self) -> &[Pegs] {
        &self.partitions[0]
    }

    /// A lower bound on the moves from `pos` to one peg in one of the holes of `goals`
    /// (masks of one hole each).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::regions::Regions};
    /// let b = Board::from_spec("tri:8")?;
    /// let start = b.start_from_names(&["a1".into()])?;
    /// let anywhere: Vec<u128> = (0..b.holes()).map(pegsol::geometry::board::bit).collect();
    /// // The 9 edge pairs, and 2 of the corners (the last peg may stay in the third).
    /// assert_eq!(Regions::new(&b).moves_to_finish(start, &anywhere), 10);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn moves_to_finish(&self, pos: Pegs, goals: &[Pegs]) -> usize {
        Bound::<u128>::new(self, goals, &[pos]).to_finish(pos)
    }

    /// A lower bound on the moves from one of the positions `sources` to `pos`.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::regions::Regions};
    /// let b = Board::from_spec("tri:5")?;
    /// let start = b.start_from_names(&["a1".into()])?;
    /// let one_peg = b.parse_position("x/../.../..../.....")?;
    /// // All six regions of tri:5 are open at the end; the one holding a1 was open at the start.
    /// assert_eq!(Regions::new(&b).moves_from_start(one_peg, &[start]), 5);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn moves_from_start(&self, pos: Pegs, sources: &[Pegs]) -> usize {
        Bound::<u128>::new(self, &[pos], sources).from_start(pos)
    }
}

/// The bounds of [`Regions`] prepared for one search: fixed goals and sources, positions of
/// width `K`.
#[derive(Clone, Debug)]
pub struct Bound<K: Bits> {
    /// Per image of the regions: the region masks, the regions that are one goal hole (bit
    /// `i` for region `i`), and the distinct sets of regions full in a source.
    parts: Vec<Part<K>>,
}

#[derive(Clone, Debug)]
struct Part<K: Bits> {
    masks: Vec<K>,
    goal_corners: u64,
    source_full: Vec<u64>,
}

impl<K: Bits> Part<K> {
    /// Bit `i` set when region `i` is full in `pos`.
    #[inline]
    fn full(&self, pos: K) -> u64 {
        let mut f = 0;
        for (i, &m) in self.masks.iter().enumerate() {
            if pos & m == m {
                f |= 1 << i;
            }
        }
        f
    }
}

impl<K: Bits> Bound<K> {
    /// Bounds towards the one-peg positions `goals` and from the positions `sources`.
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, geometry::regions::{Bound, Regions}};
    /// let b = Board::from_spec("tri:8")?;
    /// let start = b.default_start();
    /// let anywhere: Vec<u128> = (0..b.holes()).map(bit).collect();
    /// let regions = Regions::new(&b);
    /// let bound = Bound::<u64>::new(&regions, &anywhere, &[start]);
    /// assert_eq!(bound.to_finish(start as u64), regions.moves_to_finish(start, &anywhere));
    /// assert_eq!(bound.to_finish(start as u64), 10);
    /// assert_eq!(bound.from_start(start as u64), 0);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn new(regions: &Regions, goals: &[Pegs], sources: &[Pegs]) -> Self {
        let parts = regions
            .partitions
            .iter()
            .map(|regs| {
                let masks: Vec<K> = regs.iter().map(|&r| K::from_u128(r)).collect();
                assert!(masks.len() <= 64, "at most 64 regions");
                let goal_corners = regs
                    .iter()
                    .enumerate()
                    .filter(|&(_, &r)| r.count_ones() == 1 && goals.contains(&r))
                    .fold(0, |acc, (i, _)| acc | 1 << i);
                let mut part = Part {
                    masks,
                    goal_corners,
                    source_full: Vec::new(),
                };
                let mut full: Vec<u64> = sources
                    .iter()
                    .map(|&s| part.full(K::from_u128(s)))
                    .collect();
                full.sort_unstable();
                full.dedup();
                part.source_full = full;
                part
            })
            .collect();
        Bound { parts }
    }

    /// A lower bound on the moves from `pos` to a goal.
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, geometry::regions::{Bound, Regions}};
    /// let b = Board::from_spec("tri:5")?;
    /// let a1 = bit(b.hole("a1")?);
    /// let bound = Bound::<u64>::new(&Regions::new(&b), &[a1], &[b.default_start()]);
    /// // Five of the six regions are full at the start (a1's is not).
    /// assert_eq!(bound.to_finish(b.default_start() as u64), 5);
    /// // Every region full; the last peg may stay in the goal corner a1.
    /// assert_eq!(bound.to_finish(b.full() as u64), 5);
    /// assert_eq!(bound.to_finish(a1 as u64), 0);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn to_finish(&self, pos: K) -> usize {
        self.parts
            .iter()
            .map(|p| {
                let f = p.full(pos);
                f.count_ones() as usize - usize::from(f & p.goal_corners != 0)
            })
            .max()
            .unwrap_or(0)
    }

    /// A lower bound on the moves from a source to `pos`.
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, geometry::regions::{Bound, Regions}};
    /// let b = Board::from_spec("tri:5")?;
    /// let a1 = bit(b.hole("a1")?);
    /// let bound = Bound::<u64>::new(&Regions::new(&b), &[a1], &[b.default_start()]);
    /// assert_eq!(bound.from_start(b.default_start() as u64), 0);
    /// // One peg in a1: each of the five regions full at the start was opened by a move.
    /// assert_eq!(bound.from_start(a1 as u64), 5);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn from_start(&self, pos: K) -> usize {
        self.parts
            .iter()
            .map(|p| {
                let f = p.full(pos);
                p.source_full
                    .iter()
                    .map(|&s| (s & !f).count_ones() as usize)
                    .min()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0)
    }
}
