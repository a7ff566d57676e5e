//! The type checker for scripts: moc's typing rules (bidirectional checking with
//! subtyping, generics with inferred type arguments, literals typed by their expected
//! type), gradual where the checker does not model a form or a library function (the type
//! `Unknown` fits everything). It rejects a program only where moc certainly rejects it,
//! with moc's message code, and tells the compiler the types evaluation depends on
//! ([`Typing`]: literals, `==` operands, implicit arguments).

mod call;
mod dec;
mod dup;
pub mod env;
pub mod error;
mod expr;
mod lib_types;
mod ops;
pub mod params;
mod pat;
pub mod resolve;
pub mod sub;
mod syntax_types;
mod typedecs;
pub mod types;

use crate::script::lib::Module;
use crate::script::syntax::ast::{BodyType, Program, Type};
use crate::script::syntax::Span;
use env::{Binding, CheckResult, Scope, TypeBinding, TypeGlobals, Typing};
use error::TypeError;
use std::collections::HashMap;
use std::rc::Rc;
use types::Ty;

pub use env::LitType;
pub use expr::num_kind;

/// Work units the checker may spend per script byte (beyond a fixed base): checking is
/// linear in practice (the 1,000-line test script spends about 10 per byte); the bound
/// stops pathological inputs (recursive types unfolded along many branches).
const FUEL_PER_BYTE: u64 = 200;
/// Fixed work budget per script.
const FUEL_BASE: u64 = 2_000_000;

/// Checks `prog` against the session's globals (extended on success by the caller
/// committing `globals`). `known` says whether a name the checker has no type for is bound
/// in the session (a host value such as `vars`: typed `Unknown`).
pub fn check_program(
    prog: &Program,
    globals: &mut TypeGlobals,
    known: &dyn Fn(&str) -> bool,
    source_len: usize,
) -> CheckResult<Typing> {
    let type_args = prog
        .type_args
        .iter()
        .map(|(s, ts)| (span_key(*s), ts.as_slice()))
        .collect();
    let body_types = prog
        .body_types
        .iter()
        .map(|(s, b)| (span_key(*s), b))
        .collect();
    let mut c = Checker {
        globals,
        scopes: Vec::new(),
        known,
        typing: Typing::default(),
        returns: Vec::new(),
        labels: Vec::new(),
        label_types: Vec::new(),
        type_args,
        body_types,
        bounds: HashMap::new(),
        pre: Vec::new(),
        last_module: None,
        lib: lib_types::LibCache::default(),
        made: Vec::new(),
        block_spans: Vec::new(),
        do_span: None,
        class_body: None,
    };
    sub::set_fuel(FUEL_BASE.saturating_add(FUEL_PER_BYTE.saturating_mul(source_len as u64)));
    let r = c.top_block(&prog.decs, prog.span);
    sub::set_fuel(u64::MAX);
    c.globals.scope.pending.clear();
    c.globals.scope.lets.clear();
    let made = std::mem::take(&mut c.made);
    match r {
        Ok(t) => {
            c.globals.declared.extend(made);
            if let Some(crate::script::syntax::ast::Dec::Exp(_)) = prog.decs.last() {
                c.typing.result = Some(t);
            }
            Ok(c.typing)
        }
        Err(e) => {
            // the declarations of a failed check are used by nothing else
            made.iter().for_each(|con| con.release());
            Err(e)
        }
    }
}

/// A span as a hashable key.
fn span_key(s: Span) -> (u32, u32, u32, u32) {
    (s.start.line, s.start.col, s.end.line, s.end.col)
}

struct Checker<'a> {
    globals: &'a mut TypeGlobals,
    /// Inner scopes (the session's top level is `globals.scope`).
    scopes: Vec<Scope>,
    known: &'a dyn Fn(&str) -> bool,
    typing: Typing,
    /// The result type of each enclosing function (`None`: not declared).
    returns: Vec<Option<Ty>>,
    /// Enclosing labels; a function starts a fresh list.
    labels: Vec<Vec<String>>,
    /// The expected type of each enclosing label, innermost last (`None`: inferred).
    label_types: Vec<(String, Option<Ty>)>,
    /// Explicit type arguments of calls, by the call's span.
    type_args: HashMap<(u32, u32, u32, u32), &'a [Type]>,
    /// The declared types of object and class bodies, by the body's span.
    body_types: HashMap<(u32, u32, u32, u32), &'a BodyType>,
    /// The declared bound of each type parameter that has one (by its id).
    bounds: HashMap<u32, Ty>,
    /// The blocks (by scope depth) whose unannotated `let` or `var` initializer is being
    /// inferred, innermost last; `None` where a function body starts (moc types it after
    /// the block's declarations). A name declared later in such a block is a forward
    /// reference there (M0055).
    pre: Vec<Option<usize>>,
    /// What the module checked last declares (taken by the `let` that names it).
    last_module: Option<Rc<env::ModTypes>>,
    lib: lib_types::LibCache,
    /// The type declarations this check made.
    made: Vec<Rc<types::Con>>,
    /// Where the enclosing blocks are, innermost last (a module's type declarations are
    /// checked together with the block that declares the module, as moc does).
    block_spans: Vec<Span>,
    /// Where the `do` whose block is checked next is (moc's position of that block).
    do_span: Option<Span>,
    /// Where the body of the function checked last is (a class's body is a block of its
    /// own; an object's is checked with the block around it).
    class_body: Option<Span>,
}

