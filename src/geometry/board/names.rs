//! Hole names: a column letter (or letters) and a row number (`a1`, `d4`), and starts
//! named by their empty holes.

use super::{Board, Pegs, bit};
use crate::error::{Error, Result};

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

impl Board {
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
}
