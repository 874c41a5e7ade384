//! The last move of a win: a test that a position is not one move from a single peg.
//!
//! The holes a peg can reach by jumping lie on its *lattice*: a jump moves it two steps
//! along a line, so the holes whose coordinates have the peg's parities. A jump's middle hole is a neighbour of its ends, so it lies on
//! another lattice. A move that leaves one peg is made by that peg, and each of its jumps
//! removes a peg standing in the middle of a jump whose ends are on the mover's lattice.
//! So before the last move of a win, for the mover's lattice `L`: every peg but the mover
//! stands in a middle hole of `L`'s jumps, and the mover stands on `L` (on a lattice board,
//! `L` holds exactly one peg).
//!
//! A position of two pegs or more where no lattice passes that test needs at least two more
//! moves to one peg; every other, at least one; and one where no move can leave a position
//! that passes it ([`LastMove::movers`]: a move lands only on its lattice's empty holes, so
//! it removes only pegs in the middle of a jump between two of them), at least three. As a lower bound on the moves left, this
//! drops by at most one per move (a position one move from a single peg passes the test),
//! so taking the larger of it and another consistent bound (the Merson regions,
//! [`crate::geometry::regions`]) is consistent too.

use crate::geometry::bits::Bits;
use crate::geometry::board::Board;

/// Per lattice of a board: its holes and the middle holes of the jumps along it.
#[derive(Clone, Debug)]
pub struct LastMove<K: Bits> {
    lattices: Vec<(K, K)>,
    /// Per lattice, its jumps (either way) as (middle hole, both ends); and per hole of the
    /// board, the jumps from it as (middle hole, other end).
    jumps: Vec<Vec<(K, K)>>,
    from: Vec<Vec<(K, K)>>,
}

