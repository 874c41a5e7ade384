//! Before a batch sweeps: the table opened (its directory locked), the boards checked
//! against the rows the table holds, and the pairs left to do.

use super::batch::BatchOptions;
use super::check::Sources;
use super::model::{CLASS_SIZE_COLUMN, Format, GEOMETRY_IN_RUN, Table};
use super::plan::{Key, Pair};
use super::write::remove_stale_temporaries;
use crate::error::{Error, Result};
use crate::geometry::board::Board;
use crate::output::files;

/// The table in `opts.dir` (rank 0 only; an empty one otherwise) and the lock held on its
/// directory while the batch runs. Taking the lock finishes a save a killed run left half
/// done ([`files::lock_dir`]); a set that cannot be made whole is refused
/// ([`files::refuse_torn`]) before anything is read.
pub(super) fn open_table(
    opts: &BatchOptions,
    first: bool,
) -> Result<(Table, Option<std::fs::File>)> {
    match &opts.dir {
        Some(dir) if first => {
            files::prepare_files(dir, &opts.format.file_names())?;
            let lock = files::lock_dir(dir, "--csv")?;
            files::refuse_torn(dir, &every_file())?;
            remove_stale_temporaries(dir);
            Ok((Table::load(dir, opts.format)?, Some(lock)))
        }
        _ => Ok((Table::default(), None)),
    }
}

/// Every file of a table, in either format: the set a save killed between two renames
/// must not leave torn ([`files::refuse_torn`]).
///
/// ```
/// let names = pegsol::count::table::every_file();
/// assert_eq!(names.len(), 8);
/// assert!(names.contains(&"random.csv") && names.contains(&"table.json"));
/// ```
pub fn every_file() -> Vec<&'static str> {
    let mut names = Format::Csv.file_names();
    names.extend(Format::Json.file_names());
    names
}

/// Where the table is, as a refusal names it.
fn place(opts: &BatchOptions) -> String {
    opts.dir
        .as_ref()
        .map_or("the table".into(), |d| d.display().to_string())
}

/// The boards of the plan, in its order, each with its first pair. One the table holds
/// under the same name must be the same board.
pub(super) fn boards_of<'p>(
    plan: &'p [Pair],
    table: &Table,
    opts: &BatchOptions,
) -> Result<Vec<(&'p Pair, Board)>> {
    let mut boards: Vec<(&Pair, Board)> = Vec::new();
    for p in plan {
        if boards.iter().any(|(b, _)| b.spec == p.spec) {
            continue;
        }
        let board = Board::from_spec(&p.spec)?;
        let geometry = board.geometry();
        let held = table.entries.iter().find(|(k, e)| {
            k.board == p.board
                && e.run
                    .get(GEOMETRY_IN_RUN)
                    .is_some_and(|g| !g.is_empty() && *g != geometry)
        });
        if let Some((_, e)) = held {
            return Err(Error::input(format!(
                "{} holds another board named {} ({}, where {} is {geometry}); \
                 rename the board file or use another directory",
                place(opts),
                p.board,
                e.run[GEOMETRY_IN_RUN],
                p.spec,
            )));
        }
        boards.push((p, board));
    }
    Ok(boards)
}

/// A pair the table holds must have the class size the board in hand gives its start
/// (a board file's, or a row older than board_geometry, is not checked on loading).
pub(super) fn check_class_sizes(plan: &[Pair], table: &Table, opts: &BatchOptions) -> Result<()> {
    for p in plan {
        let Some(e) = table.entries.get(&Key::new(&p.board, &p.start)) else {
            continue;
        };
        let size = e.summary_cell(CLASS_SIZE_COLUMN).unwrap_or("");
        if e.is_whole() && size != p.class_size.to_string() {
            return Err(Error::input(format!(
                "{}: {} {}: start_class_size is {size}, but the start class of {} holds {} \
                 holes",
                opts.dir.as_ref().map_or("the table".into(), |d| {
                    Sources::of(d, opts.format).file("summary").to_string()
                }),
                p.board,
                p.start,
                p.start,
                p.class_size
            )));
        }
    }
    Ok(())
}

/// The pairs of the plan the table does not hold yet, or, with `random`, holds without the
/// random player's figures: rank 0's table decides, for every rank.
pub(super) fn pending<'p>(
    plan: &'p [Pair],
    table: &Table,
    opts: &BatchOptions,
    random: bool,
) -> Vec<&'p Pair> {
    let left = |p: &Pair| match table.entries.get(&Key::new(&p.board, &p.start)) {
        None => true,
        Some(e) => random && !e.has_random(),
    };
    let pending: Vec<u8> = plan.iter().map(|p| u8::from(left(p))).collect();
    let pending = opts.cluster.all_gather(&pending).swap_remove(0);
    plan.iter()
        .zip(&pending)
        .filter(|&(_, &left)| left == 1)
        .map(|(p, _)| p)
        .collect()
}

/// A pair to do must not have another start of its class in the table (a row per start
/// class).
pub(super) fn check_start_classes(
    board: &Board,
    pairs: &[&Pair],
    table: &Table,
    opts: &BatchOptions,
) -> Result<()> {
    for p in pairs {
        let class = board
            .hole_classes()
            .into_iter()
            .find(|c| c.contains(&p.hole))
            .expect("every hole has a class");
        if let Some(other) = class
            .iter()
            .map(|&h| board.hole_name(h))
            .find(|name| *name != p.start && table.contains(&p.board, name))
        {
            return Err(Error::input(format!(
                "{} already holds {} from {other}, which is in the same start class as {}; \
                 give --starts {other} (or use another directory)",
                place(opts),
                p.board,
                p.start
            )));
        }
    }
    Ok(())
}
