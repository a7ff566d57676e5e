//! Light references into the heap: what a loop that only looks into its variable (see
//! `compile::views`) binds instead of a decoded record or array.
//!
//! `for (c in vars.chunks.vals()) { for (r in c.vals()) { sum += r.id } }` then reads, per
//! record, the one field word it uses (a small `Nat` straight from the word, anything else
//! through [`direct`]): no record, text or array is decoded that the script does not
//! read. A [`HeapRef`] answers only field reads and `vals`/`values`/`size`, the uses the
//! compiler allowed; every answer is the value the decoded record or array would give.
//! Anything irregular in the heap (a word that is not the object its type says) is left to
//! the ordinary decoding, which reports it exactly as it would have without references.

use super::context::decoder;
use super::direct::{self, Plan};
use super::lazy::LazyReader;
use super::{HostError, HostObject};
use crate::heap::render::debug_show;
use crate::heap::types::Type;
use crate::heap::value::{LazyValue, Value as HeapValue};
use crate::heap::Body;
use crate::script::eval::{host_trap, Ctrl, Interp};
use crate::script::value::{NativeIter, Value};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// What a reference charges the memory budget (a host value's `debug_show` size estimate).
const REF_BYTES: u64 = 32;

/// The type of referenced values and how they are read (shared by the references an
/// iterator gives: one reference count, no atomic one, per reference).
pub struct PartKind {
    ty: Arc<Type>,
    plan: Rc<Plan>,
}

impl PartKind {
    /// Values of type `ty` read by `plan`, if `plan` is a record's or an array's (the only
    /// values references stand for).
    pub fn new(ty: &Arc<Type>, plan: &Rc<Plan>) -> Option<Rc<PartKind>> {
        matches!(&**plan, Plan::Record(_) | Plan::Array { .. }).then(|| {
            Rc::new(PartKind {
                ty: ty.clone(),
                plan: plan.clone(),
            })
        })
    }
}

/// A record or array in the heap, read one part at a time when the script asks.
pub struct HeapRef {
    reader: Rc<LazyReader>,
    word: u64,
    kind: Rc<PartKind>,
}

impl HeapRef {
    /// A reference to the value in `word` of kind `kind`, as a script value.
    pub fn value(reader: &Rc<LazyReader>, word: u64, kind: &Rc<PartKind>) -> Value {
        Value::Host(Rc::new(HeapRef {
            reader: reader.clone(),
            word,
            kind: kind.clone(),
        }))
    }

    fn lazy(&self) -> LazyValue {
        LazyValue {
            word: self.word,
            ty: Some(self.kind.ty.clone()),
        }
    }

    /// The value decoded the ordinary way (for what a reference does not read itself).
    fn decoded(&self) -> Result<Value, HostError> {
        self.reader.materialize_part(&self.lazy())
    }

    /// The word of record field `hash`, read from the object (`None`: not such a record).
    fn field_word(&self, hash: u32) -> Option<u64> {
        let heap = self.reader.ctx.heap();
        if !heap.is_pointer(self.word) {
            return None;
        }
        let o = heap.object_of(self.word).ok()?;
        let Body::Object {
            hashes,
            fields: words,
            ..
        } = o.body
        else {
            return None;
        };
        hashes.position(hash).and_then(|i| words.get(i as u64))
    }

    /// The element words of the array (`None`: not such an array).
    fn elements(&self) -> Option<Vec<u64>> {
        let heap = self.reader.ctx.heap();
        if !heap.is_pointer(self.word) {
            return None;
        }
        match heap.object_of(self.word).ok()?.body {
            Body::Array { sort, elems, .. } if sort.may_be_array() => Some(elems.iter().collect()),
            _ => None,
        }
    }

    /// Field `f` read from the heap; `None` when anything is irregular.
    fn read_field(&self, f: &direct::FieldPlan) -> Option<Value> {
        let w = self.field_word(f.hash)?;
        if matches!(&*f.plan, Plan::Nat) && !f.mutable {
            // The common case: a small Nat, in the word itself.
            let heap = self.reader.ctx.heap();
            if !heap.is_pointer(w) {
                let n = u64::try_from(heap.scalars().nat_int(w)?).ok()?;
                self.reader.charge(crate::script::value::show::nat_size(n));
                return Some(Value::Nat(n));
            }
        }
        let mut d = decoder(&self.reader.ctx).ok()?;
        d.set_max_nodes(self.reader.eager_nodes);
        let w = if f.mutable { d.mutbox(w).ok()? } else { w };
        let read = direct::read_word(&mut d, &f.plan, w)?;
        self.reader.charge(read.bytes);
        Some(read.value)
    }
}

impl HostObject for HeapRef {
    fn describe(&self) -> String {
        let Ok(mut d) = self.reader.ctx.decoder() else {
            return "<no signature>".into();
        };
        match d.deep(&self.lazy()) {
            Ok(v) => debug_show(&v),
            Err(e) => format!("<{e}>"),
        }
    }

