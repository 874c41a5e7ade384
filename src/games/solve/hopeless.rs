//! The table of positions proved hopeless, shared by every work unit of a search
//! ([`HopelessTable`]).

use super::*;

/// Positions proved hopeless (every jump tried, no goal reached), in canonical form under the
/// goal's symmetries, shared by every work unit of a search.
///
/// For boards of up to 64 holes it is a lock-free table of `AtomicU64` buckets of eight
/// slots (one cache line): a probe reads one line; an insert fills an empty slot of the
/// key's bucket or, when the bucket is full, replaces the key with the fewest pegs (the
/// cheapest to prove again). Forgetting a position is always safe, since the search then
/// only proves it again, and a key is never half written, so a hit is always a position
/// that was proved hopeless. Above 64 holes: a `DashSet` of `u128` keys, never forgetting.
pub struct HopelessTable {
    kind: TableKind,
}

/// One cache line of eight slots; 0 marks an empty slot (a stored position has pegs).
#[repr(align(64))]
struct Bucket([std::sync::atomic::AtomicU64; 8]);

enum TableKind {
    Atomic(Buckets),
    Dash(dashmap::DashSet<u128, Hasher>),
}

/// The buckets of the lock-free table, in an anonymous memory map whose pages the system
/// hands out zeroed when they are first written, and a bitmap of the pages written so far.
/// A probe of a page not yet written answers "not there" without reading it, and an
/// insert writes such a page before it reads it: a page read first would map the shared
/// zero page, and the write after it would then flush every core's TLB. So the part of the
/// table a search never reaches costs neither time nor memory. (`std::alloc::alloc_zeroed`
/// writes the zeros itself for an alignment of 64, which costs time and memory for a
/// short search: docs/experiments.md, "Figures that were in code comments".)
struct Buckets {
    map: memmap2::MmapMut,
    len: usize,
    /// Bit `p` set once page `p` of the map (`BUCKETS_PER_PAGE` buckets) has been written.
    written: Box<[std::sync::atomic::AtomicU64]>,
}

/// Buckets in a page of 4 KiB.
const BUCKETS_PER_PAGE: usize = 4096 / size_of::<Bucket>();

impl Buckets {
    /// `len` buckets (a power of two), all slots 0 (empty), no page written; fewer, halved
    /// until the system grants the mapping, when it refuses it (an address-space limit,
    /// `ulimit -v`: `extremes --board french` aborted on a 128 MiB table): the table only
    /// remembers positions known to be hopeless, so a smaller one costs time, never an
    /// answer. Aborts, as a failed allocation does, when even 1,024 buckets are refused.
    fn zeroed(len: usize) -> Buckets {
        let mut len = len;
        let map = loop {
            let layout = std::alloc::Layout::array::<Bucket>(len).expect("a table that fits");
            match memmap2::MmapMut::map_anon(layout.size()) {
                Ok(map) => break map,
                Err(_) if len > 1024 => len /= 2,
                Err(_) => std::alloc::handle_alloc_error(layout),
            }
        };
        // A mapping starts on a page boundary, so every bucket is aligned to 64.
        assert_eq!(map.as_ptr() as usize % align_of::<Bucket>(), 0);
        let pages = len.div_ceil(BUCKETS_PER_PAGE);
        let written = (0..pages.div_ceil(64))
            .map(|_| std::sync::atomic::AtomicU64::new(0))
            .collect();
        Buckets { map, len, written }
    }

    /// Whether the page of bucket `i` has been written ([`Buckets::mark`]).
    #[inline]
    fn is_written(&self, i: usize) -> bool {
        let p = i / BUCKETS_PER_PAGE;
        self.written[p / 64].load(std::sync::atomic::Ordering::Relaxed) >> (p % 64) & 1 == 1
    }

    /// Records that the page of bucket `i` has been written.
    #[inline]
    fn mark(&self, i: usize) {
        let p = i / BUCKETS_PER_PAGE;
        self.written[p / 64].fetch_or(1 << (p % 64), std::sync::atomic::Ordering::Relaxed);
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: the mapping holds `len` buckets' bytes, is aligned for them (checked in
        // `zeroed`) and lives as long as `self`; all-zero bytes are a valid bucket (eight
        // `AtomicU64` of 0), and every later write goes through those atomics.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<Bucket>(), self.len) }
    }
}

