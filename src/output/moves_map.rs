//! The fewest moves by finishing hole drawn on the board, one panel per start class (the
//! picture of `min_moves.csv`, drawn by `pegsol report`), in the style of
//! [`super::plot::finish_heat_maps`].

use super::plot::{SCALE, board_extent, esc, heat, hole_positions, svg_open};
use crate::geometry::board::Board;
use std::fmt::Write;

/// One panel: the fewest moves from one start to one peg in each hole.
pub struct MovesPanel {
    /// The start hole.
    pub start: usize,
    /// Holes of the start's class.
    pub class_size: usize,
    /// The fewest moves to one peg anywhere, if any game wins.
    pub anywhere: Option<usize>,
    /// The fewest moves to one peg in each hole (index = hole), `None` where no win ends.
    pub moves: Vec<Option<usize>>,
}

/// Each hole labelled with the fewest moves of a win ending there; darker = fewer moves
/// (scaled per panel), grey = no win, the start hole ringed in blue.
///
/// ```
/// use pegsol::{geometry::Board, output::moves_map::{min_moves_maps, MovesPanel}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let mut moves = vec![None; 15];
/// (moves[0], moves[12]) = (Some(10), Some(9));
/// let panel = MovesPanel { start: 3, class_size: 3, anywhere: Some(9), moves };
/// let svg = min_moves_maps(&b, &[panel]);
/// assert!(svg.starts_with("<svg") && svg.contains("start a3 (class of 3)"));
/// assert!(svg.contains("fewest 9 moves</text>"));
/// assert!(svg.contains("<title>a1: 10 moves</title>"));
/// assert_eq!(svg.matches("fill=\"#e8e8e8\"").count(), 13); // the holes without a win
/// ```
pub fn min_moves_maps(board: &Board, panels: &[MovesPanel]) -> String {
    let pos = hole_positions(board);
    let (bw, bh) = board_extent(&pos);
    let (pw, ph) = (bw.max(170.0) + 20.0, bh + 56.0);
    let per_row = panels.len().clamp(1, 4);
    let rows = panels.len().div_ceil(per_row).max(1);
    let (w, h) = (pw * per_row as f64, ph * rows as f64 + 40.0);
    let mut s = svg_open(w, h);
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">{}: fewest moves to one peg by finishing hole, one panel per start class</text>",
        w / 2.0,
        esc(board.name())
    );
    for (i, panel) in panels.iter().enumerate() {
        let ox = (i % per_row) as f64 * pw + (pw - bw) / 2.0;
        let oy = (i / per_row) as f64 * ph + 40.0;
        let known: Vec<usize> = panel.moves.iter().flatten().copied().collect();
        let (lo, hi) = (
            known.iter().copied().min().unwrap_or(0),
            known.iter().copied().max().unwrap_or(0),
        );
        let best = match panel.anywhere {
            Some(m) => format!("fewest {m} moves"),
            None => "no win".to_string(),
        };
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">start {} (class of {})</text>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#555\">{best}</text>",
            ox + bw / 2.0,
            oy + 12.0,
            board.hole_name(panel.start),
            panel.class_size,
            ox + bw / 2.0,
            oy + 26.0,
        );
        for (hole, &(x, y)) in pos.iter().enumerate() {
            let m = panel.moves.get(hole).copied().flatten();
            // Fewest moves darkest; one value alone is drawn darkest.
            let t = |m: usize| {
                if hi == lo {
                    1.0
                } else {
                    (hi - m) as f64 / (hi - lo) as f64
                }
            };
            let fill = m.map_or("#e8e8e8".to_string(), |m| heat(t(m)));
            let (cx, cy) = (ox + (x + 0.5) * SCALE, oy + 34.0 + (y + 0.5) * SCALE);
            let stroke = if hole == panel.start {
                "stroke=\"#1f5fbf\" stroke-width=\"3\""
            } else {
                "stroke=\"#999\" stroke-width=\"1\""
            };
            let tip = m.map_or("no win".to_string(), |m| format!("{m} moves"));
            let _ = writeln!(
                s,
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"{fill}\" {stroke}><title>{}: {tip}</title></circle>",
                SCALE * 0.42,
                board.hole_name(hole),
            );
            if let Some(m) = m {
                let colour = if t(m) > 0.45 { "white" } else { "black" };
                let _ = writeln!(
                    s,
                    "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\" fill=\"{colour}\">{m}</text>",
                    cy + 3.5
                );
            }
        }
    }
    s.push_str("</svg>\n");
    s
}
