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

/// Bytes of a shard file's header.
pub const HEADER: usize = 512;

/// The format named in every header and checkpoint.
const FORMAT: &str = "pegsol-layer 1";
/// The checkpoint of a sweep's folder, and the one before it (kept under MPI only until every
/// rank has recorded the new one).
const CHECKPOINT: &str = "checkpoint.json";
const PREVIOUS: &str = "checkpoint-prev.json";

/// What makes two sweeps the same, for their files: the board (name and a fingerprint of
/// its jumps), the starts, and how keys and counts are stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The board, with a fingerprint of its holes and jumps.
    pub board: String,
    /// The starts, as decimal bitboards.
    pub starts: Vec<String>,
    /// The key encoding and number of lanes.
    pub encoding: String,
}

impl Identity {
    /// The identity of a sweep of `board` (its description) from `starts`, with keys and
    /// counts stored as `encoding` says.
    ///
    /// ```
    /// let id = pegsol::count::disk::Identity::new("tri:5 (test)", &[1, 1 << 100], "u32 keys");
    /// assert_eq!(id.starts, ["1", "1267650600228229401496703205376"]);
    /// assert_eq!((id.board.as_str(), id.encoding.as_str()), ("tri:5 (test)", "u32 keys"));
    /// ```
    pub fn new(board: &str, starts: &[u128], encoding: &str) -> Identity {
        Identity {
            board: board.to_string(),
            starts: starts.iter().map(u128::to_string).collect(),
            encoding: encoding.to_string(),
        }
    }
}

/// A shard file's header.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    format: String,
    #[serde(flatten)]
    id: Identity,
    layer: usize,
    shard: usize,
    entries: u64,
    bytes: u64,
    crc32: u32,
}

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

impl Header {
    /// The header's `HEADER` bytes as [`ShardWriter::finish`] writes them: compact JSON,
    /// padded with spaces, then a newline.
    fn to_bytes(&self) -> Vec<u8> {
        let mut text = serde_json::to_vec(self).expect("a header serializes");
        if text.len() < HEADER {
            text.resize(HEADER - 1, b' ');
            text.push(b'\n');
        }
        text
    }

    /// Reads a header, refusing one that is not byte for byte as pegsol writes it: a field
    /// renamed, dropped or added (an unknown one would be ignored by the parser, a missing
    /// checksum would switch the check off), reordered or respaced.
    fn parse(head: &[u8]) -> std::result::Result<Header, String> {
        let header: Header = serde_json::from_slice(head.trim_ascii_end())
            .map_err(|e| format!("bad header: {e}"))?;
        if header.to_bytes() != head {
            return Err("a header not as pegsol writes it: a field added or renamed".into());
        }
        Ok(header)
    }
}

/// A writer that checksums what it passes on.
struct Crc<W> {
    inner: W,
    crc: crc32fast::Hasher,
    bytes: u64,
}

impl<W: Write> Write for Crc<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// What a finished shard file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Entries in the file.
    pub entries: u64,
    /// Bytes of the file, header included.
    pub bytes: u64,
}

/// Writes one shard file: to `NAME.tmp`, renamed to `NAME` once complete and synced.
pub struct ShardWriter {
    out: BufWriter<Crc<File>>,
    tmp: PathBuf,
    path: PathBuf,
    header: Header,
    scratch: Vec<u8>,
}

impl ShardWriter {
    /// Starts the file of shard `shard` of layer `layer` at `path`.
    ///
    /// ```
    /// use pegsol::count::disk::{Identity, ShardWriter};
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("shard-00");
    /// let w = ShardWriter::create(&path, &Identity::new("tri:5", &[1], "u32"), 3, 0)?;
    /// // Written under a temporary name until finished.
    /// assert!(path.with_extension("tmp").exists() && !path.exists());
    /// w.finish()?;
    /// assert!(path.exists() && !path.with_extension("tmp").exists());
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn create(path: &Path, id: &Identity, layer: usize, shard: usize) -> Result<ShardWriter> {
        let tmp = path.with_extension("tmp");
        let mut file = File::create(&tmp).map_err(|e| io_error(&tmp, "create", e))?;
        file.write_all(&[b' '; HEADER])
            .map_err(|e| io_error(&tmp, "write", e))?;
        Ok(ShardWriter {
            out: BufWriter::with_capacity(
                1 << 20,
                Crc {
                    inner: file,
                    crc: crc32fast::Hasher::new(),
                    bytes: 0,
                },
            ),
            tmp,
            path: path.to_path_buf(),
            header: Header {
                format: FORMAT.into(),
                id: id.clone(),
                layer,
                shard,
                entries: 0,
                bytes: 0,
                crc32: 0,
            },
            scratch: Vec::with_capacity(64),
        })
    }

