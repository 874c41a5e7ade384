//! The temporary files of [`super::files::write_atomically`]: named so that they are
//! recognised, and removed by a later run once the run that made them is gone.
//!
//! A new version of a file is written to `.pegsol-tmp-PID.NAME.XXXXXX` beside it, then
//! renamed over it. A run killed before its rename (SIGKILL, a power cut, the allocator's
//! last resort) leaves that file; the next run that writes into the same folder removes
//! every such file whose process (PID) no longer runs. A file of a run still writing is
//! kept, whatever its age, and so is one that the journal of a set being replaced names
//! ([`super::journal`]): the next run that locks the folder renames it into place.

use std::path::Path;

/// The start of every temporary file's name.
pub const PREFIX: &str = ".pegsol-tmp-";

/// The prefix of this process's temporary files for `name`: `.pegsol-tmp-PID.NAME.`.
///
/// ```
/// let p = pegsol::output::temps::prefix("summary.csv");
/// assert_eq!(p, format!(".pegsol-tmp-{}.summary.csv.", std::process::id()));
/// ```
pub fn prefix(name: &str) -> String {
    format!("{PREFIX}{}.{name}.", std::process::id())
}

/// Removes from `folder` the temporary files of runs that no longer run, but not those a
/// journal in `folder` names ([`super::journal::roll_forward`] renames them into place);
/// returns how many. Errors are ignored: what cannot be removed now is removed by a later
/// run.
///
/// ```
/// use pegsol::output::temps::{PREFIX, prefix, remove_stale};
/// let tmp = tempfile::tempdir().unwrap();
/// // A run that is gone (no process has PID 0 to ask about), and this one.
/// std::fs::write(tmp.path().join(format!("{PREFIX}0.a.csv.x1y2z3")), "").unwrap();
/// std::fs::write(tmp.path().join(format!("{}x1y2z3", prefix("b.csv"))), "").unwrap();
/// std::fs::write(tmp.path().join(".a.csv.x1y2z3"), "").unwrap(); // not ours: kept
/// assert_eq!(remove_stale(tmp.path()), 1);
/// assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 2);
/// // A journal names a gone run's file: it is kept for the run that rolls the set forward.
/// let named = format!("{PREFIX}0.c.csv.x1y2z3");
/// std::fs::write(tmp.path().join(&named), "").unwrap();
/// let journal = format!("pegsol-replacing 2\nc.csv\tc.csv\t{named}\t0\t0\n");
/// std::fs::write(tmp.path().join(pegsol::output::files::MARKER), journal).unwrap();
/// assert_eq!(remove_stale(tmp.path()), 0);
/// assert!(tmp.path().join(&named).exists());
/// ```
pub fn remove_stale(folder: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    let named = super::journal::named_temps(folder);
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|rest| rest.split_once('.'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        let keep = named.iter().any(|n| n.file_name() == Some(&name));
        if is_file && !keep && !running(pid) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Whether process `pid` runs (or may: one that cannot be asked is taken as running).
fn running(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 sends nothing; kill only checks that the process exists.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}
