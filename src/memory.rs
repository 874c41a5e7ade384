//! Memory: how much the machine offers, how much the process used, and byte sizes for
//! humans.

/// The default memory budget for the engine's tables: 80% of the memory a new allocation
/// can get now ([`usable`]: the memory available, or less under a control group's limit
/// or `ulimit -v`), or 4 GiB where that cannot be read.
///
/// ```
/// use pegsol::memory::{default_budget, usable};
/// let budget = default_budget();
/// match usable() {
///     // 80% of what was usable a moment ago: less than what is usable now, give or take.
///     Some(now) => assert!(budget > 0 && budget < now + (64 << 20)),
///     None => assert_eq!(budget, 4 << 30),
/// }
/// ```
pub fn default_budget() -> u64 {
    usable().map_or(4 << 30, |a| a / 10 * 8)
}

/// Memory available to a new allocation, from /proc/meminfo: the machine's, blind to the
/// limits of this process ([`usable`]).
///
/// ```
/// // Whole kibibytes (the file counts in kB) on Linux; nothing where there is no /proc.
/// if cfg!(target_os = "linux") {
///     let a = pegsol::memory::available().unwrap();
///     assert!(a > 0 && a % 1024 == 0);
/// }
/// ```
pub fn available() -> Option<u64> {
    proc_field("/proc/meminfo", "MemAvailable:")
}

/// Memory a new allocation can still get: the least of [`available`], the room under the
/// memory limit of the process's control group and of each group above it (a batch
/// scheduler's or a container's limit, which /proc/meminfo does not show), and the room
/// under an address-space limit (`ulimit -v`), of which the process's mappings take their
/// share.
///
/// ```
/// let (usable, available) = (pegsol::memory::usable(), pegsol::memory::available());
/// if let (Some(u), Some(a)) = (usable, available) {
///     assert!(u <= a + (64 << 20)); // what was available a moment ago, give or take
/// }
/// ```
pub fn usable() -> Option<u64> {
    [available(), hard_room()].into_iter().flatten().min()
}

/// The room under the limits set on this process rather than on the machine: its control
/// groups' memory limits and its address-space limit (`ulimit -v`), as in [`usable`]; None
/// when neither is set. A budget past it cannot be kept, whatever the machine has free.
///
/// ```
/// if let (Some(hard), Some(usable)) = (pegsol::memory::hard_room(), pegsol::memory::usable()) {
///     assert!(usable <= hard + (64 << 20)); // give or take what changed in between
/// }
/// ```
pub fn hard_room() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    let under_limit = (ok && limit.rlim_cur != libc::RLIM_INFINITY).then(|| {
        let mapped = proc_field("/proc/self/status", "VmSize:").unwrap_or(0);
        limit.rlim_cur.saturating_sub(mapped)
    });
    [under_limit, cgroup_room()].into_iter().flatten().min()
}

