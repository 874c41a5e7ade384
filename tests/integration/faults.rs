//! Faults of the process and its surroundings (issue 63): an address-space limit, a
//! file-size limit, a closed standard output, a kill between the renames of a set of
//! files, rows of the random player's files that pegsol never writes. Each ends in one
//! line and exit code 2, or leaves what the next run repairs.

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

/// The files of a table in CSV format, the random player's included.
const TABLE_FILES: [&str; 7] = [
    "summary.csv",
    "pegs_left.csv",
    "finish.csv",
    "depth.csv",
    "random.csv",
    "random_finish.csv",
    "runs.csv",
];

/// The table in `dir` as bytes: every file it has, runs.csv without its columns that
/// change from run to run (board and start only).
fn table_bytes(dir: &Path) -> Vec<(String, String)> {
    TABLE_FILES
        .iter()
        .filter(|f| dir.join(f).exists())
        .map(|f| {
            let text = std::fs::read_to_string(dir.join(f)).unwrap();
            let text = if *f == "runs.csv" {
                let keys: Vec<String> = text
                    .lines()
                    .map(|l| l.split(',').take(2).collect::<Vec<_>>().join(","))
                    .collect();
                keys.join("\n")
            } else {
                text
            };
            (f.to_string(), text)
        })
        .collect()
}

