//! The command line: defaults, CSV contract, thread independence and bad input.

use crate::common::pegsol;
use predicates::str::contains;
use std::path::Path;

#[test]
fn no_arguments_prints_help() {
    pegsol().assert().success().stdout(contains("Usage"));
}

#[test]
fn default_count_is_tri5_corner() {
    pegsol()
        .args(["count", "--quiet"])
        .assert()
        .success()
        .stdout(contains("wins                29,760"))
        .stdout(contains("games               568,630"));
}

#[test]
fn board_command_describes_the_board() {
    pegsol()
        .args(["board", "english"])
        .assert()
        .success()
        .stdout(contains("33 holes, 76 jumps"))
        .stdout(contains("symmetry group of order 8"));
    // Also as the other commands take a board; not both at once.
    pegsol()
        .args(["board", "--board", "french"])
        .assert()
        .success()
        .stdout(contains("37 holes"));
    pegsol()
        .args(["board", "english", "--board", "french"])
        .assert()
        .code(2);
}

/// Built-in board names are read in any case and written in lower case (the CSV's `board`
/// column, a table's key), so `TRI:4` and `tri:4` are one board to `table`.
#[test]
fn built_in_board_names_are_read_in_any_case() {
    pegsol()
        .args(["count", "-q", "--board", "TRI:5"])
        .assert()
        .success()
        .stdout(contains("board tri:5, start a1"))
        .stdout(contains("games               568,630"));
    // One board, one name: the size in plain digits.
    pegsol()
        .args(["count", "-q", "--board", "tri:+05"])
        .assert()
        .success()
        .stdout(contains("board tri:5, start a1"));
    pegsol()
        .args(["board", "English"])
        .assert()
        .success()
        .stdout(contains("33 holes, 76 jumps"));
    let dir = tempfile::tempdir().unwrap();
    pegsol()
        .args([
            "table", "-q", "--board", "Tri:4", "--board", "tri:4", "--board", "tri:04", "--board",
            "TRI:+4", "--csv",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let summary = read(dir.path(), "summary.csv");
    assert_eq!(summary.lines().count(), 1 + 3, "{summary}"); // a1, a2, b3, once each
    assert!(
        summary.lines().skip(1).all(|l| l.starts_with("tri:4,")),
        "{summary}"
    );
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn csv_files_follow_the_contract() {
    let dir = tempfile::tempdir().unwrap();
    pegsol()
        .args(["count", "--board", "tri:5", "--hole", "a1", "--csv"])
        .arg(dir.path())
        .assert()
        .success();
    let summary = read(dir.path(), "summary.csv");
    assert_eq!(
        summary,
        "board,start,positions,positions_reduced,games,wins,max_dead_end_pegs,max_dead_end_games,shortest_game_jumps,shortest_game_games\n\
         tri:5,a1,3016,1544,568630,29760,8,2,6,2\n"
    );
    let pegs = read(dir.path(), "pegs_left.csv");
    assert!(pegs.starts_with("board,start,pegs_left,games\ntri:5,a1,1,29760\n"));
    let finish = read(dir.path(), "finish.csv");
    assert!(finish.starts_with("board,start,finish,wins\ntri:5,a1,a1,6816\n"));
    let depth = read(dir.path(), "depth.csv");
    assert!(depth.starts_with(
        "board,start,jumps,positions,positions_reduced,games_ended,dead_ends\ntri:5,a1,0,1,1,0,0\n"
    ));
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 4, "only the four CSV files: {names:?}");
}

/// The same CSV files with 1 and 4 threads, on boards of each lattice.
#[test]
fn threads_do_not_change_the_answer() {
    for (board, hole) in [
        ("tri:6", "a1"),
        ("tri:6", "c4"),
        ("tri:7", "b3"),
        ("boards/hex2.txt", "c3"),
        ("line:12", "b1"),
    ] {
        let dirs: Vec<_> = ["1", "4"]
            .iter()
            .map(|threads| {
                let dir = tempfile::tempdir().unwrap();
                pegsol()
                    .args([
                        "count",
                        "--board",
                        board,
                        "--hole",
                        hole,
                        "--threads",
                        threads,
                    ])
                    .arg("--csv")
                    .arg(dir.path())
                    .assert()
                    .success();
                dir
            })
            .collect();
        for name in ["summary.csv", "pegs_left.csv", "finish.csv", "depth.csv"] {
            assert_eq!(
                read(dirs[0].path(), name),
                read(dirs[1].path(), name),
                "{board} {hole} {name}"
            );
        }
    }
}

/// Bad input: exit code 2, exactly one line on stderr, nothing left in the output directory.
/// Asserts that a run given `args` was refused as bad input: exit code 2, one line on
/// stderr holding `message`, and nothing made in `dir`.
fn assert_refused(
    out: &std::process::Output,
    args: &[impl std::fmt::Debug],
    message: &str,
    dir: &Path,
) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(message), "{args:?}: {stderr}");
    assert_eq!(std::fs::read_dir(dir).unwrap().count(), 0, "{args:?}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let bad_file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(bad_file.path(), "lattice: square\noo?o\n").unwrap();
    let bad_lattice = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(bad_lattice.path(), "lattice: hexagonal\nooo\n").unwrap();
    let empty_file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(empty_file.path(), "# nothing\n").unwrap();
    let two_lattices = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        two_lattices.path(),
        "lattice: square\nlattice: triangular\n.\noo\n",
    )
    .unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--board".into(), two_lattices.path().display().to_string()],
            "a second 'lattice:' line",
        ),
        (vec!["--max-memory".into(), "0".into()], "at least 64.0 KiB"),
        (
            vec!["--max-memory".into(), "1K".into()],
            "at least 64.0 KiB",
        ),
        (
            // Once minutes of passes split in two, the buffers of 1,024 threads outgrowing it.
            vec![
                "--threads".into(),
                "1024".into(),
                "--max-memory".into(),
                "64K".into(),
            ],
            "too small for 1024 threads (at least 16.0 KiB a thread): give at most 4 threads",
        ),
        (vec!["--board".into(), "hexagon".into()], "unknown board"),
        (
            vec!["--board".into(), "./missing.txt".into()],
            "board file ./missing.txt does not exist",
        ),
        (
            vec!["--board".into(), "/tmp".into()],
            "board file /tmp is not a regular file",
        ),
        (
            vec![
                "--board".into(),
                "tri:5".into(),
                "--hole".into(),
                "f6".into(),
            ],
            "not on board",
        ),
        (
            vec![
                "--board".into(),
                "tri:5".into(),
                "--hole".into(),
                "zz".into(),
            ],
            "not on board",
        ),
        (
            vec![
                "--board".into(),
                "tri:5".into(),
                "--hole".into(),
                "c3".into(),
                "--hole".into(),
                "c3".into(),
            ],
            "named twice",
        ),
        (vec!["--board".into(), "tri:2".into()], "size must be"),
        (vec!["--board".into(), "tri:99".into()], "size must be"),
        (vec!["--board".into(), "line:x".into()], "size must be"),
        (
            vec!["--board".into(), bad_file.path().display().to_string()],
            "unexpected character",
        ),
        (
            vec!["--board".into(), bad_lattice.path().display().to_string()],
            "unknown lattice",
        ),
        (
            vec!["--board".into(), empty_file.path().display().to_string()],
            "no holes",
        ),
        (vec!["--threads".into(), "many".into()], "invalid value"),
        (
            vec!["--threads".into(), "100000".into()],
            "at most 1024 threads",
        ),
        (vec!["--max-memory".into(), "lots".into()], "invalid"),
        (vec!["--frobnicate".into()], "unexpected argument"),
        (
            vec![
                "--board".into(),
                "tri:6".into(),
                "--max-memory".into(),
                "64K".into(),
                "--max-disk".into(),
                "1K".into(),
            ],
            "layer 5 needs about 4176 bytes on disk, more than --max-disk 1.0 KiB",
        ),
    ];
    for (args, message) in cases {
        // The output folder does not exist yet: a refused run leaves none behind, even
        // one refused after its sweep started (`--max-disk`).
        let dir = tempfile::tempdir().unwrap();
        let out = pegsol()
            .arg("count")
            .args(&args)
            .arg("--csv")
            .arg(dir.path().join("out/tri"))
            .output()
            .unwrap();
        assert_refused(&out, &args[..], message, dir.path());
    }
}

