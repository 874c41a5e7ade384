//! `pegsol extremes`: the shortest game, which leaves the most pegs at a dead end.

use super::args::{DiskArgs, RunArgs, StartArgs};
use super::show::{ShowArgs, emit};
use crate::count::sweep::CountOptions;
use crate::error::Result;
use crate::games::extremes::shortest_dead_end;
use clap::Args;
use std::time::Instant;
use thousands::Separable;

/// `pegsol extremes`.
#[derive(Debug, Args)]
pub(super) struct ExtremesArgs {
    #[command(flatten)]
    start: StartArgs,
    #[command(flatten)]
    show: ShowArgs,
    // As `count`'s: the answer, the example game included, is the same for any `--threads`.
    #[command(flatten)]
    pub(super) run: RunArgs,
    #[command(flatten)]
    disk: DiskArgs,
}

/// Runs the command.
pub(super) fn run(args: ExtremesArgs) -> Result<i32> {
    let (board, start) = args.start.resolve()?;
    let clock = Instant::now();
    let opts = CountOptions {
        threads: args.run.threads,
        max_memory: args.run.max_memory(),
        progress: !args.run.quiet,
        work_dir: args.disk.work_dir.clone(),
        keep_work: args.disk.keep_work,
        max_disk: args.disk.max_disk,
        ..CountOptions::default()
    };
    let x = shortest_dead_end(&board, start, &opts)?;
    let secs = clock.elapsed().as_secs_f64();
    let header = format!(
        "# {} from {} ({} pegs), {secs:.2} s\n\
         # shortest game (Fool's solitaire): {} jumps, {} games\n\
         # most pegs left at a dead end: {} pegs, {} games\n\
         # (the same games: every jump removes one peg, so the fewest jumps leave the most \
         pegs; the example below is one of them, ending in one of {} dead-end positions)\n",
        board.name(),
        board.start_name(start),
        x.start_pegs,
        x.jumps,
        x.games.separate_with_commas(),
        x.most_pegs_left(),
        x.games.separate_with_commas(),
        x.dead_ends.separate_with_commas()
    );
    let title = format!("{}: shortest game", board.name());
    emit(&board, start, &x.example, &args.show, &title, &header)?;
    Ok(0)
}
