//! `mo:base` modules where base differs from `mo:core`: an `import X "mo:base/X"` binds
//! `base/X` when it is listed here. Each such module has base's own functions where base's
//! argument order or meaning differs from core's (`Array.indexOf(x, xs, equal)`,
//! `Float.equal(x, y)` exact, `Result.equal(eqOk, eqErr, r1, r2)`), base's names of core
//! functions (`Text.translate` is core's `flatMap`), and the rest from the core module of the
//! same name, whose functions base shares. `mo:base/List` is base's pure list
//! ([`super::base_list`]), with nothing from core's `List`.

use super::args::{arg, bool_of, float_arg, usize_arg, wrong};
use super::base_list;
use super::iters::iter_value;
use super::view;
use super::{Builtin, Module};
use crate::script::eval::{trap, trap_in_prim, EResult, Interp};
use crate::script::value::{NativeIter, NumKind, Value};
use std::rc::Rc;

type R = EResult;

const INT: Option<NumKind> = Some(NumKind::Int);
const NAT: Option<NumKind> = Some(NumKind::Nat);
const FLOAT: Option<NumKind> = Some(NumKind::Float);
const NAT32: Option<NumKind> = Some(NumKind::Nat32);

/// A `mo:base` module that differs from core: its own functions, base's names for core
/// functions, and the core module the rest comes from (none for `List`).
struct BaseModule {
    /// Its own functions, as a module named `base/X`.
    module: &'static Module,
    /// `(base name, core name)` pairs.
    renames: &'static [(&'static str, &'static str)],
    /// The core module its other functions come from.
    core: Option<&'static str>,
}

/// The `base/X` module for `mo:base/X`, if base's `X` differs from core's.
pub fn module(name: &str) -> Option<&'static Module> {
    BASE.iter()
        .find(|b| b.module.name.strip_prefix("base/") == Some(name))
        .map(|b| b.module)
}

/// Every `base/X` module.
pub fn modules() -> impl Iterator<Item = &'static Module> {
    BASE.iter().map(|b| b.module)
}

/// Member `name` of the base module `module` (`base/X`) that is not among its own
/// functions: a renamed core function, or the core module's own.
pub fn member(module: &str, name: &str) -> Option<&'static Builtin> {
    let b = BASE.iter().find(|b| b.module.name == module)?;
    let core = super::module_by_name(b.core?)?;
    let core_name = b
        .renames
        .iter()
        .find(|(base, _)| *base == name)
        .map_or(name, |(_, core)| core);
    core.get(core_name)
}

static BASE: &[BaseModule] = &[
    BaseModule {
        module: &base_list::BASE_LIST_MOD,
        renames: &[],
        core: None,
    },
    BaseModule {
        module: &super::base_deque::BASE_DEQUE_MOD,
        renames: &[],
        core: None,
    },
    BaseModule {
        module: &ARRAY_MOD,
        renames: &[("mapFilter", "filterMap"), ("make", "singleton")],
        core: Some("Array"),
    },
    BaseModule {
        module: &ITER_MOD,
        renames: &[
            ("fromArrayMut", "fromVarArray"),
            ("toArrayMut", "toVarArray"),
        ],
        core: Some("Iter"),
    },
    BaseModule {
        module: &OPTION_MOD,
        renames: &[("iterate", "forEach"), ("make", "some")],
        core: Some("Option"),
    },
    BaseModule {
        module: &RESULT_MOD,
        renames: &[("iterate", "forOk")],
        core: Some("Result"),
    },
    BaseModule {
        module: &FLOAT_MOD,
        renames: &[],
        core: Some("Float"),
    },
    BaseModule {
        module: &BOOL_MOD,
        renames: &[
            ("logand", "logicalAnd"),
            ("logor", "logicalOr"),
            ("logxor", "logicalXor"),
            ("lognot", "logicalNot"),
        ],
        core: Some("Bool"),
    },
    BaseModule {
        module: &HASH_MOD,
        renames: &[],
        core: None,
    },
    BaseModule {
        module: &INT_MOD,
        renames: &[],
        core: Some("Int"),
    },
    BaseModule {
        module: &TEXT_MOD,
        renames: &[
            ("translate", "flatMap"),
            ("toLowercase", "toLower"),
            ("toUppercase", "toUpper"),
        ],
        core: Some("Text"),
    },
    BaseModule {
        module: &BLOB_MOD,
        renames: &[
            ("fromArrayMut", "fromVarArray"),
            ("toArrayMut", "toVarArray"),
        ],
        core: Some("Blob"),
    },
];