/// Outputs are renamed into place, so a target that is not a regular file (a device, a
/// FIFO, a link to one or to nothing) would be replaced by one: each is refused with one
/// line and exit 2 and left as it was, before the command computes anything. A link to a
/// regular file is written through, and stays a link.
#[test]
fn outputs_never_replace_what_is_not_a_regular_file() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let fifo = |p: &Path| {
        assert!(
            std::process::Command::new("mkfifo")
                .arg(p)
                .status()
                .unwrap()
                .success()
        )
    };
    fifo(&d.join("game.svg"));
    std::os::unix::fs::symlink("/dev/null", d.join("null.svg")).unwrap();
    std::os::unix::fs::symlink("missing.svg", d.join("dangling.svg")).unwrap();
    for (svg, message) in [
        ("game.svg", "it is not a regular file"),
        ("null.svg", "it is not a regular file"),
        ("dangling.svg", "it is a link to nothing"),
    ] {
        let out = pegsol()
            .current_dir(d)
            .args(["solve", "--board", "tri:5", "--svg", svg])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{svg}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{svg}: {stderr}");
        assert!(stderr.contains(message), "{svg}: {stderr}");
        assert!(out.stdout.is_empty(), "{svg}: refused before solving");
        assert!(!d.join(svg).metadata().is_ok_and(|m| m.is_file()), "{svg}");
    }
    // The CSV files of count, table and solvable: checked before the sweep.
    for (args, name) in [
        (&["count", "-q", "--board", "tri:5"][..], "depth.csv"),
        (&["table", "-q", "--board", "tri:5"], "runs.csv"),
        (&["solvable", "-q", "--board", "tri:5"], "solvable.csv"),
    ] {
        let out_dir = d.join(format!("out-{}", args[0]));
        std::fs::create_dir(&out_dir).unwrap();
        fifo(&out_dir.join(name));
        let out = pegsol()
            .args(args)
            .arg("--csv")
            .arg(&out_dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        let want = format!(
            "pegsol: cannot write {}: it is not a regular file",
            out_dir.join(name).display()
        );
        assert_eq!(stderr.trim_end(), want, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: refused before the sweep");
        assert_eq!(std::fs::read_dir(&out_dir).unwrap().count(), 1, "{args:?}");
    }
    // Through a link to a regular file: the file is replaced, the link kept.
    let linked = d.join("linked");
    std::fs::create_dir(&linked).unwrap();
    std::fs::write(d.join("real.csv"), "old\n").unwrap();
    std::os::unix::fs::symlink("../real.csv", linked.join("summary.csv")).unwrap();
    pegsol()
        .args(["count", "-q", "--board", "tri:5", "--csv"])
        .arg(&linked)
        .assert()
        .success();
    assert!(
        linked
            .join("summary.csv")
            .symlink_metadata()
            .unwrap()
            .is_symlink()
    );
    assert!(read(d, "real.csv").ends_with("\ntri:5,a1,3016,1544,568630,29760,8,2,6,2\n"));
}

/// A directory another run is writing (here the test holds its lock, as that run would)
/// is refused with one line: a table's or a count's `--csv`, and a sweep's folder in
/// `--work-dir`. Before, two tables into one directory both succeeded and one lost its
/// rows, and two counts on one work directory tripped over each other's layer files.
#[test]
fn directories_in_use_by_another_run_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("csv");
    let folder = tmp.path().join("work").join("tri_5_from_a1");
    std::fs::create_dir_all(&csv).unwrap();
    std::fs::create_dir_all(&folder).unwrap();
    let held: Vec<std::fs::File> = [&csv, &folder]
        .iter()
        .map(|d| {
            let f = std::fs::File::open(d).unwrap();
            f.try_lock().unwrap();
            f
        })
        .collect();
    for (args, option) in [
        (
            vec!["table", "-q", "--board", "tri:5", "--csv", "csv"],
            "--csv",
        ),
        (
            vec!["count", "-q", "--board", "tri:5", "--csv", "csv"],
            "--csv",
        ),
        // Reached through a folder this run makes: refused, it removes that folder only,
        // never the one another run holds (which it once took for its own).
        (
            vec!["count", "-q", "--board", "tri:5", "--csv", "new/../csv"],
            "--csv",
        ),
        (
            vec!["count", "-q", "--board", "tri:5", "--work-dir", "work"],
            "--work-dir",
        ),
    ] {
        let out = pegsol()
            .current_dir(tmp.path())
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "is in use by another pegsol run; wait for it, or give another {option}"
            )),
            "{args:?}: {stderr}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&csv).unwrap().count(),
        0,
        "nothing written"
    );
    assert!(!tmp.path().join("new").exists());
    // An empty folder of the user's, reached the same way, by a run refused later on
    // (`--max-disk`): kept.
    std::fs::create_dir(tmp.path().join("keep")).unwrap();
    pegsol()
        .current_dir(tmp.path())
        .args(["count", "-q", "--board", "tri:6", "--csv", "new/../keep"])
        .args(["--max-memory", "64K", "--max-disk", "1K"])
        .assert()
        .code(2);
    assert!(tmp.path().join("keep").is_dir());
    assert!(!tmp.path().join("new").exists());
    drop(held);
    pegsol()
        .current_dir(tmp.path())
        .args(["table", "-q", "--board", "tri:5", "--csv", "csv"])
        .assert()
        .success();
}

