//! Numbers: Nat, Int, the fixed-width types and Float.

use super::args::{arg, float_arg, wrong};
use super::iters::{iter_value, RangeIter};
use crate::script::eval::{trap, trap_in_prim, EResult, Interp};
use crate::script::syntax::ast::BinOp;
use crate::script::value::float;
use crate::script::value::num::{self, to_bigint};
use crate::script::value::{NumKind, Value};
use num_bigint::BigUint;
use num_traits::{Signed, ToPrimitive};

type R = EResult;

/// `toText` of any integer: decimal digits, `-` for negatives, no grouping.
pub fn to_text(_: &mut Interp, _: Option<&Value>, args: &[Value]) -> R {
    let v = arg(args, 0, "toText")?;
    match v {
        Value::Float(f) => Ok(Value::text(&crate::script::value::show::show_float(*f))),
        _ => {
            let n = to_bigint(v).ok_or_else(|| wrong("toText", "number", v))?;
            Ok(Value::text(&n.to_string()))
        }
    }
}

/// Converts argument 0 to `kind`, trapping when out of range.
pub fn convert_arg(args: &[Value], kind: NumKind, who: &str) -> R {
    let v = arg(args, 0, who)?.clone();
    num::convert(v, kind).map_err(trap)
}

/// Converts argument 0 into the fixed-width `kind` (`Nat8.fromNat`, `Int32.fromInt`, ...): out
/// of range, the trap of moc's primitive, at its location in moc's prelude.
fn convert_in_bounds(args: &[Value], kind: NumKind, who: &str) -> R {
    let v = arg(args, 0, who)?.clone();
    num::convert(v, kind).map_err(|e| {
        let at = match kind {
            NumKind::Nat8 => "prim:416.35-416.59",
            NumKind::Nat16 => "prim:415.37-415.62",
            NumKind::Nat32 => "prim:414.37-414.62",
            NumKind::Nat64 => "prim:413.37-413.62",
            NumKind::Int8 => "prim:411.35-411.59",
            NumKind::Int16 => "prim:410.37-410.62",
            NumKind::Int32 => "prim:409.37-409.62",
            NumKind::Int64 => "prim:408.37-408.62",
            _ => return trap(e),
        };
        if e == num::OVERFLOW {
            trap_in_prim(at, "value out of bounds")
        } else {
            trap(e)
        }
    })
}

/// Wraps argument 0 into `kind`.
pub fn wrap_arg(args: &[Value], kind: NumKind, who: &str) -> R {
    num::wrap_from(kind, arg(args, 0, who)?).map_err(trap)
}

fn bin(op: BinOp, args: &[Value], who: &str) -> R {
    num::binary(op, arg(args, 0, who)?, arg(args, 1, who)?, None).map_err(trap)
}

/// `add(a, b)`.
pub fn add(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bin(BinOp::Add, a, "add")
}
/// `sub(a, b)`.
pub fn sub(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bin(BinOp::Sub, a, "sub")
}
/// `mul(a, b)`.
pub fn mul(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bin(BinOp::Mul, a, "mul")
}
/// `div(a, b)`.
pub fn div(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bin(BinOp::Div, a, "div")
}
/// `rem(a, b)`.
pub fn rem(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bin(BinOp::Rem, a, "rem")
}
/// `pow(a, b)`.
pub fn pow(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bin(BinOp::Pow, a, "pow")
}

/// `min(a, b)`.
pub fn min(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = (arg(a, 0, "min")?, arg(a, 1, "min")?);
    Ok(
        if crate::script::value::ord::compare(y, x) == Some(std::cmp::Ordering::Less) {
            y.clone()
        } else {
            x.clone()
        },
    )
}

/// `max(a, b)`.
pub fn max(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = (arg(a, 0, "max")?, arg(a, 1, "max")?);
    Ok(
        if crate::script::value::ord::compare(y, x) == Some(std::cmp::Ordering::Greater) {
            y.clone()
        } else {
            x.clone()
        },
    )
}

fn relation(a: &[Value], f: fn(std::cmp::Ordering) -> bool) -> R {
    let o = crate::script::value::ord::compare(arg(a, 0, "compare")?, arg(a, 1, "compare")?);
    Ok(Value::Bool(o.map(f).unwrap_or(false)))
}
/// `less(a, b)`.
pub fn less(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    relation(a, |o| o.is_lt())
}
/// `lessOrEqual(a, b)`.
pub fn less_or_equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    relation(a, |o| o.is_le())
}
/// `greater(a, b)`.
pub fn greater(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    relation(a, |o| o.is_gt())
}
/// `greaterOrEqual(a, b)`.
pub fn greater_or_equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    relation(a, |o| o.is_ge())
}
/// `notEqual(a, b)`.
pub fn not_equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(!crate::script::value::ord::equal(
        arg(a, 0, "notEqual")?,
        arg(a, 1, "notEqual")?,
    )))
}

