//! One sweep from several starts ([`count_many`]) against one count per start: every
//! statistic of every start must be the same, whatever the starts and the thread count.

use pegsol::count::sweep::{CountOptions, count, count_many, max_starts};
use pegsol::geometry::board::{Board, Pegs};
use proptest::prelude::*;

fn opts(threads: usize) -> CountOptions {
    CountOptions {
        threads,
        ..CountOptions::default()
    }
}

/// Sweeps `holes` (single vacancies) together and compares with separate counts.
fn check(board: &Board, holes: &[usize], threads: usize) {
    let starts: Vec<Pegs> = holes
        .iter()
        .map(|&h| board.start_with_empty(&[h]))
        .collect();
    let together = count_many(board, &starts, &opts(threads)).expect("sweep");
    assert_eq!(together.len(), starts.len());
    for (&start, got) in starts.iter().zip(&together) {
        let alone = count(board, start, &opts(1)).expect("count");
        assert_eq!(
            got,
            &alone,
            "{} from {} swept with {:?}",
            board.name(),
            alone.start,
            holes
                .iter()
                .map(|&h| board.hole_name(h))
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn every_position_class_swept_at_once_equals_its_starts_counted_alone() {
    for spec in ["tri:5", "tri:6", "line:10"] {
        let board = Board::from_spec(spec).unwrap();
        for class in board.position_classes() {
            for threads in [1, 2] {
                check(&board, &class, threads);
            }
        }
    }
}

#[test]
fn board_files_with_other_lattices_and_groups() {
    for file in ["hex2.txt", "rect-diag.txt", "trapezoid.txt"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("boards")
            .join(file);
        let board = Board::from_file(&path).unwrap();
        for class in board.position_classes() {
            let some: Vec<usize> = class.into_iter().take(6).collect();
            check(&board, &some, 2);
        }
    }
}

#[test]
fn starts_of_different_classes_and_multi_hole_starts() {
    let board = Board::from_spec("tri:5").unwrap();
    // a1, a2 and e5 lie in three different classes: nothing is shared, all still exact.
    check(&board, &[0, 1, 14], 2);
    // Two-hole starts share one sweep too.
    let starts = [
        board.start_with_empty(&[0, 1]),
        board.start_with_empty(&[0, 2]),
        board.start_with_empty(&[3, 4]),
    ];
    let together = count_many(&board, &starts, &opts(2)).unwrap();
    for (&s, got) in starts.iter().zip(&together) {
        assert_eq!(got, &count(&board, s, &opts(1)).unwrap());
    }
}

/// Boards past 64 bits take 128-bit keys, whose sweeps carry 1, 2, 4, 8 or 16 lanes: 3
/// starts ride in 4 lanes, 5 in 8, and [`max_starts`] rounds down to a power of two where
/// 128 bits leave fewer than 16. (Here, not as a unit test: a unit test that calls
/// `count_many` makes the library's test build compile every copy of the engine again.)
#[test]
fn wide_keys_round_the_lanes_up() {
    let board = Board::from_spec("line:70").unwrap();
    check(&board, &[0, 1, 5], 2);
    check(&board, &[2, 3, 7, 11, 69], 1);
    assert_eq!(max_starts(&board), 16);
    let board = Board::from_spec("line:115").unwrap();
    assert_eq!(max_starts(&board), 8);
    let starts: Vec<Pegs> = (0..9).map(|h| board.start_with_empty(&[h])).collect();
    let eight = count_many(&board, &starts[..8], &opts(2)).unwrap();
    assert!(eight.iter().any(|c| c.games() > 1));
    assert!(count_many(&board, &starts, &opts(1)).is_err());
}

/// Several starts on a board that does not pack into 32-bit keys (more than 38 holes, or
/// fewer than 7) take 128-bit keys and a power of two of lanes; one start on a board of up
/// to 64 holes keeps 64-bit keys. Either way each start's counts are its own sweep's.
#[test]
fn starts_on_boards_that_do_not_pack_count_as_alone() {
    let board = Board::from_spec("line:40").unwrap();
    check(&board, &[0, 1, 5], 2);
    check(&board, &[2, 3, 7, 11, 39], 1);
    let board = Board::from_spec("line:6").unwrap();
    check(&board, &[0, 1, 2], 2);
}

#[test]
fn bad_start_sets_are_refused() {
    let board = Board::from_spec("tri:5").unwrap();
    let a1 = board.start_with_empty(&[0]);
    for starts in [
        vec![],
        vec![a1, a1],
        vec![a1, board.start_with_empty(&[1, 2])],
        vec![a1; 17],
    ] {
        assert!(count_many(&board, &starts, &opts(1)).is_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Any set of single-vacancy starts of tri:6.
    #[test]
    fn any_start_set_of_tri6(holes in proptest::sample::subsequence((0..21).collect::<Vec<usize>>(), 1..=7)) {
        let board = Board::from_spec("tri:6").unwrap();
        check(&board, &holes, 2);
    }
}

/// A sweep stopped at the first dead end ([`CountOptions::stop_at_dead_end`], what
/// `extremes` runs): for every start of a sweep of several, the layers up to the first
/// layer in which every start has a dead end are the whole count's, and the smallest dead
/// end of each start's first such layer is the plain breadth-first sweep's.
#[test]
fn a_sweep_stopped_at_the_first_dead_end_is_the_start_of_the_whole_count() {
    use pegsol::count::sweep::sweep_many;
    use pegsol::games::extremes::shortest_dead_end_plain;
    for spec in ["tri:5", "tri:6", "line:10"] {
        let board = Board::from_spec(spec).unwrap();
        for class in board.position_classes() {
            let starts: Vec<Pegs> = class
                .iter()
                .take(4)
                .map(|&h| board.start_with_empty(&[h]))
                .collect();
            let whole = count_many(&board, &starts, &opts(1)).unwrap();
            let last = whole.iter().map(|c| c.shortest_game().0).max().unwrap();
            for threads in [1, 2] {
                let stopped = sweep_many(
                    &board,
                    &starts,
                    &CountOptions {
                        stop_at_dead_end: true,
                        ..opts(threads)
                    },
                )
                .unwrap();
                for ((&start, w), (s, least)) in starts
                    .iter()
                    .zip(&whole)
                    .zip(stopped.counts.iter().zip(&stopped.least_dead_ends))
                {
                    let upto: Vec<_> = w.layers.iter().filter(|l| l.jumps <= last).collect();
                    assert_eq!(s.layers.iter().collect::<Vec<_>>(), upto, "{spec}");
                    let plain = shortest_dead_end_plain(&board, start, u64::MAX).unwrap();
                    assert_eq!(*least, Some(plain.end), "{spec} from {}", w.start);
                }
            }
        }
    }
}