/// The room under the memory limits of the process's control group and the groups above
/// it, the least of them: for each group with a limit (cgroup v2 `memory.max`, v1
/// `memory.limit_in_bytes`), the limit less what the group uses, its page cache not counted
/// as used (the kernel reclaims it before it kills: `file` less `shmem` in v2's
/// memory.stat, `total_cache` less `total_shmem` in v1's). None without a limit.
/// (`sysinfo`'s `cgroup_limits` gave None under a cgroup v1 limit: hence these few lines;
/// docs/experiments.md, "Figures that were in code comments".)
fn cgroup_room() -> Option<u64> {
    use std::path::{Path, PathBuf};
    let number = |path: &Path| {
        std::fs::read_to_string(path)
            .ok()?
            .trim()
            .parse::<u64>()
            .ok()
    };
    let stat = |text: &str, key: &str| {
        let line = text.lines().find(|l| l.split(' ').next() == Some(key))?;
        line.split(' ').nth(1)?.parse::<u64>().ok()
    };
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mut room: Option<u64> = None;
    for line in groups.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let (root, [limit, usage, cache, shmem]) = if id == "0" && controllers.is_empty() {
            let files = ["memory.max", "memory.current", "file", "shmem"];
            ("/sys/fs/cgroup", files)
        } else if controllers.split(',').any(|c| c == "memory") {
            let files = [
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
                "total_cache",
                "total_shmem",
            ];
            ("/sys/fs/cgroup/memory", files)
        } else {
            continue;
        };
        let root = Path::new(root);
        let mut dir: PathBuf = root.join(path.trim_start_matches('/'));
        loop {
            // v2's `max` (no limit) is not a number; v1 says "no limit" with a number
            // near 2^63.
            let limit = number(&dir.join(limit)).filter(|&l| l < 1 << 62);
            if let (Some(l), Some(u)) = (limit, number(&dir.join(usage))) {
                let stats = std::fs::read_to_string(dir.join("memory.stat")).unwrap_or_default();
                let cached = stat(&stats, cache)
                    .unwrap_or(0)
                    .saturating_sub(stat(&stats, shmem).unwrap_or(0));
                let here = l.saturating_sub(u.saturating_sub(cached));
                room = Some(room.map_or(here, |r| r.min(here)));
            }
            if dir == root || !dir.pop() {
                break;
            }
        }
    }
    room
}

/// `n` copies of `value`, written out when allocated. A vector of zeros from `vec![0; n]`
/// is allocated zeroed: its pages map the system's shared zero page until written, so a
/// table whose slots are read before they are written (a hash table's probes, a sum's
/// `+=`) faults twice on each page, once to read and once to copy on write, and the second
/// fault flushes the page from the other threads' TLBs. Written out, each page faults once.
/// Those faults took a large share of `solvable`'s time (docs/experiments.md, "Figures
/// that were in code comments"; docs/internals.md, "Work units, shards and tables").
///
/// ```
/// let v = pegsol::memory::filled(3, 7u32);
/// assert_eq!(v, [7, 7, 7]);
/// ```
pub fn filled<T: Clone>(n: usize, value: T) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    v.resize(n, value);
    v
}

/// Asks the C allocator to map every block of 128 KiB or more on its own and unmap it when
/// freed, instead of raising that threshold as large blocks are freed (glibc's default),
/// which keeps freed layer tables in the heap: a lower peak for a little more wall time in
/// page faults (docs/experiments.md, "Keys within a shard, and the allocator", and
/// "Figures that were in code comments"). Called once by
/// [`crate::cli::run`]; a no-op off glibc (the setting is only a hint, so its result is not
/// checked).
pub(crate) fn unmap_freed_blocks() {
    // SAFETY: mallopt only changes a tuning parameter of glibc's allocator; it is safe to
    // call at any time from any thread.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

/// Under an address-space limit (`ulimit -v`), asks the C allocator for one heap (arena)
/// for all threads. glibc gives each thread that allocates a heap of its own and reserves
/// 64 MiB of address space for each, mapped but unused, which under a tight limit leaves
/// too little for the budget (docs/experiments.md, "Figures that were in code comments"). Without such a limit, reserved address space
/// costs nothing and the threads keep their own heaps. Called once by
/// [`crate::cli::run`]; a no-op off glibc.
pub(crate) fn one_arena_under_address_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    let limited = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0
        && limit.rlim_cur != libc::RLIM_INFINITY;
    // SAFETY: as in `unmap_freed_blocks`.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if limited {
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
    let _ = limited;
}

/// Asks the C allocator to keep the memory freed at the top of its heaps instead of
/// returning it to the system: `solvable` and `hint` build and drop many tables of a few
/// hundred kilobytes, and each page given back cost a page fault when it was taken again.
/// Fewer page faults and less system time for a little more memory at the peak
/// (docs/experiments.md, "Figures that were in code comments"; docs/internals.md, "Work
/// units, shards and tables"). Called by those commands only,
/// after [`unmap_freed_blocks`], whose blocks of 128 KiB or more are still unmapped when
/// freed; a no-op off glibc.
pub(crate) fn keep_freed_heap() {
    // SAFETY: as in `unmap_freed_blocks`.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        // The pad a heap keeps when it does shrink, and takes when it grows: with the
        // threshold alone, 35,000 page faults.
        libc::mallopt(libc::M_TOP_PAD, 256 << 20);
    }
}

