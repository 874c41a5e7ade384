//! How hard a board is: the odds of a random player, and the quickest loss.
//!
//! The **random player** picks, in every position, each legal jump with the same
//! probability, until no jump is left. [`random_player`] gives, for one (board, start), the
//! probability of ending with each number of pegs, of ending with one peg on each hole, of
//! winning, and the expected number of pegs left ([`Odds`]). Probability propagates like a
//! path count: a position's mass is split equally among its legal jumps (`sweep`).
//!
//! - **Exact** on boards of up to [`EXACT_HOLES`] holes (every start of tri:4, tri:5 and
//!   tri:6): each layer's masses are numerators over a common denominator, the product of
//!   the lcm of each earlier layer's numbers of jumps, so every share is an integer;
//!   fractions are reduced at the end.
//! - **Fixed point** elsewhere, in the counting engine ([`engine_odds`], a sweep of
//!   [`Weight::Random`]): masses in units of `2^-124` ([`FIXED_BITS`]), each share rounded
//!   down. No mass is made, so every figure is at or below its true value, and what the
//!   floors lose is exactly the whole (`2^124` units) less the sum of the masses of every
//!   ending: [`Odds::shortfall`]. Each probability is therefore low by at most that many
//!   units (the expected pegs by at most the start's pegs times it). The sums are sums of
//!   integers: the same bytes for any `--threads`, `--max-memory`, layers on disk and MPI
//!   ranks.
//!
//! The **quickest loss** ([`quickest`]): for a start from which a win is possible, the
//! fewest jumps after which no one-peg finish is possible any more, and the number of jump
//! sequences of that length that reach such a dead position while every position before it
//! could still win; 0 jumps (one sequence, the empty one) where the start cannot win.
//!
//! [`reference`] holds the plain recursions over raw positions the tests compare with.

mod backward;
mod fraction;
pub mod quickest;
pub mod reference;
mod sweep;
mod winnable;

pub use fraction::{DIGITS, FIXED_BITS, Prob};
pub use quickest::{QuickestLoss, quickest_loss};

use crate::count::stats::Counts;
use crate::count::sweep::{CountOptions, Weight, sweep_weighted};
use crate::error::{Error, Result};
use crate::geometry::board::{Board, Pegs};
use crate::total::Total;
use num_bigint::BigUint;
use num_traits::One;

/// (pegs left, probability), by pegs left.
pub type ByPegs = Vec<(u32, Prob)>;
/// (finishing hole, probability), in hole order.
pub type ByHole = Vec<(String, Prob)>;

/// Boards of up to this many holes get exact fractions.
pub const EXACT_HOLES: usize = 21;

/// The random player's odds from one start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Odds {
    /// The board spec as given.
    pub board: String,
    /// The start's empty holes joined by `+`.
    pub start: String,
    /// Pegs at the start.
    pub start_pegs: u32,
    /// (pegs left, probability), by pegs left, probability 0 left out.
    pub pegs_left: Vec<(u32, Prob)>,
    /// (finishing hole, probability of ending with one peg there), in hole order,
    /// probability 0 left out.
    pub finish: Vec<(String, Prob)>,
    /// The probability of ending with one peg.
    pub win: Prob,
    /// The expected number of pegs left.
    pub expected_pegs: Prob,
    /// Fixed point: the units of `2^-FIXED_BITS` lost to rounding down (`2^124` less the
    /// sum of the masses of every ending), by which each probability may fall short, and
    /// the expected pegs by at most `start_pegs` times it; 0 when exact.
    pub shortfall: u128,
}

impl Odds {
    /// Whether the figures are exact fractions.
    pub fn exact(&self) -> bool {
        self.win.exact
    }
}

/// The random player's odds on `board` from `start`: exact fractions on boards of up to
/// [`EXACT_HOLES`] holes (an in-memory sweep within `opts.max_memory`), the counting
/// engine's fixed point elsewhere ([`engine_odds`], with `opts` as a count takes them).
///
/// ```
/// use pegsol::{geometry::board::Board, count::random::random_player};
/// let b = Board::from_spec("tri:4").unwrap();
/// let odds = random_player(&b, b.default_start(), &Default::default()).unwrap();
/// assert!(odds.exact());
/// // Every game ends: the probabilities of the numbers of pegs left add up to 1.
/// let all = odds.pegs_left.iter().fold(pegsol::count::random::Prob::zero(), |a, (_, p)| a.plus(p));
/// assert_eq!(all.fraction(), "1/1");
/// ```
pub fn random_player(board: &Board, start: Pegs, opts: &CountOptions) -> Result<Odds> {
    let (holes, pegs) = (board.holes(), start.count_ones());
    if holes <= EXACT_HOLES {
        let swept = if holes <= 64 {
            sweep::sweep::<u64, BigUint>(board, start, opts.max_memory)?
        } else {
            sweep::sweep::<u128, BigUint>(board, start, opts.max_memory)?
        };
        return Ok(exact_odds(board, start, pegs, swept));
    }
    let mut odds = engine_odds(board, &[start], opts)?;
    Ok(odds.pop().expect("one start, one result"))
}

