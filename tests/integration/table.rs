//! `pegsol table` and `pegsol report`: start classes, totals over all starts, resuming
//! after a kill, and the report generated from a table.

use crate::common::pegsol;
use pegsol::count::table::{self, Format, Table};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FILES: [&str; 4] = ["summary.csv", "pegs_left.csv", "finish.csv", "depth.csv"];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Rows of a CSV file (header dropped), split into fields.
fn rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).expect("csv");
    r.records()
        .map(|rec| rec.expect("record").iter().map(str::to_string).collect())
        .collect()
}

/// runs.csv without its volatile columns: board and start only.
fn runs_keys(dir: &Path) -> Vec<(String, String)> {
    rows(&dir.join("runs.csv"))
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect()
}

fn table(dir: &Path, boards: &[&str]) -> assert_cmd::Command {
    let mut cmd = pegsol();
    cmd.arg("table");
    for b in boards {
        cmd.args(["--board", b]);
    }
    cmd.arg("--csv").arg(dir).arg("--quiet");
    cmd
}

/// Asserts that two table directories hold the same results: the four count files byte
/// for byte, runs.csv apart from its timing and provenance columns.
fn assert_same_table(a: &Path, b: &Path) {
    for f in FILES {
        assert_eq!(read(&a.join(f)), read(&b.join(f)), "{f} differs");
    }
    assert_eq!(runs_keys(a), runs_keys(b), "runs.csv pairs differ");
}

#[test]
fn start_classes_and_sizes() {
    let classes = |spec: &str| -> Vec<(String, usize)> {
        table::plan(&[spec.to_string()], &[])
            .expect("plan")
            .into_iter()
            .map(|p| (p.start, p.class_size))
            .collect()
    };
    let own = |v: &[(&str, usize)]| -> Vec<(String, usize)> {
        v.iter().map(|&(s, n)| (s.to_string(), n)).collect()
    };
    // tri:5: corners, edge holes next to a corner, edge midpoints, interior (4 classes:
    // 3, 6, 3, 3, as in published.md's per-start table).
    assert_eq!(
        classes("tri:5"),
        own(&[("a1", 3), ("a2", 6), ("a3", 3), ("b3", 3)])
    );
    // tri:6: corners; two kinds of edge hole (6 each); the inner triangle's corners and
    // edge midpoints.
    assert_eq!(
        classes("tri:6"),
        own(&[("a1", 3), ("a2", 6), ("a3", 6), ("b3", 3), ("b4", 3)])
    );
    // english under its 8 symmetries: 33 = 8 + 4 + 8 + 4 + 4 + 4 + 1.
    assert_eq!(
        classes("english"),
        own(&[
            ("c1", 8),
            ("d1", 4),
            ("c2", 8),
            ("d2", 4),
            ("c3", 4),
            ("d3", 4),
            ("d4", 1)
        ])
    );
}

#[test]
fn tri5_all_starts_totals() {
    // published.md: summed over all 15 starts, 7,335,390 games and 438,984 wins.
    let dir = tempfile::tempdir().unwrap();
    table(dir.path(), &["tri:5"])
        .assert()
        .success()
        .stdout(predicates::str::contains("7,335,390"))
        .stdout(predicates::str::contains("438,984"));
    let summary = rows(&dir.path().join("summary.csv"));
    let header = csv::Reader::from_path(dir.path().join("summary.csv"))
        .unwrap()
        .headers()
        .unwrap()
        .clone();
    let head: Vec<&str> = header.iter().collect();
    // The count contract: same columns in the same order, start_class_size at the end.
    assert_eq!(
        head[..head.len() - 1],
        *pegsol::count::export::SUMMARY_HEADER
    );
    assert_eq!(*head.last().unwrap(), "start_class_size");
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (mut games, mut wins, mut holes) = (0u128, 0u128, 0u128);
    for r in &summary {
        let size: u128 = r[col("start_class_size")].parse().unwrap();
        games += size * r[col("games")].parse::<u128>().unwrap();
        wins += size * r[col("wins")].parse::<u128>().unwrap();
        holes += size;
    }
    assert_eq!((holes, games, wins), (15, 7_335_390, 438_984));

    // The report computes the same totals from the table.
    pegsol()
        .args(["report", "--board", "tri:5"])
        .arg(dir.path())
        .assert()
        .success();
    let cmp = rows(&dir.path().join("comparison.csv"));
    let all = cmp.iter().find(|r| r[1] == "all").expect("total row");
    assert_eq!(all[..5], ["tri:5", "all", "15", "438984", "7335390"]);
    // published.md: most pegs left in a dead end from any start: 10 (2 games per start).
    assert_eq!(all[7], "10");
    for svg in ["pegs_left.svg", "classes_tri5.svg", "finish_tri5.svg"] {
        assert!(read(&dir.path().join(svg)).starts_with("<svg"), "{svg}");
    }
    // scaling.svg: one point per sweep (runs.csv's sweep column) in each of its two panels.
    let sweeps: std::collections::BTreeSet<String> = rows(&dir.path().join("runs.csv"))
        .into_iter()
        .map(|r| r[9].clone())
        .collect();
    let svg = read(&dir.path().join("scaling.svg"));
    assert_eq!(
        sweeps.len(),
        1,
        "tri:5: one position class, one sweep: {sweeps:?}"
    );
    assert_eq!(svg.matches("<title>").count(), 2 * sweeps.len(), "{svg}");
}

#[test]
fn second_run_over_a_complete_dir_does_no_work() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path(), &["tri:4..5"]).assert().success();
    let files = || -> Vec<(String, std::time::SystemTime)> {
        FILES
            .iter()
            .chain(&["runs.csv"])
            .map(|f| {
                let p = dir.path().join(f);
                (read(&p), std::fs::metadata(&p).unwrap().modified().unwrap())
            })
            .collect()
    };
    let before = files();
    table(dir.path(), &["tri:4..5"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "7 pairs: 0 computed, 7 already complete",
        ));
    let after = files();
    assert_eq!(before, after, "a complete table must not be rewritten");
}