// --- Array ---

/// The array argument `i` (a canister's array read through the host too).
fn array_arg(it: &mut Interp, a: &[Value], i: usize, who: &str) -> EResult<Rc<[Value]>> {
    super::args::elems(it, arg(a, i, who)?, who)
}

/// The first index from `from` up whose element `equal` matches to `x`.
fn next_index(it: &mut Interp, a: &[Value], from: usize, eq: &Value, who: &str) -> R {
    let x = arg(a, 0, who)?.clone();
    let xs = array_arg(it, a, 1, who)?;
    for (i, y) in xs.iter().enumerate().skip(from) {
        it.tick()?;
        if bool_of(&it.call_value(eq, &[y.clone(), x.clone()])?, who)? {
            return Ok(Value::some(Value::Nat(i as u64)));
        }
    }
    Ok(Value::Null)
}

/// The last index below `before` whose element `equal` matches to `x`; an index past the
/// end traps, as base's `array[i]` does.
fn prev_index(it: &mut Interp, a: &[Value], before: Option<usize>, eq: &Value, who: &str) -> R {
    let x = arg(a, 0, who)?.clone();
    let xs = array_arg(it, a, 1, who)?;
    let mut i = before.unwrap_or(xs.len());
    while i > 0 {
        it.tick()?;
        i -= 1;
        let y = xs.get(i).ok_or_else(|| trap("index out of bounds"))?;
        if bool_of(&it.call_value(eq, &[y.clone(), x.clone()])?, who)? {
            return Ok(Value::some(Value::Nat(i as u64)));
        }
    }
    Ok(Value::Null)
}

fn index_of(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let eq = arg(a, 2, "Array.indexOf")?.clone();
    next_index(it, a, 0, &eq, "Array.indexOf")
}

fn next_index_of(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let from = usize_arg(a, 2, "Array.nextIndexOf")?;
    let eq = arg(a, 3, "Array.nextIndexOf")?.clone();
    next_index(it, a, from, &eq, "Array.nextIndexOf")
}

fn last_index_of(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let eq = arg(a, 2, "Array.lastIndexOf")?.clone();
    prev_index(it, a, None, &eq, "Array.lastIndexOf")
}

fn prev_index_of(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let before = usize_arg(a, 2, "Array.prevIndexOf")?;
    let eq = arg(a, 3, "Array.prevIndexOf")?.clone();
    prev_index(it, a, Some(before), &eq, "Array.prevIndexOf")
}

fn chain(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = array_arg(it, a, 0, "Array.chain")?;
    let f = arg(a, 1, "Array.chain")?.clone();
    let mut out = Vec::new();
    for x in xs.iter() {
        let ys = it.call_value(&f, std::slice::from_ref(x))?;
        let ys = super::args::elems(it, &ys, "Array.chain")?;
        it.ticks(ys.len() as u64)?;
        it.alloc(16 * ys.len() as u64)?;
        out.extend(ys.iter().cloned());
    }
    Ok(Value::Array(Rc::from(out)))
}

/// The `Int` argument `i` as a signed 128-bit number (saturated beyond).
fn int_arg(a: &[Value], i: usize, who: &str) -> EResult<i128> {
    match arg(a, i, who)? {
        Value::Int(n) => Ok(i128::from(*n)),
        Value::Nat(n) => Ok(i128::from(*n)),
        Value::BigInt(n) if n.sign() == num_bigint::Sign::Minus => Ok(i128::MIN),
        Value::BigInt(_) | Value::BigNat(_) => Ok(i128::MAX),
        other => Err(wrong(who, "Int", other)),
    }
}

