//! The one integration-test binary; each area of pegsol has a submodule.

mod cli;
mod common;
mod published;
mod reference;
mod symmetry;
