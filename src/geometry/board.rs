//! Board geometry: holes on a lattice, their names, the jumps along lattice lines, the
//! symmetry group, and positions written as pictures or hole lists.
//!
//! A board is a finite set of lattice cells `(row, col)` (rows from the top, 0-based). The
//! holes are numbered in reading order (row by row, left to right); a *position* is the set
//! of holes holding a peg, stored as a bit mask [`Pegs`] with bit `i` for hole `i`.
//!
//! Triangular boards use skewed ("axial") coordinates: row `r` of `tri:N` holds the columns
//! `0..=r`, and the six lattice directions are left/right, up/down and the diagonal
//! up-left/down-right. In a board file a triangle is therefore drawn left-justified:
//!
//! ```text
//! lattice: triangular
//! .
//! oo
//! ooo
//! ```

use crate::error::{Error, Result};
use crate::geometry::lattice::{Lattice, LatticeMap};
use crate::geometry::symmetry::Symmetry;
use std::collections::HashMap;
use std::path::Path;

/// A position as a bit mask over the board's holes (bit `i` set = hole `i` holds a peg).
/// Boards have at most [`MAX_HOLES`] holes.
pub type Pegs = u128;

/// The largest number of holes a board may have.
pub const MAX_HOLES: usize = 128;

/// One jump: the peg in `from` jumps over `over` into the empty hole `to` (hole indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Jump {
    pub from: usize,
    pub over: usize,
    pub to: usize,
}

impl Jump {
    /// The three holes the jump touches, as a mask.
    ///
    /// ```
    /// use pegsol::geometry::board::{Jump, bit};
    /// let j = Jump { from: 3, over: 1, to: 0 }; // tri:5: a3 over a2 into a1
    /// assert_eq!(j.mask(), bit(0) | bit(1) | bit(3));
    /// ```
    pub fn mask(self) -> Pegs {
        bit(self.from) | bit(self.over) | bit(self.to)
    }

    /// Whether the jump is legal in `pegs`.
    ///
    /// ```
    /// use pegsol::geometry::board::{Board, Jump};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let j = Jump { from: 3, over: 1, to: 0 }; // a3 over a2 into a1
    /// assert!(j.is_legal(b.default_start()));
    /// assert!(!j.is_legal(b.full())); // a1 is not empty
    /// ```
    pub fn is_legal(self, pegs: Pegs) -> bool {
        pegs & self.mask() == bit(self.from) | bit(self.over)
    }
}

/// The bit of hole `i`.
///
/// ```
/// assert_eq!(pegsol::geometry::board::bit(3), 0b1000);
/// ```
pub fn bit(i: usize) -> Pegs {
    1u128 << i
}

/// A board: its holes, jumps, symmetry group and default start.
#[derive(Clone, Debug)]
pub struct Board {
    name: String,
    spec: String,
    lattice: Lattice,
    cells: Vec<(i32, i32)>,
    index: HashMap<(i32, i32), usize>,
    jumps: Vec<Jump>,
    symmetries: Vec<Symmetry>,
    default_empty: Vec<usize>,
}

/// The smallest and largest triangle sides accepted by `tri:N`.
pub const TRI_SIDES: std::ops::RangeInclusive<usize> = 3..=15;
/// The shortest and longest strips accepted by `line:L`.
pub const LINE_LENGTHS: std::ops::RangeInclusive<usize> = 3..=128;

impl Board {
    /// Builds a board from its cells; computes the jumps and the symmetry group.
    ///
    /// ```
    /// use pegsol::geometry::{Board, Lattice};
    /// let cells = vec![(0, 0), (0, 1), (0, 2)];
    /// let b = Board::new("strip", Lattice::Square, cells, vec![0]).unwrap();
    /// assert_eq!((b.holes(), b.jumps().len(), b.symmetries().len()), (3, 2, 2));
    /// ```
    pub fn new(
        name: &str,
        lattice: Lattice,
        mut cells: Vec<(i32, i32)>,
        default_empty_cells: Vec<usize>,
    ) -> Result<Board> {
        if cells.is_empty() {
            return Err(Error::input(format!("board {name} has no holes")));
        }
        if cells.len() > MAX_HOLES {
            return Err(Error::input(format!(
                "board {name} has {} holes; at most {MAX_HOLES} are supported",
                cells.len()
            )));
        }
        let empty_cells: Vec<(i32, i32)> = default_empty_cells.iter().map(|&i| cells[i]).collect();
        cells.sort();
        let index: HashMap<(i32, i32), usize> =
            cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let mut jumps = Vec::new();
        for (from, &(r, c)) in cells.iter().enumerate() {
            for &(dr, dc) in lattice.directions() {
                if let (Some(&over), Some(&to)) = (
                    index.get(&(r + dr, c + dc)),
                    index.get(&(r + 2 * dr, c + 2 * dc)),
                ) {
                    jumps.push(Jump { from, over, to });
                }
            }
        }
        let mut default_empty: Vec<usize> = empty_cells.iter().map(|c| index[c]).collect();
        default_empty.sort_unstable();
        let symmetries = crate::geometry::symmetry::board_group(lattice, &cells, &index);
        Ok(Board {
            name: name.to_string(),
            spec: name.to_string(),
            lattice,
            cells,
            index,
            jumps,
            symmetries,
            default_empty,
        })
    }

