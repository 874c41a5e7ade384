//! Files as every command writes them: CSV rendering, output files checked before a long
//! run, and atomic replacement (temporary file, then rename), so no reader ever sees a
//! half-written file. Output folders are [`super::dirs`]' (re-exported here), a set's
//! journal [`super::journal`]'s.

pub use super::dirs::{in_use, lock_dir, prepare_dir, probe_dir, remove_created_dirs};
pub use super::journal::{MARKER, check_whole, refuse_torn, roll_forward};
use crate::error::{Error, Result};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

/// Renders a CSV file from a header and rows; fields that need it are quoted.
///
/// ```
/// use pegsol::output::files::csv_bytes;
/// let rows = [vec!["a1".to_string(), "29760".into()], vec!["a1+c3".into(), "1,5".into()]];
/// let bytes = csv_bytes(&["start", "wins"], &rows)?;
/// assert_eq!(bytes, b"start,wins\na1,29760\na1+c3,\"1,5\"\n");
/// # Ok::<(), pegsol::error::Error>(())
/// ```
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

/// [`prepare_dir`], then checks that each of the files `names` that a command will write
/// into `dir` can be replaced ([`replaceable`]), before any long computation starts.
///
/// ```
/// use pegsol::output::files::prepare_files;
/// let tmp = tempfile::tempdir().unwrap();
/// prepare_files(tmp.path(), &["summary.csv"])?;
/// std::os::unix::fs::symlink("/dev/null", tmp.path().join("summary.csv")).unwrap();
/// let e = prepare_files(tmp.path(), &["summary.csv"]).unwrap_err();
/// assert!(e.to_string().ends_with("summary.csv: it is not a regular file"), "{e}");
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn prepare_files(dir: &Path, names: &[&str]) -> Result<()> {
    prepare_dir(dir)?;
    for name in names {
        replaceable(&dir.join(name))?;
    }
    Ok(())
}

/// Writes every file to a temporary file in `dir`, then renames them all into place: a
/// reader sees either the old file or the whole new one, never part of one. Several files
/// are renamed under a journal ([`super::journal`]), so that a run killed between two
/// renames leaves a set the next run that locks `dir` finishes. A name that is
/// a symbolic link is written through: the file it points to is replaced, the link kept.
/// A target that is not a regular file (a directory, a device such as `/dev/null`, a
/// FIFO, a link to nothing) is refused before anything is written, since a rename would
/// put a file in its place.
///
/// ```
/// use pegsol::output::files::write_atomically;
/// let tmp = tempfile::tempdir().unwrap();
/// std::fs::write(tmp.path().join("a.csv"), b"old").unwrap();
/// write_atomically(tmp.path(), &[("a.csv", b"new\n".to_vec()), ("b.csv", Vec::new())])?;
/// let mut names: Vec<String> = std::fs::read_dir(tmp.path())
///     .unwrap()
///     .map(|e| e.unwrap().file_name().into_string().unwrap())
///     .collect();
/// names.sort();
/// assert_eq!(names, ["a.csv", "b.csv"]); // no temporary file left behind
/// assert_eq!(std::fs::read(tmp.path().join("a.csv")).unwrap(), b"new\n");
/// assert!(std::fs::read(tmp.path().join("b.csv")).unwrap().is_empty());
/// // Through a link: the link stays, the file it names is replaced.
/// std::os::unix::fs::symlink("a.csv", tmp.path().join("l.csv")).unwrap();
/// write_atomically(tmp.path(), &[("l.csv", b"linked\n".to_vec())])?;
/// assert!(tmp.path().join("l.csv").symlink_metadata().unwrap().is_symlink());
/// assert_eq!(std::fs::read(tmp.path().join("a.csv")).unwrap(), b"linked\n");
/// // A device is refused (exit code 2), and left as it was.
/// let e = write_atomically(std::path::Path::new("/dev"), &[("null", Vec::new())]).unwrap_err();
/// assert_eq!(e.to_string(), "cannot write /dev/null: it is not a regular file");
/// assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn write_atomically(dir: &Path, files: &[(&str, Vec<u8>)]) -> Result<()> {
    let fail = |name: &str, e: std::io::Error| {
        Error::input(format!(
            "cannot write {}: {}",
            dir.join(name).display(),
            io_text(&e)
        ))
    };
    // A target that cannot be replaced by a file would fail its rename after others had
    // been renamed, or be replaced when it should not be: refuse before any.
    let mut targets = Vec::new();
    for (name, _) in files {
        targets.push(replaceable(&dir.join(name))?);
    }
    let mut temps = Vec::new();
    for ((name, bytes), target) in files.iter().zip(targets) {
        let folder = folder_of(&target);
        super::temps::remove_stale(folder);
        let mut tmp = tempfile::Builder::new()
            .prefix(&super::temps::prefix(name))
            // The permissions of a file created the usual way (0666 less the umask), not
            // the temporary file's 0600.
            .permissions(std::fs::Permissions::from_mode(0o666))
            .tempfile_in(folder)
            .map_err(|e| fail(name, e))?;
        tmp.write_all(bytes).map_err(|e| fail(name, e))?;
        tmp.as_file().sync_all().map_err(|e| fail(name, e))?;
        temps.push((name, tmp, target));
    }
    // Several files are one set: a journal naming each target and its temporary file
    // stands beside them from before the first rename to after the last, so that a run
    // killed in between leaves a set the next run finishes ([`roll_forward`]).
    let marker = (temps.len() > 1).then(|| dir.join(MARKER));
    if marker.is_some() {
        let mut steps = Vec::new();
        for (name, tmp, target) in &temps {
            let meta = tmp.as_file().metadata().map_err(|e| fail(name, e))?;
            steps.push(super::journal::Step {
                name: name.to_string(),
                target: target.clone(),
                temp: tmp.path().to_path_buf(),
                id: (meta.dev(), meta.ino()),
            });
        }
        super::journal::write(dir, &steps).map_err(|e| fail(MARKER, e))?;
    }
    let mut folders: Vec<std::path::PathBuf> = Vec::new();
    for (name, tmp, target) in temps {
        tmp.persist(&target).map_err(|e| fail(name, e.error))?;
        kill_after_rename();
        let folder = folder_of(&target).to_path_buf();
        if !folders.contains(&folder) {
            folders.push(folder);
        }
    }
    if let Some(marker) = &marker {
        // The renames on disk before the journal is removed.
        for folder in &folders {
            super::journal::sync_folder(folder).map_err(|e| fail(MARKER, e))?;
        }
        std::fs::remove_file(marker).map_err(|e| fail(MARKER, e))?;
    }
    Ok(())
}