/// The random player's odds from each of `starts` (as [`crate::count::sweep::count_many`]
/// takes them), in fixed point from one sweep of the counting engine carrying masses
/// ([`Weight::Random`]) with `opts`: on disk, resumable and under MPI as a count is. On any
/// board, exact fractions or not.
///
/// ```
/// use pegsol::{geometry::board::Board, count::random::{engine_odds, random_player}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let fixed = &engine_odds(&b, &[b.default_start()], &Default::default()).unwrap()[0];
/// let exact = random_player(&b, b.default_start(), &Default::default()).unwrap();
/// // Low by at most the shortfall: 0.00686175588768131 (1 in 146).
/// assert!(!fixed.exact() && fixed.win.to_f64() <= exact.win.to_f64());
/// assert_eq!(fixed.win.decimal()[..12], exact.win.decimal()[..12]);
/// ```
pub fn engine_odds(board: &Board, starts: &[Pegs], opts: &CountOptions) -> Result<Vec<Odds>> {
    let swept = sweep_weighted(board, starts, opts, Weight::Random)?;
    if let Some(work) = &swept.work {
        crate::count::disk::remove_work(work)?;
    }
    starts
        .iter()
        .zip(&swept.counts)
        .map(|(&start, c)| odds_from_masses(board, start, c))
        .collect()
}

/// The odds from `start` in a random sweep's statistics ([`Weight::Random`]): each
/// layer's games ended are the masses that end with that many pegs, the wins by hole the
/// masses that end there.
pub fn odds_from_masses(board: &Board, start: Pegs, masses: &Counts) -> Result<Odds> {
    let whole = Total::from(1u128 << FIXED_BITS);
    let units = |t: Total| BigUint::from_bytes_le(&t.to_le_bytes());
    let ended = Total::sum(masses.layers.iter().map(|l| l.games_ended))?;
    let shortfall = (ended <= whole)
        .then(|| whole.low_u128() - ended.low_u128())
        .ok_or_else(|| {
            Error::Overflow(format!(
                "the random player's masses add up to {ended}, past 2^124"
            ))
        })?;
    let pegs = masses.start_pegs as u32;
    let pegs_left = masses
        .layers
        .iter()
        .rev()
        .filter(|l| !l.games_ended.is_zero())
        .map(|l| (pegs - l.jumps as u32, Prob::fixed(units(l.games_ended))))
        .collect();
    let mut holes = vec![Prob::fixed(BigUint::ZERO); board.holes()];
    for (name, mass) in &masses.finish {
        holes[board.hole(name)?] = Prob::fixed(units(*mass));
    }
    Ok(finish_odds(board, start, pegs, pegs_left, holes, shortfall))
}

/// Odds from an exact sweep: layer `d`'s numerators over the product of the scales before.
fn exact_odds(board: &Board, start: Pegs, pegs: u32, s: sweep::Swept<BigUint>) -> Odds {
    let mut den = BigUint::one();
    let mut dens = Vec::new();
    for &scale in &s.scales {
        dens.push(den.clone());
        den *= scale;
    }
    let pegs_left: Vec<(u32, Prob)> = s
        .ended
        .iter()
        .zip(&dens)
        .enumerate()
        .filter(|(_, (n, _))| !num_traits::Zero::is_zero(*n))
        .map(|(d, (n, den))| (pegs - d as u32, Prob::exact(n.clone(), den.clone())))
        .rev()
        .collect();
    let last = dens.last().cloned().unwrap_or_else(BigUint::one);
    let mut holes = vec![Prob::zero(); board.holes()];
    for (hole, mass, size) in s.finish {
        holes[hole] = holes[hole].plus(&Prob::exact(mass, &last * size));
    }
    finish_odds(board, start, pegs, pegs_left, holes, 0)
}

