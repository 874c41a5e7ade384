//! Worker thread pools, built in one place: a pool that cannot be built (threads refused
//! under a memory or process limit, `ulimit -v`, `ulimit -u`) is an error of the run,
//! exit code 2, never a panic.

use crate::error::{Error, Result};

/// A pool of `threads` workers (0: as many as [`threads`] gives), or
/// [`Error::Memory`] when the system refuses to start them.
///
/// ```
/// let pool = pegsol::pool::build(2)?;
/// assert_eq!(pool.current_num_threads(), 2);
/// assert_eq!(pool.install(|| rayon::current_num_threads()), 2);
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn build(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| {
            let n = self::threads(threads);
            Error::Memory(format!(
                "cannot start {n} worker thread{}: {e} (a memory or process limit: give \
                 fewer --threads, a smaller --max-memory, or raise the limit)",
                if n == 1 { "" } else { "s" }
            ))
        })
}

/// The number of workers a pool of `threads` has: `threads` itself, or for 0 the number
/// rayon chooses (`RAYON_NUM_THREADS`, else one per processor), found without starting
/// rayon's global pool, which panics where threads cannot be started.
///
/// ```
/// assert_eq!(pegsol::pool::threads(3), 3);
/// assert!(pegsol::pool::threads(0) >= 1);
/// ```
pub fn threads(threads: usize) -> usize {
    if threads > 0 {
        return threads;
    }
    if let Some(pool) = rayon::current_thread_index().map(|_| rayon::current_num_threads()) {
        return pool;
    }
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
