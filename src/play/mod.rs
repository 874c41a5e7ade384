//! `pegsol play`'s model: a game being played ([`Game`]), the counts beside it computed in
//! the background ([`Counter`]), where each hole is drawn ([`layout`]), and what the end of
//! a game says ([`ending_lines`]). The terminal interface itself is the command line's
//! (`cli::play`); nothing here prints.

mod counts;
mod ending;
mod game;
pub mod layout;

pub use counts::{COMPARE_HOLES, Counted, Counter};
pub use ending::ending_lines;
pub use game::Game;
