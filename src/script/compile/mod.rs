//! The resolver: AST to [`ir::Code`], variables to slots, labels to ids, literals typed by
//! their expected type.

mod block;
mod call;
mod captures;
mod control;
mod data;
mod dot;
mod eqtype;
mod hints;
pub mod ir;
mod operators;
mod typed;
mod views;

use crate::script::check::env::Typing;
use crate::script::lib::Module;
use crate::script::syntax::ast::{self, Expr, ExprKind, FuncDef, Lit, PatKind, Type};
use crate::script::syntax::{Span, SyntaxError};
use crate::script::value::{num, Value};
use ir::{Capture, Code, FuncProto, Hint, Pat, Place, Slot};
use num_bigint::BigUint;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// A variable known to the session (a top-level definition of an earlier evaluation).
#[derive(Clone, Debug)]
pub enum GlobalVar {
    /// A value in the session's global table.
    Slot {
        /// Index into the globals.
        idx: u32,
        /// Declared with `var`.
        mutable: bool,
        /// Declared type, when it matters for conversions.
        hint: Option<Rc<Hint>>,
        /// Declared type (`let x : T`), for `==` (see [`crate::script::value::equality`]).
        ty: Option<Rc<Hint>>,
    },
    /// An imported built-in module.
    Module(&'static Module),
}

/// The session's names: globals and type declarations, kept across evaluations.
#[derive(Clone, Debug, Default)]
pub struct Globals {
    /// Top-level names.
    pub names: HashMap<String, GlobalVar>,
    /// Number of global slots allocated.
    pub count: u32,
    /// Type declarations (`type T<A> = ...`).
    pub types: HashMap<String, hints::TypeDef>,
    /// Parameter types of global functions (to type the literals of their arguments).
    pub func_params: HashMap<u32, Rc<Vec<Option<Hint>>>>,
    /// The hints of type applications the checker's types gave `debug_show` (the code
    /// points at them weakly; bounded, see `typed`).
    pub instances: Vec<Rc<ir::NamedHint>>,
}

#[derive(Clone, Debug)]
enum Var {
    Slot {
        slot: Slot,
        mutable: bool,
        hint: Option<Rc<Hint>>,
        ty: Option<Rc<Hint>>,
    },
    Module(&'static Module),
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum LabelKind {
    Loop,
    Block,
    DoOpt,
}

struct FnCtx {
    scopes: Vec<HashMap<String, Var>>,
    nslots: u32,
    captures: Vec<(String, Var)>,
    capture_src: Vec<Capture>,
    captured_names: HashSet<String>,
    labels: Vec<(String, u32, LabelKind)>,
    ret_hint: Option<Rc<Hint>>,
    func_params: HashMap<u32, Rc<Vec<Option<Hint>>>>,
    /// The function's type parameters.
    tparams: Vec<String>,
}

impl FnCtx {
    fn new(captured_names: HashSet<String>) -> Self {
        FnCtx {
            scopes: vec![HashMap::new()],
            nslots: 0,
            captures: Vec::new(),
            capture_src: Vec::new(),
            captured_names,
            labels: Vec::new(),
            ret_hint: None,
            tparams: Vec::new(),
            func_params: HashMap::new(),
        }
    }
}

/// A compiled script: the top-level code and its frame size.
#[derive(Debug)]
pub struct CompiledProgram {
    /// The top-level code; its value is the script's value.
    pub main: Code,
    /// Frame slots the top-level code needs.
    pub nslots: u32,
    /// Number of globals after this program.
    pub globals: u32,
    /// The static type the script's value shows at, where it may show otherwise than by
    /// itself (see `typed`).
    pub result: Option<Rc<Hint>>,
}

type CResult<T> = Result<T, SyntaxError>;

/// Compiles a parsed program against the session's globals (which it extends), with the
/// types the checker found ([`Typing`]).
pub fn compile_program(
    prog: &ast::Program,
    globals: &mut Globals,
    typing: &Typing,
) -> CResult<CompiledProgram> {
    let mut c = Compiler {
        globals,
        typing,
        fns: vec![FnCtx::new(captures::captured_in_decs(&prog.decs))],
        next_label: 0,
        module_path: Vec::new(),
        label_hints: HashMap::new(),
    };
    let main = c.block(&prog.decs, None, true)?;
    let result = typing.result.as_ref().and_then(|t| c.show_hint(t));
    Ok(CompiledProgram {
        main,
        nslots: c.fns[0].nslots,
        globals: c.globals.count,
        result,
    })
}

struct Compiler<'g> {
    globals: &'g mut Globals,
    typing: &'g Typing,
    fns: Vec<FnCtx>,
    next_label: u32,
    /// The names of the `module` declarations being compiled, outermost first: their
    /// type declarations are also known by their path (`A.T`).
    module_path: Vec<String>,
    /// The expected type of each labeled block that has one (`label l : T`), by label id:
    /// `break l v` types `v` with it.
    label_hints: HashMap<u32, Hint>,
}

fn err(span: Span, msg: impl Into<String>) -> SyntaxError {
    SyntaxError::new(span, msg)
}

impl Compiler<'_> {
    fn cur(&mut self) -> &mut FnCtx {
        let n = self.fns.len() - 1;
        &mut self.fns[n]
    }

