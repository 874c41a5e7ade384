//! Which positions can still end with one peg, decided one position at a time by a
//! depth-first search that remembers every position it settled.
//!
//! The quickest loss asks only about the first few layers from a start (at most 6 jumps on
//! every board of results/), but whether such a position can win depends on every layer
//! after it. `solvable`'s machinery ([`crate::analysis::solvable::HintCache`]) finds every
//! winnable position of every layer at once, which on tri:8 and the French board is
//! billions of positions, past 12 GiB. Here each question is a depth-first search instead:
//! a win, once found, answers it at once (and every position on the way is remembered as
//! winnable); a loss is proved by trying every continuation, and every position so tried
//! is remembered as lost, so no position is searched twice across all the questions.
//! Positions are remembered in canonical form under the symmetries that fix the finish
//! (any hole: every symmetry of the board), which carry winnable positions to winnable
//! ones. A position outside the position class of every one-peg finish is lost at once
//! ([`Board::same_class`]): no jump changes a position's class, so without that test a
//! start such as tri:7's a1 would be proved lost by trying every game from it. Nor does a
//! search go down to one peg: every winnable position with few pegs is grown backwards from
//! the finishes first ([`Backward`], a third of the memory limit), and a position with that
//! few pegs is looked up there. Children are searched the likeliest to win first
//! ([`Winnable::promise`]): nearly all of a search's work is proving positions lost, and
//! a win found early spares the rest of a position's children.

use super::backward::Backward;
use crate::analysis::solvable::Finish;
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Pegs};
use crate::geometry::moves::MoveTable;
use crate::geometry::pagoda::JumpWeights;
use crate::memory::Watch;
use dashmap::DashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

type Set<K> = DashSet<K, ahash::RandomState>;

/// How often (in positions searched) the memory taken and the cancel flag are looked at.
const WATCH_EVERY: u64 = 1 << 16;

/// Answers "can this position still end with one peg on the finish?" for any position of a
/// board, remembering what it settled ([`Winnable::can_win`]).
pub(super) struct Winnable<K: Bits> {
    board: Board,
    /// Per position class with a finishing hole: its finishing holes, the cuts that rule a
    /// position of the class out ([`Cuts`]), and its winnable positions with few pegs,
    /// grown when a position of the class is first asked about.
    classes: Vec<Class<K>>,
    moves: MoveTable<K>,
    /// The holes a last peg may stand in.
    finish: K,
    won: Set<K>,
    lost: Set<K>,
    /// Positions searched so far, by every thread: the memory is looked at every
    /// [`WATCH_EVERY`].
    settled: AtomicU64,
    watch: Watch,
    /// The bytes the backward layers of all classes may take.
    budget: u64,
    /// Set to stop every search with [`Error::Interrupted`] (looked at with the memory, and
    /// before each question).
    pub(super) cancel: Option<Arc<AtomicBool>>,
    /// Per hole: the holes beside it on a line.
    near: Vec<K>,
    subject: String,
}

/// A position class with a finishing hole, as [`Winnable`] searches it.
struct Class<K: Bits> {
    holes: Vec<usize>,
    cuts: Cuts,
    few: OnceLock<Backward<K>>,
}

impl<K: Bits> Winnable<K> {
    /// An oracle for `board` and `finish`, holding its memory to `max_memory` bytes from now.
    pub(super) fn new(board: &Board, finish: Finish, max_memory: u64) -> Self {
        let goal = finish.mask(board);
        let moves = MoveTable::<K>::new(board, |s| board.transform(s, goal) == goal);
        let classes = board
            .position_classes()
            .into_iter()
            .filter_map(|c| {
                let holes: Vec<usize> = c.into_iter().filter(|&h| goal >> h & 1 == 1).collect();
                (!holes.is_empty()).then(|| Class {
                    cuts: Cuts::new(board, &holes),
                    holes,
                    few: OnceLock::new(),
                })
            })
            .collect();
        Winnable {
            board: board.clone(),
            classes,
            moves,
            finish: K::from_u128(goal),
            won: Set::default(),
            lost: Set::default(),
            settled: AtomicU64::new(0),
            watch: Watch::new(max_memory),
            budget: max_memory / 3,
            cancel: None,
            near: {
                let mut near = vec![K::zero(); board.holes()];
                for j in board.jumps() {
                    near[j.from] = near[j.from] | K::bit(j.over);
                    near[j.over] = near[j.over] | K::bit(j.from) | K::bit(j.to);
                    near[j.to] = near[j.to] | K::bit(j.over);
                }
                near
            },
            subject: format!("{}, finish {}", board.name(), finish.name(board)),
        }
    }

