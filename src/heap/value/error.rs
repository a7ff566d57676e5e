//! Errors of the value decoder.

use crate::heap::types::TypeError;
use crate::heap::HeapError;
use crate::image::ImageError;

/// Why a value could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The heap object could not be read.
    #[error(transparent)]
    Heap(#[from] HeapError),
    /// A limit was hit, or a read was out of bounds.
    #[error(transparent)]
    Image(#[from] ImageError),
    /// The stable signature is malformed, or a type could not be expanded.
    #[error(transparent)]
    Type(#[from] TypeError),
    /// The heap holds something else than the static type says.
    #[error("value {word:#x}{}: expected {expected}, found {found}", addr.map(|a| format!(" (object at {a:#x})")).unwrap_or_default())]
    Mismatch {
        /// The vanilla word being decoded.
        word: u64,
        /// The object's address, if the word is a pointer.
        addr: Option<u64>,
        /// The expected type (Motoko syntax).
        expected: String,
        /// What was found (a tag name, `scalar`, …).
        found: String,
    },
    /// The module has no `motoko:stable-types` signature (or no module at all).
    #[error("the module has no motoko:stable-types signature: stable variable names and types are unknown")]
    NoSignature,
    /// No stable variable of that name.
    #[error("no stable variable named `{0}`")]
    NoSuchVariable(String),
    /// A variable of the signature was not found among the heap's stable-variable slots.
    #[error("stable variable `{0}` has no slot in the heap")]
    NoSlot(String),
}

impl DecodeError {
    /// The reader limit this error reports reaching, if it is one (not corruption).
    pub fn limit(&self) -> Option<crate::image::LimitKind> {
        match self {
            DecodeError::Heap(e) => e.limit(),
            DecodeError::Image(e) => e.limit(),
            _ => None,
        }
    }
}
