//! Meeting in the middle: grow the forward side from the start and the backward side from
//! the goals to a common layer, intersect there, and extend the solvable positions back to
//! the start ([`Solver::meet`]); when the goal is the start's complement, the backward side
//! is the forward side complemented ([`Solver::meet_mirrored`], [`Solver::meetings`]).

use super::*;

impl<'a, K: Bits> Solver<'a, K> {
    /// The solvable positions of every layer by meeting in the middle: forward from the
    /// start and backward (un-jumps) from the goals, each side growing its smaller frontier,
    /// until the two reach the same layer `m`; there the solvable positions are the
    /// intersection, and from there they extend layer by layer: parents of solvable
    /// positions that the forward side holds towards the start, children that the backward
    /// side holds towards the goal.
    pub(super) fn meet(&self, opts: &SolveOptions, bar: &dyn Meter) -> Result<Meet<K>> {
        let pegs = self.start.count_ones() as usize;
        if pegs == 0 {
            return Ok(Meet::None(1));
        }
        let last = pegs - 1;
        let mut first: Shards<K> = vec![Vec::new(); SHARDS];
        let start = self.transforms_canon_h(self.start);
        first[self.keys.shard(start)].push(start);
        let goals = self.goals();
        let mirrored = self.mirrored(&goals);
        let clock = std::time::Instant::now();
        let (ahead, behind) = self.pruners(&goals, mirrored);
        if trace() {
            crate::observe::trace(&format!(
                "meet: cuts found in {:.3} s",
                clock.elapsed().as_secs_f64()
            ));
        }
        let _ = self.cuts.set([ahead, behind]);
        let (ahead, behind) = (self.ahead(), self.behind());
        if mirrored {
            return self.meet_mirrored(opts, bar, vec![first], ahead, Vec::new(), None);
        }
        // fwd[j]: layer j; bwd[k]: layer last - k.
        let mut fwd = vec![first];
        let mut bwd = vec![goals];
        let mut held = 0u64;
        let mut empty = size(&fwd[0]) == 0 || size(&bwd[0]) == 0;
        // Tags for the order of jumps ([`JumpOrder`]) on both sides.
        let (mut ftags, mut btags) = (self.first_tags(&fwd[0]), self.first_tags(&bwd[0]));
        // Whether `ftags` hold ranks, so that the mirrored meeting may grow on with them.
        let mut franked = true;
        // The side to grow: the one whose next layer should be the smaller, guessed from
        // its last layer and its last growth ratio.
        let guess = |side: &[Shards<K>]| -> f64 {
            let n = size(&side[side.len() - 1]) as f64;
            match side.len() {
                1 => n,
                k => n * n / (size(&side[k - 2]).max(1) as f64),
            }
        };
        let middle_layer = last - last / 2;
        while !empty && fwd.len() - 1 < last - (bwd.len() - 1) {
            let forward = guess(&fwd) <= guess(&bwd);
            // The layer that closes the gap is met, not expanded: its tags need no ranks.
            let ranks = last - (bwd.len() - 1) - (fwd.len() - 1) > 1;
            let (side, tags, prune) = if forward {
                (&fwd, &ftags, ahead)
            } else {
                (&bwd, &btags, behind)
            };
            let (next, tags, cut) = self.expand_with(
                side.last().expect("a layer"),
                tags.as_deref(),
                !forward,
                prune,
                ranks,
            )?;
            if forward {
                (ftags, franked) = (tags, ranks);
            } else {
                btags = tags;
            }
            empty = size(&next) == 0;
            if trace() {
                crate::observe::trace(&format!(
                    "meet: {} layer {} holds {} positions, {cut} children cut ({:.2} s)",
                    if forward { "forward" } else { "backward" },
                    if forward { fwd.len() } else { last - bwd.len() },
                    size(&next),
                    clock.elapsed().as_secs_f64()
                ));
            }
            held += (size(&next) * std::mem::size_of::<K>()) as u64;
            self.check_memory(held, opts, fwd.len() + bwd.len())?;
            if forward {
                fwd.push(next);
            } else {
                bwd.push(next);
            }
            bar.inc(1);
            // Once backward layer `last - d` is the complements of forward layer `d`, so is
            // every later backward layer (`Solver::mirrors_from`): the forward side alone
            // grows on. Short of the middle only, where that saves a side's growth.
            let d = if forward { fwd.len() } else { bwd.len() } - 1;
            if !empty
                && ahead.is_none()
                && behind.is_none()
                && d < fwd.len()
                && d < bwd.len()
                && fwd.len() < middle_layer
                && self.mirrors_from(&fwd[d], &bwd[d])?
            {
                if trace() {
                    crate::observe::trace(&format!(
                        "meet: backward layer {} is the complements of forward layer {d}",
                        last - d
                    ));
                }
                bwd.truncate(d);
                let tags = if franked { ftags } else { None };
                return self.meet_mirrored(opts, bar, fwd, None, bwd, tags);
            }
        }
        let m = fwd.len() - 1;
        let middle = if empty {
            None
        } else {
            let f = fwd.pop().expect("the middle layer");
            let b = bwd.pop().expect("the middle layer");
            let s = intersect(f, &b);
            (size(&s) > 0).then_some(s)
        };
        let Some(middle) = middle else {
            drop((fwd, bwd));
            return Ok(Meet::None(self.depth(opts)?));
        };
        let (mut solvable, _) = self.back_to_start(middle, m, last, &mut fwd, false, bar)?;
        for j in m + 1..=last {
            let b = bwd.pop().expect("a backward layer");
            solvable[j] = intersect(self.expand(&solvable[j - 1], false, ahead)?.0, &b);
            bar.inc(1);
        }
        if trace() {
            crate::observe::trace(&format!(
                "meet: met at layer {m}; {} solvable positions in all ({:.2} s)",
                solvable.iter().map(size).sum::<usize>(),
                clock.elapsed().as_secs_f64()
            ));
        }
        Ok(Meet::Solvable(solvable))
    }