    /// Whether a game from `pos` can end with one peg on the finish. Safe to call from
    /// several threads at once: they share what each settles.
    pub(super) fn can_win(&self, pos: Pegs) -> Result<bool> {
        // Jumps keep a position's class: the cuts of the start's class hold all the way.
        self.interrupted()?;
        let Some(class) = self
            .classes
            .iter()
            .find(|c| self.board.same_class(pos, 1 << c.holes[0]))
        else {
            return Ok(false);
        };
        let few = class.few.get_or_init(|| {
            let few = Backward::grow(&self.moves, &class.holes, self.budget, || {
                self.interrupted().is_err()
            });
            crate::observe::trace(&format!(
                "quickest loss: every winnable position with up to {} pegs grown backwards \
                 from {}: {} positions",
                few.most_pegs(),
                self.board.hole_name(class.holes[0]),
                few.len()
            ));
            few
        });
        // A cancel during the growth left it short: stop before searching.
        self.interrupted()?;
        let cuts = &class.cuts;
        self.search(K::from_u128(pos), cuts, few, &cuts.weigh(pos))
    }

    /// Positions searched so far.
    pub(super) fn searched(&self) -> u64 {
        self.settled.load(Ordering::Relaxed)
    }

    /// Positions remembered as winnable and as lost (canonical forms).
    pub(super) fn remembered(&self) -> (usize, usize) {
        (self.won.len(), self.lost.len())
    }

    /// Searches `pos` as it lies (its children stay in its class), `weights` its weights
    /// under the class's pagoda functions; remembers it in canonical form.
    fn search(&self, pos: K, cuts: &Cuts, few: &Backward<K>, weights: &Weights) -> Result<bool> {
        let pegs = pos.count_ones();
        if pegs == 1 {
            return Ok(pos & self.finish != K::zero());
        }
        if cuts.rule_out(weights) {
            return Ok(false);
        }
        let key = self.moves.canonical(pos);
        if pegs <= few.most_pegs() {
            return Ok(few.holds(key, pegs));
        }
        if self.won.contains(&key) {
            return Ok(true);
        }
        if self.lost.contains(&key) {
            return Ok(false);
        }
        let settled = self.settled.fetch_add(1, Ordering::Relaxed) + 1;
        if settled.is_multiple_of(WATCH_EVERY) {
            self.check_limits()?;
            if settled.is_multiple_of(WATCH_EVERY << 6) {
                let (won, lost) = self.remembered();
                crate::observe::trace(&format!(
                    "quickest loss: {settled} positions searched, {won} winnable and {lost} \
                     lost remembered, {} resident",
                    crate::memory::resident().map_or("?".into(), crate::memory::human)
                ));
            }
        }
        // The children, the likeliest to win first: fewest pegs left alone, most jumps
        // open (docs/experiments.md, "Which child first"); in turn until one wins.
        let mut kids: Vec<(i32, u32)> = Vec::with_capacity(16);
        self.moves.each_jump(pos, |j| {
            kids.push((self.promise(pos ^ self.moves.mask(j)), j as u32));
        });
        kids.sort_unstable();
        let mut answer = Ok(false);
        for (_, j) in kids {
            let j = j as usize;
            let child = pos ^ self.moves.mask(j);
            answer = self.search(child, cuts, few, &cuts.after(weights, j));
            if !matches!(answer, Ok(false)) {
                break;
            }
        }
        if answer? {
            self.won.insert(key);
            return Ok(true);
        }
        self.lost.insert(key);
        Ok(false)
    }

