//! Animated SVG of a game: the board drawn to scale, one frame per move (SMIL animation,
//! plays in any current browser; a viewer without animation shows the start).
//!
//! Neighbouring holes are one unit apart on both lattices (a triangular board is drawn with
//! its rows offset by half a unit and `sqrt(3)/2` apart), holes and pegs are circles of fixed
//! fractions of that unit. Frame `k` shows the position after move `k`, the path of that
//! move as a line, and a caption.

use crate::games::notation;
use crate::geometry::board::{Board, Jump, Pegs, bit};
use crate::geometry::lattice::Lattice;
use std::fmt::Write;

/// Pixels between neighbouring holes.
const UNIT: f64 = 40.0;
/// Seconds each frame is shown.
const FRAME_SECONDS: f64 = 1.0;

/// Where hole `h` is drawn, in units.
fn place(board: &Board, h: usize) -> (f64, f64) {
    let (r, c) = board.cells()[h];
    match board.lattice() {
        Lattice::Triangular => (c as f64 - r as f64 / 2.0, r as f64 * 3f64.sqrt() / 2.0),
        _ => (c as f64, r as f64),
    }
}

/// The `values` of a discrete animation: `on` for the frames where `shown` holds.
fn values(frames: usize, shown: impl Fn(usize) -> bool) -> String {
    (0..frames)
        .map(|f| if shown(f) { "1" } else { "0" })
        .collect::<Vec<_>>()
        .join(";")
}

fn animate(frames: usize, shown: impl Fn(usize) -> bool) -> String {
    format!(
        r#"<animate attributeName="opacity" dur="{:.1}s" repeatCount="indefinite" calcMode="discrete" values="{}"/>"#,
        frames as f64 * FRAME_SECONDS,
        values(frames, shown)
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// An animated SVG of the game `jumps` played from `start`, titled `title`.
///
/// ```
/// use pegsol::{geometry::board::Board, games::notation, games::animation};
/// let b = Board::from_spec("tri:3").unwrap();
/// let jumps = notation::parse_jumps(&b, "a3-a1").unwrap();
/// let text = animation::animation(&b, b.default_start(), &jumps, "one jump");
/// assert!(text.starts_with("<svg") && text.contains("<animate"));
/// ```
pub fn animation(board: &Board, start: Pegs, jumps: &[Jump], title: &str) -> String {
    let moves = notation::group_moves(jumps);
    let mut frames_pos = vec![start];
    let mut pos = start;
    for mv in &moves {
        for j in mv {
            pos ^= j.mask();
        }
        frames_pos.push(pos);
    }
    let at = Layout::new(board);
    let (width, height) = (at.width, at.height);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#d9b382"/>"##
    );
    // Holes.
    for h in 0..board.holes() {
        let (x, y) = at.xy(h);
        let _ = writeln!(
            out,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="#5a3d1e"/>"##,
            0.18 * UNIT
        );
    }
    write_paths(&mut out, &at, &moves, frames_pos.len());
    write_pegs(&mut out, &at, board, &frames_pos);
    write_captions(&mut out, &at, board, &moves, title);
    out.push_str("</svg>\n");
    out
}

/// Where each hole of a board is drawn, and the picture's size (a caption's line below
/// the board).
struct Layout {
    pts: Vec<(f64, f64)>,
    min_x: f64,
    min_y: f64,
    width: f64,
    height: f64,
}

/// The margin around the board, in units.
const MARGIN: f64 = 1.0;

impl Layout {
    fn new(board: &Board) -> Layout {
        let pts: Vec<(f64, f64)> = (0..board.holes()).map(|h| place(board, h)).collect();
        let min_x = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let max_x = pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let min_y = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let max_y = pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let caption = 1.2;
        let width = ((max_x - min_x + 2.0 * MARGIN) * UNIT).max(8.0 * UNIT);
        let height = (max_y - min_y + 2.0 * MARGIN + caption) * UNIT;
        Layout {
            pts,
            min_x,
            min_y,
            width,
            height,
        }
    }

    /// The centre of hole `h` in the picture.
    fn xy(&self, h: usize) -> (f64, f64) {
        (
            (self.pts[h].0 - self.min_x + MARGIN) * UNIT,
            (self.pts[h].1 - self.min_y + MARGIN) * UNIT,
        )
    }
}

/// The path of each move, shown in the frame after it.
fn write_paths(out: &mut String, at: &Layout, moves: &[Vec<Jump>], frames: usize) {
    for (k, mv) in moves.iter().enumerate() {
        let mut points = vec![at.xy(mv[0].from)];
        points.extend(mv.iter().map(|j| at.xy(j.to)));
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            out,
            r##"<polyline points="{}" fill="none" stroke="#c0392b" stroke-width="{:.1}" stroke-linecap="round" stroke-linejoin="round" opacity="0">{}</polyline>"##,
            pts.join(" "),
            0.08 * UNIT,
            animate(frames, |f| f == k + 1)
        );
    }
}

/// Pegs: one circle per hole, visible in the frames where the hole holds a peg.
fn write_pegs(out: &mut String, at: &Layout, board: &Board, frames_pos: &[Pegs]) {
    for h in 0..board.holes() {
        let (x, y) = at.xy(h);
        let here = |f: usize| frames_pos[f] & bit(h) != 0;
        let _ = writeln!(
            out,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="#1f4e99" stroke="#0b2350" stroke-width="2" opacity="{}">{}</circle>"##,
            0.3 * UNIT,
            u8::from(here(0)),
            animate(frames_pos.len(), here)
        );
    }
}

/// Captions: the title at the start, then each move's text in the frame after it.
fn write_captions(out: &mut String, at: &Layout, board: &Board, moves: &[Vec<Jump>], title: &str) {
    let frames = moves.len() + 1;
    let cy = at.height - 0.6 * UNIT;
    for f in 0..frames {
        let text = if f == 0 {
            format!("{}: start", escape(title))
        } else {
            format!(
                "move {f}/{}: {}",
                moves.len(),
                notation::move_text(board, &moves[f - 1])
            )
        };
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{cy:.1}" font-size="{:.0}" opacity="{}">{text}{}</text>"#,
            0.5 * UNIT,
            0.4 * UNIT,
            u8::from(f == 0),
            animate(frames, |g| g == f)
        );
    }
}