/// The peak resident set size of this process so far (VmHWM), in bytes.
///
/// ```
/// use pegsol::memory::{peak_rss, resident};
/// // The peak so far is at least the size a moment ago.
/// if cfg!(target_os = "linux") {
///     let now = resident().unwrap();
///     assert!(peak_rss().unwrap() >= now);
/// }
/// ```
pub fn peak_rss() -> Option<u64> {
    proc_field("/proc/self/status", "VmHWM:")
}

/// The resident set size of this process now (VmRSS), in bytes.
///
/// ```
/// // A few megabytes at least, on Linux; nothing elsewhere.
/// if cfg!(target_os = "linux") {
///     assert!(pegsol::memory::resident().unwrap() > 1 << 20);
/// }
/// ```
pub fn resident() -> Option<u64> {
    proc_field("/proc/self/status", "VmRSS:")
}

/// The bytes of a hash table (std's `HashMap`, hashbrown's layout) of `capacity` entries
/// of type `T`: a slot for each, with one slot in eight left empty, and a control byte a
/// slot. A table that grows doubles its slots and holds the old ones until it has moved
/// them: three times these bytes at that moment.
///
/// ```
/// // 7 entries of 16 bytes fill 8 slots of 17 bytes.
/// assert_eq!(pegsol::memory::hash_table_bytes::<u128>(7), 136);
/// ```
pub fn hash_table_bytes<T>(capacity: usize) -> u64 {
    (capacity as u64 * 8 / 7) * (std::mem::size_of::<T>() as u64 + 1)
}

/// A memory limit held to while a run grows: the memory the process took since the watch
/// began ([`resident`], so every table counts, including the buffers of a layer being
/// built), against `limit`. A run asks [`Watch::over`] as it grows and refuses once it is
/// over, before the system kills it. Without `/proc` (off Linux) a watch sees nothing.
///
/// ```
/// use pegsol::memory::Watch;
/// let roomy = Watch::new(1 << 40);
/// assert_eq!(roomy.over(), None);
/// let tight = Watch::new(1 << 20);
/// let table = vec![1u8; 8 << 20]; // 8 MiB, touched
/// if cfg!(target_os = "linux") {
///     assert!(tight.over().unwrap() >= 8 << 20);
/// }
/// drop(table);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Watch {
    limit: u64,
    base: u64,
}

impl Watch {
    /// A watch of `limit` bytes from now.
    ///
    /// ```
    /// use pegsol::memory::Watch;
    /// let w = Watch::new(1 << 30);
    /// assert_eq!(w.limit(), 1 << 30);
    /// assert_eq!(w.over(), None); // nothing taken yet
    /// ```
    pub fn new(limit: u64) -> Watch {
        Watch {
            limit,
            base: resident().unwrap_or(0),
        }
    }

    /// The limit, in bytes.
    ///
    /// ```
    /// assert_eq!(pegsol::memory::Watch::new(512 << 20).limit(), 512 << 20);
    /// ```
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The bytes left under the limit: the limit less the memory taken since the watch
    /// began, zero once over it.
    ///
    /// ```
    /// use pegsol::memory::Watch;
    /// let roomy = Watch::new(1 << 40);
    /// let tight = Watch::new(1 << 20);
    /// let table = vec![1u8; 8 << 20]; // 8 MiB, touched
    /// if cfg!(target_os = "linux") {
    ///     let left = roomy.room().unwrap();
    ///     assert!(left <= (1 << 40) - (8 << 20) && left > (1 << 40) - (1 << 30));
    ///     assert_eq!(tight.room(), Some(0));
    /// } else {
    ///     assert_eq!(roomy.room(), None);
    /// }
    /// drop(table);
    /// ```
    pub fn room(&self) -> Option<u64> {
        let taken = resident()?.saturating_sub(self.base);
        Some(self.limit.saturating_sub(taken))
    }