/// The batch the kill tests interrupt: tri:4..7 from a1 and b3, 8 pairs. The six of tri:4..6
/// take milliseconds; the two of tri:7 are one sweep of several seconds (one position class
/// holds both), so a kill once six pairs are on disk lands inside that sweep.
const KILL_BATCH: &[&str] = &[
    "table",
    "--board",
    "tri:4..7",
    "--starts",
    "a1",
    "b3",
    "--threads",
    "1",
    "--quiet",
    "--csv",
];

/// Starts [`KILL_BATCH`] and kills it with `signal` once `done` pairs are on disk. Returns
/// whether the process was still running when signalled.
fn run_and_kill(dir: &Path, signal: &str, done: usize) -> bool {
    let bin = assert_cmd::cargo::cargo_bin("pegsol");
    let mut child = Command::new(bin)
        .args(KILL_BATCH)
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let rows = std::fs::read_to_string(dir.join("runs.csv"))
            .map(|t| t.lines().count().saturating_sub(1))
            .unwrap_or(0);
        if rows >= done || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let running = child.try_wait().expect("wait").is_none();
    Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill");
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if running && signal == "-TERM" {
        // Ctrl-C/SIGTERM: the count stops between batches, exit code 130, and says so in
        // one line.
        assert!(matches!(out.status.code(), Some(130) | Some(0)), "{out:?}");
        if out.status.code() == Some(130) {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.starts_with("pegsol: interrupted; finished pairs are saved in "),
                "{stderr}"
            );
        }
    }
    running
}

#[test]
fn resume_after_kill_equals_an_uninterrupted_run() {
    let whole = tempfile::tempdir().unwrap();
    pegsol()
        .args(KILL_BATCH)
        .arg(whole.path())
        .assert()
        .success();
    assert_eq!(runs_keys(whole.path()).len(), 8);

    for signal in ["-KILL", "-TERM"] {
        let dir = tempfile::tempdir().unwrap();
        let interrupted = run_and_kill(dir.path(), signal, 6);
        // A kill between two renames of a save left a journal: the next run that locks the
        // folder finishes the save (as `table` does before it reads).
        drop(pegsol::output::files::lock_dir(dir.path(), "--csv").expect("rolled forward"));
        assert!(!dir.path().join(pegsol::output::files::MARKER).exists());
        let kept = runs_keys(dir.path()).len();
        eprintln!("{signal}: still running when signalled: {interrupted}; {kept} of 8 pairs kept");
        // Every file on disk is whole and consistent after the kill.
        let t = Table::load(dir.path(), Format::Csv).expect("readable after kill");
        assert_eq!(t.entries.len(), kept);
        // A temporary file a kill may leave behind is cleared by the resumed run.
        std::fs::write(dir.path().join(".summary.csv.abc123"), "half a fi").unwrap();
        // Resuming computes only the missing pairs.
        pegsol()
            .args(KILL_BATCH)
            .arg(dir.path())
            .assert()
            .success()
            .stderr(predicates::str::contains(format!(
                "8 pairs: {} computed, {kept} already complete",
                8 - kept
            )));
        assert_same_table(whole.path(), dir.path());
        assert!(!dir.path().join(".summary.csv.abc123").exists());
    }
}

#[test]
fn a_pair_torn_between_two_renames_is_recomputed() {
    // A kill after summary.csv was renamed but before runs.csv: the pair has rows in the
    // count files but no runs.csv row. It must be dropped and computed again.
    let whole = tempfile::tempdir().unwrap();
    table(whole.path(), &["tri:5"]).assert().success();
    let dir = tempfile::tempdir().unwrap();
    for f in FILES.iter().chain(&["runs.csv"]) {
        std::fs::copy(whole.path().join(f), dir.path().join(f)).unwrap();
    }
    let runs = read(&dir.path().join("runs.csv"));
    let cut: Vec<&str> = runs
        .lines()
        .filter(|l| !l.starts_with("tri:5,a3,"))
        .collect();
    std::fs::write(dir.path().join("runs.csv"), cut.join("\n") + "\n").unwrap();
    table(dir.path(), &["tri:5"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "4 pairs: 1 computed, 3 already complete",
        ));
    assert_same_table(whole.path(), dir.path());
}

#[test]
fn row_order_does_not_depend_on_run_order() {
    let whole = tempfile::tempdir().unwrap();
    table(whole.path(), &["tri:4", "tri:5"]).assert().success();
    let dir = tempfile::tempdir().unwrap();
    pegsol()
        .args([
            "table", "--board", "tri:5", "--starts", "b3", "a2", "-q", "--csv",
        ])
        .arg(dir.path())
        .assert()
        .success();
    table(dir.path(), &["tri:5", "tri:4"]).assert().success();
    assert_same_table(whole.path(), dir.path());
}

