//! The pull transaction, one for both protocols: a snapshot directory locked for the pull, its
//! progress file (started fresh or resumed only when it describes the same snapshot), each
//! finished read written, synced and only then recorded, and the manifest written last, once
//! every check has passed. The IC client only fetches bytes and hands them in.

use super::super::checks::chunk_rel_path;
use super::super::error::{io_at, StoreError};
use super::super::fsutil::{atomic_write, create_private_dir, open_private_rw, sync_parent};
use super::super::import::now_ns;
use super::super::{files, DirLock, Manifest, Source, Store, StoreKey, MANIFEST_FILE};
use super::plan::{slice_items, Blob, Item};
use super::state::{PullState, STATE_VERSION};
use crate::snapshot::download::PULL_STATE_FILE;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// The largest slice a pull reads (the IC's limit for `read_canister_snapshot_data`).
pub const MAX_SLICE: u64 = 2_000_000;

/// A snapshot directory locked for a pull (released on drop), and the progress an earlier,
/// interrupted run left in it.
#[derive(Debug)]
pub struct PullDir {
    dir: PathBuf,
    lock: DirLock,
    saved: Option<PullState>,
}

impl PullDir {
    /// Locks `<store>/<canister>/<label>` for a pull (refused while another process pulls it)
    /// and reads the progress file an interrupted run left there, if any.
    pub fn lock(store: &Store, canister: &str, label: &str) -> Result<PullDir, StoreError> {
        let dir = store.snapshot_dir(canister, label)?;
        let lock = DirLock::acquire(&dir)?;
        let state_path = dir.join(PULL_STATE_FILE);
        let saved = if dir.join(MANIFEST_FILE).exists() || !state_path.exists() {
            None
        } else {
            Some(PullState::load(&state_path)?)
        };
        Ok(PullDir { dir, lock, saved })
    }

    /// The snapshot directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether the snapshot is complete already: its manifest exists and verifies under `key`
    /// (an error if it does not). A progress file left beside a manifest is removed.
    pub fn complete(&self, key: &StoreKey) -> Result<bool, StoreError> {
        if !self.dir.join(MANIFEST_FILE).exists() {
            return Ok(false);
        }
        Manifest::verify(&self.dir, key)?;
        let _ = std::fs::remove_file(self.dir.join(PULL_STATE_FILE));
        Ok(true)
    }

    /// Whether an interrupted run's progress is here to resume.
    pub fn resumable(&self) -> bool {
        self.saved.is_some()
    }

    /// The refusal to resume this directory's pull, for `reason`.
    pub fn refuse(&self, reason: impl Into<String>) -> StoreError {
        StoreError::ResumeRefused {
            dir: self.dir.clone(),
            reason: reason.into(),
        }
    }

    /// Starts the pull of `start`'s snapshot, or resumes the interrupted one when its progress
    /// file describes the same snapshot (same canister, label and metadata, a valid slice
    /// size); refuses to resume anything else, so two snapshots are never mixed.
    pub fn begin(self, start: Start) -> Result<PullTransaction, StoreError> {
        let state_path = self.dir.join(PULL_STATE_FILE);
        let resumed = self.saved.is_some();
        let state = match &self.saved {
            Some(saved) => {
                self.check_resume(saved, &start)?;
                saved.clone()
            }
            None => self.start_fresh(&start, &state_path)?,
        };
        Ok(PullTransaction {
            dir: self.dir,
            _lock: self.lock,
            state_path,
            state,
            resumed,
            files: BTreeMap::new(),
            sizes: BTreeMap::new(),
        })
    }

    fn check_resume(&self, saved: &PullState, start: &Start) -> Result<(), StoreError> {
        if saved.canister != start.canister || saved.snapshot != start.label {
            return Err(self.refuse(format!(
                "the progress file belongs to {}/{}",
                saved.canister, saved.snapshot
            )));
        }
        if saved.metadata != start.metadata {
            return Err(self.refuse(format!(
                "snapshot {} changed since the pull started (its metadata differs)",
                start.label
            )));
        }
        if saved.slice_size == 0 || saved.slice_size > MAX_SLICE {
            return Err(self.refuse(format!(
                "the progress file has an invalid slice size {}",
                saved.slice_size
            )));
        }
        Ok(())
    }

