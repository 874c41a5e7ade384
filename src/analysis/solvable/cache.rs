//! The hint cache: the solvable positions from a start and their `W`, built once and read
//! back from a file ([`HintCache`]); the file's format, written and checked, is in
//! `cache/file.rs`.

mod file;

use super::*;

/// A solvable set and the winning continuations of each of its positions, kept for
/// [`hint`]s: built once from a position (the start of a game), it answers at once for
/// every position reachable from there, in a file if wished ([`HintCache::write`],
/// [`HintCache::read`]). Positions are kept in canonical form under the symmetries that
/// fix the goal.
///
/// ```
/// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let cache = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
/// let h = cache.hint(&b, b.default_start()).unwrap();
/// assert_eq!(h.wins, 29_760); // published: tri:5 from a1
/// // After the best jump, the cache still knows the answer.
/// let next = b.default_start() ^ h.jumps[0].jump.mask();
/// assert_eq!(cache.hint(&b, next).unwrap().wins, h.jumps[0].wins);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HintCache {
    /// Which board and goal: [`HintCache::identity`].
    identity: String,
    /// The position the cache was built from.
    start: Pegs,
    goal: Pegs,
    /// Layer `j`: the solvable positions `j` jumps after the start, sorted, with their `W`.
    layers: Vec<Vec<(Pegs, u128)>>,
}

impl HintCache {
    /// The solvable positions from `position` (ending on `finish`) and their wins.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(c.hint(&b, b.default_start()).unwrap().wins, 29_760); // published
    /// ```
    pub fn build(
        board: &Board,
        position: Pegs,
        finish: Finish,
        opts: &SolveOptions,
    ) -> Result<HintCache> {
        Self::build_layers(board, position, finish, opts, true)
    }

    /// [`HintCache::build`]; without `whole`, when the goal is the position's complement,
    /// only the layers up to the middle (enough for the position itself and its children).
    pub(super) fn build_layers(
        board: &Board,
        position: Pegs,
        finish: Finish,
        opts: &SolveOptions,
        whole: bool,
    ) -> Result<HintCache> {
        let layers = with_pool(opts, || {
            if board.holes() <= 64 {
                Solver::<u64>::new(board, position, finish, false)
                    .within(opts.max_memory)
                    .cancellable(opts)
                    .table(opts, whole)
            } else {
                Solver::<u128>::new(board, position, finish, false)
                    .within(opts.max_memory)
                    .cancellable(opts)
                    .table(opts, whole)
            }
        })?;
        Ok(HintCache {
            identity: Self::identity(board, finish),
            start: position,
            goal: finish.mask(board),
            layers,
        })
    }

    /// The board (name, holes, lattice, jumps) and the goal a cache belongs to, as one line.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// assert!(HintCache::identity(&b, Finish::Any).starts_with("board tri:5, finish any"));
    /// ```
    pub fn identity(board: &Board, finish: Finish) -> String {
        format!(
            "board {}, finish {}, {} holes on the {} lattice at {:?}, {} jumps",
            board.name(),
            finish.name(board),
            board.holes(),
            board.lattice().name(),
            board.cells(),
            board.jumps().len()
        )
    }

    /// Solvable positions kept.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(c.len(), 390); // the solvable positions up to symmetry
    /// ```
    pub fn len(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }

    /// Every solvable position kept, layer by layer, in canonical form under the symmetries
    /// that fix the goal (the other members of their orbits are solvable too).
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert_eq!(c.positions().count(), c.len());
    /// // The first is the start (in canonical form): as many pegs.
    /// assert_eq!(c.positions().next().map(u128::count_ones), Some(b.default_start().count_ones()));
    /// ```
    pub fn positions(&self) -> impl Iterator<Item = Pegs> + '_ {
        self.layers.iter().flatten().map(|&(k, _)| k)
    }

    /// Whether no position is solvable from the cache's start.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert!(!c.is_empty());
    /// // Two pegs in two corners: no jump, so nothing is solvable.
    /// let corners = (1 << b.hole("a1").unwrap()) | (1 << b.hole("a5").unwrap());
    /// let dead = HintCache::build(&b, corners, Finish::Any, &SolveOptions::default()).unwrap();
    /// assert!(dead.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the cache keeps `pos`: it is reachable from the cache's start and a win
    /// (ending as asked) is still possible from it.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// assert!(c.is_solvable(&b, b.default_start()));
    /// assert!(!c.is_solvable(&b, b.full())); // not reachable from a1
    /// ```
    pub fn is_solvable(&self, board: &Board, pos: Pegs) -> bool {
        self.wins_of(board, pos).is_some()
    }

    /// `W` of `pos` (its winning continuations) when the cache keeps it, that is when `pos`
    /// is solvable and reachable from the cache's start, so the value is never 0; `None`
    /// for any other position (lost, or not reachable from the cache's start).
    pub(super) fn wins_of(&self, board: &Board, pos: Pegs) -> Option<u128> {
        let start_pegs = self.start.count_ones();
        let pegs = pos.count_ones();
        if pegs > start_pegs {
            return None;
        }
        let layer = self.layers.get((start_pegs - pegs) as usize)?;
        let key = board
            .symmetries()
            .iter()
            .filter(|s| board.transform(s, self.goal) == self.goal)
            .map(|s| board.transform(s, pos))
            .min()
            .unwrap_or(pos);
        layer
            .binary_search_by(|&(k, _)| k.cmp(&key))
            .ok()
            .map(|i| layer[i].1)
    }

    /// The hint for `position` when it is one of the cache's solvable positions (reachable
    /// from the cache's start and winnable): then every solvable child is kept too, and a
    /// child not kept loses. `None` for any other position (lost, or not reachable from the
    /// cache's start): [`hint`] answers those.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, analysis::solvable::{HintCache, Finish, SolveOptions}};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = HintCache::build(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    /// let h = c.hint(&b, b.default_start()).unwrap();
    /// // The two first jumps are mirror images: 14,880 wins each.
    /// assert_eq!(h.jumps.iter().map(|j| j.wins).collect::<Vec<_>>(), [14_880, 14_880]);
    /// let won = c.hint(&b, 1).unwrap(); // one peg, in a1: a finished win
    /// assert_eq!((won.wins, won.jumps.len()), (1, 0));
    /// ```
    pub fn hint(&self, board: &Board, position: Pegs) -> Option<Hint> {
        let wins = self.wins_of(board, position)?;
        let mut jumps: Vec<JumpWins> = board
            .jumps()
            .iter()
            .filter(|j| j.is_legal(position))
            .map(|&jump| JumpWins {
                jump,
                wins: self.wins_of(board, position ^ jump.mask()).unwrap_or(0),
            })
            .collect();
        jumps.sort_by(|a, b| b.wins.cmp(&a.wins).then(a.jump.cmp(&b.jump)));
        Some(Hint { wins, jumps })
    }
}