#[test]
fn json_format_holds_the_same_table() {
    let csv_dir = tempfile::tempdir().unwrap();
    table(csv_dir.path(), &["tri:5"]).assert().success();
    let json_dir = tempfile::tempdir().unwrap();
    table(json_dir.path(), &["tri:5"])
        .args(["--format", "json"])
        .assert()
        .success();
    let doc: serde_json::Value =
        serde_json::from_str(&read(&json_dir.path().join("table.json"))).unwrap();
    let a1 = &doc["pairs"][0];
    assert_eq!(
        (a1["board"].as_str(), a1["start"].as_str()),
        (Some("tri:5"), Some("a1"))
    );
    assert_eq!(a1["summary"]["wins"].as_u64(), Some(29_760));
    assert_eq!(a1["summary"]["start_class_size"].as_u64(), Some(3));
    let from_csv = Table::load(csv_dir.path(), Format::Csv).unwrap();
    let from_json = Table::load(json_dir.path(), Format::Json).unwrap();
    let strip = |t: &Table| -> Vec<_> {
        t.entries
            .iter()
            .map(|(k, e)| {
                (
                    k.clone(),
                    e.summary.clone(),
                    e.pegs_left.clone(),
                    e.finish.clone(),
                    e.depth.clone(),
                )
            })
            .collect()
    };
    assert_eq!(strip(&from_csv), strip(&from_json));
    // Resuming a JSON table does no work either.
    table(json_dir.path(), &["tri:5"])
        .args(["--format", "json"])
        .assert()
        .success()
        .stderr(predicates::str::contains("0 computed, 4 already complete"));
    // Without a directory, JSON goes to stdout.
    let out = pegsol()
        .args(["table", "--board", "tri:4", "--format", "json", "-q"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["pairs"].as_array().map(Vec::len), Some(3));
}

#[test]
fn bad_table_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // a1 and a5 are both corners of tri:5: the same start class.
    pegsol()
        .args(["table", "--board", "tri:5", "--starts", "a1", "a5"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("same start class"));
    pegsol()
        .args(["table", "--board", "tri:7..4"])
        .assert()
        .code(2);
    // A range's bounds are checked before it is spelled out: the error names the bound,
    // not the first size past 15 (once it came after 11 s of deduplicating names).
    for (range, bound) in [("tri:3..100000", "'tri:100000'"), ("tri:1..5", "'tri:1'")] {
        pegsol()
            .args(["table", "--board", range])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(bound));
    }
    // A start of a class the directory already holds under another hole: refused, the
    // totals would count the class twice.
    pegsol()
        .args(["table", "--board", "tri:5", "--starts", "a5", "-q", "--csv"])
        .arg(dir.path().join("t"))
        .assert()
        .success();
    table(&dir.path().join("t"), &["tri:5"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("same start class"));
    // A directory written by `count` (no start_class_size column) is not overwritten.
    pegsol()
        .args(["count", "--board", "tri:4", "-q", "--csv"])
        .arg(dir.path())
        .assert()
        .success();
    table(dir.path(), &["tri:4"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("not written by pegsol table"));
}

/// Drops the last column of a runs.csv (`board_geometry`), as pegsols before it wrote.
fn drop_geometry(runs: &Path) {
    let text = read(runs);
    let old: Vec<&str> = text
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0)
        .collect();
    std::fs::write(runs, old.join("\n") + "\n").unwrap();
}

/// runs.csv as earlier pegsols wrote it, without `board_geometry` (one column less) and
/// without `sweep` either (two less): still read, and its pairs complete.
#[test]
fn runs_csv_files_from_before_the_last_columns_are_still_read() {
    for dropped in [1, 2] {
        let dir = tempfile::tempdir().unwrap();
        table(dir.path(), &["tri:4"]).assert().success();
        let runs = read(&dir.path().join("runs.csv"));
        let old: Vec<String> = runs
            .lines()
            .map(|l| l.rsplitn(dropped + 1, ',').last().unwrap().to_string())
            .collect();
        let last = ["sweep", "command"][dropped - 1];
        assert_eq!(old[0].rsplit(',').next(), Some(last));
        std::fs::write(dir.path().join("runs.csv"), old.join("\n") + "\n").unwrap();
        table(dir.path(), &["tri:4"])
            .assert()
            .success()
            .stderr(predicates::str::contains(
                "3 pairs: 0 computed, 3 already complete",
            ));
    }
    // Without `board_geometry` a board file named english.txt (keyed `english`) is not
    // taken for the built-in board: its class sizes are not checked against english's.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("english.txt"),
        "oooo
o.oo
oooo
",
    )
    .unwrap();
    let run = || {
        pegsol()
            .current_dir(tmp.path())
            .args(["table", "--board", "english.txt", "--csv", "t"])
            .output()
            .unwrap()
    };
    assert!(run().status.success());
    drop_geometry(&tmp.path().join("t/runs.csv"));
    let out = run();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("0 computed"), "{stderr}");
    // Its report has no `all` row: the geometry is unknown, and the class sizes are not
    // english's.
    pegsol()
        .arg("report")
        .arg(tmp.path().join("t"))
        .assert()
        .success();
    let cmp = read(&tmp.path().join("t/comparison.csv"));
    assert!(!cmp.contains(",all,"), "{cmp}");

    // An old tri:5 table (no board_geometry) with a1's class size edited (3 to 5, a3's 3
    // to 1, so that they still cover the 15 holes): loading cannot tell it from a board
    // file, but `table`, with the board in hand, refuses it, and `report` gives no total
    // weighted by sizes it could not check. So for a board renamed `TRI:5`.
    let dir = tempfile::tempdir().unwrap();
    table(dir.path(), &["tri:5"]).assert().success();
    drop_geometry(&dir.path().join("runs.csv"));
    pegsol().arg("report").arg(dir.path()).assert().success();
    let cmp = read(&dir.path().join("comparison.csv"));
    assert!(cmp.contains("\ntri:5,all,15,438984,7335390,"), "{cmp}");
    let summary = read(&dir.path().join("summary.csv"));
    let edited = summary
        .replace(
            "tri:5,a1,3016,1544,568630,29760,8,2,6,2,3",
            "tri:5,a1,3016,1544,568630,29760,8,2,6,2,5",
        )
        .replace(",7,404,7,404,3", ",7,404,7,404,1");
    assert_ne!(edited, summary);
    std::fs::write(dir.path().join("summary.csv"), &edited).unwrap();
    pegsol().arg("report").arg(dir.path()).assert().success();
    let cmp = read(&dir.path().join("comparison.csv"));
    assert!(!cmp.contains(",all,"), "{cmp}");
    table(dir.path(), &["tri:5"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "summary.csv: tri:5 a1: start_class_size is 5, but the start class of a1 holds 3 \
             holes",
        ));
    let renamed = tempfile::tempdir().unwrap();
    for f in FILES.iter().chain(&["runs.csv"]) {
        let text = read(&dir.path().join(f)).replace("tri:5,", "TRI:5,");
        std::fs::write(renamed.path().join(f), text).unwrap();
    }
    pegsol()
        .arg("report")
        .arg(renamed.path())
        .assert()
        .success();
    let cmp = read(&renamed.path().join("comparison.csv"));
    assert!(
        cmp.contains("\nTRI:5,a1,") && !cmp.contains(",all,"),
        "{cmp}"
    );
}

