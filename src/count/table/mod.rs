//! `pegsol table`: counts every start class of several boards in one resumable batch.
//!
//! A batch is a list of [`Pair`]s (board, start hole), one per symmetry class of
//! single-vacancy starts (the class's smallest hole stands for it). The pairs of a board are
//! grouped into sweeps, one per position class ([`group_sweeps`]): a sweep counts several
//! starts at once and answers all its pairs together. Finished pairs live in a [`Table`];
//! after each sweep the whole table is written to the output directory with
//! [`write_atomically`](crate::output::files::write_atomically), so an interrupted batch
//! (Ctrl-C, SIGTERM, SIGKILL) loses at most the sweep in progress, and rerunning the command
//! skips every pair already complete.
//!
//! Files (CSV format): the four files of `pegsol count` with the same columns, plus the
//! column `start_class_size` at the end of `summary.csv`, plus `runs.csv` (one provenance row
//! per pair, [`RUNS_HEADER`]). `runs.csv` is renamed into place last: a pair counts as
//! complete only when its `runs.csv` row exists, so a kill between two renames is harmless.
//! JSON format: the same data in one file, `table.json`.
//!
//! Rows are sorted by board (natural order: `tri:4` before `tri:10`), then start hole
//! (row, then column), whatever order the pairs were computed in.
//!
//! Rooms: `plan` (the pairs of a batch and the order of rows), `model` (the
//! table's entries and files' headers), `read` and `write` (its files), `check` (refusing a
//! loaded table whose numbers cannot be right), `batch` (running a batch) and `groups`
//! (sweeps of several starts).

mod batch;
mod check;
mod groups;
mod model;
mod plan;
mod prepare;
mod read;
mod read_json;
mod write;

pub use batch::{
    BatchOptions, BatchReport, git_commit, run_batch, run_batch_with_random, shell_words,
    summary_text,
};
pub use groups::{Group, Member, group_sweeps};
pub use model::{
    CLASS_SIZE_COLUMN, Entry, Format, JSON_FILE, RANDOM_FILES, RUNS_HEADER, Table, summary_header,
};
pub use plan::{Key, Pair, expand_boards, plan};
pub use prepare::every_file;