    fn label(&mut self) -> u32 {
        self.next_label += 1;
        self.next_label
    }

    // ------------------------------------------------------------ names

    fn is_toplevel(&self) -> bool {
        self.fns.len() == 1 && self.fns[0].scopes.len() == 1
    }

    /// Declares a new variable in the current scope.
    fn declare(&mut self, name: &str, mutable: bool, hint: Option<Rc<Hint>>) -> Slot {
        if self.is_toplevel() {
            let idx = self.globals.count;
            self.globals.count += 1;
            self.globals.names.insert(
                name.to_string(),
                GlobalVar::Slot {
                    idx,
                    mutable,
                    hint: hint.clone(),
                    ty: None,
                },
            );
            return Slot::Global(idx);
        }
        let f = self.cur();
        let s = f.nslots;
        f.nslots += 1;
        let slot = if f.captured_names.contains(name) {
            Slot::LocalCell(s)
        } else {
            Slot::Local(s)
        };
        if let Some(scope) = f.scopes.last_mut() {
            scope.insert(
                name.to_string(),
                Var::Slot {
                    slot,
                    mutable,
                    hint,
                    ty: None,
                },
            );
        }
        slot
    }

    fn declare_module(&mut self, name: &str, m: &'static Module) {
        if self.is_toplevel() {
            self.globals
                .names
                .insert(name.to_string(), GlobalVar::Module(m));
        } else if let Some(scope) = self.cur().scopes.last_mut() {
            scope.insert(name.to_string(), Var::Module(m));
        }
    }

    /// The cell of the variable `e` names, for an object's `public var` field (the parser
    /// makes `e` a variable of the object's body, and [`captures`] puts it in a cell).
    fn cell_of(&mut self, e: &Expr) -> CResult<Code> {
        let ExprKind::Var(n) = &e.kind else {
            return Err(err(e.span, "a `public var` field names its variable"));
        };
        match self.resolve(n) {
            Some(Var::Slot {
                slot: Slot::LocalCell(i),
                mutable: true,
                ..
            }) => Ok(Code::CellOf(i)),
            _ => Err(err(
                e.span,
                format!("`public var {n}` is only supported in an object or class body"),
            )),
        }
    }

    fn resolve(&mut self, name: &str) -> Option<Var> {
        let top = self.fns.len() - 1;
        self.resolve_at(top, name)
    }