/// A table keeps each board's geometry (runs.csv's `board_geometry`), and refuses a later
/// run that brings another board of the same name: a board file named like a built-in
/// board, or two files of one name from different folders, in CSV and in JSON. Before,
/// the second board's pairs were taken as complete, with the first board's figures.
#[test]
fn a_table_refuses_another_board_of_the_same_name() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::create_dir(d.join("b")).unwrap();
    std::fs::write(d.join("english.txt"), "ooooo\noo.oo\nooooo\n").unwrap();
    std::fs::write(d.join("b/english.txt"), "oooooo\noo.ooo\noooooo\n").unwrap();
    for format in ["csv", "json"] {
        let out = d.join(format!("out-{format}"));
        let run = |board: &str| {
            pegsol()
                .current_dir(d)
                .args(["table", "-q", "--format", format, "--board", board, "--csv"])
                .arg(&out)
                .output()
                .unwrap()
        };
        assert!(run("english.txt").status.success(), "the file english.txt");
        // `report` does not take it for the built-in board either: no picture of
        // english's start classes (it stopped on "hole 'c2' is not on board english").
        let pictures = d.join(format!("pictures-{format}"));
        let o = pegsol()
            .args(["report"])
            .arg(&out)
            .arg("--out")
            .arg(&pictures)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(pictures.join("comparison.csv").exists());
        assert!(!pictures.join("classes_english.svg").exists());
        for other in ["english", "b/english.txt"] {
            let o = run(other);
            let stderr = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{other}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{other}: {stderr}");
            assert!(
                stderr.contains("holds another board named english (square 15 holes"),
                "{other}: {stderr}"
            );
        }
        // The same file again: its pairs are complete.
        let o = run("./english.txt");
        assert!(o.status.success());
        assert!(String::from_utf8_lossy(&o.stderr).contains("0 computed"));
    }
}

/// A board file makes a table as a built-in board does: read again from its path (not
/// its name), with the total over all its starts; two files of one name are refused.
#[test]
fn board_files_make_tables() {
    let out = pegsol()
        .args(["table", "--board", "boards/hex2.txt", "-j", "2", "-q"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    // hex2's four start classes (6 + 6 + 6 + 1 holes), then their total.
    let all: Vec<&str> = text.lines().last().unwrap().split_whitespace().collect();
    assert_eq!(all[..3], ["hex2", "all", "19"], "{text}");
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("hex2.txt");
    std::fs::copy("boards/trapezoid.txt", &copy).unwrap();
    let out = pegsol()
        .args(["table", "--board", "boards/hex2.txt", "--board"])
        .arg(&copy)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("both named hex2"), "{stderr}");
}

/// tri:4's table in a fresh directory, in `format` (csv or json).
fn tri4_table(format: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    pegsol()
        .args([
            "table", "--board", "tri:4", "-q", "--format", format, "--csv",
        ])
        .arg(dir.path())
        .assert()
        .success();
    dir
}

/// `count --csv` into a table's directory would replace the table's count files and
/// orphan its runs.csv: refused, the table left whole.
#[test]
fn count_refuses_to_write_over_a_table() {
    for format in ["csv", "json"] {
        let dir = tri4_table(format);
        let before: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| std::fs::read(e.unwrap().path()).unwrap())
            .collect();
        let out = pegsol()
            .args(["count", "-q", "--board", "tri:4", "--csv"])
            .arg(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{format}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{format}: {stderr}");
        assert!(stderr.contains("holds a table"), "{format}: {stderr}");
        let after: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| std::fs::read(e.unwrap().path()).unwrap())
            .collect();
        assert_eq!(before, after, "{format}");
    }
}

/// A count in a table's files that is not a whole number is refused with one line, in
/// CSV and in JSON, instead of being read as zero.
#[test]
fn tables_with_damaged_counts_are_refused() {
    let damage = |file: &str, from: &str, to: &str, format: &str| {
        let dir = tri4_table(format);
        let path = dir.path().join(file);
        let text = read(&path);
        assert!(text.contains(from), "{file}: {text}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        for command in ["table", "report"] {
            let mut cmd = pegsol();
            if command == "table" {
                cmd.args(["table", "--board", "tri:4", "--format", format, "--csv"]);
            } else {
                cmd.arg("report");
            }
            let out = cmd.arg(dir.path()).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{command} {file} {to}: {stderr}"
            );
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains("not a count"), "{stderr}");
        }
    };
    // tri:4 from a1: 48 games; its first layer (no jump) has 1 position.
    damage(
        "summary.csv",
        "tri:4,a1,42,11,48,",
        "tri:4,a1,42,11,4x8,",
        "csv",
    );
    damage(
        "summary.csv",
        "tri:4,a1,42,11,48,",
        "tri:4,a1,42,11,-48,",
        "csv",
    );
    damage("depth.csv", "tri:4,a1,0,1,1,", "tri:4,a1,0,1,one,", "csv");
    damage("table.json", "\"games\": 48", "\"games\": -48", "json");
}

/// `report` reads a table written with `--format json` as it reads the CSV one: the same
/// comparison.csv, and comparison.md names table.json as its source.
#[test]
fn report_reads_json_tables_as_csv_ones() {
    let mut comparisons = Vec::new();
    for format in ["csv", "json"] {
        let dir = tri4_table(format);
        pegsol().arg("report").arg(dir.path()).assert().success();
        let md = read(&dir.path().join("comparison.md"));
        let source = if format == "csv" {
            "summary.csv"
        } else {
            "table.json"
        };
        assert!(md.contains(&format!("from the table's {source};")), "{md}");
        comparisons.push(read(&dir.path().join("comparison.csv")));
    }
    assert!(
        comparisons[0].contains("\ntri:4,all,"),
        "{}",
        comparisons[0]
    );
    assert_eq!(comparisons[0], comparisons[1]);
}