/// For the tests: with `PEGSOL_TEST_KILL_AFTER_RENAME=N` in the environment, the process
/// kills itself (SIGKILL, which runs no handler) after the N-th rename of
/// [`write_atomically`] it makes (`1`: after its first).
fn kill_after_rename() {
    static RENAMES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let Some(n) = std::env::var_os("PEGSOL_TEST_KILL_AFTER_RENAME") else {
        return;
    };
    let done = RENAMES.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
    if n.to_str().and_then(|n| n.parse::<u64>().ok()) == Some(done) {
        // SAFETY: a signal to this process; SIGKILL runs no handler.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
    }
}

/// The folder of a file's path: the current one when the path has none.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// The path a new version of `path` is renamed to: `path` itself when it is a regular
/// file or does not exist yet, the file a symbolic link leads to; anything else is
/// refused (exit code 2), so that a command can check its output file before it starts.
///
/// ```
/// use pegsol::output::files::replaceable;
/// let tmp = tempfile::tempdir().unwrap();
/// let new = tmp.path().join("new.svg");
/// assert_eq!(replaceable(&new)?, new);
/// assert_eq!(replaceable(std::path::Path::new("/dev/null")).unwrap_err().exit_code(), 2);
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn replaceable(path: &Path) -> Result<std::path::PathBuf> {
    let refuse = |what: &str| {
        Err(Error::input(format!(
            "cannot write {}: {what}",
            path.display()
        )))
    };
    let meta = match path.symlink_metadata() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(path.to_path_buf()),
        Err(e) => return refuse(&io_text(&e)),
        Ok(meta) => meta,
    };
    if meta.is_file() {
        return Ok(path.to_path_buf());
    }
    if meta.is_dir() {
        return refuse("it is a directory");
    }
    if !meta.is_symlink() {
        return refuse("it is not a regular file");
    }
    match std::fs::canonicalize(path) {
        Ok(real) if real.is_file() => Ok(real),
        Ok(real) if real.is_dir() => refuse("it is a link to a directory"),
        Ok(_) => refuse("it is not a regular file"),
        Err(_) => refuse("it is a link to nothing"),
    }
}

/// [`write_atomically`] for one file named by its path (its folder: the current one when
/// the path has none).
///
/// ```
/// let tmp = tempfile::tempdir().unwrap();
/// let path = tmp.path().join("game.svg");
/// pegsol::output::files::write_file_atomically(&path, b"<svg/>")?;
/// assert_eq!(std::fs::read(&path).unwrap(), b"<svg/>");
/// let inside_a_file = path.join("x.svg");
/// assert_eq!(pegsol::output::files::write_file_atomically(&inside_a_file, b"").unwrap_err().exit_code(), 2);
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn write_file_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = folder_of(path);
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Err(Error::input(format!(
            "cannot write {}: not a file name",
            path.display()
        )));
    };
    write_atomically(dir, &[(name, bytes.to_vec())])
}

/// An I/O error as one line for people: the system's message, without the temporary
/// file's path that `tempfile` appends (`... at path "/dir/.name.XXXXXX"`).
///
/// ```
/// let e = std::io::Error::other("No space left on device at path \"/o/.a.csv.x1\"");
/// assert_eq!(pegsol::output::files::io_text(&e), "No space left on device");
/// ```
pub fn io_text(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" at path ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