    /// Whether the goal is the start's complement up to a symmetry ([`Solver::mirror`]):
    /// one goal position in the start's class, whose complement some symmetry `t` (with
    /// `t H = H t` and `t` twice in `H`) maps to the start. A jump backwards on a position
    /// is a jump forwards on its complement, so the positions that reach the goal in `k`
    /// jumps are then the `t`-complements of those reachable in `k` jumps from the start
    /// (english centre to centre, `t` the identity; french d2 to d6, `t` the top-bottom
    /// flip), and the solvable positions `k` jumps before the end are the `t`-complements
    /// of those `k` jumps after the start.
    pub(super) fn mirrored(&self, goals: &Shards<K>) -> bool {
        let mut all = goals.iter().flatten();
        !matches!(self.mirror, Mirror::No) && matches!((all.next(), all.next()), (Some(_), None))
    }

    /// Whether backward layer `last - d` (`bwd`) is the complements of forward layer `d`
    /// (`fwd`), for a meeting without cuts. A jump backwards on a position is a jump
    /// forwards on its complement, and complementing commutes with the symmetries, so the
    /// parents of the complements of a layer are the complements of its children: from
    /// there on every backward layer `last - j` is the complements of forward layer `j`.
    /// english `--finish any` mirrors from `d = 1`: the one-peg goals of the centre's
    /// class, un-jumped once, are the complements of the centre start's children.
    pub(super) fn mirrors_from(&self, fwd: &Shards<K>, bwd: &Shards<K>) -> Result<bool> {
        let full = K::from_u128(self.board.full());
        Ok(size(fwd) == size(bwd) && self.images_of(fwd, |pos| full ^ pos)? == *bwd)
    }

    /// The canonical `t`-complements of a layer's positions ([`Solver::mirror_image`]),
    /// as a layer.
    pub(super) fn complements(&self, layer: &Shards<K>) -> Result<Shards<K>> {
        self.images_of(layer, |pos| self.mirror_image(pos))
    }

