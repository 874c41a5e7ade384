//! `pegsol solve`: one winning game or a proof that none exists; `--min-moves` for the
//! fewest moves.

use super::args::StartArgs;
use super::print;
use super::show::{SearchArgs, ShowArgs, emit, summary};
use crate::analysis::solvable::Finish;
use crate::error::Result;
use crate::games::minmoves::{Ends, min_moves_in, table};
use crate::games::solve::{Goal, Outcome, search};
use crate::geometry::board::{Board, Pegs};
use crate::observe;
use crate::output::files;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;
use thousands::Separable;

/// `pegsol solve`.
#[derive(Debug, Args)]
pub(super) struct SolveArgs {
    #[command(flatten)]
    start: StartArgs,
    /// The hole the last peg must finish in, or `any`. Default: anywhere.
    #[arg(long, value_name = "CELL")]
    finish: Option<String>,
    /// Find a game that leaves N pegs (anywhere) instead of one, or prove that none does:
    /// french's centre, where no game leaves one peg, leaves two (CSPLib 037).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..),
          conflicts_with_all = ["finish", "min_moves"])]
    leave: u32,
    /// Find a solution with the fewest moves (a move is a run of jumps by one peg).
    #[arg(long)]
    min_moves: bool,
    /// With --min-moves: the best over every single-vacancy start (ignores --hole).
    #[arg(long, requires = "min_moves")]
    all_starts: bool,
    /// With --min-moves: a table of the fewest moves from every start class (or from the
    /// --hole cells, each standing for its class) to one peg anywhere and to each finishing hole with a
    /// win, as CSV (board,start,finish,moves; finish empty for anywhere).
    #[arg(long, requires = "min_moves",
          conflicts_with_all = ["all_starts", "finish", "show", "svg"])]
    table: bool,
    /// With --table: merge the rows into DIR/min_moves.csv (DIR created if missing; the
    /// rows of other boards and starts kept; written atomically) instead of printing them.
    #[arg(long, value_name = "DIR", requires = "table")]
    csv: Option<PathBuf>,
    /// With --min-moves: keep the search in a folder of DIR (created if missing), each layer
    /// written as it is stored, so that the same command resumes an interrupted run from
    /// its last layer. The folder is removed once the search ends.
    #[arg(
        long,
        value_name = "DIR",
        requires = "min_moves",
        conflicts_with = "table"
    )]
    work_dir: Option<PathBuf>,
    /// Worker threads (0 = one per core, at most 1024). Default: one per core with --min-moves, where the
    /// answer is the same for every value; one for the search of a game, where more threads
    /// take later work units and expand more positions in all (french d2 to d6: 216,537 to
    /// 282,266 with 2 threads, 135,677 with 1). Every value finds a game (not always the same
    /// one) or proves the same way that there is none.
    #[arg(long, short = 'j', value_parser = super::args::parse_threads)]
    threads: Option<usize>,
    /// No progress bar (--min-moves draws one on a terminal).
    #[arg(long, short)]
    pub(super) quiet: bool,
    #[command(flatten)]
    show: ShowArgs,
    #[command(flatten)]
    memory: SearchArgs,
}

/// Runs the command.
pub(super) fn run(args: SolveArgs) -> Result<i32> {
    let (board, start) = args.start.resolve()?;
    let finish = match Finish::parse(&board, args.finish.as_deref())? {
        Finish::Any => None,
        Finish::Hole(h) => Some(h),
    };
    let clock = Instant::now();
    let pool = crate::pool::build(args.threads.unwrap_or(if args.min_moves { 0 } else { 1 }))?;
    if args.table {
        return pool.install(|| min_moves_table(&args, &board));
    }
    if args.min_moves {
        return fewest_moves(&args, &board, start, finish, &pool, clock);
    }
    one_game(&args, &board, start, finish, &pool, clock)
}

/// How the messages name the finish: a hole or `anywhere`.
fn finish_text(board: &Board, finish: Option<usize>) -> String {
    finish.map_or("anywhere".to_string(), |h| board.hole_name(h))
}

/// `--min-moves` (without `--table`): a game of the fewest moves, or the proof that there
/// is none.
fn fewest_moves(
    args: &SolveArgs,
    board: &Board,
    start: Pegs,
    finish: Option<usize>,
    pool: &rayon::ThreadPool,
    clock: Instant,
) -> Result<i32> {
    let finish_text = finish_text(board, finish);
    let from = (!args.all_starts).then_some(start);
    let ends = finish.map_or(Ends::Any, Ends::Hole);
    let work = args.work_dir.as_deref();
    let r = pool.install(|| min_moves_in(board, from, ends, args.memory.budget(), work))?;
    let secs = clock.elapsed().as_secs_f64();
    let from_text = if args.all_starts {
        "any single vacancy".to_string()
    } else {
        board.start_name(start)
    };
    match r.best {
        Some((moves, start, jumps)) => {
            let end = crate::games::notation::replay(board, start, &jumps)
                .map_or(String::new(), |p| {
                    board.hole_name(p.trailing_zeros() as usize)
                });
            let figures: String = r.figures.iter().map(|f| format!("# {f}\n")).collect();
            let header = format!(
                "# {}: fewest moves from {from_text} to one peg {finish_text}: {moves}\n\
                 # proved by a {} in {secs:.2} s\n\
                 {figures}\
                 # this game: {}, start {} empty, finish {end}\n",
                board.name(),
                r.proof,
                summary(&jumps),
                board.start_name(start)
            );
            let title = format!("{} in {moves} moves", board.name());
            emit(board, start, &jumps, &args.show, &title, &header)?;
            Ok(0)
        }
        None => {
            let figures: String = r.figures.iter().map(|f| format!("{f}\n")).collect();
            print(&format!(
                "no solution: {} from {from_text} to one peg {finish_text}.\n\
                 proof: {} ({secs:.2} s)\n{figures}",
                board.name(),
                r.proof
            ));
            Ok(1)
        }
    }
}

