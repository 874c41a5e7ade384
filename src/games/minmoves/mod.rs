//! Solutions with the fewest moves, where a *move* is a run of consecutive jumps by one peg.
//!
//! The search is a bidirectional breadth-first search *by moves*. The forward side starts
//! from the start position(s) and adds, layer by layer, every position one move further
//! (one peg making one or more jumps). The backward side starts from the goal position(s)
//! (one peg in the finishing hole, or in any hole) and adds every position one move
//! *before*: a peg undoing one or more jumps (stepping back over an empty hole, which it
//! refills, into an empty hole). (Complements do not help here: undoing a move is a run of
//! jumps in the complement, but not by one peg.)
//!
//! Each side stores every position it has reached (canonical form under the symmetries
//! preserving its set of sources) with its distance in moves. When a position `s` is known
//! to both sides, a game of `d_f(s) + d_b(s)` moves exists. Every game of `m` moves passes,
//! after its first `i` moves, through a position with `d_f <= i` and `d_b <= m - i`, so once
//! the sides have been expanded to depths `a` and `b` every game of at most `a + b` moves
//! has been seen: the search stops when the best meeting is `<= a + b`, or when a side
//! has no new positions (then every pair has been seen). The answer is exact.
//!
//! The search is pruned by the Merson-region bounds of [`crate::geometry::regions`] and run with
//! limits `L`, `L + 1`, ... from the bound at the start: a run drops every position whose
//! distance plus bound exceeds its limit, which keeps every position of every game within
//! the limit at its true distance (the bounds are consistent). A run that reaches depths
//! adding up to its limit without a meeting proves that no game is that short, so in the run
//! for `L` the first meeting of `L` moves is the answer. The layer that brings the depths to
//! the limit is only probed against the other side, never stored.

pub mod per_start;
pub mod reference;
pub mod table;

use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Jump, Pegs, bit};
use crate::geometry::regions::{Bound, Regions};
use crate::geometry::symmetry::{Symmetry, Transforms};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use thousands::Separable;

type Table<K> = HashMap<K, u8, ahash::RandomState>;

/// What a chunk of a probed layer found: its best meeting (total moves, position), whether it
/// had a new position, and the smallest distance plus bound it pruned.
type ChunkProbe<K> = (Option<(usize, K)>, bool, Option<usize>);

/// Where games start or end for a fewest-moves search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ends {
    /// One given position (a start), or one peg in one given hole (a finish).
    Hole(usize),
    /// Every single vacancy (starts) or every single peg (finishes).
    Any,
}

/// What the search found.
#[derive(Clone, Debug)]
pub struct MinMoves {
    /// The fewest moves, with a game achieving them; `None` when no game exists.
    pub best: Option<(usize, Pegs, Vec<Jump>)>,
    /// Positions stored by the forward and backward sides (up to symmetry).
    pub positions: usize,
    /// The depths (in moves) the two sides were expanded to.
    pub depths: (usize, usize),
    /// How the answer was established.
    pub proof: String,
}

/// The fewest moves of a game from `start` to one peg at `finish`.
///
/// `start` is `Some(position)` for one start, or `None` for every single-vacancy start.
///
/// ```
/// use pegsol::{geometry::board::Board, games::minmoves::{min_moves, Ends}};
/// let b = Board::from_spec("tri:4").unwrap();
/// // OEIS A127500: the triangle of side 4 needs 5 moves at best.
/// let r = min_moves(&b, None, Ends::Any, u64::MAX).unwrap();
/// assert_eq!(r.best.unwrap().0, 5);
/// ```
pub fn min_moves(
    board: &Board,
    start: Option<Pegs>,
    finish: Ends,
    max_memory: u64,
) -> Result<MinMoves> {
    let full = board.full();
    let fwd: Vec<Pegs> = match start {
        Some(p) => vec![p],
        None => (0..board.holes()).map(|h| full ^ bit(h)).collect(),
    };
    let mut bwd: Vec<Pegs> = match finish {
        Ends::Hole(h) => vec![bit(h)],
        Ends::Any => (0..board.holes()).map(bit).collect(),
    };
    if let Some(p) = start {
        // A jump never changes a position's class: keep the goals in the start's class.
        let classes = crate::games::solve::Classes::new(board);
        bwd.retain(|&g| classes.of(g) == classes.of(p));
        if bwd.is_empty() {
            return Ok(MinMoves {
                best: None,
                positions: 0,
                depths: (0, 0),
                proof: "no goal is in the start's position class".into(),
            });
        }
    }
    if board.holes() <= 64 {
        deepen::<u64>(board, &fwd, &bwd, max_memory)
    } else {
        deepen::<u128>(board, &fwd, &bwd, max_memory)
    }
}

