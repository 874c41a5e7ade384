//! Meeting in the middle when the backward side is the forward side complemented: when the
//! goal is the start's complement ([`Solver::mirrored`]) or from the layer where the two
//! sides of [`Solver::meet`] turn out to mirror each other ([`Solver::mirrors_from`]); the
//! forward side alone grows ([`Solver::meet_mirrored`], [`Solver::meetings`]).

use super::*;
use std::time::Instant;

/// The shape of a mirrored meeting ([`Solver::meet_mirrored`]).
#[derive(Clone, Copy)]
struct Shape {
    /// The goal's layer: the number of jumps.
    last: usize,
    /// The middle layer: half the jumps, rounded up.
    m: usize,
    /// How many backward layers the meeting holds (`tail`): from `last - d` on the
    /// backward side is the forward side complemented.
    d: usize,
    /// A game of an odd number of jumps: the solvable layer `last - m`, just before the
    /// middle, is found from that forward layer alone ([`Solver::meetings`]), and the
    /// middle is its complements (between `d` and `last - d`, a solvable layer `j` is the
    /// complements of solvable layer `last - j`).
    odd: bool,
}

/// The solvable layer before the middle (odd number of jumps only) and the solvable
/// middle layer of a mirrored meeting ([`Solver::meet_mirrored`]).
type Middle<K> = (Option<Shards<K>>, Option<Shards<K>>);

impl Shape {
    fn new(last: usize, d: usize) -> Self {
        let m = last - last / 2;
        let odd = m >= 1 && last - m == m - 1 && last - m >= d;
        Shape { last, m, d, odd }
    }

    /// The last forward layer to grow: the middle, or the layer before it when `odd`.
    fn grow_to(self) -> usize {
        if self.odd { self.m - 1 } else { self.m }
    }
}

impl<'a, K: Bits> Solver<'a, K> {
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
        let shape = Shape::new(self.start.count_ones() as usize - 1, tail.len());
        let clock = Instant::now();
        // Tags for the order of jumps ([`JumpOrder`]), from the start on (or from those
        // given), while the ranks fit.
        let tags = if fwd.len() == 1 {
            self.first_tags(&fwd[0])
        } else {
            debug_assert!(
                tags.as_ref()
                    .is_none_or(|t| t.len() == size(&fwd[fwd.len() - 1]))
            );
            tags
        };
        let grown = self.grow_forward(&mut fwd, tags, shape, prune, opts, bar, &clock)?;
        let Some((tags, held)) = grown else {
            drop(fwd);
            return Ok(Meet::None(self.depth(opts)?));
        };
        let (below, middle) = self.mirrored_middle(&mut fwd, tags.as_deref(), shape, bar)?;
        let found = middle.as_ref().or(below.as_ref()).map_or(0, size);
        if trace() {
            crate::observe::trace(&format!(
                "meet: middle layer {} holds {found} solvable positions ({:.2} s)",
                shape.m,
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
        let linked = shape.d == 0
            && self.link_cache > 0
            && self.keys.0.is_some()
            && held < u64::from(u32::MAX)
            && held.saturating_mul(4) <= opts.max_memory;
        let (mut solvable, links) = match below {
            Some(below) => {
                let (m, last) = (shape.m, shape.last);
                let (mut s, l) = self.back_to_start(below, m - 1, last, &mut fwd, linked, bar)?;
                if let Some(middle) = middle {
                    s[m] = middle;
                }
                (s, l)
            }
            None => {
                let middle = middle.expect("an even number of jumps");
                self.back_to_start(middle, shape.m, shape.last, &mut fwd, linked, bar)?
            }
        };
        self.mirrored_tail(&mut solvable, &mut tail, shape, prune, bar)?;
        self.trace_mirrored(&solvable, shape, &clock);
        Ok(if shape.d == 0 {
            Meet::Half(solvable, shape.last, links)
        } else {
            Meet::Solvable(solvable)
        })
    }

    /// Grows the forward side of a mirrored meeting to the layer its middle is found from
    /// ([`Shape::grow_to`]), within the memory limit; `None` when a layer is empty, else the
    /// last layer's tags and the bytes of the layers grown.
    #[allow(clippy::too_many_arguments)]
    fn grow_forward(
        &self,
        fwd: &mut Vec<Shards<K>>,
        mut tags: Option<Vec<u32>>,
        shape: Shape,
        prune: Option<&Pruner>,
        opts: &SolveOptions,
        bar: &dyn Meter,
        clock: &Instant,
    ) -> Result<Option<(Option<Vec<u32>>, u64)>> {
        let grow_to = shape.grow_to();
        let mut held = 0u64;
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
                return Ok(None);
            }
            held += (size(&next) * std::mem::size_of::<K>()) as u64;
            self.check_memory(held, opts, fwd.len())?;
            fwd.push(next);
            bar.inc(1);
        }
        Ok(Some((tags, held)))
    }

    /// The solvable layer `last - m` before the middle (odd number of jumps only) and the
    /// solvable middle layer `m`, from the last forward layer (popped from `fwd`). A half
    /// meeting of an odd number of jumps keeps no middle layer: it is the complements of
    /// the solvable layer `last - m` ([`Solver::unmirror`]), and the wins and the counts
    /// come from that layer ([`Solver::wins_mirrored`]).
    fn mirrored_middle(
        &self,
        fwd: &mut Vec<Shards<K>>,
        tags: Option<&[u32]>,
        shape: Shape,
        bar: &dyn Meter,
    ) -> Result<Middle<K>> {
        if shape.odd {
            let below = self.meetings(&fwd.pop().expect("layer last - m"), tags)?;
            bar.inc(2);
            let middle = if shape.d > 0 {
                Some(self.complements(&below)?)
            } else {
                None
            };
            Ok((Some(below), middle))
        } else {
            // Layer `last - m` is the middle itself.
            let f = fwd.pop().expect("the middle layer");
            let mirror = self.complements(&f)?;
            Ok((None, Some(intersect(f, &mirror))))
        }
    }

    /// The solvable layers after the middle of a mirrored meeting with a `tail`: layer `j`
    /// is the complements of solvable layer `last - j` up to `last - d`, then the children
    /// of the layer before that the backward layer of `tail` holds. Without a tail the
    /// layers after `last / 2` are dropped ([`Meet::Half`]).
    fn mirrored_tail(
        &self,
        solvable: &mut Vec<Shards<K>>,
        tail: &mut Vec<Shards<K>>,
        shape: Shape,
        prune: Option<&Pruner>,
        bar: &dyn Meter,
    ) -> Result<()> {
        let Shape { last, m, d, .. } = shape;
        if d == 0 {
            solvable.truncate(last / 2 + 1);
            return Ok(());
        }
        for j in m + 1..=last {
            solvable[j] = if last - j >= d {
                self.complements(&solvable[last - j])?
            } else {
                let next = self.expand(&solvable[j - 1], false, prune)?.0;
                intersect(next, &tail.pop().expect("a backward layer"))
            };
            bar.inc(1);
        }
        Ok(())
    }

    /// The trace line at the end of a mirrored meeting.
    fn trace_mirrored(&self, solvable: &[Shards<K>], shape: Shape, clock: &Instant) {
        if trace() {
            let Shape { last, m, d, .. } = shape;
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