    /// The canonical forms of `f` of a layer's positions, as a layer.
    pub(super) fn images_of(
        &self,
        layer: &Shards<K>,
        f: impl Fn(K) -> K + Sync,
    ) -> Result<Shards<K>> {
        Ok(self
            .step(layer, |pos, out, _: &mut ()| {
                out.push(self.transforms_canon_h(f(pos)));
            })?
            .0)
    }

    /// The solvable layers `0..=m` from the solvable middle layer `m`: each earlier layer is
    /// the forward layer (popped from `fwd`) cut to the positions with a jump into the next
    /// solvable one. The layers after `m`, up to `last`, are left empty for the caller.
    /// With `linked`, also returns for each layer `j` in `1..=m` its [`Links`] to layer
    /// `j - 1`: the parents of a solvable position that the forward layer holds are its
    /// solvable parents, found by one probe each ([`Places`]), so that the `N` pass
    /// ([`Solver::paths`]) sums along them without another probe. (Every reachable parent
    /// of a solvable position lies on a winning path, so no cut removed it from the forward
    /// layer.) Without, each layer is the forward one intersected with the canonical
    /// parents of the next solvable one, which needs no table of the forward layer.
    #[allow(clippy::type_complexity)]
    pub(super) fn back_to_start(
        &self,
        middle: Shards<K>,
        m: usize,
        last: usize,
        fwd: &mut Vec<Shards<K>>,
        linked: bool,
        bar: &dyn Meter,
    ) -> Result<(Vec<Shards<K>>, Vec<Option<Links>>)> {
        let mut solvable: Vec<Shards<K>> = vec![Vec::new(); last + 1];
        let mut links: Vec<Option<Links>> = (0..=m).map(|_| None).collect();
        solvable[m] = middle;
        for j in (0..m).rev() {
            let f = fwd.pop().expect("a forward layer");
            if linked && self.links_pay(&solvable[j + 1], &f) {
                let (s, l) = self.linked_parents(&solvable[j + 1], f);
                solvable[j] = s;
                links[j + 1] = Some(l);
            } else {
                let parents = self.expand(&solvable[j + 1], true, self.behind())?.0;
                solvable[j] = intersect(parents, &f);
            }
            bar.inc(1);
        }
        Ok((solvable, links))
    }

    /// Whether the back pass from solvable layer `layer` into forward layer `f` should
    /// record [`Links`]: when the table of `f` ([`Places`]) fits in [`Solver::link_cache`]
    /// and `layer` holds at least an eighth as many positions as `f`. Otherwise the
    /// probes into a table of every position of `f` cost more than sorting the parents
    /// and the `N` pass's probes into the smaller solvable layer (english d1 to d1, whose
    /// solvable layers hold 2% of the forward ones: 0.40 s without links against 0.47 s
    /// with; d3 to d3, 64 MB tables: 2.8 s against 3.2 s; french d2 to d6: 58 s either
    /// way, 3.4 GB against 4.8 GB; d4, 16 MB tables and a quarter solvable: 0.49 s with
    /// links against 0.53 s without).
    pub(super) fn links_pay(&self, layer: &Shards<K>, f: &Shards<K>) -> bool {
        Places::bytes(f) <= self.link_cache && 8 * size(layer) >= size(f)
    }