    /// Appends one entry: the stored key's low `key_bytes` bytes and one count per start.
    ///
    /// ```
    /// # let t = |n: u128| pegsol::total::Total::from(n);
    /// use pegsol::count::disk::{Identity, ShardWriter};
    /// let dir = tempfile::tempdir().unwrap();
    /// let id = Identity::new("tri:5", &[1, 2], "u32");
    /// let mut w = ShardWriter::create(&dir.path().join("shard-00"), &id, 3, 0)?;
    /// w.push(7, 4, &[t(5), t(1)])?; // 4 key bytes, then one varint byte per count
    /// w.push(9, 4, &[t(300), t(0)])?; // 300 takes two varint bytes
    /// let written = w.finish()?;
    /// assert_eq!((written.entries, written.bytes), (2, 512 + 6 + 7));
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn push(&mut self, key: u128, key_bytes: usize, counts: &[Total]) -> Result<()> {
        self.scratch.clear();
        self.scratch
            .extend_from_slice(&key.to_le_bytes()[..key_bytes]);
        for &c in counts {
            c.write_varint(&mut self.scratch);
        }
        self.header.entries += 1;
        self.out
            .write_all(&self.scratch)
            .map_err(|e| io_error(&self.tmp, "write", e))
    }

    /// Bytes written so far, header included.
    ///
    /// ```
    /// # let t = |n: u128| pegsol::total::Total::from(n);
    /// use pegsol::count::disk::{Identity, ShardWriter, HEADER};
    /// let dir = tempfile::tempdir().unwrap();
    /// let id = Identity::new("tri:5", &[1], "u32");
    /// let mut w = ShardWriter::create(&dir.path().join("shard-00"), &id, 3, 0)?;
    /// assert_eq!(w.bytes(), HEADER as u64);
    /// w.push(7, 4, &[t(5)])?;
    /// assert_eq!(w.bytes(), HEADER as u64 + 5);
    /// assert_eq!(w.finish()?.bytes, HEADER as u64 + 5);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn bytes(&self) -> u64 {
        HEADER as u64 + self.out.get_ref().bytes + self.out.buffer().len() as u64
    }

    /// Writes the header, syncs the file and gives it its name.
    ///
    /// ```
    /// # let t = |n: u128| pegsol::total::Total::from(n);
    /// use pegsol::count::disk::{Identity, ShardWriter, Written};
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("shard-00");
    /// let mut w = ShardWriter::create(&path, &Identity::new("tri:5", &[1], "u32"), 3, 0)?;
    /// w.push(7, 4, &[t(5)])?;
    /// assert_eq!(w.finish()?, Written { entries: 1, bytes: 517 });
    /// assert_eq!(std::fs::metadata(&path).unwrap().len(), 517);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn finish(mut self) -> Result<Written> {
        self.out
            .flush()
            .map_err(|e| io_error(&self.tmp, "write", e))?;
        let crc = self.out.into_inner().map_err(|e| {
            let tmp = self.tmp.clone();
            io_error(&tmp, "write", e.into_error())
        })?;
        self.header.bytes = crc.bytes;
        self.header.crc32 = crc.crc.finalize();
        let mut file = crc.inner;
        let text = self.header.to_bytes();
        if text.len() > HEADER || text.last() != Some(&b'\n') {
            return Err(Error::Disk(format!(
                "the header of {} needs {} bytes, more than {HEADER}",
                self.path.display(),
                text.len()
            )));
        }
        use std::io::{Seek, SeekFrom};
        file.seek(SeekFrom::Start(0))
            .and_then(|_| file.write_all(&text))
            .map_err(|e| io_error(&self.tmp, "write", e))?;
        // Synced with the whole layer, once, before its checkpoint ([`Work::checkpoint`]).
        drop(file);
        fs::rename(&self.tmp, &self.path).map_err(|e| io_error(&self.path, "rename into", e))?;
        Ok(Written {
            entries: self.header.entries,
            bytes: HEADER as u64 + self.header.bytes,
        })
    }
}

/// Reads one shard file back, entry by entry, checking its header first and its checksum
/// at the end.
pub struct ShardReader {
    file: File,
    path: PathBuf,
    header: Header,
    crc: crc32fast::Hasher,
    buf: Vec<u8>,
    at: usize,
    read: u64,
    /// Whether the file has been read to its end: then nothing is left to fill with.
    eof: bool,
    left: u64,
}

