//! Contextual dot notation and implicit arguments, as moc resolves them for `mo:core`:
//! `x.f(a, b)` calls `M.f(x, a, b)` for the module `M` in scope whose function `f` has a
//! `self` parameter that `x` fits, and an omitted implicit argument (`compare`, `equal`,
//! `toText`) is filled from the scope. Which functions have a `self` or implicit parameter
//! comes from core's own signatures ([`super::signatures`]); which `self` type a value fits
//! from its run-time shape ([`super::dot_kinds`]).

use super::signatures::{Row, CORE};
use super::{dot_kinds, view, Builtin, Module};
use crate::script::eval::{EResult, Interp};
use crate::script::value::{show, BoundBuiltin, Value};
use std::rc::Rc;

/// The names implicit arguments are found by that the engine can fill without a script
/// value of that name in scope.
pub const IMPLICIT_NAMES: &[&str] = &["compare", "equal", "toText"];

/// A function of core with a `self` or implicit parameter.
#[derive(Clone, Copy, Debug)]
pub struct Signature {
    /// The kind of value `self` accepts (`"Array"`, `"Nat"`, `"Map"`...); empty without one.
    pub self_kind: &'static str,
    /// The parameters in order: `s` self, `p` plain, `i` implicit.
    pub params: &'static str,
    /// The names the implicit parameters are found by, in order.
    pub implicits: &'static [&'static str],
}

/// The core signature of `module.name` (`"Map"`, `"get"`), if it has a `self` or implicit
/// parameter.
pub fn signature(module: &str, name: &str) -> Option<Signature> {
    let (_, rows) = CORE.iter().find(|(m, _)| *m == module)?;
    let i = rows.binary_search_by(|r: &Row| r.0.cmp(name)).ok()?;
    let (_, self_kind, params, implicits) = rows[i];
    Some(Signature {
        self_kind,
        params,
        implicits,
    })
}

/// Where each argument of a call comes from once implicit ones are filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgSource {
    /// The next argument written at the call (the receiver first for a dot call).
    Given,
    /// An implicit argument found by this name.
    Implicit(&'static str),
}

/// The argument layout of a call of `sig` with `given` arguments (counting the receiver of
/// a dot call): `None` when every parameter is given (or the count fits no form, left to
/// the function to report); else all implicit arguments are omitted, as moc requires.
pub fn layout(sig: &Signature, given: usize) -> Option<Vec<ArgSource>> {
    let n_implicit = sig.implicits.len();
    if n_implicit == 0 || given + n_implicit != sig.params.len() {
        return None;
    }
    let mut names = sig.implicits.iter().copied();
    Some(
        sig.params
            .bytes()
            .map(|p| match p {
                b'i' => names.next().map_or(ArgSource::Given, ArgSource::Implicit),
                _ => ArgSource::Given,
            })
            .collect(),
    )
}

/// The engine's own value for an implicit argument named `name` when the script has none in
/// scope: the natural order (`compare`), structural equality (`equal`), the value's text
/// (`toText`), which is what the core function of the argument's type computes.
pub fn natural_implicit(name: &str) -> Option<Value> {
    let b = NATURAL.iter().find(|b| b.name == name)?;
    Some(Value::Builtin(Rc::new(BoundBuiltin { f: b, this: None })))
}

fn natural_to_text(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    let v = super::args::arg(a, 0, "toText")?;
    let s = match v {
        Value::Text(t) => return Ok(Value::Text(t.clone())),
        Value::Char(c) => c.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Principal(p) => show::principal_text(p),
        Value::Float(_)
        | Value::Nat(_)
        | Value::BigNat(_)
        | Value::Int(_)
        | Value::BigInt(_)
        | Value::Nat8(_)
        | Value::Nat16(_)
        | Value::Nat32(_)
        | Value::Nat64(_)
        | Value::Int8(_)
        | Value::Int16(_)
        | Value::Int32(_)
        | Value::Int64(_) => return super::numbers::to_text(it, None, a),
        other => show::debug_show(other),
    };
    it.alloc(s.len() as u64)?;
    Ok(Value::text(&s))
}

static NATURAL: [Builtin; 3] = [
    func!("compare", super::collections::compare),
    func!("equal", super::collections::equal),
    func!("toText", natural_to_text),
];

/// A contextual dot call resolved: the module function and its signature.
pub struct Target {
    /// The module that declares the function.
    pub module: &'static Module,
    /// The function.
    pub builtin: &'static Builtin,
    /// Its core signature.
    pub sig: Signature,
}

/// Resolves `recv.name(...)` among `modules` (those in scope at the call): the function
/// `name` with a `self` parameter that `recv` fits best; on a tie the module imported
/// first. `Ok(None)` when no module in scope has one that fits; a module whose core
/// function fits but is not in mo-mem's library is reported by name (`Err(Some(..))`).
pub fn resolve(
    it: &mut Interp,
    recv: &Value,
    name: &str,
    modules: &[&'static Module],
) -> EResult<Result<Target, Option<String>>> {
    let mut best: Option<(u8, &'static Module, Signature)> = None;
    for &m in modules {
        let Some(sig) = signature(m.name, name) else {
            continue;
        };
        if !sig.params.starts_with('s') || sig.self_kind.is_empty() {
            continue;
        }
        let Some(rank) = dot_kinds::fit(it, recv, sig.self_kind)? else {
            continue;
        };
        if best.as_ref().is_none_or(|(r, _, _)| rank < *r) {
            best = Some((rank, m, sig));
        }
    }
    Ok(match best {
        Some((_, module, sig)) => match module.get(name) {
            Some(builtin) if builtin.value.is_none() => Ok(Target {
                module,
                builtin,
                sig,
            }),
            _ => Err(Some(format!(
                "{}.{name} is not in mo-mem's built-in library",
                module.name
            ))),
        },
        None => Err(None),
    })
}

/// The receiver as the module function takes it: a lazily read array becomes an array
/// (the array functions take arrays), anything else is passed as it is.
pub fn receiver(it: &mut Interp, recv: Value, sig: &Signature) -> EResult {
    match (&recv, sig.self_kind) {
        (Value::Host(_), "Array") => Ok(Value::Array(Rc::from(view::parts(it, &recv)?))),
        (Value::Host(_), "VarArray") => Ok(Value::VarArray(Rc::new(std::cell::RefCell::new(
            view::parts(it, &recv)?,
        )))),
        _ => Ok(recv),
    }
}

/// Whether `v` can be called (a script value taken as an implicit argument must be a
/// function; moc would skip one of another type).
pub fn callable(v: &Value) -> bool {
    matches!(v, Value::Func(_) | Value::Builtin(_))
}
