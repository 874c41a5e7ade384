//! The exporter of a count, kept apart from the computation: the readable summary and the
//! four CSV files of the `count` contract (written through [`crate::output::files`]).
//!
//! CSV contract (columns in this order; later columns may be added at the end):
//! - `summary.csv`: [`SUMMARY_HEADER`]
//! - `pegs_left.csv`: [`PEGS_LEFT_HEADER`]
//! - `finish.csv`: [`FINISH_HEADER`]
//! - `depth.csv`: [`DEPTH_HEADER`]
//!
//! With the random player (`count --random`, [`random_files`]): `summary.csv` gains
//! [`RANDOM_SUMMARY_COLUMNS`] at its end, and `random.csv` and `random_finish.csv` come
//! beside the four.

use crate::count::random::{self, Odds, QuickestLoss};
use crate::count::stats::Counts;
use crate::error::Result;
use crate::output::files::csv_bytes;
use thousands::Separable;

/// Columns of `summary.csv`.
pub const SUMMARY_HEADER: &[&str] = &[
    "board",
    "start",
    "positions",
    "positions_reduced",
    "games",
    "wins",
    "max_dead_end_pegs",
    "max_dead_end_games",
    "shortest_game_jumps",
    "shortest_game_games",
];
/// Columns of `pegs_left.csv`.
pub const PEGS_LEFT_HEADER: &[&str] = &["board", "start", "pegs_left", "games"];
/// Columns of `finish.csv`.
pub const FINISH_HEADER: &[&str] = &["board", "start", "finish", "wins"];
/// Columns of `depth.csv`.
pub const DEPTH_HEADER: &[&str] = &[
    "board",
    "start",
    "jumps",
    "positions",
    "positions_reduced",
    "games_ended",
    "dead_ends",
];

/// The four CSV files' rows for one count (no header). Rows with a zero count are left out,
/// except the one summary row.
pub struct CsvRows {
    /// The one row of `summary.csv` ([`SUMMARY_HEADER`]).
    pub summary: Vec<String>,
    /// The rows of `pegs_left.csv` ([`PEGS_LEFT_HEADER`]), one per number of pegs left.
    pub pegs_left: Vec<Vec<String>>,
    /// The rows of `finish.csv` ([`FINISH_HEADER`]), one per finishing hole of a win.
    pub finish: Vec<Vec<String>>,
    /// The rows of `depth.csv` ([`DEPTH_HEADER`]), one per number of jumps.
    pub depth: Vec<Vec<String>>,
}

impl CsvRows {
    /// The rows of one count.
    ///
    /// ```
    /// use pegsol::{count::{count, CountOptions}, geometry::Board};
    /// let b = Board::from_spec("tri:5").unwrap();
    /// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
    /// let rows = pegsol::count::export::CsvRows::of(&c);
    /// let summary = ["tri:5", "a1", "3016", "1544", "568630", "29760", "8", "2", "6", "2"];
    /// assert_eq!(rows.summary, summary); // published: 568,630 games, 29,760 wins
    /// assert_eq!(rows.pegs_left[0], ["tri:5", "a1", "1", "29760"]);
    /// assert_eq!(rows.finish[0], ["tri:5", "a1", "a1", "6816"]);
    /// assert_eq!(rows.depth[0], ["tri:5", "a1", "0", "1", "1", "0", "0"]);
    /// ```
    pub fn of(c: &Counts) -> CsvRows {
        let key = |rest: Vec<String>| {
            let mut row = vec![c.board.clone(), c.start.clone()];
            row.extend(rest);
            row
        };
        let (max_pegs, max_games) = c.max_dead_end();
        let (short_jumps, short_games) = c.shortest_game();
        CsvRows {
            summary: key(vec![
                c.positions().to_string(),
                c.positions_reduced().to_string(),
                c.games().to_string(),
                c.wins().to_string(),
                max_pegs.to_string(),
                max_games.to_string(),
                short_jumps.to_string(),
                short_games.to_string(),
            ]),
            pegs_left: c
                .pegs_left()
                .into_iter()
                .map(|(p, g)| key(vec![p.to_string(), g.to_string()]))
                .collect(),
            finish: c
                .finish
                .iter()
                .map(|(h, w)| key(vec![h.clone(), w.to_string()]))
                .collect(),
            depth: c
                .layers
                .iter()
                .map(|l| {
                    key(vec![
                        l.jumps.to_string(),
                        l.positions.to_string(),
                        l.positions_reduced.to_string(),
                        l.games_ended.to_string(),
                        l.dead_ends.to_string(),
                    ])
                })
                .collect(),
        }
    }
}

/// The names of the four files of `pegsol count --csv`, in [`count_files`]' order.
pub const COUNT_FILES: [&str; 4] = ["summary.csv", "pegs_left.csv", "finish.csv", "depth.csv"];

/// The four files of `pegsol count --csv` for one or more counts, as (file name, bytes).
///
/// ```
/// use pegsol::{count::{count, CountOptions}, geometry::Board};
/// let b = Board::from_spec("tri:5").unwrap();
/// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
/// let files = pegsol::count::export::count_files(&[c]).unwrap();
/// let names: Vec<&str> = files.iter().map(|f| f.0).collect();
/// assert_eq!(names, ["summary.csv", "pegs_left.csv", "finish.csv", "depth.csv"]);
/// assert_eq!(names, pegsol::count::export::COUNT_FILES);
/// let summary = String::from_utf8(files[0].1.clone()).unwrap();
/// assert!(summary.ends_with("\ntri:5,a1,3016,1544,568630,29760,8,2,6,2\n"));
/// ```
pub fn count_files(counts: &[Counts]) -> Result<Vec<(&'static str, Vec<u8>)>> {
    let rows: Vec<CsvRows> = counts.iter().map(CsvRows::of).collect();
    let summary: Vec<Vec<String>> = rows.iter().map(|r| r.summary.clone()).collect();
    let gather = |f: fn(&CsvRows) -> &Vec<Vec<String>>| -> Vec<Vec<String>> {
        rows.iter().flat_map(|r| f(r).iter().cloned()).collect()
    };
    Ok(vec![
        ("summary.csv", csv_bytes(SUMMARY_HEADER, &summary)?),
        (
            "pegs_left.csv",
            csv_bytes(PEGS_LEFT_HEADER, &gather(|r| &r.pegs_left))?,
        ),
        (
            "finish.csv",
            csv_bytes(FINISH_HEADER, &gather(|r| &r.finish))?,
        ),
        ("depth.csv", csv_bytes(DEPTH_HEADER, &gather(|r| &r.depth))?),
    ])
}

