//! Pictures as SVG text, written by hand (no drawing library, no fonts to load): the same
//! input always gives the same bytes, so committed pictures can be diffed like the CSVs.

use crate::geometry::board::Board;
use crate::geometry::lattice::Lattice;
use crate::total::Total;
use std::fmt::Write;
use thousands::Separable;

/// Pixels between neighbouring holes.
pub(crate) const SCALE: f64 = 30.0;
/// Colours for start classes and chart series.
const PALETTE: &[&str] = &[
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
        let (w, h) = (pw * per_row as f64, ph * rows as f64 + 40.0);
        let mut s = svg_open(w, h);
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">{}: {title}</text>",
            w / 2.0,
            esc(board.name())
        );
        let grid = PanelGrid {
            pos,
            bw,
            pw,
            ph,
            per_row,
        };
        (grid, s)
    }

    /// The top-left corner of panel `i`.
    pub(crate) fn origin(&self, i: usize) -> (f64, f64) {
        let ox = (i % self.per_row) as f64 * self.pw + (self.pw - self.bw) / 2.0;
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
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">start {} (class of {})</text>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#555\">{second}</text>",
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

/// Games by pegs left, one line per series (board), on a logarithmic scale; a line is
/// broken where no game leaves that many pegs.
/// `series`: (label, [(pegs left, games)]).
///
/// ```
/// use pegsol::output::plot::pegs_left_chart;
/// let points = [(1, 29_760), (2, 0), (3, 100), (4, 10)].map(|(p, g)| (p, g.into()));
/// let series = vec![("tri:5".to_string(), points.to_vec())];
/// let svg = pegs_left_chart("Games by pegs left", &series);
/// assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
/// assert!(svg.contains("<title>tri:5: 1 pegs left, 29,760 games</title>"));
/// assert_eq!(svg.matches("<circle").count(), 3); // no point where no game ends
/// assert_eq!(svg.matches("<polyline").count(), 1); // 3 to 4; 1 stands alone
/// ```
pub fn pegs_left_chart(title: &str, series: &[(String, Vec<(usize, Total)>)]) -> String {
    let (w, h) = (720.0, 440.0);
    let (left, right, top, bottom) = (80.0, 150.0, 40.0, 50.0);
    let max_pegs = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.0))
        .max()
        .unwrap_or(1)
        .max(2);
    let logs: Vec<f64> = series
        .iter()
        .flat_map(|s| {
            s.1.iter()
                .filter(|p| !p.1.is_zero())
                .map(|p| p.1.to_f64().log10())
        })
        .collect();
    let y_lo = logs
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
        .floor()
        .min(0.0);
    let y_hi = logs
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max)
        .ceil()
        .max(y_lo + 1.0);
    let px =
        |pegs: usize| left + (pegs as f64 - 1.0) / (max_pegs as f64 - 1.0) * (w - left - right);
    let py = |lg: f64| top + (y_hi - lg) / (y_hi - y_lo) * (h - top - bottom);
    let mut s = svg_open(w, h);
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">{}</text>",
        w / 2.0,
        esc(title)
    );
    // Grid and axes.
    let step = ((y_hi - y_lo) / 12.0).ceil().max(1.0) as usize;
    let mut e = y_lo as i64;
    while e as f64 <= y_hi {
        let y = py(e as f64);
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">1e{e}</text>",
            w - right,
            left - 6.0,
            y + 4.0
        );
        e += step as i64;
    }
    let xstep = max_pegs.div_ceil(14);
    for p in (1..=max_pegs).step_by(xstep) {
        let x = px(p);
        let _ = writeln!(
            s,
            "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#eee\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">{p}</text>",
            h - bottom,
            h - bottom + 16.0
        );
    }
    let _ = writeln!(
        s,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#333\"/>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\" text-anchor=\"middle\">pegs left at the end</text>\n\
         <text x=\"18\" y=\"{:.1}\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 18 {:.1})\">games (log scale)</text>",
        w - left - right,
        h - top - bottom,
        left + (w - left - right) / 2.0,
        h - 10.0,
        top + (h - top - bottom) / 2.0,
        top + (h - top - bottom) / 2.0,
    );
    for (i, (label, points)) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        // One line per run of consecutive pegs-left values: no line across a value that
        // no game ends with.
        let mut runs: Vec<Vec<String>> = Vec::new();
        let mut last: Option<usize> = None;
        for &(p, g) in points.iter().filter(|p| !p.1.is_zero()) {
            if last.is_none_or(|l| l + 1 != p) {
                runs.push(Vec::new());
            }
            let point = format!("{:.1},{:.1}", px(p), py(g.to_f64().log10()));
            runs.last_mut().expect("pushed").push(point);
            last = Some(p);
        }
        for run in runs.iter().filter(|r| r.len() > 1) {
            let _ = writeln!(
                s,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
                run.join(" ")
            );
        }
        for &(p, g) in points.iter().filter(|p| !p.1.is_zero()) {
            let _ = writeln!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{colour}\"><title>{}: {} pegs left, {} games</title></circle>",
                px(p),
                py(g.to_f64().log10()),
                esc(label),
                p,
                g.separate_with_commas()
            );
        }
        let ly = top + 10.0 + i as f64 * 20.0;
        let lx = w - right + 14.0;
        let _ = writeln!(
            s,
            "<line x1=\"{lx:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{colour}\" stroke-width=\"3\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">{}</text>",
            lx + 22.0,
            lx + 28.0,
            ly + 4.0,
            esc(label)
        );
    }
    s.push_str("</svg>\n");
    s
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

