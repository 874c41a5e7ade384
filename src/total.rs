//! [`Total`]: a count of jump sequences, 256 bits wide.
//!
//! Both an orbit's count and the statistics' sums are `Total`s. tri:9 from a1 has about
//! 2^135 games (a Monte Carlo estimate, Knuth's estimator over 20,000 random games;
//! docs/experiments.md, "Totals past 128 bits"), and its largest orbits in the last layers
//! may pass 2^128 too. The engine keeps an orbit's count mostly in one 32- or 64-bit lane
//! and only the rest, for the few entries that carry, as a `Total` (`count::sweep`), so the
//! width costs the common count nothing. Every addition is checked: past 2^256 a run stops
//! with [`Error::Overflow`], never wrapped.
//!
//! The arithmetic is [`ruint`]'s; this type adds what the counts need: strict decimal text
//! (CSV files, checkpoints), LEB128 varints (layer files), comparisons with `u128`, and
//! checked operations that fail with [`Error::Overflow`].

use crate::error::{Error, Result};
use ruint::aliases::U256;
use std::fmt;

/// A total of jump sequences (games, wins, games per layer), exact to 2^256.
///
/// ```
/// use pegsol::total::Total;
/// let t = Total::from(u128::MAX).plus(Total::from(1)).unwrap();
/// assert_eq!(t.to_string(), "340282366920938463463374607431768211456"); // 2^128, exact
/// assert_eq!(t.to_u128(), None);
/// assert_eq!(Total::from(568_630), 568_630); // compares with u128
/// assert_eq!("568630".parse::<Total>().unwrap(), 568_630);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Total(U256);

impl Total {
    /// Zero.
    pub const ZERO: Total = Total(U256::ZERO);

    /// `self + other`, or [`Error::Overflow`] past 2^256 (never wrapped).
    ///
    /// ```
    /// use pegsol::total::Total;
    /// assert_eq!(Total::from(2).plus(Total::from(3)).unwrap(), 5);
    /// let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
    /// let max: Total = max.parse().unwrap(); // 2^256 - 1
    /// assert_eq!(max.plus(Total::from(1)).unwrap_err().exit_code(), 3);
    /// ```
    pub fn plus(self, other: Total) -> Result<Total> {
        self.0
            .checked_add(other.0)
            .map(Total)
            .ok_or_else(|| Error::Overflow(format!("{self} + {other} exceeds 2^256")))
    }

    /// `self + n` for a count of one orbit.
    ///
    /// ```
    /// use pegsol::total::Total;
    /// assert_eq!(Total::from(u128::MAX).plus_count(u128::MAX).unwrap().to_string(),
    ///            "680564733841876926926749214863536422910"); // 2^129 - 2
    /// ```
    #[inline]
    pub fn plus_count(self, n: u128) -> Result<Total> {
        self.plus(Total::from(n))
    }

    /// `self * n`, or [`Error::Overflow`] past 2^256 (a table's totals weigh each start by
    /// the size of its class).
    ///
    /// ```
    /// use pegsol::total::Total;
    /// assert_eq!(Total::from(u128::MAX).times(2).unwrap().to_string(),
    ///            "680564733841876926926749214863536422910");
    /// ```
    pub fn times(self, n: u64) -> Result<Total> {
        self.0
            .checked_mul(U256::from(n))
            .map(Total)
            .ok_or_else(|| Error::Overflow(format!("{self} times {n} exceeds 2^256")))
    }

    /// The sum of `items`, checked.
    ///
    /// ```
    /// use pegsol::total::Total;
    /// let halves = [Total::from(1u128 << 127), Total::from(1u128 << 127)];
    /// assert_eq!(Total::sum(halves).unwrap().to_string(),
    ///            "340282366920938463463374607431768211456"); // 2^128
    /// ```
    pub fn sum(items: impl IntoIterator<Item = Total>) -> Result<Total> {
        items.into_iter().try_fold(Total::ZERO, Total::plus)
    }

