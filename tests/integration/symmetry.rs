//! The symmetry group: orders, closure, jumps to jumps, and canonical forms (property tests);
//! the move table's shift-based jump generation against the board's jump list.

use pegsol::geometry::bits::Bits;
use pegsol::geometry::board::{Board, Jump, Pegs};
use pegsol::geometry::moves::MoveTable;
use pegsol::geometry::{LatticeMap, Transforms};
use proptest::prelude::*;
use std::collections::HashSet;

const BOARDS: &[(&str, usize)] = &[
    ("tri:3", 6),
    ("tri:5", 6),
    ("tri:7", 6),
    ("tri:10", 6),
    ("english", 8),
    ("french", 8),
    ("wiegleb", 8),
    ("line:8", 2),
    ("boards/hex2.txt", 12),
    ("boards/diamond.txt", 8),
    ("boards/rect-diag.txt", 4),
    ("boards/trapezoid.txt", 2),
];

#[test]
fn group_orders() {
    for &(spec, order) in BOARDS {
        let b = Board::from_spec(spec).unwrap();
        assert_eq!(b.symmetries().len(), order, "{spec}");
        assert!(b.symmetries()[0].is_identity(), "{spec}: identity first");
    }
}

#[test]
fn point_groups_are_closed() {
    use pegsol::geometry::lattice::Lattice::*;
    for lattice in [Square, SquareDiagonal, Triangular] {
        let maps = LatticeMap::point_group(lattice);
        for a in &maps {
            for b in &maps {
                assert!(maps.contains(&a.compose(*b)), "{lattice:?}");
            }
        }
    }
}

#[test]
fn board_groups_are_closed_with_inverses() {
    for &(spec, _) in BOARDS {
        let b = Board::from_spec(spec).unwrap();
        let perms: HashSet<Vec<usize>> = b.symmetries().iter().map(|s| s.perm().to_vec()).collect();
        for x in b.symmetries() {
            assert!(
                b.symmetries().iter().any(|y| x.compose(y).is_identity()),
                "{spec}: inverse"
            );
            for y in b.symmetries() {
                assert!(perms.contains(x.compose(y).perm()), "{spec}: closure");
            }
        }
    }
}

#[test]
fn symmetries_map_jumps_to_jumps() {
    for &(spec, _) in BOARDS {
        let b = Board::from_spec(spec).unwrap();
        let jumps: HashSet<Jump> = b.jumps().iter().copied().collect();
        for s in b.symmetries() {
            let p = s.perm();
            for j in b.jumps() {
                let image = Jump {
                    from: p[j.from],
                    over: p[j.over],
                    to: p[j.to],
                };
                assert!(jumps.contains(&image), "{spec}: {j:?} -> {image:?}");
            }
        }
    }
}

fn check_canonical<K: Bits>(b: &Board, pegs: Pegs, g: usize) {
    let syms: Vec<_> = b.symmetries().iter().collect();
    let t = Transforms::<K>::new(&syms, b.holes());
    let x = K::from_u128(pegs);
    // Table transform agrees with the naive permutation.
    assert_eq!(t.apply(g, x).to_u128(), b.transform(syms[g], pegs));
    // The canonical form of a symmetric image equals the canonical form of the position.
    let image = K::from_u128(b.transform(syms[g], pegs));
    assert_eq!(t.canonical(image), t.canonical(x));
}

proptest! {
    #[test]
    fn canonical_form_is_invariant(which in 0..BOARDS.len(), raw in any::<u128>(), g in 0usize..12) {
        let b = Board::from_spec(BOARDS[which].0).unwrap();
        let pegs = raw & b.full();
        let g = g % b.symmetries().len();
        check_canonical::<u128>(&b, pegs, g);
        if b.holes() <= 64 {
            check_canonical::<u64>(&b, pegs, g);
        }
    }

    #[test]
    fn legal_jumps_commute_with_symmetry(which in 0..BOARDS.len(), raw in any::<u128>(), g in 0usize..12) {
        let b = Board::from_spec(BOARDS[which].0).unwrap();
        let pegs = raw & b.full();
        let s = &b.symmetries()[g % b.symmetries().len()];
        let after = |p: Pegs| -> HashSet<Pegs> {
            b.jumps().iter().filter(|j| j.is_legal(p)).map(|j| p ^ j.mask()).collect()
        };
        let mapped: HashSet<Pegs> = after(pegs).into_iter().map(|p| b.transform(s, p)).collect();
        prop_assert_eq!(mapped, after(b.transform(s, pegs)));
    }

    #[test]
    fn move_table_finds_exactly_the_legal_jumps(which in 0..BOARDS.len() + 1, raw in any::<u128>()) {
        // The listed boards, and a triangle too large for 64-bit positions.
        let spec = BOARDS.get(which).map_or("tri:12", |b| b.0);
        let b = Board::from_spec(spec).unwrap();
        let pegs = raw & b.full();
        check_jumps::<u128>(&b, pegs);
        if b.holes() <= 64 {
            check_jumps::<u64>(&b, pegs);
        }
    }
}

/// `each_jump` and `each_unjump` report each legal jump (un-jump) of `pegs` once, and no other.
fn check_jumps<K: Bits>(b: &Board, pegs: Pegs) {
    let t = MoveTable::<K>::new(b, |s| s.is_identity());
    let x = K::from_u128(pegs);
    let (mut jumps, mut unjumps) = (Vec::new(), Vec::new());
    let any = t.each_jump(x, |j| jumps.push(j));
    let any_un = t.each_unjump(x, |j| unjumps.push(j));
    jumps.sort_unstable();
    unjumps.sort_unstable();
    let legal: Vec<usize> = (0..b.jumps().len())
        .filter(|&j| b.jumps()[j].is_legal(pegs))
        .collect();
    let undo: Vec<usize> = (0..b.jumps().len())
        .filter(|&j| pegs & b.jumps()[j].mask() == 1 << b.jumps()[j].to)
        .collect();
    assert_eq!(
        (any, &jumps),
        (!legal.is_empty(), &legal),
        "{} {pegs:#x}",
        b.name()
    );
    assert_eq!(
        (any_un, &unjumps),
        (!undo.is_empty(), &undo),
        "{} {pegs:#x}",
        b.name()
    );
}
