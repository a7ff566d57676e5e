//! The compiled form: expressions with variables resolved to slots, labels to ids.

use crate::script::syntax::ast::{BinOp, UnOp};
use crate::script::syntax::Span;
use crate::script::value::{NumKind, Value};
use std::cell::{Cell, OnceCell};
use std::rc::{Rc, Weak};

/// An expected type, used to type literals and to convert `Nat` to `Int` at annotations.
///
/// A declared type (`type T = ...`) appears as [`Hint::Named`], a weak reference to the
/// declaration's one resolved hint: recursive types are a graph, never unfolded.
#[derive(Clone, Debug)]
pub enum Hint {
    /// A numeric type.
    Num(NumKind),
    /// `?T`.
    Opt(Box<Hint>),
    /// `[T]` / `[var T]`.
    Array(Box<Hint>),
    /// `(A, B)`.
    Tuple(Vec<Hint>),
    /// A record type.
    Record(Vec<(Rc<str>, Hint)>),
    /// A variant type.
    Variant(Vec<(Rc<str>, Hint)>),
    /// `Blob` (text literals become blobs).
    Blob,
    /// A declared type, resolved once per declaration (the session owns it).
    Named(Weak<NamedHint>),
    /// `Any` or a type parameter: `==` at this type is always true (moc's interpreter).
    Top,
    /// Anything else.
    Any,
}

/// The hint of one type declaration: its body, resolved once and shared by every use.
#[derive(Debug)]
pub struct NamedHint {
    /// The declared name (for messages and debugging).
    pub name: Rc<str>,
    /// The declaration's type expression.
    pub ty: crate::script::syntax::ast::Type,
    /// The resolved body: never itself a [`Hint::Named`] (alias chains are collapsed).
    pub body: OnceCell<Rc<Hint>>,
    /// Whether values of this type may need a run-time conversion (see [`Hint::has_int`]).
    pub has_int: Cell<bool>,
}

impl NamedHint {
    /// The hint of an application of a generic or library type found by the type checker
    /// (`List<Int>`): no type expression of its own, its body set by the caller.
    pub fn instance(name: &str) -> NamedHint {
        NamedHint::new(name, crate::script::syntax::ast::Type::Tuple(Vec::new()))
    }

    /// A declaration not resolved yet.
    pub fn new(name: &str, ty: crate::script::syntax::ast::Type) -> NamedHint {
        NamedHint {
            name: Rc::from(name),
            ty,
            body: OnceCell::new(),
            has_int: Cell::new(false),
        }
    }
}

impl PartialEq for Hint {
    fn eq(&self, other: &Hint) -> bool {
        match (self, other) {
            (Hint::Num(a), Hint::Num(b)) => a == b,
            (Hint::Opt(a), Hint::Opt(b)) | (Hint::Array(a), Hint::Array(b)) => a == b,
            (Hint::Tuple(a), Hint::Tuple(b)) => a == b,
            (Hint::Record(a), Hint::Record(b)) | (Hint::Variant(a), Hint::Variant(b)) => a == b,
            (Hint::Named(a), Hint::Named(b)) => a.ptr_eq(b),
            (Hint::Blob, Hint::Blob) | (Hint::Any, Hint::Any) | (Hint::Top, Hint::Top) => true,
            _ => false,
        }
    }
}

impl Hint {
    /// Whether `==` and `debug_show` at this type answer otherwise than from the value
    /// alone: the structural types (records, variants, options, arrays, tuples) and `Any`.
    /// Call it on a resolved hint ([`Hint::resolve`]).
    pub fn is_structural(&self) -> bool {
        matches!(
            self,
            Hint::Top
                | Hint::Record(_)
                | Hint::Variant(_)
                | Hint::Opt(_)
                | Hint::Array(_)
                | Hint::Tuple(_)
        )
    }

    /// True when values of this type may need a run-time conversion: `Nat` to `Int`
    /// (subtyping), or an untyped literal to a fixed-width type or `Float`. Declared types
    /// answer from their declaration (computed once), so this never unfolds recursion.
    pub fn has_int(&self) -> bool {
        match self {
            Hint::Num(k) => *k != NumKind::Nat,
            Hint::Opt(h) | Hint::Array(h) => h.has_int(),
            Hint::Tuple(hs) => hs.iter().any(Hint::has_int),
            Hint::Record(fs) | Hint::Variant(fs) => fs.iter().any(|(_, h)| h.has_int()),
            Hint::Named(n) => n.upgrade().is_some_and(|n| n.has_int.get()),
            Hint::Any | Hint::Top | Hint::Blob => false,
        }
    }

