//! Writing a table: its files' bytes, its JSON, and the atomic save.

use super::model::{
    Entry, Format, JSON_FILE, RUNS_HEADER, Table, csv_files, random_files, random_summary_header,
    summary_header,
};
use crate::count::{export, random};
use crate::error::{Error, Result};
use crate::output::files;
use serde_json::{Map, Value};
use std::path::Path;

impl Table {
    /// The files of the table in `format`, as (file name, bytes); in CSV format runs.csv
    /// comes last, so that writing them in this order makes a pair complete only once all
    /// its rows are in place.
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
    /// let names: Vec<&str> = t.files(Format::Csv).unwrap().iter().map(|f| f.0).collect();
    /// assert_eq!(names, ["summary.csv", "pegs_left.csv", "finish.csv", "depth.csv", "runs.csv"]);
    /// let summary = String::from_utf8(t.files(Format::Csv).unwrap()[0].1.clone()).unwrap();
    /// assert!(summary.contains("\ntri:5,a1,3016,1544,568630,29760,8,2,6,2,3\n")); // published
    /// assert_eq!(t.files(Format::Json).unwrap()[0].0, "table.json");
    /// ```
    pub fn files(&self, format: Format) -> Result<Vec<(&'static str, Vec<u8>)>> {
        match format {
            Format::Csv => {
                let mut specs = csv_files();
                if self.has_random() {
                    // summary.csv with the random player's columns (empty where a pair has
                    // none), its two files before runs.csv.
                    specs[0] = ("summary.csv", random_summary_header(), |e| {
                        let mut row = e.summary.clone();
                        if e.has_random() {
                            row.extend(e.random_summary.iter().cloned());
                        } else {
                            row.resize(row.len() + export::RANDOM_SUMMARY_COLUMNS.len(), "".into());
                        }
                        vec![row]
                    });
                    let runs = specs.pop().expect("runs.csv last");
                    specs.extend(random_files());
                    specs.push(runs);
                }
                specs
                    .into_iter()
                    .map(|(name, header, rows_of)| Ok((name, self.csv_file(&header, rows_of)?)))
                    .collect()
            }
            Format::Json => {
                let mut text = serde_json::to_string_pretty(&self.to_json())
                    .map_err(|e| Error::input(format!("cannot format JSON: {e}")))?;
                text.push('\n');
                Ok(vec![(JSON_FILE, text.into_bytes())])
            }
        }
    }

    /// The CSV bytes of one file: `header`, then every entry's rows (`rows_of`) after its
    /// board and start.
    fn csv_file(
        &self,
        header: &[&str],
        rows_of: fn(&Entry) -> Vec<Vec<String>>,
    ) -> Result<Vec<u8>> {
        let rows: Vec<Vec<String>> = self
            .entries
            .iter()
            .flat_map(|(k, e)| {
                rows_of(e).into_iter().map(move |r| {
                    let mut row = vec![k.board.clone(), k.start.clone()];
                    row.extend(r);
                    row
                })
            })
            .collect();
        files::csv_bytes(header, &rows)
    }

    /// The table as one JSON document: `{"pairs": [{board, start, summary, pegs_left,
    /// finish, depth, run}, ...]}`, field names as in the CSV headers, integers as JSON
    /// numbers (exact, however large).
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
    /// let j = t.to_json();
    /// assert_eq!(j["pairs"][0]["start"], "a1");
    /// assert_eq!(j["pairs"][0]["summary"]["games"].to_string(), "568630"); // published
    /// assert_eq!(j["pairs"][3]["summary"]["wins"].to_string(), "1550"); // b3, published
    /// ```
    pub fn to_json(&self) -> Value {
        let object = |header: &[&str], values: &[String]| -> Value {
            let map: Map<String, Value> = header[2..]
                .iter()
                .zip(values)
                .map(|(h, v)| (h.to_string(), json_cell(v)))
                .collect();
            Value::Object(map)
        };
        let list = |header: &[&str], rows: &[Vec<String>]| -> Value {
            Value::Array(rows.iter().map(|r| object(header, r)).collect())
        };
        let pairs = self
            .entries
            .iter()
            .map(|(k, e)| {
                let mut m = Map::new();
                m.insert("board".into(), Value::String(k.board.clone()));
                m.insert("start".into(), Value::String(k.start.clone()));
                let mut summary = object(&summary_header(), &e.summary);
                // The random player's columns after the others (`object` skips a header's
                // first two names).
                let random_columns = &random_summary_header()[summary_header().len() - 2..];
                if e.has_random()
                    && let (Value::Object(cells), Value::Object(more)) =
                        (&mut summary, object(random_columns, &e.random_summary))
                {
                    cells.extend(more);
                }
                m.insert("summary".into(), summary);
                m.insert(
                    "pegs_left".into(),
                    list(export::PEGS_LEFT_HEADER, &e.pegs_left),
                );
                m.insert("finish".into(), list(export::FINISH_HEADER, &e.finish));
                m.insert("depth".into(), list(export::DEPTH_HEADER, &e.depth));
                if e.has_random() {
                    m.insert("random".into(), list(random::RANDOM_HEADER, &e.random));
                    m.insert(
                        "random_finish".into(),
                        list(random::RANDOM_FINISH_HEADER, &e.random_finish),
                    );
                }
                m.insert("run".into(), object(RUNS_HEADER, &e.run));
                Value::Object(m)
            })
            .collect();
        let mut doc = Map::new();
        doc.insert("pairs".into(), Value::Array(pairs));
        Value::Object(doc)
    }

    /// Writes the table into `dir`, every file replaced atomically.
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
    /// let dir = tempfile::tempdir().unwrap();
    /// t.save(dir.path(), Format::Csv).unwrap();
    /// let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    /// assert!(summary.contains("\ntri:5,b3,"));
    /// assert_eq!(summary.lines().count(), 1 + 4);
    /// assert_eq!(table::Table::load(dir.path(), Format::Csv).unwrap(), t);
    /// ```
    pub fn save(&self, dir: &Path, format: Format) -> Result<()> {
        files::write_atomically(dir, &self.files(format)?)
    }
}

/// A CSV value as JSON: a number when it reads as one, a string otherwise.
fn json_cell(v: &str) -> Value {
    let numeric = !v.is_empty()
        && v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && v.as_bytes()[0].is_ascii_digit();
    if numeric && let Ok(n) = serde_json::from_str::<serde_json::Number>(v) {
        return Value::Number(n);
    }
    Value::String(v.to_string())
}

/// Removes temporary files a killed run of an earlier version left behind in `dir`
/// (`.summary.csv.XXXXXX` and the like; [`files::write_atomically`] now names them
/// `.pegsol-tmp-PID.NAME.XXXXXX` and removes them itself); the files they were meant to
/// replace are intact.
pub(super) fn remove_stale_temporaries(dir: &Path) {
    let names: Vec<&str> = csv_files().iter().map(|f| f.0).chain([JSON_FILE]).collect();
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in listing.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        if names.iter().any(|n| file.starts_with(&format!(".{n}."))) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
