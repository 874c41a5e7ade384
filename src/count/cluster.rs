//! Sweeps shared by the ranks of an MPI job (issue 20; `--features mpi`).
//!
//! Every rank owns a fixed share of the shards of every layer: shard `s` belongs to rank
//! `s % K` of `K`. A rank expands the entries of its own shards, a batch at a time
//! as a single process does, and each batch's children are sent to the ranks owning their
//! shards by one all-to-all exchange ([`Cluster::exchange`], `MPI_Alltoallv`); each rank
//! absorbs what it receives. The statistics of a layer are gathered by every rank
//! ([`Cluster::all_gather`]), so that all ranks take the same decisions (the next layer,
//! narrow or wide lanes, memory or disk) and rank 0 writes the files. Sums are exact and
//! commutative, so the counts are the single process's, byte for byte, for any number of
//! ranks and threads (DESIGN.md, "On a cluster").
//!
//! Without the `mpi` feature a [`Cluster`] is always the single process: every exchange
//! hands its data back. MPI calls are made from one thread at a time (the thread running
//! the sweep), under `MPI_THREAD_SERIALIZED`.
//!
//! ```
//! use pegsol::count::cluster::Cluster;
//! let one = Cluster::single();
//! assert_eq!((one.rank(), one.size()), (0, 1));
//! assert!(one.owns(17));
//! assert_eq!(one.exchange(vec![vec![1, 2, 3]]).unwrap(), vec![vec![1, 2, 3]]);
//! ```

use crate::error::{Error, Result};

/// The most bytes one rank sends another in one `MPI_Alltoallv` call (counts are C `int`s);
/// larger exchanges take several rounds.
#[cfg(feature = "mpi")]
const ROUND_BYTES: usize = 1 << 30;

/// This process's place in the job: its rank, the number of ranks, and how many of them
/// share this machine's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cluster {
    rank: usize,
    size: usize,
    local: usize,
}

impl Default for Cluster {
    fn default() -> Self {
        Cluster::single()
    }
}

/// Keeps MPI initialised while a command runs; finalises it when dropped. Holds nothing
/// without the `mpi` feature or outside `mpirun`.
pub struct Session {
    #[cfg(feature = "mpi")]
    _universe: Option<mpi::environment::Universe>,
    cluster: Cluster,
}

impl Session {
    /// The job this process belongs to, of at most `max_ranks` ranks (a job of more is
    /// refused: the engine gives each rank at least one of its shards).
    ///
    /// ```
    /// // Outside mpirun, every process is a job of one rank.
    /// let s = pegsol::count::cluster::Session::join(64).unwrap();
    /// assert_eq!(s.cluster().size(), 1);
    /// ```
    pub fn join(max_ranks: usize) -> Result<Session> {
        let launched = launched_size();
        #[cfg(not(feature = "mpi"))]
        let _ = max_ranks;
        #[cfg(feature = "mpi")]
        if launched.is_some() {
            use mpi::environment::Threading;
            use mpi::traits::Communicator;
            let Some((universe, threading)) = mpi::initialize_with_threading(Threading::Serialized)
            else {
                return Err(Error::input("MPI was already initialised"));
            };
            if threading < Threading::Serialized {
                return Err(Error::input(format!(
                    "this MPI provides thread support {threading:?}; pegsol needs Serialized \
                     (one thread at a time calls MPI)"
                )));
            }
            let world = universe.world();
            let cluster = Cluster {
                rank: world.rank() as usize,
                size: world.size() as usize,
                // The ranks that can share memory with this one: its machine's.
                local: world.split_shared(world.rank()).size() as usize,
            };
            let session = Session {
                _universe: Some(universe),
                cluster,
            };
            if cluster.size > max_ranks {
                // Every rank would say it: rank 0 alone does.
                return Err(if cluster.rank == 0 {
                    Error::input(format!(
                        "{} ranks: a layer has {max_ranks} shards, so at most {max_ranks} ranks can \
                         share it; run mpirun -np {max_ranks} or fewer",
                        cluster.size
                    ))
                } else {
                    session.cluster.abort(2)
                });
            }
            return Ok(session);
        }
        if let Some(k) = launched.filter(|&k| k > 1) {
            return Err(Error::input(format!(
                "started as one of {k} MPI ranks, but this pegsol was built without MPI: \
                 build it with `cargo build --release --features mpi`"
            )));
        }
        Ok(Session {
            #[cfg(feature = "mpi")]
            _universe: None,
            cluster: Cluster::single(),
        })
    }

