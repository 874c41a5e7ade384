//! Finding one game that reaches a goal, or proving there is none; counting the jump
//! sequences between two positions.
//!
//! The search is a depth-first search with a table of *failed* positions: once every jump
//! from a position has been tried without reaching the goal, the position (in canonical
//! form) is recorded and never expanded again. The canonical form is taken under the
//! symmetries that map the goal onto itself (all of them for a single peg at the centre,
//! fewer for an off-centre finish or an arbitrary goal position), so a failure of `s` is a
//! failure of every image of `s` under them. The search ends either with a game or after
//! every reachable position was tried: "no solution" is then a proof, never a time-out.
//!
//! Before searching, the goal is checked against the *position classes* of the board
//! ([`Classes`]): a jump never changes a position's class, so a goal in another class than
//! the start is unreachable. This proves at once that the French board has no one-peg
//! finish from its centre, and it narrows "any one-peg finish" to the holes of the right
//! class.

use crate::error::{Error, Result, add};
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Jump, Pegs, bit};
use crate::geometry::symmetry::{Symmetry, Transforms};
use dashmap::DashSet;
use std::collections::HashMap;
use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

type Hasher = ahash::RandomState;

fn hasher() -> Hasher {
    Hasher::with_seeds(7, 11, 13, 17)
}

/// What a search must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// One peg left, standing in one of these holes (a mask).
    OnePeg(Pegs),
    /// Exactly this position.
    Position(Pegs),
}

impl Goal {
    /// One peg left anywhere on the board.
    pub fn one_peg_anywhere(board: &Board) -> Goal {
        Goal::OnePeg(board.full())
    }

    /// The pegs the goal leaves.
    pub fn pegs(self) -> u32 {
        match self {
            Goal::OnePeg(_) => 1,
            Goal::Position(p) => p.count_ones(),
        }
    }

    /// Whether `pos` is a goal position.
    pub fn is_met(self, pos: Pegs) -> bool {
        match self {
            Goal::OnePeg(holes) => pos.count_ones() == 1 && pos & holes != 0,
            Goal::Position(p) => pos == p,
        }
    }

    /// The set the symmetries must preserve (the finish holes, or the goal position).
    fn mask(self) -> Pegs {
        match self {
            Goal::OnePeg(m) | Goal::Position(m) => m,
        }
    }
}

/// The symmetries of the board that map the goal onto itself, identity first.
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
    pub fn of(&self, pos: Pegs) -> u32 {
        self.colours.iter().fold(0, |acc, m| {
            let n = m.map(|x| (x & pos).count_ones() & 1);
            acc << 2 | ((n[0] ^ n[1]) << 1) | (n[1] ^ n[2])
        })
    }

    /// How many invariant forms the lattice has.
    pub fn forms(&self) -> usize {
        self.colours.len()
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A game reaching the goal.
    Found(Vec<Jump>),
    /// There is none; the sentence says how that was established.
    Impossible(String),
}

/// A search's outcome and how much work it took.
#[derive(Clone, Debug)]
pub struct Search {
    /// The game, or the proof that none exists.
    pub outcome: Outcome,
    /// Positions expanded (one per visit of a position not known to fail).
    pub nodes: u64,
    /// Positions (up to the goal's symmetries) recorded as failed.
    pub failed: usize,
}

/// The goal narrowed by the position classes: `None` when the class rules it out.
pub fn narrow_goal(board: &Board, start: Pegs, goal: Goal) -> Option<Goal> {
    let classes = Classes::new(board);
    let c = classes.of(start);
    match goal {
        Goal::Position(p) => (classes.of(p) == c).then_some(goal),
        Goal::OnePeg(holes) => {
            let ok = (0..board.holes())
                .filter(|&h| holes & bit(h) != 0 && classes.of(bit(h)) == c)
                .fold(0, |m, h| m | bit(h));
            (ok != 0).then_some(Goal::OnePeg(ok))
        }
    }
}

