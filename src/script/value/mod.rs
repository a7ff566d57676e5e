//! Runtime values of the script engine.

pub mod equality;
pub mod float;
pub mod num;
pub mod ord;
pub mod show;

use crate::script::host::HostObject;
use crate::script::lib::Builtin;
use num_bigint::{BigInt, BigUint};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

pub use num::NumKind;

/// A script value. Cheap to clone: aggregates are reference counted.
#[derive(Clone, Default)]
pub enum Value {
    /// `()`.
    #[default]
    Unit,
    /// `Bool`.
    Bool(bool),
    /// `null`.
    Null,
    /// A `Nat` that fits in 64 bits.
    Nat(u64),
    /// A `Nat` above `u64::MAX` (never holds a small value).
    BigNat(Rc<BigUint>),
    /// An `Int` that fits in 64 bits.
    Int(i64),
    /// An `Int` outside `i64` (never holds a small value).
    BigInt(Rc<BigInt>),
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
    /// `Char`.
    Char(char),
    /// `Text`.
    Text(Rc<str>),
    /// `Blob`.
    Blob(Rc<[u8]>),
    /// `Principal` (its raw bytes).
    Principal(Rc<[u8]>),
    /// A tuple of two or more values.
    Tuple(Rc<[Value]>),
    /// An immutable array.
    Array(Rc<[Value]>),
    /// A mutable array.
    VarArray(Rc<RefCell<Vec<Value>>>),
    /// `?v`.
    Opt(Rc<Value>),
    /// `#tag v` (`v` is `()` for a bare tag).
    Variant(Rc<(Rc<str>, Value)>),
    /// A record (fields sorted by name).
    Record(Rc<Record>),
    /// A script function (closure).
    Func(Rc<Closure>),
    /// A built-in function, possibly bound to a receiver (`a.size`).
    Builtin(Rc<BoundBuiltin>),
    /// A built-in module (`mo:core/Array`).
    Module(&'static crate::script::lib::Module),
    /// A native iterator (`{ next : () -> ?T }`).
    Iter(Rc<RefCell<dyn NativeIter>>),
    /// An object provided by the embedder.
    Host(Rc<dyn HostObject>),
    /// A shared mutable cell (captured variables; never visible to scripts).
    Cell(Rc<RefCell<Value>>),
}

/// A record field.
pub struct Field {
    /// The field name.
    pub name: Rc<str>,
    /// Declared with `var`.
    pub mutable: bool,
    /// The value.
    pub value: RefCell<Value>,
}

impl Field {
    /// The field's value (an object's `public var` field reads the variable it shares).
    pub fn get(&self) -> Value {
        match &*self.value.borrow() {
            Value::Cell(c) => c.borrow().clone(),
            v => v.clone(),
        }
    }

    /// Stores into the field (an object's `public var` field writes the variable it shares).
    pub fn set(&self, v: Value) {
        let mut slot = self.value.borrow_mut();
        match &*slot {
            Value::Cell(c) => *c.borrow_mut() = v,
            _ => *slot = v,
        }
    }
}

/// A record value: fields sorted by name.
pub struct Record {
    /// The fields, sorted by name.
    pub fields: Vec<Field>,
    /// The value of a `module` (shown as `module {a = 1}`).
    pub module: bool,
}

impl Record {
    /// The field called `name`.
    pub fn get(&self, name: &str) -> Option<&Field> {
        self.fields
            .binary_search_by(|f| (*f.name).cmp(name))
            .ok()
            .map(|i| &self.fields[i])
    }
}

/// A closure: compiled code plus captured cells.
pub struct Closure {
    /// The compiled function.
    pub proto: Rc<crate::script::compile::ir::FuncProto>,
    /// Captured values (cells for mutable or forward-declared variables).
    pub env: Box<[Value]>,
}

/// A built-in function with an optional receiver bound by a method access.
pub struct BoundBuiltin {
    /// The function.
    pub f: &'static Builtin,
    /// The receiver for methods (`xs.vals`), if any.
    pub this: Option<Value>,
}

/// A native iterator; `next` may call back into the interpreter.
pub trait NativeIter {
    /// The next element, or `None` at the end.
    fn next(
        &mut self,
        it: &mut crate::script::eval::Interp,
    ) -> Result<Option<Value>, crate::script::eval::Ctrl>;

