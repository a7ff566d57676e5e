//! Blocks: type declarations first, every name pre-declared (a function may use a later
//! declaration, as in moc), then each declaration in order.

use super::ir::{Code, Hint, Slot, Stmt};
use super::{err, hints, pat_names, CResult, Compiler};
use crate::script::lib;
use crate::script::syntax::ast::{Dec, Expr, ExprKind, FuncDef, Pat, PatKind, Type};
use crate::script::syntax::Span;
use crate::script::value::Value;
use std::collections::HashMap;
use std::rc::Rc;

/// The slots pre-declared for a block's names, taken by their declarations.
type Pre = HashMap<String, Slot>;

impl Compiler<'_> {
    /// Compiles declarations as a block; the outermost block of `main` declares globals
    /// (`top`: a session's top level, which has no scope of its own).
    pub(super) fn block(&mut self, decs: &[Dec], hint: Option<&Hint>, top: bool) -> CResult<Code> {
        if !top {
            self.cur().scopes.push(HashMap::new());
        }
        let r = self.block_inner(decs, hint, top);
        if !top {
            self.cur().scopes.pop();
        }
        r
    }

    fn block_inner(&mut self, decs: &[Dec], hint: Option<&Hint>, top: bool) -> CResult<Code> {
        self.type_decs(decs);
        let mut pre = self.predeclare(decs, top);
        let mut out = Vec::new();
        let cells: Vec<u32> = pre
            .values()
            .filter_map(|s| match s {
                Slot::LocalCell(i) => Some(*i),
                _ => None,
            })
            .collect();
        if !cells.is_empty() {
            out.push(Stmt::NewCells(cells));
        }
        let n = decs.len();
        for (i, d) in decs.iter().enumerate() {
            let last = i + 1 == n;
            let h = if last { hint } else { None };
            self.dec(d, h, last, top, &mut pre, &mut out)?;
        }
        Ok(Code::Block(out))
    }

    /// The block's type declarations: visible in the whole block.
    fn type_decs(&mut self, decs: &[Dec]) {
        for d in decs {
            if let Dec::Type(td) = d {
                let name = &td.name;
                let def = hints::TypeDef::new(name, &td.params, &td.body);
                if !self.module_path.is_empty() {
                    // `A.T` names this declaration even after another module's `T`
                    let path = format!("{}.{name}", self.module_path.join("."));
                    self.globals.types.insert(path, def.clone());
                }
                self.globals.types.insert(name.clone(), def);
            }
        }
    }

    /// Pre-declares every name of the block: a function may use a declaration that comes
    /// later (as in moc). At a session's top level a name defined by an earlier evaluation
    /// stays bound to its old value until its new declaration runs (so `let x = x + 1`
    /// redefines `x`), except a function's (mutual recursion).
    fn predeclare(&mut self, decs: &[Dec], top: bool) -> Pre {
        let mut pre: Pre = HashMap::new();
        for d in decs {
            let names: Vec<String> = match d {
                Dec::Func(f) => f.name.iter().cloned().collect(),
                Dec::Var(n, ..) => vec![n.clone()],
                Dec::Let(p, _, _) => {
                    let mut v = Vec::new();
                    pat_names(p, &mut v);
                    v
                }
                _ => Vec::new(),
            };
            let keeps_old = top && !matches!(d, Dec::Func(_));
            for n in names {
                if pre.contains_key(&n) || keeps_old && self.globals.names.contains_key(&n) {
                    continue;
                }
                let (mutable, hint) = match d {
                    Dec::Var(_, t, _, _) => (true, t.as_ref().and_then(|t| self.coerce_hint(t).1)),
                    _ => (false, None),
                };
                let slot = self.declare(&n, mutable, hint);
                pre.insert(n, slot);
            }
        }
        pre
    }

    /// One declaration of a block (`h`: the block's expected type when it is the last).
    fn dec(
        &mut self,
        d: &Dec,
        h: Option<&Hint>,
        last: bool,
        top: bool,
        pre: &mut Pre,
        out: &mut Vec<Stmt>,
    ) -> CResult<()> {
        match d {
            Dec::Exp(e) => {
                let c = self.expr(e, h)?;
                out.push(Stmt::Expr(c));
            }
            Dec::Let(p, e, fail) => self.dec_let(p, e, fail.as_ref(), last, pre, out)?,
            Dec::Var(name, t, e, _) => self.dec_var(name, t.as_ref(), e, last, top, pre, out)?,
            Dec::Type(..) => {
                if last {
                    out.push(Stmt::Expr(Code::Const(Value::Unit)));
                }
            }
            Dec::Func(f) => self.dec_func(f, last, top, pre, out)?,
            Dec::Import(p, path, span) => {
                self.dec_import(p, path, *span, out)?;
                if last {
                    out.push(Stmt::Expr(Code::Const(Value::Unit)));
                }
            }
        }
        Ok(())
    }

    /// `let p = e` (`else fail`).
    fn dec_let(
        &mut self,
        p: &Pat,
        e: &Expr,
        fail: Option<&Expr>,
        last: bool,
        pre: &mut Pre,
        out: &mut Vec<Stmt>,
    ) -> CResult<()> {
        let (pat_hint, coerce) = match &p.kind {
            PatKind::Annot(_, t) => self.coerce_hint(t),
            _ => (Hint::Any, None),
        };
        let module = match (&p.kind, &e.kind) {
            (PatKind::Var(n), ExprKind::Module(_)) => Some(n.clone()),
            _ => None,
        };
        let in_module = module.is_some();
        self.module_path.extend(module);
        // a block ending in `let` has the value bound, of the annotated type
        let value = match coerce {
            Some(_) if last => self.coerced(e, &pat_hint),
            _ => self.expr(e, Some(&pat_hint)),
        };
        if in_module {
            self.module_path.pop();
        }
        let value = value?;
        let fail = match fail {
            Some(f) => Some(self.expr(f, None)?),
            None => None,
        };
        let mut seen = HashMap::new();
        let cp = self.pat(p, pre, &mut seen, true)?;
        // the last statement's value is the block's (see `Interp::block`)
        out.push(Stmt::Let(cp, value, fail, p.span));
        Ok(())
    }

    /// `var name : t = e`.
    #[allow(clippy::too_many_arguments)]
    fn dec_var(
        &mut self,
        name: &str,
        t: Option<&Type>,
        e: &Expr,
        last: bool,
        top: bool,
        pre: &mut Pre,
        out: &mut Vec<Stmt>,
    ) -> CResult<()> {
        let (h, coerce) = match t {
            Some(t) => self.coerce_hint(t),
            None => (Hint::Any, None),
        };
        let value = self.coerced(e, &h)?;
        let slot = match pre.remove(name) {
            Some(s) => s,
            None => self.declare(name, true, coerce),
        };
        out.push(Stmt::Store(slot, value));
        if let Some(t) = t {
            self.set_declared_type(name, t);
        }
        if last {
            // in a block `var` has value `()`, as in moc; a session's top level shows the
            // variable (as a REPL does)
            out.push(Stmt::Expr(if top {
                Code::Var(slot)
            } else {
                Code::Const(Value::Unit)
            }));
        }
        Ok(())
    }

    /// `func f(..) ..` (or a class).
    fn dec_func(
        &mut self,
        f: &Rc<FuncDef>,
        last: bool,
        top: bool,
        pre: &mut Pre,
        out: &mut Vec<Stmt>,
    ) -> CResult<()> {
        let name = f.name.clone().unwrap_or_default();
        let slot = match pre.remove(&name) {
            Some(s) => s,
            None => self.declare(&name, false, None),
        };
        self.record_params(f, slot);
        let clo = self.func(f)?;
        out.push(Stmt::Store(slot, clo));
        if last {
            // a block ending in `func` (or `class`) has the function as its value, as in
            // moc; a session's top level shows nothing
            out.push(Stmt::Expr(if top {
                Code::Const(Value::Unit)
            } else {
                Code::Var(slot)
            }));
        }
        Ok(())
    }

    /// Keeps the parameter types of the function in `slot` (they type the literals of its
    /// arguments).
    fn record_params(&mut self, f: &FuncDef, slot: Slot) {
        let params: Vec<Option<Hint>> = f
            .params
            .iter()
            .map(|p| match &p.kind {
                PatKind::Annot(_, t) => Some(self.hint(t)),
                _ => None,
            })
            .collect();
        let params = Rc::new(params);
        match slot {
            Slot::Global(i) => {
                self.globals.func_params.insert(i, params);
            }
            Slot::Local(i) | Slot::LocalCell(i) => {
                self.cur().func_params.insert(i, params);
            }
            Slot::Env(_) => {}
        }
    }

    /// `import p "path"`: a module, or some of its members.
    fn dec_import(&mut self, p: &Pat, path: &str, span: Span, out: &mut Vec<Stmt>) -> CResult<()> {
        let m = lib::module_by_path(path).ok_or_else(|| {
            err(
                span,
                format!("import of {path:?} is not supported (mo:core/* and mo:base/* modules are built in)"),
            )
        })?;
        match &p.kind {
            PatKind::Var(n) => self.declare_module(n, m),
            PatKind::Record(fields) => {
                for (fname, fp) in fields {
                    let member = m.get(fname).ok_or_else(|| {
                        err(p.span, format!("module {} has no member `{fname}`", m.name))
                    })?;
                    let bind = match &fp.kind {
                        PatKind::Var(b) => b.clone(),
                        _ => fname.clone(),
                    };
                    let slot = self.declare(&bind, false, None);
                    out.push(Stmt::Store(slot, Code::Const(lib::member_value(member))));
                }
            }
            _ => return Err(err(p.span, "unsupported import pattern")),
        }
        Ok(())
    }
}