/// Runs the pruned search with limits `L = lower bound, L + 1, ...` until one is not cut
/// short by its limit: it found the fewest moves, or proved (having pruned nothing) that no
/// game exists.
fn deepen<K: Bits>(board: &Board, fwd: &[Pegs], bwd: &[Pegs], max_memory: u64) -> Result<MinMoves> {
    let regions = Regions::new(board);
    let bound = Bound::<K>::new(&regions, bwd, fwd);
    let first = fwd
        .iter()
        .map(|&s| bound.to_finish(K::from_u128(s)))
        .min()
        .unwrap_or(0);
    let mut limit = first;
    let mut tried = Vec::new();
    loop {
        let search = Search::<K>::new(board, fwd, bwd, &bound, limit, max_memory);
        let (mut r, cut) = search.run()?;
        if crate::observe::tracing() {
            crate::observe::trace(&format!("bound {limit}: {}", r.proof));
        }
        if !cut {
            if !tried.is_empty() {
                r.proof = format!(
                    "{}; no game within {} moves (searches bounded at {})",
                    r.proof,
                    limit - 1,
                    tried
                        .iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            return Ok(r);
        }
        tried.push(limit);
        limit += 1;
    }
}

/// The symmetries mapping a set of positions onto itself.
fn set_stabiliser<'a>(board: &'a Board, set: &[Pegs]) -> Vec<&'a Symmetry> {
    let mut sorted = set.to_vec();
    sorted.sort_unstable();
    board
        .symmetries()
        .iter()
        .filter(|s| {
            let mut img: Vec<Pegs> = set.iter().map(|&p| board.transform(s, p)).collect();
            img.sort_unstable();
            img == sorted
        })
        .collect()
}

/// Whether every symmetry mapping the set `own` onto itself maps `other` onto itself.
fn fixes(board: &Board, own: &[Pegs], other: &[Pegs]) -> bool {
    let theirs = set_stabiliser(board, other);
    set_stabiliser(board, own)
        .iter()
        .all(|s| theirs.iter().any(|t| t.perm() == s.perm()))
}

/// One side of the search.
struct Side<K: Bits> {
    transforms: Transforms<K>,
    dist: Table<K>,
    frontier: Vec<K>,
    /// The size of the frontier before the last expansion.
    previous: usize,
    depth: usize,
    done: bool,
}

impl<K: Bits> Side<K> {
    fn new(board: &Board, sources: &[Pegs]) -> Self {
        let syms = set_stabiliser(board, sources);
        let transforms = Transforms::new(&syms, board.holes());
        let mut dist = Table::with_hasher(ahash::RandomState::with_seeds(5, 8, 13, 21));
        let mut frontier = Vec::new();
        for &s in sources {
            let c = transforms.canonical(K::from_u128(s));
            if dist.insert(c, 0).is_none() {
                frontier.push(c);
            }
        }
        Side {
            transforms,
            dist,
            frontier,
            previous: 0,
            depth: 0,
            done: false,
        }
    }

    /// A guess at the size of the next layer: the frontier times its last growth. (The
    /// pruning makes the sides grow at very different rates: on tri:8 the backward side
    /// grew 150-fold where the forward side grew 5-fold.)
    fn next_size(&self) -> f64 {
        let now = self.frontier.len() as f64;
        if self.previous == 0 {
            now
        } else {
            now * now / self.previous as f64
        }
    }

    fn distance(&self, pos: K) -> Option<usize> {
        self.dist
            .get(&self.transforms.canonical(pos))
            .map(|&d| d as usize)
    }
}

/// Per hole `h` holding the moving peg: the steps it can take, as (mask of the jump's three
/// holes, the pattern they must show, the hole the peg lands in).
type Steps<K> = Vec<Vec<(K, K, usize)>>;

