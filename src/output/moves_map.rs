//! The fewest moves by finishing hole drawn on the board, one panel per start class (the
//! picture of `min_moves.csv`, drawn by `pegsol report`), in the style of
//! [`super::plot::finish_heat_maps`].

use super::plot::{PanelGrid, heat};
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
    let title = "fewest moves to one peg by finishing hole, one panel per start class";
    let (grid, mut s) = PanelGrid::open(board, panels.len(), title);
    for (i, panel) in panels.iter().enumerate() {
        let origin = grid.origin(i);
        let known: Vec<usize> = panel.moves.iter().flatten().copied().collect();
        let (lo, hi) = (
            known.iter().copied().min().unwrap_or(0),
            known.iter().copied().max().unwrap_or(0),
        );
        let best = match panel.anywhere {
            Some(m) => format!("fewest {m} moves"),
            None => "no win".to_string(),
        };
        grid.caption(
            &mut s,
            origin,
            board,
            (panel.start, panel.class_size),
            &best,
        );
        // Fewest moves darkest; one value alone is drawn darkest.
        let t = |m: usize| {
            if hi == lo {
                1.0
            } else {
                (hi - m) as f64 / (hi - lo) as f64
            }
        };
        for hole in 0..grid.pos.len() {
            let m = panel.moves.get(hole).copied().flatten();
            let fill = m.map_or("#e8e8e8".to_string(), |m| heat(t(m)));
            let tip = m.map_or("no win".to_string(), |m| format!("{m} moves"));
            let (cx, cy) = grid.hole(&mut s, origin, board, (hole, panel.start), &fill, &tip);
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