/// An integer argument that fits in i128 (range bounds).
pub(super) fn small(v: &Value, who: &str) -> EResult<i128> {
    to_bigint(v)
        .and_then(|b| b.to_i128())
        .ok_or_else(|| wrong(who, "integer", v))
}

fn range_impl(args: &[Value], int: bool, inclusive: bool, who: &str) -> R {
    let from = small(arg(args, 0, who)?, who)?;
    let mut to = small(arg(args, 1, who)?, who)?;
    if inclusive {
        to += 1;
    }
    Ok(iter_value(RangeIter {
        cur: from,
        end: to,
        step: 1,
        int,
    }))
}

/// `Nat.range(from, toExclusive)`.
pub fn nat_range(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    range_impl(a, false, false, "Nat.range")
}
/// `Nat.rangeInclusive(from, to)`.
pub fn nat_range_inclusive(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    range_impl(a, false, true, "Nat.rangeInclusive")
}
/// `Int.range(from, toExclusive)`.
pub fn int_range(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    range_impl(a, true, false, "Int.range")
}
/// `Int.rangeInclusive(from, to)`.
pub fn int_range_inclusive(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    range_impl(a, true, true, "Int.rangeInclusive")
}

/// `Int.abs(x)`: a Nat.
pub fn int_abs(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let n = to_bigint(arg(a, 0, "Int.abs")?).ok_or_else(|| trap("Int.abs: not an integer"))?;
    Ok(Value::nat_big(n.abs().to_biguint().unwrap_or_default()))
}

/// `Int.neg(x)`.
pub fn int_neg(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    num::unary(
        crate::script::syntax::ast::UnOp::Neg,
        arg(a, 0, "Int.neg")?,
        None,
    )
    .map_err(trap)
}

/// `Int.toNat(x)` (traps on negatives) and `Nat.fromInt`.
pub fn int_to_nat(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    convert_arg(a, NumKind::Nat, "Int.toNat")
}

/// `Int.fromNat(x)` / `Nat.toInt(x)`.
pub fn to_int(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    convert_arg(a, NumKind::Int, "toInt")
}

/// `Nat.fromText(t)`: `?Nat`.
pub fn nat_from_text(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let t = super::args::text_arg(a, 0, "Nat.fromText")?;
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit()) {
        return Ok(Value::Null);
    }
    Ok(match BigUint::parse_bytes(t.as_bytes(), 10) {
        Some(n) => Value::some(Value::nat_big(n)),
        None => Value::Null,
    })
}

/// `Int.fromText(t)`: `?Int`.
pub fn int_from_text(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let t = super::args::text_arg(a, 0, "Int.fromText")?;
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(&t)),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Ok(Value::Null);
    }
    Ok(
        match num_bigint::BigInt::parse_bytes(digits.as_bytes(), 10) {
            Some(n) => Value::some(Value::int_big(if neg { -n } else { n })),
            None => Value::Null,
        },
    )
}

// ------------------------------------------------------------------ Float

macro_rules! float_fn {
    ($name:ident, $e:expr) => {
        /// A Float function.
        pub fn $name(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
            let x = float_arg(a, 0, stringify!($name))?;
            let f: fn(f64) -> f64 = $e;
            Ok(Value::Float(f(x)))
        }
    };
}

float_fn!(float_sqrt, float::sqrt);
float_fn!(float_abs, f64::abs);
float_fn!(float_floor, |x| float::rounded(x, f64::floor));
float_fn!(float_ceil, |x| float::rounded(x, f64::ceil));
float_fn!(float_trunc, |x| float::rounded(x, f64::trunc));
float_fn!(float_nearest, |x| float::rounded(x, f64::round_ties_even));
float_fn!(float_sin, |x| float::trig(x, f64::sin));
float_fn!(float_cos, |x| float::trig(x, f64::cos));
float_fn!(float_tan, |x| float::trig(x, f64::tan));
float_fn!(float_exp, float::exp);
float_fn!(float_log, float::log);

/// `Float.fromInt(x)`.
pub fn float_from_int(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Float(float_arg(a, 0, "Float.fromInt")?))
}

/// `Float.toInt(x)` (truncates; traps on NaN and infinities).
pub fn float_to_int(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = float_arg(a, 0, "Float.toInt")?;
    if !x.is_finite() {
        return Err(trap("Float.toInt: not a finite number"));
    }
    let b = num_bigint::BigInt::from(x.trunc() as i128);
    let b = if x.abs() < 1e38 {
        b
    } else {
        num_traits::FromPrimitive::from_f64(x.trunc()).unwrap_or(b)
    };
    Ok(Value::int_big(b))
}

/// `Float.isNaN(x)`.
pub fn float_is_nan(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(float_arg(a, 0, "Float.isNaN")?.is_nan()))
}

/// `Float.equal(x, y, epsilon)`: equal within `epsilon` (mo:core; traps on a negative or
/// NaN `epsilon`).
pub fn float_equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(float_within(a, "Float.equal")?))
}

