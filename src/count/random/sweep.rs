//! The random player's sweep: layer by layer over orbits of positions under the symmetries
//! that fix the start, each orbit carrying the probability that a random player passes
//! through it (its *mass*), split equally among the jumps of its representative.
//!
//! Every member of an orbit has as many jumps as its representative, and the children of
//! the representative stand for the children of the orbit, so the orbit's mass divided
//! among its representative's jumps, each share added to the child's orbit, is the mass of
//! the next layer; two jumps into one child orbit just add. A mass is an integer: a
//! numerator over the layer's common denominator ([`Mass`] for [`BigUint`]), so the sums are
//! exact and independent of the order of the additions. Past exact fractions the counting
//! engine carries the masses in fixed point ([`crate::count::sweep::Weight::Random`]).

use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Pegs};
use crate::geometry::moves::MoveTable;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::HashMap;

type Hasher = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;

/// The mass an orbit carries.
pub(super) trait Mass: Clone + Default {
    /// The mass of the start.
    fn whole() -> Self;
    /// The factor a layer's masses are scaled by on the way to the next, given the numbers
    /// of jumps its entries have (`1`: none).
    fn scale(jumps: &[bool]) -> u64;
    /// The share of each of `jumps` children, the layer's `scale` given.
    fn share(&self, jumps: u32, scale: u64) -> Self;
    fn add(&mut self, other: &Self) -> Result<()>;
    fn is_zero(&self) -> bool;
    /// Bytes an entry of this mass takes in a layer's map, roughly.
    fn bytes(&self) -> usize;
}

/// Exact: the numerator over the product of the scales so far; each layer is scaled by the
/// lcm of its entries' numbers of jumps, so every share is an integer.
impl Mass for BigUint {
    fn whole() -> Self {
        BigUint::one()
    }
    fn scale(jumps: &[bool]) -> u64 {
        (1..jumps.len() as u64)
            .filter(|&j| jumps[j as usize])
            .fold(1, |l, j| l.lcm(&j))
    }
    fn share(&self, jumps: u32, scale: u64) -> Self {
        self * (scale / u64::from(jumps))
    }
    fn add(&mut self, other: &Self) -> Result<()> {
        *self += other;
        Ok(())
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn bytes(&self) -> usize {
        64 + self.bits().div_ceil(8) as usize
    }
}

/// What the sweep yields, in the mass's units.
pub(super) struct Swept<M> {
    /// Per layer `d`: the mass of the games that end there (after `d` jumps).
    pub(super) ended: Vec<M>,
    /// Per layer `d`: the scale its masses were multiplied by on the way to layer `d + 1`;
    /// the denominator of layer `d` is the product of the scales before it.
    pub(super) scales: Vec<u64>,
    /// One-peg dead ends: (hole, the orbit's mass, the number of holes of its orbit, among
    /// which the mass is shared equally), once per hole.
    pub(super) finish: Vec<(usize, M, u64)>,
}

/// Sweeps the random player from `start` on `board`, within `max_memory` bytes.
pub(super) fn sweep<K: Bits, M: Mass>(
    board: &Board,
    start: Pegs,
    max_memory: u64,
) -> Result<Swept<M>> {
    let moves = MoveTable::<K>::new(board, |s| board.transform(s, start) == start);
    let h = moves.subgroup_order();
    let mut layer: HashMap<K, M, Hasher> = HashMap::default();
    layer.insert(moves.canonical(K::from_u128(start)), M::whole());
    let mut out = Swept {
        ended: Vec::new(),
        scales: Vec::new(),
        finish: Vec::new(),
    };
    let mut jumps = vec![0u32; board.jumps().len()];
    while !layer.is_empty() {
        // The numbers of jumps this layer's entries have, for the exact scale.
        let mut seen = vec![false; board.jumps().len() + 1];
        for &pos in layer.keys() {
            let mut n = 0;
            moves.each_jump(pos, |_| n += 1);
            seen[n] = true;
        }
        let scale = M::scale(&seen);
        let mut next: HashMap<K, M, Hasher> = HashMap::default();
        let mut ended = M::default();
        let mut bytes = layer.values().map(M::bytes).sum::<usize>();
        for (pos, mass) in layer {
            if mass.is_zero() {
                continue;
            }
            let img = moves.images(pos, h);
            let mut legal = 0;
            moves.each_jump(pos, |j| {
                jumps[legal] = j as u32;
                legal += 1;
            });
            if legal == 0 {
                if pos.count_ones() == 1 {
                    let mut holes: Vec<K> = img[..h].to_vec();
                    holes.sort_unstable();
                    holes.dedup();
                    for &x in &holes {
                        let hole = x.trailing_zeros() as usize;
                        out.finish.push((hole, mass.clone(), holes.len() as u64));
                    }
                }
                ended.add(&mass)?;
                continue;
            }
            let share = mass.share(legal as u32, scale);
            for &j in &jumps[..legal] {
                let child = moves.canonical_child(&img, j as usize);
                let slot = next.entry(child).or_default();
                if slot.is_zero() {
                    bytes += share.bytes();
                }
                slot.add(&share)?;
            }
            if bytes as u64 > max_memory {
                return Err(Error::Memory(format!(
                    "the random player's layer {} of {} needs more than --max-memory {}",
                    out.ended.len() + 1,
                    board.name(),
                    crate::memory::human(max_memory)
                )));
            }
        }
        out.ended.push(ended);
        out.scales.push(scale);
        layer = next;
    }
    Ok(out)
}