    fn start_fresh(&self, start: &Start, state_path: &Path) -> Result<PullState, StoreError> {
        if self.dir.exists() {
            // Left by a run killed before its first progress file: nothing in it is vouched for.
            std::fs::remove_dir_all(&self.dir).map_err(io_at(&self.dir))?;
        }
        create_private_dir(&self.dir)?;
        if start.chunk_store {
            create_private_dir(&self.dir.join(files::CHUNK_STORE))?;
        }
        let (name, bytes) = &start.metadata_file;
        atomic_write(&self.dir.join(name), bytes)?;
        let state = PullState {
            version: STATE_VERSION,
            network: start.network.clone(),
            canister: start.canister.clone(),
            snapshot: start.label.clone(),
            metadata: start.metadata.clone(),
            slice_size: start.slice_size,
            slices_done: BTreeMap::new(),
            chunks_done: BTreeSet::new(),
        };
        state.save(state_path)?;
        Ok(state)
    }
}

/// What a pull is pulling.
#[derive(Debug, Clone)]
pub struct Start {
    /// The network's label.
    pub network: String,
    /// The canister.
    pub canister: String,
    /// The snapshot's directory name in the store.
    pub label: String,
    /// The snapshot's description as the IC gave it; a resumed pull must find it unchanged.
    pub metadata: serde_json::Value,
    /// The file (name and bytes) that describes the snapshot in the directory, written first.
    pub metadata_file: (&'static str, Vec<u8>),
    /// Bytes per slice read, 1 to [`MAX_SLICE`] (a resumed pull keeps its own).
    pub slice_size: u64,
    /// Whether the directory has a chunk store (`wasm_chunk_store/`).
    pub chunk_store: bool,
}

/// A pull under way: its locked directory, progress file and open blob files.
#[derive(Debug)]
pub struct PullTransaction {
    dir: PathBuf,
    _lock: DirLock,
    state_path: PathBuf,
    state: PullState,
    resumed: bool,
    files: BTreeMap<Blob, File>,
    sizes: BTreeMap<Blob, u64>,
}

/// The reads a pull still has to make.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// The reads not recorded as done.
    pub items: Vec<Item>,
    /// The bytes an earlier run had done.
    pub done_bytes: u64,
    /// All bytes of the blobs.
    pub total_bytes: u64,
}

impl PullTransaction {
    /// The snapshot directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether this pull continues an interrupted one.
    pub fn resumed(&self) -> bool {
        self.resumed
    }

    /// Bytes per slice (an interrupted pull's own on resume).
    pub fn slice_size(&self) -> u64 {
        self.state.slice_size
    }

    /// Opens the blob files at their sizes and lists the reads not done yet: the slices of
    /// each blob, and the chunk-store entries (by SHA-256) whose files are missing.
    pub fn plan(&mut self, blobs: &[(Blob, u64)], chunks: &[Vec<u8>]) -> Result<Plan, StoreError> {
        let mut plan = Plan::default();
        for &(blob, size) in blobs {
            let path = self.dir.join(blob.file());
            let f = open_private_rw(&path)?;
            if f.metadata().map_err(io_at(&path))?.len() != size {
                f.set_len(size).map_err(io_at(&path))?;
            }
            let done = self
                .state
                .slices_done
                .entry(blob.file().to_string())
                .or_default();
            let (mut todo, already) = slice_items(blob, size, self.state.slice_size, done);
            plan.items.append(&mut todo);
            plan.done_bytes += already;
            plan.total_bytes += size;
            self.files.insert(blob, f);
            self.sizes.insert(blob, size);
        }
        for hash in chunks {
            let h = hex::encode(hash);
            let on_disk = self.dir.join(chunk_rel_path(hash)).is_file();
            if !self.state.chunks_done.contains(&h) || !on_disk {
                self.state.chunks_done.remove(&h);
                plan.items.push(Item::Chunk { hash: hash.clone() });
            }
        }
        Ok(plan)
    }

