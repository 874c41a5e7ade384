//! Running a batch: sweeps counted in turn, the table saved after each, its summary text.

use super::groups::{Group, group_sweeps, relabel};
use super::model::{CLASS_SIZE_COLUMN, Entry, Format, Table, summary_header};
use super::plan::{Key, Pair};
use super::prepare::{boards_of, check_class_sizes, check_start_classes, open_table, pending};
use crate::analysis::solvable::{Finish, SolveOptions};
use crate::count::cluster::Cluster;
use crate::count::disk;
use crate::count::random::{self, Odds, QuickestLoss};
use crate::count::sweep::{self, CountOptions};
use crate::error::Result;
use crate::geometry::board::Board;
use crate::memory;
use crate::observe;
use crate::total::Total;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The git commit pegsol was built from (`-dirty` when its sources, `src/`, `build.rs`,
/// `Cargo.toml` or `Cargo.lock`, had changes), or `unknown` outside a git checkout.
///
/// ```
/// let c = pegsol::count::table::git_commit();
/// let hash = c.trim_end_matches("-dirty");
/// assert!(c == "unknown" || (hash.len() == 40 && hash.chars().all(|x| x.is_ascii_hexdigit())));
/// ```
pub fn git_commit() -> &'static str {
    option_env!("PEGSOL_GIT_COMMIT").unwrap_or("unknown")
}

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// Worker threads (0 = one per core).
    pub threads: usize,
    /// Memory budget of each count.
    pub max_memory: u64,
    /// Report progress to the installed observer ([`crate::observe`]): on the command
    /// line, progress bars on stderr when it is a terminal.
    pub progress: bool,
    /// Where the table lives (None: keep it in memory only).
    pub dir: Option<std::path::PathBuf>,
    /// File format in `dir`.
    pub format: Format,
    /// The command line, recorded in runs.csv.
    pub command: String,
    /// Where sweeps keep their layers on disk ([`CountOptions::work_dir`]).
    pub work_dir: Option<std::path::PathBuf>,
    /// Keep each sweep's folder in the work directory.
    pub keep_work: bool,
    /// The most disk the layer files may take.
    pub max_disk: Option<u64>,
    /// The ranks sharing each sweep ([`CountOptions::cluster`]); rank 0 alone reads and
    /// writes the table.
    pub cluster: Cluster,
    /// Set to stop the batch with [`Error::Interrupted`] at the next batch of work, every
    /// finished pair saved (`pegsol table` sets it on Ctrl-C and SIGTERM; the library
    /// installs no signal handler of its own).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// What a batch did.
#[derive(Debug)]
pub struct BatchReport {
    /// The table after the batch (all pairs, earlier runs' included).
    pub table: Table,
    /// Pairs computed by this run.
    pub computed: usize,
    /// Pairs found complete and skipped.
    pub skipped: usize,
    /// The peak resident memory of this run, in bytes (the largest of the pairs' peaks:
    /// the peak is reset before each pair, see [`memory::reset_peak_rss`]).
    pub peak_bytes: Option<u64>,
}

/// Runs the pairs of `plan` not yet in the table stored in `opts.dir`, saving the table
/// after each sweep. Returns [`Error::Interrupted`] once `opts.cancel` is set, with every
/// pair finished so far saved.
///
/// ```
/// use pegsol::count::table::{self, BatchOptions, Format};
/// let dir = tempfile::tempdir().unwrap();
/// let plan = table::plan(&["tri:5".into()], &[]).unwrap();
/// let opts = BatchOptions {
///     threads: 1,
///     max_memory: pegsol::memory::default_budget(),
///     progress: false,
///     dir: Some(dir.path().to_path_buf()),
///     format: Format::Csv,
///     command: String::new(),
///     work_dir: None,
///     keep_work: false,
///     max_disk: None,
///     cluster: Default::default(),
///     cancel: None,
/// };
/// let first = table::run_batch(&plan, &opts).unwrap();
/// assert_eq!((first.computed, first.skipped), (4, 0));
/// assert_eq!(first.table.entries.values().next().unwrap().summary[3], "29760"); // a1, published
/// let again = table::run_batch(&plan, &opts).unwrap(); // resumed: nothing left to do
/// assert_eq!((again.computed, again.skipped), (0, 4));
/// assert_eq!(again.table, first.table);
/// ```
pub fn run_batch(plan: &[Pair], opts: &BatchOptions) -> Result<BatchReport> {
    run_batch_with_random(plan, opts, false)
}

