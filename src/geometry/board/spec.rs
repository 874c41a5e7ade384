//! Board specs: the built-in boards (`tri:N`, `line:L`, english, french, wiegleb), board
//! files and their pictures.

use super::Board;
use super::pictures::is_peg_char;
use crate::error::{Error, Result};
use crate::geometry::lattice::Lattice;
use std::path::Path;

/// The smallest and largest triangle sides accepted by `tri:N`.
pub const TRI_SIDES: std::ops::RangeInclusive<usize> = 3..=15;
/// The shortest and longest strips accepted by `line:L`.
pub const LINE_LENGTHS: std::ops::RangeInclusive<usize> = 3..=128;

impl Board {
    /// Parses a board spec: `tri:N`, `line:L`, `english`, `french`, `wiegleb` (in any
    /// case: see [`builtin_spec`]), or the path of a board file.
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::from_spec("tri:5").unwrap();
    /// assert_eq!((b.holes(), b.symmetries().len()), (15, 6));
    /// assert_eq!(pegsol::geometry::board::Board::from_spec("TRI:5").unwrap().spec(), "tri:5");
    /// let e = pegsol::geometry::board::Board::from_spec("english").unwrap();
    /// assert_eq!((e.holes(), e.jumps().len(), e.symmetries().len()), (33, 76, 8));
    /// ```
    pub fn from_spec(spec: &str) -> Result<Board> {
        let spec_cased = builtin_spec(spec);
        let spec: &str = &spec_cased;
        if let Some(n) = spec.strip_prefix("tri:") {
            let n = parse_size_in(spec, n, TRI_SIDES)?;
            let cells = (0..n as i32)
                .flat_map(|r| (0..=r).map(move |c| (r, c)))
                .collect();
            return Board::new(spec, Lattice::Triangular, cells, vec![0]);
        }
        if let Some(n) = spec.strip_prefix("line:") {
            let n = parse_size_in(spec, n, LINE_LENGTHS)?;
            let cells = (0..n as i32).map(|c| (0, c)).collect();
            return Board::new(spec, Lattice::Square, cells, vec![0]);
        }
        let picture: Option<&[&str]> = match spec {
            "english" => Some(&[
                "  ooo  ", "  ooo  ", "ooooooo", "ooo.ooo", "ooooooo", "  ooo  ", "  ooo  ",
            ]),
            "french" => Some(&[
                "  ooo  ", " ooooo ", "ooooooo", "ooo.ooo", "ooooooo", " ooooo ", "  ooo  ",
            ]),
            "wiegleb" => Some(&[
                "   ooo   ",
                "   ooo   ",
                "   ooo   ",
                "ooooooooo",
                "oooo.oooo",
                "ooooooooo",
                "   ooo   ",
                "   ooo   ",
                "   ooo   ",
            ]),
            _ => None,
        };
        if let Some(rows) = picture {
            return Board::from_picture(spec, Lattice::Square, rows.iter().copied(), spec);
        }
        let path = Path::new(spec);
        if path.is_file() {
            let mut board = Board::from_file(path)?;
            board.spec = spec.to_string();
            return Ok(board);
        }
        if path.exists() {
            return Err(Error::input(format!(
                "board file {spec} is not a regular file"
            )));
        }
        if spec.contains(['/', '.']) {
            return Err(Error::input(format!(
                "board file {spec} does not exist (built-in boards: tri:N, line:L, english, \
                 french, wiegleb)"
            )));
        }
        Err(Error::input(format!(
            "unknown board '{spec}': expected tri:N, line:L, english, french, wiegleb or a board file"
        )))
    }

    /// Reads a board file (see the README for the format); the board is named after the
    /// file's stem.
    ///
    /// ```
    /// use pegsol::geometry::board::Board;
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("t3.txt");
    /// std::fs::write(&path, "# a triangle of side 3\nlattice: triangular\n.\noo\nooo\n").unwrap();
    /// let b = Board::from_file(&path).unwrap();
    /// assert_eq!((b.name(), b.holes(), b.jumps().len()), ("t3", 6, 6));
    /// let missing = Board::from_file(&dir.path().join("none.txt")).unwrap_err();
    /// assert_eq!(missing.exit_code(), 2);
    /// ```
    pub fn from_file(path: &Path) -> Result<Board> {
        let text = crate::input::read_text_file(path, "board file ")?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        Board::parse_file(&name, &text).map_err(|e| match e {
            Error::Input(msg) => Error::input(format!("board file {}: {msg}", path.display())),
            other => other,
        })
    }