    /// The positions of forward layer `f` that are parents of some position of `layer`,
    /// and the [`Links`] of `layer` to them.
    pub(super) fn linked_parents(&self, layer: &Shards<K>, f: Shards<K>) -> (Shards<K>, Links) {
        let packed = self.keys.0.expect("links need packed keys");
        let places = Places::new(&f, packed);
        let hit: Vec<AtomicBool> = (0..size(&f)).map(|_| AtomicBool::new(false)).collect();
        let mut units: Vec<(Vec<u32>, Vec<u32>)> = layer
            .par_iter()
            .map(|unit| {
                let mut starts = vec![0u32; unit.len() + 1];
                let mut to = Vec::with_capacity(8 * unit.len());
                locate(
                    unit,
                    &places,
                    packed,
                    |pos, out| self.parents(pos, out),
                    |i, at| {
                        starts[i + 1] += 1;
                        to.push(at);
                        hit[at as usize].store(true, Ordering::Relaxed);
                    },
                );
                for i in 0..unit.len() {
                    starts[i + 1] += starts[i];
                }
                (starts, to)
            })
            .collect();
        drop(places);
        // The solvable positions keep the forward layer's order; `rank` renumbers them.
        let lens: Vec<usize> = f.iter().map(Vec::len).collect();
        let hit = split_by(&hit, &lens);
        let kept: Vec<u32> = hit
            .par_iter()
            .map(|h| h.iter().filter(|x| x.load(Ordering::Relaxed)).count() as u32)
            .collect();
        let first: Vec<u32> = kept
            .iter()
            .scan(0, |n, &k| {
                *n += k;
                Some(*n - k)
            })
            .collect();
        let mut rank = vec![0u32; lens.iter().sum()];
        let solvable: Shards<K> = f
            .into_par_iter()
            .zip(hit.into_par_iter())
            .zip(split_by_mut(&mut rank, &lens).into_par_iter())
            .zip(first.into_par_iter().zip(kept))
            .map(|(((t, h), r), (mut n, k))| {
                let mut out = Vec::with_capacity(k as usize);
                for ((x, h), r) in t.into_iter().zip(h).zip(r.iter_mut()) {
                    *r = n;
                    if h.load(Ordering::Relaxed) {
                        out.push(x);
                        n += 1;
                    }
                }
                out
            })
            .collect();
        units.par_iter_mut().for_each(|(_, to)| {
            for t in to.iter_mut() {
                *t = rank[*t as usize];
            }
        });
        (solvable, Links(units))
    }