impl ShardReader {
    /// Opens the file of shard `shard` of layer `layer` of the sweep `id`, refusing it if
    /// its header says otherwise or its length does not match.
    ///
    /// ```
    /// # let t = |n: u128| pegsol::total::Total::from(n);
    /// # use pegsol::count::disk::{Identity, ShardReader, ShardWriter};
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let path = dir.path().join("shard-05");
    /// # let id = Identity::new("tri:5", &[1, 2], "u32");
    /// # let mut w = ShardWriter::create(&path, &id, 3, 5)?;
    /// # w.push(7, 4, &[t(5), t(1 << 100)])?;
    /// # w.push(9, 4, &[t(0), t(1)])?;
    /// # w.finish()?;
    /// assert!(ShardReader::open(&path, &id, 3, 5).is_ok());
    /// // Another sweep's file, or another layer's, is refused.
    /// let other = Identity::new("tri:6", &[1, 2], "u32");
    /// assert!(ShardReader::open(&path, &other, 3, 5).is_err());
    /// assert!(ShardReader::open(&path, &id, 4, 5).is_err());
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn open(path: &Path, id: &Identity, layer: usize, shard: usize) -> Result<ShardReader> {
        let corrupt = |why: &str| {
            Error::Disk(format!(
                "{} is not a usable layer file ({why}); remove the work directory to start over",
                path.display()
            ))
        };
        let mut file = open_regular(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidInput => corrupt(&e.to_string()),
            _ => io_error(path, "open", e),
        })?;
        let mut head = vec![0u8; HEADER];
        file.read_exact(&mut head)
            .map_err(|_| corrupt("truncated header"))?;
        let header = Header::parse(&head).map_err(|why| corrupt(&why))?;
        if header.format != FORMAT {
            return Err(corrupt(&format!("format {:?}", header.format)));
        }
        if header.id != *id {
            return Err(corrupt(&format!(
                "it belongs to another sweep: {}",
                header.id.board
            )));
        }
        if (header.layer, header.shard) != (layer, shard) {
            return Err(corrupt(&format!(
                "it holds layer {} shard {}, not layer {layer} shard {shard}",
                header.layer, header.shard
            )));
        }
        let len = file
            .metadata()
            .map_err(|e| io_error(path, "read", e))?
            .len();
        if len != HEADER as u64 + header.bytes {
            return Err(corrupt(&format!(
                "{len} bytes where its header says {}: truncated or overwritten",
                HEADER as u64 + header.bytes
            )));
        }
        Ok(ShardReader {
            file,
            path: path.to_path_buf(),
            left: header.entries,
            header,
            crc: crc32fast::Hasher::new(),
            buf: Vec::new(),
            at: 0,
            read: 0,
            eof: false,
        })
    }

    fn corrupt(&self, why: &str) -> Error {
        Error::Disk(format!(
            "{} is not a usable layer file ({why}); remove the work directory to start over",
            self.path.display()
        ))
    }

    /// Makes at least `want` bytes available at `self.at` (fewer only at the end of the
    /// file).
    fn fill(&mut self, want: usize) -> Result<()> {
        // At the end of the file the last entries are shorter than `want`; refilling for
        // each of them zeroed a megabyte a time, most of a small sweep's time on disk.
        if self.buf.len() - self.at >= want || self.eof {
            return Ok(());
        }
        self.buf.drain(..self.at);
        self.at = 0;
        let have = self.buf.len();
        // No more than the header says is left (and a byte, to see one more than that).
        let left = self.header.bytes.saturating_sub(self.read) + 1;
        let room = (1 << 20)
            .max(want)
            .min(usize::try_from(left).unwrap_or(usize::MAX));
        self.buf.resize(have + room, 0);
        let mut filled = have;
        while filled < self.buf.len() {
            let n = self
                .file
                .read(&mut self.buf[filled..])
                .map_err(|e| io_error(&self.path, "read", e))?;
            if n == 0 {
                self.eof = true;
                break;
            }
            self.crc.update(&self.buf[filled..filled + n]);
            filled += n;
        }
        self.read += (filled - have) as u64;
        self.buf.truncate(filled);
        Ok(())
    }

    /// The next entry: its key (`key_bytes` bytes) and `lanes` counts; `None` after the
    /// last, once the checksum has been checked.
    ///
    /// ```
    /// # let t = |n: u128| pegsol::total::Total::from(n);
    /// # use pegsol::count::disk::{Identity, ShardReader, ShardWriter};
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let path = dir.path().join("shard-05");
    /// # let id = Identity::new("tri:5", &[1, 2], "u32");
    /// # let mut w = ShardWriter::create(&path, &id, 3, 5)?;
    /// # w.push(7, 4, &[t(5), t(1 << 100)])?;
    /// # w.push(9, 4, &[t(0), t(1)])?;
    /// # w.finish()?;
    /// // Two entries written: 7 with counts [5, 2^100], 9 with [0, 1].
    /// let mut r = ShardReader::open(&path, &id, 3, 5)?;
    /// assert_eq!(r.next(4, 2)?, Some((7, vec![t(5), t(1 << 100)])));
    /// assert_eq!(r.next(4, 2)?, Some((9, vec![t(0), t(1)])));
    /// assert_eq!(r.next(4, 2)?, None);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn next(&mut self, key_bytes: usize, lanes: usize) -> Result<Option<(u128, Vec<Total>)>> {
        let mut counts = vec![Total::ZERO; lanes];
        Ok(self
            .next_into(key_bytes, &mut counts)?
            .map(|key| (key, counts)))
    }

    /// The next entry's key (`key_bytes` bytes), its counts written into `counts`; `None`
    /// after the last, once the checksum has been checked.
    ///
    /// ```
    /// # let t = |n: u128| pegsol::total::Total::from(n);
    /// # use pegsol::count::disk::{Identity, ShardReader, ShardWriter};
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let path = dir.path().join("shard-05");
    /// # let id = Identity::new("tri:5", &[1, 2], "u32");
    /// # let mut w = ShardWriter::create(&path, &id, 3, 5)?;
    /// # w.push(7, 4, &[t(5), t(1 << 100)])?;
    /// # w.push(9, 4, &[t(0), t(1)])?;
    /// # w.finish()?;
    /// // Two entries written: 7 with counts [5, 2^100], 9 with [0, 1].
    /// let mut r = ShardReader::open(&path, &id, 3, 5)?;
    /// let mut counts = [t(0); 2];
    /// assert_eq!(r.next_into(4, &mut counts)?, Some(7));
    /// assert_eq!(counts, [t(5), t(1 << 100)]);
    /// assert_eq!(r.next_into(4, &mut counts)?, Some(9));
    /// assert_eq!(counts, [t(0), t(1)]);
    /// assert_eq!(r.next_into(4, &mut counts)?, None);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn next_into(&mut self, key_bytes: usize, counts: &mut [Total]) -> Result<Option<u128>> {
        if self.left == 0 {
            self.fill(1)?;
            if self.at < self.buf.len() || self.read != self.header.bytes {
                return Err(self.corrupt("more bytes than its entries"));
            }
            if self.crc.clone().finalize() != self.header.crc32 {
                return Err(self.corrupt("checksum mismatch"));
            }
            return Ok(None);
        }
        self.fill(key_bytes + 37 * counts.len())?;
        let rest = &self.buf[self.at..];
        let Some(bytes) = rest.get(..key_bytes) else {
            return Err(self.corrupt("it ends inside an entry"));
        };
        let mut key = [0u8; 16];
        key[..key_bytes].copy_from_slice(bytes);
        let mut rest = &rest[key_bytes..];
        for c in counts.iter_mut() {
            let (v, after) = Total::read_varint(rest).ok_or_else(|| self.corrupt("bad count"))?;
            *c = v;
            rest = after;
        }
        self.at = self.buf.len() - rest.len();
        self.left -= 1;
        Ok(Some(u128::from_le_bytes(key)))
    }

    /// Reads the whole file and checks its checksum.
    ///
    /// ```
    /// # let t = |n: u128| pegsol::total::Total::from(n);
    /// # use pegsol::count::disk::{Identity, ShardReader, ShardWriter};
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let path = dir.path().join("shard-05");
    /// # let id = Identity::new("tri:5", &[1, 2], "u32");
    /// # let mut w = ShardWriter::create(&path, &id, 3, 5)?;
    /// # w.push(7, 4, &[t(5), t(1 << 100)])?;
    /// # w.push(9, 4, &[t(0), t(1)])?;
    /// # w.finish()?;
    /// // Two entries written.
    /// assert_eq!(ShardReader::open(&path, &id, 3, 5)?.verify(4, 2)?, 2);
    /// // One flipped bit in the payload: the checksum fails.
    /// let mut bytes = std::fs::read(&path).unwrap();
    /// *bytes.last_mut().unwrap() ^= 0x40;
    /// std::fs::write(&path, &bytes).unwrap();
    /// assert!(ShardReader::open(&path, &id, 3, 5)?.verify(4, 2).is_err());
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn verify(self, key_bytes: usize, lanes: usize) -> Result<u64> {
        self.verify_with(key_bytes, lanes, |_, _| Ok(()))
    }

    /// [`ShardReader::verify`], asking `check(key, counts)` about every entry too: an
    /// entry it refuses (with the reason) makes the file unusable. A file edited and its
    /// checksum made again passes the checksum, not a check of what its entries must be.
    ///
    /// ```
    /// # let t = |n: u128| pegsol::total::Total::from(n);
    /// # use pegsol::count::disk::{Identity, ShardReader, ShardWriter};
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let path = dir.path().join("shard-05");
    /// # let id = Identity::new("tri:5", &[1, 2], "u32");
    /// # let mut w = ShardWriter::create(&path, &id, 3, 5)?;
    /// # w.push(7, 4, &[t(5), t(1 << 100)])?;
    /// # w.push(9, 4, &[t(0), t(1)])?;
    /// # w.finish()?;
    /// let odd = |key: u128, _: &[pegsol::total::Total]| match key % 2 {
    ///     1 => Ok(()),
    ///     _ => Err(format!("key {key} is even")),
    /// };
    /// assert_eq!(ShardReader::open(&path, &id, 3, 5)?.verify_with(4, 2, odd)?, 2);
    /// let small = |key: u128, _: &[pegsol::total::Total]| match key < 8 {
    ///     true => Ok(()),
    ///     false => Err(format!("key {key} is too large")),
    /// };
    /// let e = ShardReader::open(&path, &id, 3, 5)?.verify_with(4, 2, small).unwrap_err();
    /// assert!(e.to_string().contains("(key 9 is too large)"), "{e}");
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn verify_with(
        mut self,
        key_bytes: usize,
        lanes: usize,
        mut check: impl FnMut(u128, &[Total]) -> std::result::Result<(), String>,
    ) -> Result<u64> {
        let mut counts = vec![Total::ZERO; lanes];
        let mut n = 0;
        while let Some(key) = self.next_into(key_bytes, &mut counts)? {
            check(key, &counts).map_err(|why| self.corrupt(&why))?;
            n += 1;
        }
        Ok(n)
    }
}

