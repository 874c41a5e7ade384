//! The engine against a plain brute-force enumerator: every game is walked jump by jump, no
//! symmetry, no tables. Every statistic of `count` must agree.

use crate::common::run;
use pegsol::geometry::board::{Board, Pegs};
use pegsol::total::Total;
use std::collections::{BTreeMap, HashSet};

/// What the brute force gathers: per depth the set of positions and the games ending there,
/// and wins per finishing hole.
#[derive(Default)]
struct Brute {
    positions: Vec<HashSet<Pegs>>,
    dead_ends: Vec<HashSet<Pegs>>,
    games_ended: Vec<u128>,
    finish: BTreeMap<usize, u128>,
}

impl Brute {
    fn walk(&mut self, board: &Board, pegs: Pegs, depth: usize) {
        if self.positions.len() <= depth {
            self.positions.push(HashSet::new());
            self.dead_ends.push(HashSet::new());
            self.games_ended.push(0);
        }
        self.positions[depth].insert(pegs);
        let mut moved = false;
        for jump in board.jumps() {
            if jump.is_legal(pegs) {
                moved = true;
                self.walk(board, pegs ^ jump.mask(), depth + 1);
            }
        }
        if !moved {
            self.games_ended[depth] += 1;
            self.dead_ends[depth].insert(pegs);
            if pegs.count_ones() == 1 {
                *self
                    .finish
                    .entry(pegs.trailing_zeros() as usize)
                    .or_default() += 1;
            }
        }
    }
}

/// The canonical form by applying every symmetry's permutation naively.
fn canonical(board: &Board, pegs: Pegs) -> Pegs {
    board
        .symmetries()
        .iter()
        .map(|s| board.transform(s, pegs))
        .min()
        .unwrap()
}

/// Runs the brute force and the engine (1 and 2 threads) and compares every statistic.
fn compare(spec: &str, hole: &str) -> (u128, u128) {
    let board = Board::from_spec(spec).unwrap();
    let start = board.start_from_names(&[hole.to_string()]).unwrap();
    let mut brute = Brute::default();
    brute.walk(&board, start, 0);
    for threads in [1, 2] {
        let c = run(spec, &[hole], threads);
        let what = format!("{spec} from {hole}, {threads} threads");
        assert_eq!(c.layers.len(), brute.positions.len(), "{what}: layers");
        for (layer, set) in c.layers.iter().zip(&brute.positions) {
            let d = layer.jumps;
            assert_eq!(
                layer.positions,
                set.len() as u64,
                "{what}: positions at {d}"
            );
            let reduced: HashSet<Pegs> = set.iter().map(|&p| canonical(&board, p)).collect();
            assert_eq!(
                layer.positions_reduced,
                reduced.len() as u64,
                "{what}: reduced at {d}"
            );
            assert_eq!(
                layer.games_ended, brute.games_ended[d],
                "{what}: games at {d}"
            );
            assert_eq!(
                layer.dead_ends,
                brute.dead_ends[d].len() as u64,
                "{what}: dead ends at {d}"
            );
        }
        let finish: Vec<(String, Total)> = brute
            .finish
            .iter()
            .map(|(&h, &w)| (board.hole_name(h), w.into()))
            .collect();
        assert_eq!(c.finish, finish, "{what}: wins by finishing hole");
        assert_eq!(
            c.games(),
            brute.games_ended.iter().sum::<u128>(),
            "{what}: games"
        );
    }
    let games = brute.games_ended.iter().sum();
    let wins = brute.finish.values().sum();
    (games, wins)
}

fn every_hole(spec: &str) -> (u128, u128) {
    let board = Board::from_spec(spec).unwrap();
    (0..board.holes())
        .map(|h| compare(spec, &board.hole_name(h)))
        .fold((0, 0), |(g, w), (g2, w2)| (g + g2, w + w2))
}

#[test]
fn tri4_every_hole() {
    every_hole("tri:4");
}

/// Also checks the published totals over all 15 starts (published.md: 7,335,390 games,
/// 438,984 wins), from the brute force itself.
#[test]
fn tri5_every_hole() {
    assert_eq!(every_hole("tri:5"), (7_335_390, 438_984));
}

#[test]
fn line8_every_hole() {
    every_hole("line:8");
}

#[test]
fn board_files_every_hole() {
    every_hole("boards/rect-diag.txt");
    every_hole("boards/trapezoid.txt");
}

#[test]
fn two_empty_holes() {
    let board = Board::from_spec("tri:5").unwrap();
    let start = board.start_from_names(&["a1".into(), "c5".into()]).unwrap();
    let mut brute = Brute::default();
    brute.walk(&board, start, 0);
    let c = run("tri:5", &["a1", "c5"], 2);
    assert_eq!(c.start, "a1+c5");
    assert_eq!(c.games(), brute.games_ended.iter().sum::<u128>());
    let positions: usize = brute.positions.iter().map(|s| s.len()).sum();
    assert_eq!(c.positions(), positions as u64);
}
