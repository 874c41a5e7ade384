//! Files as every command writes them: CSV rendering, output directories checked before a
//! long run, and atomic replacement (temporary file, then rename), so no reader ever sees a
//! half-written file.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// Renders a CSV file from a header and rows.
pub fn csv_bytes<R: AsRef<[String]>>(header: &[&str], rows: &[R]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| Error::input(format!("cannot format CSV: {e}"));
    w.write_record(header).map_err(fail)?;
    for row in rows {
        w.write_record(row.as_ref()).map_err(fail)?;
    }
    w.into_inner()
        .map_err(|e| Error::input(format!("cannot format CSV: {e}")))
}

/// Makes sure `dir` exists and accepts new files, before any long computation starts.
pub fn prepare_dir(dir: &Path) -> Result<()> {
    let fail = |e: std::io::Error| {
        Error::input(format!(
            "output directory {} is not writable: {e}",
            dir.display()
        ))
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    tempfile::Builder::new()
        .prefix(".pegsol-probe")
        .tempfile_in(dir)
        .map_err(fail)?;
    Ok(())
}

/// Writes every file to a temporary file in `dir`, then renames them all into place: a
/// reader sees either the old file or the whole new one, never part of one.
pub fn write_atomically(dir: &Path, files: &[(&str, Vec<u8>)]) -> Result<()> {
    let fail = |name: &str, e: std::io::Error| {
        Error::input(format!("cannot write {}: {e}", dir.join(name).display()))
    };
    let mut temps = Vec::new();
    for (name, bytes) in files {
        let mut tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .tempfile_in(dir)
            .map_err(|e| fail(name, e))?;
        tmp.write_all(bytes).map_err(|e| fail(name, e))?;
        tmp.as_file().sync_all().map_err(|e| fail(name, e))?;
        temps.push((name, tmp));
    }
    for (name, tmp) in temps {
        tmp.persist(dir.join(name))
            .map_err(|e| fail(name, e.error))?;
    }
    Ok(())
}
