//! A fewest-moves search kept on disk (`solve --min-moves --work-dir DIR`), so that the same
//! command resumes an interrupted run from its last finished layer.
//!
//! The problem's folder (`DIR/min-moves-BOARD-START-FINISH`) holds one file per layer
//! stored (`forward-07.bin`: the side's positions at that depth, sorted, one little-endian
//! word each) and `search.json`: the bound being searched, the bounds already searched with
//! their figures, and per side its depth, figures and each layer file's length and CRC-32,
//! the whole sealed by a CRC-32 of its own. A layer file is written whole before the
//! manifest naming it, each through a temporary file renamed into place, so a run killed at
//! any moment leaves the last manifest and every file it names intact. A file that does
//! not match its manifest, or a manifest that does not match its checksum or its problem, is
//! refused with a clear line (exit code 2), never read as something else: the search starts
//! again only when the folder is deleted. A search that ends removes its folder.

use super::side::Side;
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use crate::geometry::board::{Board, Pegs};
use crate::output::files::io_text;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The manifest's format.
const FORMAT: &str = "pegsol-min-moves-1";
/// The manifest's file name.
const MANIFEST: &str = "search.json";

/// The problem a folder belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Identity {
    board: String,
    holes: usize,
    /// Bytes a stored position takes.
    width: usize,
    /// The forward and backward sides' sources, as hexadecimal masks.
    forward: Vec<String>,
    backward: Vec<String>,
}

/// One side as the manifest keeps it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct SideState {
    depth: usize,
    done: bool,
    /// Per depth from 0: positions stored, and positions one move further the bound dropped.
    layers: Vec<(usize, u64)>,
    /// Per depth from 1: the layer file's positions and CRC-32.
    files: Vec<(usize, u32)>,
}

/// A walk of a side's last layers under way ([`super::dive`]): how far along its frontier
/// (in the order it is walked) it has gone without a game within the limit, and its
/// figures so far, so that a run killed during a walk of hours goes on from there.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct WalkState {
    /// The side walked, its depth at the frontier, and the layers walked below it.
    pub(super) side: usize,
    pub(super) depth: usize,
    pub(super) layers: usize,
    /// A CRC-32 of the frontier in the order it is walked (which rests on the bound: a
    /// walk kept by another version of pegsol may not go on).
    pub(super) order: u32,
    /// Frontier positions walked, in the walk's order.
    pub(super) walked: u64,
    /// Positions looked up and dropped by the bound, whether a position one move beyond the
    /// frontier was new to the side, and the smallest distance plus bound dropped.
    pub(super) looked: u64,
    pub(super) dropped: u64,
    pub(super) fresh: bool,
    pub(super) pruned: Option<usize>,
    /// Positions looked up and dropped at each depth below the frontier (1 to `layers`).
    pub(super) looked_per_depth: Vec<u64>,
    pub(super) dropped_per_depth: Vec<u64>,
}

/// The manifest.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Manifest {
    format: String,
    #[serde(flatten)]
    id: Identity,
    /// The bound searched now, and those searched before it (no game within them).
    limit: usize,
    tried: Vec<usize>,
    /// The figures of the bounds tried.
    figures: Vec<String>,
    /// The smallest distance plus bound among the positions dropped so far.
    pruned: Option<usize>,
    /// The best meeting of the sides so far: total moves, and the position (hexadecimal).
    best: Option<(usize, String)>,
    sides: [SideState; 2],
    /// The walk under way, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    walk: Option<WalkState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    crc32: Option<u32>,
}

impl Manifest {
    fn checksum(&self) -> u32 {
        let bare = Manifest {
            crc32: None,
            ..self.clone()
        };
        crc32fast::hash(&serde_json::to_vec(&bare).expect("a manifest serializes"))
    }
}

