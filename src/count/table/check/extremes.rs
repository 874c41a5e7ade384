//! A whole entry's extremes checked against its rows: the most pegs a dead end leaves,
//! the shortest game, and the pegs and jumps of every game adding up to the start's pegs.

use super::entry::EntryCheck;
use crate::error::Result;
use crate::total::Total;

impl EntryCheck<'_> {
    /// The number in column `i` of row `r` of file `part`.
    fn value(&self, part: &str, r: &[String], i: usize) -> Result<Total> {
        r.get(i)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| self.refuse(part, "a row without its numbers".into()))
    }

    /// The (pegs, games) of pegs_left.csv, and the (jumps, games ended) of depth.csv's
    /// rows with games ended; refuses a depth row with more dead ends or reduced positions
    /// than positions.
    #[allow(clippy::type_complexity)]
    fn ends(&self) -> Result<(Vec<(Total, Total)>, Vec<(Total, Total)>)> {
        let mut ends: Vec<(Total, Total)> = Vec::new();
        for r in &self.e.pegs_left {
            ends.push((
                self.value("pegs_left", r, 0)?,
                self.value("pegs_left", r, 1)?,
            ));
        }
        // depth.csv: (jumps, positions, reduced, ended, dead).
        let mut ended: Vec<(Total, Total)> = Vec::new();
        for r in &self.e.depth {
            let [jumps, positions, reduced, games, dead] =
                [0, 1, 2, 3, 4].map(|i| self.value("depth", r, i));
            let (jumps, positions, reduced, games, dead) =
                (jumps?, positions?, reduced?, games?, dead?);
            if reduced > positions || dead > positions {
                return Err(self.refuse(
                    "depth",
                    format!(
                        "after {jumps} jumps: {positions} positions, but {reduced} up to \
                         symmetry and {dead} dead ends"
                    ),
                ));
            }
            if !games.is_zero() {
                ended.push((jumps, games));
            }
        }
        Ok((ends, ended))
    }

    /// Refuses extremes in the summary other than its rows': the most pegs a dead end
    /// leaves and its games are the highest row of pegs_left.csv, the shortest game and its
    /// games the first depth with games ended, and every game's pegs left and jumps add up
    /// to the start's pegs.
    pub(super) fn check_extremes(&self) -> Result<()> {
        let (ends, ended) = self.ends()?;
        let (Some(&most), Some(&fewest)) = (ends.iter().max(), ends.iter().min()) else {
            return Ok(());
        };
        let (Some(&first), Some(&last)) = (ended.iter().min(), ended.iter().max()) else {
            return Ok(());
        };
        let said = [
            ("max_dead_end_pegs", most.0, "pegs_left"),
            ("max_dead_end_games", most.1, "pegs_left"),
            ("shortest_game_jumps", first.0, "depth"),
            ("shortest_game_games", first.1, "depth"),
        ];
        for (column, found, part) in said {
            let s = self.summary_col(column)?;
            if s != found {
                return Err(self.refuse(
                    part,
                    format!("{column} is {s} in the summary, {found} by its rows"),
                ));
            }
        }
        if most.0.plus(first.0).ok() != fewest.0.plus(last.0).ok() {
            return Err(self.refuse(
                "depth",
                format!(
                    "games ending after {} and {} jumps leave {} and {} pegs: not one start's",
                    first.0, last.0, most.0, fewest.0
                ),
            ));
        }
        Ok(())
    }
}
