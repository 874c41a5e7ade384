//! The worked examples of README.md and docs/commands.md, run as a reader would run them.
//!
//! Every fenced block whose first line is `$ pegsol ...` is a session: each `$ ` line is a
//! command (run by `sh` in a fresh directory per file, with the binary under test first on
//! `PATH`, so a pipe into `pegsol check -` works and `report results/` reads what the
//! `table` block before it wrote), and the lines after it are its output (stdout and stderr
//! together), which must match line for line, except that:
//! - a line `...` stands for any number of lines;
//! - a line ending in `...` (`proof: ...; ...`) must match only up to there;
//! - times (`0.03 s`), memory (`6.9 MiB`) and a thread count at a line's end (`wall time
//!   ..., 2 threads`) may differ, since they depend on the machine.
//!
//! So a figure printed in the documentation is a figure the program prints. Commands that
//! take too long for the suite (tri:8 on disk) are listed in `NOT_RUN`.

use regex::Regex;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// Examples too slow for the test suite (tri:8 on disk takes 36 minutes): not run. The
/// test fails when one is no longer in README.md, so that the list cannot go stale.
const NOT_RUN: &[&str] =
    &["pegsol count --board tri:8 --max-memory 12G --work-dir /data/pegsol-work --csv out/"];

/// One `$ ` command of a block and the output shown under it.
struct Example {
    line: usize,
    command: String,
    output: Vec<String>,
}

/// The examples of a markdown file, in order.
fn examples(text: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        if !line.starts_with("```") {
            continue;
        }
        let mut body = Vec::new();
        for (n, l) in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            body.push((n + 1, l));
        }
        if !body
            .first()
            .is_some_and(|(_, l)| l.starts_with("$ pegsol "))
        {
            continue;
        }
        for (n, l) in body {
            match l.strip_prefix("$ ") {
                Some(command) => found.push(Example {
                    line: n,
                    command: command.to_string(),
                    output: Vec::new(),
                }),
                None => found.last_mut().unwrap().output.push(l.to_string()),
            }
        }
    }
    found
}

/// Whether an output line matches the documented one (times, sizes and a thread count at
/// the line's end aside).
fn same_line(shown: &str, got: &str, machine: &Regex) -> bool {
    let (shown, got) = (shown.trim_end(), got.trim_end());
    if let Some(prefix) = shown.strip_suffix("...")
        && !prefix.is_empty()
    {
        return got.starts_with(prefix);
    }
    machine.replace_all(shown, "#") == machine.replace_all(got, "#")
}

/// Whether `got` is `shown` with each `...` line standing for any number of lines.
fn matches(shown: &[String], got: &[&str], machine: &Regex) -> bool {
    match shown.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=got.len()).any(|skip| matches(rest, &got[skip..], machine))
        }
        Some((first, rest)) => got
            .split_first()
            .is_some_and(|(g, more)| same_line(first, g, machine) && matches(rest, more, machine)),
    }
}

/// The pattern of what depends on the machine: times, sizes, a thread count at a line's end.
fn machine_figures() -> Regex {
    Regex::new(r"\d+(\.\d+)? (s|KiB|MiB|GiB)\b|\d+ threads?$").expect("regex")
}

/// Whether a command's output depends only on its arguments, not on the files of the
/// directory it runs in: then a second example of it (README.md and docs/commands.md share
/// several) reuses the first's output.
fn pure(command: &str) -> bool {
    ![
        "--csv",
        "--cache",
        "--svg",
        "--work-dir",
        "--dir",
        "report",
        ">",
    ]
    .iter()
    .any(|w| command.contains(w))
}