/// Searches for a game from `start` reaching `goal`, exhaustively, on the current rayon
/// pool: the top levels of the search tree become work units that share one concurrent
/// table of failed positions, and positions a pagoda function rules out
/// ([`crate::geometry::pagoda`]) are not searched. Any number of threads finds a game or
/// proves there is none; which game may depend on the threads. `PEGSOL_TRACE=1` reports
/// the units, the table's hits and the pagoda cuts on stderr.
///
/// `max_memory` bounds the table of failed positions (about 16 bytes each); past it the
/// search stops with [`Error::Memory`] instead of answering.
///
/// ```
/// use pegsol::{geometry::board::Board, games::solve::{search, Goal, Outcome}};
/// let b = Board::from_spec("english").unwrap();
/// let d4 = b.hole("d4").unwrap();
/// let s = search(&b, b.default_start(), Goal::OnePeg(1 << d4), u64::MAX).unwrap();
/// assert!(matches!(s.outcome, Outcome::Found(ref j) if j.len() == 31));
/// let f = Board::from_spec("french").unwrap();
/// let s = search(&f, f.default_start(), Goal::one_peg_anywhere(&f), u64::MAX).unwrap();
/// assert!(matches!(s.outcome, Outcome::Impossible(_)));
/// ```
pub fn search(board: &Board, start: Pegs, goal: Goal, max_memory: u64) -> Result<Search> {
    let classes = Classes::new(board);
    let Some(goal) = narrow_goal(board, start, goal) else {
        let what = match goal {
            Goal::OnePeg(h) if h == board.full() => {
                "no position with a single peg is in that class".to_string()
            }
            Goal::OnePeg(_) => {
                "a single peg in the finishing hole is not in that class".to_string()
            }
            Goal::Position(p) => format!("the goal position is in class {}", classes.of(p)),
        };
        return Ok(Search {
            outcome: Outcome::Impossible(format!(
                "the start is in position class {}, {what}; a jump never changes a \
                 position's class ({} invariant form{} mod 3 on this lattice), so no game can \
                 get there",
                classes.of(start),
                classes.forms(),
                if classes.forms() == 1 { "" } else { "s" }
            )),
            nodes: 0,
            failed: 0,
        });
    };
    if start.count_ones() < goal.pegs() || (start & !board.full()) != 0 {
        return Ok(Search {
            outcome: Outcome::Impossible(
                "the goal has more pegs than the start, and jumps only remove pegs".into(),
            ),
            nodes: 0,
            failed: 0,
        });
    }
    if board.holes() <= 64 {
        Dfs::<u64>::new(board, goal, max_memory).run(start)
    } else {
        Dfs::<u128>::new(board, goal, max_memory).run(start)
    }
}

/// Whether `PEGSOL_TRACE` is set: the search then reports its work units and its
/// transposition table on stderr.
fn trace() -> bool {
    std::env::var_os("PEGSOL_TRACE").is_some_and(|v| !v.is_empty() && v != "0")
}

/// A pagoda function as masks of holes by weight, and the least weight the goal needs.
struct Pagoda<K> {
    masks: Vec<(i64, K)>,
    need: i64,
}

impl<K: Bits> Pagoda<K> {
    /// The resource counts towards the goal's holes when it has at most two
    /// ([`crate::geometry::pagoda::resource_counts`]).
    fn for_goal(board: &Board, goal: Goal) -> Vec<Pagoda<K>> {
        let holes = goal.mask();
        if holes.count_ones() > 2 {
            return Vec::new();
        }
        crate::geometry::pagoda::resource_counts(board, holes)
            .into_iter()
            .map(|w| {
                let need = match goal {
                    Goal::Position(p) => crate::geometry::pagoda::weight(&w, p),
                    Goal::OnePeg(m) => (0..board.holes())
                        .filter(|&h| m & bit(h) != 0)
                        .map(|h| w[h])
                        .min()
                        .unwrap_or(0),
                };
                let mut masks: Vec<(i64, K)> = Vec::new();
                for (h, &x) in w.iter().enumerate() {
                    match masks.iter_mut().find(|(v, _)| *v == x) {
                        Some((_, m)) => *m = *m | K::bit(h),
                        None => masks.push((x, K::bit(h))),
                    }
                }
                Pagoda { masks, need }
            })
            .collect()
    }

    #[inline]
    fn allows(&self, pos: K) -> bool {
        self.masks
            .iter()
            .map(|&(w, m)| w * i64::from((pos & m).count_ones()))
            .sum::<i64>()
            >= self.need
    }
}

/// One work unit: a position after the first jumps, and those jumps.
struct Unit<K> {
    pos: K,
    path: Vec<usize>,
}

/// The depth-first search, shared by the work units: jumps, symmetries, the concurrent
/// table of failed positions, and the flag that stops every unit once one has won.
struct Dfs<'a, K: Bits> {
    board: &'a Board,
    /// The jumps in the order they are tried, as masks, and their indices in the board's list.
    jumps: Vec<(K, K)>,
    order: Vec<usize>,
    transforms: Transforms<K>,
    failed: DashSet<K, Hasher>,
    pagodas: Vec<Pagoda<K>>,
    goal: Goal,
    goal_pegs: u32,
    max_entries: usize,
    stop: AtomicBool,
    full: AtomicBool,
    /// Entries of `failed`, counted by 4096.
    entries: AtomicUsize,
    hits: AtomicU64,
    pruned: AtomicU64,
    nodes: AtomicU64,
}

