//! Recursive-descent parser for the `motoko:stable-types` signature text.

use std::collections::HashMap;
use std::sync::Arc;

use super::ast::{Field, FuncSort, FuncType, ObjSort, Prim, Tag, Type};
use super::lexer::{tokenize, Spanned, Tok};
use super::signature::{Alias, StableSignature, StableVar, TypeEnv, VarKind};
use super::{label_hash, TypeError};

/// Maximum nesting depth of types in a signature (bounds the parser's recursion).
pub const MAX_TYPE_DEPTH: u32 = 200;

/// A use of an alias name, checked once all aliases are known.
struct AliasRef {
    name: Arc<str>,
    arity: usize,
    line: u32,
    col: u32,
}

struct Parser {
    toks: Vec<Spanned>,
    pos: usize,
    depth: u32,
    scope: Vec<Arc<str>>,
    refs: Vec<AliasRef>,
}

/// Parses a complete stable signature (`// Version: …`, `type` aliases, then the `actor`).
pub fn parse_signature(src: &str) -> Result<StableSignature, TypeError> {
    let version = src.lines().find_map(|l| {
        l.trim()
            .strip_prefix("//")
            .map(str::trim)
            .and_then(|l| l.strip_prefix("Version:"))
            .map(|v| v.trim().to_string())
    });
    let mut p = Parser::new(src)?;
    let mut aliases: HashMap<Arc<str>, Alias> = HashMap::new();
    loop {
        if p.eat_ident("type") {
            let (line, col) = p.here();
            let name = p.ident()?;
            let params = if p.peek_sym("<") {
                p.type_params()?
            } else {
                Vec::new()
            };
            p.expect_sym("=")?;
            p.scope = params.clone();
            let body = p.typ()?;
            p.scope.clear();
            p.expect_sym(";")?;
            if aliases.contains_key(&name) {
                return Err(syntax(line, col, format!("type `{name}` declared twice")));
            }
            aliases.insert(
                name.clone(),
                Alias {
                    params,
                    body: Arc::new(body),
                },
            );
        } else if p.eat_ident("actor") {
            break;
        } else {
            return Err(p.unexpected("`type` or `actor`"));
        }
    }
    let (pre, vars) = if p.eat_sym("(") {
        let pre = p.stable_fields()?;
        p.expect_sym(",")?;
        let post = p.stable_fields()?;
        p.expect_sym(")")?;
        (Some(pre), post)
    } else {
        (None, p.stable_fields()?)
    };
    p.eat_sym(";");
    if p.peek() != &Tok::Eof {
        return Err(p.unexpected("the end of the signature"));
    }
    for r in &p.refs {
        match aliases.get(&r.name) {
            None => {
                return Err(TypeError::UnknownType {
                    name: r.name.to_string(),
                    line: r.line,
                    col: r.col,
                })
            }
            Some(a) if a.params.len() != r.arity => {
                return Err(TypeError::Arity {
                    name: r.name.to_string(),
                    expected: a.params.len(),
                    got: r.arity,
                    line: r.line,
                    col: r.col,
                })
            }
            Some(_) => {}
        }
    }
    Ok(StableSignature {
        version,
        env: TypeEnv::new(aliases),
        vars,
        pre,
    })
}

/// Parses one type in Motoko syntax with no aliases in scope (primitives and structure only;
/// alias names are accepted unchecked).
pub fn parse_type(src: &str) -> Result<Type, TypeError> {
    let mut p = Parser::new(src)?;
    let t = p.typ()?;
    if p.peek() != &Tok::Eof {
        return Err(p.unexpected("the end of the type"));
    }
    Ok(t)
}

fn syntax(line: u32, col: u32, msg: String) -> TypeError {
    TypeError::Syntax { line, col, msg }
}

impl Parser {
    fn new(src: &str) -> Result<Parser, TypeError> {
        Ok(Parser {
            toks: tokenize(src)?,
            pos: 0,
            depth: 0,
            scope: Vec::new(),
            refs: Vec::new(),
        })
    }

    fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    fn peek_at(&self, k: usize) -> &Tok {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[(self.pos + k).min(last)].tok
    }

    fn here(&self) -> (u32, u32) {
        let last = self.toks.len().saturating_sub(1);
        let t = &self.toks[self.pos.min(last)];
        (t.line, t.col)
    }

    fn bump(&mut self) {
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
    }

