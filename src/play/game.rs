//! One game being played: the start, the jumps made, the jumps undone (for redo).

use crate::error::{Error, Result};
use crate::games::{animation, notation};
use crate::geometry::board::{Board, Jump, Pegs, bit};

/// A game in progress on a board: every jump checked, undo and redo kept.
///
/// ```
/// use pegsol::{geometry::board::Board, play::Game};
/// let mut g = Game::new(Board::from_spec("tri:5").unwrap(), None);
/// g.play_text("a3-a1").unwrap();
/// assert_eq!(g.position().count_ones(), 13);
/// assert!(g.undo() && g.position() == g.start());
/// assert!(g.redo() && g.jumps().len() == 1);
/// assert!(g.play_text("a3-a1").is_err()); // a1 holds a peg now
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    start: Pegs,
    jumps: Vec<Jump>,
    /// Jumps undone, the last one undone last: redo takes them back in order.
    undone: Vec<Jump>,
}

impl Game {
    /// A new game from `start` (the board's default start when `None`).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, play::Game};
    /// let b = Board::from_spec("english").unwrap();
    /// let g = Game::new(b.clone(), None);
    /// assert_eq!((g.start(), g.position().count_ones()), (b.default_start(), 32));
    /// ```
    pub fn new(board: Board, start: Option<Pegs>) -> Game {
        let start = start.unwrap_or_else(|| board.default_start());
        Game {
            board,
            start,
            jumps: Vec::new(),
            undone: Vec::new(),
        }
    }

