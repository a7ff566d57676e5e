//! Opening snapshot directories, bare images and in-memory parts.

use std::path::{Path, PathBuf};

use super::metadata::GlobalValue;
use super::{Snapshot, SnapshotError, SnapshotKind};

/// Opens a snapshot directory or a bare image file.
pub(crate) fn open(path: &Path) -> Result<Snapshot, SnapshotError> {
    Err(SnapshotError::Missing {
        file: path.to_path_buf(),
    })
}

/// Opens a bare main-memory image with an optional module.
pub(crate) fn open_image(
    memory: &Path,
    _wasm: Option<&Path>,
    _globals: Option<Vec<GlobalValue>>,
) -> Result<Snapshot, SnapshotError> {
    Err(SnapshotError::Missing {
        file: memory.to_path_buf(),
    })
}

/// Builds a snapshot from in-memory parts.
pub(crate) fn from_parts(
    _metadata_json: Option<&[u8]>,
    _module: Option<Vec<u8>>,
    memory: Vec<u8>,
    _stable: Option<Vec<u8>>,
) -> Result<Snapshot, SnapshotError> {
    Ok(Snapshot {
        path: PathBuf::new(),
        kind: SnapshotKind::InMemory,
        memory: crate::image::Image::from_vec(memory),
        stable: None,
        module: None,
        globals: None,
        metadata: None,
    })
}