    /// The numeric kind, if this is a numeric type.
    pub fn num(&self) -> Option<NumKind> {
        match &*self.resolve() {
            Hint::Num(k) => Some(*k),
            _ => None,
        }
    }

    /// The structure behind a declared type (itself for any other hint); `Any` when the
    /// declaration is gone or not resolved. Shares the declaration's hint, never copies it.
    pub fn resolve(&self) -> Resolved<'_> {
        match self {
            Hint::Named(n) => Resolved::Shared(
                n.upgrade()
                    .and_then(|n| n.body.get().cloned())
                    .unwrap_or_else(|| Rc::new(Hint::Any)),
            ),
            other => Resolved::Borrowed(other),
        }
    }
}

/// A hint with any [`Hint::Named`] at its top resolved: borrowed, or the declaration's own.
pub enum Resolved<'a> {
    /// The hint itself (it was structural).
    Borrowed(&'a Hint),
    /// A declaration's resolved body.
    Shared(Rc<Hint>),
}

impl std::ops::Deref for Resolved<'_> {
    type Target = Hint;
    fn deref(&self) -> &Hint {
        match self {
            Resolved::Borrowed(h) => h,
            Resolved::Shared(h) => h,
        }
    }
}

/// Where a variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A slot of the current frame.
    Local(u32),
    /// A frame slot holding a shared cell.
    LocalCell(u32),
    /// An entry of the closure's captured environment (a cell or a copied value).
    Env(u32),
    /// A session-wide global.
    Global(u32),
}

