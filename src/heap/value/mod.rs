//! Decoded Motoko values: the [`Value`] model and its type-directed decoding from the heap
//! (lazily, one level at a time, or completely), plus untyped decoding of any object.

mod decoder;
mod error;
mod model;
mod piecemeal;
mod prim;
mod stable;
mod untyped;

pub use decoder::{Decoder, DEFAULT_MAX_NODES};
pub use error::DecodeError;
pub use model::{LazyValue, RecordField, Value};
pub use prim::rendered_text_len;
#[cfg(test)]
mod tests;

pub use stable::{heap_signature, signature_decoder, stable_variables, NamedVar};
