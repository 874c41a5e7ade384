//! Records the git commit pegsol is built from (PEGSOL_GIT_COMMIT, `-dirty` when the
//! files it is built from, `src/`, `build.rs`, `Cargo.toml` and `Cargo.lock`, differ from
//! that commit); outside a git checkout nothing is recorded and pegsol reports `unknown`.
//!
//! The script reruns when those files change or the commit moves, not when the git index
//! does: `git status` or an edit of docs/ or results/ rewrites the index, and a rerun
//! rebuilds the whole crate (minutes) for a binary that would be the same.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    println!("cargo:rerun-if-changed=Cargo.lock");
    let Some(commit) = git(&["rev-parse", "HEAD"]) else {
        return;
    };
    // Rebuild when HEAD moves: to another branch, or with a commit on this one.
    if let Some(p) = git(&["rev-parse", "--git-path", "HEAD"]) {
        println!("cargo:rerun-if-changed={p}");
    }
    if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(p) = git(&["rev-parse", "--git-path", &r])
    {
        println!("cargo:rerun-if-changed={p}");
    }
    let sources = ["src", "build.rs", "Cargo.toml", "Cargo.lock"];
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(sources);
    let dirty = git(&status).is_some_and(|s| !s.is_empty());
    let suffix = if dirty { "-dirty" } else { "" };
    println!("cargo:rustc-env=PEGSOL_GIT_COMMIT={commit}{suffix}");
}
