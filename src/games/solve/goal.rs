//! What a search must reach ([`Goal`]), the symmetries that keep it, and the position
//! classes that no jump changes ([`Classes`]).

use super::*;

/// What a search must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// One peg left, standing in one of these holes (a mask).
    OnePeg(Pegs),
    /// Exactly this position.
    Position(Pegs),
    /// A game's end (no jump left) with exactly this many pegs (two or more: one is
    /// [`Goal::OnePeg`]), all within these holes (a mask). [`Goal::is_met`] counts the
    /// pegs; the search also requires that no jump is left.
    PegsLeft(u32, Pegs),
}

impl Goal {
    /// One peg left anywhere on the board.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, games::solve::Goal};
    /// let e = Board::from_spec("english").unwrap();
    /// let g = Goal::one_peg_anywhere(&e);
    /// assert_eq!(g.pegs(), 1);
    /// assert!(g.is_met(pegsol::geometry::board::bit(e.hole("c1").unwrap())));
    /// ```
    pub fn one_peg_anywhere(board: &Board) -> Goal {
        Goal::OnePeg(board.full())
    }

    /// A game ending with `left` pegs anywhere on the board: [`Goal::one_peg_anywhere`]
    /// for one peg, otherwise [`Goal::PegsLeft`].
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, games::solve::{search, Goal, Outcome}};
    /// let f = Board::from_spec("french").unwrap();
    /// let g = Goal::pegs_anywhere(&f, 2);
    /// assert_eq!(g.pegs(), 2);
    /// assert!(g.is_met(0b101) && !g.is_met(0b111));
    /// // published (CSPLib 037): from its centre, french's best is two pegs
    /// let s = search(&f, f.default_start(), g, 1 << 26).unwrap();
    /// assert!(matches!(s.outcome, Outcome::Found(ref j) if j.len() == 34));
    /// ```
    pub fn pegs_anywhere(board: &Board, left: u32) -> Goal {
        match left {
            1 => Goal::one_peg_anywhere(board),
            _ => Goal::PegsLeft(left, board.full()),
        }
    }

    /// The pegs the goal leaves.
    ///
    /// ```
    /// use pegsol::games::solve::Goal;
    /// assert_eq!(Goal::OnePeg(0b111).pegs(), 1);
    /// assert_eq!(Goal::Position(0b1011).pegs(), 3);
    /// assert_eq!(Goal::PegsLeft(2, 0b1111).pegs(), 2);
    /// ```
    pub fn pegs(self) -> u32 {
        match self {
            Goal::OnePeg(_) => 1,
            Goal::Position(p) => p.count_ones(),
            Goal::PegsLeft(left, _) => left,
        }
    }

    /// Whether `pos` is a goal position.
    ///
    /// ```
    /// use pegsol::{geometry::board::{Board, bit}, games::solve::Goal};
    /// let e = Board::from_spec("english").unwrap();
    /// let d4 = bit(e.hole("d4").unwrap());
    /// assert!(Goal::OnePeg(d4).is_met(d4));
    /// assert!(!Goal::OnePeg(d4).is_met(bit(e.hole("c1").unwrap())));
    /// assert!(Goal::Position(e.default_start()).is_met(e.default_start()));
    /// ```
    pub fn is_met(self, pos: Pegs) -> bool {
        match self {
            Goal::OnePeg(holes) => pos.count_ones() == 1 && pos & holes != 0,
            Goal::Position(p) => pos == p,
            Goal::PegsLeft(left, holes) => pos.count_ones() == left && pos & !holes == 0,
        }
    }

    /// The set the symmetries must preserve (the finish holes, or the goal position).
    pub(super) fn mask(self) -> Pegs {
        match self {
            Goal::OnePeg(m) | Goal::Position(m) | Goal::PegsLeft(_, m) => m,
        }
    }
}

