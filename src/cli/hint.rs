//! `pegsol hint`: the jumps from a position that keep it winnable.

use super::args::RunArgs;
use super::print;
use crate::analysis::solvable;
use crate::error::Result;
use crate::geometry::board::Board;
use clap::Args;

#[derive(Debug, Args)]
pub(super) struct HintArgs {
    /// Board: tri:N, line:L, english, french, wiegleb, or a board file.
    #[arg(long, short, default_value = "tri:5", value_name = "SPEC")]
    board: String,
    /// The position: a picture with rows joined by `/` (o peg, . empty, space or - no hole),
    /// or the empty holes joined by `+`.
    #[arg(long, short, value_name = "POSITION")]
    position: String,
    /// Where the last peg must stand (a hole name, or `any`). Default: any hole.
    #[arg(long, value_name = "CELL")]
    finish: Option<String>,
    #[command(flatten)]
    run: RunArgs,
}

/// Runs the command.
pub(super) fn run(args: HintArgs) -> Result<i32> {
    let board = Board::from_spec(&args.board)?;
    let position = board.parse_position(&args.position)?;
    let finish = solvable::Finish::parse(&board, args.finish.as_deref())?;
    let opts = solvable::SolveOptions {
        threads: args.run.threads,
        max_memory: args.run.max_memory(),
        progress: !args.run.quiet,
        reachable: false,
    };
    let h = solvable::hint(&board, position, finish, &opts)?;
    print(&solvable::hint_text(&board, position, finish, &h));
    Ok(0)
}
