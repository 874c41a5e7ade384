//! The game-finding commands: `solve`, `reach`, `extremes` and `check`.
//!
//! Each prints a game in the format of [`crate::game`] (so `pegsol check` can read it back),
//! comments starting with `#` for everything else, and exits 1 when the answer is "no such
//! game" (after a search that proves it).

use crate::board::{Board, Jump, Pegs};
use crate::cli::{StartArgs, print};
use crate::error::{Error, Result};
use crate::extremes::shortest_dead_end;
use crate::game;
use crate::memory;
use crate::minmoves::{Ends, min_moves};
use crate::solve::{Goal, Outcome, count_sequences_within, search};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;
use thousands::Separable;

/// Options shared by the commands that print a game.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Draw the board after each move.
    #[arg(long)]
    show: bool,
    /// Write an animated SVG of the game (one frame per move) to FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Give up with exit code 2 rather than let the search tables grow past SIZE (e.g. 8G).
    /// Default: 80% of the memory available.
    #[arg(long, value_name = "SIZE", value_parser = memory::parse)]
    max_memory: Option<u64>,
}

impl ShowArgs {
    fn budget(&self) -> u64 {
        self.max_memory.unwrap_or_else(memory::default_budget)
    }
}

/// `pegsol solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    start: StartArgs,
    /// The hole the last peg must finish in. Default: anywhere.
    #[arg(long, value_name = "CELL")]
    finish: Option<String>,
    /// Find a solution with the fewest moves (a move is a run of jumps by one peg).
    #[arg(long)]
    min_moves: bool,
    /// With --min-moves: the best over every single-vacancy start (ignores --hole).
    #[arg(long, requires = "min_moves")]
    all_starts: bool,
    /// With --min-moves: worker threads (0 = one per core). The answer is the same for
    /// every value.
    #[arg(long, short = 'j', default_value_t = 0, requires = "min_moves")]
    threads: usize,
    #[command(flatten)]
    show: ShowArgs,
}

/// `pegsol reach`.
#[derive(Debug, Args)]
pub struct ReachArgs {
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
}

/// `pegsol extremes`.
#[derive(Debug, Args)]
pub struct ExtremesArgs {
    #[command(flatten)]
    start: StartArgs,
    #[command(flatten)]
    show: ShowArgs,
}

/// `pegsol check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
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

/// Writes the game's SVG, then prints `header`, the game and its final position.
fn emit(
    board: &Board,
    start: Pegs,
    jumps: &[Jump],
    show: &ShowArgs,
    title: &str,
    header: &str,
) -> Result<()> {
    let mut text = header.to_string();
    text.push_str(&game::write_game(board, start, jumps, show.show));
    let end = game::replay(board, start, jumps)
        .map_err(|e| Error::input(format!("internal error, illegal game: {}", e.reason)))?;
    text.push_str(&format!(
        "# final position: {} peg{} ({}), {}\n",
        end.count_ones(),
        if end.count_ones() == 1 { "" } else { "s" },
        game::peg_names(board, end),
        game::picture(board, end)
    ));
    if let Some(path) = &show.svg {
        let svg = crate::svg::animation(board, start, jumps, title);
        std::fs::write(path, svg)
            .map_err(|e| Error::input(format!("cannot write {}: {e}", path.display())))?;
        text.push_str(&format!("# animation written to {}\n", path.display()));
    }
    print(&text);
    Ok(())
}

fn summary(jumps: &[Jump]) -> String {
    format!(
        "{} jumps in {} moves",
        jumps.len(),
        game::count_moves(jumps)
    )
}