/// The work units, or a win found while making them.
type Top<K> = Result<Vec<Unit<K>>, Vec<usize>>;

/// How one unit's search ended.
enum Found {
    /// A winning game from the unit's position (the jumps after the unit's own).
    Win(Vec<usize>),
    /// Every continuation fails.
    Fail,
    /// Stopped: another unit won, or the table is full.
    Stopped,
}

impl<'a, K: Bits> Dfs<'a, K> {
    fn new(board: &'a Board, goal: Goal, max_memory: u64) -> Self {
        let syms = goal_symmetries(board, goal);
        let order = jump_order(board, goal);
        let masks = jump_masks(board);
        Dfs {
            board,
            jumps: order.iter().map(|&j| masks[j]).collect(),
            order,
            transforms: Transforms::new(&syms, board.holes()),
            failed: DashSet::with_hasher(hasher()),
            pagodas: Pagoda::for_goal(board, goal),
            goal,
            goal_pegs: goal.pegs(),
            max_entries: (max_memory / 16).min(usize::MAX as u64) as usize,
            stop: AtomicBool::new(false),
            full: AtomicBool::new(false),
            entries: AtomicUsize::new(0),
            hits: AtomicU64::new(0),
            pruned: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
        }
    }

    /// Whether every pagoda function allows `pos` to reach the goal.
    fn viable(&self, pos: K, tally: &mut Tally) -> bool {
        let ok = self.pagodas.iter().all(|p| p.allows(pos));
        tally.pruned += u64::from(!ok);
        ok
    }

    /// The top levels of the search tree, breadth first, until there are enough positions
    /// to keep every thread busy: the work units (one per position up to the goal's
    /// symmetries, with the first jumps that reach it in the search order), and the
    /// positions expanded on the way. A win found on the way is returned at once.
    fn units(&self, start: K) -> (Top<K>, Vec<K>) {
        let want = 16 * rayon::current_num_threads().max(1);
        let mut level = vec![Unit {
            pos: start,
            path: Vec::new(),
        }];
        let mut expanded = Vec::new();
        let mut tally = Tally::default();
        for _ in 0..8 {
            if level.len() >= want {
                break;
            }
            let mut seen: HashSet<K, Hasher> = HashSet::with_hasher(hasher());
            let mut next = Vec::new();
            for u in &level {
                if u.pos.count_ones() <= self.goal_pegs {
                    if self.goal.is_met(u.pos.to_u128()) {
                        return (Err(u.path.clone()), expanded);
                    }
                    continue;
                }
                if !self.viable(u.pos, &mut tally) {
                    continue;
                }
                expanded.push(self.transforms.canonical(u.pos));
                for (j, &(all, fo)) in self.jumps.iter().enumerate() {
                    if u.pos & all == fo {
                        let child = u.pos ^ all;
                        if seen.insert(self.transforms.canonical(child)) {
                            let mut path = u.path.clone();
                            path.push(j);
                            next.push(Unit { pos: child, path });
                        }
                    }
                }
            }
            if next.is_empty() {
                self.add(&tally);
                return (Ok(next), expanded);
            }
            level = next;
        }
        self.add(&tally);
        (Ok(level), expanded)
    }

