//! The generator's objects, classes, modules, generic functions and types, `switch` over
//! nested patterns and labeled expressions left with a value (see [`super::gen`]).
//!
//! Each declaration registers what later statements may use: an object's `public var` field
//! as a mutable variable (`o7.f`, read and assigned from outside), a class instance's method
//! and a module's function as functions (`k9.get()`, `M3.f(x)`), a module's `let` as a
//! variable, a generic function for calls at any type.

use super::gen::{Binding, Func, Gen, Ty};

/// A generic function the program declared.
pub struct Generic {
    name: String,
    kind: GenericKind,
}

/// The generic functions the generator declares.
#[derive(Clone, Copy)]
enum GenericKind {
    /// `func id<A>(x : A) : A { x }`.
    Id,
    /// `func first<A>(xs : [A], d : A) : A`: the first element, else `d`.
    First,
    /// `func pick<A>(c : Bool, a : A, b : A) : A`.
    Pick,
    /// `func get<A>(o : ?A, d : A) : A`: the option's value, else `d`.
    Get,
}

impl Gen {
    /// An object with a `public var` field, a private counter and methods that close over
    /// both; then the field assigned from outside and read through a method.
    pub(super) fn object(&mut self) -> String {
        let o = self.fresh("o");
        let ty = self.ty(1);
        let t = ty.src();
        let init = self.expr(&ty, 2);
        let put = self.expr(&ty, 2);
        let set = self.expr(&ty, 2);
        let src = format!(
            "object {o} {{ public var f : {t} = {init}; var hidden = 0; \
             public func get() : {t} {{ hidden += 1; o #= \"get\" # debug_show hidden # \",\"; f }}; \
             public func put(x : {t}) {{ f := x }} }}; \
             {o}.put({put}); Debug.print(debug_show ({o}.get() : {t})); {o}.f := {set}; \
             Debug.print(debug_show ({o}.f : {t}));"
        );
        self.env.push(Binding {
            name: format!("{o}.f"),
            ty: ty.clone(),
            mutable: true,
        });
        self.funcs.push(Func {
            name: format!("{o}.get"),
            params: Vec::new(),
            ret: ty,
        });
        src
    }

    /// A class with a `= self` binder, a `public var` field read through the binder, and an
    /// instance whose methods later expressions call.
    pub(super) fn class(&mut self) -> String {
        let c = self.fresh("C");
        let k = self.fresh("k");
        let ty = self.ty(1);
        let t = ty.src();
        let arg = self.expr(&ty, 2);
        let src = format!(
            "class {c}(init : {t}) = this {{ public var v = init; var n = 0; \
             public func get() : {t} {{ n += 1; this.v }}; \
             public func swap(x : {t}) : {t} {{ let old = v; v := x; old }}; \
             public func count() : Nat {{ n }} }}; \
             let {k} = {c}({arg}); Debug.print(debug_show ({k}.get() : {t}));"
        );
        self.env.push(Binding {
            name: format!("{k}.v"),
            ty: ty.clone(),
            mutable: true,
        });
        self.funcs.push(Func {
            name: format!("{k}.get"),
            params: Vec::new(),
            ret: ty.clone(),
        });
        self.funcs.push(Func {
            name: format!("{k}.swap"),
            params: vec![ty.clone()],
            ret: ty,
        });
        self.funcs.push(Func {
            name: format!("{k}.count"),
            params: Vec::new(),
            ret: Ty::Nat,
        });
        src
    }

