//! Pagoda cuts for the meeting: finding them from random games for a run
//! ([`Solver::pruners`]) and testing a position's children against all of them at once,
//! in 16-bit lanes ([`Pruner`]).

use super::*;

impl<'a, K: Bits> Solver<'a, K> {
    /// The cuts ahead and behind ([`Solver::cuts`]), once [`Solver::meet`] found them.
    pub(super) fn ahead(&self) -> Option<&Pruner> {
        self.cuts.get().and_then(|c| c[0].as_ref())
    }

    pub(super) fn behind(&self) -> Option<&Pruner> {
        self.cuts.get().and_then(|c| c[1].as_ref())
    }

    /// Cuts for the meeting's two sides ([`crate::geometry::pagoda::sampled_cuts`]), from
    /// random games: forward from the start, positions that cannot reach a goal; backward
    /// from the goals, positions that no image of the start under `H` reaches. When the
    /// goal is the start's complement (`mirrored`; `H` then fixes the start, which is the
    /// goal's complement), the cuts behind are those ahead on complements: `p` is
    /// reachable only if its complement can reach the goal, so `w(full) - w(p)` is at
    /// least the threshold. A cut rules out only positions on no winning path, so the
    /// solvable positions, and `W`, are those of the sweep without cuts.
    pub(super) fn pruners(
        &self,
        goals: &Shards<K>,
        mirrored: bool,
    ) -> (Option<Pruner>, Option<Pruner>) {
        use crate::geometry::pagoda::{Question, sampled_cuts};
        const SAMPLES: usize = 256;
        let last = self.start.count_ones() as usize - 1;
        // Several goals (`--finish any`): a cut must hold for every goal, so it rules out
        // little, and finding and testing the cuts cost more than they saved
        // (docs/experiments.md, "Figures that were in code comments").
        if last < 4 || goals.iter().flatten().count() > 1 {
            return (None, None);
        }
        let depths = (last / 4).max(1)..=(last - last / 2 + 1).min(last);
        // Every goal position, not only the canonical ones: a child is tested as it lies.
        let targets = self.images_under_h(goals.iter().flatten().map(|&g| g.to_u128()));
        if targets.is_empty() {
            // No goal in the start's class: nothing is solvable, nothing to cut.
            return (None, None);
        }
        let starts = self.images_under_h(std::iter::once(self.start.to_u128()));
        let max = MAX_BLOCKS * LANE;
        let start = self.start.to_u128();
        let (fwd, bwd) = rayon::join(
            || {
                let samples = crate::geometry::pagoda::random_games(
                    self.board,
                    &[start],
                    false,
                    depths.clone(),
                    SAMPLES,
                );
                let q = Question::Reach(targets.clone());
                sampled_cuts(self.board, &q, &samples, &self.h, max)
            },
            || {
                if mirrored {
                    return Vec::new();
                }
                let samples = crate::geometry::pagoda::random_games(
                    self.board,
                    &targets,
                    true,
                    depths.clone(),
                    SAMPLES,
                );
                let q = Question::ReachedFrom(starts.clone());
                sampled_cuts(self.board, &q, &samples, &self.h, max)
            },
        );
        let bwd = if mirrored {
            self.cuts_behind_mirrored(&fwd)
        } else {
            bwd
        };
        if trace() {
            crate::observe::trace(&format!(
                "meet: {} forward and {} backward cuts from {SAMPLES} random games each",
                fwd.len(),
                bwd.len()
            ));
        }
        (Pruner::new(self.board, &fwd), Pruner::new(self.board, &bwd))
    }

    /// The distinct images of `positions` under the symmetries of `H`, in the order found.
    fn images_under_h(&self, positions: impl Iterator<Item = Pegs>) -> Vec<Pegs> {
        let mut images: Vec<Pegs> = Vec::new();
        for p in positions {
            for s in &self.h {
                let t = self.board.transform(s, p);
                if !images.contains(&t) {
                    images.push(t);
                }
            }
        }
        images
    }

    /// The cuts behind when the goal is the start's complement, from those ahead: with `t`
    /// ([`Solver::mirror`]), `p` is reachable only if `complement of t⁻¹(p)` can reach the
    /// goal: hole `t(i)` weighs minus what hole `i` weighs ahead.
    fn cuts_behind_mirrored(
        &self,
        ahead: &[crate::geometry::pagoda::Cut],
    ) -> Vec<crate::geometry::pagoda::Cut> {
        let perm: Vec<usize> = match &self.mirror {
            Mirror::Through(t, _) => t.perm().to_vec(),
            _ => (0..self.board.holes()).collect(),
        };
        ahead
            .iter()
            .map(|c| {
                let mut weights = vec![0; c.weights.len()];
                for (i, &x) in c.weights.iter().enumerate() {
                    weights[perm[i]] = -x;
                }
                crate::geometry::pagoda::Cut {
                    weights,
                    threshold: c.threshold - c.weights.iter().sum::<i64>(),
                }
            })
            .collect()
    }
}