    /// Parses the text of a board file: `#` comments, an optional `lattice:` line, then the
    /// picture (`o` peg, `.` empty hole, space or `-` no hole).
    ///
    /// ```
    /// let b = pegsol::geometry::board::Board::parse_file("t3", "lattice: triangular\n.\noo\nooo\n").unwrap();
    /// assert_eq!((b.holes(), b.symmetries().len(), b.start_name(b.default_start())), (6, 6, "a1".to_string()));
    /// ```
    pub fn parse_file(name: &str, text: &str) -> Result<Board> {
        let mut lattice = Lattice::Square;
        let mut lattice_line = None;
        let mut rows = Vec::new();
        for (lineno, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with('#') {
                continue;
            }
            if let Some(value) = trimmed.strip_prefix("lattice:") {
                if lattice_line.replace(lineno).is_some() {
                    return Err(Error::input(format!(
                        "line {}: a second 'lattice:' line",
                        lineno + 1
                    )));
                }
                if !rows.is_empty() {
                    return Err(Error::input(format!(
                        "line {}: 'lattice:' must come before the picture",
                        lineno + 1
                    )));
                }
                lattice = Lattice::parse(value.trim()).ok_or_else(|| {
                    Error::input(format!(
                        "line {}: unknown lattice '{}' (square, square-diagonal, triangular)",
                        lineno + 1,
                        value.trim()
                    ))
                })?;
                continue;
            }
            if trimmed.is_empty() && rows.is_empty() {
                continue;
            }
            rows.push(line.trim_end());
        }
        while rows.last().is_some_and(|r| r.is_empty()) {
            rows.pop();
        }
        Board::from_picture(name, lattice, rows.into_iter(), name)
    }

    fn from_picture<'a>(
        name: &str,
        lattice: Lattice,
        rows: impl Iterator<Item = &'a str>,
        what: &str,
    ) -> Result<Board> {
        let mut cells = Vec::new();
        let mut empty = Vec::new();
        for (r, row) in rows.enumerate() {
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    ' ' | '-' => continue,
                    '.' => empty.push(cells.len()),
                    ch if is_peg_char(ch) => {}
                    other => {
                        return Err(Error::input(format!(
                            "row {} column {}: unexpected character '{other}' (use o for a peg, . for an empty hole, space or - for no hole)",
                            r + 1,
                            c + 1
                        )));
                    }
                }
                cells.push((r as i32, c as i32));
            }
        }
        if cells.is_empty() {
            return Err(Error::input(format!("{what}: the picture has no holes")));
        }
        Board::new(name, lattice, cells, empty)
    }
}

/// Whether `spec` names a built-in board (in any case; its size need not be valid), not a
/// board file.
///
/// ```
/// use pegsol::geometry::board::is_builtin;
/// assert!(is_builtin("English") && is_builtin("tri:5") && is_builtin("LINE:9"));
/// assert!(!is_builtin("boards/english.txt"));
/// ```
pub fn is_builtin(spec: &str) -> bool {
    let lower = spec.to_ascii_lowercase();
    matches!(lower.as_str(), "english" | "french" | "wiegleb")
        || lower.starts_with("tri:")
        || lower.starts_with("line:")
}

/// The spec of a built-in board as the board is named, when `spec` names one in any case
/// (`English`, `TRI:5`, `Line:9`) and with its size in plain digits (`tri:05` and
/// `tri:+5` are `tri:5`), so that one board has one name in a table; any other spec (a
/// board file's path) as given. The built-in names come first: a board file named
/// `English` is read as `./English`.
///
/// ```
/// use pegsol::geometry::board::builtin_spec;
/// assert_eq!(builtin_spec("English"), "english");
/// assert_eq!(builtin_spec("TRI:5"), "tri:5");
/// assert_eq!(builtin_spec("tri:05"), "tri:5");
/// assert_eq!(builtin_spec("Line:+9"), "line:9");
/// assert_eq!(builtin_spec("tri:4..7"), "tri:4..7");
/// assert_eq!(builtin_spec("boards/My.txt"), "boards/My.txt");
/// ```
pub fn builtin_spec(spec: &str) -> std::borrow::Cow<'_, str> {
    if !is_builtin(spec) {
        return std::borrow::Cow::Borrowed(spec);
    }
    let mut name = spec.to_ascii_lowercase();
    if let Some((kind, size)) = name.split_once(':')
        && let Ok(n) = size.parse::<usize>()
    {
        name = format!("{kind}:{n}");
    }
    if name == spec {
        std::borrow::Cow::Borrowed(spec)
    } else {
        std::borrow::Cow::Owned(name)
    }
}

fn parse_size_in(spec: &str, n: &str, range: std::ops::RangeInclusive<usize>) -> Result<usize> {
    match n.parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(Error::input(format!(
            "board '{spec}': size must be a whole number from {} to {}",
            range.start(),
            range.end()
        ))),
    }
}
