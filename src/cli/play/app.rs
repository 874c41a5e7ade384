//! The state of `pegsol play`'s screen and what each key and click does to it; drawing is
//! in `view`.

use crate::analysis::solvable::Finish;
use crate::play::{Counter, Game, layout::Layout};
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use std::path::PathBuf;

/// The file name offered when the game is saved.
pub(super) const DEFAULT_SAVE: &str = "pegsol-game.txt";

/// One game on the screen.
pub(crate) struct App {
    pub(super) game: Game,
    pub(super) counter: Counter,
    pub(super) finish: Finish,
    pub(super) layout: Layout,
    /// The hole under the cursor.
    pub(super) cursor: usize,
    /// The peg chosen, whose jumps are marked.
    pub(super) selected: Option<usize>,
    /// A jump being typed (`c1-a1`).
    pub(super) typed: String,
    /// A file name being typed, to save the game to.
    pub(super) saving: Option<String>,
    /// The last message: what a key did, or why it did nothing.
    pub(super) message: String,
    /// Set when the player quits.
    pub(crate) quit: bool,
    /// Where the board was drawn last (for the mouse).
    pub(super) board_area: Rect,
}

impl App {
    /// The screen of `game`, its counts from `counter`.
    pub(crate) fn new(game: Game, counter: Counter, finish: Finish) -> App {
        let layout = Layout::new(game.board());
        // The cursor starts on a peg that can jump, else on the first hole.
        let first = game.legal_jumps().first().copied();
        let cursor = first.map_or(0, |j| j.from);
        let example = first.map_or("c1-a1".into(), |j| {
            let b = game.board();
            format!("{}-{}", b.hole_name(j.from), b.hole_name(j.to))
        });
        App {
            game,
            counter,
            finish,
            layout,
            cursor,
            selected: None,
            typed: String::new(),
            saving: None,
            message: format!(
                "choose a peg with the arrows and Enter, or type a jump such as {example}"
            ),
            quit: false,
            board_area: Rect::default(),
        }
    }

    /// The game played.
    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    /// What a key does.
    pub(crate) fn key(&mut self, k: KeyEvent) {
        if self.saving.is_some() {
            self.save_key(k);
            return;
        }
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        match k.code {
            KeyCode::Char('c' | 'q') if ctrl => self.quit = true,
            KeyCode::Char('z') if ctrl => self.undo(),
            KeyCode::Char('<') => self.undo(),
            KeyCode::Char('y') if ctrl => self.redo(),
            KeyCode::Char('>') => self.redo(),
            KeyCode::Char('r') if ctrl => {
                self.game.restart();
                self.after_change("back to the start (Ctrl-Y replays the jumps)".into());
            }
            KeyCode::Char('s') if ctrl => {
                self.saving = Some(DEFAULT_SAVE.into());
                self.message = "save the game to (Enter to save, Esc to cancel):".into();
            }
            KeyCode::Up => self.step(-1, 0),
            KeyCode::Down => self.step(1, 0),
            KeyCode::Left => self.step(0, -1),
            KeyCode::Right => self.step(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') if self.typed.trim().is_empty() => {
                self.typed.clear();
                self.choose(self.cursor);
            }
            KeyCode::Enter => {
                let text = std::mem::take(&mut self.typed);
                match self.game.play_text(&text) {
                    Ok(()) => self.after_change(format!("played {}", text.trim())),
                    Err(e) => self.message = e.to_string(),
                }
            }
            KeyCode::Backspace => {
                self.typed.pop();
            }
            KeyCode::Esc => {
                self.typed.clear();
                self.selected = None;
                self.message = "Ctrl-Q quits".into();
            }
            // A jump being typed: at most 64 characters.
            KeyCode::Char(c)
                if !ctrl
                    && (c.is_ascii_alphanumeric() || c == '-' || c == ' ')
                    && self.typed.len() < 64 =>
            {
                self.typed.push(c.to_ascii_lowercase());
            }
            _ => {}
        }
    }

