//! What the game-finding commands (`solve`, `reach`, `extremes`) share: the options of a
//! printed game and the printing itself. Each prints a game in the format of
//! [`crate::games::notation`] (so `pegsol check` can read it back), comments starting with
//! `#` for everything else, and exits 1 when the answer is "no such game" (after a search
//! that proves it).

use super::print;
use crate::error::{Error, Result};
use crate::games::notation;
use crate::geometry::board::{Board, Jump, Pegs};
use crate::memory;
use clap::Args;
use std::path::PathBuf;

/// Options shared by the commands that print a game.
#[derive(Debug, Args)]
pub(super) struct ShowArgs {
    /// Draw the board after each move.
    #[arg(long)]
    pub(super) show: bool,
    /// Write an animated SVG of the game (one frame per move) to FILE.
    #[arg(long, value_name = "FILE", value_parser = super::args::parse_file)]
    pub(super) svg: Option<PathBuf>,
}

/// The memory limit of the searches of `solve` and `reach` (`extremes` sweeps, and takes
/// `count`'s options instead).
#[derive(Debug, Args)]
pub(super) struct SearchArgs {
    /// Keep the search tables within SIZE (e.g. 8G). The table of hopeless positions, once
    /// full, forgets some (slower, the same answer); the tables that must hold every
    /// position (`--min-moves`, `reach --count`) give up with exit code 2 instead.
    /// Default: 80% of the memory available to the process (free memory, within its
    /// cgroup's limit and ulimit -v).
    #[arg(long, value_name = "SIZE", value_parser = super::args::parse_budget)]
    pub(super) max_memory: Option<u64>,
}

impl SearchArgs {
    pub(super) fn budget(&self) -> u64 {
        self.max_memory.unwrap_or_else(memory::default_budget)
    }
}

/// Writes the game's SVG, then prints `header`, the game and its final position.
pub(super) fn emit(
    board: &Board,
    start: Pegs,
    jumps: &[Jump],
    show: &ShowArgs,
    title: &str,
    header: &str,
) -> Result<()> {
    let mut text = header.to_string();
    text.push_str(&notation::write_game(board, start, jumps, show.show));
    let end = notation::replay(board, start, jumps)
        .map_err(|e| Error::input(format!("internal error, illegal game: {}", e.reason)))?;
    text.push_str(&format!(
        "# final position: {} peg{} ({}), {}\n",
        end.count_ones(),
        if end.count_ones() == 1 { "" } else { "s" },
        notation::peg_names(board, end),
        notation::picture(board, end)
    ));
    if let Some(path) = &show.svg {
        let svg = crate::games::animation::animation(board, start, jumps, title);
        crate::output::files::write_file_atomically(path, svg.as_bytes())?;
        text.push_str(&format!("# animation written to {}\n", path.display()));
    }
    print(&text);
    Ok(())
}

/// "N jumps in M moves".
pub(super) fn summary(jumps: &[Jump]) -> String {
    format!(
        "{} jumps in {} moves",
        jumps.len(),
        notation::count_moves(jumps)
    )
}