    fn resolve_at(&mut self, lvl: usize, name: &str) -> Option<Var> {
        for scope in self.fns[lvl].scopes.iter().rev() {
            if let Some(v) = scope.get(name) {
                return Some(v.clone());
            }
        }
        if let Some((_, v)) = self.fns[lvl].captures.iter().find(|(n, _)| n == name) {
            return Some(v.clone());
        }
        if lvl == 0 {
            return match self.globals.names.get(name)? {
                GlobalVar::Slot {
                    idx,
                    mutable,
                    hint,
                    ty,
                } => Some(Var::Slot {
                    slot: Slot::Global(*idx),
                    mutable: *mutable,
                    hint: hint.clone(),
                    ty: ty.clone(),
                }),
                GlobalVar::Module(m) => Some(Var::Module(m)),
            };
        }
        let outer = self.resolve_at(lvl - 1, name)?;
        let (slot, mutable, hint, ty) = match &outer {
            Var::Module(_) => return Some(outer),
            Var::Slot {
                slot: Slot::Global(_),
                ..
            } => return Some(outer),
            Var::Slot {
                slot,
                mutable,
                hint,
                ty,
            } => (*slot, *mutable, hint.clone(), ty.clone()),
        };
        let src = match slot {
            Slot::Local(s) | Slot::LocalCell(s) => Capture::Local(s),
            Slot::Env(i) => Capture::Env(i),
            Slot::Global(_) => return Some(outer),
        };
        let f = &mut self.fns[lvl];
        let idx = f.capture_src.len() as u32;
        f.capture_src.push(src);
        let v = Var::Slot {
            slot: Slot::Env(idx),
            mutable,
            hint,
            ty,
        };
        f.captures.push((name.to_string(), v.clone()));
        Some(v)
    }

    // ------------------------------------------------------------ types

    fn hint(&self, t: &Type) -> Hint {
        let params: Vec<String> = self
            .fns
            .iter()
            .flat_map(|f| f.tparams.iter().cloned())
            .collect();
        hints::HintBuilder::new(&self.globals.types)
            .with_params(params)
            .hint(t)
    }

    /// Records `name`'s declared type (the innermost binding of that name).
    fn set_declared_type(&mut self, name: &str, t: &Type) {
        let h = Rc::new(self.hint(t));
        if self.is_toplevel() {
            if let Some(GlobalVar::Slot { ty, .. }) = self.globals.names.get_mut(name) {
                *ty = Some(h);
            }
        } else if let Some(Var::Slot { ty, .. }) = self
            .cur()
            .scopes
            .iter_mut()
            .rev()
            .find_map(|s| s.get_mut(name))
        {
            *ty = Some(h);
        }
    }

    fn coerce_hint(&self, t: &Type) -> (Hint, Option<Rc<Hint>>) {
        let h = self.hint(t);
        let c = if h.has_int() {
            Some(Rc::new(h.clone()))
        } else {
            None
        };
        (h, c)
    }

    // ------------------------------------------------------------ patterns