/// One layer's statistics in a checkpoint: jumps, positions, positions up to symmetry,
/// games ended (a decimal string), dead ends.
pub(crate) type LayerRow = (usize, u64, u64, String, u64);

/// A sweep's statistics so far, as a checkpoint keeps them (counts as decimal strings).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Progress {
    /// Per start, per layer: jumps, positions, positions up to symmetry, games ended (as
    /// a decimal string), dead ends.
    pub layers: Vec<Vec<LayerRow>>,
    /// Per start, per hole: wins finishing there (decimal strings).
    pub finish: Vec<Vec<String>>,
    /// Positions counted so far.
    pub positions: u64,
    /// Entries of the layer before the checkpoint's.
    pub previous: usize,
    /// Entries of the layer before that (zero in checkpoints of pegsol before it kept this).
    #[serde(default)]
    pub before_previous: usize,
    /// Entries of the checkpoint's layer whose counts carried past narrow lanes (zero in
    /// checkpoints of pegsol before it kept this).
    #[serde(default)]
    pub carried: u64,
    /// Whether counts are still kept in narrow lanes.
    pub narrow: bool,
    /// What the sweep cost up to this checkpoint, over every process that worked on it
    /// (zero in checkpoints of pegsol before it kept this).
    #[serde(default)]
    pub spent: Spent,
}

