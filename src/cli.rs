//! The command line: clap parses the arguments into validated options, each command runs
//! the computation and hands the result to an exporter in [`crate::output`].

use crate::board::Board;
use crate::engine::{self, CountOptions};
use crate::error::{Error, Result};
use crate::{line, memory, output, report as report_mod, solvable, table};
use clap::{Args, Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Exhaustive peg solitaire: exact counts of games, wins and end states.
#[derive(Debug, Parser)]
#[command(name = "pegsol", version, about, arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count every game from a start: positions, games, wins, pegs left, finishing holes.
    Count(CountArgs),
    /// Show a board: hole names, number of holes and jumps, symmetry group, start.
    Board(BoardArgs),
    /// Reachable positions from which a win is still possible, per number of jumps.
    Solvable(SolvableArgs),
    /// The jumps from a position that keep it winnable, with their winning continuations.
    Hint(HintArgs),
    /// One-dimensional solitaire on an unbounded strip: solvable configurations, reductions.
    Line(LineArgs),
    /// Find one winning game (or prove there is none); --min-moves for the fewest moves.
    Solve(crate::commands::SolveArgs),
    /// Find a jump sequence from one position to another, or prove there is none.
    Reach(crate::commands::ReachArgs),
    /// The shortest game ending in a dead end, and the game leaving the most pegs.
    Extremes(crate::commands::ExtremesArgs),
    /// Check a game written in jump notation: every jump legal; report the final position.
    Check(crate::commands::CheckArgs),
    /// Count every start class of one or more boards into one table (resumable).
    Table(TableArgs),
    /// Compare boards of a table and draw its pictures (SVG), from the files in DIR.
    Report(ReportArgs),
}

/// The board and start shared by the commands.
#[derive(Debug, Args)]
pub(crate) struct StartArgs {
    /// Board: tri:N (N = 3..15), line:L (L = 3..128), english, french, wiegleb, or a board file.
    #[arg(long, short, default_value = "tri:5", value_name = "SPEC")]
    pub(crate) board: String,
    /// An empty hole at the start (repeatable). Default: a1 on triangles and lines, the
    /// centre on english, french and wiegleb, the marked holes of a board file.
    #[arg(long = "hole", value_name = "CELL")]
    pub(crate) holes: Vec<String>,
}

impl StartArgs {
    pub(crate) fn resolve(&self) -> Result<(Board, crate::board::Pegs)> {
        let board = Board::from_spec(&self.board)?;
        let start = board.start_from_names(&self.holes)?;
        Ok((board, start))
    }
}

/// How a computation runs, shared by the commands that sweep positions.
#[derive(Debug, Args)]
struct RunArgs {
    /// Worker threads (0 = one per core). Results are identical for every value.
    #[arg(long, short = 'j', default_value_t = 0)]
    threads: usize,
    /// Refuse the run when its tables would need more than SIZE (e.g. 8G). Default: 80% of
    /// the memory available.
    #[arg(long, value_name = "SIZE", value_parser = memory::parse)]
    max_memory: Option<u64>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

impl RunArgs {
    fn max_memory(&self) -> u64 {
        self.max_memory.unwrap_or_else(memory::default_budget)
    }
}

#[derive(Debug, Args)]
struct CountArgs {
    #[command(flatten)]
    start: StartArgs,
    /// Write summary.csv, pegs_left.csv, finish.csv and depth.csv into DIR (created if
    /// missing; each file replaced atomically).
    #[arg(long, value_name = "DIR")]
    csv: Option<PathBuf>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Args)]
struct TableArgs {
    /// Board (repeatable): tri:N, line:L, english, french, wiegleb, a board file, or a
    /// range such as tri:4..7.
    #[arg(long, short, value_name = "SPEC", required = true)]
    board: Vec<String>,
    /// Starts: `all` (one start per symmetry class of single empty holes), or cells (each
    /// standing for its class).
    #[arg(long, value_name = "CELL", num_args = 1.., default_value = "all")]
    starts: Vec<String>,
    /// Keep the table in DIR (created if missing): the four CSV files of `count` plus
    /// runs.csv, or table.json. Rerunning the command skips the pairs already in DIR.
    /// Without DIR the table is printed to stdout.
    #[arg(long, visible_alias = "out", value_name = "DIR")]
    csv: Option<PathBuf>,
    /// File format.
    #[arg(long, value_enum, default_value = "csv")]
    format: table::Format,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Args)]
