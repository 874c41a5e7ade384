//! Reading a table back from table.json (`--format json`): each pair's objects read as the
//! CSV rows they stand for, and checked as those are.

use super::check::{RandomRow, Wins, check_counts, check_random};
use super::model::{Entry, JSON_FILE, RUNS_HEADER, Table, random_summary_header, summary_header};
use super::plan::Key;
use super::read::{JSON_READ_BYTES_PER_BYTE, check_readable};
use crate::count::{export, random};
use crate::error::{Error, Result};
use serde_json::Value;
use std::path::Path;

impl Table {
    pub(super) fn load_json(dir: &Path) -> Result<Table> {
        let path = dir.join(JSON_FILE);
        check_readable(&path, JSON_READ_BYTES_PER_BYTE)?;
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Table::default()),
            Err(e) => return Err(Error::input(format!("cannot read {}: {e}", path.display()))),
        };
        let file = JsonFile { path: &path };
        let doc: Value = serde_json::from_str(&text).map_err(|e| file.bad(&e.to_string()))?;
        let pairs = doc
            .get("pairs")
            .and_then(Value::as_array)
            .ok_or_else(|| file.bad("no \"pairs\" array"))?;
        let mut table = Table::default();
        for p in pairs {
            let (key, entry) = file.pair(p)?;
            file.check_pair_counts(&key, &entry)?;
            if table.entries.contains_key(&key) {
                return Err(file.bad(&format!("a second pair {} {}", key.board, key.start)));
            }
            table.entries.insert(key, entry);
        }
        file.check_random(&table)?;
        Ok(table)
    }
}

/// table.json being read ([`Table::load_all`]).
struct JsonFile<'a> {
    path: &'a Path,
}

impl JsonFile<'_> {
    /// The refusal of a file that pegsol table did not write.
    fn bad(&self, what: &str) -> Error {
        Error::input(format!(
            "{} was not written by pegsol table: {what}",
            self.path.display()
        ))
    }

    /// The key and entry of one of the file's pairs, each of its objects read as the CSV
    /// row it stands for.
    fn pair(&self, p: &Value) -> Result<(Key, Entry)> {
        let field = |name: &str| -> Result<String> {
            p.get(name)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| self.bad(&format!("a pair without \"{name}\"")))
        };
        let key = Key::new(&field("board")?, &field("start")?);
        let object = |name: &str, header: &[&str]| -> Result<Vec<String>> {
            let o = p
                .get(name)
                .ok_or_else(|| self.bad(&format!("no \"{name}\"")))?;
            self.row(name, o, header)
        };
        let list = |name: &str, header: &[&str]| -> Result<Vec<Vec<String>>> {
            p.get(name)
                .and_then(Value::as_array)
                .ok_or_else(|| self.bad(&format!("no \"{name}\" array")))?
                .iter()
                .map(|o| self.row(name, o, header))
                .collect()
        };
        let random_list = |name: &str, header: &[&str]| -> Result<Vec<Vec<String>>> {
            match p.get(name) {
                Some(_) => list(name, header),
                None => Ok(Vec::new()),
            }
        };
        let random_summary = match p.get("random") {
            Some(_) => {
                object("summary", &random_summary_header())?.split_off(summary_header().len() - 2)
            }
            None => Vec::new(),
        };
        let entry = Entry {
            random_summary,
            random: random_list("random", random::RANDOM_HEADER)?,
            random_finish: random_list("random_finish", random::RANDOM_FINISH_HEADER)?,
            summary: object("summary", &summary_header())?,
            pegs_left: list("pegs_left", export::PEGS_LEFT_HEADER)?,
            finish: list("finish", export::FINISH_HEADER)?,
            depth: list("depth", export::DEPTH_HEADER)?,
            run: self.run_row(p)?,
        };
        Ok((key, entry))
    }

    /// One CSV row (the columns after board and start) from a JSON object.
    fn row(&self, name: &str, o: &Value, header: &[&str]) -> Result<Vec<String>> {
        header[2..]
            .iter()
            .map(|h| {
                o.get(*h)
                    .map(cell_text)
                    .ok_or_else(|| self.bad(&format!("\"{name}\" without \"{h}\"")))
            })
            .collect()
    }

    /// A pair's runs.csv row. A table written before the last columns of runs.csv: those
    /// are empty.
    fn run_row(&self, p: &Value) -> Result<Vec<String>> {
        let o = p.get("run").ok_or_else(|| self.bad("no \"run\""))?;
        let mut padded = o.clone();
        if let Some(m) = padded.as_object_mut() {
            for h in &RUNS_HEADER[RUNS_HEADER.len() - 2..] {
                m.entry(*h).or_insert(Value::String(String::new()));
            }
        }
        self.row("run", &padded, RUNS_HEADER)
    }

    /// Refuses random rows pegsol does not write ([`check_random`]), each named by its
    /// place in its pair's list.
    fn check_random(&self, table: &Table) -> Result<()> {
        let shown = self.path.display().to_string();
        let rows = |list: &str, of: fn(&Entry) -> &Vec<Vec<String>>| -> Vec<RandomRow> {
            table
                .entries
                .iter()
                .flat_map(|(key, e)| {
                    of(e).iter().enumerate().map(|(i, cells)| RandomRow {
                        place: format!("{shown}: \"{list}\" item {}", i + 1),
                        key: key.clone(),
                        cells: cells.clone(),
                    })
                })
                .collect()
        };
        let wins: Wins = table
            .entries
            .iter()
            .filter(|(_, e)| e.has_random())
            .map(|(k, e)| (k.clone(), (shown.clone(), e.random_summary[0].clone())))
            .collect();
        check_random(
            &rows("random", |e| &e.random),
            &rows("random_finish", |e| &e.random_finish),
            &wins,
        )
    }

    /// Refuses a pair whose rows hold something other than counts ([`check_counts`]).
    fn check_pair_counts(&self, key: &Key, entry: &Entry) -> Result<()> {
        let where_ = self.path.display().to_string();
        check_counts(&where_, &summary_header(), key, &entry.summary)?;
        for (rows, header) in [
            (&entry.pegs_left, export::PEGS_LEFT_HEADER),
            (&entry.finish, export::FINISH_HEADER),
            (&entry.depth, export::DEPTH_HEADER),
        ] {
            for row in rows {
                check_counts(&where_, header, key, row)?;
            }
        }
        Ok(())
    }
}
/// A JSON value back as CSV text.
fn cell_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
