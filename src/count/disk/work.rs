//! One sweep's folder in the work directory: made and locked, its layers' folders, its
//! checkpoints written and resumed from.

use super::*;

/// One sweep's folder in the work directory.
pub(crate) struct Work {
    pub(super) dir: PathBuf,
    pub(super) id: Identity,
    /// The folder existed with a checkpoint, or this run made it.
    pub(super) made: bool,
    pub(super) keep: bool,
    /// The folder's lock ([`files::lock_dir`]), held from the first look at it.
    pub(super) lock: Option<File>,
}

/// A finished layer on disk: its folder and what each shard file holds.
#[derive(Clone, Debug)]
pub(crate) struct LayerFiles {
    /// The layer (jumps made).
    pub(crate) layer: usize,
    /// Its folder.
    pub(crate) dir: PathBuf,
    /// Per shard: entries and bytes.
    pub(crate) shards: Vec<Written>,
}

impl LayerFiles {
    /// Entries of the layer.
    pub(crate) fn entries(&self) -> u64 {
        self.shards.iter().map(|w| w.entries).sum()
    }
    /// Bytes of its files.
    pub(crate) fn bytes(&self) -> u64 {
        self.shards.iter().map(|w| w.bytes).sum()
    }
    /// The file of shard `s`.
    pub(crate) fn path(&self, s: usize) -> PathBuf {
        shard_path(&self.dir, s)
    }
}

pub(super) fn shard_path(dir: &Path, s: usize) -> PathBuf {
    dir.join(format!("shard-{s:02}"))
}

/// Whether the sweep folder `dir` holds a checkpoint (a layer to resume from).
pub(crate) fn has_checkpoint(dir: &Path) -> bool {
    dir.join(CHECKPOINT).is_file()
}

impl Work {
    /// The folder `name` of the sweep `id` under `root` (not created yet).
    pub(crate) fn new(root: &Path, name: &str, id: Identity, keep: bool) -> Work {
        Work {
            dir: root.join(folder_name(name)),
            id,
            made: false,
            keep,
            lock: None,
        }
    }

    /// Locks the folder, if it exists, for this run: another run on it is refused.
    pub(super) fn lock(&mut self) -> Result<()> {
        if self.lock.is_none() && self.dir.is_dir() {
            self.lock = Some(crate::output::files::lock_dir(&self.dir, "--work-dir")?);
        }
        Ok(())
    }

    /// The sweep's folder.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Creates the folder (and the work directory) if missing.
    pub(crate) fn create(&mut self) -> Result<()> {
        fs::create_dir_all(&self.dir).map_err(|e| io_error(&self.dir, "create", e))?;
        self.made = true;
        self.lock()
    }

    /// The folder of layer `layer`, emptied.
    pub(crate) fn fresh_layer_dir(&self, layer: usize) -> Result<PathBuf> {
        let dir = self.dir.join(format!("layer-{layer:03}"));
        if dir.exists() {
            fs::remove_dir_all(&dir).map_err(|e| io_error(&dir, "remove", e))?;
        }
        fs::create_dir_all(&dir).map_err(|e| io_error(&dir, "create", e))?;
        Ok(dir)
    }

    /// The error for a checkpoint resumed from ([`Work::resume`]) that the sweep finds
    /// inconsistent: names the file, says why, and how to start over.
    pub(crate) fn damaged(&self, why: &str) -> Error {
        Error::Disk(format!(
            "{} is damaged ({why}); remove {} to start over",
            self.dir.join(CHECKPOINT).display(),
            self.dir.display()
        ))
    }

    /// The sweep's identity.
    pub(crate) fn id(&self) -> &Identity {
        &self.id
    }

    /// Records `files` as the layer to resume from, with the statistics so far, then
    /// removes every other layer's folder.
    pub(crate) fn checkpoint(&self, files: &LayerFiles, progress: &Progress) -> Result<()> {
        self.write_checkpoint(files, progress)?;
        self.remove_layers_but(Some(files.layer))
    }