struct ReportArgs {
    /// The directory of a table in CSV format (`pegsol table --csv DIR`).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Boards to compare side by side (repeatable; ranges such as tri:5..7 accepted).
    /// Default: every board of the table.
    #[arg(long, short, value_name = "SPEC")]
    board: Vec<String>,
    /// Write comparison.md, comparison.csv and the SVG pictures into OUT. Default: DIR.
    #[arg(long, value_name = "OUT")]
    out: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct BoardArgs {
    /// Board: tri:N, line:L, english, french, wiegleb, or a board file.
    #[arg(value_name = "SPEC", default_value = "tri:5")]
    spec: String,
    /// An empty hole at the start (repeatable).
    #[arg(long = "hole", value_name = "CELL")]
    holes: Vec<String>,
}

#[derive(Debug, Args)]
struct SolvableArgs {
    #[command(flatten)]
    start: StartArgs,
    /// Where the last peg must stand (a hole name, or `any`). Default: any hole.
    #[arg(long, value_name = "CELL")]
    finish: Option<String>,
    /// Write solvable.csv into DIR (created if missing; replaced atomically).
    #[arg(long, value_name = "DIR")]
    csv: Option<PathBuf>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Args)]
struct HintArgs {
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

#[derive(Debug, Args)]
struct LineArgs {
    /// List the solvable configurations of N pegs (with --to, of N..=M pegs).
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "reduce",
        required_unless_present = "reduce"
    )]
    pegs: Option<usize>,
    /// The largest number of pegs to list (default: N).
    #[arg(long, value_name = "M", requires = "pegs")]
    to: Option<usize>,
    /// Write line.csv (counts) and line_configurations.csv into DIR.
    #[arg(long, value_name = "DIR", requires = "pegs")]
    csv: Option<PathBuf>,
    /// Reduce a configuration (e.g. `II.I`, I or o a peg, . a hole) to as few pegs as
    /// possible and show the jumps.
    #[arg(long, value_name = "PICTURE")]
    reduce: Option<String>,
    /// Print only the counts, not the pictures.
    #[arg(long)]
    counts_only: bool,
    /// Worker threads (0 = one per core).
    #[arg(long, short = 'j', default_value_t = 0)]
    threads: usize,
}

/// Parses `args` and runs the command; returns the exit code on success.
pub fn run<I, T>(args: I) -> Result<i32>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    crate::memory::unmap_freed_blocks();
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let command_line: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind::*;
            return match e.kind() {
                DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand => {
                    print(&e.to_string());
                    Ok(0)
                }
                _ => {
                    let text = e.to_string();
                    let first = text.lines().next().unwrap_or("invalid arguments");
                    Err(Error::input(
                        first.trim_start_matches("error: ").to_string(),
                    ))
                }
            };
        }
    };
    match cli.command {
        Command::Count(args) => count(args),
        Command::Board(args) => board(args),
        Command::Solvable(args) => solvable(args),
        Command::Hint(args) => hint(args),
        Command::Line(args) => line(args),
        Command::Solve(args) => crate::commands::solve(args),
        Command::Reach(args) => crate::commands::reach(args),
        Command::Extremes(args) => crate::commands::extremes(args),
        Command::Check(args) => crate::commands::check(args),
        Command::Table(args) => table_command(args, &command_line),
        Command::Report(args) => report(args),
    }
}

/// Writes to stdout, ignoring a closed pipe (`pegsol count | head`).
pub(crate) fn print(text: &str) {
    let _ = std::io::stdout().write_all(text.as_bytes());
}

fn count(args: CountArgs) -> Result<i32> {
    let (board, start) = args.start.resolve()?;
    if let Some(dir) = &args.csv {
        output::prepare_dir(dir)?;
    }
    let opts = CountOptions {
        threads: args.run.threads,
        max_memory: args.run.max_memory(),
        progress: !args.run.quiet,
        cancel: None,
    };
    let clock = Instant::now();
    let counts = engine::count(&board, start, &opts)?;
    let secs = clock.elapsed().as_secs_f64();
    if let Some(dir) = &args.csv {
        output::write_atomically(dir, &output::count_files(std::slice::from_ref(&counts))?)?;
    }
    print(&output::summary_text(&counts));
    print(&timing(secs, args.run.threads));
    Ok(0)
}

