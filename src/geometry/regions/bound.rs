//! The bounds of [`Regions`] prepared for one search: fixed goals and sources, positions of
//! width `K`. The one-hole regions are counted by one mask; every zone of larger regions
//! has a table giving, for each set of its regions, the most disjoint ones among them.

use super::Regions;
use crate::geometry::bits::Bits;
use crate::geometry::board::Pegs;

/// The most zones of regions of two holes or more: each holds at least two holes.
const MAX_ZONES: usize = 64;

/// One zone: its regions' masks and, per set of them (bit `i` for region `i`), the fewest
/// holes that meet every region of the set: the fewest moves that can open them all, as a
/// move opens only the full regions holding the hole it starts from.
#[derive(Clone, Debug)]
struct Zone<K: Bits> {
    masks: Vec<K>,
    needed: Vec<u8>,
}

impl<K: Bits> Zone<K> {
    fn new(regions: &[Pegs]) -> Self {
        Zone {
            masks: regions.iter().map(|&r| K::from_u128(r)).collect(),
            needed: fewest_meeting(regions),
        }
    }

    /// Bit `i` set when region `i` is full in `pos`.
    #[inline]
    fn full(&self, pos: K) -> usize {
        let mut f = 0;
        for (i, &m) in self.masks.iter().enumerate() {
            if pos & m == m {
                f |= 1 << i;
            }
        }
        f
    }

    /// Every region of the zone.
    #[inline]
    fn all(&self) -> usize {
        (1 << self.masks.len()) - 1
    }
}

/// A source as the backward bound sees it: its full one-hole regions, and the zones where
/// not every region is full, with the set that is; and, when its first move must end in a
/// one-hole region, that hole and the source itself.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Source<K: Bits> {
    singles: K,
    partial: Vec<(usize, usize)>,
    landing: K,
    pos: K,
}

/// Lower bounds on the moves from a position to a goal and from a source to a position.
#[derive(Clone, Debug)]
pub struct Bound<K: Bits> {
    /// The holes that are one-hole regions, and those of them that are goals.
    singles: K,
    goal_singles: K,
    zones: Vec<Zone<K>>,
    /// The distinct sources.
    sources: Vec<Source<K>>,
}

