//! The fixed-width integer modules, `Nat8` ... `Int64`: one table ([`fixed_module`]) and one
//! implementation of each function for all eight. A function reads the width from its
//! arguments (their kinds; the tables' hints give literals the module's type), or, where it
//! has none to read it from (`allValues`, a conversion's target), takes it as a type
//! parameter ([`Width`]).

use super::args::{arg, wrong};
use super::numbers::{
    add, bin, convert_arg, convert_in_bounds, div, greater, greater_or_equal, less, less_or_equal,
    max, min, mul, not_equal, out_of_bounds, pow, rem, sub, to_int, to_text, wrap_arg,
};
use super::ranges::{all_values_of, fixed_range, fixed_range_inclusive};
use super::Module;
use crate::script::eval::{trap, trap_in_prim, EResult, Interp};
use crate::script::syntax::ast::{BinOp, UnOp};
use crate::script::value::num::{self, fixed_of};
use crate::script::value::{NumKind, Value};
use std::rc::Rc;

type R = EResult;

/// A fixed-width integer type, for the functions that take their width as a type parameter.
pub trait Width {
    /// The type.
    const KIND: NumKind;
}

macro_rules! widths {
    ($($w:ident = $k:ident),*) => {
        $(
            #[doc = concat!("`", stringify!($k), "` as a [`Width`].")]
            pub struct $w;
            impl Width for $w {
                const KIND: NumKind = NumKind::$k;
            }
        )*
    };
}

widths!(
    N8 = Nat8,
    N16 = Nat16,
    N32 = Nat32,
    N64 = Nat64,
    I8 = Int8,
    I16 = Int16,
    I32 = Int32,
    I64 = Int64
);

/// Argument `i`, a fixed-width value: its type, its value, its bits (the value modulo
/// 2^width) and its width.
fn fixed(a: &[Value], i: usize, who: &str) -> EResult<(NumKind, i128, u128, u32)> {
    let v = arg(a, i, who)?;
    match (NumKind::of(v), fixed_of(v)) {
        (Some(k), Some(x)) => {
            let bits = k.bits().unwrap_or(64);
            Ok((k, x, x as u128 & ((1u128 << bits) - 1), bits))
        }
        _ => Err(wrong(who, "fixed-width integer", v)),
    }
}

macro_rules! binary_fns {
    ($($name:ident: $op:ident, $core:literal;)*) => {
        $(
            #[doc = concat!("`", $core, "(x, y)`.")]
            fn $name(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
                bin(BinOp::$op, a, $core)
            }
        )*
    };
}

binary_fns! {
    add_wrap: AddWrap, "addWrap";
    sub_wrap: SubWrap, "subWrap";
    mul_wrap: MulWrap, "mulWrap";
    pow_wrap: PowWrap, "powWrap";
    bitand: And, "bitand";
    bitor: Or, "bitor";
    bitxor: Xor, "bitxor";
    shift_left: Shl, "bitshiftLeft";
    shift_right: Shr, "bitshiftRight";
    rot_left: Rotl, "bitrotLeft";
    rot_right: Rotr, "bitrotRight";
}

/// `neg(x)` (`-x`: traps on the least value).
fn neg(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    num::unary(UnOp::Neg, arg(a, 0, "neg")?, None).map_err(trap)
}

/// `bitnot(x)` (`^x`).
fn bitnot(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    num::unary(UnOp::BitNot, arg(a, 0, "bitnot")?, None).map_err(trap)
}

/// `abs(x)`: core's `fromInt(Int.abs(toInt(x)))`, so the least value traps in `fromInt`.
fn abs(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (k, x, _, _) = fixed(a, 0, "abs")?;
    num::fixed_checked(k, x.abs()).map_err(|_| out_of_bounds(k))
}

/// The bit position `p` of `bittest(x, p)` and its kin: core converts it to `x`'s type first
/// (`Prim.intToInt8(p)`, `Prim.natToNat8(p)`, trapping there when it does not fit) and the
/// operation takes it modulo the width.
fn position(k: NumKind, bits: u32, a: &[Value], who: &str) -> EResult<u32> {
    let p = convert_in_bounds(a.get(1..).unwrap_or_default(), k, who)?;
    Ok((fixed_of(&p).unwrap_or(0) as u128 % bits as u128) as u32)
}

/// `bittest(x, p)`: whether bit `p` of `x` is set.
fn bittest(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (k, _, u, bits) = fixed(a, 0, "bittest")?;
    let p = position(k, bits, a, "bittest")?;
    Ok(Value::Bool(u >> p & 1 == 1))
}

/// `bitset`, `bitclear`, `bitflip(x, p)`: `x` with bit `p` set, cleared or flipped.
fn bit_op(a: &[Value], who: &str, op: fn(i128, i128) -> i128) -> R {
    let (k, x, _, bits) = fixed(a, 0, who)?;
    let p = position(k, bits, a, who)?;
    Ok(num::fixed_wrap(k, op(x, 1 << p)))
}

fn bitset(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bit_op(a, "bitset", |x, m| x | m)
}

fn bitclear(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bit_op(a, "bitclear", |x, m| x & !m)
}

