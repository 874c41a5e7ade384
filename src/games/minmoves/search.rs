//! The search bounded by one limit: its two sides, the moves of a peg forward and undone,
//! the bound at a position, the meetings of the sides and the choice of the side to grow.

use super::MinMoves;
use super::side::{Side, fixes};
use crate::error::Result;
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Pegs};
use crate::geometry::last_move::LastMove;
use crate::geometry::regions::Bound;
use rayon::prelude::*;

/// Per hole `h` holding the moving peg: the steps it can take, as (mask of the jump's three
/// holes, the pattern they must show, the hole the peg lands in).
type Steps<K> = Vec<Vec<(K, K, usize)>>;

/// The states (position, hole of the moving peg) a move's chains have reached.
type Seen<K> = std::collections::HashSet<(K, usize), ahash::RandomState>;

pub(super) struct Search<'a, K: Bits> {
    pub(super) board: &'a Board,
    /// Forward: jumps from `h` (pegs in from and over, `to` empty).
    pub(super) jumps: Steps<K>,
    /// Backward: jumps undone by the peg in `h` (peg in `to`, over and from empty).
    pub(super) undo: Steps<K>,
    /// Side 0 searches forward from the starts, side 1 backward from the goals.
    pub(super) sides: [Side<K>; 2],
    /// Lower bounds on the moves to a goal (side 0) and from a source (side 1).
    pub(super) bound: &'a Bound<K>,
    /// Forward, when every goal is a single peg: the test that a position is not one move
    /// from one ([`LastMove`]), which raises the bound of such a position to two.
    pub(super) last: Option<LastMove<K>>,
    /// Per side: whether the bound can differ between the images of a stored position
    /// (the side's symmetries do not fix the other side's sources), so that the smallest
    /// over the images must be taken.
    pub(super) image_min: [bool; 2],
    /// Positions whose distance plus bound exceeds `limit` are dropped.
    pub(super) limit: usize,
    /// The smallest distance plus bound among the dropped positions, if any was dropped.
    pub(super) pruned: Option<usize>,
    /// The probed layer: its side, depth, positions within the limit and positions dropped.
    pub(super) probed: Option<(usize, usize, u64, u64)>,
    /// How many layers the probe spanned: 1, or more when walked depth first.
    pub(super) walked: usize,
    /// The width of the beam that spanned them, if a beam did ([`Search::beam`]).
    pub(super) beamed: Option<usize>,
    pub(super) max_bytes: u64,
    /// Where the search shows how deep its sides are ([`Search::with_meter`]): silent
    /// unless given.
    pub(super) meter: Box<dyn crate::observe::Meter>,
    /// Where each stored layer is kept, for a later run to resume from ([`super::work`]).
    pub(super) work: Option<&'a super::work::Work>,
    /// The best meeting of the sides so far: total moves and the concrete position.
    pub(super) best: Option<(usize, K)>,
    /// Whether the search was picked up from a kept one ([`Search::restore`]).
    pub(super) restored: bool,
    /// The walk the kept search was in, to go on with ([`Search::dive`]).
    pub(super) kept_walk: Option<super::work::WalkState>,
}

/// The better of a best meeting so far and a new one (fewer moves; the first found on a
/// tie).
fn better<K: Bits>(best: Option<(usize, K)>, new: (usize, K)) -> Option<(usize, K)> {
    match best {
        Some(b) if b.0 <= new.0 => Some(b),
        _ => Some(new),
    }
}

impl<'a, K: Bits> Search<'a, K> {
    pub(super) fn new(
        board: &'a Board,
        fwd: &[Pegs],
        bwd: &[Pegs],
        bound: &'a Bound<K>,
        limit: usize,
        max_memory: u64,
    ) -> Self {
        let mut jumps = vec![Vec::new(); board.holes()];
        let mut undo = vec![Vec::new(); board.holes()];
        for j in board.jumps() {
            let all = K::bit(j.from) | K::bit(j.over) | K::bit(j.to);
            jumps[j.from].push((all, K::bit(j.from) | K::bit(j.over), j.to));
            undo[j.to].push((all, K::bit(j.to), j.from));
        }
        Search {
            board,
            jumps,
            undo,
            sides: [Side::new(board, fwd), Side::new(board, bwd)],
            bound,
            last: bwd
                .iter()
                .all(|g| g.count_ones() == 1)
                .then(|| LastMove::new(board)),
            image_min: [!fixes(board, fwd, bwd), !fixes(board, bwd, fwd)],
            limit,
            pruned: None,
            probed: None,
            walked: 1,
            beamed: None,
            max_bytes: max_memory,
            meter: Box::new(crate::observe::Silent),
            work: None,
            best: None,
            restored: false,
            kept_walk: None,
        }
    }