/// A run killed between the renames of its set of files (PEGSOL_TEST_KILL_AFTER_RENAME)
/// leaves a journal that the next run rolls forward: `report` reads the table the killed
/// run saved, `table` resumes to the bytes of an uninterrupted run, and a new `count`
/// writes its whole set again; no temporary file is left.
#[test]
fn a_kill_between_renames_is_rolled_forward() {
    let dir = tempfile::tempdir().unwrap();
    let kill = [("PEGSOL_TEST_KILL_AFTER_RENAME", "1")];
    let temps = |d: &Path| {
        names(d)
            .into_iter()
            .filter(|n| n.starts_with(".pegsol-tmp-"))
            .count()
    };
    let (code, stderr) = sh("", "table --board tri:5 -q --csv W >/dev/null", dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    let (code, _) = sh_env("", "table --board tri:5 -q --csv T", dir.path(), &kill);
    assert_eq!(code, None, "killed by SIGKILL");
    let t = dir.path().join("T");
    assert!(t.join(".pegsol-replacing").exists(), "{:?}", names(&t));
    assert!(temps(&t) > 0, "{:?}", names(&t));
    let (code, stderr) = sh("", "report T >/dev/null", dir.path());
    assert_eq!(code, Some(0), "report: {stderr}");
    assert!(!t.join(".pegsol-replacing").exists(), "{:?}", names(&t));
    assert_eq!(temps(&t), 0, "{:?}", names(&t));
    let (code, stderr) = sh("", "table --board tri:5 -q --csv T >/dev/null", dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("4 pairs: 0 computed, 4 already complete"),
        "{stderr}"
    );
    assert_eq!(table_bytes(&t), table_bytes(&dir.path().join("W")));
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

/// A table killed after each rename of every save in turn (PEGSOL_TEST_KILL_AFTER_RENAME=N,
/// N = 1, 2, ... until a run ends on its own), with and without the random player's files,
/// and run again, is the table of an uninterrupted run, byte for byte: no window between
/// two renames loses or tears anything.
#[test]
fn a_table_killed_after_any_rename_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for (batch, most) in [
        ("table --board tri:4..6 --starts a1 b3 -j1 -q", 60),
        ("table --board tri:4..5 --random -j1 -q", 60),
    ] {
        let (code, stderr) = sh("", &format!("{batch} --csv whole >/dev/null"), dir.path());
        assert_eq!(code, Some(0), "{batch}: {stderr}");
        let whole = table_bytes(&dir.path().join("whole"));
        let mut killed = 0;
        for n in 1..=most {
            let out = dir.path().join(format!("k{n}"));
            let args = format!("{batch} --csv {} >/dev/null", out.display());
            let at = n.to_string();
            let (code, stderr) = sh_env(
                "",
                &args,
                dir.path(),
                &[("PEGSOL_TEST_KILL_AFTER_RENAME", &at)],
            );
            if code == Some(0) {
                // Fewer renames than n: every window has been tried. The next batch starts
                // from an empty folder.
                std::fs::remove_dir_all(&out).unwrap();
                break;
            }
            assert_eq!(code, None, "{batch}, kill after rename {n}: {stderr}");
            killed += 1;
            let (code, stderr) = sh("", &args, dir.path());
            assert_eq!(code, Some(0), "{batch}, resumed after rename {n}: {stderr}");
            assert_eq!(table_bytes(&out), whole, "{batch}, killed after rename {n}");
            assert_eq!(names(&out).iter().filter(|f| f.starts_with('.')).count(), 0);
            std::fs::remove_dir_all(&out).unwrap();
        }
        assert!(killed >= 5 && killed < most, "{batch}: {killed} kills");
        std::fs::remove_dir_all(dir.path().join("whole")).unwrap();
    }
}

/// A table without the random player's figures has no random.csv or random_finish.csv,
/// yet those names are checked before a run as the others are: one that cannot be
/// replaced by a file is refused before any work.
#[test]
fn the_random_files_are_of_the_set_only_when_written() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = sh("", "table --board tri:4 -q --csv T >/dev/null", dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    let t = dir.path().join("T");
    assert_eq!(
        names(&t),
        [
            "depth.csv",
            "finish.csv",
            "pegs_left.csv",
            "runs.csv",
            "summary.csv"
        ]
    );
    std::os::unix::fs::symlink("/dev/null", t.join("random.csv")).unwrap();
    let outcome = sh("", "table --board tri:4..5 -q --csv T", dir.path());
    assert_one_line(
        &outcome,
        "random.csv: it is not a regular file",
        "random.csv",
    );
    assert!(!outcome.1.contains("computed"), "{}", outcome.1);
}

/// A table with the random player's rows damaged is refused by `table` and `report` with
/// one line naming the file, the line and what is wrong: a probability past 1, an exact
/// fraction not in lowest terms or not the printed decimal, finishing rows of a pair
/// without random.csv rows, or summing above the win probability.
#[test]
fn damaged_random_rows_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = sh(
        "",
        "table --board tri:5 --random -q --csv W >/dev/null",
        dir.path(),
    );
    assert_eq!(code, Some(0), "{stderr}");
    let whole = dir.path().join("W");
    let random = std::fs::read_to_string(whole.join("random.csv")).unwrap();
    let finish = std::fs::read_to_string(whole.join("random_finish.csv")).unwrap();
    // The first row of each: a1, one peg left / finishing in a1.
    let line2 = |text: &str| text.lines().nth(1).unwrap().to_string();
    let cells = |line: &str| line.split(',').map(str::to_string).collect::<Vec<_>>();
    let (r, f) = (cells(&line2(&random)), cells(&line2(&finish)));
    let (num, den) = r[4].split_once('/').unwrap();
    let doubled = format!(
        "{},{},{},{},{}/{}",
        r[0],
        r[1],
        r[2],
        r[3],
        2 * num.parse::<u128>().unwrap(),
        2 * den.parse::<u128>().unwrap()
    );
    let cases: Vec<(&str, String, String, String)> = vec![
        (
            "random.csv",
            line2(&random),
            format!("{},{},{},1.5,", r[0], r[1], r[2]),
            "random.csv: line 2: tri:5 a1: probability '1.5' is not a probability from 0 to 1"
                .into(),
        ),
        (
            "random.csv",
            line2(&random),
            doubled,
            "random.csv: line 2: tri:5 a1: exact '".into(),
        ),
        (
            "random.csv",
            line2(&random),
            format!("{},{},{},0.5,{}", r[0], r[1], r[2], r[4]),
            "random.csv: line 2: tri:5 a1: probability 0.5 is not exact".into(),
        ),
        (
            "random_finish.csv",
            line2(&finish),
            format!("{},{},{},1,", f[0], f[1], f[2]),
            "random_finish.csv: line 2: tri:5 a1: the finishing probabilities sum to 1".into(),
        ),
    ];
    for (file, from, to, says) in cases {
        let copy = dir.path().join("D");
        std::fs::create_dir_all(&copy).unwrap();
        for f in TABLE_FILES {
            std::fs::copy(whole.join(f), copy.join(f)).unwrap();
        }
        let text = std::fs::read_to_string(copy.join(file)).unwrap();
        std::fs::write(copy.join(file), text.replacen(&from, &to, 1)).unwrap();
        for args in ["report D", "table --board tri:5 --random -q --csv D"] {
            let outcome = sh("", args, dir.path());
            assert_one_line(&outcome, says.as_str(), &format!("{args}: {to}"));
        }
        std::fs::remove_dir_all(&copy).unwrap();
    }
    // random.csv without a1's rows: its random_finish rows belong to no pair there.
    let copy = dir.path().join("D");
    std::fs::create_dir_all(&copy).unwrap();
    for f in TABLE_FILES {
        std::fs::copy(whole.join(f), copy.join(f)).unwrap();
    }
    let kept: Vec<&str> = random
        .lines()
        .filter(|l| !l.starts_with("tri:5,a1,"))
        .collect();
    std::fs::write(copy.join("random.csv"), kept.join("\n") + "\n").unwrap();
    let outcome = sh("", "report D", dir.path());
    assert_one_line(
        &outcome,
        "random_finish.csv: line 2: tri:5 a1: a finish row for a pair without random.csv rows",
        "a1 without random.csv rows",
    );
}
