//! The one progress-bar factory: a bar on stderr when stderr is a terminal, hidden
//! otherwise (pipes, CI, files). Bars alive at the same time (a batch's bar and the current
//! count's bar) are stacked, one line each.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::OnceLock;

/// Every visible bar is drawn through this one stack, so that nested bars do not overwrite
/// each other.
fn stack() -> &'static MultiProgress {
    static STACK: OnceLock<MultiProgress> = OnceLock::new();
    STACK.get_or_init(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()))
}

/// Whether `PEGSOL_TRACE` asks for trace lines on stderr: the one rule of every command.
/// Tracing is on when the variable is set to anything but the empty string or `0`.
pub fn tracing() -> bool {
    trace_wanted(std::env::var_os("PEGSOL_TRACE").as_deref())
}

/// Whether a value of `PEGSOL_TRACE` (`None`: unset) turns tracing on ([`tracing`]).
///
/// ```
/// use pegsol::output::progress::trace_wanted;
/// use std::ffi::OsStr;
/// assert!(trace_wanted(Some(OsStr::new("1"))) && trace_wanted(Some(OsStr::new("yes"))));
/// assert!(!trace_wanted(Some(OsStr::new("0"))) && !trace_wanted(Some(OsStr::new(""))));
/// assert!(!trace_wanted(None));
/// ```
pub fn trace_wanted(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

/// A bar of `len` steps named `unit`; hidden unless `wanted` and stderr is a terminal.
///
/// ```
/// let b = pegsol::output::progress::bar(14, "jumps", false);
/// assert!(b.is_hidden());
/// b.set_position(3); // a hidden bar still keeps count
/// assert_eq!(b.position(), 3);
/// ```
pub fn bar(len: u64, unit: &str, wanted: bool) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = stack().add(ProgressBar::new(len));
    let template = format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{msg}}");
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("static template")
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}
