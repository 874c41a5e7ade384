//! `pegsol reach`: a jump sequence from one position to another, or a proof there is none.

use super::print;
use super::show::{SearchArgs, ShowArgs, emit, summary};
use crate::error::Result;
use crate::games::notation;
use crate::games::solve::{Goal, Outcome, count_sequences_within, search};
use crate::geometry::board::Board;
use clap::Args;
use std::time::Instant;

/// `pegsol reach`.
#[derive(Debug, Args)]
pub(super) struct ReachArgs {
    /// Board: tri:N, line:L, english, french, wiegleb, or a board file.
    #[arg(long, short, default_value = "tri:5", value_name = "SPEC")]
    board: String,
    /// The start position: a picture with rows joined by '/' (o peg, . empty), or its empty
    /// holes joined by '+'. Default: the board's default start.
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    from: Option<String>,
    /// The position to reach, written the same way.
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    to: String,
    /// Also count the jump sequences from the start to the goal (exact).
    #[arg(long)]
    count: bool,
    #[command(flatten)]
    show: ShowArgs,
    #[command(flatten)]
    memory: SearchArgs,
}

/// Runs the command.
pub(super) fn run(args: ReachArgs) -> Result<i32> {
    let board = Board::from_spec(&args.board)?;
    let from = match &args.from {
        Some(p) => board.parse_position(p)?,
        None => board.default_start(),
    };
    let to = board.parse_position(&args.to)?;
    let clock = Instant::now();
    // A jump removes one peg, so the goal is that many jumps away, if it has fewer pegs.
    let jumps_needed = match from.count_ones().checked_sub(to.count_ones()) {
        Some(n) => format!("{n} jumps"),
        None => "the goal has more pegs".to_string(),
    };
    let s = search(&board, from, Goal::Position(to), args.memory.budget())?;
    let header = format!(
        "# {}: from {} to {} ({} pegs to {}: {})\n",
        board.name(),
        notation::picture(&board, from),
        notation::picture(&board, to),
        from.count_ones(),
        to.count_ones(),
        jumps_needed
    );
    let count_line = if args.count {
        let n = count_sequences_within(&board, from, to, args.memory.budget())?;
        format!("# jump sequences from the start to the goal: {n}\n")
    } else {
        String::new()
    };
    let secs = clock.elapsed().as_secs_f64();
    match s.outcome {
        Outcome::Found(jumps) => {
            let header = format!(
                "{header}# reachable: {} ({secs:.3} s)\n{count_line}",
                summary(&jumps)
            );
            emit(&board, from, &jumps, &args.show, "reach", &header)?;
            Ok(0)
        }
        Outcome::Impossible(why) => {
            print(&format!(
                "{header}unreachable: no sequence of jumps leads from the start to the goal.\n\
                 proof: {why} ({secs:.3} s)\n{count_line}"
            ));
            Ok(1)
        }
    }
}
