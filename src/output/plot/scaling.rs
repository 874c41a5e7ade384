//! The cost of each sweep against the positions it counted.

use super::{PALETTE, esc, svg_open};
use std::fmt::Write;
use thousands::Separable;

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
    let frame = Frame::new();
    let mut boards: Vec<&str> = Vec::new();
    for s in sweeps {
        if !boards.contains(&s.board.as_str()) {
            boards.push(&s.board);
        }
    }
    let xr = range(&mut sweeps.iter().map(|s| lg(s.positions as f64)));
    let labels = ["wall time (s, log scale)", "peak memory (MiB, log scale)"];
    let mut out = svg_open(frame.w, frame.h);
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">Cost of a sweep \
         against positions counted (one point per sweep)</text>",
        frame.w / 2.0
    );
    for (p, ylabel) in labels.iter().enumerate() {
        let yr = range(&mut sweeps.iter().map(|s| value(s, p)));
        let panel = Panel {
            frame: &frame,
            p,
            xr,
            yr,
        };
        panel.grid(&mut out, ylabel);
        for s in sweeps {
            let i = boards.iter().position(|b| *b == s.board).unwrap_or(0);
            panel.point(&mut out, s, PALETTE[i % PALETTE.len()]);
        }
    }
    for (i, b) in boards.iter().enumerate() {
        let (lx, ly) = (
            frame.w - frame.legend + 10.0,
            frame.top + 10.0 + i as f64 * 20.0,
        );
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

/// The powers of ten that hold every value: (floor of the least, ceiling of the greatest),
/// at least one apart; (0, 1) for none.
fn range(v: &mut dyn Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = v.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    if lo.is_finite() {
        (lo.floor(), hi.ceil().max(lo.floor() + 1.0))
    } else {
        (0.0, 1.0)
    }
}

/// log10, at least -3.
fn lg(x: f64) -> f64 {
    x.max(1e-3).log10()
}

/// A sweep's value on panel `p` (0: wall time, 1: peak memory), as [`lg`].
fn value(s: &SweepCost, p: usize) -> f64 {
    if p == 0 {
        lg(s.seconds)
    } else {
        lg(s.peak_bytes as f64 / 1048576.0)
    }
}

/// The chart's size and margins: two panels side by side, then the legend.
struct Frame {
    pw: f64,
    h: f64,
    left: f64,
    top: f64,
    bottom: f64,
    gap: f64,
    legend: f64,
    w: f64,
}

impl Frame {
    fn new() -> Frame {
        let (pw, h) = (420.0, 420.0);
        let (left, top, bottom, gap) = (70.0, 50.0, 50.0, 60.0);
        let legend = 130.0;
        let w = 2.0 * (left + pw) + gap + legend;
        Frame {
            pw,
            h,
            left,
            top,
            bottom,
            gap,
            legend,
            w,
        }
    }
}

/// Panel `p` of the chart, with its ranges of powers of ten on x and y.
struct Panel<'a> {
    frame: &'a Frame,
    p: usize,
    xr: (f64, f64),
    yr: (f64, f64),
}

impl Panel<'_> {
    fn x0(&self) -> f64 {
        let f = self.frame;
        f.left + self.p as f64 * (f.left + f.pw + f.gap)
    }

    fn px(&self, v: f64) -> f64 {
        self.x0() + (v - self.xr.0) / (self.xr.1 - self.xr.0) * self.frame.pw
    }

    fn py(&self, v: f64) -> f64 {
        let f = self.frame;
        f.top + (self.yr.1 - v) / (self.yr.1 - self.yr.0) * (f.h - f.top - f.bottom)
    }

    /// The grid lines, the powers of ten, the frame and the axes' titles.
    fn grid(&self, out: &mut String, ylabel: &str) {
        let (x0, f) = (self.x0(), self.frame);
        let (pw, h, top, bottom) = (f.pw, f.h, f.top, f.bottom);
        for e in self.xr.0 as i64..=self.xr.1 as i64 {
            let x = self.px(e as f64);
            let _ = writeln!(
                out,
                "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#eee\"/>\
                 <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">1e{e}</text>",
                h - bottom,
                h - bottom + 16.0
            );
        }
        for e in self.yr.0 as i64..=self.yr.1 as i64 {
            let y = self.py(e as f64);
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
    }

    /// One sweep's point, its figures in the tooltip.
    fn point(&self, out: &mut String, s: &SweepCost, colour: &str) {
        let shown = if self.p == 0 {
            format!("{:.2} s", s.seconds)
        } else {
            format!("{:.1} MiB", s.peak_bytes as f64 / 1048576.0)
        };
        let _ = writeln!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{}\"><title>{} from {}: {} positions, {shown}</title></circle>",
            self.px(lg(s.positions as f64)),
            self.py(value(s, self.p)),
            colour,
            esc(&s.board),
            esc(&s.sweep),
            s.positions.separate_with_commas()
        );
    }
}
