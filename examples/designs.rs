//! Two alternative designs measured against the engine, for DESIGN.md.
//!
//! - `engine`: `pegsol::count::sweep::count` (layer sweep, 64 shards, per-shard child buffers
//!   merged without locks), every statistic.
//! - `dashmap`: the same layer sweep, canonical under the same group `H` (the symmetries
//!   fixing the start), but each next layer is one `DashMap<u64, u128>` filled directly from
//!   a rayon `par_iter` over the current layer; games and wins only.
//! - `dfs`: memoized depth-first search. `W(s) = (games, wins)` from `s` (a dead end is one
//!   game), with a transposition table `DashMap<canonical u64, (u128, u128)>` under the whole
//!   group (`W` is the same on an orbit whatever the start). The tree is expanded
//!   breadth-first to `--depth` jumps and the distinct frontier positions are the work units
//!   of a rayon `par_iter`. Wins are kept next to games to cross-check boards whose wins only
//!   the engine computes (tri:7 a1 has none); dead ends are not stored.
//!
//! Each design runs in its own child process so that its peak RSS is its own:
//! `cargo run --release --example designs -- english [--threads N] [--depth D]`.
//! A child stops itself past `--limit-secs` (300) or a peak RSS of `--limit-mem` (6G).

use dashmap::DashMap;
use pegsol::count::sweep::{CountOptions, count};
use pegsol::geometry::board::Board;
use pegsol::geometry::symmetry::{Symmetry, Transforms};
use pegsol::memory::{human, peak_rss};
use rayon::prelude::*;
use std::collections::HashMap;
use std::process::Command;
use std::time::{Duration, Instant};

type Map<V> = DashMap<u64, V, ahash::RandomState>;
const DESIGNS: [&str; 3] = ["engine", "dashmap", "dfs"];
/// (board, games, wins) from the default start, as the engine reports them.
const KNOWN: [(&str, u128, u128); 3] = [
    (
        "english",
        577_116_156_815_309_849_672,
        81_723_294_080_159_936,
    ),
    ("tri:7", 15_329_604_581_324_902_942, 0),
    ("tri:6", 394_999_872_560, 43_419_942_138),
];

struct Game {
    /// Per jump: (mask of its three holes, mask of from and over).
    jumps: Vec<(u64, u64)>,
    /// The symmetries fixing the start (`h`), and the whole group (`g`).
    h: Transforms<u64>,
    g: Transforms<u64>,
}

impl Game {
    fn new(board: &Board, start: u64) -> Game {
        let all: Vec<&Symmetry> = board.symmetries().iter().collect();
        let fixing: Vec<&Symmetry> = all
            .iter()
            .copied()
            .filter(|s| board.transform(s, start as u128) == start as u128)
            .collect();
        let jumps = board.jumps().iter().map(|j| {
            let fo = 1u64 << j.from | 1u64 << j.over;
            (fo | 1u64 << j.to, fo)
        });
        Game {
            jumps: jumps.collect(),
            h: Transforms::new(&fixing, board.holes()),
            g: Transforms::new(&all, board.holes()),
        }
    }

    fn children(&self, p: u64) -> impl Iterator<Item = u64> + '_ {
        self.jumps
            .iter()
            .filter(move |&&(all, fo)| p & all == fo)
            .map(move |&(all, _)| p ^ all)
    }
}

fn add(a: u128, b: u128) -> u128 {
    a.checked_add(b).expect("count overflows u128")
}

fn add2(a: (u128, u128), b: (u128, u128)) -> (u128, u128) {
    (add(a.0, b.0), add(a.1, b.1))
}

fn mul(m: u128, (games, wins): (u128, u128)) -> (u128, u128) {
    let mul = |x: u128| m.checked_mul(x).expect("count overflows u128");
    (mul(games), mul(wins))
}

/// Design (a): layer sweep, one DashMap per next layer, filled in parallel.
fn sweep_dashmap(game: &Game, start: u64) -> (u128, u128) {
    let mut current: Map<u128> = Map::default();
    current.insert(start, 1);
    let mut total = (0, 0);
    while !current.is_empty() {
        let next: Map<u128> = Map::default();
        let ended = current
            .into_par_iter()
            .map(|(p, m)| {
                let mut dead = true;
                for c in game.children(p) {
                    dead = false;
                    let mut slot = next.entry(game.h.canonical(c)).or_insert(0);
                    *slot = add(*slot, m);
                }
                match (dead, p.count_ones()) {
                    (false, _) => (0, 0),
                    (true, 1) => (m, m),
                    (true, _) => (m, 0),
                }
            })
            .reduce(|| (0, 0), add2);
        total = add2(total, ended);
        current = next;
    }
    total
}

/// W(p) for `p` canonical under the whole group.
fn dfs(game: &Game, memo: &Map<(u128, u128)>, p: u64) -> (u128, u128) {
    if let Some(w) = memo.get(&p) {
        return *w;
    }
    let mut w = (0, 0);
    let mut dead = true;
    for c in game.children(p) {
        dead = false;
        w = add2(w, dfs(game, memo, game.g.canonical(c)));
    }
    if dead {
        return (1, u128::from(p.count_ones() == 1));
    }
    memo.insert(p, w);
    w
}

