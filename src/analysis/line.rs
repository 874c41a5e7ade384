//! One-dimensional peg solitaire on an unbounded strip.
//!
//! A *configuration* is a finite set of pegs on an infinite line, taken up to translation:
//! stored as a bit mask whose lowest set bit is bit 0 ([`Config`]), drawn as a picture such
//! as `II.I` (`I` a peg, `.` a hole). A jump moves a peg over a neighbouring peg into the
//! empty cell beyond, removing the peg jumped over; the strip has no ends, so a peg may land
//! outside the picture.
//!
//! - [`solvable`] lists every configuration of `n` pegs that can be reduced to one peg, the
//!   way the 1-D literature finds them: backwards from the single peg, by *un-jumps* (a peg
//!   with two empty cells on one side becomes an empty cell followed by two pegs). The
//!   configurations reducible to one peg with `n + 1` pegs are exactly the un-jumps of those
//!   with `n`, so one layer per number of pegs, each computed in parallel.
//! - [`reduce`] finds the fewest pegs a configuration can be reduced to and a jump sequence
//!   that gets there, by a memoized search over the configurations it can reach.

use crate::error::{Error, Result};
use crate::output::files::csv_bytes;
use rayon::prelude::*;
use std::collections::HashMap;
use thousands::Separable;

/// The most pegs [`solvable`] lists: a configuration of `n` pegs reducible to one peg
/// spans at most `2n - 1` cells, which must fit the 128-bit mask with room to un-jump.
pub const MAX_PEGS: usize = 60;
/// The widest picture [`reduce`] accepts: jumps can push pegs one cell further out per
/// jump, so the search needs room on both sides.
pub const MAX_WIDTH: usize = 60;

/// A configuration up to translation: bit `i` set when cell `i` holds a peg, bit 0 set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Config(u128);

impl Config {
    /// The configuration of the pegs in `mask` (translated so the first peg is cell 0).
    ///
    /// ```
    /// use pegsol::analysis::line::Config;
    /// assert_eq!(Config::new(0b1011_000).picture(), "II.I");
    /// ```
    pub fn new(mask: u128) -> Config {
        assert!(mask != 0, "a configuration has at least one peg");
        Config(mask >> mask.trailing_zeros())
    }

    /// Parses a picture: `I`, `o`, `x`, `X`, `O`, `*` or `1` a peg, `.`, `_`, `-` or `0` a
    /// hole. Holes before the first and after the last peg are ignored.
    ///
    /// ```
    /// use pegsol::analysis::line::Config;
    /// let c = Config::parse("..II.I.").unwrap();
    /// assert_eq!((c.picture(), c.pegs(), c.width()), ("II.I".to_string(), 3, 4));
    /// assert_eq!(Config::parse("01101").unwrap(), Config::parse("II.I").unwrap());
    /// ```
    pub fn parse(picture: &str) -> Result<Config> {
        let picture = picture.trim();
        let mut mask = 0u128;
        for (i, ch) in picture.chars().enumerate() {
            let peg = match ch {
                'I' | 'o' | 'O' | 'x' | 'X' | '*' | '1' => true,
                '.' | '_' | '-' | '0' => false,
                other => {
                    return Err(Error::input(format!(
                        "line picture '{picture}': unexpected character '{other}' (I a peg, . a hole)"
                    )));
                }
            };
            if peg {
                if i >= MAX_WIDTH {
                    return Err(Error::input(format!(
                        "line picture '{picture}': pegs must lie within the first {MAX_WIDTH} cells"
                    )));
                }
                mask |= 1 << i;
            }
        }
        if mask == 0 {
            return Err(Error::input(format!("line picture '{picture}' has no peg")));
        }
        Ok(Config::new(mask))
    }

    /// The mask, first peg at bit 0.
    ///
    /// ```
    /// use pegsol::analysis::line::Config;
    /// assert_eq!(Config::parse("..II.I").unwrap().mask(), 0b1011);
    /// ```
    pub fn mask(self) -> u128 {
        self.0
    }