    /// A module of helper functions and constants, and a nested module.
    pub(super) fn module(&mut self) -> String {
        let m = self.fresh("M");
        let ty = self.ty(1);
        let t = ty.src();
        let p = self.fresh("p");
        self.env.push(Binding {
            name: p.clone(),
            ty: ty.clone(),
            mutable: false,
        });
        let ret = self.ty(1);
        let body = self.expr(&ret, 3);
        self.env.pop();
        let scalar = [Ty::Nat, Ty::Int, Ty::Text, Ty::Bool, Ty::Char][self.rng.usize(0..5)].clone();
        let c = self.lit(&scalar);
        let src = format!(
            "module {m} {{ public func f({p} : {t}) : {r} {{ {body} }}; \
             public let c : {s} = {c}; \
             public module Inner {{ public func twice(x : Nat) : Nat {{ 2 * x }} }} }};",
            r = ret.src(),
            s = scalar.src()
        );
        self.funcs.push(Func {
            name: format!("{m}.f"),
            params: vec![ty],
            ret,
        });
        self.funcs.push(Func {
            name: format!("{m}.Inner.twice"),
            params: vec![Ty::Nat],
            ret: Ty::Nat,
        });
        self.env.push(Binding {
            name: format!("{m}.c"),
            ty: scalar,
            mutable: false,
        });
        src
    }

    /// A generic function, called at once and by later expressions at any type.
    pub(super) fn generic(&mut self) -> String {
        let name = self.fresh("g");
        let kind = [
            GenericKind::Id,
            GenericKind::First,
            GenericKind::Pick,
            GenericKind::Get,
        ][self.rng.usize(0..4)];
        let decl = match kind {
            GenericKind::Id => format!("func {name}<A>(x : A) : A {{ x }};"),
            GenericKind::First => format!(
                "func {name}<A>(xs : [A], d : A) : A {{ if (xs.size() == 0) d else xs[0] }};"
            ),
            GenericKind::Pick => {
                format!("func {name}<A>(c : Bool, a : A, b : A) : A {{ if c a else b }};")
            }
            GenericKind::Get => format!(
                "func {name}<A>(o : ?A, d : A) : A {{ switch o {{ case (?x) x; case null d }} }};"
            ),
        };
        self.generics.push(Generic { name, kind });
        let ty = self.ty(2);
        let call = self.generic_call(&ty, 3);
        format!("{decl} Debug.print(debug_show ({call} : {}));", ty.src())
    }

    /// A call of a generic function at `ty`, with an explicit type argument.
    pub(super) fn generic_call(&mut self, ty: &Ty, d: u32) -> String {
        if self.generics.is_empty() {
            return self.expr(ty, d);
        }
        let g = self.rng.usize(0..self.generics.len());
        let (name, kind) = (self.generics[g].name.clone(), self.generics[g].kind);
        let t = ty.src();
        let call = match kind {
            GenericKind::Id => format!("{name}<{t}>({})", self.expr(ty, d)),
            GenericKind::First => {
                let n = self.rng.usize(0..3);
                let xs: Vec<String> = (0..n).map(|_| self.expr(ty, d)).collect();
                format!(
                    "{name}<{t}>([{}] : [{t}], {})",
                    xs.join(", "),
                    self.expr(ty, d)
                )
            }
            GenericKind::Pick => format!(
                "{name}<{t}>({}, {}, {})",
                self.expr(&Ty::Bool, d),
                self.expr(ty, d),
                self.expr(ty, d)
            ),
            GenericKind::Get => format!(
                "{name}<{t}>({}, {})",
                self.expr(&Ty::Opt(Box::new(ty.clone())), d),
                self.expr(ty, d)
            ),
        };
        // unannotated half the time: the explicit type argument alone fixes the type (a
        // `Nat` argument at `<Int>` is shown and computed as an `Int`)
        if self.rng.bool() {
            format!("({call} : {t})")
        } else {
            format!("({call})")
        }
    }

    /// A generic record type declared and used at one type; the value is a variable.
    pub(super) fn generic_type(&mut self) -> String {
        let b = self.fresh("Box");
        let ty = self.ty(1);
        let value = self.expr(&ty, 2);
        let count = self.expr(&Ty::Nat, 1);
        let x = self.fresh("bx");
        let src = format!(
            "type {b}<A> = {{ v : A; n : Nat }}; let {x} : {b}<{t}> = {{ v = {value}; n = {count} }}; \
             Debug.print(debug_show ({x} : {b}<{t}>));",
            t = ty.src()
        );
        self.env.push(Binding {
            name: x,
            ty: Ty::Record(vec![("n".to_string(), Ty::Nat), ("v".to_string(), ty)]),
            mutable: false,
        });
        src
    }

