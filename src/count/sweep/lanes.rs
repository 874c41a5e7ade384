//! The hot core's types: the lanes a count's low part is kept in ([`Lane`], [`Wide`]), the
//! keys a shard's table stores ([`Key`]), and how a position is split into its shard and
//! key ([`Codec`]: [`Whole`], or [`Packed`] on boards of up to 38 holes).

use super::SHARDS;
use crate::count::slots::SlotKey;
use crate::geometry::bits::{Bits, Packed};
use std::fmt::Debug;
use std::hash::Hash;

/// The low part of a count, which every entry holds for each start: `u64`, or `u32` while
/// the counts of a sweep of several starts are small (docs/experiments.md, "Narrow lanes").
/// The rest of a count, its value shifted right by `BITS`, lives in a sparse map beside the
/// entries.
pub(super) trait Lane:
    Copy + Default + Ord + num_traits::ConstZero + Send + Sync + Debug + 'static
{
    const BITS: u32;
    /// Whether the lane holds the random player's masses ([`Mass`]) rather than counts:
    /// [`super::expand::Sweep::expand`] then shares a position's mass among its jumps and
    /// its orbit's positions, rounding down. Known at compile time, so a count's
    /// expansion holds no trace of it.
    const MASS: bool = false;
    /// The low `BITS` bits of `x`.
    fn low(x: u128) -> Self;
    fn wide(self) -> u128;
    fn add(self, other: Self) -> (Self, bool);
}

macro_rules! lanes {
    ($($t:ty)*) => {$(
        impl Lane for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn low(x: u128) -> Self {
                x as $t
            }
            #[inline]
            fn wide(self) -> u128 {
                self.into()
            }
            #[inline]
            fn add(self, other: Self) -> (Self, bool) {
                self.overflowing_add(other)
            }
        }
    )*};
}
lanes!(u32 u64);

/// A 64-bit lane stored at 4-byte alignment: beside a 4-byte key an entry takes 12 bytes
/// where `(u32, [u64; 1])` takes 16, so the wide phase of a sweep holds a quarter less and a
/// layer on disk needs fewer passes (DESIGN.md, "Layers on disk"). The wide lanes of every
/// sweep; an entry that straddles two cache lines has both fetched ([`Slots::prefetch`]).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
#[repr(C, packed(4))]
pub(super) struct Wide(pub(super) u64);

impl Debug for Wide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        v.fmt(f)
    }
}

impl Ord for Wide {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let (a, b) = (self.0, other.0);
        a.cmp(&b)
    }
}

impl PartialOrd for Wide {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::ops::Add for Wide {
    type Output = Wide;
    fn add(self, other: Wide) -> Wide {
        let (a, b) = (self.0, other.0);
        Wide(a + b)
    }
}

impl num_traits::Zero for Wide {
    fn zero() -> Self {
        Wide(0)
    }
    fn is_zero(&self) -> bool {
        let v = self.0;
        v == 0
    }
}

impl num_traits::ConstZero for Wide {
    const ZERO: Self = Wide(0);
}

impl Lane for Wide {
    const BITS: u32 = u64::BITS;
    #[inline]
    fn low(x: u128) -> Self {
        Wide(x as u64)
    }
    #[inline]
    fn wide(self) -> u128 {
        let v = self.0;
        v.into()
    }
    #[inline]
    fn add(self, other: Self) -> (Self, bool) {
        let (a, b) = (self.0, other.0);
        let (sum, carry) = a.overflowing_add(b);
        (Wide(sum), carry)
    }
}

/// A mass of the random player (DESIGN.md, "How hard is each board"): an integer
/// in units of `2^-124` ([`crate::count::random::FIXED_BITS`]), stored at 4-byte alignment
/// so that beside a 4-byte key an entry takes 20 bytes. A start's mass, `2^124`, only ever
/// divides, and a layer's masses from one start add up to at most it, so a lane never
/// carries; one that did would make a high part, which the expansion refuses as an
/// overflow ([`super::expand::Sweep::expand`]).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
#[repr(C, packed(4))]
pub(super) struct Mass(pub(super) u128);

impl Debug for Mass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        v.fmt(f)
    }
}

impl Ord for Mass {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let (a, b) = (self.0, other.0);
        a.cmp(&b)
    }
}