/// Runs `pegsol solve`.
pub fn solve(args: SolveArgs) -> Result<i32> {
    let (board, start) = args.start.resolve()?;
    let finish = args.finish.as_deref().map(|f| board.hole(f)).transpose()?;
    let finish_text = finish.map_or("anywhere".to_string(), |h| board.hole_name(h));
    let clock = Instant::now();
    if args.min_moves {
        let from = (!args.all_starts).then_some(start);
        let ends = finish.map_or(Ends::Any, Ends::Hole);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build()
            .map_err(|e| Error::input(format!("cannot start the worker threads: {e}")))?;
        let r = pool.install(|| min_moves(&board, from, ends, args.show.budget()))?;
        let secs = clock.elapsed().as_secs_f64();
        let from_text = if args.all_starts {
            "any single vacancy".to_string()
        } else {
            board.start_name(start)
        };
        return match r.best {
            Some((moves, start, jumps)) => {
                let header = format!(
                    "# {}: fewest moves from {from_text} to one peg {finish_text}: {moves}\n\
                     # proved by a {} in {secs:.2} s\n\
                     # this game: {}\n",
                    board.name(),
                    r.proof,
                    summary(&jumps)
                );
                let title = format!("{} in {moves} moves", board.name());
                emit(&board, start, &jumps, &args.show, &title, &header)?;
                Ok(0)
            }
            None => {
                print(&format!(
                    "no solution: {} from {from_text} to one peg {finish_text}.\n\
                     proof: {} ({secs:.2} s)\n",
                    board.name(),
                    r.proof
                ));
                Ok(1)
            }
        };
    }
    let goal = match finish {
        Some(h) => Goal::OnePeg(crate::board::bit(h)),
        None => Goal::one_peg_anywhere(&board),
    };
    let s = search(&board, start, goal, args.show.budget())?;
    let secs = clock.elapsed().as_secs_f64();
    let start_text = board.start_name(start);
    match s.outcome {
        Outcome::Found(jumps) => {
            let header = format!(
                "# {}: a solution from {start_text} to one peg {finish_text}: {} \
                 ({} positions expanded, {secs:.2} s)\n",
                board.name(),
                summary(&jumps),
                s.nodes.separate_with_commas()
            );
            let title = format!("{} from {start_text}", board.name());
            emit(&board, start, &jumps, &args.show, &title, &header)?;
            Ok(0)
        }
        Outcome::Impossible(why) => {
            print(&format!(
                "no solution: {} from {start_text} cannot finish with one peg {finish_text}.\n\
                 proof: {why} ({secs:.2} s)\n",
                board.name()
            ));
            Ok(1)
        }
    }
}

/// Runs `pegsol reach`.
pub fn reach(args: ReachArgs) -> Result<i32> {
    let board = Board::from_spec(&args.board)?;
    let from = match &args.from {
        Some(p) => board.parse_position(p)?,
        None => board.default_start(),
    };
    let to = board.parse_position(&args.to)?;
    let clock = Instant::now();
    let jumps_needed = from.count_ones() as i64 - to.count_ones() as i64;
    let s = search(&board, from, Goal::Position(to), args.show.budget())?;
    let header = format!(
        "# {}: from {} to {} ({} pegs to {}: {} jumps)\n",
        board.name(),
        game::picture(&board, from),
        game::picture(&board, to),
        from.count_ones(),
        to.count_ones(),
        jumps_needed
    );
    let count_line = if args.count {
        let n = count_sequences_within(&board, from, to, args.show.budget())?;
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

/// Runs `pegsol extremes`.
pub fn extremes(args: ExtremesArgs) -> Result<i32> {
    let (board, start) = args.start.resolve()?;
    let clock = Instant::now();
    let x = shortest_dead_end(&board, start, args.show.budget())?;
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

/// Runs `pegsol check`.
pub fn check(args: CheckArgs) -> Result<i32> {
    let text = if args.file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| Error::input(format!("cannot read standard input: {e}")))?
    } else {
        std::fs::read_to_string(&args.file)
            .map_err(|e| Error::input(format!("cannot read {}: {e}", args.file.display())))?
    };
    let parts = game::split_game_text(&text);
    let spec = args
        .board
        .clone()
        .or(parts.board.clone())
        .ok_or_else(|| Error::input("no board: give --board or a 'board:' line in the file"))?;
    let board = Board::from_spec(&spec)?;
    let start = if !args.holes.is_empty() {
        board.start_from_names(&args.holes)?
    } else if let Some(s) = &parts.start {
        board.parse_position(s)?
    } else {
        board.default_start()
    };
    let jumps = game::parse_jumps(&board, &parts.moves)?;
    match game::replay(&board, start, &jumps) {
        Ok(end) => {
            let mut out = format!(
                "legal: {} on {} from {}\n",
                summary(&jumps),
                board.name(),
                board.start_name(start)
            );
            if args.show {
                out.push_str(&game::write_game(&board, start, &jumps, true));
            }
            out.push_str(&format!(
                "final position: {} peg{} ({})\n{}{}\n",
                end.count_ones(),
                if end.count_ones() == 1 { "" } else { "s" },
                game::peg_names(&board, end),
                board.draw_position(end),
                if game::is_dead_end(&board, end) {
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
