//! The parser: tokens to the AST; constructs outside the subset are refused with their position.

use super::ast::*;
use super::error::SyntaxError;
use super::lexer::{lex, Tok, Token};
use super::span::Span;
use std::rc::Rc;

/// Deepest nesting of expressions, patterns and types the parser accepts.
pub const MAX_NESTING: usize = 256;

/// Native stack the parser may use, in bytes: parsing runs on any thread (a mount's worker
/// threads have 2 MiB), and a debug build needs tens of KiB per nesting level, so deep nesting
/// stops with a syntax error before the thread's stack runs out.
pub const MAX_PARSE_STACK: usize = 1 << 20;

/// Longest chain of binary operators or postfix operations (`.f`, `[i]`, calls) in one
/// expression, and of `or` alternatives in one pattern; chains nest in the tree, so this
/// bounds the compiler's and the evaluator's recursion too.
pub const MAX_CHAIN: usize = 4096;

/// Parses a whole script.
pub fn parse_program(src: &str) -> Result<Program, SyntaxError> {
    let toks = lex(src)?;
    let base = 0u8;
    let mut p = Parser::new(toks, &base);
    // from the first token (comments before it excluded, as in moc) to the end
    let first = p.span();
    let decs = p.decs_until(|t| matches!(t, Tok::Eof))?;
    let span = first.to(p.span());
    Ok(Program {
        decs,
        span,
        type_args: p.type_args,
        body_types: p.body_types,
    })
}

type PResult<T> = Result<T, SyntaxError>;

/// A name and where it is bound.
type Binding = (String, Span);

/// A `public` field of an object body: its name and where, and whether it is a `var`.
type PublicField = (Binding, bool);

struct Parser {
    toks: Vec<Token>,
    i: usize,
    depth: usize,
    /// Address of a local of the caller ([`parse_program`], [`parse_type`]): the native
    /// stack used is measured from it.
    stack_base: usize,
    /// Explicit type arguments of calls seen so far (see [`Program::type_args`]).
    type_args: Vec<(Span, Vec<Type>)>,
    /// The declared types of object and class bodies seen so far (see
    /// [`Program::body_types`]).
    body_types: Vec<(Span, BodyType)>,
}

/// Parses a type written alone (the library's signatures).
pub fn parse_type(src: &str) -> Result<Type, SyntaxError> {
    let toks = lex(src)?;
    let base = 0u8;
    let mut p = Parser::new(toks, &base);
    let t = p.ty()?;
    if !matches!(p.tok(), Tok::Eof) {
        return Err(p.error("the end of the type"));
    }
    Ok(t)
}

/// Keywords that are valid Motoko but outside the subset, with what to call them.
const UNSUPPORTED_KW: &[(&str, &str)] = &[
    ("actor", "`actor`"),
    ("async", "`async`"),
    ("await", "`await`"),
    ("class", "this `class` form"),
    ("module", "this `module` form"),
    ("object", "this `object` form"),
    ("shared", "`shared` functions"),
    ("query", "`query` functions"),
    ("composite", "`composite query` functions"),
    ("try", "`try`"),
    ("throw", "`throw`"),
    ("system", "`system`"),
    ("stable", "`stable`"),
    ("flexible", "`flexible`"),
    ("persistent", "`persistent`"),
    ("transient", "`transient`"),
    ("to_candid", "`to_candid`"),
    ("from_candid", "`from_candid`"),
    ("public", "`public` outside an object, class or module body"),
    (
        "private",
        "`private` outside an object, class or module body",
    ),
    ("finally", "`finally`"),
    ("include", "`include` (of a mixin, in an actor)"),
    ("catch", "`catch`"),
];

impl Parser {
    /// A parser at the first of `toks`; `base` is a local of the caller, where the native
    /// stack the parser uses is measured from.
    fn new(toks: Vec<Token>, base: &u8) -> Self {
        Parser {
            toks,
            i: 0,
            depth: 0,
            stack_base: std::ptr::addr_of!(*base) as usize,
            type_args: Vec::new(),
            body_types: Vec::new(),
        }
    }

    fn tok(&self) -> &Tok {
        &self.toks[self.i.min(self.toks.len() - 1)].tok
    }

