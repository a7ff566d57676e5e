//! A small, type-directed generator of Motoko programs in mo-mem's script subset.
//!
//! Each program is a list of top-level statements (so that a failing program can be shrunk
//! by removing statements). Expressions are generated for an expected type from literals,
//! variables, operators, conditionals, blocks, option and variant switches, records (fields
//! written in a random order, with side effects that record evaluation order), arrays,
//! tuples, annotations (which make `Nat` values `Int`), records shown through a narrower
//! record type, calls of generated functions, labeled blocks left with a value and calls of
//! generic functions; statements add objects, classes, modules, generic functions and types
//! and nested-pattern switches ([`super::gen_objects`]).
//! A global `o : Text` collects the side effects and is printed last.

use fastrand::Rng;

/// The number of leading statements every program has (the import and `var o`). Only
/// `Debug` is imported: each import costs moc's interpreter most of a second per program.
pub const IMPORTS: usize = 2;

/// A Motoko type the generator produces values of.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Nat,
    Int,
    Bool,
    Text,
    Nat8,
    Int32,
    Char,
    Float,
    Tuple(Box<Ty>, Box<Ty>),
    Opt(Box<Ty>),
    Array(Box<Ty>),
    Record(Vec<(String, Ty)>),
    Variant(Vec<(String, Option<Ty>)>),
}

impl Ty {
    /// The type as Motoko source.
    pub fn src(&self) -> String {
        match self {
            Ty::Nat => "Nat".into(),
            Ty::Int => "Int".into(),
            Ty::Bool => "Bool".into(),
            Ty::Text => "Text".into(),
            Ty::Nat8 => "Nat8".into(),
            Ty::Int32 => "Int32".into(),
            Ty::Char => "Char".into(),
            Ty::Float => "Float".into(),
            Ty::Tuple(a, b) => format!("({}, {})", a.src(), b.src()),
            Ty::Opt(t) => format!("?{}", t.src()),
            Ty::Array(t) => format!("[{}]", t.src()),
            Ty::Record(fs) => {
                let fs: Vec<String> = fs
                    .iter()
                    .map(|(n, t)| format!("{n} : {}", t.src()))
                    .collect();
                format!("{{ {} }}", fs.join("; "))
            }
            Ty::Variant(cs) => {
                let cs: Vec<String> = cs
                    .iter()
                    .map(|(n, t)| match t {
                        Some(t) => format!("#{n} : {}", t.src()),
                        None => format!("#{n}"),
                    })
                    .collect();
                format!("{{ {} }}", cs.join("; "))
            }
        }
    }
}

pub(super) struct Binding {
    pub(super) name: String,
    pub(super) ty: Ty,
    pub(super) mutable: bool,
}

pub(super) struct Func {
    pub(super) name: String,
    pub(super) params: Vec<Ty>,
    pub(super) ret: Ty,
}

/// The generator's state for one program.
pub struct Gen {
    pub(super) rng: Rng,
    pub(super) env: Vec<Binding>,
    pub(super) funcs: Vec<Func>,
    /// Generic functions declared so far (see `gen_objects`).
    pub(super) generics: Vec<super::gen_objects::Generic>,
    pub(super) next: usize,
}

const TEXTS: &[&str] = &[
    "",
    "a",
    "hello",
    "Motoko",
    "x y",
    "\\u{e9}t\\u{e9}",
    "\\\"q\\\"",
    "tab\\t",
    "\\u{1F600}",
];
/// Float literals: specials (NaNs of both signs, infinities, `-0.0`, a subnormal) beside
/// ordinary values, so that operators meet every kind of operand.
const FLOATS: &[&str] = &[
    "0.0",
    "-0.0",
    "1.5",
    "0.1",
    "-2.5",
    "3.0",
    "1e300",
    "4.9e-324",
    "(0.0 / 0.0)",
    "(-(0.0 / 0.0))",
    "(1.0 / 0.0)",
    "(-1.0 / 0.0)",
];
/// The exponents of generated `**` on Float: `pow` special-cases them (or the result is a
/// NaN, an infinity or 1), so moc's JavaScript `Math.pow` and the C library agree to the bit.
const POW_EXPONENTS: &[&str] = &[
    "0.0",
    "-0.0",
    "1.0",
    "-1.0",
    "2.0",
    "0.5",
    "(0.0 / 0.0)",
    "(-(0.0 / 0.0))",
    "(1.0 / 0.0)",
    "(-1.0 / 0.0)",
];
const CHARS: &[&str] = &[
    "'a'",
    "'Z'",
    "'0'",
    "' '",
    "'\\u{e9}'",
    "'\\n'",
    "'\\u{1F600}'",
];

