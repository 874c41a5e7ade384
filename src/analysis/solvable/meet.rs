//! Meeting in the middle: grow the forward side from the start and the backward side from
//! the goals to a common layer, intersect there, and extend the solvable positions back to
//! the start ([`Solver::meet`]). When the backward side turns out to be the forward side
//! complemented, the meeting goes on in `mirror.rs` ([`Solver::meet_mirrored`]).

use super::*;
use std::time::Instant;

/// The two sides of [`Solver::meet`] as they grow: `fwd[j]` is layer `j`, `bwd[k]` layer
/// `last - k`, each with the tags of its last layer for the order of jumps ([`JumpOrder`]).
struct Sides<K> {
    fwd: Vec<Shards<K>>,
    bwd: Vec<Shards<K>>,
    ftags: Option<Vec<u32>>,
    btags: Option<Vec<u32>>,
    /// Whether `ftags` hold ranks, so that the mirrored meeting may grow on with them.
    franked: bool,
    /// The bytes of the layers grown so far.
    held: u64,
    /// Whether a side has no positions left.
    empty: bool,
}

impl<K: Bits> Sides<K> {
    /// Whether the two sides have yet to reach the same layer (and both hold positions).
    fn open(&self, last: usize) -> bool {
        !self.empty && self.fwd.len() - 1 < last - (self.bwd.len() - 1)
    }

    /// Whether the side to grow is the forward one: the one whose next layer should be the
    /// smaller, guessed from its last layer and its last growth ratio.
    fn forward_next(&self) -> bool {
        let guess = |side: &[Shards<K>]| -> f64 {
            let n = size(&side[side.len() - 1]) as f64;
            match side.len() {
                1 => n,
                k => n * n / (size(&side[k - 2]).max(1) as f64),
            }
        };
        guess(&self.fwd) <= guess(&self.bwd)
    }
}

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
        let clock = Instant::now();
        self.set_cuts(&goals, mirrored, &clock);
        if mirrored {
            return self.meet_mirrored(opts, bar, vec![first], self.ahead(), Vec::new(), None);
        }
        let empty = size(&first) == 0 || size(&goals) == 0;
        let (ftags, btags) = (self.first_tags(&first), self.first_tags(&goals));
        let mut sides = Sides {
            fwd: vec![first],
            bwd: vec![goals],
            ftags,
            btags,
            franked: true,
            held: 0,
            empty,
        };
        while sides.open(last) {
            let forward = self.grow_side(&mut sides, last, opts, &clock)?;
            bar.inc(1);
            if let Some(d) = self.mirrors_at(&sides, forward, last)? {
                if trace() {
                    crate::observe::trace(&format!(
                        "meet: backward layer {} is the complements of forward layer {d}",
                        last - d
                    ));
                }
                sides.bwd.truncate(d);
                let tags = if sides.franked { sides.ftags } else { None };
                return self.meet_mirrored(opts, bar, sides.fwd, None, sides.bwd, tags);
            }
        }
        self.meet_at_middle(sides, last, opts, bar, &clock)
    }

    /// Finds the cuts of both sides ([`Solver::pruners`]) and keeps them for
    /// [`Solver::ahead`] and [`Solver::behind`].
    fn set_cuts(&self, goals: &Shards<K>, mirrored: bool, clock: &Instant) {
        let (ahead, behind) = self.pruners(goals, mirrored);
        if trace() {
            crate::observe::trace(&format!(
                "meet: cuts found in {:.3} s",
                clock.elapsed().as_secs_f64()
            ));
        }
        let _ = self.cuts.set([ahead, behind]);
    }

    /// Grows one side of the meeting by a layer ([`Sides::forward_next`] chooses which),
    /// within the memory limit; returns whether it was the forward side.
    fn grow_side(
        &self,
        s: &mut Sides<K>,
        last: usize,
        opts: &SolveOptions,
        clock: &Instant,
    ) -> Result<bool> {
        let forward = s.forward_next();
        // The layer that closes the gap is met, not expanded: its tags need no ranks.
        let ranks = last - (s.bwd.len() - 1) - (s.fwd.len() - 1) > 1;
        let (side, tags, prune) = if forward {
            (&s.fwd, &s.ftags, self.ahead())
        } else {
            (&s.bwd, &s.btags, self.behind())
        };
        let (next, tags, cut) = self.expand_with(
            side.last().expect("a layer"),
            tags.as_deref(),
            !forward,
            prune,
            ranks,
        )?;
        if forward {
            (s.ftags, s.franked) = (tags, ranks);
        } else {
            s.btags = tags;
        }
        s.empty = size(&next) == 0;
        if trace() {
            crate::observe::trace(&format!(
                "meet: {} layer {} holds {} positions, {cut} children cut ({:.2} s)",
                if forward { "forward" } else { "backward" },
                if forward {
                    s.fwd.len()
                } else {
                    last - s.bwd.len()
                },
                size(&next),
                clock.elapsed().as_secs_f64()
            ));
        }
        s.held += (size(&next) * std::mem::size_of::<K>()) as u64;
        self.check_memory(s.held, opts, s.fwd.len() + s.bwd.len())?;
        if forward {
            s.fwd.push(next);
        } else {
            s.bwd.push(next);
        }
        Ok(forward)
    }

    /// The `d` such that backward layer `last - d` is the complements of forward layer `d`,
    /// once the side just grown makes that testable; from there every later backward layer
    /// is too ([`Solver::mirrors_from`]), so the forward side alone grows on. Tested short
    /// of the middle only, where that saves a side's growth, and without cuts.
    fn mirrors_at(&self, s: &Sides<K>, forward: bool, last: usize) -> Result<Option<usize>> {
        let d = if forward { s.fwd.len() } else { s.bwd.len() } - 1;
        let middle_layer = last - last / 2;
        let mirrors = !s.empty
            && self.ahead().is_none()
            && self.behind().is_none()
            && d < s.fwd.len()
            && d < s.bwd.len()
            && s.fwd.len() < middle_layer
            && self.mirrors_from(&s.fwd[d], &s.bwd[d])?;
        Ok(mirrors.then_some(d))
    }

    /// The end of [`Solver::meet`] once both sides reach layer `m`: the solvable middle is
    /// their intersection; it extends back to the start through the forward layers and on
    /// to the goal through the backward ones.
    fn meet_at_middle(
        &self,
        mut s: Sides<K>,
        last: usize,
        opts: &SolveOptions,
        bar: &dyn Meter,
        clock: &Instant,
    ) -> Result<Meet<K>> {
        let m = s.fwd.len() - 1;
        let middle = if s.empty {
            None
        } else {
            let f = s.fwd.pop().expect("the middle layer");
            let b = s.bwd.pop().expect("the middle layer");
            let met = intersect(f, &b);
            (size(&met) > 0).then_some(met)
        };
        let Some(middle) = middle else {
            drop(s);
            return Ok(Meet::None(self.depth(opts)?));
        };
        let (mut solvable, _) = self.back_to_start(middle, m, last, &mut s.fwd, false, bar)?;
        for j in m + 1..=last {
            let b = s.bwd.pop().expect("a backward layer");
            solvable[j] = intersect(self.expand(&solvable[j - 1], false, self.ahead())?.0, &b);
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
    /// and the `N` pass's probes into the smaller solvable layer (english d1 to d1, d3 to
    /// d3 and d4, french d2 to d6: docs/experiments.md, "Figures that were in code
    /// comments").
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
}