    /// [`Solver::meet`] when the backward side is the forward side complemented: from the
    /// goal on when the goal is the start's complement ([`Solver::mirrored`], `tail`
    /// empty), or from backward layer `last - d` on, `tail` holding backward layers `last`
    /// down to `last - d + 1` ([`Solver::mirrors_from`]). The forward side alone grows
    /// (from the layers of `fwd`), to the middle layer `m` (half the jumps, rounded up);
    /// there the solvable positions are those of layer `m` whose complements are in layer
    /// `last - m`; they extend towards the start as in [`Solver::meet`], and each layer `j`
    /// after the middle, up to `last - d`, is the complements of the solvable layer
    /// `last - j`. Without `tail` only the layers up to the middle are returned
    /// ([`Meet::Half`]); with it the last `d` layers are the children of the one before
    /// that `tail` holds. `tags`: those of the last layer of `fwd` when it has more than
    /// one, with ranks ([`JumpOrder`]; english `--finish any` switches here after two
    /// forward layers), so that the order of jumps goes on.
    pub(super) fn meet_mirrored(
        &self,
        opts: &SolveOptions,
        bar: &dyn Meter,
        mut fwd: Vec<Shards<K>>,
        prune: Option<&Pruner>,
        mut tail: Vec<Shards<K>>,
        tags: Option<Vec<u32>>,
    ) -> Result<Meet<K>> {
        let last = self.start.count_ones() as usize - 1;
        let m = last - last / 2;
        let d = tail.len();
        let clock = std::time::Instant::now();
        let mut held = 0u64;
        // A game of an odd number of jumps: the solvable layer `last - m`, just before the
        // middle, is found from that forward layer alone ([`Solver::meetings`]), and the
        // middle is its complements (between `d` and `last - d`, a solvable layer `j` is
        // the complements of solvable layer `last - j`).
        let odd = m >= 1 && last - m == m - 1 && last - m >= d;
        let grow_to = if odd { m - 1 } else { m };
        // Tags for the order of jumps ([`JumpOrder`]), from the start on (or from those
        // given), while the ranks fit.
        let mut tags = if fwd.len() == 1 {
            self.first_tags(&fwd[0])
        } else {
            debug_assert!(
                tags.as_ref()
                    .is_none_or(|t| t.len() == size(&fwd[fwd.len() - 1]))
            );
            tags
        };
        while fwd.len() - 1 < grow_to {
            // The last layer grown only meets (its tags choose the meetings' jumps), so
            // its tags need no ranks.
            let ranks = fwd.len() < grow_to;
            let (next, next_tags, cut) = self.expand_with(
                fwd.last().expect("a layer"),
                tags.as_deref(),
                false,
                prune,
                ranks,
            )?;
            tags = next_tags;
            if trace() {
                crate::observe::trace(&format!(
                    "meet: forward layer {} holds {} positions, {cut} children cut ({:.2} s)",
                    fwd.len(),
                    size(&next),
                    clock.elapsed().as_secs_f64()
                ));
            }
            if size(&next) == 0 {
                drop(fwd);
                return Ok(Meet::None(self.depth(opts)?));
            }
            held += (size(&next) * std::mem::size_of::<K>()) as u64;
            self.check_memory(held, opts, fwd.len())?;
            fwd.push(next);
            bar.inc(1);
        }
        // A half meeting of an odd number of jumps keeps no middle layer: it is the
        // complements of the solvable layer `last - m` ([`Solver::unmirror`]), and the
        // wins and the counts come from that layer ([`Solver::wins_mirrored`]).
        let (below, middle) = if odd {
            let below = self.meetings(&fwd.pop().expect("layer last - m"), tags.as_deref())?;
            bar.inc(2);
            let middle = if d > 0 {
                Some(self.complements(&below)?)
            } else {
                None
            };
            (Some(below), middle)
        } else {
            // Layer `last - m` is the middle itself.
            let f = fwd.pop().expect("the middle layer");
            let mirror = self.complements(&f)?;
            (None, Some(intersect(f, &mirror)))
        };
        let found = middle.as_ref().or(below.as_ref()).map_or(0, size);
        if trace() {
            crate::observe::trace(&format!(
                "meet: middle layer {m} holds {found} solvable positions ({:.2} s)",
                clock.elapsed().as_secs_f64()
            ));
        }
        if found == 0 {
            drop(fwd);
            return Ok(Meet::None(self.depth(opts)?));
        }
        // Links for the `N` pass of a half meeting, unless the table of the largest
        // forward layer (about four times its positions' bytes) could pass the limit;
        // then layer by layer where they pay ([`Solver::links_pay`]).
        let linked = d == 0
            && self.link_cache > 0
            && self.keys.0.is_some()
            && held < u64::from(u32::MAX)
            && held.saturating_mul(4) <= opts.max_memory;
        let (mut solvable, links) = match below {
            Some(below) => {
                let (mut s, l) = self.back_to_start(below, m - 1, last, &mut fwd, linked, bar)?;
                if let Some(middle) = middle {
                    s[m] = middle;
                }
                (s, l)
            }
            None => {
                let middle = middle.expect("an even number of jumps");
                self.back_to_start(middle, m, last, &mut fwd, linked, bar)?
            }
        };
        if d == 0 {
            solvable.truncate(last / 2 + 1);
        } else {
            for j in m + 1..=last {
                solvable[j] = if last - j >= d {
                    self.complements(&solvable[last - j])?
                } else {
                    let next = self.expand(&solvable[j - 1], false, prune)?.0;
                    intersect(next, &tail.pop().expect("a backward layer"))
                };
                bar.inc(1);
            }
        }
        if trace() {
            crate::observe::trace(&format!(
                "meet: the backward side mirrors the forward side from layer {}; met at layer \
                 {m}; {} solvable positions {} ({:.2} s)",
                last - d,
                solvable.iter().map(size).sum::<usize>(),
                if d == 0 {
                    "up to layer last / 2"
                } else {
                    "in all"
                },
                clock.elapsed().as_secs_f64()
            ));
        }
        Ok(if d == 0 {
            Meet::Half(solvable, last, links)
        } else {
            Meet::Solvable(solvable)
        })
    }