struct Search<'a, K: Bits> {
    board: &'a Board,
    /// Forward: jumps from `h` (pegs in from and over, `to` empty).
    jumps: Steps<K>,
    /// Backward: jumps undone by the peg in `h` (peg in `to`, over and from empty).
    undo: Steps<K>,
    /// Side 0 searches forward from the starts, side 1 backward from the goals.
    sides: [Side<K>; 2],
    /// Lower bounds on the moves to a goal (side 0) and from a source (side 1).
    bound: &'a Bound<K>,
    /// Per side: whether the bound can differ between the images of a stored position
    /// (the side's symmetries do not fix the other side's sources), so that the smallest
    /// over the images must be taken.
    image_min: [bool; 2],
    /// Positions whose distance plus bound exceeds `limit` are dropped.
    limit: usize,
    /// The smallest distance plus bound among the dropped positions, if any was dropped.
    pruned: Option<usize>,
    max_bytes: u64,
}

impl<'a, K: Bits> Search<'a, K> {
    fn new(
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
            image_min: [!fixes(board, fwd, bwd), !fixes(board, bwd, fwd)],
            limit,
            pruned: None,
            max_bytes: max_memory,
        }
    }

    /// The bound of side `i` at a position (the same for all its images under the side's
    /// symmetries).
    fn estimate(&self, i: usize, pos: K) -> usize {
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
    fn moves(&self, side: usize, pos: K, f: &mut impl FnMut(K, &[(usize, usize)])) {
        let steps = if side == 0 { &self.jumps } else { &self.undo };
        let mut path = Vec::new();
        for h in 0..steps.len() {
            if pos & K::bit(h) != K::zero() {
                Self::chain(steps, pos, h, &mut path, f);
            }
        }
    }

    fn chain(
        steps: &Steps<K>,
        pos: K,
        h: usize,
        path: &mut Vec<(usize, usize)>,
        f: &mut impl FnMut(K, &[(usize, usize)]),
    ) {
        for &(all, pattern, to) in &steps[h] {
            if pos & all == pattern {
                let next = pos ^ all;
                path.push((h, to));
                f(next, path);
                Self::chain(steps, next, to, path, f);
                path.pop();
            }
        }
    }

    /// Expands side `i` by one layer; its frontier becomes the new positions.
    fn expand(&mut self, i: usize) -> Result<()> {
        let frontier = std::mem::take(&mut self.sides[i].frontier);
        let side = &self.sides[i];
        let depth = side.depth + 1;
        // The new positions are weighed as they are found, not only once all are: a layer
        // can pass the limit before a check after it (tri:8's depth 9: docs/experiments.md,
        // "Figures that were in code comments"). A chunk that finds the room gone stops
        // the others.
        let room = self.max_bytes.saturating_sub(self.bytes_needed(i, 0));
        let taken = AtomicU64::new(0);
        let full = AtomicBool::new(false);
        let found: Vec<(Vec<K>, Option<usize>)> = frontier
            .par_chunks(1024)
            .map(|chunk| {
                let mut out = Vec::new();
                let mut pruned: Option<usize> = None;
                if full.load(Ordering::Relaxed) {
                    return (out, pruned);
                }
                for &pos in chunk {
                    self.moves(i, pos, &mut |next, _| {
                        let c = side.transforms.canonical(next);
                        if side.dist.contains_key(&c) {
                            return;
                        }
                        let f = depth + self.estimate(i, c);
                        if f > self.limit {
                            pruned = Some(pruned.map_or(f, |p| p.min(f)));
                        } else {
                            out.push(c);
                        }
                    });
                }
                out.sort_unstable();
                out.dedup();
                // As `bytes_needed` weighs them: the new positions and the frontier.
                let bytes = 2 * (out.len() * std::mem::size_of::<K>()) as u64;
                if taken.fetch_add(bytes, Ordering::Relaxed) + bytes > room {
                    full.store(true, Ordering::Relaxed);
                }
                (out, pruned)
            })
            .collect();
        let frontier_len = frontier.len();
        drop(frontier);
        let new_total: usize = found.iter().map(|(v, _)| v.len()).sum();
        if full.load(Ordering::Relaxed) {
            return Err(self.memory_error(depth, self.bytes_needed(i, new_total), new_total));
        }
        self.check_memory(i, depth, new_total)?;
        let side = &mut self.sides[i];
        let d = u8::try_from(depth).map_err(|_| Error::input("more than 255 moves"))?;
        let mut fresh = Vec::new();
        for (v, p) in found {
            if let Some(p) = p {
                self.pruned = Some(self.pruned.map_or(p, |q| q.min(p)));
            }
            for c in v {
                if let std::collections::hash_map::Entry::Vacant(e) = side.dist.entry(c) {
                    e.insert(d);
                    fresh.push(c);
                }
            }
        }
        side.depth = depth;
        side.done = fresh.is_empty();
        side.previous = frontier_len;
        side.frontier = fresh;
        Ok(())
    }

    /// The last layer of side `i` before the depths reach the limit, probed instead of
    /// stored: every new position (not stored, not pruned) is looked up in the other side.
    /// Returns the best meeting, as [`Search::meet`] does, and whether any new position
    /// was found. A meeting position is stored (for the path); the rest of the layer is not,
    /// which spares the memory of the largest layer.
    fn probe(&mut self, i: usize) -> Result<Option<(usize, K)>> {
        let frontier = std::mem::take(&mut self.sides[i].frontier);
        let side = &self.sides[i];
        let depth = side.depth + 1;
        // The first chunk holding a game of `limit` moves (the fewest): later chunks are
        // skipped, earlier ones finished, so that the game found does not depend on timing.
        let first_hit = AtomicUsize::new(usize::MAX);
        // After any pruning the search cannot be exhaustive: whether the layer holds new
        // positions no longer matters.
        let need_fresh = self.pruned.is_none();
        let found: Vec<ChunkProbe<K>> = frontier
            .par_chunks(1024)
            .enumerate()
            .map(|(k, chunk)| {
                let mut best: Option<(usize, K)> = None;
                let mut fresh = false;
                let mut pruned: Option<usize> = None;
                if k > first_hit.load(Ordering::Relaxed) {
                    return (best, true, pruned);
                }
                for &pos in chunk {
                    self.moves(i, pos, &mut |next, _| {
                        // The bound and the meeting take any image of a position; the
                        // (costly) look-up in this side's table is needed only to tell
                        // whether the search is exhaustive. A stored position looked up
                        // again meets the other side one move later than it did when stored:
                        // never within the limit, since no game is shorter than the limit.
                        let stored = |x: K| side.dist.contains_key(&side.transforms.canonical(x));
                        let f = depth + self.estimate(i, next);
                        if f > self.limit {
                            if !(need_fresh && stored(next)) {
                                pruned = Some(pruned.map_or(f, |p| p.min(f)));
                            }
                            return;
                        }
                        if need_fresh && !fresh && !stored(next) {
                            fresh = true;
                        }
                        if let Some(m) = self.meeting(i, depth, next)
                            && best.is_none_or(|b| m < b)
                        {
                            best = Some(m);
                        }
                    });
                }
                if best.is_some_and(|(t, _)| t <= self.limit) {
                    first_hit.fetch_min(k, Ordering::Relaxed);
                }
                (best, fresh, pruned)
            })
            .collect();
        drop(frontier);
        let mut best: Option<(usize, K)> = None;
        let mut fresh = false;
        for (b, f, p) in found {
            if let Some(p) = p {
                self.pruned = Some(self.pruned.map_or(p, |q| q.min(p)));
            }
            fresh |= f;
            if let Some(b) = b
                && best.is_none_or(|x| b < x)
            {
                best = Some(b);
                if b.0 <= self.limit {
                    // The first chunk with a game of the fewest moves.
                    break;
                }
            }
        }
        let d = u8::try_from(depth).map_err(|_| Error::input("more than 255 moves"))?;
        let side = &mut self.sides[i];
        if let Some((_, x)) = best {
            side.dist.entry(side.transforms.canonical(x)).or_insert(d);
        }
        side.depth = depth;
        side.done = !fresh;
        side.previous = 0;
        Ok(best)
    }

    /// The best meeting of a position `c` of side `i` at `depth` (stored or not) with the
    /// other side: the total moves and the concrete position where the sides meet.
    #[inline]
    fn meeting(&self, i: usize, depth: usize, c: K) -> Option<(usize, K)> {
        let side = &self.sides[i];
        let other = &self.sides[1 - i];
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

    /// Stops before inserting `new` positions into side `i` if the tables, grown to hold
    /// them, and the frontier vectors would pass the memory limit.
    fn check_memory(&self, i: usize, depth: usize, new: usize) -> Result<()> {
        let bytes = self.bytes_needed(i, new);
        if bytes > self.max_bytes {
            return Err(self.memory_error(depth, bytes, new));
        }
        Ok(())
    }

    /// The memory limit's error at `depth`, the search needing `bytes` for `new` positions
    /// (at least: a search stopped early has not found them all).
    fn memory_error(&self, depth: usize, bytes: u64, new: usize) -> Error {
        let (need, limit) = crate::memory::human_apart(bytes, self.max_bytes);
        Error::memory_limit(
            self.board.name(),
            "the fewest-moves search needs",
            &limit,
            &format!(
                "; {need} at depth {depth}: {} positions stored, {new} new at least",
                self.sides.iter().map(|s| s.dist.len()).sum::<usize>(),
            ),
        )
    }

    /// The bytes the tables and frontiers need once side `i` holds `new` more positions.
    fn bytes_needed(&self, i: usize, new: usize) -> u64 {
        // A slot holds a key and a one-byte distance (padded). A full table doubles, the
        // old one still held.
        let table = |len: usize, cap: usize| -> u64 {
            let bytes = crate::memory::hash_table_bytes::<(K, u8)>(cap.max(1));
            if len > cap.max(1) { 3 * bytes } else { bytes }
        };
        let mut bytes = 0u64;
        for (k, s) in self.sides.iter().enumerate() {
            let len = s.dist.len() + if k == i { new } else { 0 };
            bytes += table(len, s.dist.capacity());
            bytes += (s.frontier.len() as u64) * std::mem::size_of::<K>() as u64;
        }
        // The unsorted new positions and the frontier they become.
        bytes + 2 * new as u64 * std::mem::size_of::<K>() as u64
    }

    /// The best meeting among the frontier of side `i` (at that side's depth): the total
    /// moves and the concrete position where the sides meet.
    fn meet(&self, i: usize) -> Option<(usize, K)> {
        let side = &self.sides[i];
        side.frontier
            .par_iter()
            .filter_map(|&s| self.meeting(i, side.depth, s))
            .min()
    }

    /// Searches every game of at most `limit` moves, knowing that none has fewer (the
    /// limit is a lower bound, or the previous limit's search found nothing). Returns the best
    /// game if it is proved the fewest, and whether the limit cut the search short (then
    /// `best` is `None`: no game has at most `limit` moves, and a longer one may exist).
    fn run(mut self) -> Result<(MinMoves, bool)> {
        let mut best = self.meet(0);
        let mut cut = false;
        loop {
            let (a, b) = (self.sides[0].depth, self.sides[1].depth);
            // No game has fewer than `limit` moves: a game of `limit` moves is the fewest.
            if best.is_some_and(|(t, _)| t <= self.limit) {
                break;
            }
            let done = self.sides.iter().any(|s| s.done);
            if done && self.pruned.is_none() {
                // Nothing was pruned: every game has been seen.
                break;
            }
            if done || a + b >= self.limit {
                // Every game within the limit has been seen, and none was found.
                best = None;
                cut = true;
                break;
            }
            if let Some((t, x)) = self.grow()?
                && best.is_none_or(|(bt, _)| t < bt)
            {
                best = Some((t, x));
            }
        }
        Ok((self.result(best), cut))
    }

    /// Grows the side whose next layer promises to be smaller by one move, and returns its
    /// best meeting with the other side. The last layer within the limit is only probed:
    /// its positions are looked up, none stored.
    fn grow(&mut self) -> Result<Option<(usize, K)>> {
        let trace = crate::observe::tracing();
        let (a, b) = (self.sides[0].depth, self.sides[1].depth);
        let next = |s: &Side<K>| s.next_size();
        let i = usize::from(next(&self.sides[1]) < next(&self.sides[0]));
        if a + b + 1 >= self.limit {
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
        self.expand(i)?;
        if trace {
            crate::observe::trace(&format!(
                "side {i} depth {}: {} new, {} stored",
                self.sides[i].depth,
                self.sides[i].frontier.len(),
                self.sides[i].dist.len()
            ));
        }
        Ok(self.meet(i))
    }

    /// The search's result from its best meeting (`t` moves through `x`), if any: the
    /// game through `x`, the positions stored and how the proof went.
    fn result(&self, best: Option<(usize, K)>) -> MinMoves {
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
        }
    }

    /// A game from a start to `pos` in `d_f(pos)` moves: the start and the steps.
    fn path_from_source(&self, pos: K) -> (K, Vec<(usize, usize)>) {
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
    fn path_to_goal(&self, pos: K) -> Vec<(usize, usize)> {
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
