//! The command line's [`Observer`]: what the engines report, shown on stderr. A progress
//! bar when stderr is a terminal (bars alive at the same time, a batch's and the current
//! count's, stacked one line each), notices above the bars, trace lines under
//! `PEGSOL_TRACE`; under `--quiet` no bar and no notice (trace lines still, when asked).

use crate::observe::{Meter, Observer, Silent};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex, OnceLock};

/// Installs the observer of a command: stderr's, quiet under `--quiet`.
pub(super) fn install(quiet: bool) {
    crate::observe::install(Arc::new(Terminal::stderr(quiet)));
}

/// Every visible bar is drawn through this one stack, so that nested bars do not overwrite
/// each other.
fn stack() -> &'static MultiProgress {
    static STACK: OnceLock<MultiProgress> = OnceLock::new();
    STACK.get_or_init(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()))
}

/// Whether a value of `PEGSOL_TRACE` (`None`: unset) turns tracing on: the one rule of
/// every command. Tracing is on when the variable is set to anything but the empty string
/// or `0`.
pub(super) fn trace_wanted(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

/// The observer of a command: lines go to `sink` (stderr, or a buffer in tests).
pub(super) struct Terminal<W: Write + Send> {
    /// `--quiet`: no bar, no notice.
    quiet: bool,
    /// `PEGSOL_TRACE` asks for trace lines.
    tracing: bool,
    /// Bars are drawn (stderr is a terminal, and not `--quiet`).
    bars: bool,
    sink: Mutex<W>,
}

impl Terminal<std::io::Stderr> {
    /// stderr's observer, tracing as `PEGSOL_TRACE` says ([`trace_wanted`]).
    pub(super) fn stderr(quiet: bool) -> Self {
        let tracing = trace_wanted(std::env::var_os("PEGSOL_TRACE").as_deref());
        let mut t = Terminal::new(std::io::stderr(), quiet, tracing);
        t.bars = !quiet && std::io::stderr().is_terminal();
        t
    }
}

impl<W: Write + Send> Terminal<W> {
    /// An observer writing to `sink`, which draws no bar.
    pub(super) fn new(sink: W, quiet: bool, tracing: bool) -> Self {
        Terminal {
            quiet,
            tracing,
            bars: false,
            sink: Mutex::new(sink),
        }
    }

    /// Writes `line` and a newline in one call, so that the lines of processes sharing a
    /// stderr (the ranks of an MPI job) do not break into each other; a closed or full
    /// stderr loses it.
    fn line(&self, line: &str) {
        let mut text = String::with_capacity(line.len() + 1);
        text.push_str(line);
        text.push('\n');
        let mut sink = self.sink.lock().unwrap_or_else(|p| p.into_inner());
        let _ = sink.write_all(text.as_bytes());
    }
}

impl<W: Write + Send> Observer for Terminal<W> {
    fn meter(&self, len: u64, unit: &str) -> Box<dyn Meter> {
        if !self.bars {
            return Box::new(Silent);
        }
        let bar = stack().add(ProgressBar::new(len));
        let template = format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{msg}}");
        bar.set_style(
            ProgressStyle::with_template(&template)
                .expect("static template")
                .progress_chars("=> "),
        );
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        Box::new(Bar(bar))
    }

    fn notice(&self, line: &str) {
        if self.quiet {
            return;
        }
        if self.bars {
            stack().suspend(|| self.line(line));
        } else {
            self.line(line);
        }
    }

    fn tracing(&self) -> bool {
        self.tracing
    }

    fn trace(&self, line: &str) {
        if self.tracing {
            self.line(line);
        }
    }
}

/// A progress bar on stderr.
struct Bar(ProgressBar);

impl Meter for Bar {
    fn inc(&self, steps: u64) {
        self.0.inc(steps);
    }

    fn set_position(&self, steps: u64) {
        self.0.set_position(steps);
    }

    fn message(&self, text: String) {
        self.0.set_message(text);
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }

    fn abandon(&self) {
        self.0.abandon();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    /// A buffer the test keeps a handle on while the observer writes into it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    /// What an engine reports during a sweep that goes to disk: a meter, a notice, a
    /// trace line per layer.
    fn sweep(observer: &dyn Observer) {
        let meter = observer.meter(14, "jumps");
        observer.notice("pegsol: layers kept on disk in W/english_from_d4");
        for layer in 1..=2 {
            meter.message(format!("layer {layer}"));
            meter.inc(1);
            if observer.tracing() {
                observer.trace(&format!("layer {layer}: 4 entries"));
            }
        }
        meter.finish();
    }

    #[test]
    fn quiet_without_tracing_writes_nothing() {
        let sink = Shared::default();
        sweep(&Terminal::new(sink.clone(), true, false));
        assert_eq!(sink.text(), "");
    }

    #[test]
    fn quiet_with_tracing_writes_the_trace_lines_only() {
        let sink = Shared::default();
        sweep(&Terminal::new(sink.clone(), true, true));
        assert_eq!(sink.text(), "layer 1: 4 entries\nlayer 2: 4 entries\n");
    }

    #[test]
    fn notices_and_trace_lines_in_order() {
        let sink = Shared::default();
        sweep(&Terminal::new(sink.clone(), false, true));
        assert_eq!(
            sink.text(),
            "pegsol: layers kept on disk in W/english_from_d4\n\
             layer 1: 4 entries\nlayer 2: 4 entries\n"
        );
        let sink = Shared::default();
        sweep(&Terminal::new(sink.clone(), false, false));
        assert_eq!(
            sink.text(),
            "pegsol: layers kept on disk in W/english_from_d4\n"
        );
    }

    #[test]
    fn trace_rule() {
        assert!(trace_wanted(Some(OsStr::new("1"))) && trace_wanted(Some(OsStr::new("yes"))));
        assert!(!trace_wanted(Some(OsStr::new("0"))) && !trace_wanted(Some(OsStr::new(""))));
        assert!(!trace_wanted(None));
    }

    #[test]
    fn a_bar_that_is_not_drawn_is_silent() {
        // A sink that is not a terminal draws no bar: the meter is a silent one.
        let sink = Shared::default();
        let t = Terminal::new(sink.clone(), false, false);
        let m = t.meter(3, "jumps");
        m.set_position(2);
        m.abandon();
        assert_eq!(sink.text(), "");
    }
}
