//! The plan of a layer: guesses of the next layer's size, narrow or wide lanes, the passes
//! of a layer on disk, the batch of work units, and [`Budget`], which owns every fraction
//! of `--max-memory` the engine plans with.

use super::SHARDS;
use crate::count::slots;
use std::ops::Range;

/// The memory budget of a sweep (`--max-memory`, each rank's), and the fractions of it
/// that each part of a layer may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Budget(pub(super) u64);

impl Budget {
    /// The least budget a sweep takes per worker thread. Each worker fills buffers of
    /// children for every shard, and a pass whose buffers outgrow the budget is run again
    /// split in two: below 16 KiB a thread, passes split until every shard is one and the
    /// sweep crawls (tri:6 at 64K: 8 s on 4 threads, 45 s on 32, minutes on 1,024).
    pub(super) const MIN_PER_THREAD: u64 = 16 << 10;

    /// Whether `threads` workers each get [`Budget::MIN_PER_THREAD`].
    pub(super) fn enough_for(self, threads: u64) -> bool {
        self.0 / threads >= Self::MIN_PER_THREAD
    }

    /// Whether a layer is swept in memory: the current layer's tables (`held` bytes), the
    /// next one's (`next` bytes of entries, about twice that with the load factor and
    /// growth), and the children buffers (`buffers` bytes after the last layer, grown as
    /// the layers grow by `growth`) within four fifths of the budget.
    pub(super) fn fits_memory_layer(self, held: u64, next: u64, buffers: u64, growth: f64) -> bool {
        let need = held as f64 + 2.0 * next as f64 + buffers as f64 * growth.max(1.0);
        need <= 0.8 * self.0 as f64
    }

    /// The bytes the tables of one pass on disk may take: seven eighths of the budget (at
    /// least one), the rest for the buffers of children ([`Budget::buffer_share`]).
    pub(super) fn tables_room(self) -> u64 {
        (self.0 - self.0 / 8).max(1)
    }

    /// The bytes a round's buffers of children may take beside tables of `tables` bytes:
    /// what the tables leave less a thirty-second for what no plan sees (the sparse maps of
    /// carries, the readers), at least a sixty-fourth and at most an eighth of the budget,
    /// as [`pass_ranges`] plans. The tables reserved in 7/8 and the buffers in 1/8 left
    /// nothing spare, and the tri:7 table at 48M outgrew the budget by a fraction of a
    /// percent in 9 passes of 25, each then run again split in two.
    pub(super) fn buffer_share(self, tables: u64) -> u64 {
        let b = self.0;
        b.saturating_sub(tables + b / 32).clamp(b / 64, b / 8)
    }

    /// Whether `bytes` held stay within the budget.
    pub(super) fn holds(self, bytes: u64) -> bool {
        bytes <= self.0
    }
}

/// The passes of a layer on disk ([`Sweep::disk_layer`]), as ranges of next-layer shards,
/// last pass first: the next layer's tables, `guess` entries of `entry_bytes` each with the
/// slack of the load factor and a tenth for a low guess, split into as few passes of about
/// equal size as fit seven eighths of `budget`. The buffers of children take what the
/// tables leave ([`Rounds`]).
///
/// `carry_bytes` is what the sparse maps of the counts that carry past narrow lanes will
/// take ([`carry_bytes`]): planned with the tables, since tri:8 from a1 at 12G, whose
/// layer 17 was guessed within 0.01% and planned in one pass, outgrew it through 78
/// million carrying entries and ran it again in two.
pub(super) fn pass_ranges(
    guess: u64,
    entry_bytes: u64,
    carry_bytes: u64,
    budget: u64,
) -> Vec<Range<usize>> {
    let (num, den) = slots::MAX_LOAD;
    let tables = guess as u128 * entry_bytes as u128 * den as u128 * 11 / (num as u128 * 10)
        + carry_bytes as u128;
    let room = u128::from(Budget(budget).tables_room());
    split_shards(tables.div_ceil(room).clamp(1, SHARDS as u128) as usize)
}

