//! The exhaustive search: one thread's depth-first search below a work unit
//! ([`Worker::dfs`]) and the threads taking the units in turn, with the pause for the beam
//! searches ([`run_search`]).

use super::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

impl<K: Bits> Worker<'_, K> {
    /// Searches below `pos` (canonical form `key`, pagoda weights `weights`, not known to be
    /// hopeless); `Some(true)` with the game in `path` when a goal is reached, `None` when
    /// another unit found one first.
    pub(super) fn dfs(&mut self, pos: K, key: K, weights: &[i64; PAGODAS]) -> Option<bool> {
        let s = self.s;
        if pos.count_ones() <= s.goal_pegs {
            return Some(s.met(pos));
        }
        if s.stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(SPENT_STEP) {
            use std::sync::atomic::Ordering::Relaxed;
            if s.spent.fetch_add(SPENT_STEP, Relaxed) + SPENT_STEP >= s.limit.load(Relaxed) {
                s.stop.store(true, Relaxed);
                return None;
            }
        }
        let img = s.moves.images(pos, s.moves.subgroup_order());
        let mut buf = [0u16; 512];
        let n = s.ordered_jumps(pos, &mut buf);
        let leaf = pos.count_ones() - 1 <= s.goal_pegs;
        for &r in &buf[..n] {
            let j = s.by_rank[r as usize] as usize;
            let child = pos ^ s.moves.mask(j);
            let w = s.child_weights(weights, j);
            if s.hopeless(&w) {
                self.cuts += 1;
                continue;
            }
            let ckey = if leaf {
                child
            } else {
                let c = s.moves.canonical_child(&img, j);
                if s.table.contains(c.to_u128()) {
                    self.hits += 1;
                    continue;
                }
                c
            };
            self.path.push(j as u16);
            match self.dfs(child, ckey, &w) {
                Some(true) => return Some(true),
                None => return None,
                Some(false) => {}
            }
            self.path.pop();
        }
        s.table.insert(key.to_u128());
        self.inserts += 1;
        Some(false)
    }
}

/// Runs the search from `start` on the current rayon pool: one unit (the start) on one
/// thread; on more, the positions a few jumps deep as units, taken in the search's order
/// by the threads, sharing the table of hopeless positions. `None` when `limit` positions
/// gave no outcome ([`search_within`]).
pub(super) fn run_search<K: Bits>(
    board: &Board,
    start: Pegs,
    goal: Goal,
    max_memory: u64,
    limit: u64,
) -> Option<Search> {
    let shared = Shared::<K>::new(board, start, goal, max_memory);
    let threads = rayon::current_num_threads().max(1);
    let clock = std::time::Instant::now();
    let start = K::from_u128(start);
    if shared.hopeless(&shared.weights(start)) {
        return Some(Search {
            outcome: Outcome::Impossible(
                "a pagoda function (weights on the holes that no jump increases) weighs the \
                 start less than the goal"
                    .into(),
            ),
            nodes: 0,
            failed: 0,
            beam: None,
        });
    }
    // About 16 units per thread, one unit (the start) on one thread.
    let mut depth = 0;
    let units = loop {
        match shared.units(start, depth) {
            Err(path) => return Some(found(board, path, 0, 0)),
            Ok(units) if threads == 1 || units.len() >= 16 * threads || depth >= 8 => {
                break units;
            }
            Ok(_) => depth += 1,
        }
    };
    let run = Run {
        board,
        shared: &shared,
        units,
        depth,
        threads,
        tallies: Mutex::new([0; 4]),
        clock,
    };
    let (best, beam) = run.phases(start, limit)?;
    Some(run.finish(best, beam))
}

/// A game found: the jumps of `path` (jump indices of `board`), with the search's tallies.
fn found(board: &Board, path: Vec<u16>, nodes: u64, failed: usize) -> Search {
    Search {
        outcome: Outcome::Found(path.iter().map(|&j| board.jumps()[j as usize]).collect()),
        nodes,
        failed,
        beam: None,
    }
}

/// A game found by a search: the index of the unit it went through and its jumps.
type Game = (usize, Vec<u16>);

/// The exhaustive search once its units are made ([`run_search`]).
struct Run<'a, K: Bits> {
    board: &'a Board,
    shared: &'a Shared<K>,
    units: Vec<Unit<K>>,
    /// How many jumps from the start the units are.
    depth: usize,
    threads: usize,
    /// The workers' positions, table hits, pagoda cuts and table inserts, over both phases.
    tallies: Mutex<[u64; 4]>,
    clock: std::time::Instant,
}