/// Lanes of [`Pruner`]: one cut per lane, sixteen lanes to a block (256 bits).
pub(super) const LANE: usize = 16;
/// At most this many blocks of cuts per side.
pub(super) const MAX_BLOCKS: usize = 4;
/// A lane: `i16` does the work of `i32` in half the instructions. Cuts whose weights do
/// not fit are left out ([`Pruner::new`]); a cut is only ever a shortcut.
pub(super) type Lane = i16;
/// A cut fits when the sum of its weights' sizes is below this, and so is its threshold's
/// size: a slack, before or after a jump, then stays below 3 times this, inside `i16`.
pub(super) const LANE_LIMIT: i64 = 1 << 13;

/// Cuts ([`crate::geometry::pagoda::Cut`]) applied to the children of a sweep, each cut in
/// one [`Lane`]: a parent's slack (weight minus threshold, per cut) from byte tables, a
/// child's from the parent's plus the jump's change of weight. A child with a negative
/// slack in some lane is ruled out.
pub(super) struct Pruner {
    /// Blocks holding cuts; the others, up to [`MAX_BLOCKS`], never cut (their lanes
    /// carry a large slack and no weights), so that every test runs the same fixed lanes.
    pub(super) blocks: usize,
    /// Per byte of a position, per byte value: the weight of those pegs.
    pub(super) tables: Vec<Slack>,
    /// Minus the thresholds (a large number in the unused lanes).
    pub(super) base: Slack,
    /// Per jump: the change of weight when the jump is made...
    pub(super) forward: Vec<Slack>,
    /// ... and when it is undone.
    pub(super) backward: Vec<Slack>,
}

/// One lane per cut: [`MAX_BLOCKS`] blocks of [`LANE`] lanes.
pub(super) type Slack = [[Lane; LANE]; MAX_BLOCKS];

impl Pruner {
    /// The pruner of `cuts` (at most [`MAX_BLOCKS`] * [`LANE`] of them are used); `None`
    /// without cuts.
    pub(super) fn new(board: &Board, cuts: &[crate::geometry::pagoda::Cut]) -> Option<Pruner> {
        let fits = |c: &&crate::geometry::pagoda::Cut| {
            let total: i64 = c.weights.iter().map(|w| w.abs()).sum();
            total < LANE_LIMIT && c.threshold.abs() < LANE_LIMIT
        };
        let cuts: Vec<_> = cuts.iter().filter(fits).take(MAX_BLOCKS * LANE).collect();
        if cuts.is_empty() {
            return None;
        }
        let chunks = board.holes().div_ceil(8);
        let mut p = Pruner {
            blocks: cuts.len().div_ceil(LANE),
            tables: vec![[[0; LANE]; MAX_BLOCKS]; chunks * 256],
            base: [[2 * LANE_LIMIT as Lane; LANE]; MAX_BLOCKS],
            forward: vec![[[0; LANE]; MAX_BLOCKS]; board.jumps().len()],
            backward: vec![[[0; LANE]; MAX_BLOCKS]; board.jumps().len()],
        };
        for (k, c) in cuts.iter().enumerate() {
            let (b, l) = (k / LANE, k % LANE);
            p.base[b][l] = -c.threshold as Lane;
            for chunk in 0..chunks {
                for v in 0..256 {
                    let w: i64 = (0..8)
                        .filter(|&i| v >> i & 1 == 1 && 8 * chunk + i < board.holes())
                        .map(|i| c.weights[8 * chunk + i])
                        .sum();
                    p.tables[chunk * 256 + v][b][l] = w as Lane;
                }
            }
            for (j, jump) in board.jumps().iter().enumerate() {
                let d = c.weights[jump.to] - c.weights[jump.from] - c.weights[jump.over];
                p.forward[j][b][l] = d as Lane;
                p.backward[j][b][l] = -d as Lane;
            }
        }
        if trace() {
            crate::observe::trace(&format!(
                "meet: {} cuts fit the pruner's lanes, in {} of {MAX_BLOCKS} blocks",
                cuts.len(),
                p.blocks
            ));
        }
        Some(p)
    }

    /// The slack of `pos` in each lane.
    #[inline]
    pub(super) fn slack<K: Bits>(&self, pos: K, chunks: usize) -> Slack {
        let mut s = self.base;
        for chunk in 0..chunks {
            let t = &self.tables[chunk * 256 + pos.byte(chunk)];
            for (x, y) in s.iter_mut().zip(t) {
                for i in 0..LANE {
                    x[i] += y[i];
                }
            }
        }
        s
    }

    /// Whether the child by jump `j` (undone, with `unjump`) of a position of slack `s`
    /// escapes every cut. The same fixed lanes every time and no branch: the compiler
    /// vectorises it, and the callers use the answer without branching on it (a child is
    /// cut about one time in four, at random, so a branch mispredicts: docs/experiments.md,
    /// "Figures that were in code comments").
    #[inline]
    pub(super) fn keeps(&self, s: &Slack, j: usize, unjump: bool) -> bool {
        let d = if unjump {
            &self.backward[j]
        } else {
            &self.forward[j]
        };
        let mut sign = [0 as Lane; LANE];
        for (x, y) in s.iter().zip(d) {
            for i in 0..LANE {
                sign[i] |= x[i].wrapping_add(y[i]);
            }
        }
        sign.iter().fold(0, |a, &b| a | b) >= 0
    }
}
