//! Times `pegsol::count::sweep::count` and the move table's jump generation, and asserts the
//! results it times.
//!
//! `cargo bench --bench count` runs them all; `cargo bench --bench count -- tri:6` gives
//! quick feedback (well under a second per sample); `cargo bench --bench count -- --test`
//! runs each once as a check. The large cases (english, tri:7) take 10-30 s per sample on
//! the 2-core machine, so they use the fewest samples criterion allows.

use criterion::{Criterion, criterion_group, criterion_main};
use pegsol::count::stats::Counts;
use pegsol::count::sweep::{CountOptions, count};
use pegsol::geometry::board::Board;
use pegsol::geometry::moves::MoveTable;
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

fn run(spec: &str, threads: usize) -> Counts {
    let board = Board::from_spec(spec).expect("board");
    let opts = CountOptions {
        threads,
        ..CountOptions::default()
    };
    count(&board, board.default_start(), &opts).expect("count")
}

/// Quick feedback: tri:6 from a1.
fn small(c: &mut Criterion) {
    c.bench_function("count tri:6 a1", |b| {
        b.iter(|| {
            let counts = run(black_box("tri:6"), 0);
            assert_eq!(counts.games(), 394_999_872_560);
            assert_eq!(counts.wins(), 43_419_942_138);
            counts
        })
    });
}

/// Jump generation (`MoveTable::each_jump`, shifts along line classes) over every position
/// reachable in up to 7 jumps from the default start; the total must equal the number of
/// jumps the board's jump list finds legal in those positions.
fn jumps(c: &mut Criterion) {
    for spec in ["english", "tri:7"] {
        let board = Board::from_spec(spec).expect("board");
        let table = MoveTable::<u64>::new(&board, |s| s.is_identity());
        let mut layer = vec![board.default_start() as u64];
        let mut positions = layer.clone();
        for _ in 0..7 {
            let mut next: Vec<u64> = Vec::new();
            for &p in &layer {
                table.each_jump(p, |j| next.push(p ^ table.mask(j)));
            }
            next.sort_unstable();
            next.dedup();
            positions.extend(&next);
            layer = next;
        }
        let legal: usize = positions
            .iter()
            .map(|&p| {
                board
                    .jumps()
                    .iter()
                    .filter(|j| j.is_legal(p.into()))
                    .count()
            })
            .sum();
        c.bench_function(
            &format!("each_jump {spec} ({} positions)", positions.len()),
            |b| {
                b.iter(|| {
                    let mut n = 0usize;
                    for &p in &positions {
                        table.each_jump(black_box(p), |_| n += 1);
                    }
                    assert_eq!(n, legal);
                    n
                })
            },
        );
    }
}

/// The targets: english centre (<= 10 s, <= 1 GiB) and tri:7 a1 (<= 5 s).
fn large(c: &mut Criterion) {
    c.bench_function("count english d4", |b| {
        b.iter(|| {
            let counts = run(black_box("english"), 0);
            assert_eq!(counts.games(), 577_116_156_815_309_849_672);
            assert_eq!(counts.wins_at("d4"), 40_861_647_040_079_968);
            counts
        })
    });
    // No test covers tri:7: besides the figures `pegsol count --board tri:7` prints, every
    // timed run must equal a single-threaded run statistic for statistic (computed once,
    // and only when the filter selects this benchmark).
    let reference = OnceLock::new();
    c.bench_function("count tri:7 a1", |b| {
        let reference = reference.get_or_init(|| {
            let counts = run("tri:7", 1);
            assert_eq!(counts.games(), 15_329_604_581_324_902_942);
            assert_eq!(counts.wins(), 0);
            assert_eq!(counts.positions(), 40_600_768);
            assert_eq!(counts.positions_reduced(), 7_937_410);
            counts
        });
        b.iter(|| {
            let counts = run(black_box("tri:7"), 0);
            assert_eq!(&counts, reference);
            counts
        })
    });
}

criterion_group! {
    name = fast;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(3));
    targets = small, jumps
}
criterion_group! {
    name = slow;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(10));
    targets = large
}
criterion_main!(fast, slow);
