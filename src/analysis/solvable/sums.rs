//! The `N` and `W` sums along the solvable layers: `N` (jump sequences from the start) and
//! `W` (to a goal) by [`Solver::sums`], and the wins of a mirrored meeting from the middle
//! layer ([`Solver::wins_mirrored`], [`Solver::first_wins_mirrored`]).

use super::*;

impl<'a, K: Bits> Solver<'a, K> {
    /// Sums along the layers `layers[0], layers[1], ...`: the value of a position of
    /// `layers[j]` is the sum of the values of its neighbours (`next` pushes their
    /// canonical forms) held by `layers[j - 1]`, starting from `first`, the values of
    /// `layers[0]`. The values come out aligned with the layers' shards. Both the `W` pass
    /// (from the goals down, over children) and the `N` pass (from the start up, over
    /// parents) are this. Where `links[j]` holds the [`Links`] of `layers[j]` (its
    /// neighbours in `layers[j - 1]`), the sums follow them, without a probe.
    pub(super) fn sums(
        &self,
        layers: &[&Shards<K>],
        first: Vec<Vec<u128>>,
        links: &[Option<Links>],
        next: impl Fn(K, &mut Vec<K>) + Sync,
    ) -> Result<Vec<Vec<Vec<u128>>>> {
        let mut sums: Vec<Vec<Vec<u128>>> = Vec::with_capacity(layers.len());
        sums.push(first);
        for j in 1..layers.len() {
            if let Some(Some(l)) = links.get(j) {
                sums.push(l.sum(&sums[j - 1], 1)?);
                continue;
            }
            let layer = self.neighbour_sums(layers[j], layers[j - 1], &sums[j - 1], &next)?;
            sums.push(layer);
        }
        Ok(sums)
    }

    /// For each position of `layer`, aligned with its shards: the sum of the values
    /// (`values`, aligned with `before`'s shards) of the keys that `next` pushes and
    /// `before` holds. By [`exchange`] where keys are packed and `before`'s tables would
    /// take more than [`Solver::exchange_from`], its groups no larger than those tables
    /// (so that it holds about what the probes would); otherwise by [`probe`], into those
    /// tables.
    pub(super) fn neighbour_sums(
        &self,
        layer: &Shards<K>,
        before: &Shards<K>,
        values: &[Vec<u128>],
        next: &(impl Fn(K, &mut Vec<K>) + Sync),
    ) -> Result<Vec<Vec<u128>>> {
        let table_bytes = WinTable::<K>::bytes(before);
        if let Some(packed) = self.keys.0
            && table_bytes > self.exchange_from
        {
            let budget = self.exchange_budget().min(table_bytes);
            return exchange(layer, before, values, packed, budget, next, || {
                self.check_resident()
            });
        }
        // The previous layer and its values, as hash tables: one probe per neighbour.
        let tables: Vec<WinTable<K>> = before
            .par_iter()
            .zip(values.par_iter())
            .map(|(keys, w)| WinTable::new(keys, w))
            .collect();
        let filter = KeyFilter::new(before.iter().flatten().copied());
        self.check_resident()?;
        layer
            .par_iter()
            .map(|unit| {
                let mut sum = crate::memory::filled(unit.len(), 0u128);
                probe(unit, &tables, &filter, &self.keys, next, |i, _, x| {
                    sum[i] = add(sum[i], x)?;
                    Ok(())
                })?;
                Ok(sum)
            })
            .collect()
    }

    /// The bytes of one group of [`exchange`]'s units: [`Solver::exchange_bytes`], or a
    /// quarter of the room that the memory limit leaves ([`crate::memory::Watch::room`])
    /// when that is less.
    pub(super) fn exchange_budget(&self) -> usize {
        let room = self
            .watch
            .and_then(|w| w.room())
            .map_or(u64::MAX, |r| r / 4);
        self.exchange_bytes
            .min(usize::try_from(room).unwrap_or(usize::MAX))
    }

    /// `N` of every position of `layers` (solvable layers `0..`, in the start's orbit
    /// under `H` first): the jump sequences from the start to it, `N(c) = sum of N(p)` over
    /// its parents. Every reachable parent of a solvable position is solvable, so the
    /// solvable layers hold them all.
    /// Where `links` holds a layer's [`Links`], its sums follow them instead.
    pub(super) fn paths(
        &self,
        layers: &[Shards<K>],
        links: &[Option<Links>],
    ) -> Result<Vec<Vec<Vec<u128>>>> {
        let up: Vec<&Shards<K>> = layers.iter().collect();
        let first = layers[0].iter().map(|t| vec![1; t.len()]).collect();
        self.sums(&up, first, links, |pos, out| self.parents(pos, out))
    }

