//! Counting the jump sequences between two positions ([`count_sequences`]).

use super::*;

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

/// [`count_sequences`] with a memory limit: it stops with [`Error::Memory`] before its memo
/// (a hash table of 33 bytes a slot, one slot in eight empty: about 38 bytes a position)
/// would take more than `max_memory` bytes, the old slots and the new counted while the
/// table doubles.
///
/// ```
/// use pegsol::{geometry::board::Board, games::solve::count_sequences_within};
/// let b = Board::from_spec("tri:5").unwrap();
/// let a1 = 1 << b.hole("a1").unwrap();
/// assert_eq!(count_sequences_within(&b, b.default_start(), a1, 1 << 30).unwrap(), 6_816);
/// assert!(count_sequences_within(&b, b.default_start(), a1, 1000).is_err()); // too little memory
/// ```
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
    if board.holes() <= 64 {
        Counter::<u64>::new(board, goal, max_memory).count(u64::from_u128(from))
    } else {
        Counter::<u128>::new(board, goal, max_memory).count(from)
    }
}

struct Counter<K: Bits> {
    jumps: Vec<(K, K)>,
    transforms: Transforms<K>,
    memo: HashMap<K, u128, Hasher>,
    to: K,
    to_pegs: u32,
    max_memory: u64,
    /// The board, as a refusal names it ([`Error::memory_limit`]).
    board_name: String,
}

impl<K: Bits> Counter<K> {
    fn new(board: &Board, goal: Goal, max_memory: u64) -> Self {
        let syms = goal_symmetries(board, goal);
        Counter {
            max_memory,
            board_name: board.name().to_string(),
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
        // A full table doubles on the next insert: its slots (7 used in 8) and twice as
        // many new ones are held at once. (It weighed 40 bytes a position before, and a
        // run took twice its limit: docs/experiments.md, "Figures that were in code
        // comments".)
        let cap = self.memo.capacity();
        if self.memo.len() == cap {
            let bytes = 3 * crate::memory::hash_table_bytes::<(K, u128)>(cap);
            if bytes > self.max_memory {
                return Err(Error::memory_limit(
                    &self.board_name,
                    "doubling the count's table needs",
                    &crate::memory::human(self.max_memory),
                    &format!("; the count holds {} positions", self.memo.len()),
                ));
            }
        }
        self.memo.insert(key, total);
        Ok(total)
    }
}