/// An assignable place.
#[derive(Clone, Debug)]
pub enum Place {
    /// A variable.
    Var(Slot),
    /// A record field `e.f`.
    Field(Code, Rc<str>, Span),
    /// An array element `a[i]`.
    Index(Code, Code, Span),
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub enum Pat {
    /// `_`.
    Wild,
    /// Binds the value to a variable (flag: in a fresh cell when the slot is a cell).
    Bind(Slot, bool),
    /// A literal to compare with.
    Lit(Value),
    /// `(p, q)`.
    Tuple(Vec<Pat>),
    /// `?p`.
    Opt(Box<Pat>),
    /// `#tag p`.
    Variant(Rc<str>, Box<Pat>),
    /// `{ a = p }`.
    Record(Vec<(Rc<str>, Pat)>),
    /// `p or q`.
    Or(Box<Pat>, Box<Pat>),
    /// `p : T` where `T` mentions `Int`: convert first.
    Coerce(Box<Pat>, Rc<Hint>),
}

/// What a closure captures from its creator.
#[derive(Clone, Copy, Debug)]
pub enum Capture {
    /// The cell in a frame slot of the creator.
    Local(u32),
    /// An entry of the creator's own environment.
    Env(u32),
}

/// A compiled function.
#[derive(Debug)]
pub struct FuncProto {
    /// Name for messages (`<anonymous>` for lambdas).
    pub name: Rc<str>,
    /// Number of parameters.
    pub arity: usize,
    /// Frame size (parameters first).
    pub nslots: u32,
    /// Parameter patterns (applied to slots `0..arity`), `None` when all are plain bindings.
    pub params: Option<Vec<Pat>>,
    /// Cells to create on entry (captured parameters and locals).
    pub param_cells: Vec<u32>,
    /// The body.
    pub body: Code,
    /// The declared result type, when it needs a `Nat` to `Int` conversion.
    pub result: Option<Rc<Hint>>,
    /// Where it was defined.
    pub span: Span,
}

/// A statement of a block.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// An expression.
    Expr(Code),
    /// `let p = e` (with optional `else`).
    Let(Pat, Code, Option<Code>, Span),
    /// Stores a value into a variable (`var`, `func` declarations).
    Store(Slot, Code),
    /// Creates fresh cells for the block's captured variables.
    NewCells(Vec<u32>),
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub enum Code {
    /// A constant.
    Const(Value),
    /// Reads a variable.
    Var(Slot),
    /// The cell of a captured variable in a frame slot, itself (an object's `public var`
    /// field shares it with the variable).
    CellOf(u32),
    /// A unary operator.
    Unary(UnOp, Box<Code>, Option<NumKind>, Span),
    /// A binary arithmetic/bitwise/text operator.
    Binary(BinOp, Box<(Code, Code)>, Option<NumKind>, Span),
    /// A comparison; `==` and `!=` carry the operands' static type when it is known.
    Compare(BinOp, Box<(Code, Code, Option<Rc<Hint>>)>, Span),
    /// `a and b`.
    And(Box<(Code, Code)>),
    /// `a or b`.
    Or(Box<(Code, Code)>),
    /// `not a`.
    Not(Box<Code>),
    /// `p := e`.
    Assign(Box<Place>, Box<Code>),
    /// `p op= e`.
    OpAssign(BinOp, Box<Place>, Box<Code>, Option<NumKind>, Span),
    /// A tuple.
    Tuple(Vec<Code>),
    /// An array literal (flag: mutable).
    Array(bool, Vec<Code>, Span),
    /// A record literal: bases (`with`), then fields (name, mutable, value).
    Record(Vec<Code>, Vec<(Rc<str>, bool, Code)>, Span),
    /// A `module` body: its record made a module value.
    Module(Box<Code>),
    /// `#tag e`.
    Variant(Rc<str>, Box<Code>),
    /// `?e`.
    Opt(Box<Code>),
    /// `e.name`.
    Dot(Box<Code>, Rc<str>, Span),
    /// `e.0`.
    Proj(Box<Code>, usize, Span),
    /// `a[i]`.
    Index(Box<(Code, Code)>, Span),
    /// `f(args)`.
    Call(Box<Code>, Vec<Code>, Span),
    /// `e.name(args)`: a field or built-in method of the value, else a contextual dot call
    /// resolved among the modules in scope.
    Method(Box<Code>, Vec<Code>, Span, Rc<DotScope>),
    /// `e!` inside `do ? { }` with the given label.
    Bang(Box<Code>, u32),
    /// `debug_show e`, with the static type the checker found for `e` where it tells an
    /// `Int` the value may not hold (moc shows a value at its static type: `+5`).
    Show(Box<Code>, Option<Rc<Hint>>),
    /// `ignore e`.
    Ignore(Box<Code>),
    /// `assert e`.
    Assert(Box<Code>, Span),
    /// Converts `Nat` to `Int` where the annotation says so.
    Coerce(Box<Code>, Rc<Hint>),
    /// A block.
    Block(Vec<Stmt>),
    /// `if c t else e`.
    If(Box<(Code, Code, Code)>),
    /// `switch e { cases }`.
    Switch(Box<Code>, Vec<(Pat, Code)>, Span),
    /// `while c body` with its label id.
    While(Box<(Code, Code)>, u32),
    /// `loop body` / `loop body while c` with its label id.
    Loop(Box<Code>, Option<Box<Code>>, u32),
    /// `for (p in e) body` with its label id; the flag: the variable is only looked into
    /// (see `compile::views`), so the loop may bind light references
    /// ([`crate::script::value::NativeIter::next_view`]).
    For(Box<(Pat, Code, Code, bool)>, u32, Span),
    /// `label l e`.
    Label(u32, Box<Code>),
    /// `break l e`.
    Break(u32, Box<Code>),
    /// `continue l`.
    Continue(u32),
    /// `return e`.
    Return(Box<Code>),
    /// `do ? { }` with its label id.
    DoOpt(Box<Code>, u32),
    /// Creates a closure.
    Closure(Rc<FuncProto>, Vec<Capture>),
}

/// A method call site (`xs.map(f)`): the name, and what it knows of its scope for
/// contextual dot calls.
#[derive(Clone, Debug)]
pub struct DotScope {
    /// The method name.
    pub name: Rc<str>,
    /// The built-in modules in scope, in import order.
    pub modules: Vec<&'static crate::script::lib::Module>,
    /// Script values in scope named like an implicit parameter (`compare`, `equal`,
    /// `toText`), by that name.
    pub implicits: Vec<(Rc<str>, Code)>,
    /// The implicit arguments the checker found, in order (empty: found by name when the
    /// call runs).
    pub found: Vec<Code>,
}
