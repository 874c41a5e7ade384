//! `pegsol play`: an interactive board in the terminal, with the exact wins beside every
//! jump. The model (the game, the counts in the background) is [`crate::play`]; here are
//! the arguments, the terminal and its events (`app`), and the drawing (`view`).

mod app;
mod terminal;
#[cfg(test)]
mod tests;
mod view;

use crate::analysis::solvable::{Finish, SolveOptions};
use crate::error::{Error, Result};
use crate::geometry::board::Board;
use crate::play::{Counter, Game};
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;

/// `pegsol play`.
#[derive(Debug, Args)]
pub(super) struct PlayArgs {
    /// Board: tri:N, line:L, english, french, wiegleb, or a board file. Default: the game
    /// file's `board:` line, else tri:5.
    #[arg(long, short, value_name = "SPEC")]
    board: Option<String>,
    /// An empty hole at the start (repeatable). Default: the game file's `start:` line,
    /// else the board's default start.
    #[arg(long = "hole", value_name = "CELL", conflicts_with = "position")]
    holes: Vec<String>,
    /// Start from this position: a picture with rows joined by `/` (o peg, . empty, - no
    /// hole), or the empty holes joined by `+`.
    #[arg(long, short, value_name = "POSITION")]
    position: Option<String>,
    /// Count the wins that end on CELL (a hole name, or `any`). Default: any hole.
    #[arg(long, value_name = "CELL")]
    finish: Option<String>,
    /// When the player quits, write the game played as an animated SVG (as `solve --svg`).
    #[arg(long, value_name = "FILE", value_parser = super::args::parse_file)]
    svg: Option<PathBuf>,
    /// Worker threads of the counts (0 = one per core, at most 1024).
    #[arg(long, short = 'j', default_value_t = 0, value_parser = super::args::parse_threads)]
    threads: usize,
    /// Keep the counts within SIZE (e.g. 2G); a board whose counts need more is played
    /// without them. Default: 80% of the memory available to the process.
    #[arg(long, value_name = "SIZE", value_parser = super::args::parse_budget)]
    max_memory: Option<u64>,
    /// A game file to go on from (as `pegsol check` reads it): its board, its start and
    /// its moves, which undo takes back.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

/// Runs the command.
pub(super) fn run(args: PlayArgs) -> Result<i32> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(Error::input(
            "pegsol play needs a terminal: standard input and standard output must not be \
             redirected",
        ));
    }
    let game = resolve(&args)?;
    let finish = Finish::parse(game.board(), args.finish.as_deref())?;
    let opts = SolveOptions {
        threads: args.threads,
        max_memory: args
            .max_memory
            .unwrap_or_else(crate::memory::default_budget),
        progress: false,
        reachable: false,
        cancel: None,
    };
    let counter = Counter::start(game.board(), game.start(), finish, opts, true);
    let mut app = app::App::new(game, counter, finish);
    let outcome = terminal::play(&mut app);
    app.counter.finish();
    outcome?;
    let game = app.game();
    if let Some(path) = &args.svg {
        crate::output::files::write_file_atomically(path, game.svg().as_bytes())?;
    }
    let end = game.position();
    super::print(&format!(
        "{}# {} pegs left{}\n",
        game.game_text(),
        end.count_ones(),
        args.svg.as_ref().map_or(String::new(), |p| format!(
            "; animation written to {}",
            p.display()
        ))
    ));
    Ok(0)
}

/// The game to start with: the board and start of the options or of the game file, and
/// the file's moves.
fn resolve(args: &PlayArgs) -> Result<Game> {
    let parts = match &args.file {
        Some(path) => Some(crate::games::notation::split_game_text(
            &crate::input::read_text_file(path, "")?,
        )?),
        None => None,
    };
    let file_board = parts.as_ref().and_then(|p| p.board.clone());
    let spec = args.board.clone().or(file_board).unwrap_or("tri:5".into());
    let board = Board::from_spec(&spec)?;
    let start = if let Some(p) = &args.position {
        board.parse_position(p)?
    } else if !args.holes.is_empty() {
        board.start_from_names(&args.holes)?
    } else if let Some(s) = parts.as_ref().and_then(|p| p.start.as_ref()) {
        board.parse_position(s)?
    } else {
        board.default_start()
    };
    match parts {
        Some(p) => Game::replayed(board, start, &p.moves),
        None => Ok(Game::new(board, Some(start))),
    }
}