    /// The job: rank and size.
    ///
    /// ```
    /// use pegsol::count::cluster::{Cluster, Session};
    /// // Outside mpirun: the job of one process.
    /// assert_eq!(Session::join(64).unwrap().cluster(), Cluster::single());
    /// ```
    pub fn cluster(&self) -> Cluster {
        self.cluster
    }

    /// `result`, when the job has one rank or it is a success. When a rank of a job of
    /// several fails, it says so in one line on stderr and stops the whole job (MPI abort,
    /// with the error's exit code): the other ranks would wait for it forever.
    ///
    /// ```
    /// use pegsol::{count::cluster::Session, error::Error};
    /// let s = Session::join(64).unwrap(); // one rank: every result is handed back
    /// assert_eq!(s.settle(Ok(7)).unwrap(), 7);
    /// let e = s.settle::<()>(Err(Error::input("bad board"))).unwrap_err();
    /// assert_eq!(e.to_string(), Error::input("bad board").to_string());
    /// ```
    pub fn settle<T>(&self, result: Result<T>) -> Result<T> {
        match result {
            Err(e) if self.cluster.size > 1 => {
                if matches!(e, Error::Input(_)) && self.cluster.rank > 0 {
                    // Bad input is every rank's: let rank 0 say it alone, unless it does not
                    // stop the job within five seconds. (One second was too short for
                    // OpenMPI's abort to reach rank 1 on a loaded 2-core machine: both
                    // ranks said it.)
                    std::thread::sleep(std::time::Duration::from_secs(5));
                }
                e.report(Some((self.cluster.rank, self.cluster.size)));
                self.cluster.abort(e.exit_code())
            }
            other => other,
        }
    }
}

/// The number of ranks of the MPI job that started this process, from the variables its
/// launcher sets (OpenMPI's mpirun, MPICH's hydra, PMIx as under SLURM's `srun --mpi=pmix`;
/// 0 when only the rank is known); `None` outside one.
fn launched_size() -> Option<usize> {
    let var = |v: &str| std::env::var(v).ok();
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"]
        .iter()
        .find_map(|v| var(v)?.parse().ok())
        .or_else(|| {
            ["PMIX_RANK", "PMI_RANK"]
                .iter()
                .find_map(|v| var(v))
                .map(|_| 0)
        })
}

impl Cluster {
    /// The job of one process.
    ///
    /// ```
    /// use pegsol::count::cluster::Cluster;
    /// let one = Cluster::single();
    /// assert_eq!((one.rank(), one.size()), (0, 1));
    /// assert!((0..64).all(|shard| one.owns(shard)));
    /// assert_eq!(one, Cluster::default());
    /// ```
    pub fn single() -> Cluster {
        Cluster {
            rank: 0,
            size: 1,
            local: 1,
        }
    }

    /// This process's rank, 0 to `size() - 1`.
    ///
    /// ```
    /// assert_eq!(pegsol::count::cluster::Cluster::single().rank(), 0);
    /// ```
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The number of ranks.
    ///
    /// ```
    /// assert_eq!(pegsol::count::cluster::Cluster::single().size(), 1);
    /// ```
    pub fn size(&self) -> usize {
        self.size
    }

    /// The number of ranks on this machine, this one included (`MPI_Comm_split_type`,
    /// shared memory): they share its memory, and its default budget.
    ///
    /// ```
    /// assert_eq!(pegsol::count::cluster::Cluster::single().local_size(), 1);
    /// ```
    pub fn local_size(&self) -> usize {
        self.local
    }

    /// A rank's default memory budget: [`crate::memory::default_budget`], shared evenly by
    /// the ranks on this machine (each started with the same free memory in view, they
    /// would otherwise take it several times over). `PEGSOL_TRACE` says it, rank by rank.
    ///
    /// ```
    /// use pegsol::{count::cluster::Cluster, memory};
    /// let b = Cluster::single().default_budget();
    /// assert!(b <= memory::default_budget() + (64 << 20)); // give or take what changed
    /// ```
    pub fn default_budget(&self) -> u64 {
        let budget = crate::memory::default_budget() / self.local.max(1) as u64;
        if self.size > 1 && crate::observe::tracing() {
            crate::observe::trace(&format!(
                "rank {} of {}: default --max-memory {} ({} ranks on this machine share it)",
                self.rank,
                self.size,
                crate::memory::human(budget),
                self.local
            ));
        }
        budget
    }