    /// `self / d`, rounded down; `None` when `d` is zero.
    ///
    /// ```
    /// use pegsol::total::Total;
    /// assert_eq!(Total::from(7).checked_div(Total::from(2)), Some(Total::from(3)));
    /// assert_eq!(Total::from(7).checked_div(Total::ZERO), None);
    /// ```
    pub fn checked_div(self, d: Total) -> Option<Total> {
        self.0.checked_div(d.0).map(Total)
    }

    /// `self * scale / whole`, rounded half up, computed in 512 bits so that no product
    /// overflows; `None` when `whole` is zero (or, were `self` far above `whole`, past
    /// 2^256).
    ///
    /// ```
    /// use pegsol::total::Total;
    /// // 29,760 wins of 568,630 games: 5.2336% (tri:5 from a1), in units of 10^-4 %.
    /// assert_eq!(Total::from(29_760).scaled(Total::from(568_630), 1_000_000), Some(Total::from(52_336)));
    /// let max = Total::from(u128::MAX);
    /// assert_eq!(max.scaled(max, 1_000_000), Some(Total::from(1_000_000)));
    /// assert_eq!(max.scaled(Total::ZERO, 100), None);
    /// ```
    pub fn scaled(self, whole: Total, scale: u64) -> Option<Total> {
        use ruint::aliases::U512;
        if whole.is_zero() {
            return None;
        }
        let wide = |t: U256| U512::from_limbs_slice(t.as_limbs());
        let two_whole: U512 = wide(whole.0) << 1;
        let num: U512 = ((wide(self.0) * U512::from(scale)) << 1) + wide(whole.0);
        let q: U512 = num / two_whole;
        (q.bit_len() <= 256).then(|| Total(U256::from_limbs_slice(&q.as_limbs()[..4])))
    }

    /// Whether this is zero.
    ///
    /// ```
    /// assert!(pegsol::total::Total::ZERO.is_zero());
    /// ```
    pub fn is_zero(self) -> bool {
        self.0.is_zero()
    }

    /// The value as a `u128`, if it fits.
    ///
    /// ```
    /// use pegsol::total::Total;
    /// assert_eq!(Total::from(7).to_u128(), Some(7));
    /// ```
    pub fn to_u128(self) -> Option<u128> {
        u128::try_from(self.0).ok()
    }

    /// The nearest `f64` (for pictures and shares, never for a count).
    ///
    /// ```
    /// assert_eq!(pegsol::total::Total::from(1u128 << 100).to_f64(), 2f64.powi(100));
    /// ```
    pub fn to_f64(self) -> f64 {
        f64::from(self.0)
    }

    /// Its 32 little-endian bytes (messages between MPI ranks).
    ///
    /// ```
    /// use pegsol::total::Total;
    /// let t = Total::from(u128::MAX).times(3).unwrap();
    /// assert_eq!(Total::from_le_bytes(t.to_le_bytes()), t);
    /// ```
    pub fn to_le_bytes(self) -> [u8; 32] {
        self.0.to_le_bytes::<32>()
    }

    /// The value of 32 little-endian bytes ([`Total::to_le_bytes`]).
    pub fn from_le_bytes(bytes: [u8; 32]) -> Total {
        Total(U256::from_le_bytes(bytes))
    }