/// The symmetries of the board that map the goal onto itself, identity first.
///
/// ```
/// use pegsol::{geometry::board::{Board, bit}, games::solve::{Goal, goal_symmetries}};
/// let e = Board::from_spec("english").unwrap();
/// let on = |h| Goal::OnePeg(bit(e.hole(h).unwrap()));
/// assert_eq!(goal_symmetries(&e, on("d4")).len(), 8); // the centre: the whole group
/// assert_eq!(goal_symmetries(&e, on("d1")).len(), 2); // a mirror line's end: one reflection
/// assert_eq!(goal_symmetries(&e, on("c1")).len(), 1);
/// ```
pub fn goal_symmetries(board: &Board, goal: Goal) -> Vec<&Symmetry> {
    let m = goal.mask();
    board
        .symmetries()
        .iter()
        .filter(|s| board.transform(s, m) == m)
        .collect()
}

/// Position classes: invariants of a position that no jump changes.
///
/// For a linear form `f(r, c) = a r + b c` that is non-zero mod 3 on every jump direction,
/// the three holes of any jump get the three different colours `f mod 3`, so a jump changes
/// the number of pegs of each colour by one: the parities of `n0 + n1` and `n1 + n2` never
/// change. The square lattice has two such forms (`r + c` and `r - c`: 16 classes), the
/// triangular lattice one (4 classes), the square lattice with diagonals none.
///
/// ```
/// use pegsol::{geometry::board::Board, games::solve::Classes};
/// let f = Board::from_spec("french").unwrap();
/// let classes = Classes::new(&f);
/// let start = classes.of(f.default_start());
/// // No single peg on the French board is in the class of the centre start.
/// assert!((0..f.holes()).all(|h| classes.of(1 << h) != start));
/// let e = Board::from_spec("english").unwrap();
/// let ce = Classes::new(&e);
/// assert_eq!(ce.of(e.default_start()), ce.of(1 << e.hole("d4").unwrap()));
/// ```
#[derive(Clone, Debug)]
pub struct Classes {
    /// Per form: the holes of colour 0, 1 and 2.
    colours: Vec<[Pegs; 3]>,
}

impl Classes {
    /// The class invariants of a board's lattice.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, games::solve::Classes};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = Classes::new(&b);
    /// // tri:5 from a1 can finish in a1, so a1 alone is in the start's class.
    /// assert_eq!(c.of(b.default_start()), c.of(1));
    /// ```
    pub fn new(board: &Board) -> Classes {
        let dirs = board.lattice().directions();
        let colours = [(1, 1), (1, 2), (0, 1), (1, 0)]
            .into_iter()
            .filter(|&(a, b)| {
                dirs.iter()
                    .all(|&(dr, dc)| (a * dr + b * dc).rem_euclid(3) != 0)
            })
            .map(|(a, b)| {
                let mut masks = [0 as Pegs; 3];
                for (h, &(r, c)) in board.cells().iter().enumerate() {
                    masks[(a * r + b * c).rem_euclid(3) as usize] |= bit(h);
                }
                masks
            })
            .collect();
        Classes { colours }
    }

    /// The class of a position, as a small number (two bits per form).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, games::solve::Classes};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = Classes::new(&b);
    /// let start = b.default_start();
    /// // No jump changes the class.
    /// assert!(b.jumps().iter().filter(|j| j.is_legal(start)).all(|j| c.of(start ^ j.mask()) == c.of(start)));
    /// // One form, two bits, four classes: a single peg is in one of three (by its
    /// // colour), the empty board in the fourth.
    /// let mut singles: Vec<u32> = (0..15).map(|h| c.of(1 << h)).collect();
    /// singles.sort();
    /// singles.dedup();
    /// assert_eq!((singles, c.of(0)), (vec![1, 2, 3], 0));
    /// ```
    pub fn of(&self, pos: Pegs) -> u32 {
        self.colours.iter().fold(0, |acc, m| {
            let n = m.map(|x| (x & pos).count_ones() & 1);
            acc << 2 | ((n[0] ^ n[1]) << 1) | (n[1] ^ n[2])
        })
    }

    /// How many invariant forms the lattice has.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, games::solve::Classes};
    /// assert_eq!(Classes::new(&Board::from_spec("english").unwrap()).forms(), 2);
    /// assert_eq!(Classes::new(&Board::from_spec("tri:5").unwrap()).forms(), 1);
    /// let diag = Board::parse_file("d", "lattice: square-diagonal\nooo\no.o\nooo\n").unwrap();
    /// assert_eq!(Classes::new(&diag).forms(), 0);
    /// ```
    pub fn forms(&self) -> usize {
        self.colours.len()
    }
}
