//! [`Value`]: a decoded Motoko value, each compound carrying its heap address.

use std::sync::Arc;

use num_bigint::{BigInt, BigUint};

use crate::heap::types::Type;

/// A value not decoded yet: a heap word and its static type. Decode it with
/// [`Decoder::shallow`](super::Decoder::shallow) (one level) or
/// [`Decoder::deep`](super::Decoder::deep) (everything, bounded by the limits).
#[derive(Debug, Clone, PartialEq)]
pub struct LazyValue {
    /// The vanilla word (scalar, skewed pointer, or null).
    pub word: u64,
    /// The static type (`None`: no type reaches it; decoded untyped).
    pub ty: Option<Arc<Type>>,
}

impl LazyValue {
    /// A word of static type `ty`.
    pub fn typed(word: u64, ty: Arc<Type>) -> LazyValue {
        LazyValue { word, ty: Some(ty) }
    }

    /// A word with no static type (decoded from object tags and scalar tags).
    pub fn untyped(word: u64) -> LazyValue {
        LazyValue { word, ty: None }
    }
}

/// One field of a decoded record or object.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordField {
    /// The label (from the type; untyped objects show `_<hash>_` when the name is unknown).
    pub label: Arc<str>,
    /// Whether the field is `var` (its value sits in a MutBox).
    pub mutable: bool,
    /// The field value.
    pub value: Value,
}

/// A decoded Motoko value. Compound values carry the address of their heap object
/// (`None` for values that have no object of their own, such as an inline `?v`).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null` (of type `Null` or an empty option).
    Null,
    /// `()`.
    Unit,
    /// `Bool`.
    Bool(bool),
    /// `Nat`, arbitrary precision.
    Nat(BigUint),
    /// `Int`, arbitrary precision.
    Int(BigInt),
    /// `Nat8`.
    Nat8(u8),
    /// `Nat16`.
    Nat16(u16),
    /// `Nat32`.
    Nat32(u32),
    /// `Nat64`.
    Nat64(u64),
    /// `Int8`.
    Int8(i8),
    /// `Int16`.
    Int16(i16),
    /// `Int32`.
    Int32(i32),
    /// `Int64`.
    Int64(i64),
    /// `Float`.
    Float(f64),
    /// `Float32`.
    Float32(f32),
    /// `Char`.
    Char(char),
    /// `Text` (invalid UTF-8, impossible in a real heap, is replaced by U+FFFD).
    Text(String),
    /// `Blob`.
    Blob(Vec<u8>),
    /// `Principal` (raw bytes).
    Principal(Vec<u8>),
    /// An actor reference (the canister id's raw bytes).
    Actor(Vec<u8>),
    /// A shared function reference: an actor and a method name.
    SharedFunc {
        /// Address of the Array S object.
        addr: u64,
        /// The actor's canister id bytes.
        actor: Vec<u8>,
        /// The method name.
        method: String,
    },
    /// `?v`.
    Opt {
        /// Address of the Some box, if the value needed one (`?null`, `??x`).
        addr: Option<u64>,
        /// The wrapped value.
        value: Box<Value>,
    },
    /// A variant `#tag v` (`v` is `()` for a tag without payload).
    Variant {
        /// Address of the Variant object.
        addr: u64,
        /// The tag label.
        tag: Arc<str>,
        /// The payload.
        payload: Box<Value>,
    },
    /// A record or object, fields in the type's order (sorted by label).
    Record {
        /// Address of the Object.
        addr: u64,
        /// The fields.
        fields: Vec<RecordField>,
    },
    /// A tuple of arity >= 1.
    Tuple {
        /// Address of the Array T object.
        addr: u64,
        /// The components.
        items: Vec<Value>,
    },
    /// `[T]` or `[var T]`.
    Array {
        /// Address of the Array object.
        addr: u64,
        /// Whether the array is `[var T]`.
        mutable: bool,
        /// The elements.
        items: Vec<Value>,
    },
    /// A stable-memory region.
    Region {
        /// Address of the Region object.
        addr: u64,
        /// Region id (0 = legacy stable memory, user regions from 16).
        id: u64,
        /// Size in 64 KiB pages.
        page_count: u64,
        /// The 8 MiB block ids the region owns, in order.
        blocks: Vec<u16>,
    },
    /// A function value (closure).
    Closure {
        /// Address of the Closure object.
        addr: u64,
        /// The Wasm table index.
        funid: u64,
        /// The function's name from the module's name section, if known.
        name: Option<String>,
        /// The captured values (untyped).
        captures: Vec<Value>,
    },
    /// `weak T`: a weak reference and its target (`None` once collected).
    Weak {
        /// Address of the WeakRef object.
        addr: u64,
        /// The target, if still alive.
        target: Option<Box<Value>>,
    },
    /// A word no type reaches and that cannot be decoded untyped (e.g. a classical scalar).
    Opaque {
        /// The raw vanilla word.
        word: u64,
        /// The object's address if the word is a pointer.
        addr: Option<u64>,
        /// What is known about it (e.g. `scalar`, `Bits64 U`).
        what: String,
    },
    /// A back-reference: the object at `addr` contains itself (through `var` fields or
    /// mutable arrays); decoding stops here instead of unfolding the cycle.
    Cycle {
        /// The address of the object already being decoded on the path from the root.
        addr: u64,
    },
    /// A part not decoded yet (see [`LazyValue`]).
    Lazy(LazyValue),
}

