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

/// File names inside a snapshot directory.
pub const METADATA_FILE: &str = "metadata.json";
/// The module file.
pub const MODULE_FILE: &str = "wasm_module.bin";
/// The main memory file.
pub const MEMORY_FILE: &str = "wasm_memory.bin";
/// The stable memory file.
pub const STABLE_FILE: &str = "stable_memory.bin";
pub use source::{Snapshot, SnapshotKind};

/// Largest decompressed `wasm_module.bin` accepted.
pub const MAX_MODULE_BYTES: u64 = crate::module::MAX_MODULE_BYTES;
