//! Sweeps whose layers live on disk: byte-identical to the sweep in memory for any budget
//! and thread count, resumed after SIGKILL, damaged files and a full disk refused.

use crate::common::pegsol;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const FILES: [&str; 4] = ["summary.csv", "pegs_left.csv", "finish.csv", "depth.csv"];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs `pegsol ARGS --csv OUT` in the working directory `cwd` (where the default work
/// directory goes), asserting success. Returns its trace (`PEGSOL_TRACE=1`, on stderr).
fn run_into(cwd: &Path, args: &[&str], out: &Path) -> String {
    let done = pegsol()
        .current_dir(cwd)
        .env("PEGSOL_TRACE", "1")
        .args(args)
        .arg("--csv")
        .arg(out)
        .arg("--quiet")
        .assert()
        .success();
    String::from_utf8_lossy(&done.get_output().stderr).into_owned()
}

fn assert_same_files(a: &Path, b: &Path, what: &str) {
    for f in FILES {
        assert_eq!(read(&a.join(f)), read(&b.join(f)), "{what}: {f} differs");
    }
}

/// Every class of tri:6, tri:7 from a1 and english from the centre: the CSV files of sweeps
/// on disk (forced by a work directory, or by budgets small enough to spill at several
/// layers, tri:7's in up to three passes a layer), with 1 and 2 threads, equal the sweep in
/// memory byte for byte. Every class at once (the table's lanes) is tri:6's case: every
/// class of tri:7 at 48M took 76 s of the CI's 15 minutes on a slower machine (2 cores,
/// 24 GiB, AMD EPYC at 2.6 GHz; 27 November 2026, ca65279).
///
/// tri:7's and english's passes, as planned, hold within the budget: none is split in two
/// and run again (`PEGSOL_TRACE`'s "outgrew" line). Before the rounds were sized from the
/// children they make, tri:7's split 22 times and english's 4. tri:6's budgets are too
/// small for a round of a few entries, and split.
#[test]
fn disk_sweeps_equal_memory_sweeps() {
    // (command, its variants on disk, whether their passes must hold as planned, its
    // sweep in memory when other tests share it)
    type Case<'a> = (
        &'a [&'a str],
        &'a [&'a [&'a str]],
        bool,
        Option<fn() -> &'static Path>,
    );
    let cases: &[Case] = &[
        (
            &["table", "--board", "tri:6", "--starts", "all"],
            &[
                &["-j", "1", "--work-dir", "WORK"],
                &["-j", "2", "--max-memory", "300K"],
                &["-j", "1", "--max-memory", "120K", "--work-dir", "WORK"],
            ],
            false,
            None,
        ),
        (
            &["count", "--board", "tri:7", "--hole", "a1"],
            &[&["-j", "2", "--max-memory", "16M"]],
            true,
            Some(tri7_whole),
        ),
        (
            &["count", "--board", "english"],
            &[&["-j", "2", "--max-memory", "64M"]],
            true,
            Some(english_whole),
        ),
    ];
    for (command, variants, planned, shared) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let memory = match shared {
            Some(whole) => whole().to_path_buf(),
            None => {
                let memory = tmp.path().join("memory");
                run_into(tmp.path(), command, &memory);
                memory
            }
        };
        for (i, variant) in variants.iter().enumerate() {
            let out = tmp.path().join(format!("disk{i}"));
            let work = tmp.path().join(format!("work{i}"));
            let args: Vec<&str> = command
                .iter()
                .chain(variant.iter())
                .map(|&a| {
                    if a == "WORK" {
                        work.to_str().unwrap()
                    } else {
                        a
                    }
                })
                .collect();
            let trace = run_into(tmp.path(), &args, &out);
            assert_same_files(&memory, &out, &args.join(" "));
            assert!(
                trace.contains("on disk"),
                "{}: no layer on disk",
                args.join(" ")
            );
            if *planned {
                assert!(
                    !trace.contains("outgrew"),
                    "{}: a pass outgrew the budget:\n{trace}",
                    args.join(" ")
                );
            }
            // A successful sweep removes its work.
            assert!(!work.exists(), "{}: work directory left", args.join(" "));
            assert!(
                !tmp.path().join("pegsol-work").exists(),
                "{}: default work directory left",
                args.join(" ")
            );
        }
    }
}

/// The sweep's folder in the work directory `work` (its only entry), once made.
fn sweep_folder(work: &Path) -> Option<std::path::PathBuf> {
    Some(std::fs::read_dir(work).ok()?.flatten().next()?.path())
}

