//! How hard each board is: per start class, the random player's win probability beside
//! the share of all games that are wins, on a logarithmic scale.

use super::{PALETTE, esc, svg_open};
use std::fmt::Write;

/// One start class of [`hardness_chart`].
#[derive(Clone, Debug, PartialEq)]
pub struct HardnessRow {
    /// The board.
    pub board: String,
    /// The start hole standing for the class.
    pub start: String,
    /// Holes of the class.
    pub class_size: usize,
    /// Wins / games: the chance that a game drawn uniformly from all games is a win.
    pub win_share: f64,
    /// The random player's probability of ending with one peg.
    pub random_win: f64,
}

/// Colours of the two markers: the random player, the share of games won.
const RANDOM: &str = PALETTE[0];
const SHARE: &str = PALETTE[1];
/// Height of a row, and the extra gap before each board's first row.
const ROW: f64 = 18.0;
const GAP: f64 = 10.0;

/// Per start class (one row each, boards in the order given), the random player's win
/// probability (filled dot) beside the share of all games that are wins (ring), on a
/// logarithmic axis; a probability of 0 (no win from that start) is drawn in a column "0"
/// left of the axis. Each dot's figure is in its tooltip.
///
/// ```
/// use pegsol::output::plot::{hardness_chart, HardnessRow};
/// let row = |start: &str, share, random| HardnessRow {
///     board: "tri:5".into(), start: start.into(), class_size: 3, win_share: share, random_win: random,
/// };
/// // tri:5 from a1: 29,760 of 568,630 games are wins; the random player wins 1 in 146.
/// let svg = hardness_chart(&[row("a1", 29_760.0 / 568_630.0, 0.006861755887681), row("a3", 0.0, 0.0)]);
/// assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
/// assert!(svg.contains(">tri:5 a1 (class of 3)</text>"));
/// assert!(svg.contains("<title>tri:5 a1: the random player wins 0.006862 (1 in 146)</title>"));
/// assert!(svg.contains("<title>tri:5 a1: 5.234% of all games are wins (1 in 19)</title>"));
/// assert!(svg.contains("<title>tri:5 a3: the random player wins 0 (never)</title>"));
/// assert_eq!(svg.matches("<circle").count(), 4 + 2); // two a row, two in the legend
/// ```
pub fn hardness_chart(rows: &[HardnessRow]) -> String {
    let layout = Layout::of(rows);
    let mut s = svg_open(layout.w, layout.h);
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">How hard is each \
         board? Wins per start class, log scale</text>",
        layout.w / 2.0
    );
    layout.legend(&mut s);
    layout.axis(&mut s);
    let mut y = layout.top;
    for (i, r) in rows.iter().enumerate() {
        if i == 0 || rows[i - 1].board != r.board {
            y += GAP;
        }
        layout.row(&mut s, r, y + ROW / 2.0);
        y += ROW;
    }
    s.push_str("</svg>\n");
    s
}

/// The chart's geometry: the label column, the "0" column, the axis from 10^lo to 1.
struct Layout {
    w: f64,
    h: f64,
    label_w: f64,
    top: f64,
    plot_w: f64,
    lo: f64,
    rows_h: f64,
}

impl Layout {
    fn of(rows: &[HardnessRow]) -> Layout {
        let logs = rows
            .iter()
            .flat_map(|r| [r.win_share, r.random_win])
            .filter(|p| *p > 0.0)
            .map(f64::log10);
        let lo = logs.fold(0.0, f64::min).floor().min(-1.0);
        // Long labels get room: about 7 pixels a character at 12 pixels.
        let widest = rows
            .iter()
            .map(|r| label(r).chars().count())
            .max()
            .unwrap_or(0);
        let label_w = (widest as f64 * 7.0 + 20.0).max(120.0);
        let boards = rows
            .iter()
            .enumerate()
            .filter(|(i, r)| *i == 0 || rows[i - 1].board != r.board)
            .count();
        let rows_h = rows.len() as f64 * ROW + boards as f64 * GAP;
        let (top, plot_w) = (64.0, 560.0);
        Layout {
            w: label_w + 40.0 + plot_w + 30.0,
            h: top + rows_h + 50.0,
            label_w,
            top,
            plot_w,
            lo,
            rows_h,
        }
    }

    /// The axis's left end; the "0" column is 40 pixels left of it.
    fn x0(&self) -> f64 {
        self.label_w + 40.0
    }

    /// Where probability `p` is drawn.
    fn x(&self, p: f64) -> f64 {
        if p <= 0.0 {
            return self.x0() - 22.0;
        }
        self.x0() + (p.log10() - self.lo) / -self.lo * self.plot_w
    }