    /// Appends the value as an unsigned LEB128 varint (the counts in a layer file): seven
    /// bits a byte, low bits first, the top bit set on every byte but the last. Below
    /// 2^128 the bytes are `unsigned-varint`'s; a value up to 2^256 takes at most 37.
    ///
    /// ```
    /// use pegsol::total::Total;
    /// let mut out = Vec::new();
    /// Total::from(300).write_varint(&mut out);
    /// assert_eq!(out, [0xac, 0x02]);
    /// out.clear();
    /// Total::from(u128::MAX).times(2).unwrap().write_varint(&mut out); // 2^129 - 2
    /// assert_eq!(out.len(), 19);
    /// ```
    #[inline]
    pub fn write_varint(self, out: &mut Vec<u8>) {
        if let Some(n) = self.to_u128() {
            let mut buf = unsigned_varint::encode::u128_buffer();
            out.extend_from_slice(unsigned_varint::encode::u128(n, &mut buf));
            return;
        }
        let mut x = self.0;
        loop {
            let byte = x.as_limbs()[0] as u8 & 0x7f;
            x >>= 7;
            if x.is_zero() {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }

    /// Reads a varint that [`Total::write_varint`] wrote off the front of `bytes`: the value
    /// and the bytes after it. `None` when the bytes end inside it, when it does not fit
    /// 256 bits, or when it has a needless trailing zero byte (as `unsigned-varint` refuses
    /// one).
    ///
    /// ```
    /// use pegsol::total::Total;
    /// let big = Total::from(u128::MAX).times(1 << 40).unwrap();
    /// let mut bytes = Vec::new();
    /// big.write_varint(&mut bytes);
    /// Total::from(7).write_varint(&mut bytes);
    /// let (first, rest) = Total::read_varint(&bytes).unwrap();
    /// assert_eq!((first, rest), (big, &[7u8][..]));
    /// assert_eq!(Total::read_varint(&[0x80]), None); // ends inside
    /// assert_eq!(Total::read_varint(&[0x80, 0x00]), None); // not minimal
    /// assert_eq!(Total::read_varint(&[0xff; 37]), None); // past 2^256
    /// let mut top = vec![0xff; 18];
    /// top.push(0x7f); // 19 bytes: 2^133 - 1, past u128 and still read exactly
    /// assert_eq!(Total::read_varint(&top).unwrap().0.to_string(),
    ///            "10889035741470030830827987437816582766591");
    /// ```
    #[inline]
    pub fn read_varint(bytes: &[u8]) -> Option<(Total, &[u8])> {
        use unsigned_varint::decode::{Error::Overflow, u128};
        // `unsigned-varint` drops the bits of a 19th byte past 128 instead of refusing
        // them, so it is trusted with 18 bytes (126 bits) at most.
        match u128(bytes) {
            Ok((n, rest)) if bytes.len() - rest.len() < 19 => Some((Total::from(n), rest)),
            Ok(_) | Err(Overflow) => Total::read_wide_varint(bytes),
            Err(_) => None,
        }
    }

    /// [`Total::read_varint`] for the values that `unsigned-varint` cannot take.
    #[cold]
    fn read_wide_varint(bytes: &[u8]) -> Option<(Total, &[u8])> {
        let mut x = U256::ZERO;
        for (i, &b) in bytes.iter().enumerate().take(37) {
            let part = U256::from(b & 0x7f);
            let shift = 7 * i;
            // The 37th byte holds the top 4 bits: anything above them is past 2^256.
            if shift + 7 > 256 && b & 0x7f >= 1 << (256 - shift) {
                return None;
            }
            x |= part << shift;
            if b & 0x80 == 0 {
                if b == 0 && i > 0 {
                    return None;
                }
                return Some((Total(x), &bytes[i + 1..]));
            }
        }
        None
    }

    /// The low 128 bits (the engine keeps an orbit's count as low lanes and a high part).
    #[inline]
    pub(crate) fn low_u128(self) -> u128 {
        let limbs = self.0.as_limbs();
        u128::from(limbs[0]) | u128::from(limbs[1]) << 64
    }

    /// `self >> bits`.
    #[inline]
    pub(crate) fn shr(self, bits: u32) -> Total {
        Total(self.0 >> bits as usize)
    }

    /// `low + high * 2^bits`, where `low < 2^bits` and the sum fits (the engine's high
    /// parts are checked to fit when they are added).
    #[inline]
    pub(crate) fn join(low: u128, high: Total, bits: u32) -> Total {
        debug_assert!(bits >= 128 || low >> bits == 0);
        debug_assert!(high.0.bit_len() + bits as usize <= 256);
        Total((high.0 << bits as usize) | U256::from(low))
    }

    /// Whether the value is below `2^bits`.
    #[inline]
    pub(crate) fn fits(self, bits: u32) -> bool {
        let l = self.0.as_limbs();
        match bits {
            0..128 => l[2] | l[3] == 0 && self.low_u128() >> bits == 0,
            _ => self.0.bit_len() <= bits as usize,
        }
    }

    /// `self / d` for a small `d` that divides it exactly (an orbit's count over its size).
    #[inline]
    pub(crate) fn div_exact(self, d: u64) -> Total {
        let q = match self.to_u128() {
            Some(n) => Total::from(n / u128::from(d)),
            None => Total(self.0 / U256::from(d)),
        };
        debug_assert_eq!(q.0 * U256::from(d), self.0);
        q
    }

    /// `self / d` rounded down, for a small `d` (the random player's mass of an orbit
    /// shared among its positions).
    #[inline]
    pub(crate) fn div_floor(self, d: u64) -> Total {
        match self.to_u128() {
            Some(n) => Total::from(n / u128::from(d)),
            None => Total(self.0 / U256::from(d)),
        }
    }
}

impl From<u128> for Total {
    #[inline]
    fn from(n: u128) -> Total {
        Total(U256::from(n))
    }
}

impl PartialEq<u128> for Total {
    fn eq(&self, other: &u128) -> bool {
        self.0 == U256::from(*other)
    }
}

impl PartialEq<Total> for u128 {
    fn eq(&self, other: &Total) -> bool {
        other == self
    }
}

impl PartialOrd<u128> for Total {
    fn partial_cmp(&self, other: &u128) -> Option<std::cmp::Ordering> {
        Some(self.0.cmp(&U256::from(*other)))
    }
}

impl fmt::Display for Total {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // ruint's Display ignores padding; pad the digits here.
        f.pad_integral(true, "", &self.0.to_string())
    }
}

/// Why a text is not a [`Total`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseTotalError;

impl fmt::Display for ParseTotalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a whole number below 2^256 in decimal digits")
    }
}