/// The layer a sweep's checkpoint names, if it has one yet.
fn checkpoint_layer(work: &Path) -> Option<usize> {
    let folder = sweep_folder(work)?;
    let text = std::fs::read_to_string(folder.join("checkpoint.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["layer"].as_u64().map(|l| l as usize)
}

const TRI7: [&str; 6] = ["count", "--board", "tri:7", "--hole", "a1", "-j2"];

/// english from the centre on 2 threads.
const ENGLISH: [&str; 4] = ["count", "--board", "english", "-j2"];

/// The CSV files of `args` swept in memory, made once per test process in `cell`: several
/// tests compare with the same uninterrupted run (tri:7 from a1 takes about 5 s on 2 cores,
/// english 4 s), and CI's 15 minutes are short. The files (a few KB) stay in
/// `CARGO_TARGET_TMPDIR`, since a static is never dropped.
fn in_memory(cell: &'static OnceLock<PathBuf>, args: &[&str]) -> &'static Path {
    cell.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("in-memory")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap()
            .keep();
        let out = dir.join("csv");
        run_into(&dir, args, &out);
        out
    })
}

/// [`TRI7`]'s files, swept in memory ([`in_memory`]).
fn tri7_whole() -> &'static Path {
    static CELL: OnceLock<PathBuf> = OnceLock::new();
    in_memory(&CELL, &TRI7)
}

/// [`ENGLISH`]'s files, swept in memory ([`in_memory`]).
fn english_whole() -> &'static Path {
    static CELL: OnceLock<PathBuf> = OnceLock::new();
    in_memory(&CELL, &ENGLISH)
}

/// [`TRI7`] with its layers in `work` and its CSV files in `out`.
fn tri7_into(work: &Path, out: &Path) -> assert_cmd::Command {
    let mut cmd = pegsol();
    cmd.args(TRI7)
        .arg("--work-dir")
        .arg(work)
        .arg("--csv")
        .arg(out);
    cmd
}

/// Starts `pegsol count` on tri:7 with its layers in `work` and SIGKILLs it once its
/// checkpoint has reached `layer`. Returns whether it was still running then.
fn kill_at_layer(work: &Path, out: &Path, layer: usize) -> bool {
    kill_at_layer_of(&TRI7, work, out, layer)
}

/// [`kill_at_layer`] for the command `args`.
fn kill_at_layer_of(args: &[&str], work: &Path, out: &Path, layer: usize) -> bool {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("pegsol"))
        .args(args)
        .arg("--work-dir")
        .arg(work)
        .arg("--csv")
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let deadline = Instant::now() + Duration::from_secs(120);
    while checkpoint_layer(work).is_none_or(|l| l < layer) && Instant::now() < deadline {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let running = child.try_wait().expect("wait").is_none();
    child.kill().expect("SIGKILL");
    child.wait().expect("wait");
    running
}

/// SIGKILL in the middle of a sweep on disk, at two different layers, then the same
/// command again: the files equal an uninterrupted run's, and the damaged layer files of
/// a killed sweep are refused with exit code 2 and one line.
#[test]
fn killed_sweeps_resume_and_damaged_files_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tri7_whole();

    let work = tmp.path().join("work");
    let out = tmp.path().join("out");
    assert!(kill_at_layer(&work, &out, 7), "killed before layer 7");
    let first = checkpoint_layer(&work).expect("a checkpoint after the kill");
    assert!(
        !out.join("summary.csv").exists(),
        "no CSV from a killed sweep"
    );
    assert!(kill_at_layer(&work, &out, 14), "killed before layer 14");
    let second = checkpoint_layer(&work).expect("a checkpoint after the kill");
    assert!(second > first && second < 26, "{first} then {second}");

    // Damage the checkpoint's layer three ways, each on a copy of the work directory.
    let folder = sweep_folder(&work).expect("the sweep's folder");
    let shard = |w: &Path| {
        w.join(folder.file_name().unwrap())
            .join(format!("layer-{second:03}"))
            .join("shard-05")
    };
    let other = tmp.path().join("other");
    pegsol()
        .current_dir(tmp.path())
        .args([
            "count",
            "--board",
            "tri:6",
            "--keep-work",
            "-q",
            "--work-dir",
        ])
        .arg(&other)
        .assert()
        .success();
    let foreign = std::fs::read_dir(&other)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    let foreign_layer = std::fs::read_dir(&foreign)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("layer-"))
        .unwrap()
        .path();
    type Damage = fn(&Path, &Path);
    let damages: [(&str, Damage); 4] = [
        ("truncated", |p, _| {
            let bytes = std::fs::read(p).unwrap();
            std::fs::write(p, &bytes[..bytes.len() - 3]).unwrap();
        }),
        ("flipped byte", |p, _| {
            let mut bytes = std::fs::read(p).unwrap();
            let at = bytes.len() - 10;
            bytes[at] ^= 0x04;
            std::fs::write(p, &bytes).unwrap();
        }),
        ("another board's file", |p, foreign| {
            std::fs::copy(foreign.join("shard-05"), p).unwrap();
        }),
        // The first entry's key edited, and the header's checksum made again: the checksum
        // cannot tell, the entry's position can (it is not one of this shard).
        ("edited, checksum made again", |p, _| {
            let mut bytes = std::fs::read(p).unwrap();
            assert!(bytes.len() > 516, "an entry in shard-05");
            bytes[512..516].copy_from_slice(&[0xff, 0xff, 0xff, 0x7f]);
            let mut head: serde_json::Value =
                serde_json::from_slice(bytes[..512].trim_ascii_end()).unwrap();
            head["crc32"] = serde_json::json!(crc32fast::hash(&bytes[512..]));
            let mut text = serde_json::to_vec(&head).unwrap();
            text.resize(511, b' ');
            text.push(b'\n');
            bytes[..512].copy_from_slice(&text);
            std::fs::write(p, &bytes).unwrap();
        }),
    ];
    for (what, damage) in damages {
        let copy = tmp.path().join(format!("copy-{}", what.replace(' ', "-")));
        copy_dir(&work, &copy);
        damage(&shard(&copy), &foreign_layer);
        let output = tri7_into(&copy, &tmp.path().join("never"))
            .arg("-q")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
        assert!(stderr.contains("shard-05"), "{what}: {stderr}");
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert!(!tmp.path().join("never").join("summary.csv").exists());
    }

    // The undamaged work resumes and finishes with the uninterrupted run's files.
    tri7_into(&work, &out)
        .assert()
        .success()
        .stderr(predicates::str::contains(format!(
            "resuming from layer {second}"
        )));
    assert_same_files(whole, &out, "resumed after two kills");
    assert!(!folder.exists(), "work removed after success");
}

