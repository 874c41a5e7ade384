//! The tallies of a sweep, per start: one expanded position's ([`Sweep::tally`], in the
//! hot core), one layer's ([`LayerAcc`], added over work units and ranks), and the run's
//! so far ([`Tallies`]), which become [`crate::count::Counts`].

use super::expand::Sweep;
use crate::count::disk::LayerRow;
use crate::count::stats::Layer;
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use crate::geometry::moves::MAX_GROUP;
use crate::total::Total;

/// Per-unit accumulator of one layer's statistics, one lane per start.
pub(super) struct LayerAcc<const N: usize> {
    pub(super) positions: [u64; N],
    pub(super) dead_ends: [u64; N],
    pub(super) games_ended: [Total; N],
    /// Entries (orbits under `H`) with a position reachable from each start.
    pub(super) reached: [u64; N],
    /// (start, hole, wins) for one-peg dead ends.
    pub(super) finish: Vec<(usize, usize, Total)>,
    /// The smallest dead end reached from each start (`u128::MAX`: none yet).
    pub(super) least_end: [u128; N],
}

impl<const N: usize> Default for LayerAcc<N> {
    fn default() -> Self {
        LayerAcc {
            positions: [0; N],
            dead_ends: [0; N],
            games_ended: [Total::ZERO; N],
            reached: [0; N],
            finish: Vec::new(),
            least_end: [u128::MAX; N],
        }
    }
}

impl<const N: usize> LayerAcc<N> {
    pub(super) fn absorb(&mut self, other: LayerAcc<N>) -> Result<()> {
        for k in 0..N {
            self.positions[k] += other.positions[k];
            self.dead_ends[k] += other.dead_ends[k];
            self.reached[k] += other.reached[k];
            self.games_ended[k] = self.games_ended[k].plus(other.games_ended[k])?;
            self.least_end[k] = self.least_end[k].min(other.least_end[k]);
        }
        self.finish.extend(other.finish);
        Ok(())
    }
}

impl<K: Bits, const N: usize> Sweep<'_, K, N> {
    /// Tallies the position `pos` of images `img` and symmetries `stab` into `acc`: each
    /// distinct position `img[i]` of its orbit is reached from start `k` by as many
    /// sequences as `pos` is from start `inv[i][k]` (that pair orbit's count `total`, over
    /// its size, rounded down for the random player's masses: `floor`), and is a dead end
    /// when no jump was `moved`. Returns the mask of the starts that reach it.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tally(
        &self,
        pos: K,
        img: &[K; MAX_GROUP],
        stab: &[usize],
        moved: bool,
        unreached: impl Fn(usize) -> bool,
        total: impl Fn(usize) -> Total,
        floor: bool,
        acc: &mut LayerAcc<N>,
    ) -> Result<u128> {
        let h = self.moves.subgroup_order();
        let one_peg = pos.count_ones() == 1;
        let mut distinct = [0usize; MAX_GROUP];
        let mut positions = 0;
        for i in 0..h {
            if stab.len() == 1 || !img[..i].contains(&img[i]) {
                distinct[positions] = i;
                positions += 1;
            }
        }
        let mut mask = 0u128;
        for k in 0..self.starts.len() {
            let mut reached = false;
            for &i in &distinct[..positions] {
                let q = self.inv[i][k];
                if unreached(q) {
                    continue;
                }
                reached = true;
                acc.positions[k] += 1;
                if !moved {
                    let keep = stab.iter().filter(|&&x| self.fwd[x][q] == q).count();
                    let size = (h / keep) as u64;
                    let each = if floor {
                        total(q).div_floor(size)
                    } else {
                        total(q).div_exact(size)
                    };
                    acc.dead_ends[k] += 1;
                    acc.games_ended[k] = acc.games_ended[k].plus(each)?;
                    acc.least_end[k] = acc.least_end[k].min(img[i].to_u128());
                    if one_peg {
                        acc.finish.push((k, img[i].trailing_zeros() as usize, each));
                    }
                }
            }
            if reached {
                acc.reached[k] += 1;
                mask |= 1 << k;
            }
        }
        Ok(mask)
    }
}

