//! Small text inputs, game and board files, read within a size limit: a file given by
//! mistake (`/dev/zero`, a video) is refused with one line before it fills the memory.

use crate::error::{Error, Result};
use std::path::Path;

/// The most a game or board file may hold: 16 MiB. A game on a board of 128 holes has
/// at most 127 jumps, and drawn after every move (`check --show`) takes a few kilobytes;
/// a longer input (`/dev/zero`, a file given by mistake) is refused before it fills the
/// memory.
pub const MAX_TEXT_BYTES: u64 = 16 << 20;

/// Reads a game or board file, or any small text input (`reader`, called `name` in
/// messages), refusing one over [`MAX_TEXT_BYTES`] or not UTF-8.
///
/// ```
/// use pegsol::input::{read_text, MAX_TEXT_BYTES};
/// assert_eq!(read_text(&b"board: tri:5\na3-a1\n"[..], "game.txt")?, "board: tri:5\na3-a1\n");
/// let long = std::io::repeat(b'o').take(MAX_TEXT_BYTES + 1);
/// # use std::io::Read;
/// let e = read_text(long, "/dev/zero").unwrap_err();
/// assert_eq!(e.to_string(), "cannot read /dev/zero: it holds more than 16 MiB, more than a game or board file");
/// assert_eq!(read_text(&b"\xff"[..], "x").unwrap_err().to_string(), "cannot read x: it is not UTF-8 text");
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn read_text(reader: impl std::io::Read, name: &str) -> Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader
        .take(MAX_TEXT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::input(format!("cannot read {name}: {}", e)))?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(Error::input(format!(
            "cannot read {name}: it holds more than {} MiB, more than a game or board file",
            MAX_TEXT_BYTES >> 20
        )));
    }
    String::from_utf8(bytes)
        .map_err(|_| Error::input(format!("cannot read {name}: it is not UTF-8 text")))
}

/// Opens and reads a game or board file with [`read_text`], named `what` and its path in
/// messages (`what` is empty, or ends with a space).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let missing = dir.path().join("none.txt");
/// let e = pegsol::input::read_text_file(&missing, "board file ").unwrap_err();
/// assert!(e.to_string().starts_with("cannot read board file "), "{e}");
/// assert_eq!(e.exit_code(), 2);
/// ```
pub fn read_text_file(path: &Path, what: &str) -> Result<String> {
    let name = format!("{what}{}", path.display());
    let file = std::fs::File::open(path)
        .map_err(|e| Error::input(format!("cannot read {name}: {}", e)))?;
    read_text(file, &name)
}
