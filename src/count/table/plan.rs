//! The plan of a batch: the boards expanded, one pair per start class, and the order of rows.

use crate::error::{Error, Result};
use crate::geometry::board::{Board, column_name};
use std::cmp::Ordering as CmpOrdering;

/// One (board, start) pair of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The board as the table names it ([`Board::name`]: `tri:5`, a board file's stem).
    pub board: String,
    /// The spec the board is read from again ([`Board::spec`]: `tri:5`, a board file's
    /// path as given).
    pub spec: String,
    /// The empty hole at the start (`a1`).
    pub start: String,
    /// The hole's index on the board.
    pub hole: usize,
    /// How many holes the start's symmetry class holds.
    pub class_size: usize,
}

/// Expands board ranges: `tri:4..7` becomes `tri:4`, `tri:5`, `tri:6`, `tri:7` (any
/// `PREFIX:A..B`, bounds included); other specs pass through. Duplicates are dropped.
///
/// ```
/// let b = pegsol::count::table::expand_boards(&["tri:4..6".into(), "english".into()]).unwrap();
/// assert_eq!(b, ["tri:4", "tri:5", "tri:6", "english"]);
/// let b = pegsol::count::table::expand_boards(&["Tri:4..5".into(), "tri:5".into()]).unwrap();
/// assert_eq!(b, ["tri:4", "tri:5"]);
/// ```
pub fn expand_boards(specs: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for spec in specs {
        let spec = &crate::geometry::board::builtin_spec(spec).into_owned();
        let expanded = match spec.split_once(':') {
            Some((prefix, range)) if range.contains("..") => {
                let (a, b) = range.split_once("..").expect("checked");
                let bad = || {
                    Error::input(format!(
                        "board range '{spec}': expected {prefix}:A..B with whole numbers A <= B"
                    ))
                };
                let a: usize = a.trim().parse().map_err(|_| bad())?;
                let b: usize = b
                    .trim()
                    .trim_start_matches('=')
                    .parse()
                    .map_err(|_| bad())?;
                if a > b {
                    return Err(bad());
                }
                // The bounds are boards before the range is spelled out: `tri:3..100000`
                // is refused at once, not after a hundred thousand names.
                for n in [a, b] {
                    Board::from_spec(&format!("{prefix}:{n}"))?;
                }
                (a..=b).map(|n| format!("{prefix}:{n}")).collect()
            }
            _ => vec![spec.clone()],
        };
        for s in expanded {
            if seen.insert(s.clone()) {
                out.push(s);
            }
        }
    }
    Ok(out)
}

/// The pairs of a batch: for each board, one pair per start class (its smallest hole), or,
/// when `starts` names cells, one pair per named cell (standing for its class). `starts`
/// empty or `["all"]` means every class. Two cells of the same class are refused: the table
/// would count that class twice.
///
/// ```
/// let p = pegsol::count::table::plan(&["tri:5".into()], &[]).unwrap();
/// let v: Vec<(&str, usize)> = p.iter().map(|p| (p.start.as_str(), p.class_size)).collect();
/// assert_eq!(v, [("a1", 3), ("a2", 6), ("a3", 3), ("b3", 3)]);
/// ```
pub fn plan(boards: &[String], starts: &[String]) -> Result<Vec<Pair>> {
    let all = starts.is_empty() || starts.iter().any(|s| s.eq_ignore_ascii_case("all"));
    if all && starts.len() > 1 {
        return Err(Error::input("--starts all cannot be combined with cells"));
    }
    let mut pairs = Vec::new();
    let mut names: Vec<(String, &str)> = Vec::new();
    for spec in boards {
        let board = Board::from_spec(spec)?;
        // The table keys its rows by the board's name: two specs of one name would share
        // rows (board files of the same stem in two folders).
        match names.iter().find(|(name, _)| name == board.name()) {
            Some((name, other)) if *other != spec => {
                return Err(Error::input(format!(
                    "boards {other} and {spec} are both named {name} in a table; rename one"
                )));
            }
            Some(_) => {}
            None => names.push((board.name().to_string(), spec)),
        }
        let classes = board.hole_classes();
        let class_of = |h: usize| classes.iter().find(|c| c.contains(&h)).expect("class");
        if all {
            for class in &classes {
                pairs.push(pair(&board, class[0], class.len()));
            }
            continue;
        }
        let mut seen: Vec<(usize, String)> = Vec::new();
        for name in starts {
            let hole = board.hole(name)?;
            let class = class_of(hole);
            if let Some((_, other)) = seen.iter().find(|(h, _)| class.contains(h)) {
                if *other == board.hole_name(hole) {
                    continue;
                }
                return Err(Error::input(format!(
                    "starts {other} and {} on {spec} are symmetric (the same start class); \
                     give one of them",
                    board.hole_name(hole)
                )));
            }
            seen.push((hole, board.hole_name(hole)));
            pairs.push(pair(&board, hole, class.len()));
        }
    }
    Ok(pairs)
}

pub(super) fn pair(board: &Board, hole: usize, class_size: usize) -> Pair {
    Pair {
        board: board.name().to_string(),
        spec: board.spec().to_string(),
        start: board.hole_name(hole),
        hole,
        class_size,
    }
}

/// The identity of a pair, ordered for output: boards in natural order, then starts by
/// (row, column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// Board spec.
    pub board: String,
    /// Start name.
    pub start: String,
}

impl Key {
    /// The key of a board and start.
    ///
    /// ```
    /// use pegsol::count::table::Key;
    /// assert_eq!(Key::new("tri:5", "a1").start, "a1");
    /// // Boards in natural order, then starts by row and column.
    /// assert!(Key::new("tri:9", "a1") < Key::new("tri:10", "a1"));
    /// assert!(Key::new("tri:5", "c1") < Key::new("tri:5", "a2"));
    /// ```
    pub fn new(board: &str, start: &str) -> Key {
        Key {
            board: board.to_string(),
            start: start.to_string(),
        }
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> CmpOrdering {
        natural(&self.board)
            .cmp(&natural(&other.board))
            .then_with(|| self.board.cmp(&other.board))
            .then_with(|| cell_order(&self.start).cmp(&cell_order(&other.start)))
            .then_with(|| self.start.cmp(&other.start))
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}

/// Splits a string into text and number chunks so that `tri:9` sorts before `tri:10`.
fn natural(s: &str) -> Vec<(String, usize, String)> {
    let mut chunks = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        let text_end = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (text, tail) = rest.split_at(text_end);
        let num_end = tail
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(tail.len());
        let (num, tail) = tail.split_at(num_end);
        let num = num.trim_start_matches('0');
        chunks.push((text.to_string(), num.len(), num.to_string()));
        rest = tail;
    }
    chunks
}

/// (row, column) of a cell name such as `b3`; cells that do not parse sort last.
fn cell_order(name: &str) -> (usize, usize) {
    let split = name
        .find(|c: char| !c.is_ascii_lowercase())
        .unwrap_or(name.len());
    let (letters, digits) = name.split_at(split);
    let col = letters
        .bytes()
        .try_fold(0usize, |acc, b| {
            acc.checked_mul(26)?.checked_add((b - b'a' + 1) as usize)
        })
        .filter(|&c| c > 0);
    match (col, digits.parse::<usize>()) {
        (Some(col), Ok(row)) if column_name(col - 1) == letters => (row, col),
        _ => (usize::MAX, usize::MAX),
    }
}
