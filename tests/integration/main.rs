//! The one integration-test binary; each area of pegsol has a submodule.

mod cli;
mod common;
mod disk;
mod docs;
mod faults;
mod hardness;
mod line;
mod min_moves;
mod min_moves_bounds;
mod mpi;
mod play;
mod published;
mod random;
mod reference;
mod results;
mod solvable;
mod solve;
mod sweep;
mod symmetry;
mod table;