    /// The rank owning shard `shard` of every layer.
    ///
    /// ```
    /// assert_eq!(pegsol::count::cluster::Cluster::single().owner(63), 0);
    /// ```
    pub fn owner(&self, shard: usize) -> usize {
        shard % self.size
    }

    /// Whether this rank owns shard `shard`.
    ///
    /// ```
    /// let one = pegsol::count::cluster::Cluster::single();
    /// assert!(one.owns(0) && one.owns(63)); // the only rank owns every shard
    /// ```
    pub fn owns(&self, shard: usize) -> bool {
        self.owner(shard) == self.rank
    }

    /// Sends `send[r]` to rank `r`, for every rank, and returns what each rank sent this
    /// one, by rank. Every rank must call it (a collective).
    ///
    /// ```
    /// let one = pegsol::count::cluster::Cluster::single();
    /// assert_eq!(one.exchange(vec![vec![1, 2, 3]]).unwrap(), [vec![1, 2, 3]]);
    /// assert!(one.exchange(vec![vec![1], vec![2]]).is_err()); // one block per rank
    /// ```
    pub fn exchange(&self, send: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        if send.len() != self.size {
            return Err(Error::input(format!(
                "an exchange among {} ranks was given {} blocks",
                self.size,
                send.len()
            )));
        }
        if self.size == 1 {
            return Ok(send);
        }
        self.exchange_mpi(send)
    }