/// Where a search resumes: the bound, the bounds before it with their figures, what was
/// dropped, and each side's layers (depth 1 on) with its figures and whether it is done.
pub(super) struct Resume<K> {
    pub(super) limit: usize,
    pub(super) tried: Vec<usize>,
    pub(super) figures: Vec<String>,
    pub(super) pruned: Option<usize>,
    pub(super) best: Option<(usize, K)>,
    pub(super) sides: [KeptSide<K>; 2],
    pub(super) walk: Option<WalkState>,
}

/// One side of a kept search: its layers from depth 1, its figures per depth from 0, and
/// whether its last layer had no new position.
#[derive(Default)]
pub(super) struct KeptSide<K> {
    pub(super) layers: Vec<Vec<K>>,
    pub(super) figures: Vec<(usize, u64)>,
    pub(super) done: bool,
}

/// A problem's folder, locked for this run.
pub struct Work {
    dir: PathBuf,
    _lock: std::fs::File,
    id: Identity,
    /// The manifest as last written.
    manifest: Mutex<Option<Manifest>>,
}

impl Work {
    /// The folder of the search from `fwd` to `bwd` (named by `start` and `finish`) in
    /// `root`, created if missing and locked; `width` the bytes of a stored position.
    pub(super) fn open(
        root: &Path,
        board: &Board,
        (start, finish): (&str, &str),
        (fwd, bwd): (&[Pegs], &[Pegs]),
        width: usize,
    ) -> Result<Self> {
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect()
        };
        let name = format!(
            "min-moves-{}-{}-{}",
            clean(board.name()),
            clean(start),
            clean(finish)
        );
        let dir = root.join(name);
        crate::output::dirs::prepare_dir(&dir)?;
        let lock = crate::output::dirs::lock_dir(&dir, "--work-dir")?;
        // The temporary files of a killed run.
        crate::output::temps::remove_stale(&dir);
        let hex = |v: &[Pegs]| v.iter().map(|p| format!("{p:x}")).collect();
        Ok(Work {
            dir,
            _lock: lock,
            id: Identity {
                board: board.name().to_string(),
                holes: board.holes(),
                width,
                forward: hex(fwd),
                backward: hex(bwd),
            },
            manifest: Mutex::new(None),
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn damaged(&self, what: String) -> Error {
        Error::input(format!(
            "{}: {what}; the search kept there cannot be resumed (delete the folder to start it again)",
            self.dir.display()
        ))
    }

    fn layer_path(&self, side: usize, depth: usize) -> PathBuf {
        self.dir
            .join(format!("{}-{depth:02}.bin", ["forward", "backward"][side]))
    }

    /// The search kept in the folder, if any: refused when it is of another problem or
    /// does not match its checksums.
    pub(super) fn resume<K: Bits>(&self) -> Result<Option<Resume<K>>> {
        let path = self.dir.join(MANIFEST);
        let text = match std::fs::read(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.damaged(format!("cannot read {MANIFEST}: {}", io_text(&e)))),
            Ok(t) => t,
        };
        let m: Manifest = serde_json::from_slice(&text)
            .map_err(|e| self.damaged(format!("{MANIFEST} is not a manifest ({e})")))?;
        if m.format != FORMAT || m.crc32 != Some(m.checksum()) {
            return Err(self.damaged(format!("{MANIFEST} does not match its checksum")));
        }
        if m.id != self.id {
            return Err(self.damaged(format!(
                "{MANIFEST} is of another search ({} from {:?} to {:?})",
                m.id.board, m.id.forward, m.id.backward
            )));
        }
        let mut sides: [KeptSide<K>; 2] = Default::default();
        for (i, s) in m.sides.iter().enumerate() {
            if s.files.len() != s.depth || s.layers.len() != s.depth + 1 {
                return Err(self.damaged(format!("{MANIFEST} does not list every layer")));
            }
            let mut layers = Vec::with_capacity(s.depth);
            for (d, &(len, crc)) in s.files.iter().enumerate() {
                layers.push(self.read_layer::<K>(i, d + 1, len, crc)?);
            }
            sides[i] = KeptSide {
                layers,
                figures: s.layers.clone(),
                done: s.done,
            };
        }
        if let Some(w) = &m.walk
            && (w.side > 1
                || w.depth != m.sides[w.side].depth
                || w.layers == 0
                || w.looked_per_depth.len() != w.layers
                || w.dropped_per_depth.len() != w.layers)
        {
            return Err(self.damaged(format!("{MANIFEST} names a walk of no layer kept")));
        }
        let best = match &m.best {
            None => None,
            Some((t, x)) => match u128::from_str_radix(x, 16) {
                Ok(x) => Some((*t, K::from_u128(x))),
                Err(_) => return Err(self.damaged(format!("{MANIFEST} names no position"))),
            },
        };
        *self.manifest.lock().unwrap() = Some(m.clone());
        Ok(Some(Resume {
            limit: m.limit,
            tried: m.tried,
            figures: m.figures,
            pruned: m.pruned,
            best,
            sides,
            walk: m.walk,
        }))
    }

    fn read_layer<K: Bits>(
        &self,
        side: usize,
        depth: usize,
        len: usize,
        crc: u32,
    ) -> Result<Vec<K>> {
        let path = self.layer_path(side, depth);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path)
            .map_err(|e| self.damaged(format!("cannot read {name}: {}", io_text(&e))))?;
        let width = self.id.width;
        if bytes.len() != len * width || crc32fast::hash(&bytes) != crc {
            return Err(self.damaged(format!("{name} does not match its checksum")));
        }
        let mut out = Vec::with_capacity(len);
        for word in bytes.chunks_exact(width) {
            let mut w = [0u8; 16];
            w[..width].copy_from_slice(word);
            out.push(K::from_u128(u128::from_le_bytes(w)));
        }
        if out.windows(2).any(|w| w[0] >= w[1]) {
            return Err(self.damaged(format!("{name} is not sorted")));
        }
        Ok(out)
    }

