//! Merson regions: lower bounds on the number of moves a game still needs.
//!
//! A *Merson region* is a set of holes `R` such that no jump has its middle hole in `R` and
//! both ends outside `R`. While `R` is full, no peg can land in it and no peg from outside
//! can jump over one of its pegs, so the first jump that changes `R` is made by a peg of `R`,
//! and it is the first jump of its move (an earlier jump of the same move would have had to
//! land in `R`). A move therefore opens only full regions holding the hole it starts from,
//! and at most one region of any set of disjoint ones. From a position of two pegs or more
//! where `F` disjoint regions are full, a one-peg finish needs at least `F` more moves: a
//! full one-hole region counts even when it is the goal, because the last jump lands on the
//! last peg's hole, so the peg standing there must leave first (no jump passes over it). The
//! same argument run from the start bounds the moves needed to *reach* a position: every
//! region of a disjoint set that was full at the start and is not full in the position has
//! been opened by a move of its own; and when the start's only empty hole is a one-hole
//! region, the first move ends there (no jump can follow the first one), so if that hole is
//! empty again a later move started from it.
//!
//! More sharply: a move opens only the full regions holding the hole it starts from, so the
//! holes the remaining moves start from meet every full region, and the moves still needed
//! are at least the fewest holes that meet
//! every full region (a smallest *hitting set*; at least the most disjoint full regions,
//! and more where regions overlap in a ring). The regions are every *minimal* region (none
//! holds a smaller one) of at most [`MAX_SIZE`] holes, found by growing connected sets of
//! holes. Both bounds still drop by at most one per move (the regions full before a move
//! and not holding its first hole are full after it, so the holes meeting those after the
//! move and the move's first hole meet all those before it), so they are *consistent*: a
//! breadth-first search that discards every position whose distance plus bound exceeds `L`
//! still reaches every position of every game of at most `L` moves at its true distance
//! ([`crate::games::minmoves`]).
//!
//! On a triangle the minimal regions are the corners (holes no jump passes over), the pairs
//! of neighbouring edge holes, and the hexagons of seven holes (a hole and its six
//! neighbours: each outer hole has a neighbour of the region on each of its three lines). On
//! the triangle of side 8 the corners, 9 disjoint edge pairs and one hexagon give 12 moves
//! from the corner vacancy a1 (two full corners), against the 13 that OEIS A127500 gives
//! as the optimum. On the English board the 2 x 2 squares are regions too.
//!
//! On the triangle of side 9 the six hexagons overlap pairwise but no hole lies in all
//! six: two moves, where disjoint regions count one (the bound from a2 to i9 is 14: three
//! full corners, the goal's included, two hexagon moves and nine edge pairs).
//!
//! Overlapping regions form *zones* (the connected parts of the graph of overlaps); the
//! fewest meeting holes are the sum over zones of each zone's, read from a table indexed by
//! which of the zone's regions are full ([`bound`]).

pub mod bound;

pub use bound::Bound;

use crate::geometry::board::{Board, Pegs, bit};
use std::collections::HashSet;

/// The largest region searched for: the hexagon of a triangular board has seven holes.
pub const MAX_SIZE: usize = 7;

/// The most regions one zone may hold (its table has `2^MAX_ZONE` entries of one byte);
/// a region that would make a zone larger is left out (fewer regions, a weaker bound).
pub const MAX_ZONE: usize = 20;

/// The minimal Merson regions of a board, grouped into zones of overlapping regions.
#[derive(Clone, Debug)]
pub struct Regions {
    /// Per zone, its regions as hole masks (one-hole regions first, then by size and mask).
    zones: Vec<Vec<Pegs>>,
    /// The one-hole regions where a first jump into the only empty hole ends its move: the
    /// peg it leaves there can move on only by a move of its own.
    settled: Pegs,
    /// Every hole of the board.
    full: Pegs,
}

