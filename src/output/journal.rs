//! The journal of a set of files being replaced: [`super::files::write_atomically`] writes
//! every new file of a set to a synced temporary file, then the marker [`MARKER`] naming
//! each target and its temporary file, then renames the temporary files one by one and
//! removes the marker. A run killed between two renames leaves the marker: the next run
//! that locks the folder ([`super::dirs::lock_dir`]) finishes the renames
//! ([`roll_forward`]), so the set is the new one, whole.
//!
//! A step of the journal is done when its temporary file is gone and the target is that
//! file (the same inode, recorded when it was made); it is pending when its temporary file
//! is still there. A step that is neither (the new file gone, by hand or by an older
//! pegsol that did not know the journal, and the target another file) cannot be rolled
//! forward: then nothing is renamed, the marker stays, and `table` and `report` refuse the
//! set ([`refuse_torn`]). So does a marker written by an earlier pegsol, which listed names
//! only.
//!
//! The marker's first line is [`HEADER`]; each further line is one step, five fields
//! separated by tabs: the name the set gives the file, the target, the temporary file (a
//! path relative to the folder of the marker when the file is in it, as it is unless the
//! name is a link to a file elsewhere), and the device and inode of the temporary file.
//! Paths are escaped: a backslash, and any byte but printable ASCII, as `\xHH`.

use crate::error::{Error, Result};
use std::io::Write;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The name of the marker [`super::files::write_atomically`] keeps beside a set of files
/// while it replaces them one by one.
pub const MARKER: &str = ".pegsol-replacing";

/// The first line of a marker that is a journal (one written by an earlier pegsol lists
/// the names of the set, one a line).
pub const HEADER: &str = "pegsol-replacing 2";

/// One file of a set being replaced: its name in the set, where it goes, the temporary
/// file that holds it, and that file's (device, inode).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Step {
    pub(super) name: String,
    pub(super) target: PathBuf,
    pub(super) temp: PathBuf,
    pub(super) id: (u64, u64),
}

/// What a marker says.
enum Marker {
    /// A journal: its steps, paths resolved against the marker's folder.
    Journal(Vec<Step>),
    /// A marker of an earlier pegsol, or one that cannot be read as a journal: the names
    /// it lists.
    Names(Vec<String>),
}