impl PartialOrd for Mass {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::ops::Add for Mass {
    type Output = Mass;
    fn add(self, other: Mass) -> Mass {
        let (a, b) = (self.0, other.0);
        Mass(a + b)
    }
}

impl num_traits::Zero for Mass {
    fn zero() -> Self {
        Mass(0)
    }
    fn is_zero(&self) -> bool {
        let v = self.0;
        v == 0
    }
}

impl num_traits::ConstZero for Mass {
    const ZERO: Self = Mass(0);
}

impl Lane for Mass {
    const BITS: u32 = u128::BITS;
    const MASS: bool = true;
    #[inline]
    fn low(x: u128) -> Self {
        Mass(x)
    }
    #[inline]
    fn wide(self) -> u128 {
        self.0
    }
    #[inline]
    fn add(self, other: Self) -> (Self, bool) {
        let (a, b) = (self.0, other.0);
        let (sum, carry) = a.overflowing_add(b);
        (Mass(sum), carry)
    }
}

/// A key as a shard's table stores it (hashed also by the sparse map of high parts), and
/// as a layer file keeps it: its low `size_of::<Self>()` bytes.
pub(super) trait Key: SlotKey + Default + Hash + Send + Sync + 'static {
    fn wide(self) -> u128;
    fn narrow(x: u128) -> Self;
}

macro_rules! keys {
    ($($t:ty)*) => {$(
        impl Key for $t {
            #[inline]
            fn wide(self) -> u128 {
                self as u128
            }
            #[inline]
            fn narrow(x: u128) -> Self {
                x as $t
            }
        }
    )*};
}
keys!(u32 u64 u128);

/// How a canonical position is split into its shard and the key its shard's table stores,
/// and joined again.
pub(super) trait Codec<K>: Sync {
    type S: Key;
    fn split(&self, pos: K) -> (usize, Self::S);
    fn join(&self, shard: usize, key: Self::S) -> K;
}

/// The whole position as the key, the shard chosen by a hash of it: boards of more than
/// 38 holes ([`Packed`]).
pub(super) struct Whole;

impl<K: Bits + Key> Codec<K> for Whole {
    type S = K;
    #[inline]
    fn split(&self, pos: K) -> (usize, K) {
        (pos.shard(SHARDS), pos)
    }
    #[inline]
    fn join(&self, _: usize, key: K) -> K {
        key
    }
}

/// Boards of up to 38 holes ([`Packed`] with [`SHARDS`] shards): the position times an odd
/// constant, modulo `2^holes` (a bijection), names its shard by its top bits and is stored
/// as the rest, in 32 bits. Entries shrink by 4 or 8 bytes (docs/experiments.md, "Keys within a
/// shard").
impl Codec<u64> for Packed {
    type S = u32;
    #[inline]
    fn split(&self, pos: u64) -> (usize, u32) {
        Packed::split(self, pos)
    }
    #[inline]
    fn join(&self, shard: usize, key: u32) -> u64 {
        Packed::join(self, shard, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masses_take_twenty_bytes_beside_a_packed_key_and_flag_a_carry() {
        assert_eq!(size_of::<(u32, [Mass; 1])>(), 20);
        assert_eq!(size_of::<(u64, [Mass; 2])>(), 40);
        const { assert!(Mass::MASS && !<Wide as Lane>::MASS && !<u32 as Lane>::MASS) };
        let whole = Mass::low(1 << 124);
        assert_eq!(Lane::add(whole, whole), (Mass(1 << 125), false));
        assert_eq!(Lane::add(Mass(u128::MAX), Mass(2)), (Mass(1), true));
    }

    #[test]
    fn packed_keys_split_and_join_back() {
        let shard_bits = SHARDS.trailing_zeros() as usize;
        assert!(
            Packed::new(shard_bits, SHARDS).is_none(),
            "no bits left for the key"
        );
        assert!(
            Packed::new(32 + shard_bits + 1, SHARDS).is_none(),
            "key past 32 bits"
        );
        let mut x = 0x1234_5678_9abc_def1u64;
        for holes in [shard_bits + 1, 15, 33, 37, 32 + shard_bits] {
            let codec = Packed::new(holes, SHARDS).unwrap();
            let mut shards = [0usize; SHARDS];
            for _ in 0..20_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let pos = x >> (64 - holes);
                let (shard, key) = codec.split(pos);
                assert!(shard < SHARDS && u64::from(key) >> codec.low_bits() == 0);
                assert_eq!(codec.join(shard, key), pos, "{holes} holes, {pos:#x}");
                shards[shard] += 1;
            }
            if holes >= 15 {
                assert!(shards.iter().all(|&n| n > 150), "{holes} holes: {shards:?}");
            }
        }
    }
}
