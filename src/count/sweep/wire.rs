//! The sweep's wire formats between ranks, and the exchanges that use them: a layer's
//! tallies ([`LayerAcc::gather`]), children bound for other ranks' shards ([`trade`]) and
//! canonical forms routed by hash ([`route_forms`]). [`Cluster`] moves the bytes.

use super::SHARDS;
use super::lanes::{Key, Lane};
use super::run::Run;
use super::shard::Out;
use super::tally::LayerAcc;
use crate::count::cluster::Cluster;
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use crate::total::Total;
use rayon::prelude::*;
use std::time::Instant;

impl<const N: usize> LayerAcc<N> {
    /// The layer's statistics over every rank of `cluster`, the same on every rank (a
    /// collective): each rank's, added exactly.
    pub(super) fn gather(self, cluster: &Cluster) -> Result<Self> {
        if cluster.size() == 1 {
            return Ok(self);
        }
        let mut total = LayerAcc::default();
        for bytes in cluster.all_gather(&self.to_bytes()) {
            total.absorb(LayerAcc::from_bytes(&bytes)?)?;
        }
        Ok(total)
    }

    pub(super) fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        for k in 0..N {
            b.extend(self.positions[k].to_le_bytes());
            b.extend(self.dead_ends[k].to_le_bytes());
            b.extend(self.reached[k].to_le_bytes());
            b.extend(self.games_ended[k].to_le_bytes());
            b.extend(self.least_end[k].to_le_bytes());
        }
        for &(k, hole, wins) in &self.finish {
            b.extend((k as u64).to_le_bytes());
            b.extend((hole as u64).to_le_bytes());
            b.extend(wins.to_le_bytes());
        }
        b
    }

    pub(super) fn from_bytes(b: &[u8]) -> Result<Self> {
        let mut r = Bytes(b);
        let mut acc = LayerAcc::default();
        for k in 0..N {
            acc.positions[k] = r.u64()?;
            acc.dead_ends[k] = r.u64()?;
            acc.reached[k] = r.u64()?;
            acc.games_ended[k] = r.total()?;
            acc.least_end[k] = r.u128()?;
        }
        while !r.0.is_empty() {
            acc.finish
                .push((r.u64()? as usize, r.u64()? as usize, r.total()?));
        }
        Ok(acc)
    }
}

/// Reads little-endian numbers off the front of a message from another rank.
pub(super) struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    pub(super) fn take(&mut self, n: usize) -> Result<u128> {
        if self.0.len() < n {
            return Err(Error::input("a message from another rank ended early"));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        let mut x = [0u8; 16];
        x[..n].copy_from_slice(head);
        Ok(u128::from_le_bytes(x))
    }
    pub(super) fn u64(&mut self) -> Result<u64> {
        Ok(self.take(8)? as u64)
    }
    pub(super) fn u128(&mut self) -> Result<u128> {
        self.take(16)
    }
    pub(super) fn total(&mut self) -> Result<Total> {
        let (lo, hi) = (self.u128()?, self.u128()?);
        let mut x = [0u8; 32];
        x[..16].copy_from_slice(&lo.to_le_bytes());
        x[16..].copy_from_slice(&hi.to_le_bytes());
        Ok(Total::from_le_bytes(x))
    }
}

/// Children of a batch bound for other ranks, as bytes: for every shard `keep` accepts and
/// every unit, its number (one byte), the entries of its low parts (key, then each lane)
/// and those of its high parts.
pub(super) fn pack<S: Key, L: Lane, const N: usize>(
    pool: &[Vec<Out<S, L, N>>],
    keep: impl Fn(usize) -> bool,
) -> Vec<u8> {
    let (kb, lb) = (size_of::<S>(), (L::BITS / 8) as usize);
    let mut b = Vec::new();
    for unit in pool {
        for (s, out) in unit.iter().enumerate() {
            if !keep(s) || (out.low.is_empty() && out.high.is_empty()) {
                continue;
            }
            b.reserve(1 + 16 + out.low.len() * (kb + N * lb) + out.high.len() * (kb + N * 32));
            b.push(s as u8);
            b.extend((out.low.len() as u64).to_le_bytes());
            for (key, lanes) in &out.low {
                b.extend_from_slice(&key.wide().to_le_bytes()[..kb]);
                for l in lanes {
                    b.extend_from_slice(&l.wide().to_le_bytes()[..lb]);
                }
            }
            b.extend((out.high.len() as u64).to_le_bytes());
            for (key, his) in &out.high {
                b.extend_from_slice(&key.wide().to_le_bytes()[..kb]);
                for h in his {
                    b.extend(h.to_le_bytes());
                }
            }
        }
    }
    b
}

/// The children [`pack`] wrote, one buffer per shard.
pub(super) fn unpack<S: Key, L: Lane, const N: usize>(bytes: &[u8]) -> Result<Vec<Out<S, L, N>>> {
    let (kb, lb) = (size_of::<S>(), (L::BITS / 8) as usize);
    let mut outs: Vec<Out<S, L, N>> = vec![Out::default(); SHARDS];
    let mut r = Bytes(bytes);
    while !r.0.is_empty() {
        let s = r.take(1)? as usize;
        let out = outs
            .get_mut(s)
            .ok_or_else(|| Error::input("a message from another rank names no shard"))?;
        let n = r.u64()? as usize;
        out.low.reserve(n);
        for _ in 0..n {
            let key = S::narrow(r.take(kb)?);
            let mut lanes = [L::default(); N];
            for l in lanes.iter_mut() {
                *l = L::low(r.take(lb)?);
            }
            out.low.push((key, lanes));
        }
        let n = r.u64()? as usize;
        for _ in 0..n {
            let key = S::narrow(r.take(kb)?);
            let mut his = [Total::ZERO; N];
            for h in his.iter_mut() {
                *h = r.total()?;
            }
            out.high.push((key, his));
        }
    }
    Ok(outs)
}

