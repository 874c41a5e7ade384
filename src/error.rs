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
    pub fn input(msg: impl Into<String>) -> Error {
        Error::Input(msg.into())
    }

    /// The process exit code for this error: 2 for bad input and refused runs, 3 for
    /// overflow, 130 for an interrupted run.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) | Error::Memory(_) | Error::Disk(_) => 2,
            Error::Overflow(_) => 3,
            Error::Interrupted => 130,
        }
    }
}

/// Result with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

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