    /// Parses a board spec: `tri:N`, `line:L`, `english`, `french`, `wiegleb` (in any
    /// case: see [`builtin_spec`]), or the path of a board file.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:5").unwrap();
    /// assert_eq!((b.holes(), b.symmetries().len()), (15, 6));
    /// assert_eq!(pegsol::geometry::board::Board::from_spec("TRI:5").unwrap().spec(), "tri:5");
    /// let e = pegsol::geometry::board::Board::from_spec("english").unwrap();
    /// assert_eq!((e.holes(), e.jumps().len(), e.symmetries().len()), (33, 76, 8));
    /// ```
    pub fn from_spec(spec: &str) -> Result<Board> {
        let spec_cased = builtin_spec(spec);
        let spec: &str = &spec_cased;
        if let Some(n) = spec.strip_prefix("tri:") {
            let n = parse_size_in(spec, n, TRI_SIDES)?;
            let cells = (0..n as i32)
                .flat_map(|r| (0..=r).map(move |c| (r, c)))
                .collect();
            return Board::new(spec, Lattice::Triangular, cells, vec![0]);
        }
        if let Some(n) = spec.strip_prefix("line:") {
            let n = parse_size_in(spec, n, LINE_LENGTHS)?;
            let cells = (0..n as i32).map(|c| (0, c)).collect();
            return Board::new(spec, Lattice::Square, cells, vec![0]);
        }
        let picture: Option<&[&str]> = match spec {
            "english" => Some(&[
                "  ooo  ", "  ooo  ", "ooooooo", "ooo.ooo", "ooooooo", "  ooo  ", "  ooo  ",
            ]),
            "french" => Some(&[
                "  ooo  ", " ooooo ", "ooooooo", "ooo.ooo", "ooooooo", " ooooo ", "  ooo  ",
            ]),
            "wiegleb" => Some(&[
                "   ooo   ",
                "   ooo   ",
                "   ooo   ",
                "ooooooooo",
                "oooo.oooo",
                "ooooooooo",
                "   ooo   ",
                "   ooo   ",
                "   ooo   ",
            ]),
            _ => None,
        };
        if let Some(rows) = picture {
            return Board::from_picture(spec, Lattice::Square, rows.iter().copied(), spec);
        }
        let path = Path::new(spec);
        if path.is_file() {
            let mut board = Board::from_file(path)?;
            board.spec = spec.to_string();
            return Ok(board);
        }
        if path.exists() {
            return Err(Error::input(format!(
                "board file {spec} is not a regular file"
            )));
        }
        if spec.contains(['/', '.']) {
            return Err(Error::input(format!(
                "board file {spec} does not exist (built-in boards: tri:N, line:L, english, \
                 french, wiegleb)"
            )));
        }
        Err(Error::input(format!(
            "unknown board '{spec}': expected tri:N, line:L, english, french, wiegleb or a board file"
        )))
    }

    /// Reads a board file (see the README for the format); the board is named after the
    /// file's stem.
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("t3.txt");
    /// std::fs::write(&path, "# a triangle of side 3\nlattice: triangular\n.\noo\nooo\n").unwrap();
    /// let b = Board::from_file(&path).unwrap();
    /// assert_eq!((b.name(), b.holes(), b.jumps().len()), ("t3", 6, 6));
    /// let missing = Board::from_file(&dir.path().join("none.txt")).unwrap_err();
    /// assert_eq!(missing.exit_code(), 2);
    /// ```
    pub fn from_file(path: &Path) -> Result<Board> {
        let text = crate::input::read_text_file(path, "board file ")?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        Board::parse_file(&name, &text).map_err(|e| match e {
            Error::Input(msg) => Error::input(format!("board file {}: {msg}", path.display())),
            other => other,
        })
    }

