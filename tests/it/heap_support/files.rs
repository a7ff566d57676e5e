//! The four files of one snapshot directory, held in memory for the hostile-input tests: each
//! run builds a snapshot over a (mutated) image, and gives the image back for the next run.

use std::path::Path;
use std::sync::Arc;

use mo_mem::heap::Heap;
use mo_mem::image::{Image, ReaderLimits};
use mo_mem::module::ModuleFacts;
use mo_mem::snapshot::metadata::SnapshotMetadata;
use mo_mem::snapshot::{Snapshot, SnapshotError};

/// A snapshot directory's files (a missing file reads as empty).
pub struct SnapshotFiles {
    /// The snapshot's label in messages.
    pub label: String,
    /// `metadata.json`.
    pub metadata: Vec<u8>,
    /// `wasm_module.bin`.
    pub module: Vec<u8>,
    /// `wasm_memory.bin`.
    pub memory: Vec<u8>,
    /// `stable_memory.bin`, shared by every run (the `regions` stable memory is 49 MiB:
    /// copying it per run made the hostile tests minutes of memcpy).
    pub stable: Arc<[u8]>,
}

impl SnapshotFiles {
    /// Reads the files of the snapshot directory `dir`.
    pub fn read(dir: &Path, label: &str) -> SnapshotFiles {
        let r = |n: &str| std::fs::read(dir.join(n)).unwrap_or_default();
        SnapshotFiles {
            label: label.to_string(),
            metadata: r("metadata.json"),
            module: r("wasm_module.bin"),
            memory: r("wasm_memory.bin"),
            stable: r("stable_memory.bin").into(),
        }
    }

    /// A snapshot of `memory` with `metadata` and `module` in place of the files' own.
    pub fn snapshot(
        &self,
        metadata: &[u8],
        module: &[u8],
        memory: Vec<u8>,
    ) -> Result<Snapshot, SnapshotError> {
        Snapshot::from_images(
            Some(metadata),
            Some(Image::from_vec(module.to_vec())),
            Image::from_vec(memory),
            Some(Image::from_shared(self.stable.clone())),
        )
    }

    /// The files' metadata with the main memory size set to `size` (so that a truncated image
    /// still matches its metadata and reaches the walk).
    pub fn metadata_with_memory_size(&self, size: u64) -> Vec<u8> {
        let mut meta = SnapshotMetadata::from_json(&self.metadata).expect("fixture metadata");
        meta.0.wasm_memory_size = size;
        meta.to_json_pretty().expect("serialize").into_bytes()
    }

    /// The heap over `memory` with the files' metadata and module, or `None` if refused.
    pub fn open(&self, memory: Vec<u8>, facts: &ModuleFacts, limits: ReaderLimits) -> Option<Heap> {
        let snap = self.snapshot(&self.metadata, &self.module, memory).ok()?;
        Heap::open_with_module(snap, Some(facts.clone()), limits).ok()
    }

    /// The image for the next run: `back` (what the last run gave back) if it is still the
    /// original's size, else a fresh copy of the original.
    pub fn reuse(&self, back: Vec<u8>) -> Vec<u8> {
        if back.len() == self.memory.len() {
            back
        } else {
            self.memory.clone()
        }
    }
}

/// The image a heap was opened over (empty if it was not held in memory).
pub fn give_back(heap: Heap) -> Vec<u8> {
    heap.into_snapshot()
        .into_memory()
        .into_vec()
        .unwrap_or_default()
}

/// `MOMEM_FUZZ_SCALE` (default 1): how many times the seeded cases are multiplied.
pub fn fuzz_scale() -> usize {
    std::env::var("MOMEM_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}