impl Value {
    /// Whether this is a scalar its word alone determines (a number, Bool, Char or null),
    /// rendered without any nesting.
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            Value::Null
                | Value::Bool(_)
                | Value::Nat(_)
                | Value::Int(_)
                | Value::Nat8(_)
                | Value::Nat16(_)
                | Value::Nat32(_)
                | Value::Nat64(_)
                | Value::Int8(_)
                | Value::Int16(_)
                | Value::Int32(_)
                | Value::Int64(_)
                | Value::Float(_)
                | Value::Float32(_)
                | Value::Char(_)
        )
    }

    /// The heap address of this value's own object, if it has one.
    pub fn addr(&self) -> Option<u64> {
        match self {
            Value::SharedFunc { addr, .. }
            | Value::Variant { addr, .. }
            | Value::Record { addr, .. }
            | Value::Tuple { addr, .. }
            | Value::Array { addr, .. }
            | Value::Region { addr, .. }
            | Value::Closure { addr, .. }
            | Value::Weak { addr, .. } => Some(*addr),
            Value::Opt { addr, .. } | Value::Opaque { addr, .. } => *addr,
            _ => None,
        }
    }

    /// The number of direct children (option payload, fields, elements, captures, …).
    pub fn child_count(&self) -> usize {
        match self {
            Value::Opt { .. } | Value::Variant { .. } => 1,
            Value::Weak { target, .. } => usize::from(target.is_some()),
            Value::Record { fields, .. } => fields.len(),
            Value::Tuple { items, .. } | Value::Array { items, .. } => items.len(),
            Value::Closure { captures, .. } => captures.len(),
            _ => 0,
        }
    }

    /// Direct child `i`, mutably (used to fill in [`Value::Lazy`] parts).
    pub fn child_mut(&mut self, i: usize) -> Option<&mut Value> {
        match self {
            Value::Opt { value, .. } if i == 0 => Some(value),
            Value::Variant { payload, .. } if i == 0 => Some(payload),
            Value::Weak {
                target: Some(t), ..
            } if i == 0 => Some(t),
            Value::Record { fields, .. } => fields.get_mut(i).map(|f| &mut f.value),
            Value::Tuple { items, .. } | Value::Array { items, .. } => items.get_mut(i),
            Value::Closure { captures, .. } => captures.get_mut(i),
            _ => None,
        }
    }

    /// Direct child `i`.
    pub fn child(&self, i: usize) -> Option<&Value> {
        match self {
            Value::Opt { value, .. } if i == 0 => Some(value),
            Value::Variant { payload, .. } if i == 0 => Some(payload),
            Value::Weak {
                target: Some(t), ..
            } if i == 0 => Some(t),
            Value::Record { fields, .. } => fields.get(i).map(|f| &f.value),
            Value::Tuple { items, .. } | Value::Array { items, .. } => items.get(i),
            Value::Closure { captures, .. } => captures.get(i),
            _ => None,
        }
    }
}

impl Drop for Value {
    /// Drops deeply nested values with an explicit stack (no recursion on long lists).
    fn drop(&mut self) {
        if self.child_count() == 0 {
            return;
        }
        let mut stack: Vec<Value> = Vec::new();
        take_children(self, &mut stack);
        while let Some(mut v) = stack.pop() {
            take_children(&mut v, &mut stack);
        }
    }
}

fn take_children(v: &mut Value, out: &mut Vec<Value>) {
    for i in 0..v.child_count() {
        if let Some(c) = v.child_mut(i) {
            if c.child_count() > 0 {
                out.push(std::mem::replace(c, Value::Unit));
            }
        }
    }
}
