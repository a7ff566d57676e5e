//! Piecemeal access to big values: the length of an array and one element or field at a
//! time, without decoding (or even listing) the rest.

use std::sync::Arc;

use super::{DecodeError, Decoder, LazyValue};
use crate::heap::types::{ObjSort, Type};
use crate::heap::Body;

impl Decoder<'_> {
    /// The static type of `v` with aliases expanded (`None` when untyped).
    pub fn type_of(&self, v: &LazyValue) -> Result<Option<Arc<Type>>, DecodeError> {
        match &v.ty {
            Some(t) => Ok(Some(self.env.normalize(t)?)),
            None => Ok(None),
        }
    }

    /// The number of elements of an array or tuple value, read from its header only.
    pub fn len(&mut self, v: &LazyValue) -> Result<u64, DecodeError> {
        if !self.heap.is_pointer(v.word) {
            return Err(self.mismatch(v.word, "an array"));
        }
        match self.obj(v.word)?.body {
            Body::Array { elems, .. } => Ok(elems.len()),
            _ => Err(self.mismatch(v.word, "an array")),
        }
    }

    /// Element `i` of an array or tuple value (not decoded).
    pub fn element(&mut self, v: &LazyValue, i: u64) -> Result<LazyValue, DecodeError> {
        let ty = self.type_of(v)?;
        let elem_ty = match ty.as_deref() {
            Some(Type::Array { elem, .. }) => Some(elem.clone()),
            Some(Type::Tuple(ts)) => {
                let t = usize::try_from(i).ok().and_then(|i| ts.get(i));
                Some(
                    t.cloned()
                        .ok_or_else(|| self.mismatch(v.word, "a tuple component"))?,
                )
            }
            Some(other) => return Err(self.mismatch(v.word, &other.to_string())),
            None => None,
        };
        if !self.heap.is_pointer(v.word) {
            return Err(self.mismatch(v.word, "an array"));
        }
        let o = self.obj(v.word)?;
        match o.body {
            Body::Array { elems, .. } => {
                let word = elems.get(i).ok_or_else(|| DecodeError::Mismatch {
                    word: v.word,
                    addr: Some(o.addr),
                    expected: format!("an array with an element {i}"),
                    found: format!("{} elements", elems.len()),
                })?;
                Ok(LazyValue { word, ty: elem_ty })
            }
            _ => Err(self.mismatch(v.word, "an array")),
        }
    }

    /// The field `label` of a record or object value (not decoded; `var` fields are read
    /// through their MutBox).
    pub fn field(&mut self, v: &LazyValue, label: &str) -> Result<LazyValue, DecodeError> {
        let ty = self.type_of(v)?;
        let (hash, mutable, fty) = match ty.as_deref() {
            Some(Type::Object {
                sort: ObjSort::Object | ObjSort::Module,
                fields,
            }) => {
                let f = fields.iter().find(|f| &*f.label == label).ok_or_else(|| {
                    DecodeError::Mismatch {
                        word: v.word,
                        addr: self.heap.pointer(v.word),
                        expected: format!("a field `{label}`"),
                        found: "a record type without it".into(),
                    }
                })?;
                (f.hash, f.mutable, Some(f.ty.clone()))
            }
            Some(other) => return Err(self.mismatch(v.word, &other.to_string())),
            None => (crate::heap::types::label_hash(label), false, None),
        };
        if !self.heap.is_pointer(v.word) {
            return Err(self.mismatch(v.word, "a record"));
        }
        let o = self.obj(v.word)?;
        let Body::Object { hashes, fields, .. } = o.body else {
            return Err(self.mismatch(v.word, "a record"));
        };
        let word = hashes
            .position(hash)
            .and_then(|i| fields.get(i as u64))
            .ok_or_else(|| DecodeError::Mismatch {
                word: v.word,
                addr: Some(o.addr),
                expected: format!("a field `{label}`"),
                found: "an object without it".into(),
            })?;
        let word = if mutable || (fty.is_none() && self.is_mutbox(word)?) {
            self.mutbox(word)?
        } else {
            word
        };
        Ok(LazyValue { word, ty: fty })
    }

    fn is_mutbox(&mut self, word: u64) -> Result<bool, DecodeError> {
        Ok(self.points_to(word, crate::heap::Tag::MutBox)?
            || self.points_to(word, crate::heap::Tag::ObjInd)?)
    }
}
