//! How hard each board is (issue 67): `hardness.svg` and `hardness.md`, drawn from the
//! random player's columns of the table's summary (`random_win_probability`,
//! `random_expected_pegs`, `quickest_loss_jumps`, `quickest_loss_sequences`, written by
//! `table --random` as by `count --random --csv`) beside its wins and games. Pairs without
//! those columns (or with them empty) are left out; with none, neither file is written.

use super::{rows, share};
use crate::count::export::RANDOM_SUMMARY_COLUMNS;
use crate::count::table::{Format, JSON_FILE, Key, Table};
use crate::error::{Error, Result};
use crate::geometry::board::MAX_HOLES;
use crate::output::plot::{self, HardnessRow, one_in, significant};
use crate::total::Total;
use std::collections::BTreeMap;
use std::path::Path;

/// The files written when the table has the random player's columns.
pub const HARDNESS_FILES: [&str; 2] = ["hardness.svg", "hardness.md"];

/// One start class: its counts from the table and the random player's figures as the
/// summary gives them (decimal text, checked to be numbers).
#[derive(Clone, Debug, PartialEq)]
pub struct Hardness {
    /// Board and start.
    pub board: String,
    /// The start hole standing for the class.
    pub start: String,
    /// Holes of the class.
    pub class_size: usize,
    /// Wins and games from the start.
    pub wins: Total,
    /// Games from the start.
    pub games: Total,
    /// The random player's probability of ending with one peg.
    pub random_win: f64,
    /// The expected number of pegs it leaves.
    pub expected_pegs: f64,
    /// The quickest loss.
    pub quickest_loss: Loss,
}

/// The quickest loss as the summary gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// Every game wins (both cells empty).
    Never,
    /// The fewest jumps after which no win is possible, and the jump sequences of that
    /// length that get there.
    After(usize, Total),
    /// Not settled within the run's memory: no game is lost in fewer jumps than this
    /// (`>=N`, the sequences empty).
    AtLeast(usize),
}

/// The random player's four cells of one pair, by column name.
type Cells = BTreeMap<String, String>;

/// `hardness.svg` and `hardness.md` for the boards `all` of `table` (read from `dir` as
/// `format`), or nothing when no pair has the random player's columns.
pub(super) fn files(
    dir: &Path,
    format: Format,
    table: &Table,
    all: &[String],
) -> Result<Vec<(String, Vec<u8>)>> {
    let rows = hardness_rows(&random_cells(dir, format)?, table, all)?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let chart: Vec<HardnessRow> = rows
        .iter()
        .map(|r| HardnessRow {
            board: r.board.clone(),
            start: r.start.clone(),
            class_size: r.class_size,
            win_share: ratio(r.wins, r.games),
            random_win: r.random_win,
        })
        .collect();
    Ok(vec![
        (
            HARDNESS_FILES[0].into(),
            plot::hardness_chart(&chart).into_bytes(),
        ),
        (HARDNESS_FILES[1].into(), hardness_md(&rows).into_bytes()),
    ])
}

/// wins / games as a float (0 for no games), for drawing.
fn ratio(wins: Total, games: Total) -> f64 {
    if games.is_zero() {
        0.0
    } else {
        wins.to_f64() / games.to_f64()
    }
}

/// The random player's cells of every pair of the table in `dir` that has them: from
/// summary.csv's columns by name, or from table.json's summaries.
fn random_cells(dir: &Path, format: Format) -> Result<BTreeMap<Key, Cells>> {
    match format {
        Format::Csv => csv_cells(&dir.join("summary.csv")),
        Format::Json => json_cells(&dir.join(JSON_FILE)),
    }
}

fn csv_cells(path: &Path) -> Result<BTreeMap<Key, Cells>> {
    let bad =
        |e: &dyn std::fmt::Display| Error::input(format!("cannot read {}: {e}", path.display()));
    let mut reader = csv::Reader::from_path(path).map_err(|e| bad(&e))?;
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| bad(&e))?
        .iter()
        .map(str::to_string)
        .collect();
    let at = |name: &str| header.iter().position(|h| h == name);
    let columns: Vec<(&str, usize)> = RANDOM_SUMMARY_COLUMNS
        .iter()
        .filter_map(|c| Some((*c, at(c)?)))
        .collect();
    let mut out = BTreeMap::new();
    if columns.is_empty() {
        return Ok(out);
    }
    for rec in reader.records() {
        let rec = rec.map_err(|e| bad(&e))?;
        let cell = |i: usize| rec.get(i).unwrap_or("").to_string();
        let cells: Cells = columns
            .iter()
            .map(|(c, i)| (c.to_string(), cell(*i)))
            .collect();
        out.insert(Key::new(&cell(0), &cell(1)), cells);
    }
    Ok(out)
}

