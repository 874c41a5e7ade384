//! Games by pegs left, one line per board, on a logarithmic scale.

use super::{PALETTE, esc, svg_open};
use crate::total::Total;
use std::fmt::Write;
use thousands::Separable;

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
    let axes = Axes::of(series);
    let mut s = svg_open(axes.w, axes.h);
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">{}</text>",
        axes.w / 2.0,
        esc(title)
    );
    axes.grid(&mut s);
    for (i, (label, points)) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        axes.series(&mut s, colour, label, points);
        axes.legend(&mut s, i, colour, label);
    }
    s.push_str("</svg>\n");
    s
}

/// The chart's frame: its size and margins, the pegs on x and the powers of ten on y.
struct Axes {
    w: f64,
    h: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    max_pegs: usize,
    y_lo: f64,
    y_hi: f64,
}

impl Axes {
    /// The frame that holds every point of `series`.
    fn of(series: &[(String, Vec<(usize, Total)>)]) -> Axes {
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
        Axes {
            w: 720.0,
            h: 440.0,
            left: 80.0,
            right: 150.0,
            top: 40.0,
            bottom: 50.0,
            max_pegs,
            y_lo,
            y_hi,
        }
    }

    fn px(&self, pegs: usize) -> f64 {
        self.left
            + (pegs as f64 - 1.0) / (self.max_pegs as f64 - 1.0) * (self.w - self.left - self.right)
    }

    fn py(&self, lg: f64) -> f64 {
        self.top + (self.y_hi - lg) / (self.y_hi - self.y_lo) * (self.h - self.top - self.bottom)
    }

    /// The grid lines, the axes' numbers and titles.
    fn grid(&self, s: &mut String) {
        let (w, h, left, right, top, bottom) =
            (self.w, self.h, self.left, self.right, self.top, self.bottom);
        let step = ((self.y_hi - self.y_lo) / 12.0).ceil().max(1.0) as usize;
        let mut e = self.y_lo as i64;
        while e as f64 <= self.y_hi {
            let y = self.py(e as f64);
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
        let xstep = self.max_pegs.div_ceil(14);
        for p in (1..=self.max_pegs).step_by(xstep) {
            let x = self.px(p);
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
    }

    /// One series: a line per run of consecutive pegs-left values (no line across a value
    /// that no game ends with), and a point with its tooltip per value.
    fn series(&self, s: &mut String, colour: &str, label: &str, points: &[(usize, Total)]) {
        let mut runs: Vec<Vec<String>> = Vec::new();
        let mut last: Option<usize> = None;
        for &(p, g) in points.iter().filter(|p| !p.1.is_zero()) {
            if last.is_none_or(|l| l + 1 != p) {
                runs.push(Vec::new());
            }
            let point = format!("{:.1},{:.1}", self.px(p), self.py(g.to_f64().log10()));
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
                self.px(p),
                self.py(g.to_f64().log10()),
                esc(label),
                p,
                g.separate_with_commas()
            );
        }
    }

    /// The legend's line `i`.
    fn legend(&self, s: &mut String, i: usize, colour: &str, label: &str) {
        let ly = self.top + 10.0 + i as f64 * 20.0;
        let lx = self.w - self.right + 14.0;
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
}