    /// Parses the text of a board file: `#` comments, an optional `lattice:` line, then the
    /// picture (`o` peg, `.` empty hole, space or `-` no hole).
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::parse_file("t3", "lattice: triangular\n.\noo\nooo\n").unwrap();
    /// assert_eq!((b.holes(), b.symmetries().len(), b.start_name(b.default_start())), (6, 6, "a1".to_string()));
    /// ```
    pub fn parse_file(name: &str, text: &str) -> Result<Board> {
        let mut lattice = Lattice::Square;
        let mut lattice_line = None;
        let mut rows = Vec::new();
        for (lineno, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with('#') {
                continue;
            }
            if let Some(value) = trimmed.strip_prefix("lattice:") {
                if lattice_line.replace(lineno).is_some() {
                    return Err(Error::input(format!(
                        "line {}: a second 'lattice:' line",
                        lineno + 1
                    )));
                }
                if !rows.is_empty() {
                    return Err(Error::input(format!(
                        "line {}: 'lattice:' must come before the picture",
                        lineno + 1
                    )));
                }
                lattice = Lattice::parse(value.trim()).ok_or_else(|| {
                    Error::input(format!(
                        "line {}: unknown lattice '{}' (square, square-diagonal, triangular)",
                        lineno + 1,
                        value.trim()
                    ))
                })?;
                continue;
            }
            if trimmed.is_empty() && rows.is_empty() {
                continue;
            }
            rows.push(line.trim_end());
        }
        while rows.last().is_some_and(|r| r.is_empty()) {
            rows.pop();
        }
        Board::from_picture(name, lattice, rows.into_iter(), name)
    }