    /// Reports to `meter` (of `limit` steps) the moves the sides reach together after each
    /// layer, with the depths and the positions stored: a run of hours on tri:9 shows where
    /// it is on a terminal.
    pub(super) fn with_meter(mut self, meter: Box<dyn crate::observe::Meter>) -> Self {
        self.meter = meter;
        self
    }

    /// Keeps each layer stored in `work` ([`super::work`]).
    pub(super) fn with_work(mut self, work: Option<&'a super::work::Work>) -> Self {
        self.work = work;
        self
    }

    /// Picks the search up where `kept` left it: the sides' layers, what was dropped and
    /// the best meeting found.
    pub(super) fn restore(&mut self, kept: super::work::Resume<K>) {
        for (side, k) in self.sides.iter_mut().zip(kept.sides) {
            side.restore(k.layers, k.figures, k.done);
        }
        self.pruned = kept.pruned;
        self.best = kept.best;
        self.kept_walk = kept.walk;
        self.restored = true;
    }

    /// Moves the meter to the sides' depths.
    fn show(&self) {
        use thousands::Separable;
        let (a, b) = (self.sides[0].depth, self.sides[1].depth);
        self.meter.set_position((a + b).min(self.limit) as u64);
        self.meter.message(format!(
            "(bound {}: forward depth {a}, backward depth {b}, {} positions stored)",
            self.limit,
            (self.sides[0].dist.len() + self.sides[1].dist.len()).separate_with_commas()
        ));
    }

    /// The bound of side `i` at a position (the same for all its images under the side's
    /// symmetries): the Merson regions' ([`Search::regions_bound`]), and forward, where
    /// that is at most two, the larger of it and [`LastMove::moves_left`] (two for a
    /// position no move takes to a single peg, three where no move leaves one that a move
    /// may): on tri:10's walk from forward depth 10, two thirds of the positions the walk
    /// looked up were in its last layer, where a position must be one move from a finish
    /// to meet the backward side's first layer, and most of the rest in the layer before.
    #[inline]
    pub(super) fn estimate(&self, i: usize, pos: K) -> usize {
        let b = self.regions_bound(i, pos);
        match &self.last {
            Some(last) if i == 0 && b <= 2 => b.max(last.moves_left(pos)),
            _ => b,
        }
    }

    /// [`Search::estimate`] where all that matters is whether it exceeds `allowed` (the
    /// moves left to the limit), and its regions' part where it does not: the last move's
    /// test is asked only where it can exceed `allowed` (at most two), and only as far as
    /// that. A walk whose dropped positions no longer change the figures uses it
    /// ([`Search::descend`] asks no more of a kept position than its regions' bound): on
    /// tri:10's walk from forward depth 10 most positions made are at depths where the
    /// test cannot drop them.
    #[inline]
    pub(super) fn estimate_within(&self, i: usize, pos: K, allowed: usize) -> usize {
        let b = self.regions_bound(i, pos);
        match &self.last {
            Some(last) if i == 0 && b <= allowed && allowed <= 2 => {
                let over = match allowed {
                    0 => pos.count_ones() > 1,
                    1 => !last.may_finish(pos),
                    _ => last.moves_left(pos) > 2,
                };
                if over { allowed + 1 } else { b }
            }
            _ => b,
        }
    }

