//! What a script reads from a value read one level at a time ([`LazyNode`]): a record's
//! fields, an array's or tuple's `size()`, `get(i)` and `vals()`, a variant's `tag()` and
//! `payload()`, an option's `value()`, and a map's `get(k)` by the map's own order. Apart
//! from the reader ([`super::lazy`]), so that the reader does not name the looked-into
//! references ([`super::view`]) an array's loop gives.

use super::args::{arg_u64, check_arity};
use super::context::decoder;
use super::convert::to_heap_key;
use super::lazy::{LazyNode, LazyReader};
use super::{HostError, HostObject};
use crate::heap::collections::{lookup, CollectionKind};
use crate::heap::render::debug_show;
use crate::heap::value::{DecodeError, Value as HeapValue};
use crate::script::eval::{host_trap, Ctrl, Interp};
use crate::script::value::{NativeIter, Value};
use std::cell::RefCell;
use std::rc::Rc;

impl LazyNode {
    fn items(&self) -> Option<&[HeapValue]> {
        match &self.shallow {
            HeapValue::Array { items, .. } | HeapValue::Tuple { items, .. } => Some(items),
            _ => None,
        }
    }
}

impl HostObject for LazyNode {
    fn describe(&self) -> String {
        let Ok(mut d) = self.reader.ctx.decoder() else {
            return "<no signature>".into();
        };
        match d.deep(&self.lazy) {
            Ok(v) => debug_show(&v),
            Err(e) => format!("<{e}>"),
        }
    }

    fn heap_value(&self) -> Option<std::borrow::Cow<'_, HeapValue>> {
        let mut d = self.reader.ctx.decoder().ok()?;
        d.deep(&self.lazy).ok().map(std::borrow::Cow::Owned)
    }

    fn field(&self, name: &str) -> Result<Option<Value>, HostError> {
        let HeapValue::Record { fields, .. } = &self.shallow else {
            return Ok(None);
        };
        match fields.iter().find(|f| &*f.label == name) {
            Some(f) => self.reader.child(&f.value).map(Some),
            None => Ok(None),
        }
    }

    fn call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        let v = match (name, &self.shallow) {
            ("size", _) => {
                let Some(items) = self.items() else {
                    return Ok(None);
                };
                check_arity(name, args, 0)?;
                Value::Nat(items.len() as u64)
            }
            ("get", _) => {
                // not an array: no `get` here (a contextual `Map.get` may apply)
                let Some(items) = self.items() else {
                    return Ok(None);
                };
                check_arity(name, args, 1)?;
                let i = arg_u64(name, args, 0)?;
                let item = usize::try_from(i)
                    .ok()
                    .and_then(|i| items.get(i))
                    .ok_or_else(|| HostError::Misuse(format!("index {i} out of bounds")))?;
                self.reader.child(item)?
            }
            ("vals" | "values", _) => {
                let Some(items) = self.items() else {
                    return Ok(None);
                };
                check_arity(name, args, 0)?;
                Value::Iter(Rc::new(RefCell::new(LazyItems {
                    reader: self.reader.clone(),
                    items: items.to_vec(),
                    next: 0,
                    shared: None,
                })))
            }
            ("tag", HeapValue::Variant { tag, .. }) => Value::text(tag),
            ("payload", HeapValue::Variant { payload, .. }) => self.reader.child(payload)?,
            ("value", HeapValue::Opt { value, .. }) => Value::some(self.reader.child(value)?),
            ("value", HeapValue::Null) => Value::Null,
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

    fn field_names(&self) -> Vec<String> {
        match &self.shallow {
            HeapValue::Record { fields, .. } => {
                fields.iter().map(|f| f.label.to_string()).collect()
            }
            _ => Vec::new(),
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `a.vals()` of a lazily read array: each element decoded when reached.
struct LazyItems {
    reader: LazyReader,
    items: Vec<HeapValue>,
    next: usize,
    /// The reader the references given by [`NativeIter::next_view`] share.
    shared: Option<Rc<LazyReader>>,
}

impl NativeIter for LazyItems {
    fn next(&mut self, it: &mut Interp) -> Result<Option<Value>, Ctrl> {
        let Some(item) = self.items.get(self.next) else {
            return Ok(None);
        };
        self.next += 1;
        it.tick()?;
        let v = self.reader.child(item).map_err(host_trap)?;
        it.alloc(self.reader.bytes.replace(0))?;
        Ok(Some(v))
    }

    fn next_view(&mut self, it: &mut Interp) -> Result<Option<Value>, Ctrl> {
        let Some(item) = self.items.get(self.next) else {
            return Ok(None);
        };
        let shared = self
            .shared
            .get_or_insert_with(|| Rc::new(self.reader.clone()));
        let Some(r) = super::view::part_ref(shared, item) else {
            return self.next(it);
        };
        self.next += 1;
        it.tick()?;
        it.alloc(32)?;
        Ok(Some(r))
    }
}