    /// Number of pegs.
    ///
    /// ```
    /// use pegsol::analysis::line::Config;
    /// assert_eq!(Config::parse("II.I").unwrap().pegs(), 3);
    /// ```
    pub fn pegs(self) -> u32 {
        self.0.count_ones()
    }

    /// Cells from the first peg to the last.
    ///
    /// ```
    /// use pegsol::analysis::line::Config;
    /// assert_eq!(Config::parse("I...I").unwrap().width(), 5);
    /// ```
    pub fn width(self) -> u32 {
        128 - self.0.leading_zeros()
    }

    /// The picture, `I` a peg and `.` a hole, from the first peg to the last.
    ///
    /// ```
    /// use pegsol::analysis::line::Config;
    /// assert_eq!(Config::new(0b1101).picture(), "I.II");
    /// ```
    pub fn picture(self) -> String {
        (0..self.width())
            .map(|i| if self.0 >> i & 1 == 1 { 'I' } else { '.' })
            .collect()
    }

    /// The mirror image.
    ///
    /// ```
    /// use pegsol::analysis::line::Config;
    /// assert_eq!(Config::parse("II.I").unwrap().reversed().picture(), "I.II");
    /// ```
    pub fn reversed(self) -> Config {
        Config::new(self.0.reverse_bits())
    }

    /// The representative of the configuration and its mirror image: the one whose
    /// picture comes last in byte order (`II.I` rather than `I.II`).
    ///
    /// ```
    /// use pegsol::analysis::line::Config;
    /// let c = Config::parse("I.II").unwrap();
    /// assert_eq!((c.pegs(), c.width(), c.canonical().picture()), (3, 4, "II.I".to_string()));
    /// ```
    pub fn canonical(self) -> Config {
        let r = self.reversed();
        if r.picture() > self.picture() {
            r
        } else {
            self
        }
    }

    /// The configurations one un-jump away (one peg more), each reducible to `self` by a
    /// single jump.
    ///
    /// ```
    /// use pegsol::analysis::line::Config;
    /// let mut up: Vec<String> = Config::parse("II").unwrap().unjumps().map(|c| c.picture()).collect();
    /// up.sort();
    /// assert_eq!(up, ["I.II", "II.I"]);
    /// ```
    pub fn unjumps(self) -> impl Iterator<Item = Config> {
        let x = self.0 << 2;
        // A peg at p with p+1 and p+2 empty becomes pegs at p+1, p+2 (and the other way).
        let right = x & !(x >> 1) & !(x >> 2);
        let left = x & !(x << 1) & !(x << 2);
        bits(right)
            .map(move |p| Config::new(x ^ (0b111 << p)))
            .chain(bits(left).map(move |p| Config::new(x ^ (0b111 << (p - 2)))))
    }

    /// The legal jumps, as (new mask in a frame shifted by 2, from, over, to), cells in the
    /// shifted frame (cell `k` of the configuration is `k + 2`).
    fn jumps(self) -> impl Iterator<Item = (u128, u32, u32, u32)> {
        let x = self.0 << 2;
        let right = x & (x >> 1) & !(x >> 2);
        let left = x & (x << 1) & !(x << 2);
        bits(right)
            .map(move |p| (x ^ (0b111 << p), p, p + 1, p + 2))
            .chain(bits(left).map(move |p| (x ^ (0b111 << (p - 2)), p, p - 1, p - 2)))
    }
}

fn bits(mut m: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let p = m.trailing_zeros();
            m &= m - 1;
            p
        })
    })
}

/// The configurations of one number of pegs that reduce to one peg.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineLayer {
    /// Number of pegs.
    pub pegs: usize,
    /// Every such configuration as it stands (up to translation), sorted by mask.
    pub configs: Vec<Config>,
}

impl LineLayer {
    /// One representative per configuration and mirror image ([`Config::canonical`]),
    /// sorted by picture.
    ///
    /// ```
    /// // published (Moore and Eppstein): 7 pegs, 16 configurations, 8 up to reversal
    /// let layers = pegsol::analysis::line::solvable_with_threads(7, 7, 1).unwrap();
    /// assert_eq!((layers[0].configs.len(), layers[0].reduced().len()), (16, 8));
    /// ```
    pub fn reduced(&self) -> Vec<Config> {
        let mut reps: Vec<Config> = self.configs.iter().map(|c| c.canonical()).collect();
        reps.sort_unstable_by_key(|c| c.picture());
        reps.dedup();
        reps
    }
}