    fn run(self, start: Pegs) -> Result<Search> {
        let (units, expanded) = self.units(K::from_u128(start));
        let found = match units {
            Err(path) => Some(path),
            Ok(units) => {
                if trace() {
                    eprintln!(
                        "solve: {} work units after {} jumps, {} threads",
                        units.len(),
                        units.first().map_or(0, |u| u.path.len()),
                        rayon::current_num_threads()
                    );
                }
                // Each worker takes the next unit in the search order, so that one thread
                // searches the tree in the order of the sequential search.
                let next = AtomicUsize::new(0);
                let wins: Mutex<Vec<(usize, Vec<usize>)>> = Mutex::new(Vec::new());
                rayon::broadcast(|_| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= units.len() || self.stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let mut path = units[i].path.clone();
                        let mut tally = Tally::default();
                        let found = self.dfs(units[i].pos, &mut path, &mut tally);
                        self.add(&tally);
                        if let Found::Win(_) = found {
                            wins.lock().expect("no panic").push((i, path));
                        }
                    }
                });
                let mut wins = wins.into_inner().expect("no panic");
                wins.sort();
                wins.into_iter().next().map(|(_, path)| path)
            }
        };
        if self.full.load(Ordering::Relaxed) && found.is_none() {
            return Err(Error::Memory(format!(
                "the search table reached {} positions, the memory limit; raise --max-memory",
                self.failed.len()
            )));
        }
        let nodes = self.nodes.load(Ordering::Relaxed) + expanded.len() as u64;
        if found.is_none() {
            // Every position of the top levels failed too.
            for k in expanded {
                self.failed.insert(k);
            }
        }
        let failed = self.failed.len();
        if trace() {
            eprintln!(
                "solve: {} positions expanded, {} in the table of failed positions, {} table \
                 hits, {} positions cut by {} pagoda function{}",
                nodes,
                failed,
                self.hits.load(Ordering::Relaxed),
                self.pruned.load(Ordering::Relaxed),
                self.pagodas.len(),
                if self.pagodas.len() == 1 { "" } else { "s" }
            );
        }
        let outcome = match found {
            Some(path) => Outcome::Found(
                path.iter()
                    .map(|&j| self.board.jumps()[self.order[j]])
                    .collect(),
            ),
            None => Outcome::Impossible(format!(
                "exhaustive search: every position reachable from the start was tried \
                 ({} positions up to the goal's {} symmetries{})",
                failed,
                self.transforms.len(),
                if self.pagodas.is_empty() {
                    String::new()
                } else {
                    ", less those a pagoda function rules out".to_string()
                }
            )),
        };
        Ok(Search {
            outcome,
            nodes,
            failed,
        })
    }

    /// Adds a unit's tally to the shared one.
    fn add(&self, tally: &Tally) {
        self.hits.fetch_add(tally.hits, Ordering::Relaxed);
        self.pruned.fetch_add(tally.pruned, Ordering::Relaxed);
        self.nodes.fetch_add(tally.nodes, Ordering::Relaxed);
    }

    /// Searches from `pos`, pushing the winning jumps onto `path`.
    fn dfs(&self, pos: K, path: &mut Vec<usize>, tally: &mut Tally) -> Found {
        if pos.count_ones() <= self.goal_pegs {
            return if self.goal.is_met(pos.to_u128()) {
                Found::Win(Vec::new())
            } else {
                Found::Fail
            };
        }
        if self.stop.load(Ordering::Relaxed) {
            return Found::Stopped;
        }
        let key = self.transforms.canonical(pos);
        if self.failed.contains(&key) {
            tally.hits += 1;
            return Found::Fail;
        }
        if !self.viable(pos, tally) {
            return Found::Fail;
        }
        tally.nodes += 1;
        for j in 0..self.jumps.len() {
            let (all, fo) = self.jumps[j];
            if pos & all == fo {
                path.push(j);
                match self.dfs(pos ^ all, path, tally) {
                    Found::Win(w) => {
                        self.stop.store(true, Ordering::Relaxed);
                        return Found::Win(w);
                    }
                    Found::Stopped => return Found::Stopped,
                    Found::Fail => {}
                }
                path.pop();
            }
        }
        // The table's size is checked every 4096 inserts of a unit (`DashSet::len` locks
        // every shard): the limit may be passed by that much per thread.
        tally.inserted += 1;
        if tally.inserted.is_multiple_of(4096)
            && self.entries.fetch_add(4096, Ordering::Relaxed) + 4096 >= self.max_entries
        {
            self.full.store(true, Ordering::Relaxed);
            self.stop.store(true, Ordering::Relaxed);
            return Found::Stopped;
        }
        self.failed.insert(key);
        Found::Fail
    }
}

/// One unit's counts, added to the shared ones when it ends (no shared counter per node).
#[derive(Default)]
struct Tally {
    inserted: u64,
    hits: u64,
    pruned: u64,
    nodes: u64,
}

