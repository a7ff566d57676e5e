//! The resumable pull's progress file, `.pull_state.json`, rewritten atomically after each batch.

use super::super::error::StoreError;
use super::super::fsutil::{atomic_write, read_limited};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Version of the progress file format.
pub const STATE_VERSION: u32 = 1;
/// Largest progress file accepted.
const MAX_STATE_BYTES: u64 = 64 << 20;

/// What an interrupted pull had finished, and what it was pulling.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PullState {
    /// Always [`STATE_VERSION`].
    pub version: u32,
    /// Network label.
    pub network: String,
    /// Canister principal.
    pub canister: String,
    /// Snapshot ID, hex.
    pub snapshot: String,
    /// The metadata as read when the pull started, compared on resume.
    pub metadata: serde_json::Value,
    /// Slice size the slice indices refer to.
    pub slice_size: u64,
    /// Per blob file name, the indices of the slices written and synced.
    pub slices_done: BTreeMap<String, BTreeSet<u64>>,
    /// Hex hashes of the chunk-store entries written.
    pub chunks_done: BTreeSet<String>,
}

impl PullState {
    /// Loads the progress file.
    pub fn load(path: &Path) -> Result<Self, StoreError> {
        let bytes = read_limited(path, MAX_STATE_BYTES)?;
        let state: Self = serde_json::from_slice(&bytes).map_err(|e| StoreError::BadManifest {
            path: path.to_path_buf(),
            reason: format!("unreadable pull progress: {e}"),
        })?;
        if state.version != STATE_VERSION {
            return Err(StoreError::BadManifest {
                path: path.to_path_buf(),
                reason: format!(
                    "pull progress version {} (expected {STATE_VERSION})",
                    state.version
                ),
            });
        }
        Ok(state)
    }

    /// Saves the progress file atomically (temp, fsync, rename).
    pub fn save(&self, path: &Path) -> Result<(), StoreError> {
        atomic_write(path, &serde_json::to_vec(self).unwrap_or_default())
    }
}
