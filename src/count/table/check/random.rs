//! The random player's rows of a loaded table checked (`table --random`): random.csv and
//! random_finish.csv, or a pair's `random` and `random_finish` in table.json.
//!
//! - a probability is a decimal as pegsol prints it ([`Prob::decimal`]: digits, a point,
//!   an exponent) from 0 to 1;
//! - `exact`, when given, is `p/q` in lowest terms, at most 1, whose decimal is the row's
//!   probability to its printed digits;
//! - a label (pegs left, finishing hole) appears once per pair;
//! - random_finish rows belong to pairs with random.csv rows, and their probabilities
//!   (each rounded down when printed) sum to no more than the pair's
//!   `random_win_probability` plus that figure's last printed digit.

use crate::count::labels::{is_count, is_hole_name};
use crate::count::random::{DIGITS, Prob};
use crate::count::table::plan::Key;
use crate::error::{Error, Result};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::collections::{BTreeMap, BTreeSet};

/// A row of random.csv or random_finish.csv as read.
pub(in crate::count::table) struct RandomRow {
    /// Where it is, for messages: `DIR/random.csv: line 7`, or `DIR/table.json: "random"
    /// item 3`.
    pub(in crate::count::table) place: String,
    /// Its board and start.
    pub(in crate::count::table) key: Key,
    /// Its cells after board and start: label, probability, exact.
    pub(in crate::count::table) cells: Vec<String>,
}

/// Each pair's `random_win_probability`, with where it is read from (summary.csv or
/// table.json).
pub(in crate::count::table) type Wins = BTreeMap<Key, (String, String)>;

/// Refuses random rows pegsol does not write (the module's list), with one line naming the
/// file, the line and what is wrong (exit code 2).
pub(in crate::count::table) fn check_random(
    pegs: &[RandomRow],
    finish: &[RandomRow],
    wins: &Wins,
) -> Result<()> {
    let mut win_of = BTreeMap::new();
    for (key, (place, cell)) in wins {
        let win = probability(cell).ok_or_else(|| {
            refuse(
                place,
                key,
                format!(
                    "random_win_probability is '{}', not a probability from 0 to 1",
                    cell.escape_debug()
                ),
            )
        })?;
        win_of.insert(key, win);
    }
    check_rows(pegs, "pegs left", is_count)?;
    check_rows(finish, "finish", is_hole_name)?;
    let with_rows: BTreeSet<&Key> = pegs.iter().map(|r| &r.key).collect();
    let mut sums: BTreeMap<&Key, Dec> = BTreeMap::new();
    for r in finish {
        if !with_rows.contains(&r.key) {
            return Err(refuse(
                &r.place,
                &r.key,
                "a finish row for a pair without random.csv rows".into(),
            ));
        }
        let p = probability(&r.cells[1]).expect("checked");
        let sum = sums.entry(&r.key).or_insert_with(Dec::zero);
        *sum = sum.plus(&p);
        if let Some(win) = win_of.get(&r.key)
            && *sum > win.plus(&win.last_digit())
        {
            return Err(refuse(
                &r.place,
                &r.key,
                format!(
                    "the finishing probabilities sum to {sum} by this row, above the win \
                     probability {win}"
                ),
            ));
        }
    }
    Ok(())
}

/// The checks of each row on its own: label, probability, exact fraction.
fn check_rows(rows: &[RandomRow], what: &str, label_ok: fn(&str) -> bool) -> Result<()> {
    let mut seen = BTreeSet::new();
    for r in rows {
        let no = |what: String| Err(refuse(&r.place, &r.key, what));
        let cell = |i: usize| r.cells.get(i).map_or("", String::as_str);
        let (label, p, exact) = (cell(0), cell(1), cell(2));
        if !label_ok(label) {
            return no(format!(
                "{what} '{}' is not one pegsol writes",
                label.escape_debug()
            ));
        }
        if !seen.insert((&r.key, label)) {
            return no(format!("a second row for {what} {label}"));
        }
        if probability(p).is_none() {
            return no(format!(
                "probability '{}' is not a probability from 0 to 1",
                p.escape_debug()
            ));
        }
        if let Some(why) = exact_fault(exact, p) {
            return no(why);
        }
    }
    Ok(())
}

/// What is wrong with the exact fraction `exact` of a row whose decimal is `p`, if
/// anything (empty: a fixed-point figure, no fraction).
fn exact_fault(exact: &str, p: &str) -> Option<String> {
    if exact.is_empty() {
        return None;
    }
    let shown = exact.escape_debug();
    let Some((n, d)) = exact
        .split_once('/')
        .filter(|(n, d)| is_count(n) && is_count(d) && *d != "0")
    else {
        return Some(format!("exact '{shown}' is not a fraction p/q"));
    };
    let (num, den): (BigUint, BigUint) = (n.parse().ok()?, d.parse().ok()?);
    if num > den {
        return Some(format!("exact '{shown}' is above 1"));
    }
    let prob = Prob::exact(num, den);
    if prob.fraction() != exact {
        return Some(format!("exact '{shown}' is not in lowest terms"));
    }
    let decimal = prob.decimal();
    (decimal != p).then(|| format!("probability {p} is not exact {exact}, which is {decimal}"))
}