impl Checker<'_> {
    /// Spends one work unit (fails when the budget is gone).
    fn tick(&mut self, span: Span) -> CheckResult<()> {
        if !sub::spend() {
            return Err(TypeError::new(
                span,
                "M0000",
                "the type checker ran out of its work budget (the script is too large, or its \
                 types too deeply recursive)",
            ));
        }
        Ok(())
    }

    fn fresh(&mut self) -> u32 {
        self.globals.next_id += 1;
        self.globals.next_id
    }

    fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    fn scope_mut(&mut self) -> &mut Scope {
        match self.scopes.last_mut() {
            Some(s) => s,
            None => &mut self.globals.scope,
        }
    }

    fn bind(&mut self, name: &str, b: Binding) {
        self.scope_mut().vals.insert(name.to_string(), b);
    }

    fn bind_type(&mut self, name: &str, b: TypeBinding) {
        self.scope_mut().types.insert(name.to_string(), b);
    }

    fn lookup(&self, name: &str) -> Option<Binding> {
        for s in self.scopes.iter().rev() {
            if let Some(b) = s.vals.get(name) {
                return Some(b.clone());
            }
        }
        if let Some(b) = self.globals.scope.vals.get(name) {
            return Some(b.clone());
        }
        // a host value or a value defined by the session outside the checker
        (self.known)(name).then_some(Binding::Val(Ty::Unknown, false))
    }

    /// The depth of the scope that binds value `name` (0: the session's top level).
    fn scope_depth(&self, name: &str) -> Option<usize> {
        for (i, s) in self.scopes.iter().enumerate().rev() {
            if s.vals.contains_key(name) {
                return Some(i + 1);
            }
        }
        self.globals.scope.vals.contains_key(name).then_some(0)
    }

    /// The scope at `depth` (0: the session's top level).
    fn scope_at(&self, depth: usize) -> Option<&Scope> {
        match depth {
            0 => Some(&self.globals.scope),
            d => self.scopes.get(d - 1),
        }
    }

    /// Whether `name` is, where it is used, a forward reference moc cannot type: declared
    /// later in a block whose unannotated `let` initializer is being inferred.
    fn is_forward(&self, name: &str) -> bool {
        let Some(d) = self.scope_depth(name) else {
            return false;
        };
        if !self.scope_at(d).is_some_and(|s| s.pending.contains(name)) {
            return false;
        }
        self.pre.iter().rev().map_while(|p| *p).any(|p| p == d)
    }

    fn lookup_type(&self, name: &str) -> Option<TypeBinding> {
        for s in self.scopes.iter().rev() {
            if let Some(b) = s.types.get(name) {
                return Some(b.clone());
            }
        }
        self.globals.scope.types.get(name).cloned()
    }

    /// The modules imported from `mo:core` in scope, in the library's order.
    fn modules_in_scope(&self) -> Vec<&'static Module> {
        self.imported(false)
    }

    /// Whether a module imported from `mo:base` is in scope (its types are not modelled).
    fn base_in_scope(&self) -> bool {
        !self.imported(true).is_empty()
    }

    /// The modules imported from `mo:core` (or `mo:base`) in scope, in the library's order.
    fn imported(&self, base: bool) -> Vec<&'static Module> {
        let mut out: Vec<&'static Module> = Vec::new();
        let mut add = |b: &Binding| {
            let m = match b {
                Binding::Module(m) if !base => m,
                Binding::BaseModule(m) if base => m,
                _ => return,
            };
            if !out.iter().any(|x| std::ptr::eq(*x, *m)) {
                out.push(m);
            }
        };
        self.globals.scope.vals.values().for_each(&mut add);
        for s in &self.scopes {
            s.vals.values().for_each(&mut add);
        }
        let order = |m: &&Module| {
            crate::script::lib::all_modules()
                .iter()
                .position(|x| std::ptr::eq(*x, *m))
                .unwrap_or(usize::MAX)
        };
        out.sort_by_key(order);
        out
    }
}