fn take(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = array_arg(it, a, 0, "Array.take")?;
    let length = int_arg(a, 1, "Array.take")?;
    let n = usize::try_from(length.unsigned_abs())
        .unwrap_or(usize::MAX)
        .min(xs.len());
    let start = if length > 0 { 0 } else { xs.len() - n };
    it.ticks(n as u64)?;
    it.alloc(16 * n as u64)?;
    Ok(Value::Array(Rc::from(&xs[start..start + n])))
}

/// `Array.slice(xs, from, to)` (base): the elements from `from` up to `to`, lazily; an
/// index past the end traps when it is reached.
struct Slice {
    items: Rc<[Value]>,
    next: usize,
    end: usize,
}

impl NativeIter for Slice {
    fn next(&mut self, _: &mut Interp) -> EResult<Option<Value>> {
        if self.next >= self.end {
            return Ok(None);
        }
        let x = self.items.get(self.next).cloned();
        self.next += 1;
        x.map(Some).ok_or_else(|| trap("index out of bounds"))
    }
}

fn slice(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let items = array_arg(it, a, 0, "Array.slice")?;
    let next = usize_arg(a, 1, "Array.slice")?;
    let end = usize_arg(a, 2, "Array.slice")?;
    Ok(iter_value(Slice { items, next, end }))
}

static ARRAY_MOD: Module = Module {
    name: "base/Array",
    members: &[
        func!("indexOf", index_of),
        func!("nextIndexOf", next_index_of),
        func!("lastIndexOf", last_index_of),
        func!("prevIndexOf", prev_index_of),
        func!("chain", chain),
        func!("take", take),
        func!("slice", slice),
    ],
};

// --- Iter ---

/// Calls `f(x, i)` for each element `x` at position `i`.
fn iter_iterate(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let xs = arg(a, 0, "Iter.iterate")?.clone();
    let f = arg(a, 1, "Iter.iterate")?.clone();
    let mut i = 0u64;
    while let Some(x) = it.iter_next(&xs)? {
        it.tick()?;
        it.call_value(&f, &[x, Value::Nat(i)])?;
        i += 1;
    }
    Ok(Value::Unit)
}

/// `x` forever.
struct Forever(Value);

impl NativeIter for Forever {
    fn next(&mut self, _: &mut Interp) -> EResult<Option<Value>> {
        Ok(Some(self.0.clone()))
    }
}

fn iter_make(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(iter_value(Forever(arg(a, 0, "Iter.make")?.clone())))
}

static ITER_MOD: Module = Module {
    name: "base/Iter",
    members: &[
        func!("iterate", iter_iterate),
        func!("make", iter_make),
        func!("fromList", base_list::to_iter),
        func!("toList", base_list::from_iter),
    ],
};

// --- Option ---

/// base's `Prelude.unreachable()`: a `Debug.trap`, reported at the primitive's position as
/// moc reports it.
fn unreachable() -> crate::script::eval::Ctrl {
    trap_in_prim("prim:63.31-63.42", "explicit trap: Prelude.unreachable()")
}

fn assert_some(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    match view::option(it, arg(a, 0, "Option.assertSome")?)? {
        Some(Some(_)) => Ok(Value::Unit),
        _ => Err(unreachable()),
    }
}

fn assert_null(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    match view::option(it, arg(a, 0, "Option.assertNull")?)? {
        Some(None) => Ok(Value::Unit),
        _ => Err(unreachable()),
    }
}

static OPTION_MOD: Module = Module {
    name: "base/Option",
    members: &[
        func!("assertSome", assert_some),
        func!("assertNull", assert_null),
    ],
};

// --- Result ---

/// `(tag, payload)` of a `Result`.
fn result_parts(it: &mut Interp, v: &Value, who: &str) -> EResult<(bool, Value)> {
    match view::variant(it, v)? {
        Some((tag, x)) if &*tag == "ok" => Ok((true, x)),
        Some((tag, x)) if &*tag == "err" => Ok((false, x)),
        _ => Err(wrong(who, "Result", v)),
    }
}