    /// The Merson regions' bound of side `i` at a position (the smallest over its images
    /// where they can differ): a move that starts outside the position's full regions does
    /// not lower it ([`Bound::full_holes`]).
    pub(super) fn regions_bound(&self, i: usize, pos: K) -> usize {
        let h = |x: K| {
            if i == 0 {
                self.bound.to_finish(x)
            } else {
                self.bound.from_start(x)
            }
        };
        if self.image_min[i] {
            let t = &self.sides[i].transforms;
            (0..t.len()).map(|g| h(t.apply(g, pos))).min().unwrap_or(0)
        } else {
            h(pos)
        }
    }

    /// Calls `f` with every position one move from `pos` (forward for side 0, undone for
    /// side 1) and the steps `(from, to)` of the moving peg.
    ///
    /// Undoing jumps on a nearly empty board, a peg reaches the same position on the same
    /// hole by many orders of the same jumps (tri:9's backward side, one move from every
    /// single peg, did not finish in 10 minutes): on side 1 each such state is walked, and
    /// given to `f`, once. The states after one jump cannot repeat, so only the longer
    /// chains are remembered. Forward, on full boards, repeats are rare and remembering
    /// them cost 9% of tri:7's time (docs/experiments.md).
    pub(super) fn moves(&self, side: usize, pos: K, f: &mut impl FnMut(K, &[(usize, usize)])) {
        self.moves_from(side, pos, K::max_value(), f);
    }

    /// [`Search::moves`] whose moving peg starts in one of the holes of `starts`.
    pub(super) fn moves_from(
        &self,
        side: usize,
        pos: K,
        starts: K,
        f: &mut impl FnMut(K, &[(usize, usize)]),
    ) {
        let steps = if side == 0 { &self.jumps } else { &self.undo };
        let mut path = Vec::new();
        let mut seen = Seen::with_hasher(ahash::RandomState::with_seeds(1, 2, 3, 4));
        for h in 0..steps.len() {
            if pos & starts & K::bit(h) != K::zero() {
                Self::chain(steps, pos, h, &mut path, side == 1, &mut seen, f);
            }
        }
    }

    fn chain(
        steps: &Steps<K>,
        pos: K,
        h: usize,
        path: &mut Vec<(usize, usize)>,
        dedup: bool,
        seen: &mut Seen<K>,
        f: &mut impl FnMut(K, &[(usize, usize)]),
    ) {
        for &(all, pattern, to) in &steps[h] {
            if pos & all == pattern {
                let next = pos ^ all;
                if dedup && !path.is_empty() && !seen.insert((next, to)) {
                    continue;
                }
                path.push((h, to));
                f(next, path);
                Self::chain(steps, next, to, path, dedup, seen, f);
                path.pop();
            }
        }
    }

    /// The best meeting of a position `c` of side `i` at `depth` (stored or not) with the
    /// other side: the total moves and the concrete position where the sides meet.
    #[inline]
    pub(super) fn meeting(&self, i: usize, depth: usize, c: K) -> Option<(usize, K)> {
        let side = &self.sides[i];
        let other = &self.sides[1 - i];
        // While the backward side holds only the goals and the positions one move before
        // them, a forward position no move takes to a single peg is not among them: the
        // look-up is spared (most positions of a walk's last layers on tri:10).
        if i == 0 && other.depth <= 1 && self.last.as_ref().is_some_and(|l| !l.may_finish(c)) {
            return None;
        }
        if self.image_min[i] {
            (0..side.transforms.len())
                .filter_map(|g| {
                    let x = side.transforms.apply(g, c);
                    other.distance(x).map(|d| (depth + d, x))
                })
                .min()
        } else {
            // The other side's symmetries include this side's: one image will do.
            other.distance(c).map(|d| (depth + d, c))
        }
    }

    /// The best meeting among the frontier of side `i` (at that side's depth): the total
    /// moves and the concrete position where the sides meet.
    pub(super) fn meet(&self, i: usize) -> Option<(usize, K)> {
        let side = &self.sides[i];
        side.frontier
            .par_iter()
            .filter_map(|&s| self.meeting(i, side.depth, s))
            .min()
    }

