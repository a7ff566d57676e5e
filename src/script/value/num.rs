//! Numbers: Nat/Int with arbitrary precision, the fixed-width types, Float; Motoko's traps.

use super::{float, Value};
use crate::script::syntax::ast::{BinOp, UnOp};
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{Signed, ToPrimitive, Zero};
use std::rc::Rc;

/// The numeric types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumKind {
    /// `Nat`.
    Nat,
    /// `Int`.
    Int,
    /// `Nat8`.
    Nat8,
    /// `Nat16`.
    Nat16,
    /// `Nat32`.
    Nat32,
    /// `Nat64`.
    Nat64,
    /// `Int8`.
    Int8,
    /// `Int16`.
    Int16,
    /// `Int32`.
    Int32,
    /// `Int64`.
    Int64,
    /// `Float`.
    Float,
}

/// The trap message for overflow, underflow and division by zero (as moc prints it).
pub const OVERFLOW: &str = "arithmetic overflow";

type NResult = Result<Value, &'static str>;

impl NumKind {
    /// The kind named by a Motoko type name.
    pub fn from_name(name: &str) -> Option<NumKind> {
        Some(match name {
            "Nat" => NumKind::Nat,
            "Int" => NumKind::Int,
            "Nat8" => NumKind::Nat8,
            "Nat16" => NumKind::Nat16,
            "Nat32" => NumKind::Nat32,
            "Nat64" => NumKind::Nat64,
            "Int8" => NumKind::Int8,
            "Int16" => NumKind::Int16,
            "Int32" => NumKind::Int32,
            "Int64" => NumKind::Int64,
            "Float" => NumKind::Float,
            _ => return None,
        })
    }

    /// The kind of a numeric value.
    pub fn of(v: &Value) -> Option<NumKind> {
        Some(match v {
            Value::Nat(_) | Value::BigNat(_) => NumKind::Nat,
            Value::Int(_) | Value::BigInt(_) => NumKind::Int,
            Value::Nat8(_) => NumKind::Nat8,
            Value::Nat16(_) => NumKind::Nat16,
            Value::Nat32(_) => NumKind::Nat32,
            Value::Nat64(_) => NumKind::Nat64,
            Value::Int8(_) => NumKind::Int8,
            Value::Int16(_) => NumKind::Int16,
            Value::Int32(_) => NumKind::Int32,
            Value::Int64(_) => NumKind::Int64,
            Value::Float(_) => NumKind::Float,
            _ => return None,
        })
    }

    /// Bit width of a fixed-width kind.
    pub fn bits(self) -> Option<u32> {
        Some(match self {
            NumKind::Nat8 | NumKind::Int8 => 8,
            NumKind::Nat16 | NumKind::Int16 => 16,
            NumKind::Nat32 | NumKind::Int32 => 32,
            NumKind::Nat64 | NumKind::Int64 => 64,
            _ => return None,
        })
    }

    /// True for the signed kinds (Int, IntN, Float).
    pub fn signed(self) -> bool {
        matches!(
            self,
            NumKind::Int
                | NumKind::Int8
                | NumKind::Int16
                | NumKind::Int32
                | NumKind::Int64
                | NumKind::Float
        )
    }

    /// Whether the integer `v` is a value of this kind (`Nat`: not negative; `Int` and
    /// `Float`: any integer).
    pub fn holds(self, v: &BigInt) -> bool {
        match self {
            NumKind::Nat => v.sign() != Sign::Minus,
            NumKind::Int | NumKind::Float => true,
            k => {
                let (lo, hi) = k.range();
                *v >= BigInt::from(lo) && *v <= BigInt::from(hi)
            }
        }
    }

