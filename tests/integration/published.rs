//! Every figure of ../shared/reference/published.md that `count` covers, table-driven.

use crate::common::run;
use pegsol::total::Total;

/// tri:5 per start class (Durango Bill's per-start tables, corrected totals):
/// (start, wins, games, wins ending on the start hole, shortest dead end in jumps).
const TRI5: &[(&str, u128, u128, u128, usize)] = &[
    ("a1", 29_760, 568_630, 6_816, 6),
    ("a2", 14_880, 294_543, 720, 6),
    ("a3", 85_258, 1_149_568, 51_452, 7),
    ("b3", 1_550, 137_846, 0, 4),
];

#[test]
fn tri5_start_classes() {
    for &(hole, wins, games, on_start, shortest) in TRI5 {
        let c = run("tri:5", &[hole], 0);
        assert_eq!(c.wins(), wins, "{hole} wins");
        assert_eq!(c.games(), games, "{hole} games");
        assert_eq!(c.wins_at(hole), on_start, "{hole} wins on the start hole");
        assert_eq!(c.shortest_game().0, shortest, "{hole} shortest dead end");
    }
}

/// Corner start, games by pegs left at the end.
#[test]
fn tri5_corner_pegs_left() {
    let c = run("tri:5", &["a1"], 0);
    let expected: Vec<(usize, Total)> = vec![
        (1, 29_760),
        (2, 139_614),
        (3, 259_578),
        (4, 123_664),
        (5, 14_844),
        (6, 844),
        (7, 324),
        (8, 2),
    ]
    .into_iter()
    .map(|(p, g)| (p, Total::from(g)))
    .collect();
    assert_eq!(c.pegs_left(), expected);
}

/// Most pegs left in a dead end from any start: 10 (interior start, 2 games).
#[test]
fn tri5_most_pegs_left() {
    let best = ["a1", "a2", "a3", "b3"]
        .iter()
        .map(|h| run("tri:5", &[h], 0).max_dead_end())
        .max()
        .unwrap();
    assert_eq!(best, (10, 2.into()));
}

/// English board from the centre (Durango Bill; G. I. Bell; OEIS A112737).
#[test]
fn english_centre() {
    let c = crate::common::english_centre();
    assert_eq!(c.games(), 577_116_156_815_309_849_672);
    assert_eq!(c.wins_at("d4"), 40_861_647_040_079_968);
    assert_eq!(c.positions_reduced(), 23_475_688);
    assert_eq!(c.positions(), 187_636_299);
    assert_eq!(c.shortest_game().0, 6);
    let a112737: Vec<u64> = c
        .layers
        .iter()
        .take(10)
        .map(|l| l.positions_reduced)
        .collect();
    assert_eq!(a112737, [1, 1, 2, 8, 39, 171, 719, 2757, 9751, 31312]);
}