/// Input quoted in an error cannot flood stderr or break its one line: a game file of one
/// 5 MB token (once a 5 MB line) and a board file with a NUL byte.
#[test]
fn errors_quote_input_within_one_short_line() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("long.txt");
    std::fs::write(
        &game,
        format!("board: tri:5\n{}\n", "a3-a1".repeat(1_000_000)),
    )
    .unwrap();
    let board = tmp.path().join("nul.txt");
    std::fs::write(&board, b"o\x00o\no.o\n").unwrap();
    for args in [
        vec!["check".to_string(), game.display().to_string()],
        vec!["board".to_string(), board.display().to_string()],
    ] {
        let out = pegsol().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.len() < 1_200, "{args:?}: {} bytes", stderr.len());
        assert!(
            !stderr.trim_end().contains(char::is_control),
            "{args:?}: {stderr:?}"
        );
    }
}

/// Bad input to the commands other than `count`: one line, exit 2, and no file made (a
/// FILE of `-` was once created under that name).
#[test]
fn other_commands_refuse_bad_input_on_one_line() {
    let game = "board: tri:5\nstart: a1\n1. a3-a1\n";
    let repeated = format!("{game}1. c3-a3\n");
    let skipped = format!("{game}3. c3-a3\n");
    let cases: Vec<(&[&str], &str, &str)> = vec![
        (&["solve", "--svg", "-"], "", "a file name"),
        (
            &["hint", "--position", "a1", "--cache", "-"],
            "",
            "a file name",
        ),
        (&["hint", "--position", "a1+"], "", "a hole name is missing"),
        (&["hint", "--position", "+a1"], "", "a hole name is missing"),
        (
            &["hint", "--position", "a1++b3"],
            "",
            "a hole name is missing",
        ),
        (
            &["hint", "--position", "a1,,b3"],
            "",
            "a hole name is missing",
        ),
        (
            &["hint", "--position", "./oo/ooo/oooo/ooooo/"],
            "",
            "ends with '/'",
        ),
        (&["check", "-"], &repeated, "move number '1.' where 2. was"),
        (&["check", "-"], &skipped, "move number '3.' where 2. was"),
    ];
    for (args, stdin, message) in cases {
        let cwd = tempfile::tempdir().unwrap();
        let out = pegsol()
            .current_dir(cwd.path())
            .args(args)
            .write_stdin(stdin)
            .output()
            .unwrap();
        assert_refused(&out, args, message, cwd.path());
    }
    // The same game, numbered in order or not at all, is legal.
    for text in [format!("{game}2. c3-a3\n"), format!("{game}c3-a3\n")] {
        pegsol()
            .args(["check", "-"])
            .write_stdin(text)
            .assert()
            .success();
    }
}

