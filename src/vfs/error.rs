//! Errors of the virtual tree, each with the errno a file-system front-end reports.

use crate::heap::value::DecodeError;
use crate::heap::{HeapError, ObjectError};
use crate::image::LimitKind;
use crate::snapshot::SnapshotError;
use std::error::Error;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

/// An error of another layer, kept whole (its type can be recovered with `downcast_ref`)
/// where the vfs sees it only through a trait: a verifier's refusal, a script's failure.
pub type ForeignError = Arc<dyn Error + Send + Sync>;

/// Why a snapshot is not trusted ([`VfsError::NotTrusted`], `EACCES`).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Untrusted {
    /// The verifier refused it (the store's error: which file, which check).
    #[error("{0}")]
    Refused(ForeignError),
    /// A file of the snapshot cannot be examined.
    #[error("{}: {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why it cannot be examined.
        source: Arc<io::Error>,
    },
    /// A file changed while the snapshot was being verified.
    #[error("{}: changed while it was being verified", path.display())]
    ChangedWhileVerifying {
        /// The file (or the snapshot directory).
        path: PathBuf,
    },
    /// A file changed after the snapshot was verified: its proof no longer holds.
    #[error("{change} after it was verified; run `mo-mem verify {}`", dir.display())]
    ChangedAfterVerification {
        /// What changed (the file and how).
        change: ChangedFile,
        /// The snapshot directory.
        dir: PathBuf,
    },
}

/// How a source file changed since the mount read it (its device and inode, size, or
/// times), or that it can no longer be examined.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum FileChange {
    /// Another file is at its path now.
    #[error("replaced by another file")]
    Replaced,
    /// Its size changed.
    #[error("size changed from {from} to {to} bytes")]
    Resized {
        /// The size it had.
        from: u64,
        /// The size it has.
        to: u64,
    },
    /// It was written to (its modification or change time moved).
    #[error("rewritten")]
    Rewritten,
    /// It ended before the size it was listed with.
    #[error("truncated")]
    Truncated,
    /// It can no longer be examined.
    #[error("unreadable ({0})")]
    Unreadable(Arc<io::Error>),
}

/// A source file that changed, and how.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}: {change}", path.display())]
pub struct ChangedFile {
    /// The file.
    pub path: PathBuf,
    /// How it changed.
    pub change: FileChange,
}

/// What a control file's request ran into, which picks its errno ([`RequestError`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestErrorKind {
    /// The request is malformed: not UTF-8, does not parse (`EINVAL`).
    Invalid,
    /// It reached a limit on the snapshot's data; the snapshot may be fine (`EFBIG`).
    Limit,
    /// It read corrupt or unsupported data from the snapshot (`EUCLEAN`).
    Corrupt,
    /// The module has no stable signature: the stable variables cannot be named (`ENODATA`).
    NoSignature,
    /// The snapshot is not trusted (`EACCES`).
    NotTrusted,
    /// The canister trapped or rejected the call it was asked (`EREMOTEIO`).
    Rejected,
    /// The read cannot tell which of its session's requests is its own (`ENOTUNIQ`).
    Ambiguous,
}

impl RequestErrorKind {
    /// The errno a file-system front-end reports.
    pub fn errno(self) -> i32 {
        match self {
            RequestErrorKind::Invalid => libc::EINVAL,
            RequestErrorKind::Limit => libc::EFBIG,
            RequestErrorKind::Corrupt => libc::EUCLEAN,
            RequestErrorKind::NoSignature => libc::ENODATA,
            RequestErrorKind::NotTrusted => libc::EACCES,
            RequestErrorKind::Rejected => libc::EREMOTEIO,
            RequestErrorKind::Ambiguous => libc::ENOTUNIQ,
        }
    }
}

/// A control file's request refused or failed by its engine: the kind picks the errno, the
/// engine's own error (its text is the answer the session reads) says why.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{error}")]
pub struct RequestError {
    /// What the request ran into.
    pub kind: RequestErrorKind,
    /// The engine's error.
    pub error: ForeignError,
}

impl RequestError {
    /// A request error of `kind` caused by the engine's `error`.
    pub fn new(kind: RequestErrorKind, error: impl Error + Send + Sync + 'static) -> Self {
        RequestError {
            kind,
            error: Arc::new(error),
        }
    }
}