/// A table sweep resumed from its checkpoint gives, in runs.csv, the wall time and peak
/// memory of the whole sweep: what the checkpoint says the killed process spent, plus its
/// own.
#[test]
fn a_resumed_table_reports_the_cost_of_the_whole_sweep() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let out = tmp.path().join("out");
    let table = ["table", "--board", "tri:7", "--starts", "a1", "-j2"];
    assert!(
        kill_at_layer_of(&table, &work, &out, 7),
        "killed before layer 7"
    );
    let folder = sweep_folder(&work).expect("the sweep's folder");
    let path = folder.join("checkpoint.json");
    let mut ck: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
    let spent = &ck["progress"]["spent"];
    assert!(spent["millis"].as_u64().is_some_and(|m| m > 0), "{spent}");
    assert!(spent["peak_rss"].as_u64().is_some_and(|b| b > 0), "{spent}");
    // Say the killed process had run for an hour and peaked at 5 GiB.
    ck["progress"]["spent"] = serde_json::json!({"millis": 3_600_000u64, "peak_rss": 5u64 << 30});
    // With the checksum of the edited content (the compact JSON without the checksum).
    seal(&mut ck);
    std::fs::write(&path, serde_json::to_string_pretty(&ck).unwrap()).unwrap();
    let mut args = table.to_vec();
    args.extend(["--work-dir", work.to_str().unwrap()]);
    run_into(tmp.path(), &args, &out);
    let runs = read(&out.join("runs.csv"));
    let row: Vec<&str> = runs.lines().nth(1).expect("a row").split(',').collect();
    let wall: f64 = row[6].parse().unwrap();
    let peak: u64 = row[7].parse().unwrap();
    assert!((3_600.0..3_720.0).contains(&wall), "{runs}");
    assert_eq!(peak, 5 << 30, "{runs}");
}

