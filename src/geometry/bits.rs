//! Bitboard widths. The engine is generic over [`Bits`]; [`crate::count::sweep::count`] picks
//! `u64` for boards of up to 64 holes and `u128` above, the one runtime choice of width.

use num_traits::PrimInt;
use std::fmt::Debug;
use std::hash::Hash;

/// An unsigned integer used as a set of holes.
pub trait Bits:
    PrimInt + num_traits::ConstZero + Hash + Debug + Default + Send + Sync + 'static
{
    /// How many holes fit.
    const BITS: usize;

    /// The mask of hole `i`.
    #[inline]
    fn bit(i: usize) -> Self {
        Self::one() << i
    }

    /// Narrows a `u128` mask (the API-level position type); the caller checks it fits.
    fn from_u128(x: u128) -> Self;

    /// Widens to the API-level position type.
    fn to_u128(self) -> u128;

    /// Byte number `chunk` (bits `8 * chunk ..`), as a table index.
    fn byte(self, chunk: usize) -> usize;

    /// A 64-bit digest for choosing a shard.
    fn fold64(self) -> u64;

    /// The shard of this key among `shards` (a power of two), by Fibonacci hashing.
    #[inline]
    fn shard(self, shards: usize) -> usize {
        (self.fold64().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - shards.trailing_zeros()))
            as usize
    }
}

impl Bits for u64 {
    const BITS: usize = 64;
    #[inline]
    fn from_u128(x: u128) -> Self {
        x as u64
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self as u128
    }
    #[inline]
    fn byte(self, chunk: usize) -> usize {
        (self >> (8 * chunk)) as usize & 0xff
    }
    #[inline]
    fn fold64(self) -> u64 {
        self
    }
}

impl Bits for u128 {
    const BITS: usize = 128;
    #[inline]
    fn from_u128(x: u128) -> Self {
        x
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline]
    fn byte(self, chunk: usize) -> usize {
        (self >> (8 * chunk)) as usize & 0xff
    }
    #[inline]
    fn fold64(self) -> u64 {
        (self as u64) ^ ((self >> 64) as u64).rotate_left(29)
    }
}
