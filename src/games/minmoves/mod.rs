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
//! the limit is only probed against the other side, never stored; when a layer would not fit
//! in memory, the rest of the limit is walked depth first from the frontier instead
//! ([`dive`]), storing nothing, and stopping at the first game within the limit, its
//! frontier taken in order of promise (the most moves to spare under the bound first) and
//! after beams of growing width through the same layers ([`beam`]: each layer cut to its
//! most promising positions), which meet a game quickly where many exist. Before a
//! side grows a layer, a trial walks the rest of the limit depth first from the frontier's
//! first positions, within about the layer's positions: where games within the limit are
//! many (the run that finds the answer) one is met there and the deeper layers are never
//! built; a trial that meets none changes nothing.

pub mod per_start;
pub mod reference;
pub mod table;

mod beam;
mod dive;
mod layer;
mod path;
mod search;
mod side;
mod store;
pub mod work;

use crate::error::Result;
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Jump, Pegs, bit};
use crate::geometry::regions::{Bound, Regions};
use search::Search;

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
    /// Per limit searched: the positions each side stored per depth with those the bound
    /// dropped one move further, and the probed layer's positions.
    pub figures: Vec<String>,
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
    min_moves_in(board, start, finish, max_memory, None)
}

/// [`min_moves`], keeping the search in a folder of `work_dir` when given: each layer is
/// written as it is stored, so that the same call after an interruption resumes from the
/// last one ([`work`]). The answer is the same either way; the folder is removed once the
/// search ends.
///
/// ```
/// use pegsol::{geometry::board::Board, games::minmoves::{min_moves_in, Ends}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let dir = tempfile::tempdir().unwrap();
/// let r = min_moves_in(&b, None, Ends::Any, u64::MAX, Some(dir.path())).unwrap();
/// assert_eq!(r.best.unwrap().0, 9); // OEIS A127500
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0); // nothing left behind
/// ```
pub fn min_moves_in(
    board: &Board,
    start: Option<Pegs>,
    finish: Ends,
    max_memory: u64,
    work_dir: Option<&std::path::Path>,
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
                figures: Vec::new(),
            });
        }
    }
    let width = if board.holes() <= store::Store::<u64>::max_holes() {
        8
    } else if board.holes() <= store::Store::<u128>::max_holes() {
        16
    } else {
        return Err(too_large(board));
    };
    let work = match work_dir {
        Some(root) => {
            let start = start.map_or("all".to_string(), |p| board.start_name(p));
            let finish = match finish {
                Ends::Hole(h) => board.hole_name(h),
                Ends::Any => "any".to_string(),
            };
            let names = (start.as_str(), finish.as_str());
            Some(work::Work::open(root, board, names, (&fwd, &bwd), width)?)
        }
        None => None,
    };
    let found = if width == 8 {
        deepen::<u64>(board, &fwd, &bwd, max_memory, work.as_ref())?
    } else {
        deepen::<u128>(board, &fwd, &bwd, max_memory, work.as_ref())?
    };
    if let Some(work) = work {
        work.finish();
    }
    Ok(found)
}

/// The refusal of a board too large for the search's stores (a word a position, its low
/// byte the distance: up to 120 holes).
pub(super) fn too_large(board: &Board) -> crate::error::Error {
    crate::error::Error::input(format!(
        "{} has {} holes; the fewest-moves search takes boards of up to {} holes",
        board.name(),
        board.holes(),
        store::Store::<u128>::max_holes()
    ))
}

