//! The process's setup before a command runs: signals and standard streams set so that a
//! fault of the environment ends in one line and exit code 2, not in a silent kill or a
//! lost output.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether standard output was closed when the process started (`pegsol count >&-`).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Prepares the process: ignores SIGXFSZ, so that a write past a file-size limit
/// (`ulimit -f`) fails with EFBIG ("File too large") and is refused with one line, its
/// temporary file removed, instead of killing the process (exit code 153); and fills a
/// closed standard stream with /dev/null, so that no file this run opens takes its number
/// and receives what was meant for the terminal. A closed standard output is remembered:
/// [`super::print`] then fails the command ([`stdout_closed`]).
pub(super) fn prepare() {
    // SAFETY: setting a signal's disposition to SIG_IGN runs no code of ours.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    for fd in 0..=2 {
        // SAFETY: F_GETFD only asks whether the descriptor is open.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1 {
            continue;
        }
        if fd == 1 {
            STDOUT_CLOSED.store(true, Ordering::Relaxed);
        }
        // The lowest free descriptor, which is `fd`: those below it are open by now.
        // SAFETY: the path is a valid C string.
        unsafe {
            libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        }
    }
}

/// Records that standard output was closed when the process started. The `pegsol`
/// binary asks before Rust's runtime starts, since the runtime fills a closed standard
/// stream with /dev/null as [`prepare`] does.
pub fn mark_stdout_closed() {
    STDOUT_CLOSED.store(true, Ordering::Relaxed);
}

/// Whether standard output was closed when the process started.
pub(super) fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}