    /// The solvable positions of forward layer `last - m` when a game has an odd number
    /// of jumps and the backward side mirrors the forward side: a position `q` of the
    /// layer is solvable when the complement of `q` is reachable, a child of a position
    /// `p` of the same layer. (The same jump then takes `q` to the complement of `p`.)
    /// With a symmetry `t` ([`Solver::mirror`]) the complements are `t`-complements, and the
    /// children those of `t(q)` ([`Solver::mirror_parent`]).
    /// Each child's complement is found in canonical form from the parent's images
    /// ([`MoveTable::largest_child`]) and kept only if a filter of the layer may hold it,
    /// then the few kept are intersected with the layer.
    ///
    /// With the layer's `tags` ([`JumpOrder`]) only the children that
    /// [`JumpOrder::within`] lets through are made (through a symmetry `t`, their
    /// `t`-images: [`JumpOrder::within_through`]): every reachable child is still made at
    /// least once, and a solvable position's ancestors pass the cuts, so the positions
    /// found are the same (english d4: 4.8 million children instead of 12.5 million).
    pub(super) fn meetings(&self, layer: &Shards<K>, tags: Option<&[u32]>) -> Result<Shards<K>> {
        let full = K::from_u128(self.board.full());
        let h = self.moves.subgroup_order();
        let tags = tags.zip(self.order.as_ref());
        let through = matches!(self.mirror, Mirror::Through(..));
        let filter = KeyFilter::new(layer.iter().flatten().copied());
        // No cuts: with the filter a child costs one probe, less than the cuts' test. The
        // probes wait for memory, so a unit lists a few hundred keys, asking for each one's
        // word of the filter, before it tests them.
        let test = |keys: &mut Vec<K>, out: &mut Out<K>| {
            for &q in keys.iter() {
                if filter.may_hold(q) {
                    out.push(q);
                }
            }
            keys.clear();
        };
        let (found, _, _) = self.step_at(
            layer,
            false,
            |pos, at, out, pending: &mut Vec<K>| {
                let pos = self.mirror_parent(pos);
                let img = self.moves.images(pos, h);
                let mut take = |j| {
                    let q = full ^ self.moves.largest_child(&img, j);
                    filter.prefetch(q);
                    pending.push(q);
                };
                match tags {
                    Some((t, o)) if through => {
                        self.moves
                            .each_jump_within(pos, o.within_through(t[at]), take)
                    }
                    Some((t, o)) => self.moves.each_jump_within(pos, o.within(t[at]), take),
                    None => self.moves.each_jump(pos, &mut take),
                };
                if pending.len() >= 256 {
                    test(pending, out);
                }
            },
            |out, pending| test(pending, out),
        )?;
        Ok(intersect(found, layer))
    }

    /// The layers of [`Meet::Half`] up to the middle layer `last - last / 2`, which a game
    /// of an odd number of jumps leaves out: the complements of layer `last / 2`.
    pub(super) fn with_middle(
        &self,
        mut half: Vec<Shards<K>>,
        last: usize,
    ) -> Result<Vec<Shards<K>>> {
        if half.len() <= last - last / 2 {
            let c = self.complements(&half[last / 2])?;
            half.push(c);
        }
        Ok(half)
    }

    /// Every solvable layer from [`Meet::Half`]: the layers after `last / 2` are the
    /// complements of those as far before the end.
    pub(super) fn unmirror(&self, mut half: Vec<Shards<K>>, last: usize) -> Result<Vec<Shards<K>>> {
        for j in half.len()..=last {
            let c = self.complements(&half[last - j])?;
            half.push(c);
        }
        Ok(half)
    }
}