/// [`run_batch`], and with `random` the random player's odds and the quickest loss of every
/// pair too (`table --random`): exact fractions on boards of up to
/// [`random::EXACT_HOLES`] holes, elsewhere a sweep of the engine carrying masses from
/// each pair's start ([`crate::count::sweep::Weight::Random`]): the rows of
/// `count --random`. Pairs already in the table without them are counted again.
///
/// ```
/// # use pegsol::count::table::{self, BatchOptions, Format};
/// # let opts = BatchOptions {
/// #     threads: 1,
/// #     max_memory: pegsol::memory::default_budget(),
/// #     progress: false,
/// #     dir: None,
/// #     format: Format::Csv,
/// #     command: String::new(),
/// #     work_dir: None,
/// #     keep_work: false,
/// #     max_disk: None,
/// #     cluster: Default::default(),
/// #     cancel: None,
/// # };
/// let plan = table::plan(&["tri:5".into()], &[]).unwrap();
/// let t = table::run_batch_with_random(&plan, &opts, true).unwrap().table;
/// let a1 = &t.entries[&table::Key::new("tri:5", "a1")];
/// assert_eq!(a1.random_summary[..1], ["0.00686175588768131"]); // 1 in 146, exact
/// ```
pub fn run_batch_with_random(
    plan: &[Pair],
    opts: &BatchOptions,
    random: bool,
) -> Result<BatchReport> {
    let first = opts.cluster.rank() == 0;
    let (mut table, _lock) = open_table(opts, first)?;
    let boards = boards_of(plan, &table, opts)?;
    check_class_sizes(plan, &table, opts)?;
    let todo = pending(plan, &table, opts, random);
    let skipped = plan.len() - todo.len();
    let bar = observe::meter(todo.len() as u64, "pairs", opts.progress);
    let mut computed = 0;
    let mut peak_bytes = memory::peak_rss();
    for (of, board) in &boards {
        let pairs: Vec<&Pair> = todo.iter().copied().filter(|p| p.spec == of.spec).collect();
        if pairs.is_empty() {
            continue;
        }
        check_start_classes(board, &pairs, &table, opts).inspect_err(|_| bar.abandon())?;
        for group in group_sweeps(board, &pairs) {
            crate::error::interrupted(opts.cancel.as_deref()).inspect_err(|_| bar.abandon())?;
            let names: Vec<&str> = group
                .members
                .iter()
                .map(|m| m.pair.start.as_str())
                .collect();
            bar.message(format!("{} from {}", board.name(), names.join(", ")));
            let (peak, work) = sweep_group(board, &group, opts, random, &mut table)
                .inspect_err(|_| bar.abandon())?;
            peak_bytes = peak_bytes.max(peak);
            if let Some(dir) = &opts.dir
                && first
            {
                table.save(dir, opts.format)?;
            }
            if let Some(work) = work {
                disk::remove_work(&work)?;
            }
            computed += group.members.len();
            bar.inc(group.members.len() as u64);
        }
    }
    bar.finish();
    Ok(BatchReport {
        table,
        computed,
        skipped,
        peak_bytes: peak_bytes.max(memory::peak_rss()),
    })
}
/// Sweeps the starts of `group` together and puts a row per member into `table`. Returns
/// the sweep's peak memory (earlier processes' included, when it resumed) and the folder
/// of its layers, left for the caller to remove once the table is saved.
fn sweep_group(
    board: &Board,
    group: &Group,
    opts: &BatchOptions,
    random: bool,
    table: &mut Table,
) -> Result<(Option<u64>, Option<PathBuf>)> {
    let count_opts = CountOptions {
        threads: opts.threads,
        max_memory: opts.max_memory,
        progress: opts.progress,
        cancel: opts.cancel.clone(),
        work_dir: opts.work_dir.clone(),
        keep_work: opts.keep_work,
        max_disk: opts.max_disk,
        cluster: opts.cluster,
        stop_at_dead_end: false,
        // The sweep's layers stay until its pairs are saved (one process only:
        // ranks do not wait for rank 0's files).
        defer_cleanup: opts.dir.is_some() && opts.cluster.size() == 1,
    };
    memory::reset_peak_rss();
    let clock = Instant::now();
    let starts: Vec<_> = group
        .starts
        .iter()
        .map(|&h| board.start_with_empty(&[h]))
        .collect();
    let done = sweep::sweep_many(board, &starts, &count_opts)?;
    let (counts, before, work) = (done.counts, done.before, done.work);
    let mut odds = if random {
        random_odds(board, group, &count_opts)?
    } else {
        Vec::new()
    };
    // A sweep resumed from a checkpoint adds what its earlier processes spent.
    let secs = clock.elapsed().as_secs_f64() + before.millis as f64 / 1e3;
    let peak = memory::peak_rss().max((before.peak_rss > 0).then_some(before.peak_rss));
    let swept: Vec<String> = group.starts.iter().map(|&h| board.hole_name(h)).collect();
    let run = vec![
        env!("CARGO_PKG_VERSION").to_string(),
        git_commit().to_string(),
        humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        crate::pool::threads(opts.threads).to_string(),
        format!("{secs:.3}"),
        peak.map_or("unknown".into(), |b| b.to_string()),
        opts.command.clone(),
        swept.join(" "),
        board.geometry(),
    ];
    for (i, m) in group.members.iter().enumerate() {
        let counts = relabel(board, &counts[m.slot], m.pair.hole, m.symmetry);
        let mut entry = Entry::new(&counts, m.pair.class_size, run.clone());
        if let Some((odds, quick)) = odds.get_mut(i).and_then(Option::take) {
            entry = entry.with_random(&odds, &quick);
        }
        table
            .entries
            .insert(Key::new(&m.pair.board, &m.pair.start), entry);
    }
    Ok((peak, work))
}