    fn from_picture<'a>(
        name: &str,
        lattice: Lattice,
        rows: impl Iterator<Item = &'a str>,
        what: &str,
    ) -> Result<Board> {
        let mut cells = Vec::new();
        let mut empty = Vec::new();
        for (r, row) in rows.enumerate() {
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    ' ' | '-' => continue,
                    '.' => empty.push(cells.len()),
                    ch if is_peg_char(ch) => {}
                    other => {
                        return Err(Error::input(format!(
                            "row {} column {}: unexpected character '{other}' (use o for a peg, . for an empty hole, space or - for no hole)",
                            r + 1,
                            c + 1
                        )));
                    }
                }
                cells.push((r as i32, c as i32));
            }
        }
        if cells.is_empty() {
            return Err(Error::input(format!("{what}: the picture has no holes")));
        }
        Board::new(name, lattice, cells, empty)
    }

    /// The spec or file name the board was made from.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:5").unwrap();
    /// assert_eq!(b.name(), "tri:5");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The spec that [`Board::from_spec`] reads this board from again: the name of a
    /// built-in board, the path of a board file as it was given (its [`Board::name`] is the
    /// file's stem).
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// assert_eq!(Board::from_spec("tri:5").unwrap().spec(), "tri:5");
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("t3.txt");
    /// std::fs::write(&path, "lattice: triangular\n.\noo\nooo\n").unwrap();
    /// let b = Board::from_spec(path.to_str().unwrap()).unwrap();
    /// assert_eq!((b.name(), b.spec()), ("t3", path.to_str().unwrap()));
    /// assert_eq!(Board::from_spec(b.spec()).unwrap().holes(), 6);
    /// ```
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The lattice of the board.
    ///
    /// ```
    /// use pegsol::geometry::{Board, Lattice};
    /// assert_eq!(Board::from_spec("tri:5").unwrap().lattice(), Lattice::Triangular);
    /// assert_eq!(Board::from_spec("english").unwrap().lattice(), Lattice::Square);
    /// ```
    pub fn lattice(&self) -> Lattice {
        self.lattice
    }

    /// Number of holes.
    ///
    /// ```
    /// use pegsol::geometry::Board;
    /// assert_eq!(Board::from_spec("tri:5").unwrap().holes(), 15);
    /// assert_eq!(Board::from_spec("english").unwrap().holes(), 33);
    /// assert_eq!(Board::from_spec("wiegleb").unwrap().holes(), 45);
    /// ```
    pub fn holes(&self) -> usize {
        self.cells.len()
    }

    /// The board's geometry in one line, for files that must not mix boards of one name:
    /// its lattice, holes, jumps and a CRC-32 of its cells. Two boards with the same line
    /// are the same board (their holes in the same places, so the same jumps).
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let t = Board::from_spec("tri:5").unwrap();
    /// assert_eq!(t.geometry(), "triangular 15 holes 36 jumps cells cef168d6");
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("english");
    /// std::fs::write(&path, "ooo\no.o\nooo\n").unwrap();
    /// let fake = Board::from_spec(path.to_str().unwrap()).unwrap();
    /// assert_eq!(fake.name(), "english");
    /// assert_ne!(fake.geometry(), Board::from_spec("english").unwrap().geometry());
    /// ```
    pub fn geometry(&self) -> String {
        let mut crc = crc32fast::Hasher::new();
        for (r, c) in &self.cells {
            crc.update(format!("{r},{c};").as_bytes());
        }
        format!(
            "{} {} holes {} jumps cells {:08x}",
            self.lattice.name(),
            self.holes(),
            self.jumps.len(),
            crc.finalize()
        )
    }

    /// Whether `line` has the shape of a [`Board::geometry`] line: a lattice, 1 to
    /// [`MAX_HOLES`] holes, a number of jumps and eight hex digits of CRC-32. It does not
    /// say which board, only that pegsol could have written it.
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// assert!(Board::is_geometry("triangular 15 holes 36 jumps cells cef168d6"));
    /// assert!(Board::is_geometry(&Board::from_spec("english").unwrap().geometry()));
    /// assert!(!Board::is_geometry("garbage"));
    /// assert!(!Board::is_geometry("hexagonal 15 holes 36 jumps cells cef168d6"));
    /// assert!(!Board::is_geometry("triangular 0 holes 36 jumps cells cef168d6"));
    /// assert!(!Board::is_geometry("triangular 15 holes 36 jumps cells cef168d6x"));
    /// ```
    pub fn is_geometry(line: &str) -> bool {
        let digits = |v: &str| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit());
        let t: Vec<&str> = line.split(' ').collect();
        matches!(
            t[..],
            [lattice, holes, "holes", jumps, "jumps", "cells", crc]
                if Lattice::parse(lattice).is_some()
                    && digits(holes)
                    && holes.parse().is_ok_and(|h: usize| (1..=MAX_HOLES).contains(&h))
                    && digits(jumps)
                    && jumps.parse::<usize>().is_ok()
                    && crc.len() == 8
                    && crc.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        )
    }

    /// The cells `(row, col)` of the holes, in hole order.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:3").unwrap();
    /// assert_eq!(b.cells(), [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2)]);
    /// assert_eq!(b.hole_name(4), "b3"); // cell (2, 1)
    /// ```
    pub fn cells(&self) -> &[(i32, i32)] {
        &self.cells
    }

    /// The hole at a cell, if any.
    ///
    /// ```
    /// let e = pegsol::geometry::board::Board::from_spec("english").unwrap();
    /// assert_eq!(e.hole_at((3, 3)), e.hole("d4").ok()); // row 3, column 3 from 0: the centre
    /// assert_eq!(e.hole_at((0, 0)), None);
    /// ```
    pub fn hole_at(&self, cell: (i32, i32)) -> Option<usize> {
        self.index.get(&cell).copied()
    }

    /// Every jump of the board (each direction counted separately).
    ///
    /// ```
    /// use pegsol::geometry::board::{Board, Jump};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// assert_eq!(b.jumps().len(), 36);
    /// assert!(b.jumps().contains(&Jump { from: 3, over: 1, to: 0 })); // a3 over a2 into a1
    /// assert_eq!(Board::from_spec("english").unwrap().jumps().len(), 76);
    /// ```
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The number of each jump (its place in [`Board::jumps`]) by its holes
    /// `(from, over, to)`: how a jump moved by a symmetry is found again.
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let index = b.jump_index();
    /// assert_eq!(index.len(), 36); // 3 directions, both ways, 6 lines of 3 holes each
    /// let j = &b.jumps()[7];
    /// assert_eq!(index[&(j.from, j.over, j.to)], 7);
    /// ```
    pub fn jump_index(&self) -> std::collections::HashMap<(usize, usize, usize), usize> {
        self.jumps
            .iter()
            .enumerate()
            .map(|(k, j)| ((j.from, j.over, j.to), k))
            .collect()
    }

    /// The symmetry group: every lattice map sending the board onto itself, identity first.
    ///
    /// ```
    /// use pegsol::geometry::Board;
    /// let e = Board::from_spec("english").unwrap();
    /// assert_eq!(e.symmetries().len(), 8);
    /// assert!(e.symmetries()[0].is_identity());
    /// assert_eq!(Board::from_spec("tri:5").unwrap().symmetries().len(), 6);
    /// assert_eq!(Board::from_spec("line:5").unwrap().symmetries().len(), 2);
    /// ```
    pub fn symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// The mask with every hole holding a peg.
    ///
    /// ```
    /// let e = pegsol::geometry::board::Board::from_spec("english").unwrap();
    /// assert_eq!(e.full().count_ones(), 33);
    /// ```
    pub fn full(&self) -> Pegs {
        if self.holes() == 128 {
            u128::MAX
        } else {
            (1u128 << self.holes()) - 1
        }
    }

    /// The default start: every hole full except the board's default empty holes
    /// (`a1` on triangles and lines, the centre on english, french and wiegleb).
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let e = Board::from_spec("english").unwrap();
    /// assert_eq!(e.default_start(), e.full() & !pegsol::geometry::board::bit(e.hole("d4").unwrap()));
    /// let f = Board::from_spec("french").unwrap();
    /// assert_eq!((f.holes(), f.start_name(f.default_start())), (37, "d4".to_string()));
    /// ```
    pub fn default_start(&self) -> Pegs {
        self.start_with_empty(&self.default_empty)
    }

    /// The position with every hole full except `empty`.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:5").unwrap();
    /// assert_eq!(b.start_with_empty(&[0]), b.default_start()); // hole 0 is a1
    /// assert_eq!(b.start_with_empty(&[0, 1]).count_ones(), 13);
    /// ```
    pub fn start_with_empty(&self, empty: &[usize]) -> Pegs {
        empty.iter().fold(self.full(), |p, &h| p & !bit(h))
    }

    /// The name of a hole: column letter(s) then row number, e.g. `d4`.
    ///
    /// ```
    /// let e = pegsol::geometry::board::Board::from_spec("english").unwrap();
    /// assert_eq!(e.hole_name(e.hole("d4").unwrap()), "d4");
    /// ```
    pub fn hole_name(&self, hole: usize) -> String {
        let (r, c) = self.cells[hole];
        format!("{}{}", column_name(c as usize), r + 1)
    }

    /// Finds a hole by name (`a1`, `d4`, ...).
    ///
    /// ```
    /// let e = pegsol::geometry::board::Board::from_spec("english").unwrap();
    /// assert_eq!(e.hole_name(e.hole("d4").unwrap()), "d4");
    /// assert!(e.hole("a1").is_err()); // a corner of the 7x7 square: no hole on english
    /// ```
    pub fn hole(&self, name: &str) -> Result<usize> {
        let off = || {
            Error::input(format!(
                "hole '{name}' is not on board {} ({} holes, {}..{})",
                self.name,
                self.holes(),
                self.hole_name(0),
                self.hole_name(self.holes() - 1)
            ))
        };
        let name = name.trim().to_ascii_lowercase();
        let split = name
            .find(|ch: char| !ch.is_ascii_lowercase())
            .ok_or_else(off)?;
        let (letters, digits) = name.split_at(split);
        if letters.is_empty() || digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(off());
        }
        let col = letters
            .bytes()
            .try_fold(0usize, |acc, b| {
                acc.checked_mul(26)?.checked_add((b - b'a' + 1) as usize)
            })
            .ok_or_else(off)?
            - 1;
        let row: usize = digits.parse().map_err(|_| off())?;
        if row == 0 || col > i32::MAX as usize || row > i32::MAX as usize {
            return Err(off());
        }
        self.hole_at((row as i32 - 1, col as i32)).ok_or_else(off)
    }

    /// The start position with the named holes empty (the default start when `names` is
    /// empty). A hole named twice is refused: `--hole a1 --hole a1` is most likely a typo
    /// for two different holes.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:5").unwrap();
    /// assert_eq!(b.start_from_names(&[]).unwrap(), b.default_start());
    /// let p = b.start_from_names(&["c3".into(), "a1".into()]).unwrap();
    /// assert_eq!((p.count_ones(), b.start_name(p)), (13, "a1+c3".to_string()));
    /// assert!(b.start_from_names(&["f6".into()]).is_err());
    /// assert!(b.start_from_names(&["a1".into(), "a1".into()]).is_err());
    /// ```
    pub fn start_from_names(&self, names: &[String]) -> Result<Pegs> {
        if names.is_empty() {
            return Ok(self.default_start());
        }
        let holes = names
            .iter()
            .map(|n| self.hole(n))
            .collect::<Result<Vec<_>>>()?;
        for (i, &h) in holes.iter().enumerate() {
            if holes[..i].contains(&h) {
                return Err(Error::input(format!(
                    "hole {} is named twice as an empty hole of the start",
                    self.hole_name(h)
                )));
            }
        }
        Ok(self.start_with_empty(&holes))
    }

    /// The empty holes of a position, named and joined by `+` (e.g. `a1` or `c3+d4`).
    ///
    /// ```
    /// let e = pegsol::geometry::board::Board::from_spec("english").unwrap();
    /// assert_eq!(e.start_name(e.default_start()), "d4");
    /// ```
    pub fn start_name(&self, pegs: Pegs) -> String {
        self.hole_names(!pegs & self.full())
    }

    /// The holes of a mask, named and joined by `+` (`d4`, `c3+e5`), or `none`.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:3").unwrap();
    /// assert_eq!(b.hole_names(0b101), "a1+b2");
    /// ```
    pub fn hole_names(&self, mask: Pegs) -> String {
        let names: Vec<String> = (0..self.holes())
            .filter(|&h| mask & bit(h) != 0)
            .map(|h| self.hole_name(h))
            .collect();
        if names.is_empty() {
            "none".into()
        } else {
            names.join("+")
        }
    }

    /// Where hole `h` is drawn in text: (line, column). Triangular boards are drawn centred
    /// (one space between holes), square boards with one space between columns.
    fn draw_at(&self, hole: usize) -> (usize, usize) {
        let (r, c) = self.cells[hole];
        let min_r = self.cells.iter().map(|x| x.0).min().unwrap_or(0);
        match self.lattice {
            Lattice::Triangular => {
                let min_x = self
                    .cells
                    .iter()
                    .map(|&(r, c)| 2 * c - r)
                    .min()
                    .unwrap_or(0);
                ((r - min_r) as usize, (2 * c - r - min_x) as usize)
            }
            _ => {
                let min_c = self.cells.iter().map(|x| x.1).min().unwrap_or(0);
                ((r - min_r) as usize, 2 * (c - min_c) as usize)
            }
        }
    }

    /// Draws the board with one label per hole. Holes are placed on a grid of half-cells
    /// ([`Board::draw_at`]); a half-cell is wide enough that neighbours never touch.
    fn draw(&self, label: impl Fn(usize) -> String) -> String {
        let labels: Vec<String> = (0..self.holes()).map(label).collect();
        let width = labels.iter().map(|l| l.len()).max().unwrap_or(1);
        let step = (width + 1).div_ceil(2);
        let mut lines: Vec<Vec<u8>> = Vec::new();
        for (h, text) in labels.iter().enumerate() {
            let (line, x) = self.draw_at(h);
            if lines.len() <= line {
                lines.resize(line + 1, Vec::new());
            }
            let (row, at) = (&mut lines[line], x * step);
            if row.len() < at + width {
                row.resize(at + width, b' ');
            }
            let pad = width - text.len();
            row[at + pad..at + width].copy_from_slice(text.as_bytes());
        }
        lines
            .into_iter()
            .map(|l| String::from_utf8_lossy(&l).trim_end().to_string() + "\n")
            .collect()
    }

    /// The board with the name of every hole, as `pegsol board` prints it.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:3").unwrap();
    /// assert_eq!(b.draw_names(), "    a1\n  a2  b2\na3  b3  c3\n");
    /// ```
    pub fn draw_names(&self) -> String {
        self.draw(|h| self.hole_name(h))
    }

    /// A position drawn on the board: `o` a peg, `.` an empty hole.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:3").unwrap();
    /// assert_eq!(b.draw_position(b.default_start()), "  .\n o o\no o o\n");
    /// ```
    pub fn draw_position(&self, pegs: Pegs) -> String {
        self.draw(|h| if pegs & bit(h) != 0 { "o" } else { "." }.to_string())
    }

    /// A position as a one-line picture in the board-file alphabet, rows joined by `/`
    /// (e.g. `./oo/ooo` for tri:3 with `a1` empty).
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let b = Board::from_spec("tri:3").unwrap();
    /// assert_eq!(b.picture(b.default_start()), "./oo/ooo");
    /// let e = Board::from_spec("english").unwrap();
    /// assert_eq!(e.picture(e.default_start()), "  ooo/  ooo/ooooooo/ooo.ooo/ooooooo/  ooo/  ooo");
    /// ```
    pub fn picture(&self, pegs: Pegs) -> String {
        let min_r = self.cells.iter().map(|x| x.0).min().unwrap_or(0);
        let min_c = self.cells.iter().map(|x| x.1).min().unwrap_or(0);
        let mut rows: Vec<Vec<char>> = Vec::new();
        for (h, &(r, c)) in self.cells.iter().enumerate() {
            let (r, c) = ((r - min_r) as usize, (c - min_c) as usize);
            if rows.len() <= r {
                rows.resize(r + 1, Vec::new());
            }
            if rows[r].len() <= c {
                rows[r].resize(c + 1, ' ');
            }
            rows[r][c] = if pegs & bit(h) != 0 { 'o' } else { '.' };
        }
        rows.iter()
            .map(|r| r.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Parses a position: a picture with rows joined by `/` (as [`Board::picture`] writes
    /// it), or a list of empty holes joined by `+` or `,` (every other hole full).
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:3").unwrap();
    /// let p = b.parse_position("./oo/ooo").unwrap();
    /// assert_eq!(p, b.parse_position("a1").unwrap());
    /// let e = pegsol::geometry::board::Board::from_spec("english").unwrap();
    /// let centre = "  ooo/  ooo/ooooooo/ooo.ooo/ooooooo/  ooo/  ooo";
    /// assert_eq!(e.parse_position(centre).unwrap(), e.default_start());
    /// assert!(b.parse_position("a1+").is_err()); // a name missing
    /// assert!(b.parse_position("./oo/ooo/").is_err()); // a row missing
    /// ```
    pub fn parse_position(&self, text: &str) -> Result<Pegs> {
        // Leading spaces are part of a picture (no hole there); only line ends are trimmed.
        let text = text.trim_matches(['\n', '\r']).trim_end();
        let is_picture = text.contains('/')
            || (!text.is_empty()
                && text
                    .chars()
                    .all(|c| c == '.' || c == '-' || c == ' ' || is_peg_char(c)));
        if !is_picture {
            if text.trim().is_empty() {
                return Err(Error::input(format!("empty position '{text}'")));
            }
            let names: Vec<String> = text
                .split(['+', ','])
                .map(|s| s.trim().to_string())
                .collect();
            if names.iter().any(|n| n.is_empty()) {
                return Err(Error::input(format!(
                    "position '{text}': a hole name is missing around a '+' or ','"
                )));
            }
            return self.start_from_names(&names);
        }
        if text.ends_with('/') {
            return Err(Error::input(format!(
                "position '{text}' ends with '/' (rows are joined by '/', not ended by it)"
            )));
        }
        let min_r = self.cells.iter().map(|x| x.0).min().unwrap_or(0);
        let min_c = self.cells.iter().map(|x| x.1).min().unwrap_or(0);
        let mut pegs: Pegs = 0;
        let mut seen = 0usize;
        for (r, row) in text.split('/').enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == ' ' || ch == '-' {
                    continue;
                }
                let hole = self
                    .hole_at((r as i32 + min_r, c as i32 + min_c))
                    .ok_or_else(|| {
                        Error::input(format!(
                            "position '{text}': row {} column {} is not a hole of {}",
                            r + 1,
                            c + 1,
                            self.name
                        ))
                    })?;
                match ch {
                    '.' => {}
                    ch if is_peg_char(ch) => pegs |= bit(hole),
                    other => {
                        return Err(Error::input(format!(
                            "position '{text}': unexpected character '{other}'"
                        )));
                    }
                }
                seen += 1;
            }
        }
        if seen != self.holes() {
            return Err(Error::input(format!(
                "position '{text}' names {seen} holes; board {} has {}",
                self.name,
                self.holes()
            )));
        }
        Ok(pegs)
    }

    /// The image of a position under a symmetry.
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let a1 = b.start_from_names(&["a1".into()]).unwrap();
    /// let mut images: Vec<String> =
    ///     b.symmetries().iter().map(|s| b.start_name(b.transform(s, a1))).collect();
    /// images.sort();
    /// images.dedup();
    /// assert_eq!(images, ["a1", "a5", "e5"]); // the three corners
    /// ```
    pub fn transform(&self, sym: &Symmetry, pegs: Pegs) -> Pegs {
        sym.perm()
            .iter()
            .enumerate()
            .filter(|&(h, _)| pegs & bit(h) != 0)
            .fold(0, |acc, (_, &img)| acc | bit(img))
    }

    /// The lattice maps of the board's symmetries (for display and tests).
    ///
    /// ```
    /// use pegsol::geometry::{Board, LatticeMap};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let maps = b.symmetry_maps();
    /// assert_eq!((maps.len(), maps[0]), (6, LatticeMap::IDENTITY));
    /// // A strip: 8 lattice maps, but only the identity and the reversal move its holes apart.
    /// assert_eq!(Board::from_spec("line:5").unwrap().symmetry_maps().len(), 2);
    /// ```
    pub fn symmetry_maps(&self) -> Vec<LatticeMap> {
        self.symmetries.iter().map(|s| s.map()).collect()
    }

    /// The classes of holes under the symmetry group, each sorted, ordered by smallest hole.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:5").unwrap();
    /// let sizes: Vec<usize> = b.hole_classes().iter().map(|c| c.len()).collect();
    /// assert_eq!(sizes, vec![3, 6, 3, 3]);
    /// ```
    pub fn hole_classes(&self) -> Vec<Vec<usize>> {
        let mut seen = vec![false; self.holes()];
        let mut classes = Vec::new();
        for h in 0..self.holes() {
            if seen[h] {
                continue;
            }
            let mut class: Vec<usize> = self.symmetries.iter().map(|s| s.perm()[h]).collect();
            class.sort_unstable();
            class.dedup();
            for &x in &class {
                seen[x] = true;
            }
            classes.push(class);
        }
        classes
    }

    /// The holes grouped by *position class*: two single-vacancy starts are in one class
    /// when the difference of their positions is a sum of jump masks (over GF(2); every
    /// jump flips the three holes of its mask). Starts of different classes never reach a
    /// common position; starts of one class reach largely the same ones, which is why
    /// `pegsol table` sweeps a class at once ([`crate::count::sweep::count_many`]). Classes are
    /// sorted, ordered by smallest hole.
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let b = Board::from_spec("english").unwrap();
    /// let classes = b.position_classes();
    /// assert_eq!(classes.len(), 9); // holes by (column mod 3, row mod 3)
    /// let names: Vec<String> = classes[0].iter().map(|&h| b.hole_name(h)).collect();
    /// assert_eq!(names, ["c1", "c4", "f4", "c7"]);
    /// let tri5 = Board::from_spec("tri:5").unwrap();
    /// assert_eq!(tri5.position_classes().len(), 3);
    /// ```
    pub fn position_classes(&self) -> Vec<Vec<usize>> {
        let basis = self.jump_span();
        let mut classes: Vec<(Pegs, Vec<usize>)> = Vec::new();
        for h in 0..self.holes() {
            let coset = reduce_by(&basis, bit(h));
            match classes.iter_mut().find(|(c, _)| *c == coset) {
                Some((_, holes)) => holes.push(h),
                None => classes.push((coset, vec![h])),
            }
        }
        classes.into_iter().map(|(_, holes)| holes).collect()
    }

    /// Whether positions `a` and `b` lie in one position class: their difference is a sum
    /// of jump masks over GF(2) (see [`Board::position_classes`]). Every position reachable
    /// from `a` is in the class of `a`.
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let b = Board::from_spec("english").unwrap();
    /// let (c1, c4, c2) = (b.hole("c1").unwrap(), b.hole("c4").unwrap(), b.hole("c2").unwrap());
    /// assert!(b.same_class(b.start_with_empty(&[c1]), b.start_with_empty(&[c4])));
    /// assert!(!b.same_class(b.start_with_empty(&[c1]), b.start_with_empty(&[c2])));
    /// ```
    pub fn same_class(&self, a: Pegs, b: Pegs) -> bool {
        reduce_by(&self.jump_span(), a ^ b) == 0
    }

    /// A basis of the span of the jump masks over GF(2), each element with a distinct
    /// leading bit, largest first.
    fn jump_span(&self) -> Vec<Pegs> {
        let mut basis: Vec<Pegs> = Vec::new();
        for j in &self.jumps {
            let m = reduce_by(&basis, j.mask());
            if m != 0 {
                basis.push(m);
                basis.sort_unstable_by(|a, b| b.cmp(a));
            }
        }
        basis
    }
}

