//! The legal jumps and un-jumps of a position, all of them or those of a set, found a
//! line class at a time ([`super::Lines`]).

use super::MoveTable;
use crate::geometry::bits::Bits;

impl<K: Bits> MoveTable<K> {
    /// Calls `f(j)` for every legal jump `j` of `pos` (from and over full, to empty), in no
    /// particular order; returns whether there was one.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let e = Board::from_spec("english").unwrap();
    /// let t = MoveTable::<u64>::new(&e, |_| true);
    /// let mut into = Vec::new();
    /// assert!(t.each_jump(e.default_start() as u64, |j| into.push(e.hole_name(e.jumps()[j].to))));
    /// assert_eq!(into, ["d4"; 4]); // the four first jumps, all into the centre
    /// let d4 = 1u64 << e.hole("d4").unwrap();
    /// assert!(!t.each_jump(d4, |_| unreachable!())); // one peg: none
    /// ```
    #[inline]
    pub fn each_jump(&self, pos: K, f: impl FnMut(usize)) -> bool {
        self.lines.each(pos, |from, over, to| from & over & !to, f)
    }

    /// [`MoveTable::each_jump`] for the jumps of a set only, given as
    /// [`MoveTable::jump_masks`] of it.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("english").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// let start = b.default_start() as u64;
    /// let mut all = Vec::new();
    /// t.each_jump(start, |j| all.push(j));
    /// // Only the first of the four jumps into d4.
    /// let masks = t.jump_masks(1 << all[0]);
    /// let mut some = Vec::new();
    /// t.each_jump_within(start, &masks, |j| some.push(j));
    /// assert_eq!((all.len(), some), (4, vec![all[0]]));
    /// ```
    #[inline]
    pub fn each_jump_within(&self, pos: K, masks: &[u128], f: impl FnMut(usize)) -> bool {
        self.lines
            .each_within(pos, |from, over, to| from & over & !to, Some(masks), f)
    }

    /// [`MoveTable::each_move`] for the jumps of a set only, as
    /// [`MoveTable::each_jump_within`]; with `backward`, the un-jumps.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// // One peg in a1: two un-jumps, and only one of them in a set that holds one.
    /// let mut all = Vec::new();
    /// t.each_move(1, true, |j| all.push(j));
    /// let mut some = Vec::new();
    /// t.each_move_within(1, true, &t.jump_masks(1 << all[1]), |j| some.push(j));
    /// assert_eq!((all.len(), some), (2, vec![all[1]]));
    /// ```
    #[inline]
    pub fn each_move_within(
        &self,
        pos: K,
        backward: bool,
        masks: &[u128],
        f: impl FnMut(usize),
    ) -> bool {
        if backward {
            self.lines
                .each_within(pos, |from, over, to| !from & !over & to, Some(masks), f)
        } else {
            self.each_jump_within(pos, masks, f)
        }
    }

    /// A set of jumps (bit `j` for jump `j`; jumps numbered 128 or more cannot be in it,
    /// so on boards of more than 128 jumps they are left out) in the form
    /// [`MoveTable::each_jump_within`] takes: per line class, the line-order bits of the runs
    /// taken forwards and backwards.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// // Three classes of parallel lines, each taken forwards and backwards.
    /// assert_eq!(t.jump_masks(0), vec![0; 6]);
    /// let every = t.jump_masks((1 << b.jumps().len()) - 1);
    /// assert_eq!(every.iter().map(|m| m.count_ones()).sum::<u32>(), 36);
    /// // tri:9 has 168 jumps: a full set holds the first 128.
    /// let t = MoveTable::<u64>::new(&Board::from_spec("tri:9").unwrap(), |_| true);
    /// let first = t.jump_masks(u128::MAX);
    /// assert_eq!(first.iter().map(|m| m.count_ones()).sum::<u32>(), 128);
    /// ```
    pub fn jump_masks(&self, set: u128) -> Vec<u128> {
        self.lines.masks(set)
    }

    /// [`MoveTable::each_unjump`] with `backward`, else [`MoveTable::each_jump`].
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// let (mut ahead, mut behind) = (0, 0);
    /// // The start of tri:5 without a1 has two jumps; one peg in a1, two un-jumps.
    /// t.each_move(b.default_start() as u64, false, |_| ahead += 1);
    /// t.each_move(1, true, |_| behind += 1);
    /// assert_eq!((ahead, behind), (2, 2));
    /// ```
    #[inline]
    pub fn each_move(&self, pos: K, backward: bool, f: impl FnMut(usize)) -> bool {
        if backward {
            self.each_unjump(pos, f)
        } else {
            self.each_jump(pos, f)
        }
    }

    /// Calls `f(j)` for every jump `j` that could have led to `pos` (its legal un-jumps:
    /// `to` full, `from` and `over` empty), in no particular order; returns whether there
    /// was one.
    ///
    /// ```
    /// use pegsol::{geometry::board::Board, geometry::moves::MoveTable};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let t = MoveTable::<u64>::new(&b, |_| true);
    /// let mut n = 0;
    /// // One peg in a1: the last jump came from a3 over a2, or from c3 over b2.
    /// assert!(t.each_unjump(1, |_| n += 1));
    /// assert_eq!(n, 2);
    /// ```
    #[inline]
    pub fn each_unjump(&self, pos: K, f: impl FnMut(usize)) -> bool {
        self.lines.each(pos, |from, over, to| !from & !over & to, f)
    }
}