/// A missing required argument is named on the one line (clap puts it on a line of its own).
#[test]
fn a_missing_argument_is_named_on_one_line() {
    let out = pegsol()
        .args(["hint", "--board", "english"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("not provided: --position <POSITION>"),
        "{stderr}"
    );
}

#[test]
fn unwritable_output_dir_is_refused_before_counting() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let out = pegsol()
        .args(["count", "--board", "tri:5", "--csv"])
        .arg(file.path().join("sub"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("not writable"), "{stderr}");
}

/// A budget below the smallest a sweep can use (64K) is refused with one line, before
/// anything is made.
#[test]
fn memory_limit_refuses_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let out = pegsol()
        .current_dir(cwd.path())
        .args([
            "count",
            "-q",
            "--board",
            "tri:6",
            "--max-memory",
            "4K",
            "--csv",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--max-memory"), "{stderr}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// Runs `pegsol args` under an address-space limit of `kib` KiB (`ulimit -v`) and asserts
/// that it refuses with one line holding `says` and exit code 2: a run that grew past its
/// `--max-memory` hits that wall first and aborts on a failed allocation.
#[cfg(target_os = "linux")]
fn refuses_under_ulimit(kib: u64, args: &str, says: &[&str]) {
    refuses_under_ulimit_with(kib, &[], args, says);
}

fn refuses_under_ulimit_with(kib: u64, env: &[(&str, &str)], args: &str, says: &[&str]) {
    let out = crate::common::under_ulimit_with(kib, env, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for phrase in says {
        assert!(stderr.contains(phrase), "{stderr}");
    }
    assert!(stderr.contains("max-memory"), "{stderr}");
}

/// Without `--max-memory`, the budget follows the process's own limits, not only the
/// machine's free memory: under `ulimit -v` (here 1.5 GB on a machine with far more free)
/// `solvable --board wiegleb` refused at the limit, where it had aborted on a failed
/// allocation with a backtrace.
#[test]
#[cfg(target_os = "linux")]
fn the_default_budget_respects_an_address_space_limit() {
    refuses_under_ulimit(1_500_000, "solvable -q --board wiegleb", &["(the limit"]);
    // An explicit budget past that limit is refused before the run.
    let out = crate::common::under_ulimit(300_000, "count -q --board tri:5 --max-memory 1G");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("this process may still use"), "{stderr}");
}

/// The same under a control group's memory limit (a batch scheduler's or a container's,
/// which /proc/meminfo does not show): a 400 MB group, where `solvable --board wiegleb`
/// was killed by the kernel (exit 137), refuses with one line, and `count --board
/// english` (128 MB) still completes in it, and `--max-memory 1G` is refused at once.
/// Needs a writable cgroup v1 memory hierarchy
/// (root on this project's machines); elsewhere it says so on stderr and checks nothing.
#[test]
#[cfg(target_os = "linux")]
fn the_default_budget_respects_a_cgroup_memory_limit() {
    let root = Path::new("/sys/fs/cgroup/memory");
    let group = root.join(format!("pegsol-test-{}", std::process::id()));
    if !root.join("memory.limit_in_bytes").exists() || std::fs::create_dir(&group).is_err() {
        eprintln!("no writable cgroup v1 memory hierarchy: not checked");
        return;
    }
    std::fs::write(group.join("memory.limit_in_bytes"), "400M").unwrap();
    let bin = assert_cmd::cargo::cargo_bin("pegsol");
    let run = |args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "echo $$ > '{}/cgroup.procs' && exec '{}' {args}",
                group.display(),
                bin.display()
            ))
            .output()
            .unwrap()
    };
    let refused = run("solvable -q --board wiegleb");
    let finished = run("count -q --board english");
    let past = run("count -q --board tri:5 --max-memory 1G");
    std::fs::remove_dir(&group).unwrap();
    let stderr = String::from_utf8_lossy(&past.stderr);
    assert_eq!(past.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("this process may still use"), "{stderr}");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("(the limit"), "{stderr}");
    assert_eq!(finished.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&finished.stdout)
            .contains("wins                81,723,294,080,159,936")
    );
}