    /// The next element for a loop that only reads its fields or iterates it (see
    /// `compile::views`): a light reference into the heap where one can stand for the
    /// element (no decoding of what the loop does not read); by default [`NativeIter::next`].
    fn next_view(
        &mut self,
        it: &mut crate::script::eval::Interp,
    ) -> Result<Option<Value>, crate::script::eval::Ctrl> {
        self.next(it)
    }

    /// For counting iterators: `(next, end, step, yields Int)`, so that a `for` loop
    /// that owns the iterator can count without dynamic calls.
    fn range_bounds(&self) -> Option<(i128, i128, i128, bool)> {
        None
    }
}

impl Value {
    /// A text value.
    pub fn text(s: &str) -> Value {
        Value::Text(Rc::from(s))
    }

    /// A variant value.
    pub fn variant(tag: &str, v: Value) -> Value {
        Value::Variant(Rc::new((Rc::from(tag), v)))
    }

    /// `?v`.
    pub fn some(v: Value) -> Value {
        Value::Opt(Rc::new(v))
    }

    /// A record from (name, value) pairs (sorted here).
    pub fn record(mut fields: Vec<(Rc<str>, bool, Value)>) -> Value {
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        Value::Record(Rc::new(Record {
            fields: fields
                .into_iter()
                .map(|(name, mutable, v)| Field {
                    name,
                    mutable,
                    value: RefCell::new(v),
                })
                .collect(),
            module: false,
        }))
    }

    /// The same record as a module value (its fields shared, `public var` cells too).
    pub fn as_module(self) -> Value {
        match self {
            Value::Record(r) => Value::Record(Rc::new(Record {
                fields: r
                    .fields
                    .iter()
                    .map(|f| Field {
                        name: f.name.clone(),
                        mutable: f.mutable,
                        value: RefCell::new(f.value.borrow().clone()),
                    })
                    .collect(),
                module: true,
            })),
            other => other,
        }
    }

    /// A `Nat` from a big integer, normalised to the small form when it fits.
    pub fn nat_big(n: BigUint) -> Value {
        match u64::try_from(&n) {
            Ok(v) => Value::Nat(v),
            Err(_) => Value::BigNat(Rc::new(n)),
        }
    }

    /// An `Int` from a big integer, normalised to the small form when it fits.
    pub fn int_big(n: BigInt) -> Value {
        match i64::try_from(&n) {
            Ok(v) => Value::Int(v),
            Err(_) => Value::BigInt(Rc::new(n)),
        }
    }

    /// The name of this value's kind, for error messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Unit => "()",
            Value::Bool(_) => "Bool",
            Value::Null => "Null",
            Value::Nat(_) | Value::BigNat(_) => "Nat",
            Value::Int(_) | Value::BigInt(_) => "Int",
            Value::Nat8(_) => "Nat8",
            Value::Nat16(_) => "Nat16",
            Value::Nat32(_) => "Nat32",
            Value::Nat64(_) => "Nat64",
            Value::Int8(_) => "Int8",
            Value::Int16(_) => "Int16",
            Value::Int32(_) => "Int32",
            Value::Int64(_) => "Int64",
            Value::Float(_) => "Float",
            Value::Char(_) => "Char",
            Value::Text(_) => "Text",
            Value::Blob(_) => "Blob",
            Value::Principal(_) => "Principal",
            Value::Tuple(_) => "tuple",
            Value::Array(_) => "array",
            Value::VarArray(_) => "mutable array",
            Value::Opt(_) => "option",
            Value::Variant(_) => "variant",
            Value::Record(_) => "record",
            Value::Func(_) | Value::Builtin(_) => "function",
            Value::Module(_) => "module",
            Value::Iter(_) => "iterator",
            Value::Host(_) => "host object",
            Value::Cell(_) => "cell",
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&show::debug_show(self))
    }
}

