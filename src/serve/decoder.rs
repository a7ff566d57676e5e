//! The file tree's [`Decoder`] over [`Snapshots`]: a snapshot directory's decoded entries
//! come from the one opened snapshot its `eval` file also uses.

use super::catalog::{OpenedSnapshot, Snapshots};
use crate::analysis::OpenError;
use crate::vfs::decoded::NamedValues;
use crate::vfs::heap_source::HeapDecoder;
use crate::vfs::{DecodeFailure, DecodedSnapshot, Decoder, ObjectSource, VfsError};
use std::path::Path;
use std::sync::Arc;

/// Decodes each snapshot directory from its [`OpenedSnapshot`] in `snapshots`.
pub struct SharedDecoder {
    snapshots: Arc<Snapshots>,
}

impl SharedDecoder {
    /// The decoder over `snapshots`.
    pub fn new(snapshots: Arc<Snapshots>) -> SharedDecoder {
        SharedDecoder { snapshots }
    }
}

/// The vfs error for a snapshot that does not open, naming the directory once.
fn open_error(dir: &Path, e: &OpenError) -> VfsError {
    let what = dir.display().to_string();
    match e {
        OpenError::Snapshot { source, .. } => {
            VfsError::decode(what, DecodeFailure::Snapshot(source.clone()))
        }
        OpenError::Heap { source, .. } => VfsError::decode(what, source.clone()),
    }
}

impl Decoder for SharedDecoder {
    fn open(&self, dir: &Path) -> Result<Arc<dyn DecodedSnapshot>, VfsError> {
        let snapshot = self.snapshots.get(dir);
        let heap = snapshot.heap().map_err(|e| open_error(dir, e))?.clone();
        Ok(Arc::new(Served {
            decoded: HeapDecoder::decoded(heap),
            _snapshot: snapshot,
        }))
    }
}

/// A decoded snapshot that keeps its [`OpenedSnapshot`] in use (so the `eval` file and
/// later readers share it rather than opening it again).
struct Served {
    decoded: Arc<dyn DecodedSnapshot>,
    _snapshot: Arc<OpenedSnapshot>,
}

impl DecodedSnapshot for Served {
    fn info_json(&self) -> Result<Vec<u8>, VfsError> {
        self.decoded.info_json()
    }

    fn stats_json(&self) -> Result<Vec<u8>, VfsError> {
        self.decoded.stats_json()
    }

    fn vars(&self) -> Result<NamedValues, VfsError> {
        self.decoded.vars()
    }

    fn objects(&self) -> Result<Arc<dyn ObjectSource>, VfsError> {
        self.decoded.objects()
    }
}
