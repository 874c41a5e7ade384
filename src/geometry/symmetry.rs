//! The symmetry group of a board, computed from its geometry, and fast application of it to
//! bitboards.
//!
//! A [`LatticeMap`] is an integer linear map of the plane that permutes the lattice's jump
//! directions: 8 of them for the square lattices, 12 for the triangular one
//! ([`LatticeMap::point_group`]). A board's symmetries are the lattice maps that, followed
//! by a translation, send the set of holes onto itself; each is kept as a permutation of
//! the holes ([`Symmetry`]), duplicates removed (a strip has 8 lattice maps but only 2
//! distinct permutations).
//!
//! [`Transforms`] applies a list of symmetries to a bitboard with one lookup table per byte
//! of the position, which is what the engine's canonical forms use.

use crate::geometry::bits::Bits;
use crate::geometry::lattice::{Lattice, LatticeMap};
use std::collections::HashMap;

/// One symmetry of a board: a lattice map (plus translation) as a permutation of holes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    map: LatticeMap,
    perm: Vec<usize>,
}

impl Symmetry {
    /// Hole `h` is sent to hole `perm()[h]`.
    pub fn perm(&self) -> &[usize] {
        &self.perm
    }

    /// The lattice map behind the symmetry.
    pub fn map(&self) -> LatticeMap {
        self.map
    }

    /// `self ∘ other`: first `other`, then `self`.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:5").unwrap();
    /// // A group of order 6: every element to the 6th power is the identity.
    /// for s in b.symmetries() {
    ///     let mut x = s.clone();
    ///     for _ in 1..6 {
    ///         x = x.compose(s);
    ///     }
    ///     assert!(x.is_identity());
    /// }
    /// ```
    pub fn compose(&self, other: &Symmetry) -> Symmetry {
        Symmetry {
            map: self.map.compose(other.map),
            perm: other.perm.iter().map(|&h| self.perm[h]).collect(),
        }
    }

    /// Whether this is the identity permutation.
    pub fn is_identity(&self) -> bool {
        self.perm.iter().enumerate().all(|(i, &p)| i == p)
    }
}

/// The symmetry group of a board given by its sorted cells: every lattice map that sends
/// the holes onto themselves after a translation, as distinct permutations, identity first.
pub(crate) fn board_group(
    lattice: Lattice,
    cells: &[(i32, i32)],
    index: &HashMap<(i32, i32), usize>,
) -> Vec<Symmetry> {
    let mut group: Vec<Symmetry> = Vec::new();
    let low = *cells.iter().min().expect("a board has holes");
    for map in LatticeMap::point_group(lattice) {
        let image: Vec<(i32, i32)> = cells.iter().map(|&c| map.apply(c)).collect();
        let image_low = *image.iter().min().expect("a board has holes");
        let (dr, dc) = (low.0 - image_low.0, low.1 - image_low.1);
        let perm: Option<Vec<usize>> = image
            .iter()
            .map(|&(r, c)| index.get(&(r + dr, c + dc)).copied())
            .collect();
        if let Some(perm) = perm {
            let sym = Symmetry { map, perm };
            if !group.iter().any(|g| g.perm == sym.perm) {
                group.push(sym);
            }
        }
    }
    group
}

/// A list of symmetries applied to bitboards of type `K` by byte lookup tables.
///
/// `apply(i, x)` ORs one table entry per byte of `x`: for 33 holes, 5 lookups.
#[derive(Clone, Debug)]
pub struct Transforms<K: Bits> {
    /// `tables[i][chunk][byte]`: the image under symmetry `i` of `byte << (8 * chunk)`.
    tables: Vec<Vec<[K; 256]>>,
}

impl<K: Bits> Transforms<K> {
    /// Tables for the given symmetries of a board with `holes` holes (`holes <= K::BITS`).
    pub fn new(symmetries: &[&Symmetry], holes: usize) -> Self {
        let perms: Vec<&[usize]> = symmetries.iter().map(|s| s.perm()).collect();
        Self::from_perms(&perms, holes)
    }

    /// Tables for bit permutations (`perm[h]`: where bit `h` goes) of `holes` bits.
    ///
    /// ```
    /// use pegsol::geometry::symmetry::Transforms;
    /// let t = Transforms::<u64>::from_perms(&[&[2, 0, 1]], 3);
    /// assert_eq!(t.apply(0, 0b011), 0b101);
    /// ```
    pub fn from_perms(perms: &[&[usize]], holes: usize) -> Self {
        let chunks = holes.div_ceil(8);
        let tables = perms
            .iter()
            .map(|perm| {
                (0..chunks)
                    .map(|chunk| {
                        let mut t = [K::zero(); 256];
                        for (byte, entry) in t.iter_mut().enumerate() {
                            for b in 0..8 {
                                let h = chunk * 8 + b;
                                if byte >> b & 1 == 1 && h < holes {
                                    *entry = *entry | K::bit(perm[h]);
                                }
                            }
                        }
                        t
                    })
                    .collect()
            })
            .collect();
        Transforms { tables }
    }

    /// Number of symmetries.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The image of `x` under symmetry `i`.
    #[inline(always)]
    pub fn apply(&self, i: usize, x: K) -> K {
        let mut out = K::zero();
        for (chunk, table) in self.tables[i].iter().enumerate() {
            out = out | table[x.byte(chunk)];
        }
        out
    }

    /// The smallest image of `x` over all the symmetries: its canonical form.
    ///
    /// ```
    /// use pegsol::geometry::symmetry::Transforms;
    /// // Three holes in a row: the identity and the reversal.
    /// let t = Transforms::<u64>::from_perms(&[&[0, 1, 2], &[2, 1, 0]], 3);
    /// assert_eq!(t.canonical(0b100), 0b001);
    /// assert_eq!(t.canonical(0b011), 0b011);
    /// ```
    pub fn canonical(&self, x: K) -> K {
        (0..self.len()).map(|i| self.apply(i, x)).min().unwrap_or(x)
    }
}