/// The refusal of a row at `place` of pair `key`.
fn refuse(place: &str, key: &Key, what: String) -> Error {
    Error::input(format!(
        "{place}: {} {}: {what}; pegsol table did not write it",
        key.board, key.start
    ))
}

/// A decimal as read: `num * 10^exp`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Dec {
    num: BigUint,
    exp: i64,
}

/// The most a decimal exponent read from a table may be, either way: far past any
/// probability pegsol prints (fixed point stops at 2^-124, about 10^-38).
const MAX_EXPONENT: i64 = 10_000;

/// A probability as pegsol prints it, from 0 to 1: digits, a point with digits on both
/// sides, an exponent `e-N`; None for anything else.
fn probability(text: &str) -> Option<Dec> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (mantissa, exp) = match text.split_once('e') {
        Some((m, e)) => {
            let magnitude = e.strip_prefix('-').unwrap_or(e);
            if !digits(magnitude) {
                return None;
            }
            (m, e.parse::<i64>().ok()?)
        }
        None => (text, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if !digits(int) || !(frac.is_empty() && !mantissa.contains('.') || digits(frac)) {
        return None;
    }
    if !(-MAX_EXPONENT..=MAX_EXPONENT).contains(&exp) {
        return None;
    }
    let d = Dec {
        num: format!("{int}{frac}").parse().ok()?,
        exp: exp - frac.len() as i64,
    };
    (d <= Dec::one()).then_some(d)
}

impl Dec {
    fn zero() -> Dec {
        Dec {
            num: BigUint::zero(),
            exp: 0,
        }
    }

    fn one() -> Dec {
        Dec {
            num: BigUint::one(),
            exp: 0,
        }
    }

    /// The numerator at exponent `exp` (at most `self.exp`).
    fn at(&self, exp: i64) -> BigUint {
        &self.num * BigUint::from(10u32).pow((self.exp - exp) as u32)
    }

    fn plus(&self, other: &Dec) -> Dec {
        let exp = self.exp.min(other.exp);
        Dec {
            num: self.at(exp) + other.at(exp),
            exp,
        }
    }

    /// The place of the last of the [`DIGITS`] significant digits pegsol prints: what a
    /// figure rounded down there may lack (0 for 0, which is printed only when exact).
    fn last_digit(&self) -> Dec {
        if self.num.is_zero() {
            return Dec::zero();
        }
        let significant = self.num.to_string().len() as i64;
        Dec {
            num: BigUint::one(),
            exp: self.exp + significant - i64::from(DIGITS),
        }
    }
}

impl PartialOrd for Dec {
    fn partial_cmp(&self, other: &Dec) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Dec {
    fn cmp(&self, other: &Dec) -> std::cmp::Ordering {
        let exp = self.exp.min(other.exp);
        self.at(exp).cmp(&other.at(exp))
    }
}

impl std::fmt::Display for Dec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = self.num.to_string();
        if self.exp >= 0 {
            return write!(f, "{text}{}", "0".repeat(self.exp as usize));
        }
        let point = (-self.exp) as usize;
        let text = format!("{text:0>width$}", width = point + 1);
        let (int, frac) = text.split_at(text.len() - point);
        let frac = frac.trim_end_matches('0');
        if frac.is_empty() {
            write!(f, "{int}")
        } else {
            write!(f, "{int}.{frac}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_as_pegsol_prints_them() {
        let p = |t: &str| probability(t).map(|d| d.to_string());
        assert_eq!(
            p("0.00686175588768131").as_deref(),
            Some("0.00686175588768131")
        );
        assert_eq!(
            p("3.33333333333333e-5").as_deref(),
            Some("0.0000333333333333333")
        );
        assert_eq!(p("1").as_deref(), Some("1"));
        assert_eq!(p("0").as_deref(), Some("0"));
        for bad in [
            "", "1.5", "-0.5", "0.", ".5", "0.5e", "0.5e+1", "1e1", "0,5", "0x1", "1e-99999",
        ] {
            assert_eq!(p(bad), None, "{bad}");
        }
        // The last printed digit of 15: 0.00686175588768131 has it at 10^-17.
        let d = probability("0.00686175588768131").unwrap();
        assert_eq!(d.last_digit().to_string(), "0.00000000000000001");
        assert_eq!(probability("0.75").unwrap().last_digit().exp, -15);
    }

    #[test]
    fn exact_fractions_agree_with_their_decimals() {
        assert_eq!(exact_fault("", "0.5"), None);
        assert_eq!(exact_fault("1/2", "0.5"), None);
        assert_eq!(exact_fault("2/3", "0.666666666666666"), None);
        assert!(exact_fault("2/4", "0.5").unwrap().contains("lowest terms"));
        assert!(
            exact_fault("1/3", "0.5")
                .unwrap()
                .contains("which is 0.333333333333333")
        );
        assert!(exact_fault("3/2", "1").unwrap().contains("above 1"));
        assert!(exact_fault("1/0", "1").unwrap().contains("not a fraction"));
    }
}
