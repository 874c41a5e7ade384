//! The committed tables in results/ against an independent enumerator: for every (board,
//! start) of `results/depth.csv`, its first layers (up to 100,000 positions a layer) are
//! recomputed by a plain breadth-first walk, no symmetry merging and no engine code, and
//! every column must agree. The rows of a new board (tri:8, french) are checked this way
//! as soon as they are committed (issue 19: "the first layers of each new board against the
//! test suite's brute-force enumerator").

use pegsol::geometry::board::{Board, Pegs};
use std::collections::{HashMap, HashSet};

/// Positions of a layer past which the walk stops.
const MAX_LAYER: usize = 100_000;

/// One row of depth.csv.
#[derive(Debug, PartialEq)]
struct Depth {
    positions: u64,
    positions_reduced: u64,
    games_ended: u128,
    dead_ends: u64,
}

/// Layers of the walk from `start`: each position with its number of jump sequences, until
/// a layer passes [`MAX_LAYER`] positions or none is left.
fn walk(board: &Board, start: Pegs) -> Vec<Depth> {
    let mut layer: HashMap<Pegs, u128> = HashMap::from([(start, 1)]);
    let mut out = Vec::new();
    while !layer.is_empty() && layer.len() <= MAX_LAYER {
        let mut next: HashMap<Pegs, u128> = HashMap::new();
        let mut games_ended = 0u128;
        let mut dead_ends = 0u64;
        for (&pegs, &n) in &layer {
            let mut moved = false;
            for jump in board.jumps() {
                if jump.is_legal(pegs) {
                    moved = true;
                    let e = next.entry(pegs ^ jump.mask()).or_default();
                    *e = e.checked_add(n).expect("a count past u128");
                }
            }
            if !moved {
                games_ended += n;
                dead_ends += 1;
            }
        }
        let reduced: HashSet<Pegs> = layer
            .keys()
            .map(|&p| {
                board
                    .symmetries()
                    .iter()
                    .map(|s| board.transform(s, p))
                    .min()
                    .expect("the identity")
            })
            .collect();
        out.push(Depth {
            positions: layer.len() as u64,
            positions_reduced: reduced.len() as u64,
            games_ended,
            dead_ends,
        });
        layer = next;
    }
    out
}

#[test]
fn first_layers_of_every_committed_table_match_a_plain_walk() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/results/depth.csv");
    let mut rows: HashMap<(String, String), Vec<(usize, Depth)>> = HashMap::new();
    let mut reader = csv::Reader::from_path(path).expect("results/depth.csv");
    for record in reader.records() {
        let r = record.expect("a depth.csv row");
        let num = |i: usize| r[i].parse::<u128>().expect("a number");
        rows.entry((r[0].to_string(), r[1].to_string()))
            .or_default()
            .push((
                num(2) as usize,
                Depth {
                    positions: num(3) as u64,
                    positions_reduced: num(4) as u64,
                    games_ended: num(5),
                    dead_ends: num(6) as u64,
                },
            ));
    }
    // The boards of the committed table, every one of them checked.
    let mut boards: Vec<&str> = rows.keys().map(|(b, _)| b.as_str()).collect();
    boards.sort_unstable();
    boards.dedup();
    assert!(
        ["english", "tri:4", "tri:5", "tri:6", "tri:7"]
            .iter()
            .all(|b| boards.contains(b)),
        "results/depth.csv lost a board: {boards:?}"
    );
    let mut checked = 0;
    for ((spec, hole), layers) in &rows {
        let board = Board::from_spec(spec).expect("a known board");
        let start = board
            .start_from_names(std::slice::from_ref(hole))
            .expect("a hole");
        let walked = walk(&board, start);
        assert!(
            walked.len() >= layers.len().min(5),
            "{spec} {hole}: too few layers walked"
        );
        for (jumps, expected) in walked.iter().enumerate() {
            let (_, committed) = layers
                .iter()
                .find(|(j, _)| *j == jumps)
                .unwrap_or_else(|| panic!("{spec} {hole}: no row for {jumps} jumps"));
            assert_eq!(committed, expected, "{spec} from {hole}, {jumps} jumps");
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} layers checked");
}
