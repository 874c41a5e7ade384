//! Cluster runs (issue 20): `mpirun -np K pegsol count|table` writes the files of the
//! single-process run, byte for byte, for K = 2 and 3, in memory and with layers on disk;
//! a job one of whose ranks is killed mid-sweep resumes from its checkpoints.
//!
//! These need OpenMPI's `mpirun` and a pegsol built with `--features mpi`: the binary under
//! test when the tests are built with the feature (`cargo test --release --features mpi`,
//! as `.ci/run` does once OpenMPI is installed, with `PEGSOL_REQUIRE_MPI=1`), or the one
//! `PEGSOL_MPI_BIN` names. Without them the tests say so and pass, unless
//! `PEGSOL_REQUIRE_MPI` is set.

use crate::common::pegsol;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const FILES: [&str; 4] = ["summary.csv", "pegs_left.csv", "finish.csv", "depth.csv"];

/// The pegsol built with the mpi feature, when it and mpirun are there.
fn mpi_binary() -> Option<PathBuf> {
    let bin = if cfg!(feature = "mpi") {
        Some(assert_cmd::cargo::cargo_bin("pegsol"))
    } else {
        std::env::var_os("PEGSOL_MPI_BIN").map(PathBuf::from)
    };
    let mpirun = Command::new("mpirun")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    match bin {
        Some(bin) if mpirun && bin.exists() => Some(bin),
        _ => {
            // .ci/run installs OpenMPI and sets PEGSOL_REQUIRE_MPI: there, skipping fails.
            assert!(
                std::env::var_os("PEGSOL_REQUIRE_MPI").is_none(),
                "PEGSOL_REQUIRE_MPI is set but mpirun or PEGSOL_MPI_BIN ({bin:?}) is missing"
            );
            println!(
                "notice: mpirun or PEGSOL_MPI_BIN (a pegsol built with --features mpi) missing; \
                 skipping the MPI tests"
            );
            None
        }
    }
}

