//! Why a snapshot could not be opened.

use std::path::PathBuf;

use super::download::Unfinished;
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
    /// A globals file is invalid.
    #[error("{file}: {reason}")]
    Globals {
        /// The globals file.
        file: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A download tool (icp-cli, dfx, mo-mem's pull) has not finished the directory: what is
    /// missing and how to resume it.
    #[error("{0}; or pass --force to read it anyway, marked INCOMPLETE")]
    Unfinished(Box<Unfinished>),
    /// A download tool is writing the directory right now (it holds its lock).
    #[error("{}: still being written: {tool} holds the lock {} (a download is running); wait until it finishes, then try again", dir.display(), lock.display())]
    BeingWritten {
        /// The snapshot directory.
        dir: PathBuf,
        /// The lock file held.
        lock: PathBuf,
        /// The tool holding it.
        tool: String,
    },
}
