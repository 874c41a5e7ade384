//! Pictures as SVG text, written by hand (no drawing library, no fonts to load): the same
//! input always gives the same bytes, so committed pictures can be diffed like the CSVs.

mod classes;
mod hardness;
mod panels;
mod pegs_left;
mod scaling;

pub use classes::start_classes;
pub use hardness::{HardnessRow, hardness_chart, one_in, significant};
pub(crate) use panels::PanelGrid;
pub use panels::{HeatPanel, finish_heat_maps};
pub use pegs_left::pegs_left_chart;
pub use scaling::{SweepCost, scaling_chart};

use crate::geometry::board::Board;
use crate::geometry::lattice::Lattice;

/// Pixels between neighbouring holes.
pub(crate) const SCALE: f64 = 30.0;
/// Colours for start classes and chart series.
pub(crate) const PALETTE: &[&str] = &[
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7",
    "#9c755f", "#bab0ac",
];

/// Where each hole is drawn, in units of the distance between neighbouring holes: square
/// boards on a grid, triangular ones with each row shifted by half a hole and rows
/// `sqrt(3)/2` apart. The smallest x and y are 0.
///
/// ```
/// let b = pegsol::geometry::board::Board::from_spec("tri:3").unwrap();
/// let p = pegsol::output::plot::hole_positions(&b);
/// assert_eq!(p[0], (1.0, 0.0)); // a1, the top corner, is centred over the bottom row
/// ```
pub fn hole_positions(board: &Board) -> Vec<(f64, f64)> {
    let raw: Vec<(f64, f64)> = board
        .cells()
        .iter()
        .map(|&(r, c)| match board.lattice() {
            Lattice::Triangular => (c as f64 - r as f64 / 2.0, r as f64 * 3f64.sqrt() / 2.0),
            _ => (c as f64, r as f64),
        })
        .collect();
    let min_x = raw.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let min_y = raw.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    raw.iter().map(|&(x, y)| (x - min_x, y - min_y)).collect()
}

/// Escapes text for SVG.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

pub(crate) fn svg_open(w: f64, h: f64) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" \
         viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    )
}

/// Width and height of a board drawing in pixels (holes plus a margin of one hole).
pub(crate) fn board_extent(pos: &[(f64, f64)]) -> (f64, f64) {
    let w = pos.iter().map(|p| p.0).fold(0.0, f64::max);
    let h = pos.iter().map(|p| p.1).fold(0.0, f64::max);
    ((w + 1.0) * SCALE, (h + 1.0) * SCALE)
}

/// A colour between white-ish (t = 0) and dark red (t = 1).
pub(crate) fn heat(t: f64) -> String {
    let t = t.clamp(0.0, 1.0);
    let lo = (255.0, 237.0, 160.0);
    let mid = (240.0, 59.0, 32.0);
    let hi = (128.0, 0.0, 38.0);
    let (a, b, u) = if t < 0.5 {
        (lo, mid, t * 2.0)
    } else {
        (mid, hi, (t - 0.5) * 2.0)
    };
    let mix = |x: f64, y: f64| (x + (y - x) * u).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}