impl<K: Bits> Bound<K> {
    /// Bounds towards the one-peg positions `goals` and from the positions `sources`.
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, geometry::regions::{Bound, Regions}};
    /// let b = Board::from_spec("tri:8")?;
    /// let start = b.default_start(); // a1 empty
    /// let anywhere: Vec<u128> = (0..b.holes()).map(bit).collect();
    /// let regions = Regions::new(&b);
    /// let bound = Bound::<u64>::new(&regions, &anywhere, &[start]);
    /// assert_eq!(bound.to_finish(start as u64), regions.moves_to_finish(start, &anywhere));
    /// assert_eq!(bound.to_finish(start as u64), 12);
    /// assert_eq!(bound.from_start(start as u64), 0);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn new(regions: &Regions, goals: &[Pegs], sources: &[Pegs]) -> Self {
        let mut singles = K::zero();
        let mut zones = Vec::new();
        for z in regions.zones() {
            if z.len() == 1 && z[0].count_ones() == 1 {
                singles = singles | K::from_u128(z[0]);
            } else {
                zones.push(Zone::new(z));
            }
        }
        assert!(zones.len() <= MAX_ZONES, "at most {MAX_ZONES} zones");
        let goal_singles = goals
            .iter()
            .filter(|g| g.count_ones() == 1)
            .fold(K::zero(), |acc, &g| acc | K::from_u128(g))
            & singles;
        let mut sources: Vec<Source<K>> = sources
            .iter()
            .map(|&s| {
                let landing = K::from_u128(regions.first_landing(s));
                let s = K::from_u128(s);
                Source {
                    landing,
                    pos: if landing == K::zero() { K::zero() } else { s },
                    singles: s & singles,
                    partial: (zones.iter().enumerate())
                        .map(|(i, z)| (i, z.full(s)))
                        .filter(|&(i, f)| f != zones[i].all())
                        .collect(),
                }
            })
            .collect();
        sources.sort_unstable();
        sources.dedup();
        Bound {
            singles,
            goal_singles,
            zones,
            sources,
        }
    }

    /// A lower bound on the moves from `pos` to a goal.
    ///
    /// Every full region counts, one-hole regions included, while two pegs or more are
    /// left: the last jump lands on the last peg's hole, so a peg standing in a goal's
    /// one-hole region must leave it first, by a move of its own.
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, geometry::regions::{Bound, Regions}};
    /// let b = Board::from_spec("tri:5")?;
    /// let a1 = bit(b.hole("a1")?);
    /// let bound = Bound::<u64>::new(&Regions::new(&b), &[a1], &[b.default_start()]);
    /// // Two corners and one pair per edge are full at the start (a1 is empty).
    /// assert_eq!(bound.to_finish(b.default_start() as u64), 5);
    /// // Every corner full: the peg in a1 must leave it before the last jump lands there.
    /// assert_eq!(bound.to_finish(b.full() as u64), 6);
    /// assert_eq!(bound.to_finish(a1 as u64), 0);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn to_finish(&self, pos: K) -> usize {
        let mut full = (pos & self.singles).count_ones() as usize;
        for z in &self.zones {
            full += z.needed[z.full(pos)] as usize;
        }
        // The one peg left may stand in a goal's one-hole region.
        let done = pos.count_ones() == 1 && pos & self.goal_singles != K::zero();
        full - usize::from(done)
    }

    /// The holes of the regions full in `pos`: a move whose first hole is not among them
    /// leaves every full region full (no jump into a full region, nor over one of its pegs
    /// from outside it), so the bound to a goal after it is at least the bound before it.
    /// (The one peg such a move may leave cannot stand in a goal's full one-hole region:
    /// that peg would still be there, and the moving peg beside it.) A search with no move
    /// to spare under its limit needs only the moves from these holes.
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, geometry::regions::{Bound, Regions}};
    /// let b = Board::from_spec("tri:5")?;
    /// let a1 = bit(b.hole("a1")?);
    /// let bound = Bound::<u64>::new(&Regions::new(&b), &[a1], &[b.default_start()]);
    /// // From the start (a1 empty): the two other corners and the edge holes (every pair
    /// // of neighbours inside an edge is full); not the empty corner, nor the three holes
    /// // inside the edges, which lie in no minimal region.
    /// let full = bound.full_holes(b.default_start() as u64);
    /// assert_eq!(full.count_ones(), 11);
    /// assert_eq!(full & a1 as u64, 0);
    /// assert_eq!(full & bit(b.hole("b3")?) as u64, 0);
    /// // After a3-a1, a1 is full again and the left edge's pairs are open.
    /// let p = b.parse_position("x/.x/.xx/xxxx/xxxxx")?;
    /// let full = bound.full_holes(p as u64);
    /// assert_eq!(full.count_ones(), 9);
    /// assert_eq!(full & bit(b.hole("a4")?) as u64, 0);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn full_holes(&self, pos: K) -> K {
        let mut holes = pos & self.singles;
        for z in &self.zones {
            for &m in &z.masks {
                if pos & m == m {
                    holes = holes | m;
                }
            }
        }
        holes
    }

    /// A lower bound on the moves from a source to `pos`.
    ///
    /// A source whose only empty hole is a one-hole region is left by a first jump into it
    /// that ends its move (when no jump can follow it there): if that hole is empty again
    /// in `pos`, a later move started from it.
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, geometry::regions::{Bound, Regions}};
    /// let b = Board::from_spec("tri:5")?;
    /// let a1 = bit(b.hole("a1")?);
    /// let bound = Bound::<u64>::new(&Regions::new(&b), &[a1], &[b.default_start()]);
    /// assert_eq!(bound.from_start(b.default_start() as u64), 0);
    /// // One peg in a1: two corners and a pair per edge, full at the start, were opened.
    /// assert_eq!(bound.from_start(a1 as u64), 5);
    /// // a3-a1, c3-a3, a1-c3: a pair on two edges opened, and a1 empty again: the first move
    /// // ended in a1 (no jump can follow it there), so a later one started from it.
    /// let p = b.parse_position("./../x.x/xxxx/xxxxx")?;
    /// assert_eq!(bound.from_start(p as u64), 3);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn from_start(&self, pos: K) -> usize {
        let mut open = [0usize; MAX_ZONES];
        let mut all_open = 0;
        for (i, z) in self.zones.iter().enumerate() {
            open[i] = z.all() & !z.full(pos);
            all_open += z.needed[open[i]] as usize;
        }
        let open_singles = self.singles & !pos;
        self.sources
            .iter()
            .map(|s| {
                // The zones where the source has open regions lose those.
                let lost: usize = (s.partial.iter())
                    .map(|&(i, f)| {
                        let b = &self.zones[i].needed;
                        (b[open[i]] - b[open[i] & f]) as usize
                    })
                    .sum();
                let left = s.landing != K::zero() && pos & s.landing == K::zero() && pos != s.pos;
                (open_singles & s.singles).count_ones() as usize + all_open - lost
                    + usize::from(left)
            })
            .min()
            .unwrap_or(0)
    }
}