    /// A guess at the size of side `i`'s next layer: the growth of its last layer carried
    /// on ([`Side::next_size`]), but no more than a sample of its frontier expanded
    /// promises. The growth alone misleads where a side's first layers grow far faster than
    /// its later ones: tri:9's backward side grew 190,000-fold from the single pegs to the
    /// positions one move before them, so its next layer was guessed at 3.6 * 10^11
    /// positions and never grown. The sample (at most [`SAMPLE`] positions evenly spread
    /// over the frontier, in its order, so the guess is the same on any thread count)
    /// counts the children within the limit not yet stored, without merging repeats: an
    /// overestimate of the layer. Returns the guess and that overestimate, which weighs the
    /// layer's memory: the growth alone guessed tri:10's forward depth 11 at 403 million
    /// positions, the layer had more than 766 million and outgrew 18 GiB half an hour later.
    pub(super) fn guess(&self, i: usize) -> (f64, f64) {
        let side = &self.sides[i];
        let n = side.frontier.len();
        if n == 0 {
            return (0.0, 0.0);
        }
        let depth = side.depth + 1;
        let step = n.div_ceil(SAMPLE);
        let sample: Vec<K> = side.frontier.iter().step_by(step).copied().collect();
        let children: u64 = sample
            .par_iter()
            .map(|&pos| {
                let mut c = 0u64;
                self.moves(i, pos, &mut |next, _| {
                    if depth + self.estimate(i, next) <= self.limit
                        && !side.dist.contains(side.transforms.canonical(next))
                    {
                        c += 1;
                    }
                });
                c
            })
            .sum();
        let by_sample = children as f64 * n as f64 / sample.len() as f64;
        (side.next_size().min(by_sample), by_sample)
    }

    /// Searches every game of at most `limit` moves, knowing that none has fewer (the
    /// limit is a lower bound, or the previous limit's search found nothing). Returns the best
    /// game if it is proved the fewest, and whether the limit cut the search short (then
    /// `best` is `None`: no game has at most `limit` moves, and a longer one may exist).
    pub(super) fn run(mut self) -> Result<(MinMoves, bool)> {
        if !self.restored {
            self.best = self.meet(0);
        }
        let mut cut = false;
        loop {
            self.show();
            let (a, b) = (self.sides[0].depth, self.sides[1].depth);
            // No game has fewer than `limit` moves: a game of `limit` moves is the fewest.
            if self.best.is_some_and(|(t, _)| t <= self.limit) {
                break;
            }
            let done = self.sides.iter().any(|s| s.done);
            if done && self.pruned.is_none() {
                // Nothing was pruned: every game has been seen.
                break;
            }
            if done || a + b >= self.limit {
                // Every game within the limit has been seen, and none was found.
                self.best = None;
                cut = true;
                break;
            }
            if let Some(m) = self.grow()? {
                self.best = better(self.best, m);
            }
        }
        self.meter.finish();
        Ok((self.result(self.best), cut))
    }

