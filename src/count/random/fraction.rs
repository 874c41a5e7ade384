//! A probability as the random player's files give it: a fraction, exact or in fixed point,
//! and its decimal text.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

/// The fixed point of the sweeps past exact fractions: masses are integers in units of
/// `2^-FIXED_BITS`, so that a whole layer's mass (at most 1) fits a `u128`.
pub const FIXED_BITS: u32 = 124;

/// Significant digits of [`Prob::decimal`].
pub const DIGITS: u32 = 15;

/// A probability (or an expected number of pegs): `num / den`, in lowest terms when
/// `exact`; otherwise a fixed-point value in units of `2^-FIXED_BITS`, low by at most the
/// shortfall its sweep reports ([`super::Odds::shortfall`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prob {
    /// Numerator.
    pub num: BigUint,
    /// Denominator (never zero).
    pub den: BigUint,
    /// Whether `num / den` is the exact value.
    pub exact: bool,
}

impl Prob {
    /// The exact fraction `num / den`, reduced.
    ///
    /// ```
    /// use pegsol::count::random::Prob;
    /// let p = Prob::exact(6u32.into(), 8u32.into());
    /// assert_eq!((p.fraction(), p.decimal()), ("3/4".to_string(), "0.75".to_string()));
    /// ```
    pub fn exact(num: BigUint, den: BigUint) -> Prob {
        let g = num.gcd(&den);
        if g.is_zero() || g.is_one() {
            return Prob {
                num,
                den,
                exact: true,
            };
        }
        Prob {
            num: num / &g,
            den: den / g,
            exact: true,
        }
    }

    /// A fixed-point value of `units` units of `2^-FIXED_BITS` (not exact).
    ///
    /// ```
    /// use pegsol::count::random::{Prob, FIXED_BITS};
    /// let half = Prob::fixed(((1u128 << FIXED_BITS) / 2).into());
    /// assert_eq!((half.decimal(), half.fraction()), ("0.5".to_string(), String::new()));
    /// ```
    pub fn fixed(units: BigUint) -> Prob {
        Prob {
            num: units,
            den: BigUint::one() << FIXED_BITS,
            exact: false,
        }
    }

    /// Zero, exactly.
    pub fn zero() -> Prob {
        Prob::exact(BigUint::zero(), BigUint::one())
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }

    /// The sum, exact when both are (fractions reduced).
    ///
    /// ```
    /// use pegsol::count::random::Prob;
    /// let third = Prob::exact(1u32.into(), 3u32.into());
    /// assert_eq!(third.plus(&third).plus(&third).fraction(), "1/1");
    /// ```
    pub fn plus(&self, other: &Prob) -> Prob {
        let num = &self.num * &other.den + &other.num * &self.den;
        let den = &self.den * &other.den;
        let mut sum = Prob::exact(num, den);
        sum.exact = self.exact && other.exact;
        sum
    }

    /// `p/q` in lowest terms where the value is exact, empty otherwise.
    pub fn fraction(&self) -> String {
        if self.exact {
            format!("{}/{}", self.num, self.den)
        } else {
            String::new()
        }
    }

    /// The value as a float, for pictures and messages.
    pub fn to_f64(&self) -> f64 {
        let shift = self.den.bits().saturating_sub(60);
        let num = (&self.num >> shift)
            .to_string()
            .parse::<f64>()
            .unwrap_or(0.0);
        let den = (&self.den >> shift)
            .to_string()
            .parse::<f64>()
            .unwrap_or(1.0);
        num / den
    }

    /// The value in decimal, [`DIGITS`] significant digits rounded down (trailing zeros
    /// dropped): plain from `0.0001` up, scientific notation below.
    ///
    /// ```
    /// use pegsol::count::random::Prob;
    /// let p = |n: u32, d: u64| Prob::exact(n.into(), d.into()).decimal();
    /// assert_eq!(p(1, 3), "0.333333333333333");
    /// assert_eq!(p(2, 3), "0.666666666666666"); // rounded down
    /// assert_eq!(p(1, 1), "1");
    /// assert_eq!(p(27, 2), "13.5");
    /// assert_eq!(p(1, 10_000), "0.0001");
    /// assert_eq!(p(1, 30_000), "3.33333333333333e-5");
    /// assert_eq!(p(0, 7), "0");
    /// ```
    pub fn decimal(&self) -> String {
        if self.num.is_zero() {
            return "0".into();
        }
        let (digits, exp) = self.digits();
        let text = digits.to_string();
        let (lead, rest) = text.split_at(1);
        if exp >= 0 {
            let int = exp as usize + 1;
            let (a, b) = text.split_at(int.min(text.len()));
            let mut a = a.to_string();
            a.extend(std::iter::repeat_n('0', int.saturating_sub(text.len())));
            trim(format!("{a}.{b}"))
        } else if exp >= -4 {
            let zeros = "0".repeat((-exp - 1) as usize);
            trim(format!("0.{zeros}{text}"))
        } else {
            let rest = rest.trim_end_matches('0');
            if rest.is_empty() {
                format!("{lead}e{exp}")
            } else {
                format!("{lead}.{rest}e{exp}")
            }
        }
    }

    /// `(d, e)` with `d` of exactly [`DIGITS`] digits and `d * 10^(e + 1 - DIGITS)` the
    /// value rounded down to that many digits.
    fn digits(&self) -> (BigUint, i64) {
        let ten = BigUint::from(10u32);
        let low = ten.pow(DIGITS - 1);
        let high = ten.pow(DIGITS);
        // log10(num / den), near enough to start from.
        let mut exp =
            ((self.num.bits() as f64 - self.den.bits() as f64) * std::f64::consts::LOG10_2) as i64;
        loop {
            let shift = i64::from(DIGITS) - 1 - exp;
            let d = if shift >= 0 {
                &self.num * ten.pow(shift as u32) / &self.den
            } else {
                &self.num / (&self.den * ten.pow((-shift) as u32))
            };
            if d >= high {
                exp += 1;
            } else if d < low {
                exp -= 1;
            } else {
                return (d, exp);
            }
        }
    }
}

/// Drops trailing zeros after a decimal point, and the point if nothing follows it.
fn trim(s: String) -> String {
    if !s.contains('.') {
        return s;
    }
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
