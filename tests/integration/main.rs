//! The one integration-test binary; each area of pegsol has a submodule.

mod common;
mod table;
