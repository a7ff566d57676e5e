//! The Motoko type syntax tree, as written in a `motoko:stable-types` signature.

use std::sync::Arc;

/// A primitive (built-in, nullary) Motoko type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Prim {
    /// `Nat`, arbitrary precision.
    Nat,
    /// `Int`, arbitrary precision.
    Int,
    /// `Nat8`.
    Nat8,
    /// `Nat16`.
    Nat16,
    /// `Nat32`.
    Nat32,
    /// `Nat64`.
    Nat64,
    /// `Int8`.
    Int8,
    /// `Int16`.
    Int16,
    /// `Int32`.
    Int32,
    /// `Int64`.
    Int64,
    /// `Float` (IEEE-754 f64).
    Float,
    /// `Float32` (IEEE-754 f32).
    Float32,
    /// `Bool`.
    Bool,
    /// `Char` (a Unicode scalar value).
    Char,
    /// `Text` (UTF-8).
    Text,
    /// `Blob` (bytes).
    Blob,
    /// `Principal`.
    Principal,
    /// `Null`, whose only value is `null`.
    Null,
    /// `Any`: no static information about the value.
    Any,
    /// `None`: no value has this type.
    None,
    /// `Error` (not stable, but printable).
    Error,
    /// `Region` (stable-memory region).
    Region,
}

impl Prim {
    /// The primitive type named `name`, if it is one.
    pub fn from_name(name: &str) -> Option<Prim> {
        Some(match name {
            "Nat" => Prim::Nat,
            "Int" => Prim::Int,
            "Nat8" => Prim::Nat8,
            "Nat16" => Prim::Nat16,
            "Nat32" => Prim::Nat32,
            "Nat64" => Prim::Nat64,
            "Int8" => Prim::Int8,
            "Int16" => Prim::Int16,
            "Int32" => Prim::Int32,
            "Int64" => Prim::Int64,
            "Float" => Prim::Float,
            "Float32" => Prim::Float32,
            "Bool" => Prim::Bool,
            "Char" => Prim::Char,
            "Text" => Prim::Text,
            "Blob" => Prim::Blob,
            "Principal" => Prim::Principal,
            "Null" => Prim::Null,
            "Any" => Prim::Any,
            "None" => Prim::None,
            "Error" => Prim::Error,
            "Region" => Prim::Region,
            _ => return None,
        })
    }

    /// The Motoko name of this primitive type.
    pub fn name(self) -> &'static str {
        match self {
            Prim::Nat => "Nat",
            Prim::Int => "Int",
            Prim::Nat8 => "Nat8",
            Prim::Nat16 => "Nat16",
            Prim::Nat32 => "Nat32",
            Prim::Nat64 => "Nat64",
            Prim::Int8 => "Int8",
            Prim::Int16 => "Int16",
            Prim::Int32 => "Int32",
            Prim::Int64 => "Int64",
            Prim::Float => "Float",
            Prim::Float32 => "Float32",
            Prim::Bool => "Bool",
            Prim::Char => "Char",
            Prim::Text => "Text",
            Prim::Blob => "Blob",
            Prim::Principal => "Principal",
            Prim::Null => "Null",
            Prim::Any => "Any",
            Prim::None => "None",
            Prim::Error => "Error",
            Prim::Region => "Region",
        }
    }
}

/// The sort of an object type: `{…}` / `object {…}`, `actor {…}` or `module {…}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObjSort {
    /// A record or object (`{…}`, `object {…}`).
    Object,
    /// An actor reference (`actor {…}`).
    Actor,
    /// A module (`module {…}`).
    Module,
}

/// One field of an object type: `label : T` or `var label : T`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Field {
    /// The field label as written (not Candid-unescaped).
    pub label: Arc<str>,
    /// Motoko's hash of the label (see [`label_hash`](super::label_hash)).
    pub hash: u32,
    /// Whether the field is `var` (stored through a MutBox on the heap).
    pub mutable: bool,
    /// The field type.
    pub ty: Arc<Type>,
}

/// One tag of a variant type: `#label : T` (or `#label`, payload `()`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tag {
    /// The tag label as written.
    pub label: Arc<str>,
    /// Motoko's hash of the label.
    pub hash: u32,
    /// The payload type (`()` for a tag without payload).
    pub ty: Arc<Type>,
}

/// The sort of a function type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FuncSort {
    /// A local (closure) function: `A -> B`.
    Local,
    /// A stable local function (`stable A -> B`).
    Stable,
    /// `shared A -> B`.
    Shared,
    /// `shared query A -> B`.
    Query,
    /// `shared composite query A -> B`.
    CompositeQuery,
}

/// A function type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FuncType {
    /// Local, shared, query, …
    pub sort: FuncSort,
    /// Type parameters of a generic function (names only).
    pub type_params: Vec<Arc<str>>,
    /// The argument type (a tuple for several arguments).
    pub arg: Arc<Type>,
    /// The result type (`async T` for async results).
    pub result: Arc<Type>,
}

/// A Motoko type as written in a stable signature. Aliases stay unexpanded ([`Type::Con`]);
/// [`TypeEnv::normalize`](super::TypeEnv::normalize) expands them on demand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// A primitive type.
    Prim(Prim),
    /// `?T`.
    Opt(Arc<Type>),
    /// `(T1, …, Tn)`; `()` is the empty tuple (unit).
    Tuple(Vec<Arc<Type>>),
    /// `[T]` or `[var T]`.
    Array {
        /// Whether the array is `[var T]`.
        mutable: bool,
        /// The element type.
        elem: Arc<Type>,
    },
    /// An object type with its fields in the signature's order (sorted by label).
    Object {
        /// Record/object, actor or module.
        sort: ObjSort,
        /// The fields.
        fields: Arc<[Field]>,
    },
    /// A variant type `{#a : T; #b}`.
    Variant(Arc<[Tag]>),
    /// A function type.
    Func(Box<FuncType>),
    /// `async T` (only as a function result).
    Async(Arc<Type>),
    /// `weak T`.
    Weak(Arc<Type>),
    /// An application of a type alias declared in the signature: `Name<T1, …>`.
    Con {
        /// The alias name.
        name: Arc<str>,
        /// The type arguments.
        args: Vec<Arc<Type>>,
    },
    /// A type parameter of the enclosing alias or generic function.
    Var(Arc<str>),
}

impl Type {
    /// The unit type `()`.
    pub fn unit() -> Type {
        Type::Tuple(Vec::new())
    }

    /// Whether this is the unit type `()`.
    pub fn is_unit(&self) -> bool {
        matches!(self, Type::Tuple(ts) if ts.is_empty())
    }
}
