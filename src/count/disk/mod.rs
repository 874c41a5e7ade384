//! Layers on disk: the files a sweep keeps its layers in once they outgrow memory, the
//! checkpoint that lets a sweep resume, and the work directory that holds both.
//!
//! A sweep's work directory (`--work-dir DIR`, default `./pegsol-work`) holds one folder
//! per sweep, named after the board and the starts. In it, `layer-JJJ/shard-SS` holds the
//! entries of shard `SS` of the layer after `JJJ` jumps, and `checkpoint.json` names the
//! last layer whose every shard is written, with the statistics of the layers before it.
//! Each shard file starts with a [`HEADER`]-byte header (JSON, padded with spaces): the
//! format, the sweep's identity (board, starts, lanes, key encoding), the layer, the shard,
//! the number of entries, the payload's length and its CRC-32. Then come the entries: the
//! stored key in little-endian bytes, then one LEB128 varint per start (a count is 256-bit,
//! up to 37 bytes: [`Total::write_varint`]). A file whose header does not match the sweep,
//! whose length is wrong or whose checksum fails is refused with one line
//! ([`Error::Disk`]); it is never read as data.
//!
//! Storage deals in keys (`u128`, stored in a given number of bytes) and counts ([`Total`]),
//! never in the engine's lanes. Its rooms: `layer_file.rs` (the identity, the header, the
//! writer), `reader.rs`, `checkpoint.rs`, `work.rs` (a sweep's folder: lock, layers,
//! checkpoints, resume); this file the shared helpers (opening a regular file, folder
//! names, free space, removal).
//!
//! ```
//! let t = |n: u128| pegsol::total::Total::from(n); // counts are 256-bit `Total`s
//! use pegsol::count::disk::{Identity, ShardWriter, ShardReader};
//! let dir = tempfile::tempdir().unwrap();
//! let id = Identity::new("tri:5 (test)", &[1, 2], "u32 keys");
//! let path = dir.path().join("shard-00");
//! let mut w = ShardWriter::create(&path, &id, 3, 0)?;
//! w.push(7, 4, &[t(5), t(1 << 100)])?;
//! w.push(9, 4, &[t(0), t(1)])?;
//! assert_eq!(w.finish()?.entries, 2);
//! let mut r = ShardReader::open(&path, &id, 3, 0)?;
//! let mut all = Vec::new();
//! while let Some(entry) = r.next(4, 2)? {
//!     all.push(entry);
//! }
//! assert_eq!(all, [(7, vec![t(5), t(1 << 100)]), (9, vec![t(0), t(1)])]);
//! # Ok::<(), pegsol::error::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::total::Total;
use serde::{Deserialize, Serialize};
use std::fs::{self, File};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

mod checkpoint;
mod layer_file;
mod reader;
mod work;
pub use checkpoint::*;
pub use layer_file::*;
pub use reader::*;
pub(crate) use work::*;

/// Bytes of a shard file's header.
pub const HEADER: usize = 512;

/// The format named in every header and checkpoint.
const FORMAT: &str = "pegsol-layer 1";
/// The checkpoint of a sweep's folder, and the one before it (kept under MPI only until every
/// rank has recorded the new one).
const CHECKPOINT: &str = "checkpoint.json";
const PREVIOUS: &str = "checkpoint-prev.json";

fn io_error(path: &Path, what: &str, e: std::io::Error) -> Error {
    Error::Disk(format!("cannot {what} {}: {e}", path.display()))
}

/// Opens `path` for reading if it is a regular file. A FIFO, a device, a socket or a
/// directory in its place is refused with an error of kind `InvalidInput` naming what it
/// is, rather than read: opening a FIFO for reading blocks until a writer comes, for ever
/// in a work directory. The file is opened without blocking and its type checked on the
/// handle, so that nothing can be swapped in between the check and the read.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let file = dir.path().join("checkpoint.json");
/// std::fs::write(&file, "{}").unwrap();
/// assert!(pegsol::count::disk::open_regular(&file).is_ok());
/// let e = pegsol::count::disk::open_regular(dir.path()).unwrap_err();
/// assert_eq!(e.to_string(), "not a regular file but a directory");
/// ```
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let not_regular = |kind: fs::FileType| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("not a regular file but {}", kind_name(kind)),
        )
    };
    let file = match fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
    {
        Ok(f) => f,
        // A socket cannot be opened at all (ENXIO): say what it is.
        Err(e) => match fs::metadata(path) {
            Ok(m) if !m.is_file() => return Err(not_regular(m.file_type())),
            _ => return Err(e),
        },
    };
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    Err(not_regular(kind))
}

/// What a file type is, in words: `a directory`, `a FIFO`, ...
fn kind_name(kind: fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "something else"
    }
}

/// A name for a folder from free text: letters, digits, `.`, `-` and `_` kept, the rest `_`.
/// A name longer than 128 bytes (many starts, a long board file name) keeps its first 110
/// and a CRC-32 of the whole text, so it stays within every file system's limit (255).
///
/// ```
/// use pegsol::count::disk::folder_name;
/// assert_eq!(folder_name("tri:8 from a1+b2"), "tri_8_from_a1_b2");
/// let long = format!("{} from a1", "b".repeat(300));
/// assert_eq!(folder_name(&long).len(), 110 + 9);
/// assert_ne!(folder_name(&long), folder_name(&format!("{} from a2", "b".repeat(300))));
/// ```
pub fn folder_name(text: &str) -> String {
    let name: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.len() <= 128 {
        return name;
    }
    format!("{}-{:08x}", &name[..110], crc32fast::hash(text.as_bytes()))
}