    /// `W` of the middle layer `m` of [`Meet::Half`] (the last of `half`), aligned with
    /// its shards: a game from `p` to the goal is, complemented and reversed, a game from
    /// the goal's complement (the start, which `H` then fixes) to the complement of `p`,
    /// so `W(p) = N(complement of p)`, found in layer `last - m` of `n` ([`Solver::paths`]
    /// of at least layers `0..=last - m`).
    pub(super) fn middle_wins(
        &self,
        half: &[Shards<K>],
        last: usize,
        n: &[Vec<u128>],
    ) -> Vec<Vec<u128>> {
        let m = half.len() - 1;
        let other: Vec<WinTable<K>> = half[last - m]
            .par_iter()
            .zip(n.par_iter())
            .map(|(keys, w)| WinTable::new(keys, w))
            .collect();
        half[m]
            .par_iter()
            .map(|unit| {
                unit.iter()
                    .map(|&pos| {
                        let c = self.transforms_canon_h(self.mirror_image(pos));
                        other[self.keys.shard(c)].get(c).unwrap_or(0)
                    })
                    .collect()
            })
            .collect()
    }

    /// `W` of the start and of its solvable children (canonical, layer 1) when the goal is
    /// the start's complement ([`Meet::Half`], `last >= 2`) and `H` fixes the start (see
    /// [`Solver::table`]), without `W` of the layers in between: what a hint from a start
    /// needs. [`Solver::paths`] is split by the orbit of the first jump: lane `c` of a
    /// position counts the jump sequences from the orbit of child `c` under `H` to it (`H`
    /// fixes the start, so it maps such sequences onto each other, and the sum over the
    /// lanes is `N`). As in [`Solver::wins_mirrored`], the
    /// wins through the orbit of child `c` are the sum over the middle layer of lane `c`
    /// times `W`, each orbit counted by its size; divided by the size of `c`'s orbit, they
    /// are `W(c)`. `half` must hold the middle layer ([`Solver::with_middle`]); where
    /// `links` holds a layer's [`Links`], the lanes are summed along them, without a probe.
    pub(super) fn first_wins_mirrored(
        &self,
        half: &[Shards<K>],
        last: usize,
        links: &[Option<Links>],
    ) -> Result<(u128, Vec<(K, u128)>)> {
        let m = half.len() - 1;
        let h = self.moves.subgroup_order();
        let children: Vec<K> = half[1].iter().flatten().copied().collect();
        let lanes = children.len();
        // f[shard][i * lanes + c]: lane c of position i of the shard.
        let mut f: Vec<Vec<u128>> = half[1].iter().map(|t| vec![0; t.len() * lanes]).collect();
        let mut c = 0;
        for (shard, t) in half[1].iter().enumerate() {
            for i in 0..t.len() {
                f[shard][i * lanes + c] = 1;
                c += 1;
            }
        }
        // N of layer last - m (at least 1, at most m), for W of the middle layer.
        let mut other = if last - m == 1 {
            Some(lane_sums(&f, lanes)?)
        } else {
            None
        };
        for j in 2..=m {
            let next = match links.get(j) {
                Some(Some(l)) => l.sum(&f, lanes)?,
                _ => self.lanes_by_probe(&half[j - 1], &half[j], &f, lanes)?,
            };
            if j == last - m {
                other = Some(lane_sums(&next, lanes)?);
            }
            f = next;
        }
        let other = other.expect("last - m is between 1 and m");
        let w = self.middle_wins(half, last, &other);
        let orbit = |pos: K| self.orbit_size(&self.moves.images(pos, h), pos) as u128;
        let through = wins_by_lane(&half[m], &f, &w, lanes, orbit)?;
        let w0 = through.iter().try_fold(0, |a, &b| add(a, b))?;
        let children = children
            .into_iter()
            .zip(through)
            .map(|(c, t)| (c, t / orbit(c)))
            .collect();
        Ok((w0, children))
    }

    /// The lanes of layer `layer` from those of the layer `above` it (`prev`, `lanes` per
    /// position), each position's lanes the sum of its parents', found by one probe each.
    fn lanes_by_probe(
        &self,
        above: &Shards<K>,
        layer: &Shards<K>,
        prev: &[Vec<u128>],
        lanes: usize,
    ) -> Result<Vec<Vec<u128>>> {
        let filter = KeyFilter::new(above.iter().flatten().copied());
        let above: Vec<WinTable<K>> = above
            .par_iter()
            .map(|keys| {
                let at: Vec<u128> = (0..keys.len() as u128).collect();
                WinTable::new(keys, &at)
            })
            .collect();
        layer
            .par_iter()
            .map(|unit| {
                let mut out = crate::memory::filled(unit.len() * lanes, 0u128);
                // A parent's value in `above` is its index in its shard.
                probe(
                    unit,
                    &above,
                    &filter,
                    &self.keys,
                    |pos, keys| self.parents(pos, keys),
                    |i, c, at| {
                        let from = &prev[self.keys.shard(c)][at as usize * lanes..][..lanes];
                        for (s, &x) in out[i * lanes..][..lanes].iter_mut().zip(from) {
                            *s = add(*s, x)?;
                        }
                        Ok(())
                    },
                )?;
                Ok(out)
            })
            .collect()
    }