/// The order in which the search tries jumps: first those that take the most weight off
/// the board, where a peg weighs its squared distance to the goal (the finishing hole, or the
/// centre of the goal's holes). Pegs far from where the game must end are the hard ones to
/// remove; clearing them early finds solutions sooner. Only the order changes, not what is
/// searched.
fn jump_order(board: &Board, goal: Goal) -> Vec<usize> {
    let place = |h: usize| {
        let (r, c) = board.cells()[h];
        match board.lattice() {
            crate::geometry::lattice::Lattice::Triangular => {
                (c as f64 - r as f64 / 2.0, r as f64 * 3f64.sqrt() / 2.0)
            }
            _ => (c as f64, r as f64),
        }
    };
    let m = goal.mask();
    let holes: Vec<usize> = (0..board.holes()).filter(|&h| m & bit(h) != 0).collect();
    let n = holes.len().max(1) as f64;
    let (cx, cy) = holes
        .iter()
        .map(|&h| place(h))
        .fold((0.0, 0.0), |(x, y), (a, b)| (x + a / n, y + b / n));
    let w = |h: usize| {
        let (x, y) = place(h);
        (x - cx).powi(2) + (y - cy).powi(2)
    };
    let jumps = board.jumps();
    let mut order: Vec<usize> = (0..jumps.len()).collect();
    order.sort_by(|&a, &b| {
        let d = |j: &Jump| w(j.to) - w(j.from) - w(j.over);
        d(&jumps[a]).total_cmp(&d(&jumps[b])).then(a.cmp(&b))
    });
    order
}

/// Per jump of the board: (mask of its three holes, mask of from and over).
pub(crate) fn jump_masks<K: Bits>(board: &Board) -> Vec<(K, K)> {
    board
        .jumps()
        .iter()
        .map(|j| {
            let fo = K::bit(j.from) | K::bit(j.over);
            (fo | K::bit(j.to), fo)
        })
        .collect()
}

/// The exact number of jump sequences from `from` to the position `to` (0 when there is
/// none), by a memoized search: `W(s)` = the sum of `W` over the positions one jump away,
/// keyed by canonical form under the symmetries fixing `to`. Fails on overflow of `u128`.
///
/// ```
/// use pegsol::{geometry::board::Board, games::solve::count_sequences};
/// let b = Board::from_spec("tri:5").unwrap();
/// // Sequences from the corner start to a single peg in the corner a1: 6,816 wins.
/// let n = count_sequences(&b, b.default_start(), 1 << b.hole("a1").unwrap()).unwrap();
/// assert_eq!(n, 6_816);
/// ```
pub fn count_sequences(board: &Board, from: Pegs, to: Pegs) -> Result<u128> {
    count_sequences_within(board, from, to, crate::memory::default_budget())
}

/// [`count_sequences`] with a memory limit: past `max_memory` bytes of memo (about 40 bytes
/// a position) it stops with [`Error::Memory`].
pub fn count_sequences_within(
    board: &Board,
    from: Pegs,
    to: Pegs,
    max_memory: u64,
) -> Result<u128> {
    let goal = Goal::Position(to);
    if narrow_goal(board, from, goal).is_none() || from.count_ones() < to.count_ones() {
        return Ok(0);
    }
    let max_entries = (max_memory / 40).min(usize::MAX as u64) as usize;
    if board.holes() <= 64 {
        Counter::<u64>::new(board, goal, max_entries).count(u64::from_u128(from))
    } else {
        Counter::<u128>::new(board, goal, max_entries).count(from)
    }
}

struct Counter<K: Bits> {
    jumps: Vec<(K, K)>,
    transforms: Transforms<K>,
    memo: HashMap<K, u128, Hasher>,
    to: K,
    to_pegs: u32,
    max_entries: usize,
}

impl<K: Bits> Counter<K> {
    fn new(board: &Board, goal: Goal, max_entries: usize) -> Self {
        let syms = goal_symmetries(board, goal);
        Counter {
            max_entries,
            jumps: jump_masks(board),
            transforms: Transforms::new(&syms, board.holes()),
            memo: HashMap::with_hasher(hasher()),
            to: K::from_u128(goal.mask()),
            to_pegs: goal.pegs(),
        }
    }

    fn count(&mut self, pos: K) -> Result<u128> {
        if pos.count_ones() <= self.to_pegs {
            return Ok(u128::from(pos == self.to));
        }
        let key = self.transforms.canonical(pos);
        if let Some(&n) = self.memo.get(&key) {
            return Ok(n);
        }
        let mut total = 0u128;
        for j in 0..self.jumps.len() {
            let (all, fo) = self.jumps[j];
            if pos & all == fo {
                total = add(total, self.count(pos ^ all)?)?;
            }
        }
        if self.memo.len() >= self.max_entries {
            return Err(Error::Memory(format!(
                "the count holds {} positions, the memory limit; raise --max-memory",
                self.memo.len()
            )));
        }
        self.memo.insert(key, total);
        Ok(total)
    }
}
