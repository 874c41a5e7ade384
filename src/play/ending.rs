//! What the end of a game says: pegs left, and how the ending compares with every game.

use crate::analysis::solvable::Finish;
use crate::count::Total;
use crate::geometry::board::{Board, Pegs, bit};
use thousands::Separable;

/// The lines shown when no jump is left in `end`: pegs left and where; a win among the
/// `wins` winning games from the start (when counted); the share of every game from the
/// start that ends with as many pegs (when `pegs_left`, as `pegsol count` gives it, is
/// known).
///
/// ```
/// use pegsol::{analysis::solvable::Finish, count::Total, geometry::board::{Board, bit}};
/// use pegsol::play::ending_lines;
/// let b = Board::from_spec("tri:5").unwrap();
/// let rows: Vec<(usize, Total)> = vec![(1, 29_760.into()), (2, 139_614.into())];
/// let lines = ending_lines(&b, Finish::Any, bit(12), Some(29_760), Some(&rows));
/// assert_eq!(lines[0], "1 peg left, on c5: a win");
/// assert_eq!(lines[1], "1 of the 29,760 winning games from the start");
/// assert_eq!(lines[2], "29,760 of the 169,374 games from the start (17.57%) end with 1 peg");
/// let two = ending_lines(&b, Finish::Any, bit(0) | bit(14), None, Some(&rows));
/// assert_eq!(two[0], "2 pegs left (a1+e5)");
/// ```
pub fn ending_lines(
    board: &Board,
    finish: Finish,
    end: Pegs,
    wins: Option<u128>,
    pegs_left: Option<&[(usize, Total)]>,
) -> Vec<String> {
    let pegs = end.count_ones() as usize;
    let mut lines = Vec::new();
    let won = pegs == 1 && finish.mask(board) & end != 0;
    if pegs == 1 {
        let hole = board.hole_names(end);
        lines.push(match (won, finish) {
            (true, _) => format!("1 peg left, on {hole}: a win"),
            (false, Finish::Hole(h)) => format!(
                "1 peg left, on {hole}: not the finish {} asked for",
                board.hole_name(h)
            ),
            (false, Finish::Any) => unreachable!("any hole is a finish"),
        });
    } else {
        lines.push(format!("{pegs} pegs left ({})", board.hole_names(end)));
    }
    if won && let Some(w) = wins {
        let on = match finish {
            Finish::Any => String::new(),
            Finish::Hole(h) if bit(h) == end => format!(" ending on {}", board.hole_name(h)),
            Finish::Hole(_) => String::new(),
        };
        lines.push(format!(
            "1 of the {} winning games{on} from the start",
            w.separate_with_commas()
        ));
    }
    if let Some(rows) = pegs_left
        && let Ok(all) = Total::sum(rows.iter().map(|r| r.1))
    {
        let same = rows
            .iter()
            .find(|r| r.0 == pegs)
            .map_or(Total::ZERO, |r| r.1);
        let share = same
            .scaled(all, 10_000)
            .and_then(Total::to_u128)
            .unwrap_or(0);
        lines.push(format!(
            "{} of the {} games from the start ({}.{:02}%) end with {pegs} peg{}",
            same.separate_with_commas(),
            all.separate_with_commas(),
            share / 100,
            share % 100,
            if pegs == 1 { "" } else { "s" }
        ));
    }
    lines
}