/// The random player's odds and the quickest loss of each member of `group`, in order,
/// as `count --random` gives them from the pair's start: exact fractions on boards of up to
/// [`random::EXACT_HOLES`] holes; elsewhere a sweep of the engine carrying masses from that
/// start alone, run as `opts` runs the count. One start at a time, not the group's starts
/// together: the floors of a fixed-point sweep depend on the orbits it merges, which
/// depend on the starts swept together, and so a table's rows are the same bytes as
/// `count --random`'s. None on ranks other than 0, which write nothing (every rank takes
/// part in the sweeps).
fn random_odds(
    board: &Board,
    group: &Group,
    opts: &CountOptions,
) -> Result<Vec<Option<(Odds, QuickestLoss)>>> {
    let first = opts.cluster.rank() == 0;
    let solve = SolveOptions {
        threads: opts.threads,
        max_memory: opts.max_memory,
        progress: false,
        reachable: false,
        cancel: opts.cancel.clone(),
    };
    let mut out = Vec::new();
    for m in &group.members {
        let start = board.start_with_empty(&[m.pair.hole]);
        // The quickest loss first: it takes seconds to minutes, the random player's sweep
        // of a large board an hour or more, whose result a later failure would lose.
        let quick = if first {
            Some(random::quickest_loss(board, start, Finish::Any, &solve)?)
        } else {
            None
        };
        let odds = if board.holes() > random::EXACT_HOLES {
            let mut odds = random::engine_odds(board, &[start], opts)?;
            odds.pop().expect("one start, one result")
        } else if first {
            random::random_player(board, start, opts)?
        } else {
            out.push(None);
            continue;
        };
        out.push(quick.map(|quick| (odds, quick)));
    }
    Ok(out)
}

