//! `pegsol check`: replays a game file and reports whether every jump is legal.

use super::print;
use super::show::summary;
use crate::error::{Error, Result};
use crate::games::notation;
use crate::geometry::board::{Board, is_builtin};
use crate::input;
use clap::Args;
use std::path::{Path, PathBuf};

/// `pegsol check`.
#[derive(Debug, Args)]
pub(super) struct CheckArgs {
    /// Board. Default: the file's `board:` line.
    #[arg(long, short, value_name = "SPEC")]
    board: Option<String>,
    /// An empty hole at the start (repeatable). Default: the file's `start:` line, else the
    /// board's default start.
    #[arg(long = "hole", value_name = "CELL")]
    holes: Vec<String>,
    /// Draw the board after each move.
    #[arg(long)]
    show: bool,
    /// The game file ('-' for standard input).
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

/// Runs the command.
pub(super) fn run(args: CheckArgs) -> Result<i32> {
    let text = if args.file.as_os_str() == "-" {
        input::read_text(std::io::stdin(), "standard input")?
    } else {
        input::read_text_file(&args.file, "")?
    };
    let parts = notation::split_game_text(&text)?;
    let spec = match (&args.board, &parts.board) {
        (Some(spec), _) => spec.clone(),
        (None, Some(spec)) => board_beside(spec, &args.file),
        (None, None) => {
            return Err(Error::input(
                "no board: give --board or a 'board:' line in the file",
            ));
        }
    };
    let board = Board::from_spec(&spec)?;
    let start = if !args.holes.is_empty() {
        board.start_from_names(&args.holes)?
    } else if let Some(s) = &parts.start {
        board.parse_position(s)?
    } else {
        board.default_start()
    };
    let jumps = notation::parse_jumps(&board, &parts.moves)?;
    match notation::replay(&board, start, &jumps) {
        Ok(end) => {
            let mut out = format!(
                "legal: {} on {} from {}\n",
                summary(&jumps),
                board.name(),
                board.start_name(start)
            );
            if args.show {
                out.push_str(&notation::write_game(&board, start, &jumps, true));
            }
            out.push_str(&format!(
                "final position: {} peg{} ({})\n{}{}\n",
                end.count_ones(),
                if end.count_ones() == 1 { "" } else { "s" },
                notation::peg_names(&board, end),
                board.draw_position(end),
                if notation::is_dead_end(&board, end) {
                    "no jump is left (dead end)"
                } else {
                    "jumps are still possible"
                }
            ));
            print(&out);
            Ok(0)
        }
        Err(bad) => {
            print(&format!("illegal: {}\n", bad.reason));
            Ok(1)
        }
    }
}

/// The board of a game file's `board:` line: a board file's relative path is looked up
/// from the current directory (where `solve` was run to write it), then, when nothing is
/// there, from the game file's folder, so that a game kept beside its board file is read
/// from anywhere; for a game reached through a symbolic link, from the link's folder,
/// then the folder of the file it leads to.
fn board_beside(spec: &str, game: &Path) -> String {
    let path = Path::new(spec);
    if game.as_os_str() == "-" || path.is_absolute() || path.exists() || is_builtin(spec) {
        return spec.to_string();
    }
    let resolved = std::fs::canonicalize(game).ok();
    [game.parent(), resolved.as_deref().and_then(Path::parent)]
        .into_iter()
        .flatten()
        .map(|folder| folder.join(path))
        .find(|p| p.exists())
        .map_or_else(|| spec.to_string(), |p| p.display().to_string())
}
