//! Reading the table a report is made from: its format, and a read that waits out a
//! `table` run's renames.

use crate::count::table::{Format, JSON_FILE, RANDOM_FILES, Table};
use crate::error::{Error, Result};
use crate::output::files;
use std::path::Path;

pub(super) fn no_table(dir: &Path) -> Error {
    Error::input(format!(
        "no table in {} (run pegsol table --csv {} first)",
        dir.display(),
        dir.display()
    ))
}

/// The format of the table in `dir`: JSON when it holds `table.json` and no `runs.csv`
/// (a table written with `--format json` is one file), CSV when it holds all five CSV
/// files. A folder holding some of them only, or a `table.json` that is not a file, is
/// refused with one line naming what is missing.
///
/// ```
/// use pegsol::count::{report::table_format, table::Format};
/// let dir = tempfile::tempdir().unwrap();
/// let e = table_format(dir.path()).unwrap_err();
/// assert!(e.to_string().starts_with("no table in "), "{e}");
/// std::fs::write(dir.path().join("summary.csv"), "").unwrap();
/// let e = table_format(dir.path()).unwrap_err();
/// assert!(e.to_string().contains("holds summary.csv but not pegs_left.csv, finish.csv, depth.csv, runs.csv"), "{e}");
/// std::fs::write(dir.path().join("table.json"), "{}").unwrap();
/// assert_eq!(table_format(dir.path()).unwrap(), Format::Json);
/// ```
pub fn table_format(dir: &Path) -> Result<Format> {
    let json = dir.join(JSON_FILE);
    // The random player's files are there only with its figures.
    let mut names = Format::Csv.file_names();
    names.retain(|n| !RANDOM_FILES.contains(n));
    let (here, missing): (Vec<&str>, Vec<&str>) = names
        .iter()
        .partition(|n| dir.join(n).symlink_metadata().is_ok());
    if missing.is_empty() {
        return Ok(Format::Csv);
    }
    if !here.contains(&"runs.csv") && json.is_file() {
        return Ok(Format::Json);
    }
    if !here.is_empty() {
        return Err(Error::input(format!(
            "{} holds {} but not {}: not a whole table (run pegsol table --csv {} again to \
             complete it)",
            dir.display(),
            here.join(", "),
            missing.join(", "),
            dir.display()
        )));
    }
    if json.symlink_metadata().is_ok() {
        let what = if json.is_dir() {
            "it is a directory"
        } else {
            "it is not a regular file"
        };
        return Err(Error::input(format!(
            "cannot read {}: {what}",
            json.display()
        )));
    }
    Err(no_table(dir))
}

/// [`Table::load_complete`], read again while a `table` run holds `dir`
/// ([`files::in_use`]): that run saves a pair by renaming its files one after another, and
/// a table read between two renames is refused as incomplete. A save takes milliseconds
/// and pairs end minutes apart, so the table is read again every 0.1 s, for at most 5 s;
/// a table still refused then, or refused while no run holds it, is refused.
pub(super) fn load_settled(dir: &Path) -> Result<(Format, Table)> {
    let mut tries = 0;
    loop {
        let read =
            table_format(dir).and_then(|format| Ok((format, Table::load_complete(dir, format)?)));
        match read {
            Err(_) if tries < 50 && files::in_use(dir) => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            // A run that held it until the read failed may have saved and ended since:
            // read once more.
            Err(_) if tries < 51 => tries = 51,
            read => return read,
        }
    }
}