/// Drops a value without recursion: deep structures (a long `?(x, list)` chain, a deep
/// variant tree) would otherwise overflow the native stack when their last reference
/// goes away. Shared parts (other references alive) are left alone.
/// Copies a value; the small scalars (`Nat`, `Int`, `Bool`, `()`) without a call into
/// the general `clone` (the interpreter's loop path reads them at every step).
#[inline(always)]
pub fn dup(v: &Value) -> Value {
    match v {
        Value::Nat(n) => Value::Nat(*n),
        Value::Int(n) => Value::Int(*n),
        Value::Bool(b) => Value::Bool(*b),
        Value::Unit => Value::Unit,
        _ => v.clone(),
    }
}

/// Drops a value; the small scalars without a call into the general drop glue, deep
/// aggregates through [`dispose`].
#[inline(always)]
pub fn discard(v: Value) {
    if v.is_plain_scalar() {
        std::mem::forget(v); // owns nothing: a number, a Bool or `()`
    } else {
        dispose(v);
    }
}

#[inline]
pub fn dispose(v: Value) {
    if v.is_aggregate() {
        dispose_deep(v);
    }
}

#[inline(never)]
fn dispose_deep(v: Value) {
    let unique = match &v {
        Value::Opt(rc) => Rc::strong_count(rc) == 1,
        Value::Variant(rc) => Rc::strong_count(rc) == 1,
        Value::Tuple(rc) | Value::Array(rc) => Rc::strong_count(rc) == 1,
        Value::VarArray(rc) => Rc::strong_count(rc) == 1,
        Value::Record(rc) => Rc::strong_count(rc) == 1,
        Value::Cell(rc) => Rc::strong_count(rc) == 1,
        Value::Func(rc) => Rc::strong_count(rc) == 1,
        _ => false,
    };
    if !unique {
        return; // only a reference count goes down
    }
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        match v {
            Value::Opt(rc) => {
                if let Ok(inner) = Rc::try_unwrap(rc) {
                    work.push(inner);
                }
            }
            Value::Variant(rc) => {
                if let Ok((_, inner)) = Rc::try_unwrap(rc) {
                    work.push(inner);
                }
            }
            Value::Tuple(mut rc) | Value::Array(mut rc) => {
                if let Some(xs) = Rc::get_mut(&mut rc) {
                    for x in xs.iter_mut() {
                        if x.is_aggregate() {
                            work.push(std::mem::take(x));
                        }
                    }
                }
            }
            Value::VarArray(rc) => {
                if let Ok(cell) = Rc::try_unwrap(rc) {
                    work.extend(cell.into_inner().into_iter().filter(Value::is_aggregate));
                }
            }
            Value::Record(rc) => {
                if let Ok(r) = Rc::try_unwrap(rc) {
                    work.extend(r.fields.into_iter().map(|f| f.value.into_inner()));
                }
            }
            Value::Cell(rc) => {
                if let Ok(c) = Rc::try_unwrap(rc) {
                    work.push(c.into_inner());
                }
            }
            Value::Func(rc) => {
                if let Ok(c) = Rc::try_unwrap(rc) {
                    work.extend(c.env.into_vec());
                }
            }
            _ => {}
        }
    }
}

impl Value {
    /// True for the values that own no heap memory and are copied by value: `()`,
    /// `Bool`, `null`, the small `Nat`/`Int`, the fixed-width numbers, `Float` and `Char`.
    #[inline(always)]
    pub fn is_plain_scalar(&self) -> bool {
        matches!(
            self,
            Value::Unit
                | Value::Bool(_)
                | Value::Null
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
                | Value::Char(_)
        )
    }

    /// True for values that hold other values.
    #[inline]
    pub fn is_aggregate(&self) -> bool {
        matches!(
            self,
            Value::Opt(_)
                | Value::Variant(_)
                | Value::Tuple(_)
                | Value::Array(_)
                | Value::VarArray(_)
                | Value::Record(_)
                | Value::Cell(_)
                | Value::Func(_)
        )
    }
}
