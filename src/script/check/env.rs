//! The checker's environment: values and types in scope, the session's globals kept across
//! evaluations, and the side tables the compiler reads.

use super::error::TypeError;
use super::types::{Con, Ty};
use crate::script::lib::Module;
use crate::script::syntax::ast::Expr;
use crate::script::value::NumKind;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// What a value name is bound to.
#[derive(Clone, Debug)]
pub enum Binding {
    /// A value of a type (`var`: mutable).
    Val(Ty, bool),
    /// A built-in module imported from `mo:core` (its functions' types are core's).
    Module(&'static Module),
    /// A built-in module imported from `mo:base` (its functions' types are not modelled).
    BaseModule(&'static Module),
}

/// What a type name is bound to.
#[derive(Clone, Debug)]
pub enum TypeBinding {
    /// A declared type.
    Con(Rc<Con>),
    /// A type parameter in scope.
    Param(Ty),
}

/// One scope.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// Values.
    pub vals: HashMap<String, Binding>,
    /// Types.
    pub types: HashMap<String, TypeBinding>,
    /// The names declared in this block whose declaration is not checked yet.
    pub pending: HashSet<String>,
    /// The names this block's `let`s and `var`s of a computed value define (a type path
    /// through one of them is M0024 in the same block).
    pub lets: HashSet<String>,
    /// The type declarations of the modules this block defines, by the module's name.
    pub modules: HashMap<String, Rc<ModTypes>>,
}

/// What a module of the script declares, for type paths `M.T`.
#[derive(Clone, Debug)]
pub struct ModTypes {
    /// Its type declarations.
    pub types: HashMap<String, TypeBinding>,
    /// Its modules.
    pub modules: HashMap<String, Rc<ModTypes>>,
    /// Its type (its fields).
    pub ty: Ty,
}

/// The types of a session's top-level names, kept across evaluations.
#[derive(Clone, Debug, Default)]
pub struct TypeGlobals {
    /// The top-level scope.
    pub scope: Scope,
    /// The next fresh id (type parameters, declarations).
    pub next_id: u32,
    /// Every type declaration checked in the session (see [`TypeGlobals::release`]).
    pub declared: Vec<Rc<Con>>,
    /// The library's collection types made so far, by key (also in `declared`).
    pub library: HashMap<&'static str, Rc<Con>>,
}

impl TypeGlobals {
    /// Frees the session's type declarations (a recursive one refers to itself): call when
    /// the session ends.
    pub fn release(&mut self) {
        for c in self.declared.drain(..) {
            c.release();
        }
    }
}

/// How a numeric literal is typed by the checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitType {
    /// An integral type.
    Num(NumKind),
    /// `Float`.
    Float,
    /// A text literal typed `Blob`.
    Blob,
}

/// Where the checker found a function for a contextual dot or an implicit argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// The value of this name in scope.
    Var(Rc<str>),
    /// The field (second) of the module bound to the name (first) in scope.
    Field(Rc<str>, Rc<str>),
}

/// An argument of a call whose omitted implicit arguments the checker resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgFrom {
    /// The next argument written at the call (the receiver first for a contextual dot).
    Given,
    /// An implicit argument, found there.
    Found(Resolved),
}

/// What the checker tells the compiler about the program it checked (keyed by the address
/// of the expression in the program the checker saw).
#[derive(Debug, Default)]
pub struct Typing {
    /// The type of each numeric literal whose type is not its default.
    pub literals: HashMap<usize, LitType>,
    /// The static type of each `==`/`!=` comparison.
    pub equality: HashMap<usize, Ty>,
    /// Per call (by the call expression), the implicit argument names whose value in scope
    /// does not fit the parameter's type (moc skips them and takes a module's).
    pub skip_implicits: HashMap<usize, Vec<Rc<str>>>,
    /// The static type of the argument of each `debug_show` (moc shows a value at it).
    pub shows: HashMap<usize, Ty>,
    /// The arithmetic (`a - b`, `x -= y`) the checker typed `Int`: computed as `Int` even
    /// where both values are `Nat`s (`xs[0] - xs[1]` of an `[Int]` does not trap).
    pub int_arith: HashSet<usize>,
    /// The function each contextual dot call `x.f(..)` resolved to by static type (by the
    /// call expression; absent: resolved at run time).
    pub dot_calls: HashMap<usize, Resolved>,
    /// Per call whose omitted implicit arguments were all resolved by static type (by the
    /// call expression), where each argument comes from.
    pub call_args: HashMap<usize, Vec<ArgFrom>>,
    /// The static type of the script's value when its last declaration is an expression
    /// (moc prints the value at it).
    pub result: Option<Ty>,
}

impl Typing {
    /// The key of an expression in the tables.
    pub fn key(e: &Expr) -> usize {
        e as *const Expr as usize
    }
}

/// Result of checking.
pub type CheckResult<T> = Result<T, TypeError>;
