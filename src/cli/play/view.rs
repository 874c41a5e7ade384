//! Drawing `pegsol play`'s screen: the board on the left, the counts on the right, the
//! message, the jump being typed and the keys below.

use super::app::App;
use crate::analysis::solvable::Finish;
use crate::play::{Counted, ending_lines};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout as Split};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use thousands::Separable;

/// The keys, as the last line shows them.
pub(super) const KEYS: &str =
    "arrows, Enter: choose  c1-a1 Enter: jump  ^Z undo  ^Y redo  ^R restart  ^S save  ^Q quit";

impl App {
    /// Draws the whole screen.
    pub(crate) fn draw(&mut self, f: &mut Frame) {
        let [title, main, bottom] = Split::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(3),
        ])
        .areas(f.area());
        f.render_widget(Paragraph::new(self.title()), title);
        let board_width = (self.layout.columns() + 2).max(24) as u16;
        let [left, right] =
            Split::horizontal([Constraint::Length(board_width + 2), Constraint::Min(20)])
                .areas(main);
        let block = Block::default().borders(Borders::ALL).title(" board ");
        self.board_area = block.inner(left);
        // One blank column inside the border.
        self.board_area.x += 1;
        self.board_area.width = self.board_area.width.saturating_sub(1);
        f.render_widget(block, left);
        f.render_widget(Paragraph::new(self.board_lines()), self.board_area);
        let counts = Paragraph::new(self.count_lines())
            .block(Block::default().borders(Borders::ALL).title(" counts "))
            .wrap(Wrap { trim: false });
        f.render_widget(counts, right);
        f.render_widget(Paragraph::new(self.bottom_lines()), bottom);
    }

    fn title(&self) -> String {
        let g = &self.game;
        let b = g.board();
        format!(
            "pegsol play: {} from {}, finish {}; {} pegs, {} jump{} played",
            b.name(),
            b.start_name(g.start()),
            self.finish.name(b),
            g.position().count_ones(),
            g.jumps().len(),
            if g.jumps().len() == 1 { "" } else { "s" }
        )
    }

    /// The board: each hole `o name` (a peg) or `. name` (empty), the cursor reversed, the
    /// chosen peg green and the holes it can jump to underlined.
    fn board_lines(&self) -> Vec<Line<'static>> {
        let g = &self.game;
        let b = g.board();
        let targets: Vec<usize> = self
            .selected
            .map(|s| g.jumps_from(s).iter().map(|j| j.to).collect())
            .unwrap_or_default();
        let mut rows: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.layout.lines()];
        for h in 0..b.holes() {
            let (line, col) = self.layout.place(h);
            rows[line].push((col, h));
        }
        rows.into_iter()
            .map(|mut row| {
                row.sort_unstable();
                let mut spans = Vec::new();
                let mut at = 0;
                for (col, h) in row {
                    spans.push(Span::raw(" ".repeat(col.saturating_sub(at))));
                    let peg = g.has_peg(h);
                    let text = format!(
                        "{} {:<w$}",
                        if peg { 'o' } else { '.' },
                        b.hole_name(h),
                        w = self.layout.width - 2
                    );
                    let mut style = if peg {
                        Style::default()
                            .fg(Color::Yellow)
                            .add_modifier(Modifier::BOLD)
                    } else {
                        Style::default().fg(Color::DarkGray)
                    };
                    if self.selected == Some(h) {
                        style = style.fg(Color::Green);
                    }
                    if targets.contains(&h) {
                        style = style.fg(Color::Cyan).add_modifier(Modifier::UNDERLINED);
                    }
                    if self.cursor == h {
                        style = style.add_modifier(Modifier::REVERSED);
                    }
                    at = col + text.len();
                    spans.push(Span::styled(text, style));
                }
                Line::from(spans)
            })
            .collect()
    }

    /// The wins from here and of every legal jump, or why they are not there yet.
    fn count_lines(&self) -> Vec<Line<'static>> {
        let g = &self.game;
        let b = g.board();
        let pos = g.position();
        let ending = match self.finish {
            Finish::Any => String::new(),
            Finish::Hole(h) => format!(" ending on {}", b.hole_name(h)),
        };
        let mut lines: Vec<Line> = Vec::new();
        let counted = self.counter.counted(b, pos);
        let (wins, jumps): (
            Option<u128>,
            Vec<(crate::geometry::board::Jump, Option<u128>)>,
        ) = match &counted {
            Counted::Ready(h) => (
                Some(h.wins),
                h.jumps.iter().map(|j| (j.jump, Some(j.wins))).collect(),
            ),
            _ => (
                None,
                g.legal_jumps().into_iter().map(|j| (j, None)).collect(),
            ),
        };
        match (&counted, wins) {
            (Counted::Pending, _) => lines.push(Line::from(
                "counting the wins from the start (in the background)...",
            )),
            (Counted::Unavailable(why), _) => lines.push(Line::from(why.clone())),
            (_, Some(w)) => lines.push(Line::styled(
                format!("wins{ending} still possible: {}", w.separate_with_commas()),
                Style::default().add_modifier(Modifier::BOLD),
            )),
            _ => {}
        }
        if !jumps.is_empty() {
            lines.push(Line::from(""));
            if wins == Some(0) {
                lines.push(Line::from("no jump keeps the game winnable"));
            }
        }
        for (j, w) in jumps {
            let mark = if self.selected == Some(j.from) {
                "> "
            } else {
                "  "
            };
            let text = format!(
                "{mark}{}-{} (over {})",
                b.hole_name(j.from),
                b.hole_name(j.to),
                b.hole_name(j.over)
            );
            lines.push(match w {
                Some(0) => Line::styled(format!("{text}  loses"), Style::default().fg(Color::Red)),
                Some(w) => Line::styled(
                    format!("{text}  {} wins", w.separate_with_commas()),
                    Style::default().fg(Color::Green),
                ),
                None => Line::from(text),
            });
        }
        if g.is_over() {
            lines.push(Line::from(""));
            lines.push(Line::from("the game is over:"));
            let start_wins = match self.counter.counted(b, g.start()) {
                Counted::Ready(h) => Some(h.wins),
                _ => None,
            };
            let rows = self.counter.pegs_left();
            for l in ending_lines(b, self.finish, pos, start_wins, rows.as_deref()) {
                lines.push(Line::from(l));
            }
        }
        lines
    }

    fn bottom_lines(&self) -> Vec<Line<'static>> {
        let input = match &self.saving {
            Some(name) => format!("file: {name}_"),
            None => format!("jump: {}_", self.typed),
        };
        vec![
            Line::from(self.message.clone()),
            Line::from(input),
            Line::styled(KEYS, Style::default().fg(Color::DarkGray)),
        ]
    }
}
