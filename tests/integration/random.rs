//! The random player and the quickest loss (issue 67) against plain references: exact
//! fractions over raw positions for every start of tri:4..6 and two board files, a Monte
//! Carlo estimate on english, and a plain search for the quickest loss.

use pegsol::analysis::solvable::{Finish, SolveOptions};
use pegsol::count::random::reference::{self, Winnable};
use pegsol::count::random::{FIXED_BITS, Prob, QuickestLoss, quickest_loss, random_player};
use pegsol::geometry::board::{Board, Pegs};

const MEMORY: u64 = 2 << 30;

/// Every single-vacancy start of a board, one per symmetry class.
fn starts(board: &Board) -> Vec<Pegs> {
    board
        .hole_classes()
        .iter()
        .map(|class| board.start_with_empty(&[class[0]]))
        .collect()
}

fn boards() -> Vec<Board> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut all: Vec<Board> = ["tri:4", "tri:5", "tri:6"]
        .iter()
        .map(|s| Board::from_spec(s).unwrap())
        .collect();
    for file in ["boards/trapezoid.txt", "boards/hex2.txt"] {
        all.push(Board::from_file(&std::path::Path::new(root).join(file)).unwrap());
    }
    all
}

#[test]
fn the_exact_odds_match_a_plain_recursion_on_small_boards() {
    let mut checked = 0;
    for board in boards() {
        for start in starts(&board) {
            let odds = random_player(&board, start, MEMORY).unwrap();
            let (pegs, holes) = reference::random_player(&board, start);
            let name = format!("{} {}", board.name(), board.start_name(start));
            assert!(odds.exact(), "{name}");
            assert_eq!(odds.pegs_left, pegs, "{name}");
            assert_eq!(odds.finish, holes, "{name}");
            let total = pegs.iter().fold(Prob::zero(), |a, (_, p)| a.plus(p));
            assert_eq!(total.fraction(), "1/1", "{name}");
            let win = pegs.iter().find(|(k, _)| *k == 1).map(|(_, p)| p.clone());
            assert_eq!(
                Some(odds.win.clone()).filter(|p| !p.is_zero()),
                win,
                "{name}"
            );
            let by_hole = holes.iter().fold(Prob::zero(), |a, (_, p)| a.plus(p));
            assert_eq!(by_hole, odds.win, "{name}");
            checked += 1;
        }
    }
    // tri:4 2, tri:5 4, tri:6 4, the trapezoid and the hexagon theirs.
    assert!(checked >= 12, "{checked}");
}

#[test]
fn tri6_denominators_pass_ten_to_the_sixty() {
    let b = Board::from_spec("tri:6").unwrap();
    let odds = random_player(&b, b.default_start(), MEMORY).unwrap();
    let largest = odds
        .pegs_left
        .iter()
        .map(|(_, p)| p.den.bits())
        .max()
        .unwrap();
    assert!(largest > 200, "{largest} bits"); // 10^60 is about 2^199
}

#[test]
fn fixed_point_agrees_with_exact_fractions_where_both_run() {
    // tri:7 is past the exact boards; its odds in fixed point must carry a tiny shortfall,
    // and the probabilities add up to the whole less exactly that shortfall.
    let b = Board::from_spec("tri:7").unwrap();
    let odds = random_player(&b, b.default_start(), MEMORY).unwrap();
    assert!(!odds.exact());
    let units: u128 = odds
        .pegs_left
        .iter()
        .map(|(_, p)| p.num.to_string().parse::<u128>().unwrap())
        .sum();
    assert_eq!(units + odds.shortfall, 1u128 << FIXED_BITS);
    assert!(odds.shortfall <= u128::from(odds.divisions) * 64);
    assert!(odds.shortfall < 1u128 << 40, "{}", odds.shortfall);
}

