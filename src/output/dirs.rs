//! Output folders: made and checked before a long run ([`prepare_dir`], [`probe_dir`]),
//! the empty ones a failed run made removed ([`remove_created_dirs`]), and locked against
//! a second run ([`lock_dir`]), which finishes a set of files a killed run left half
//! replaced ([`super::journal`]).

use super::files::io_text;
use crate::error::{Error, Result};
use std::path::Path;

/// Makes sure `dir` exists and accepts new files, before any long computation starts.
///
/// ```
/// use pegsol::output::dirs::prepare_dir;
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
/// use pegsol::output::dirs::probe_dir;
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
/// use pegsol::output::dirs::{prepare_dir, remove_created_dirs};
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

/// Locks the directory `dir` (which must exist) for this process until the returned
/// handle is dropped: a second pegsol run that asks for the same lock is refused with one
/// line (exit code 2) instead of writing over the first one's files. The lock is the
/// system's (`flock` on the directory itself): no lock file is left behind, and a killed
/// run holds nothing. Once locked, a set of files a killed run left half replaced in `dir`
/// is finished ([`roll_forward`]): whoever opens the folder next sees the new set, whole.
///
/// ```
/// use pegsol::output::dirs::lock_dir;
/// let tmp = tempfile::tempdir().unwrap();
/// let held = lock_dir(tmp.path(), "--csv")?;
/// let e = lock_dir(tmp.path(), "--csv").unwrap_err();
/// assert!(e.to_string().ends_with("is in use by another pegsol run; wait for it, or give another --csv"), "{e}");
/// drop(held);
/// lock_dir(tmp.path(), "--csv")?;
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn lock_dir(dir: &Path, option: &str) -> Result<std::fs::File> {
    let handle = try_lock_dir(dir)?.ok_or_else(|| {
        Error::input(format!(
            "{} is in use by another pegsol run; wait for it, or give another {option}",
            dir.display()
        ))
    })?;
    super::journal::roll_forward(dir)?;
    Ok(handle)
}

/// [`lock_dir`]'s lock on `dir`, or None when another run holds it; nothing rolled
/// forward.
pub(super) fn try_lock_dir(dir: &Path) -> Result<Option<std::fs::File>> {
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
                (Ok(a), Ok(b)) if same(&a, &b) => Ok(Some(handle)),
                _ => Err(Error::input(format!(
                    "{} was removed by another pegsol run as this one started; run it again",
                    dir.display()
                ))),
            }
        }
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
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
/// use pegsol::output::dirs::{in_use, lock_dir};
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