    /// Records `files` as the layer to resume from, as [`Work::checkpoint`] does, but keeps
    /// the checkpoint before it (as `checkpoint-prev.json`) and its layer's files, for a
    /// sweep shared by several MPI ranks: until every rank has recorded the new layer, the
    /// job must be able to resume from the old one ([`Work::forget_before`]).
    pub(crate) fn checkpoint_keeping(&self, files: &LayerFiles, progress: &Progress) -> Result<()> {
        let path = self.dir.join(CHECKPOINT);
        if path.exists() {
            let prev = self.dir.join(PREVIOUS);
            fs::rename(&path, &prev).map_err(|e| io_error(&prev, "rename into", e))?;
        }
        self.write_checkpoint(files, progress)
    }

    /// Removes the checkpoint [`Work::checkpoint_keeping`] kept and every layer's folder but
    /// `layer`'s.
    pub(crate) fn forget_before(&self, layer: usize) -> Result<()> {
        let prev = self.dir.join(PREVIOUS);
        if prev.exists() {
            fs::remove_file(&prev).map_err(|e| io_error(&prev, "remove", e))?;
        }
        self.remove_layers_but(Some(layer))
    }

    pub(super) fn write_checkpoint(&self, files: &LayerFiles, progress: &Progress) -> Result<()> {
        sync_dir(&files.dir)?;
        let ck = Checkpoint {
            format: FORMAT.into(),
            id: self.id.clone(),
            layer: files.layer,
            shards: files.shards.iter().map(|w| (w.entries, w.bytes)).collect(),
            progress: progress.clone(),
            crc32: None,
        };
        let ck = Checkpoint {
            crc32: Some(ck.checksum()),
            ..ck
        };
        let path = self.dir.join(CHECKPOINT);
        let tmp = self.dir.join("checkpoint.json.tmp");
        let text = serde_json::to_vec_pretty(&ck).expect("a checkpoint serializes");
        let mut f = File::create(&tmp).map_err(|e| io_error(&tmp, "create", e))?;
        f.write_all(&text)
            .and_then(|_| f.sync_all())
            .map_err(|e| io_error(&tmp, "write", e))?;
        fs::rename(&tmp, &path).map_err(|e| io_error(&path, "rename into", e))?;
        File::open(&self.dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| io_error(&self.dir, "sync", e))
    }

