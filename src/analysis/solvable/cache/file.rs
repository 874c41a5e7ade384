//! The hint cache's file: its bytes ([`HintCache::to_bytes`]) with a checked head, and
//! the checks that refuse another board's cache, a damaged one or one no cache can hold
//! ([`HintCache::from_bytes`]).

use super::*;

/// The first line of a hint cache file. Format 2 added the checksum line; a file of
/// format 1 ([`OLD_CACHE_MAGIC`]) is refused with a line that says to rebuild it.
const CACHE_MAGIC: &str = "pegsol hint cache 2";
/// The first line of a hint cache file written before the checksum (format 1).
const OLD_CACHE_MAGIC: &str = "pegsol hint cache 1";

impl HintCache {
    /// The cache as bytes: a text header (magic line, identity, start, number of layers),
    /// a line with the CRC-32 of everything else in the file (the three header lines and
    /// the body), then per layer its length and (position, `W`) pairs as little-endian
    /// `u128`s.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// let bytes = c.to_bytes();
    /// assert!(bytes.starts_with(b"pegsol hint cache 2\nboard tri:5, finish any, 15 holes"));
    /// // The fourth line is the checksum's.
    /// let line = bytes.split(|&b| b == b'\n').nth(3).unwrap();
    /// assert!(line.starts_with(b"crc32 ") && line.len() == 14);
    /// assert_eq!(HintCache::from_bytes(&bytes, &b, Finish::Any).unwrap(), c);
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let head = format!(
            "{CACHE_MAGIC}\n{}\nstart {} goal {} layers {}\n",
            self.identity,
            self.start,
            self.goal,
            self.layers.len()
        )
        .into_bytes();
        let mut body = Vec::with_capacity(self.len() * 32 + self.layers.len() * 8);
        for layer in &self.layers {
            body.extend_from_slice(&(layer.len() as u64).to_le_bytes());
            for &(k, w) in layer {
                body.extend_from_slice(&k.to_le_bytes());
                body.extend_from_slice(&w.to_le_bytes());
            }
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        crc.update(&body);
        let mut out = head;
        out.extend_from_slice(format!("crc32 {:08x}\n", crc.finalize()).as_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads a cache written by [`HintCache::to_bytes`], refusing one of another board or
    /// goal than `board` and `finish`, or a damaged one.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(HintCache::from_bytes(&c.to_bytes(), &b, Finish::Any).unwrap(), c);
    /// let a1 = Finish::Hole(b.hole("a1").unwrap());
    /// assert!(HintCache::from_bytes(&c.to_bytes(), &b, a1).is_err());
    /// // One flipped bit anywhere in the body: the checksum refuses the file.
    /// let mut bytes = c.to_bytes();
    /// bytes[300] ^= 1;
    /// let err = HintCache::from_bytes(&bytes, &b, Finish::Any).unwrap_err().to_string();
    /// assert!(err.contains("damaged hint cache"), "{err}");
    /// ```
    pub fn from_bytes(bytes: &[u8], board: &Board, finish: Finish) -> Result<HintCache> {
        let (identity, numbers_line, rest) = checked_head(bytes)?;
        check_identity(&identity, &Self::identity(board, finish))?;
        let [start, goal, count] = parse_numbers(&numbers_line)?;
        let layers = read_layers(rest, count)?;
        if !holds_a_cache(board, finish, start, goal, &layers) {
            return Err(Error::input(
                "a damaged hint cache (values no cache can hold); delete it to rebuild it",
            ));
        }
        Ok(HintCache {
            identity,
            start,
            goal,
            layers,
        })
    }

    /// Writes the cache to `path` (through a temporary file, renamed at the end).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("tri5-any.cache");
    /// c.write(&path).unwrap();
    /// assert_eq!(std::fs::read(&path).unwrap(), c.to_bytes());
    /// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1); // no temporary file left
    /// ```
    pub fn write(&self, path: &std::path::Path) -> Result<()> {
        crate::output::files::write_file_atomically(path, &self.to_bytes())
    }

    /// Reads the cache in `path` ([`HintCache::from_bytes`]), which must be a regular file
    /// of at most `max_bytes` bytes (the memory budget): anything else (a device, a FIFO, a
    /// directory, a larger file) is refused before a byte of it is read.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("tri5-any.cache");
    /// c.write(&path).unwrap();
    /// assert_eq!(HintCache::read(&path, &b, Finish::Any, 1 << 30).unwrap(), c);
    /// let other = Board::from_spec("tri:6").unwrap();
    /// assert!(HintCache::read(&path, &other, Finish::Any, 1 << 30).is_err());
    /// // Larger than the budget, or not a regular file: refused.
    /// assert!(HintCache::read(&path, &b, Finish::Any, 1000).is_err());
    /// assert!(HintCache::read(dir.path(), &b, Finish::Any, 1 << 30).is_err());
    /// ```
    pub fn read(
        path: &std::path::Path,
        board: &Board,
        finish: Finish,
        max_bytes: u64,
    ) -> Result<HintCache> {
        use std::io::Read;
        use std::os::unix::fs::OpenOptionsExt;
        let fail = |e: std::io::Error| Error::input(format!("cannot read {}: {e}", path.display()));
        let regular = |meta: &std::fs::Metadata| -> Result<u64> {
            if !meta.is_file() {
                return Err(Error::input(format!(
                    "{} is not a regular file; --cache names a file that pegsol writes",
                    path.display()
                )));
            }
            if meta.len() > max_bytes {
                return Err(Error::input(format!(
                    "{} holds {} bytes ({}), more than the memory budget of {} (--max-memory); \
                     not read",
                    path.display(),
                    meta.len(),
                    crate::memory::human(meta.len()),
                    crate::memory::human(max_bytes)
                )));
            }
            Ok(meta.len())
        };
        // Checked before opening (opening a FIFO waits for a writer), and again on the file
        // opened, without waiting, in case the path changed in between.
        regular(&std::fs::metadata(path).map_err(fail)?)?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
            .map_err(fail)?;
        let len = regular(&file.metadata().map_err(fail)?)?;
        // At most one byte more than the length seen, so a file that grows stays bounded.
        let mut bytes = Vec::with_capacity(len as usize);
        file.take(len.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(fail)?;
        Self::from_bytes(&bytes, board, finish)
            .map_err(|e| Error::input(format!("{}: {e}", path.display())))
    }
}

/// The refusal of a file that is not a hint cache or a damaged one.
fn damaged() -> Error {
    Error::input("not a pegsol hint cache, or a damaged one")
}

/// The next line of a cache's head (without its newline); `rest` moves past it.
fn next_line(rest: &mut &[u8]) -> Result<String> {
    let end = rest.iter().position(|&b| b == b'\n').ok_or_else(damaged)?;
    let text = std::str::from_utf8(&rest[..end]).map_err(|_| damaged())?;
    *rest = &rest[end + 1..];
    Ok(text.to_string())
}

/// The identity and numbers lines of a cache and its body, once its magic line and its
/// checksum are right: everything but the checksum line is checked before any of it is used.
fn checked_head(bytes: &[u8]) -> Result<(String, String, &[u8])> {
    let mut rest = bytes;
    let magic = next_line(&mut rest)?;
    if magic == OLD_CACHE_MAGIC {
        return Err(Error::input(
            "a hint cache of an older pegsol (format 1, without a checksum); delete it to \
             rebuild it",
        ));
    }
    if magic != CACHE_MAGIC {
        return Err(damaged());
    }
    let identity = next_line(&mut rest)?;
    let numbers_line = next_line(&mut rest)?;
    let head = bytes.len() - rest.len();
    let crc_line = next_line(&mut rest)?;
    let stored = crc_line
        .strip_prefix("crc32 ")
        .and_then(|x| u32::from_str_radix(x, 16).ok())
        .ok_or_else(damaged)?;
    let mut crc = crc32fast::Hasher::new();
    crc.update(&bytes[..head]);
    crc.update(rest);
    if crc.finalize() != stored {
        return Err(Error::input(
            "a damaged hint cache (checksum mismatch); delete it to rebuild it",
        ));
    }
    Ok((identity, numbers_line, rest))
}

/// Refuses a cache whose identity line is not `want` (another board or goal).
fn check_identity(identity: &str, want: &str) -> Result<()> {
    if identity == want {
        return Ok(());
    }
    let short = |s: &str| s.split(", ").take(2).collect::<Vec<_>>().join(", ");
    Err(Error::input(format!(
        "the hint cache is for {}, not {}{}",
        short(identity),
        short(want),
        if short(identity) == short(want) {
            " (the board file changed)"
        } else {
            ""
        }
    )))
}

/// The start, goal and number of layers of the numbers line, which must read exactly as
/// written: no label renamed, no number respaced or padded.
fn parse_numbers(numbers_line: &str) -> Result<[u128; 3]> {
    let numbers: Vec<u128> = numbers_line
        .split(' ')
        .skip(1)
        .step_by(2)
        .map(|x| x.parse().map_err(|_| damaged()))
        .collect::<Result<_>>()?;
    let [start, goal, count] = numbers[..] else {
        return Err(damaged());
    };
    if numbers_line != format!("start {start} goal {goal} layers {count}") {
        return Err(damaged());
    }
    Ok([start, goal, count])
}

/// The `count` layers of a cache's body, each sorted, with nothing after the last.
fn read_layers(mut rest: &[u8], count: u128) -> Result<Vec<Vec<(Pegs, u128)>>> {
    let mut layers = Vec::new();
    for _ in 0..count {
        let n = u64::from_le_bytes(
            rest.get(..8)
                .ok_or_else(damaged)?
                .try_into()
                .expect("8 bytes"),
        ) as usize;
        rest = &rest[8..];
        let body = rest
            .get(..n.checked_mul(32).ok_or_else(damaged)?)
            .ok_or_else(damaged)?;
        let word = |c: &[u8]| u128::from_le_bytes(c.try_into().expect("16 bytes"));
        let layer: Vec<(Pegs, u128)> = body
            .chunks_exact(32)
            .map(|c| (word(&c[..16]), word(&c[16..])))
            .collect();
        if !layer.is_sorted() {
            return Err(damaged());
        }
        layers.push(layer);
        rest = &rest[n * 32..];
    }
    if !rest.is_empty() {
        return Err(damaged());
    }
    Ok(layers)
}

/// What a cache must hold, beyond its checksum (a file edited and its checksum made
/// again): the goal of its finish; a start on the board; in layer `j`, positions on the
/// board with `j` pegs fewer than the start, strictly increasing, each with some winning
/// continuation; and a last layer of single pegs, each a win by itself (so that `W`s
/// scaled all alike are refused too).
fn holds_a_cache(
    board: &Board,
    finish: Finish,
    start: Pegs,
    goal: Pegs,
    layers: &[Vec<(Pegs, u128)>],
) -> bool {
    let start_pegs = start.count_ones() as usize;
    let on_board = |p: Pegs| p & !board.full() == 0;
    let last = layers.len().checked_sub(1);
    goal == finish.mask(board)
        && on_board(start)
        && layers.len() <= start_pegs
        && layers.iter().enumerate().all(|(j, layer)| {
            let pegs = start_pegs - j;
            layer.windows(2).all(|w| w[0].0 < w[1].0)
                && layer.iter().all(|&(p, w)| {
                    on_board(p)
                        && p.count_ones() as usize == pegs
                        && w != 0
                        && (Some(j) != last || pegs != 1 || w == 1)
                })
        })
}