/// Runs every example of `files` (relative to the crate), each file's in one scratch
/// directory, and returns a description of each that does not print what it shows.
fn check_files(files: &[&str]) -> Vec<String> {
    let machine = machine_figures();
    let bin = assert_cmd::cargo::cargo_bin("pegsol");
    let path_var = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut seen: HashMap<String, (Option<i32>, String)> = HashMap::new();
    let mut failures = Vec::new();
    for file in files {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text = std::fs::read_to_string(&path).expect("documentation file");
        let all = examples(&text);
        assert!(all.len() >= 8, "{file}: only {} examples found", all.len());
        let dir = tempfile::tempdir().expect("scratch directory");
        for ex in &all {
            if NOT_RUN.contains(&ex.command.as_str()) {
                continue;
            }
            let run = || {
                let out = Command::new("sh")
                    .arg("-c")
                    .arg(format!("{} 2>&1", ex.command))
                    .current_dir(dir.path())
                    .env("PATH", &path_var)
                    .env_remove("PEGSOL_TRACE")
                    .output()
                    .expect("sh");
                let text = String::from_utf8_lossy(&out.stdout).into_owned();
                (out.status.code(), text)
            };
            let (code, text) = match seen.get(&ex.command) {
                Some(done) => done.clone(),
                None if pure(&ex.command) => {
                    let done = run();
                    seen.insert(ex.command.clone(), done.clone());
                    done
                }
                None => run(),
            };
            let got: Vec<&str> = text.lines().collect();
            // 1 is pegsol's "no" (no solution, unreachable), always with a proof.
            if !matches!(code, Some(0 | 1)) || !matches(&ex.output, &got, &machine) {
                failures.push(format!(
                    "{file}:{}: `{}` (exit {code:?}) printed\n{text}\nbut the file shows\n{}",
                    ex.line,
                    ex.command,
                    ex.output.join("\n")
                ));
            }
        }
        for slow in NOT_RUN {
            assert!(
                *file != "README.md" || all.iter().any(|e| e.command == *slow),
                "{file}: `{slow}` is no longer an example; take it out of NOT_RUN"
            );
        }
    }
    failures
}

/// README.md's examples, then docs/commands.md's, in one test so that the examples the two
/// share run once.
#[test]
fn documented_examples_print_what_they_show() {
    let failures = check_files(&["README.md", "docs/commands.md"]);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn example_matching_is_strict() {
    let machine = machine_figures();
    let shown: Vec<String> = ["a", "...", "wins 4 (0.03 s)", "proof: x; ..."]
        .map(String::from)
        .to_vec();
    assert!(matches(
        &shown,
        &["a", "b", "c", "wins 4 (1.50 s)", "proof: x; y"],
        &machine
    ));
    assert!(matches(
        &shown,
        &["a", "wins 4 (0.03 s)", "proof: x; z"],
        &machine
    ));
    // A figure that differs, a missing line, an extra line after the last one, a line
    // out of order: each is a failure.
    assert!(!matches(
        &shown,
        &["a", "wins 5 (0.03 s)", "proof: x; y"],
        &machine
    ));
    assert!(!matches(&shown, &["a", "wins 4 (0.03 s)"], &machine));
    assert!(!matches(
        &shown,
        &["a", "wins 4 (0.03 s)", "proof: x; y", "extra"],
        &machine
    ));
    assert!(!matches(
        &shown,
        &["wins 4 (0.03 s)", "a", "proof: x; y"],
        &machine
    ));
    let text = "```\n$ pegsol board tri:3\nx\n$ pegsol line\ny\n...\n```\n```sh\ncargo test\n```\n";
    let ex = examples(text);
    assert_eq!(ex.len(), 2);
    assert_eq!(
        (ex[0].line, ex[0].command.as_str()),
        (2, "pegsol board tri:3")
    );
    assert_eq!(ex[1].output, ["y", "..."]);
}

/// The long options that `pegsol COMMAND --help` lists (its option lines, not its prose).
fn listed_options(command: &str) -> Vec<String> {
    let out = crate::common::pegsol()
        .args([command, "--help"])
        .output()
        .expect("help");
    let help = String::from_utf8(out.stdout).expect("utf-8 help");
    let option = Regex::new(r"^\s+(?:-\w, )?(--[a-z][a-z0-9-]*)").expect("regex");
    help.lines()
        .filter_map(|l| option.captures(l).map(|c| c[1].to_string()))
        .filter(|o| o != "--help")
        .collect()
}

/// Every option of every command is described: in its section of docs/commands.md, or,
/// for the commands without one (`completions`, `man`), in the README.
#[test]
fn every_option_is_in_the_command_reference() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let reference = std::fs::read_to_string(root.join("docs/commands.md")).unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut missing = Vec::new();
    for command in [
        "count",
        "table",
        "report",
        "board",
        "solve",
        "reach",
        "extremes",
        "check",
        "play",
        "solvable",
        "hint",
        "line",
        "completions",
        "man",
    ] {
        let heading = format!("### `pegsol {command}`");
        let text = match reference.split_once(&heading) {
            Some((_, rest)) => rest.split("\n### `pegsol ").next().unwrap(),
            None => &readme,
        };
        let options = listed_options(command);
        assert!(
            command == "completions" || !options.is_empty(),
            "{command}: no options found in its help"
        );
        for option in options {
            if !text.contains(&option) {
                missing.push(format!("{command} {option}"));
            }
        }
    }
    assert!(missing.is_empty(), "not described: {missing:?}");
}