/// The figures derived from the pegs left and the finishing holes: the win, the expected
/// pegs.
fn finish_odds(
    board: &Board,
    start: Pegs,
    pegs: u32,
    pegs_left: Vec<(u32, Prob)>,
    holes: Vec<Prob>,
    shortfall: u128,
) -> Odds {
    let exact = pegs_left.iter().all(|(_, p)| p.exact);
    let zero = if exact {
        Prob::zero()
    } else {
        Prob::fixed(0u32.into())
    };
    let win = pegs_left
        .iter()
        .find(|(k, _)| *k == 1)
        .map_or(zero.clone(), |(_, p)| p.clone());
    let expected_pegs = pegs_left.iter().fold(zero, |acc, (k, p)| {
        let mut term = p.clone();
        term.num *= *k;
        acc.plus(&term)
    });
    let finish = holes
        .into_iter()
        .enumerate()
        .filter(|(_, p)| !p.is_zero())
        .map(|(h, p)| (board.hole_name(h), p))
        .collect();
    Odds {
        board: board.name().to_string(),
        start: board.start_name(start),
        start_pegs: pegs,
        pegs_left,
        finish,
        win,
        expected_pegs,
        shortfall,
    }
}

/// Columns of `random.csv`.
pub const RANDOM_HEADER: &[&str] = &["board", "start", "pegs_left", "probability", "exact"];
/// Columns of `random_finish.csv`.
pub const RANDOM_FINISH_HEADER: &[&str] = &["board", "start", "finish", "probability", "exact"];

/// The rows of `random.csv` ([`RANDOM_HEADER`]) and `random_finish.csv`
/// ([`RANDOM_FINISH_HEADER`]) for one start.
///
/// ```
/// use pegsol::{geometry::board::Board, count::random::{random_player, csv_rows}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let odds = random_player(&b, b.default_start(), &Default::default()).unwrap();
/// let (pegs, finish) = csv_rows(&odds);
/// assert_eq!(pegs[0][..3], ["tri:5", "a1", "1"]);
/// assert_eq!(finish[0][..3], ["tri:5", "a1", "a1"]);
/// ```
pub fn csv_rows(odds: &Odds) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let row = |label: String, p: &Prob| {
        vec![
            odds.board.clone(),
            odds.start.clone(),
            label,
            p.decimal(),
            p.fraction(),
        ]
    };
    let pegs = odds
        .pegs_left
        .iter()
        .map(|(k, p)| row(k.to_string(), p))
        .collect();
    let finish = odds.finish.iter().map(|(h, p)| row(h.clone(), p)).collect();
    (pegs, finish)
}

/// "1 in N" for a probability: N rounded to three significant figures, with thousands
/// separators, or "never" for 0.
///
/// ```
/// use pegsol::count::random::{one_in, Prob};
/// assert_eq!(one_in(&Prob::exact(1u32.into(), 3u32.into())), "1 in 3");
/// assert_eq!(one_in(&Prob::exact(7u32.into(), 1_234_567u32.into())), "1 in 176,000");
/// assert_eq!(one_in(&Prob::zero()), "never");
/// ```
pub fn one_in(p: &Prob) -> String {
    use thousands::Separable;
    if p.is_zero() {
        return "never".into();
    }
    let n = 1.0 / p.to_f64();
    let mag = 10f64.powi((n.log10().floor() as i32 - 2).max(0));
    let rounded = ((n / mag).round() * mag) as u128;
    format!("1 in {}", rounded.separate_with_commas())
}

/// The lines `pegsol count --random` adds to its summary.
///
/// ```
/// use pegsol::{geometry::board::Board, count::random::{random_player, summary_lines}};
/// let b = Board::from_spec("tri:5").unwrap();
/// let odds = random_player(&b, b.default_start(), &Default::default()).unwrap();
/// let text = summary_lines(&odds, None);
/// assert!(text.starts_with("random player wins   0."));
/// assert!(text.contains("(1 in 146; exact)"));
/// ```
pub fn summary_lines(odds: &Odds, quick: Option<&QuickestLoss>) -> String {
    use thousands::Separable;
    let how = if odds.exact() {
        "exact".to_string()
    } else {
        format!(
            "each figure low by at most {} x 2^-{FIXED_BITS}",
            odds.shortfall.separate_with_commas()
        )
    };
    let mut out = format!(
        "random player wins   {} ({}; {how})\n\
         random pegs left     {} expected\n",
        odds.win.decimal(),
        one_in(&odds.win),
        odds.expected_pegs.decimal(),
    );
    if let Some(q) = quick {
        out.push_str(&format!("{}\n", q.line()));
    }
    out
}