/// base's `equal`/`compare`: `on_ok` or `on_err` for two results of one kind, else
/// `mixed(r1 is ok)`.
fn by_kind(it: &mut Interp, a: &[Value], who: &str, mixed: fn(bool) -> Value) -> R {
    let on_ok = arg(a, 0, who)?.clone();
    let on_err = arg(a, 1, who)?.clone();
    let (ok1, x1) = result_parts(it, arg(a, 2, who)?, who)?;
    let (ok2, x2) = result_parts(it, arg(a, 3, who)?, who)?;
    match (ok1, ok2) {
        (true, true) => it.call_value(&on_ok, &[x1, x2]),
        (false, false) => it.call_value(&on_err, &[x1, x2]),
        _ => Ok(mixed(ok1)),
    }
}

fn result_equal(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    by_kind(it, a, "Result.equal", |_| Value::Bool(false))
}

fn result_compare(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    by_kind(it, a, "Result.compare", |ok1| {
        Value::variant(if ok1 { "greater" } else { "less" }, Value::Unit)
    })
}

static RESULT_MOD: Module = Module {
    name: "base/Result",
    members: &[
        func!("equal", result_equal),
        func!("compare", result_compare),
    ],
};

// --- Float ---

fn float_equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(
        float_arg(a, 0, "Float.equal")? == float_arg(a, 1, "Float.equal")?,
    ))
}

fn float_not_equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(
        float_arg(a, 0, "Float.notEqual")? != float_arg(a, 1, "Float.notEqual")?,
    ))
}

/// base's `equalWithin`: equal, or at most `epsilon` apart; a negative or NaN `epsilon`
/// traps.
fn within(a: &[Value], who: &str) -> EResult<bool> {
    let x = float_arg(a, 0, who)?;
    let y = float_arg(a, 1, who)?;
    let epsilon = float_arg(a, 2, who)?;
    if epsilon.is_nan() || epsilon < 0.0 {
        return Err(trap("epsilon must be greater or equal 0.0"));
    }
    Ok(x == y || (x - y).abs() <= epsilon)
}

fn float_equal_within(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(within(a, "Float.equalWithin")?))
}

fn float_not_equal_within(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(!within(a, "Float.notEqualWithin")?))
}

static FLOAT_MOD: Module = Module {
    name: "base/Float",
    members: &[
        func!("equal", float_equal, &[FLOAT, FLOAT]),
        func!("notEqual", float_not_equal, &[FLOAT, FLOAT]),
        func!("equalWithin", float_equal_within, &[FLOAT; 3]),
        func!("notEqualWithin", float_not_equal_within, &[FLOAT; 3]),
    ],
};

// --- Bool ---

static BOOL_MOD: Module = Module {
    name: "base/Bool",
    members: &[],
};

// --- Hash ---

/// base's `hashNat8`: Bob Jenkins' one-at-a-time hash over 32-bit words.
fn one_at_a_time(words: &[u32]) -> u32 {
    let mut h: u32 = 0;
    for w in words {
        h = h.wrapping_add(*w);
        h = h.wrapping_add(h << 10);
        h ^= h >> 6;
    }
    h = h.wrapping_add(h << 3);
    h ^= h >> 11;
    h.wrapping_add(h << 15)
}

/// base's hash of a 32-bit word: its four bytes masked in place (not shifted down).
fn hash_word(j: u32) -> u32 {
    one_at_a_time(&[j & 0xff, j & 0xff00, j & 0xff_0000, j & 0xff00_0000])
}

/// The low 32 bits of an integer argument (two's complement), as base's wrapping
/// conversions take them.
fn low_bits(a: &[Value], i: usize, who: &str) -> EResult<u32> {
    Ok(match arg(a, i, who)? {
        Value::Nat(n) => *n as u32,
        Value::Int(n) => *n as u32,
        Value::BigNat(n) => n.iter_u32_digits().next().unwrap_or(0),
        Value::BigInt(n) => {
            let modulus = num_bigint::BigInt::from(1u64 << 32);
            let r = ((&**n % &modulus) + &modulus) % &modulus;
            r.iter_u32_digits().next().unwrap_or(0)
        }
        other => return Err(wrong(who, "Int", other)),
    })
}

