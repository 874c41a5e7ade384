//! Where each hole of a board is drawn on a grid of character cells, as `pegsol board`
//! places its hole names (triangles centred, one column between neighbours), each hole a
//! label of a fixed width: its mark (`o` a peg, `.` empty) and its name (`o a1`).

use crate::geometry::board::Board;
use crate::geometry::lattice::Lattice;

/// The places of a board's holes.
///
/// ```
/// use pegsol::{geometry::board::Board, play::layout::Layout};
/// let b = Board::from_spec("tri:3").unwrap();
/// let l = Layout::new(&b);
/// assert_eq!(l.width, 4); // "o a1"
/// assert_eq!(l.place(0), (0, 6)); // a1, centred over b3
/// assert_eq!(l.place(3), (4, 0)); // a3: rows two lines apart
/// assert_eq!(l.hole_at(4, 2), Some(3));
/// assert_eq!(l.hole_at(1, 6), None);
/// assert_eq!((l.lines(), l.columns()), (5, 16));
/// ```
#[derive(Clone, Debug)]
pub struct Layout {
    /// Characters per hole label: mark, space, name.
    pub width: usize,
    /// Lines from one row of holes to the next.
    pub row_step: usize,
    places: Vec<(usize, usize)>,
}

impl Layout {
    /// The layout of `board`: rows two lines apart when the board has at most 12 rows.
    pub fn new(board: &Board) -> Layout {
        let cells = board.cells();
        let name = (0..board.holes())
            .map(|h| board.hole_name(h).len())
            .max()
            .unwrap_or(2);
        let width = name + 2;
        let step = (width + 1).div_ceil(2);
        let min_r = cells.iter().map(|x| x.0).min().unwrap_or(0);
        let max_r = cells.iter().map(|x| x.0).max().unwrap_or(0);
        let row_step = if max_r - min_r < 12 { 2 } else { 1 };
        let half = |&(r, c): &(i32, i32)| match board.lattice() {
            Lattice::Triangular => 2 * c - r,
            _ => 2 * c,
        };
        let min_x = cells.iter().map(half).min().unwrap_or(0);
        let places = cells
            .iter()
            .map(|cell| {
                (
                    (cell.0 - min_r) as usize * row_step,
                    (half(cell) - min_x) as usize * step,
                )
            })
            .collect();
        Layout {
            width,
            row_step,
            places,
        }
    }

    /// (line, column) of the first character of hole `h`'s label.
    pub fn place(&self, h: usize) -> (usize, usize) {
        self.places[h]
    }

    /// Lines the board takes.
    pub fn lines(&self) -> usize {
        self.places.iter().map(|p| p.0 + 1).max().unwrap_or(0)
    }

    /// Columns the board takes.
    pub fn columns(&self) -> usize {
        self.places
            .iter()
            .map(|p| p.1 + self.width)
            .max()
            .unwrap_or(0)
    }

    /// The hole whose label covers (line, column), if any.
    pub fn hole_at(&self, line: usize, column: usize) -> Option<usize> {
        self.places
            .iter()
            .position(|&(l, c)| l == line && (c..c + self.width).contains(&column))
    }

    /// The nearest hole from `from` in a direction: `dl` -1 (up) or 1 (down), else `dc` -1
    /// (left) or 1 (right). Up and down go to the nearest row that way, then the nearest
    /// column; left and right to the nearest line, then the nearest column that way.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, play::layout::Layout};
    /// let b = Board::from_spec("tri:3").unwrap();
    /// let l = Layout::new(&b);
    /// assert_eq!(l.step(0, 1, 0), Some(1)); // a1 down: a2 (b2 as close, a2 first)
    /// assert_eq!(l.step(1, 0, 1), Some(2)); // a2 right: b2
    /// assert_eq!(l.step(0, -1, 0), None);
    /// ```
    pub fn step(&self, from: usize, dl: i64, dc: i64) -> Option<usize> {
        let (l0, c0) = self.places[from];
        let (l0, c0) = (l0 as i64, c0 as i64);
        self.places
            .iter()
            .enumerate()
            .filter_map(|(h, &(l, c))| {
                let (dy, dx) = (l as i64 - l0, c as i64 - c0);
                // The nearest row (up, down) or the nearest line, then column (sideways).
                if dl != 0 {
                    (dy * dl > 0).then_some(((dy * dl, dx.abs()), h))
                } else {
                    (dx * dc > 0).then_some(((dy.abs(), dx * dc), h))
                }
            })
            .min_by_key(|&(key, _)| key)
            .map(|t| t.1)
    }
}