/// Gives the checkpoint `ck` the checksum of its content, as pegsol computes it: the CRC-32
/// of its compact JSON without the checksum, which comes last.
fn seal(ck: &mut serde_json::Value) {
    ck.as_object_mut().unwrap().shift_remove("crc32");
    let crc = crc32fast::hash(&serde_json::to_vec(&*ck).unwrap());
    ck["crc32"] = serde_json::json!(crc);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// A layer larger than `--max-disk` stops the sweep with exit code 2, one line giving the
/// bytes, and no CSV file.
#[test]
fn a_full_disk_is_refused_before_the_layer() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let output = pegsol()
        .current_dir(tmp.path())
        .args(TRI7)
        .args(["--max-disk", "200K", "--work-dir", "w", "--csv"])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].contains("--max-disk") && lines[0].contains("bytes"),
        "{stderr}"
    );
    for f in FILES {
        assert!(!out.join(f).exists(), "{f} written");
    }
    // Refused before its first layer on disk (the sweep outgrows --max-memory at layer 7),
    // the run leaves no folder behind and does not say that work is kept.
    let cwd = tempfile::tempdir().unwrap();
    let output = pegsol()
        .current_dir(cwd.path())
        .args(["count", "-q", "--board", "tri:7", "--max-memory", "1M"])
        .args(["--max-disk", "100K"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--max-disk"), "{stderr}");
    assert!(!stderr.contains("kept"), "{stderr}");
    assert!(!stderr.contains("layer before"), "{stderr}");
    assert_eq!(std::fs::read_dir(cwd.path()).unwrap().count(), 0);
    // Refused at the layer after its first one on disk: still one line, which names the
    // folder where the work is kept (the notice of kept layers waits for a layer that
    // passed the check).
    let output = pegsol()
        .current_dir(cwd.path())
        .args(["count", "--board", "english", "--max-memory", "64K"])
        .args(["--max-disk", "10K", "--work-dir", "w"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--max-disk"), "{stderr}");
    assert!(stderr.contains("its work is kept in w"), "{stderr}");
}

/// When the results cannot be written after a sweep on disk (here a directory is made
/// where a file goes once the sweep has its first checkpoint: one there from the start is
/// refused before the sweep), the sweep's layers stay: the rerun resumes from its last
/// layer instead of sweeping again, writes the files, and only then removes the work.
/// (`table` defers the same way; a directory in its folder would stop it reading the table
/// first.)
#[test]
fn a_failed_write_keeps_the_sweep() {
    {
        let command = "count";
        let tmp = tempfile::tempdir().unwrap();
        let (out, work) = (tmp.path().join("out"), tmp.path().join("work"));
        let blocked = out.join("finish.csv");
        let args = |cmd: &mut Command| {
            cmd.args([
                command,
                "--board",
                "tri:6",
                "-j",
                "2",
                "--max-memory",
                "300K",
            ])
            .arg("--work-dir")
            .arg(&work)
            .arg("--csv")
            .arg(&out)
            .env("PEGSOL_TRACE", "1");
        };
        let run = || {
            let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("pegsol"));
            args(&mut cmd);
            cmd.output().unwrap()
        };
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("pegsol"));
        args(&mut cmd);
        let child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let deadline = Instant::now() + Duration::from_secs(120);
        while checkpoint_layer(&work).is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::fs::create_dir_all(&blocked).unwrap();
        let first = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&first.stderr);
        assert_eq!(first.status.code(), Some(2), "{command}: {stderr}");
        assert!(stderr.contains("is a directory"), "{command}: {stderr}");
        assert!(
            sweep_folder(&work).is_some(),
            "{command}: the work was removed"
        );
        std::fs::remove_dir(&blocked).unwrap();
        let second = run();
        let stderr = String::from_utf8_lossy(&second.stderr);
        assert_eq!(second.status.code(), Some(0), "{command}: {stderr}");
        assert!(
            stderr.contains("resuming from layer"),
            "{command}: {stderr}"
        );
        assert!(
            !stderr.contains("on disk"),
            "{command} swept a layer again: {stderr}"
        );
        assert!(!work.exists(), "{command}: work left after success");
        let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        assert!(summary.contains("tri:6,a1,"), "{summary}");
    }
}

