//! Building a layer from the one before: one step over the shards as work units
//! ([`Solver::step_at`]), the children or parents of each position written to one buffer
//! per next-layer shard and merged per shard (sorted, repeats removed), optionally with the
//! cuts ([`Solver::expand`]) and the order of commuting jumps ([`Solver::expand_ordered`]).
//! The buffers are in `buffers.rs`, the sorts and the repeats' removal in `sorting.rs`.

use super::*;

impl<'a, K: Bits> Solver<'a, K> {
    /// The next layer: `f(pos, out, acc)` pushes the canonical successors of `pos` into
    /// `out` ([`Out::push`], which picks the shard) and may note statistics of `pos` in the
    /// unit's accumulator `acc`.
    /// Units are the shards of `layer`, in batches; per-shard buffers are merged one task
    /// per shard, then sorted and deduplicated. On boards of up to 40 holes the buffers
    /// and the shards being built hold 32-bit keys ([`Keys`]), unpacked once the repeats
    /// are gone, which is faster and smaller (docs/experiments.md, "Figures that were in
    /// code comments"). Returns the next layer and the units' accumulators, or [`Error::Memory`] when the layer's
    /// buffers take the process past its limit ([`Solver::check_resident`], asked each time
    /// they grew by a sixty-fourth of the limit).
    pub(super) fn step<A: Default + Send + Sync>(
        &self,
        layer: &Shards<K>,
        f: impl Fn(K, &mut Out<K>, &mut A) + Sync,
    ) -> Result<(Shards<K>, Vec<A>)> {
        self.step_with(layer, f, |_, _| {})
    }

    /// [`Solver::step`], calling `end(out, acc)` after the last position of each unit.
    pub(super) fn step_with<A: Default + Send + Sync>(
        &self,
        layer: &Shards<K>,
        f: impl Fn(K, &mut Out<K>, &mut A) + Sync,
        end: impl Fn(&mut Out<K>, &mut A) + Sync,
    ) -> Result<(Shards<K>, Vec<A>)> {
        let (next, _, accs) =
            self.step_at(layer, false, |pos, _, out, acc| f(pos, out, acc), end)?;
        Ok((next, accs))
    }

    /// [`Solver::step_with`], where `f` also gets the position's index in the layer
    /// (shard by shard), and with `tagged` pushes its children with their payloads
    /// ([`Out::push_tagged`], packed keys only): of a child's arrivals the smallest
    /// payload is kept, and the payloads are returned in the next layer's order, shard by
    /// shard ([`JumpOrder`]).
    pub(super) fn step_at<A: Default + Send + Sync>(
        &self,
        layer: &Shards<K>,
        tagged: bool,
        f: impl Fn(K, usize, &mut Out<K>, &mut A) + Sync,
        end: impl Fn(&mut Out<K>, &mut A) + Sync,
    ) -> Result<(Shards<K>, Vec<u32>, Vec<A>)> {
        let batch = (4 * rayon::current_num_threads()).clamp(8, SHARDS);
        // The buffers' bytes at which the memory is asked about next.
        let every = self.watch.map_or(usize::MAX, |w| {
            usize::try_from(w.limit() / 64)
                .unwrap_or(usize::MAX)
                .max(4 << 20)
        });
        let mut ask_at = every;
        let offsets: Vec<usize> = layer
            .iter()
            .scan(0, |at, t| {
                let o = *at;
                *at += t.len();
                Some(o)
            })
            .collect();
        let mut building = Building::new();
        let mut accs = Vec::with_capacity(SHARDS);
        let bits = self.board.holes();
        let low = self.keys.low_bits();
        assert!(!tagged || low.is_some(), "tagged children need packed keys");
        // One unit's children per shard, the buffers kept from batch to batch.
        let mut outs: Vec<Out<K>> = (0..batch).map(|_| Out::new(self.keys)).collect();
        for (b, units) in layer.chunks(batch).enumerate() {
            let results: Vec<A> = units
                .par_iter()
                .zip(outs.par_iter_mut())
                .enumerate()
                .map(|(u, (unit, out))| {
                    let mut acc = A::default();
                    out.clear();
                    let at = offsets[b * batch + u];
                    for (i, &pos) in unit.iter().enumerate() {
                        f(pos, at + i, out, &mut acc);
                    }
                    end(out, &mut acc);
                    acc
                })
                .collect();
            let outs = &outs[..units.len()];
            building.gather(outs, tagged, low, bits);
            accs.extend(results);
            let held = outs.iter().map(Out::bytes).sum::<usize>() + building.bytes();
            if held >= ask_at {
                self.check_resident()?;
                ask_at = held.saturating_add(every);
            }
        }
        drop(outs);
        let (next, payloads) = building.finish(self.keys, tagged, bits);
        Ok((next, payloads, accs))
    }