/// `mpirun -np RANKS BIN ARGS` in `cwd`.
fn mpirun(bin: &Path, ranks: usize, args: &[&str], cwd: &Path) -> Command {
    let mut c = Command::new("mpirun");
    c.current_dir(cwd)
        .args(["--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(ranks.to_string())
        .arg(bin)
        .args(args);
    c
}

fn ok(out: Output, what: &str) -> Output {
    assert!(
        out.status.success(),
        "{what}: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn assert_same_files(a: &Path, b: &Path, what: &str) {
    for f in FILES {
        assert_eq!(read(&a.join(f)), read(&b.join(f)), "{what}: {f} differs");
    }
}

/// The single-process run's files of `args` in `out`.
fn single(args: &[&str], out: &Path) {
    pegsol()
        .args(args)
        .args(["-j", "2", "--quiet", "--csv"])
        .arg(out)
        .assert()
        .success();
}

/// The arguments of the tri:6 table (every start), and the directory under `tmp` holding
/// its single-process files.
fn single_tri6_table(tmp: &Path) -> ([&'static str; 5], PathBuf) {
    let table = ["table", "--board", "tri:6", "--starts", "all"];
    let want = tmp.join("single");
    single(&table, &want);
    (table, want)
}

/// tri:6 and tri:7 from a1 with 2 and 3 ranks (and 1 or 2 threads each), and english from
/// the centre with 2: the CSV files equal the single-process run's.
#[test]
fn ranks_count_as_one_process() {
    let Some(bin) = mpi_binary() else { return };
    let tmp = tempfile::tempdir().unwrap();
    // (arguments, [(ranks, threads per rank)])
    type Case<'a> = (&'a [&'a str], &'a [(usize, &'a str)]);
    let cases: &[Case] = &[
        (&["count", "--board", "tri:6"], &[(2, "1"), (3, "1")]),
        (
            &["count", "--board", "tri:7", "--hole", "a1"],
            &[(2, "2"), (3, "1")],
        ),
        (&["count", "--board", "english"], &[(2, "1")]),
    ];
    for (i, (args, runs)) in cases.iter().enumerate() {
        let want = tmp.path().join(format!("single-{i}"));
        single(args, &want);
        for &(ranks, threads) in *runs {
            let out = tmp.path().join(format!("mpi-{i}-{ranks}"));
            let o = out.to_str().unwrap();
            let mut all = args.to_vec();
            all.extend(["-j", threads, "--quiet", "--csv", o]);
            let run = ok(
                mpirun(&bin, ranks, &all, tmp.path()).output().unwrap(),
                &format!("{args:?} on {ranks} ranks"),
            );
            // Rank 0 alone prints the summary.
            let text = String::from_utf8_lossy(&run.stdout);
            assert_eq!(text.matches("games   ").count(), 1, "{text}");
            assert_same_files(&want, &out, &format!("{args:?} on {ranks} ranks"));
        }
    }
}

/// The tri:6 table on 2 ranks in memory, and on 3 with every layer on disk in one work
/// directory per rank (`{rank}`): the table's files equal the single-process table's.
#[test]
fn ranks_share_a_table_in_memory_and_on_disk() {
    let Some(bin) = mpi_binary() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (table, want) = single_tri6_table(tmp.path());
    for (ranks, extra) in [(2, &[][..]), (3, &["--work-dir", "work/{rank}"][..])] {
        let out = tmp.path().join(format!("mpi-{ranks}"));
        let mut args = table.to_vec();
        args.extend(["-j", "1", "--quiet", "--csv", out.to_str().unwrap()]);
        args.extend(extra);
        ok(
            mpirun(&bin, ranks, &args, tmp.path()).output().unwrap(),
            &format!("table on {ranks} ranks"),
        );
        assert_same_files(&want, &out, &format!("table on {ranks} ranks"));
        assert_eq!(
            read(&out.join("runs.csv")).lines().count(),
            read(&want.join("runs.csv")).lines().count()
        );
    }
    assert!(
        !tmp.path().join("work/0").exists()
            || std::fs::read_dir(tmp.path().join("work/0"))
                .unwrap()
                .next()
                .is_none(),
        "a finished sweep leaves no work behind"
    );
}

/// The newest checkpoint layer in a rank's work directory.
fn checkpoint_layer(work: &Path) -> Option<u64> {
    let folder = std::fs::read_dir(work).ok()?.flatten().next()?.path();
    let text = std::fs::read_to_string(folder.join("checkpoint.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["layer"].as_u64()
}

/// The process of rank `rank` among the children of `parent` (mpirun starts the ranks of
/// one machine itself), from their environment.
fn rank_pid(parent: u32, rank: usize) -> Option<u32> {
    let want = format!("OMPI_COMM_WORLD_RANK={rank}");
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
        let pid: u32 = e.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
        let ppid: u32 = stat
            .rsplit(')')
            .next()?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
        let env = std::fs::read(e.path().join("environ")).ok()?;
        (ppid == parent && env.split(|&b| b == 0).any(|v| v == want.as_bytes())).then_some(pid)
    })
}

/// The tri:6 table on two ranks with its layers on disk: rank 1 is SIGKILLed mid-sweep,
/// which stops the job with no table file written; the same command then resumes from the
/// last layer both ranks finished, and the files equal an uninterrupted run's.
#[test]
fn a_killed_rank_stops_the_job_which_resumes() {
    let Some(bin) = mpi_binary() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (table, want) = single_tri6_table(tmp.path());
    let out = tmp.path().join("mpi");
    let mut args = table.to_vec();
    args.extend(["-j", "1", "--csv", out.to_str().unwrap()]);
    args.extend(["--work-dir", "work/{rank}"]);
    let mut job = mpirun(&bin, 2, &args, tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let work1 = tmp.path().join("work/1");
    let deadline = Instant::now() + Duration::from_secs(120);
    while checkpoint_layer(&work1).is_none_or(|l| l < 6) && Instant::now() < deadline {
        assert!(
            job.try_wait().unwrap().is_none(),
            "the job ended before layer 6"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let victim = rank_pid(job.id(), 1).expect("rank 1 among mpirun's children");
    let killed = Command::new("kill")
        .args(["-KILL", &victim.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = job.wait().unwrap();
    assert!(!status.success(), "a job with a killed rank must fail");
    assert!(
        FILES.iter().all(|f| !out.join(f).exists()),
        "no table file from a killed sweep"
    );
    let resumed = ok(
        mpirun(&bin, 2, &args, tmp.path()).output().unwrap(),
        "resumed table",
    );
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(stderr.contains("resuming from layer"), "{stderr}");
    assert_same_files(&want, &out, "resumed after a killed rank");
}

/// The lines of `stderr` that pegsol wrote (mpirun adds its own).
fn pegsol_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("pegsol:"))
        .collect()
}

/// Checks that a failed job exited with code 2 and printed exactly one line of pegsol's;
/// returns that line and the whole stderr.
fn one_line(run: &Output) -> (String, String) {
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    let ours = pegsol_lines(&stderr);
    assert_eq!(ours.len(), 1, "{stderr}");
    (ours[0].to_string(), stderr)
}

/// A rank that fails stops the job with one line naming it and the error's exit code.
#[test]
fn a_failing_rank_stops_the_job_with_one_line() {
    let Some(bin) = mpi_binary() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let run = mpirun(&bin, 2, &["count", "--board", "tri:99"], tmp.path())
        .output()
        .unwrap();
    let (line, stderr) = one_line(&run);
    assert!(
        line.starts_with("pegsol: rank 0 of 2: board 'tri:99'"),
        "{stderr}"
    );
    // Rank 1 alone cannot use its work directory (a file stands in its way).
    std::fs::create_dir(tmp.path().join("work")).unwrap();
    std::fs::write(tmp.path().join("work/1"), "").unwrap();
    let run = mpirun(
        &bin,
        2,
        &[
            "count",
            "--board",
            "tri:7",
            "-j",
            "1",
            "--work-dir",
            "work/{rank}",
            "--csv",
            "out",
        ],
        tmp.path(),
    )
    .output()
    .unwrap();
    let (line, stderr) = one_line(&run);
    assert!(line.starts_with("pegsol: rank 1 of 2: "), "{stderr}");
    assert!(
        !tmp.path().join("out/summary.csv").exists(),
        "no CSV from a failed job"
    );
}

/// Ranks on one machine share its default memory budget: each takes its share, where each
/// took 80% of the same free memory before. `PEGSOL_TRACE` says each rank's; an explicit
/// `--max-memory` is each rank's as given.
#[test]
fn ranks_on_one_machine_share_the_default_budget() {
    let Some(bin) = mpi_binary() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for (extra, shared) in [(&[][..], true), (&["--max-memory", "1G"][..], false)] {
        let mut args = vec!["count", "--board", "tri:5", "-q", "-j", "1"];
        args.extend(extra);
        let run = ok(
            mpirun(&bin, 2, &args, tmp.path())
                .env("PEGSOL_TRACE", "1")
                .output()
                .unwrap(),
            "tri:5 on 2 ranks",
        );
        let stderr = String::from_utf8_lossy(&run.stderr);
        for rank in 0..2 {
            let line = format!("rank {rank} of 2: default --max-memory ");
            assert_eq!(stderr.contains(&line), shared, "{extra:?}: {stderr}");
        }
        if shared {
            assert_eq!(
                stderr.matches("(2 ranks on this machine share it)").count(),
                2,
                "{stderr}"
            );
        }
    }
}

/// The random player past exact fractions on 2 ranks, in memory and with every layer on
/// disk (one work directory per rank): random.csv and random_finish.csv equal the
/// single-process run's, byte for byte.
#[test]
fn ranks_give_the_random_players_bytes() {
    let Some(bin) = mpi_binary() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let args = ["count", "--board", "tri:7", "--hole", "a1", "--random"];
    let want = tmp.path().join("single");
    single(&args, &want);
    let disk = ["--work-dir", "w-{rank}", "--max-memory", "64M"];
    for (i, extra) in [&[][..], &disk[..]].iter().enumerate() {
        let out = tmp.path().join(format!("mpi-{i}"));
        let mut all = args.to_vec();
        all.extend_from_slice(extra);
        all.extend(["-j", "1", "--quiet", "--csv", out.to_str().unwrap()]);
        ok(
            mpirun(&bin, 2, &all, tmp.path()).output().unwrap(),
            &format!("{all:?} on 2 ranks"),
        );
        for f in ["random.csv", "random_finish.csv", "summary.csv"] {
            assert_eq!(read(&want.join(f)), read(&out.join(f)), "{extra:?}: {f}");
        }
    }
}