/// What a sweep has tallied so far, per start: its layers and its wins by finishing hole;
/// the rows of [`crate::count::Counts`].
pub(super) struct Tallies {
    pub(super) layers: Vec<Vec<Layer>>,
    pub(super) finish: Vec<Vec<Total>>,
    /// Positions (not reduced) counted so far, all starts together, for the progress bar.
    pub(super) positions: u64,
    /// Per start, the smallest dead end of its first layer with one, once swept here.
    pub(super) least_ends: Vec<Option<u128>>,
}

impl Tallies {
    /// Nothing tallied yet, for `starts` starts on a board of `holes` holes.
    pub(super) fn new(starts: usize, holes: usize) -> Self {
        Tallies {
            layers: vec![Vec::new(); starts],
            finish: vec![vec![Total::ZERO; holes]; starts],
            positions: 0,
            least_ends: vec![None; starts],
        }
    }

    /// Records the statistics of layer `jumps`, swept: `acc`, every rank's, and `reduced`,
    /// its positions up to the whole group.
    pub(super) fn record<const N: usize>(
        &mut self,
        acc: &LayerAcc<N>,
        reduced: [u64; N],
        jumps: usize,
    ) -> Result<()> {
        for &(k, hole, wins) in &acc.finish {
            self.finish[k][hole] = self.finish[k][hole].plus(wins)?;
        }
        for (k, layers) in self.layers.iter_mut().enumerate() {
            if !acc.games_ended[k].is_zero() && layers.iter().all(|l| l.games_ended.is_zero()) {
                self.least_ends[k] = Some(acc.least_end[k]);
            }
            if acc.positions[k] > 0 {
                layers.push(Layer {
                    jumps,
                    positions: acc.positions[k],
                    positions_reduced: reduced[k],
                    games_ended: acc.games_ended[k],
                    dead_ends: acc.dead_ends[k],
                });
            }
        }
        self.positions += acc.positions.iter().sum::<u64>();
        Ok(())
    }

    /// Whether every start has a game ended: the shortest games are counted.
    pub(super) fn every_start_ended(&self) -> bool {
        self.layers
            .iter()
            .all(|ls| ls.iter().any(|l| l.games_ended > 0))
    }

    /// The layers and wins as a checkpoint keeps them (counts as decimal text).
    pub(super) fn to_text(&self) -> (Vec<Vec<LayerRow>>, Vec<Vec<String>>) {
        let layers = self
            .layers
            .iter()
            .map(|ls| {
                ls.iter()
                    .map(|l| {
                        (
                            l.jumps,
                            l.positions,
                            l.positions_reduced,
                            l.games_ended.to_string(),
                            l.dead_ends,
                        )
                    })
                    .collect()
            })
            .collect();
        let finish = self
            .finish
            .iter()
            .map(|f| f.iter().map(Total::to_string).collect())
            .collect();
        (layers, finish)
    }

    /// Takes the layers and wins of a checkpoint back ([`Tallies::to_text`]).
    pub(super) fn restore(
        &mut self,
        layers: &[Vec<LayerRow>],
        finish: &[Vec<String>],
    ) -> Result<()> {
        let bad = || Error::Disk("its statistics do not fit this sweep".into());
        let number = |t: &String| t.parse::<Total>().map_err(|_| bad());
        if layers.len() != self.layers.len() || finish.len() != self.finish.len() {
            return Err(bad());
        }
        for (mine, theirs) in self.layers.iter_mut().zip(layers) {
            *mine = theirs
                .iter()
                .map(|(jumps, positions, reduced, games, dead)| {
                    Ok(Layer {
                        jumps: *jumps,
                        positions: *positions,
                        positions_reduced: *reduced,
                        games_ended: number(games)?,
                        dead_ends: *dead,
                    })
                })
                .collect::<Result<_>>()?;
        }
        for (mine, theirs) in self.finish.iter_mut().zip(finish) {
            if mine.len() != theirs.len() {
                return Err(bad());
            }
            *mine = theirs.iter().map(number).collect::<Result<_>>()?;
        }
        Ok(())
    }
}
