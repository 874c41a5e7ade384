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
        (self.fold64().wrapping_mul(crate::hash::FIBONACCI) >> (64 - shards.trailing_zeros()))
            as usize
    }
}

/// `u64` for boards of up to 64 holes, and `u32` for the packed keys of [`Packed`].
macro_rules! narrow_bits {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            const BITS: usize = <$t>::BITS as usize;
            #[inline]
            fn from_u128(x: u128) -> Self {
                x as $t
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
                self as u64
            }
        }
    )*};
}

narrow_bits!(u32, u64);

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

/// A position split into a shard and a key of 32 bits, for boards of up to
/// `32 + log2(shards)` holes: the position times an odd constant, modulo `2^holes` (a
/// bijection), names its shard by its top bits and is stored as the rest. The count engine
/// keeps its tables' keys so, and `solvable` its buffers of children (docs/experiments.md, "Keys
/// within a shard").
///
/// ```
/// use pegsol::geometry::bits::Packed;
/// let p = Packed::new(33, 256).unwrap();
/// let pos = 0x1_2345_6789u64;
/// let (shard, key) = p.split(pos);
/// assert!(shard < 256 && key < 1 << 25);
/// assert_eq!(p.join(shard, key), pos);
/// assert!(Packed::new(41, 256).is_none() && Packed::new(8, 256).is_none());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Packed {
    /// Bits of the stored key: `holes - log2(shards)`.
    low: u32,
    /// `2^holes - 1`.
    mask: u64,
    /// The inverse of [`Packed::MIX`] modulo `2^64`.
    inv: u64,
}

impl Packed {
    const MIX: u64 = crate::hash::FIBONACCI;

    /// The split for boards of `holes` holes into `shards` shards (a power of two), if a
    /// key then fits 32 bits and keeps at least one.
    ///
    /// ```
    /// use pegsol::geometry::bits::Packed;
    /// assert_eq!(Packed::new(37, 64).map(|p| p.low_bits()), Some(31));
    /// assert!(Packed::new(39, 64).is_none());
    /// ```
    pub fn new(holes: usize, shards: usize) -> Option<Self> {
        let shard_bits = shards.trailing_zeros() as usize;
        if holes <= shard_bits || holes > 32 + shard_bits {
            return None;
        }
        // Newton's iteration doubles the correct low bits of the inverse (3 to start).
        let mut inv = Self::MIX;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(Self::MIX.wrapping_mul(inv)));
        }
        debug_assert_eq!(inv.wrapping_mul(Self::MIX), 1);
        Some(Packed {
            low: (holes - shard_bits) as u32,
            mask: u64::MAX >> (64 - holes),
            inv,
        })
    }

    /// Bits of a key: `holes - log2(shards)`.
    ///
    /// ```
    /// use pegsol::geometry::bits::Packed;
    /// assert_eq!(Packed::new(33, 256).unwrap().low_bits(), 25);
    /// ```
    pub fn low_bits(&self) -> u32 {
        self.low
    }

    /// The shard and key of `pos` (below `2^holes`).
    ///
    /// ```
    /// use pegsol::geometry::bits::Packed;
    /// let p = Packed::new(15, 64).unwrap();
    /// let (shard, key) = p.split(0x7fff);
    /// assert_eq!(p.join(shard, key), 0x7fff);
    /// ```
    #[inline]
    pub fn split(&self, pos: u64) -> (usize, u32) {
        let m = pos.wrapping_mul(Self::MIX) & self.mask;
        ((m >> self.low) as usize, (m & ((1 << self.low) - 1)) as u32)
    }

    /// The position that [`Packed::split`] made `(shard, key)`.
    ///
    /// ```
    /// use pegsol::geometry::bits::Packed;
    /// let p = Packed::new(36, 64).unwrap();
    /// assert_eq!(p.join(0, 0), 0);
    /// ```
    #[inline]
    pub fn join(&self, shard: usize, key: u32) -> u64 {
        ((shard as u64) << self.low | u64::from(key)).wrapping_mul(self.inv) & self.mask
    }
}
