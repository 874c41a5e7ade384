//! Positions as text: the board drawn with a label per hole, one-line pictures in the
//! board-file alphabet, and the parsing of a picture or a list of empty holes.

use super::{Board, Pegs, bit};
use crate::error::{Error, Result};
use crate::geometry::lattice::Lattice;

impl Board {
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
}

/// Characters that stand for a hole with a peg in pictures.
pub(super) fn is_peg_char(ch: char) -> bool {
    matches!(ch, 'o' | 'O' | 'I' | 'x' | 'X' | '*')
}