/// What a sweep cost up to a checkpoint, over every process that worked on it: a sweep
/// resumed after an interruption reports the whole (`runs.csv`), not only its last part.
/// The time between an interruption and the resume, and the work lost with the layer in
/// progress, are not counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spent {
    /// Wall time, in milliseconds.
    pub millis: u64,
    /// The largest peak resident set size of those processes, in bytes (0: unknown).
    pub peak_rss: u64,
}

/// The checkpoint file of a sweep.
#[derive(Debug, Serialize, Deserialize)]
struct Checkpoint {
    format: String,
    #[serde(flatten)]
    id: Identity,
    /// The layer whose shard files are complete and not yet swept.
    layer: usize,
    /// Entries and bytes per shard file of that layer.
    shards: Vec<(u64, u64)>,
    progress: Progress,
    /// The CRC-32 of the checkpoint's compact JSON without this field
    /// ([`Checkpoint::checksum`]). Always written; a checkpoint read without it (of a pegsol
    /// before it kept one, or edited) is refused ([`Checkpoint::sealed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    crc32: Option<u32>,
}

impl Checkpoint {
    /// The CRC-32 of the checkpoint's content: its compact JSON with no `crc32` field, the
    /// fields in their declared order (one serialization for one content, whatever the
    /// file's spacing or field order).
    fn checksum(&self) -> u32 {
        let bare = Checkpoint {
            format: self.format.clone(),
            id: self.id.clone(),
            layer: self.layer,
            shards: self.shards.clone(),
            progress: self.progress.clone(),
            crc32: None,
        };
        crc32fast::hash(&serde_json::to_vec(&bare).expect("a checkpoint serializes"))
    }

    /// Checks that the checkpoint read from `text` is as pegsol writes it (byte for byte:
    /// no field added, renamed, dropped or reordered) and carries its checksum, and that the
    /// checksum matches. A checkpoint without one (of a pegsol before it kept one, or with
    /// its key renamed) is refused: its figures cannot be told from edited ones.
    fn sealed(&self, text: &[u8]) -> std::result::Result<(), String> {
        let Some(stored) = self.crc32 else {
            return Err("it has no checksum: written by an older pegsol, or edited".into());
        };
        if serde_json::to_vec_pretty(self).expect("a checkpoint serializes") != text {
            return Err("not as pegsol writes it: a field added, renamed or reordered".into());
        }
        if stored != self.checksum() {
            return Err("checksum mismatch".into());
        }
        Ok(())
    }

