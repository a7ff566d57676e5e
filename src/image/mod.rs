//! The shared reader: bounds-checked, limit-enforcing access to untrusted memory images.
//!
//! Every access to image bytes goes through [`Image`], which returns a typed [`ImageError`]
//! naming the address instead of panicking. [`ReaderLimits`] and [`Budget`] bound the work
//! and the allocations of every walk and decoder built on top.

mod bytes;
mod error;
mod limits;

pub use bytes::{HeldBytes, Image, WordSize};
pub use error::{ImageError, LimitKind};
pub use limits::{Budget, ReaderLimits, MAX_ANALYSIS_OBJECTS};
