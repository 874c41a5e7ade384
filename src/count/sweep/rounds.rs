//! The rounds of a pass on disk: how many entries each unit reads at once, so that the
//! buffers of children stay within their share of the budget.

use super::SHARDS;

/// The size of a round of [`Sweep::disk_pass`], so that a round's buffers of children take
/// the `share` of the budget: how many entries each of the `batch` units reads, from the
/// children an entry read made in each of the pass's shards in the rounds so far; and how
/// many entries each buffer reserves for them, a fifth more than its share of the children
/// was in the unit's last round. A unit's children spread over the shards unevenly, and
/// differently for each shard it reads, so the first round of a batch of readers reads
/// half as much, with room from the average over the shards read before. A buffer reserves
/// its room before each round, so that it does not grow (a `Vec` grows to twice its size),
/// and gives back what is past a quarter more.
#[derive(Debug)]
pub(super) struct Rounds {
    pub(super) share: u64,
    pub(super) batch: usize,
    /// Bytes of an entry with low and with high parts.
    pub(super) low_bytes: f64,
    pub(super) high_bytes: f64,
    /// Children per entry read in each shard of the pass, with low and with high parts:
    /// guessed, then measured.
    pub(super) per_read: Vec<(f64, f64)>,
    /// Entries a unit reads in a round, once its batch of readers has had one.
    pub(super) full: usize,
    /// Each buffer's room for the average unit that reads `full` entries.
    pub(super) room: Vec<(usize, usize)>,
    /// Whether `per_read` is measured.
    pub(super) measured: bool,
}

impl Rounds {
    pub(super) const SPREAD: f64 = 1.2;

    pub(super) fn new(
        share: u64,
        batch: usize,
        shards: usize,
        low_bytes: u64,
        high_bytes: u64,
    ) -> Self {
        let mut r = Rounds {
            share,
            batch,
            low_bytes: low_bytes as f64,
            high_bytes: high_bytes as f64,
            // About 8 children an entry, over every shard.
            per_read: vec![(8.0 / SHARDS as f64, 0.0); shards],
            full: 0,
            room: Vec::new(),
            measured: false,
        };
        // A quarter of the share until measured, so that a guess too low stays within it.
        r.plan(4.0);
        r
    }

    /// Plans the next rounds within `share` bytes.
    pub(super) fn set_share(&mut self, share: u64) {
        if share != self.share {
            self.share = share;
            self.plan(if self.measured { 1.0 } else { 4.0 });
        }
    }

    /// Plans the next rounds within a `1/fraction` of the share.
    pub(super) fn plan(&mut self, fraction: f64) {
        let per_read = self
            .per_read
            .iter()
            .map(|&(l, h)| l * self.low_bytes + h * self.high_bytes)
            .sum::<f64>()
            .max(1.0);
        let bytes = self.share as f64 / fraction / Self::SPREAD;
        self.full =
            ((bytes / (self.batch as f64 * per_read)) as u64).clamp(1 << 4, 1 << 20) as usize;
        let each = self.full as f64 * Self::SPREAD;
        self.room = self
            .per_read
            .iter()
            .map(|&(l, h)| ((each * l) as usize, (each * h).ceil() as usize))
            .collect();
    }

    /// The entries each unit reads in the next round: half as many in the `first` round of
    /// a batch of readers.
    pub(super) fn chunk(&self, first: bool) -> usize {
        if first {
            (self.full / 2).max(1)
        } else {
            self.full
        }
    }

    /// Readies a unit's buffer for a round of `chunk` entries: empty, with room for its
    /// children, from the `had` it took in its own last round of `last` entries, or else
    /// from `room`, the average buffer's room for [`Rounds::full`] entries.
    pub(super) fn ready<T>(
        &self,
        buffer: &mut Vec<T>,
        had: usize,
        room: usize,
        chunk: usize,
        last: Option<usize>,
    ) {
        let want = match last {
            Some(last) => (had as f64 * chunk as f64 / last.max(1) as f64 * Self::SPREAD) as usize,
            None => (room as f64 * chunk as f64 / self.full as f64) as usize,
        } + 4;
        buffer.clear();
        if buffer.capacity() > want + want / 4 {
            buffer.shrink_to(want);
        }
        buffer.reserve_exact(want);
    }