    /// The key above the rows.
    fn legend(&self, s: &mut String) {
        let (x, y) = (self.x0(), 44.0);
        let _ = writeln!(
            s,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"5\" fill=\"{RANDOM}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">the random player wins (each legal jump equally likely)</text>\n\
             <circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"white\" stroke=\"{SHARE}\" stroke-width=\"2\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">share of all games that are wins</text>",
            x + 10.0,
            y + 4.0,
            y + 16.0,
            x + 10.0,
            y + 20.0,
        );
    }

    /// The powers of ten with their grid lines, the "0" column and the axis title.
    fn axis(&self, s: &mut String) {
        let (top, bottom) = (self.top, self.top + self.rows_h + 6.0);
        // At most about 12 powers of ten labelled, counted down from 1.
        let step = (-self.lo / 12.0).ceil().max(1.0) as usize;
        for e in (self.lo as i64..=0).rev().step_by(step) {
            let x = self.x(10f64.powi(e as i32));
            let _ = writeln!(
                s,
                "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{bottom:.1}\" stroke=\"#ddd\"/>\
                 <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">1e{e}</text>",
                bottom + 14.0
            );
        }
        let zero = self.x(0.0);
        let _ = writeln!(
            s,
            "<line x1=\"{zero:.1}\" y1=\"{top}\" x2=\"{zero:.1}\" y2=\"{bottom:.1}\" stroke=\"#ddd\" stroke-dasharray=\"2 3\"/>\
             <text x=\"{zero:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">0</text>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\" text-anchor=\"middle\">probability of ending with one peg (log scale)</text>",
            bottom + 14.0,
            self.x0() + self.plot_w / 2.0,
            bottom + 34.0,
        );
    }

    /// One start class at height `y`: its label, a line between its two dots, the dots.
    fn row(&self, s: &mut String, r: &HardnessRow, y: f64) {
        let name = format!("{} {}", r.board, r.start);
        let (xr, xs) = (self.x(r.random_win), self.x(r.win_share));
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\">{}</text>\
             <line x1=\"{xr:.1}\" y1=\"{y:.1}\" x2=\"{xs:.1}\" y2=\"{y:.1}\" stroke=\"#bbb\" stroke-width=\"2\"/>",
            self.label_w,
            y + 4.0,
            esc(&label(r)),
        );
        let _ = writeln!(
            s,
            "<circle cx=\"{xs:.1}\" cy=\"{y:.1}\" r=\"5\" fill=\"white\" stroke=\"{SHARE}\" stroke-width=\"2\"><title>{}: {} of all games are wins ({})</title></circle>\n\
             <circle cx=\"{xr:.1}\" cy=\"{y:.1}\" r=\"5\" fill=\"{RANDOM}\"><title>{}: the random player wins {} ({})</title></circle>",
            esc(&name),
            percent(r.win_share),
            one_in(r.win_share),
            esc(&name),
            significant(r.random_win),
            one_in(r.random_win),
        );
    }
}

/// A row's label: board, start and class size.
fn label(r: &HardnessRow) -> String {
    format!("{} {} (class of {})", r.board, r.start, r.class_size)
}

/// `p` with 4 significant digits: `0.006862`, `3.142e-7` below 0.0001, `0` for 0.
///
/// ```
/// use pegsol::output::plot::significant;
/// assert_eq!(significant(0.006861755887681), "0.006862");
/// assert_eq!(significant(0.5), "0.5000");
/// assert_eq!(significant(3.14159e-7), "3.142e-7");
/// assert_eq!(significant(0.0), "0");
/// ```
pub fn significant(p: f64) -> String {
    if p == 0.0 {
        return "0".into();
    }
    if p < 1e-4 {
        return format!("{p:.3e}");
    }
    let decimals = (3 - p.log10().floor() as i32).max(0) as usize;
    format!("{p:.decimals$}")
}

/// `p` in percent with 4 significant digits (`5.234%`), `0%` for 0.
fn percent(p: f64) -> String {
    if p == 0.0 {
        return "0%".into();
    }
    format!("{}%", significant(p * 100.0))
}

/// "1 in N" for a probability: N rounded to three significant figures, with thousands
/// separators (as `count --random` prints it), "never" for 0.
///
/// ```
/// use pegsol::output::plot::one_in;
/// assert_eq!(one_in(1.0 / 3.0), "1 in 3");
/// assert_eq!(one_in(7.0 / 1_234_567.0), "1 in 176,000");
/// assert_eq!(one_in(29_760.0 / 568_630.0), "1 in 19");
/// assert_eq!(one_in(0.0), "never");
/// ```
pub fn one_in(p: f64) -> String {
    use thousands::Separable;
    if p <= 0.0 {
        return "never".into();
    }
    let n = 1.0 / p;
    let mag = 10f64.powi((n.log10().floor() as i32 - 2).max(0));
    let rounded = ((n / mag).round() * mag) as u128;
    format!("1 in {}", rounded.separate_with_commas())
}