/// A checkpoint edited or damaged in its statistics, which no layer file's checksum
/// covers, is refused with exit code 2 and one line naming it as damaged, never resumed
/// into other counts: a count one higher (positions, games ended, wins at a hole), a layer's
/// row dropped, the entries of the layer before changed (which once gave a guess of
/// 18446744073709551615 bytes on disk). Each also with its checksum made again, where the
/// checkpoint's consistency refuses it. A checkpoint without a checksum (of a pegsol before
/// it kept one, or with its key renamed), or with a field added or renamed, is refused
/// even when consistent.
#[test]
fn edited_checkpoints_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tri7_whole();
    let work = tmp.path().join("work");
    let out = tmp.path().join("out");
    assert!(kill_at_layer(&work, &out, 7), "killed before layer 7");
    let folder = sweep_folder(&work).expect("the sweep's folder");
    let name = folder.file_name().unwrap().to_owned();
    let original: serde_json::Value =
        serde_json::from_str(&read(&folder.join("checkpoint.json"))).unwrap();
    assert!(original["crc32"].is_u64(), "{original}");
    let layer = original["layer"].as_u64().unwrap() as usize;
    assert!(layer >= 7, "{layer}");
    let plus_one = |v: &mut serde_json::Value| {
        *v = match &*v {
            serde_json::Value::String(s) => {
                serde_json::json!((s.parse::<u128>().unwrap() + 1).to_string())
            }
            n => serde_json::json!(n.as_u64().unwrap() + 1),
        }
    };
    let old = |ck: &mut serde_json::Value| {
        ck.as_object_mut().unwrap().shift_remove("crc32");
    };
    let rename = |ck: &mut serde_json::Value, from: &str, to: &str| {
        let value = ck.as_object_mut().unwrap().shift_remove(from).unwrap();
        ck[to] = value;
    };
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let edits: Vec<(&str, Edit)> = vec![
        (
            "positions + 1",
            Box::new(move |ck| plus_one(&mut ck["progress"]["layers"][0][5][1])),
        ),
        (
            "games + 1",
            Box::new(move |ck| plus_one(&mut ck["progress"]["layers"][0][6][3])),
        ),
        (
            "finish + 1",
            Box::new(move |ck| plus_one(&mut ck["progress"]["finish"][0][0])),
        ),
        (
            "row dropped",
            Box::new(|ck| {
                ck["progress"]["layers"][0].as_array_mut().unwrap().pop();
            }),
        ),
        (
            "previous 99",
            Box::new(|ck| ck["progress"]["previous"] = serde_json::json!(99)),
        ),
        (
            "sealed, row dropped",
            Box::new(move |ck| {
                ck["progress"]["layers"][0].as_array_mut().unwrap().pop();
                seal(ck);
            }),
        ),
        (
            "sealed, previous 1",
            Box::new(move |ck| {
                ck["progress"]["previous"] = serde_json::json!(1);
                seal(ck);
            }),
        ),
        (
            // Once a panic ("capacity overflow"): a vector was sized by the layer number.
            "sealed, layer 2^64 - 1",
            Box::new(move |ck| {
                ck["layer"] = serde_json::json!(u64::MAX);
                seal(ck);
            }),
        ),
        // No checksum, or not as pegsol writes one: refused even with nothing else edited.
        ("old, no checksum", Box::new(move |ck| old(ck))),
        (
            "checksum renamed",
            Box::new(move |ck| rename(ck, "crc32", "crc33")),
        ),
        (
            "checksum renamed, games + 1",
            Box::new(move |ck| {
                rename(ck, "crc32", "crc33");
                plus_one(&mut ck["progress"]["layers"][0][6][3]);
            }),
        ),
        (
            "field added",
            Box::new(|ck| ck["note"] = serde_json::json!("hello")),
        ),
        (
            "field added in progress",
            Box::new(|ck| ck["progress"]["note"] = serde_json::json!(1)),
        ),
        (
            "field renamed",
            Box::new(move |ck| {
                rename(ck, "layer", "layers");
                rename(ck, "shards", "shards");
                rename(ck, "progress", "progress");
                rename(ck, "crc32", "crc32");
            }),
        ),
    ];
    for (what, edit) in edits {
        let copy = tmp
            .path()
            .join(format!("copy-{}", what.replace([' ', ','], "-")));
        copy_dir(&work, &copy);
        let mut ck = original.clone();
        edit(&mut ck);
        let path = copy.join(&name).join("checkpoint.json");
        std::fs::write(&path, serde_json::to_string_pretty(&ck).unwrap()).unwrap();
        let never = tmp.path().join("never");
        let output = tri7_into(&copy, &never).arg("-q").output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
        assert!(
            stderr.contains("checkpoint.json is damaged"),
            "{what}: {stderr}"
        );
        assert!(
            what.contains("2^64") || !stderr.contains("18446744073709551615"),
            "{what}: {stderr}"
        );
        assert!(!never.join("summary.csv").exists(), "{what}");
    }
    // The checkpoint as written resumes, to the uninterrupted run's files.
    tri7_into(&work, &out)
        .assert()
        .success()
        .stderr(predicates::str::contains(format!(
            "resuming from layer {layer}"
        )));
    assert_same_files(whole, &out, "resumed after the edited copies were refused");
}

/// Totals past 128 bits come out exact. No board small enough for a test has that many
/// games (tri:9 has about 2^135, docs/experiments.md), so a checkpoint stands in for one:
/// tri:7's, taken after its first dead ends (9 jumps, 2,268 games) and given 2^128 more
/// games at 9 jumps (and its checksum made again). The resumed count reports, to the digit, 2^128 more games, games leaving 18
/// pegs, shortest games and games ended at 9 jumps than the uninterrupted count, and every
/// other figure unchanged. Before the statistics held 256 bits, such a checkpoint was
/// refused (its games were not a `u128`), and `Counts::games` summed the layers unchecked.
#[test]
fn totals_past_128_bits_are_exact() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tri7_whole();
    let work = tmp.path().join("work");
    let out = tmp.path().join("out");
    assert!(kill_at_layer(&work, &out, 10), "killed before layer 10");
    let path = sweep_folder(&work).unwrap().join("checkpoint.json");
    let mut ck: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
    let row = &mut ck["progress"]["layers"][0][9];
    assert_eq!(row[3], "2268", "{row}");
    row[3] = serde_json::json!("340282366920938463463374607431768213724"); // 2^128 + 2,268
    seal(&mut ck);
    std::fs::write(&path, serde_json::to_string_pretty(&ck).unwrap()).unwrap();
    tri7_into(&work, &out).arg("-q").assert().success();
    // 15,329,604,581,324,902,942 games (results/summary.csv) plus 2^128.
    let games = "340282366920938463478704212013093114398";
    let shortest = "340282366920938463463374607431768213724";
    let plus = |text: String| {
        text.replace(",15329604581324902942,", &format!(",{games},"))
            .replace(",2268,", &format!(",{shortest},"))
            .replace(",2268\n", &format!(",{shortest}\n"))
    };
    for file in FILES {
        let want = plus(read(&whole.join(file)));
        assert_eq!(read(&out.join(file)), want, "{file}");
    }
    let summary = read(&out.join("summary.csv"));
    assert_eq!(summary.matches(games).count(), 1, "{summary}");
    assert_eq!(summary.matches(shortest).count(), 2, "{summary}");
}