    /// Starts the search bounded by `limit` (the bounds in `tried` searched before it, with
    /// `figures`), its sides as `sides` holds them at depth 0: the layers of the last
    /// bound's search are removed.
    pub(super) fn begin<K: Bits>(
        &self,
        limit: usize,
        (tried, figures): (&[usize], &[String]),
        sides: &[Side<K>; 2],
    ) -> Result<()> {
        let sources = |i: usize| SideState {
            layers: sides[i].layers.clone(),
            ..SideState::default()
        };
        let m = Manifest {
            format: FORMAT.into(),
            id: self.id.clone(),
            limit,
            tried: tried.to_vec(),
            figures: figures.to_vec(),
            pruned: None,
            best: None,
            sides: [sources(0), sources(1)],
            walk: None,
            crc32: None,
        };
        self.write_manifest(m)?;
        self.remove_layers()
    }

    /// Keeps side `i`'s new layer, then the manifest naming it: `sides` as the search holds
    /// them after the layer, `pruned` what it dropped so far and `best` its best meeting.
    pub(super) fn layer<K: Bits>(
        &self,
        i: usize,
        sides: &[Side<K>; 2],
        pruned: Option<usize>,
        best: Option<(usize, K)>,
    ) -> Result<()> {
        #[cfg(test)]
        tests::STOP.with(|stop| {
            let left = stop.get();
            stop.set(left.saturating_sub(1));
            if left == 1 {
                return Err(Error::Interrupted);
            }
            Ok(())
        })?;
        let side = &sides[i];
        let path = self.layer_path(i, side.depth);
        let crc = self.write_layer(&path, &side.frontier)?;
        let mut m = self.current();
        let s = &mut m.sides[i];
        s.files.push((side.frontier.len(), crc));
        s.depth = side.depth;
        s.done = side.done;
        s.layers = side.layers.clone();
        m.pruned = pruned;
        m.best = best.map(|(t, x)| (t, format!("{:x}", x.to_u128())));
        m.walk = None;
        self.write_manifest(m)
    }

    /// Keeps how far the walk under way has gone (see [`WalkState`]).
    pub(super) fn walked(&self, walk: &WalkState) -> Result<()> {
        let mut m = self.current();
        m.walk = Some(walk.clone());
        self.write_manifest(m)
    }