    fn range(self) -> (i128, i128) {
        match self {
            NumKind::Nat8 => (0, u8::MAX as i128),
            NumKind::Nat16 => (0, u16::MAX as i128),
            NumKind::Nat32 => (0, u32::MAX as i128),
            NumKind::Nat64 => (0, u64::MAX as i128),
            NumKind::Int8 => (i8::MIN as i128, i8::MAX as i128),
            NumKind::Int16 => (i16::MIN as i128, i16::MAX as i128),
            NumKind::Int32 => (i32::MIN as i128, i32::MAX as i128),
            NumKind::Int64 => (i64::MIN as i128, i64::MAX as i128),
            _ => (i128::MIN, i128::MAX),
        }
    }
}

/// A fixed-width value as i128.
pub fn fixed_of(v: &Value) -> Option<i128> {
    Some(match v {
        Value::Nat8(x) => *x as i128,
        Value::Nat16(x) => *x as i128,
        Value::Nat32(x) => *x as i128,
        Value::Nat64(x) => *x as i128,
        Value::Int8(x) => *x as i128,
        Value::Int16(x) => *x as i128,
        Value::Int32(x) => *x as i128,
        Value::Int64(x) => *x as i128,
        _ => return None,
    })
}

/// Builds a fixed-width value, trapping when `x` is out of range.
pub fn fixed_checked(kind: NumKind, x: i128) -> NResult {
    let (lo, hi) = kind.range();
    if x < lo || x > hi {
        return Err(OVERFLOW);
    }
    Ok(fixed_unchecked(kind, x))
}

/// Builds a fixed-width value by wrapping `x` modulo 2^bits.
pub fn fixed_wrap(kind: NumKind, x: i128) -> Value {
    let bits = kind.bits().unwrap_or(64);
    let mask: i128 = (1i128 << bits) - 1;
    let mut u = x & mask;
    if kind.signed() && u >> (bits - 1) & 1 == 1 {
        u -= 1i128 << bits;
    }
    fixed_unchecked(kind, u)
}

fn fixed_unchecked(kind: NumKind, x: i128) -> Value {
    match kind {
        NumKind::Nat8 => Value::Nat8(x as u8),
        NumKind::Nat16 => Value::Nat16(x as u16),
        NumKind::Nat32 => Value::Nat32(x as u32),
        NumKind::Nat64 => Value::Nat64(x as u64),
        NumKind::Int8 => Value::Int8(x as i8),
        NumKind::Int16 => Value::Int16(x as i16),
        NumKind::Int32 => Value::Int32(x as i32),
        _ => Value::Int64(x as i64),
    }
}

/// Any integer value as a BigInt.
pub fn to_bigint(v: &Value) -> Option<BigInt> {
    Some(match v {
        Value::Nat(x) => BigInt::from(*x),
        Value::BigNat(x) => BigInt::from((**x).clone()),
        Value::Int(x) => BigInt::from(*x),
        Value::BigInt(x) => (**x).clone(),
        _ => BigInt::from(fixed_of(v)?),
    })
}

/// Builds an integer value of `kind` from a BigInt, trapping when out of range.
pub fn from_bigint(kind: NumKind, n: BigInt) -> NResult {
    match kind {
        NumKind::Nat => n.to_biguint().map(Value::nat_big).ok_or(OVERFLOW),
        NumKind::Int => Ok(Value::int_big(n)),
        NumKind::Float => Ok(Value::Float(n.to_f64().unwrap_or(f64::NAN))),
        _ => fixed_checked(kind, n.to_i128().ok_or(OVERFLOW)?),
    }
}

fn wrap_bigint(kind: NumKind, n: &BigInt) -> Value {
    let bits = kind.bits().unwrap_or(64);
    let m = BigInt::from(1u8) << bits;
    let mut r = n % &m;
    if r.sign() == Sign::Minus {
        r += &m;
    }
    fixed_wrap(kind, r.to_i128().unwrap_or(0))
}

