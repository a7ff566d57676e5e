//! Errors of the local snapshot store.

use std::path::PathBuf;

/// Everything that can go wrong reading, writing or verifying the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An I/O operation on a path failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// No usable location for the store or its key (no home directory).
    #[error("cannot find a {0} directory: set --store or HOME")]
    NoDirectory(&'static str),
    /// The HMAC key file exists but is unusable.
    #[error("the store key {path} is unusable: {reason}")]
    BadKey {
        /// The key file.
        path: PathBuf,
        /// Why it cannot be used.
        reason: String,
    },
    /// The store key does not exist, and this reader does not create one (the mount).
    #[error("the store key {path} is missing, so no manifest can be authenticated (set MO_MEM_CONFIG_DIR to where it is, or pull or import the snapshot again)")]
    NoKey {
        /// Where the key was looked for.
        path: PathBuf,
    },
    /// A snapshot directory has no manifest (an incomplete pull, or not from the store).
    #[error("{dir}: no manifest.json: the snapshot is incomplete or was not made by mo-mem (run `mo-mem pull` again to resume, or `mo-mem import` to adopt a download)")]
    NoManifest {
        /// The snapshot directory.
        dir: PathBuf,
    },
    /// The manifest cannot be parsed or breaks a rule.
    #[error("{path}: malformed manifest: {reason}")]
    BadManifest {
        /// The manifest file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The manifest's HMAC does not match: it was edited, or made under another key.
    #[error("{path}: the manifest's HMAC does not verify under this machine's store key (edited, or made on another machine)")]
    BadHmac {
        /// The manifest file.
        path: PathBuf,
    },
    /// A file the manifest lists is missing.
    #[error("{path}: listed in the manifest but missing")]
    Missing {
        /// The missing file.
        path: PathBuf,
    },
    /// A file's size differs from the manifest.
    #[error("{path}: size {actual} bytes, the manifest says {expected}")]
    SizeMismatch {
        /// The file.
        path: PathBuf,
        /// Size recorded in the manifest.
        expected: u64,
        /// Size on disk.
        actual: u64,
    },
    /// A file's SHA-256 differs from the manifest.
    #[error(
        "{path}: SHA-256 {actual} does not match the manifest's {expected} (the file was modified)"
    )]
    HashMismatch {
        /// The file.
        path: PathBuf,
        /// Digest in the manifest (hex).
        expected: String,
        /// Digest of the file on disk (hex).
        actual: String,
    },
    /// A file in the snapshot directory is not in the manifest.
    #[error("{path}: not listed in the manifest (added after the snapshot was completed)")]
    Unexpected {
        /// The extra file.
        path: PathBuf,
    },
    /// The snapshot layout (icp-cli/dfx) breaks a rule: wrong sizes, bad chunk, bad module.
    #[error("{path}: {reason}")]
    Layout {
        /// The offending file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A limit protecting the store was exceeded.
    #[error("{what}: {value} exceeds the limit {limit}")]
    Limit {
        /// What was counted.
        what: String,
        /// The value found.
        value: u64,
        /// The limit.
        limit: u64,
    },
    /// The directory is a download still running (its lock is held), or cannot be inspected.
    #[error(transparent)]
    Download(Box<crate::snapshot::SnapshotError>),
    /// The directory is a download not finished (icp-cli, dfx, a pull): never imported.
    #[error("{0}; only a finished download can be imported")]
    Unfinished(Box<crate::snapshot::Unfinished>),
    /// An interrupted pull cannot continue: the snapshot changed or disappeared since it started.
    #[error("cannot resume the pull in {dir}: {reason}. Nothing was mixed: the partial download is left as it was; remove that directory to start over")]
    ResumeRefused {
        /// The partial snapshot directory.
        dir: PathBuf,
        /// What changed.
        reason: String,
    },
    /// A read handed to a pull does not fit what was asked for (a slice's length, a chunk's hash).
    #[error("{path}: {reason}")]
    BadDownload {
        /// The file the read was for.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A finished pull failed its checks; its directory was removed.
    #[error(
        "check the download: {reason}; the download in {dir} was discarded, run the pull again"
    )]
    Discarded {
        /// The removed snapshot directory.
        dir: PathBuf,
        /// The check that failed.
        reason: String,
    },
    /// The destination already exists.
    #[error("{path} already exists")]
    Exists {
        /// The existing path.
        path: PathBuf,
    },
}

/// Builds a `map_err` closure turning an `io::Error` into [`StoreError::Io`] for `path`.
pub(crate) fn io_at(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}
