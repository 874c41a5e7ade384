//! The counts beside the board: the hint cache of `pegsol hint` ([`HintCache`]) built once
//! from the start of the game on a background thread, and, when cheap, the games by pegs
//! left of `pegsol count` for the comparison at the end.

use crate::analysis::solvable::{Finish, Hint, HintCache, JumpWins, SolveOptions};
use crate::count::{CountOptions, Total, count};
use crate::error::Error;
use crate::geometry::board::{Board, Pegs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The most holes of a board whose games the end compares with every game from the start
/// (`pegsol count`, in the background): english from the centre takes seconds
/// (docs/experiments.md, "Figures that were in code comments").
pub const COMPARE_HOLES: usize = 33;

/// What the counts say about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Counted {
    /// Still being computed.
    Pending,
    /// No counts for this game: the reason, on one line.
    Unavailable(String),
    /// The wins from the position and of each legal jump, as [`crate::analysis::solvable::hint`] gives them.
    Ready(Hint),
}

#[derive(Debug, Default)]
struct Shared {
    cache: Option<Result<HintCache, String>>,
    pegs_left: Option<Vec<(usize, Total)>>,
}

/// The counts of one game, computed in the background from its start.
///
/// ```
/// use pegsol::{geometry::board::Board, analysis::solvable::{Finish, SolveOptions}};
/// use pegsol::play::{Counted, Counter};
/// let b = Board::from_spec("tri:5").unwrap();
/// let c = Counter::start(&b, b.default_start(), Finish::Any, SolveOptions::default(), true);
/// c.wait();
/// let Counted::Ready(h) = c.counted(&b, b.default_start()) else { panic!() };
/// assert_eq!(h.wins, 29_760); // published: tri:5 from a1
/// assert_eq!(c.pegs_left().unwrap()[0].1, 29_760); // games leaving one peg
/// ```
#[derive(Debug)]
pub struct Counter {
    shared: Arc<Mutex<Shared>>,
    done: Arc<AtomicBool>,
    cancel: Arc<AtomicBool>,
    worker: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Counter {
    /// Starts the counts of the games from `start` on a thread of their own: the hint cache
    /// within `opts.max_memory` (a board too large gets [`Counted::Unavailable`] with the
    /// engine's own reason), then, with `compare` on a board of at most [`COMPARE_HOLES`]
    /// holes, every game's pegs left.
    pub fn start(
        board: &Board,
        start: Pegs,
        finish: Finish,
        opts: SolveOptions,
        compare: bool,
    ) -> Counter {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let done = Arc::new(AtomicBool::new(false));
        let cancel = Arc::new(AtomicBool::new(false));
        let (s, d, c, b) = (shared.clone(), done.clone(), cancel.clone(), board.clone());
        let worker = std::thread::spawn(move || {
            let cache = HintCache::build(&b, start, finish, &opts).map_err(|e| reason(&b, &e));
            let fine = cache.is_ok();
            lock(&s).cache = Some(cache);
            // Read after the cache is stored: [`Counter::finish`] sets it before it looks.
            if fine && compare && b.holes() <= COMPARE_HOLES && !c.load(Ordering::SeqCst) {
                lock(&s).pegs_left = pegs_left(&b, start, &opts, c);
            }
            d.store(true, Ordering::SeqCst);
        });
        Counter {
            shared,
            done,
            cancel,
            worker: Mutex::new(Some(worker)),
        }
    }

    /// A counter that never counts: every position is [`Counted::Unavailable`] for `why`.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, play::{Counted, Counter}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = Counter::off("no counts");
    /// assert_eq!(c.counted(&b, b.default_start()), Counted::Unavailable("no counts".into()));
    /// assert!(c.is_done() && c.pegs_left().is_none());
    /// ```
    pub fn off(why: &str) -> Counter {
        let shared = Shared {
            cache: Some(Err(why.to_string())),
            pegs_left: None,
        };
        Counter {
            shared: Arc::new(Mutex::new(shared)),
            done: Arc::new(AtomicBool::new(true)),
            cancel: Arc::new(AtomicBool::new(false)),
            worker: Mutex::new(None),
        }
    }

    /// Whether the background work is over.
    pub fn is_done(&self) -> bool {
        self.done.load(Ordering::SeqCst)
    }

    /// Waits for the background work to end.
    pub fn wait(&self) {
        if let Some(w) = self.worker.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = w.join();
        }
    }

    /// Asks the background count of the games to stop (the hint cache runs to its end).
    pub fn stop(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }

    /// Ends the background work when the game ends: the count of the games is stopped and
    /// waited for (so that its temporary folder is removed); a hint cache still being built
    /// is left to the end of the process, which holds nothing of it on disk.
    pub fn finish(&self) {
        self.stop();
        if lock(&self.shared).cache.is_some() {
            self.wait();
        }
    }

    /// The counts of `pos`, a position reachable from the start (as every position of the
    /// game is): a position the cache does not hold is lost, every jump from it too.
    pub fn counted(&self, board: &Board, pos: Pegs) -> Counted {
        match &lock(&self.shared).cache {
            None => Counted::Pending,
            Some(Err(why)) => Counted::Unavailable(why.clone()),
            Some(Ok(cache)) => Counted::Ready(cache.hint(board, pos).unwrap_or_else(|| {
                let jumps = board
                    .jumps()
                    .iter()
                    .filter(|j| j.is_legal(pos))
                    .map(|&jump| JumpWins { jump, wins: 0 })
                    .collect();
                Hint { wins: 0, jumps }
            })),
        }
    }

    /// Games from the start by pegs left (as `pegsol count` gives them), once counted.
    pub fn pegs_left(&self) -> Option<Vec<(usize, Total)>> {
        lock(&self.shared).pegs_left.clone()
    }
}

impl Drop for Counter {
    fn drop(&mut self) {
        self.stop();
    }
}

fn lock(m: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Why there are no counts, on one line.
fn reason(board: &Board, e: &Error) -> String {
    match e {
        Error::Memory(_) => format!(
            "{} is too large for live counts within the memory limit (--max-memory); \
             play goes on without them",
            board.name()
        ),
        e => format!("no counts: {e}"),
    }
}

/// Every game's pegs left from `start`, or `None` when the count fails or is stopped.
/// Layers that would outgrow memory go to a temporary folder, removed afterwards.
fn pegs_left(
    board: &Board,
    start: Pegs,
    opts: &SolveOptions,
    cancel: Arc<AtomicBool>,
) -> Option<Vec<(usize, Total)>> {
    let work = tempfile::tempdir().ok()?;
    let copts = CountOptions {
        threads: opts.threads,
        max_memory: opts.max_memory,
        cancel: Some(cancel),
        work_dir: Some(work.path().to_path_buf()),
        max_disk: Some(opts.max_memory),
        ..CountOptions::default()
    };
    count(board, start, &copts).ok().map(|c| c.pegs_left())
}
