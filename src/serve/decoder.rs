//! The file tree's [`Decoder`] over [`Snapshots`]: a snapshot directory's decoded entries
//! come from the one opened snapshot its `eval` file also uses.

use super::catalog::Snapshots;
use super::heap_source::HeapDecoder;
use crate::analysis::OpenError;
use crate::vfs::{DecodeFailure, DecodedSnapshot, Decoder, VfsError};
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

/// The vfs error for a snapshot that does not open, naming the directory once and keeping
/// the cause's kind (so its errno: `EFBIG` for a limit, `EIO` for an unreadable file, …).
pub(super) fn open_error(dir: &Path, e: &OpenError) -> VfsError {
    let what = dir.display().to_string();
    match e {
        OpenError::Snapshot { error, .. } => {
            VfsError::decode(what, DecodeFailure::Snapshot(error.clone()))
        }
        OpenError::Heap { error, .. } => VfsError::decode(what, error.clone()),
    }
}

impl Decoder for SharedDecoder {
    fn open(&self, dir: &Path) -> Result<Arc<dyn DecodedSnapshot>, VfsError> {
        let snapshot = self.snapshots.get(dir);
        let heap = snapshot.heap().map_err(|e| open_error(dir, e))?.clone();
        Ok(HeapDecoder::decoded(heap))
    }
}