impl Regions {
    /// Every minimal Merson region of at most [`MAX_SIZE`] holes, in zones.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::regions::Regions};
    /// let tri8 = Board::from_spec("tri:8")?;
    /// // 3 corners, 5 pairs of neighbouring holes on each edge, 3 hexagons.
    /// assert_eq!(Regions::new(&tri8).regions().len(), 21);
    /// let english = Board::from_spec("english")?;
    /// // 8 arm corners (c1, e1, a3, ...), 4 L-shaped triples at the inner corners,
    /// // 12 2 x 2 squares, 4 staircases of seven holes.
    /// assert_eq!(Regions::new(&english).regions().len(), 28);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn new(board: &Board) -> Self {
        let found = minimal(&connected_regions(board));
        let singles = (found.iter())
            .filter(|r| r.count_ones() == 1)
            .fold(0, |acc, &r| acc | r);
        Regions {
            zones: zones(&found),
            settled: settled(board, singles),
            full: board.full(),
        }
    }

    /// The regions found, zone by zone.
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, geometry::regions::Regions};
    /// let b = Board::from_spec("tri:5")?;
    /// let r = Regions::new(&b);
    /// // The 3 corners, and the two pairs of neighbouring holes inside each edge.
    /// assert_eq!(r.regions().len(), 9);
    /// assert_eq!(r.regions().iter().filter(|m| m.count_ones() == 1).count(), 3);
    /// assert!(r.regions().contains(&bit(b.hole("a1")?)));
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn regions(&self) -> Vec<Pegs> {
        self.zones.iter().flatten().copied().collect()
    }

    /// The zones: sets of regions that overlap (directly or through others).
    pub fn zones(&self) -> &[Vec<Pegs>] {
        &self.zones
    }

    /// The hole a start's first move must end in, when that hole is a one-hole region:
    /// `start`'s only empty hole, if the first jump into it cannot go on ([`Bound::from_start`]).
    fn first_landing(&self, start: Pegs) -> Pegs {
        let empty = self.full & !start;
        if empty.count_ones() == 1 {
            empty & self.settled
        } else {
            0
        }
    }

    /// A lower bound on the moves from `pos` to one peg in one of the holes of `goals`
    /// (masks of one hole each).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::regions::Regions};
    /// let b = Board::from_spec("tri:8")?;
    /// let start = b.start_from_names(&["a1".into()])?;
    /// let anywhere: Vec<u128> = (0..b.holes()).map(pegsol::geometry::board::bit).collect();
    /// // 9 edge pairs, the hexagon, and the two full corners.
    /// assert_eq!(Regions::new(&b).moves_to_finish(start, &anywhere), 12);
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
    /// // Two corners and one pair on each edge (the two pairs of an edge overlap) are open
    /// // at the end and were full at the start (a1's corner was open).
    /// assert_eq!(Regions::new(&b).moves_from_start(one_peg, &[start]), 5);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn moves_from_start(&self, pos: Pegs, sources: &[Pegs]) -> usize {
        Bound::<u128>::new(self, &[pos], sources).from_start(pos)
    }
}

/// The holes of `singles` where, on the board full but that hole, no first jump into it can
/// be followed by a jump of the same peg.
fn settled(board: &Board, singles: Pegs) -> Pegs {
    let jumps = board.jumps();
    (0..board.holes())
        .filter(|&c| singles & bit(c) != 0)
        .filter(|&c| {
            (jumps.iter().filter(|j| j.to == c)).all(|first| {
                let after = board.full() ^ bit(first.from) ^ bit(first.over);
                (jumps.iter().filter(|j| j.from == c))
                    .all(|j| after & bit(j.over) == 0 || after & bit(j.to) != 0)
            })
        })
        .fold(0, |acc, c| acc | bit(c))
}

/// Whether no jump passes over a hole of `set` from outside it to outside it.
fn is_region(board: &Board, set: Pegs) -> bool {
    board.jumps().iter().all(|j| {
        let inside = |h: usize| set & bit(h) != 0;
        !inside(j.over) || inside(j.from) || inside(j.to)
    })
}

/// Every connected set of at most [`MAX_SIZE`] holes (neighbours: holes one jump's step
/// apart) that is a Merson region, smallest first.
fn connected_regions(board: &Board) -> Vec<Pegs> {
    let mut neighbours: Vec<Pegs> = vec![0; board.holes()];
    for j in board.jumps() {
        neighbours[j.over] |= bit(j.from) | bit(j.to);
        neighbours[j.from] |= bit(j.over);
        neighbours[j.to] |= bit(j.over);
    }
    let mut found = Vec::new();
    let mut layer: Vec<Pegs> = (0..board.holes()).map(bit).collect();
    for size in 1..=MAX_SIZE {
        found.extend(layer.iter().copied().filter(|&s| is_region(board, s)));
        if size == MAX_SIZE {
            break;
        }
        let mut next: HashSet<Pegs> = HashSet::new();
        for &set in &layer {
            let mut rim = 0;
            for (h, &n) in neighbours.iter().enumerate() {
                if set & bit(h) != 0 {
                    rim |= n;
                }
            }
            rim &= !set;
            while rim != 0 {
                let h = rim.trailing_zeros() as usize;
                rim &= rim - 1;
                next.insert(set | bit(h));
            }
        }
        layer = next.into_iter().collect();
        layer.sort_unstable();
    }
    found
}

/// Whether every hole of `small` is a hole of `big`.
fn within(small: Pegs, big: Pegs) -> bool {
    small & big == small
}

/// The regions holding no smaller one (`found` is smallest first).
fn minimal(found: &[Pegs]) -> Vec<Pegs> {
    let mut kept: Vec<Pegs> = Vec::new();
    for &r in found {
        if !kept.iter().any(|&k| within(k, r)) {
            kept.push(r);
        }
    }
    kept
}

/// The regions grouped into zones of overlapping ones, in the order found; a region that
/// would join zones into one of more than [`MAX_ZONE`] regions is left out.
fn zones(regions: &[Pegs]) -> Vec<Vec<Pegs>> {
    let mut zones: Vec<Vec<Pegs>> = Vec::new();
    for &r in regions {
        let (touched, apart): (Vec<_>, Vec<_>) = std::mem::take(&mut zones)
            .into_iter()
            .partition(|z| z.iter().any(|&m| m & r != 0));
        let size = 1 + touched.iter().map(Vec::len).sum::<usize>();
        zones = apart;
        if size > MAX_ZONE {
            zones.extend(touched);
            continue;
        }
        let mut joined: Vec<Pegs> = touched.into_iter().flatten().collect();
        joined.push(r);
        zones.push(joined);
    }
    for z in &mut zones {
        z.sort_unstable_by_key(|&m| (m.count_ones(), m));
    }
    zones.sort_unstable_by_key(|z| (z.len(), z[0]));
    zones
}
