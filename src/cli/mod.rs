//! The command line. clap parses the arguments into validated options; each command, one
//! file here with its arguments next to its handler, calls the library and hands the result
//! to an exporter. `main` only maps the outcome to an exit code.

mod args;
mod board;
mod check;
mod completions;
mod count;
mod extremes;
mod hint;
mod line;
mod observe;
mod play;
mod process;
pub use process::{check_stdout_at_start, mark_stdout_closed};
mod reach;
mod report;
mod show;
mod solvable;
mod solve;
mod table;

use crate::error::{Error, Result};
use crate::memory;
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;
use std::sync::Mutex;

/// Exhaustive peg solitaire: exact counts of games, wins and end states.
#[derive(Debug, Parser)]
#[command(name = "pegsol", version, about, arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count every game from a start: positions, games, wins, pegs left, finishing holes.
    Count(count::CountArgs),
    /// Show a board: hole names, number of holes and jumps, symmetry group, start.
    Board(board::BoardArgs),
    /// Reachable positions from which a win is still possible, per number of jumps.
    Solvable(solvable::SolvableArgs),
    /// The jumps from a position that keep it winnable, with their winning continuations.
    Hint(hint::HintArgs),
    /// One-dimensional solitaire on an unbounded strip: solvable configurations, reductions.
    Line(line::LineArgs),
    /// Find one winning game (or prove there is none); --min-moves for the fewest moves.
    Solve(solve::SolveArgs),
    /// Find a jump sequence from one position to another, or prove there is none.
    Reach(reach::ReachArgs),
    /// The shortest game ending in a dead end, and the game leaving the most pegs.
    Extremes(extremes::ExtremesArgs),
    /// Check a game written in jump notation: every jump legal; report the final position.
    Check(check::CheckArgs),
    /// Play on an interactive board, with the exact wins beside every jump.
    Play(play::PlayArgs),
    /// Count every start class of one or more boards into one table (resumable).
    Table(table::TableArgs),
    /// Compare boards of a table and draw its pictures (SVG), from the files in DIR.
    Report(report::ReportArgs),
    /// Print a shell completion script (bash, elvish, fish, powershell, zsh).
    Completions(completions::CompletionsArgs),
    /// Print the man page, or write every page into a directory (--dir).
    Man(completions::ManArgs),
}

/// Parses `args` and runs the command; returns the exit code on success.
///
/// ```
/// assert_eq!(pegsol::cli::run(["pegsol", "board", "tri:5"]).unwrap(), 0);
/// assert_eq!(pegsol::cli::run(["pegsol", "board", "--board", "tri:5"]).unwrap(), 0);
/// let err = pegsol::cli::run(["pegsol", "count", "--board", "tri:99"]).unwrap_err();
/// assert_eq!(err.to_string(), "board 'tri:99': size must be a whole number from 3 to 15");
/// assert_eq!(err.exit_code(), 2); // bad input
/// ```
pub fn run<I, T>(args: I) -> Result<i32>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    process::prepare();
    crate::memory::unmap_freed_blocks();
    crate::memory::one_arena_under_address_limit();
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let outcome = run_command(args);
    // A command whose output could not be written failed, whatever it computed.
    let failed = STDOUT_ERROR
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take();
    let outcome = match (outcome, failed) {
        (Ok(_), Some(e)) => Err(Error::input(format!(
            "cannot write to standard output: {e}"
        ))),
        (outcome, _) => outcome,
    };
    // A run that failed, was refused or interrupted leaves no empty output directory.
    if !matches!(outcome, Ok(0)) {
        crate::output::files::remove_created_dirs();
    }
    outcome
}

/// [`run`], its output not yet checked.
fn run_command(args: Vec<OsString>) -> Result<i32> {
    let command_line: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind::*;
            return match e.kind() {
                DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand => {
                    print(&e.to_string());
                    Ok(0)
                }
                _ => {
                    // clap's first paragraph, on one line: the missing arguments follow
                    // their heading on lines of their own.
                    let text = e.to_string();
                    let first: Vec<&str> = text
                        .lines()
                        .take_while(|l| !l.trim().is_empty())
                        .map(str::trim)
                        .collect();
                    let line = first.join(" ");
                    let line = line.trim_start_matches("error: ");
                    Err(Error::input(if line.is_empty() {
                        "invalid arguments".to_string()
                    } else {
                        line.to_string()
                    }))
                }
            };
        }
    };
    observe::install(cli.command.quiet());
    match cli.command {
        Command::Count(args) => count::run(args),
        Command::Board(args) => board::run(args),
        Command::Solvable(args) => solvable::run(args),
        Command::Hint(args) => hint::run(args),
        Command::Line(args) => line::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Reach(args) => reach::run(args),
        Command::Extremes(args) => extremes::run(args),
        Command::Check(args) => check::run(args),
        Command::Play(args) => play::run(args),
        Command::Table(args) => table::run(args, &command_line),
        Command::Report(args) => report::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => completions::man(args),
    }
}

/// The first failed write to stdout other than a closed pipe, which [`run`] turns into
/// the command's error when it ends.
impl Command {
    /// `--quiet`, in the commands that have it: no progress bar and no notice.
    fn quiet(&self) -> bool {
        match self {
            Command::Count(a) => a.run.quiet,
            Command::Solvable(a) => a.run.quiet,
            Command::Hint(a) => a.run.quiet,
            Command::Extremes(a) => a.run.quiet,
            Command::Table(a) => a.run.quiet,
            Command::Solve(a) => a.quiet,
            _ => false,
        }
    }
}

static STDOUT_ERROR: Mutex<Option<String>> = Mutex::new(None);

/// Writes to stdout. A closed pipe (`pegsol count | head`) is ignored: the reader has all
/// it wanted, and each later write fails the same way, without a message. Any other
/// failure (a full disk, a file size limit, a standard output closed from the start)
/// fails the command once it ends: one line, exit code 2.
pub(crate) fn print(text: &str) {
    if process::stdout_closed() {
        STDOUT_ERROR
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert_with(|| "it is closed".to_string());
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        STDOUT_ERROR
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert_with(|| crate::output::files::io_text(&e));
    }
}

/// The closing line of a sweep: wall time, peak memory, threads.
fn timing(secs: f64, threads: usize) -> String {
    let threads = crate::pool::threads(threads);
    format!(
        "wall time {secs:.2} s, peak memory {}, {threads} thread{}\n",
        memory::peak_rss().map_or("unknown".into(), memory::human),
        if threads == 1 { "" } else { "s" }
    )
}
