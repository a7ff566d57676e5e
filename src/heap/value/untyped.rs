//! Untyped decoding: what a word is when no static type reaches it (captures, `Any`), from
//! the object's tag and (EOP and rtti builds) the scalar's type tag.

use std::collections::HashMap;
use std::sync::Arc;

use num_bigint::BigInt;

use super::{DecodeError, Decoder, LazyValue, RecordField, Value};
use crate::heap::types::{label_hash, Prim, Type};
use crate::heap::{ArraySort, BitsSort, BlobSort, Body, Hashes, ScalarCoding, Words};

/// Maximum MutBox-to-MutBox hops followed when a MutBox is decoded untyped.
const MAX_MUTBOX_CHAIN: u32 = 64;

impl<'h> Decoder<'h> {
    /// Makes `labels` known to untyped decoding (record fields and variant tags of objects no
    /// type reaches are named by reversing their hashes).
    pub fn add_labels(&mut self, labels: impl IntoIterator<Item = Arc<str>>) {
        let map = Arc::make_mut(self.labels.get_or_insert_with(Default::default));
        for l in labels {
            map.insert(label_hash(&l), l);
        }
    }

    /// Uses `labels` (label names by hash, shared) for untyped decoding, replacing any known:
    /// the cheap way to make many decoders over one signature.
    pub fn set_label_map(&mut self, labels: Arc<HashMap<u32, Arc<str>>>) {
        self.labels = Some(labels);
    }

    /// The label with hash `hash`, or `_<hash>_` when unknown.
    fn label_of(&self, hash: u32) -> Arc<str> {
        self.labels
            .as_ref()
            .and_then(|m| m.get(&hash).cloned())
            .unwrap_or_else(|| Arc::from(format!("_{hash}_")))
    }

    /// Decodes `word` without a type, one level deep.
    pub fn untyped_shallow(&mut self, word: u64) -> Result<Value, DecodeError> {
        let mut word = word;
        for _ in 0..MAX_MUTBOX_CHAIN {
            if self.heap.is_null(word)? {
                return Ok(Value::Null);
            }
            if !self.heap.is_pointer(word) {
                return Ok(self.untyped_scalar(word));
            }
            let o = self.obj(word)?;
            return Ok(match o.body {
                Body::MutBox { value } => {
                    word = value;
                    continue;
                }
                Body::Object { hashes, fields, .. } => {
                    self.untyped_record(o.addr, hashes, fields)?
                }
                Body::Array { sort, elems, .. } => {
                    return self.untyped_array(word, o.addr, o.tag.name(), sort, elems)
                }
                Body::Bits64 { sort, bits } => match sort {
                    BitsSort::Unsigned => Value::Nat64(bits),
                    BitsSort::Signed => Value::Int64(bits as i64),
                    BitsSort::Float => Value::Float(f64::from_bits(bits)),
                    BitsSort::Unknown => Value::Opaque {
                        word,
                        addr: Some(o.addr),
                        what: o.tag.name().into(),
                    },
                },
                Body::Bits32 { sort, bits } => match sort {
                    BitsSort::Unsigned => Value::Nat32(bits),
                    BitsSort::Signed => Value::Int32(bits as i32),
                    BitsSort::Float => Value::Float32(f32::from_bits(bits)),
                    BitsSort::Unknown => Value::Opaque {
                        word,
                        addr: Some(o.addr),
                        what: o.tag.name().into(),
                    },
                },
                Body::Closure { .. } => self.closure(word)?,
                Body::Some { value } => Value::Opt {
                    addr: Some(o.addr),
                    value: Box::new(untyped(value)),
                },
                Body::Variant { hash, payload } => Value::Variant {
                    addr: o.addr,
                    tag: self.label_of(hash),
                    payload: Box::new(untyped(payload)),
                },
                Body::Blob { sort, .. } => match sort {
                    BlobSort::Text => Value::Text(self.text(word)?),
                    // Classical moc < 0.13: bytes of a Text, Blob or Principal alike.
                    BlobSort::Bytes | BlobSort::Unknown => {
                        Value::Blob(self.blob_bytes(word, Prim::Blob)?)
                    }
                    BlobSort::Principal => {
                        Value::Principal(self.blob_bytes(word, Prim::Principal)?)
                    }
                    BlobSort::Actor => Value::Actor(self.blob_bytes(word, Prim::Principal)?),
                },
                Body::BigInt { .. } => {
                    let n = self.bigint(word, Prim::Int)?;
                    match n.to_biguint() {
                        Some(n) => Value::Nat(n),
                        None => Value::Int(n),
                    }
                }
                Body::Concat { .. } => Value::Text(self.text(word)?),
                Body::Region { .. } => self.region(word)?,
                Body::WeakRef { target } => {
                    let alive = self.heap.is_pointer(target) && !self.heap.is_null(target)?;
                    Value::Weak {
                        addr: o.addr,
                        target: alive.then(|| Box::new(untyped(target))),
                    }
                }
                Body::Null => Value::Null,
                _ => Value::Opaque {
                    word,
                    addr: Some(o.addr),
                    what: o.tag.name().to_string(),
                },
            });
        }
        Ok(Value::Opaque {
            word,
            addr: self.heap.pointer(word),
            what: "MutBox chain".into(),
        })
    }

