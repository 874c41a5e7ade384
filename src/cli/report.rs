//! `pegsol report`: comparisons and pictures generated from a table's files.

use super::print;
use crate::count::{report, table};
use crate::error::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct ReportArgs {
    /// The directory of a table (`pegsol table --csv DIR`, in CSV or `--format json`).
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

/// Runs the command.
pub(super) fn run(args: ReportArgs) -> Result<i32> {
    let boards = table::expand_boards(&args.board)?;
    crate::output::files::check_whole(&args.dir, &table::every_file())?;
    let out = args.out.unwrap_or_else(|| args.dir.clone());
    let written = report::write(&args.dir, &boards, &out)?;
    for name in written {
        print(&format!("{}\n", out.join(name).display()));
    }
    Ok(0)
}
