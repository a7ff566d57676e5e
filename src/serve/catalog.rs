//! [`Snapshots`]: one [`OpenedSnapshot`] per snapshot directory, shared by everything that
//! serves it (the file tree, the `eval` file, a command), so each is opened once per
//! process, also when the tree forgets and remakes its directory node. A directory whose
//! main-memory image was replaced (another inode, size or time) is a new snapshot.

use crate::analysis::{OpenError, OpenedHeap};
use crate::image::ReaderLimits;
use crate::vfs::guard::Fingerprint;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// One snapshot directory as served: opened (images read, module parsed, heap detected) on
/// first use, once, and shared by every reader while any of them holds it.
pub struct OpenedSnapshot {
    dir: PathBuf,
    limits: ReaderLimits,
    heap: OnceLock<Result<Arc<OpenedHeap>, OpenError>>,
    opens: Arc<AtomicU64>,
}

impl OpenedSnapshot {
    /// The snapshot directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The opened heap, or why the snapshot cannot be opened (opened on the first call; a
    /// failure is kept, not retried).
    pub fn heap(&self) -> Result<&Arc<OpenedHeap>, &OpenError> {
        self.heap
            .get_or_init(|| {
                self.opens.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(snapshot = %self.dir.display(), "opening the snapshot");
                OpenedHeap::open_with_limits(&self.dir, self.limits).map(Arc::new)
            })
            .as_ref()
    }
}

/// A served snapshot with the fingerprint of its main-memory image when it was first seen.
type Served = (Option<Fingerprint>, Arc<OpenedSnapshot>);

/// The snapshots a process serves, each opened at most once.
pub struct Snapshots {
    limits: ReaderLimits,
    open: Mutex<HashMap<PathBuf, Served>>,
    opens: Arc<AtomicU64>,
}

impl Snapshots {
    /// Snapshots read under `limits`.
    pub fn new(limits: ReaderLimits) -> Snapshots {
        Snapshots {
            limits,
            open: Mutex::new(HashMap::new()),
            opens: Arc::default(),
        }
    }

    /// The reader limits every snapshot is opened under.
    pub fn limits(&self) -> ReaderLimits {
        self.limits
    }

    /// The snapshot in `dir`: the one already served if its image is unchanged, else a new
    /// one (not opened yet).
    pub fn get(&self, dir: &Path) -> Arc<OpenedSnapshot> {
        let key = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let image = Fingerprint::of_path(&key.join("wasm_memory.bin")).ok();
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((seen, snapshot)) = open.get(&key) {
            if *seen == image {
                return snapshot.clone();
            }
        }
        let snapshot = Arc::new(OpenedSnapshot {
            dir: dir.to_path_buf(),
            limits: self.limits,
            heap: OnceLock::new(),
            opens: self.opens.clone(),
        });
        open.insert(key, (image, snapshot.clone()));
        snapshot
    }

    /// How many times a snapshot has been opened (a test's hook: once per snapshot).
    pub fn opens(&self) -> u64 {
        self.opens.load(Ordering::Relaxed)
    }
}