    /// Grows the side whose next layer promises to be smaller by one move, and returns its
    /// best meeting with the other side. The last layer within the limit is only probed:
    /// its positions are looked up, none stored.
    pub(super) fn grow(&mut self) -> Result<Option<(usize, K)>> {
        let trace = crate::observe::tracing();
        let (a, b) = (self.sides[0].depth, self.sides[1].depth);
        let (guess, over): (Vec<f64>, Vec<f64>) =
            [self.guess(0), self.guess(1)].into_iter().unzip();
        let i = usize::from(guess[1] < guess[0]);
        if trace {
            crate::observe::trace(&format!(
                "next layers guessed: forward {:.0}, backward {:.0}",
                guess[0], guess[1]
            ));
        }
        let side = ["forward", "backward"][i];
        if a + b + 1 >= self.limit {
            self.meter.message(format!(
                "(bound {}: looking up the {side} side's last layer in the other)",
                self.limit
            ));
            let found = self.probe(i)?;
            if trace {
                crate::observe::trace(&format!(
                    "side {i} depth {}: probed, {}",
                    self.sides[i].depth,
                    found.map_or("no meeting".to_string(), |(t, _)| format!(
                        "a game of {t} moves"
                    ))
                ));
            }
            return Ok(found);
        }
        // The rest of the limit walked depth first when the next layer would not fit in
        // memory: the frontier stays where it is, and the walk, which needs little memory,
        // stops at the first game (the search that has games within its limit meets one in
        // its first blocks; where there is none, the walk is long and its bar says how far
        // it is). Unless the memory left is too small for the walk to remember what it has
        // seen (then the layer is grown, and the search refuses when it outgrows the limit).
        // Or the last `PEGSOL_DIVE` layers, when set.
        let rest = self.limit - a - b;
        let tight = self.bytes_needed(i, over[i] as usize) > self.max_bytes;
        let room = self.seen_cap(i) >= MIN_SEEN;
        if rest >= 2 && ((tight && room) || rest <= dive_setting()) {
            // Before the walk, beams of growing width: cheap beside it, and where games
            // within the limit are many one of them meets one (not again when a kept walk
            // goes on: they met none).
            let widths = if self.kept_walk(i, rest).is_some() {
                Vec::new()
            } else {
                self.beam_widths(i, rest)
            };
            for width in widths {
                self.meter.message(format!(
                    "(bound {}: a beam of width {width} through the {side} side's last {rest} \
                     layers)",
                    self.limit
                ));
                if let Some(m) = self.beam(i, rest, width)? {
                    return Ok(Some(m));
                }
            }
            self.meter.message(format!(
                "(bound {}: walking the {side} side's last {rest} layers depth first)",
                self.limit
            ));
            let found = self.dive(i, rest)?;
            if trace {
                crate::observe::trace(&format!(
                    "side {i} depths {}..{}: walked depth first, {}",
                    self.sides[i].depth + 1 - rest,
                    self.sides[i].depth,
                    found.map_or("no meeting".to_string(), |(t, _)| format!(
                        "a game of {t} moves"
                    ))
                ));
            }
            return Ok(found);
        }
        // Before the layer is grown, a trial walk of the rest within about the layer's
        // positions: a game found there ends the search (none has fewer moves).
        if rest >= 2 && trial_setting() {
            let found = self.try_dive(i, rest, guess[i] as u64)?;
            if let Some(m) = found {
                if trace {
                    crate::observe::trace(&format!(
                        "side {i} depths {}..{}: trial walk, a game of {} moves",
                        self.sides[i].depth + 1 - rest,
                        self.sides[i].depth,
                        m.0
                    ));
                }
                return Ok(found);
            }
        }
        self.expand(i)?;
        let met = self.meet(i);
        if let Some(work) = self.work {
            let best = met.map_or(self.best, |m| better(self.best, m));
            work.layer(i, &self.sides, self.pruned, best)?;
        }
        if trace {
            crate::observe::trace(&format!(
                "side {i} depth {}: {} new, {} stored",
                self.sides[i].depth,
                self.sides[i].frontier.len(),
                self.sides[i].dist.len()
            ));
        }
        Ok(met)
    }
}

/// The fewest positions a chunk of a walk must be able to remember for the walk to be
/// taken when a layer would not fit (4,096: about 12.6 MB left beside the stored sides).
const MIN_SEEN: usize = 1 << 12;

/// The most frontier positions [`Search::guess`] expands.
const SAMPLE: usize = 1024;

/// `PEGSOL_TRIAL=0`: no trial walks before the layers (for experiments and the tests that
/// check the answer is the same with and without them).
fn trial_setting() -> bool {
    std::env::var("PEGSOL_TRIAL").map_or(true, |v| v != "0")
}

/// Whether beams score their positions by greedy rollouts (`PEGSOL_ROLLOUT=1`).
pub(super) fn rollout_setting() -> bool {
    std::env::var("PEGSOL_ROLLOUT").is_ok_and(|v| v == "1")
}

/// `PEGSOL_BEAM=w`: one beam of width `w` before a walk (0: none); unset, the widths of
/// [`Search::beam_widths`].
pub(super) fn beam_setting() -> Option<usize> {
    std::env::var("PEGSOL_BEAM")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// `PEGSOL_DIVE=k`: walk the last `k` layers within the limit depth first (0, the default:
/// only when the next layer would not fit in memory).
fn dive_setting() -> usize {
    std::env::var("PEGSOL_DIVE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}