    fn tok_at(&self, k: usize) -> &Tok {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].tok
    }

    fn span(&self) -> Span {
        self.toks[self.i.min(self.toks.len() - 1)].span
    }

    fn prev_span(&self) -> Span {
        self.toks[self.i.saturating_sub(1)].span
    }

    fn space_before(&self) -> bool {
        self.toks[self.i.min(self.toks.len() - 1)].space_before
    }

    fn advance(&mut self) {
        if self.i < self.toks.len() - 1 {
            self.i += 1;
        }
    }

    fn at_op(&self, op: &str) -> bool {
        matches!(self.tok(), Tok::Op(o) if *o == op)
    }

    fn at_kw(&self, kw: &str) -> bool {
        matches!(self.tok(), Tok::Kw(k) if *k == kw)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        if self.at_op(op) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.at_kw(kw) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn describe(&self) -> String {
        match self.tok() {
            Tok::Ident(s) => format!("identifier `{s}`"),
            Tok::Kw(k) => format!("keyword `{k}`"),
            Tok::Nat(n) | Tok::Float(n) => format!("number `{n}`"),
            Tok::Text(_) => "text literal".into(),
            Tok::Char(_) => "character literal".into(),
            Tok::Op(o) => format!("`{o}`"),
            Tok::Eof => "end of input".into(),
        }
    }

    fn error(&self, expected: &str) -> SyntaxError {
        if let Tok::Kw(k) = self.tok() {
            if let Some((_, what)) = UNSUPPORTED_KW.iter().find(|(kw, _)| kw == k) {
                return SyntaxError::unsupported(self.span(), what);
            }
        }
        SyntaxError::new(
            self.span(),
            format!("unexpected {}, expected {expected}", self.describe()),
        )
    }

    fn expect_op(&mut self, op: &str) -> PResult<()> {
        if self.eat_op(op) {
            Ok(())
        } else {
            Err(self.error(&format!("`{op}`")))
        }
    }

    fn ident(&mut self) -> PResult<String> {
        if let Tok::Ident(s) = self.tok() {
            let s = s.clone();
            self.advance();
            Ok(s)
        } else {
            Err(self.error("an identifier"))
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(SyntaxError::new(
                self.span(),
                format!("nesting deeper than {MAX_NESTING} levels"),
            ));
        }
        let here = 0u8;
        let used = self.stack_base.abs_diff(std::ptr::addr_of!(here) as usize);
        if used > MAX_PARSE_STACK {
            return Err(SyntaxError::new(
                self.span(),
                format!(
                    "nesting deeper than the parser's stack allows ({} levels, {MAX_PARSE_STACK} bytes)",
                    self.depth
                ),
            ));
        }
        Ok(())
    }

    // ---------------------------------------------------------------- declarations

    fn decs_until(&mut self, end: impl Fn(&Tok) -> bool) -> PResult<Vec<Dec>> {
        let mut decs = Vec::new();
        loop {
            while self.eat_op(";") {}
            if end(self.tok()) {
                return Ok(decs);
            }
            let dec = self.dec()?;
            decs.push(dec);
            if end(self.tok()) {
                return Ok(decs);
            }
            let after_brace = matches!(self.toks[self.i.saturating_sub(1)].tok, Tok::Op("}"));
            if !self.eat_op(";") && !after_brace {
                return Err(self.error("`;` or end of block"));
            }
        }
    }

    fn dec(&mut self) -> PResult<Dec> {
        let start = self.span();
        match self.tok() {
            Tok::Kw("let") => {
                self.advance();
                let pat = self.pat()?;
                self.expect_op("=")?;
                let e = self.expr(true)?;
                let fail = if self.eat_kw("else") {
                    Some(self.expr_nest()?)
                } else {
                    None
                };
                Ok(Dec::Let(pat, e, fail))
            }
            Tok::Kw("var") => {
                self.advance();
                let name = self.ident()?;
                let ty = if self.eat_op(":") {
                    Some(self.ty()?)
                } else {
                    None
                };
                self.expect_op("=")?;
                let e = self.expr(true)?;
                Ok(Dec::Var(name, ty, e, start.to(self.prev_span())))
            }
            Tok::Kw("type") => {
                let at = self.span();
                self.advance();
                let name = self.ident()?;
                let (params, param_spans) = self.type_params_spanned()?;
                self.expect_op("=")?;
                let body = self.ty()?;
                Ok(Dec::Type(Box::new(TypeDec {
                    name,
                    params,
                    param_spans,
                    body,
                    span: at.to(self.prev_span()),
                })))
            }
            Tok::Kw("func")
                if matches!(self.tok_at(1), Tok::Ident(_))
                    && matches!(self.tok_at(2), Tok::Op("(") | Tok::Op("<")) =>
            {
                self.advance();
                let name = self.ident()?;
                Ok(Dec::Func(Rc::new(self.func_rest(Some(name), start)?)))
            }
            Tok::Kw(sort @ ("module" | "object")) if matches!(self.tok_at(1), Tok::Ident(_)) => {
                let module = *sort == "module";
                self.advance();
                let name_span = self.span();
                let name = self.ident()?;
                let annot = self.object_annot()?;
                let body = self.object_body(start)?;
                self.note_body_type(&body, annot, module);
                let body = if module {
                    self.mk(ExprKind::Module(Box::new(body)), start)
                } else {
                    body
                };
                let pat = Pat {
                    kind: PatKind::Var(name),
                    span: name_span,
                };
                Ok(Dec::Let(pat, body, None))
            }
            Tok::Kw("class") if matches!(self.tok_at(1), Tok::Ident(_)) => {
                self.advance();
                let name = self.ident()?;
                let mut type_param_spans = Vec::new();
                let (type_params, type_bounds) = self.type_params_with(&mut type_param_spans)?;
                let params = self.params()?;
                let annot = if self.eat_op(":") {
                    Some(self.ty_nofunc_block()?)
                } else {
                    None
                };
                let this = if self.eat_op("=") {
                    Some(self.ident()?)
                } else {
                    None
                };
                let mut body = self.object_body(start)?;
                if let Some(ty) = annot {
                    let sort = BodySort::Class;
                    self.body_types.push((body.span, BodyType { sort, ty }));
                }
                if let Some(this) = this {
                    bind_self(&mut body, this);
                }
                Ok(Dec::Func(Rc::new(FuncDef {
                    name: Some(name),
                    type_params,
                    type_param_spans,
                    type_bounds,
                    params,
                    result: None,
                    body,
                    span: start.to(self.prev_span()),
                })))
            }
            // A mixin is only used by an actor's `include`: in a script (as in moc's
            // interpreter) its declaration runs nothing; its body is still compiled.
            Tok::Kw("mixin") => {
                self.advance();
                let params = self.params()?;
                let body = self.object_body(start)?;
                let f = FuncDef {
                    name: None,
                    type_params: Vec::new(),
                    type_param_spans: Vec::new(),
                    type_bounds: Vec::new(),
                    params,
                    result: None,
                    body,
                    span: start.to(self.prev_span()),
                };
                let f = self.mk(ExprKind::Func(Rc::new(f)), start);
                Ok(Dec::Exp(self.mk(ExprKind::Ignore(Box::new(f)), start)))
            }
            Tok::Kw("import") => {
                self.advance();
                let pat = self.pat_nullary()?;
                let path = match self.tok() {
                    Tok::Text(s) => s.clone(),
                    _ => return Err(self.error("an import path")),
                };
                self.advance();
                Ok(Dec::Import(pat, path, start.to(self.prev_span())))
            }
            _ => Ok(Dec::Exp(self.expr(true)?)),
        }
    }

    fn type_params(&mut self) -> PResult<Vec<String>> {
        Ok(self.type_params_bounded()?.0)
    }

    /// Type parameters `<T, U <: B>`: the names, and where each is.
    fn type_params_spanned(&mut self) -> PResult<(Vec<String>, Vec<Span>)> {
        let mut spans = Vec::new();
        let (params, _) = self.type_params_with(&mut spans)?;
        Ok((params, spans))
    }

    /// Type parameters `<T, U <: B>`: the names, and each one's bound if it declares one.
    fn type_params_bounded(&mut self) -> PResult<(Vec<String>, Vec<Option<Type>>)> {
        self.type_params_with(&mut Vec::new())
    }

    /// Type parameters `<T, U <: B>`: the names, and each one's bound if it declares one;
    /// where each name is goes to `spans`.
    fn type_params_with(
        &mut self,
        spans: &mut Vec<Span>,
    ) -> PResult<(Vec<String>, Vec<Option<Type>>)> {
        let mut params = Vec::new();
        let mut bounds = Vec::new();
        if self.eat_op("<") {
            loop {
                spans.push(self.span());
                params.push(self.ident()?);
                if self.at_op("<") && matches!(self.tok_at(1), Tok::Op(":")) {
                    self.advance();
                    self.advance();
                    bounds.push(Some(self.ty()?));
                } else {
                    bounds.push(None);
                }
                if !self.eat_op(",") {
                    break;
                }
            }
            self.close_angle()?;
        }
        Ok((params, bounds))
    }

    /// A function's or class's parameters: `(p, q)`, `()` or one pattern.
    fn params(&mut self) -> PResult<Vec<Pat>> {
        Ok(match self.pat_nullary()? {
            Pat {
                kind: PatKind::Tuple(ps),
                ..
            } => ps,
            p => vec![p],
        })
    }

    /// After `func name?`: type params, params, result type, body.
    fn func_rest(&mut self, name: Option<String>, start: Span) -> PResult<FuncDef> {
        let mut type_param_spans = Vec::new();
        let (type_params, type_bounds) = self.type_params_with(&mut type_param_spans)?;
        let params = self.params()?;
        let result = if self.eat_op(":") {
            Some(self.ty_nofunc_block()?)
        } else {
            None
        };
        let body = if self.eat_op("=") {
            self.expr(true)?
        } else if self.at_op("{") {
            self.block()?
        } else {
            return Err(self.error("a function body"));
        };
        Ok(FuncDef {
            name,
            type_params,
            type_param_spans,
            type_bounds,
            params,
            result,
            body,
            span: start.to(self.prev_span()),
        })
    }

    // ---------------------------------------------------------------- types

    fn ty(&mut self) -> PResult<Type> {
        self.enter()?;
        let r = self.ty_inner();
        self.depth -= 1;
        r
    }

    fn ty_inner(&mut self) -> PResult<Type> {
        if self.at_op("<") {
            self.type_params()?;
        }
        let mut t = self.ty_un()?;
        if self.eat_op("->") {
            let r = self.ty()?;
            return Ok(Type::Func(Box::new(t), Box::new(r)));
        }
        let mut chain = 0usize;
        while self.at_kw("and") || self.at_kw("or") {
            chain += 1;
            if chain > MAX_CHAIN {
                return Err(SyntaxError::new(
                    self.span(),
                    format!("more than {MAX_CHAIN} types combined with `and`/`or`"),
                ));
            }
            self.advance();
            let u = self.ty_un()?;
            t = Type::Combined(Box::new(t), Box::new(u));
        }
        Ok(t)
    }

    /// A function result type: like `ty` but a `{` after it starts the body.
    fn ty_nofunc_block(&mut self) -> PResult<Type> {
        self.ty()
    }

    fn ty_un(&mut self) -> PResult<Type> {
        if self.eat_op("?") {
            self.enter()?;
            let t = self.ty_un();
            self.depth -= 1;
            return Ok(Type::Opt(Box::new(t?)));
        }
        self.ty_nullary()
    }

    /// `(implicit : T)` or `(implicit : (name : T))` (at a `(`), else `None` with nothing
    /// read.
    fn ty_implicit(&mut self) -> PResult<Option<Type>> {
        let is_kw = matches!(self.tok_at(1), Tok::Ident(n) if n == "implicit");
        if !is_kw || !matches!(self.tok_at(2), Tok::Op(":")) {
            return Ok(None);
        }
        self.advance();
        self.advance();
        self.advance();
        let named = matches!(self.tok(), Tok::Op("("))
            && matches!(self.tok_at(1), Tok::Ident(_))
            && matches!(self.tok_at(2), Tok::Op(":"));
        let (name, t) = if named {
            self.advance();
            let name = self.ident()?;
            self.expect_op(":")?;
            let t = self.ty()?;
            self.expect_op(")")?;
            (Some(name), t)
        } else {
            (None, self.ty()?)
        };
        self.expect_op(")")?;
        Ok(Some(Type::Implicit(name, Box::new(t))))
    }

    fn ty_nullary(&mut self) -> PResult<Type> {
        match self.tok().clone() {
            Tok::Op("(") => {
                if let Some(t) = self.ty_implicit()? {
                    return Ok(t);
                }
                self.advance();
                let mut ts = Vec::new();
                while !self.at_op(")") {
                    // named components `(x : T)`
                    if matches!(self.tok(), Tok::Ident(_)) && matches!(self.tok_at(1), Tok::Op(":"))
                    {
                        self.advance();
                        self.advance();
                    }
                    ts.push(self.ty()?);
                    if !self.eat_op(",") {
                        break;
                    }
                }
                self.expect_op(")")?;
                if ts.len() == 1 {
                    return Ok(ts.remove(0));
                }
                Ok(Type::Tuple(ts))
            }
            Tok::Op("[") => {
                self.advance();
                let m = self.eat_kw("var");
                let t = self.ty()?;
                self.expect_op("]")?;
                Ok(Type::Array(m, Box::new(t)))
            }
            Tok::Op("{") => {
                self.advance();
                if self.at_op("#") && matches!(self.tok_at(1), Tok::Op("}")) {
                    // `{#}` is the empty variant
                    self.advance();
                    self.advance();
                    return Ok(Type::Variant(Vec::new()));
                }
                if self.at_op("#") {
                    let mut tags = Vec::new();
                    while self.eat_op("#") {
                        let name = self.field_name()?;
                        let t = if self.eat_op(":") {
                            self.ty()?
                        } else {
                            Type::Tuple(Vec::new())
                        };
                        tags.push((name, t));
                        if !self.eat_op(";") {
                            break;
                        }
                    }
                    self.expect_op("}")?;
                    return Ok(Type::Variant(tags));
                }
                let mut fields = Vec::new();
                while !self.at_op("}") {
                    // a type component of a module or object type (`type T = Null`):
                    // not a field
                    if self.eat_kw("type") {
                        self.ident()?;
                        self.type_params()?;
                        self.expect_op("=")?;
                        self.ty()?;
                        if !self.eat_op(";") {
                            break;
                        }
                        continue;
                    }
                    let m = self.eat_kw("var");
                    let name = self.field_name()?;
                    let t = if self.at_op("<") || self.at_op("(") {
                        // method shorthand `f(x : T) : U`
                        self.type_params()?;
                        let a = self.ty_nullary()?;
                        self.expect_op(":")?;
                        let r = self.ty()?;
                        Type::Func(Box::new(a), Box::new(r))
                    } else {
                        self.expect_op(":")?;
                        self.ty()?
                    };
                    fields.push((name, m, t));
                    if !self.eat_op(";") {
                        break;
                    }
                }
                self.expect_op("}")?;
                Ok(Type::Record(fields))
            }
            Tok::Ident(first) => {
                self.advance();
                let mut path = vec![first];
                while self.at_op(".") {
                    self.advance();
                    path.push(self.ident()?);
                }
                let mut args = Vec::new();
                if self.at_op("<") && !self.space_before() {
                    self.advance();
                    loop {
                        args.push(self.ty()?);
                        if !self.eat_op(",") {
                            break;
                        }
                    }
                    self.close_angle()?;
                }
                Ok(Type::Path(path, args))
            }
            // `module { ... }` / `object { ... }` types: records to mo-mem
            Tok::Kw("module" | "object") if matches!(self.tok_at(1), Tok::Op("{")) => {
                self.advance();
                self.ty_nullary()
            }
            Tok::Kw("async") => Err(SyntaxError::unsupported(self.span(), "`async` types")),
            _ => Err(self.error("a type")),
        }
    }

    /// Consumes one `>`, splitting `>>` when type arguments nest.
    fn close_angle(&mut self) -> PResult<()> {
        if self.eat_op(">") {
            return Ok(());
        }
        if self.at_op(">>") {
            let t = &mut self.toks[self.i];
            t.tok = Tok::Op(">");
            t.span.start.col += 1;
            return Ok(());
        }
        Err(self.error("`>`"))
    }

    fn field_name(&mut self) -> PResult<String> {
        match self.tok().clone() {
            Tok::Ident(s) => {
                self.advance();
                Ok(s)
            }
            // keywords are not field names, but `#null`-style tags are common
            Tok::Kw(k) => {
                self.advance();
                Ok(k.to_string())
            }
            _ => Err(self.error("a field name")),
        }
    }

    // ---------------------------------------------------------------- patterns

    fn pat(&mut self) -> PResult<Pat> {
        self.enter()?;
        let r = self.pat_inner();
        self.depth -= 1;
        r
    }

    fn pat_inner(&mut self) -> PResult<Pat> {
        let mut p = self.pat_un()?;
        let mut chain = 0usize;
        while self.at_kw("or") {
            chain += 1;
            if chain > MAX_CHAIN {
                return Err(SyntaxError::new(
                    self.span(),
                    format!("more than {MAX_CHAIN} alternatives in one pattern"),
                ));
            }
            self.advance();
            let q = self.pat_un()?;
            let span = p.span.to(q.span);
            p = Pat {
                kind: PatKind::Or(Box::new(p), Box::new(q)),
                span,
            };
        }
        // `p : T : U` annotates twice (moc checks both)
        while self.eat_op(":") {
            let t = self.ty()?;
            let span = p.span.to(self.prev_span());
            p = Pat {
                kind: PatKind::Annot(Box::new(p), t),
                span,
            };
        }
        Ok(p)
    }

    fn pat_un(&mut self) -> PResult<Pat> {
        let start = self.span();
        if self.eat_op("#") {
            let tag = self.field_name()?;
            let arg = if self.starts_pat_nullary() {
                Some(Box::new(self.pat_nullary()?))
            } else {
                None
            };
            return Ok(Pat {
                kind: PatKind::Variant(tag, arg),
                span: start.to(self.prev_span()),
            });
        }
        if self.eat_op("?") {
            self.enter()?;
            let p = self.pat_un();
            self.depth -= 1;
            let p = p?;
            return Ok(Pat {
                kind: PatKind::Opt(Box::new(p)),
                span: start.to(self.prev_span()),
            });
        }
        if self.at_op("-") || self.at_op("+") {
            let neg = self.at_op("-");
            self.advance();
            let lit = match self.tok().clone() {
                Tok::Nat(n) => Lit::Nat(n),
                Tok::Float(f) => Lit::Float(parse_float(&f).ok_or_else(|| self.error("a float"))?),
                _ => return Err(self.error("a number")),
            };
            self.advance();
            return Ok(Pat {
                kind: PatKind::Lit(lit, neg),
                span: start.to(self.prev_span()),
            });
        }
        self.pat_nullary()
    }

    fn starts_pat_nullary(&self) -> bool {
        matches!(
            self.tok(),
            Tok::Op("(") | Tok::Op("{") | Tok::Op("_") | Tok::Ident(_)
        ) || matches!(
            self.tok(),
            Tok::Nat(_) | Tok::Float(_) | Tok::Text(_) | Tok::Char(_)
        ) || self.at_kw("null")
            || self.at_kw("true")
            || self.at_kw("false")
    }

    fn pat_nullary(&mut self) -> PResult<Pat> {
        let start = self.span();
        let kind = match self.tok().clone() {
            Tok::Op("_") => {
                self.advance();
                PatKind::Wild
            }
            Tok::Ident(s) => {
                self.advance();
                PatKind::Var(s)
            }
            Tok::Op("(") => {
                self.advance();
                let mut ps = Vec::new();
                while !self.at_op(")") {
                    ps.push(self.pat()?);
                    if !self.eat_op(",") {
                        break;
                    }
                }
                self.expect_op(")")?;
                // a parenthesized pattern keeps its own span (moc reports it)
                if ps.len() == 1 {
                    return Ok(ps.remove(0));
                }
                PatKind::Tuple(ps)
            }
            Tok::Op("{") => {
                self.advance();
                let mut fields = Vec::new();
                while !self.at_op("}") {
                    let fstart = self.span();
                    let name = self.field_name()?;
                    let p = if self.eat_op("=") {
                        self.pat()?
                    } else {
                        let mut p = Pat {
                            kind: PatKind::Var(name.clone()),
                            span: fstart,
                        };
                        if self.eat_op(":") {
                            let t = self.ty()?;
                            p = Pat {
                                kind: PatKind::Annot(Box::new(p), t),
                                span: fstart.to(self.prev_span()),
                            };
                        }
                        p
                    };
                    fields.push((name, p));
                    if !self.eat_op(";") {
                        break;
                    }
                }
                self.expect_op("}")?;
                PatKind::Record(fields)
            }
            _ => {
                let lit = self.literal().ok_or_else(|| self.error("a pattern"))??;
                PatKind::Lit(lit, false)
            }
        };
        Ok(Pat {
            kind,
            span: start.to(self.prev_span()),
        })
    }

    /// Parses a literal token if the current token is one.
    fn literal(&mut self) -> Option<PResult<Lit>> {
        let lit = match self.tok().clone() {
            Tok::Nat(n) => Lit::Nat(n),
            Tok::Float(f) => match parse_float(&f) {
                Some(v) => Lit::Float(v),
                None => return Some(Err(self.error("a float literal"))),
            },
            Tok::Text(s) => Lit::Text(s),
            Tok::Char(c) => Lit::Char(c),
            Tok::Kw("true") => Lit::Bool(true),
            Tok::Kw("false") => Lit::Bool(false),
            Tok::Kw("null") => Lit::Null,
            _ => return None,
        };
        self.advance();
        Some(Ok(lit))
    }

    // ---------------------------------------------------------------- expressions

    fn mk(&self, kind: ExprKind, start: Span) -> Expr {
        Expr {
            kind,
            span: start.to(self.prev_span()),
        }
    }

    /// A body: a block if it starts with `{`, otherwise an expression.
    fn expr_nest(&mut self) -> PResult<Expr> {
        if self.at_op("{") {
            self.block()
        } else {
            self.expr(false)
        }
    }

    fn block(&mut self) -> PResult<Expr> {
        let start = self.span();
        self.expect_op("{")?;
        self.enter()?;
        let decs = self.decs_until(|t| matches!(t, Tok::Op("}")));
        self.depth -= 1;
        let decs = decs?;
        self.expect_op("}")?;
        Ok(self.mk(ExprKind::Block(decs), start))
    }

    /// The optional type annotation and `=` between an object's or module's name and its
    /// body (`module M : T = { ... }`); the type is parsed, not checked.
    fn object_annot(&mut self) -> PResult<Option<Type>> {
        let t = if self.eat_op(":") {
            Some(self.ty()?)
        } else {
            None
        };
        self.eat_op("=");
        Ok(t)
    }

    /// Keeps the declared type `annot` of the object, module or class body `body`.
    fn note_body_type(&mut self, body: &Expr, annot: Option<Type>, module: bool) {
        if let Some(t) = annot {
            let sort = if module {
                BodySort::Module
            } else {
                BodySort::Object
            };
            self.body_types.push((body.span, BodyType { sort, ty: t }));
        }
    }

    /// The body `{ decs }` of an `object`, `module` or `class` starting at `start`, as the
    /// block that runs its declarations and ends in the record of its `public` fields
    /// (private declarations stay visible to the fields' functions only).
    fn object_body(&mut self, start: Span) -> PResult<Expr> {
        self.expect_op("{")?;
        self.enter()?;
        let r = self.object_decs();
        self.depth -= 1;
        let (mut decs, public) = r?;
        self.expect_op("}")?;
        let fields = public
            .into_iter()
            .map(|((name, span), var)| FieldExp {
                mutable: var,
                name: name.clone(),
                ty: None,
                value: Expr {
                    kind: ExprKind::Var(name),
                    span,
                },
                alias: var,
            })
            .collect();
        let record = self.mk(ExprKind::Record(Vec::new(), fields), start);
        decs.push(Dec::Exp(record));
        Ok(self.mk(ExprKind::Block(decs), start))
    }

    /// The declarations of an object body, and the names (with where they are declared) of
    /// its `public` fields, each with whether it is a `public var`.
    fn object_decs(&mut self) -> PResult<(Vec<Dec>, Vec<PublicField>)> {
        let mut decs = Vec::new();
        let mut public = Vec::new();
        loop {
            while self.eat_op(";") {}
            if self.at_op("}") {
                return Ok((decs, public));
            }
            let at = self.span();
            let is_public = self.eat_kw("public");
            if !is_public {
                self.eat_kw("private");
            }
            let dec = self.dec()?;
            if is_public {
                match &dec {
                    Dec::Let(pat, _, _) => {
                        let mut names = Vec::new();
                        pat_names(pat, &mut names);
                        public.extend(names.into_iter().map(|b| (b, false)));
                    }
                    Dec::Func(f) => public.extend(f.name.clone().map(|n| ((n, at), false))),
                    Dec::Type(..) => {}
                    Dec::Var(name, ..) => public.push(((name.clone(), at), true)),
                    Dec::Exp(_) | Dec::Import(..) => {
                        return Err(SyntaxError::new(
                            at,
                            "`public` goes before `let`, `func`, `class`, `module` or `type`",
                        ))
                    }
                }
            }
            decs.push(dec);
            if self.at_op("}") {
                return Ok((decs, public));
            }
            let after_brace = matches!(self.toks[self.i.saturating_sub(1)].tok, Tok::Op("}"));
            if !self.eat_op(";") && !after_brace {
                return Err(self.error("`;` or end of block"));
            }
        }
    }

    /// An expression; `ob` says whether a leading `{` may be a record literal.
    fn expr(&mut self, ob: bool) -> PResult<Expr> {
        self.enter()?;
        let r = self.expr_inner(ob);
        self.depth -= 1;
        r
    }

    fn expr_inner(&mut self, ob: bool) -> PResult<Expr> {
        let start = self.span();
        match self.tok().clone() {
            Tok::Kw("return") => {
                self.advance();
                let e = if self.starts_expr() {
                    Some(Box::new(self.expr(true)?))
                } else {
                    None
                };
                return Ok(self.mk(ExprKind::Return(e), start));
            }
            Tok::Kw("assert") => {
                self.advance();
                let e = self.expr_nest()?;
                return Ok(self.mk(ExprKind::Assert(Box::new(e)), start));
            }
            Tok::Kw("label") => {
                self.advance();
                let l = self.ident()?;
                let ty = if self.eat_op(":") {
                    Some(self.ty()?)
                } else {
                    None
                };
                let e = self.expr_nest()?;
                let label = self.mk(ExprKind::Label(l, Box::new(e)), start);
                // `label l : T e` is `(label l e) : T`: the type reaches `break l v` too
                return Ok(match ty {
                    Some(t) => self.mk(ExprKind::Annot(Box::new(label), t), start),
                    None => label,
                });
            }
            Tok::Kw("break") => {
                self.advance();
                let l = if matches!(self.tok(), Tok::Ident(_)) {
                    self.ident()?
                } else {
                    String::new()
                };
                let e = if self.at_op("(") || self.at_op("{") || self.literal_next() {
                    Some(Box::new(self.expr_nullary(true)?))
                } else {
                    None
                };
                return Ok(self.mk(ExprKind::Break(l, e), start));
            }
            // a declaration in expression position (`(let _ = 1) : ()`, the body of
            // `if c let ?x = o else return`): a block of it, of value `()`
            // (an `else` after it belongs to the enclosing `if`, as in moc)
            Tok::Kw("let") => {
                self.advance();
                let pat = self.pat()?;
                self.expect_op("=")?;
                let e = self.expr(true)?;
                let dec = Dec::Let(pat, e, None);
                let unit = self.mk(ExprKind::Tuple(Vec::new()), start);
                return Ok(self.mk(ExprKind::Block(vec![dec, Dec::Exp(unit)]), start));
            }
            Tok::Kw("continue") => {
                self.advance();
                let l = if matches!(self.tok(), Tok::Ident(_)) {
                    self.ident()?
                } else {
                    String::new()
                };
                return Ok(self.mk(ExprKind::Continue(l), start));
            }
            Tok::Kw("debug") => {
                self.advance();
                let e = self.expr_nest()?;
                return Ok(self.mk(ExprKind::Debug(Box::new(e)), start));
            }
            Tok::Kw("if") => {
                self.advance();
                let c = self.expr_nullary(true)?;
                let t = self.expr_nest()?;
                let e = if self.eat_kw("else") {
                    Some(Box::new(self.expr_nest()?))
                } else {
                    None
                };
                return Ok(self.mk(ExprKind::If(Box::new(c), Box::new(t), e), start));
            }
            Tok::Kw("switch") => {
                self.advance();
                let scrut = self.expr_nullary(true)?;
                self.expect_op("{")?;
                let mut cases = Vec::new();
                loop {
                    while self.eat_op(";") {}
                    if self.eat_op("}") {
                        break;
                    }
                    if !self.eat_kw("case") {
                        return Err(self.error("`case` or `}`"));
                    }
                    let pat = self.pat_un_or_annot()?;
                    let body = self.expr_nest()?;
                    cases.push(Case { pat, body });
                }
                return Ok(self.mk(ExprKind::Switch(Box::new(scrut), cases), start));
            }
            Tok::Kw("while") => {
                self.advance();
                let c = self.expr_nullary(true)?;
                let b = self.expr_nest()?;
                return Ok(self.mk(ExprKind::While(Box::new(c), Box::new(b)), start));
            }
            Tok::Kw("loop") => {
                self.advance();
                let b = self.expr_nest()?;
                let c = if self.eat_kw("while") {
                    Some(Box::new(self.expr_nest()?))
                } else {
                    None
                };
                return Ok(self.mk(ExprKind::Loop(Box::new(b), c), start));
            }
            Tok::Kw("for") => {
                self.advance();
                self.expect_op("(")?;
                let p = self.pat()?;
                if !self.eat_kw("in") {
                    return Err(self.error("`in`"));
                }
                let it = self.expr(true)?;
                self.expect_op(")")?;
                let b = self.expr_nest()?;
                return Ok(self.mk(ExprKind::For(p, Box::new(it), Box::new(b)), start));
            }
            Tok::Kw("ignore") => {
                self.advance();
                let e = self.expr_nest()?;
                return Ok(self.mk(ExprKind::Ignore(Box::new(e)), start));
            }
            Tok::Kw("do") => {
                self.advance();
                if self.eat_op("?") {
                    let b = self.block()?;
                    return Ok(self.mk(ExprKind::DoOpt(Box::new(b)), start));
                }
                let b = self.block()?;
                return Ok(self.mk(ExprKind::Do(Box::new(b)), start));
            }
            _ => {}
        }
        let lhs = self.expr_bin(0, ob)?;
        if self.at_op(":=") {
            self.advance();
            let rhs = self.expr(true)?;
            return Ok(self.mk(ExprKind::Assign(Box::new(lhs), Box::new(rhs)), start));
        }
        if let Tok::Op(op) = self.tok() {
            if let Some(bop) = assign_op(op) {
                self.advance();
                let rhs = self.expr(true)?;
                return Ok(self.mk(ExprKind::OpAssign(bop, Box::new(lhs), Box::new(rhs)), start));
            }
        }
        Ok(lhs)
    }

    /// Case patterns: nullary patterns, plus bare `#tag`, `?p` and negative literals.
    fn pat_un_or_annot(&mut self) -> PResult<Pat> {
        let start = self.span();
        if self.eat_op("#") {
            let tag = self.field_name()?;
            return Ok(Pat {
                kind: PatKind::Variant(tag, None),
                span: start.to(self.prev_span()),
            });
        }
        if self.eat_op("?") {
            let p = self.pat_nullary()?;
            return Ok(Pat {
                kind: PatKind::Opt(Box::new(p)),
                span: start.to(self.prev_span()),
            });
        }
        if self.at_op("-") {
            return self.pat_un();
        }
        self.pat_nullary()
    }

    fn literal_next(&self) -> bool {
        matches!(
            self.tok(),
            Tok::Nat(_) | Tok::Float(_) | Tok::Text(_) | Tok::Char(_)
        ) || matches!(self.tok(), Tok::Ident(_))
    }

    fn starts_expr(&self) -> bool {
        !matches!(
            self.tok(),
            Tok::Eof | Tok::Op(";") | Tok::Op("}") | Tok::Op(")") | Tok::Op("]") | Tok::Op(",")
        ) && !self.at_kw("else")
            && !self.at_kw("case")
    }

    fn expr_bin(&mut self, min_prec: u8, ob: bool) -> PResult<Expr> {
        let start = self.span();
        let mut lhs = self.expr_un(ob)?;
        let mut chain = 0usize;
        loop {
            chain += 1;
            if chain > MAX_CHAIN {
                return Err(SyntaxError::new(
                    self.span(),
                    format!("more than {MAX_CHAIN} operators in one expression"),
                ));
            }
            let (prec, op) = match self.tok() {
                Tok::Kw("or") => (1, None),
                Tok::Kw("and") => (2, None),
                Tok::Op(":" | "|>") => (0, None),
                Tok::Op(o) => match bin_op(o) {
                    Some((p, b)) => (p, Some(b)),
                    None => break,
                },
                _ => break,
            };
            if prec < min_prec {
                break;
            }
            if self.at_op(":") {
                if min_prec > 0 {
                    break;
                }
                self.advance();
                let t = self.ty()?;
                lhs = self.mk(ExprKind::Annot(Box::new(lhs), t), start);
                continue;
            }
            // `a |> f(_)`: the block `{ let _ = a; f(_) }` whose `_` is a variable (lowest
            // precedence, left associative, as in moc)
            if self.at_op("|>") {
                if min_prec > 0 {
                    break;
                }
                let at = self.span();
                self.advance();
                self.enter()?;
                let rhs = self.expr_bin(1, true);
                self.depth -= 1;
                let rhs = rhs?;
                let pat = Pat {
                    kind: PatKind::Var("_".to_string()),
                    span: at,
                };
                lhs = self.mk(
                    ExprKind::Block(vec![Dec::Let(pat, lhs, None), Dec::Exp(rhs)]),
                    start,
                );
                continue;
            }
            let is_or = self.at_kw("or");
            self.advance();
            self.enter()?;
            let rhs = self.expr_bin(prec + 1, true);
            self.depth -= 1;
            let rhs = rhs?;
            let kind = match op {
                Some(b) => ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)),
                None if is_or => ExprKind::Or(Box::new(lhs), Box::new(rhs)),
                None => ExprKind::And(Box::new(lhs), Box::new(rhs)),
            };
            lhs = self.mk(kind, start);
            if prec == 3 && matches!(self.tok(), Tok::Op(o) if matches!(bin_op(o), Some((3, _)))) {
                return Err(
                    self.error("an operator other than a comparison (comparisons do not chain)")
                );
            }
        }
        Ok(lhs)
    }

    fn expr_un(&mut self, ob: bool) -> PResult<Expr> {
        let start = self.span();
        let unary = |p: &mut Parser, k: fn(Box<Expr>) -> ExprKind| -> PResult<Expr> {
            p.advance();
            p.enter()?;
            let e = p.expr_un(true);
            p.depth -= 1;
            let e = e?;
            Ok(p.mk(k(Box::new(e)), start))
        };
        match self.tok().clone() {
            Tok::Op("-") => unary(self, |e| ExprKind::Unary(UnOp::Neg, e)),
            Tok::Op("+") => unary(self, |e| ExprKind::Unary(UnOp::Pos, e)),
            Tok::Op("^") => unary(self, |e| ExprKind::Unary(UnOp::BitNot, e)),
            Tok::Op("?") => unary(self, ExprKind::Opt),
            Tok::Kw("not") => unary(self, ExprKind::Not),
            Tok::Kw("debug_show") => unary(self, ExprKind::DebugShow),
            Tok::Op("#") => {
                self.advance();
                let tag = self.field_name()?;
                let arg = if self.at_op("(")
                    || self.at_op("{")
                    || self.at_op("[")
                    || self.literal_next()
                    || self.at_kw("null")
                    || self.at_kw("true")
                    || self.at_kw("false")
                {
                    Some(Box::new(self.expr_post(true)?))
                } else {
                    None
                };
                Ok(self.mk(ExprKind::Variant(tag, arg), start))
            }
            Tok::Kw("func")
                if matches!(self.tok_at(1), Tok::Ident(_))
                    && matches!(self.tok_at(2), Tok::Op("(" | "<")) =>
            {
                // a named function expression is a block declaring the function (visible in
                // its own body) whose value is the function, as in moc
                self.advance();
                let name = self.ident()?;
                let f = self.func_rest(Some(name), start)?;
                Ok(self.mk(ExprKind::Block(vec![Dec::Func(Rc::new(f))]), start))
            }
            Tok::Kw("func") => {
                self.advance();
                let f = self.func_rest(None, start)?;
                Ok(self.mk(ExprKind::Func(Rc::new(f)), start))
            }
            Tok::Kw(sort @ ("object" | "module"))
                if matches!(self.tok_at(1), Tok::Op("{" | "=" | ":")) =>
            {
                let module = sort == "module";
                self.advance();
                let annot = self.object_annot()?;
                let body = self.object_body(start)?;
                self.note_body_type(&body, annot, module);
                Ok(if module {
                    self.mk(ExprKind::Module(Box::new(body)), start)
                } else {
                    body
                })
            }
            _ => self.expr_post(ob),
        }
    }

    fn expr_post(&mut self, ob: bool) -> PResult<Expr> {
        let start = self.span();
        let mut e = if self.at_op("[") {
            self.advance();
            let m = self.eat_kw("var");
            let mut es = Vec::new();
            while !self.at_op("]") {
                es.push(self.expr(true)?);
                if !self.eat_op(",") {
                    break;
                }
            }
            self.expect_op("]")?;
            self.mk(ExprKind::Array(m, es), start)
        } else {
            self.expr_nullary(ob)?
        };
        let mut chain = 0usize;
        loop {
            chain += 1;
            if chain > MAX_CHAIN {
                return Err(SyntaxError::new(
                    self.span(),
                    format!("more than {MAX_CHAIN} postfix operations in one expression"),
                ));
            }
            if self.at_op("[") && !self.space_before() || self.at_op("[") && !self.starts_new_line()
            {
                self.advance();
                let i = self.expr(true)?;
                self.expect_op("]")?;
                e = self.mk(ExprKind::Index(Box::new(e), Box::new(i)), start);
            } else if self.at_op(".") {
                self.advance();
                match self.tok().clone() {
                    Tok::Nat(n) => {
                        self.advance();
                        let k = n
                            .parse::<usize>()
                            .map_err(|_| self.error("a tuple index"))?;
                        e = self.mk(ExprKind::Proj(Box::new(e), k), start);
                    }
                    _ => {
                        let name = self.field_name()?;
                        e = self.mk(ExprKind::Dot(Box::new(e), name), start);
                    }
                }
            } else if self.starts_arg() {
                let args = self.arg()?;
                e = self.mk(ExprKind::Call(Box::new(e), args), start);
            } else if self.at_op("<") && !self.space_before() {
                // explicit instantiation `f<T>(...)`: try, and fall back to `<`
                let save = self.i;
                self.advance();
                let mut targs = Vec::new();
                let ok = (|| -> PResult<bool> {
                    loop {
                        targs.push(self.ty()?);
                        if !self.eat_op(",") {
                            break;
                        }
                    }
                    self.close_angle()?;
                    Ok(self.starts_arg())
                })();
                if matches!(ok, Ok(true)) {
                    let args = self.arg()?;
                    e = self.mk(ExprKind::Call(Box::new(e), args), start);
                    self.type_args.push((e.span, targs));
                } else {
                    self.i = save;
                    break;
                }
            } else if self.at_op("!") {
                self.advance();
                e = self.mk(ExprKind::Bang(Box::new(e)), start);
            } else {
                break;
            }
        }
        Ok(e)
    }

    /// Whether the token at the cursor starts a function's argument (moc's `exp_arg`): a
    /// parenthesized or tuple expression, a record literal, a literal or a name. Applying a
    /// function by juxtaposition (`f x`, `g "t"`, `h {a = 1}`) continues across a line
    /// break, as in moc, except after a `}` that ends a line (there mo-mem accepts a missing
    /// `;`, so the next line starts a new declaration).
    fn starts_arg(&self) -> bool {
        let arg = matches!(
            self.tok(),
            Tok::Op("(" | "{" | "_")
                | Tok::Ident(_)
                | Tok::Nat(_)
                | Tok::Float(_)
                | Tok::Text(_)
                | Tok::Char(_)
                | Tok::Kw("true" | "false" | "null")
        );
        arg && !(self.starts_new_line()
            && matches!(self.toks[self.i.saturating_sub(1)].tok, Tok::Op("}")))
    }

    /// A function's argument (see [`Parser::starts_arg`]) as the call's arguments: the
    /// components of a parenthesized tuple, or the one argument.
    fn arg(&mut self) -> PResult<Vec<Expr>> {
        match self.tok() {
            Tok::Op("(") => self.call_args(),
            Tok::Op("{") => Ok(vec![self.record()?]),
            _ => Ok(vec![self.expr_nullary(true)?]),
        }
    }

    fn starts_new_line(&self) -> bool {
        let cur = self.span().start.line;
        cur != self.prev_span().end.line
    }

    fn call_args(&mut self) -> PResult<Vec<Expr>> {
        self.expect_op("(")?;
        let mut args = Vec::new();
        while !self.at_op(")") {
            args.push(self.expr(true)?);
            if !self.eat_op(",") {
                break;
            }
        }
        self.expect_op(")")?;
        Ok(args)
    }

    fn expr_nullary(&mut self, ob: bool) -> PResult<Expr> {
        let start = self.span();
        match self.tok().clone() {
            Tok::Ident(s) => {
                self.advance();
                Ok(self.mk(ExprKind::Var(s), start))
            }
            // the value piped in by `|>` (a variable named `_`, see `expr_bin`)
            Tok::Op("_") => {
                self.advance();
                Ok(self.mk(ExprKind::Var("_".to_string()), start))
            }
            Tok::Op("(") => {
                self.advance();
                let mut es = Vec::new();
                let mut trailing = false;
                while !self.at_op(")") {
                    es.push(self.expr(true)?);
                    trailing = false;
                    if !self.eat_op(",") {
                        break;
                    }
                    trailing = true;
                }
                self.expect_op(")")?;
                if es.is_empty() {
                    return Ok(self.mk(ExprKind::Lit(Lit::Unit), start));
                }
                if es.len() == 1 && !trailing {
                    return Ok(es.remove(0));
                }
                Ok(self.mk(ExprKind::Tuple(es), start))
            }
            Tok::Op("{") => {
                if self.surely_record() || ob && self.looks_like_record() {
                    self.record()
                } else {
                    self.block()
                }
            }
            Tok::Op("[") => self.expr_post(ob),
            _ => match self.literal() {
                Some(lit) => {
                    let lit = lit?;
                    Ok(self.mk(ExprKind::Lit(lit), start))
                }
                None => Err(self.error("an expression")),
            },
        }
    }

    /// A `{` that can only open a record: `{ x = `, `{ x : T = `, `{ var x = e; y = `.
    fn surely_record(&self) -> bool {
        match (self.tok_at(1), self.tok_at(2)) {
            (Tok::Ident(_), Tok::Op("=")) | (Tok::Ident(_), Tok::Op(":")) => true,
            (Tok::Kw("var"), Tok::Ident(_)) => {
                match self.brace_scan(|t| matches!(t, Tok::Op(";"))) {
                    Some((k, Tok::Op(";"))) => {
                        let next = self.toks.get(k + 1).map(|t| &t.tok);
                        let next2 = self.toks.get(k + 2).map(|t| &t.tok);
                        matches!(
                            (next, next2),
                            (Some(Tok::Ident(_)), Some(Tok::Op("=")))
                                | (Some(Tok::Kw("var")), _)
                                | (Some(Tok::Op("}")), _)
                        )
                    }
                    // The closing `}`: `{ var x = e }`.
                    Some(_) => true,
                    None => false,
                }
            }
            _ => false,
        }
    }

    /// The first token inside the `{` at the cursor, at its bracket depth, that `stop`
    /// accepts, or its closing `}` (with their index); `None` at the end of input.
    fn brace_scan(&self, stop: impl Fn(&Tok) -> bool) -> Option<(usize, &Tok)> {
        let mut depth = 0i32;
        for (k, t) in self.toks.iter().enumerate().skip(self.i + 1) {
            match &t.tok {
                Tok::Op("(") | Tok::Op("[") | Tok::Op("{") => depth += 1,
                Tok::Op(")") | Tok::Op("]") => depth -= 1,
                Tok::Op("}") if depth == 0 => return Some((k, &t.tok)),
                Tok::Op("}") => depth -= 1,
                Tok::Eof => return None,
                tok if depth == 0 && stop(tok) => return Some((k, tok)),
                _ => {}
            }
        }
        None
    }

    /// Decides whether a `{` in expression position opens a record literal.
    fn looks_like_record(&mut self) -> bool {
        match (self.tok_at(1), self.tok_at(2)) {
            (Tok::Op("}"), _) => true,
            (Tok::Ident(_), Tok::Op("=")) => true,
            (Tok::Ident(_), Tok::Op(";")) | (Tok::Ident(_), Tok::Op("}")) => true,
            (Tok::Kw(_), _) => false,
            _ => {
                // `{ e with ... }`, `{ a and b with ... }`, `{ a and b }`: look for `with` or
                // `and` at depth 0 (before any `;`)
                matches!(
                    self.brace_scan(|t| matches!(t, Tok::Op(";") | Tok::Kw("with" | "and"))),
                    Some((_, Tok::Kw("with" | "and")))
                )
            }
        }
    }

    fn record(&mut self) -> PResult<Expr> {
        let start = self.span();
        self.expect_op("{")?;
        let mut bases = Vec::new();
        // bases: `{ a and b with ...}`
        if !matches!(
            (self.tok(), self.tok_at(1)),
            (Tok::Ident(_), Tok::Op("="))
                | (Tok::Ident(_), Tok::Op(";"))
                | (Tok::Ident(_), Tok::Op("}"))
                | (Tok::Ident(_), Tok::Op(":"))
                | (Tok::Kw("var"), _)
                | (Tok::Op("}"), _)
        ) {
            loop {
                bases.push(self.expr_post(true)?);
                if !self.eat_kw("and") {
                    break;
                }
            }
            // `{ a and b }` combines records without new fields
            if bases.len() > 1 && self.at_op("}") {
                self.advance();
                return Ok(self.mk(ExprKind::Record(bases, Vec::new()), start));
            }
            if !self.eat_kw("with") {
                return Err(self.error(if bases.len() > 1 {
                    "`and`, `with` or `}`"
                } else {
                    "`and` or `with`"
                }));
            }
            if self.at_op("}") {
                return Err(self.error("a field after `with`"));
            }
        }
        let mut fields = Vec::new();
        while !self.at_op("}") {
            let m = self.eat_kw("var");
            let fstart = self.span();
            let name = self.field_name()?;
            let ty = if self.eat_op(":") {
                Some(self.ty()?)
            } else {
                None
            };
            let value = if self.eat_op("=") {
                self.expr(true)?
            } else {
                Expr {
                    kind: ExprKind::Var(name.clone()),
                    span: fstart,
                }
            };
            fields.push(FieldExp {
                mutable: m,
                name,
                ty,
                value,
                alias: false,
            });
            if !self.eat_op(";") {
                break;
            }
        }
        self.expect_op("}")?;
        Ok(self.mk(ExprKind::Record(bases, fields), start))
    }
}