fn json_cells(path: &Path) -> Result<BTreeMap<Key, Cells>> {
    use serde_json::Value;
    let bad =
        |e: &dyn std::fmt::Display| Error::input(format!("cannot read {}: {e}", path.display()));
    let text = std::fs::read(path).map_err(|e| bad(&e))?;
    let doc: Value = serde_json::from_slice(&text).map_err(|e| bad(&e))?;
    let text_of = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    let mut out = BTreeMap::new();
    for pair in doc["pairs"].as_array().into_iter().flatten() {
        let summary = &pair["summary"];
        let cells: Cells = RANDOM_SUMMARY_COLUMNS
            .iter()
            .filter_map(|c| Some((c.to_string(), text_of(summary.get(c)?))))
            .collect();
        if !cells.is_empty() {
            let key = Key::new(&text_of(&pair["board"]), &text_of(&pair["start"]));
            out.insert(key, cells);
        }
    }
    Ok(out)
}

/// The rows of the hardness table: for each board of `all` in turn, each start class of
/// `table` whose random win probability in `cells` is not empty, its figures checked.
///
/// ```
/// # use pegsol::count::table::{self, BatchOptions, Format, Key};
/// # let plan = table::plan(&["tri:4".into()], &[]).unwrap();
/// # let opts = BatchOptions {
/// #     threads: 1, max_memory: pegsol::memory::default_budget(), progress: false, dir: None,
/// #     format: Format::Csv, command: String::new(), work_dir: None, keep_work: false,
/// #     max_disk: None, cluster: Default::default(), cancel: None,
/// # };
/// # let t = table::run_batch(&plan, &opts).unwrap().table;
/// use pegsol::count::report::{hardness_rows, Loss};
/// // `t`: a table of tri:4 from its three start classes, a1, a2 and b3.
/// let cells = [("random_win_probability", "0.25"), ("random_expected_pegs", "1.75"),
///     ("quickest_loss_jumps", "1"), ("quickest_loss_sequences", "2")];
/// let cells = cells.map(|(c, v)| (c.to_string(), v.to_string())).into();
/// let by_pair = [(Key::new("tri:4", "a2"), cells)].into();
/// let rows = hardness_rows(&by_pair, &t, &["tri:4".into()]).unwrap();
/// assert_eq!(rows.len(), 1); // a1 and b3 have no random columns: left out
/// assert_eq!((rows[0].start.as_str(), rows[0].class_size, rows[0].random_win), ("a2", 6, 0.25));
/// assert_eq!(rows[0].quickest_loss, Loss::After(1, 2.into()));
/// // A quickest loss the search did not settle within its memory: a bound.
/// let open = [("random_win_probability", "0.25"), ("random_expected_pegs", "1.75"),
///     ("quickest_loss_jumps", ">=2"), ("quickest_loss_sequences", "")];
/// let open = open.map(|(c, v)| (c.to_string(), v.to_string())).into();
/// let rows = hardness_rows(&[(Key::new("tri:4", "a2"), open)].into(), &t, &["tri:4".into()]);
/// assert_eq!(rows.unwrap()[0].quickest_loss, Loss::AtLeast(2));
/// ```
pub fn hardness_rows(
    cells: &BTreeMap<Key, BTreeMap<String, String>>,
    table: &Table,
    all: &[String],
) -> Result<Vec<Hardness>> {
    let mut out = Vec::new();
    for b in all {
        for r in rows(table, b)?.into_iter().filter(|r| r.start != "all") {
            let Some(c) = cells.get(&Key::new(b, &r.start)) else {
                continue;
            };
            let cell = |name: &str| c.get(name).map_or("", String::as_str);
            if cell("random_win_probability").is_empty() {
                continue;
            }
            let bad = |name: &str| {
                Error::input(format!(
                    "the table's summary: {name} of {b} from {} is '{}', not a {}",
                    r.start,
                    cell(name).escape_debug(),
                    match name {
                        "random_win_probability" => "probability (0 to 1)",
                        "random_expected_pegs" => "number of pegs",
                        _ => "count",
                    }
                ))
            };
            let number = |name: &str, max: f64| {
                let v: f64 = cell(name).parse().map_err(|_| bad(name))?;
                (0.0..=max)
                    .contains(&v)
                    .then_some(v)
                    .ok_or_else(|| bad(name))
            };
            let jumps = |j: &str| j.parse().map_err(|_| bad("quickest_loss_jumps"));
            let quickest_loss = match cell("quickest_loss_jumps") {
                "" => Loss::Never,
                j if j.starts_with(">=") => Loss::AtLeast(jumps(&j[2..])?),
                j => Loss::After(
                    jumps(j)?,
                    cell("quickest_loss_sequences")
                        .parse()
                        .map_err(|_| bad("quickest_loss_sequences"))?,
                ),
            };
            out.push(Hardness {
                random_win: number("random_win_probability", 1.0)?,
                expected_pegs: number("random_expected_pegs", MAX_HOLES as f64)?,
                quickest_loss,
                board: r.board,
                start: r.start,
                class_size: r.class_size,
                wins: r.wins,
                games: r.games,
            });
        }
    }
    Ok(out)
}

