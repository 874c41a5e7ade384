//! Board geometry: holes on a lattice, their names, the jumps along lattice lines, the
//! symmetry group, and positions written as pictures or hole lists.
//!
//! The rooms: the board itself and its plain accessors here; specs, board files and the
//! built-in boards in `spec` (`from_spec`, `from_file`, `builtin_spec`); hole names in
//! `names`; the jump list in `jumps`; pictures and the parsing of positions in `pictures`;
//! hole and position classes in `classes`. Every public item keeps its path
//! `geometry::board::...`.
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

mod classes;
mod jumps;
mod names;
mod pictures;
mod spec;

pub use jumps::Jump;
pub use names::column_name;
pub use spec::{LINE_LENGTHS, TRI_SIDES, builtin_spec, is_builtin};

use crate::error::{Error, Result};
use crate::geometry::lattice::{Lattice, LatticeMap};
use crate::geometry::symmetry::Symmetry;
use std::collections::HashMap;

/// A position as a bit mask over the board's holes (bit `i` set = hole `i` holds a peg).
/// Boards have at most [`MAX_HOLES`] holes.
pub type Pegs = u128;

/// The largest number of holes a board may have.
pub const MAX_HOLES: usize = 128;

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
        let jumps = jumps::jump_list(lattice, &cells, &index);
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
}