    /// How unlikely a position is to win, as a key to search children by (smallest first):
    /// three for each peg with no peg beside it on a line (a peg left alone must be fetched
    /// by another, or is stranded), less one for each jump open. Measured against the
    /// jumps in board order: 42% to 48% fewer positions searched on tri:7.
    fn promise(&self, pos: K) -> i32 {
        let mut alone = 0;
        let mut rest = pos;
        while rest != K::zero() {
            let h = rest.trailing_zeros() as usize;
            rest = rest & (rest - K::one());
            if pos & self.near[h] == K::zero() {
                alone += 1;
            }
        }
        let mut open = 0;
        self.moves.each_jump(pos, |_| open += 1);
        3 * alone - open
    }

    /// [`Error::Interrupted`] once [`Winnable::cancel`] is set.
    fn interrupted(&self) -> Result<()> {
        crate::error::interrupted(self.cancel.as_deref())
    }

    fn check_limits(&self) -> Result<()> {
        self.interrupted()?;
        match self.watch.over() {
            None => Ok(()),
            Some(taken) => {
                let (limit, taken) = crate::memory::human_apart(self.watch.limit(), taken);
                let (won, lost) = self.remembered();
                Err(Error::memory_limit(
                    &self.subject,
                    "the quickest loss needs",
                    &limit,
                    &format!(
                        "; it had taken {taken} when stopped, remembering {won} winnable \
                         and {lost} lost positions"
                    ),
                ))
            }
        }
    }
}

/// A position's weights under the pagoda functions of a [`Cuts`], in its order.
type Weights = [i64; Cuts::MAX];

/// Pagoda cuts for the finishing holes of one position class: a position is ruled out
/// when, for every hole, one of that hole's pagoda functions weighs it below the hole
/// ([`crate::geometry::pagoda::goal_pagodas`]): it can end on none of them. A search
/// carries a position's weights down the jumps ([`JumpWeights`]).
pub(super) struct Cuts {
    /// The distinct pagoda functions of all the holes (at most [`Cuts::MAX`]).
    pagodas: JumpWeights<{ Cuts::MAX }>,
    /// Per finishing hole: (the index of each of its pagoda functions, the hole's weight).
    per_hole: Vec<Vec<(usize, i64)>>,
}

impl Cuts {
    /// At most this many pagoda functions in all.
    const MAX: usize = 64;

    fn new(board: &Board, holes: &[usize]) -> Cuts {
        use crate::geometry::pagoda::goal_pagodas;
        let each = (Self::MAX / holes.len().max(1)).clamp(1, 8);
        let mut pagodas: Vec<Vec<i64>> = Vec::new();
        let mut per_hole = Vec::new();
        for &h in holes {
            let mut mine = Vec::new();
            for w in goal_pagodas(board, 1 << h, each) {
                let goal = w[h];
                let p = match pagodas.iter().position(|q| *q == w) {
                    Some(p) => p,
                    None if pagodas.len() < Self::MAX => {
                        pagodas.push(w);
                        pagodas.len() - 1
                    }
                    None => continue,
                };
                mine.push((p, goal));
            }
            per_hole.push(mine);
        }
        Cuts {
            pagodas: JumpWeights::new(board, pagodas),
            per_hole,
        }
    }

    /// The weights of `pos`.
    fn weigh(&self, pos: Pegs) -> Weights {
        self.pagodas.weigh(pos)
    }

    /// The weights after jump `j` of a position weighing `weights`.
    fn after(&self, weights: &Weights, j: usize) -> Weights {
        self.pagodas.after(weights, j)
    }