    /// Every rank's `bytes`, by rank, on every rank (a collective).
    ///
    /// ```
    /// let one = pegsol::count::cluster::Cluster::single();
    /// assert_eq!(one.all_gather(&[7]), vec![vec![7]]);
    /// ```
    pub fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        if self.size == 1 {
            return vec![bytes.to_vec()];
        }
        self.all_gather_mpi(bytes)
    }

    /// The sums over the ranks of each of `values` (a collective).
    ///
    /// ```
    /// let one = pegsol::count::cluster::Cluster::single();
    /// assert_eq!(one.sum(&[3, 4]), vec![3, 4]);
    /// ```
    pub fn sum(&self, values: &[u64]) -> Vec<u64> {
        self.fold(values, |a, b| a.saturating_add(b))
    }

    /// The largest over the ranks of each of `values` (a collective).
    ///
    /// ```
    /// let one = pegsol::count::cluster::Cluster::single();
    /// assert_eq!(one.max(&[3, 9]), vec![3, 9]);
    /// ```
    pub fn max(&self, values: &[u64]) -> Vec<u64> {
        self.fold(values, u64::max)
    }

    /// The smallest over the ranks of each of `values` (a collective).
    ///
    /// ```
    /// let one = pegsol::count::cluster::Cluster::single();
    /// assert_eq!(one.min(&[5]), vec![5]);
    /// ```
    pub fn min(&self, values: &[u64]) -> Vec<u64> {
        self.fold(values, u64::min)
    }

    /// Whether `yes` holds on every rank (a collective).
    ///
    /// ```
    /// let one = pegsol::count::cluster::Cluster::single();
    /// assert!(one.all(true) && !one.all(false));
    /// ```
    pub fn all(&self, yes: bool) -> bool {
        self.fold(&[u64::from(!yes)], u64::max)[0] == 0
    }

    fn fold(&self, values: &[u64], f: impl Fn(u64, u64) -> u64) -> Vec<u64> {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut out = values.to_vec();
        for (r, theirs) in self.all_gather(&bytes).into_iter().enumerate() {
            if r == self.rank {
                continue;
            }
            for (o, c) in out.iter_mut().zip(theirs.chunks_exact(8)) {
                *o = f(*o, u64::from_le_bytes(c.try_into().expect("8 bytes")));
            }
        }
        out
    }

    /// Stops every rank of the job with exit code `code`.
    pub(crate) fn abort(&self, code: i32) -> ! {
        #[cfg(feature = "mpi")]
        if self.size > 1 {
            use mpi::traits::Communicator;
            mpi::topology::SimpleCommunicator::world().abort(code)
        }
        std::process::exit(code)
    }

    #[cfg(not(feature = "mpi"))]
    fn exchange_mpi(&self, _: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        unreachable!("a cluster of several ranks needs the mpi feature")
    }

    #[cfg(not(feature = "mpi"))]
    fn all_gather_mpi(&self, _: &[u8]) -> Vec<Vec<u8>> {
        unreachable!("a cluster of several ranks needs the mpi feature")
    }

    /// [`Cluster::exchange`] by `MPI_Alltoallv`: first the lengths (`MPI_Alltoall`), then
    /// the bytes, in rounds of at most [`ROUND_BYTES`] a pair.
    #[cfg(feature = "mpi")]
    fn exchange_mpi(&self, send: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        use mpi::datatype::{Partition, PartitionMut};
        use mpi::traits::CommunicatorCollectives;
        let world = mpi::topology::SimpleCommunicator::world();
        let k = self.size;
        let lengths: Vec<u64> = send.iter().map(|b| b.len() as u64).collect();
        let mut incoming = vec![0u64; k];
        world.all_to_all_into(&lengths[..], &mut incoming[..]);
        let mut recv: Vec<Vec<u8>> = incoming
            .iter()
            .map(|&n| Vec::with_capacity(n as usize))
            .collect();
        let most = lengths.iter().chain(&incoming).copied().max().unwrap_or(0);
        let rounds = self.max(&[(most as usize).div_ceil(ROUND_BYTES) as u64])[0];
        for round in 0..rounds as usize {
            let part = |b: usize| {
                let from = (round * ROUND_BYTES).min(b);
                from..(from + ROUND_BYTES).min(b)
            };
            // Buffers are never empty: an empty vector's address is 1, which OpenMPI takes for
            // MPI_IN_PLACE.
            let mut out = Vec::with_capacity(1);
            let mut send_counts = Vec::with_capacity(k);
            let mut send_displs = Vec::with_capacity(k);
            for b in &send {
                let r = part(b.len());
                send_displs.push(out.len() as mpi::Count);
                send_counts.push(r.len() as mpi::Count);
                out.extend_from_slice(&b[r]);
            }
            let mut recv_counts = Vec::with_capacity(k);
            let mut recv_displs = Vec::with_capacity(k);
            let mut total = 0usize;
            for &n in &incoming {
                let r = part(n as usize);
                recv_displs.push(total as mpi::Count);
                recv_counts.push(r.len() as mpi::Count);
                total += r.len();
            }
            out.push(0);
            let mut buf = vec![0u8; total + 1];
            {
                let sent = Partition::new(&out[..], &send_counts[..], &send_displs[..]);
                let mut got = PartitionMut::new(&mut buf[..], &recv_counts[..], &recv_displs[..]);
                world.all_to_all_varcount_into(&sent, &mut got);
            }
            for (r, v) in recv.iter_mut().enumerate() {
                let at = recv_displs[r] as usize;
                v.extend_from_slice(&buf[at..at + recv_counts[r] as usize]);
            }
        }
        Ok(recv)
    }

    /// [`Cluster::all_gather`] by `MPI_Allgather` (lengths) and `MPI_Allgatherv`.
    #[cfg(feature = "mpi")]
    fn all_gather_mpi(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        use mpi::datatype::PartitionMut;
        use mpi::traits::CommunicatorCollectives;
        let world = mpi::topology::SimpleCommunicator::world();
        let mut lengths = vec![0u64; self.size];
        world.all_gather_into(&(bytes.len() as u64), &mut lengths[..]);
        let counts: Vec<mpi::Count> = lengths.iter().map(|&n| n as mpi::Count).collect();
        let displs: Vec<mpi::Count> = counts
            .iter()
            .scan(0, |at, &n| {
                let d = *at;
                *at += n;
                Some(d)
            })
            .collect();
        // Never empty buffers (see `exchange_mpi`).
        let mut buf = vec![0u8; lengths.iter().sum::<u64>() as usize + 1];
        let mine = [bytes, &[0]].concat();
        {
            let mut got = PartitionMut::new(&mut buf[..], &counts[..], &displs[..]);
            world.all_gather_varcount_into(&mine[..bytes.len()], &mut got);
        }
        (0..self.size)
            .map(|r| buf[displs[r] as usize..(displs[r] + counts[r]) as usize].to_vec())
            .collect()
    }
}
