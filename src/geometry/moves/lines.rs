//! The line layouts of a board ([`Lines`]): its holes renumbered once per class of
//! parallel lattice lines, so that the jumps along a class are found with shifts.

use crate::geometry::bits::Bits;
use crate::geometry::board::Board;
use crate::geometry::symmetry::Transforms;

/// The board's holes renumbered once per class of parallel lattice lines, each line a run of
/// consecutive bits, with the jump along each run of three.
#[derive(Clone, Debug)]
pub struct Lines<K: Bits> {
    /// Per class: board bit order to line order (`None`: the identity).
    layouts: Vec<Option<Transforms<K>>>,
    /// Per class: bit `i` set when line-order bits `i`, `i + 1`, `i + 2` are on one line.
    triples: Vec<K>,
    /// Per class and bit `i` (at `class * K::BITS + i`): the jump from `i` over `i + 1` to
    /// `i + 2`, and the jump from `i + 2` over `i + 1` to `i`.
    forward: Vec<u32>,
    backward: Vec<u32>,
}

impl<K: Bits> Lines<K> {
    /// The line layouts of `board`'s lattice lines.
    pub(super) fn new(board: &Board) -> Self {
        let cells = board.cells();
        let jump = board.jump_index();
        let mut lines = Lines {
            layouts: Vec::new(),
            triples: Vec::new(),
            forward: Vec::new(),
            backward: Vec::new(),
        };
        let classes = board
            .lattice()
            .directions()
            .iter()
            .filter(|&&(dr, dc)| (dr, dc) > (-dr, -dc));
        for &(dr, dc) in classes {
            // Each maximal line, walked from its first hole, numbered consecutively.
            let mut order: Vec<usize> = Vec::with_capacity(cells.len());
            let mut triples = K::zero();
            let (mut forward, mut backward) = (vec![0; K::BITS], vec![0; K::BITS]);
            for (h, &(r, c)) in cells.iter().enumerate() {
                if board.hole_at((r - dr, c - dc)).is_some() {
                    continue;
                }
                let line: Vec<usize> = (0..)
                    .map_while(|k| board.hole_at((r + k * dr, c + k * dc)))
                    .collect();
                debug_assert_eq!(line[0], h);
                for (k, w) in line.windows(3).enumerate() {
                    let i = order.len() + k;
                    triples = triples | K::bit(i);
                    forward[i] = jump[&(w[0], w[1], w[2])] as u32;
                    backward[i] = jump[&(w[2], w[1], w[0])] as u32;
                }
                order.extend(line);
            }
            if triples == K::zero() {
                continue;
            }
            let mut perm = vec![0; cells.len()];
            for (i, &h) in order.iter().enumerate() {
                perm[h] = i;
            }
            let identity = perm.iter().enumerate().all(|(h, &i)| h == i);
            lines
                .layouts
                .push((!identity).then(|| Transforms::from_perms(&[&perm], cells.len())));
            lines.triples.push(triples);
            lines.forward.extend(forward);
            lines.backward.extend(backward);
        }
        debug_assert_eq!(
            2 * lines
                .triples
                .iter()
                .map(|t| t.count_ones() as usize)
                .sum::<usize>(),
            board.jumps().len(),
            "every jump lies on exactly one line"
        );
        lines
    }

    /// The jumps of `set` (bit `j` for jump `j`) as [`Lines::each_within`] takes them:
    /// per line class, the line-order bits of the runs taken forwards, then backwards.
    pub(super) fn masks(&self, set: u128) -> Vec<u128> {
        let mut out = Vec::with_capacity(2 * self.triples.len());
        for (c, &t) in self.triples.iter().enumerate() {
            let (mut fwd, mut bwd) = (0u128, 0u128);
            for i in 0..K::BITS {
                if t >> i & K::one() == K::one() {
                    // A jump numbered 128 or more is never in a `u128` set.
                    let has = |j: u32| set.checked_shr(j).unwrap_or(0) & 1;
                    fwd |= has(self.forward[c * K::BITS + i]) << i;
                    bwd |= has(self.backward[c * K::BITS + i]) << i;
                }
            }
            out.extend([fwd, bwd]);
        }
        out
    }

    /// Calls `f(j)` for every jump `j` whose three holes hold the pattern `want`: for each
    /// line class, `want(x, x >> 1, x >> 2)` of the position `x` in line order gives the
    /// runs matched forwards, and `want(x >> 2, x >> 1, x)` those matched backwards.
    #[inline]
    pub(super) fn each(&self, pos: K, want: impl Fn(K, K, K) -> K, f: impl FnMut(usize)) -> bool {
        self.each_within(pos, want, None, f)
    }

    /// [`Lines::each`] for the jumps of `within` only (per line class, the line-order
    /// bits of the runs taken forwards and backwards, as [`Lines::masks`] gives them).
    #[inline]
    pub(super) fn each_within(
        &self,
        pos: K,
        want: impl Fn(K, K, K) -> K,
        within: Option<&[u128]>,
        mut f: impl FnMut(usize),
    ) -> bool {
        let mut any = false;
        for (c, layout) in self.layouts.iter().enumerate() {
            let x = layout.as_ref().map_or(pos, |t| t.apply(0, pos));
            let (y, z) = (x >> 1, x >> 2);
            let (wf, wb) = within.map_or((self.triples[c], self.triples[c]), |w| {
                (K::from_u128(w[2 * c]), K::from_u128(w[2 * c + 1]))
            });
            let mut fwd = want(x, y, z) & self.triples[c] & wf;
            let mut bwd = want(z, y, x) & self.triples[c] & wb;
            any |= (fwd | bwd) != K::zero();
            let base = c * K::BITS;
            while fwd != K::zero() {
                f(self.forward[base + fwd.trailing_zeros() as usize] as usize);
                fwd = fwd & (fwd - K::one());
            }
            while bwd != K::zero() {
                f(self.backward[base + bwd.trailing_zeros() as usize] as usize);
                bwd = bwd & (bwd - K::one());
            }
        }
        any
    }
}
