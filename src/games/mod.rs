//! Single games rather than all of them: one solution or a proof there is none
//! ([`solve`]), the fewest moves ([`minmoves`]), the shortest game ([`extremes`]), the
//! notation games are written and checked in ([`notation`]), and animated SVG ([`animation`]).
//!
//! ```
//! use pegsol::{games::solve::{search, Goal, Outcome}, geometry::Board};
//! let b = Board::from_spec("tri:5")?;
//! let s = search(&b, b.default_start(), Goal::one_peg_anywhere(&b), 1 << 30)?;
//! assert!(matches!(s.outcome, Outcome::Found(ref jumps) if jumps.len() == 13));
//! # Ok::<(), pegsol::error::Error>(())
//! ```

pub mod animation;
pub mod extremes;
pub mod minmoves;
pub mod notation;
pub mod solve;
