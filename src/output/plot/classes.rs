//! A board with its start classes marked.

use super::{PALETTE, SCALE, board_extent, esc, hole_positions, svg_open};
use crate::geometry::board::Board;
use std::fmt::Write;

/// The board with its start classes marked: each hole coloured by its class and labelled
/// with its name; the class's representative (its smallest hole, the start `table` counts)
/// has a thick outline. A legend lists each class and its size.
///
/// ```
/// let b = pegsol::geometry::Board::from_spec("tri:5").unwrap();
/// let svg = pegsol::output::plot::start_classes(&b);
/// assert!(svg.starts_with("<svg") && svg.contains("tri:5: 4 start classes"));
/// for legend in ["a1 (3 holes)", "a2 (6 holes)", "a3 (3 holes)", "b3 (3 holes)"] {
///     assert!(svg.contains(legend), "{legend}");
/// }
/// assert_eq!(svg.matches("stroke-width=\"3\"").count(), 4); // one representative a class
/// ```
pub fn start_classes(board: &Board) -> String {
    let pos = hole_positions(board);
    let (bw, bh) = board_extent(&pos);
    let classes = board.hole_classes();
    let legend_w = 150.0;
    let (w, h) = (
        bw + legend_w + 20.0,
        (bh + 50.0).max(40.0 + 18.0 * classes.len() as f64),
    );
    let mut s = svg_open(w, h);
    let _ = writeln!(
        s,
        "<text x=\"10\" y=\"22\" font-size=\"15\">{}: {} start classes</text>",
        esc(board.name()),
        classes.len()
    );
    for (k, class) in classes.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        for &hole in class {
            let (x, y) = pos[hole];
            let (cx, cy) = (10.0 + (x + 0.5) * SCALE, 34.0 + (y + 0.5) * SCALE);
            let stroke = if hole == class[0] {
                "stroke=\"black\" stroke-width=\"3\""
            } else {
                "stroke=\"#666\" stroke-width=\"1\""
            };
            let _ = writeln!(
                s,
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"{colour}\" {stroke}/>\
                 <text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"middle\" fill=\"white\">{}</text>",
                SCALE * 0.42,
                cy + 3.0,
                board.hole_name(hole)
            );
        }
        let (lx, ly) = (bw + 30.0, 44.0 + k as f64 * 18.0);
        let _ = writeln!(
            s,
            "<circle cx=\"{lx:.1}\" cy=\"{ly:.1}\" r=\"6\" fill=\"{colour}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">{} ({} hole{})</text>",
            lx + 12.0,
            ly + 4.0,
            board.hole_name(class[0]),
            class.len(),
            if class.len() == 1 { "" } else { "s" }
        );
    }
    s.push_str("</svg>\n");
    s
}