/// `Float.notEqual(x, y, epsilon)`: not equal within `epsilon`.
pub fn float_not_equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(!float_within(a, "Float.notEqual")?))
}

fn float_within(a: &[Value], who: &str) -> EResult<bool> {
    let (x, y) = (float_arg(a, 0, who)?, float_arg(a, 1, who)?);
    let epsilon = float_arg(a, 2, who)?;
    if epsilon.is_nan() || epsilon < 0.0 {
        return Err(trap(format!(
            "{who}(): epsilon must be greater or equal 0.0"
        )));
    }
    Ok(x == y || (x - y).abs() <= epsilon)
}

/// `Float.pow(x, y)`.
pub fn float_pow(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = (float_arg(a, 0, "Float.pow")?, float_arg(a, 1, "Float.pow")?);
    Ok(Value::Float(float::pow(x, y)))
}

/// `Float.min(x, y)`.
pub fn float_min(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = (float_arg(a, 0, "Float.min")?, float_arg(a, 1, "Float.min")?);
    Ok(Value::Float(float::min(x, y)))
}

/// `Float.max(x, y)`.
pub fn float_max(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = (float_arg(a, 0, "Float.max")?, float_arg(a, 1, "Float.max")?);
    Ok(Value::Float(float::max(x, y)))
}

/// `Float.compare(x, y)`: the total order of `mo:core` and `mo:base` (NaNs by sign).
pub fn float_compare(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = (
        float_arg(a, 0, "Float.compare")?,
        float_arg(a, 1, "Float.compare")?,
    );
    Ok(super::collections::order_value(float::compare(x, y)))
}

/// The fixed-width modules (`Nat8` ... `Int64`), generated per type.
macro_rules! fixed_module {
    ($m:ident, $name:expr, $kind:expr) => {
        /// A fixed-width integer module.
        pub mod $m {
            use super::*;
            use crate::script::lib::Module;
            const K: NumKind = $kind;
            fn from_nat(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                convert_in_bounds(a, K, concat!($name, ".fromNat"))
            }
            fn from_int(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                convert_in_bounds(a, K, concat!($name, ".fromInt"))
            }
            fn wrap(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                wrap_arg(a, K, concat!($name, ".fromIntWrap"))
            }
            fn to_nat(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                convert_arg(a, NumKind::Nat, concat!($name, ".toNat"))
            }
            fn max_value() -> Value {
                num::fixed_wrap(
                    K,
                    if K.signed() {
                        (1i128 << (K.bits().unwrap_or(64) - 1)) - 1
                    } else {
                        (1i128 << K.bits().unwrap_or(64)) - 1
                    },
                )
            }
            fn min_value() -> Value {
                num::fixed_wrap(
                    K,
                    if K.signed() {
                        -(1i128 << (K.bits().unwrap_or(64) - 1))
                    } else {
                        0
                    },
                )
            }
            /// The module table.
            pub static MODULE: Module = Module {
                name: $name,
                members: &[
                    func!("toNat", to_nat),
                    func!("fromNat", from_nat),
                    func!("toInt", to_int),
                    func!("fromInt", from_int),
                    func!("fromIntWrap", wrap),
                    func!("fromNatWrap", wrap),
                    func!("toText", to_text),
                    func!(
                        "compare",
                        crate::script::lib::collections::compare,
                        &[Some(K), Some(K)]
                    ),
                    func!(
                        "equal",
                        crate::script::lib::collections::equal,
                        &[Some(K), Some(K)]
                    ),
                    func!("notEqual", not_equal, &[Some(K), Some(K)]),
                    func!("less", less, &[Some(K), Some(K)]),
                    func!("lessOrEqual", less_or_equal, &[Some(K), Some(K)]),
                    func!("greater", greater, &[Some(K), Some(K)]),
                    func!("greaterOrEqual", greater_or_equal, &[Some(K), Some(K)]),
                    func!("min", min, &[Some(K), Some(K)]),
                    func!("max", max, &[Some(K), Some(K)]),
                    func!("add", add, &[Some(K), Some(K)]),
                    func!("sub", sub, &[Some(K), Some(K)]),
                    func!("mul", mul, &[Some(K), Some(K)]),
                    func!("div", div, &[Some(K), Some(K)]),
                    func!("rem", rem, &[Some(K), Some(K)]),
                    func!("pow", pow, &[Some(K), Some(K)]),
                    constant!("maxValue", max_value),
                    constant!("minValue", min_value),
                ],
            };
        }
    };
}

fixed_module!(nat8, "Nat8", NumKind::Nat8);
fixed_module!(nat16, "Nat16", NumKind::Nat16);
fixed_module!(nat32, "Nat32", NumKind::Nat32);
fixed_module!(nat64, "Nat64", NumKind::Nat64);
fixed_module!(int8, "Int8", NumKind::Int8);
fixed_module!(int16, "Int16", NumKind::Int16);
fixed_module!(int32, "Int32", NumKind::Int32);
fixed_module!(int64, "Int64", NumKind::Int64);