    /// The manifest as last written.
    fn current(&self) -> Manifest {
        self.manifest
            .lock()
            .unwrap()
            .clone()
            .expect("a search begun")
    }

    fn write_layer<K: Bits>(&self, path: &Path, layer: &[K]) -> Result<u32> {
        let fail = |e: std::io::Error| {
            Error::input(format!("cannot write {}: {}", path.display(), io_text(&e)))
        };
        let width = self.id.width;
        let tmp = tempfile::Builder::new()
            .prefix(&crate::output::temps::prefix("layer"))
            .tempfile_in(&self.dir)
            .map_err(fail)?;
        let mut crc = crc32fast::Hasher::new();
        {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, tmp.as_file());
            for &p in layer {
                let bytes = p.to_u128().to_le_bytes();
                crc.update(&bytes[..width]);
                out.write_all(&bytes[..width]).map_err(fail)?;
            }
            out.flush().map_err(fail)?;
        }
        tmp.as_file().sync_all().map_err(fail)?;
        tmp.persist(path).map_err(|e| fail(e.error))?;
        Ok(crc.finalize())
    }

    fn write_manifest(&self, mut m: Manifest) -> Result<()> {
        m.crc32 = Some(m.checksum());
        let bytes = serde_json::to_vec_pretty(&m).expect("a manifest serializes");
        crate::output::files::write_file_atomically(&self.dir.join(MANIFEST), &bytes)?;
        *self.manifest.lock().unwrap() = Some(m);
        Ok(())
    }

    /// Removes the layer files.
    fn remove_layers(&self) -> Result<()> {
        let entries = std::fs::read_dir(&self.dir).map_err(|e| {
            Error::input(format!(
                "cannot read {}: {}",
                self.dir.display(),
                io_text(&e)
            ))
        })?;
        for e in entries.flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "bin") {
                let _ = std::fs::remove_file(&path);
            }
        }
        Ok(())
    }

    /// The search is over: its folder goes.
    pub(super) fn finish(self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Ends, min_moves, min_moves_in};
    use crate::error::Error;
    use crate::geometry::board::{Board, bit};
    use std::cell::Cell;

    thread_local! {
        /// Layers this thread's searches keep before the next is refused as interrupted
        /// (0: never).
        pub(super) static STOP: Cell<usize> = const { Cell::new(0) };
    }

    /// A search interrupted before any of its layers is kept, then run again on its
    /// folder, gives what the search run at once gives: the game, the positions, the
    /// depths, the proof and every bound's figures (tri:6 from b3, 11 moves... to any
    /// finish, and tri:5 from every start, both sides grown).
    #[test]
    fn a_search_resumed_after_any_layer_is_the_search_run_at_once() {
        for (spec, start) in [("tri:6", Some("b3")), ("tri:5", None)] {
            let b = Board::from_spec(spec).unwrap();
            let start = start.map(|h| b.full() ^ bit(b.hole(h).unwrap()));
            let once = min_moves(&b, start, Ends::Any, u64::MAX).unwrap();
            let mut resumed = 0;
            for n in 1.. {
                let dir = tempfile::tempdir().unwrap();
                STOP.with(|s| s.set(n));
                let first = min_moves_in(&b, start, Ends::Any, u64::MAX, Some(dir.path()));
                STOP.with(|s| s.set(0));
                if first.is_ok() {
                    break;
                }
                assert!(matches!(first, Err(Error::Interrupted)));
                let again = min_moves_in(&b, start, Ends::Any, u64::MAX, Some(dir.path())).unwrap();
                assert_eq!(again.best, once.best, "{spec} stopped at layer {n}");
                assert_eq!(again.positions, once.positions);
                assert_eq!(again.depths, once.depths);
                assert_eq!(again.proof, once.proof);
                assert_eq!(again.figures, once.figures);
                assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
                resumed += 1;
            }
            assert!(resumed >= 5, "{spec}: {resumed}");
        }
    }
}
