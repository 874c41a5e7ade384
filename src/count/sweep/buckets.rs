//! The canonical forms of a layer on disk, bucketed by hash, for the positions up to the
//! whole group.

use super::SHARDS;
use crate::error::{Error, Result};
use crate::geometry::bits::Bits;
use std::path::{Path, PathBuf};

/// The canonical forms under `K` of a layer on disk, in [`SHARDS`] bucket files by a hash
/// of the form, so that each bucket's distinct forms are counted in memory on their own.
pub(super) struct Buckets<K> {
    pub(super) dir: PathBuf,
    pub(super) files: Vec<std::io::BufWriter<std::fs::File>>,
    /// The mask of starts beside the form, in bits (0 with one start).
    pub(super) shift: usize,
    pub(super) _key: std::marker::PhantomData<K>,
}

impl<K: Bits> Buckets<K> {
    pub(super) fn new(work: &Path, shift: usize) -> Result<Self> {
        let dir = work.join("reduce");
        let fail = |e: std::io::Error| Error::Disk(format!("cannot write {}: {e}", dir.display()));
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(fail)?;
        }
        std::fs::create_dir_all(&dir).map_err(fail)?;
        let files = (0..SHARDS)
            .map(|b| {
                std::fs::File::create(dir.join(format!("bucket-{b:02}")))
                    .map(|f| std::io::BufWriter::with_capacity(1 << 16, f))
                    .map_err(fail)
            })
            .collect::<Result<_>>()?;
        Ok(Buckets {
            dir,
            files,
            shift,
            _key: std::marker::PhantomData,
        })
    }

    pub(super) fn push(&mut self, forms: &[K]) -> Result<()> {
        use std::io::Write;
        for &f in forms {
            let b = (f >> self.shift).shard(SHARDS);
            self.files[b]
                .write_all(&Bits::to_u128(f).to_le_bytes()[..size_of::<K>()])
                .map_err(|e| Error::Disk(format!("cannot write {}: {e}", self.dir.display())))?;
        }
        Ok(())
    }

    /// The sum over the buckets of `distinct` of each bucket's forms; removes the buckets.
    pub(super) fn distinct<const N: usize>(
        self,
        distinct: impl Fn(&mut [K]) -> [u64; N],
    ) -> Result<[u64; N]> {
        let fail =
            |e: std::io::Error| Error::Disk(format!("cannot read {}: {e}", self.dir.display()));
        let mut total = [0u64; N];
        for (b, file) in self.files.into_iter().enumerate() {
            file.into_inner().map_err(|e| fail(e.into_error()))?;
            let bytes = std::fs::read(self.dir.join(format!("bucket-{b:02}"))).map_err(fail)?;
            let mut forms: Vec<K> = bytes
                .chunks_exact(size_of::<K>())
                .map(|c| {
                    let mut x = [0u8; 16];
                    x[..c.len()].copy_from_slice(c);
                    K::from_u128(u128::from_le_bytes(x))
                })
                .collect();
            for (t, d) in total.iter_mut().zip(distinct(&mut forms)) {
                *t += d;
            }
        }
        std::fs::remove_dir_all(&self.dir).map_err(fail)?;
        Ok(total)
    }
}