/// Why decoded content could not be produced, kept typed so that the errno follows the
/// kind: a limit reached is not corruption ([`DecodeFailure::errno`]).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeFailure {
    /// The snapshot's files could not be opened or are inconsistent.
    #[error(transparent)]
    Snapshot(Arc<SnapshotError>),
    /// The heap could not be opened or walked.
    #[error(transparent)]
    Heap(#[from] HeapError),
    /// An object could not be decoded.
    #[error(transparent)]
    Object(#[from] ObjectError),
    /// A value could not be decoded.
    #[error(transparent)]
    Value(#[from] DecodeError),
    /// The snapshot's canister could not be restored from it (the runtime's error).
    #[error("{0}")]
    Canister(ForeignError),
    /// A generated file could not be rendered (its renderer's error: JSON, SVG, HTML).
    #[error("{0}")]
    Render(ForeignError),
    /// The build has no heap decoder: snapshots show their raw files only.
    #[error("no heap decoder is available in this build")]
    NoDecoder,
}

impl From<SnapshotError> for DecodeFailure {
    fn from(e: SnapshotError) -> Self {
        DecodeFailure::Snapshot(Arc::new(e))
    }
}

impl DecodeFailure {
    /// A renderer's failure (JSON, SVG, HTML), kept typed.
    pub fn render(e: impl Error + Send + Sync + 'static) -> Self {
        DecodeFailure::Render(Arc::new(e))
    }
}

impl DecodeFailure {
    /// The reader limit reached, if that is what happened.
    pub fn limit(&self) -> Option<LimitKind> {
        match self {
            DecodeFailure::Heap(e) => e.limit(),
            DecodeFailure::Object(e) => e.limit(),
            DecodeFailure::Value(e) => e.limit(),
            _ => None,
        }
    }

    /// The errno for this failure: `EFBIG` for a limit reached (the image may be fine; the
    /// value is larger than the limits allow), `ENODATA` for a module without a stable
    /// signature, `EIO` for a source file that cannot be read, else `EUCLEAN` (corrupt or
    /// unsupported content).
    pub fn errno(&self) -> i32 {
        match self {
            _ if self.limit().is_some() => libc::EFBIG,
            DecodeFailure::Value(DecodeError::NoSignature) => libc::ENODATA,
            DecodeFailure::Snapshot(e) => match e.as_ref() {
                SnapshotError::Io { source, .. } => source.raw_os_error().unwrap_or(libc::EIO),
                _ => libc::EUCLEAN,
            },
            _ => libc::EUCLEAN,
        }
    }
}

/// A failed operation on the virtual tree; [`VfsError::errno`] gives its deliberate errno.
/// Cloneable, so that a cache can keep a failure and hand it to every reader.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum VfsError {
    /// No entry of that name (or inode) exists.
    #[error("no such entry: {0}")]
    NotFound(String),
    /// A directory operation was asked of a file.
    #[error("not a directory: {0}")]
    NotADirectory(String),
    /// A file operation was asked of a directory.
    #[error("is a directory: {0}")]
    IsADirectory(String),
    /// The tree is read-only here (every file but the control files).
    #[error("read-only: {0}")]
    ReadOnly(String),
    /// A malformed request: a bad offset, a bad write, a script that does not parse.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// A generated file or a script would exceed its size limit.
    #[error("too large: {0}")]
    TooLarge(String),
    /// The snapshot's content could not be decoded: corrupt or unsupported, or over a
    /// reader limit ([`DecodeFailure::errno`] tells which).
    #[error("cannot decode {what}: {failure}")]
    Decode {
        /// The file or value being generated.
        what: String,
        /// What went wrong, with the address or offset (in the message, not a `source`:
        /// a chain of causes, as `mo-mem` prints it, shows it once).
        failure: DecodeFailure,
    },
    /// A source file changed (truncated, rewritten, replaced) since the mount read it:
    /// what depends on it can no longer be served.
    #[error(
        "changed while mounted: {file}{}; remount to serve it again",
        if *since_listed { " since it was listed" } else { "" }
    )]
    Changed {
        /// The file and how it changed.
        file: ChangedFile,
        /// Whether the change is to the file since it was listed (a raw file of the
        /// snapshot), not to a file the whole snapshot depends on.
        since_listed: bool,
    },
    /// The same open file is already answering another request (a control file's script).
    #[error("busy: {0}")]
    Busy(String),
    /// The snapshot is refused: its manifest, HMAC or files do not verify, or no key.
    #[error("not trusted: {0}")]
    NotTrusted(Untrusted),
    /// A control file's request was refused or failed ([`RequestErrorKind::errno`]).
    #[error("{0}")]
    Request(#[from] RequestError),
    /// A real I/O failure reading a source file.
    #[error("I/O error on {path}: {source}")]
    Io {
        /// The source file.
        path: String,
        /// The underlying error.
        source: Arc<io::Error>,
    },
}

