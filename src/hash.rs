//! The pieces every hash table of the engines shares (the sweep's shards and slots, the
//! solvable passes' tables and filters, `solve`'s table of hopeless positions): the odd
//! multipliers of their multiplicative hashes, and the processor's prefetch hint.
//!
//! A table takes the top bits of `key * multiplier`. Two tables that see the same keys use
//! different multipliers, so that the keys of one shard (all alike in the shard hash's top
//! bits) spread out over the shard's own table.
//!
//! ```
//! use pegsol::hash::{FIBONACCI, MIX, SPREAD};
//! // Odd, so that multiplying is a bijection of 64-bit words.
//! assert!(FIBONACCI % 2 == 1 && MIX % 2 == 1 && SPREAD % 2 == 1);
//! // The shard of a key is the top 6 bits of its Fibonacci hash (64 shards).
//! assert_eq!(1u64.wrapping_mul(FIBONACCI) >> 58, 39);
//! ```

/// 2^64 divided by the golden ratio (Fibonacci hashing): the shard of a key
/// ([`crate::geometry::bits::Bits::shard`]), the packed keys' mixing
/// ([`crate::geometry::bits::Packed`]), `solve`'s buckets.
pub const FIBONACCI: u64 = 0x9E37_79B9_7F4A_7C15;

/// The tables inside a shard: the sweep's slots (`count/slots.rs`), the solvable passes'
/// tables, places and deduplication.
pub const MIX: u64 = 0xD6E8_FEB8_6659_FD93;

/// A third multiplier, for a table that sees the same keys as both others (the solvable
/// passes' key filter).
pub const SPREAD: u64 = 0xA076_1D64_78BD_642F;

/// Asks the processor to bring in the cache line at `at`, which need not be allocated: a
/// prefetch is only a hint.
///
/// ```
/// let v = vec![1u64; 8];
/// pegsol::hash::prefetch(v.as_ptr().wrapping_add(1_000)); // past the end: still a hint
/// ```
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn prefetch<T>(at: *const T) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    // SAFETY: a prefetch reads nothing and cannot fault, whatever the address.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(at.cast()) }
}

/// Asks the processor to bring in the cache line at `at`: a hint this target does not take.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub fn prefetch<T>(_: *const T) {}
