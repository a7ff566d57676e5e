//! Why a snapshot could not be opened.

use std::path::PathBuf;

use super::metadata::MetadataError;

/// Why a snapshot directory or image file was refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// A file could not be opened, mapped or read.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A required file is missing.
    #[error("{file}: missing (a snapshot directory needs metadata.json, wasm_module.bin and wasm_memory.bin)")]
    Missing {
        /// The missing file.
        file: PathBuf,
    },
    /// `metadata.json` is invalid.
    #[error(transparent)]
    Metadata(#[from] MetadataError),
    /// A file's size differs from the size the metadata records.
    #[error("{file}: {actual} bytes, but metadata.json says {expected}")]
    SizeMismatch {
        /// The file.
        file: PathBuf,
        /// Size per metadata.json.
        expected: u64,
        /// Size on disk.
        actual: u64,
    },
    /// A gzip'ed module could not be decompressed or is too large.
    #[error("{file}: {reason}")]
    Module {
        /// The module file.
        file: PathBuf,
        /// What went wrong.
        reason: String,
    },
}