impl<K: Bits> Run<'_, K> {
    /// The exhaustive search to its pause ([`BEAM_AFTER`]), the beam searches if it paused,
    /// and the exhaustive search on to `limit` positions if they found no game: the game
    /// of the exhaustive search, or the width of the beam and its game. `None` when `limit`
    /// positions gave no outcome.
    #[allow(clippy::type_complexity)]
    fn phases(&self, start: K, limit: u64) -> Option<(Option<Game>, Option<(usize, Vec<u16>)>)> {
        let shared = self.shared;
        let mut best = self.phase(BEAM_AFTER.min(limit));
        let paused =
            best.is_none() && shared.spent.load(Ordering::Relaxed) >= BEAM_AFTER.min(limit);
        if paused && limit <= BEAM_AFTER {
            if trace() {
                crate::observe::trace(&format!(
                    "solve: gave up after {} positions, the limit ({:.2} s)",
                    self.tallies.lock().expect("no panic holds the lock")[0],
                    self.clock.elapsed().as_secs_f64()
                ));
            }
            return None;
        }
        let mut beam = None;
        if paused {
            // A long search: a beam search often finds a game at once where the exhaustive
            // search would take minutes; if it finds none, the exhaustive search goes on
            // (its table keeps what it proved).
            beam = self.beams(start);
            if beam.is_none() {
                best = self.phase(limit);
                if best.is_none() && shared.spent.load(Ordering::Relaxed) >= limit {
                    return None;
                }
            }
        }
        Some((best, beam))
    }

    /// Runs the units (again) until a game, a proof, or `limit` positions; returns the
    /// game.
    fn phase(&self, limit: u64) -> Option<Game> {
        self.shared.limit.store(limit, Ordering::Relaxed);
        self.shared.stop.store(false, Ordering::Relaxed);
        let next = AtomicUsize::new(0);
        let best: Mutex<Option<Game>> = Mutex::new(None);
        rayon::scope(|scope| {
            for _ in 0..self.threads {
                scope.spawn(|_| self.work(&next, &best));
            }
        });
        best.into_inner().expect("no panic held the lock")
    }

    /// One thread of a phase: takes the next unit (`next`) until none is left or the
    /// search stops; a game found goes to `best` unless a unit before it found one.
    fn work(&self, next: &AtomicUsize, best: &Mutex<Option<Game>>) {
        let shared = self.shared;
        let mut w = Worker {
            s: shared,
            path: Vec::new(),
            nodes: 0,
            hits: 0,
            cuts: 0,
            inserts: 0,
        };
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= self.units.len() || shared.stop.load(Ordering::Relaxed) {
                break;
            }
            let u = &self.units[i];
            if u.pos.count_ones() > shared.goal_pegs && shared.table.contains(u.key.to_u128()) {
                w.hits += 1;
                continue;
            }
            w.path.clone_from(&u.path);
            match w.dfs(u.pos, u.key, &u.weights) {
                Some(true) => {
                    shared.stop.store(true, Ordering::Relaxed);
                    let mut b = best.lock().expect("no panic holds the lock");
                    if b.as_ref().is_none_or(|(at, _)| i < *at) {
                        *b = Some((i, std::mem::take(&mut w.path)));
                    }
                    break;
                }
                None => break,
                Some(false) => {}
            }
        }
        let mut t = self.tallies.lock().expect("no panic holds the lock");
        for (x, y) in t.iter_mut().zip([w.nodes, w.hits, w.cuts, w.inserts]) {
            *x += y;
        }
    }

    /// The beam searches of [`BEAM_WIDTHS`] in turn, until one finds a game: its width and
    /// its game.
    fn beams(&self, start: K) -> Option<(usize, Vec<u16>)> {
        for width in BEAM_WIDTHS {
            let at = self.clock.elapsed().as_secs_f64();
            let found = self.shared.beam(start, width);
            if trace() {
                crate::observe::trace(&format!(
                    "solve: paused after {} positions; a beam of width {width} {} ({:.2} s)",
                    self.tallies.lock().expect("no panic holds the lock")[0],
                    if found.is_some() {
                        "found a game"
                    } else {
                        "found none"
                    },
                    self.clock.elapsed().as_secs_f64() - at
                ));
            }
            if let Some(path) = found {
                return Some((width, path));
            }
        }
        None
    }

    /// The search's result: the beam's game, the exhaustive search's, or the proof that
    /// there is none.
    fn finish(self, best: Option<Game>, beam: Option<(usize, Vec<u16>)>) -> Search {
        let shared = self.shared;
        let [nodes, hits, cuts, inserts] =
            self.tallies.into_inner().expect("no panic held the lock");
        if trace() {
            crate::observe::trace(&format!(
                "solve: {} units at depth {} on {} thread{}, {} pagoda function{}; \
                 {nodes} positions expanded, hopeless table: {inserts} inserts, {hits} hits; \
                 {cuts} children cut by a pagoda function ({:.2} s)",
                self.units.len(),
                self.depth,
                self.threads,
                if self.threads == 1 { "" } else { "s" },
                shared.pagodas.len(),
                if shared.pagodas.len() == 1 { "" } else { "s" },
                self.clock.elapsed().as_secs_f64()
            ));
        }
        let failed = inserts as usize;
        if let Some((width, path)) = beam {
            return Search {
                beam: Some(width),
                ..found(self.board, path, nodes, failed)
            };
        }
        match best {
            Some((_, path)) => found(self.board, path, nodes, failed),
            None => Search {
                outcome: Outcome::Impossible(format!(
                    "exhaustive search: every position reachable from the start was tried, \
                     up to the goal's {} symmetries, but those that a pagoda function rules \
                     out",
                    shared.moves.subgroup_order()
                )),
                nodes,
                failed,
                beam: None,
            },
        }
    }
}