    /// Removes the folders of every layer but `keep`, and other leftovers.
    pub(super) fn remove_layers_but(&self, keep: Option<usize>) -> Result<()> {
        let Ok(read) = fs::read_dir(&self.dir) else {
            return Ok(());
        };
        let keep = keep.map(|l| format!("layer-{l:03}"));
        for e in read.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if (name.starts_with("layer-") || name == "reduce") && Some(&name) != keep.as_ref() {
                let p = e.path();
                fs::remove_dir_all(&p).map_err(|e| io_error(&p, "remove", e))?;
            }
        }
        Ok(())
    }

    /// The checkpoint to resume from, if the folder has one: the layer's files (each header
    /// and length checked, and every checksum when `verify` is given) and the statistics so
    /// far. A checkpoint of another sweep, or a damaged one, is refused.
    pub(crate) fn resume(
        &mut self,
        verify: impl Fn(&Path, usize, usize) -> Result<u64>,
    ) -> Result<Option<(LayerFiles, Progress)>> {
        match self.checkpoint_layers()?.first() {
            Some(&layer) => self.resume_layer(Some(layer), verify),
            None => Ok(None),
        }
    }

    /// The layers the folder's checkpoints name, newest first: the last one and, when a
    /// sweep of several MPI ranks stopped before every rank recorded its layer, the one
    /// before ([`Work::checkpoint_keeping`]).
    pub(crate) fn checkpoint_layers(&mut self) -> Result<Vec<usize>> {
        self.lock()?;
        let mut layers = Vec::new();
        for name in [CHECKPOINT, PREVIOUS] {
            if let Some(ck) = self.read_checkpoint(name)? {
                layers.push(ck.layer);
            }
        }
        layers.sort_unstable_by(|a, b| b.cmp(a));
        layers.dedup();
        Ok(layers)
    }

    /// Resumes from the checkpoint of `layer` ([`Work::checkpoint_layers`]), as
    /// [`Work::resume`] does; with `None`, forgets every checkpoint and layer of the folder
    /// (the sweep starts over: another rank of the job had none).
    pub(crate) fn resume_layer(
        &mut self,
        layer: Option<usize>,
        verify: impl Fn(&Path, usize, usize) -> Result<u64>,
    ) -> Result<Option<(LayerFiles, Progress)>> {
        let Some(layer) = layer else {
            for name in [CHECKPOINT, PREVIOUS] {
                let p = self.dir.join(name);
                if p.exists() {
                    fs::remove_file(&p).map_err(|e| io_error(&p, "remove", e))?;
                    self.made = true;
                }
            }
            self.remove_layers_but(None)?;
            return Ok(None);
        };
        let mut found = None;
        for name in [CHECKPOINT, PREVIOUS] {
            if let Some(ck) = self.read_checkpoint(name)?
                && ck.layer == layer
                && found.is_none()
            {
                found = Some((name, ck));
            }
        }
        let path = self.dir.join(CHECKPOINT);
        let Some((name, ck)) = found else {
            return Err(Error::Disk(format!(
                "{} has no checkpoint of layer {layer}, where the other ranks of the job \
                 resume; remove {} to start over",
                self.dir.display(),
                self.dir.display()
            )));
        };
        // One checkpoint from here on: the one resumed from.
        let prev = self.dir.join(PREVIOUS);
        if name == PREVIOUS {
            fs::rename(&prev, &path).map_err(|e| io_error(&path, "rename into", e))?;
        } else if prev.exists() {
            fs::remove_file(&prev).map_err(|e| io_error(&prev, "remove", e))?;
        }
        let bad = |why: String| {
            Error::Disk(format!(
                "{} is not a usable checkpoint ({why}); remove {} to start over",
                path.display(),
                self.dir.display()
            ))
        };
        self.made = true;
        self.remove_layers_but(Some(ck.layer))?;
        let dir = self.dir.join(format!("layer-{:03}", ck.layer));
        let mut shards = Vec::new();
        for (s, &(entries, bytes)) in ck.shards.iter().enumerate() {
            let p = shard_path(&dir, s);
            let n = verify(&p, ck.layer, s)?;
            let len = fs::metadata(&p).map_err(|e| io_error(&p, "read", e))?.len();
            if n != entries || len != bytes {
                return Err(bad(format!("{} does not match it", p.display())));
            }
            shards.push(Written { entries, bytes });
        }
        Ok(Some((
            LayerFiles {
                layer: ck.layer,
                dir,
                shards,
            },
            ck.progress,
        )))
    }

    /// The checkpoint file `name` of the folder, checked to be this sweep's; `None` when
    /// there is none.
    pub(super) fn read_checkpoint(&self, name: &str) -> Result<Option<Checkpoint>> {
        let path = self.dir.join(name);
        let mut text = Vec::new();
        match open_regular(&path).and_then(|mut f| f.read_to_end(&mut text)) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                return Err(Error::Disk(format!(
                    "{} is {e}; remove {} to start over",
                    path.display(),
                    self.dir.display()
                )));
            }
            Err(e) => return Err(io_error(&path, "read", e)),
        }
        let bad = |why: String| {
            Error::Disk(format!(
                "{} is not a usable checkpoint ({why}); remove {} to start over",
                path.display(),
                self.dir.display()
            ))
        };
        let damaged = |why: String| {
            Error::Disk(format!(
                "{} is damaged ({why}); remove {} to start over",
                path.display(),
                self.dir.display()
            ))
        };
        let ck: Checkpoint =
            serde_json::from_slice(&text).map_err(|e| damaged(format!("unreadable: {e}")))?;
        ck.sealed(&text).map_err(damaged)?;
        if ck.format != FORMAT {
            return Err(bad(format!("format {:?}", ck.format)));
        }
        if ck.id != self.id {
            return Err(bad(format!(
                "it belongs to another sweep: {} from {:?}",
                ck.id.board, ck.id.starts
            )));
        }
        ck.consistent().map_err(damaged)?;
        Ok(Some(ck))
    }

    /// After a successful sweep: removes the folder (and the work directory, if that
    /// leaves it empty) unless asked to keep it.
    pub(crate) fn finish(self) -> Result<()> {
        if self.keep || !self.made {
            return Ok(());
        }
        remove_work(&self.dir)
    }

    /// After a successful sweep whose results are not yet written: the folder to remove
    /// once they are ([`remove_work`]), if there is one to remove.
    pub(crate) fn defer(self) -> Option<PathBuf> {
        (!self.keep && self.made).then_some(self.dir)
    }
}