    /// Takes in a round's measure: `read` entries by `units` units reading up to `chunk`
    /// each made `made[i]` children (low and high) in the pass's shard `i`. A round too
    /// small to tell (the last of a batch) changes nothing.
    pub(super) fn measured(&mut self, read: u64, made: &[(u64, u64)], units: usize, chunk: usize) {
        if read == 0 || read < (units as u64 * chunk as u64) / 2 {
            return;
        }
        let read = read as f64;
        self.per_read = made
            .iter()
            .map(|&(l, h)| (l as f64 / read, h as f64 / read))
            .collect();
        self.measured = true;
        self.plan(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_keep_their_buffers_within_the_share() {
        let (share, batch, low, high) = (8u64 << 20, 4usize, 44u64, 176u64);
        let mut r = Rounds::new(share, batch, 32, low, high);
        // Before a measure: a quarter of the share, for 8 children an entry over 64 shards.
        let guessed = r.chunk(false) as f64 * batch as f64 * 4.0 * low as f64;
        assert!(
            guessed <= share as f64 / 4.0 && guessed > share as f64 / 5.0,
            "{guessed}"
        );
        // Twice as many children as guessed, half of them in the first shard, some carrying.
        let read = (batch * r.chunk(false)) as u64;
        let mut made = vec![(read / 4, 0); 32];
        made[0] = (read * 8, read / 10);
        r.measured(read, &made, batch, r.chunk(false));
        let bytes = |chunk: usize| {
            let per_read = made
                .iter()
                .map(|&(l, h)| (l * low + h * high) as f64 / read as f64)
                .sum::<f64>();
            chunk as f64 * batch as f64 * per_read
        };
        let full = r.chunk(false);
        assert!(
            bytes(full) * Rounds::SPREAD <= share as f64,
            "{}",
            bytes(full)
        );
        assert!(
            bytes(full) * Rounds::SPREAD > share as f64 * 0.9,
            "{}",
            bytes(full)
        );
        // A first round of a batch of readers reads half as much.
        assert_eq!(r.chunk(true), full / 2);
        // The room of each buffer follows its shard: the first holds most, the average
        // unit's room summed over the units is the share.
        let room: u64 = r
            .room
            .iter()
            .map(|&(l, h)| l as u64 * low + h as u64 * high)
            .sum();
        assert!(room * batch as u64 <= share && room * batch as u64 > share * 9 / 10);
        assert!(r.room[0].0 > 30 * r.room[1].0 && r.room[0].1 > 0 && r.room[1].1 == 0);
        // A buffer gets the room of its own last round, a fifth more, and gives back what
        // is past a quarter more than that.
        let mut buffer: Vec<u64> = vec![0; 1000];
        r.ready(&mut buffer, 1000, 0, full, Some(full));
        assert!(buffer.is_empty() && buffer.capacity() >= 1204);
        let mut big: Vec<u64> = Vec::with_capacity(100_000);
        r.ready(&mut big, 100, 0, full, Some(full));
        assert!(big.capacity() < 200, "{}", big.capacity());
        // What it took, not what it holds (an exchange between ranks empties the buffers
        // of other ranks' shards before the next round).
        let mut sent: Vec<u64> = Vec::with_capacity(1204);
        r.ready(&mut sent, 1000, 0, full, Some(full));
        assert_eq!(sent.capacity(), 1204);
        // Smaller shares, as the tables grow, plan smaller rounds.
        r.set_share(share / 4);
        assert!(r.chunk(false) <= full / 4 + 1);
        // A round too small to tell (the last of a batch) changes nothing.
        let before = r.chunk(false);
        r.measured(10, &vec![(1000, 0); 32], batch, before);
        assert_eq!(r.chunk(false), before);
    }
}
