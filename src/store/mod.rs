//! The local snapshot store: layout on disk, SHA-256 manifests, HMAC authentication.
//!
//! Snapshots live in `<root>/<canister-id>/<snapshot-id>/` in the icp-cli/dfx layout
//! (`metadata.json`, `wasm_module.bin`, `wasm_memory.bin`, `stable_memory.bin`,
//! `wasm_chunk_store/<sha256>.bin`). A complete snapshot has a `manifest.json` with the SHA-256
//! of every file, its source, and an HMAC-SHA-256 under a key kept in the config directory.
//! Every file is mode 0600 and every write is atomic (temp + rename).

pub mod checks;
pub mod error;
pub mod fsutil;
pub mod import;
pub mod key;
pub mod layout;
pub mod lock;
pub mod manifest;
pub mod pull;
pub mod trust;

pub use checks::{check_layout, SnapshotMetadata};
pub use error::StoreError;
pub use import::{import, ImportRequest};
pub use key::StoreKey;
pub use layout::{files, Store, StoredSnapshot};
pub use lock::DirLock;
pub use manifest::{FileEntry, Manifest, Source, MANIFEST_FILE, PULL_STATE_FILE};
pub use pull::{PullDir, PullTransaction};
pub use trust::{
    check as check_trust, check_default as check_trust_default, is_complete, is_in_progress, Trust,
    TrustRule,
};

#[cfg(test)]
mod tests;
