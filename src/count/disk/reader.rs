//! Reading a shard file back: its header and payload checked, entry by entry.

use super::*;

/// Reads one shard file back, entry by entry, checking its header first and its checksum
/// at the end.
pub struct ShardReader {
    pub(super) file: File,
    pub(super) path: PathBuf,
    pub(super) header: Header,
    pub(super) crc: crc32fast::Hasher,
    pub(super) buf: Vec<u8>,
    pub(super) at: usize,
    pub(super) read: u64,
    /// Whether the file has been read to its end: then nothing is left to fill with.
    pub(super) eof: bool,
    pub(super) left: u64,
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

    pub(super) fn corrupt(&self, why: &str) -> Error {
        Error::Disk(format!(
            "{} is not a usable layer file ({why}); remove the work directory to start over",
            self.path.display()
        ))
    }

    /// Makes at least `want` bytes available at `self.at` (fewer only at the end of the
    /// file).
    pub(super) fn fill(&mut self, want: usize) -> Result<()> {
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

    /// The next entry: its key (`key_bytes` bytes) and `starts` counts (one per start);
    /// `None` after the last, once the checksum has been checked.
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
    pub fn next(&mut self, key_bytes: usize, starts: usize) -> Result<Option<(u128, Vec<Total>)>> {
        let mut counts = vec![Total::ZERO; starts];
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
    pub fn verify(self, key_bytes: usize, starts: usize) -> Result<u64> {
        self.verify_with(key_bytes, starts, |_, _| Ok(()))
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
        starts: usize,
        mut check: impl FnMut(u128, &[Total]) -> std::result::Result<(), String>,
    ) -> Result<u64> {
        let mut counts = vec![Total::ZERO; starts];
        let mut n = 0;
        while let Some(key) = self.next_into(key_bytes, &mut counts)? {
            check(key, &counts).map_err(|why| self.corrupt(&why))?;
            n += 1;
        }
        Ok(n)
    }
}
