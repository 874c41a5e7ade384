//! `pegsol table`: every start class of one or more boards, swept by position class into a
//! resumable table.

use super::args::{DiskArgs, RunArgs};
use super::print;
use crate::count::cluster::{Cluster, Session};
use crate::count::table;
use crate::error::{Error, Result};
use crate::memory;
use clap::Args;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

#[derive(Debug, Args)]
pub(super) struct TableArgs {
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
    /// Also compute how hard each start is, as `count --random` does: summary.csv gains its
    /// four columns, and random.csv and random_finish.csv are written (table.json: the same
    /// fields). Pairs already in DIR without them are counted again.
    #[arg(long)]
    random: bool,
    #[command(flatten)]
    pub(super) run: RunArgs,
    #[command(flatten)]
    disk: DiskArgs,
}

/// Runs the command: in each rank of an MPI job (`--features mpi`), rank 0 printing and
/// writing the files.
pub(super) fn run(args: TableArgs, command_line: &[String]) -> Result<i32> {
    let session = Session::join(crate::count::sweep::SHARDS)?;
    session.settle(table(args, command_line, session.cluster()))
}

fn table(args: TableArgs, command_line: &[String], cluster: Cluster) -> Result<i32> {
    let first = cluster.rank() == 0;
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
        max_memory: args.run.max_memory_of(cluster),
        progress: !args.run.quiet && first,
        dir: args.csv.clone(),
        format: args.format,
        command: table::shell_words(&command),
        work_dir: args.disk.work_dir.clone(),
        keep_work: args.disk.keep_work,
        max_disk: args.disk.max_disk,
        cluster,
        cancel: Some(interrupt_flag()),
    };
    let clock = Instant::now();
    let report = match table::run_batch_with_random(&plan, &opts, args.random) {
        Err(Error::Interrupted) => {
            // One line: the error's own, with where the finished pairs are, if any.
            if let Some(dir) = &args.csv
                && first
            {
                let saved = ["runs.csv", table::JSON_FILE]
                    .iter()
                    .any(|f| dir.join(f).exists());
                if saved {
                    eprintln!(
                        "pegsol: interrupted; finished pairs are saved in {}; run the same \
                         command again to resume",
                        dir.display()
                    );
                } else {
                    eprintln!("pegsol: interrupted before the first pair was saved");
                }
                return Ok(Error::Interrupted.exit_code());
            }
            return Err(Error::Interrupted);
        }
        other => other?,
    };
    let secs = clock.elapsed().as_secs_f64();
    if !first {
        return Ok(0);
    }
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

/// The flag Ctrl-C and SIGTERM set, for the batch to stop at its next batch of work with
/// every finished pair saved. The handler is the CLI's: the library installs none.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let f = flag.clone();
    // A handler can be installed once per process; `table` runs once, so a failure here
    // means none can be, and the batch then runs uninterrupted by signals.
    let _ = ctrlc::set_handler(move || f.store(true, Ordering::SeqCst));
    flag
}