/// A pair whose rows a file lost (depth.csv or pegs_left.csv without them, finish.csv
/// without those of a pair that has wins, or the file gone) is not complete: the rerun
/// counts it again and the files are whole again.
#[test]
fn pairs_missing_rows_are_counted_again() {
    let whole = tempfile::tempdir().unwrap();
    table(whole.path(), &["tri:4"]).assert().success();
    for (file, drop) in [
        ("depth.csv", "tri:4,a1,"),
        ("pegs_left.csv", "tri:4,b3,"),
        ("finish.csv", "tri:4,a2,"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        for f in FILES.iter().chain(&["runs.csv"]) {
            std::fs::copy(whole.path().join(f), dir.path().join(f)).unwrap();
        }
        let text = read(&dir.path().join(file));
        let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with(drop)).collect();
        std::fs::write(dir.path().join(file), kept.join("\n") + "\n").unwrap();
        pegsol()
            .args(["table", "--board", "tri:4", "--csv"])
            .arg(dir.path())
            .assert()
            .success()
            .stderr(predicates::str::contains(
                "3 pairs: 1 computed, 2 already complete",
            ));
        assert_same_table(whole.path(), dir.path());
    }
}

/// Runs `table` (resuming the table in `dir`, of `boards`, in `format`) and `report` on
/// it; asserts that both refuse it with exit code 2 and one line on stderr that contains
/// `message`.
fn assert_refused(dir: &Path, boards: &[&str], format: &str, message: &str) {
    for command in ["table", "report"] {
        let mut cmd = pegsol();
        if command == "table" {
            cmd.args(["table", "-q", "--format", format]);
            for b in boards {
                cmd.args(["--board", b]);
            }
            cmd.arg("--csv");
        } else {
            cmd.arg("report");
        }
        let out = cmd.arg(dir).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command} {message}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{command}: {stderr}");
        assert!(stderr.contains(message), "{command}: {stderr}");
    }
}

/// A table's counts and its `all` rows are exact past 128 bits. tri:5 from a1 is given
/// 2^128 more wins in each of its files, consistently (summary, pegs left, finish c5, the
/// last depth): `table` and `report` read it, and the board's total over its 15 starts
/// (a1's class holds 3) is 3 * 2^128 more wins and games, to the digit. Before the
/// statistics held 256 bits, both refused such a table ("not a count").
#[test]
fn table_totals_past_128_bits_are_exact() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path(), &["tri:4..5"]).assert().success();
    let (games, wins) = (
        "340282366920938463463374607431768780086", // 568,630 + 2^128
        "340282366920938463463374607431768241216", // 29,760 + 2^128
    );
    for (file, from, to) in [
        (
            "summary.csv",
            "tri:5,a1,3016,1544,568630,29760,".to_string(),
            format!("tri:5,a1,3016,1544,{games},{wins},"),
        ),
        (
            "pegs_left.csv",
            "tri:5,a1,1,29760\n".into(),
            format!("tri:5,a1,1,{wins}\n"),
        ),
        (
            "finish.csv",
            "tri:5,a1,c5,16128\n".into(),
            "tri:5,a1,c5,340282366920938463463374607431768227584\n".into(),
        ),
        (
            "depth.csv",
            "tri:5,a1,13,4,3,29760,".into(),
            format!("tri:5,a1,13,4,3,{wins},"),
        ),
    ] {
        let path = dir.path().join(file);
        let text = read(&path);
        assert!(text.contains(&from), "{file}: {text}");
        std::fs::write(&path, text.replacen(&from, &to, 1)).unwrap();
    }
    // 438,984 wins and 7,335,390 games over the 15 starts (published), plus 3 * 2^128.
    let (all_wins, all_games) = (
        "1020847100762815390390123822295305073352",
        "1020847100762815390390123822295311969758",
    );
    let out = table(dir.path(), &["tri:4..5"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The columns widen to the widest figure: every line as long as the header.
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.iter().all(|l| l.len() == lines[0].len()), "{stdout}");
    let listing = stdout.replace(',', "");
    assert!(listing.contains(&format!("{all_games} ")), "{listing}");
    assert!(listing.trim_end().ends_with(all_wins), "{listing}");
    pegsol().arg("report").arg(dir.path()).assert().success();
    let comparison = read(&dir.path().join("comparison.csv"));
    assert!(
        comparison.contains(&format!("\ntri:5,all,15,{all_wins},{all_games},100.0000,")),
        "{comparison}"
    );
}

