//! The files of a store canister's `diff/OLD..NEW/` (the vfs's [`crate::vfs::diff_dir`]
//! serves them): the diff of two snapshots from the catalog (each opened once, trusted as
//! their own directories are, their analyses cached with them), computed on the first
//! access to one of its files and kept (the last few).
//!
//! Each file is what a command prints: `summary.txt` is `mo-mem diff OLD NEW`; the
//! JSON files are parts of `mo-mem diff OLD NEW --json` (`summary.json` without the lists,
//! `vars.json` its `vars`, `types.json` its `types`).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use super::catalog::Snapshots;
use super::decoder::open_error;
use crate::analysis::diff::json::{types_json, vars_json, SummaryJson};
use crate::analysis::diff::summary::summary_text;
use crate::analysis::diff::SnapshotDiff;
use crate::analysis::json::pretty;
use crate::analysis::progress::NoProgress;
use crate::analysis::OpenedHeap;
use crate::vfs::diff_dir::SnapshotDiffer;
use crate::vfs::{DecodeFailure, Untrusted, VfsError};

/// How many diffs are kept rendered.
pub const KEPT_DIFFS: usize = 4;

type Rendered = Arc<OnceLock<Arc<SnapshotDiff>>>;

/// Diffs of the catalog's snapshots, the last [`KEPT_DIFFS`] kept.
pub struct CatalogDiffer {
    snapshots: Arc<Snapshots>,
    kept: Mutex<VecDeque<((PathBuf, PathBuf), Rendered)>>,
}

impl CatalogDiffer {
    /// Diffs of `snapshots`' snapshots.
    pub fn new(snapshots: Arc<Snapshots>) -> CatalogDiffer {
        CatalogDiffer {
            snapshots,
            kept: Mutex::new(VecDeque::new()),
        }
    }

    /// The heap of the snapshot in `dir` once its trust verdict (if the catalog checks
    /// trust) admits it.
    fn heap(&self, dir: &Path) -> Result<Arc<OpenedHeap>, VfsError> {
        let snapshot = self.snapshots.get(dir);
        if let Some(verdict) = snapshot.trust() {
            if let Err(why) = &*verdict {
                return Err(VfsError::NotTrusted(Untrusted::Refused(why.clone())));
            }
        }
        snapshot.heap().cloned().map_err(|e| open_error(dir, e))
    }

    fn diff(&self, old: &Path, new: &Path) -> Result<Arc<SnapshotDiff>, VfsError> {
        let key = (old.to_path_buf(), new.to_path_buf());
        let slot = {
            let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
            match kept.iter().find(|(k, _)| *k == key) {
                Some((_, slot)) => slot.clone(),
                None => {
                    let slot = Rendered::default();
                    kept.push_back((key, slot.clone()));
                    if kept.len() > KEPT_DIFFS {
                        kept.pop_front();
                    }
                    slot
                }
            }
        };
        if let Some(d) = slot.get() {
            return Ok(d.clone());
        }
        // Not kept while it fails (a snapshot refused now may be admitted later).
        let (a, b) = (self.heap(old)?, self.heap(new)?);
        let d = SnapshotDiff::compute(&a, &b, &NoProgress)
            .map_err(|e| VfsError::TooLarge(format!("diff: {e}")))?;
        Ok(slot.get_or_init(|| Arc::new(d)).clone())
    }
}

impl SnapshotDiffer for CatalogDiffer {
    fn diff_file(&self, old: &Path, new: &Path, name: &str) -> Result<Vec<u8>, VfsError> {
        if name == "diff.svg" {
            let (a, b) = (self.heap(old)?, self.heap(new)?);
            return crate::analysis::flame::diff_svg(&a, &b)
                .map_err(|e| VfsError::TooLarge(format!("diff/diff.svg: {e}")));
        }
        let d = self.diff(old, new)?;
        let json = |value: Result<Vec<u8>, serde_json::Error>| {
            value.map_err(|e| VfsError::decode(format!("diff/{name}"), DecodeFailure::render(e)))
        };
        match name {
            "summary.txt" => Ok(summary_text(&d).into_bytes()),
            "summary.json" => json(pretty(&SummaryJson::new(&d))),
            "vars.json" => json(pretty(&vars_json(&d))),
            "types.json" => json(pretty(&types_json(&d))),
            _ => Err(VfsError::NotFound(format!("diff/{name}"))),
        }
    }
}