    /// `label l : T { ... break l(e) ... ; e }`: a block left early with a value.
    pub(super) fn labeled_value(&mut self, ty: &Ty, d: u32) -> String {
        let l = self.fresh("l");
        let c = self.expr(&Ty::Bool, d);
        let early = self.expr(ty, d);
        let late = self.expr(ty, d);
        format!(
            "(label {l} : {t} {{ if ({c}) {{ break {l}({early}) }}; {late} }})",
            t = ty.src()
        )
    }

    /// A `switch` over a value of a compound type with nested patterns (options, tuples,
    /// records, variants, literals), the bound variables printed.
    pub(super) fn nested_switch(&mut self) -> String {
        let ty = self.ty(3);
        let scrut = self.expr(&ty, 3);
        let mut arms = Vec::new();
        for k in 0..self.rng.usize(1..4) {
            let mut bound = Vec::new();
            let p = self.pattern(&ty, 3, &mut bound);
            let shows: Vec<String> = bound
                .iter()
                .map(|(n, t)| format!("o #= debug_show ({n} : {}) # \",\";", t.src()))
                .collect();
            arms.push(format!(
                "case ({p}) {{ o #= \"arm{k},\"; {} }}",
                shows.join(" ")
            ));
        }
        format!(
            "switch ({scrut} : {}) {{ {}; case _ {{ o #= \"none,\" }} }};",
            ty.src(),
            arms.join("; ")
        )
    }

    /// A pattern matching values of `ty`; the variables it binds go to `bound`.
    fn pattern(&mut self, ty: &Ty, depth: u32, bound: &mut Vec<(String, Ty)>) -> String {
        let roll = self.rng.u32(0..10);
        if depth == 0 || roll < 2 {
            return if roll == 0 {
                "_".into()
            } else {
                let n = self.fresh("q");
                bound.push((n.clone(), ty.clone()));
                n
            };
        }
        let d = depth - 1;
        match ty {
            Ty::Nat => ["0", "1", "7"][self.rng.usize(0..3)].into(),
            Ty::Int => ["0", "-1", "3"][self.rng.usize(0..3)].into(),
            Ty::Bool => if self.rng.bool() { "true" } else { "false" }.into(),
            Ty::Text => ["\"\"", "\"a\"", "\"hello\""][self.rng.usize(0..3)].into(),
            Ty::Char => "'a'".into(),
            Ty::Nat8 | Ty::Int32 => "0".into(),
            // moc has no Float literal patterns worth generating: any Float matches
            Ty::Float => "_".into(),
            Ty::Tuple(a, b) => {
                let (a, b) = ((**a).clone(), (**b).clone());
                format!(
                    "({}, {})",
                    self.pattern(&a, d, bound),
                    self.pattern(&b, d, bound)
                )
            }
            Ty::Opt(t) => {
                if self.rng.u32(0..3) == 0 {
                    "null".into()
                } else {
                    let t = (**t).clone();
                    format!("?{}", self.pattern(&t, d, bound))
                }
            }
            Ty::Array(_) => {
                let n = self.fresh("q");
                bound.push((n.clone(), ty.clone()));
                n
            }
            Ty::Record(fs) => {
                let fs = fs.clone();
                let mut parts = Vec::new();
                for (n, t) in &fs {
                    if self.rng.bool() {
                        parts.push(format!("{n} = {}", self.pattern(t, d, bound)));
                    }
                }
                format!("{{ {} }}", parts.join("; "))
            }
            Ty::Variant(cs) => {
                let (n, t) = cs[self.rng.usize(0..cs.len())].clone();
                match t {
                    Some(t) => format!("#{n}({})", self.pattern(&t, d, bound)),
                    None => format!("#{n}"),
                }
            }
        }
    }
}