/// Copies the tri:4..5 table in `whole`, replaces `from` by `to` once in its `file`, and
/// asserts that `table` and `report` refuse the copy with `message` (`DIR` standing for the
/// copy's folder).
fn assert_damaged_copy_refused(whole: &Path, file: &str, (from, to): (&str, &str), message: &str) {
    let dir = tempfile::tempdir().unwrap();
    for f in FILES.iter().chain(&["runs.csv"]) {
        std::fs::copy(whole.join(f), dir.path().join(f)).unwrap();
    }
    let path = dir.path().join(file);
    let text = read(&path);
    assert!(text.contains(from), "{file}: {text}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let message = message.replace("DIR", &dir.path().display().to_string());
    assert_refused(dir.path(), &["tri:4..5"], "csv", &message);
}

/// Numbers that read as counts but cannot be right are refused with one line naming the
/// file, the pair and both figures, by `table` and by `report`, in CSV and in JSON: a start
/// class size other than the size of the start's class (one past 64 bits was shown wrapped
/// in comparison.csv, and as 0 by `table`), provenance that is not a number, and count
/// files that do not add up to summary.csv (sums checked, never wrapped). An untouched
/// table still reports, its `all` rows in place.
#[test]
fn tables_with_impossible_values_are_refused() {
    let whole = tempfile::tempdir().unwrap();
    table(whole.path(), &["tri:4..5"]).assert().success();
    let damage = |file: &str, from: &str, to: &str, message: &str| {
        assert_damaged_copy_refused(whole.path(), file, (from, to), message)
    };
    let u128_max = u128::MAX.to_string();
    // tri:5 b3: 137,846 games, 1,550 wins, a class of 3 holes.
    for size in ["7", "99999999999999999999999", "0"] {
        damage(
            "summary.csv",
            "tri:5,b3,1651,849,137846,1550,10,2,4,2,3\n",
            &format!("tri:5,b3,1651,849,137846,1550,10,2,4,2,{size}\n"),
            &format!(
                "DIR/summary.csv: tri:5 b3: start_class_size is {size}, but the start class \
                 of b3 holds 3 holes"
            ),
        );
    }
    // A pair has one row of summary.csv and of runs.csv (a repeated one was read as one).
    let b3 = "tri:5,b3,1651,849,137846,1550,10,2,4,2,3\n";
    damage(
        "summary.csv",
        b3,
        &b3.repeat(2),
        "DIR/summary.csv was not written by pegsol table: a second row for tri:5 b3",
    );
    let runs_text = read(&whole.path().join("runs.csv"));
    let b3_run = runs_text
        .lines()
        .find(|l| l.starts_with("tri:5,b3,"))
        .unwrap()
        .to_string()
        + "\n";
    damage(
        "runs.csv",
        &b3_run,
        &b3_run.repeat(2),
        "DIR/runs.csv was not written by pegsol table: a second row for tri:5 b3",
    );
    // runs.csv: threads, wall_seconds, peak_memory_bytes.
    let runs = rows(&whole.path().join("runs.csv"));
    let a1 = runs.iter().find(|r| r[..2] == ["tri:5", "a1"]).unwrap();
    // pegsol_version, git_commit, date_utc, threads, wall_seconds, peak_memory_bytes
    let a1_run = a1[2..8].join(",");
    let fields: Vec<&str> = a1[2..8].iter().map(String::as_str).collect();
    for (column, i, bad, what) in [
        ("wall_seconds", 4, "abc", "seconds"),
        ("wall_seconds", 4, "-5", "seconds"),
        ("wall_seconds", 4, "inf", "seconds"),
        ("threads", 3, "0", "threads"),
        ("peak_memory_bytes", 5, "12x", "bytes"),
    ] {
        let mut edited = fields.clone();
        edited[i] = bad;
        damage(
            "runs.csv",
            &format!("tri:5,a1,{a1_run},"),
            &format!("tri:5,a1,{},", edited.join(",")),
            &format!(
                "DIR/runs.csv was not written by pegsol table: {column} of tri:5 from a1 is \
                 '{bad}', not a number of {what}"
            ),
        );
    }
    // board_geometry: a line pegsol writes, or nothing (rows from before the column).
    let geometry = a1.last().unwrap();
    for bad in ["garbage", "triangular 15 holes 36 jumps cells cef168d6x"] {
        damage(
            "runs.csv",
            &format!(",{geometry}\n"),
            &format!(",{bad}\n"),
            &format!(
                "DIR/runs.csv was not written by pegsol table: board_geometry of tri:5 from a1 \
                 is '{bad}', not a board's geometry"
            ),
        );
    }
    // Count files against summary.csv (tri:5 a1: 568,630 games, 29,760 wins, 3,016
    // positions; tri:4 a2: 93 games, 14 wins).
    damage(
        "summary.csv",
        "tri:5,a1,3016,1544,568630,",
        "tri:5,a1,3016,1544,568631,",
        "DIR/pegs_left.csv: tri:5 a1: the games per pegs left sum to 568630, summary.csv says \
         568631",
    );
    damage(
        "summary.csv",
        "tri:4,a2,62,48,93,14,",
        "tri:4,a2,62,48,93,15,",
        "DIR/pegs_left.csv: tri:4 a2: the games leaving 1 peg are 14, summary.csv says 15",
    );
    damage(
        "finish.csv",
        "tri:5,a1,a1,6816\n",
        "tri:5,a1,a1,6817\n",
        "DIR/finish.csv: tri:5 a1: the wins per finish sum to 29761, summary.csv says 29760",
    );
    // Sums are exact past 128 bits (the other finishes of tri:5 a1 win 22,944 times) and
    // refused past 256.
    damage(
        "finish.csv",
        "tri:5,a1,a1,6816\n",
        &format!("tri:5,a1,a1,{u128_max}\n"),
        "DIR/finish.csv: tri:5 a1: the wins per finish sum to \
         340282366920938463463374607431768234399, summary.csv says 29760",
    );
    let u256_max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
    damage(
        "finish.csv",
        "tri:5,a1,a1,6816\n",
        &format!("tri:5,a1,a1,{u256_max}\n"),
        "DIR/finish.csv: tri:5 a1: the wins per finish sum to 2^256 or more, summary.csv \
         says 29760",
    );
    damage(
        "depth.csv",
        "tri:4,a2,8,1,1,14,1\n",
        "tri:4,a2,8,1,1,15,1\n",
        "DIR/depth.csv: tri:4 a2: the games ended per depth sum to 94, summary.csv says 93",
    );
    damage(
        "depth.csv",
        "tri:4,a2,8,1,1,14,1\n",
        "tri:4,a2,8,2,1,14,1\n",
        "DIR/depth.csv: tri:4 a2: the positions per depth sum to 63, summary.csv says 62",
    );
    damage(
        "depth.csv",
        "tri:4,a2,8,1,1,14,1\n",
        "tri:4,a2,8,1,2,14,1\n",
        "DIR/depth.csv: tri:4 a2: the reduced positions per depth sum to 49, summary.csv says \
         48",
    );
    // The summary's extremes against the rows (tri:5 a1: a dead end leaves at most 8 pegs,
    // 2 games, after 6 jumps), a label given twice, a depth row past its positions.
    damage(
        "summary.csv",
        "tri:5,a1,3016,1544,568630,29760,8,2,6,2,3\n",
        "tri:5,a1,3016,1544,568630,29760,9,2,6,2,3\n",
        "DIR/pegs_left.csv: tri:5 a1: max_dead_end_pegs is 9 in the summary, 8 by its rows",
    );
    damage(
        "summary.csv",
        "tri:5,a1,3016,1544,568630,29760,8,2,6,2,3\n",
        "tri:5,a1,3016,1544,568630,29760,8,2,5,2,3\n",
        "DIR/depth.csv: tri:5 a1: shortest_game_jumps is 5 in the summary, 6 by its rows",
    );
    damage(
        "finish.csv",
        "tri:5,a1,a4,3408\n",
        "tri:5,a1,a4,3408\ntri:5,a1,a4,0\n",
        "DIR/finish.csv: tri:5 a1: two rows for finish a4",
    );
    damage(
        "depth.csv",
        "tri:5,a1,4,122,62,0,0\n",
        "tri:5,a1,4,122,62,0,123\n",
        "DIR/depth.csv: tri:5 a1: after 4 jumps: 122 positions, but 62 up to symmetry and 123 \
         dead ends",
    );
    // Two pairs of one start class: a3's rows named a5, a corner as a1 is. Each pair adds
    // up, but the board's total would count a1's class twice and a3's not at all.
    let dir = tempfile::tempdir().unwrap();
    for f in FILES.iter().chain(&["runs.csv"]) {
        let text = read(&whole.path().join(f));
        std::fs::write(dir.path().join(f), text.replace("tri:5,a3,", "tri:5,a5,")).unwrap();
    }
    assert_refused(
        dir.path(),
        &["tri:4..5"],
        "csv",
        "summary.csv: tri:5 a5: a1 and a5 are starts of one class; a table holds one pair a class",
    );
    // A FIFO in place of summary.csv: refused, not waited on.
    let dir = tempfile::tempdir().unwrap();
    for f in FILES.iter().skip(1).chain(&["runs.csv"]) {
        std::fs::copy(whole.path().join(f), dir.path().join(f)).unwrap();
    }
    let fifo = dir.path().join("summary.csv");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let out = pegsol()
        .arg("report")
        .arg(dir.path())
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("summary.csv: it is not a regular file"),
        "{stderr}"
    );

    // JSON: the same checks, naming table.json.
    let dir = tri4_table("json");
    let path = dir.path().join("table.json");
    let text = read(&path);
    let json = dir.path().join("table.json").display().to_string();
    let edit = |from: &str, to: &str| {
        assert!(text.contains(from), "{text}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    edit("\"start_class_size\": 3", "\"start_class_size\": 7");
    assert_refused(
        dir.path(),
        &["tri:4"],
        "json",
        &format!("{json}: tri:4 a1: start_class_size is 7, but the start class of a1 holds 3"),
    );
    edit("\"wins\": 14\n", "\"wins\": 13\n");
    assert_refused(
        dir.path(),
        &["tri:4"],
        "json",
        &format!("{json}: tri:4 a2: the wins per finish sum to 13, the summary says 14"),
    );
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let pairs = doc["pairs"].as_array_mut().unwrap();
    pairs.push(pairs[0].clone());
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    assert_refused(
        dir.path(),
        &["tri:4"],
        "json",
        &format!("{json} was not written by pegsol table: a second pair tri:4 a1"),
    );

    // A board file's table: its class sizes are bounded by the holes a board may have.
    let tmp = tempfile::tempdir().unwrap();
    let board = tmp.path().join("t3.txt");
    std::fs::write(&board, "lattice: triangular\n.\noo\nooo\n").unwrap();
    let out = tmp.path().join("t");
    let spec = board.display().to_string();
    pegsol()
        .args(["table", "-q", "--board", &spec, "--csv"])
        .arg(&out)
        .assert()
        .success();
    let summary = read(&out.join("summary.csv"));
    let first = summary.lines().nth(1).unwrap().to_string();
    let size = first.rsplit(',').next().unwrap().to_string();
    let cut = first.len() - size.len();
    std::fs::write(
        out.join("summary.csv"),
        summary.replacen(&first, &format!("{}{u128_max}", &first[..cut]), 1),
    )
    .unwrap();
    assert_refused(
        &out,
        &[&spec],
        "csv",
        &format!("start_class_size is {u128_max}; a start class holds 1 to 128 holes"),
    );

    // The untouched table still reports, with its totals.
    pegsol().arg("report").arg(whole.path()).assert().success();
    let cmp = read(&whole.path().join("comparison.csv"));
    assert!(cmp.contains("\ntri:4,all,10,84,703,"), "{cmp}");
    assert!(cmp.contains("\ntri:5,all,15,438984,7335390,"), "{cmp}");
}

/// `table` (deciding what it may skip) and `report` read a table's rows through one strict
/// reader: a finish hole off the board (`z9`, which `table` once kept as "already complete"
/// while `report` refused it), a hole or a number not written as pegsol writes it (`C5`,
/// `c05`, ` c5`, `05`), and a depth row moved out of its place (jumps 99) are each refused
/// by both, with exit code 2 and one line.
#[test]
fn tables_with_labels_pegsol_never_writes_are_refused() {
    let whole = tempfile::tempdir().unwrap();
    table(whole.path(), &["tri:4..5"]).assert().success();
    let damage = |file: &str, from: &str, to: &str, message: &str| {
        assert_damaged_copy_refused(whole.path(), file, (from, to), message)
    };
    // tri:5 from b3: 1,550 wins, every one finishing in c5.
    for hole in ["z9", "C5", "c05", " c5", "c5 ", "f1"] {
        damage(
            "finish.csv",
            "tri:5,b3,c5,1550\n",
            &format!("tri:5,b3,{hole},1550\n"),
            &format!(
                "DIR/finish.csv: tri:5 b3: finish hole '{hole}' is not a hole of tri:5 named \
                 as pegsol names it"
            ),
        );
    }
    damage(
        "depth.csv",
        "tri:5,b3,5,139,70,0,0\n",
        "tri:5,b3,99,139,70,0,0\n",
        "DIR/depth.csv: tri:5 b3: a row for jumps '99' where jumps 5 comes",
    );
    damage(
        "depth.csv",
        "tri:5,b3,5,139,70,0,0\n",
        "tri:5,b3,05,139,70,0,0\n",
        "jumps of tri:5 from b3 is '05', not a count",
    );
    damage(
        "pegs_left.csv",
        "tri:5,b3,10,2\n",
        "tri:5,b3,010,2\n",
        "pegs_left of tri:5 from b3 is '010', not a count",
    );
    damage(
        "pegs_left.csv",
        "tri:5,b3,10,2\n",
        "tri:5,b3,15,2\n",
        "DIR/pegs_left.csv: tri:5 b3: '15' pegs left, not from 1 to 14 of tri:5",
    );
}

/// `report` on a folder holding some of a table's files names the missing one (it said
/// "no table" when runs.csv, depth.csv or pegs_left.csv was gone, and went on without
/// finish.csv); a pair whose rows a file lost is named too, not left out of the totals;
/// a `table.json` that is a directory is said to be one. The whole table still reports.
#[test]
fn report_names_what_a_table_lacks() {
    let whole = tempfile::tempdir().unwrap();
    table(whole.path(), &["tri:4"]).assert().success();
    let all: Vec<&str> = FILES.iter().copied().chain(["runs.csv"]).collect();
    let copy = |skip: &str| {
        let dir = tempfile::tempdir().unwrap();
        for f in all.iter().filter(|f| **f != skip) {
            std::fs::copy(whole.path().join(f), dir.path().join(f)).unwrap();
        }
        dir
    };
    let refused = |dir: &Path, message: &str| {
        let out = pegsol().arg("report").arg(dir).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{message}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        let message = message.replace("DIR", &dir.display().to_string());
        assert!(stderr.contains(&message), "{message}: {stderr}");
    };
    for gone in &all {
        let dir = copy(gone);
        let here: Vec<&str> = all.iter().copied().filter(|f| f != gone).collect();
        refused(
            dir.path(),
            &format!(
                "DIR holds {} but not {gone}: not a whole table (run pegsol table --csv DIR \
                 again to complete it)",
                here.join(", ")
            ),
        );
    }
    // Rows lost by one pair: tri:4 a2's 14 wins without their finishing hole, b3's depth.
    for (file, drop, part, start) in [
        ("finish.csv", "tri:4,a2,", "finish", "a2"),
        ("depth.csv", "tri:4,b3,", "depth", "b3"),
    ] {
        let dir = copy("");
        let text = read(&dir.path().join(file));
        let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with(drop)).collect();
        std::fs::write(dir.path().join(file), kept.join("\n") + "\n").unwrap();
        refused(
            dir.path(),
            &format!("DIR/{file}: no {part} rows for tri:4 {start}; run pegsol table again"),
        );
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("table.json")).unwrap();
    refused(dir.path(), "cannot read DIR/table.json: it is a directory");
    refused(
        &dir.path().join("none"),
        "no table in DIR (run pegsol table --csv DIR first)",
    );
    // The whole table reports, its total in place.
    pegsol().arg("report").arg(whole.path()).assert().success();
    let cmp = read(&whole.path().join("comparison.csv"));
    assert!(cmp.contains("\ntri:4,all,10,84,703,"), "{cmp}");
}