/// A `Hash` (`Nat32`) argument; a small `Nat` is a literal the script left untyped (in an
/// array literal: `Hash.hashNat8([1, 2])`), as moc types it from the parameter.
fn nat32_of(v: &Value, who: &str) -> EResult<u32> {
    match v {
        Value::Nat32(n) => Ok(*n),
        Value::Nat(n) => u32::try_from(*n).map_err(|_| wrong(who, "Nat32", v)),
        other => Err(wrong(who, "Nat32", other)),
    }
}

fn nat32_arg(a: &[Value], i: usize, who: &str) -> EResult<u32> {
    nat32_of(arg(a, i, who)?, who)
}

fn hash_hash(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Nat32(hash_word(low_bits(a, 0, "Hash.hash")?)))
}

fn hash_equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(
        nat32_arg(a, 0, "Hash.equal")? == nat32_arg(a, 1, "Hash.equal")?,
    ))
}

fn hash_bit(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let h = nat32_arg(a, 0, "Hash.bit")?;
    let pos = match arg(a, 1, "Hash.bit")? {
        Value::Nat(n) => *n,
        Value::BigNat(_) => u64::MAX,
        other => return Err(wrong("Hash.bit", "Nat", other)),
    };
    if pos > 31 {
        return Err(trap("assertion failure"));
    }
    Ok(Value::Bool(h & (1 << pos) != 0))
}

fn hash_nat8(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let key = array_arg(it, a, 0, "Hash.hashNat8")?;
    it.ticks(key.len() as u64)?;
    let words = key
        .iter()
        .map(|w| nat32_of(w, "Hash.hashNat8"))
        .collect::<EResult<Vec<u32>>>()?;
    Ok(Value::Nat32(one_at_a_time(&words)))
}

static HASH_MOD: Module = Module {
    name: "base/Hash",
    members: &[
        func!("hash", hash_hash, &[NAT]),
        func!("equal", hash_equal, &[NAT32, NAT32]),
        func!("bit", hash_bit, &[NAT32, NAT]),
        func!("hashNat8", hash_nat8),
        constant!("length", || Value::Nat(31)),
    ],
};

// --- Int ---

fn int_hash(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Nat32(hash_word(low_bits(a, 0, "Int.hash")?)))
}

fn int_hash_acc(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let h1 = nat32_arg(a, 0, "Int.hashAcc")?;
    let j = low_bits(a, 1, "Int.hashAcc")?;
    Ok(Value::Nat32(one_at_a_time(&[
        h1,
        j & 0xff,
        j & 0xff00,
        j & 0xff_0000,
        j & 0xff00_0000,
    ])))
}

static INT_MOD: Module = Module {
    name: "base/Int",
    members: &[
        func!("hash", int_hash, &[INT]),
        func!("hashAcc", int_hash_acc, &[NAT32, INT]),
    ],
};

// --- Text ---

fn text_from_list(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let cs = base_list::items_of(it, arg(a, 0, "Text.fromList")?, "Text.fromList")?;
    let mut s = String::new();
    for c in &cs {
        match c {
            Value::Char(c) => s.push(*c),
            other => return Err(wrong("Text.fromList", "Char", other)),
        }
    }
    it.alloc(s.len() as u64)?;
    Ok(Value::text(&s))
}

fn text_to_list(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let t = super::args::text_arg(a, 0, "Text.toList")?;
    let n = t.chars().count() as u64;
    it.ticks(n)?;
    it.alloc(16 * n)?;
    let cs: Vec<Value> = t.chars().map(Value::Char).collect();
    base_list::of_items(it, cs)
}

static TEXT_MOD: Module = Module {
    name: "base/Text",
    members: &[
        func!("fromList", text_from_list),
        func!("toList", text_to_list),
    ],
};

// --- Blob ---

static BLOB_MOD: Module = Module {
    name: "base/Blob",
    members: &[],
};