    fn unexpected(&self, wanted: &str) -> TypeError {
        let (line, col) = self.here();
        let found = match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Eof => "the end of the text".to_string(),
        };
        syntax(line, col, format!("expected {wanted}, found {found}"))
    }

    fn peek_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }

    fn peek_ident(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Ident(x) if x == s)
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        if self.peek_sym(s) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_ident(&mut self, s: &str) -> bool {
        if self.peek_ident(s) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect_sym(&mut self, s: &str) -> Result<(), TypeError> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{s}`")))
        }
    }

    fn ident(&mut self) -> Result<Arc<str>, TypeError> {
        match self.peek() {
            Tok::Ident(s) => {
                let s: Arc<str> = Arc::from(s.as_str());
                self.bump();
                Ok(s)
            }
            _ => Err(self.unexpected("a name")),
        }
    }

    fn enter(&mut self) -> Result<(), TypeError> {
        if self.depth >= MAX_TYPE_DEPTH {
            let (line, col) = self.here();
            return Err(TypeError::TooDeep {
                max: MAX_TYPE_DEPTH,
                line,
                col,
            });
        }
        self.depth += 1;
        Ok(())
    }

    /// `<A, B <: T, …>`: type parameter names (bounds are parsed and dropped).
    fn type_params(&mut self) -> Result<Vec<Arc<str>>, TypeError> {
        self.expect_sym("<")?;
        let mut params = Vec::new();
        if self.eat_sym(">") {
            return Ok(params);
        }
        loop {
            params.push(self.ident()?);
            if self.eat_sym("<:") {
                let saved = self.scope.len();
                self.scope.extend(params.iter().cloned());
                self.typ()?;
                self.scope.truncate(saved);
            }
            if self.eat_sym(",") {
                continue;
            }
            self.expect_sym(">")?;
            return Ok(params);
        }
    }

    /// The fields of the actor: `stable var x : T; stable y : U; in var z : V`.
    fn stable_fields(&mut self) -> Result<Vec<StableVar>, TypeError> {
        self.expect_sym("{")?;
        let mut vars = Vec::new();
        while !self.eat_sym("}") {
            let in_only = if self.eat_ident("stable") {
                false
            } else {
                self.eat_ident("in")
            };
            let kind = if self.eat_ident("var") {
                VarKind::Var
            } else {
                // moc writes stable lets as `stable x : T`; accept `let` too.
                if matches!(self.peek_at(1), Tok::Ident(_)) {
                    self.eat_ident("let");
                }
                VarKind::Let
            };
            let name = self.ident()?;
            self.expect_sym(":")?;
            let ty = Arc::new(self.typ()?);
            vars.push(StableVar {
                name,
                kind,
                in_only,
                ty,
            });
            if !self.eat_sym(";") && !self.peek_sym("}") {
                return Err(self.unexpected("`;` or `}`"));
            }
        }
        Ok(vars)
    }

    /// A full type, including function types.
    fn typ(&mut self) -> Result<Type, TypeError> {
        self.enter()?;
        let r = self.typ_inner();
        self.depth -= 1;
        r
    }

    fn typ_inner(&mut self) -> Result<Type, TypeError> {
        let sort = if self.eat_ident("shared") {
            if self.eat_ident("query") {
                Some(FuncSort::Query)
            } else if self.eat_ident("composite") {
                if !self.eat_ident("query") {
                    return Err(self.unexpected("`query`"));
                }
                Some(FuncSort::CompositeQuery)
            } else {
                Some(FuncSort::Shared)
            }
        } else if self.peek_ident("stable")
            && matches!(
                self.peek_at(1),
                Tok::Sym("(") | Tok::Sym("<") | Tok::Ident(_)
            )
        {
            self.bump();
            Some(FuncSort::Stable)
        } else {
            None
        };
        let type_params = if self.peek_sym("<") {
            self.type_params()?
        } else {
            Vec::new()
        };
        let saved = self.scope.len();
        self.scope.extend(type_params.iter().cloned());
        let r = self.func_rest(sort, type_params);
        self.scope.truncate(saved);
        r
    }

    fn func_rest(
        &mut self,
        sort: Option<FuncSort>,
        type_params: Vec<Arc<str>>,
    ) -> Result<Type, TypeError> {
        let arg = self.typ_un()?;
        if self.eat_sym("->") {
            let result = self.typ()?;
            return Ok(Type::Func(Box::new(FuncType {
                sort: sort.unwrap_or(FuncSort::Local),
                type_params,
                arg: Arc::new(arg),
                result: Arc::new(result),
            })));
        }
        if sort.is_some() || !type_params.is_empty() {
            return Err(self.unexpected("`->`"));
        }
        Ok(arg)
    }

    /// Prefix forms: `?T`, `weak T`, `async T`, `async* T`.
    fn typ_un(&mut self) -> Result<Type, TypeError> {
        self.enter()?;
        let r = if self.eat_sym("?") {
            self.typ_un().map(|t| Type::Opt(Arc::new(t)))
        } else if self.peek_ident("weak") && !matches!(self.peek_at(1), Tok::Sym("<")) {
            self.bump();
            self.typ_un().map(|t| Type::Weak(Arc::new(t)))
        } else if self.peek_ident("async") {
            self.bump();
            self.eat_sym("*");
            self.typ_un().map(|t| Type::Async(Arc::new(t)))
        } else {
            self.typ_nullary()
        };
        self.depth -= 1;
        r
    }

    fn typ_nullary(&mut self) -> Result<Type, TypeError> {
        if self.eat_sym("(") {
            return self.tuple_rest();
        }
        if self.eat_sym("[") {
            let mutable = self.eat_ident("var");
            let elem = Arc::new(self.typ()?);
            self.expect_sym("]")?;
            return Ok(Type::Array { mutable, elem });
        }
        if self.peek_sym("{") {
            return self.object_or_variant(ObjSort::Object);
        }
        for (kw, sort) in [
            ("actor", ObjSort::Actor),
            ("module", ObjSort::Module),
            ("object", ObjSort::Object),
        ] {
            if self.peek_ident(kw) && matches!(self.peek_at(1), Tok::Sym("{")) {
                self.bump();
                return self.object_or_variant(sort);
            }
        }
        let (line, col) = self.here();
        let mut name = self.ident()?;
        while self.peek_sym(".") && matches!(self.peek_at(1), Tok::Ident(_)) {
            self.bump();
            let next = self.ident()?;
            name = Arc::from(format!("{name}.{next}"));
        }
        let mut args = Vec::new();
        if self.eat_sym("<") && !self.eat_sym(">") {
            loop {
                args.push(Arc::new(self.typ()?));
                if self.eat_sym(",") {
                    continue;
                }
                self.expect_sym(">")?;
                break;
            }
        }
        if args.is_empty() {
            if self.scope.contains(&name) {
                return Ok(Type::Var(name));
            }
            if let Some(p) = Prim::from_name(&name) {
                return Ok(Type::Prim(p));
            }
        }
        self.refs.push(AliasRef {
            name: name.clone(),
            arity: args.len(),
            line,
            col,
        });
        Ok(Type::Con { name, args })
    }

    /// After `(`: `()`, `(T)`, `(T,)`, `(A, B)`, with optional `name :` before each item.
    fn tuple_rest(&mut self) -> Result<Type, TypeError> {
        let mut items = Vec::new();
        let mut trailing_comma = false;
        while !self.eat_sym(")") {
            if matches!(self.peek(), Tok::Ident(_)) && matches!(self.peek_at(1), Tok::Sym(":")) {
                self.bump();
                self.bump();
            }
            items.push(Arc::new(self.typ()?));
            trailing_comma = self.eat_sym(",");
            if !trailing_comma && !self.peek_sym(")") {
                return Err(self.unexpected("`,` or `)`"));
            }
        }
        if items.len() == 1 && !trailing_comma {
            if let Some(t) = items.pop() {
                return Ok(Arc::unwrap_or_clone(t));
            }
        }
        Ok(Type::Tuple(items))
    }

    /// `{…}` after an optional sort keyword: a record/object type or a variant type.
    fn object_or_variant(&mut self, sort: ObjSort) -> Result<Type, TypeError> {
        self.expect_sym("{")?;
        if self.peek_sym("#") {
            if sort != ObjSort::Object {
                return Err(self.unexpected("a field"));
            }
            return self.variant_rest();
        }
        let mut fields: Vec<Field> = Vec::new();
        while !self.eat_sym("}") {
            if self.eat_ident("type") {
                // A type component of a module type: skip `Name<…> = T`.
                self.ident()?;
                let params = if self.peek_sym("<") {
                    self.type_params()?
                } else {
                    Vec::new()
                };
                self.expect_sym("=")?;
                let saved = self.scope.len();
                self.scope.extend(params);
                self.typ()?;
                self.scope.truncate(saved);
            } else {
                let mutable = self.peek_ident("var")
                    && matches!(self.peek_at(1), Tok::Ident(_))
                    && matches!(self.peek_at(2), Tok::Sym(":"));
                if mutable {
                    self.bump();
                }
                let label = self.ident()?;
                self.expect_sym(":")?;
                let ty = Arc::new(self.typ()?);
                fields.push(Field {
                    hash: label_hash(&label),
                    label,
                    mutable,
                    ty,
                });
            }
            if !self.eat_sym(";") && !self.peek_sym("}") {
                return Err(self.unexpected("`;` or `}`"));
            }
        }
        Ok(Type::Object {
            sort,
            fields: fields.into(),
        })
    }

    fn variant_rest(&mut self) -> Result<Type, TypeError> {
        let mut tags: Vec<Tag> = Vec::new();
        if self.eat_sym("#") && self.eat_sym("}") {
            return Ok(Type::Variant(tags.into()));
        }
        // The first `#` was consumed above (if it was not `{#}`).
        loop {
            let label = self.ident()?;
            let ty = if self.eat_sym(":") {
                Arc::new(self.typ()?)
            } else {
                Arc::new(Type::unit())
            };
            tags.push(Tag {
                hash: label_hash(&label),
                label,
                ty,
            });
            if self.eat_sym("}") {
                break;
            }
            if !self.eat_sym(";") {
                return Err(self.unexpected("`;` or `}`"));
            }
            if self.eat_sym("}") {
                break;
            }
            if !self.eat_sym("#") {
                return Err(self.unexpected("`#`"));
            }
        }
        Ok(Type::Variant(tags.into()))
    }
}
