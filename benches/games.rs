//! Speed targets of issue 4 (each benchmark asserts the answer it times):
//! `solve` english centre <= 1 s; `reach` on tri:5 < 0.1 s; fewest moves tri:6 <= 10 s;
//! fewest moves english centre to centre <= 60 s (2 cores). Run with `cargo bench --bench
//! games`; `cargo bench --bench games -- english_min_moves` for the slow one alone.

use criterion::{Criterion, criterion_group, criterion_main};
use pegsol::games::minmoves::{Ends, min_moves};
use pegsol::games::solve::{Goal, Outcome, count_sequences, search};
use pegsol::geometry::board::{Board, bit};
use std::hint::black_box;
use std::time::Duration;

fn solve_english(c: &mut Criterion) {
    let b = Board::from_spec("english").unwrap();
    let d4 = b.hole("d4").unwrap();
    c.bench_function("solve_english_centre", |x| {
        x.iter(|| {
            let s = search(&b, b.default_start(), Goal::OnePeg(bit(d4)), u64::MAX).unwrap();
            assert!(matches!(s.outcome, Outcome::Found(ref j) if j.len() == 31));
            black_box(s)
        })
    });
}

fn reach_tri5(c: &mut Criterion) {
    let b = Board::from_spec("tri:5").unwrap();
    let to = b.parse_position("o/oo/o.o/o..o/oo.oo").unwrap();
    c.bench_function("reach_tri5_ring_with_count", |x| {
        x.iter(|| {
            let s = search(&b, b.default_start(), Goal::Position(to), u64::MAX).unwrap();
            assert!(matches!(s.outcome, Outcome::Found(ref j) if j.len() == 3));
            let n = count_sequences(&b, b.default_start(), to).unwrap();
            assert!(n > 0);
            black_box(n)
        })
    });
}

fn min_moves_tri6(c: &mut Criterion) {
    let b = Board::from_spec("tri:6").unwrap();
    let mut g = c.benchmark_group("min_moves");
    g.sample_size(10);
    g.bench_function("tri6_all_starts", |x| {
        x.iter(|| {
            let r = min_moves(&b, None, Ends::Any, u64::MAX).unwrap();
            // OEIS A127500: 9 moves for side 6.
            assert_eq!(r.best.as_ref().unwrap().0, 9);
            black_box(r.positions)
        })
    });
    g.finish();
}

fn min_moves_english(c: &mut Criterion) {
    let b = Board::from_spec("english").unwrap();
    let d4 = b.hole("d4").unwrap();
    let mut g = c.benchmark_group("min_moves_slow");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(200));
    g.bench_function("english_min_moves_centre_to_centre", |x| {
        x.iter(|| {
            let r = min_moves(&b, Some(b.default_start()), Ends::Hole(d4), u64::MAX).unwrap();
            // Bergholt 1912, proved minimal by Beasley: 18 moves.
            assert_eq!(r.best.as_ref().unwrap().0, 18);
            black_box(r.positions)
        })
    });
    g.finish();
}

criterion_group!(fast, solve_english, reach_tri5, min_moves_tri6);
criterion_group!(slow, min_moves_english);
criterion_main!(fast, slow);