/// `x` reduced by a basis of [`Board::jump_span`]: one representative per coset.
fn reduce_by(basis: &[Pegs], mut x: Pegs) -> Pegs {
    for &b in basis {
        if x ^ b < x {
            x ^= b;
        }
    }
    x
}

/// Characters that stand for a hole with a peg in pictures.
fn is_peg_char(ch: char) -> bool {
    matches!(ch, 'o' | 'O' | 'I' | 'x' | 'X' | '*')
}

/// Column letters: `a`..`z`, then `aa`, `ab`, ... (bijective base 26).
///
/// ```
/// assert_eq!(pegsol::geometry::board::column_name(0), "a");
/// assert_eq!(pegsol::geometry::board::column_name(26), "aa");
/// ```
pub fn column_name(mut col: usize) -> String {
    let mut letters = Vec::new();
    loop {
        letters.push(b'a' + (col % 26) as u8);
        if col < 26 {
            break;
        }
        col = col / 26 - 1;
    }
    letters.reverse();
    String::from_utf8(letters).expect("ascii")
}

/// Whether `spec` names a built-in board (in any case; its size need not be valid), not a
/// board file.
///
/// ```
/// use pegsol::geometry::board::is_builtin;
/// assert!(is_builtin("English") && is_builtin("tri:5") && is_builtin("LINE:9"));
/// assert!(!is_builtin("boards/english.txt"));
/// ```
pub fn is_builtin(spec: &str) -> bool {
    let lower = spec.to_ascii_lowercase();
    matches!(lower.as_str(), "english" | "french" | "wiegleb")
        || lower.starts_with("tri:")
        || lower.starts_with("line:")
}

