//! The hint cache: the solvable positions from a start and their `W`, built once and read
//! back from a file ([`HintCache`]).

use super::*;

/// A solvable set and the winning continuations of each of its positions, kept for
/// [`hint`]s: built once from a position (the start of a game), it answers at once for
/// every position reachable from there, in a file if wished ([`HintCache::write`],
/// [`HintCache::read`]). Positions are kept in canonical form under the symmetries that
/// fix the goal.
///
/// ```
/// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let cache = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
/// let h = cache.hint(&b, b.default_start()).unwrap();
/// assert_eq!(h.wins, 29_760); // published: tri:5 from a1
/// // After the best jump, the cache still knows the answer.
/// let next = b.default_start() ^ h.jumps[0].jump.mask();
/// assert_eq!(cache.hint(&b, next).unwrap().wins, h.jumps[0].wins);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HintCache {
    /// Which board and goal: [`HintCache::identity`].
    identity: String,
    /// The position the cache was built from.
    start: Pegs,
    goal: Pegs,
    /// Layer `j`: the solvable positions `j` jumps after the start, sorted, with their `W`.
    layers: Vec<Vec<(Pegs, u128)>>,
}

/// The first line of a hint cache file. Format 2 added the checksum line; a file of
/// format 1 ([`OLD_CACHE_MAGIC`]) is refused with a line that says to rebuild it.
pub(super) const CACHE_MAGIC: &str = "pegsol hint cache 2";
/// The first line of a hint cache file written before the checksum (format 1).
const OLD_CACHE_MAGIC: &str = "pegsol hint cache 1";

impl HintCache {
    /// The solvable positions from `position` (ending on `finish`) and their wins.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(c.hint(&b, b.default_start()).unwrap().wins, 29_760); // published
    /// ```
    pub fn build(
        board: &Board,
        position: Pegs,
        finish: Finish,
        opts: &SolveOptions,
    ) -> Result<HintCache> {
        Self::build_layers(board, position, finish, opts, true)
    }

    /// [`HintCache::build`]; without `whole`, when the goal is the position's complement,
    /// only the layers up to the middle (enough for the position itself and its children).
    pub(super) fn build_layers(
        board: &Board,
        position: Pegs,
        finish: Finish,
        opts: &SolveOptions,
        whole: bool,
    ) -> Result<HintCache> {
        let layers = with_pool(opts, || {
            if board.holes() <= 64 {
                Solver::<u64>::new(board, position, finish, false)
                    .within(opts.max_memory)
                    .table(opts, whole)
            } else {
                Solver::<u128>::new(board, position, finish, false)
                    .within(opts.max_memory)
                    .table(opts, whole)
            }
        })?;
        Ok(HintCache {
            identity: Self::identity(board, finish),
            start: position,
            goal: finish.mask(board),
            layers,
        })
    }

    /// The board (name, holes, lattice, jumps) and the goal a cache belongs to, as one line.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// assert!(HintCache::identity(&b, Finish::Any).starts_with("board tri:5, finish any"));
    /// ```
    pub fn identity(board: &Board, finish: Finish) -> String {
        format!(
            "board {}, finish {}, {} holes on the {} lattice at {:?}, {} jumps",
            board.name(),
            finish.name(board),
            board.holes(),
            board.lattice().name(),
            board.cells(),
            board.jumps().len()
        )
    }

    /// Solvable positions kept.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(c.len(), 390); // the solvable positions up to symmetry
    /// ```
    pub fn len(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }

    /// Every solvable position kept, layer by layer, in canonical form under the symmetries
    /// that fix the goal (the other members of their orbits are solvable too).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(c.positions().count(), c.len());
    /// // The first is the start (in canonical form): as many pegs.
    /// assert_eq!(c.positions().next().map(u128::count_ones), Some(b.default_start().count_ones()));
    /// ```
    pub fn positions(&self) -> impl Iterator<Item = Pegs> + '_ {
        self.layers.iter().flatten().map(|&(k, _)| k)
    }

    /// Whether no position is solvable from the cache's start.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert!(!c.is_empty());
    /// // Two pegs in two corners: no jump, so nothing is solvable.
    /// let corners = (1 << b.hole("a1").unwrap()) | (1 << b.hole("a5").unwrap());
    /// let dead = HintCache::build(&b, corners, Finish::Any, &SolveOptions::default()).unwrap();
    /// assert!(dead.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the cache keeps `pos`: it is reachable from the cache's start and a win
    /// (ending as asked) is still possible from it.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert!(c.is_solvable(&b, b.default_start()));
    /// assert!(!c.is_solvable(&b, b.full())); // not reachable from a1
    /// ```
    pub fn is_solvable(&self, board: &Board, pos: Pegs) -> bool {
        self.wins_of(board, pos).is_some()
    }

    /// `W` of `pos` (its winning continuations) when the cache keeps it, that is when `pos`
    /// is solvable and reachable from the cache's start, so the value is never 0; `None`
    /// for any other position (lost, or not reachable from the cache's start).
    pub(super) fn wins_of(&self, board: &Board, pos: Pegs) -> Option<u128> {
        let start_pegs = self.start.count_ones();
        let pegs = pos.count_ones();
        if pegs > start_pegs {
            return None;
        }
        let layer = self.layers.get((start_pegs - pegs) as usize)?;
        let key = board
            .symmetries()
            .iter()
            .filter(|s| board.transform(s, self.goal) == self.goal)
            .map(|s| board.transform(s, pos))
            .min()
            .unwrap_or(pos);
        layer
            .binary_search_by(|&(k, _)| k.cmp(&key))
            .ok()
            .map(|i| layer[i].1)
    }

    /// The hint for `position` when it is one of the cache's solvable positions (reachable
    /// from the cache's start and winnable): then every solvable child is kept too, and a
    /// child not kept loses. `None` for any other position (lost, or not reachable from the
    /// cache's start): [`hint`] answers those.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// let h = c.hint(&b, b.default_start()).unwrap();
    /// // The two first jumps are mirror images: 14,880 wins each.
    /// assert_eq!(h.jumps.iter().map(|j| j.wins).collect::<Vec<_>>(), [14_880, 14_880]);
    /// let won = c.hint(&b, 1).unwrap(); // one peg, in a1: a finished win
    /// assert_eq!((won.wins, won.jumps.len()), (1, 0));
    /// ```
    pub fn hint(&self, board: &Board, position: Pegs) -> Option<Hint> {
        let wins = self.wins_of(board, position)?;
        let mut jumps: Vec<JumpWins> = board
            .jumps()
            .iter()
            .filter(|j| j.is_legal(position))
            .map(|&jump| JumpWins {
                jump,
                wins: self.wins_of(board, position ^ jump.mask()).unwrap_or(0),
            })
            .collect();
        jumps.sort_by(|a, b| b.wins.cmp(&a.wins).then(a.jump.cmp(&b.jump)));
        Some(Hint { wins, jumps })
    }

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
