//! Snapshot sources: icp-cli/dfx snapshot directories and bare main-memory images.

pub mod download;
mod error;
pub mod fixture;
pub mod metadata;
pub mod open;
mod source;

pub use download::Unfinished;
pub use error::SnapshotError;
pub use open::OpenOptions;
pub use source::{Snapshot, SnapshotKind};

/// Largest decompressed `wasm_module.bin` accepted.
pub const MAX_MODULE_BYTES: u64 = crate::module::MAX_MODULE_BYTES;