/// Every configuration of `from..=to` pegs reducible to one peg, one layer per number of
/// pegs, found backwards from the single peg (un-jumps), each layer in parallel on the
/// current rayon pool.
///
/// ```
/// let layers = pegsol::analysis::line::solvable(3, 7).unwrap();
/// let counts: Vec<(usize, usize)> =
///     layers.iter().map(|l| (l.configs.len(), l.reduced().len())).collect();
/// assert_eq!(counts[0], (2, 1)); // II.I and I.II
/// assert_eq!(counts[4].1, 8); // 7 pegs: 8 up to reversal
/// assert_eq!(layers[0].reduced()[0].picture(), "II.I");
/// ```
pub fn solvable(from: usize, to: usize) -> Result<Vec<LineLayer>> {
    if from == 0 || from > to || to > MAX_PEGS {
        return Err(Error::input(format!(
            "line: need 1 <= --pegs <= --to <= {MAX_PEGS} (got {from}..{to})"
        )));
    }
    let mut layer = vec![Config::new(1)];
    let mut out = Vec::new();
    for pegs in 1..=to {
        if pegs > 1 {
            let mut next: Vec<Config> = layer.par_iter().flat_map_iter(|c| c.unjumps()).collect();
            next.par_sort_unstable();
            next.dedup();
            layer = next;
        }
        if pegs >= from {
            out.push(LineLayer {
                pegs,
                configs: layer.clone(),
            });
        }
    }
    Ok(out)
}

/// [`solvable`] on a pool of `threads` workers (0 = one per core).
///
/// ```
/// use pegsol::analysis::line::{solvable, solvable_with_threads};
/// let layers = solvable_with_threads(3, 7, 2).unwrap();
/// // published (Moore and Eppstein): 7 pegs, 16 configurations
/// assert_eq!(layers.last().unwrap().configs.len(), 16);
/// assert_eq!(layers, solvable(3, 7).unwrap()); // any number of threads, one answer
/// ```
pub fn solvable_with_threads(from: usize, to: usize, threads: usize) -> Result<Vec<LineLayer>> {
    crate::pool::build(threads)?.install(|| solvable(from, to))
}

/// What `pegsol line --pegs` prints: per number of pegs the counts, then (when `pictures`)
/// one picture per configuration up to reversal.
///
/// ```
/// use pegsol::analysis::line::{listing_text, solvable};
/// let layers = solvable(3, 3).unwrap();
/// assert_eq!(
///     listing_text(&layers, true),
///     "3 pegs: 2 configurations reducible to one peg, 1 up to reversal\n  II.I\n"
/// );
/// ```
pub fn listing_text(layers: &[LineLayer], pictures: bool) -> String {
    let mut out = String::new();
    for l in layers {
        let reps = l.reduced();
        out.push_str(&format!(
            "{} pegs: {} configurations reducible to one peg, {} up to reversal\n",
            l.pegs,
            l.configs.len().separate_with_commas(),
            reps.len().separate_with_commas()
        ));
        if pictures {
            for c in reps {
                let mark = if c.reversed() == c {
                    "  (symmetric)"
                } else {
                    ""
                };
                out.push_str(&format!("  {}{mark}\n", c.picture()));
            }
        }
    }
    out
}

/// Columns of `line.csv`.
pub const LINE_HEADER: &[&str] = &["pegs", "configurations", "configurations_reduced"];
/// Columns of `line_configurations.csv`: one row per configuration up to reversal.
pub const CONFIGURATIONS_HEADER: &[&str] = &["pegs", "picture", "reversal", "width"];

