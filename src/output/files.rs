//! Files as every command writes them: CSV rendering, output directories checked before a
//! long run, and atomic replacement (temporary file, then rename), so no reader ever sees a
//! half-written file.

use crate::error::{Error, Result};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
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

/// Makes sure `dir` exists and accepts new files, before any long computation starts.
///
/// ```
/// use pegsol::output::files::prepare_dir;
/// let tmp = tempfile::tempdir().unwrap();
/// let dir = tmp.path().join("out/tri5");
/// prepare_dir(&dir)?;
/// // Created, and the probe file it wrote is gone again.
/// assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
/// // A file where the directory should be: bad input (exit code 2).
/// std::fs::write(tmp.path().join("file"), b"x").unwrap();
/// let e = prepare_dir(&tmp.path().join("file")).unwrap_err();
/// assert_eq!(e.exit_code(), 2);
/// assert!(e.to_string().ends_with("is a file, not a directory"), "{e}");
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn prepare_dir(dir: &Path) -> Result<()> {
    let fail = |e: std::io::Error| {
        Error::input(format!(
            "output directory {} is not writable: {}",
            dir.display(),
            io_text(&e)
        ))
    };
    if dir.exists() && !dir.is_dir() {
        return Err(Error::input(format!(
            "output directory {} is a file, not a directory",
            dir.display()
        )));
    }
    if !dir.exists() && dir.symlink_metadata().is_ok_and(|m| m.is_symlink()) {
        return Err(Error::input(format!(
            "output directory {} is a link to nothing",
            dir.display()
        )));
    }
    // One level at a time from the top, so that [`remove_created_dirs`] knows the folders
    // this process made itself: those whose `create_dir` succeeded here (not one another
    // run made at the same moment, nor one reached through `..`).
    let mut path = std::path::PathBuf::new();
    for part in dir.components() {
        path.push(part);
        if matches!(part, std::path::Component::Normal(_)) && std::fs::create_dir(&path).is_ok() {
            CREATED
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(path.clone());
        }
    }
    std::fs::create_dir_all(dir).map_err(fail)?;
    match tempfile::Builder::new()
        .prefix(&super::temps::prefix("probe"))
        .tempfile_in(dir)
    {
        Ok(_) => {}
        // A folder that exists yet where no file can be made (/proc, /sys): the system
        // says "No such file or directory" of the file, not of the folder.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && dir.is_dir() => {
            return Err(Error::input(format!(
                "output directory {} does not accept new files (a system folder such as \
                 /proc?)",
                dir.display()
            )));
        }
        Err(e) => return Err(fail(e)),
    }
    super::temps::remove_stale(dir);
    Ok(())
}

/// [`prepare_dir`] for a command that writes into `dir` only when it ends: checks the same
/// way that `dir` can be made and take new files, but leaves no folder it made behind, so
/// that a run killed before it writes (SIGKILL, which no process can catch) leaves no
/// empty output directory. Returns whether `dir` existed: if not, the command calls
/// [`prepare_dir`] again when it writes.
///
/// ```
/// use pegsol::output::files::probe_dir;
/// let tmp = tempfile::tempdir().unwrap();
/// assert!(!probe_dir(&tmp.path().join("out/tri5"))?);
/// assert!(!tmp.path().join("out").exists());
/// assert!(probe_dir(tmp.path())?);
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn probe_dir(dir: &Path) -> Result<bool> {
    let existed = dir.is_dir();
    let before = CREATED.lock().unwrap_or_else(|p| p.into_inner()).len();
    prepare_dir(dir)?;
    let mut created = CREATED.lock().unwrap_or_else(|p| p.into_inner());
    let from = before.min(created.len());
    let mine = created.split_off(from);
    for made in mine.iter().rev() {
        let _ = std::fs::remove_dir(made);
    }
    Ok(existed)
}

