//! Grouping the pairs of a board into sweeps, and relabelling a sweep's counts per pair.

use super::plan::Pair;
use crate::count::stats::Counts;
use crate::count::sweep;
use crate::geometry::board::Board;
use crate::total::Total;

/// One sweep of a batch: the start holes swept together, and the pairs it answers.
#[derive(Debug)]
pub struct Group<'p> {
    /// Holes whose single-vacancy starts the sweep carries.
    pub starts: Vec<usize>,
    /// The pairs answered, each by one of the starts.
    pub members: Vec<Member<'p>>,
}

/// A pair answered by a sweep: by the start in lane `slot`, which is the image of the
/// pair's hole under `symmetry` (an index into the board's symmetries).
#[derive(Debug)]
pub struct Member<'p> {
    /// The pair.
    pub pair: &'p Pair,
    /// Its lane among the sweep's starts.
    pub slot: usize,
    /// The symmetry taking the pair's hole to that start.
    pub symmetry: usize,
}

/// Groups the pairs of one board into sweeps. Single-vacancy starts of one position class
/// ([`Board::position_classes`]) reach largely the same positions, so each class that holds
/// an image of several pairs' holes is swept once, carrying the images of those holes in it
/// ([`sweep::count_many`]); classes are taken greedily, most pairs first. A pair that no
/// class shares stays a sweep of its own start, exactly as `pegsol count` runs it.
///
/// ```
/// use pegsol::{geometry::board::Board, count::table};
/// let plan = table::plan(&["english".into()], &[]).unwrap();
/// let pairs: Vec<&table::Pair> = plan.iter().collect();
/// let groups = table::group_sweeps(&Board::from_spec("english").unwrap(), &pairs);
/// let answered: Vec<Vec<&str>> = groups
///     .iter()
///     .map(|g| g.members.iter().map(|m| m.pair.start.as_str()).collect())
///     .collect();
/// // c1, d2, d3 in one sweep of c1 c4 f4 c7; d1, d4 in one; c2, c3 in one.
/// assert_eq!(answered, [vec!["c1", "d2", "d3"], vec!["d1", "d4"], vec!["c2", "c3"]]);
/// ```
pub fn group_sweeps<'p>(board: &Board, pairs: &[&'p Pair]) -> Vec<Group<'p>> {
    let classes = board.position_classes();
    let symmetries = board.symmetries();
    // The images of a pair's hole in a class, smallest first.
    let images = |p: &Pair, class: &[usize]| -> Vec<usize> {
        let mut v: Vec<usize> = symmetries
            .iter()
            .map(|s| s.perm()[p.hole])
            .filter(|h| class.contains(h))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let mut left: Vec<&Pair> = pairs.to_vec();
    let mut groups = Vec::new();
    while !left.is_empty() {
        let best = classes
            .iter()
            .max_by_key(|c| {
                let n = left.iter().filter(|p| !images(p, c).is_empty()).count();
                (n, std::cmp::Reverse(c[0]))
            })
            .expect("a board has holes");
        let (here, rest): (Vec<&Pair>, Vec<&Pair>) =
            left.iter().partition(|p| !images(p, best).is_empty());
        left = rest;
        let mut starts: Vec<usize> = here.iter().flat_map(|p| images(p, best)).collect();
        starts.sort_unstable();
        starts.dedup();
        if here.len() == 1 || starts.len() > sweep::max_starts(board) {
            groups.extend(here.into_iter().map(|p| Group {
                starts: vec![p.hole],
                members: vec![Member {
                    pair: p,
                    slot: 0,
                    symmetry: 0,
                }],
            }));
            continue;
        }
        let members = here
            .into_iter()
            .map(|p| {
                let to = images(p, best)[0];
                Member {
                    pair: p,
                    slot: starts.iter().position(|&h| h == to).expect("an image"),
                    symmetry: symmetries
                        .iter()
                        .position(|s| s.perm()[p.hole] == to)
                        .expect("a symmetry"),
                }
            })
            .collect();
        groups.push(Group { starts, members });
    }
    groups
}

/// The counts of a sweep's start seen from the pair's own hole `hole`: the start sent there
/// by `symmetry` (an index into the board's symmetries) was counted, so its finishing holes
/// are mapped back. Every other statistic is the same for symmetric starts.
pub(super) fn relabel(board: &Board, counts: &Counts, hole: usize, symmetry: usize) -> Counts {
    let perm = board.symmetries()[symmetry].perm();
    let mut back = vec![0; perm.len()];
    for (h, &to) in perm.iter().enumerate() {
        back[to] = h;
    }
    let mut finish: Vec<(usize, Total)> = counts
        .finish
        .iter()
        .map(|(name, w)| (back[board.hole(name).expect("a hole of the board")], *w))
        .collect();
    finish.sort_unstable();
    Counts {
        start: board.hole_name(hole),
        finish: finish
            .into_iter()
            .map(|(h, w)| (board.hole_name(h), w))
            .collect(),
        ..counts.clone()
    }
}
