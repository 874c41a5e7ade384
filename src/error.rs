//! Errors and the exit codes they map to.

/// Everything that can go wrong, by what the user should do about it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: unknown board, hole off the board, malformed file, unwritable directory.
    #[error("{0}")]
    Input(String),
    /// The run would need more memory than allowed; refused before the OS kills it.
    #[error("{0}")]
    Memory(String),
    /// The disk: a layer file or checkpoint that cannot be used, or not enough space for
    /// the next layer.
    #[error("{0}")]
    Disk(String),
    /// A count no longer fits its integer type.
    #[error("count overflow: {0}")]
    Overflow(String),
    /// The run was interrupted (Ctrl-C or SIGTERM).
    #[error("interrupted")]
    Interrupted,
}

impl Error {
    /// A bad-input error.
    ///
    /// ```
    /// use pegsol::error::Error;
    /// let e = Error::input(format!("hole '{}' is not on board tri:5", "f6"));
    /// assert!(matches!(&e, Error::Input(m) if m == "hole 'f6' is not on board tri:5"));
    /// assert_eq!(e.to_string(), "hole 'f6' is not on board tri:5");
    /// ```
    pub fn input(msg: impl Into<String>) -> Error {
        Error::Input(msg.into())
    }

    /// The one form of a run refused at its memory limit (`--max-memory`): who ran out
    /// (`subject`, e.g. the board and start), what needs more (`what`, its verb
    /// included), the limit as people read it, the facts of the case (`facts`, empty or
    /// starting with "; ") and what to do.
    ///
    /// ```
    /// use pegsol::error::Error;
    /// let e = Error::memory_limit("english from d4", "the search needs", "1.0 GiB", "; it had taken 1.1 GiB");
    /// assert_eq!(
    ///     e.to_string(),
    ///     "english from d4: the search needs more than 1.0 GiB (the limit; it had taken 1.1 GiB). \
    ///      Raise --max-memory if the machine has the memory"
    /// );
    /// assert_eq!(e.exit_code(), 2);
    /// ```
    pub fn memory_limit(subject: &str, what: &str, limit: &str, facts: &str) -> Error {
        Error::Memory(format!(
            "{subject}: {what} more than {limit} (the limit{facts}). Raise --max-memory if the \
             machine has the memory"
        ))
    }

    /// The process exit code for this error: 2 for bad input and refused runs, 3 for
    /// overflow, 130 for an interrupted run.
    ///
    /// ```
    /// use pegsol::error::Error;
    /// assert_eq!(Error::input("unknown board").exit_code(), 2);
    /// assert_eq!(Error::Memory("over the budget".into()).exit_code(), 2);
    /// assert_eq!(Error::Disk("no space".into()).exit_code(), 2);
    /// assert_eq!(pegsol::error::add(u128::MAX, 1).unwrap_err().exit_code(), 3);
    /// assert_eq!(Error::Interrupted.exit_code(), 130);
    /// ```
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) | Error::Memory(_) | Error::Disk(_) => 2,
            Error::Overflow(_) => 3,
            Error::Interrupted => 130,
        }
    }

    /// The one line that reports this error on stderr, naming the rank of an MPI job of
    /// several (`Some((rank, size))`).
    ///
    /// ```
    /// use pegsol::error::Error;
    /// let e = Error::input("unknown board 'tri:99'");
    /// assert_eq!(e.line(None), "pegsol: unknown board 'tri:99'\n");
    /// assert_eq!(e.line(Some((0, 2))), "pegsol: rank 0 of 2: unknown board 'tri:99'\n");
    /// ```
    ///
    /// Input quoted in the message cannot break the line or flood the terminal: control
    /// characters are escaped, and a message longer than 1,000 characters keeps its first
    /// and last 480 (a game file of one 5 MB token once gave a 5 MB line).
    ///
    /// ```
    /// use pegsol::error::Error;
    /// let e = Error::input(format!("bad cell 'a\0{}'", "x".repeat(5_000_000)));
    /// let line = e.line(None);
    /// assert!(line.len() < 1_100 && line.starts_with("pegsol: bad cell 'a\\u{0}x"), "{line}");
    /// assert_eq!(line.matches('\n').count(), 1);
    /// ```
    pub fn line(&self, rank: Option<(usize, usize)>) -> String {
        let text: String = self
            .to_string()
            .chars()
            .flat_map(|c| {
                let escaped: Vec<char> = if c.is_control() {
                    c.escape_default().collect()
                } else {
                    vec![c]
                };
                escaped
            })
            .collect();
        let chars = text.chars().count();
        let text = if chars > 1_000 {
            let head: String = text.chars().take(480).collect();
            let tail: String = text.chars().skip(chars - 480).collect();
            format!(
                "{head} ... ({} characters left out) ... {tail}",
                chars - 960
            )
        } else {
            text
        };
        match rank {
            Some((rank, size)) => format!("pegsol: rank {rank} of {size}: {text}\n"),
            None => format!("pegsol: {text}\n"),
        }
    }

    /// Writes [`Error::line`] to stderr in one write. Unbuffered stderr writes each piece
    /// of a format apart, and mpirun, which forwards every rank's stderr with its own abort
    /// message, once put that message between "pegsol: rank " and "0 of 2".
    ///
    /// ```
    /// pegsol::error::Error::input("an example on stderr").report(None);
    /// ```
    pub fn report(&self, rank: Option<(usize, usize)>) {
        let _ = std::io::Write::write_all(&mut std::io::stderr(), self.line(rank).as_bytes());
    }
}

/// Result with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// [`Error::Interrupted`] once a run's cancel flag is set (Ctrl-C or SIGTERM in `table`);
/// `None`, a run without one, never is.
///
/// ```
/// use pegsol::error::{Error, interrupted};
/// use std::sync::atomic::AtomicBool;
/// assert!(interrupted(None).is_ok());
/// assert!(interrupted(Some(&AtomicBool::new(false))).is_ok());
/// assert!(matches!(interrupted(Some(&AtomicBool::new(true))), Err(Error::Interrupted)));
/// ```
pub fn interrupted(flag: Option<&std::sync::atomic::AtomicBool>) -> Result<()> {
    if flag.is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed)) {
        return Err(Error::Interrupted);
    }
    Ok(())
}

/// Adds two counts, failing loudly instead of wrapping.
///
/// ```
/// assert_eq!(pegsol::error::add(2, 3).unwrap(), 5);
/// assert!(pegsol::error::add(u128::MAX, 1).is_err());
/// ```
#[inline]
pub fn add(a: u128, b: u128) -> Result<u128> {
    a.checked_add(b)
        .ok_or_else(|| Error::Overflow(format!("{a} + {b} exceeds u128")))
}
