//! pegsol: exhaustive peg solitaire enumeration with exact counts.
//!
//! The crate is laid out by concern, and dependencies point one way:
//! [`cli`] → [`count`], [`games`] and [`analysis`] → [`output`] → [`geometry`], with
//! [`error`], [`memory`], [`input`] and [`total`] underneath everything.
//!
//! - [`geometry`]: boards, lattices, the symmetry group, jumps, regions, position classes.
//! - [`count`]: the counting engine (a layer sweep over symmetry-reduced positions), tables
//!   of starts, the statistics, and their exporters (text, CSV, JSON, report).
//! - [`games`]: single games: solve, fewest moves, extremes, notation, animation.
//! - [`analysis`]: still-winnable positions and hints; one-dimensional solitaire.
//! - [`output`]: how anything is written: atomic files and CSV, SVG plots.
//! - [`observe`]: the seam through which the engines report progress, notices and trace
//!   lines; the library prints nothing unless an [`observe::Observer`] is installed.
//! - [`cli`]: one file per command, clap arguments next to the handler.
//! - [`total`]: [`total::Total`], the 256-bit sums of jump-sequence counts that the
//!   statistics hold.
//!
//! Follow a run from the top: [`geometry::Board`] describes the game;
//! [`count::count`] sweeps it layer by layer into [`count::Counts`];
//! [`count::export`] renders the summary and the CSV files.
//!
//! ```
//! use pegsol::{count::{count, CountOptions}, geometry::Board};
//! let board = Board::from_spec("tri:5")?;
//! let counts = count(&board, board.start_from_names(&["a1".into()])?, &CountOptions::default())?;
//! assert_eq!(counts.wins(), 29_760);
//! assert_eq!(counts.wins_at("a1"), 6_816);
//! # Ok::<(), pegsol::error::Error>(())
//! ```

/// `eprintln!` that never panics, for the command line's own lines on stderr (the engines
/// print nothing: they report to [`observe`]); when stderr is closed or full
/// (`2>/dev/full`) they are lost, where std's macro would panic.
/// The line is formatted first and written in one call, so that the lines of processes
/// sharing a stderr (the ranks of an MPI job) do not break into each other: `writeln!` on
/// unbuffered stderr wrote each piece of the format apart ("rank rank 0 of 2: ...\n1 of
/// 2"). Defined before the modules, it stands for std's in all of them.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut line = format!($($arg)*);
        line.push('\n');
        let _ = std::io::stderr().write_all(line.as_bytes());
    }};
}

pub mod allocator;
pub mod analysis;
pub mod cli;
pub mod count;
pub mod error;
pub mod games;
pub mod geometry;
pub mod hash;
pub mod input;
pub mod memory;
pub mod observe;
pub mod output;
pub mod play;
pub mod pool;
pub mod total;
