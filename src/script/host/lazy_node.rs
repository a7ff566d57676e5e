//! What a script reads from a value read one level at a time ([`LazyNode`]): a record's
//! fields, an array's or tuple's `size()`, `get(i)` and `vals()`, a variant's `tag()` and
//! `payload()`, an option's `value()`, and a map's `get(k)` by the map's own order. Apart
//! from the reader ([`super::lazy`]), so that the reader does not name the looked-into
//! references ([`super::view`]) an array's loop gives.

use super::args::{arg_u64, check_arity};
use super::context::decoder;
use super::convert::to_heap_key;
use super::lazy::{LazyNode, LazyReader, Level};
use super::{HostError, HostObject};
use crate::heap::collections::{lookup, CollectionKind};
use crate::heap::value::{DecodeError, LazyValue, Value as HeapValue};
use crate::script::eval::{host_trap, Ctrl, Interp};
use crate::script::value::{NativeIter, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// Most elements of a lazily read array taken apart at once ([`HostObject::unfold`], for
/// `==`): each becomes a script value before the comparison starts.
const MAX_UNFOLDED: u64 = 1 << 20;

impl LazyNode {
    /// Where its parts come from, if it is an array or a tuple.
    fn parts(&self) -> Option<Parts> {
        match &self.level {
            Level::Array { len, .. } => Some(Parts::Array {
                lazy: self.lazy.clone(),
                len: *len,
            }),
            Level::Decoded(HeapValue::Tuple { items, .. }) => Some(Parts::Tuple(items.clone())),
            Level::Decoded(_) => None,
        }
    }
}

/// The parts of an array or tuple read lazily: an array's elements are read from the heap
/// one at a time (never listed); a tuple's few components were decoded with it.
enum Parts {
    Array { lazy: LazyValue, len: u64 },
    Tuple(Vec<HeapValue>),
}

impl Parts {
    fn len(&self) -> u64 {
        match self {
            Parts::Array { len, .. } => *len,
            Parts::Tuple(items) => items.len() as u64,
        }
    }

    /// Part `i`, not yet decoded.
    fn get(&self, reader: &LazyReader, i: u64) -> Result<HeapValue, HostError> {
        if i >= self.len() {
            return Err(HostError::Misuse(format!("index {i} out of bounds")));
        }
        match self {
            Parts::Array { lazy, .. } => {
                let mut d = decoder(&reader.ctx)?;
                let element = d.element(lazy, i).map_err(|e| HostError::data("", e))?;
                Ok(HeapValue::Lazy(element))
            }
            Parts::Tuple(items) => Ok(items[i as usize].clone()),
        }
    }
}

impl HostObject for LazyNode {
    /// A short description by shape (error messages name it; `debug_show` decodes it all
    /// through [`HostObject::heap_value`]), never the whole value, which may be huge.
    fn describe(&self) -> String {
        let shallow = match &self.level {
            Level::Array { mutable, len } => {
                let kind = if *mutable {
                    "a mutable array"
                } else {
                    "an array"
                };
                return format!("{kind} of {len} elements read lazily from the snapshot");
            }
            Level::Decoded(v) => v,
        };
        let what = match shallow {
            HeapValue::Tuple { items, .. } => format!("a tuple of {} components", items.len()),
            HeapValue::Record { fields, .. } => {
                let names: Vec<&str> = fields.iter().take(8).map(|f| &*f.label).collect();
                let more = if fields.len() > names.len() {
                    "; …"
                } else {
                    ""
                };
                format!("a record {{{}{more}}}", names.join("; "))
            }
            HeapValue::Variant { tag, .. } => format!("a variant #{tag}"),
            HeapValue::Opt { .. } | HeapValue::Null => "an option".to_string(),
            _ => "a value".to_string(),
        };
        format!("{what} read lazily from the snapshot")
    }

    fn heap_value(&self) -> Option<std::borrow::Cow<'_, HeapValue>> {
        let mut d = self.reader.ctx.decoder().ok()?;
        d.deep(&self.lazy).ok().map(std::borrow::Cow::Owned)
    }

    fn field(&self, name: &str) -> Result<Option<Value>, HostError> {
        let Level::Decoded(HeapValue::Record { fields, .. }) = &self.level else {
            return Ok(None);
        };
        match fields.iter().find(|f| &*f.label == name) {
            Some(f) => self.reader.child(&f.value).map(Some),
            None => Ok(None),
        }
    }

    fn call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        let v = match (name, &self.level) {
            ("size" | "get" | "keys" | "vals" | "values", _) => {
                // not an array: none of these here (a contextual `Map.get` may apply)
                let Some(parts) = self.parts() else {
                    return Ok(None);
                };
                parts_call(&self.reader, parts, name, args)?
            }
            ("put", Level::Array { mutable: true, .. }) => {
                return Err(HostError::Misuse(format!(
                    "cannot change {}: a script cannot change what it reads lazily (copy it \
                     first, for example with `VarArray.clone`)",
                    self.describe()
                )))
            }
            ("tag", Level::Decoded(HeapValue::Variant { tag, .. })) => Value::text(tag),
            ("payload", Level::Decoded(HeapValue::Variant { payload, .. })) => {
                self.reader.child(payload)?
            }
            ("value", Level::Decoded(HeapValue::Opt { value, .. })) => {
                Value::some(self.reader.child(value)?)
            }
            ("value", Level::Decoded(HeapValue::Null)) => Value::Null,
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    fn take_bytes(&self) -> u64 {
        self.reader.bytes.replace(0)
    }

    fn ordered_get(&self, key: &Value) -> Result<Option<Option<Value>>, HostError> {
        let Some(key) = to_heap_key(key) else {
            return Ok(None);
        };
        let mut d = decoder(&self.reader.ctx)?;
        let kind = match d.collection_kind(&self.lazy) {
            Some(
                k @ (CollectionKind::Map | CollectionKind::PureMap | CollectionKind::BaseRBTree),
            ) => k,
            _ => return Ok(None),
        };
        match lookup(&mut d, &self.lazy, kind, &key) {
            Ok(Some(v)) => Ok(Some(Some(self.reader.materialize_part(&v)?))),
            Ok(None) => Ok(Some(None)),
            // Keys of another type than the script's: its own `compare` decides.
            Err(DecodeError::Mismatch { .. }) => Ok(None),
            Err(e) => Err(HostError::data("", e)),
        }
    }

    fn unfold(&self) -> Result<Option<Value>, HostError> {
        let shallow = match &self.level {
            Level::Array { mutable, len } => {
                // every element is held at once: bounded before any is read
                if *len > MAX_UNFOLDED {
                    return Err(HostError::Limit(format!(
                        "{} is too large to take apart whole (more than {MAX_UNFOLDED} \
                         elements): compare or copy parts of it",
                        self.describe()
                    )));
                }
                let parts = Parts::Array {
                    lazy: self.lazy.clone(),
                    len: *len,
                };
                let xs = (0..*len)
                    .map(|i| self.reader.child(&parts.get(&self.reader, i)?))
                    .collect::<Result<Vec<_>, _>>()?;
                return Ok(Some(if *mutable {
                    Value::VarArray(Rc::new(RefCell::new(xs)))
                } else {
                    Value::Array(Rc::from(xs))
                }));
            }
            Level::Decoded(v) => v,
        };
        let child = |v: &HeapValue| self.reader.child(v);
        Ok(Some(match shallow {
            HeapValue::Tuple { items, .. } => {
                Value::Tuple(items.iter().map(child).collect::<Result<_, _>>()?)
            }
            // a snapshot is read-only: its records' `var` fields read as plain fields, as
            // when they are decoded whole (`convert`)
            HeapValue::Record { fields, .. } => Value::record(
                fields
                    .iter()
                    .map(|f| Ok((self.reader.book.label(&f.label), false, child(&f.value)?)))
                    .collect::<Result<_, HostError>>()?,
            ),
            HeapValue::Variant { tag, payload, .. } => Value::variant(tag, child(payload)?),
            HeapValue::Opt { value, .. } => Value::some(child(value)?),
            HeapValue::Null => Value::Null,
            _ => return Ok(None),
        }))
    }

    fn field_names(&self) -> Vec<String> {
        match &self.level {
            Level::Decoded(HeapValue::Record { fields, .. }) => {
                fields.iter().map(|f| f.label.to_string()).collect()
            }
            _ => Vec::new(),
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `size()`, `get(i)`, `keys()` or `vals()` of an array or tuple read lazily.
fn parts_call(
    reader: &LazyReader,
    parts: Parts,
    name: &str,
    args: &[Value],
) -> Result<Value, HostError> {
    let arity = if name == "get" { 1 } else { 0 };
    check_arity(name, args, arity)?;
    Ok(match name {
        "size" => Value::Nat(parts.len()),
        "get" => reader.child(&parts.get(reader, arg_u64(name, args, 0)?)?)?,
        "keys" => {
            let n = usize::try_from(parts.len())
                .map_err(|_| HostError::Limit("an array too large to count".into()))?;
            crate::script::lib::index_iter(n)
        }
        _ => Value::Iter(Rc::new(RefCell::new(LazyItems {
            reader: reader.clone(),
            parts,
            next: 0,
            shared: None,
        }))),
    })
}

/// `a.vals()` of a lazily read array: each element read from the heap when reached.
struct LazyItems {
    reader: LazyReader,
    parts: Parts,
    next: u64,
    /// The reader the references given by [`NativeIter::next_view`] share.
    shared: Option<Rc<LazyReader>>,
}

impl LazyItems {
    /// The next part, not yet decoded.
    fn peek(&self) -> Result<Option<HeapValue>, Ctrl> {
        if self.next >= self.parts.len() {
            return Ok(None);
        }
        self.parts
            .get(&self.reader, self.next)
            .map(Some)
            .map_err(host_trap)
    }
}

impl NativeIter for LazyItems {
    fn next(&mut self, it: &mut Interp) -> Result<Option<Value>, Ctrl> {
        let Some(item) = self.peek()? else {
            return Ok(None);
        };
        self.next += 1;
        it.tick()?;
        let v = self.reader.child(&item).map_err(host_trap)?;
        it.alloc(self.reader.bytes.replace(0))?;
        Ok(Some(v))
    }

    fn next_view(&mut self, it: &mut Interp) -> Result<Option<Value>, Ctrl> {
        let Some(item) = self.peek()? else {
            return Ok(None);
        };
        let shared = self
            .shared
            .get_or_insert_with(|| Rc::new(self.reader.clone()));
        let Some(r) = super::view::part_ref(shared, &item) else {
            return self.next(it);
        };
        self.next += 1;
        it.tick()?;
        it.alloc(32)?;
        Ok(Some(r))
    }
}