    fn heap_value(&self) -> Option<std::borrow::Cow<'_, HeapValue>> {
        let mut d = self.reader.ctx.decoder().ok()?;
        d.deep(&self.lazy()).ok().map(std::borrow::Cow::Owned)
    }

    fn field(&self, name: &str) -> Result<Option<Value>, HostError> {
        let Plan::Record(fields) = &*self.kind.plan else {
            // An array's `a.vals` (not called) is its bound method, as on the decoded array.
            let v = self.decoded()?;
            return match crate::script::lib::method(&v, name) {
                Some(f) => Ok(Some(Value::Builtin(Rc::new(
                    crate::script::value::BoundBuiltin { f, this: Some(v) },
                )))),
                None => Err(HostError::Misuse(format!(
                    "a {} has no field {name}",
                    v.kind_name()
                ))),
            };
        };
        let Some(f) = find_field(fields, name) else {
            return Err(HostError::Misuse(format!("record has no field {name}")));
        };
        if let Some(v) = self.read_field(f) {
            return Ok(Some(v));
        }
        // Irregular: decoded the ordinary way, which says what is wrong (or reads it).
        match self.decoded()? {
            Value::Record(r) => Ok(r.get(name).map(|f| f.get())),
            Value::Host(h) => h.field(name),
            _ => Ok(None),
        }
    }

    fn call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        let Plan::Array { elem, elem_ty, .. } = &*self.kind.plan else {
            return Ok(None);
        };
        if !matches!(name, "vals" | "values" | "size") || !args.is_empty() {
            return Ok(None);
        }
        let Some(words) = self.elements() else {
            // Irregular: the decoded value answers (or says what is wrong).
            let v = self.decoded()?;
            return match &v {
                Value::Host(h) => h.call(name, args),
                _ => Ok(None),
            };
        };
        self.reader.charge(8 * words.len() as u64);
        Ok(Some(if name == "size" {
            Value::Nat(words.len() as u64)
        } else {
            Value::Iter(Rc::new(RefCell::new(Elements {
                reader: self.reader.clone(),
                words,
                next: 0,
                kind: PartKind::new(elem_ty, elem),
                elem: elem.clone(),
                elem_ty: elem_ty.clone(),
            })))
        }))
    }

    fn field_names(&self) -> Vec<String> {
        match &*self.kind.plan {
            Plan::Record(fields) => fields.iter().map(|f| f.label.to_string()).collect(),
            _ => Vec::new(),
        }
    }

    fn take_bytes(&self) -> u64 {
        self.reader.bytes.replace(0)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The field called `name` (records have few fields: a scan of short labels, no call).
fn find_field<'p>(fields: &'p [direct::FieldPlan], name: &str) -> Option<&'p direct::FieldPlan> {
    if fields.len() > 16 {
        return fields
            .binary_search_by(|f| (*f.label).cmp(name))
            .ok()
            .map(|i| &fields[i]);
    }
    let name = name.as_bytes();
    fields.iter().find(|f| {
        let l = f.label.as_bytes();
        l.len() == name.len() && l.iter().zip(name).all(|(a, b)| a == b)
    })
}

/// `a.vals()` of a referenced array: each element decoded when reached, or referenced.
struct Elements {
    reader: Rc<LazyReader>,
    words: Vec<u64>,
    next: usize,
    /// What references to the elements are, if they can stand for them.
    kind: Option<Rc<PartKind>>,
    elem: Rc<Plan>,
    elem_ty: Arc<Type>,
}

impl Elements {
    fn advance(&mut self, it: &mut Interp) -> Result<Option<u64>, Ctrl> {
        let Some(w) = self.words.get(self.next).copied() else {
            return Ok(None);
        };
        self.next += 1;
        it.tick()?;
        Ok(Some(w))
    }
}

impl NativeIter for Elements {
    fn next(&mut self, it: &mut Interp) -> Result<Option<Value>, Ctrl> {
        let Some(w) = self.advance(it)? else {
            return Ok(None);
        };
        let lazy = LazyValue {
            word: w,
            ty: Some(self.elem_ty.clone()),
        };
        let v = match self.reader.read_planned(&self.elem, w) {
            Some(v) => v,
            None => self.reader.materialize_part(&lazy).map_err(host_trap)?,
        };
        it.alloc(self.reader.bytes.replace(0))?;
        Ok(Some(v))
    }

    fn next_view(&mut self, it: &mut Interp) -> Result<Option<Value>, Ctrl> {
        let Some(kind) = self.kind.clone() else {
            return self.next(it);
        };
        let Some(w) = self.advance(it)? else {
            return Ok(None);
        };
        it.alloc(REF_BYTES)?;
        Ok(Some(HeapRef::value(&self.reader, w, &kind)))
    }
}

/// The reference [`super::lazy`]'s iterator gives a looked-into loop for part
/// `item` of a huge value, if one can stand for it.
pub fn part_ref(reader: &Rc<LazyReader>, item: &HeapValue) -> Option<Value> {
    let HeapValue::Lazy(l) = item else {
        return None;
    };
    let ty = l.ty.as_ref()?;
    let d = decoder(&reader.ctx).ok()?;
    let plan = reader.plans.plan(d.env, ty)?;
    Some(HeapRef::value(reader, l.word, &PartKind::new(ty, &plan)?))
}