    /// The canonical children (`backward`: parents, by un-jumps) of a layer, and how many
    /// children `prune` ruled out.
    pub(super) fn expand(
        &self,
        layer: &Shards<K>,
        backward: bool,
        prune: Option<&Pruner>,
    ) -> Result<(Shards<K>, u64)> {
        let h = self.moves.subgroup_order();
        let chunks = self.board.holes().div_ceil(8);
        let jumps = self.board.jumps().len();
        let (next, accs) = self.step(layer, |pos, out, acc: &mut (u64, Vec<K>)| {
            let img = self.moves.images(pos, h);
            let Some(p) = prune else {
                self.moves.each_move(pos, backward, |j| {
                    let c = self.moves.canonical_child(&img, j);
                    out.push(c);
                });
                return;
            };
            // Every child is written to `kids`, and only those kept are counted: no branch
            // on the cuts' answer ([`Pruner::keeps`]). A jump is legal from a position at
            // most once, so `kids` never holds more than the board's jumps.
            let (cut, kids) = acc;
            kids.resize(jumps, K::zero());
            let slack = p.slack(pos, chunks);
            let (mut n, mut kept) = (0, 0);
            self.moves.each_move(pos, backward, |j| {
                kids[kept] = self.moves.canonical_child(&img, j);
                kept += usize::from(p.keeps(&slack, j, backward));
                n += 1;
            });
            for &c in &kids[..kept] {
                out.push(c);
            }
            *cut += (n - kept) as u64;
        })?;
        Ok((next, accs.iter().map(|a| a.0).sum()))
    }

    /// [`Solver::expand`] with the order of jumps when the layer has `tags`
    /// ([`Solver::expand_ordered`], `ranks` as there), plainly otherwise; the next layer's
    /// tags, if any.
    pub(super) fn expand_with(
        &self,
        layer: &Shards<K>,
        tags: Option<&[u32]>,
        backward: bool,
        prune: Option<&Pruner>,
        ranks: bool,
    ) -> Result<(Shards<K>, Option<Vec<u32>>, u64)> {
        match tags {
            Some(t) => self.expand_ordered(layer, t, backward, prune, ranks),
            None => {
                let (next, cut) = self.expand(layer, backward, prune)?;
                Ok((next, None, cut))
            }
        }
    }

    /// The tags of a first layer (a start, or the goals), when the order of jumps applies
    /// ([`JumpOrder`]: a board of at most 126 jumps, packed keys).
    pub(super) fn first_tags(&self, layer: &Shards<K>) -> Option<Vec<u32>> {
        let order = self.order.as_ref()?;
        self.keys.0?;
        Some((0..size(layer) as u32).map(|r| order.start(r)).collect())
    }

    /// [`Solver::expand`] from a layer whose positions carry tags (`tags`, in the
    /// layer's order), skipping the jumps that [`JumpOrder`] shows to repeat a position:
    /// the same next layer, from fewer jumps (english d4's layer 15: 3.7 million jumps
    /// made and 2.8 million kept, instead of 9.5 and 7.2 million). Returns the next
    /// layer, its tags (`None` when its ranks would not fit a tag) and the children cut.
    ///
    /// Without `ranks` the next layer's tags hold no ranks ([`JumpOrder::unranked`]): they
    /// choose its positions' jumps ([`JumpOrder::within`]) but cannot order a layer after
    /// it, which saves ranking a layer that only the meetings take (english d4's forward
    /// layer 15, 1.24 million positions).
    pub(super) fn expand_ordered(
        &self,
        layer: &Shards<K>,
        tags: &[u32],
        backward: bool,
        prune: Option<&Pruner>,
        ranks: bool,
    ) -> Result<(Shards<K>, Option<Vec<u32>>, u64)> {
        let order = self.order.as_ref().expect("an order of jumps");
        let h = self.moves.subgroup_order();
        let chunks = self.board.holes().div_ceil(8);
        let jumps = self.board.jumps().len();
        let (next, mut payloads, accs) = self.step_at(
            layer,
            true,
            |pos, at, out, acc: &mut (u64, Vec<(K, u32)>)| {
                let tag = tags[at];
                let within = order.within(tag);
                let img = self.moves.images(pos, h);
                let Some(p) = prune else {
                    self.moves.each_move_within(pos, backward, within, |j| {
                        let (c, by) = self.moves.canonical_child_tagged(&img, j);
                        out.push_tagged(c, order.payload(tag, j, by));
                    });
                    return;
                };
                // As in `expand`: every child written, only those kept counted.
                let (cut, kids) = acc;
                kids.resize(jumps, (K::zero(), 0));
                let slack = p.slack(pos, chunks);
                let (mut n, mut kept) = (0, 0);
                self.moves.each_move_within(pos, backward, within, |j| {
                    let (c, by) = self.moves.canonical_child_tagged(&img, j);
                    kids[kept] = (c, order.payload(tag, j, by));
                    kept += usize::from(p.keeps(&slack, j, backward));
                    n += 1;
                });
                for &(c, payload) in &kids[..kept] {
                    out.push_tagged(c, payload);
                }
                *cut += (n - kept) as u64;
            },
            |_, _| {},
        )?;
        let tags = if ranks {
            order.rank(&mut payloads).then_some(payloads)
        } else {
            order.unranked(&mut payloads);
            Some(payloads)
        };
        Ok((next, tags, accs.iter().map(|a| a.0).sum()))
    }
}