/// The [`SHARDS`] shards in `passes` ranges of about equal size, last first.
pub(super) fn split_shards(passes: usize) -> Vec<Range<usize>> {
    let per_pass = SHARDS.div_ceil(passes.clamp(1, SHARDS));
    (0..SHARDS)
        .step_by(per_pass)
        .map(|a| a..(a + per_pass).min(SHARDS))
        .rev()
        .collect()
}

/// The guess of a layer on disk: the last growth ratio times its change from the one
/// before, when three layers are known. On the tri:8 sweeps (five classes, layers 14 to
/// 24) this came within 2% of every layer, where [`guess_next`] was 12% to 20% high, which
/// cost a third pass in the widest layers (docs/experiments.md, "A second-order guess of
/// the next layer on disk", 25 November 2026). It is
/// never below four fifths of [`guess_next`], and a pass reserves the tenth more that
/// [`pass_ranges`] plans for, so a low guess grows no table.
pub(super) fn guess_on_disk(entries: u64, previous: usize, before_previous: usize) -> u64 {
    let first = guess_next(entries, previous);
    if previous == 0 || before_previous == 0 || entries == 0 {
        return first;
    }
    let (e, p, b) = (entries as f64, previous as f64, before_previous as f64);
    let second = e * (e / p) * (e / p) / (p / b);
    (second as u64).max(first / 5 * 4)
}

/// Whether the layer after `now` (`[carried, entries]`, the layer before it `before`)
/// keeps narrow lanes: while at most one entry in 64 carries into the high parts, and, on
/// disk, while the carries' growth foretells fewer than one entry in 11 carrying in the
/// next layer (their share times its last growth, at most 16-fold).
///
/// One in 11 is where the two widths hold about the same memory on disk: a narrow entry
/// takes 8 bytes in a table at most 4/5 full, plus, when it carries, a slot of the sparse
/// map (33 bytes at most 7/8 full, about half again for its growth by doubling; the rare
/// high parts past 2^128 take wider slots, in a second map); a wide entry takes 12. The
/// tri:8 sweeps' last narrow layer with 13% to 17% of entries carrying (a3, b3) ran at
/// 0.6-0.7 million entries a second against 0.8-1.1 in the wide layer after it, and made
/// a3's peak memory, 1.2 GiB past `--max-memory`; with 8% (a2) both widths ran alike
/// (docs/experiments.md, "Carries and the memory budget on disk", 26 November 2026).
/// There the share had grown 16- to 7,000-fold from
/// the layer before, so the disk path now widens a layer earlier.
pub(super) fn stays_narrow(before: [u64; 2], now: [u64; 2], on_disk: bool) -> bool {
    let [carried, entries] = now;
    if carried.saturating_mul(64) > entries {
        return false;
    }
    if !on_disk || carried == 0 {
        return true;
    }
    foretold_carry_share(before, now) * 11.0 <= 1.0
}

/// The share of the next layer's entries foretold to carry past narrow lanes, from the
/// layer `now` and the one `before` (`[carried, entries]` each): the share of `now` times
/// its growth from `before`, at most 16-fold (16-fold when `before` carried nothing or is
/// unknown), at most 1.
pub(super) fn foretold_carry_share(before: [u64; 2], now: [u64; 2]) -> f64 {
    let share = now[0] as f64 / now[1].max(1) as f64;
    if share == 0.0 {
        return 0.0;
    }
    let earlier = before[0] as f64 / before[1].max(1) as f64;
    let growth = if earlier > 0.0 {
        (share / earlier).clamp(1.0, 16.0)
    } else {
        16.0
    };
    (share * growth).min(1.0)
}

/// The bytes the sparse maps of `carrying` entries take at their peak, each entry a slot of
/// `slot` bytes and a control byte in a map at most 7/8 full ([`super::shard::Highs`]),
/// half again while it doubles.
pub(super) fn carry_bytes(carrying: u64, slot: u64) -> u64 {
    carrying.saturating_mul(slot + 1).saturating_mul(12) / 7
}

