//! The maps per start class on the board (wins by finishing hole; the fewest-moves maps
//! share the grid): one panel a start class, four to a row.

use super::{SCALE, board_extent, esc, heat, hole_positions, svg_open};
use crate::geometry::board::Board;
use crate::total::Total;
use std::fmt::Write;
use thousands::Separable;

/// The layout of the maps per start class (wins, fewest moves): one panel a start class,
/// four to a row, under a title; each panel a caption of two lines above the board.
pub(crate) struct PanelGrid {
    /// Where each hole is drawn ([`hole_positions`]).
    pub pos: Vec<(f64, f64)>,
    /// The width of the board drawing.
    bw: f64,
    /// A panel's width and height.
    pw: f64,
    ph: f64,
    per_row: usize,
    /// The margin left of the first panel: the panels are centred under a title wider
    /// than they are.
    left: f64,
}

impl PanelGrid {
    /// The grid of `panels` panels of `board` and the SVG opened with `title` after the
    /// board's name.
    pub(crate) fn open(board: &Board, panels: usize, title: &str) -> (PanelGrid, String) {
        let pos = hole_positions(board);
        let (bw, bh) = board_extent(&pos);
        let (pw, ph) = (bw.max(170.0) + 20.0, bh + 56.0);
        let per_row = panels.clamp(1, 4);
        let rows = panels.div_ceil(per_row).max(1);
        let heading = format!("{}: {title}", board.name());
        // About 0.56 em a character in a sans-serif font, and a margin either side.
        let heading_w = heading.chars().count() as f64 * 15.0 * 0.56 + 20.0;
        let panels_w = pw * per_row as f64;
        let (w, h) = (panels_w.max(heading_w), ph * rows as f64 + 40.0);
        let mut s = svg_open(w, h);
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">{}</text>",
            w / 2.0,
            esc(&heading)
        );
        let grid = PanelGrid {
            pos,
            bw,
            pw,
            ph,
            per_row,
            left: (w - panels_w) / 2.0,
        };
        (grid, s)
    }

    /// The top-left corner of panel `i`.
    pub(crate) fn origin(&self, i: usize) -> (f64, f64) {
        let ox = self.left + (i % self.per_row) as f64 * self.pw + (self.pw - self.bw) / 2.0;
        (ox, (i / self.per_row) as f64 * self.ph + 40.0)
    }

    /// Writes panel `(ox, oy)`'s caption: the start and its class, then `second` in grey.
    pub(crate) fn caption(
        &self,
        s: &mut String,
        (ox, oy): (f64, f64),
        board: &Board,
        (start, class_size): (usize, usize),
        second: &str,
    ) {
        // A long figure (tri:8's wins have 29 digits) gets a smaller font, so that it
        // stays within its panel.
        let size = fitting_font(second, self.pw - 16.0, 11.0);
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">start {} (class of {})</text>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{size}\" text-anchor=\"middle\" fill=\"#555\">{second}</text>",
            ox + self.bw / 2.0,
            oy + 12.0,
            board.hole_name(start),
            class_size,
            ox + self.bw / 2.0,
            oy + 26.0,
        );
    }

    /// Writes hole `hole` of panel `(ox, oy)` filled with `fill`, ringed in blue if it is
    /// `start`, with `tip` as its title; returns the centre for a label.
    pub(crate) fn hole(
        &self,
        s: &mut String,
        (ox, oy): (f64, f64),
        board: &Board,
        (hole, start): (usize, usize),
        fill: &str,
        tip: &str,
    ) -> (f64, f64) {
        let (x, y) = self.pos[hole];
        let (cx, cy) = (ox + (x + 0.5) * SCALE, oy + 34.0 + (y + 0.5) * SCALE);
        let stroke = if hole == start {
            "stroke=\"#1f5fbf\" stroke-width=\"3\""
        } else {
            "stroke=\"#999\" stroke-width=\"1\""
        };
        let _ = writeln!(
            s,
            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"{fill}\" {stroke}><title>{}: {tip}</title></circle>",
            SCALE * 0.42,
            board.hole_name(hole),
        );
        (cx, cy)
    }
}