/// `solvable` weighs the buffers of the layer it is building, not only the layers it
/// keeps: before, `solvable --board wiegleb --max-memory 300M` took 1.9 GB (and the default
/// limit, 80% of the memory, was passed until the system killed the run at 21.7 GB).
/// Under a 1.5 GB address space it then aborted on a failed allocation.
#[test]
#[cfg(target_os = "linux")]
fn solvable_refuses_before_outgrowing_its_memory_limit() {
    refuses_under_ulimit(
        1_500_000,
        "solvable -q --board wiegleb --max-memory 300M",
        // The layers' check says "300.0 MiB (the limit)"; the watch of the resident memory,
        // when it stops the run first, "300.00 MiB (the limit; it had taken 300.01 MiB".
        &["more than 300.0", "MiB (the limit"],
    );
}

/// `extremes` runs the counting engine, which moves its layers to disk rather than grow
/// past `--max-memory`: french's shortest games (15 jumps, as results/summary.csv from a
/// whole count) within 500 MB under a 1.3 GB address space, where the plain sweep it
/// replaced refused, even without a limit (after 208 s at 17.1 GB).
#[test]
#[cfg(target_os = "linux")]
fn extremes_stays_within_its_memory_limit_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("pegsol");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1300000 && exec '{}' extremes --board french -q --max-memory 500M \
             --work-dir '{}'",
            bin.display(),
            dir.path().display()
        ))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains("shortest game (Fool's solitaire): 15 jumps, 133,736,880 games"),
        "{stdout}"
    );
    assert!(stdout.contains("final position: 21 pegs"), "{stdout}");
}