impl<K: Bits> LastMove<K> {
    /// The lattices of `board`'s jumps.
    ///
    /// ```
    /// use pegsol::geometry::{Board, last_move::LastMove};
    /// // A triangle's holes fall on four lattices (the parities of the two coordinates).
    /// assert_eq!(LastMove::<u64>::new(&Board::from_spec("tri:5")?).lattices(), 4);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    pub fn new(board: &Board) -> Self {
        // A jump's ends are two steps apart along a line, so a lattice is a parity class
        // of the cells' coordinates.
        let parity = |h: usize| {
            let (r, c) = board.cells()[h];
            usize::from(r.rem_euclid(2) == 1) * 2 + usize::from(c.rem_euclid(2) == 1)
        };
        let mut lattices = [(K::zero(), K::zero()); 4];
        let mut jumps = vec![Vec::new(); 4];
        let mut from = vec![Vec::new(); board.holes()];
        for h in 0..board.holes() {
            lattices[parity(h)].0 = lattices[parity(h)].0 | K::bit(h);
        }
        for j in board.jumps() {
            lattices[parity(j.from)].1 = lattices[parity(j.from)].1 | K::bit(j.over);
            if j.from < j.to {
                jumps[parity(j.from)].push((K::bit(j.over), K::bit(j.from) | K::bit(j.to)));
            }
            from[j.from].push((K::bit(j.over), K::bit(j.to)));
        }
        let kept: Vec<usize> = (0..4).filter(|&l| lattices[l].1 != K::zero()).collect();
        LastMove {
            lattices: kept.iter().map(|&l| lattices[l]).collect(),
            jumps: kept
                .iter()
                .map(|&l| std::mem::take(&mut jumps[l]))
                .collect(),
            from,
        }
    }

    /// How many lattices have a jump.
    pub fn lattices(&self) -> usize {
        self.lattices.len()
    }

    /// Whether `pos` passes the test of the module: a single peg, or a lattice holding a
    /// peg such that every peg off its middle holes stands on it, and at most one does.
    /// False means no move leaves one peg.
    ///
    /// ```
    /// use pegsol::geometry::{Board, last_move::LastMove};
    /// let b = Board::from_spec("tri:5")?;
    /// let last = LastMove::<u64>::new(&b);
    /// // a1 can sweep a1-c3-c5-a3-a1 over b2, c4, b4 and a2.
    /// let p = b.parse_position("x/xx/..x/.xx./.....")? as u64;
    /// assert!(!last.may_finish(p)); // c3 is left over: a peg of a1's lattice
    /// let p = b.parse_position("x/xx/.../.xx./.....")? as u64;
    /// assert!(last.may_finish(p));
    /// // Two corners: no jump passes over a corner, so neither is ever removed.
    /// let p = b.parse_position("x/../.../..../....x")? as u64;
    /// assert!(!last.may_finish(p));
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn may_finish(&self, pos: K) -> bool {
        if pos.count_ones() <= 1 {
            return true;
        }
        self.lattices.iter().any(|&(holes, over)| {
            let off = pos & !over;
            off.count_ones() <= 1 && off & !holes == K::zero() && pos & holes != K::zero()
        })
    }

    /// The holes a move from `pos` may start from if the position it leaves is to pass
    /// [`LastMove::may_finish`] (a superset: every such move starts in one of them).
    ///
    /// A move by a peg of lattice `A` from `s` lands only on holes of `A` empty in `pos`
    /// (or on `s`): the other pegs on `A` stay where they are, since it removes only pegs in
    /// `A`'s middle holes. So it can remove only pegs in the middle of a jump whose ends are
    /// both such holes. For the position it leaves to pass the test by lattice `C`, every
    /// peg off `C`'s middle holes must be removed but one, on `C`, and the mover must land
    /// in a middle hole of `C` (or, `A` being `C`, be that one).
    ///
    /// ```
    /// use pegsol::geometry::{Board, bit, last_move::LastMove};
    /// let b = Board::from_spec("tri:5")?;
    /// let last = LastMove::<u64>::new(&b);
    /// // Three corners: no jump passes over a corner, so after any move two stay.
    /// assert_eq!(last.movers(b.parse_position("x/../.../..../x...x")? as u64), 0);
    /// // a5-c5 over b5 leaves one peg.
    /// let p = b.parse_position("./../.../..../xx...")? as u64;
    /// assert_ne!(last.movers(p) & bit(b.hole("a5")?) as u64, 0);
    /// // a4-a2, then e5-c5-a3-a1: of the five pegs only a4 can start such a move.
    /// let p = b.parse_position("./../x../xx../...xx")? as u64;
    /// assert_eq!(last.movers(p), bit(b.hole("a4")?) as u64);
    /// // a1 can sweep a1-c3-c5-a3-a1 over b2, c4, b4 and a2, but two pegs of its lattice
    /// // (a1 and a5) stay, and no other peg's move removes enough.
    /// assert_eq!(last.movers(b.parse_position("x/xx/.../.xx./x..x.")? as u64), 0);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn movers(&self, pos: K) -> K {
        let mut starts = K::zero();
        for (a, &(a_holes, a_over)) in self.lattices.iter().enumerate() {
            let mut movable = self.counted(pos, a_holes, a_over);
            if movable == K::zero() {
                continue;
            }
            let empty = a_holes & !pos;
            // The pegs a move on A could remove whatever its start.
            let mut open = K::zero();
            for &(over, ends) in &self.jumps[a] {
                if ends & !empty == K::zero() {
                    open = open | over;
                }
            }
            open = open & pos;
            while movable != K::zero() {
                let h = movable.trailing_zeros() as usize;
                let s = K::bit(h);
                movable = movable ^ s;
                // And those it could remove starting from s.
                let mut removable = open;
                for &(over, to) in &self.from[h] {
                    if to & empty != K::zero() {
                        removable = removable | (over & pos);
                    }
                }
                let rest = pos ^ s;
                let landing = empty | s;
                if rest & !removable == K::zero() {
                    starts = starts | s; // it may remove every other peg
                    continue;
                }
                let fits = self
                    .lattices
                    .iter()
                    .enumerate()
                    .any(|(c, &(c_holes, c_over))| {
                        let left = rest & !c_over & !removable;
                        if c == a {
                            left == K::zero()
                        } else {
                            left.count_ones() <= 1
                                && left & !c_holes == K::zero()
                                && landing & c_over != K::zero()
                        }
                    });
                if fits {
                    starts = starts | s;
                }
            }
        }
        starts
    }

    /// The pegs of lattice `A` (`a_holes`, `a_over`) that may start a move leaving a
    /// position that passes the test, by counting alone: the pegs in neither `A`'s nor the
    /// next mover's (lattice `C`) middle holes stay but for the mover, and at most one of
    /// them may stay, on `C` (a cheap first sieve for [`LastMove::movers`]).
    #[inline]
    fn counted(&self, pos: K, a_holes: K, a_over: K) -> K {
        let movable = pos & a_holes;
        let mut starts = K::zero();
        if movable == K::zero() {
            return starts;
        }
        for &(c_holes, c_over) in &self.lattices {
            let stay = pos & !a_over & !c_over;
            match stay.count_ones() {
                0 => return movable,
                1 if stay & c_holes != K::zero() => return movable,
                1 => starts = starts | (stay & movable),
                2 => {
                    // One stays on C, the other moves.
                    let on_c = stay & c_holes;
                    if on_c != K::zero() && on_c != stay {
                        starts = starts | (stay & !c_holes & movable);
                    } else if on_c == stay {
                        starts = starts | (stay & movable);
                    }
                }
                _ => {}
            }
        }
        starts
    }

    /// A lower bound on the moves from `pos` to a single peg: 0 for at most one peg, 1 where
    /// [`LastMove::may_finish`], 2 where some peg of `pos` may start a move to such a
    /// position ([`LastMove::movers`]), 3 elsewhere. It drops by at most one per move: a
    /// position one move from one where the test passes has a peg among its movers.
    ///
    /// ```
    /// use pegsol::geometry::{Board, last_move::LastMove};
    /// let b = Board::from_spec("tri:5")?;
    /// let last = LastMove::<u64>::new(&b);
    /// assert_eq!(last.moves_left(b.parse_position("x/../.../..../.....")? as u64), 0);
    /// assert_eq!(last.moves_left(b.parse_position("x/x./.../..../.....")? as u64), 1);
    /// // a4-a2, then e5-c5-a3-a1: two moves.
    /// assert_eq!(last.moves_left(b.parse_position("./../x../xx../...xx")? as u64), 2);
    /// assert_eq!(last.moves_left(b.default_start() as u64), 3);
    /// # Ok::<(), pegsol::error::Error>(())
    /// ```
    #[inline]
    pub fn moves_left(&self, pos: K) -> usize {
        if pos.count_ones() <= 1 {
            0
        } else if self.may_finish(pos) {
            1
        } else if self.movers(pos) & pos != K::zero() {
            2
        } else {
            3
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::board::{Pegs, bit};

    /// Whether some move (jumps by one peg) from `pos` leaves one peg.
    fn one_move_finishes(b: &Board, pos: Pegs) -> bool {
        fn chain(b: &Board, pos: Pegs, h: usize) -> bool {
            if pos.count_ones() == 1 {
                return true;
            }
            b.jumps().iter().any(|j| {
                j.from == h
                    && pos & bit(j.over) != 0
                    && pos & bit(j.to) == 0
                    && chain(b, pos ^ bit(j.from) ^ bit(j.over) ^ bit(j.to), j.to)
            })
        }
        (0..b.holes()).any(|h| pos & bit(h) != 0 && chain(b, pos, h))
    }

    /// Positions near the end of random games from `b`'s default start (the last `jumps`
    /// jumps or fewer before the games end), and a few jumps undone from single pegs:
    /// `(forward, backward)`, `n` of each.
    fn samples(b: &Board, jumps: usize, n: usize) -> (Vec<Pegs>, Vec<Pegs>) {
        let holes = b.holes();
        let forward = crate::geometry::pagoda::random_games(
            b,
            &[b.default_start()],
            false,
            holes.saturating_sub(jumps)..=holes,
            n,
        );
        let singles: Vec<Pegs> = (0..holes).map(bit).collect();
        let backward = crate::geometry::pagoda::random_games(b, &singles, true, 1..=8, n);
        (forward, backward)
    }

    /// Every move whose position passes the test starts in `movers`, and `moves_left` drops
    /// by at most one, over every move of positions sampled from random games.
    #[test]
    fn moves_that_leave_a_position_one_move_from_a_peg_start_in_movers() {
        for spec in ["tri:6", "tri:7", "english", "line:9"] {
            let b = Board::from_spec(spec).unwrap();
            let last = LastMove::<u128>::new(&b);
            let n = b.holes();
            let (forward, backward) = samples(&b, 14, 1_000);
            let (mut moves, mut kept) = (0, 0);
            for &pos in forward.iter().chain(&backward) {
                let starts = last.movers(pos);
                // Every move: chains of jumps by one peg, from each of its holes.
                fn chain(b: &Board, pos: Pegs, h: usize, f: &mut impl FnMut(Pegs)) {
                    for j in b.jumps() {
                        if j.from == h && pos & bit(j.over) != 0 && pos & bit(j.to) == 0 {
                            let next = pos ^ bit(j.from) ^ bit(j.over) ^ bit(j.to);
                            f(next);
                            chain(b, next, j.to, f);
                        }
                    }
                }
                for h in (0..n).filter(|&h| pos & bit(h) != 0) {
                    chain(&b, pos, h, &mut |next| {
                        // The bound drops by at most one per move.
                        let (before, after) = (last.moves_left(pos), last.moves_left(next));
                        assert!(before <= after + 1, "{spec} {pos:#x} to {next:#x}");
                        if last.may_finish(next) {
                            kept += 1;
                            assert_ne!(starts & bit(h), 0, "{spec} {pos:#x} from {h}");
                        }
                        moves += 1;
                    });
                }
            }
            assert!(kept > 0 && kept < moves, "{spec}: {kept} of {moves}");
        }
    }

    /// Every position one move from a single peg passes the test, on triangles, the English
    /// board and a line; and the test refutes most positions of random games near their end
    /// (it is not `true` everywhere).
    #[test]
    fn positions_one_move_from_a_single_peg_pass_the_test() {
        for spec in ["tri:5", "tri:6", "tri:7", "english", "line:9"] {
            let b = Board::from_spec(spec).unwrap();
            let last = LastMove::<u128>::new(&b);
            let (forward, backward) = samples(&b, 12, 2_000);
            let (mut finishing, mut refuted) = (0, 0);
            for &pos in forward.iter().chain(&backward) {
                let fin = one_move_finishes(&b, pos);
                let passes = last.may_finish(pos);
                assert!(passes || !fin, "{spec} {pos:#x}");
                finishing += usize::from(fin);
            }
            for &pos in &forward {
                refuted += usize::from(!last.may_finish(pos));
            }
            let games = forward;
            assert!(
                finishing > 0,
                "{spec}: no position one move from a peg sampled"
            );
            assert!(
                refuted > games.len() / 4,
                "{spec}: {refuted} of {} refuted",
                games.len()
            );
        }
    }
}
