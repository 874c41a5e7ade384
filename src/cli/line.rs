//! `pegsol line`: one-dimensional solitaire, solvable configurations and reductions.

use super::{print, timing};
use crate::analysis::line;
use crate::error::Result;
use crate::output::files;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, Args)]
pub(super) struct LineArgs {
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
    /// Worker threads (0 = one per core, at most 1024).
    #[arg(long, short = 'j', default_value_t = 0, value_parser = super::args::parse_threads)]
    threads: usize,
}

/// Runs the command.
pub(super) fn run(args: LineArgs) -> Result<i32> {
    if let Some(picture) = &args.reduce {
        let config = line::Config::parse(picture)?;
        let r = line::reduce(&config)?;
        print(&line::reduction_text(&config, &r));
        return Ok(0);
    }
    let from = args.pegs.expect("clap requires --pegs or --reduce");
    let to = args.to.unwrap_or(from);
    if let Some(dir) = &args.csv {
        files::prepare_dir(dir)?;
    }
    let clock = Instant::now();
    let layers = line::solvable_with_threads(from, to, args.threads)?;
    let secs = clock.elapsed().as_secs_f64();
    if let Some(dir) = &args.csv {
        files::write_atomically(dir, &line::csv_files(&layers)?)?;
    }
    print(&line::listing_text(&layers, !args.counts_only));
    print(&timing(secs, args.threads));
    Ok(0)
}