    /// Compiles a binding pattern. `pre` holds pre-declared slots (taken on first use);
    /// `seen` maps names already bound by this pattern (for `or`).
    fn pat(
        &mut self,
        p: &ast::Pat,
        pre: &mut HashMap<String, Slot>,
        seen: &mut HashMap<String, Slot>,
        _is_let: bool,
    ) -> CResult<Pat> {
        let is_let = _is_let;
        Ok(match &p.kind {
            PatKind::Wild => Pat::Wild,
            PatKind::Var(n) => {
                if let Some(s) = seen.get(n) {
                    return Ok(Pat::Bind(*s, false));
                }
                let (slot, fresh) = match pre.remove(n) {
                    Some(s) => (s, false),
                    None => (self.declare(n, false, None), true),
                };
                seen.insert(n.clone(), slot);
                Pat::Bind(slot, fresh)
            }
            PatKind::Lit(l, neg) => {
                let mut v = lit_value(l, p.span)?;
                if *neg {
                    v = num::unary(ast::UnOp::Neg, &v, None).map_err(|m| err(p.span, m))?;
                }
                Pat::Lit(v)
            }
            PatKind::Tuple(ps) => Pat::Tuple(
                ps.iter()
                    .map(|q| self.pat(q, pre, seen, is_let))
                    .collect::<CResult<_>>()?,
            ),
            PatKind::Opt(q) => Pat::Opt(Box::new(self.pat(q, pre, seen, is_let)?)),
            PatKind::Variant(t, q) => Pat::Variant(
                Rc::from(t.as_str()),
                Box::new(match q {
                    Some(q) => self.pat(q, pre, seen, is_let)?,
                    None => Pat::Wild,
                }),
            ),
            PatKind::Record(fs) => {
                let mut v = Vec::new();
                for (n, q) in fs {
                    v.push((Rc::from(n.as_str()), self.pat(q, pre, seen, is_let)?));
                }
                Pat::Record(v)
            }
            PatKind::Annot(q, t) => {
                let inner = self.pat(q, pre, seen, is_let)?;
                if let PatKind::Var(n) = &q.kind {
                    self.set_declared_type(n, t);
                }
                // literal patterns take the annotated type
                let inner = match (inner, self.hint(t).num()) {
                    (Pat::Lit(v), Some(k)) => {
                        Pat::Lit(num::convert(v, k).map_err(|m| err(p.span, m))?)
                    }
                    (i, _) => i,
                };
                match self.coerce_hint(t).1 {
                    Some(h) => Pat::Coerce(Box::new(inner), h),
                    None => inner,
                }
            }
            PatKind::Or(a, b) => Pat::Or(
                Box::new(self.pat(a, pre, seen, is_let)?),
                Box::new(self.pat(b, pre, seen, is_let)?),
            ),
        })
    }

    fn case_pat(&mut self, p: &ast::Pat) -> CResult<Pat> {
        self.pat(p, &mut HashMap::new(), &mut HashMap::new(), false)
    }

    // ------------------------------------------------------------ functions

    fn func(&mut self, f: &Rc<FuncDef>) -> CResult<Code> {
        let captured = captures::captured_in_func(f);
        let mut ctx = FnCtx::new(captured);
        ctx.tparams = f.type_params.clone();
        ctx.ret_hint = f.result.as_ref().and_then(|t| self.coerce_hint(t).1);
        self.fns.push(ctx);
        let r = self.func_body(f);
        let ctx = self.fns.pop();
        let (params, param_cells, body, result) = r?;
        let ctx = ctx.ok_or_else(|| err(f.span, "internal: function context lost"))?;
        let proto = FuncProto {
            name: Rc::from(f.name.as_deref().unwrap_or("<anonymous>")),
            arity: f.params.len(),
            nslots: ctx.nslots,
            params,
            param_cells,
            body,
            result,
            span: f.span,
        };
        Ok(Code::Closure(Rc::new(proto), ctx.capture_src))
    }

    #[allow(clippy::type_complexity)]
    fn func_body(
        &mut self,
        f: &FuncDef,
    ) -> CResult<(Option<Vec<Pat>>, Vec<u32>, Code, Option<Rc<Hint>>)> {
        // slots 0..arity hold the arguments
        let arity = f.params.len() as u32;
        self.cur().nslots = arity;
        let mut simple = true;
        let mut cells = Vec::new();
        for (i, p) in f.params.iter().enumerate() {
            let (name, hint, ty) = match &p.kind {
                PatKind::Var(n) => (Some(n.clone()), None, None),
                PatKind::Annot(q, t) => match &q.kind {
                    PatKind::Var(n) if !self.hint(t).has_int() => {
                        (Some(n.clone()), None, Some(Rc::new(self.hint(t))))
                    }
                    _ => (None, Some(()), None),
                },
                PatKind::Wild => (Some(String::new()), None, None),
                _ => (None, Some(()), None),
            };
            match (name, hint) {
                (Some(n), None) => {
                    if n.is_empty() {
                        continue;
                    }
                    let cell = self.cur().captured_names.contains(&n);
                    let slot = if cell {
                        cells.push(i as u32);
                        Slot::LocalCell(i as u32)
                    } else {
                        Slot::Local(i as u32)
                    };
                    if let Some(scope) = self.cur().scopes.last_mut() {
                        scope.insert(
                            n,
                            Var::Slot {
                                slot,
                                mutable: false,
                                hint: None,
                                ty,
                            },
                        );
                    }
                }
                _ => simple = false,
            }
        }
        let params = if simple {
            None
        } else {
            let mut v = Vec::new();
            for p in &f.params {
                let mut seen = HashMap::new();
                v.push(self.pat(p, &mut HashMap::new(), &mut seen, false)?);
            }
            Some(v)
        };
        let ret = f.result.as_ref().map(|t| self.hint(t));
        let mut body = self.expr(&f.body, ret.as_ref())?;
        let result = self.cur().ret_hint.clone();
        if let Some(h) = &result {
            body = Code::Coerce(Box::new(body), h.clone());
        }
        // param cells of non-simple params are handled by pattern binding
        Ok((params, cells, body, result))
    }