/// The font size, at most `max` and in steps of half a pixel, at which `text` is at most
/// `width` pixels wide, by a generous estimate of a sans-serif font's glyphs (DejaVu Sans,
/// the widest common default: digits 0.64 em, commas and spaces 0.32 em, letters 0.65 em).
fn fitting_font(text: &str, width: f64, max: f64) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            '0'..='9' => 0.64,
            ',' | '.' | ' ' => 0.32,
            _ => 0.65,
        })
        .sum();
    if ems * max <= width {
        return max;
    }
    ((width / ems) * 2.0).floor() / 2.0
}

/// One panel of a heat map: the wins of one start by finishing hole.
pub struct HeatPanel {
    /// The start hole.
    pub start: usize,
    /// Holes of the start's class.
    pub class_size: usize,
    /// Wins finishing in each hole (index = hole).
    pub wins: Vec<Total>,
}

/// Wins by finishing hole drawn on the board, one panel per start class; darker = more
/// wins (scaled per panel), grey = no win, the start hole ringed in blue. Each hole's exact
/// count is in its tooltip; the label is its share of the panel's wins.
///
/// ```
/// use pegsol::{geometry::Board, output::plot::{finish_heat_maps, HeatPanel}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let mut wins = vec![0.into(); 15];
/// (wins[0], wins[3]) = (6_816.into(), 2_000.into());
/// let svg = finish_heat_maps(&b, &[HeatPanel { start: 0, class_size: 3, wins }]);
/// assert!(svg.starts_with("<svg") && svg.contains("start a1 (class of 3)"));
/// assert!(svg.contains("8,816 wins</text>"));
/// assert!(svg.contains("<title>a1: 6,816 wins</title>"));
/// assert!(svg.contains(">77%</text>") && svg.contains(">22%</text>")); // rounded down
/// assert_eq!(svg.matches("fill=\"#e8e8e8\"").count(), 13); // the holes without a win
/// ```
pub fn finish_heat_maps(board: &Board, panels: &[HeatPanel]) -> String {
    let title = "wins by finishing hole, one panel per start class";
    let (grid, mut s) = PanelGrid::open(board, panels.len(), title);
    for (i, panel) in panels.iter().enumerate() {
        let origin = grid.origin(i);
        let max = panel.wins.iter().copied().max().unwrap_or_default();
        // A table's wins by finish sum to its wins (checked when it is read); a sum past
        // 2^256 could come only from a panel built by hand, and is drawn as the largest.
        let total = Total::sum(panel.wins.iter().copied()).unwrap_or(max);
        let caption = format!("{} wins", total.separate_with_commas());
        grid.caption(
            &mut s,
            origin,
            board,
            (panel.start, panel.class_size),
            &caption,
        );
        for hole in 0..grid.pos.len() {
            let wins = panel.wins.get(hole).copied().unwrap_or_default();
            let fill = if wins.is_zero() {
                "#e8e8e8".to_string()
            } else {
                heat(wins.to_f64() / max.to_f64())
            };
            let tip = format!("{} wins", wins.separate_with_commas());
            let (cx, cy) = grid.hole(&mut s, origin, board, (hole, panel.start), &fill, &tip);
            if !wins.is_zero() {
                // Rounded down: wins * 100 / total.
                let pct = wins
                    .times(100)
                    .ok()
                    .and_then(|w| w.checked_div(total))
                    .unwrap_or_default();
                let label = if pct.is_zero() {
                    "&lt;1".to_string()
                } else {
                    pct.to_string()
                };
                let colour = if wins.to_f64() / max.to_f64() > 0.45 {
                    "white"
                } else {
                    "black"
                };
                let _ = writeln!(
                    s,
                    "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"middle\" fill=\"{colour}\">{label}%</text>",
                    cy + 3.0
                );
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::fitting_font;

    #[test]
    fn long_captions_get_a_smaller_font_that_fits() {
        assert_eq!(fitting_font("8,816 wins", 190.0, 11.0), 11.0);
        // tri:8 from a1 in a panel of 260 pixels (16 left as a margin).
        let caption = "7,735,090,461,854,962,949,522,016,786 wins";
        let size = fitting_font(caption, 244.0, 11.0);
        assert_eq!(size, 10.0);
        let ems = 28.0 * 0.64 + 10.0 * 0.32 + 4.0 * 0.65; // 28 digits, 9 commas, " wins"
        assert!(ems * size <= 244.0 && ems * 11.0 > 244.0);
    }
}
