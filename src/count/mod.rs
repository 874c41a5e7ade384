//! Counting: every game from one start or from many, by a layer sweep.
//!
//! - [`sweep`]: the engine. Layer `j` holds the positions after `j` jumps, merged into
//!   orbits under the symmetries that fix the starts, each with exact `u128` counts of jump
//!   sequences; the shards of a layer are the work units of the rayon pool.
//! - [`slots`]: the open-addressing tables a shard is kept in.
//! - [`stats`]: what a sweep yields ([`Counts`]) and the figures derived from it.
//! - [`cluster`]: the same sweep shared by the ranks of an MPI job (`--features mpi`).
//! - [`table`]: many starts, grouped into one sweep per position class; resumable tables.
//! - [`export`]: the summary text and the CSV files of a count (the exporter).
//! - [`random`]: how hard a board is: the random player's odds and the quickest loss.
//! - [`labels`]: the labels of a table's rows, checked as strictly as pegsol writes them.
//! - [`report`]: comparisons and pictures generated from a table's files.
//!
//! ```
//! use pegsol::{count::{count, CountOptions}, geometry::Board};
//! let b = Board::from_spec("tri:5")?;
//! let c = count(&b, b.default_start(), &CountOptions::default())?;
//! assert_eq!((c.games(), c.wins()), (568_630.into(), 29_760.into()));
//! # Ok::<(), pegsol::error::Error>(())
//! ```

pub mod cluster;
pub mod disk;
pub mod export;
pub mod labels;
pub mod random;
pub mod report;
mod slots;
pub mod stats;
pub mod sweep;
pub mod table;

pub use crate::total::Total;
pub use stats::{Counts, Layer};
pub use sweep::{CountOptions, count, count_many, max_starts};