impl Gen {
    /// A generator seeded with `seed` (the same seed gives the same program).
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng::with_seed(seed),
            env: Vec::new(),
            funcs: Vec::new(),
            generics: Vec::new(),
            next: 0,
        }
    }

    /// A whole program: imports, `var o`, then `statements` top-level statements.
    pub fn program(&mut self, statements: usize) -> Vec<String> {
        let mut out = vec![
            "import Debug \"mo:core/Debug\";".to_string(),
            "var o = \"\";".to_string(),
        ];
        for _ in 0..statements {
            let s = self.statement();
            out.push(s);
        }
        out.push("Debug.print(o);".to_string());
        out
    }

    /// A fresh variable of type `ty` in scope from now on; its name.
    pub(super) fn bind(&mut self, prefix: &str, ty: Ty, mutable: bool) -> String {
        let name = self.fresh(prefix);
        self.env.push(Binding {
            name: name.clone(),
            ty,
            mutable,
        });
        name
    }

    pub(super) fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    pub(super) fn ty(&mut self, depth: u32) -> Ty {
        let scalar = [
            Ty::Nat,
            Ty::Int,
            Ty::Bool,
            Ty::Text,
            Ty::Nat8,
            Ty::Int32,
            Ty::Char,
            Ty::Float,
        ];
        if depth == 0 || self.rng.u32(0..10) < 6 {
            return scalar[self.rng.usize(0..scalar.len())].clone();
        }
        match self.rng.u32(0..5) {
            0 => Ty::Tuple(Box::new(self.ty(depth - 1)), Box::new(self.ty(depth - 1))),
            1 => Ty::Opt(Box::new(self.ty(depth - 1))),
            2 => Ty::Array(Box::new(self.ty(depth - 1))),
            3 => {
                let n = self.rng.usize(1..4);
                let names = ["a", "b", "c", "d"];
                Ty::Record(
                    (0..n)
                        .map(|i| (names[i].to_string(), self.ty(depth - 1)))
                        .collect(),
                )
            }
            _ => {
                let n = self.rng.usize(1..4);
                let names = ["red", "green", "blue", "grey"];
                Ty::Variant(
                    (0..n)
                        .map(|i| {
                            let payload = if self.rng.bool() {
                                Some(self.ty(depth - 1))
                            } else {
                                None
                            };
                            (names[i].to_string(), payload)
                        })
                        .collect(),
                )
            }
        }
    }

    fn statement(&mut self) -> String {
        let globals_mut: Vec<(String, Ty)> = self
            .env
            .iter()
            .filter(|b| b.mutable)
            .map(|b| (b.name.clone(), b.ty.clone()))
            .collect();
        match self.rng.u32(0..22) {
            16 => self.object(),
            17 => self.class(),
            18 => self.module(),
            19 => self.generic(),
            20 => self.nested_switch(),
            21 => self.generic_type(),
            12 => self.var_array(),
            13 => self.labeled_loop(),
            14 => self.literal_switch(),
            15 => self.closure(),
            0..=2 => {
                let ty = self.ty(2);
                let e = self.expr(&ty, 3);
                let name = self.bind("x", ty.clone(), false);
                format!("let {name} : {} = {e};", ty.src())
            }
            3 => {
                let ty = self.ty(1);
                let e = self.expr(&ty, 3);
                let name = self.bind("v", ty.clone(), true);
                format!("var {name} : {} = {e};", ty.src())
            }
            4 if !globals_mut.is_empty() => {
                let (name, ty) = globals_mut[self.rng.usize(0..globals_mut.len())].clone();
                let e = self.expr(&ty, 3);
                match ty {
                    Ty::Nat | Ty::Int if self.rng.bool() => format!("{name} += {e};"),
                    Ty::Text if self.rng.bool() => format!("{name} #= {e};"),
                    _ => format!("{name} := {e};"),
                }
            }
            5 => self.func(),
            6 => {
                let c = self.expr(&Ty::Bool, 2);
                let a = self.print();
                let b = self.print();
                format!("if ({c}) {{ {a} }} else {{ {b} }};")
            }
            7 => {
                let ty = self.ty(1);
                let xs: Vec<String> = (0..self.rng.usize(0..4))
                    .map(|_| self.expr(&ty, 2))
                    .collect();
                let v = self.bind("e", ty.clone(), false);
                let body = self.print();
                self.env.pop();
                format!(
                    "for ({v} in ([{}] : [{}]).vals()) {{ {body} }};",
                    xs.join(", "),
                    ty.src()
                )
            }
            8 => {
                let i = self.bind("i", Ty::Nat, false);
                let body = self.print();
                self.env.pop();
                format!("do {{ var {i} = 0; while ({i} < 3) {{ {body} {i} += 1 }} }};")
            }
            _ => self.print(),
        }
    }

    /// A mutable array, an element assigned with side effects in the array, index and value
    /// (moc evaluates them in that order), then the array printed.
    fn var_array(&mut self) -> String {
        let ty = self.ty(1);
        let n = self.rng.usize(1..4);
        let xs: Vec<String> = (0..n).map(|_| self.expr(&ty, 2)).collect();
        let a = self.fresh("arr");
        let i = self.rng.usize(0..n + 1); // n is out of bounds: a trap
        let v = self.expr(&ty, 2);
        format!(
            "let {a} : [var {t}] = [var {xs}]; (do {{ o #= \"a,\"; {a} }})[do {{ o #= \"i,\"; {i} }}] := (do {{ o #= \"v,\"; {v} }}); Debug.print(debug_show ({a} : [var {t}]));",
            t = ty.src(),
            xs = xs.join(", ")
        )
    }

    /// A labeled loop left by `break` from inside a nested block, and `continue`.
    fn labeled_loop(&mut self) -> String {
        let l = self.fresh("l");
        let i = self.bind("k", Ty::Nat, false);
        let body = self.print();
        self.env.pop();
        let stop = self.rng.u32(0..5);
        format!(
            "label {l} for ({i} in [0, 1, 2, 3, 4, 5].vals()) {{ if ({i} == {stop}) {{ break {l} }}; if ({i} % 2 == 1) {{ continue {l} }}; {body} }};"
        )
    }

    /// A switch with literal, option, tuple and wildcard patterns.
    fn literal_switch(&mut self) -> String {
        let (ty, cases) = match self.rng.u32(0..3) {
            0 => (Ty::Nat, vec!["0".to_string(), "1".into(), "7".into()]),
            1 => (
                Ty::Text,
                vec!["\"\"".to_string(), "\"a\"".into(), "\"hello\"".into()],
            ),
            _ => (Ty::Char, vec!["'a'".to_string(), "' '".into()]),
        };
        let scrut = self.expr(&ty, 2);
        let arms: Vec<String> = cases
            .iter()
            .enumerate()
            .map(|(k, c)| format!("case ({c}) {{ o #= \"case{k},\" }}"))
            .collect();
        format!(
            "switch ({scrut}) {{ {}; case _ {{ o #= \"other,\" }} }};",
            arms.join("; ")
        )
    }

    /// A closure over a variable, called twice after the variable changed.
    fn closure(&mut self) -> String {
        let c = self.fresh("c");
        let g = self.fresh("g");
        let x = self.fresh("y");
        let k = self.rng.u32(0..50);
        format!(
            "var {c} = {k}; let {g} = func ({x} : Nat) : Nat {{ {x} * 2 + {c} }}; Debug.print(debug_show {g}(1)); {c} += 10; Debug.print(debug_show {g}(2));"
        )
    }

    pub(super) fn print(&mut self) -> String {
        let ty = self.ty(2);
        let e = self.expr(&ty, 3);
        format!("Debug.print(debug_show ({e} : {}));", ty.src())
    }

    fn func(&mut self) -> String {
        let name = self.fresh("f");
        let params: Vec<Ty> = (0..self.rng.usize(0..3)).map(|_| self.ty(1)).collect();
        let ret = self.ty(1);
        let mark = self.env.len();
        let mut ps = Vec::new();
        for t in &params {
            let p = self.bind("p", t.clone(), false);
            ps.push(format!("{p} : {}", t.src()));
        }
        let body = self.expr(&ret, 3);
        self.env.truncate(mark);
        let src = format!(
            "func {name}({}) : {} {{ {body} }};",
            ps.join(", "),
            ret.src()
        );
        self.funcs.push(Func { name, params, ret });
        src
    }

    pub(super) fn lit(&mut self, ty: &Ty) -> String {
        match ty {
            Ty::Nat => match self.rng.u32(0..10) {
                0 => "0".into(),
                1 => "18_446_744_073_709_551_617".into(),
                _ => self.rng.u32(0..1000).to_string(),
            },
            Ty::Int => match self.rng.u32(0..4) {
                0 => format!("-{}", self.rng.u32(0..1000)),
                1 => format!("+{}", self.rng.u32(0..1000)),
                _ => self.rng.u32(0..1000).to_string(),
            },
            Ty::Bool => if self.rng.bool() { "true" } else { "false" }.into(),
            Ty::Text => format!("\"{}\"", TEXTS[self.rng.usize(0..TEXTS.len())]),
            Ty::Nat8 => format!("({} : Nat8)", self.rng.u32(0..256)),
            Ty::Int32 => format!("({} : Int32)", self.rng.i32(-100_000..100_000)),
            Ty::Char => CHARS[self.rng.usize(0..CHARS.len())].to_string(),
            Ty::Float => FLOATS[self.rng.usize(0..FLOATS.len())].to_string(),
            other => self.expr(other, 1),
        }
    }

    /// A variable (or a projection of one) of type `ty`, if any is in scope.
    pub(super) fn var_of(&mut self, ty: &Ty) -> Option<String> {
        let mut found: Vec<String> = Vec::new();
        for b in &self.env {
            if b.ty == *ty {
                found.push(b.name.clone());
            }
            if let Ty::Tuple(a, c) = &b.ty {
                if **a == *ty {
                    found.push(format!("{}.0", b.name));
                }
                if **c == *ty {
                    found.push(format!("{}.1", b.name));
                }
            }
            if let Ty::Record(fs) = &b.ty {
                for (n, t) in fs {
                    if t == ty {
                        found.push(format!("{}.{n}", b.name));
                    }
                }
            }
            // subsumption: a Nat where an Int is expected
            if *ty == Ty::Int && b.ty == Ty::Nat {
                found.push(b.name.clone());
            }
        }
        if found.is_empty() {
            None
        } else {
            Some(found.swap_remove(self.rng.usize(0..found.len())))
        }
    }

    /// An expression of type `ty`, at most `depth` constructs deep.
    pub fn expr(&mut self, ty: &Ty, depth: u32) -> String {
        if depth == 0 {
            if self.rng.bool() {
                if let Some(v) = self.var_of(ty) {
                    return v;
                }
            }
            return self.leaf(ty);
        }
        let d = depth - 1;
        match self.rng.u32(0..16) {
            0 => {
                if let Some(v) = self.var_of(ty) {
                    return v;
                }
                self.specific(ty, d)
            }
            1 => {
                let c = self.expr(&Ty::Bool, d);
                let a = self.expr(ty, d);
                let b = self.expr(ty, d);
                format!("(if ({c}) {a} else {b})")
            }
            2 => {
                let t2 = self.ty(1);
                let e = self.expr(&t2, d);
                let v = self.bind("b", t2.clone(), false);
                let body = self.expr(ty, d);
                self.env.pop();
                format!("(do {{ let {v} : {} = {e}; {body} }})", t2.src())
            }
            3 => {
                let tag = self.fresh("");
                let e = self.expr(ty, d);
                format!("(do {{ o #= \"{tag},\"; {e} }})")
            }
            4 => {
                let inner = self.ty(1);
                let scrut = self.expr(&Ty::Opt(Box::new(inner.clone())), d);
                let v = self.bind("s", inner.clone(), false);
                let some = self.expr(ty, d);
                self.env.pop();
                let none = self.expr(ty, d);
                // moc infers `null` as `Null` and `do ? { (null)! }` as `?None`: the value
                // bound by `?s` is then a `None`, which has no tuple components (M0066), so
                // a scrutinee that may be one is annotated with its type
                let scrut = if scrut.contains("do ?") || scrut.contains("null") {
                    format!("({scrut} : ?{})", inner.src())
                } else {
                    scrut
                };
                format!("(switch ({scrut}) {{ case (?{v}) {some}; case null {none} }})")
            }
            5 => {
                let fs: Vec<usize> = (0..self.funcs.len())
                    .filter(|&i| self.funcs[i].ret == *ty)
                    .collect();
                if fs.is_empty() {
                    return self.specific(ty, d);
                }
                let f = fs[self.rng.usize(0..fs.len())];
                let (name, params) = (self.funcs[f].name.clone(), self.funcs[f].params.clone());
                let args: Vec<String> = params.iter().map(|p| self.expr(p, d)).collect();
                format!("{name}({})", args.join(", "))
            }
            6 => format!("({} : {})", self.expr(ty, d), ty.src()),
            7 => self.labeled_value(ty, d),
            8 => self.generic_call(ty, d),
            _ => self.specific(ty, d),
        }
    }

    pub(super) fn leaf(&mut self, ty: &Ty) -> String {
        match ty {
            Ty::Tuple(a, b) => format!("({}, {})", self.leaf(a), self.leaf(b)),
            Ty::Opt(_) => "null".into(),
            Ty::Array(_) => "[]".into(),
            Ty::Record(fs) => {
                let fs: Vec<String> = fs
                    .clone()
                    .iter()
                    .map(|(n, t)| format!("{n} = {}", self.leaf(t)))
                    .collect();
                format!("({{ {} }})", fs.join("; "))
            }
            Ty::Variant(cs) => {
                let (n, t) = cs[0].clone();
                match t {
                    Some(t) => format!("#{n}({})", self.leaf(&t)),
                    None => format!("#{n}"),
                }
            }
            scalar => self.lit(scalar),
        }
    }

    /// `debug_show` of a record seen through a type listing some of its fields (moc shows
    /// those only).
    fn narrowed_show(&mut self, d: u32) -> String {
        let n = self.rng.usize(1..4);
        let fs: Vec<(String, Ty)> = ["a", "b", "c"][..n]
            .iter()
            .map(|f| (f.to_string(), self.ty(1)))
            .collect();
        let e = self.expr(&Ty::Record(fs.clone()), d);
        let keep: Vec<(String, Ty)> = fs.into_iter().filter(|_| self.rng.bool()).collect();
        format!("(debug_show ({e} : {}))", Ty::Record(keep).src())
    }

    /// A construct specific to `ty`.
    fn specific(&mut self, ty: &Ty, d: u32) -> String {
        match ty {
            Ty::Nat => match self.rng.u32(0..9) {
                0 => format!("({} + {})", self.expr(ty, d), self.expr(ty, d)),
                1 => format!("({} * {})", self.expr(ty, d), self.expr(ty, d)),
                2 => format!("({} / {})", self.expr(ty, d), self.rng.u32(1..10)),
                3 => format!("({} % {})", self.expr(ty, d), self.rng.u32(1..10)),
                4 => format!("(debug_show ({} : Int)).size()", self.expr(&Ty::Int, d)),
                5 => format!("{}.size()", self.expr(&Ty::Text, d)),
                6 => format!("({} - {})", self.expr(ty, d), self.expr(ty, d)),
                7 => format!("({} ** {})", self.expr(ty, d), self.rng.u32(0..4)),
                _ => self.lit(ty),
            },
            Ty::Int => match self.rng.u32(0..7) {
                0 => format!("({} - {})", self.expr(ty, d), self.expr(ty, d)),
                1 => format!("({} * {})", self.expr(ty, d), self.expr(ty, d)),
                2 => format!("(-{})", self.expr(ty, d)),
                3 => self.expr(&Ty::Nat, d),
                4 => {
                    let divisor = [-7, -2, 1, 3, 10][self.rng.usize(0..5)];
                    format!("({} / {divisor})", self.expr(ty, d))
                }
                _ => self.lit(ty),
            },
            Ty::Bool => match self.rng.u32(0..8) {
                0 => format!(
                    "(({} : Nat) == ({} : Nat))",
                    self.expr(&Ty::Nat, d),
                    self.expr(&Ty::Nat, d)
                ),
                1 => format!(
                    "(({} : Int) < ({} : Int))",
                    self.expr(&Ty::Int, d),
                    self.expr(&Ty::Int, d)
                ),
                2 => format!("(not {})", self.expr(ty, d)),
                3 => format!("({} and {})", self.expr(ty, d), self.expr(ty, d)),
                4 => format!("({} or {})", self.expr(ty, d), self.expr(ty, d)),
                5 => format!(
                    "(({} : Text) <= ({} : Text))",
                    self.expr(&Ty::Text, d),
                    self.expr(&Ty::Text, d)
                ),
                6 => {
                    let op = ["<", "<=", "==", "!=", ">"][self.rng.usize(0..5)];
                    format!(
                        "(({} : Float) {op} ({} : Float))",
                        self.expr(&Ty::Float, d),
                        self.expr(&Ty::Float, d)
                    )
                }
                _ => self.lit(ty),
            },
            Ty::Text => match self.rng.u32(0..7) {
                0 => format!("({} # {})", self.expr(ty, d), self.expr(ty, d)),
                1 => format!("(debug_show ({} : Nat))", self.expr(&Ty::Nat, d)),
                2 => format!("(debug_show ({} : Int))", self.expr(&Ty::Int, d)),
                3 => {
                    let t = self.ty(1);
                    format!("(debug_show ({} : {}))", self.expr(&t, d), t.src())
                }
                4 => format!("(debug_show ({} : Char))", self.expr(&Ty::Char, d)),
                5 => self.narrowed_show(d),
                _ => self.lit(ty),
            },
            Ty::Nat8 => match self.rng.u32(0..4) {
                0 => format!("({} +% {})", self.expr(ty, d), self.expr(ty, d)),
                1 => format!("({} *% {})", self.expr(ty, d), self.expr(ty, d)),
                2 => format!("({} ^ {})", self.expr(ty, d), self.expr(ty, d)),
                _ => self.lit(ty),
            },
            Ty::Int32 => match self.rng.u32(0..4) {
                0 => format!("({} +% {})", self.expr(ty, d), self.expr(ty, d)),
                1 => format!("({} -% {})", self.expr(ty, d), self.expr(ty, d)),
                2 => format!("({} & {})", self.expr(ty, d), self.expr(ty, d)),
                _ => self.lit(ty),
            },
            Ty::Char => self.lit(ty),
            Ty::Float => match self.rng.u32(0..8) {
                0 => format!("({} + {})", self.expr(ty, d), self.expr(ty, d)),
                1 => format!("({} - {})", self.expr(ty, d), self.expr(ty, d)),
                2 => format!("({} * {})", self.expr(ty, d), self.expr(ty, d)),
                3 => format!("({} / {})", self.expr(ty, d), self.expr(ty, d)),
                4 => format!("({} % {})", self.expr(ty, d), self.expr(ty, d)),
                5 => {
                    // exponents whose powers are exact or special: other powers may differ
                    // from moc's in the last bit (docs/eval.md, Float)
                    let y = POW_EXPONENTS[self.rng.usize(0..POW_EXPONENTS.len())];
                    format!("({} ** {y})", self.expr(ty, d))
                }
                6 => format!("(-{})", self.expr(ty, d)),
                _ => self.lit(ty),
            },
            Ty::Tuple(a, b) => format!("({}, {})", self.expr(a, d), self.expr(b, d)),
            Ty::Opt(t) => match self.rng.u32(0..4) {
                0 => "null".into(),
                1 => {
                    let inner = self.expr(&Ty::Opt(t.clone()), d);
                    format!("(do ? {{ ({inner})! }})")
                }
                _ => format!("?({})", self.expr(t, d)),
            },
            Ty::Array(t) => {
                let n = self.rng.usize(0..4);
                let xs: Vec<String> = (0..n).map(|_| self.expr(t, d)).collect();
                format!("[{}]", xs.join(", "))
            }
            Ty::Record(fs) => {
                // fields in a random order: evaluation follows the source
                let mut order: Vec<usize> = (0..fs.len()).collect();
                self.rng.shuffle(&mut order);
                let parts: Vec<String> = order
                    .into_iter()
                    .map(|i| {
                        let (n, t) = fs[i].clone();
                        let tag = self.fresh("");
                        format!("{n} = do {{ o #= \"{tag}{n},\"; {} }}", self.expr(&t, d))
                    })
                    .collect();
                format!("({{ {} }})", parts.join("; "))
            }
            Ty::Variant(cs) => {
                let (n, t) = cs[self.rng.usize(0..cs.len())].clone();
                match t {
                    Some(t) => format!("#{n}({})", self.expr(&t, d)),
                    None => format!("#{n}"),
                }
            }
        }
    }
}