/// The readable summary `pegsol count` prints, numbers with thousands separators.
///
/// ```
/// use pegsol::{count::{count, CountOptions}, geometry::Board};
/// let b = Board::from_spec("tri:5").unwrap();
/// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
/// let text = pegsol::count::export::summary_text(&c);
/// assert!(text.starts_with("board tri:5, start a1 (15 holes, 14 pegs)\n"));
/// assert!(text.contains("games               568,630\n")); // published
/// assert!(text.contains("wins                29,760\n"));
/// ```
pub fn summary_text(c: &Counts) -> String {
    let (max_pegs, max_games) = c.max_dead_end();
    let (short_jumps, short_games) = c.shortest_game();
    let mut out = format!(
        "board {}, start {} ({} holes, {} pegs)\n\
         positions           {}\n\
         positions_reduced   {}\n\
         games               {}\n\
         wins                {}\n\
         most pegs left      {} ({} games)\n\
         shortest game       {} jumps ({} games)\n",
        c.board,
        c.start,
        c.holes,
        c.start_pegs,
        c.positions().separate_with_commas(),
        c.positions_reduced().separate_with_commas(),
        c.games().separate_with_commas(),
        c.wins().separate_with_commas(),
        max_pegs,
        max_games.separate_with_commas(),
        short_jumps,
        short_games.separate_with_commas(),
    );
    out.push_str("games by pegs left:\n");
    for (pegs, games) in c.pegs_left() {
        out.push_str(&format!("  {pegs:>3}  {}\n", games.separate_with_commas()));
    }
    if !c.finish.is_empty() {
        out.push_str("wins by finishing hole:\n");
        for (hole, wins) in &c.finish {
            out.push_str(&format!("  {hole:>4}  {}\n", wins.separate_with_commas()));
        }
    }
    out
}

/// The columns `summary.csv` gains at its end with the random player ([`random_files`]).
pub const RANDOM_SUMMARY_COLUMNS: &[&str] = &[
    "random_win_probability",
    "random_expected_pegs",
    "quickest_loss_jumps",
    "quickest_loss_sequences",
];

/// The names of the files of `pegsol count --csv --random`, in [`random_files`]' order.
pub const RANDOM_FILES: [&str; 6] = [
    "summary.csv",
    "pegs_left.csv",
    "finish.csv",
    "depth.csv",
    "random.csv",
    "random_finish.csv",
];

/// The files of `pegsol count --csv --random` for one or more counts, each with its random
/// player's odds and quickest loss: [`count_files`] with [`RANDOM_SUMMARY_COLUMNS`] at the
/// end of `summary.csv`, then `random.csv` and `random_finish.csv`.
///
/// ```
/// use pegsol::{count::{count, CountOptions}, geometry::Board};
/// use pegsol::count::random::{random_player, quickest_loss};
/// use pegsol::analysis::solvable::{Finish, SolveOptions};
/// let b = Board::from_spec("tri:5").unwrap();
/// let c = count(&b, b.default_start(), &CountOptions::default()).unwrap();
/// let odds = random_player(&b, b.default_start(), &Default::default()).unwrap();
/// let quick = quickest_loss(&b, b.default_start(), Finish::Any, &SolveOptions::default()).unwrap();
/// let files = pegsol::count::export::random_files(&[c], &[(odds, quick)]).unwrap();
/// let names: Vec<&str> = files.iter().map(|f| f.0).collect();
/// assert_eq!(names, pegsol::count::export::RANDOM_FILES);
/// let summary = String::from_utf8(files[0].1.clone()).unwrap();
/// assert!(summary.starts_with("board,start,positions,"));
/// assert!(summary.lines().next().unwrap().ends_with(",quickest_loss_sequences"));
/// ```
pub fn random_files(
    counts: &[Counts],
    odds: &[(Odds, QuickestLoss)],
) -> Result<Vec<(&'static str, Vec<u8>)>> {
    let mut files = count_files(counts)?;
    let mut header = SUMMARY_HEADER.to_vec();
    header.extend_from_slice(RANDOM_SUMMARY_COLUMNS);
    let summary: Vec<Vec<String>> = counts
        .iter()
        .zip(odds)
        .map(|(c, (o, q))| {
            let mut row = CsvRows::of(c).summary;
            row.push(o.win.decimal());
            row.push(o.expected_pegs.decimal());
            row.extend(q.cells());
            row
        })
        .collect();
    files[0].1 = csv_bytes(&header, &summary)?;
    let (mut pegs, mut finish) = (Vec::new(), Vec::new());
    for (o, _) in odds {
        let (p, f) = random::csv_rows(o);
        pegs.extend(p);
        finish.extend(f);
    }
    files.push(("random.csv", csv_bytes(random::RANDOM_HEADER, &pegs)?));
    files.push((
        "random_finish.csv",
        csv_bytes(random::RANDOM_FINISH_HEADER, &finish)?,
    ));
    Ok(files)
}
