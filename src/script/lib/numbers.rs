//! Integers: the functions of `Nat` and `Int`, and those every integer module shares
//! (arithmetic, comparison, conversion); the fixed-width modules are in [`super::fixed`],
//! the ranges in [`super::ranges`], `Float` in [`super::floats`].

use super::args::{arg, wrong};
use crate::script::eval::{trap, trap_in_prim, Ctrl, EResult, Interp};
use crate::script::syntax::ast::BinOp;
use crate::script::value::num::{self, to_bigint};
use crate::script::value::{NumKind, Value};
use num_bigint::BigUint;
use num_traits::{Signed, ToPrimitive, Zero};

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

/// The trap of moc's primitive converting a `Nat` or `Int` into the fixed-width `kind`
/// (`Prim.natToNat8`, `Prim.intToInt8`, ...) for a value out of its range, at the
/// primitive's location in moc's prelude.
pub(super) fn out_of_bounds(kind: NumKind) -> Ctrl {
    let at = match kind {
        NumKind::Nat8 => "prim:416.35-416.59",
        NumKind::Nat16 => "prim:415.37-415.62",
        NumKind::Nat32 => "prim:414.37-414.62",
        NumKind::Nat64 => "prim:413.37-413.62",
        NumKind::Int8 => "prim:411.35-411.59",
        NumKind::Int16 => "prim:410.37-410.62",
        NumKind::Int32 => "prim:409.37-409.62",
        _ => "prim:408.37-408.62",
    };
    trap_in_prim(at, "value out of bounds")
}

/// Converts argument 0 into the fixed-width `kind` (`Nat8.fromNat`, `Int32.fromInt`, ...): out
/// of range, the trap of moc's primitive ([`out_of_bounds`]).
pub(super) fn convert_in_bounds(args: &[Value], kind: NumKind, who: &str) -> R {
    let v = arg(args, 0, who)?.clone();
    num::convert(v, kind).map_err(|e| {
        if e == num::OVERFLOW && kind.bits().is_some() {
            out_of_bounds(kind)
        } else {
            trap(e)
        }
    })
}

/// Wraps argument 0 into `kind`.
pub fn wrap_arg(args: &[Value], kind: NumKind, who: &str) -> R {
    num::wrap_from(kind, arg(args, 0, who)?).map_err(trap)
}

/// `op` applied to arguments 0 and 1.
pub(super) fn bin(op: BinOp, args: &[Value], who: &str) -> R {
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

/// `Nat.bitshiftLeft(x, y)`: `x * 2 ** y` (`y` a `Nat32`).
pub fn nat_shift_left(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = shift_args(a, "Nat.bitshiftLeft")?;
    if x.is_zero() {
        return Ok(Value::Nat(0));
    }
    if x.bits().saturating_add(y) > num::MAX_BIG_BITS {
        return Err(trap(
            "arithmetic result too large (a Nat or Int is limited to 2^20 bits)",
        ));
    }
    it.alloc((x.bits() + y) / 8)?;
    Ok(Value::nat_big(x << y))
}

/// `Nat.bitshiftRight(x, y)`: `x / 2 ** y` (`y` a `Nat32`).
pub fn nat_shift_right(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = shift_args(a, "Nat.bitshiftRight")?;
    Ok(Value::nat_big(x >> y))
}

/// The `Nat` and the shift of `Nat.bitshiftLeft` and `bitshiftRight`.
fn shift_args(a: &[Value], who: &str) -> EResult<(BigUint, u64)> {
    let x = arg(a, 0, who)?;
    let x = to_bigint(x)
        .and_then(|n| n.to_biguint())
        .ok_or_else(|| wrong(who, "Nat", x))?;
    let y = arg(a, 1, who)?;
    let y = to_bigint(y)
        .and_then(|n| n.to_u64())
        .ok_or_else(|| wrong(who, "Nat32", y))?;
    Ok((x, y))
}

/// `Float.fromInt(x)`, `Nat.toFloat(x)`, `Int.toFloat(x)`.
pub fn float_from_int(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Float(super::args::float_arg(a, 0, "Float.fromInt")?))
}
