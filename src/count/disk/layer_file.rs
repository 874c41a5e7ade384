//! A layer's shard file: the sweep's identity, the checked header, and the writer.

use super::*;

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
pub(super) struct Header {
    pub(super) format: String,
    #[serde(flatten)]
    pub(super) id: Identity,
    pub(super) layer: usize,
    pub(super) shard: usize,
    pub(super) entries: u64,
    pub(super) bytes: u64,
    pub(super) crc32: u32,
}

impl Header {
    /// The header's `HEADER` bytes as [`ShardWriter::finish`] writes them: compact JSON,
    /// padded with spaces, then a newline.
    pub(super) fn to_bytes(&self) -> Vec<u8> {
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
    pub(super) fn parse(head: &[u8]) -> std::result::Result<Header, String> {
        let header: Header = serde_json::from_slice(head.trim_ascii_end())
            .map_err(|e| format!("bad header: {e}"))?;
        if header.to_bytes() != head {
            return Err("a header not as pegsol writes it: a field added or renamed".into());
        }
        Ok(header)
    }
}

/// A writer that checksums what it passes on.
pub(super) struct Crc<W> {
    pub(super) inner: W,
    pub(super) crc: crc32fast::Hasher,
    pub(super) bytes: u64,
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
    pub(super) out: BufWriter<Crc<File>>,
    pub(super) tmp: PathBuf,
    pub(super) path: PathBuf,
    pub(super) header: Header,
    pub(super) scratch: Vec<u8>,
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
