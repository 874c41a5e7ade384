//! `pegsol`: maps the outcome of [`pegsol::cli::run`] to an exit code. Errors are one line
//! on stderr.

/// An allocation the system refuses ends the run with one line and exit code 2
/// ([`pegsol::allocator`]).
#[global_allocator]
static ALLOCATOR: pegsol::allocator::OneLine = pegsol::allocator::OneLine;

/// Marks a standard output closed from the start (`pegsol count >&-`), asked before Rust's
/// runtime starts: it opens /dev/null on a closed standard stream, after which a closed
/// one cannot be told from one sent to /dev/null on purpose.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static CHECK_STDOUT: extern "C" fn() = {
    extern "C" fn check() {
        // SAFETY: F_GETFD only asks whether descriptor 1 is open.
        if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
            pegsol::cli::mark_stdout_closed();
        }
    }
    check
};

fn main() {
    let code = match pegsol::cli::run(std::env::args_os()) {
        Ok(code) => code,
        Err(e) => {
            e.report(None);
            e.exit_code()
        }
    };
    std::process::exit(code);
}