    fn save_key(&mut self, k: KeyEvent) {
        let Some(name) = self.saving.as_mut() else {
            return;
        };
        match k.code {
            KeyCode::Esc => {
                self.saving = None;
                self.message = "not saved".into();
            }
            KeyCode::Backspace => {
                name.pop();
            }
            KeyCode::Enter => {
                let path = PathBuf::from(name.trim());
                self.saving = None;
                self.message = match self.save(&path) {
                    Ok(()) => format!(
                        "game saved to {} (pegsol check {0} replays it)",
                        path.display()
                    ),
                    Err(e) => format!("not saved: {e}"),
                };
            }
            KeyCode::Char(c) if !c.is_control() && name.len() < 4096 => name.push(c),
            _ => {}
        }
    }

    /// Writes the game in jump notation to `path` (atomically).
    fn save(&self, path: &std::path::Path) -> crate::error::Result<()> {
        let path = super::super::args::parse_file(&path.display().to_string())
            .map_err(crate::error::Error::input)?;
        crate::output::files::write_file_atomically(&path, self.game.game_text().as_bytes())
    }

    /// What a mouse event does: a click on a hole moves the cursor there and chooses it.
    pub(crate) fn mouse(&mut self, m: MouseEvent) {
        if m.kind != MouseEventKind::Down(MouseButton::Left) || self.saving.is_some() {
            return;
        }
        let a = self.board_area;
        if m.column < a.x || m.row < a.y {
            return;
        }
        let (line, column) = ((m.row - a.y) as usize, (m.column - a.x) as usize);
        if let Some(h) = self.layout.hole_at(line, column) {
            self.cursor = h;
            self.choose(h);
        }
    }

    fn step(&mut self, dl: i64, dc: i64) {
        if let Some(h) = self.layout.step(self.cursor, dl, dc) {
            self.cursor = h;
        }
    }

    /// Enter on `hole`: the target of the chosen peg's jump plays it; a peg that can jump
    /// is chosen.
    fn choose(&mut self, hole: usize) {
        let name = |h| self.game.board().hole_name(h);
        if let Some(from) = self.selected
            && let Some(j) = self
                .game
                .jumps_from(from)
                .into_iter()
                .find(|j| j.to == hole)
        {
            let text = format!("{}-{}", name(j.from), name(j.to));
            match self.game.play(j) {
                Ok(()) => self.after_change(format!("played {text}")),
                Err(e) => self.message = e.to_string(),
            }
            return;
        }
        if !self.game.has_peg(hole) {
            self.message = format!("{} is empty: choose a peg that can jump", name(hole));
            return;
        }
        let targets: Vec<String> = self
            .game
            .jumps_from(hole)
            .iter()
            .map(|j| name(j.to))
            .collect();
        if targets.is_empty() {
            self.message = format!("the peg in {} cannot jump", name(hole));
            return;
        }
        self.selected = Some(hole);
        self.message = format!(
            "{} chosen: it jumps to {}; move to a hole and press Enter",
            name(hole),
            targets.join(" or ")
        );
    }

    /// Takes back the last jump, the cursor back on the peg that made it.
    fn undo(&mut self) {
        if let Some(&j) = self.game.jumps().last() {
            self.game.undo();
            self.after_change("jump taken back".into());
            self.cursor = j.from;
        } else {
            self.message = "nothing to undo".into();
        }
    }

    fn redo(&mut self) {
        if self.game.redo() {
            self.after_change("jump played again".into());
        } else {
            self.message = "nothing to redo".into();
        }
    }

    /// After a jump, undo, redo or restart: nothing chosen, the cursor on the peg moved.
    fn after_change(&mut self, message: String) {
        self.selected = None;
        if let Some(j) = self.game.jumps().last()
            && self.game.has_peg(j.to)
        {
            self.cursor = j.to;
        }
        self.message = if self.game.is_over() {
            format!("{message}; no jump is left: the game is over (Ctrl-S saves it)")
        } else {
            message
        };
    }
}