/// A sweep's folder is named after its board and starts; a long board file name (or a
/// long list of starts) once made a name past the file system's 255 bytes, and the run on
/// disk failed where the same run in memory succeeded. Long names are shortened.
#[test]
fn long_board_names_sweep_on_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let board = tmp.path().join(format!("{}.txt", "b".repeat(240)));
    std::fs::write(&board, "ooooo\noo.oo\nooooo\n").unwrap();
    let run = |disk: bool| {
        let mut cmd = pegsol();
        cmd.current_dir(tmp.path())
            .args(["count", "-q", "--board"])
            .arg(&board);
        if disk {
            cmd.args(["--max-memory", "64K", "--work-dir", "work", "--keep-work"]);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .filter(|l| !l.starts_with("wall time"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(run(true), run(false));
    let folder = sweep_folder(&tmp.path().join("work")).expect("the sweep's folder");
    assert!(folder.file_name().unwrap().len() <= 128, "{folder:?}");
}

/// An orbit's count past 2^128 is carried exactly, through the layers in memory and on
/// disk: english from the centre is killed once layer 20 is on disk, and every count of
/// that layer is multiplied by 2^170 in its shard files: the largest count passes 2^192,
/// so that its high part passes 2^128 whether the lanes are 32 or 64 bits wide (the
/// shards' wide map of high parts). The resumed sweep's figures must be the
/// uninterrupted run's, with every sequence through that layer counted 2^170 times: the
/// games ended at it and after, their sum, the wins, the wins per finishing hole, and the
/// games per pegs left past it (and the dead end with the most pegs and the shortest
/// game, were they past it).
#[test]
fn orbit_counts_past_128_bits_are_exact() {
    use pegsol::count::disk::{Identity, ShardReader, ShardWriter};
    use pegsol::total::Total;
    const START_PEGS: usize = 32;
    let scale = |t: Total| {
        let x = t.times(1 << 62).and_then(|x| x.times(1 << 62));
        x.and_then(|x| x.times(1 << 46)).unwrap()
    };
    let tmp = tempfile::tempdir().unwrap();
    let whole = english_whole();
    let work = tmp.path().join("work");
    let out = tmp.path().join("out");
    assert!(
        kill_at_layer_of(&ENGLISH, &work, &out, 20),
        "killed before layer 20"
    );
    let folder = sweep_folder(&work).unwrap();
    let path = folder.join("checkpoint.json");
    let mut ck: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
    let layer = ck["layer"].as_u64().unwrap() as usize;
    assert!(
        ck["encoding"]
            .as_str()
            .unwrap()
            .contains("keys of 4 bytes, 1 lanes")
    );
    let mut largest = Total::ZERO;
    for s in 0..64 {
        let file = folder.join(format!("layer-{layer:03}/shard-{s:02}"));
        let bytes = std::fs::read(&file).unwrap();
        let head: serde_json::Value = serde_json::from_slice(bytes[..512].trim_ascii()).unwrap();
        let text = |k: &str| head[k].as_str().unwrap().to_string();
        let id = Identity {
            board: text("board"),
            starts: vec![head["starts"][0].as_str().unwrap().to_string()],
            encoding: text("encoding"),
        };
        let mut r = ShardReader::open(&file, &id, layer, s).unwrap();
        let mut entries = Vec::new();
        while let Some((key, counts)) = r.next(4, 1).unwrap() {
            entries.push((key, scale(counts[0])));
        }
        let mut w = ShardWriter::create(&file, &id, layer, s).unwrap();
        for (key, count) in entries {
            largest = largest.max(count);
            w.push(key, 4, &[count]).unwrap();
        }
        let written = w.finish().unwrap();
        ck["shards"][s] = serde_json::json!([written.entries, written.bytes]);
    }
    let two_192 = Total::from(u128::MAX).plus(Total::from(1)).unwrap();
    let two_192 = two_192.times(1 << 32).unwrap().times(1 << 32).unwrap();
    assert!(largest >= two_192, "{largest}");
    seal(&mut ck);
    std::fs::write(&path, serde_json::to_string_pretty(&ck).unwrap()).unwrap();
    let mut resume = pegsol();
    resume.args(ENGLISH).arg("--work-dir").arg(&work);
    resume.arg("--csv").arg(&out).arg("-q").assert().success();

    // The uninterrupted run's figures, scaled where a game passes `layer` (a row of
    // `pegs` left lies after START_PEGS - pegs jumps).
    let rows = |text: &str| -> Vec<Vec<String>> {
        text.lines()
            .skip(1)
            .map(|l| l.split(',').map(str::to_string).collect())
            .collect()
    };
    let past = |jumps: usize| jumps >= layer;
    let after = |pegs: &str| START_PEGS - pegs.parse::<usize>().unwrap();
    let times = |x: &str| scale(x.parse().unwrap()).to_string();
    let mut want = std::collections::HashMap::new();
    let mut games = Total::ZERO;
    let mut depth = rows(&read(&whole.join("depth.csv")));
    for r in &mut depth {
        if past(r[2].parse().unwrap()) {
            r[5] = times(&r[5]);
        }
        games = games.plus(r[5].parse().unwrap()).unwrap();
    }
    want.insert("depth.csv", depth);
    let mut pegs = rows(&read(&whole.join("pegs_left.csv")));
    for r in &mut pegs {
        if past(after(&r[2])) {
            r[3] = times(&r[3]);
        }
    }
    want.insert("pegs_left.csv", pegs);
    let mut finish = rows(&read(&whole.join("finish.csv")));
    assert!(!finish.is_empty());
    for r in &mut finish {
        r[3] = times(&r[3]);
    }
    want.insert("finish.csv", finish);
    let mut summary = rows(&read(&whole.join("summary.csv")));
    let r = &mut summary[0];
    assert_eq!(
        r[5], "81723294080159936",
        "english's wins (results/summary.csv)"
    );
    r[4] = games.to_string();
    r[5] = times(&r[5]);
    if past(after(&r[6])) {
        r[7] = times(&r[7]);
    }
    if past(r[8].parse().unwrap()) {
        r[9] = times(&r[9]);
    }
    want.insert("summary.csv", summary);
    for file in FILES {
        let (got, was) = (read(&out.join(file)), read(&whole.join(file)));
        assert_eq!(got.lines().next(), was.lines().next(), "{file}");
        assert_eq!(rows(&got), want[file], "{file}");
    }
}

/// Runs `args` with its layers in `work` and asserts that it is refused: exit code 2, one
/// line on stderr containing `want`, no CSV written.
fn refused(args: &[&str], work: &Path, what: &str, want: &str) {
    let never = work.with_extension("never");
    let output = Command::new(assert_cmd::cargo::cargo_bin("pegsol"))
        .args(args)
        .arg("--work-dir")
        .arg(work)
        .arg("--csv")
        .arg(&never)
        .arg("-q")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
    assert!(stderr.contains(want), "{what}: {stderr}");
    assert!(!never.join("summary.csv").exists(), "{what}");
}

/// The audit of issue 63: english on disk killed past layer 10, its checkpoint's key
/// `crc32` renamed `crc33` and the games ended after 6 jumps changed from 32 to 33. It
/// once resumed with exit code 0 and 33 shortest games; a checkpoint without its
/// checksum is now refused. So are the checkpoint's and a layer's files edited in their
/// form (a checksum renamed or dropped, a field added) and a FIFO, a directory or a
/// socket in place of either: the FIFO once blocked the resume for ever.
#[test]
fn stored_state_without_its_check_or_not_a_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let out = tmp.path().join("out");
    let args = [&ENGLISH[..], &["--max-memory", "64M"]].concat();
    assert!(
        kill_at_layer_of(&args, &work, &out, 11),
        "killed before layer 11"
    );
    let folder = sweep_folder(&work).unwrap();
    let name = folder.file_name().unwrap().to_owned();
    let original = read(&folder.join("checkpoint.json"));
    let ck: serde_json::Value = serde_json::from_str(&original).unwrap();
    let layer = ck["layer"].as_u64().unwrap() as usize;
    let shard = format!("layer-{layer:03}/shard-00");
    let header = std::fs::read(folder.join(&shard)).unwrap();

    type Damage = Box<dyn Fn(&Path)>;
    let text_edit = |from: &'static str, to: &'static str| -> Damage {
        Box::new(move |ck: &Path| {
            let text = read(ck);
            assert!(text.contains(from), "{from}: {text}");
            std::fs::write(ck, text.replacen(from, to, 1)).unwrap();
        })
    };
    // The header edited in place, padded back to its 512 bytes.
    let head_edit = |edit: fn(&mut serde_json::Value)| -> Damage {
        Box::new(move |shard: &Path| {
            let mut bytes = std::fs::read(shard).unwrap();
            let mut head: serde_json::Value =
                serde_json::from_slice(bytes[..512].trim_ascii_end()).unwrap();
            edit(&mut head);
            let mut text = serde_json::to_vec(&head).unwrap();
            text.resize(511, b' ');
            text.push(b'\n');
            bytes[..512].copy_from_slice(&text);
            std::fs::write(shard, &bytes).unwrap();
        })
    };
    fn fifo(p: &Path) {
        std::fs::remove_file(p).unwrap();
        assert!(Command::new("mkfifo").arg(p).status().unwrap().success());
    }
    fn dir(p: &Path) {
        std::fs::remove_file(p).unwrap();
        std::fs::create_dir(p).unwrap();
    }
    fn socket(p: &Path) {
        std::fs::remove_file(p).unwrap();
        std::mem::forget(std::os::unix::net::UnixListener::bind(p).unwrap());
    }
    assert!(String::from_utf8_lossy(&header).contains("\"crc32\":"));
    let cases: Vec<(&str, &str, Damage, &str)> = vec![
        (
            "checkpoint.json",
            "crc33, 6 jumps 33 games",
            Box::new(|p: &Path| {
                let mut ck: serde_json::Value = serde_json::from_str(&read(p)).unwrap();
                let crc = ck.as_object_mut().unwrap().shift_remove("crc32").unwrap();
                ck["crc33"] = crc;
                let row = &mut ck["progress"]["layers"][0][6];
                assert_eq!(
                    (&row[0], &row[3]),
                    (&serde_json::json!(6), &serde_json::json!("32"))
                );
                row[3] = serde_json::json!("33");
                std::fs::write(p, serde_json::to_string_pretty(&ck).unwrap()).unwrap();
            }),
            "no checksum",
        ),
        (
            "checkpoint.json",
            "crc32 renamed",
            text_edit("\"crc32\"", "\"crc33\""),
            "no checksum",
        ),
        (
            "checkpoint.json",
            "field added",
            text_edit("\"layer\"", "\"x\": 1,\n  \"layer\""),
            "not as pegsol writes it",
        ),
        (
            "checkpoint.json",
            "a FIFO",
            Box::new(fifo),
            "not a regular file but a FIFO",
        ),
        (
            "checkpoint.json",
            "a directory",
            Box::new(dir),
            "not a regular file but a directory",
        ),
        (
            "checkpoint.json",
            "a socket",
            Box::new(socket),
            "is not a regular file but a socket",
        ),
        (
            shard.as_str(),
            "crc32 renamed",
            head_edit(|h| {
                let crc = h.as_object_mut().unwrap().shift_remove("crc32").unwrap();
                h["crc33"] = crc;
            }),
            "bad header",
        ),
        (
            shard.as_str(),
            "crc32 dropped",
            head_edit(|h| {
                h.as_object_mut().unwrap().shift_remove("crc32");
            }),
            "bad header",
        ),
        (
            shard.as_str(),
            "field added",
            head_edit(|h| h["x"] = serde_json::json!(1)),
            "not as pegsol writes it",
        ),
        (
            shard.as_str(),
            "a FIFO",
            Box::new(fifo),
            "not a regular file but a FIFO",
        ),
        (
            shard.as_str(),
            "a directory",
            Box::new(dir),
            "not a regular file but a directory",
        ),
    ];
    for (i, (file, what, damage, want)) in cases.iter().enumerate() {
        let copy = tmp.path().join(format!("copy-{i}"));
        copy_dir(&work, &copy);
        damage(&copy.join(&name).join(file));
        refused(&args, &copy, &format!("{file}: {what}"), want);
    }
    // The checkpoint as written still resumes.
    pegsol()
        .args(&args)
        .arg("--work-dir")
        .arg(&work)
        .arg("--csv")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicates::str::contains(format!(
            "resuming from layer {layer}"
        )));
    assert_same_files(english_whole(), &out, "resumed english");
}

/// A work directory that cannot be made names why: `/proc/nope` once said "has 0 bytes
/// free" (the free space of `/proc`, where nothing can be made).
#[test]
fn a_work_directory_that_cannot_be_made_names_why() {
    let out = tempfile::tempdir().unwrap();
    let output = pegsol()
        .args([
            "count",
            "--board",
            "tri:5",
            "-q",
            "--work-dir",
            "/proc/nope",
            "--csv",
        ])
        .arg(out.path().join("csv"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot create /proc/nope/"), "{stderr}");
    assert!(stderr.contains("No such file or directory"), "{stderr}");
    assert!(!stderr.contains("bytes free"), "{stderr}");
}