/// Per set of `regions` (bit `i` for region `i`): the fewest holes meeting every region of
/// the set (a smallest *hitting set*). One of them lies in the set's first region, and
/// taking a hole meets every region holding it, so the sets are filled in increasing
/// order.
///
/// This is never below the most disjoint regions of the set (each needs a hole of its
/// own), and exceeds it where regions overlap in a ring: the six hexagons of the triangle
/// of side 9 overlap pairwise, but no hole lies in all six.
fn fewest_meeting(regions: &[Pegs]) -> Vec<u8> {
    let holes = regions.iter().fold(0, |acc, &r| acc | r);
    // Per hole of the zone: the regions holding it.
    let holding = |h: u32| {
        (0..regions.len())
            .filter(|&j| regions[j] & (1 << h) != 0)
            .fold(0usize, |acc, j| acc | 1 << j)
    };
    let meets: Vec<usize> = (0..128)
        .map(|h| if holes & (1 << h) != 0 { holding(h) } else { 0 })
        .collect();
    // Per region: its holes.
    let holes_of: Vec<Vec<usize>> = (regions.iter())
        .map(|&r| (0..128).filter(|&h| r & (1 << h) != 0).collect())
        .collect();
    let mut needed = vec![0u8; 1 << regions.len()];
    for set in 1..needed.len() {
        let first = &holes_of[set.trailing_zeros() as usize];
        needed[set] = (first.iter())
            .map(|&h| 1 + needed[set & !meets[h]])
            .min()
            .expect("a region holds a hole");
    }
    needed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::board::Board;

    /// The most disjoint regions per set: the bound before hitting sets.
    fn most_disjoint(regions: &[Pegs]) -> Vec<u8> {
        let clash: Vec<usize> = (regions.iter())
            .map(|&r| {
                (0..regions.len())
                    .filter(|&j| regions[j] & r != 0)
                    .fold(0, |a, j| a | 1 << j)
            })
            .collect();
        let mut best = vec![0u8; 1 << regions.len()];
        for set in 1..best.len() {
            let i = set.trailing_zeros() as usize;
            best[set] = best[set & (set - 1)].max(1 + best[set & !clash[i]]);
        }
        best
    }

    /// Whether some `k` holes of `holes` meet every region of `set`.
    fn met_by(regions: &[Pegs], set: usize, holes: &[u32], k: usize, chosen: Pegs) -> bool {
        let all = (0..regions.len()).filter(|&j| set & 1 << j != 0);
        if all.clone().all(|j| regions[j] & chosen != 0) {
            return true;
        }
        k > 0
            && (0..holes.len())
                .any(|i| met_by(regions, set, &holes[i + 1..], k - 1, chosen | 1 << holes[i]))
    }

    /// On every zone of the triangles of side 4 to 10 and of the English and French boards,
    /// the fewest meeting holes of each set of regions is at least its most disjoint
    /// regions, and is right (checked by trying every choice of fewer holes on the zones of
    /// at most 8 regions).
    #[test]
    fn the_fewest_meeting_holes_are_right_and_never_below_the_disjoint_regions() {
        let mut gained = Vec::new();
        for spec in [
            "tri:4", "tri:5", "tri:6", "tri:7", "tri:8", "tri:9", "tri:10", "english", "french",
        ] {
            let b = Board::from_spec(spec).unwrap();
            for z in Regions::new(&b).zones() {
                let (needed, disjoint) = (fewest_meeting(z), most_disjoint(z));
                let all = needed.len() - 1;
                assert!(needed.iter().zip(&disjoint).all(|(n, d)| n >= d), "{spec}");
                if needed[all] > disjoint[all] {
                    gained.push(format!(
                        "{spec}: {} regions, {} > {}",
                        z.len(),
                        needed[all],
                        disjoint[all]
                    ));
                }
                if z.len() <= 8 {
                    let holes: Vec<u32> = (0..128)
                        .filter(|&h| z.iter().any(|&r| r & 1 << h != 0))
                        .collect();
                    for (set, &n) in needed.iter().enumerate().skip(1) {
                        let n = n as usize;
                        assert!(met_by(z, set, &holes, n, 0), "{spec} {set:b}");
                        assert!(!met_by(z, set, &holes, n - 1, 0), "{spec} {set:b}");
                    }
                }
            }
        }
        // The six hexagons of tri:9 overlap pairwise, and no hole is in all six.
        assert!(
            gained.contains(&"tri:9: 6 regions, 2 > 1".to_string()),
            "{gained:?}"
        );
        // From a2 to i9: 14 moves by meeting holes, the goal corner i9 counted (13 without
        // it, 12 by disjoint regions).
        let b = Board::from_spec("tri:9").unwrap();
        let (a2, i9) = (b.hole("a2").unwrap(), b.hole("i9").unwrap());
        let start = b.full() ^ crate::geometry::board::bit(a2);
        let r = Regions::new(&b);
        assert_eq!(
            r.moves_to_finish(start, &[crate::geometry::board::bit(i9)]),
            14
        );
    }
}
