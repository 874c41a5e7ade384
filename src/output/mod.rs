//! How results are written, for any computation: CSV rendering and atomic files
//! ([`files`]; a set of them rolled forward after a kill, [`journal`]; their folders,
//! [`dirs`]), and SVG charts and board pictures ([`plot`], [`moves_map`]). Depends only
//! on [`crate::geometry`] and [`crate::error`]; the exporters that know a result type sit beside it (for example [`crate::count::export`]).
//!
//! ```
//! let bytes = pegsol::output::files::csv_bytes(&["a", "b"], &[vec!["1".to_string(), "2".into()]])?;
//! assert_eq!(bytes, b"a,b\n1,2\n");
//! # Ok::<(), pegsol::error::Error>(())
//! ```

pub mod dirs;
pub mod files;
pub mod journal;
pub mod moves_map;
pub mod plot;
pub mod temps;