/// The lines of the markdown table (header, rule, one line per row), as README.md shows
/// them.
///
/// ```
/// use pegsol::count::report::{hardness_table, Hardness, Loss};
/// let row = Hardness {
///     board: "tri:5".into(), start: "a1".into(), class_size: 3,
///     wins: 29_760.into(), games: 568_630.into(),
///     random_win: 0.00686175588768131, expected_pegs: 3.91620035046678,
///     quickest_loss: Loss::After(3, 14.into()),
/// };
/// let open = Hardness { quickest_loss: Loss::AtLeast(11), ..row.clone() };
/// let table = hardness_table(&[row, open]);
/// assert_eq!(table.lines().nth(2), Some(
///     "| tri:5 | a1 | 3 | 5.2336% (1 in 19) | 0.006862 | 1 in 146 | 3.916 | 3 | 14 |"));
/// assert_eq!(table.lines().nth(3), Some(
///     "| tri:5 | a1 | 3 | 5.2336% (1 in 19) | 0.006862 | 1 in 146 | 3.916 | at least 11 (not settled) |  |"));
/// ```
pub fn hardness_table(rows: &[Hardness]) -> String {
    use thousands::Separable;
    let mut md = String::from(
        "| board | start | class size | share of games won | random player wins | 1 in N | expected pegs left | quickest loss (jumps) | sequences |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let (jumps, sequences) = match r.quickest_loss {
            Loss::Never => ("none (every game wins)".to_string(), String::new()),
            Loss::After(0, n) => ("0 (no win)".to_string(), n.separate_with_commas()),
            Loss::After(j, n) => (j.to_string(), n.separate_with_commas()),
            Loss::AtLeast(j) => (format!("at least {j} (not settled)"), String::new()),
        };
        md.push_str(&format!(
            "| {} | {} | {} | {}% ({}) | {} | {} | {:.3} | {jumps} | {sequences} |\n",
            r.board,
            r.start,
            r.class_size,
            share(r.wins, r.games),
            one_in(ratio(r.wins, r.games)),
            significant(r.random_win),
            one_in(r.random_win),
            r.expected_pegs,
        ));
    }
    md
}

/// `hardness.md`: a title, what the columns mean, and [`hardness_table`].
fn hardness_md(rows: &[Hardness]) -> String {
    format!(
        "# How hard is each board?\n\nGenerated by `pegsol report DIR` from the table's \
         summary (its random player's columns); do not edit. Per start class: the share of \
         all games that are wins (wins / games, and \"1 in N\"); the probability that a \
         random player (one who picks each legal jump with the same probability, until none \
         is left) ends with one peg, and \"1 in N\"; the number of pegs it leaves on average; \
         the quickest loss, the fewest jumps after which no one-peg finish is possible any \
         more, and the jump sequences of that length that get there while every position \
         before could still win (\"at least N (not settled)\": the search ran out of memory \
         after proving that no game is lost in fewer than N jumps). Probabilities rounded \
         to 4 significant digits, N to 3, the expected pegs to 3 decimals; the exact \
         figures are in summary.csv, random.csv and random_finish.csv.\n\n{}",
        hardness_table(rows)
    )
}