fn bitflip(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bit_op(a, "bitflip", |x, m| x ^ m)
}

/// `bitcountNonZero`, `bitcountLeadingZero`, `bitcountTrailingZero(x)`: a count of the
/// bits of `x`, in `x`'s type.
fn bit_count(a: &[Value], who: &str, count: fn(u128, u32) -> u32) -> R {
    let (k, _, u, bits) = fixed(a, 0, who)?;
    Ok(num::fixed_wrap(k, count(u, bits) as i128))
}

fn count_non_zero(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bit_count(a, "bitcountNonZero", |u, _| u.count_ones())
}

fn count_leading_zero(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bit_count(a, "bitcountLeadingZero", |u, bits| {
        u.leading_zeros() - (128 - bits)
    })
}

fn count_trailing_zero(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    bit_count(a, "bitcountTrailingZero", |u, bits| {
        u.trailing_zeros().min(bits)
    })
}

/// `explode(x)`: the bytes of `x`, most significant first, as a tuple of `Nat8`.
fn explode(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (_, _, u, bits) = fixed(a, 0, "explode")?;
    let n = bits / 8;
    it.alloc(16 * n as u64)?;
    let bytes: Vec<Value> = (0..n)
        .rev()
        .map(|i| Value::Nat8((u >> (8 * i)) as u8))
        .collect();
    Ok(Value::Tuple(Rc::from(bytes)))
}

/// The primitive narrowing a signed or unsigned value into `bits` bits, whose trap moc
/// reports (`Int64.toInt8` is core's `int16ToInt8(int32ToInt16(int64ToInt32(x)))`: the
/// first step the value does not fit fails).
fn narrowing_location(signed: bool, bits: u32) -> &'static str {
    match (signed, bits) {
        (true, 32) => "prim:453.41-453.68",
        (true, 16) => "prim:454.41-454.68",
        (true, _) => "prim:455.39-455.65",
        (false, 32) => "prim:445.41-445.68",
        (false, 16) => "prim:446.41-446.68",
        (false, _) => "prim:447.39-447.65",
    }
}

/// `W.fromX(x)` and `X.toW(x)`: argument 0 in the fixed-width type `W`, as core converts.
/// From another width of the same signedness: exact when wider, else narrowed one halving at
/// a time, trapping at the first that does not fit; from the other signedness at the same
/// width (`Int8.fromNat8`, `Int8.toNat8`): its bits reinterpreted; from `Nat` or `Int`
/// (`Nat.toNat8`, `Int.toInt8`): checked, trapping as `Prim.natToNat8`.
pub(super) fn to_kind<W: Width>(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let target = W::KIND;
    let to_bits = target.bits().unwrap_or(64);
    let v = arg(a, 0, "conversion")?;
    let (Some(k), Some(x)) = (NumKind::of(v), fixed_of(v)) else {
        return convert_in_bounds(a, target, "conversion");
    };
    let from_bits = k.bits().unwrap_or(64);
    if k.signed() != target.signed() {
        return if from_bits == to_bits {
            Ok(num::fixed_wrap(target, x))
        } else {
            num::fixed_checked(target, x).map_err(trap)
        };
    }
    let mut bits = from_bits / 2;
    while bits >= to_bits {
        let (lo, hi) = if target.signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        };
        if x < lo || x > hi {
            return Err(trap_in_prim(
                narrowing_location(target.signed(), bits),
                "value out of bounds",
            ));
        }
        bits /= 2;
    }
    num::fixed_checked(target, x).map_err(trap)
}

/// `allValues()`: every value of `W`, from the least.
fn all_values<W: Width>(_: &mut Interp, _: Option<&Value>, _: &[Value]) -> R {
    Ok(all_values_of(W::KIND))
}

/// `maxValue` of `W`.
fn max_value<W: Width>() -> Value {
    let bits = W::KIND.bits().unwrap_or(64);
    let top = if W::KIND.signed() { bits - 1 } else { bits };
    num::fixed_wrap(W::KIND, (1i128 << top) - 1)
}

/// `minValue` of `W`.
fn min_value<W: Width>() -> Value {
    let bits = W::KIND.bits().unwrap_or(64);
    let least = if W::KIND.signed() {
        -(1i128 << (bits - 1))
    } else {
        0
    };
    num::fixed_wrap(W::KIND, least)
}

/// One member a module has beyond the functions every fixed-width module has: `abs` and
/// `neg` (signed), `explode` (16 bits and more), `toChar` (`Nat32`).
macro_rules! extra {
    (abs, $k:ident) => {
        func!("abs", abs, &[Some(NumKind::$k)])
    };
    (neg, $k:ident) => {
        func!("neg", neg, &[Some(NumKind::$k)])
    };
    (explode, $k:ident) => {
        func!("explode", explode, &[Some(NumKind::$k)])
    };
    (toChar, $k:ident) => {
        func!("toChar", super::text::char_from_nat32, &[Some(NumKind::$k)])
    };
}