    // ------------------------------------------------------------ expressions

    fn exprs(&mut self, es: &[Expr]) -> CResult<Vec<Code>> {
        es.iter().map(|e| self.expr(e, None)).collect()
    }

    fn expr(&mut self, e: &Expr, hint: Option<&Hint>) -> CResult<Code> {
        let resolved = hint.map(Hint::resolve);
        let hint = resolved.as_deref();
        let span = e.span;
        match &e.kind {
            ExprKind::Lit(l) => self.literal(e, l, hint),
            ExprKind::Var(n) => match self.resolve(n) {
                Some(Var::Slot { slot, .. }) => Ok(Code::Var(slot)),
                Some(Var::Module(m)) => Ok(Code::Const(Value::Module(m))),
                None => Err(err(span, format!("unbound variable {n}"))),
            },
            ExprKind::Unary(op, a) => self.unary(e, *op, a, hint),
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b, hint),
            ExprKind::And(a, b) => Ok(Code::And(Box::new((
                self.expr(a, None)?,
                self.expr(b, None)?,
            )))),
            ExprKind::Or(a, b) => Ok(Code::Or(Box::new((
                self.expr(a, None)?,
                self.expr(b, None)?,
            )))),
            ExprKind::Not(a) => Ok(Code::Not(Box::new(self.expr(a, None)?))),
            ExprKind::Assign(p, v) => self.assign(p, v),
            ExprKind::OpAssign(op, p, v) => self.op_assign(e, *op, p, v),
            ExprKind::Tuple(es) => self.tuple(es, hint),
            ExprKind::Array(m, es) => self.array(*m, es, hint, span),
            ExprKind::Record(bases, fields) => self.record(bases, fields, hint, span),
            ExprKind::Module(a) => Ok(Code::Module(Box::new(self.expr(a, None)?))),
            ExprKind::Variant(tag, a) => self.variant(tag, a.as_deref(), hint),
            ExprKind::Opt(a) => {
                let h = match hint {
                    Some(Hint::Opt(h)) => Some(&**h),
                    _ => None,
                };
                Ok(Code::Opt(Box::new(self.expr(a, h)?)))
            }
            ExprKind::Dot(a, name) => self.member(a, name, span),
            ExprKind::Proj(a, i) => Ok(Code::Proj(Box::new(self.expr(a, None)?), *i, span)),
            ExprKind::Index(a, i) => Ok(Code::Index(
                Box::new((self.expr(a, None)?, self.expr(i, None)?)),
                span,
            )),
            ExprKind::Call(f, args) => self.call(e, f, args),
            ExprKind::Bang(a) => self.bang(a, span),
            ExprKind::DebugShow(a) => Ok(Code::Show(
                Box::new(self.expr(a, None)?),
                self.checked_show_type(e),
            )),
            ExprKind::Ignore(a) => Ok(Code::Ignore(Box::new(self.expr(a, None)?))),
            ExprKind::Assert(a) => Ok(Code::Assert(Box::new(self.expr(a, None)?), span)),
            ExprKind::Debug(a) => self.expr(a, None),
            ExprKind::Annot(a, t) => {
                let h = self.hint(t);
                self.coerced(a, &h)
            }
            ExprKind::Block(decs) => self.block(decs, hint, false),
            ExprKind::If(c, t, f) => self.if_(c, t, f.as_deref(), hint),
            ExprKind::Switch(s, cases) => self.switch(s, cases, hint, span),
            ExprKind::While(c, b) => self.looped(String::new(), |this, id| {
                let cc = this.expr(c, None)?;
                let cb = this.expr(b, None)?;
                Ok(Code::While(Box::new((cc, cb)), id))
            }),
            ExprKind::Loop(b, c) => self.looped(String::new(), |this, id| {
                let cb = this.expr(b, None)?;
                let cc = match c {
                    Some(c) => Some(Box::new(this.expr(c, None)?)),
                    None => None,
                };
                Ok(Code::Loop(Box::new(cb), cc, id))
            }),
            ExprKind::For(p, it, b) => self.for_(p, it, b, span),
            ExprKind::Label(name, body) => self.labeled(name, body, hint),
            ExprKind::Break(name, v) => self.break_(name, v.as_deref(), span),
            ExprKind::Continue(name) => Ok(Code::Continue(self.find_label(name, true, span)?)),
            ExprKind::Return(v) => self.return_(v.as_deref(), span),
            ExprKind::Do(b) => self.expr(b, hint),
            ExprKind::DoOpt(b) => self.do_opt(b, hint),
            ExprKind::Func(f) => self.func(f),
        }
    }