/// Quotes a command line for the shell, so it can be pasted back.
///
/// ```
/// let c = pegsol::count::table::shell_words(&["pegsol".into(), "--csv".into(), "my dir".into()]);
/// assert_eq!(c, "pegsol --csv 'my dir'");
/// ```
pub fn shell_words(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The readable table `pegsol table` prints: the pairs of `plan`, one line each, then per
/// board the totals over all its starts (each class weighted by its size) when the plan
/// covers every class.
///
/// ```
/// # use pegsol::count::table::{self, BatchOptions, Format};
/// # let plan = table::plan(&["tri:5".into()], &[]).unwrap();
/// # let opts = BatchOptions {
/// #     threads: 1,
/// #     max_memory: pegsol::memory::default_budget(),
/// #     progress: false,
/// #     dir: None,
/// #     format: Format::Csv,
/// #     command: String::new(),
/// #     work_dir: None,
/// #     keep_work: false,
/// #     max_disk: None,
/// #     cluster: Default::default(),
/// #     cancel: None,
/// # };
/// # let t = table::run_batch(&plan, &opts).unwrap().table; // tri:5, its four start classes
/// // `t`: a table of tri:5 from each of its four start classes.
/// let text = table::summary_text(&t, &plan);
/// let last: Vec<&str> = text.lines().last().unwrap().split_whitespace().collect();
/// assert_eq!(last, ["tri:5", "all", "15", "7,335,390", "438,984"]); // published
/// ```
pub fn summary_text(table: &Table, plan: &[Pair]) -> String {
    use thousands::Separable;
    let header = summary_header();
    let col = |name: &str| header.iter().position(|h| *h == name).expect("column") - 2;
    let (games, wins, size) = (col("games"), col("wins"), col(CLASS_SIZE_COLUMN));
    // Rows of (board, start, class, games, wins), laid out once all are known.
    let mut rows: Vec<[String; 5]> = Vec::new();
    // Per board (name, spec): holes covered, then games and wins weighted by class size
    // (None past 256 bits).
    type Sums<'a> = (&'a str, &'a str, usize, Option<Total>, Option<Total>);
    let mut totals: Vec<Sums> = Vec::new();
    let text = |n: Option<Total>| n.map_or("2^256 or more".into(), |n| n.separate_with_commas());
    for p in plan {
        let Some(e) = table.entries.get(&Key::new(&p.board, &p.start)) else {
            continue;
        };
        // Loaded tables hold whole numbers only (`check_counts`).
        let g: Total = e.summary[games].parse().unwrap_or_default();
        let w: Total = e.summary[wins].parse().unwrap_or_default();
        let s: usize = e.summary[size].parse().unwrap_or(0);
        rows.push([
            p.board.clone(),
            p.start.clone(),
            s.to_string(),
            g.separate_with_commas(),
            w.separate_with_commas(),
        ]);
        let weigh = |n: Total| n.times(s as u64).ok();
        let add = |a: Option<Total>, b: Option<Total>| a?.plus(b?).ok();
        match totals.last_mut() {
            Some(t) if t.1 == p.spec => {
                t.2 += s;
                t.3 = add(t.3, weigh(g));
                t.4 = add(t.4, weigh(w));
            }
            _ => totals.push((&p.board, &p.spec, s, weigh(g), weigh(w))),
        }
    }
    for (board, spec, holes, g, w) in totals {
        let complete = Board::from_spec(spec).is_ok_and(|b| b.holes() == holes);
        if complete {
            rows.push([
                board.into(),
                "all".into(),
                holes.to_string(),
                text(g),
                text(w),
            ]);
        }
    }
    // Columns as wide as their widest figure (games past 2^128 take 51 characters).
    let width = |i: usize, least: usize| rows.iter().map(|r| r[i].len()).fold(least, usize::max);
    let (gw, ww) = (width(3, 30), width(4, 26));
    let line = |r: [&str; 5]| {
        format!(
            "{:<10} {:<6} {:>5} {:>gw$} {:>ww$}\n",
            r[0], r[1], r[2], r[3], r[4]
        )
    };
    let mut out = line(["board", "start", "class", "games", "wins"]);
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4]]));
    }
    out
}
