//! Which directories are snapshot directories, the raw files they hold, and the gate that
//! decides which of them are served.

use std::path::Path;

/// The raw files of a snapshot directory that are served as they are.
pub const RAW_FILES: [&str; 4] = [
    "metadata.json",
    "stable_memory.bin",
    "wasm_memory.bin",
    "wasm_module.bin",
];

/// Whether `dir` looks like a snapshot directory (holds a main-memory image or metadata).
pub fn is_snapshot_dir(dir: &Path) -> bool {
    dir.join("wasm_memory.bin").is_file() || dir.join("metadata.json").is_file()
}

/// Decides which snapshot directories are served. The store owns the rule (a snapshot is
/// complete once its manifest is written, after its checks pass; a download or pull under
/// way is not served); the tree takes it through this seam (`crate::serve` supplies it).
pub trait SnapshotGate: Send + Sync {
    /// Whether the snapshot directory `dir` of a store may be served.
    fn is_servable(&self, dir: &Path) -> bool;
    /// Whether `dir` (any snapshot directory) is still being written, so not served.
    fn is_in_progress(&self, dir: &Path) -> bool;
}
