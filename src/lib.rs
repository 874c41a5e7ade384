//! pegsol: exhaustive peg solitaire enumeration with exact counts.
//!
//! Follow a run from the top: [`board`] (geometry, names, jumps) and [`symmetry`] (the
//! group) describe the game; [`engine`] sweeps it layer by layer into [`stats::Counts`];
//! [`output`] writes the summary and the CSV files; [`cli`] ties them to the command line.
//!
//! ```
//! use pegsol::{board::Board, engine::{count, CountOptions}};
//! let board = Board::from_spec("tri:5")?;
//! let counts = count(&board, board.start_from_names(&["a1".into()])?, &CountOptions::default())?;
//! assert_eq!(counts.wins(), 29_760);
//! assert_eq!(counts.wins_at("a1"), 6_816);
//! # Ok::<(), pegsol::error::Error>(())
//! ```

pub mod bits;
pub mod board;
pub mod cli;
mod commands;
pub mod engine;
pub mod error;
pub mod extremes;
pub mod game;
pub mod line;
pub mod memory;
pub mod minmoves;
pub mod moves;
pub mod output;
pub mod plot;
pub mod progress;
pub mod regions;
pub mod report;
mod slots;
pub mod solvable;
pub mod solve;
pub mod stats;
pub mod svg;
pub mod symmetry;
pub mod table;