/// `line.csv` and `line_configurations.csv`, as (file name, bytes).
///
/// ```
/// use pegsol::analysis::line::{csv_files, solvable};
/// let files = csv_files(&solvable(3, 4).unwrap()).unwrap();
/// assert_eq!(files[0].0, "line.csv");
/// assert_eq!(
///     String::from_utf8(files[0].1.clone()).unwrap(),
///     "pegs,configurations,configurations_reduced\n3,2,1\n4,3,2\n"
/// );
/// assert_eq!(files[1].0, "line_configurations.csv");
/// assert!(String::from_utf8(files[1].1.clone()).unwrap().contains("\n3,II.I,I.II,4\n"));
/// ```
pub fn csv_files(layers: &[LineLayer]) -> Result<Vec<(&'static str, Vec<u8>)>> {
    let counts: Vec<Vec<String>> = layers
        .iter()
        .map(|l| {
            vec![
                l.pegs.to_string(),
                l.configs.len().to_string(),
                l.reduced().len().to_string(),
            ]
        })
        .collect();
    let configs: Vec<Vec<String>> = layers
        .iter()
        .flat_map(|l| {
            l.reduced().into_iter().map(move |c| {
                vec![
                    l.pegs.to_string(),
                    c.picture(),
                    c.reversed().picture(),
                    c.width().to_string(),
                ]
            })
        })
        .collect();
    Ok(vec![
        ("line.csv", csv_bytes(LINE_HEADER, &counts)?),
        (
            "line_configurations.csv",
            csv_bytes(CONFIGURATIONS_HEADER, &configs)?,
        ),
    ])
}

/// One jump of a reduction, cells numbered from the configuration's first peg (cell 0;
/// negative: left of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineJump {
    /// The cell the jumping peg leaves.
    pub from: i64,
    /// The cell of the peg jumped over (removed).
    pub over: i64,
    /// The cell the peg lands in.
    pub to: i64,
}

/// The best reduction of a configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduction {
    /// The fewest pegs reachable.
    pub pegs: u32,
    /// A jump sequence reaching that many pegs.
    pub jumps: Vec<LineJump>,
    /// Distinct configurations the search visited.
    pub visited: usize,
}

/// Configurations the search of [`reduce`] may remember before giving up (about 40 bytes
/// each).
pub const REDUCE_LIMIT: usize = 10_000_000;

/// The fewest pegs `config` can be reduced to on an unbounded strip, and a jump sequence
/// that gets there (cells numbered from the configuration's first peg).
///
/// A depth-first search over the configurations reachable from `config`, remembering the
/// best result of each up to translation and reflection. It stops looking at a
/// configuration's jumps once it reaches the lower bound of the mod-3 invariant: a jump
/// flips the parity of the pegs on each of the three classes of cells mod 3, so when those
/// three parities start out equal no single peg (one odd class, two even) is reachable, and
/// 2 is the bound; otherwise 1. Exhaustive search is exponential in the worst case: it
/// gives up with an error after [`REDUCE_LIMIT`] configurations (a few seconds).
///
/// ```
/// use pegsol::analysis::line::{reduce, Config};
/// assert_eq!(reduce(&Config::parse("II.I").unwrap()).unwrap().pegs, 1);
/// assert_eq!(reduce(&Config::parse("I.I").unwrap()).unwrap().pegs, 2);
/// assert_eq!(reduce(&Config::parse("III").unwrap()).unwrap().pegs, 2);
/// ```
pub fn reduce(config: &Config) -> Result<Reduction> {
    if config.width() as usize > MAX_WIDTH {
        return Err(Error::input(format!(
            "line: configurations wider than {MAX_WIDTH} cells are not supported"
        )));
    }
    let mut search = Search {
        memo: HashMap::with_hasher(ahash::RandomState::with_seeds(1, 2, 3, 4)),
        bound: lower_bound(config.0),
    };
    let pegs = search.best(config.0)?;
    let mut jumps = Vec::new();
    let (mut mask, mut offset) = (config.0, 0i64);
    while mask.count_ones() > pegs {
        let want = search.best(mask)?;
        let mut step = None;
        for (next, from, over, to) in Config(mask).jumps() {
            if search.best(Config::new(next).0)? == want {
                step = Some((next, from, over, to));
                break;
            }
        }
        let (next, from, over, to) = step.expect("a jump keeps the best result");
        let at = |p: u32| offset + p as i64 - 2;
        jumps.push(LineJump {
            from: at(from),
            over: at(over),
            to: at(to),
        });
        offset = offset - 2 + next.trailing_zeros() as i64;
        mask = Config::new(next).0;
    }
    Ok(Reduction {
        pegs,
        jumps,
        visited: search.memo.len(),
    })
}