    fn rule_out(&self, weights: &Weights) -> bool {
        self.per_hole
            .iter()
            .all(|cuts| cuts.iter().any(|&(p, goal)| weights[p] < goal))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::random::reference::Winnable as Plain;

    #[test]
    fn the_search_agrees_with_a_plain_recursion_on_every_position_of_small_boards() {
        for spec in ["tri:5", "tri:6"] {
            let b = Board::from_spec(spec).unwrap();
            let finishes = [Finish::Any, Finish::Hole(0), Finish::Hole(b.holes() / 2)];
            // The backward layers: none past the finishes, a few, all of them.
            let budgets = [0, 1 << 12, u64::MAX];
            for (finish, budget) in finishes.into_iter().flat_map(|f| budgets.map(|m| (f, m))) {
                let mut oracle = Winnable::<u64>::new(&b, finish, u64::MAX);
                oracle.budget = budget;
                let mut plain = Plain::new(&b, finish.mask(&b));
                // Games from every single vacancy, jumping the first legal jump of a
                // cycle through the board's jumps: positions of every size.
                let mut checked = 0;
                let full = b.full();
                for start in 0..b.holes() {
                    let mut pos = full & !(1u128 << start);
                    for j in b.jumps().iter().cycle().take(b.jumps().len() * 2) {
                        if j.is_legal(pos) {
                            pos ^= j.mask();
                        }
                        let (fast, slow) = (oracle.can_win(pos).unwrap(), plain.can_win(pos));
                        assert_eq!(fast, slow, "{spec} {pos:b}");
                        checked += 1;
                    }
                }
                assert!(checked > 100);
            }
        }
    }

    #[test]
    fn a_start_outside_every_finish_class_is_lost_at_once() {
        // tri:7 from a1: no one-peg finish in its class. Within 1 KiB: nothing searched.
        let b = Board::from_spec("tri:7").unwrap();
        let oracle = Winnable::<u64>::new(&b, Finish::Any, 1 << 10);
        assert!(!oracle.can_win(b.default_start()).unwrap());
        assert_eq!(oracle.remembered(), (0, 0));
    }

    #[test]
    fn a_search_past_its_memory_limit_stops_with_one_line() {
        // The positions of tri:7's first layers from a2 take more than 2^16 positions
        // searched to settle (within eight layers), and their sets more than 1 KiB.
        let b = Board::from_spec("tri:7").unwrap();
        let mut layer = vec![b.start_with_empty(&[b.hole("a2").unwrap()])];
        let oracle = Winnable::<u64>::new(&b, Finish::Any, 1 << 10);
        let mut err = None;
        for _ in 0..8 {
            let jumps = |p: Pegs| {
                b.jumps()
                    .iter()
                    .filter(move |j| j.is_legal(p))
                    .map(move |j| p ^ j.mask())
            };
            layer = layer.iter().flat_map(|&p| jumps(p)).collect();
            layer.sort_unstable();
            layer.dedup();
            err = layer.iter().find_map(|&p| oracle.can_win(p).err());
            if err.is_some() {
                break;
            }
        }
        let err = err.expect("stopped by the limit");
        let err = err.to_string();
        let head = "tri:7, finish any: the quickest loss needs more than 1.0 KiB";
        assert!(err.starts_with(head), "{err}");
        assert!(!err.contains('\n'), "{err}");
    }

    #[test]
    fn a_quickest_loss_past_its_memory_limit_is_a_bound() {
        // tri:7 from a2 is lost after 5 jumps at the soonest (results/summary.csv); within
        // 1 KiB the search stops early and says only how far it got, never past 5.
        let b = Board::from_spec("tri:7").unwrap();
        let a2 = b.start_with_empty(&[b.hole("a2").unwrap()]);
        let opts = crate::analysis::solvable::SolveOptions {
            max_memory: 1 << 10,
            ..Default::default()
        };
        let q = super::super::quickest_loss(&b, a2, Finish::Any, &opts).unwrap();
        assert_eq!((q.jumps, q.sequences), (None, 0));
        assert!(q.at_least.is_some_and(|d| d <= 5), "{q:?}");
    }
}