    fn looped(
        &mut self,
        name: String,
        body: impl FnOnce(&mut Self, u32) -> CResult<Code>,
    ) -> CResult<Code> {
        let id = self.label();
        self.cur().labels.push((name, id, LabelKind::Loop));
        let r = body(self, id);
        self.cur().labels.pop();
        r
    }

    fn find_label(&mut self, name: &str, is_continue: bool, span: Span) -> CResult<u32> {
        let labels = &self.cur().labels;
        let found = if name.is_empty() {
            labels
                .iter()
                .rev()
                .find(|l| l.2 == LabelKind::Loop && l.0.is_empty())
        } else {
            labels
                .iter()
                .rev()
                .find(|l| l.0 == name && l.2 != LabelKind::DoOpt)
        };
        match found {
            Some(l) if is_continue && l.2 != LabelKind::Loop => {
                Err(err(span, format!("`continue {name}` needs a loop label")))
            }
            Some(l) => Ok(l.1),
            None if name.is_empty() => Err(err(span, "`break`/`continue` outside a loop")),
            None => Err(err(span, format!("unbound label {name}"))),
        }
    }

    /// Compiles `e` expecting `h` and converts its value to `h` (see [`Hint::has_int`]).
    /// The conversion is pushed into constructors (`?e`, tuples, `#tag e`) and left out for a
    /// variable declared with the same type, whose value is converted already: so
    /// `l := ?(x, l)` converts `x`, not the whole list again.
    fn coerced(&mut self, e: &Expr, h: &Hint) -> CResult<Code> {
        let resolved = h.resolve();
        let r: &Hint = &resolved;
        if !r.has_int() {
            return self.expr(e, Some(h));
        }
        match (&e.kind, r) {
            (ExprKind::Var(n), _) => {
                if let Some(Var::Slot {
                    slot,
                    hint: Some(declared),
                    ..
                }) = self.resolve(n)
                {
                    if *declared == *h || *declared == *r {
                        return Ok(Code::Var(slot));
                    }
                }
            }
            (ExprKind::Opt(a), Hint::Opt(sub)) => {
                return Ok(Code::Opt(Box::new(self.coerced(a, sub)?)));
            }
            (ExprKind::Tuple(es), Hint::Tuple(hs)) if es.len() == hs.len() => {
                let mut v = Vec::with_capacity(es.len());
                for (x, h) in es.iter().zip(hs) {
                    v.push(self.coerced(x, h)?);
                }
                return Ok(Code::Tuple(v));
            }
            (ExprKind::Variant(tag, Some(a)), Hint::Variant(hs)) => {
                if let Some((_, sub)) = hs.iter().find(|(n, _)| **n == **tag) {
                    let arg = self.coerced(a, sub)?;
                    return Ok(Code::Variant(Rc::from(tag.as_str()), Box::new(arg)));
                }
            }
            _ => {}
        }
        let code = self.expr(e, Some(h))?;
        Ok(Code::Coerce(Box::new(code), Rc::new(h.clone())))
    }