/// The module table of the fixed-width type `$w` (`$k`), with `fromX`/`toX` conversions to
/// and from each type of `[$ow: $ok]` and the `extra` members.
macro_rules! fixed_module {
    ($stat:ident, $name:literal, $w:ident: $k:ident, [$($ow:ident: $ok:ident),*], [$($extra:ident),*]) => {
        #[doc = concat!("`mo:core/", $name, "`.")]
        pub static $stat: Module = Module {
            name: $name,
            members: {
                const K: Option<NumKind> = Some(NumKind::$k);
                const NAT: Option<NumKind> = Some(NumKind::Nat);
                &[
                    func!("toNat", to_nat, &[K]),
                    func!("fromNat", to_kind::<$w>, &[NAT]),
                    func!("toInt", to_int, &[K]),
                    func!("fromInt", to_kind::<$w>, &[Some(NumKind::Int)]),
                    func!("fromIntWrap", wrap::<$w>, &[Some(NumKind::Int)]),
                    func!("fromNatWrap", wrap::<$w>, &[NAT]),
                    func!("toText", to_text, &[K]),
                    func!("compare", super::collections::compare, &[K, K]),
                    func!("equal", super::collections::equal, &[K, K]),
                    func!("notEqual", not_equal, &[K, K]),
                    func!("less", less, &[K, K]),
                    func!("lessOrEqual", less_or_equal, &[K, K]),
                    func!("greater", greater, &[K, K]),
                    func!("greaterOrEqual", greater_or_equal, &[K, K]),
                    func!("min", min, &[K, K]),
                    func!("max", max, &[K, K]),
                    func!("add", add, &[K, K]),
                    func!("sub", sub, &[K, K]),
                    func!("mul", mul, &[K, K]),
                    func!("div", div, &[K, K]),
                    func!("rem", rem, &[K, K]),
                    func!("pow", pow, &[K, K]),
                    func!("addWrap", add_wrap, &[K, K]),
                    func!("subWrap", sub_wrap, &[K, K]),
                    func!("mulWrap", mul_wrap, &[K, K]),
                    func!("powWrap", pow_wrap, &[K, K]),
                    func!("bitnot", bitnot, &[K]),
                    func!("bitand", bitand, &[K, K]),
                    func!("bitor", bitor, &[K, K]),
                    func!("bitxor", bitxor, &[K, K]),
                    func!("bitshiftLeft", shift_left, &[K, K]),
                    func!("bitshiftRight", shift_right, &[K, K]),
                    func!("bitrotLeft", rot_left, &[K, K]),
                    func!("bitrotRight", rot_right, &[K, K]),
                    func!("bittest", bittest, &[K, NAT]),
                    func!("bitset", bitset, &[K, NAT]),
                    func!("bitclear", bitclear, &[K, NAT]),
                    func!("bitflip", bitflip, &[K, NAT]),
                    func!("bitcountNonZero", count_non_zero, &[K]),
                    func!("bitcountLeadingZero", count_leading_zero, &[K]),
                    func!("bitcountTrailingZero", count_trailing_zero, &[K]),
                    func!("range", fixed_range, &[K, K]),
                    func!("rangeInclusive", fixed_range_inclusive, &[K, K]),
                    func!("allValues", all_values::<$w>),
                    constant!("maxValue", max_value::<$w>),
                    constant!("minValue", min_value::<$w>),
                    $(
                        func!(concat!("from", stringify!($ok)), to_kind::<$w>, &[Some(NumKind::$ok)]),
                        func!(concat!("to", stringify!($ok)), to_kind::<$ow>, &[K]),
                    )*
                    $(extra!($extra, $k),)*
                ]
            },
        };
    };
}

/// `toNat(x)`.
fn to_nat(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    convert_arg(a, NumKind::Nat, "toNat")
}

/// `fromIntWrap(x)` (and mo:base's `fromNatWrap`): `x` modulo 2^width.
fn wrap<W: Width>(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    wrap_arg(a, W::KIND, "fromIntWrap")
}

fixed_module!(NAT8, "Nat8", N8: Nat8, [N16: Nat16, N32: Nat32, N64: Nat64], []);
fixed_module!(NAT16, "Nat16", N16: Nat16, [N8: Nat8, N32: Nat32, N64: Nat64], [explode]);
fixed_module!(NAT32, "Nat32", N32: Nat32, [N8: Nat8, N16: Nat16, N64: Nat64], [explode, toChar]);
fixed_module!(NAT64, "Nat64", N64: Nat64, [N8: Nat8, N16: Nat16, N32: Nat32], [explode]);
fixed_module!(INT8, "Int8", I8: Int8, [I16: Int16, I32: Int32, I64: Int64, N8: Nat8], [abs, neg]);
fixed_module!(INT16, "Int16", I16: Int16, [I8: Int8, I32: Int32, I64: Int64, N16: Nat16], [abs, neg, explode]);
fixed_module!(INT32, "Int32", I32: Int32, [I8: Int8, I16: Int16, I64: Int64, N32: Nat32], [abs, neg, explode]);
fixed_module!(INT64, "Int64", I64: Int64, [I8: Int8, I16: Int16, I32: Int32, N64: Nat64], [abs, neg, explode]);
