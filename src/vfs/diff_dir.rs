//! A store canister's `diff/` directory: it lists nothing, and answers a lookup of
//! `OLD..NEW` (two of the canister's snapshot names) with a directory of the diff's files
//! ([`DIFF_FILES`]), rendered by a [`SnapshotDiffer`] (the vfs imports no analysis). The
//! canister's `latest-diff` links to the diff of its two newest snapshots.

use super::entry::{DirSource, Entry, FileSource, FnFile};
use super::error::VfsError;
use super::gate::{is_snapshot_dir, SnapshotGate};
use super::names::is_valid_name;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The name of a canister's diff directory.
pub const DIFF_DIR: &str = "diff";

/// The name of the link to the diff of a canister's two newest snapshots.
pub const LATEST_DIFF: &str = "latest-diff";

/// The files of `diff/OLD..NEW/`, in listing order.
pub const DIFF_FILES: [&str; 5] = [
    "diff.svg",
    "summary.json",
    "summary.txt",
    "types.json",
    "vars.json",
];

/// Renders the diff of two snapshot directories.
pub trait SnapshotDiffer: Send + Sync {
    /// The file `name` (one of [`DIFF_FILES`]) of the diff of `old` and `new`.
    fn diff_file(&self, old: &Path, new: &Path, name: &str) -> Result<Vec<u8>, VfsError>;
}

/// `diff/` of the canister whose snapshots are the subdirectories of `dir`.
pub struct DiffDir {
    dir: PathBuf,
    gate: Arc<dyn SnapshotGate>,
    differ: Arc<dyn SnapshotDiffer>,
}

impl DiffDir {
    /// The diff directory of the canister directory `dir`.
    pub fn new(
        dir: &Path,
        gate: Arc<dyn SnapshotGate>,
        differ: Arc<dyn SnapshotDiffer>,
    ) -> DiffDir {
        DiffDir {
            dir: dir.to_path_buf(),
            gate,
            differ,
        }
    }

    /// The snapshot directory named `name` of this canister, if it is one the gate serves.
    fn snapshot(&self, name: &str) -> Option<PathBuf> {
        if !is_valid_name(name) || name.starts_with('.') || name.contains("..") {
            return None;
        }
        let dir = self.dir.join(name);
        (dir.is_dir() && is_snapshot_dir(&dir) && self.gate.is_servable(&dir)).then_some(dir)
    }
}

/// The link target of `latest-diff`: the diff of `older` and `newer`.
pub fn latest_diff_target(older: &str, newer: &str) -> String {
    format!("{DIFF_DIR}/{older}..{newer}")
}

struct DiffFile {
    old: PathBuf,
    new: PathBuf,
    name: &'static str,
    differ: Arc<dyn SnapshotDiffer>,
}

impl FileSource for DiffFile {
    fn render(&self) -> Result<Vec<u8>, VfsError> {
        self.differ.diff_file(&self.old, &self.new, self.name)
    }
}

impl DirSource for DiffDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        let readme = "Look up OLD..NEW here (two snapshot names of this canister): \
                      cat diff/OLD..NEW/summary.txt\n";
        Ok(vec![(
            "README".to_string(),
            Entry::File(Arc::new(FnFile(move || Ok(readme.as_bytes().to_vec())))),
        )])
    }

    fn lookup_unlisted(&self, name: &str) -> Result<Option<Entry>, VfsError> {
        let Some((old, new)) = name.split_once("..") else {
            return Ok(None);
        };
        let (Some(old), Some(new)) = (self.snapshot(old), self.snapshot(new)) else {
            return Ok(None);
        };
        let files = DIFF_FILES
            .iter()
            .map(|&f| {
                let file = DiffFile {
                    old: old.clone(),
                    new: new.clone(),
                    name: f,
                    differ: self.differ.clone(),
                };
                (
                    f.to_string(),
                    Entry::File(Arc::new(file) as Arc<dyn FileSource>),
                )
            })
            .collect();
        Ok(Some(Entry::Dir(Arc::new(super::entry::StaticDir(files)))))
    }
}
