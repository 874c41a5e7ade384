//! Arguments shared by several commands: the board and start, and how a sweep runs.

use crate::count::cluster::Cluster;
use crate::error::Result;
use crate::geometry::board::{Board, Pegs};
use crate::memory;
use clap::Args;
use std::path::PathBuf;

/// The board and start shared by the commands.
#[derive(Debug, Args)]
pub(crate) struct StartArgs {
    /// Board: tri:N (N = 3..15), line:L (L = 3..128), english, french, wiegleb, or a board file.
    #[arg(long, short, default_value = "tri:5", value_name = "SPEC")]
    pub(super) board: String,
    /// An empty hole at the start (repeatable). Default: a1 on triangles and lines, the
    /// centre on english, french and wiegleb, the marked holes of a board file.
    #[arg(long = "hole", value_name = "CELL")]
    pub(super) holes: Vec<String>,
}

impl StartArgs {
    pub(super) fn resolve(&self) -> Result<(Board, Pegs)> {
        let board = Board::from_spec(&self.board)?;
        let start = board.start_from_names(&self.holes)?;
        Ok((board, start))
    }
}

/// How a computation runs, shared by the commands that sweep positions.
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// Worker threads (0 = one per core, at most 1024). Results are identical for every
    /// value.
    #[arg(long, short = 'j', default_value_t = 0, value_parser = parse_threads)]
    pub(super) threads: usize,
    /// Keep the tables within SIZE (e.g. 8G). A run that cannot fit is refused with exit
    /// code 2, never killed; count, table and extremes first move the layers that would not
    /// fit to disk (--work-dir). At least 64K. Default: 80% of the memory available to the
    /// process (free memory, within its cgroup's limit and ulimit -v).
    #[arg(long, value_name = "SIZE", value_parser = parse_budget)]
    pub(super) max_memory: Option<u64>,
    /// No progress bar.
    #[arg(long, short)]
    pub(super) quiet: bool,
}

impl RunArgs {
    pub(super) fn max_memory(&self) -> u64 {
        self.max_memory.unwrap_or_else(memory::default_budget)
    }

    /// `--max-memory` of one rank of `cluster`: the default is shared by the ranks on the
    /// same machine ([`Cluster::default_budget`]).
    pub(super) fn max_memory_of(&self, cluster: Cluster) -> u64 {
        self.max_memory.unwrap_or_else(|| cluster.default_budget())
    }
}

/// The smallest `--max-memory`: below it a sweep's passes hold a few entries each and a
/// count that takes milliseconds runs for minutes (tri:5 at 1K), so it is refused at once.
pub(crate) const MIN_BUDGET: u64 = 64 << 10;

/// Parses `--max-memory`: a size ([`memory::parse`]) of at least [`MIN_BUDGET`], within
/// the limits set on the process ([`memory::hard_room`]).
pub(crate) fn parse_budget(s: &str) -> std::result::Result<u64, String> {
    let n = memory::parse(s)?;
    if n < MIN_BUDGET {
        return Err(format!("at least {} (64K)", memory::human(MIN_BUDGET)));
    }
    // A limit set on the process (a cgroup's, `ulimit -v`) kills or aborts a run that
    // passes it, hours in: refused now. The machine's free memory is not such a limit.
    if let Some(room) = memory::hard_room()
        && n > room
    {
        return Err(format!(
            "more than the {} this process may still use (its cgroup's memory limit or \
             ulimit -v)",
            memory::human(room)
        ));
    }
    Ok(n)
}

/// Parses a FILE that a command writes (and `hint --cache` reads back): any path but `-`,
/// which elsewhere stands for standard input or output. Standard output carries the
/// command's own text, so `-` is refused rather than made a file of that name. So is a
/// path that is there but is no regular file, nor a link to one (`/dev/null`, a FIFO):
/// writing the file atomically would replace it
/// ([`crate::output::files::replaceable`]).
pub(crate) fn parse_file(s: &str) -> std::result::Result<PathBuf, String> {
    if s == "-" {
        return Err("a file name ('-' would mix it into standard output)".to_string());
    }
    let path = PathBuf::from(s);
    crate::output::files::replaceable(&path).map_err(|e| e.to_string())?;
    Ok(path)
}

/// The most worker threads a command starts: more than any machine has cores, few enough
/// that a mistyped number is refused at once rather than spent starting threads.
pub(crate) const MAX_THREADS: usize = 1024;

/// Parses `--threads`: 0 (one per core) to [`MAX_THREADS`].
pub(crate) fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    let n: usize = s.parse().map_err(|e| format!("{e}"))?;
    if n > MAX_THREADS {
        return Err(format!("at most {MAX_THREADS} threads (0 = one per core)"));
    }
    Ok(n)
}

/// Where a sweep keeps its layers once they outgrow memory, with its checkpoints.
#[derive(Debug, Args)]
pub(crate) struct DiskArgs {
    /// Keep every layer in DIR (one folder per sweep), with a checkpoint after each, so
    /// that the same command resumes an interrupted sweep from its last finished layer.
    /// Without it, layers move to ./pegsol-work only once they would pass --max-memory.
    #[arg(long, value_name = "DIR")]
    pub(super) work_dir: Option<PathBuf>,
    /// Keep the sweep's folder in the work directory after it succeeds.
    #[arg(long)]
    pub(super) keep_work: bool,
    /// Refuse to use more than SIZE of disk for layer files (e.g. 100G). Free space is
    /// checked before each layer either way.
    #[arg(long, value_name = "SIZE", value_parser = memory::parse)]
    pub(super) max_disk: Option<u64>,
}