/// Converts a number to `kind` (Nat to Int, a literal to a fixed-width type, ...).
pub fn convert(v: Value, kind: NumKind) -> NResult {
    if NumKind::of(&v) == Some(kind) {
        return Ok(v);
    }
    if kind == NumKind::Float {
        return Ok(Value::Float(to_f64(&v).ok_or(OVERFLOW)?));
    }
    match (&v, kind) {
        (Value::Nat(x), NumKind::Int) if *x <= i64::MAX as u64 => Ok(Value::Int(*x as i64)),
        (Value::Float(_), _) => Err("cannot convert a Float implicitly"),
        _ => from_bigint(kind, to_bigint(&v).ok_or("not a number")?),
    }
}

/// A number as f64.
pub fn to_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Float(f) => Some(*f),
        Value::Nat(x) => Some(*x as f64),
        Value::Int(x) => Some(*x as f64),
        _ => to_bigint(v).and_then(|b| b.to_f64()),
    }
}

/// The kind both operands are computed in, given their kinds and an expected kind.
fn join(a: NumKind, b: NumKind, hint: Option<NumKind>) -> NumKind {
    use NumKind::*;
    let k = if a == b {
        a
    } else if a == Float || b == Float {
        Float
    } else if a.bits().is_some() {
        a
    } else if b.bits().is_some() {
        b
    } else {
        Int
    };
    match (k, hint) {
        (Nat, Some(Int)) => Int,
        (Nat | Int, Some(h)) if h != Nat && h != Int => h,
        _ => k,
    }
}

/// Applies an arithmetic, bitwise or text binary operator (not comparisons).
pub fn binary(op: BinOp, a: &Value, b: &Value, hint: Option<NumKind>) -> NResult {
    // fast paths for the common small cases
    match (a, b) {
        (Value::Nat(x), Value::Nat(y)) if hint.is_none() || hint == Some(NumKind::Nat) => {
            let r = match op {
                BinOp::Add => x.checked_add(*y),
                BinOp::Sub => {
                    if y > x {
                        return Err(OVERFLOW);
                    }
                    Some(x - y)
                }
                BinOp::Mul => x.checked_mul(*y),
                BinOp::Div => {
                    if *y == 0 {
                        return Err(OVERFLOW);
                    }
                    Some(x / y)
                }
                BinOp::Rem => {
                    if *y == 0 {
                        return Err(OVERFLOW);
                    }
                    Some(x % y)
                }
                _ => None,
            };
            if let Some(r) = r {
                return Ok(Value::Nat(r));
            }
        }
        (Value::Int(x), Value::Int(y)) => {
            let r = match op {
                BinOp::Add => x.checked_add(*y),
                BinOp::Sub => x.checked_sub(*y),
                BinOp::Mul => x.checked_mul(*y),
                _ => None,
            };
            if let Some(r) = r {
                return Ok(Value::Int(r));
            }
        }
        (Value::Text(x), Value::Text(y)) if op == BinOp::Cat => {
            let mut s = String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            return Ok(Value::Text(Rc::from(s)));
        }
        _ => {}
    }
    if op == BinOp::Cat {
        return Err("`#` needs two Text operands");
    }
    let ka = NumKind::of(a).ok_or("arithmetic on a non-number")?;
    let kb = NumKind::of(b).ok_or("arithmetic on a non-number")?;
    let k = join(ka, kb, hint);
    let a = convert(a.clone(), k)?;
    let b = convert(b.clone(), k)?;
    match k {
        NumKind::Float => float_op(op, float(&a), float(&b)),
        NumKind::Nat | NumKind::Int => big_op(op, k, &a, &b),
        _ => fixed_op(op, k, fixed_of(&a).unwrap_or(0), fixed_of(&b).unwrap_or(0)),
    }
}

fn float(v: &Value) -> f64 {
    match v {
        Value::Float(f) => *f,
        _ => 0.0,
    }
}

fn float_op(op: BinOp, x: f64, y: f64) -> NResult {
    Ok(Value::Float(match op {
        BinOp::Add => float::add(x, y),
        BinOp::Sub => float::sub(x, y),
        BinOp::Mul => float::mul(x, y),
        BinOp::Div => float::div(x, y),
        BinOp::Rem => float::rem(x, y),
        BinOp::Pow => float::pow(x, y),
        _ => return Err("operator not defined on Float"),
    }))
}