/// The spec of a built-in board as the board is named, when `spec` names one in any case
/// (`English`, `TRI:5`, `Line:9`) and with its size in plain digits (`tri:05` and
/// `tri:+5` are `tri:5`), so that one board has one name in a table; any other spec (a
/// board file's path) as given. The built-in names come first: a board file named
/// `English` is read as `./English`.
///
/// ```
/// use pegsol::geometry::board::builtin_spec;
/// assert_eq!(builtin_spec("English"), "english");
/// assert_eq!(builtin_spec("TRI:5"), "tri:5");
/// assert_eq!(builtin_spec("tri:05"), "tri:5");
/// assert_eq!(builtin_spec("Line:+9"), "line:9");
/// assert_eq!(builtin_spec("tri:4..7"), "tri:4..7");
/// assert_eq!(builtin_spec("boards/My.txt"), "boards/My.txt");
/// ```
pub fn builtin_spec(spec: &str) -> std::borrow::Cow<'_, str> {
    if !is_builtin(spec) {
        return std::borrow::Cow::Borrowed(spec);
    }
    let mut name = spec.to_ascii_lowercase();
    if let Some((kind, size)) = name.split_once(':')
        && let Ok(n) = size.parse::<usize>()
    {
        name = format!("{kind}:{n}");
    }
    if name == spec {
        std::borrow::Cow::Borrowed(spec)
    } else {
        std::borrow::Cow::Owned(name)
    }
}

fn parse_size_in(spec: &str, n: &str, range: std::ops::RangeInclusive<usize>) -> Result<usize> {
    match n.parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(Error::input(format!(
            "board '{spec}': size must be a whole number from {} to {}",
            range.start(),
            range.end()
        ))),
    }
}