impl std::error::Error for ParseTotalError {}

/// Decimal digits only, as `u128`'s parse takes them but without a sign: `0x10`, `+1`,
/// `1_000`, ` 1` and the empty text are refused.
///
/// ```
/// use pegsol::total::Total;
/// assert!("0x10".parse::<Total>().is_err());
/// assert!("+1".parse::<Total>().is_err());
/// assert!("".parse::<Total>().is_err());
/// assert!("9".repeat(78).parse::<Total>().is_err()); // past 2^256
/// ```
impl std::str::FromStr for Total {
    type Err = ParseTotalError;
    fn from_str(s: &str) -> std::result::Result<Total, ParseTotalError> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseTotalError);
        }
        U256::from_str_radix(s, 10)
            .map(Total)
            .map_err(|_| ParseTotalError)
    }
}

/// As a decimal string: JSON readers lose the digits of numbers past 2^53.
impl serde::Serialize for Total {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_add_past_u128_exactly() {
        // Sums of u128 counts, checked against u128 arithmetic on halves.
        let cases = [u128::MAX, u128::MAX / 3, 1 << 127, 12_345];
        for &a in &cases {
            for &b in &cases {
                let t = Total::from(a).plus_count(b).unwrap();
                let (lo, carry) = a.overflowing_add(b);
                assert_eq!(t.to_u128(), (!carry).then_some(lo));
                // 2^128 = 340282366920938463463374607431768211456.
                let want = if carry {
                    (Total::from(u128::MAX).plus_count(1).unwrap())
                        .plus_count(lo)
                        .unwrap()
                } else {
                    Total::from(lo)
                };
                assert_eq!(t, want);
                assert_eq!(t.to_string().parse::<Total>().unwrap(), t);
            }
        }
    }

    #[test]
    fn totals_pad_like_integers() {
        assert_eq!(format!("{:>6}", Total::from(42)), "    42");
        assert_eq!(format!("{:<4}|", Total::from(7)), "7   |");
    }
}