fn board(args: BoardArgs) -> Result<i32> {
    let start = StartArgs {
        board: args.spec,
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

fn solvable(args: SolvableArgs) -> Result<i32> {
    let (board, start) = args.start.resolve()?;
    let finish = solvable::Finish::parse(&board, args.finish.as_deref())?;
    if let Some(dir) = &args.csv {
        output::prepare_dir(dir)?;
    }
    let opts = solvable::SolveOptions {
        threads: args.run.threads,
        max_memory: args.run.max_memory(),
        progress: !args.run.quiet,
    };
    let clock = Instant::now();
    let result = solvable::solvable(&board, start, finish, &opts)?;
    let secs = clock.elapsed().as_secs_f64();
    if let Some(dir) = &args.csv {
        let bytes = solvable::csv_file(std::slice::from_ref(&result))?;
        output::write_atomically(dir, &[("solvable.csv", bytes)])?;
    }
    print(&solvable::summary_text(&result));
    print(&timing(secs, args.run.threads));
    Ok(0)
}

fn hint(args: HintArgs) -> Result<i32> {
    let board = Board::from_spec(&args.board)?;
    let position = board.parse_position(&args.position)?;
    let finish = solvable::Finish::parse(&board, args.finish.as_deref())?;
    let opts = solvable::SolveOptions {
        threads: args.run.threads,
        max_memory: args.run.max_memory(),
        progress: !args.run.quiet,
    };
    let h = solvable::hint(&board, position, finish, &opts)?;
    print(&solvable::hint_text(&board, position, finish, &h));
    Ok(0)
}

fn line(args: LineArgs) -> Result<i32> {
    if let Some(picture) = &args.reduce {
        let config = line::Config::parse(picture)?;
        let r = line::reduce(&config)?;
        print(&line::reduction_text(&config, &r));
        return Ok(0);
    }
    let from = args.pegs.expect("clap requires --pegs or --reduce");
    let to = args.to.unwrap_or(from);
    if let Some(dir) = &args.csv {
        output::prepare_dir(dir)?;
    }
    let clock = Instant::now();
    let layers = line::solvable_with_threads(from, to, args.threads)?;
    let secs = clock.elapsed().as_secs_f64();
    if let Some(dir) = &args.csv {
        output::write_atomically(dir, &line::csv_files(&layers)?)?;
    }
    print(&line::listing_text(&layers, !args.counts_only));
    print(&timing(secs, args.threads));
    Ok(0)
}

fn timing(secs: f64, threads: usize) -> String {
    format!(
        "wall time {secs:.2} s, peak memory {}, {} threads\n",
        memory::peak_rss().map_or("unknown".into(), memory::human),
        if threads == 0 {
            rayon::current_num_threads()
        } else {
            threads
        }
    )
}

fn table_command(args: TableArgs, command_line: &[String]) -> Result<i32> {
    let boards = table::expand_boards(&args.board)?;
    let plan = table::plan(&boards, &args.starts)?;
    let mut command = command_line.to_vec();
    if let Some(first) = command.first_mut() {
        // The program as the user would type it, not the full path of the binary.
        if let Some(name) = std::path::Path::new(first.as_str()).file_name() {
            *first = name.to_string_lossy().into_owned();
        }
    }
    let opts = table::BatchOptions {
        threads: args.run.threads,
        max_memory: args.run.max_memory(),
        progress: !args.run.quiet,
        dir: args.csv.clone(),
        format: args.format,
        command: table::shell_words(&command),
    };
    let clock = Instant::now();
    let report = match table::run_batch(&plan, &opts) {
        Err(Error::Interrupted) => {
            if let Some(dir) = &args.csv {
                eprintln!(
                    "pegsol: finished pairs are saved in {}; run the same command again to \
                     resume",
                    dir.display()
                );
            }
            return Err(Error::Interrupted);
        }
        other => other?,
    };
    let secs = clock.elapsed().as_secs_f64();
    match (&args.csv, args.format) {
        (None, table::Format::Json) => {
            let files = report.table.files(table::Format::Json)?;
            print(&String::from_utf8_lossy(&files[0].1));
        }
        _ => print(&table::summary_text(&report.table, &plan)),
    }
    if args.csv.is_some() || args.format == table::Format::Csv {
        eprintln!(
            "{} pairs: {} computed, {} already complete; wall time {secs:.2} s, peak memory {}",
            plan.len(),
            report.computed,
            report.skipped,
            report.peak_bytes.map_or("unknown".into(), memory::human),
        );
    }
    Ok(0)
}

fn report(args: ReportArgs) -> Result<i32> {
    let boards = table::expand_boards(&args.board)?;
    let out = args.out.unwrap_or_else(|| args.dir.clone());
    let written = report_mod::write(&args.dir, &boards, &out)?;
    for name in written {
        print(&format!("{}\n", out.join(name).display()));
    }
    Ok(0)
}
