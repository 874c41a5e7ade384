//! Classes of holes: under the symmetry group, and by position class (cosets of the span
//! of the jump masks over GF(2)).

use super::{Board, Pegs, bit};

impl Board {
    /// The classes of holes under the symmetry group, each sorted, ordered by smallest hole.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:5").unwrap();
    /// let sizes: Vec<usize> = b.hole_classes().iter().map(|c| c.len()).collect();
    /// assert_eq!(sizes, vec![3, 6, 3, 3]);
    /// ```
    pub fn hole_classes(&self) -> Vec<Vec<usize>> {
        let mut seen = vec![false; self.holes()];
        let mut classes = Vec::new();
        for h in 0..self.holes() {
            if seen[h] {
                continue;
            }
            let mut class: Vec<usize> = self.symmetries.iter().map(|s| s.perm()[h]).collect();
            class.sort_unstable();
            class.dedup();
            for &x in &class {
                seen[x] = true;
            }
            classes.push(class);
        }
        classes
    }

    /// The holes grouped by *position class*: two single-vacancy starts are in one class
    /// when the difference of their positions is a sum of jump masks (over GF(2); every
    /// jump flips the three holes of its mask). Starts of different classes never reach a
    /// common position; starts of one class reach largely the same ones, which is why
    /// `pegsol table` sweeps a class at once ([`crate::count::sweep::count_many`]). Classes are
    /// sorted, ordered by smallest hole.
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let b = Board::from_spec("english").unwrap();
    /// let classes = b.position_classes();
    /// assert_eq!(classes.len(), 9); // holes by (column mod 3, row mod 3)
    /// let names: Vec<String> = classes[0].iter().map(|&h| b.hole_name(h)).collect();
    /// assert_eq!(names, ["c1", "c4", "f4", "c7"]);
    /// let tri5 = Board::from_spec("tri:5").unwrap();
    /// assert_eq!(tri5.position_classes().len(), 3);
    /// ```
    pub fn position_classes(&self) -> Vec<Vec<usize>> {
        let basis = self.jump_span();
        let mut classes: Vec<(Pegs, Vec<usize>)> = Vec::new();
        for h in 0..self.holes() {
            let coset = reduce_by(&basis, bit(h));
            match classes.iter_mut().find(|(c, _)| *c == coset) {
                Some((_, holes)) => holes.push(h),
                None => classes.push((coset, vec![h])),
            }
        }
        classes.into_iter().map(|(_, holes)| holes).collect()
    }

    /// Whether positions `a` and `b` lie in one position class: their difference is a sum
    /// of jump masks over GF(2) (see [`Board::position_classes`]). Every position reachable
    /// from `a` is in the class of `a`.
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let b = Board::from_spec("english").unwrap();
    /// let (c1, c4, c2) = (b.hole("c1").unwrap(), b.hole("c4").unwrap(), b.hole("c2").unwrap());
    /// assert!(b.same_class(b.start_with_empty(&[c1]), b.start_with_empty(&[c4])));
    /// assert!(!b.same_class(b.start_with_empty(&[c1]), b.start_with_empty(&[c2])));
    /// ```
    pub fn same_class(&self, a: Pegs, b: Pegs) -> bool {
        reduce_by(&self.jump_span(), a ^ b) == 0
    }

    /// A basis of the span of the jump masks over GF(2), each element with a distinct
    /// leading bit, largest first.
    fn jump_span(&self) -> Vec<Pegs> {
        let mut basis: Vec<Pegs> = Vec::new();
        for j in &self.jumps {
            let m = reduce_by(&basis, j.mask());
            if m != 0 {
                basis.push(m);
                basis.sort_unstable_by(|a, b| b.cmp(a));
            }
        }
        basis
    }
}

/// `x` reduced by a basis of [`Board::jump_span`]: one representative per coset.
fn reduce_by(basis: &[Pegs], mut x: Pegs) -> Pegs {
    for &b in basis {
        if x ^ b < x {
            x ^= b;
        }
    }
    x
}