/// The guess of the next layer's entries from the growth of the last.
pub(super) fn guess_next(entries: u64, previous: usize) -> u64 {
    if previous == 0 {
        entries.saturating_mul(8)
    } else {
        (entries as f64 * (entries as f64 / previous as f64)) as u64
    }
}

/// Work units expanded at once: two per thread, at least 4, at most every shard.
pub(super) fn batch_units() -> usize {
    (2 * rayon::current_num_threads()).clamp(4, SHARDS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_splits_as_planned() {
        let b = Budget(64 << 20);
        // 64 MiB over 4 threads is plenty; 64 KiB over 8 threads is 8 KiB each, too little.
        assert!(b.enough_for(4));
        assert!(!Budget(64 << 10).enough_for(8) && Budget(64 << 10).enough_for(4));
        // Four fifths: 40 MiB held, 4 MiB of next entries (8 with slack), 2 MiB of buffers
        // doubling: 52 MiB of 51.2 allowed.
        assert!(!b.fits_memory_layer(40 << 20, 4 << 20, 2 << 20, 2.0));
        assert!(b.fits_memory_layer(40 << 20, 4 << 20, 2 << 20, 1.5));
        // Buffers never shrink below their size when layers shrink.
        assert!(!b.fits_memory_layer(40 << 20, 4 << 20, 4 << 20, 0.5));
        assert_eq!(b.tables_room(), 56 << 20);
        assert_eq!(Budget(0).tables_room(), 1);
        // Empty tables leave the buffers an eighth; full ones a sixty-fourth; in between,
        // what the tables leave less a thirty-second.
        assert_eq!(b.buffer_share(0), 8 << 20);
        assert_eq!(b.buffer_share(64 << 20), 1 << 20);
        assert_eq!(b.buffer_share(58 << 20), 4 << 20);
        assert!(b.holds(64 << 20) && !b.holds((64 << 20) + 1));
    }

    #[test]
    fn passes_split_the_shards_evenly() {
        // 1 billion entries of 12 bytes on 12 GiB: 16.5 GB of tables, two passes of 32.
        assert_eq!(
            pass_ranges(1_000_000_000, 12, 0, 12 << 30),
            vec![32..64, 0..32]
        );
        // Of 16 bytes on 8 GiB: 22 GB, three passes of 22, 22 and 20 shards.
        assert_eq!(
            pass_ranges(1_000_000_000, 16, 0, 8 << 30),
            vec![44..64, 22..44, 0..22]
        );
        // A small layer is one pass; a budget too small for one shard still gives 64.
        assert_eq!(pass_ranges(1000, 8, 0, 1 << 20), vec![0..64]);
        assert_eq!(pass_ranges(1 << 40, 16, 0, 1 << 20).len(), 64);
    }

    #[test]
    fn the_disk_guess_follows_the_change_of_growth() {
        // tri:8 from a2 (docs/experiments.md, "A second-order guess of the next layer on
        // disk", 25 November 2026): layers 15, 16 and 17 held
        // 1,129,895,776, 1,645,773,708 and 2,002,288,537 entries; layer 18 held
        // 2,050,002,306, in 12-byte entries.
        let (l15, l16): (usize, usize) = (1_129_895_776, 1_645_773_708);
        let (l17, l18): (u64, u64) = (2_002_288_537, 2_050_002_306);
        let first = guess_next(l17, l16);
        let second = guess_on_disk(l17, l16, l15);
        assert!(first > l18 * 118 / 100, "{first}");
        assert!(second.abs_diff(l18) < l18 / 50, "{second}");
        // Within 18G that is two passes instead of three.
        assert_eq!(pass_ranges(first, 12, 0, 18 << 30).len(), 3);
        assert_eq!(pass_ranges(second, 12, 0, 18 << 30).len(), 2);
        // Without the layer before the previous one, the first-order guess.
        assert_eq!(guess_on_disk(l17, l16, 0), first);
        // A turn from doubling to halving is not followed below four fifths of the
        // first-order guess (500 here; the second-order one would be 125).
        assert_eq!(guess_next(1000, 2000), 500);
        assert_eq!(guess_on_disk(1000, 2000, 1000), 400);
    }

    #[test]
    fn the_disk_path_widens_before_carries_swell() {
        // Layers 14 to 16 of the tri:8 sweeps (docs/experiments.md, 25 and 26 November
        // 2026): [carried entries, entries].
        let a3 = [
            [0, 802_944_932],
            [1_396, 1_320_159_932],
            [13_594_714, 1_822_333_430],
        ];
        // After layer 15, few carries: narrow. After layer 16, a share of 0.75% grown
        // 7,000-fold: wide for layer 17, which carried 287 million of 2.1 billion (13.5%).
        assert!(stays_narrow(a3[0], a3[1], true));
        assert!(!stays_narrow(a3[1], a3[2], true));
        // In memory, only the carries of the finished layer count.
        assert!(stays_narrow(a3[1], a3[2], false));
        // b3: the same turn at layer 16 (1.4% carrying; 16.8% in layer 17).
        let b3 = [
            [0, 266_070_041],
            [7_997, 474_101_721],
            [9_891_914, 715_647_599],
        ];
        assert!(stays_narrow(b3[0], b3[1], true));
        assert!(!stays_narrow(b3[1], b3[2], true));
        // a2 stays narrow for layer 17 (0.18% foretells 2.9%; it carried 8.1%, where both
        // widths cost alike).
        let a2 = [[0, 1_129_895_776], [2_966_800, 1_645_773_708]];
        assert!(stays_narrow(a2[0], a2[1], true));
        // c5 (0.1% after layer 15) and d7 stay narrow for layer 16, which then carried
        // 6.2% and 2.5%, past one in 64: both widen from layer 17 on either path.
        let c5 = [
            [0, 434_374_107],
            [729_880, 696_725_006],
            [58_130_031, 942_178_837],
        ];
        assert!(stays_narrow(c5[0], c5[1], true));
        assert!(!stays_narrow(c5[1], c5[2], false));
        let d7 = [
            [0, 321_321_133],
            [86_774, 551_996_165],
            [19_907_970, 802_062_061],
        ];
        assert!(stays_narrow(d7[0], d7[1], true));
        assert!(!stays_narrow(d7[1], d7[2], false));
        // No layer before, or none carrying: narrow unless the share is past 1/64 already.
        assert!(stays_narrow([0, 0], [0, 1_000], true));
        assert!(!stays_narrow([0, 0], [16, 1_000], true));
    }

    #[test]
    fn passes_leave_room_for_the_carries_foretold() {
        // tri:8 from a1 within 12G, 2 December 2026: layer 16 held 799,484,744 entries,
        // 1,480,467 of them carrying (none in layer 15); layer 17 was guessed at 979,356,897
        // narrow entries of 8 bytes. Without its carries that is one pass (10.0 of the 10.5
        // GiB the tables may take), which outgrew the budget; the 2.96% foretold to carry
        // (78 million did, 8%), in slots of 32 bytes, make it two.
        let (l16, carried) = (799_484_744, 1_480_467);
        let share = foretold_carry_share([0, 546_248_430], [carried, l16]);
        assert!((share - 16.0 * carried as f64 / l16 as f64).abs() < 1e-12);
        let guess = 979_356_897u64;
        let carries = carry_bytes((guess as f64 * share) as u64, 32);
        assert_eq!(pass_ranges(guess, 8, 0, 12 << 30).len(), 1);
        assert_eq!(pass_ranges(guess, 8, carries, 12 << 30).len(), 2);
        // A growth known from the layer before is followed (here 4-fold), and a share never
        // passes the whole.
        assert!((foretold_carry_share([1, 400], [1, 100]) - 0.04).abs() < 1e-12);
        assert_eq!(foretold_carry_share([0, 0], [1, 2]), 1.0);
        assert_eq!(foretold_carry_share([5, 10], [0, 10]), 0.0);
        // Seven slots of 32 bytes: 33 bytes each over 7/8, half again: 396 bytes.
        assert_eq!(carry_bytes(7, 32), 396);
    }
}