/// The search for one winning game (or one that leaves `--leave` pegs), or the proof that
/// there is none.
fn one_game(
    args: &SolveArgs,
    board: &Board,
    start: Pegs,
    finish: Option<usize>,
    pool: &rayon::ThreadPool,
    clock: Instant,
) -> Result<i32> {
    // What the game must end with, as the messages say it.
    let end_text = match args.leave {
        1 => format!("one peg {}", finish_text(board, finish)),
        n => format!("{n} pegs anywhere"),
    };
    let goal = match finish {
        Some(h) => Goal::OnePeg(crate::geometry::board::bit(h)),
        None => Goal::pegs_anywhere(board, args.leave),
    };
    let s = pool.install(|| search(board, start, goal, args.memory.budget()))?;
    let secs = clock.elapsed().as_secs_f64();
    let start_text = board.start_name(start);
    match s.outcome {
        Outcome::Found(jumps) => {
            let how = match s.beam {
                Some(width) => format!(
                    "found by a beam search of width {} after {} positions of the \
                     exhaustive search",
                    width.separate_with_commas(),
                    s.nodes.separate_with_commas()
                ),
                None => format!("{} positions expanded", s.nodes.separate_with_commas()),
            };
            let header = format!(
                "# {}: a solution from {start_text} to {end_text}: {} \
                 ({how}, {secs:.2} s)\n",
                board.name(),
                summary(&jumps),
            );
            let title = format!("{} from {start_text}", board.name());
            emit(board, start, &jumps, &args.show, &title, &header)?;
            Ok(0)
        }
        Outcome::Impossible(why) => {
            print(&format!(
                "no solution: {} from {start_text} cannot finish with {end_text}.\n\
                 proof: {why} ({secs:.2} s)\n",
                board.name()
            ));
            Ok(1)
        }
    }
}

/// `--min-moves --table`: the rows of each start class asked for, printed or merged into
/// `DIR/min_moves.csv`.
fn min_moves_table(args: &SolveArgs, board: &Board) -> Result<i32> {
    let classes = board.hole_classes();
    let class_of = |h: usize| classes.iter().find(|c| c.contains(&h)).expect("a class");
    let mut starts: Vec<usize> = Vec::new();
    if args.start.holes.is_empty() {
        starts.extend(classes.iter().map(|c| c[0]));
    } else {
        // A named start stands for its class under its own name (as `table` names it), and
        // is searched from itself, so that its finishes are its own.
        for name in &args.start.holes {
            let h = board.hole(name)?;
            if !starts.iter().any(|s| class_of(h).contains(s)) {
                starts.push(h);
            }
        }
    }
    // A bad or unwritable file is refused before the search, not after it.
    let old = match &args.csv {
        Some(dir) => {
            files::prepare_dir(dir)?;
            let path = files::replaceable(&dir.join(table::FILE))?;
            if path.exists() {
                table::read(&path)?
            } else {
                Vec::new()
            }
        }
        None => Vec::new(),
    };
    let bar = observe::meter(starts.len() as u64, "start classes", true);
    let mut rows = Vec::new();
    let mut done: Vec<(String, String)> = Vec::new();
    for &s in &starts {
        bar.message(format!("from {}", board.hole_name(s)));
        rows.extend(table::start_rows(
            board,
            s,
            args.memory.budget(),
            &mut |k, n| {
                bar.message(format!("from {}: finish {k} of {n}", board.hole_name(s)));
            },
        )?);
        // The class's rows are replaced under whichever of its cells named them before.
        done.extend(
            class_of(s)
                .iter()
                .map(|&h| (board.name().to_string(), board.hole_name(h))),
        );
        // Each class's rows are saved as soon as they are found: an interrupted run keeps
        // the classes it finished (with the old rows of the others).
        if let Some(dir) = &args.csv {
            let bytes = table::merged_csv(old.clone(), rows.clone(), &done)?;
            files::write_atomically(dir, &[(table::FILE, bytes)])?;
        }
        bar.inc(1);
    }
    bar.finish();
    match &args.csv {
        Some(dir) => print(&format!("{}\n", dir.join(table::FILE).display())),
        None => {
            let bytes = table::merged_csv(Vec::new(), rows, &done)?;
            print(&String::from_utf8_lossy(&bytes));
        }
    }
    Ok(0)
}
