//! The seam between the engines and whoever watches them. The library never prints: its
//! engines (the sweep of `count` and `table`, `solvable` and `hint`, `solve`, fewest moves,
//! the cluster) report progress, notices and trace lines to an [`Observer`], and the
//! command line implements one (`cli/observe.rs`: a bar on a terminal, trace lines under
//! `PEGSOL_TRACE`, silence under `--quiet`). A library user gets no output unless it
//! installs an observer of its own: the default is [`Silent`].
//!
//! ```
//! use pegsol::observe::{self, Observer};
//! use std::sync::{Arc, Mutex};
//!
//! /// Keeps the trace lines it is given.
//! #[derive(Default)]
//! struct Lines(Mutex<Vec<String>>);
//! impl Observer for Lines {
//!     fn tracing(&self) -> bool {
//!         true
//!     }
//!     fn trace(&self, line: &str) {
//!         self.0.lock().unwrap().push(line.to_string());
//!     }
//! }
//!
//! assert!(!observe::tracing()); // nothing installed: silence
//! let lines = Arc::new(Lines::default());
//! observe::install(lines.clone());
//! observe::trace("layer 1: 1 entries");
//! observe::install(Arc::new(observe::Silent));
//! observe::trace("not kept");
//! assert_eq!(*lines.0.lock().unwrap(), ["layer 1: 1 entries"]);
//! ```

use std::sync::{Arc, RwLock};

/// What an engine reports while it runs. Every method has a silent default, so an observer
/// implements only what it shows. Calls come from any thread of the pool.
pub trait Observer: Send + Sync {
    /// A task of `len` steps named `unit` (e.g. "jumps") begins; the engine reports its
    /// steps to the meter returned.
    fn meter(&self, len: u64, unit: &str) -> Box<dyn Meter> {
        let _ = (len, unit);
        Box::new(Silent)
    }

    /// A notice for the person running the command (e.g. where layers are kept on disk).
    fn notice(&self, line: &str) {
        let _ = line;
    }

    /// Whether trace lines are wanted: an engine formats one only when this holds.
    fn tracing(&self) -> bool {
        false
    }

    /// One trace line (no newline): a layer's sizes, memory and speed, a search's work.
    fn trace(&self, line: &str) {
        let _ = line;
    }
}

/// The steps of one task ([`Observer::meter`]).
pub trait Meter: Send + Sync {
    /// `steps` more steps are done.
    fn inc(&self, steps: u64) {
        let _ = steps;
    }

    /// `steps` steps are done in all (a resumed task).
    fn set_position(&self, steps: u64) {
        let _ = steps;
    }

    /// What the current step is, or what the last one gave.
    fn message(&self, text: String) {
        let _ = text;
    }

    /// The task is done: its meter goes away.
    fn finish(&self) {}

    /// The task stopped on an error: its meter stays as it was.
    fn abandon(&self) {}
}

/// The observer that shows nothing, and its meter: the library's default.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {}
impl Meter for Silent {}

static INSTALLED: RwLock<Option<Arc<dyn Observer>>> = RwLock::new(None);

/// Makes `observer` the one every engine of this process reports to, in place of the one
/// installed before ([`Silent`] if none).
pub fn install(observer: Arc<dyn Observer>) {
    *INSTALLED.write().unwrap_or_else(|p| p.into_inner()) = Some(observer);
}

/// The observer installed ([`install`]), or [`Silent`].
pub fn current() -> Arc<dyn Observer> {
    INSTALLED
        .read()
        .unwrap_or_else(|p| p.into_inner())
        .clone()
        .unwrap_or_else(|| Arc::new(Silent))
}

/// Whether the installed observer wants trace lines ([`Observer::tracing`]).
pub fn tracing() -> bool {
    current().tracing()
}

/// A trace line to the installed observer, if it wants them ([`Observer::trace`]).
pub fn trace(line: &str) {
    let observer = current();
    if observer.tracing() {
        observer.trace(line);
    }
}

/// A notice to the installed observer ([`Observer::notice`]).
pub fn notice(line: &str) {
    current().notice(line);
}

/// A meter of `len` steps named `unit` from the installed observer when `wanted`, a silent
/// one otherwise ([`Observer::meter`]).
///
/// ```
/// let m = pegsol::observe::meter(14, "jumps", true);
/// m.inc(1); // nothing installed: nothing drawn
/// m.finish();
/// ```
pub fn meter(len: u64, unit: &str, wanted: bool) -> Box<dyn Meter> {
    if wanted {
        current().meter(len, unit)
    } else {
        Box::new(Silent)
    }
}
