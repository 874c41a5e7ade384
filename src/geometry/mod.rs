//! Geometry: what a board is. Holes on a lattice and their names ([`board`]), the lattices'
//! directions and maps ([`lattice`]), the symmetry group computed from them ([`symmetry`]),
//! the legal jumps as bit operations ([`moves`]), pagoda functions ([`pagoda`]), bitboard widths ([`bits`]), and the
//! Merson regions used by lower bounds ([`regions`]). Depends on nothing but [`crate::error`].
//!
//! ```
//! use pegsol::geometry::Board;
//! let b = Board::from_spec("english")?;
//! assert_eq!((b.holes(), b.jumps().len(), b.symmetries().len()), (33, 76, 8));
//! # Ok::<(), pegsol::error::Error>(())
//! ```

pub mod bits;
pub mod board;
pub mod last_move;
pub mod lattice;
pub mod moves;
pub mod pagoda;
pub mod regions;
pub mod symmetry;

pub use bits::Bits;
pub use board::{Board, Jump, Pegs, bit, column_name};
pub use lattice::{Lattice, LatticeMap};
pub use moves::MoveTable;
pub use symmetry::{Symmetry, Transforms};