    fn place(&mut self, e: &Expr) -> CResult<(Place, Option<Rc<Hint>>)> {
        match &e.kind {
            ExprKind::Var(n) => match self.resolve(n) {
                Some(Var::Slot {
                    slot,
                    mutable: true,
                    hint,
                    ..
                }) => Ok((Place::Var(slot), hint)),
                Some(_) => Err(err(
                    e.span,
                    format!("cannot assign to immutable variable {n}"),
                )),
                None => Err(err(e.span, format!("unbound variable {n}"))),
            },
            ExprKind::Dot(r, f) => Ok((
                Place::Field(self.expr(r, None)?, Rc::from(f.as_str()), e.span),
                None,
            )),
            ExprKind::Index(a, i) => Ok((
                Place::Index(self.expr(a, None)?, self.expr(i, None)?, e.span),
                None,
            )),
            _ => Err(err(e.span, "cannot assign to this expression")),
        }
    }
}

/// Gives a loop the label id of its enclosing `label` so that `continue l` works.
fn retag_loop(code: Code, id: u32) -> Code {
    match code {
        Code::While(b, _) => Code::While(b, id),
        Code::Loop(b, c, _) => Code::Loop(b, c, id),
        Code::For(b, _, s) => Code::For(b, id, s),
        other => other,
    }
}

/// The names a pattern binds, in order.
pub fn pat_names(p: &ast::Pat, out: &mut Vec<String>) {
    match &p.kind {
        PatKind::Var(n) => {
            if !out.contains(n) {
                out.push(n.clone())
            }
        }
        PatKind::Wild | PatKind::Lit(..) => {}
        PatKind::Tuple(ps) => ps.iter().for_each(|q| pat_names(q, out)),
        PatKind::Opt(q) | PatKind::Annot(q, _) => pat_names(q, out),
        PatKind::Variant(_, q) => {
            if let Some(q) = q {
                pat_names(q, out)
            }
        }
        PatKind::Record(fs) => fs.iter().for_each(|(_, q)| pat_names(q, out)),
        PatKind::Or(a, b) => {
            pat_names(a, out);
            pat_names(b, out);
        }
    }
}

/// The value of a literal (numbers untyped: `Nat` or `Float`).
pub fn lit_value(l: &Lit, span: Span) -> CResult<Value> {
    Ok(match l {
        Lit::Unit => Value::Unit,
        Lit::Bool(b) => Value::Bool(*b),
        Lit::Null => Value::Null,
        Lit::Nat(s) => {
            let n = if let Some(h) = s.strip_prefix("0x") {
                BigUint::parse_bytes(h.as_bytes(), 16)
            } else {
                BigUint::parse_bytes(s.as_bytes(), 10)
            };
            Value::nat_big(n.ok_or_else(|| err(span, "malformed number"))?)
        }
        Lit::Float(f) => Value::Float(*f),
        Lit::Char(c) => Value::Char(*c),
        Lit::Text(t) => Value::text(t),
    })
}

/// The bytes of a text literal typed as `Blob` (byte escapes give raw bytes).
pub fn text_to_blob(t: &str) -> Rc<[u8]> {
    let base = crate::script::syntax::lexer::BYTE_ESCAPE_BASE;
    let mut out = Vec::with_capacity(t.len());
    for c in t.chars() {
        let u = c as u32;
        if (base + 0x80..=base + 0xFF).contains(&u) {
            out.push((u - base) as u8);
        } else {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    Rc::from(out)
}