/// Design (b): expand `depth` layers (orbits under the whole group, with the number of
/// sequences into each orbit), then run the memoized DFS on each frontier orbit in parallel.
fn memo_dfs(game: &Game, start: u64, depth: usize) -> ((u128, u128), usize) {
    let mut frontier: HashMap<u64, u128> = HashMap::from([(game.g.canonical(start), 1)]);
    for _ in 0..depth {
        let mut next = HashMap::new();
        for (&p, &m) in &frontier {
            let mut dead = true;
            for c in game.children(p) {
                dead = false;
                let slot = next.entry(game.g.canonical(c)).or_insert(0);
                *slot = add(*slot, m);
            }
            if dead {
                let slot = next.entry(p).or_insert(0); // a dead end keeps its place
                *slot = add(*slot, m);
            }
        }
        frontier = next;
    }
    let units: Vec<(u64, u128)> = frontier.into_iter().collect();
    let memo: Map<(u128, u128)> = Map::default();
    let total = units
        .par_iter()
        .with_max_len(1)
        .map(|&(p, m)| mul(m, dfs(game, &memo, p)))
        .reduce(|| (0, 0), add2);
    (total, units.len())
}

fn watchdog(limit_secs: u64, limit_mem: u64, design: String) {
    let clock = Instant::now();
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(Duration::from_millis(100));
            let rss = peak_rss().unwrap_or(0);
            if clock.elapsed().as_secs() >= limit_secs || rss >= limit_mem {
                println!(
                    "{design:8} STOPPED after {:.1} s at peak RSS {} (limits {limit_secs} s, {})",
                    clock.elapsed().as_secs_f64(),
                    human(rss),
                    human(limit_mem)
                );
                std::process::exit(3);
            }
        }
    });
}

fn option(args: &[String], name: &str, default: &str) -> String {
    let at = args.iter().position(|a| a == name);
    at.map_or(default.into(), |i| args[i + 1].clone())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = args.first().cloned().unwrap_or_else(|| "english".into());
    let only = option(&args, "--only", "");
    if only.is_empty() {
        // Parent: one child process per design, then compare their answers.
        let mut answers = Vec::new();
        for design in DESIGNS {
            let out = Command::new(std::env::current_exe().unwrap())
                .args(&args)
                .args(["--only", design])
                .output()
                .expect("cannot run a child");
            let text = String::from_utf8_lossy(&out.stdout);
            print!("{text}");
            let tokens: Vec<&str> = text.split_whitespace().collect();
            let after = |w: &str| {
                let at = tokens.iter().position(|t| *t == w);
                at.map(|i| tokens[i + 1].to_string())
            };
            if out.status.success() {
                answers.push((after("games"), after("wins")));
            }
        }
        assert!(answers.windows(2).all(|w| w[0] == w[1]), "designs disagree");
        println!(
            "games and wins agree across {} finished designs",
            answers.len()
        );
        return;
    }
    let threads: usize = option(&args, "--threads", "0").parse().unwrap();
    let depth: usize = option(&args, "--depth", "4").parse().unwrap();
    let limit_secs: u64 = option(&args, "--limit-secs", "300").parse().unwrap();
    let limit_mem = pegsol::memory::parse(&option(&args, "--limit-mem", "6G")).unwrap();
    let board = Board::from_spec(&spec).expect("board");
    assert!(board.holes() <= 64, "the designs use u64 positions");
    let start = board.default_start();
    let game = Game::new(&board, start as u64);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    watchdog(limit_secs, limit_mem, only.clone());
    let clock = Instant::now();
    let (result, note) = pool.install(|| match only.as_str() {
        "engine" => {
            let opts = CountOptions {
                threads,
                ..CountOptions::default()
            };
            let c = count(&board, start, &opts).expect("engine");
            let fits = |t: pegsol::total::Total| t.to_u128().expect("english's counts fit u128");
            ((fits(c.games()), fits(c.wins())), String::new())
        }
        "dashmap" => (sweep_dashmap(&game, start as u64), String::new()),
        "dfs" => {
            let (result, units) = memo_dfs(&game, start as u64, depth);
            (result, format!("  ({units} units at depth {depth})"))
        }
        other => panic!("unknown design {other}; one of {DESIGNS:?}"),
    });
    println!(
        "{only:8} games {} wins {}  wall {:.2} s  peak RSS {}  threads {}{note}",
        result.0,
        result.1,
        clock.elapsed().as_secs_f64(),
        peak_rss().map_or("unknown".into(), human),
        pool.current_num_threads()
    );
    if let Some(&(_, games, wins)) = KNOWN.iter().find(|k| k.0 == spec) {
        assert_eq!(
            result,
            (games, wins),
            "{only} disagrees with the engine on {spec}"
        );
    }
}