    /// Checks what a checkpoint of layer `layer` always holds, since the sweep records one
    /// row per start for each layer swept before `layer` in which that start still has
    /// positions: per start, rows for jumps `0, 1, ..., m - 1` with `m <= layer`, and
    /// `m == layer` for some start (the layer swept last had entries); positions up to
    /// symmetry and dead ends within the positions, games ended exactly where there are
    /// dead ends; `positions` the sum of the rows' positions; `previous` the entries of
    /// layer `layer - 1` (at least one, at most its positions over all starts, none at
    /// layer 0), `before_previous` those of layer `layer - 2` (or 0, unknown); the wins
    /// per hole decimal, as many holes for every start. Returns what does not hold.
    fn consistent(&self) -> std::result::Result<(), String> {
        let p = &self.progress;
        let starts = self.id.starts.len();
        if p.layers.len() != starts || p.finish.len() != starts {
            return Err(format!(
                "statistics of {} and {} starts for a sweep of {starts}",
                p.layers.len(),
                p.finish.len()
            ));
        }
        if self.shards.is_empty() {
            return Err("no shard files".into());
        }
        let mut total: u128 = 0;
        for (k, rows) in p.layers.iter().enumerate() {
            if rows.len() > self.layer {
                return Err(format!(
                    "{} layers of statistics for start {k} before layer {}",
                    rows.len(),
                    self.layer
                ));
            }
        }
        // The layer number is checked against the statistics before anything is sized by
        // it (a layer of 2^64 - 1 with a matching CRC once asked for that many counters).
        let longest = p.layers.iter().map(Vec::len).max().unwrap_or(0);
        if starts > 0 && longest != self.layer {
            return Err(format!(
                "statistics of {longest} layers before layer {}",
                self.layer
            ));
        }
        let mut per_layer = vec![0u128; longest];
        for (k, rows) in p.layers.iter().enumerate() {
            // A start's games, summed as `Counts::games` will sum them.
            let mut games_so_far = Total::ZERO;
            for (j, (jumps, positions, reduced, games, dead)) in rows.iter().enumerate() {
                let games: Total = games
                    .parse()
                    .map_err(|_| format!("games ended {games:?} is not a count"))?;
                games_so_far = games_so_far
                    .plus(games)
                    .map_err(|_| format!("the games of start {k} sum past 2^256"))?;
                if *jumps != j
                    || *positions == 0
                    || reduced > positions
                    || dead > positions
                    || games.is_zero() != (*dead == 0)
                {
                    return Err(format!("row {j} of start {k} does not add up"));
                }
                total += u128::from(*positions);
                per_layer[j] += u128::from(*positions);
            }
        }
        if total != u128::from(p.positions) {
            return Err(format!(
                "{} positions where its layers hold {total}",
                p.positions
            ));
        }
        let most = |j: Option<usize>| j.and_then(|j| per_layer.get(j).copied()).unwrap_or(0);
        let (previous, before) = (p.previous as u128, p.before_previous as u128);
        if (self.layer > 0 && previous == 0)
            || previous > most(self.layer.checked_sub(1))
            || before > most(self.layer.checked_sub(2))
        {
            return Err(format!(
                "{} and {} entries in the layers before layer {}",
                p.previous, p.before_previous, self.layer
            ));
        }
        let holes = p.finish.first().map_or(0, Vec::len);
        for f in &p.finish {
            if f.len() != holes || f.iter().any(|w| w.parse::<Total>().is_err()) {
                return Err("the wins per hole are not counts".into());
            }
        }
        Ok(())
    }
}

/// One sweep's folder in the work directory.
pub(crate) struct Work {
    dir: PathBuf,
    id: Identity,
    /// The folder existed with a checkpoint, or this run made it.
    made: bool,
    keep: bool,
    /// The folder's lock ([`files::lock_dir`]), held from the first look at it.
    lock: Option<File>,
}

/// A finished layer on disk: its folder and what each shard file holds.
#[derive(Clone, Debug)]
pub(crate) struct LayerFiles {
    /// The layer (jumps made).
    pub(crate) layer: usize,
    /// Its folder.
    pub(crate) dir: PathBuf,
    /// Per shard: entries and bytes.
    pub(crate) shards: Vec<Written>,
}

impl LayerFiles {
    /// Entries of the layer.
    pub(crate) fn entries(&self) -> u64 {
        self.shards.iter().map(|w| w.entries).sum()
    }
    /// Bytes of its files.
    pub(crate) fn bytes(&self) -> u64 {
        self.shards.iter().map(|w| w.bytes).sum()
    }
    /// The file of shard `s`.
    pub(crate) fn path(&self, s: usize) -> PathBuf {
        shard_path(&self.dir, s)
    }
}

fn shard_path(dir: &Path, s: usize) -> PathBuf {
    dir.join(format!("shard-{s:02}"))
}