/// The english random player against 300,000 random games (seed 67): the probability of
/// each number of pegs left within five standard deviations (plus one game), and the
/// expected pegs within five standard errors.
#[test]
fn english_odds_match_a_monte_carlo_estimate() {
    let b = Board::from_spec("english").unwrap();
    let odds = random_player(&b, b.default_start(), 6 << 30).unwrap();
    let games = 300_000u64;
    let counts = reference::play_random(&b, b.default_start(), games, 67);
    let n = games as f64;
    let p_of = |k: usize| {
        odds.pegs_left
            .iter()
            .find(|(p, _)| *p as usize == k)
            .map_or(0.0, |(_, p)| p.to_f64())
    };
    let mut mean = 0.0;
    let mut second = 0.0;
    for (k, &c) in counts.iter().enumerate() {
        let p = p_of(k);
        let f = c as f64 / n;
        let sd = (p * (1.0 - p) / n).sqrt();
        assert!(
            (f - p).abs() <= 5.0 * sd + 1.0 / n,
            "{k} pegs: {f} against {p}"
        );
        mean += k as f64 * f;
        second += (k * k) as f64 * f;
    }
    let expected = odds.expected_pegs.to_f64();
    let se = ((second - mean * mean) / n).sqrt();
    assert!(
        (mean - expected).abs() <= 5.0 * se,
        "{mean} against {expected}"
    );
    // Every row the sweep gives is one a game can end in.
    assert!(odds.pegs_left.iter().all(|(k, p)| *k >= 1 && !p.is_zero()));
}

fn plain_quickest(board: &Board, start: Pegs, goal: Pegs) -> Option<QuickestLoss> {
    let mut w = Winnable::new(board, goal);
    reference::quickest_loss(board, start, &mut |p| w.can_win(p), board.holes())
}

#[test]
fn the_quickest_loss_matches_a_plain_search_on_small_triangles() {
    for spec in ["tri:4", "tri:5", "tri:6"] {
        let board = Board::from_spec(spec).unwrap();
        for start in starts(&board) {
            let name = format!("{spec} {}", board.start_name(start));
            let got = quickest_loss(&board, start, Finish::Any, &SolveOptions::default()).unwrap();
            let want = plain_quickest(&board, start, board.full());
            assert_eq!(
                Some(got),
                want.or(Some(QuickestLoss {
                    jumps: None,
                    sequences: 0
                })),
                "{name}"
            );
            // And for finishing on the start's hole.
            let hole = (start ^ board.full()).trailing_zeros() as usize;
            let got =
                quickest_loss(&board, start, Finish::Hole(hole), &SolveOptions::default()).unwrap();
            let want = plain_quickest(&board, start, 1 << hole);
            assert_eq!(
                Some(got),
                want.or(Some(QuickestLoss {
                    jumps: None,
                    sequences: 0
                })),
                "{name} to its hole"
            );
        }
    }
}

#[test]
fn the_quickest_loss_on_english_matches_a_plain_search() {
    // The plain search's winnable test: `solve`'s depth-first search (a game, or a proof
    // that there is none), remembered per position; no solvable machinery.
    use pegsol::games::solve::{Goal, Outcome, search};
    use std::collections::HashMap;
    let b = Board::from_spec("english").unwrap();
    let start = b.default_start();
    let got = quickest_loss(&b, start, Finish::Any, &SolveOptions::default()).unwrap();
    let mut memo: HashMap<Pegs, bool> = HashMap::new();
    let mut winnable = |p: Pegs| {
        *memo.entry(p).or_insert_with(|| {
            let found = search(&b, p, Goal::OnePeg(b.full()), MEMORY).unwrap();
            matches!(found.outcome, Outcome::Found(_))
        })
    };
    let want = reference::quickest_loss(&b, start, &mut winnable, 12);
    assert_eq!(Some(got), want);
    assert!(got.jumps.unwrap() > 1);
}

#[test]
fn a_start_without_a_win_is_lost_at_once() {
    let b = Board::from_spec("tri:4").unwrap();
    let q = quickest_loss(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
    assert_eq!((q.jumps, q.sequences), (Some(0), 1));
}