/// Removes a finished sweep's folder `dir` in the work directory, and the work directory
/// with it if that leaves it empty: what a sweep does itself when it succeeds, unless its
/// caller deferred it until the results were written ([`crate::count::sweep::Swept::work`]).
///
/// ```
/// let root = tempfile::tempdir().unwrap();
/// let work = root.path().join("pegsol-work");
/// std::fs::create_dir_all(work.join("tri_5_from_a1")).unwrap();
/// pegsol::count::disk::remove_work(&work.join("tri_5_from_a1"))?;
/// assert!(!work.exists()); // empty, so removed too
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn remove_work(dir: &Path) -> Result<()> {
    fs::remove_dir_all(dir).map_err(|e| io_error(dir, "remove", e))?;
    if let Some(root) = dir.parent() {
        let _ = fs::remove_dir(root); // only if empty
    }
    Ok(())
}

/// Checks that the directory `dir` exists or can be made, making (and removing again) what
/// is missing of it: the real cause, where the nearest existing ancestor (such as `/proc`)
/// reports no free space because nothing can be made in it.
///
/// ```
/// use std::path::Path;
/// let root = tempfile::tempdir().unwrap();
/// let dir = root.path().join("a/b");
/// assert!(pegsol::count::disk::check_creatable(&dir).is_ok());
/// assert!(!root.path().join("a").exists()); // removed again
/// let e = pegsol::count::disk::check_creatable(Path::new("/proc/nope")).unwrap_err();
/// assert!(e.to_string().starts_with("cannot create /proc/nope: "), "{e}");
/// ```
pub fn check_creatable(dir: &Path) -> Result<()> {
    let mut missing = Vec::new();
    let mut d = dir;
    while !d.exists() {
        missing.push(d);
        match d.parent() {
            Some(p) if !p.as_os_str().is_empty() => d = p,
            _ => break,
        }
    }
    fs::create_dir_all(dir).map_err(|e| io_error(dir, "create", e))?;
    for m in missing {
        let _ = fs::remove_dir(m); // deepest first
    }
    Ok(())
}

/// Writes everything of the file system holding `dir` to the device (one `syncfs` for a
/// whole layer, where a sync per file cost 5 ms each).
fn sync_dir(dir: &Path) -> Result<()> {
    use std::os::fd::AsRawFd;
    let d = File::open(dir).map_err(|e| io_error(dir, "sync", e))?;
    // SAFETY: a valid open file descriptor.
    if unsafe { libc::syncfs(d.as_raw_fd()) } != 0 {
        return Err(io_error(dir, "sync", std::io::Error::last_os_error()));
    }
    Ok(())
}

/// Bytes free for an unprivileged user on the file system holding `dir` (or its nearest
/// existing ancestor).
///
/// ```
/// assert!(pegsol::count::disk::free_bytes(std::path::Path::new(".")).unwrap() > 0);
/// ```
pub fn free_bytes(dir: &Path) -> Option<u64> {
    let mut d = dir;
    while !d.exists() {
        d = d.parent()?;
    }
    let d = if d.as_os_str().is_empty() {
        Path::new(".")
    } else {
        d
    };
    let c = std::ffi::CString::new(d.as_os_str().as_encoded_bytes()).ok()?;
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a valid C string and `st` a valid out-pointer.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    Some(st.f_bavail as u64 * st.f_frsize as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(dir: &Path, id: &Identity) -> PathBuf {
        let p = dir.join("shard-03");
        let mut w = ShardWriter::create(&p, id, 4, 3).unwrap();
        for k in 0..1000u32 {
            w.push(u128::from(k), 4, &[Total::from(u128::from(k) << 70)])
                .unwrap();
        }
        w.finish().unwrap();
        p
    }

    fn read_all(p: &Path, id: &Identity) -> Result<u64> {
        ShardReader::open(p, id, 4, 3)?.verify(4, 1)
    }

    #[test]
    fn damaged_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let id = Identity::new("tri:6", &[2], "u32");
        let p = sample(dir.path(), &id);
        assert_eq!(read_all(&p, &id).unwrap(), 1000);
        // Another sweep's file.
        let other = Identity::new("tri:7", &[2], "u32");
        assert!(matches!(read_all(&p, &other), Err(Error::Disk(_))));
        // A flipped byte in the payload.
        let mut bytes = fs::read(&p).unwrap();
        bytes[HEADER + 777] ^= 0x10;
        fs::write(&p, &bytes).unwrap();
        let err = read_all(&p, &id).unwrap_err().to_string();
        assert!(
            err.contains("checksum") || err.contains("bad count"),
            "{err}"
        );
        // Truncated.
        bytes[HEADER + 777] ^= 0x10;
        fs::write(&p, &bytes[..bytes.len() - 5]).unwrap();
        let err = read_all(&p, &id).unwrap_err().to_string();
        assert!(err.contains("truncated"), "{err}");
        // Garbage header.
        fs::write(&p, b"hello").unwrap();
        assert!(matches!(read_all(&p, &id), Err(Error::Disk(_))));
    }
}
