//! Decoded Motoko values: the [`Value`] model and its type-directed decoding from the heap.

mod model;

pub use model::{LazyValue, RecordField, Value};
