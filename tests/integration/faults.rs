//! Faults of the process and its surroundings (issue 63): an address-space limit, a
//! file-size limit, a closed standard output, a kill between the renames of a set of
//! files. Each ends in one line and exit code 2, or leaves what the next run repairs.

#![cfg(target_os = "linux")]

use std::path::Path;

/// Runs `pegsol args` under `sh -c` in `cwd`, after `setup` (shell text: a `ulimit`, a
/// redirection), with the environment `env`; returns (exit code, stderr).
fn sh_env(setup: &str, args: &str, cwd: &Path, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let bin = assert_cmd::cargo::cargo_bin("pegsol");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{setup} exec '{}' {args}", bin.display()))
        .current_dir(cwd)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn sh(setup: &str, args: &str, cwd: &Path) -> (Option<i32>, String) {
    sh_env(setup, args, cwd, &[])
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Asserts a refusal: exit code 2, one line on stderr holding `says`.
fn assert_one_line(outcome: &(Option<i32>, String), says: &str, what: &str) {
    let (code, stderr) = outcome;
    assert_eq!(*code, Some(2), "{what}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
    assert!(stderr.contains(says), "{what}: {stderr}");
}

/// Under `ulimit -v` a sweep either fits or refuses with one line: never an abort on a
/// failed allocation (exit code 134) nor a panic of rayon's global pool (exit code 101).
/// Before, `table --board tri:7` aborted under 300,000 KiB with or without --max-memory
/// 100M, `count --board english` under 140,000 KiB, and `count --board tri:7` under
/// 150,000 KiB sometimes panicked.
#[test]
fn an_address_space_limit_is_kept_or_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let runs = [
        (
            300_000,
            "table --board tri:7 --starts a1 -q --csv T --max-memory 100M",
        ),
        (140_000, "count --board english -q"),
        (150_000, "count --board tri:7 -q"),
        (150_000, "count --board tri:7 -q"),
    ];
    for (kib, args) in runs {
        let (code, stderr) = sh(&format!("ulimit -v {kib};"), args, dir.path());
        match code {
            Some(0) => {}
            Some(2) => assert_eq!(stderr.lines().count(), 1, "{args}: {stderr}"),
            _ => panic!("{args} under ulimit -v {kib}: exit {code:?}: {stderr}"),
        }
    }
}

/// A write past a file-size limit (`ulimit -f`) is refused with one line, exit code 2,
/// and leaves no file: before, SIGXFSZ killed the process (exit code 153) with no line
/// and left the hidden temporary file.
#[test]
fn a_file_size_limit_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let outcome = sh("ulimit -f 1;", "solve --board english --svg F", dir.path());
    assert_one_line(&outcome, "File too large", "solve --svg");
    let outcome = sh("ulimit -f 0;", "table --board tri:5 -q --csv T", dir.path());
    assert_one_line(&outcome, "File too large", "table");
    let outcome = sh("ulimit -f 0;", "board english > out.txt", dir.path());
    assert_one_line(&outcome, "cannot write to standard output", "board > file");
    assert_eq!(names(dir.path()), ["out.txt"], "nothing else left");
}

/// A standard output closed from the start fails the command (its output is lost), and
/// no file the run opens takes its place: before, exit code 0.
#[test]
fn a_closed_stdout_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    for args in ["board english", "count -q --csv out"] {
        let outcome = sh("exec >&-;", args, dir.path());
        assert_one_line(
            &outcome,
            "cannot write to standard output: it is closed",
            args,
        );
    }
    let summary = std::fs::read_to_string(dir.path().join("out/summary.csv")).unwrap();
    assert!(summary.starts_with("board,"), "{summary}");
}

/// Messages name the real cause: a link to nothing (before: "File exists"), a system
/// folder that takes no files (before: "No such file or directory").
#[test]
fn output_directories_are_refused_for_their_real_cause() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("nowhere", dir.path().join("link")).unwrap();
    let outcome = sh("", "count -q --csv link", dir.path());
    assert_one_line(&outcome, "is a link to nothing", "--csv on a dangling link");
    let outcome = sh("", "man --dir /proc", dir.path());
    assert_one_line(
        &outcome,
        "/proc does not accept new files",
        "man --dir /proc",
    );
}

/// A count killed before it writes (SIGKILL, which nothing catches) leaves no empty
/// `--csv` directory: it is made when the files are written.
#[test]
fn a_killed_count_leaves_no_empty_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _) = sh(
        "",
        "count --board english -q --csv out & sleep 1; kill -9 $!; wait $!; exit 0 #",
        dir.path(),
    );
    assert_eq!(code, Some(0));
    assert!(!dir.path().join("out").exists(), "{:?}", names(dir.path()));
}

/// A run killed between the renames of its set of files (PEGSOL_TEST_KILL_AFTER_RENAME)
/// leaves a torn set that `table` and `report` refuse with one line, and temporary files
/// that the next run into the same place removes; a new `count` writes its whole set again.
#[test]
fn a_kill_between_renames_is_detected_and_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let kill = [("PEGSOL_TEST_KILL_AFTER_RENAME", "1")];
    let temps = |d: &Path| {
        names(d)
            .into_iter()
            .filter(|n| n.starts_with(".pegsol-tmp-"))
            .count()
    };
    let (code, _) = sh_env("", "table --board tri:5 -q --csv T", dir.path(), &kill);
    assert_eq!(code, None, "killed by SIGKILL");
    let t = dir.path().join("T");
    assert!(t.join(".pegsol-replacing").exists(), "{:?}", names(&t));
    assert!(temps(&t) > 0, "{:?}", names(&t));
    for args in ["report T", "table --board tri:5 -q --csv T"] {
        let outcome = sh("", args, dir.path());
        assert_one_line(&outcome, "may be of two runs", args);
    }
    // count: killed, then run again into the same place.
    let (code, _) = sh_env("", "count -q --csv C", dir.path(), &kill);
    assert_eq!(code, None, "killed by SIGKILL");
    let c = dir.path().join("C");
    assert!(temps(&c) > 0, "{:?}", names(&c));
    let (code, stderr) = sh("", "count -q --csv C >/dev/null", dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        names(&c),
        ["depth.csv", "finish.csv", "pegs_left.csv", "summary.csv"]
    );
    // A temporary file of a killed `solve --svg` is removed by the next write there.
    std::fs::write(dir.path().join(".pegsol-tmp-0.F.svg.abc123"), "<svg").unwrap();
    let (code, stderr) = sh("", "solve --board tri:5 --svg F.svg >/dev/null", dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(temps(dir.path()), 0, "{:?}", names(dir.path()));
}
