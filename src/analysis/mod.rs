//! Analysis of what is still possible: the positions from which a win can still be reached,
//! and hints from any position ([`solvable`]); one-dimensional solitaire ([`line`]).
//!
//! ```
//! use pegsol::analysis::line::Config;
//! assert_eq!(Config::parse("II.I")?.pegs(), 3);
//! # Ok::<(), pegsol::error::Error>(())
//! ```

pub mod line;
mod order;
pub mod solvable;
