//! `pegsol board`: a board drawn with its hole names, jumps, symmetry group and start.

use super::args::StartArgs;
use super::print;
use crate::error::Result;
use clap::Args;

#[derive(Debug, Args)]
pub(super) struct BoardArgs {
    /// Board: tri:N, line:L, english, french, wiegleb, or a board file. Default: tri:5.
    #[arg(value_name = "SPEC", conflicts_with = "board")]
    spec: Option<String>,
    /// The board as the other commands take it: the same as SPEC.
    #[arg(long, short, value_name = "SPEC")]
    board: Option<String>,
    /// An empty hole at the start (repeatable).
    #[arg(long = "hole", value_name = "CELL")]
    holes: Vec<String>,
}

/// Runs the command.
pub(super) fn run(args: BoardArgs) -> Result<i32> {
    let start = StartArgs {
        board: args.spec.or(args.board).unwrap_or_else(|| "tri:5".into()),
        holes: args.holes,
    };
    let (board, start) = start.resolve()?;
    print(&format!(
        "{}: {} holes, {} jumps, {} lattice, symmetry group of order {}\n\n{}\nstart ({} empty):\n{}",
        board.name(),
        board.holes(),
        board.jumps().len(),
        board.lattice().name(),
        board.symmetries().len(),
        board.draw_names(),
        board.start_name(start),
        board.draw_position(start),
    ));
    Ok(0)
}
