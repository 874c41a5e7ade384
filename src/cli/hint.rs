//! `pegsol hint`: the jumps from a position that keep it winnable.

use super::args::RunArgs;
use super::print;
use crate::analysis::solvable;
use crate::error::{Error, Result};
use crate::geometry::board::Board;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct HintArgs {
    /// Board: tri:N, line:L, english, french, wiegleb, or a board file.
    #[arg(long, short, default_value = "tri:5", value_name = "SPEC")]
    board: String,
    /// The position: a picture with rows joined by `/` (o peg, . empty, space or - no hole),
    /// or the empty holes joined by `+` or `,`.
    #[arg(long, short, value_name = "POSITION")]
    position: String,
    /// Where the last peg must stand (a hole name, or `any`). Default: any hole.
    #[arg(long, value_name = "CELL")]
    finish: Option<String>,
    /// Keep the solvable set in FILE: read it when FILE exists (refused, exit 2, when it
    /// belongs to another board or finish), else compute it from this position and write
    /// it. Every later position of the same game is then answered from the file at once.
    #[arg(long, value_name = "FILE", value_parser = super::args::parse_file)]
    cache: Option<PathBuf>,
    #[command(flatten)]
    pub(super) run: RunArgs,
}

/// Runs the command.
pub(super) fn run(args: HintArgs) -> Result<i32> {
    crate::memory::keep_freed_heap();
    let board = Board::from_spec(&args.board)?;
    let position = board.parse_position(&args.position)?;
    let finish = solvable::Finish::parse(&board, args.finish.as_deref())?;
    let opts = solvable::SolveOptions {
        threads: args.run.threads,
        max_memory: args.run.max_memory(),
        progress: !args.run.quiet,
        reachable: false,
        cancel: None,
    };
    let h = match &args.cache {
        None => solvable::hint(&board, position, finish, &opts)?,
        Some(path) => {
            let cache = if path.exists() {
                solvable::HintCache::read(path, &board, finish, opts.max_memory)?
            } else {
                let cache = solvable::HintCache::build(&board, position, finish, &opts)?;
                cache.write(path)?;
                cache
            };
            match cache.hint(&board, position) {
                Some(h) if !h.adds_up() => {
                    return Err(Error::input(format!(
                        "hint cache {} is damaged: the winning sequences of this position do \
                         not add up over its jumps; delete it to build it again",
                        path.display()
                    )));
                }
                Some(h) => h,
                // Not a solvable position reachable from the cache's start: ask directly.
                None => solvable::hint(&board, position, finish, &opts)?,
            }
        }
    };
    print(&solvable::hint_text(&board, position, finish, &h));
    Ok(0)
}