impl HopelessTable {
    /// A table of at most `max_bytes` (at least 64 KiB, at most 1 GiB for the lock-free
    /// table, which is sized once), for keys of `holes` holes.
    ///
    /// ```
    /// use pegsol::games::solve::HopelessTable;
    /// let t = HopelessTable::new(33, 1 << 20);
    /// assert!(!t.contains(0b1011));
    /// t.insert(0b1011);
    /// assert!(t.contains(0b1011));
    /// ```
    pub fn new(holes: usize, max_bytes: u64) -> Self {
        if holes > 64 {
            return HopelessTable {
                kind: TableKind::Dash(dashmap::DashSet::with_hasher(hasher())),
            };
        }
        // 2^(holes - 9) slots, from 2^13 to 2^24 (128 MiB: english, french); 2^27 (1 GiB)
        // above 40 holes; within the budget.
        let want: u64 = if holes > 40 {
            1 << 27
        } else {
            1 << holes.saturating_sub(9).clamp(13, 24)
        };
        let fit = (max_bytes / 8).max(8192);
        let buckets = (want.min(1 << fit.ilog2()) / 8) as usize;
        let table = Buckets::zeroed(buckets);
        HopelessTable {
            kind: TableKind::Atomic(table),
        }
    }

    /// The bucket of `key` (a power-of-two number of buckets).
    #[inline]
    fn bucket(buckets: &[Bucket], key: u64) -> usize {
        (key.wrapping_mul(crate::hash::FIBONACCI) >> 32) as usize & (buckets.len() - 1)
    }

    /// Whether `key` (a canonical position with at least one peg, as [`HopelessTable::insert`]
    /// takes; the empty position is not a key, since 0 marks an empty slot) was recorded as
    /// hopeless.
    ///
    /// ```
    /// use pegsol::games::solve::HopelessTable;
    /// for holes in [33, 80] { // the lock-free table, and the set above 64 holes
    ///     let t = HopelessTable::new(holes, 1 << 20);
    ///     assert!(!t.contains(0b1011));
    ///     t.insert(0b1011);
    ///     assert!(t.contains(0b1011) && !t.contains(0b0111));
    /// }
    /// ```
    #[inline]
    pub fn contains(&self, key: u128) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        match &self.kind {
            TableKind::Atomic(b) => {
                let key = key as u64;
                let i = Self::bucket(b, key);
                // A page never written holds nothing; reading it would map the zero page.
                b.is_written(i) && b[i].0.iter().any(|s| s.load(Relaxed) == key)
            }
            TableKind::Dash(d) => d.contains(&key),
        }
    }

    /// Records `key` (a canonical position with at least one peg) as hopeless.
    ///
    /// ```
    /// use pegsol::games::solve::HopelessTable;
    /// let t = HopelessTable::new(33, 0); // the smallest table: 1,024 buckets of 8
    /// let keys: Vec<u128> = (1..=100).map(|k| k << 20 | 0b111).collect();
    /// for &k in &keys {
    ///     t.insert(k);
    ///     t.insert(k); // twice: kept once
    /// }
    /// assert!(keys.iter().all(|&k| t.contains(k)));
    /// ```
    #[inline]
    pub fn insert(&self, key: u128) {
        use std::sync::atomic::Ordering::Relaxed;
        match &self.kind {
            TableKind::Atomic(b) => {
                let key = key as u64;
                let i = Self::bucket(b, key);
                let slots = &b[i].0;
                if !b.is_written(i) {
                    // Written before it is read (a compare-exchange is a write): the page
                    // comes in fresh, not as the zero page copied. If another thread got
                    // there first, its key is in slot 0 and the page is in; go on below.
                    let first = slots[0].compare_exchange(0, key, Relaxed, Relaxed);
                    b.mark(i);
                    if first.is_ok() {
                        return;
                    }
                }
                let mut victim = 0;
                let mut fewest = u32::MAX;
                for (i, s) in slots.iter().enumerate() {
                    let x = s.load(Relaxed);
                    if x == key {
                        return;
                    }
                    if x == 0 {
                        if s.compare_exchange(0, key, Relaxed, Relaxed).is_ok() {
                            return;
                        }
                        continue;
                    }
                    if x.count_ones() < fewest {
                        fewest = x.count_ones();
                        victim = i;
                    }
                }
                if fewest <= key.count_ones() {
                    slots[victim].store(key, Relaxed);
                }
            }
            TableKind::Dash(d) => {
                d.insert(key);
            }
        }
    }
}