    /// A game file's moves played from `start`: refused, with the reason, when a jump is
    /// illegal.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, play::Game};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let g = Game::replayed(b.clone(), b.default_start(), "1. a3-a1\n2. c3-a3").unwrap();
    /// assert_eq!(g.jumps().len(), 2);
    /// assert!(Game::replayed(b.clone(), b.default_start(), "a1-a3").is_err());
    /// ```
    pub fn replayed(board: Board, start: Pegs, moves: &str) -> Result<Game> {
        let jumps = notation::parse_jumps(&board, moves)?;
        notation::replay(&board, start, &jumps)
            .map_err(|bad| Error::input(format!("the game is illegal: {}", bad.reason)))?;
        Ok(Game {
            board,
            start,
            jumps,
            undone: Vec::new(),
        })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The position the game started from.
    pub fn start(&self) -> Pegs {
        self.start
    }

    /// The jumps played so far.
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The position now.
    pub fn position(&self) -> Pegs {
        self.jumps.iter().fold(self.start, |p, j| p ^ j.mask())
    }

    /// The legal jumps now, in board order.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, play::Game};
    /// let g = Game::new(Board::from_spec("tri:5").unwrap(), None);
    /// assert_eq!(g.legal_jumps().len(), 2); // a3-a1 and c3-a1
    /// ```
    pub fn legal_jumps(&self) -> Vec<Jump> {
        let pos = self.position();
        self.board
            .jumps()
            .iter()
            .copied()
            .filter(|j| j.is_legal(pos))
            .collect()
    }

    /// The legal jumps of the peg in `hole`.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, play::Game};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let g = Game::new(b.clone(), None);
    /// assert_eq!(g.jumps_from(b.hole("a3").unwrap()).len(), 1); // a3-a1
    /// assert!(g.jumps_from(b.hole("b3").unwrap()).is_empty());
    /// assert!(g.has_peg(b.hole("b3").unwrap()) && !g.has_peg(b.hole("a1").unwrap()));
    /// ```
    pub fn jumps_from(&self, hole: usize) -> Vec<Jump> {
        self.legal_jumps()
            .into_iter()
            .filter(|j| j.from == hole)
            .collect()
    }

    /// Whether `hole` holds a peg now.
    pub fn has_peg(&self, hole: usize) -> bool {
        self.position() & bit(hole) != 0
    }

    /// Whether no jump is left.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, play::Game};
    /// let b = Board::from_spec("tri:3").unwrap();
    /// let mut g = Game::new(b, None);
    /// for jump in ["a3-a1", "c3-a3", "a1-c3"] {
    ///     assert!(!g.is_over());
    ///     g.play_text(jump).unwrap();
    /// }
    /// assert!(g.is_over()); // tri:3 from a1: a dead end with a3 and c3 left
    /// ```
    pub fn is_over(&self) -> bool {
        notation::is_dead_end(&self.board, self.position())
    }

    /// Plays `jump` when it is legal; a new jump forgets the jumps undone.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, play::Game};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let mut g = Game::new(b.clone(), None);
    /// let j = g.legal_jumps()[0];
    /// g.play(j).unwrap();
    /// let err = g.play(j).unwrap_err().to_string();
    /// assert_eq!(err, "a3-a1: a3 holds no peg"); // a3's peg is on a1 now
    /// ```
    pub fn play(&mut self, jump: Jump) -> Result<()> {
        let pos = self.position();
        if let Err(bad) = notation::replay(&self.board, pos, &[jump]) {
            let reason = bad
                .reason
                .split(": ")
                .last()
                .unwrap_or(&bad.reason)
                .to_string();
            return Err(Error::input(format!(
                "{}-{}: {reason}",
                self.board.hole_name(jump.from),
                self.board.hole_name(jump.to)
            )));
        }
        self.jumps.push(jump);
        if self.undone.last() == Some(&jump) {
            self.undone.pop();
        } else {
            self.undone.clear();
        }
        Ok(())
    }

    /// Plays a move typed in jump notation (`c1-a1`, or `c1-a1-a3` for two jumps): all its
    /// jumps, or none when one of them is not a legal jump.
    pub fn play_text(&mut self, text: &str) -> Result<()> {
        let jumps = notation::parse_jumps(&self.board, text)?;
        if jumps.is_empty() {
            return Err(Error::input("type a jump such as c1-a1"));
        }
        let before = self.clone();
        for j in jumps {
            if let Err(e) = self.play(j) {
                *self = before;
                return Err(e);
            }
        }
        Ok(())
    }

    /// Takes back the last jump; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.jumps.pop() {
            Some(j) => {
                self.undone.push(j);
                true
            }
            None => false,
        }
    }

    /// Plays again the last jump undone; false when there is none.
    pub fn redo(&mut self) -> bool {
        match self.undone.pop() {
            Some(j) => {
                self.jumps.push(j);
                true
            }
            None => false,
        }
    }

    /// Back to the start; every jump can then be redone.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, play::Game};
    /// let mut g = Game::new(Board::from_spec("tri:5").unwrap(), None);
    /// g.play_text("a3-a1 c3-a3").unwrap();
    /// g.restart();
    /// assert!(g.jumps().is_empty());
    /// assert!(g.redo() && g.redo() && !g.redo());
    /// assert_eq!(g.jumps().len(), 2);
    /// ```
    pub fn restart(&mut self) {
        while self.undo() {}
    }

    /// The game in the notation `pegsol check` reads ([`notation::write_game`]).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, play::Game};
    /// let mut g = Game::new(Board::from_spec("tri:5").unwrap(), None);
    /// g.play_text("a3-a1 c3-a3").unwrap();
    /// assert_eq!(g.game_text(), "board: tri:5\nstart: a1\n1. a3-a1\n2. c3-a3\n");
    /// ```
    pub fn game_text(&self) -> String {
        notation::write_game(&self.board, self.start, &self.jumps, false)
    }

    /// The game as the animated SVG of `solve --svg` ([`animation::animation`]).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, play::Game};
    /// let mut g = Game::new(Board::from_spec("tri:5").unwrap(), None);
    /// g.play_text("a3-a1").unwrap();
    /// let svg = g.svg();
    /// assert!(svg.starts_with("<svg") && svg.contains("tri:5 from a1, played"));
    /// ```
    pub fn svg(&self) -> String {
        let title = format!(
            "{} from {}, played",
            self.board.name(),
            self.board.start_name(self.start)
        );
        animation::animation(&self.board, self.start, &self.jumps, &title)
    }
}
