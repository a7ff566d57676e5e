//! The other snapshots of a snapshot's canister as a script's `snapshots` host value binds
//! them, the same for `mo-mem eval`, `mo-mem repl` and the mount's `eval` files: the snapshot
//! directories beside the session's own (in the store, its canister's other snapshots), named
//! by their directory names, sorted. A script names one only by such a name, never by a path.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::catalog::Snapshots;
use crate::analysis::OpenError;
use crate::script::host::snapshots::{SiblingError, SiblingOpener};
use crate::store::StoreError;
use crate::vfs::is_snapshot_dir;

/// Why a sibling snapshot is not given to a script.
#[derive(Debug, thiserror::Error)]
pub enum SiblingRefused {
    /// Its trust verdict refuses it.
    #[error("the snapshot is not trusted: {0}")]
    NotTrusted(Arc<StoreError>),
    /// It does not open.
    #[error(transparent)]
    Open(OpenError),
}

/// The directory holding `dir` and the names of the other snapshot directories in it, sorted
/// (none if `dir` has no parent that can be read).
pub fn sibling_names(dir: &Path) -> (PathBuf, Vec<String>) {
    let own = dir.canonicalize().ok();
    let parent: PathBuf = own
        .as_ref()
        .and_then(|d| d.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    let mut names: Vec<String> = std::fs::read_dir(&parent)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| Some(p) != own.as_ref() && is_snapshot_dir(p))
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    (parent, names)
}

/// The siblings of `dir` opened through `catalog` (each opened once per process, shared with
/// its own directory in the tree, and admitted by the same trust verdict).
pub fn catalog_siblings(catalog: Arc<Snapshots>, dir: &Path) -> (Vec<String>, SiblingOpener) {
    let (parent, names) = sibling_names(dir);
    let open: SiblingOpener = Arc::new(move |name: &str| {
        let snapshot = catalog.get(&parent.join(name));
        if let Some(verdict) = snapshot.trust() {
            if let Err(why) = &*verdict {
                return Err(Arc::new(SiblingRefused::NotTrusted(why.clone())) as SiblingError);
            }
        }
        let heap = snapshot.heap().map_err(|e| SiblingRefused::Open(e.clone()));
        heap.cloned().map_err(|e| Arc::new(e) as SiblingError)
    });
    (names, open)
}
