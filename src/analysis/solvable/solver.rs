//! The solver of one run: its fields (board, start, goal, symmetries, cuts, keys), the
//! helpers every pass shares (mirrors, canonical neighbours, the memory watch), and the
//! drive from options to a [`Solvable`] or a hint table: [`Solver::solvable`] picks the
//! reference passes or the meeting in the middle, [`Solver::solvable_meet`] runs the
//! meeting and the `N`/`W` sums, and [`Solver::table`] gives `W` for hints.

use super::*;

/// The positions each of [`Solver::depth`]'s searches may expand before it sweeps instead:
/// twice the exhaustive search's pause for a beam search, so that its beams run (french d2,
/// which has no symmetry, finds a one-peg game that way in seconds: docs/experiments.md,
/// "Figures that were in code comments").
pub(super) const DEPTH_SEARCH: u64 = 1 << 22;

/// The three passes for one (board, start, goal) with bitboards of type `K`.
pub(super) struct Solver<'a, K: Bits> {
    pub(super) board: &'a Board,
    pub(super) start: K,
    pub(super) finish: Finish,
    pub(super) goal: K,
    /// Jumps and symmetries; canonical forms under the symmetries fixing the goal (and
    /// the start, with `fix_start`).
    pub(super) moves: MoveTable<K>,
    /// Those symmetries (`H`).
    pub(super) h: Vec<Symmetry>,
    /// One order for jumps that commute ([`JumpOrder`]): forward layers skip the jumps
    /// that only repeat a position; `None` on boards with too many jumps.
    pub(super) order: Option<JumpOrder>,
    /// The meeting's cuts ([`Solver::pruners`]), once found: ahead (positions that cannot
    /// reach a goal) and behind (positions that the start cannot reach).
    pub(super) cuts: std::sync::OnceLock<[Option<Pruner>; 2]>,
    /// How a position names its shard, and what of it a shard's buffers keep.
    pub(super) keys: Keys,
    /// The largest table of a forward layer ([`Places`], in bytes) for which a half
    /// meeting records [`Links`] for the `N` pass ([`Solver::links_pay`]): [`LINK_CACHE`];
    /// tests set 0 (no links) or a small size (links for the small layers only) to
    /// compare with the probes.
    pub(super) link_cache: usize,
    /// The bytes of a layer's [`WinTable`]s past which the `N` pass and the middle's wins
    /// sum by [`exchange`] instead of probing them ([`Solver::neighbour_sums`]):
    /// [`LINK_CACHE`]; tests set 0 (an exchange wherever keys pack) or `usize::MAX` (no
    /// exchange) to compare the two.
    pub(super) exchange_from: usize,
    /// The bytes of one group of [`exchange`]'s units, at most ([`Solver::exchange_budget`]):
    /// [`EXCHANGE_BYTES`]; tests set a few bytes, a group a batch of units.
    pub(super) exchange_bytes: usize,
    /// Whether the goal's complement is the start up to a symmetry `t` of the board
    /// ([`Solver::with_mirror`]); `Solver::mirrored` meetings then take `t` of a
    /// position's complement for its complement.
    pub(super) mirror: Mirror<K>,
    /// The memory limit ([`SolveOptions::max_memory`]) that a run holds to as it grows
    /// ([`Solver::within`], [`Solver::check_resident`]); `None` in unit tests.
    pub(super) watch: Option<crate::memory::Watch>,
    /// Set to stop the run with [`Error::Interrupted`] ([`SolveOptions::cancel`]), looked
    /// at with the memory ([`Solver::check_resident`]); `None` in unit tests.
    pub(super) cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl<'a, K: Bits> Solver<'a, K> {
    /// `fix_start`: reduce under the symmetries fixing both the start and the goal (needed
    /// for exact raw counts of reachable positions); otherwise under all the symmetries
    /// fixing the goal, which leaves `W` and solvability exact and merges more: a forward
    /// layer then holds the orbits of reachable positions (see [`hint`]).
    pub(super) fn new(board: &'a Board, start: Pegs, finish: Finish, fix_start: bool) -> Self {
        let goal = finish.mask(board);
        let fixes = |s: &Symmetry| {
            (!fix_start || board.transform(s, start) == start) && board.transform(s, goal) == goal
        };
        let moves = MoveTable::new(board, fixes);
        Solver {
            board,
            start: K::from_u128(start),
            finish,
            goal: K::from_u128(goal),
            order: JumpOrder::new(board, &moves),
            moves,
            h: board
                .symmetries()
                .iter()
                .filter(|s| fixes(s))
                .cloned()
                .collect(),
            cuts: std::sync::OnceLock::new(),
            keys: Keys::new(board.holes()),
            link_cache: LINK_CACHE,
            exchange_from: LINK_CACHE,
            exchange_bytes: EXCHANGE_BYTES,
            mirror: Mirror::No,
            watch: None,
            cancel: None,
        }
        .with_mirror()
    }

    /// Holds the run to `max_memory` bytes from now ([`crate::memory::Watch`]): a layer
    /// that grows past it, or its buffers, stops the run with [`Error::Memory`] instead
    /// of the system's killing it.
    pub(super) fn within(mut self, max_memory: u64) -> Self {
        self.watch = Some(crate::memory::Watch::new(max_memory));
        self
    }

    /// Stops the run with [`Error::Interrupted`] once `cancel` is set (Ctrl-C in `table`,
    /// whose quickest loss first tries a [`HintCache`]), asked wherever the memory is.
    pub(super) fn cancellable(mut self, opts: &SolveOptions) -> Self {
        self.cancel = opts.cancel.clone();
        self
    }

    /// [`Error::Interrupted`] once [`Solver::cancellable`]'s flag is set; else
    /// [`Error::Memory`] once the process holds more than [`Solver::within`] allows.
    /// (A limit that counted only the layers kept, not the buffers of the one being built,
    /// let wiegleb pass its limit several times over: docs/experiments.md, "Figures that
    /// were in code comments".)
    pub(super) fn check_resident(&self) -> Result<()> {
        crate::error::interrupted(self.cancel.as_deref())?;
        let Some(watch) = &self.watch else {
            return Ok(());
        };
        match watch.over() {
            None => Ok(()),
            Some(taken) => {
                let (limit, taken) = crate::memory::human_apart(watch.limit(), taken);
                Err(Error::memory_limit(
                    &self.subject(),
                    "the search needs",
                    &limit,
                    &format!("; it had taken {taken} when stopped"),
                ))
            }
        }
    }

    /// Sets [`Solver::mirror`]: a symmetry `t` of the board that maps the goal's
    /// complement into the start's orbit under `H`, the identity if it does. A game from
    /// `p` to the goal is, complemented, reversed and moved by `t`, a game from the start
    /// to `t(complement of p)`: the positions that reach the goal in `k` jumps are those
    /// whose `t`-complements are reachable in `k` jumps. Canonical forms carry over when
    /// `t` maps `H`-orbits onto `H`-orbits (`t H = H t`) and `t` twice is in `H`: then `t`
    /// of a complement, taken twice, gives back the position's orbit, and layer
    /// `last - j` of the solvable positions is the `t`-complements of layer `j`.
    pub(super) fn with_mirror(mut self) -> Self {
        let goal = self.goal.to_u128();
        if goal.count_ones() != 1 {
            return self;
        }
        let canon = |x: Pegs| self.transforms_canon_h(K::from_u128(x));
        let same = |a: &Symmetry, b: &Symmetry| a.perm() == b.perm();
        let in_h = |a: &Symmetry| self.h.iter().any(|b| same(a, b));
        let start = canon(self.start.to_u128());
        let flipped = self.board.full() ^ goal;
        let found = self.board.symmetries().iter().find(|t| {
            canon(self.board.transform(t, flipped)) == start
                && in_h(&t.compose(t))
                && self
                    .h
                    .iter()
                    .all(|a| self.h.iter().any(|b| same(&t.compose(a), &b.compose(t))))
        });
        self.mirror = match found {
            None => Mirror::No,
            Some(t) if t.is_identity() => Mirror::Complement,
            Some(t) => {
                self.order = self
                    .order
                    .take()
                    .map(|o| o.through(self.board, &self.moves, t.perm()));
                Mirror::Through(t.clone(), Transforms::new(&[t], self.board.holes()))
            }
        };
        self
    }

    /// `t` of the complement of `pos` ([`Solver::mirror`]), not canonical.
    #[inline]
    pub(super) fn mirror_image(&self, pos: K) -> K {
        let full = K::from_u128(self.board.full());
        match &self.mirror {
            Mirror::Through(_, t) => full ^ t.apply(0, pos),
            _ => full ^ pos,
        }
    }

    /// The position whose children [`MoveTable::largest_child`] complements for the
    /// `t`-complements of `pos`'s children: `t(pos)`, whose children are `t` of `pos`'s.
    #[inline]
    pub(super) fn mirror_parent(&self, pos: K) -> K {
        match &self.mirror {
            Mirror::Through(_, t) => t.apply(0, pos),
            _ => pos,
        }
    }

    /// The size of `pos`'s orbit under `H`, from its images (`img[..|H|]`, the subgroup's
    /// first): `|H|` over the number of symmetries that fix it.
    pub(super) fn orbit_size(&self, img: &[K], pos: K) -> usize {
        let h = self.moves.subgroup_order();
        h / img[..h].iter().filter(|&&x| x == pos).count()
    }

    pub(super) fn contains(&self, layer: &Shards<K>, key: K) -> Option<usize> {
        layer[self.keys.shard(key)].binary_search(&key).ok()
    }

    pub(super) fn is_goal(&self, pos: K) -> bool {
        pos.count_ones() == 1 && pos & self.goal != K::zero()
    }

    pub(super) fn transforms_canon_h(&self, pos: K) -> K {
        self.moves.canonical(pos)
    }

    /// (raw positions, positions up to the board's group) of a layer.
    pub(super) fn layer_counts(&self, layer: &Shards<K>) -> (u64, u64) {
        let g = self.moves.group_order();
        let h = self.moves.subgroup_order();
        let (raw, mut reduced): (u64, Vec<K>) = layer
            .par_iter()
            .map(|unit| {
                let mut raw = 0u64;
                let mut reduced = Vec::new();
                for &pos in unit {
                    let img = self.moves.images(pos, g);
                    raw += self.orbit_size(&img, pos) as u64;
                    if g > h {
                        reduced.push(*img[..g].iter().min().expect("identity"));
                    }
                }
                (raw, reduced)
            })
            .reduce(
                || (0, Vec::new()),
                |(a, mut x), (b, y)| {
                    x.extend(y);
                    (a + b, x)
                },
            );
        if g == h {
            return (raw, layer.iter().map(|t| t.len() as u64).sum());
        }
        reduced.par_sort_unstable();
        reduced.dedup();
        (raw, reduced.len() as u64)
    }

    pub(super) fn solvable(&self, opts: &SolveOptions) -> Result<Solvable> {
        let pegs = self.start.count_ones() as usize;
        let bar = crate::observe::meter(2 * pegs as u64, "layers", opts.progress);
        let (forward, reach) = self.forward(opts, &*bar)?;
        let solvable = self.backward(&forward, &*bar)?;
        let wins = self.wins(&solvable)?;
        bar.finish();
        let layers = reach
            .iter()
            .zip(&solvable)
            .enumerate()
            .map(|(jumps, (&(reachable, reachable_reduced), s))| {
                let (positions, positions_reduced) = self.layer_counts(s);
                SolvableLayer {
                    jumps,
                    positions,
                    positions_reduced,
                    reachable: Some(reachable),
                    reachable_reduced: Some(reachable_reduced),
                }
            })
            .collect();
        let start = self.transforms_canon_h(self.start);
        let w0 = self
            .contains(&solvable[0], start)
            .map_or(0, |at| wins[0][self.keys.shard(start)][at]);
        Ok(self.result(pegs, layers, w0))
    }

    /// The answer: the layers' counts and the winning sequences from the start.
    pub(super) fn result(&self, pegs: usize, layers: Vec<SolvableLayer>, w0: u128) -> Solvable {
        Solvable {
            board: self.board.name().to_string(),
            start: self.board.start_name(self.start.to_u128()),
            finish: self.finish.name(self.board),
            start_pegs: pegs,
            layers,
            wins: w0,
        }
    }

    /// The goal positions (one peg in a goal hole) in the start's position class (no jump
    /// changes a position's class: [`crate::games::solve::Classes`]), canonical, as a layer.
    pub(super) fn goals(&self) -> Shards<K> {
        let classes = crate::games::solve::Classes::new(self.board);
        let class = classes.of(self.start.to_u128());
        let mut layer: Shards<K> = vec![Vec::new(); SHARDS];
        for h in 0..self.board.holes() {
            let p = K::bit(h);
            if p & self.goal != K::zero() && classes.of(bit(h)) == class {
                let c = self.transforms_canon_h(p);
                layer[self.keys.shard(c)].push(c);
            }
        }
        for t in &mut layer {
            t.sort_unstable();
            t.dedup();
        }
        layer
    }

    /// Pushes the canonical children of `pos`. The `W` and `N` passes take every child
    /// or parent, without the cuts: one that a cut rules out is not solvable, so the
    /// neighbouring layer does not hold it, and one probe for it costs less than testing
    /// every neighbour against the cuts (docs/experiments.md, "Figures that were in code
    /// comments").
    pub(super) fn children(&self, pos: K, out: &mut Vec<K>) {
        self.neighbours(pos, false, out);
    }

    /// Pushes the canonical parents of `pos` (un-jumps), as [`Solver::children`].
    pub(super) fn parents(&self, pos: K, out: &mut Vec<K>) {
        self.neighbours(pos, true, out);
    }

    /// [`Solver::parents`] (`backward`) or [`Solver::children`].
    pub(super) fn neighbours(&self, pos: K, backward: bool, out: &mut Vec<K>) {
        let img = self.moves.images(pos, self.moves.subgroup_order());
        self.moves.each_move(pos, backward, |j| {
            out.push(self.moves.canonical_child(&img, j))
        });
    }

    /// The number of layers of reachable positions (the longest game plus one): what
    /// `solvable` reports as its layers when no position is solvable. The longest game
    /// leaves the fewest pegs, so quick searches ([`crate::games::solve::search_within`],
    /// at most [`DEPTH_SEARCH`] positions each) for a game leaving one peg anywhere, then
    /// two, then three, settle most starts: the first found is a longest game, once every
    /// fewer pegs was proved out of reach (by the position classes, or exhaustively).
    /// Otherwise a forward sweep that keeps only its frontier decides, which costs far
    /// more (english d4 to c1, a finish in another position class; french's centre, where
    /// no game leaves one peg: docs/experiments.md, "Figures that were in code comments").
    pub(super) fn depth(&self, opts: &SolveOptions) -> Result<usize> {
        use crate::games::solve::{Goal, Outcome, search_within};
        let table = opts.max_memory.min(1 << 28);
        for left in 1..=3 {
            let goal = Goal::pegs_anywhere(self.board, left);
            let search =
                search_within(self.board, self.start.to_u128(), goal, table, DEPTH_SEARCH)?;
            match search.map(|s| s.outcome) {
                Some(Outcome::Found(game)) => return Ok(game.len() + 1),
                Some(Outcome::Impossible(_)) => continue,
                None => break,
            }
        }
        self.depth_by_sweep(opts)
    }

    /// [`Solver::depth`] by the forward sweep alone.
    pub(super) fn depth_by_sweep(&self, opts: &SolveOptions) -> Result<usize> {
        let mut layer: Shards<K> = vec![Vec::new(); SHARDS];
        let start = self.transforms_canon_h(self.start);
        layer[self.keys.shard(start)].push(start);
        // No cuts: with the order of jumps every layer is the plain one, from fewer jumps.
        let mut tags = self.first_tags(&layer);
        let mut depth = 1;
        loop {
            let (next, next_tags, _) =
                self.expand_with(&layer, tags.as_deref(), false, None, true)?;
            tags = next_tags;
            let n: usize = next.iter().map(Vec::len).sum();
            if n == 0 {
                return Ok(depth);
            }
            self.check_memory((n * std::mem::size_of::<K>()) as u64, opts, depth)?;
            layer = next;
            depth += 1;
        }
    }

    pub(super) fn check_memory(&self, held: u64, opts: &SolveOptions, layers: usize) -> Result<()> {
        if held <= opts.max_memory {
            return self.check_resident();
        }
        Err(Error::memory_limit(
            &self.subject(),
            &format!("keeping {layers} layers of positions needs"),
            &crate::memory::human(opts.max_memory),
            "",
        ))
    }

    /// The board and start, as a refusal names them ([`Error::memory_limit`]).
    pub(super) fn subject(&self) -> String {
        format!(
            "{} from {}",
            self.board.name(),
            self.board.start_name(self.start.to_u128())
        )
    }

    /// [`solvable`] by meeting in the middle, without the reachable counts.
    pub(super) fn solvable_meet(&self, opts: &SolveOptions) -> Result<Solvable> {
        let pegs = self.start.count_ones() as usize;
        let bar = crate::observe::meter(2 * pegs as u64, "layers", opts.progress);
        let (solvable, w0, last) = match self.meet(opts, &*bar)? {
            Meet::Solvable(solvable) => {
                let wins = self.wins(&solvable)?;
                let start = self.transforms_canon_h(self.start);
                let w0 = self
                    .contains(&solvable[0], start)
                    .map_or(0, |at| wins[0][self.keys.shard(start)][at]);
                let last = solvable.len() - 1;
                (solvable, w0, last)
            }
            // `solvable` reduces under symmetries that fix the start (`fix_start`).
            Meet::Half(half, last, links) => {
                let w0 = self.wins_mirrored(&half, last, &links)?;
                (half, w0, last)
            }
            Meet::None(layers) => (vec![vec![Vec::new(); SHARDS]; layers], 0, layers - 1),
        };
        bar.finish();
        // Layers past those kept (a mirrored meeting) are the complements of layers as far
        // before the end: complementing commutes with every symmetry, so they count alike.
        let clock = std::time::Instant::now();
        let counts: Vec<(u64, u64)> = solvable.iter().map(|s| self.layer_counts(s)).collect();
        if trace() {
            crate::observe::trace(&format!(
                "solvable: layer counts ({:.2} s)",
                clock.elapsed().as_secs_f64()
            ));
        }
        let layers = (0..=last)
            .map(|jumps| {
                let (positions, positions_reduced) = counts
                    .get(jumps)
                    .copied()
                    .unwrap_or_else(|| counts[last - jumps]);
                SolvableLayer {
                    jumps,
                    positions,
                    positions_reduced,
                    reachable: None,
                    reachable_reduced: None,
                }
            })
            .collect();
        Ok(self.result(pegs, layers, w0))
    }

    /// The solvable positions from the start and their `W`, each layer as (canonical
    /// position, `W`) sorted by position: what [`HintCache`] keeps. Without `whole`, a
    /// mirrored meeting ([`Meet::Half`]) keeps the start and its children only, their `W`
    /// from [`Solver::first_wins_mirrored`] when `H` fixes the start (no `W` of the layers
    /// between; otherwise, or with fewer than three jumps in a game, the layers up to the
    /// middle, their `W` from the middle layer's: there `W(p)` is `N` of the complement of
    /// `p`, [`Solver::wins_mirrored`]).
    pub(super) fn table(&self, opts: &SolveOptions, whole: bool) -> Result<Vec<Vec<(Pegs, u128)>>> {
        let pegs = self.start.count_ones() as usize;
        if pegs == 0 {
            return Err(Error::input("the position has no peg"));
        }
        let bar = crate::observe::meter(2 * pegs as u64, "layers", opts.progress);
        let met = match self.meet(opts, &*bar)? {
            Meet::Half(half, last, _) if whole => Meet::Solvable(self.unmirror(half, last)?),
            Meet::Half(half, last, links) => Meet::Half(self.with_middle(half, last)?, last, links),
            met => met,
        };
        // Lanes by first jump need `H` to fix the start (it need not for a hint: `H` fixes
        // only the goal, and a goal `any` makes `H` the whole group).
        let h = self.moves.subgroup_order();
        let fixed = self.moves.images(self.start, h)[..h]
            .iter()
            .all(|&x| x == self.start);
        if let Meet::Half(half, last, links) = &met
            && *last >= 2
            && fixed
        {
            let (w0, children) = self.first_wins_mirrored(half, *last, links)?;
            let start = self.transforms_canon_h(self.start);
            let mut one: Vec<(Pegs, u128)> = children
                .into_iter()
                .map(|(k, w)| (k.to_u128(), w))
                .collect();
            one.sort_unstable();
            bar.finish();
            return Ok(vec![vec![(start.to_u128(), w0)], one]);
        }
        let solved = match met {
            Meet::Half(half, last, links) => {
                let n = self.paths(&half[..=last - (half.len() - 1)], &links)?;
                let top = self.middle_wins(&half, last, &n[last - (half.len() - 1)]);
                let wins = self.wins_from(&half, top)?;
                Some((half, wins))
            }
            Meet::Solvable(solvable) => {
                let wins = self.wins(&solvable)?;
                Some((solvable, wins))
            }
            Meet::None(_) => None,
        };
        let table = match solved {
            Some((solvable, wins)) => solvable
                .into_par_iter()
                .zip(wins)
                .map(|(keys, wins)| {
                    let mut layer: Vec<(Pegs, u128)> = keys
                        .iter()
                        .zip(&wins)
                        .flat_map(|(k, w)| k.iter().zip(w).map(|(&k, &w)| (Bits::to_u128(k), w)))
                        .collect();
                    layer.sort_unstable();
                    layer
                })
                .collect(),
            None => Vec::new(),
        };
        bar.finish();
        Ok(table)
    }
}