/// The largest exponent `**` accepts on Nat and Int (the result would exceed memory).
const MAX_BIG_EXPONENT: u64 = 1 << 20;

/// The largest Nat or Int an operation may produce, in bits (about 315,000 decimal digits):
/// bounds the memory and time of one arithmetic step (`x := x * x` in a loop).
pub const MAX_BIG_BITS: u64 = 1 << 20;

/// The error for an arithmetic result beyond [`MAX_BIG_BITS`].
const TOO_LARGE: &str = "arithmetic result too large (a Nat or Int is limited to 2^20 bits)";

/// Refuses `op` before computing it when its result would exceed [`MAX_BIG_BITS`].
fn check_big_size(op: BinOp, x: &BigInt, y: &BigInt) -> Result<(), &'static str> {
    let (bx, by) = (x.bits(), y.bits());
    let bits = match op {
        BinOp::Add | BinOp::Sub => bx.max(by).saturating_add(1),
        BinOp::Mul => bx.saturating_add(by),
        // |x| >= 2: the result has at least (bits(x) - 1) * e + 1 bits.
        BinOp::Pow if bx >= 2 => {
            let e = y.to_u64().unwrap_or(u64::MAX);
            (bx - 1).saturating_mul(e).saturating_add(1)
        }
        _ => 0,
    };
    if bits > MAX_BIG_BITS {
        return Err(TOO_LARGE);
    }
    Ok(())
}

fn big_op(op: BinOp, k: NumKind, a: &Value, b: &Value) -> NResult {
    let x = to_bigint(a).unwrap_or_default();
    let y = to_bigint(b).unwrap_or_default();
    check_big_size(op, &x, &y)?;
    let r = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => {
            if y.is_zero() {
                return Err(OVERFLOW);
            }
            x / y
        }
        BinOp::Rem => {
            if y.is_zero() {
                return Err(OVERFLOW);
            }
            x % y
        }
        BinOp::Pow => {
            if y.is_negative() {
                return Err(OVERFLOW);
            }
            let e = y.to_u64().unwrap_or(u64::MAX);
            let base_small = x.magnitude() <= &BigUint::from(1u8);
            if e > MAX_BIG_EXPONENT && !base_small {
                return Err("exponent too large");
            }
            num_traits::pow::Pow::pow(x, e.min(MAX_BIG_EXPONENT.max(2)))
        }
        _ => return Err("bitwise operators need a fixed-width type"),
    };
    from_bigint(k, r)
}