/// Runs the pruned search with limits `L = lower bound, L + 1, ...` until one is not cut
/// short by its limit: it found the fewest moves, or proved (having pruned nothing) that no
/// game exists.
fn deepen<K: Bits>(
    board: &Board,
    fwd: &[Pegs],
    bwd: &[Pegs],
    max_memory: u64,
    work: Option<&work::Work>,
) -> Result<MinMoves> {
    let regions = Regions::new(board);
    let bound = Bound::<K>::new(&regions, bwd, fwd);
    let first = fwd
        .iter()
        .map(|&s| bound.to_finish(K::from_u128(s)))
        .min()
        .unwrap_or(0);
    let mut kept = match work {
        Some(w) => w.resume::<K>()?,
        None => None,
    };
    let (mut limit, mut tried, mut figures) = match &kept {
        Some(k) => (k.limit, k.tried.clone(), k.figures.clone()),
        None => (first, Vec::new(), Vec::new()),
    };
    loop {
        let meter = crate::observe::meter(limit as u64, "moves", true);
        let mut search = Search::<K>::new(board, fwd, bwd, &bound, limit, max_memory)
            .with_meter(meter)
            .with_work(work);
        match (kept.take(), work) {
            (Some(k), Some(w)) => {
                crate::observe::notice(&format!(
                    "pegsol: resuming the search bounded at {limit} moves from forward depth {}, backward depth {} in {}",
                    k.sides[0].layers.len(),
                    k.sides[1].layers.len(),
                    w.dir().display()
                ));
                search.restore(k);
            }
            (_, Some(w)) => w.begin(limit, (&tried, &figures), &search.sides)?,
            _ => {}
        }
        let (mut r, cut) = search.run()?;
        if crate::observe::tracing() {
            crate::observe::trace(&format!("bound {limit}: {}", r.proof));
            crate::observe::trace(&r.figures[0]);
        }
        figures.append(&mut r.figures);
        if !cut {
            r.figures = figures;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::{self, Meter, Observer};
    use std::sync::{Arc, Mutex};

    /// The log of one meter: its length and unit, then what it was given.
    type Log = Arc<Mutex<Vec<String>>>;

    /// Keeps the log of every meter in "moves" asked for by the thread that made it (the
    /// observer is global, and other tests search at the same time on their threads).
    struct Meters(Mutex<Vec<Log>>, std::thread::ThreadId);

    impl Default for Meters {
        fn default() -> Self {
            Meters(Mutex::default(), std::thread::current().id())
        }
    }

    struct Logged(Log);

    impl Meter for Logged {
        fn set_position(&self, steps: u64) {
            self.0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(format!("at {steps}"));
        }
        fn message(&self, text: String) {
            self.0.lock().unwrap_or_else(|e| e.into_inner()).push(text);
        }
        fn finish(&self) {
            self.0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push("finish".into());
        }
    }

    impl Observer for Meters {
        fn meter(&self, len: u64, unit: &str) -> Box<dyn Meter> {
            let log: Log = Arc::new(Mutex::new(vec![format!("{len} {unit}")]));
            if unit == "moves" && std::thread::current().id() == self.1 {
                self.0.lock().unwrap().push(log.clone());
            }
            Box::new(Logged(log))
        }
    }

    /// A move whose peg starts outside every full region never lowers the bound to a goal
    /// (`Bound::full_holes`), so a walk's position with no move to spare needs only the
    /// moves from its full regions: every move of positions after random jumps on tri:7 and
    /// the English board, towards one peg anywhere and towards one corner.
    #[test]
    fn a_move_from_outside_the_full_regions_keeps_the_bound() {
        for spec in ["tri:7", "english"] {
            let b = Board::from_spec(spec).unwrap();
            let anywhere: Vec<Pegs> = (0..b.holes()).map(bit).collect();
            let regions = Regions::new(&b);
            let start = b.default_start();
            let positions =
                crate::geometry::pagoda::random_games(&b, &[start], false, 0..=b.holes(), 5_000);
            for goals in [anywhere.clone(), vec![bit(0)]] {
                let bound = Bound::<u64>::new(&regions, &goals, &[start]);
                let search = Search::new(&b, &[start], &goals, &bound, 99, u64::MAX);
                let mut checked = 0;
                for &pos in &positions {
                    let pos = pos as u64;
                    let (before, full) = (bound.to_finish(pos), bound.full_holes(pos));
                    search.moves(0, pos, &mut |next, path| {
                        if full & (1u64 << path[0].0) == 0 {
                            assert!(bound.to_finish(next) >= before, "{spec} {pos:#x}");
                            checked += 1;
                        }
                    });
                }
                assert!(checked > 5_000, "{spec}: {checked}");
            }
        }
    }

    /// A fewest-moves search shows where it is (a bar on a terminal): a meter per bound
    /// searched, each as long as its bound, moved forward to the depths the sides reach
    /// together and finished; the last is at the answer (tri:5: 9 moves, OEIS A127500).
    #[test]
    fn a_meter_follows_each_bound_searched() {
        let meters = Arc::new(Meters::default());
        observe::install(meters.clone());
        let b = Board::from_spec("tri:5").unwrap();
        let found = min_moves(&b, None, Ends::Any, u64::MAX);
        observe::install(Arc::new(observe::Silent));
        assert_eq!(found.unwrap().best.map(|g| g.0), Some(9));
        let logs = meters.0.lock().unwrap();
        let heads: Vec<String> = logs.iter().map(|l| l.lock().unwrap()[0].clone()).collect();
        assert_eq!(
            heads.last().map(String::as_str),
            Some("9 moves"),
            "{heads:?}"
        );
        for log in logs.iter() {
            let log = log.lock().unwrap();
            let len: u64 = log[0].split(' ').next().unwrap().parse().unwrap();
            let at: Vec<u64> = log
                .iter()
                .filter_map(|l| l.strip_prefix("at "))
                .map(|n| n.parse().unwrap())
                .collect();
            assert!(!at.is_empty(), "{log:?}");
            assert!(at.windows(2).all(|w| w[0] <= w[1]) && at.iter().all(|&p| p <= len));
            assert!(
                log.iter()
                    .any(|l| l.starts_with(&format!("(bound {len}: forward depth")))
            );
            assert_eq!(log.last().map(String::as_str), Some("finish"), "{log:?}");
        }
    }
}
