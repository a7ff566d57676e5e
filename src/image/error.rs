//! Errors of the shared reader: out-of-bounds reads and exceeded limits.

use std::fmt;

/// Which of the [`ReaderLimits`](super::ReaderLimits) was exceeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LimitKind {
    /// The number of objects visited or decoded.
    Objects,
    /// The number of text or blob bytes rendered.
    TextBytes,
    /// The nesting depth of a decoded value.
    Depth,
    /// The depth of a text concatenation rope.
    RopeDepth,
    /// The total number of work steps.
    Work,
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LimitKind::Objects => "maximum number of objects",
            LimitKind::TextBytes => "maximum text/blob bytes",
            LimitKind::Depth => "maximum nesting depth",
            LimitKind::RopeDepth => "maximum text rope depth",
            LimitKind::Work => "maximum work steps",
        })
    }
}

/// Why a read from an image failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ImageError {
    /// The bytes `[addr, addr + len)` are not inside the image.
    #[error("read of {len} bytes at {addr:#x} is outside the image ({size:#x} bytes)")]
    OutOfBounds {
        /// First address read.
        addr: u64,
        /// Number of bytes read.
        len: u64,
        /// The image size.
        size: u64,
    },
    /// A limit was exceeded before the work or allocation was done.
    #[error("{kind} exceeded ({max}) at {addr:#x}")]
    Limit {
        /// Which limit.
        kind: LimitKind,
        /// Its configured maximum.
        max: u64,
        /// The address being processed when it was hit (0 if none).
        addr: u64,
    },
}

impl ImageError {
    /// The limit this error reports reaching, if it is one (not corruption).
    pub fn limit(&self) -> Option<LimitKind> {
        match self {
            ImageError::Limit { kind, .. } => Some(*kind),
            ImageError::OutOfBounds { .. } => None,
        }
    }
}