/// 2 when the pegs on the three classes of cells mod 3 have equal parities (no single peg
/// is reachable), else 1.
fn lower_bound(mask: u128) -> u32 {
    let class = |r: u32| bits(mask).filter(|p| p % 3 == r).count() % 2;
    if class(0) == class(1) && class(1) == class(2) {
        2
    } else {
        1
    }
}

struct Search {
    /// Fewest pegs reachable, by configuration up to translation and reflection.
    memo: HashMap<u128, u32, ahash::RandomState>,
    bound: u32,
}

impl Search {
    fn best(&mut self, mask: u128) -> Result<u32> {
        let key = mask.min(Config::new(mask).reversed().0);
        if let Some(&p) = self.memo.get(&key) {
            return Ok(p);
        }
        if self.memo.len() >= REDUCE_LIMIT {
            return Err(Error::Memory(format!(
                "line --reduce: gave up after {REDUCE_LIMIT} configurations; the search is \
                 exhaustive and this picture has too many reachable configurations"
            )));
        }
        let mut result = mask.count_ones();
        if result > self.bound {
            for (next, ..) in Config(mask).jumps() {
                result = result.min(self.best(Config::new(next).0)?);
                if result == self.bound {
                    break;
                }
            }
        }
        self.memo.insert(key, result);
        Ok(result)
    }
}

/// What `pegsol line --reduce` prints: the fewest pegs and the jumps, each followed by the
/// configuration it leaves, drawn over every cell the sequence touches.
///
/// ```
/// use pegsol::analysis::line::{reduce, reduction_text, Config};
/// let c = Config::parse("II.I").unwrap();
/// let text = reduction_text(&c, &reduce(&c).unwrap());
/// assert!(text.starts_with(
///     "II.I: 3 pegs, reducible to 1 peg in 2 jumps (cells numbered from 0 at the first peg)\n"
/// ));
/// assert_eq!(text.lines().count(), 4); // the title, the start, one line per jump
/// ```
pub fn reduction_text(config: &Config, r: &Reduction) -> String {
    let mut states = vec![(0i64, config.0)];
    for j in &r.jumps {
        let (offset, mask) = *states.last().expect("start");
        let mut cells: Vec<i64> = bits(mask).map(|p| offset + p as i64).collect();
        cells.retain(|&c| c != j.from && c != j.over);
        cells.push(j.to);
        let low = *cells.iter().min().expect("a peg");
        let m = cells.iter().fold(0u128, |m, &c| m | 1 << (c - low));
        states.push((low, m));
    }
    let low = states.iter().map(|&(o, _)| o).min().unwrap_or(0);
    let high = states
        .iter()
        .map(|&(o, m)| o + (128 - m.leading_zeros()) as i64 - 1)
        .max()
        .unwrap_or(0);
    let draw = |(offset, mask): (i64, u128)| -> String {
        (low..=high)
            .map(|c| {
                let k = c - offset;
                if (0..128).contains(&k) && mask >> k & 1 == 1 {
                    'I'
                } else {
                    '.'
                }
            })
            .collect()
    };
    let mut out = format!(
        "{}: {} pegs, reducible to {} peg{} in {} jumps (cells numbered from 0 at the first peg)\n",
        config.picture(),
        config.pegs(),
        r.pegs,
        if r.pegs == 1 { "" } else { "s" },
        r.jumps.len()
    );
    out.push_str(&format!("  {:>16}  {}\n", "", draw(states[0])));
    for (j, &state) in r.jumps.iter().zip(&states[1..]) {
        let text = format!("{} over {} to {}", j.from, j.over, j.to);
        out.push_str(&format!("  {text:>16}  {}\n", draw(state)));
    }
    out
}
