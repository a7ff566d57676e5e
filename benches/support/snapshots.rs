//! Snapshot directories for the heap benchmarks (included by `heap_walk` and `retained`).

use std::path::{Path, PathBuf};

/// The snapshot directories `root/NAME/MODE` (those holding a `metadata.json`).
pub fn snapshot_dirs(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for name in std::fs::read_dir(root).into_iter().flatten().flatten() {
        for mode in std::fs::read_dir(name.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if mode.path().join("metadata.json").exists() {
                out.push(mode.path());
            }
        }
    }
    out
}