/// Sends the children in `pool` that belong to other ranks' shards to those ranks (and
/// empties their buffers), and returns the children the other ranks sent this one, one
/// set of buffers per rank. Counts the bytes sent and the time taken in `run`.
pub(super) fn trade<S: Key, L: Lane, const N: usize>(
    pool: &mut [Vec<Out<S, L, N>>],
    run: &mut Run,
) -> Result<Vec<Vec<Out<S, L, N>>>> {
    let cluster = run.cluster;
    if cluster.size() == 1 {
        return Ok(Vec::new());
    }
    let clock = Instant::now();
    let send: Vec<Vec<u8>> = (0..cluster.size())
        .into_par_iter()
        .map(|d| {
            if d == cluster.rank() {
                Vec::new()
            } else {
                pack(pool, |s| cluster.owner(s) == d)
            }
        })
        .collect();
    run.sent += send.iter().map(|b| b.len() as u64).sum::<u64>();
    pool.par_iter_mut().for_each(|unit| {
        for (s, out) in unit.iter_mut().enumerate() {
            if !cluster.owns(s) {
                out.low.clear();
                out.high.clear();
            }
        }
    });
    let got = cluster.exchange(send)?;
    let outs = got
        .par_iter()
        .map(|b| unpack::<S, L, N>(b))
        .collect::<Result<Vec<_>>>()?;
    run.exchange += clock.elapsed();
    Ok(outs)
}

/// Sends each canonical form under `K` (with `lanes` bits of starts below it when the sweep
/// has several) to the rank chosen by a hash of the form, and returns those this rank
/// receives: equal forms from any rank meet on one rank (a collective). Outside MPI,
/// `forms` itself.
pub(super) fn route_forms<K: Bits>(forms: Vec<K>, lanes: usize, run: &mut Run) -> Result<Vec<K>> {
    let cluster = run.cluster;
    if cluster.size() == 1 {
        return Ok(forms);
    }
    let clock = Instant::now();
    let kb = size_of::<K>();
    let shift = if lanes > 1 { lanes } else { 0 };
    let mut send = vec![Vec::new(); cluster.size()];
    for f in forms {
        let to = cluster.owner((f >> shift).shard(SHARDS));
        send[to].extend_from_slice(&Bits::to_u128(f).to_le_bytes()[..kb]);
    }
    run.sent += send
        .iter()
        .enumerate()
        .filter(|&(r, _)| r != cluster.rank())
        .map(|(_, b)| b.len() as u64)
        .sum::<u64>();
    let forms = cluster
        .exchange(send)?
        .iter()
        .flat_map(|b| b.chunks_exact(kb))
        .map(|c| {
            let mut x = [0u8; 16];
            x[..kb].copy_from_slice(c);
            K::from_u128(u128::from_le_bytes(x))
        })
        .collect();
    run.exchange += clock.elapsed();
    Ok(forms)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layer's statistics between ranks (`LayerAcc::gather`): games past 2^128 cross
    /// exactly, and two ranks' sums add exactly.
    #[test]
    fn layer_statistics_cross_ranks_past_128_bits() {
        let big = Total::from(u128::MAX).plus_count(7).unwrap(); // 2^128 + 6
        let mut a = LayerAcc::<2> {
            positions: [3, 4],
            dead_ends: [1, 2],
            games_ended: [big, Total::from(9)],
            reached: [3, 4],
            finish: vec![(1, 5, big)],
            least_end: [12, u128::MAX],
        };
        let back = LayerAcc::<2>::from_bytes(&a.to_bytes()).unwrap();
        assert_eq!(back.games_ended, a.games_ended);
        assert_eq!(back.finish, a.finish);
        assert_eq!((back.positions, back.least_end), (a.positions, a.least_end));
        let copy = LayerAcc::<2>::from_bytes(&a.to_bytes()).unwrap();
        a.absorb(copy).unwrap();
        assert_eq!(
            a.games_ended[0].to_string(),
            "680564733841876926926749214863536422924"
        );
        assert_eq!(a.games_ended[1], 18);
        // A message cut short is refused, never read as zeros.
        assert!(LayerAcc::<2>::from_bytes(&a.to_bytes()[..100]).is_err());
    }

    /// Children sent to another rank (`pack`, `unpack`) keep their high parts past 2^128
    /// exactly, and only the shards asked for are sent.
    #[test]
    fn children_cross_ranks_past_128_bits() {
        let huge = Total::from(u128::MAX).times(u64::MAX).unwrap(); // about 2^192
        let mut unit: Vec<Out<u32, u32, 2>> = vec![Out::default(); SHARDS];
        unit[3].low.push((7, [5, 6]));
        unit[3].high.push((7, [huge, Total::from(1)]));
        unit[9].low.push((8, [1, 2]));
        let pool = vec![unit];
        let outs = unpack::<u32, u32, 2>(&pack(&pool, |s| s == 3)).unwrap();
        assert_eq!(outs[3].low, [(7, [5, 6])]);
        assert_eq!(outs[3].high, [(7, [huge, Total::from(1)])]);
        assert!(outs[9].low.is_empty());
        let all = unpack::<u32, u32, 2>(&pack(&pool, |_| true)).unwrap();
        assert_eq!(all[9].low, [(8, [1, 2])]);
        // A message cut inside a high part is refused.
        let bytes = pack(&pool, |s| s == 3);
        assert!(unpack::<u32, u32, 2>(&bytes[..bytes.len() - 1]).is_err());
    }
}
