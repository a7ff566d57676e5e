//! Where a command reads one snapshot from: a snapshot directory, or a bare main-memory
//! image with its module (and globals), opened as the file tree would open it.

use crate::analysis::{OpenError, OpenedHeap};
use crate::image::ReaderLimits;
use crate::serve::analysis_index::AnalysisIndex;
use crate::snapshot::open::parse_globals_json;
use crate::snapshot::{Snapshot, SnapshotError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A snapshot as a command names it.
#[derive(Debug, Clone)]
pub struct SnapshotSource {
    /// A snapshot directory (icp-cli/dfx layout) or a bare main-memory image.
    pub path: PathBuf,
    /// The canister's Wasm module, for a bare image.
    pub wasm: Option<PathBuf>,
    /// The canister's mutable globals for a bare image, as JSON.
    pub globals: Option<PathBuf>,
}

/// Why a command's snapshot could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SourceError {
    /// The globals file could not be read.
    #[error("cannot read {}: {error}", path.display())]
    ReadGlobals {
        /// The globals file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The globals file is not valid.
    #[error(transparent)]
    Globals(SnapshotError),
    /// The snapshot or its heap could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
}

impl SnapshotSource {
    /// The snapshot directory `path`.
    pub fn dir(path: &Path) -> SnapshotSource {
        SnapshotSource {
            path: path.to_path_buf(),
            wasm: None,
            globals: None,
        }
    }

    /// Opens the snapshot and its heap under `limits` (trust is the caller's:
    /// [`super::admit`] first).
    pub fn open(&self, limits: ReaderLimits) -> Result<Arc<OpenedHeap>, SourceError> {
        let files: Vec<&Path> = [
            Some(self.path.as_path()),
            self.wasm.as_deref(),
            self.globals.as_deref(),
        ]
        .into_iter()
        .flatten()
        .collect();
        let index = AnalysisIndex::for_files(&files, &limits);
        let globals = match &self.globals {
            Some(file) => {
                let bytes = std::fs::read(file).map_err(|error| SourceError::ReadGlobals {
                    path: file.clone(),
                    error,
                })?;
                Some(parse_globals_json(&bytes, file).map_err(SourceError::Globals)?)
            }
            None => None,
        };
        let snapshot = match &self.wasm {
            Some(wasm) => Snapshot::open_image(&self.path, Some(wasm), globals),
            None => Snapshot::open_with(
                &self.path,
                crate::snapshot::OpenOptions::for_limits(&limits),
            ),
        }
        .map_err(|error| OpenError::Snapshot {
            path: self.path.clone(),
            error: Arc::new(error),
        })?;
        let heap = OpenedHeap::from_snapshot(snapshot, limits)?;
        if let Some(index) = index {
            heap.keep_analyses_in(Box::new(index));
        }
        Ok(Arc::new(heap))
    }
}