/// `solve --min-moves` weighs the new positions of a depth as they are found: before, it
/// found all of them first, and `solve --board tri:8 --min-moves --all-starts --max-memory
/// 300M` took 625 MB before refusing (it aborted under a 650 MB address space). Since
/// 4 December 2026 a layer that would not fit (weighed by the sample's overestimate) is not
/// grown: the rest of the limit is walked depth first within the memory left, so the same
/// run at a third of the scale, with the layers grown to the end (`PEGSOL_TRIAL=0`), finds
/// its 13 moves under `--max-memory 100M` in a 200 MB address space where it refused: by
/// the walk alone (`PEGSOL_BEAM=0`), and by the beams tried before it.
#[test]
#[cfg(target_os = "linux")]
fn min_moves_stays_within_its_memory_limit() {
    // The walk alone (no beam before it), then the beams that go first.
    for (beam, how) in [("0", "walked depth first"), ("", "searched by a beam")] {
        let mut vars = vec![("PEGSOL_TRIAL", "0")];
        if !beam.is_empty() {
            vars.push(("PEGSOL_BEAM", beam));
        }
        let out = crate::common::under_ulimit_with(
            200_000,
            &vars,
            "solve --board tri:8 --min-moves --all-starts --max-memory 100M -j 2",
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(
            stdout.contains("fewest moves from any single vacancy to one peg anywhere: 13"),
            "{stdout}"
        );
        assert!(stdout.contains(how), "{stdout}");
    }
    // With too little memory left for the walk to remember positions, the layer is grown
    // and the search refuses.
    // A small limit is named in its own unit (it said "more than 0 MiB").
    pegsol()
        .args([
            "solve",
            "--board",
            "english",
            "--min-moves",
            "--max-memory",
            "64K",
        ])
        .assert()
        .code(2)
        .stderr(contains(
            "english: the fewest-moves search needs more than 64.0 KiB (the limit; 82.3 KiB \
             at depth 7: 1990 positions stored, 2413 new at least)",
        ));
}

/// `reach --count` weighs its memo's table as it doubles (old and new slots at once), not
/// at 40 bytes a position: before, `reach --board english --to <d4 alone> --count
/// --max-memory 300M` took 413 MB and aborted under a 600 MB address space, asking for
/// 553 MB more.
#[test]
#[cfg(target_os = "linux")]
fn reach_count_refuses_before_outgrowing_its_memory_limit() {
    refuses_under_ulimit(
        600_000,
        "reach --board english --to '--...--/--...--/......./...o.../......./--...--/--...--' \
         --count --max-memory 300M",
        &["doubling the count's table needs more than 300.0 MiB (the limit; "],
    );
}

/// No subcommand defines a flag twice (e.g. through shared flattened option groups).
#[test]
fn no_subcommand_repeats_a_flag() {
    use clap::CommandFactory;
    let mut cli = pegsol::cli::Cli::command();
    cli.build();
    for sub in cli.get_subcommands() {
        let mut longs: Vec<&str> = sub.get_arguments().filter_map(|a| a.get_long()).collect();
        let total = longs.len();
        longs.sort_unstable();
        longs.dedup();
        assert_eq!(longs.len(), total, "pegsol {}: {longs:?}", sub.get_name());
    }
}

#[test]
fn completions_and_man_pages_come_from_the_parser() {
    for shell in ["bash", "zsh", "fish"] {
        pegsol()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(contains("pegsol"))
            .stdout(contains("max-memory"));
    }
    pegsol()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(contains("tcsh"));
    pegsol()
        .arg("man")
        .assert()
        .success()
        .stdout(contains(".TH pegsol 1"))
        .stdout(contains("table"));
    let dir = tempfile::tempdir().unwrap();
    pegsol()
        .args(["man", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    let page = std::fs::read_to_string(dir.path().join("pegsol-count.1")).unwrap();
    assert!(page.contains("\\-\\-max\\-memory"), "{page}");
    assert!(dir.path().join("pegsol.1").exists());
}

/// Runs `pegsol` with `args` under `sh -c`, after `setup` (shell text: a umask, a
/// redirection), and returns (exit code, stderr).
#[cfg(target_os = "linux")]
fn sh(setup: &str, args: &str, cwd: &Path) -> (Option<i32>, String) {
    let bin = assert_cmd::cargo::cargo_bin("pegsol");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{setup} '{}' {args}", bin.display()))
        .current_dir(cwd)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Output that cannot be written fails the command: a full stdout is exit code 2 with
/// one line (a closed pipe is not: `| head` is normal use), a full stderr loses the notes
/// without a panic, and the files are whole.
#[cfg(target_os = "linux")]
#[test]
fn full_stdout_fails_and_full_stderr_is_harmless() {
    let dir = tempfile::tempdir().unwrap();
    for args in ["count -q", "man", "board english"] {
        let (code, stderr) = sh("exec >/dev/full;", args, dir.path());
        assert_eq!(code, Some(2), "{args}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("cannot write to standard output"),
            "{stderr}"
        );
    }
    let (code, stderr) = sh("", "count | head -c 10 >/dev/null", dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    // `table` writes a closing line to stderr; `count` on disk a note.
    let (code, _) = sh(
        "exec 2>/dev/full;",
        "table --board tri:5 -q --csv t",
        dir.path(),
    );
    assert_eq!(code, Some(0));
    let (code, _) = sh(
        "exec 2>/dev/full;",
        "count --board tri:6 -j 2 --max-memory 300K --csv c >/dev/null",
        dir.path(),
    );
    assert_eq!(code, Some(0));
    // The same counts as the table in results/ (which adds the start class's size and,
    // made with `--random`, the random player's columns after it).
    let summary = std::fs::read_to_string(dir.path().join("c/summary.csv")).unwrap();
    let results = std::fs::read_to_string("results/summary.csv").unwrap();
    let row = results
        .lines()
        .find(|l| l.starts_with("tri:6,a1,"))
        .unwrap();
    let counted = summary.lines().nth(1).unwrap();
    let fields = counted.split(',').count();
    let committed: Vec<&str> = row.split(',').take(fields).collect();
    assert_eq!(counted, committed.join(","));
    assert!(!dir.path().join("pegsol-work").exists());
}

/// Files are created as any program creates them, 0666 less the umask, not with the
/// temporary file's 0600; and a set of files of which one cannot be written is not begun.
#[cfg(target_os = "linux")]
#[test]
fn written_files_take_the_umask_and_sets_are_whole() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = sh("umask 022;", "count -q --csv out >/dev/null", dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir.path().join("out/summary.csv")), 0o644);
    let (code, _) = sh(
        "umask 077;",
        "count -q --csv private >/dev/null",
        dir.path(),
    );
    assert_eq!(code, Some(0));
    assert_eq!(mode(&dir.path().join("private/depth.csv")), 0o600);
    std::fs::create_dir_all(dir.path().join("set/finish.csv")).unwrap();
    let (code, stderr) = sh("", "count -q --csv set >/dev/null", dir.path());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("is a directory"), "{stderr}");
    let names: Vec<_> = std::fs::read_dir(dir.path().join("set"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["finish.csv"], "nothing written beside it");
}
