//! `pegsol solvable`: the positions from which a win is still possible, per jump.

use super::args::{RunArgs, StartArgs};
use super::{print, timing};
use crate::analysis::solvable;
use crate::error::Result;
use crate::output::files;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, Args)]
pub(super) struct SolvableArgs {
    #[command(flatten)]
    start: StartArgs,
    /// Where the last peg must stand (a hole name, or `any`). Default: any hole.
    #[arg(long, value_name = "CELL")]
    finish: Option<String>,
    /// Write solvable.csv into DIR (created if missing; replaced atomically). Its reachable
    /// columns are empty without --reachable.
    #[arg(long, value_name = "DIR")]
    csv: Option<PathBuf>,
    /// Also count every reachable position, per jump and up to symmetry. This needs a full
    /// forward sweep of the reachable positions (english centre: about 14 times the
    /// solvable set); without it the solvable set is found by meeting in the middle and the
    /// reachable counts are left out.
    #[arg(long)]
    reachable: bool,
    /// Also print the quickest loss: the fewest jumps after which no win (ending as
    /// --finish asks) is possible any more, and the jump sequences that get there while
    /// every position before could still win (0 jumps where the start has no win).
    #[arg(long)]
    quickest_loss: bool,
    #[command(flatten)]
    pub(super) run: RunArgs,
}

/// Runs the command.
pub(super) fn run(args: SolvableArgs) -> Result<i32> {
    crate::memory::keep_freed_heap();
    let (board, start) = args.start.resolve()?;
    let finish = solvable::Finish::parse(&board, args.finish.as_deref())?;
    if let Some(dir) = &args.csv {
        files::prepare_files(dir, &["solvable.csv"])?;
    }
    let opts = solvable::SolveOptions {
        threads: args.run.threads,
        max_memory: args.run.max_memory(),
        progress: !args.run.quiet,
        reachable: args.reachable,
        cancel: None,
    };
    let clock = Instant::now();
    let result = solvable::solvable(&board, start, finish, &opts)?;
    let secs = clock.elapsed().as_secs_f64();
    if let Some(dir) = &args.csv {
        let bytes = solvable::csv_file(std::slice::from_ref(&result))?;
        files::write_atomically(dir, &[("solvable.csv", bytes)])?;
    }
    let quick = if args.quickest_loss {
        let q = crate::count::random::quickest_loss(&board, start, finish, &opts)?;
        Some(q.line())
    } else {
        None
    };
    print(&solvable::summary_text(&result));
    if let Some(line) = quick {
        print(&format!("{line}\n"));
    }
    print(&timing(secs, args.run.threads));
    Ok(0)
}
