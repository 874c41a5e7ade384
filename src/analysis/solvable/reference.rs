//! The reference passes, run with `--reachable`: every reachable position layer by
//! layer ([`Solver::forward`]), then the solvable ones from the goals back
//! ([`Solver::backward`]), then `W` ([`Solver::wins`]).

use super::*;

impl<'a, K: Bits> Solver<'a, K> {
    /// Pass 1: the reachable positions, layer by layer, with each layer's (raw, reduced)
    /// counts.
    #[allow(clippy::type_complexity)]
    pub(super) fn forward(
        &self,
        opts: &SolveOptions,
        bar: &dyn Meter,
    ) -> Result<(Vec<Shards<K>>, Vec<(u64, u64)>)> {
        let mut first: Shards<K> = vec![Vec::new(); SHARDS];
        let start = self.transforms_canon_h(self.start);
        first[self.keys.shard(start)].push(start);
        let mut layers = vec![first];
        let mut counts = Vec::new();
        let mut held = 0u64;
        let (g, h) = (self.moves.group_order(), self.moves.subgroup_order());
        loop {
            let last = layers.last().expect("one layer");
            let (next, accs) = self.step(last, |pos, out, acc: &mut (u64, Vec<K>)| {
                let img = self.moves.images(pos, g);
                acc.0 += self.orbit_size(&img, pos) as u64;
                if g > h {
                    acc.1.push(*img[..g].iter().min().expect("identity"));
                }
                self.moves.each_jump(pos, |j| {
                    let c = self.moves.canonical_child(&img, j);
                    out.push(c);
                });
            })?;
            counts.push(Self::reduce_counts(last, accs, g > h));
            bar.inc(1);
            let n: usize = next.iter().map(|t| t.len()).sum();
            if n == 0 {
                break;
            }
            held += (n * std::mem::size_of::<K>()) as u64;
            if held > opts.max_memory {
                return Err(Error::memory_limit(
                    &self.subject(),
                    &format!(
                        "keeping the reachable positions of {} jumps needs",
                        layers.len()
                    ),
                    &crate::memory::human(opts.max_memory),
                    "",
                ));
            }
            layers.push(next);
        }
        Ok((layers, counts))
    }

    /// A layer's (raw, reduced) counts from its units' accumulators of (orbit sizes under
    /// `H`, canonical forms under the whole group when it is larger).
    pub(super) fn reduce_counts(
        layer: &Shards<K>,
        accs: Vec<(u64, Vec<K>)>,
        larger: bool,
    ) -> (u64, u64) {
        let raw = accs.iter().map(|a| a.0).sum();
        if !larger {
            return (raw, layer.iter().map(|t| t.len() as u64).sum());
        }
        let mut reduced: Vec<K> = accs.into_iter().flat_map(|a| a.1).collect();
        reduced.par_sort_unstable();
        reduced.dedup();
        (raw, reduced.len() as u64)
    }

    /// Pass 2: the solvable positions of each forward layer.
    pub(super) fn backward(
        &self,
        forward: &[Shards<K>],
        bar: &dyn Meter,
    ) -> Result<Vec<Shards<K>>> {
        let last = forward.len() - 1;
        let mut layers: Vec<Shards<K>> = vec![vec![Vec::new(); SHARDS]; forward.len()];
        layers[last] = forward[last]
            .par_iter()
            .map(|t| t.iter().copied().filter(|&p| self.is_goal(p)).collect())
            .collect();
        for j in (0..last).rev() {
            let (parents, _) = self.step(&layers[j + 1], |q, out, _: &mut ()| {
                let img = self.moves.images(q, self.moves.subgroup_order());
                self.moves.each_unjump(q, |k| {
                    let c = self.moves.canonical_child(&img, k);
                    out.push(c);
                });
            })?;
            // Keep the parents that are reachable: a sorted intersection per shard.
            layers[j] = intersect(parents, &forward[j]);
            bar.inc(1);
        }
        Ok(layers)
    }

    /// Pass 3: `W` of every solvable position, aligned with the shards of `solvable`.
    pub(super) fn wins(&self, solvable: &[Shards<K>]) -> Result<Vec<Vec<Vec<u128>>>> {
        let last = solvable.len() - 1;
        let top = solvable[last].iter().map(|t| vec![1; t.len()]).collect();
        self.wins_from(solvable, top)
    }

    /// `W` of every position of `solvable`, given `W` of its last layer (`top`): each
    /// position's `W` is the sum of its solvable children's.
    pub(super) fn wins_from(
        &self,
        solvable: &[Shards<K>],
        top: Vec<Vec<u128>>,
    ) -> Result<Vec<Vec<Vec<u128>>>> {
        let down: Vec<&Shards<K>> = solvable.iter().rev().collect();
        let mut wins = self.sums(&down, top, &[], |pos, out| self.children(pos, out))?;
        wins.reverse();
        Ok(wins)
    }
}