/// Writes the journal of `steps` into `dir` and syncs it and the folder: on disk before
/// the first rename.
pub(super) fn write(dir: &Path, steps: &[Step]) -> std::io::Result<()> {
    let mut text = format!("{HEADER}\n");
    for s in steps {
        let fields = [
            escape(s.name.as_bytes()),
            escape(relative(dir, &s.target).as_os_str().as_bytes()),
            escape(relative(dir, &s.temp).as_os_str().as_bytes()),
            s.id.0.to_string(),
            s.id.1.to_string(),
        ];
        text.push_str(&fields.join("\t"));
        text.push('\n');
    }
    let path = dir.join(MARKER);
    let mut file = std::fs::File::create(&path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    sync_folder(dir)
}

/// Syncs a folder, so that the renames and removals in it are on disk.
pub(super) fn sync_folder(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// `path` as the journal keeps it: its file name when its folder is `dir`, else absolute.
fn relative(dir: &Path, path: &Path) -> PathBuf {
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) if parent == dir => PathBuf::from(name),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

/// `\xHH` for a backslash and every byte but printable ASCII.
fn escape(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        if (b.is_ascii_graphic() && b != b'\\') || b == b' ' {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The bytes [`escape`] wrote, or None.
fn unescape(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            let hex = text
                .get(i + 2..i + 4)
                .filter(|_| bytes.get(i + 1) == Some(&b'x'))?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 4;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The marker in `dir`, if there is one.
fn read(dir: &Path) -> Option<Marker> {
    let text = std::fs::read(dir.join(MARKER)).ok()?;
    let text = String::from_utf8_lossy(&text);
    let mut lines = text.lines();
    let names = || Marker::Names(text.lines().map(str::to_string).collect());
    if lines.next() != Some(HEADER) {
        return Some(names());
    }
    let path = |field: &str| -> Option<PathBuf> {
        let p = PathBuf::from(std::ffi::OsString::from_vec(unescape(field)?));
        Some(if p.is_absolute() { p } else { dir.join(p) })
    };
    let step = |line: &str| -> Option<Step> {
        let f: Vec<&str> = line.split('\t').collect();
        let [name, target, temp, dev, ino] = f[..] else {
            return None;
        };
        Some(Step {
            name: String::from_utf8(unescape(name)?).ok()?,
            target: path(target)?,
            temp: path(temp)?,
            id: (dev.parse().ok()?, ino.parse().ok()?),
        })
    };
    match lines.map(step).collect::<Option<Vec<Step>>>() {
        Some(steps) => Some(Marker::Journal(steps)),
        None => Some(names()),
    }
}

/// The (device, inode) of the file at `path`, not following a link.
fn id_of(path: &Path) -> Option<(u64, u64)> {
    path.symlink_metadata().ok().map(|m| (m.dev(), m.ino()))
}

/// Whether a step's temporary file is still to be renamed (Some(true)), was renamed
/// (Some(false)), or is lost (None).
fn pending(step: &Step) -> Option<bool> {
    if id_of(&step.temp) == Some(step.id) {
        Some(true)
    } else if id_of(&step.target) == Some(step.id) {
        Some(false)
    } else {
        None
    }
}

/// Finishes the replacement a run killed between its renames left in `dir`: when the
/// marker is a journal whose every step is pending or done, renames each pending
/// temporary file onto its target, in the journal's order, syncs, and removes the marker.
/// Returns how many files it renamed. A marker it cannot roll forward is left as it is
/// (see the module's text; [`refuse_torn`]). The caller holds `dir`'s lock
/// ([`super::dirs::lock_dir`], which calls it).
///
/// ```
/// use pegsol::output::files::{roll_forward, write_atomically, MARKER};
/// use std::os::unix::fs::MetadataExt;
/// let tmp = tempfile::tempdir().unwrap();
/// let dir = tmp.path();
/// assert_eq!(roll_forward(dir)?, 0); // no marker: nothing to do
/// write_atomically(dir, &[("a.csv", b"a\n".to_vec()), ("b.csv", b"b\n".to_vec())])?;
/// // A run killed after its last rename, before it removed the marker: every step done.
/// let id = |n: &str| {
///     let m = std::fs::metadata(dir.join(n)).unwrap();
///     format!("{}\t{}", m.dev(), m.ino())
/// };
/// let journal = format!(
///     "pegsol-replacing 2\na.csv\ta.csv\t.pegsol-tmp-0.a.csv.a1\t{}\nb.csv\tb.csv\t.pegsol-tmp-0.b.csv.b1\t{}\n",
///     id("a.csv"),
///     id("b.csv"),
/// );
/// std::fs::write(dir.join(MARKER), journal).unwrap();
/// assert_eq!(roll_forward(dir)?, 0);
/// assert!(!dir.join(MARKER).exists());
/// assert_eq!(std::fs::read(dir.join("b.csv")).unwrap(), b"b\n");
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn roll_forward(dir: &Path) -> Result<usize> {
    let Some(Marker::Journal(steps)) = read(dir) else {
        return Ok(0);
    };
    let mut todo = Vec::new();
    for step in &steps {
        match pending(step) {
            Some(true) => todo.push(step),
            Some(false) => {}
            None => return Ok(0),
        }
    }
    let fail = |what: &Path, e: std::io::Error| {
        Error::input(format!(
            "cannot finish replacing {} (a run was killed while it wrote it): {}",
            what.display(),
            super::files::io_text(&e)
        ))
    };
    let mut folders: Vec<&Path> = vec![dir];
    for step in &todo {
        std::fs::rename(&step.temp, &step.target).map_err(|e| fail(&step.target, e))?;
        let folder = step.target.parent().unwrap_or(dir);
        if !folders.contains(&folder) {
            folders.push(folder);
        }
    }
    for folder in folders.iter().rev() {
        sync_folder(folder).map_err(|e| fail(folder, e))?;
    }
    std::fs::remove_file(dir.join(MARKER)).map_err(|e| fail(&dir.join(MARKER), e))?;
    sync_folder(dir).map_err(|e| fail(dir, e))?;
    Ok(todo.len())
}

/// The temporary files a marker in `folder` names whose renames are still to be made:
/// [`super::temps::remove_stale`] keeps them for [`roll_forward`].
pub(super) fn named_temps(folder: &Path) -> Vec<PathBuf> {
    match read(folder) {
        Some(Marker::Journal(steps)) => steps.into_iter().map(|s| s.temp).collect(),
        _ => Vec::new(),
    }
}

/// Refuses the files `names` in `dir` when a marker there names one of them after
/// [`roll_forward`] (the caller holds `dir`'s lock, so no run is writing them): a set
/// torn by a killed run that cannot be made whole, with one line (exit code 2).
///
/// ```
/// use pegsol::output::files::{refuse_torn, MARKER};
/// let tmp = tempfile::tempdir().unwrap();
/// refuse_torn(tmp.path(), &["summary.csv"])?;
/// // A marker of an earlier pegsol: names only, no new files to rename.
/// std::fs::write(tmp.path().join(MARKER), "summary.csv\nfinish.csv\n").unwrap();
/// refuse_torn(tmp.path(), &["comparison.md"])?; // not one of the set
/// let e = refuse_torn(tmp.path(), &["runs.csv", "summary.csv"]).unwrap_err();
/// assert_eq!(e.exit_code(), 2);
/// assert!(e.to_string().contains("was killed while it replaced them"), "{e}");
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn refuse_torn(dir: &Path, names: &[&str]) -> Result<()> {
    let lost = match read(dir) {
        None => return Ok(()),
        Some(Marker::Names(listed)) => listed
            .into_iter()
            .find(|l| names.contains(&l.as_str()))
            .map(|_| String::new()),
        Some(Marker::Journal(steps)) => steps
            .iter()
            .any(|s| names.contains(&s.name.as_str()))
            .then(|| match steps.iter().find(|s| pending(s).is_none()) {
                Some(s) => format!(
                    ", and the new {} it was renaming into place is gone",
                    s.name
                ),
                None => String::new(),
            }),
    };
    match lost {
        None => Ok(()),
        Some(lost) => Err(Error::input(format!(
            "the files in {} may be of two runs: the run that wrote them was killed while it \
             replaced them ({MARKER} names them){lost}; remove them and {MARKER}, and run the \
             command that wrote them again",
            dir.display()
        ))),
    }
}

/// [`roll_forward`] and [`refuse_torn`] for a command that reads the files `names` in
/// `dir` without writing them (`report`): the folder is locked while the set is rolled
/// forward, then let go. When another run holds it, a marker naming the set is that run's
/// own, mid-save: refused as in use (exit code 2).
///
/// ```
/// use pegsol::output::files::{check_whole, write_atomically, MARKER};
/// use std::os::unix::fs::MetadataExt;
/// let tmp = tempfile::tempdir().unwrap();
/// let dir = tmp.path();
/// check_whole(dir, &["summary.csv"])?; // no marker
/// write_atomically(dir, &[("summary.csv", b"old\n".to_vec()), ("runs.csv", b"old\n".to_vec())])?;
/// // A run killed after renaming summary.csv: runs.csv's new text is in its temporary file.
/// std::fs::write(dir.join("summary.csv"), b"new\n").unwrap();
/// let temp = dir.join(".pegsol-tmp-0.runs.csv.x1y2z3");
/// std::fs::write(&temp, b"new\n").unwrap();
/// let id = |p: &std::path::Path| {
///     let m = std::fs::metadata(p).unwrap();
///     format!("{}\t{}", m.dev(), m.ino())
/// };
/// let journal = format!(
///     "pegsol-replacing 2\nsummary.csv\tsummary.csv\t.pegsol-tmp-0.summary.csv.a1\t{}\n\
///      runs.csv\truns.csv\t.pegsol-tmp-0.runs.csv.x1y2z3\t{}\n",
///     id(&dir.join("summary.csv")),
///     id(&temp),
/// );
/// std::fs::write(dir.join(MARKER), journal).unwrap();
/// // Rolled forward: the set is the new one, whole, and nothing else is left.
/// check_whole(dir, &["summary.csv", "runs.csv"])?;
/// assert_eq!(std::fs::read(dir.join("runs.csv")).unwrap(), b"new\n");
/// let mut names: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name()).collect();
/// names.sort();
/// assert_eq!(names, ["runs.csv", "summary.csv"]);
/// // A marker of an earlier pegsol (names only) cannot be rolled forward: refused.
/// std::fs::write(dir.join(MARKER), "summary.csv\nruns.csv\n").unwrap();
/// check_whole(dir, &["comparison.md"])?; // not one of the set
/// let e = check_whole(dir, &["runs.csv", "summary.csv"]).unwrap_err();
/// assert_eq!(e.exit_code(), 2);
/// assert!(e.to_string().contains("was killed while it replaced them"), "{e}");
/// # Ok::<(), pegsol::error::Error>(())
/// ```
pub fn check_whole(dir: &Path, names: &[&str]) -> Result<()> {
    if dir.join(MARKER).symlink_metadata().is_err() {
        return Ok(());
    }
    match super::dirs::try_lock_dir(dir)? {
        Some(_held) => {
            roll_forward(dir)?;
            refuse_torn(dir, names)
        }
        None => {
            if refuse_torn(dir, names).is_ok() {
                return Ok(());
            }
            Err(Error::input(format!(
                "{} is being written by another pegsol run; wait for it",
                dir.display()
            )))
        }
    }
}