/// One sweep of a table, for [`scaling_chart`].
pub struct SweepCost {
    /// The board.
    pub board: String,
    /// The starts swept together.
    pub sweep: String,
    /// Positions counted, summed over the sweep's starts.
    pub positions: u64,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Peak memory in bytes.
    pub peak_bytes: u64,
}

/// Wall time and peak memory against positions counted, one point per sweep, on log-log
/// axes: two panels side by side, one colour per board.
///
/// ```
/// use pegsol::output::plot::{scaling_chart, SweepCost};
/// let svg = scaling_chart(&[SweepCost {
///     board: "tri:5".into(), sweep: "a1".into(), positions: 3_016, seconds: 0.01, peak_bytes: 9 << 20,
/// }]);
/// assert!(svg.starts_with("<svg") && svg.contains("tri:5 from a1: 3,016 positions"));
/// ```
pub fn scaling_chart(sweeps: &[SweepCost]) -> String {
    let (pw, h) = (420.0, 420.0);
    let (left, top, bottom, gap) = (70.0, 50.0, 50.0, 60.0);
    let legend = 130.0;
    let w = 2.0 * (left + pw) + gap + legend;
    let mut boards: Vec<&str> = Vec::new();
    for s in sweeps {
        if !boards.contains(&s.board.as_str()) {
            boards.push(&s.board);
        }
    }
    let range = |v: &mut dyn Iterator<Item = f64>| {
        let (lo, hi) = v.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
        if lo.is_finite() {
            (lo.floor(), hi.ceil().max(lo.floor() + 1.0))
        } else {
            (0.0, 1.0)
        }
    };
    let lg = |x: f64| x.max(1e-3).log10();
    let xr = range(&mut sweeps.iter().map(|s| lg(s.positions as f64)));
    // Panel 0: wall time; panel 1: peak memory.
    let value = |s: &SweepCost, p: usize| {
        if p == 0 {
            lg(s.seconds)
        } else {
            lg(s.peak_bytes as f64 / 1048576.0)
        }
    };
    let labels = ["wall time (s, log scale)", "peak memory (MiB, log scale)"];
    let mut out = svg_open(w, h);
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">Cost of a sweep \
         against positions counted (one point per sweep)</text>",
        w / 2.0
    );
    for (p, ylabel) in labels.iter().enumerate() {
        let yr = range(&mut sweeps.iter().map(|s| value(s, p)));
        let x0 = left + p as f64 * (left + pw + gap);
        let px = |v: f64| x0 + (v - xr.0) / (xr.1 - xr.0) * pw;
        let py = |v: f64| top + (yr.1 - v) / (yr.1 - yr.0) * (h - top - bottom);
        for e in xr.0 as i64..=xr.1 as i64 {
            let x = px(e as f64);
            let _ = writeln!(
                out,
                "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#eee\"/>\
                 <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">1e{e}</text>",
                h - bottom,
                h - bottom + 16.0
            );
        }
        for e in yr.0 as i64..=yr.1 as i64 {
            let y = py(e as f64);
            let _ = writeln!(
                out,
                "<line x1=\"{x0:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">1e{e}</text>",
                x0 + pw,
                x0 - 6.0,
                y + 4.0
            );
        }
        let mid = top + (h - top - bottom) / 2.0;
        let _ = writeln!(
            out,
            "<rect x=\"{x0:.1}\" y=\"{top}\" width=\"{pw}\" height=\"{:.1}\" fill=\"none\" stroke=\"#333\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\" text-anchor=\"middle\">positions counted (log scale)</text>\n\
             <text x=\"{:.1}\" y=\"{mid:.1}\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 {:.1} {mid:.1})\">{}</text>",
            h - top - bottom,
            x0 + pw / 2.0,
            h - 10.0,
            x0 - 48.0,
            x0 - 48.0,
            esc(ylabel)
        );
        for s in sweeps {
            let i = boards.iter().position(|b| *b == s.board).unwrap_or(0);
            let shown = if p == 0 {
                format!("{:.2} s", s.seconds)
            } else {
                format!("{:.1} MiB", s.peak_bytes as f64 / 1048576.0)
            };
            let _ = writeln!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{}\"><title>{} from {}: {} positions, {shown}</title></circle>",
                px(lg(s.positions as f64)),
                py(value(s, p)),
                PALETTE[i % PALETTE.len()],
                esc(&s.board),
                esc(&s.sweep),
                s.positions.separate_with_commas()
            );
        }
    }
    for (i, b) in boards.iter().enumerate() {
        let (lx, ly) = (w - legend + 10.0, top + 10.0 + i as f64 * 20.0);
        let _ = writeln!(
            out,
            "<circle cx=\"{lx:.1}\" cy=\"{ly:.1}\" r=\"5\" fill=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">{}</text>",
            PALETTE[i % PALETTE.len()],
            lx + 12.0,
            ly + 4.0,
            esc(b)
        );
    }
    out.push_str("</svg>\n");
    out
}