impl VfsError {
    /// The errno a file-system front-end reports for this error.
    pub fn errno(&self) -> i32 {
        match self {
            VfsError::NotFound(_) => libc::ENOENT,
            VfsError::NotADirectory(_) => libc::ENOTDIR,
            VfsError::IsADirectory(_) => libc::EISDIR,
            VfsError::ReadOnly(_) => libc::EROFS,
            VfsError::InvalidArgument(_) => libc::EINVAL,
            VfsError::TooLarge(_) => libc::EFBIG,
            VfsError::Decode { failure, .. } => failure.errno(),
            VfsError::Changed { .. } => libc::EIO,
            VfsError::Busy(_) => libc::EBUSY,
            VfsError::NotTrusted(_) => libc::EACCES,
            VfsError::Request(e) => e.kind.errno(),
            VfsError::Io { source, .. } => source.raw_os_error().unwrap_or(libc::EIO),
        }
    }

    /// Builds an I/O error naming the path it happened on.
    pub fn io(path: impl Into<String>, source: io::Error) -> Self {
        VfsError::Io {
            path: path.into(),
            source: Arc::new(source),
        }
    }

    /// Builds a decode error naming what was being generated.
    pub fn decode(what: impl Into<String>, source: impl Into<DecodeFailure>) -> Self {
        VfsError::Decode {
            what: what.into(),
            failure: source.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errnos_are_deliberate() {
        assert_eq!(VfsError::NotFound("x".into()).errno(), libc::ENOENT);
        assert_eq!(VfsError::ReadOnly("x".into()).errno(), libc::EROFS);
        assert_eq!(VfsError::IsADirectory("x".into()).errno(), libc::EISDIR);
        assert_eq!(VfsError::InvalidArgument("x".into()).errno(), libc::EINVAL);
        let rendering = DecodeFailure::render(io::Error::other("bad"));
        assert_eq!(VfsError::decode("x", rendering).errno(), libc::EUCLEAN);
        assert_eq!(
            VfsError::decode("x", DecodeFailure::NoDecoder).errno(),
            libc::EUCLEAN
        );
        let bad_tag = ObjectError::BadTag { addr: 8, tag: 99 };
        assert_eq!(VfsError::decode("x", bad_tag).errno(), libc::EUCLEAN);
        let limit = crate::image::ImageError::Limit {
            kind: LimitKind::TextBytes,
            max: 10,
            addr: 8,
        };
        assert_eq!(
            VfsError::decode("x", DecodeError::Image(limit)).errno(),
            libc::EFBIG
        );
        assert_eq!(
            VfsError::decode("x", ObjectError::Image(limit)).errno(),
            libc::EFBIG
        );
        assert_eq!(
            VfsError::decode("x", DecodeError::NoSignature).errno(),
            libc::ENODATA
        );
        let changed = VfsError::Changed {
            file: ChangedFile {
                path: "m/heap".into(),
                change: FileChange::Resized { from: 8, to: 4 },
            },
            since_listed: true,
        };
        assert_eq!(changed.errno(), libc::EIO);
        assert_eq!(
            changed.to_string(),
            "changed while mounted: m/heap: size changed from 8 to 4 bytes since it was listed; \
             remount to serve it again"
        );
        assert_eq!(VfsError::Busy("x".into()).errno(), libc::EBUSY);
        let refused = Untrusted::ChangedWhileVerifying { path: "m".into() };
        assert_eq!(VfsError::NotTrusted(refused).errno(), libc::EACCES);
        let request = |kind| VfsError::from(RequestError::new(kind, io::Error::other("x"))).errno();
        assert_eq!(request(RequestErrorKind::Invalid), libc::EINVAL);
        assert_eq!(request(RequestErrorKind::Limit), libc::EFBIG);
        assert_eq!(request(RequestErrorKind::Corrupt), libc::EUCLEAN);
        assert_eq!(request(RequestErrorKind::NoSignature), libc::ENODATA);
        assert_eq!(request(RequestErrorKind::NotTrusted), libc::EACCES);
        assert_eq!(request(RequestErrorKind::Rejected), libc::EREMOTEIO);
        let not_io = VfsError::io("p", io::Error::other("x"));
        assert_eq!(not_io.errno(), libc::EIO);
    }
}
