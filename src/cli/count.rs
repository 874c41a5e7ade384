//! `pegsol count`: every game from one start, its statistics printed and written as CSV.

use super::args::{DiskArgs, RunArgs, StartArgs};
use super::{print, timing};
use crate::analysis::solvable::{Finish, SolveOptions};
use crate::count::cluster::{Cluster, Session};
use crate::count::export;
use crate::count::random::{EXACT_HOLES, engine_odds, quickest_loss, random_player};
use crate::count::sweep::{self, CountOptions};
use crate::error::Result;
use crate::output::files;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, Args)]
pub(super) struct CountArgs {
    #[command(flatten)]
    start: StartArgs,
    /// Write summary.csv, pegs_left.csv, finish.csv and depth.csv into DIR (created if
    /// missing; each file replaced atomically).
    #[arg(long, value_name = "DIR")]
    csv: Option<PathBuf>,
    /// Also compute how hard the start is: the random player's odds (exact fractions on
    /// boards of up to 21 holes; elsewhere fixed point with a stated bound, from a second
    /// sweep of the engine with the same threads, memory and work directory) and the
    /// quickest loss. The summary gains their lines; with --csv, summary.csv gains four
    /// columns and random.csv and random_finish.csv are written too.
    #[arg(long)]
    random: bool,
    #[command(flatten)]
    pub(super) run: RunArgs,
    #[command(flatten)]
    disk: DiskArgs,
}

/// Runs the command: in each rank of an MPI job (`--features mpi`), rank 0 printing and
/// writing the files.
pub(super) fn run(args: CountArgs) -> Result<i32> {
    let session = Session::join(crate::count::sweep::SHARDS)?;
    session.settle(count(args, session.cluster()))
}

fn count(args: CountArgs, cluster: Cluster) -> Result<i32> {
    let (board, start) = args.start.resolve()?;
    let first = cluster.rank() == 0;
    let mut _lock = claim_csv_dir(&args, first)?;
    let opts = CountOptions {
        threads: args.run.threads,
        max_memory: args.run.max_memory_of(cluster),
        progress: !args.run.quiet && first,
        cancel: None,
        work_dir: args.disk.work_dir.clone(),
        keep_work: args.disk.keep_work,
        max_disk: args.disk.max_disk,
        cluster,
        stop_at_dead_end: false,
        // The sweep's layers stay until the CSV files are written.
        defer_cleanup: args.csv.is_some() && cluster.size() == 1,
    };
    let clock = Instant::now();
    let swept = sweep::sweep_many(&board, &[start], &opts)?;
    let counts = swept
        .counts
        .into_iter()
        .next()
        .expect("one start, one result");
    // Past exact fractions the random player is a second sweep of the engine, which every
    // rank takes part in; its folder in the work directory is its own.
    let engine = (args.random && board.holes() > EXACT_HOLES)
        .then(|| engine_odds(&board, &[start], &opts))
        .transpose()?;
    if !first {
        return Ok(0);
    }
    let random = if args.random {
        Some(how_hard(&args, &board, start, engine, &opts)?)
    } else {
        None
    };
    let secs = clock.elapsed().as_secs_f64();
    if let Some(dir) = &args.csv {
        let bytes = match &random {
            Some(r) => {
                export::random_files(std::slice::from_ref(&counts), std::slice::from_ref(r))?
            }
            None => export::count_files(std::slice::from_ref(&counts))?,
        };
        if _lock.is_none() {
            files::prepare_files(dir, names(args.random))?;
            _lock = Some(files::lock_dir(dir, "--csv")?);
        }
        files::write_atomically(dir, &bytes)?;
    }
    if let Some(work) = &swept.work {
        crate::count::disk::remove_work(work)?;
    }
    print(&export::summary_text(&counts));
    if let Some((odds, quick)) = &random {
        print(&crate::count::random::summary_lines(odds, Some(quick)));
    }
    print(&timing(secs, args.run.threads));
    Ok(0)
}

/// On rank 0, the `--csv` directory made ready and locked before the sweep, when it
/// exists already. A directory that does not exist yet is made when the files are
/// written, so that a run killed before then leaves none behind. A table's directory is
/// refused: the count's files would replace the table's and orphan its runs.csv, which
/// then refuses them.
fn claim_csv_dir(args: &CountArgs, first: bool) -> Result<Option<std::fs::File>> {
    let Some(dir) = &args.csv else {
        return Ok(None);
    };
    if !first || !files::probe_dir(dir)? {
        return Ok(None);
    }
    files::prepare_files(dir, names(args.random))?;
    let lock = files::lock_dir(dir, "--csv")?;
    for held in ["runs.csv", crate::count::table::JSON_FILE] {
        if dir.join(held).exists() {
            return Err(crate::error::Error::input(format!(
                "{} holds a table ({held}); count --csv would replace its files: use \
                 another directory, or pegsol table --csv to add to it",
                dir.display()
            )));
        }
    }
    Ok(Some(lock))
}

/// `--random`: the random player's odds and the quickest loss from `start`.
fn how_hard(
    args: &CountArgs,
    board: &crate::geometry::board::Board,
    start: crate::geometry::board::Pegs,
    engine: Option<Vec<crate::count::random::Odds>>,
    opts: &CountOptions,
) -> Result<(
    crate::count::random::Odds,
    crate::count::random::QuickestLoss,
)> {
    let solve = SolveOptions {
        threads: args.run.threads,
        max_memory: opts.max_memory,
        progress: false,
        reachable: false,
        cancel: None,
    };
    let odds = match engine {
        Some(mut odds) => odds.pop().expect("one start, one result"),
        None => random_player(board, start, opts)?,
    };
    let quick = quickest_loss(board, start, Finish::Any, &solve)?;
    Ok((odds, quick))
}

/// The files `--csv` writes: four, or six with `--random`.
fn names(random: bool) -> &'static [&'static str] {
    if random {
        &export::RANDOM_FILES
    } else {
        &export::COUNT_FILES
    }
}