/// Whether the sweep folder `dir` holds a checkpoint (a layer to resume from).
pub(crate) fn has_checkpoint(dir: &Path) -> bool {
    dir.join(CHECKPOINT).is_file()
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

impl Work {
    /// The folder `name` of the sweep `id` under `root` (not created yet).
    pub(crate) fn new(root: &Path, name: &str, id: Identity, keep: bool) -> Work {
        Work {
            dir: root.join(folder_name(name)),
            id,
            made: false,
            keep,
            lock: None,
        }
    }

    /// Locks the folder, if it exists, for this run: another run on it is refused.
    fn lock(&mut self) -> Result<()> {
        if self.lock.is_none() && self.dir.is_dir() {
            self.lock = Some(crate::output::files::lock_dir(&self.dir, "--work-dir")?);
        }
        Ok(())
    }

    /// The sweep's folder.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Creates the folder (and the work directory) if missing.
    pub(crate) fn create(&mut self) -> Result<()> {
        fs::create_dir_all(&self.dir).map_err(|e| io_error(&self.dir, "create", e))?;
        self.made = true;
        self.lock()
    }

    /// The folder of layer `layer`, emptied.
    pub(crate) fn fresh_layer_dir(&self, layer: usize) -> Result<PathBuf> {
        let dir = self.dir.join(format!("layer-{layer:03}"));
        if dir.exists() {
            fs::remove_dir_all(&dir).map_err(|e| io_error(&dir, "remove", e))?;
        }
        fs::create_dir_all(&dir).map_err(|e| io_error(&dir, "create", e))?;
        Ok(dir)
    }

    /// The error for a checkpoint resumed from ([`Work::resume`]) that the sweep finds
    /// inconsistent: names the file, says why, and how to start over.
    pub(crate) fn damaged(&self, why: &str) -> Error {
        Error::Disk(format!(
            "{} is damaged ({why}); remove {} to start over",
            self.dir.join(CHECKPOINT).display(),
            self.dir.display()
        ))
    }

    /// The sweep's identity.
    pub(crate) fn id(&self) -> &Identity {
        &self.id
    }

    /// Records `files` as the layer to resume from, with the statistics so far, then
    /// removes every other layer's folder.
    pub(crate) fn checkpoint(&self, files: &LayerFiles, progress: &Progress) -> Result<()> {
        self.write_checkpoint(files, progress)?;
        self.remove_layers_but(Some(files.layer))
    }

    /// Records `files` as the layer to resume from, as [`Work::checkpoint`] does, but keeps
    /// the checkpoint before it (as `checkpoint-prev.json`) and its layer's files, for a
    /// sweep shared by several MPI ranks: until every rank has recorded the new layer, the
    /// job must be able to resume from the old one ([`Work::forget_before`]).
    pub(crate) fn checkpoint_keeping(&self, files: &LayerFiles, progress: &Progress) -> Result<()> {
        let path = self.dir.join(CHECKPOINT);
        if path.exists() {
            let prev = self.dir.join(PREVIOUS);
            fs::rename(&path, &prev).map_err(|e| io_error(&prev, "rename into", e))?;
        }
        self.write_checkpoint(files, progress)
    }

    /// Removes the checkpoint [`Work::checkpoint_keeping`] kept and every layer's folder but
    /// `layer`'s.
    pub(crate) fn forget_before(&self, layer: usize) -> Result<()> {
        let prev = self.dir.join(PREVIOUS);
        if prev.exists() {
            fs::remove_file(&prev).map_err(|e| io_error(&prev, "remove", e))?;
        }
        self.remove_layers_but(Some(layer))
    }

    fn write_checkpoint(&self, files: &LayerFiles, progress: &Progress) -> Result<()> {
        sync_dir(&files.dir)?;
        let ck = Checkpoint {
            format: FORMAT.into(),
            id: self.id.clone(),
            layer: files.layer,
            shards: files.shards.iter().map(|w| (w.entries, w.bytes)).collect(),
            progress: progress.clone(),
            crc32: None,
        };
        let ck = Checkpoint {
            crc32: Some(ck.checksum()),
            ..ck
        };
        let path = self.dir.join(CHECKPOINT);
        let tmp = self.dir.join("checkpoint.json.tmp");
        let text = serde_json::to_vec_pretty(&ck).expect("a checkpoint serializes");
        let mut f = File::create(&tmp).map_err(|e| io_error(&tmp, "create", e))?;
        f.write_all(&text)
            .and_then(|_| f.sync_all())
            .map_err(|e| io_error(&tmp, "write", e))?;
        fs::rename(&tmp, &path).map_err(|e| io_error(&path, "rename into", e))?;
        File::open(&self.dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| io_error(&self.dir, "sync", e))
    }

    /// Removes the folders of every layer but `keep`, and other leftovers.
    fn remove_layers_but(&self, keep: Option<usize>) -> Result<()> {
        let Ok(read) = fs::read_dir(&self.dir) else {
            return Ok(());
        };
        let keep = keep.map(|l| format!("layer-{l:03}"));
        for e in read.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if (name.starts_with("layer-") || name == "reduce") && Some(&name) != keep.as_ref() {
                let p = e.path();
                fs::remove_dir_all(&p).map_err(|e| io_error(&p, "remove", e))?;
            }
        }
        Ok(())
    }

    /// The checkpoint to resume from, if the folder has one: the layer's files (each header
    /// and length checked, and every checksum when `verify` is given) and the statistics so
    /// far. A checkpoint of another sweep, or a damaged one, is refused.
    pub(crate) fn resume(
        &mut self,
        verify: impl Fn(&Path, usize, usize) -> Result<u64>,
    ) -> Result<Option<(LayerFiles, Progress)>> {
        match self.checkpoint_layers()?.first() {
            Some(&layer) => self.resume_layer(Some(layer), verify),
            None => Ok(None),
        }
    }

    /// The layers the folder's checkpoints name, newest first: the last one and, when a
    /// sweep of several MPI ranks stopped before every rank recorded its layer, the one
    /// before ([`Work::checkpoint_keeping`]).
    pub(crate) fn checkpoint_layers(&mut self) -> Result<Vec<usize>> {
        self.lock()?;
        let mut layers = Vec::new();
        for name in [CHECKPOINT, PREVIOUS] {
            if let Some(ck) = self.read_checkpoint(name)? {
                layers.push(ck.layer);
            }
        }
        layers.sort_unstable_by(|a, b| b.cmp(a));
        layers.dedup();
        Ok(layers)
    }

    /// Resumes from the checkpoint of `layer` ([`Work::checkpoint_layers`]), as
    /// [`Work::resume`] does; with `None`, forgets every checkpoint and layer of the folder
    /// (the sweep starts over: another rank of the job had none).
    pub(crate) fn resume_layer(
        &mut self,
        layer: Option<usize>,
        verify: impl Fn(&Path, usize, usize) -> Result<u64>,
    ) -> Result<Option<(LayerFiles, Progress)>> {
        let Some(layer) = layer else {
            for name in [CHECKPOINT, PREVIOUS] {
                let p = self.dir.join(name);
                if p.exists() {
                    fs::remove_file(&p).map_err(|e| io_error(&p, "remove", e))?;
                    self.made = true;
                }
            }
            self.remove_layers_but(None)?;
            return Ok(None);
        };
        let mut found = None;
        for name in [CHECKPOINT, PREVIOUS] {
            if let Some(ck) = self.read_checkpoint(name)?
                && ck.layer == layer
                && found.is_none()
            {
                found = Some((name, ck));
            }
        }
        let path = self.dir.join(CHECKPOINT);
        let Some((name, ck)) = found else {
            return Err(Error::Disk(format!(
                "{} has no checkpoint of layer {layer}, where the other ranks of the job \
                 resume; remove {} to start over",
                self.dir.display(),
                self.dir.display()
            )));
        };
        // One checkpoint from here on: the one resumed from.
        let prev = self.dir.join(PREVIOUS);
        if name == PREVIOUS {
            fs::rename(&prev, &path).map_err(|e| io_error(&path, "rename into", e))?;
        } else if prev.exists() {
            fs::remove_file(&prev).map_err(|e| io_error(&prev, "remove", e))?;
        }
        let bad = |why: String| {
            Error::Disk(format!(
                "{} is not a usable checkpoint ({why}); remove {} to start over",
                path.display(),
                self.dir.display()
            ))
        };
        self.made = true;
        self.remove_layers_but(Some(ck.layer))?;
        let dir = self.dir.join(format!("layer-{:03}", ck.layer));
        let mut shards = Vec::new();
        for (s, &(entries, bytes)) in ck.shards.iter().enumerate() {
            let p = shard_path(&dir, s);
            let n = verify(&p, ck.layer, s)?;
            let len = fs::metadata(&p).map_err(|e| io_error(&p, "read", e))?.len();
            if n != entries || len != bytes {
                return Err(bad(format!("{} does not match it", p.display())));
            }
            shards.push(Written { entries, bytes });
        }
        Ok(Some((
            LayerFiles {
                layer: ck.layer,
                dir,
                shards,
            },
            ck.progress,
        )))
    }

    /// The checkpoint file `name` of the folder, checked to be this sweep's; `None` when
    /// there is none.
    fn read_checkpoint(&self, name: &str) -> Result<Option<Checkpoint>> {
        let path = self.dir.join(name);
        let mut text = Vec::new();
        match open_regular(&path).and_then(|mut f| f.read_to_end(&mut text)) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                return Err(Error::Disk(format!(
                    "{} is {e}; remove {} to start over",
                    path.display(),
                    self.dir.display()
                )));
            }
            Err(e) => return Err(io_error(&path, "read", e)),
        }
        let bad = |why: String| {
            Error::Disk(format!(
                "{} is not a usable checkpoint ({why}); remove {} to start over",
                path.display(),
                self.dir.display()
            ))
        };
        let damaged = |why: String| {
            Error::Disk(format!(
                "{} is damaged ({why}); remove {} to start over",
                path.display(),
                self.dir.display()
            ))
        };
        let ck: Checkpoint =
            serde_json::from_slice(&text).map_err(|e| damaged(format!("unreadable: {e}")))?;
        ck.sealed(&text).map_err(damaged)?;
        if ck.format != FORMAT {
            return Err(bad(format!("format {:?}", ck.format)));
        }
        if ck.id != self.id {
            return Err(bad(format!(
                "it belongs to another sweep: {} from {:?}",
                ck.id.board, ck.id.starts
            )));
        }
        ck.consistent().map_err(damaged)?;
        Ok(Some(ck))
    }

    /// After a successful sweep: removes the folder (and the work directory, if that
    /// leaves it empty) unless asked to keep it.
    pub(crate) fn finish(self) -> Result<()> {
        if self.keep || !self.made {
            return Ok(());
        }
        remove_work(&self.dir)
    }

    /// After a successful sweep whose results are not yet written: the folder to remove
    /// once they are ([`remove_work`]), if there is one to remove.
    pub(crate) fn defer(self) -> Option<PathBuf> {
        (!self.keep && self.made).then_some(self.dir)
    }
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
