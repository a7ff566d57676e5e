//! What the renderers show: one node of a Motoko value, whichever model holds it.
//!
//! The `debug_show` writer ([`super::write_debug_show_as`]) and the JSON writer
//! ([`super::write_json_as`]) read values only through [`Shown`], so the heap's decoded values
//! and the script engine's values render with the same code, byte for byte.

use std::borrow::Cow;

use num_bigint::{BigInt, BigUint};

use crate::heap::value::Value as HeapValue;

/// How `debug_show` prints a `Float`: a compiled canister and moc's interpreter differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatStyle {
    /// Six decimals (`9.500000`), as a compiled canister prints it (a NaN as `NaN`).
    Compiled,
    /// Six decimals, a NaN as C's `printf` writes it (`nan`, `-nan`): the classical RTS of
    /// moc before 0.13.4 ([`crate::module::ModuleFacts::libc_float_format`]).
    CompiledLibc,
    /// `%.17g` with digit groups (`9.5`), as moc's interpreter prints it.
    Interpreted,
}

impl FloatStyle {
    /// How the canister built from a module with `facts` prints a `Float`.
    pub fn compiled_by(facts: &crate::module::ModuleFacts) -> FloatStyle {
        if facts.libc_float_format {
            FloatStyle::CompiledLibc
        } else {
            FloatStyle::Compiled
        }
    }
}

/// A `Nat` of any width.
#[derive(Clone, Copy, Debug)]
pub enum Natural<'a> {
    /// One that fits in 64 bits.
    Small(u64),
    /// Any other.
    Big(&'a BigUint),
}

/// An `Int` of any width.
#[derive(Clone, Copy, Debug)]
pub enum Integer<'a> {
    /// One that fits in 64 bits.
    Small(i64),
    /// Any other.
    Big(&'a BigInt),
}

/// One node of a value: its own data, and handles `H` on its parts.
pub enum Shape<'a, H> {
    /// `null`.
    Null,
    /// `()`.
    Unit,
    /// `Bool`.
    Bool(bool),
    /// `Nat` and every `NatN`.
    Nat(Natural<'a>),
    /// `Int` and every `IntN`.
    Int(Integer<'a>),
    /// `Float`.
    Float(f64),
    /// `Float32` (heap values only).
    Float32(f32),
    /// `Char`.
    Char(char),
    /// `Text`.
    Text(&'a str),
    /// `Blob`.
    Blob(&'a [u8]),
    /// `Principal` (raw bytes).
    Principal(&'a [u8]),
    /// An actor reference (its principal's raw bytes).
    Actor(&'a [u8]),
    /// A shared function reference.
    SharedFunc {
        /// The actor's principal bytes.
        actor: &'a [u8],
        /// The method name.
        method: &'a str,
    },
    /// `?x`.
    Opt(H),
    /// `weak ?x` or `weak null`.
    Weak(Option<H>),
    /// `#tag` (`None`) or `#tag(x)`.
    Variant(&'a str, Option<H>),
    /// A record: labels and values, in the order shown.
    Record(Vec<(&'a str, H)>),
    /// A script's module value: a record shown as `module {a = 1}` (JSON: as a record).
    Module(Vec<(&'a str, H)>),
    /// A tuple of two or more values.
    Tuple(Vec<H>),
    /// `[x, …]` or `[var x, …]`.
    Array {
        /// `[var …]`.
        mutable: bool,
        /// The elements.
        items: Vec<H>,
    },
    /// A `Region`.
    Region {
        /// Its id.
        id: u64,
        /// Its size in pages.
        page_count: u64,
        /// Its blocks of stable memory.
        blocks: &'a [u16],
    },
    /// A closure (heap values only).
    Closure {
        /// Its function's name, if known.
        name: Option<&'a str>,
        /// Its function id.
        funid: u64,
        /// The captured values.
        captures: Vec<H>,
    },
    /// A word no type describes that could not be decoded untyped.
    Opaque {
        /// The word.
        word: u64,
        /// The object it points to, if any.
        addr: Option<u64>,
        /// What it seems to be.
        what: &'a str,
    },
    /// A back-reference to the object at this address, already on the path.
    Cycle(u64),
    /// A part not decoded (lazily read values); the word that holds it.
    NotDecoded(u64),
    /// A value only described by a text (script functions, modules, iterators, host
    /// objects): `debug_show` prints the text, JSON is that text as a string.
    Described(Cow<'a, str>),
    /// Shown exactly as the contained value (a script's captured cell).
    Same(H),
    /// A decoded heap value inside another model's value (a script's handle on the heap).
    Heap(Cow<'a, HeapValue>),
}

/// A handle on a value the renderers can show.
pub trait Shown: Sized {
    /// This value's node.
    fn shape(&self) -> Shape<'_, Self>;
}

impl<'a, H> Shape<'a, H> {
    /// The same node with each handle on a part replaced by `f(handle)` (a renderer's view
    /// over another one, e.g. script values shown with their collections' natural views).
    pub fn map<G>(self, mut f: impl FnMut(H) -> G) -> Shape<'a, G> {
        match self {
            Shape::Null => Shape::Null,
            Shape::Unit => Shape::Unit,
            Shape::Bool(b) => Shape::Bool(b),
            Shape::Nat(n) => Shape::Nat(n),
            Shape::Int(n) => Shape::Int(n),
            Shape::Float(x) => Shape::Float(x),
            Shape::Float32(x) => Shape::Float32(x),
            Shape::Char(c) => Shape::Char(c),
            Shape::Text(t) => Shape::Text(t),
            Shape::Blob(b) => Shape::Blob(b),
            Shape::Principal(p) => Shape::Principal(p),
            Shape::Actor(p) => Shape::Actor(p),
            Shape::SharedFunc { actor, method } => Shape::SharedFunc { actor, method },
            Shape::Opt(x) => Shape::Opt(f(x)),
            Shape::Weak(x) => Shape::Weak(x.map(f)),
            Shape::Variant(tag, x) => Shape::Variant(tag, x.map(f)),
            Shape::Record(fields) => {
                Shape::Record(fields.into_iter().map(|(l, x)| (l, f(x))).collect())
            }
            Shape::Module(fields) => {
                Shape::Module(fields.into_iter().map(|(l, x)| (l, f(x))).collect())
            }
            Shape::Tuple(items) => Shape::Tuple(items.into_iter().map(f).collect()),
            Shape::Array { mutable, items } => Shape::Array {
                mutable,
                items: items.into_iter().map(f).collect(),
            },
            Shape::Region {
                id,
                page_count,
                blocks,
            } => Shape::Region {
                id,
                page_count,
                blocks,
            },
            Shape::Closure {
                name,
                funid,
                captures,
            } => Shape::Closure {
                name,
                funid,
                captures: captures.into_iter().map(f).collect(),
            },
            Shape::Opaque { word, addr, what } => Shape::Opaque { word, addr, what },
            Shape::Cycle(a) => Shape::Cycle(a),
            Shape::NotDecoded(w) => Shape::NotDecoded(w),
            Shape::Described(t) => Shape::Described(t),
            Shape::Same(x) => Shape::Same(f(x)),
            Shape::Heap(v) => Shape::Heap(v),
        }
    }
}