fn bin_op(op: &str) -> Option<(u8, BinOp)> {
    Some(match op {
        "==" => (3, BinOp::Eq),
        "!=" => (3, BinOp::Ne),
        "<" => (3, BinOp::Lt),
        "<=" => (3, BinOp::Le),
        ">" => (3, BinOp::Gt),
        ">=" => (3, BinOp::Ge),
        "+" => (4, BinOp::Add),
        "-" => (4, BinOp::Sub),
        "+%" => (4, BinOp::AddWrap),
        "-%" => (4, BinOp::SubWrap),
        "#" => (4, BinOp::Cat),
        "*" => (5, BinOp::Mul),
        "/" => (5, BinOp::Div),
        "%" => (5, BinOp::Rem),
        "*%" => (5, BinOp::MulWrap),
        "|" => (6, BinOp::Or),
        "&" => (7, BinOp::And),
        "^" => (8, BinOp::Xor),
        "<<" => (9, BinOp::Shl),
        ">>" => (9, BinOp::Shr),
        "<<>" => (9, BinOp::Rotl),
        "<>>" => (9, BinOp::Rotr),
        "**" => (10, BinOp::Pow),
        "**%" => (10, BinOp::PowWrap),
        _ => return None,
    })
}

fn assign_op(op: &str) -> Option<BinOp> {
    Some(match op {
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "*=" => BinOp::Mul,
        "/=" => BinOp::Div,
        "%=" => BinOp::Rem,
        "**=" => BinOp::Pow,
        "+%=" => BinOp::AddWrap,
        "-%=" => BinOp::SubWrap,
        "*%=" => BinOp::MulWrap,
        "**%=" => BinOp::PowWrap,
        "&=" => BinOp::And,
        "|=" => BinOp::Or,
        "^=" => BinOp::Xor,
        "<<=" => BinOp::Shl,
        ">>=" => BinOp::Shr,
        "<<>=" => BinOp::Rotl,
        "<>>=" => BinOp::Rotr,
        "#=" => BinOp::Cat,
        _ => return None,
    })
}