    /// The winning sequences from the start when the goal is the start's complement and
    /// `H` fixes the start, from the solvable layers `0..=k` (`k = last / 2`, [`Meet::Half`])
    /// and their `N`. A game from `p` to the goal is, complemented and reversed, a game from
    /// the start to the complement of `p`, so `W(p) = N(complement of p)`. With an even
    /// number of jumps, a game passes through one position `q` of the middle layer `k`:
    /// the wins are the sum over that layer of `N(q) * W(q)`. With an odd number, it passes
    /// through one position `r` of the middle layer `k + 1`, the complement of one `q` of
    /// layer `k`: `W(r) = N(q)`, and `N(r)` is the sum of `N` over the complements of
    /// `q`'s children (an un-jump of `r` is the complement of a jump of `q`, and a
    /// reachable parent of `r` is solvable, so layer `k` holds it). Either way each `q`
    /// counts once per position of its orbit (a complement's orbit is as large), and
    /// both factors are looked up in layer `k`, one lookup per child
    /// ([`Solver::neighbour_sums`]): no middle layer, no `N` of it.
    pub(super) fn wins_mirrored(
        &self,
        half: &[Shards<K>],
        last: usize,
        links: &[Option<Links>],
    ) -> Result<u128> {
        let k = half.len() - 1;
        debug_assert_eq!(k, last / 2);
        let clock = std::time::Instant::now();
        let n = self.paths(half, links)?;
        if trace() {
            crate::observe::trace(&format!(
                "wins: N of {} layers ({:.2} s)",
                half.len(),
                clock.elapsed().as_secs_f64()
            ));
        }
        let full = K::from_u128(self.board.full());
        let h = self.moves.subgroup_order();
        let even = last == 2 * k;
        // The other factor of each position: `W(q)`, or `N` of the middle's `r`.
        let other = self.neighbour_sums(&half[k], &half[k], &n[k], &|q, out: &mut Vec<K>| {
            if even {
                out.push(self.transforms_canon_h(self.mirror_image(q)));
            } else {
                let q = self.mirror_parent(q);
                let img = self.moves.images(q, h);
                self.moves
                    .each_jump(q, |j| out.push(full ^ self.moves.largest_child(&img, j)));
            }
        })?;
        let total = half[k]
            .par_iter()
            .zip(n[k].par_iter().zip(other.par_iter()))
            .map(|(unit, (counts, other))| {
                let mut total = 0u128;
                for ((&q, &before), &after) in unit.iter().zip(counts).zip(other) {
                    let size = self.orbit_size(&self.moves.images(q, h), q);
                    let term = (size as u128)
                        .checked_mul(before)
                        .and_then(|x| x.checked_mul(after))
                        .ok_or_else(|| {
                            Error::Overflow(format!("{before} * {after} exceeds u128"))
                        })?;
                    total = add(total, term)?;
                }
                Ok(total)
            })
            .try_reduce(|| 0, add);
        if trace() {
            crate::observe::trace(&format!(
                "wins: the middle's N and W and the total ({:.2} s)",
                clock.elapsed().as_secs_f64()
            ));
        }
        total
    }
}

/// The sum of each position's `lanes` lanes, shard by shard: `N` of each position.
fn lane_sums(f: &[Vec<u128>], lanes: usize) -> Result<Vec<Vec<u128>>> {
    f.iter()
        .map(|t| {
            t.chunks(lanes.max(1))
                .map(|l| l.iter().try_fold(0, |a, &b| add(a, b)))
                .collect()
        })
        .collect()
}

/// For each lane `c`, the sum over the middle layer of its size of orbit times lane `c`
/// (`lanes_of`) times `W` (`wins`): the wins through the orbit of child `c`.
fn wins_by_lane<K: Bits>(
    middle: &Shards<K>,
    lanes_of: &[Vec<u128>],
    wins: &[Vec<u128>],
    lanes: usize,
    orbit: impl Fn(K) -> u128 + Sync,
) -> Result<Vec<u128>> {
    middle
        .par_iter()
        .zip(lanes_of.par_iter().zip(wins.par_iter()))
        .map(|(unit, (lanes_of, wins))| {
            let mut acc = vec![0u128; lanes];
            for (i, (&pos, &after)) in unit.iter().zip(wins).enumerate() {
                if after == 0 {
                    continue;
                }
                let size = orbit(pos);
                for (a, &before) in acc.iter_mut().zip(&lanes_of[i * lanes..(i + 1) * lanes]) {
                    let term = size
                        .checked_mul(before)
                        .and_then(|x| x.checked_mul(after))
                        .ok_or_else(|| {
                            Error::Overflow(format!("{before} * {after} exceeds u128"))
                        })?;
                    *a = add(*a, term)?;
                }
            }
            Ok(acc)
        })
        .try_reduce(
            || vec![0; lanes],
            |a, b| a.iter().zip(&b).map(|(&x, &y)| add(x, y)).collect(),
        )
}
