//! Benchmarks of issue 5's targets, each checking its answer before timing it:
//! - english centre to centre, the solvable set: <= 10 s on 2 cores;
//! - `line --pegs 1 --to 30`: <= 10 s.
//!
//! `cargo bench --bench solvable` (about two minutes: criterion's minimum of 10 samples of
//! the english run).

use criterion::{Criterion, criterion_group, criterion_main};
use pegsol::analysis::solvable::{Finish, SolveOptions, solvable};
use pegsol::geometry::board::Board;
use std::time::Duration;

fn english_centre(c: &mut Criterion) {
    let b = Board::from_spec("english").unwrap();
    let finish = Finish::Hole(b.hole("d4").unwrap());
    let opts = SolveOptions::default();
    let run = || solvable(&b, b.default_start(), finish, &opts).unwrap();
    // published.md: 1,679,072 up to symmetry (OEIS A112738).
    assert_eq!(run().positions_reduced(), 1_679_072);
    let mut g = c.benchmark_group("solvable");
    g.sample_size(10).measurement_time(Duration::from_secs(60));
    g.bench_function("english d4 -> d4", |bench| bench.iter(run));
    g.finish();
}

fn line_to_30(c: &mut Criterion) {
    let run = || pegsol::analysis::line::solvable(1, 30).unwrap();
    let layers = run();
    // published.md: 3 pegs: II.I only; 7 pegs: 8, both up to reversal.
    assert_eq!(layers[2].reduced().len(), 1);
    assert_eq!(layers[6].reduced().len(), 8);
    let mut g = c.benchmark_group("line");
    g.bench_function("pegs 1 to 30", |bench| bench.iter(run));
    g.finish();
}

criterion_group!(benches, line_to_30, english_centre);
criterion_main!(benches);