    /// A record without its type, one level deep: labels by their hashes, parts untyped.
    fn untyped_record(
        &mut self,
        addr: u64,
        hashes: Hashes<'h>,
        fields: Words<'h>,
    ) -> Result<Value, DecodeError> {
        self.budget.spend(fields.len(), addr)?;
        let mut out = Vec::with_capacity(hashes.len());
        for (h, w) in hashes.iter().zip(fields.iter()) {
            out.push(RecordField {
                label: self.label_of(h),
                mutable: false,
                value: untyped(w),
            });
        }
        Ok(Value::Record { addr, fields: out })
    }

    /// An array object (of tag `tag`) at `addr`, word `word`, without its type, one level deep.
    fn untyped_array(
        &mut self,
        word: u64,
        addr: u64,
        tag: &str,
        sort: ArraySort,
        elems: Words<'h>,
    ) -> Result<Value, DecodeError> {
        self.budget.spend(elems.len(), addr)?;
        let items: Vec<Value> = elems.iter().map(untyped).collect();
        Ok(match sort {
            ArraySort::Tuple => Value::Tuple { addr, items },
            ArraySort::Immutable | ArraySort::Mutable => Value::Array {
                addr,
                mutable: sort == ArraySort::Mutable,
                items,
            },
            // Classical moc < 0.13: a tuple, an array (either mutability) or
            // a shared function; only a type tells which.
            ArraySort::Unknown => Value::Opaque {
                word,
                addr: Some(addr),
                what: tag.into(),
            },
            ArraySort::Shared => {
                let ty = Type::Func(Box::new(crate::heap::types::FuncType {
                    sort: crate::heap::types::FuncSort::Shared,
                    type_params: Vec::new(),
                    arg: Arc::new(Type::unit()),
                    result: Arc::new(Type::unit()),
                }));
                return self.shallow(&LazyValue {
                    word,
                    ty: Some(Arc::new(ty)),
                });
            }
        })
    }

    /// A scalar word without a type: EOP and rtti scalars carry type tags; classical ones
    /// without rtti are opaque.
    fn untyped_scalar(&self, word: u64) -> Value {
        let sc = self.heap.scalars();
        match word {
            0 => return Value::Bool(false),
            1 => return Value::Bool(true),
            _ => {}
        }
        if matches!(
            sc,
            ScalarCoding::Classical | ScalarCoding::ClassicalPreUbits
        ) {
            return Value::Opaque {
                word,
                addr: None,
                what: "scalar".into(),
            };
        }
        if let Some(n) = sc.nat_int(word) {
            // Nat and Int share the compact encoding: non-negative numbers show as Nat.
            return match u64::try_from(n) {
                Ok(n) => Value::Nat(n.into()),
                Err(_) => Value::Int(BigInt::from(n)),
            };
        }
        if let Some(n) = sc.nat64(word) {
            return Value::Nat64(n);
        }
        if let Some(n) = sc.int64(word) {
            return Value::Int64(n);
        }
        if let Some(n) = sc.nat32(word) {
            return Value::Nat32(n);
        }
        if let Some(n) = sc.int32(word) {
            return Value::Int32(n);
        }
        if let Some(c) = sc.char(word).and_then(char::from_u32) {
            return Value::Char(c);
        }
        if let Some(n) = sc.nat16(word) {
            return Value::Nat16(n);
        }
        if let Some(n) = sc.int16(word) {
            return Value::Int16(n);
        }
        if let Some(n) = sc.nat8(word) {
            return Value::Nat8(n);
        }
        if let Some(n) = sc.int8(word) {
            return Value::Int8(n);
        }
        Value::Opaque {
            word,
            addr: None,
            what: "scalar".into(),
        }
    }
}

/// A part not decoded yet, without a type.
fn untyped(word: u64) -> Value {
    Value::Lazy(LazyValue { word, ty: None })
}