    /// Writes one finished read: a slice at its offset (its length checked), or a chunk-store
    /// entry (its SHA-256 checked) atomically. It counts as done only after [`Self::commit`].
    pub fn write(&self, item: &Item, data: &[u8]) -> Result<(), StoreError> {
        match item {
            Item::Slice {
                blob, offset, len, ..
            } => {
                let path = self.dir.join(blob.file());
                if data.len() as u64 != *len {
                    return Err(StoreError::BadDownload {
                        path,
                        reason: format!(
                            "{} bytes for the {len}-byte slice at offset {offset}",
                            data.len()
                        ),
                    });
                }
                let f = self
                    .files
                    .get(blob)
                    .ok_or_else(|| StoreError::BadDownload {
                        path: path.clone(),
                        reason: "a slice of a blob the pull did not plan".into(),
                    })?;
                f.write_all_at(data, *offset).map_err(io_at(&path))
            }
            Item::Chunk { hash } => {
                let path = self.dir.join(chunk_rel_path(hash));
                if Sha256::digest(data)[..] != hash[..] {
                    return Err(StoreError::BadDownload {
                        path,
                        reason: "the chunk-store entry read has a different SHA-256".into(),
                    });
                }
                atomic_write(&path, data)
            }
        }
    }

    /// Records `finished` reads (each already [`Self::write`]n) as done: syncs the blobs they
    /// wrote, then rewrites the progress file atomically.
    pub fn commit(&mut self, finished: &[Item]) -> Result<(), StoreError> {
        let touched: BTreeSet<Blob> = finished
            .iter()
            .filter_map(|i| match i {
                Item::Slice { blob, .. } => Some(*blob),
                Item::Chunk { .. } => None,
            })
            .collect();
        for blob in touched {
            if let Some(f) = self.files.get(&blob) {
                f.sync_data().map_err(io_at(&self.dir.join(blob.file())))?;
            }
        }
        for item in finished {
            match item {
                Item::Slice { blob, index, .. } => {
                    let done = self.state.slices_done.entry(blob.file().to_string());
                    done.or_default().insert(*index);
                }
                Item::Chunk { hash } => {
                    self.state.chunks_done.insert(hex::encode(hash));
                }
            }
        }
        self.state.save(&self.state_path)
    }

    /// Ends the pull: every planned read done and every blob at its size, then `check` (the
    /// protocol's own checks of the directory), then the manifest, and only then the progress
    /// file removed. A directory that fails a check is discarded whole (blobs at full length
    /// without a progress file would look finished), and the error says to pull again.
    pub fn finish(
        mut self,
        check: impl FnOnce(&Path) -> Result<(), StoreError>,
        source: Source,
        key: &StoreKey,
    ) -> Result<PathBuf, StoreError> {
        std::mem::take(&mut self.files);
        if let Err(e) = self.check_complete().and_then(|()| check(&self.dir)) {
            let _ = std::fs::remove_dir_all(&self.dir);
            return Err(StoreError::Discarded {
                dir: self.dir.clone(),
                reason: e.to_string(),
            });
        }
        Manifest::build(&self.dir, source)?.write(&self.dir, key)?;
        std::fs::remove_file(&self.state_path).map_err(io_at(&self.state_path))?;
        sync_parent(&self.state_path)?;
        Ok(self.dir.clone())
    }

    /// Every planned slice recorded and every blob at its planned size.
    fn check_complete(&self) -> Result<(), StoreError> {
        for (&blob, &size) in &self.sizes {
            let path = self.dir.join(blob.file());
            let n = size.div_ceil(self.state.slice_size.max(1));
            let done = self.state.slices_done.get(blob.file());
            let recorded = done.map_or(0, |d| d.len() as u64);
            if recorded != n {
                return Err(StoreError::BadDownload {
                    path,
                    reason: format!("{recorded} of its {n} slices were recorded as written"),
                });
            }
            let actual = std::fs::metadata(&path).map_err(io_at(&path))?.len();
            if actual != size {
                return Err(StoreError::SizeMismatch {
                    path,
                    expected: size,
                    actual,
                });
            }
        }
        Ok(())
    }
}

/// The source a finished pull records in its manifest.
pub fn source(
    network: &str,
    canister: &str,
    label: &str,
    taken_at_ns: u64,
    method: &str,
) -> Source {
    Source {
        network: network.into(),
        canister: canister.into(),
        snapshot: label.into(),
        taken_at_ns,
        acquired_at_ns: now_ns(),
        method: method.into(),
    }
}
