//! Errors of the heap decoder.

use crate::image::ImageError;
use crate::module::ModuleError;

/// Why one object could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ObjectError {
    /// The header word is not a tag of this layout.
    #[error("invalid tag {tag:#x} at {addr:#x}")]
    BadTag {
        /// Object address.
        addr: u64,
        /// The header word.
        tag: u64,
    },
    /// The object address is not word-aligned.
    #[error("misaligned object address {addr:#x}")]
    Misaligned {
        /// Object address.
        addr: u64,
    },
    /// A length field gives a size that does not fit in the image.
    #[error("object at {addr:#x} ({tag_name}) claims {size} bytes, beyond the image")]
    TooLarge {
        /// Object address.
        addr: u64,
        /// The tag's name.
        tag_name: &'static str,
        /// The claimed size (saturated).
        size: u64,
    },
    /// The forwarding word is not a pointer to a valid object.
    #[error("object at {addr:#x} has a bad forwarding word {fwd:#x}")]
    BadForward {
        /// Object address.
        addr: u64,
        /// The forwarding word.
        fwd: u64,
    },
    /// Forwarding pointers form a chain longer than allowed (or a cycle).
    #[error("forwarding chain from {addr:#x} is too long")]
    ForwardChain {
        /// Start address.
        addr: u64,
    },
    /// The value is not a pointer.
    #[error("word {word:#x} is not a pointer")]
    NotPointer {
        /// The word.
        word: u64,
    },
    /// A field is inconsistent (e.g. BigInt used > alloc).
    #[error("object at {addr:#x}: {what}")]
    Inconsistent {
        /// Object address.
        addr: u64,
        /// What is wrong.
        what: &'static str,
    },
    /// An image read failed.
    #[error(transparent)]
    Image(#[from] ImageError),
}

/// Why a heap could not be opened or queried.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeapError {
    /// The module was refused.
    #[error("module: {0}")]
    Module(#[from] ModuleError),
    /// Something needed is missing (a module for a classical image, `_HP` in the globals, ...).
    #[error("cannot decode the heap: {0}")]
    Missing(String),
    /// The image does not have the layout the module says.
    #[error("invalid heap layout: {0}")]
    Layout(String),
    /// An object could not be decoded.
    #[error(transparent)]
    Object(#[from] ObjectError),
    /// An image read failed.
    #[error(transparent)]
    Image(#[from] ImageError),
}

impl ObjectError {
    /// The reader limit this error reports reaching, if it is one (not corruption).
    pub fn limit(&self) -> Option<crate::image::LimitKind> {
        match self {
            ObjectError::Image(e) => e.limit(),
            _ => None,
        }
    }
}

impl HeapError {
    /// The reader limit this error reports reaching, if it is one (not corruption).
    pub fn limit(&self) -> Option<crate::image::LimitKind> {
        match self {
            HeapError::Object(e) => e.limit(),
            HeapError::Image(e) => e.limit(),
            _ => None,
        }
    }
}
