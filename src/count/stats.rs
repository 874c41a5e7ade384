//! End-state statistics of one (board, start): what `pegsol count` reports.
//!
//! The engine fills one [`Layer`] per number of jumps made and the wins per finishing hole;
//! every other statistic is derived here. Because each jump removes one peg, a game that
//! ends after `j` jumps leaves `start_pegs - j` pegs: the pegs-left histogram, the most pegs
//! a dead end leaves and the shortest game are all read off the per-layer games.

use crate::total::Total;
use serde::Serialize;

/// What happens after a given number of jumps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Layer {
    /// Jumps made from the start.
    pub jumps: usize,
    /// Distinct positions reachable after exactly `jumps` jumps (no symmetry reduction).
    pub positions: u64,
    /// The same positions counted up to the board's symmetry group.
    pub positions_reduced: u64,
    /// Games (jump sequences from the start to a dead end) that end here.
    pub games_ended: Total,
    /// Dead-end positions among `positions`.
    pub dead_ends: u64,
}

/// Every count `pegsol count` reports for one (board, start).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// The board spec as given (`tri:5`, `english`, or a board file's name).
    pub board: String,
    /// The start's empty holes, joined by `+`.
    pub start: String,
    /// Number of holes.
    pub holes: usize,
    /// Pegs on the board at the start.
    pub start_pegs: usize,
    /// One entry per number of jumps, from 0 (the start) to the last reachable layer.
    pub layers: Vec<Layer>,
    /// Wins by the hole where the last peg stands (hole name, wins), in hole order; holes
    /// with no win are omitted.
    pub finish: Vec<(String, Total)>,
}

impl Counts {
    /// Reachable positions, the start included.
    ///
    /// ```
    /// use pegsol::{count::{count, CountOptions}, geometry::Board};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// // as results/summary.csv; tests/integration/reference.rs checks it by brute force
    /// assert_eq!(c.positions(), 3_016);
    /// ```
    pub fn positions(&self) -> u64 {
        self.layers.iter().map(|l| l.positions).sum()
    }

    /// Reachable positions up to symmetry.
    ///
    /// ```
    /// use pegsol::{count::{count, CountOptions}, geometry::Board};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// assert_eq!(c.positions_reduced(), 1_544); // up to the 6 symmetries; brute-force checked too
    /// ```
    pub fn positions_reduced(&self) -> u64 {
        self.layers.iter().map(|l| l.positions_reduced).sum()
    }

    /// All games. Cannot overflow: a layer's games are below 2^192 (fewer than 2^64 orbits
    /// of `u128` counts), and so is the sum of the layers' (fewer than 2^64 of them).
    ///
    /// ```
    /// use pegsol::{count::{count, CountOptions}, geometry::Board};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// assert_eq!(c.games(), 568_630); // published (Durango Bill, corrected total)
    /// ```
    pub fn games(&self) -> Total {
        Total::sum(self.layers.iter().map(|l| l.games_ended))
            .expect("a sum of fewer than 2^64 layers below 2^192 fits 256 bits")
    }

    /// Games that end with one peg.
    ///
    /// ```
    /// use pegsol::{count::{count, CountOptions}, geometry::Board};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// assert_eq!(c.wins(), 29_760); // published
    /// ```
    pub fn wins(&self) -> Total {
        self.pegs_left()
            .into_iter()
            .find(|&(p, _)| p == 1)
            .map_or(Total::ZERO, |(_, g)| g)
    }

    /// Games by the number of pegs left at the end, fewest pegs first, zero rows omitted.
    ///
    /// ```
    /// use pegsol::{count::{count, CountOptions, Total}, geometry::Board};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// // published: corner start, games by pegs left
    /// let want = [29_760, 139_614, 259_578, 123_664, 14_844, 844, 324, 2];
    /// let rows: Vec<(usize, Total)> = (1..=8).zip(want.map(Total::from)).collect();
    /// assert_eq!(c.pegs_left(), rows);
    /// ```
    pub fn pegs_left(&self) -> Vec<(usize, Total)> {
        let mut rows: Vec<(usize, Total)> = self
            .layers
            .iter()
            .filter(|l| !l.games_ended.is_zero())
            .map(|l| (self.pegs_after(l.jumps), l.games_ended))
            .collect();
        rows.sort_unstable();
        rows
    }

    /// The fewest jumps of any game, and how many games are that short.
    ///
    /// ```
    /// use pegsol::{count::{count, CountOptions}, geometry::Board};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// assert_eq!(c.shortest_game(), (6, 2.into())); // published: shortest dead end, 6 jumps
    /// ```
    pub fn shortest_game(&self) -> (usize, Total) {
        self.layers
            .iter()
            .find(|l| !l.games_ended.is_zero())
            .map_or((0, Total::ZERO), |l| (l.jumps, l.games_ended))
    }

    /// The most pegs any dead end leaves, and how many games leave that many. These are
    /// the shortest games: every jump removes one peg.
    ///
    /// ```
    /// use pegsol::{count::{count, CountOptions}, geometry::Board};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// assert_eq!(c.max_dead_end(), (8, 2.into())); // 14 pegs - 6 jumps
    /// ```
    pub fn max_dead_end(&self) -> (usize, Total) {
        let (jumps, games) = self.shortest_game();
        (self.pegs_after(jumps), games)
    }

    /// The pegs left after `jumps` jumps. A layer past the start's pegs cannot be counted
    /// (the sweep refuses a checkpoint that says otherwise), so this never wraps.
    fn pegs_after(&self, jumps: usize) -> usize {
        self.start_pegs
            .checked_sub(jumps)
            .expect("no layer holds more jumps than the start has pegs")
    }

    /// Wins whose last peg stands in the named hole.
    ///
    /// ```
    /// use pegsol::{count::{count, CountOptions}, geometry::Board};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// assert_eq!(c.wins_at("a1"), 6_816); // published: back to the start hole
    /// assert_eq!(c.wins_at("z9"), 0); // not a hole
    /// ```
    pub fn wins_at(&self, hole: &str) -> Total {
        self.finish
            .iter()
            .find(|(h, _)| h == hole)
            .map_or(Total::ZERO, |&(_, w)| w)
    }
}