/// Parses a float literal as written (decimal, exponent; underscores already removed).
pub fn parse_float(s: &str) -> Option<f64> {
    s.parse::<f64>().ok()
}

/// The variables a pattern binds, with where each is bound.
fn pat_names(pat: &Pat, out: &mut Vec<Binding>) {
    match &pat.kind {
        PatKind::Var(name) => out.push((name.clone(), pat.span)),
        PatKind::Wild | PatKind::Lit(..) => {}
        PatKind::Tuple(ps) => ps.iter().for_each(|p| pat_names(p, out)),
        PatKind::Opt(p) | PatKind::Annot(p, _) => pat_names(p, out),
        PatKind::Variant(_, p) => p.iter().for_each(|p| pat_names(p, out)),
        PatKind::Record(fields) => fields.iter().for_each(|(_, p)| pat_names(p, out)),
        PatKind::Or(p, _) => pat_names(p, out),
    }
}

/// Makes an object body (a block ending in the record of its public fields) bind the
/// object to `name` (a class's `= self`): the record is bound, then returned, so the
/// methods see it (they run after the body).
fn bind_self(body: &mut Expr, name: String) {
    let ExprKind::Block(decs) = &mut body.kind else {
        return;
    };
    let Some(Dec::Exp(record)) = decs.pop() else {
        return;
    };
    let span = record.span;
    let pat = Pat {
        kind: PatKind::Var(name.clone()),
        span,
    };
    decs.push(Dec::Let(pat, record, None));
    decs.push(Dec::Exp(Expr {
        kind: ExprKind::Var(name),
        span,
    }));
}