/// `report` on a table that a `table` run is saving: a pair's files are renamed one after
/// another, and a table read between two renames does not add up. While another process
/// holds the table's lock, `report` reads it again until it does (here the test holds the
/// lock, and mends the table 0.3 s after `report` started); once no one holds it, the
/// same damage is refused at once.
#[test]
fn report_waits_for_a_table_being_saved() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path(), &["tri:4"]).assert().success();
    let finish = dir.path().join("finish.csv");
    let whole = read(&finish);
    let half: Vec<&str> = whole
        .lines()
        .filter(|l| !l.starts_with("tri:4,a2,"))
        .collect();
    std::fs::write(&finish, half.join("\n") + "\n").unwrap();
    let lock = std::fs::File::open(dir.path()).unwrap();
    lock.try_lock().expect("lock the table");
    let out = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let child = Command::new(assert_cmd::cargo::cargo_bin("pegsol"))
        .arg("report")
        .arg(dir.path())
        .arg("--out")
        .arg(out.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(&finish, &whole).unwrap();
    drop(lock);
    let done = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "{stderr}");
    assert!(started.elapsed() >= Duration::from_millis(300));
    let cmp = read(&out.path().join("comparison.csv"));
    assert!(cmp.contains("\ntri:4,all,10,84,703,"), "{cmp}");
    // Nothing holds the table now: the same damage is refused without waiting.
    std::fs::write(&finish, half.join("\n") + "\n").unwrap();
    let out = pegsol().arg("report").arg(dir.path()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no finish rows for tri:4 a2; run pegsol table again"),
        "{stderr}"
    );
}

/// A table file too large to read into the memory there is (here under a 200 MB address
/// space) is refused before it is read, with one line giving the file and both sizes, by
/// `report` and by `table`, in CSV and in JSON: before, a 55 MB depth.csv took `report` to
/// 473 MB, and a larger one would have been killed.
#[test]
#[cfg(target_os = "linux")]
fn table_files_too_large_to_read_are_refused() {
    use std::io::Write;
    for (format, file, mb) in [("csv", "depth.csv", 25), ("json", "table.json", 10)] {
        let dir = tri4_table(format);
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.path().join(file))
            .unwrap();
        let junk = vec![b' '; 1 << 20];
        for _ in 0..mb {
            f.write_all(&junk).unwrap();
        }
        drop(f);
        for command in [
            format!("report '{}'", dir.path().display()),
            format!(
                "table -q --board tri:4 --format {format} --csv '{}'",
                dir.path().display()
            ),
        ] {
            let out = crate::common::under_ulimit(200_000, &command);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{command}: {stderr}");
            assert!(stderr.contains(file), "{command}: {stderr}");
            assert!(
                stderr.contains("of memory to read") && stderr.contains("is free"),
                "{command}: {stderr}"
            );
        }
    }
}
