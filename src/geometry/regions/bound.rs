//! The bounds of [`Regions`] prepared for one search: fixed goals and sources, positions of
//! width `K`. The one-hole regions are counted by one mask; every zone of larger regions
//! has a table giving, for each set of its regions, the most disjoint ones among them.

use super::Regions;
use crate::geometry::bits::Bits;
use crate::geometry::board::Pegs;

/// The most zones of regions of two holes or more: each holds at least two holes.
const MAX_ZONES: usize = 64;

/// One zone: its regions' masks and, per set of them (bit `i` for region `i`), the size of
/// the largest disjoint subset.
#[derive(Clone, Debug)]
struct Zone<K: Bits> {
    masks: Vec<K>,
    best: Vec<u8>,
}

impl<K: Bits> Zone<K> {
    fn new(regions: &[Pegs]) -> Self {
        let k = regions.len();
        let clash: Vec<usize> = regions
            .iter()
            .map(|&r| {
                (0..k)
                    .filter(|&j| regions[j] & r != 0)
                    .fold(0, |acc, j| acc | 1 << j)
            })
            .collect();
        let mut best = vec![0u8; 1 << k];
        for set in 1..best.len() {
            // The lowest region of the set left out, or taken with none it overlaps.
            let i = set.trailing_zeros() as usize;
            best[set] = best[set & (set - 1)].max(1 + best[set & !clash[i]]);
        }
        Zone {
            masks: regions.iter().map(|&r| K::from_u128(r)).collect(),
            best,
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
/// not every region is full, with the set that is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Source<K: Bits> {
    singles: K,
    partial: Vec<(usize, usize)>,
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
    /// assert_eq!(bound.to_finish(start as u64), 11);
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
                let s = K::from_u128(s);
                Source {
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
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, geometry::regions::{Bound, Regions}};
    /// let b = Board::from_spec("tri:5")?;
    /// let a1 = bit(b.hole("a1")?);
    /// let bound = Bound::<u64>::new(&Regions::new(&b), &[a1], &[b.default_start()]);
    /// // Two corners and one pair per edge are full at the start (a1 is empty).
    /// assert_eq!(bound.to_finish(b.default_start() as u64), 5);
    /// // Every corner full; the last peg may stay in the goal corner a1.
    /// assert_eq!(bound.to_finish(b.full() as u64), 5);
    /// assert_eq!(bound.to_finish(a1 as u64), 0);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn to_finish(&self, pos: K) -> usize {
        let mut full = (pos & self.singles).count_ones() as usize;
        for z in &self.zones {
            full += z.best[z.full(pos)] as usize;
        }
        full - usize::from(pos & self.goal_singles != K::zero())
    }

    /// A lower bound on the moves from a source to `pos`.
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, geometry::regions::{Bound, Regions}};
    /// let b = Board::from_spec("tri:5")?;
    /// let a1 = bit(b.hole("a1")?);
    /// let bound = Bound::<u64>::new(&Regions::new(&b), &[a1], &[b.default_start()]);
    /// assert_eq!(bound.from_start(b.default_start() as u64), 0);
    /// // One peg in a1: two corners and a pair per edge, full at the start, were opened.
    /// assert_eq!(bound.from_start(a1 as u64), 5);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn from_start(&self, pos: K) -> usize {
        let mut open = [0usize; MAX_ZONES];
        let mut all_open = 0;
        for (i, z) in self.zones.iter().enumerate() {
            open[i] = z.all() & !z.full(pos);
            all_open += z.best[open[i]] as usize;
        }
        let open_singles = self.singles & !pos;
        self.sources
            .iter()
            .map(|s| {
                // The zones where the source has open regions lose those.
                let lost: usize = (s.partial.iter())
                    .map(|&(i, f)| {
                        let b = &self.zones[i].best;
                        (b[open[i]] - b[open[i] & f]) as usize
                    })
                    .sum();
                (open_singles & s.singles).count_ones() as usize + all_open - lost
            })
            .min()
            .unwrap_or(0)
    }
}
