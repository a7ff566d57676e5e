//! Reading a collection's parts one level at a time (as its own structure, never a natural
//! view): options, tuples, arrays, variants and counts, each part left undecoded.

use std::sync::Arc;

use crate::heap::value::{DecodeError, Decoder, LazyValue, Value};

/// One-level reads of a collection's parts.
pub(super) trait ReadParts {
    /// The payload of an option (`None` for `null`).
    fn opt(&mut self, v: &LazyValue) -> Result<Option<LazyValue>, DecodeError>;
    /// The parts of a tuple, with its address.
    fn tuple(&mut self, v: &LazyValue) -> Result<(u64, Vec<LazyValue>), DecodeError>;
    /// The elements of an array.
    fn array(&mut self, v: &LazyValue) -> Result<Vec<LazyValue>, DecodeError>;
    /// A variant's tag and payload.
    fn variant(&mut self, v: &LazyValue) -> Result<(Arc<str>, LazyValue), DecodeError>;
    /// A `Nat` that fits in 64 bits.
    fn nat(&mut self, v: &LazyValue) -> Result<u64, DecodeError>;
}

impl ReadParts for Decoder<'_> {
    fn opt(&mut self, v: &LazyValue) -> Result<Option<LazyValue>, DecodeError> {
        match &self.shallow_raw(v)? {
            Value::Opt { value, .. } => Ok(Some(lazy(value, v)?)),
            _ => Ok(None),
        }
    }

    fn tuple(&mut self, v: &LazyValue) -> Result<(u64, Vec<LazyValue>), DecodeError> {
        match &self.shallow_raw(v)? {
            Value::Tuple { addr, items } => {
                let parts = items.iter().map(|x| lazy(x, v)).collect::<Result<_, _>>()?;
                Ok((*addr, parts))
            }
            _ => Err(self.mismatch(v.word, "a tuple")),
        }
    }

    fn array(&mut self, v: &LazyValue) -> Result<Vec<LazyValue>, DecodeError> {
        match &self.shallow_raw(v)? {
            Value::Array { items, .. } => items.iter().map(|x| lazy(x, v)).collect(),
            _ => Err(self.mismatch(v.word, "an array")),
        }
    }

    fn variant(&mut self, v: &LazyValue) -> Result<(Arc<str>, LazyValue), DecodeError> {
        match &self.shallow_raw(v)? {
            Value::Variant { tag, payload, .. } => Ok((tag.clone(), lazy(payload, v)?)),
            _ => Err(self.mismatch(v.word, "a variant")),
        }
    }

    fn nat(&mut self, v: &LazyValue) -> Result<u64, DecodeError> {
        match &self.shallow_raw(v)? {
            Value::Nat(n) => u64::try_from(n).map_err(|_| self.mismatch(v.word, "a count")),
            _ => Err(self.mismatch(v.word, "a Nat")),
        }
    }
}

/// The lazy value of a shallow decoding's part (a shallow decoding leaves every part lazy).
fn lazy(part: &Value, parent: &LazyValue) -> Result<LazyValue, DecodeError> {
    match part {
        Value::Lazy(l) => Ok(l.clone()),
        other => Err(DecodeError::Mismatch {
            word: parent.word,
            addr: other.addr(),
            expected: "a part not decoded yet".into(),
            found: "a decoded part".into(),
        }),
    }
}
