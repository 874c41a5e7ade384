//! The game through the meeting of the two sides, rebuilt from their distances, and the
//! search's result.

use super::MinMoves;
use super::search::Search;
use crate::geometry::bits::Bits;
use crate::geometry::board::Jump;
use thousands::Separable;

impl<K: Bits> Search<'_, K> {
    /// The search's result from its best meeting (`t` moves through `x`), if any: the
    /// game through `x`, the positions stored and how the proof went.
    pub(super) fn result(&self, best: Option<(usize, K)>) -> MinMoves {
        let positions = self.sides.iter().map(|s| s.dist.len()).sum();
        let depths = (self.sides[0].depth, self.sides[1].depth);
        let best = best.map(|(t, x)| {
            let (start, mut steps) = self.path_from_source(x);
            steps.extend(self.path_to_goal(x));
            let jumps: Vec<Jump> = steps
                .iter()
                .map(|&(f, t)| {
                    crate::games::notation::jump_between(self.board, f, t).expect("a jump")
                })
                .collect();
            let moves = crate::games::notation::count_moves(&jumps);
            debug_assert_eq!(moves, t);
            (moves, start.to_u128(), jumps)
        });
        let pruning = match self.pruned {
            Some(_) => format!(", pruned by Merson regions at {} moves", self.limit),
            None => String::new(),
        };
        MinMoves {
            best,
            positions,
            depths,
            proof: format!(
                "bidirectional breadth-first search by moves ({} positions up to \
                 symmetry, depths {}+{}{pruning})",
                positions.separate_with_commas(),
                depths.0,
                depths.1
            ),
            figures: vec![self.figures()],
        }
    }

    /// The run's figures: per side, the positions stored per depth (the sources at depth
    /// 0) with those the bound dropped one move further; and the probed layer's.
    fn figures(&self) -> String {
        let side = |i: usize| {
            let s = &self.sides[i];
            let list = |f: &dyn Fn(&(usize, u64)) -> String| {
                s.layers.iter().map(f).collect::<Vec<_>>().join(", ")
            };
            format!(
                "{} per depth {} (dropped by the bound one move further: {})",
                ["forward", "backward"][i],
                list(&|l| l.0.separate_with_commas()),
                list(&|l| l.1.separate_with_commas())
            )
        };
        let probed = self
            .probed
            .map_or(String::new(), |(i, d, looked, dropped)| {
                let side = ["forward", "backward"][i];
                let (looked, dropped) = (
                    looked.separate_with_commas(),
                    dropped.separate_with_commas(),
                );
                if let Some(width) = self.beamed {
                    format!(
                        "; {side} depths {} to {d} searched by a beam of width {}: {looked} \
                         positions looked up, {dropped} dropped by the bound",
                        d + 1 - self.walked,
                        width.separate_with_commas()
                    )
                } else if self.walked > 1 {
                    format!(
                        "; {side} depths {} to {d} walked depth first: {looked} positions \
                         looked up (once per chunk of the frontier reaching them), {dropped} \
                         made and dropped by the bound",
                        d + 1 - self.walked
                    )
                } else {
                    format!("; {side} depth {d} probed: {looked} positions looked up, {dropped} dropped by the bound")
                }
            });
        format!("bound {}: {}; {}{probed}", self.limit, side(0), side(1))
    }

    /// A game from a start to `pos` in `d_f(pos)` moves: the start and the steps.
    pub(super) fn path_from_source(&self, pos: K) -> (K, Vec<(usize, usize)>) {
        let side = &self.sides[0];
        let mut pos = pos;
        let mut d = side.distance(pos).expect("a stored position");
        let mut rev: Vec<Vec<(usize, usize)>> = Vec::new();
        while d > 0 {
            // Undo one move, to a position one move closer to a start.
            let mut step = None;
            self.moves(1, pos, &mut |prev, path| {
                if step.is_none() && side.distance(prev) == Some(d - 1) {
                    step = Some((prev, path.to_vec()));
                }
            });
            let (prev, path) = step.expect("a predecessor one move closer");
            // Undone h0 -> h1 -> ... ; played forward the peg goes back along it.
            rev.push(path.iter().rev().map(|&(f, t)| (t, f)).collect());
            pos = prev;
            d -= 1;
        }
        rev.reverse();
        (pos, rev.into_iter().flatten().collect())
    }

    /// A game from `pos` to a goal in `d_b(pos)` moves, as steps.
    pub(super) fn path_to_goal(&self, pos: K) -> Vec<(usize, usize)> {
        let side = &self.sides[1];
        let mut pos = pos;
        let mut d = side.distance(pos).expect("a stored position");
        let mut steps = Vec::new();
        while d > 0 {
            let mut step = None;
            self.moves(0, pos, &mut |next, path| {
                if step.is_none() && side.distance(next) == Some(d - 1) {
                    step = Some((next, path.to_vec()));
                }
            });
            let (next, path) = step.expect("a successor one move closer");
            steps.extend(path);
            pos = next;
            d -= 1;
        }
        steps
    }
}