/// The directories [`prepare_dir`] created in this process, each call's top first.
static CREATED: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Removes the directories [`prepare_dir`] created in this process that are still empty,
/// deepest first: a run that failed or was refused (`count --csv out` with too small a
/// `--max-disk`, a table interrupted before its first pair) leaves no empty output
/// directory behind. A directory that holds anything is kept, and so is one another run
/// has locked ([`lock_dir`]): it is removed only under this process's own lock. The CLI
/// calls it when a command fails, once the command has let go of its locks.
///
/// ```
/// use pegsol::output::files::{prepare_dir, remove_created_dirs};
/// let tmp = tempfile::tempdir().unwrap();
/// prepare_dir(&tmp.path().join("a/b"))?;
/// prepare_dir(&tmp.path().join("kept"))?;
/// std::fs::write(tmp.path().join("kept/summary.csv"), "x").unwrap();
/// remove_created_dirs();
/// assert!(!tmp.path().join("a").exists());
/// assert!(tmp.path().join("kept/summary.csv").exists());
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn remove_created_dirs() {
    let mut created = std::mem::take(&mut *CREATED.lock().unwrap_or_else(|p| p.into_inner()));
    created.sort_by_key(|p| std::cmp::Reverse(p.components().count()));
    for dir in created {
        let Ok(handle) = std::fs::File::open(&dir) else {
            continue;
        };
        if handle.try_lock().is_ok() {
            // Fails, as it should, on a directory that holds anything. A run that opened
            // it in the meantime finds it gone when it locks it ([`lock_dir`]).
            let _ = std::fs::remove_dir(&dir);
        }
    }
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

/// Locks the directory `dir` (which must exist) for this process until the returned
/// handle is dropped: a second pegsol run that asks for the same lock is refused with one
/// line (exit code 2) instead of writing over the first one's files. The lock is the
/// system's (`flock` on the directory itself): no lock file is left behind, and a killed
/// run holds nothing.
///
/// ```
/// use pegsol::output::files::lock_dir;
/// let tmp = tempfile::tempdir().unwrap();
/// let held = lock_dir(tmp.path(), "--csv")?;
/// let e = lock_dir(tmp.path(), "--csv").unwrap_err();
/// assert!(e.to_string().ends_with("is in use by another pegsol run; wait for it, or give another --csv"), "{e}");
/// drop(held);
/// lock_dir(tmp.path(), "--csv")?;
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn lock_dir(dir: &Path, option: &str) -> Result<std::fs::File> {
    let handle = std::fs::File::open(dir)
        .map_err(|e| Error::input(format!("cannot open {}: {}", dir.display(), io_text(&e))))?;
    match handle.try_lock() {
        Ok(()) => {
            // The folder locked must still be the one at `dir`: a failed run removes an
            // empty folder it made ([`remove_created_dirs`]), perhaps after this process
            // opened it.
            let same = |a: &std::fs::Metadata, b: &std::fs::Metadata| {
                use std::os::unix::fs::MetadataExt;
                (a.dev(), a.ino()) == (b.dev(), b.ino())
            };
            match (handle.metadata(), std::fs::metadata(dir)) {
                (Ok(a), Ok(b)) if same(&a, &b) => Ok(handle),
                _ => Err(Error::input(format!(
                    "{} was removed by another pegsol run as this one started; run it again",
                    dir.display()
                ))),
            }
        }
        Err(std::fs::TryLockError::WouldBlock) => Err(Error::input(format!(
            "{} is in use by another pegsol run; wait for it, or give another {option}",
            dir.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(Error::input(format!(
            "cannot lock {}: {}",
            dir.display(),
            io_text(&e)
        ))),
    }
}

/// Whether [`lock_dir`]'s lock on `dir` is held (by another pegsol run writing there, or
/// by another handle of this process). False when `dir` cannot be opened or nothing holds
/// it.
///
/// ```
/// use pegsol::output::files::{in_use, lock_dir};
/// let tmp = tempfile::tempdir().unwrap();
/// assert!(!in_use(tmp.path()));
/// let held = lock_dir(tmp.path(), "--csv")?;
/// assert!(in_use(tmp.path()));
/// drop(held);
/// assert!(!in_use(tmp.path()));
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn in_use(dir: &Path) -> bool {
    std::fs::File::open(dir)
        .is_ok_and(|f| matches!(f.try_lock_shared(), Err(std::fs::TryLockError::WouldBlock)))
}

/// Writes every file to a temporary file in `dir`, then renames them all into place: a
/// reader sees either the old file or the whole new one, never part of one. A name that is
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
    // Several files are one set: a marker stands beside them from before the first rename
    // to after the last, so that a run killed in between leaves a set known to be torn
    // ([`check_whole`]).
    let marker = (temps.len() > 1).then(|| dir.join(MARKER));
    if let Some(marker) = &marker {
        let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
        write_synced(marker, format!("{}\n", names.join("\n")).as_bytes())
            .map_err(|e| fail(MARKER, e))?;
    }
    let kill_after_rename = std::env::var_os("PEGSOL_TEST_KILL_AFTER_RENAME").is_some();
    for (name, tmp, target) in temps {
        tmp.persist(&target).map_err(|e| fail(name, e.error))?;
        if kill_after_rename {
            // SAFETY: a signal to this process; SIGKILL runs no handler.
            unsafe {
                libc::kill(libc::getpid(), libc::SIGKILL);
            }
        }
    }
    if let Some(marker) = &marker {
        std::fs::remove_file(marker).map_err(|e| fail(MARKER, e))?;
    }
    Ok(())
}

/// The name of the marker [`write_atomically`] keeps beside a set of files while it
/// replaces them one by one.
pub const MARKER: &str = ".pegsol-replacing";

/// Writes `bytes` to a new file at `path` and syncs it and its folder: the file is on
/// disk before anything that follows.
fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::File::open(folder_of(path))?.sync_all()
}

/// Checks that the files `names` in `dir` are one set, not one torn by a run killed while
/// it replaced them ([`write_atomically`]'s marker is still there and names one of them):
/// refused with one line (exit code 2), or, when another run holds `dir` ([`lock_dir`]),
/// refused as in use. `table` and `report` call it before they read a table's files;
/// `count` writes its whole set again, which removes the marker.
///
/// ```
/// use pegsol::output::files::{MARKER, check_whole};
/// let tmp = tempfile::tempdir().unwrap();
/// check_whole(tmp.path(), &["summary.csv"])?;
/// std::fs::write(tmp.path().join(MARKER), "summary.csv\nfinish.csv\n").unwrap();
/// check_whole(tmp.path(), &["comparison.md"])?; // not one of the set
/// let e = check_whole(tmp.path(), &["runs.csv", "summary.csv"]).unwrap_err();
/// assert_eq!(e.exit_code(), 2);
/// assert!(e.to_string().contains("was killed while it replaced them"), "{e}");
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn check_whole(dir: &Path, names: &[&str]) -> Result<()> {
    let Ok(listed) = std::fs::read_to_string(dir.join(MARKER)) else {
        return Ok(());
    };
    if !listed.lines().any(|l| names.contains(&l)) {
        return Ok(());
    }
    if in_use(dir) {
        return Err(Error::input(format!(
            "{} is being written by another pegsol run; wait for it",
            dir.display()
        )));
    }
    Err(Error::input(format!(
        "the files in {} may be of two runs: the run that wrote them was killed while it \
         replaced them ({MARKER} names them); remove them and {MARKER}, and run the command \
         that wrote them again",
        dir.display()
    )))
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