fn fixed_op(op: BinOp, k: NumKind, x: i128, y: i128) -> NResult {
    let bits = k.bits().unwrap_or(64);
    match op {
        BinOp::Add => fixed_checked(k, x + y),
        BinOp::Sub => fixed_checked(k, x - y),
        BinOp::Mul => fixed_checked(k, x.checked_mul(y).ok_or(OVERFLOW)?),
        BinOp::Div => {
            if y == 0 {
                return Err(OVERFLOW);
            }
            fixed_checked(k, x / y)
        }
        BinOp::Rem => {
            if y == 0 {
                return Err(OVERFLOW);
            }
            fixed_checked(k, x % y)
        }
        BinOp::AddWrap => Ok(fixed_wrap(k, x.wrapping_add(y))),
        BinOp::SubWrap => Ok(fixed_wrap(k, x.wrapping_sub(y))),
        BinOp::MulWrap => Ok(fixed_wrap(k, x.wrapping_mul(y))),
        BinOp::Pow | BinOp::PowWrap => {
            if y < 0 {
                return Err(OVERFLOW);
            }
            // any exponent up to the type's maximum (`3 **% (2**64 - 1 : Nat64)`)
            let e = y.unsigned_abs();
            if op == BinOp::PowWrap {
                let mut acc: i128 = 1;
                let mut base = x;
                let mut e = e;
                while e > 0 {
                    if e & 1 == 1 {
                        acc = fixed_of(&fixed_wrap(k, acc.wrapping_mul(base))).unwrap_or(0);
                    }
                    base = fixed_of(&fixed_wrap(k, base.wrapping_mul(base))).unwrap_or(0);
                    e >>= 1;
                }
                Ok(fixed_wrap(k, acc))
            } else if e > i32::MAX as u128 {
                // moc's interpreter takes `**`'s exponent as a 31-bit number (`(1 : Nat64) **
                // 2_147_483_648` overflows there, as `**%` of it does not)
                Err(OVERFLOW)
            } else if x.unsigned_abs() >= 2 && e >= 128 {
                // |x|^e >= 2^128: beyond every fixed-width type (and not worth computing).
                Err(OVERFLOW)
            } else {
                let r = num_traits::pow::Pow::pow(BigInt::from(x), e as u32);
                fixed_checked(k, r.to_i128().ok_or(OVERFLOW)?)
            }
        }
        BinOp::And => Ok(fixed_wrap(k, x & y)),
        BinOp::Or => Ok(fixed_wrap(k, x | y)),
        BinOp::Xor => Ok(fixed_wrap(k, x ^ y)),
        BinOp::Shl | BinOp::Shr | BinOp::Rotl | BinOp::Rotr => {
            let mask: i128 = (1i128 << bits) - 1;
            let u = x & mask; // unsigned view
            let s = (y & mask) as u32 % bits;
            let r = match op {
                BinOp::Shl => u << s,
                BinOp::Shr => {
                    if k.signed() {
                        x >> s
                    } else {
                        u >> s
                    }
                }
                BinOp::Rotl => (u << s | u >> ((bits - s) % bits)) & mask,
                _ => (u >> s | u << ((bits - s) % bits)) & mask,
            };
            Ok(fixed_wrap(k, r))
        }
        _ => Err("operator not defined on this type"),
    }
}

/// Applies a unary operator.
pub fn unary(op: UnOp, v: &Value, hint: Option<NumKind>) -> NResult {
    match op {
        UnOp::Pos => Ok(match (v, hint) {
            (Value::Nat(_) | Value::BigNat(_), Some(k)) if k != NumKind::Nat => {
                convert(v.clone(), k)?
            }
            _ => v.clone(),
        }),
        UnOp::Neg => match v {
            Value::Nat(x) if *x <= i64::MAX as u64 => {
                let r = Value::Int(-(*x as i64));
                match hint {
                    Some(k) if k != NumKind::Int && k != NumKind::Nat => convert(r, k),
                    _ => Ok(r),
                }
            }
            Value::Int(x) if *x != i64::MIN => Ok(Value::Int(-x)),
            Value::Float(f) => Ok(Value::Float(-f)),
            Value::Nat(_) | Value::BigNat(_) | Value::Int(_) | Value::BigInt(_) => {
                let r = Value::int_big(-to_bigint(v).unwrap_or_default());
                match hint {
                    Some(k) if k != NumKind::Int && k != NumKind::Nat => convert(r, k),
                    _ => Ok(r),
                }
            }
            _ => {
                let k = NumKind::of(v).ok_or("negation of a non-number")?;
                if !k.signed() {
                    return Err("negation of an unsigned number");
                }
                fixed_checked(k, -fixed_of(v).unwrap_or(0)).map_err(|_| "value out of bounds")
            }
        },
        UnOp::BitNot => {
            let k = NumKind::of(v).ok_or("`^` on a non-number")?;
            if k.bits().is_none() {
                return Err("`^` needs a fixed-width type");
            }
            Ok(fixed_wrap(k, !fixed_of(v).unwrap_or(0)))
        }
    }
}

/// Wrapping conversion used by `Nat8.fromIntWrap` and friends.
pub fn wrap_from(kind: NumKind, v: &Value) -> NResult {
    let n = to_bigint(v).ok_or("not an integer")?;
    Ok(wrap_bigint(kind, &n))
}