    /// The memory taken since the watch began, when it is over the limit.
    ///
    /// ```
    /// use pegsol::memory::Watch;
    /// let none = Watch::new(0);
    /// let table = vec![1u8; 8 << 20]; // 8 MiB, touched
    /// if cfg!(target_os = "linux") {
    ///     assert!(none.over().unwrap() >= 8 << 20);
    /// }
    /// assert_eq!(Watch::new(u64::MAX).over(), None);
    /// drop(table);
    /// ```
    pub fn over(&self) -> Option<u64> {
        let taken = resident()?.saturating_sub(self.base);
        (taken > self.limit).then_some(taken)
    }
}

fn proc_field(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line[key.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Parses a size such as `4G`, `512MiB` or `1000000`.
///
/// ```
/// assert_eq!(pegsol::memory::parse("2GiB").unwrap(), 2 << 30);
/// assert!(pegsol::memory::parse("lots").is_err());
/// ```
pub fn parse(text: &str) -> Result<u64, String> {
    parse_size::Config::new()
        .with_binary()
        .parse_size(text)
        .map_err(|e| format!("invalid size '{text}': {e}"))
}

/// A byte count for humans: `1.5 GiB`.
///
/// ```
/// assert_eq!(pegsol::memory::human(3 << 29), "1.5 GiB");
/// ```
pub fn human(bytes: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

/// Two byte counts for humans, as [`human`] unless that shows them the same though they
/// differ: then with as many decimals as tell them apart (up to four), or in bytes.
///
/// ```
/// use pegsol::memory::human_apart;
/// assert_eq!(human_apart(3 << 29, 1 << 30), ("1.5 GiB".into(), "1.0 GiB".into()));
/// assert_eq!(human_apart(81_830, 65_536), ("79.9 KiB".into(), "64.0 KiB".into()));
/// assert_eq!(human_apart(1_049_000, 1 << 20), ("1.0004 MiB".into(), "1.0000 MiB".into()));
/// assert_eq!(human_apart(1_048_577, 1 << 20), ("1,048,577 B".into(), "1,048,576 B".into()));
/// ```
pub fn human_apart(a: u64, b: u64) -> (String, String) {
    let (ha, hb) = (human(a), human(b));
    if ha != hb || a == b {
        return (ha, hb);
    }
    // The unit `human` chose.
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut exp = 0;
    while exp + 1 < units.len() && a.max(b) >> (10 * (exp + 1)) > 0 {
        exp += 1;
    }
    let scale = 1024f64.powi(exp as i32);
    for digits in 2..=4 {
        let (sa, sb) = (
            format!("{:.*} {}", digits, a as f64 / scale, units[exp]),
            format!("{:.*} {}", digits, b as f64 / scale, units[exp]),
        );
        if sa != sb {
            return (sa, sb);
        }
    }
    use thousands::Separable;
    (
        format!("{} B", a.separate_with_commas()),
        format!("{} B", b.separate_with_commas()),
    )
}

/// Resets the peak resident set size [`peak_rss`] reports to the current size (Linux:
/// writes `5` to /proc/self/clear_refs), so that a later [`peak_rss`] measures one piece of
/// work. Returns false where this is not supported; [`peak_rss`] then keeps the peak of
/// the whole process.
///
/// ```
/// use pegsol::memory::{peak_rss, reset_peak_rss};
/// let table = vec![1u8; 64 << 20]; // 64 MiB, touched, then given back
/// drop(std::hint::black_box(table));
/// let before = peak_rss();
/// if reset_peak_rss() {
///     // The 64 MiB are no longer part of the peak.
///     assert!(peak_rss().unwrap() + (32 << 20) < before.unwrap());
/// }
/// ```
pub fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}