/// How the goal mirrors the start ([`Solver::with_mirror`]).
pub(super) enum Mirror<K: Bits> {
    /// No symmetry suits: `--finish any`, or a goal hole whose complement no symmetry
    /// with the properties of [`Solver::with_mirror`] takes to the start.
    No,
    /// The goal's complement is the start up to `H` (english d4 to d4).
    Complement,
    /// The goal's complement is `t` of the start up to `H`, `t` as a permutation and as a
    /// transform of positions (french d2 to d6: the top-bottom flip).
    Through(Symmetry, Transforms<K>),
}

/// What meeting in the middle finds.
pub(super) enum Meet<K> {
    /// The solvable positions of every layer from the start's to the goal's.
    Solvable(Vec<Shards<K>>),
    /// The goal is the start's complement ([`Solver::meet_mirrored`]): the solvable
    /// positions of layers `0..=last / 2` only, and the last layer's number; layer
    /// `j > last / 2` is the complements of layer `last - j` ([`Solver::unmirror`], and
    /// [`Solver::with_middle`] for the middle layer of an odd number of jumps). Then the
    /// [`Links`] of each layer to the one before, where [`Solver::back_to_start`] recorded
    /// them.
    Half(Vec<Shards<K>>, usize, Vec<Option<Links>>),
    /// No position is solvable; the number of layers of reachable positions.
    None(usize),
}
