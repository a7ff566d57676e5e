//! The built-in library: `mo:core/*` (and `mo:base/*`) modules and the methods of values.

/// Declares a built-in function: `func!(name, f)` or `func!(name, f, hints)`.
macro_rules! func {
    ($name:expr, $f:expr) => {
        $crate::script::lib::Builtin {
            name: $name,
            f: $f,
            arg_hints: &[],
            blob_args: false,
            value: None,
        }
    };
    ($name:expr, $f:expr, $h:expr) => {
        $crate::script::lib::Builtin {
            name: $name,
            f: $f,
            arg_hints: $h,
            blob_args: false,
            value: None,
        }
    };
}

/// Declares a built-in function whose arguments are all `Blob`s (text literals become
/// blobs): `blob_func!(name, f)`.
macro_rules! blob_func {
    ($name:expr, $f:expr) => {
        $crate::script::lib::Builtin {
            name: $name,
            f: $f,
            arg_hints: &[],
            blob_args: true,
            value: None,
        }
    };
}

/// Declares a built-in constant: `constant!(name, || value)`.
macro_rules! constant {
    ($name:expr, $v:expr) => {
        $crate::script::lib::Builtin {
            name: $name,
            f: $crate::script::lib::not_callable,
            arg_hints: &[],
            blob_args: false,
            value: Some($v),
        }
    };
}

mod args;
mod arrays;
mod base;
mod base_compat;
mod base_deque;
mod base_list;
mod base_trees;
mod blobs;
mod btree;
mod btree_mut;
mod collections;
mod containers;
mod core_list;
mod derived;
pub mod dot;
mod dot_kinds;
mod fixed;
mod float_format;
mod floats;
mod iter_adapters;
mod iters;
mod list;
mod modules;
mod native_queue;
mod numbers;
mod pure;
mod pure_build;
mod pure_list;
mod pure_queue;
mod queues;
mod ranges;
mod rbtree;
mod result;
mod scalars;
mod set;
pub mod signature_types;
mod signatures;
mod sort;
mod text;
mod text_match;
pub mod view;

use crate::script::eval::{EResult, Interp};
use crate::script::value::{BoundBuiltin, NumKind, Value};
use std::rc::Rc;

pub use iters::{iter_value, VecIter};

/// The Rust signature of a built-in function: interpreter, receiver (methods), arguments.
pub type BuiltinFn = fn(&mut Interp, Option<&Value>, &[Value]) -> EResult;

/// A built-in function or constant of a module.
pub struct Builtin {
    /// The member name (`print`).
    pub name: &'static str,
    /// The implementation (unused for constants).
    pub f: BuiltinFn,
    /// Expected numeric type of each argument (types literals; converts `Nat` to `Int`).
    pub arg_hints: &'static [Option<NumKind>],
    /// Every argument is a `Blob` (text literals are typed `Blob`).
    pub blob_args: bool,
    /// For constants (`Float.pi`): the value.
    pub value: Option<fn() -> Value>,
}

/// The implementation slot of constants (never called: constants are values).
pub fn not_callable(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> EResult {
    Err(crate::script::eval::trap("not a function"))
}

/// A built-in module.
pub struct Module {
    /// The module name (`Array`).
    pub name: &'static str,
    /// Its members, in documentation order.
    pub members: &'static [Builtin],
}

impl Module {
    /// The member called `name`.
    pub fn get(&self, name: &str) -> Option<&'static Builtin> {
        self.members
            .iter()
            .find(|b| b.name == name)
            .or_else(|| base_compat::member(self.name, name))
            .or_else(|| derived::member(self.name, name))
    }
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "module {}", self.name)
    }
}

/// The value of a module member (a function value, or the constant itself).
pub fn member_value(b: &'static Builtin) -> Value {
    match b.value {
        Some(v) => v(),
        None => Value::Builtin(Rc::new(BoundBuiltin { f: b, this: None })),
    }
}

/// Resolves an import path (`mo:core/Array`, `mo:base/Array`) to a built-in module: for
/// `mo:base`, base's own module where base differs from core.
pub fn module_by_path(path: &str) -> Option<&'static Module> {
    if let Some(name) = path.strip_prefix("mo:base/") {
        return base_compat::module(name).or_else(|| module_by_name(name));
    }
    module_by_name(path.strip_prefix("mo:core/")?)
}

/// The built-in module called `name` (`Array`, `pure/Map`).
pub fn module_by_name(name: &str) -> Option<&'static Module> {
    modules::ALL.iter().copied().find(|m| m.name == name)
}

/// All built-in modules.
pub fn all_modules() -> &'static [&'static Module] {
    modules::ALL
}

/// The `mo:base` modules that differ from core's (`base/List`, `base/Array`...): their own
/// members, not those they share with core.
pub fn base_modules() -> impl Iterator<Item = &'static Module> {
    base_compat::modules()
}

/// The items `module.iterate(v)` gives (`Map.entries(m)`: its `(key, value)` pairs), as
/// a script calling it would get them; `None` when the library has no such function.
pub fn iterate(
    it: &mut Interp,
    module: &str,
    iterate: &str,
    v: &Value,
) -> EResult<Option<Vec<Value>>> {
    let Some(f) = module_by_name(module).and_then(|m| m.get(iterate)) else {
        return Ok(None);
    };
    let items = (f.f)(it, None, std::slice::from_ref(v))?;
    iters::collect(it, &items).map(Some)
}

/// An iterator over `0..n`, as an array's `keys()`.
pub fn index_iter(n: usize) -> Value {
    collections::index_iter(n)
}

/// The built-in method `name` of a value (`xs.size`, `t.chars`, `it.next`).
pub fn method(v: &Value, name: &str) -> Option<&'static Builtin> {
    let table: &'static [Builtin] = match v {
        Value::Array(_) => collections::ARRAY_METHODS,
        Value::VarArray(_) => collections::VAR_ARRAY_METHODS,
        Value::Text(_) => text::TEXT_METHODS,
        Value::Blob(_) => collections::BLOB_METHODS,
        Value::Iter(_) => iters::ITER_METHODS,
        _ => return None,
    };
    table.iter().find(|b| b.name == name)
}
