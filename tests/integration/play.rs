//! `pegsol play`: refused without a terminal; driven in a real terminal (tmux) when tmux
//! is installed (.ci/run installs it and then requires this test: PEGSOL_REQUIRE_TMUX).

use crate::common::pegsol;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn play_without_a_terminal_is_refused() {
    let out = pegsol()
        .args(["play", "--board", "tri:5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "pegsol: pegsol play needs a terminal: standard input and standard output must not \
         be redirected\n"
    );
    assert!(out.stdout.is_empty());
}

/// A tmux server of its own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux");
        assert!(out.status.success(), "tmux {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The screen once it contains `want` (within 60 s).
    fn wait_for(&self, want: &str) -> String {
        let clock = Instant::now();
        loop {
            let screen = self.run(&["capture-pane", "-p", "-t", "play"]);
            if screen.contains(want) {
                return screen;
            }
            assert!(
                clock.elapsed() < Duration::from_secs(60),
                "'{want}' not on the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

/// The wins from a position and its jumps' lines, as `pegsol hint` prints them.
fn hint(position: &str) -> (String, Vec<String>) {
    let out = pegsol()
        .args(["hint", "--board", "tri:5", "-q", "--position", position])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let wins = text
        .lines()
        .find_map(|l| {
            l.split(": ")
                .nth(1)?
                .strip_suffix(" winning jump sequences")
        })
        .expect("the wins line")
        .to_string();
    let jumps = text
        .lines()
        .filter(|l| l.contains("(over "))
        .map(str::to_string)
        .collect();
    (wins, jumps)
}

#[test]
fn play_in_a_real_terminal_shows_the_counts_of_hint() {
    let found = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        // .ci/run installs tmux and sets PEGSOL_REQUIRE_TMUX: there, skipping fails.
        assert!(
            std::env::var_os("PEGSOL_REQUIRE_TMUX").is_none(),
            "PEGSOL_REQUIRE_TMUX is set but tmux is not installed"
        );
        println!("notice: tmux not installed; skipping the terminal test of pegsol play");
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("pegsol");
    let dir = tempfile::tempdir().unwrap();
    let tmux = Tmux {
        socket: format!("pegsol-play-{}", std::process::id()),
    };
    let command = format!(
        "cd '{}' && '{}' play --board tri:5",
        dir.path().display(),
        bin.display()
    );
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "play",
        "-x",
        "100",
        "-y",
        "40",
        &command,
    ]);
    let screen = tmux.wait_for("wins still possible: 29,760");
    for name in ["a1", "a2", "b2", "c3", "d4", "a5", "e5"] {
        assert!(
            screen.contains(&format!(" {name}")),
            "{name} not on\n{screen}"
        );
    }
    let (wins, jumps) = hint("a1");
    assert_eq!(wins, "29,760");
    for j in &jumps {
        assert!(screen.contains(j.as_str()), "{j} not on\n{screen}");
    }
    // A jump typed in: the counts become those hint gives for the position after it.
    tmux.run(&["send-keys", "-t", "play", "a3-a1", "Enter"]);
    let (wins, jumps) = hint("a2+a3");
    let screen = tmux.wait_for(&format!("wins still possible: {wins}"));
    assert!(screen.contains("played a3-a1"), "{screen}");
    for j in &jumps {
        assert!(screen.contains(j.as_str()), "{j} not on\n{screen}");
    }
    // Saved on request, in the notation check reads; then quit.
    tmux.run(&["send-keys", "-t", "play", "C-s", "Enter"]);
    tmux.wait_for("game saved to pegsol-game.txt");
    let saved = std::fs::read_to_string(dir.path().join("pegsol-game.txt")).unwrap();
    assert_eq!(saved, "board: tri:5\nstart: a1\n1. a3-a1\n");
    tmux.run(&["send-keys", "-t", "play", "C-q"]);
}
