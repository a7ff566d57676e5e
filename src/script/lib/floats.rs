//! `mo:core/Float`, computed as `moc run` computes it, NaNs included (sign and payload: see
//! [`crate::script::value::float`]). Arithmetic and the roundings are WebAssembly's; the
//! functions `moc run` takes from its JavaScript engine come from fdlibm, as V8 has them,
//! through the `libm` crate: `tan`, `exp`, `arcsin`, `arccos`, `arctan` and `arctan2` give
//! V8's bits; `sin`, `cos` and `log` (musl's versions) differ from V8's in the last bit for
//! about one argument in 200, and `pow` (shared with `**`) comes from the C library.
//! `Float.format` is in [`super::float_format`].

use super::args::float_arg;
use crate::script::eval::{trap, trap_in_prim, EResult, Interp};
use crate::script::value::float;
use crate::script::value::Value;

type R = EResult;

/// The NaN `moc run` gives for `arcsin` and `arccos` of any NaN or of a number out of their
/// domain, and for `log` of a negative number (`nan:0xc_000_0_0000_0000`).
const DOMAIN_NAN: u64 = 0x7FFC_0000_0000_0000;

/// A NaN operand as a function passes it on: quiet, its sign and payload kept.
fn quiet(x: f64) -> f64 {
    f64::from_bits(x.to_bits() | 1 << 51)
}

/// `f(x)` for a function that passes a NaN operand on and makes no NaN of its own.
fn passing(x: f64, f: fn(f64) -> f64) -> f64 {
    if x.is_nan() {
        quiet(x)
    } else {
        f(x)
    }
}

/// `arcsin` and `arccos` (`f`): V8 gives one NaN for every NaN operand and every number
/// outside `[-1, 1]`.
fn inverse_trig(x: f64, f: fn(f64) -> f64) -> f64 {
    if x.is_nan() || x.abs() > 1.0 {
        f64::from_bits(DOMAIN_NAN)
    } else {
        f(x)
    }
}

/// `arctan2(y, x)`: of two NaN operands `x` is passed on, else the NaN one.
fn arctan2_of(y: f64, x: f64) -> f64 {
    if x.is_nan() {
        quiet(x)
    } else if y.is_nan() {
        quiet(y)
    } else {
        libm::atan2(y, x)
    }
}

/// V8's `Math.exp`: fdlibm's, but `e` itself for 1 (where fdlibm is one unit off in the last
/// place).
fn v8_exp(x: f64) -> f64 {
    if x == 1.0 {
        std::f64::consts::E
    } else {
        libm::exp(x)
    }
}

macro_rules! float_fn {
    ($name:ident, $core:literal, $e:expr) => {
        #[doc = concat!("`Float.", $core, "(x)`.")]
        pub fn $name(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
            let x = float_arg(a, 0, concat!("Float.", $core))?;
            let f: fn(f64) -> f64 = $e;
            Ok(Value::Float(f(x)))
        }
    };
}

float_fn!(sqrt, "sqrt", float::sqrt);
float_fn!(abs, "abs", f64::abs);
float_fn!(floor, "floor", |x| float::rounded(x, f64::floor));
float_fn!(ceil, "ceil", |x| float::rounded(x, f64::ceil));
float_fn!(trunc, "trunc", |x| float::rounded(x, f64::trunc));
float_fn!(nearest, "nearest", |x| float::rounded(
    x,
    f64::round_ties_even
));
float_fn!(sin, "sin", |x| float::trig(x, libm::sin));
float_fn!(cos, "cos", |x| float::trig(x, libm::cos));
float_fn!(tan, "tan", |x| float::trig(x, libm::tan));
float_fn!(arcsin, "arcsin", |x| inverse_trig(x, libm::asin));
float_fn!(arccos, "arccos", |x| inverse_trig(x, libm::acos));
float_fn!(arctan, "arctan", |x| passing(x, libm::atan));
float_fn!(exp, "exp", |x| passing(x, v8_exp));
float_fn!(log, "log", |x| {
    let r = passing(x, libm::log);
    if r.is_nan() && !x.is_nan() {
        f64::from_bits(DOMAIN_NAN)
    } else {
        r
    }
});
float_fn!(neg, "neg", |x| -x);

macro_rules! float_fn2 {
    ($name:ident, $core:literal, $e:expr) => {
        #[doc = concat!("`Float.", $core, "(x, y)`.")]
        pub fn $name(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
            let who = concat!("Float.", $core);
            let (x, y) = (float_arg(a, 0, who)?, float_arg(a, 1, who)?);
            let f: fn(f64, f64) -> f64 = $e;
            Ok(Value::Float(f(x, y)))
        }
    };
}

float_fn2!(add, "add", float::add);
float_fn2!(sub, "sub", float::sub);
float_fn2!(mul, "mul", float::mul);
float_fn2!(div, "div", float::div);
float_fn2!(rem, "rem", float::rem);
float_fn2!(pow, "pow", float::pow);
float_fn2!(min, "min", float::min);
float_fn2!(max, "max", float::max);
float_fn2!(copy_sign, "copySign", f64::copysign);
float_fn2!(arctan2, "arctan2", arctan2_of);

/// `Float.toInt(x)` (truncates; traps on NaN and infinities).
pub fn to_int(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
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

/// `Float.toInt64(x)`: truncated; NaN, the infinities and numbers beyond `Int64` trap (moc's
/// interpreter fails there with an internal error).
pub fn to_int64(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let x = float_arg(a, 0, "Float.toInt64")?;
    if x.is_nan() || x.is_infinite() {
        return Err(trap("Float.toInt64: argument is NaN or infinite"));
    }
    let t = x.trunc();
    // -2^63 <= t < 2^63
    if !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&t) {
        return Err(trap("Float.toInt64: value out of bounds"));
    }
    Ok(Value::Int64(t as i64))
}

/// `Float.fromInt64(x)`: the nearest Float (ties to even).
pub fn from_int64(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Float(float_arg(a, 0, "Float.fromInt64")?))
}

/// `Float.isNaN(x)`.
pub fn is_nan(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(float_arg(a, 0, "Float.isNaN")?.is_nan()))
}

/// `Float.equal(x, y, epsilon)`: equal within `epsilon` (mo:core; traps on a negative or
/// NaN `epsilon`, in `Prim.trap` as core does).
pub fn equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(within(a, "Float.equal")?))
}

/// `Float.notEqual(x, y, epsilon)`: not equal within `epsilon`.
pub fn not_equal(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    Ok(Value::Bool(!within(a, "Float.notEqual")?))
}

fn within(a: &[Value], who: &str) -> EResult<bool> {
    let (x, y) = (float_arg(a, 0, who)?, float_arg(a, 1, who)?);
    let epsilon = float_arg(a, 2, who)?;
    if epsilon.is_nan() || epsilon < 0.0 {
        return Err(trap_in_prim(
            "prim:63.31-63.42",
            format!("explicit trap: {who}(): epsilon must be greater or equal 0.0"),
        ));
    }
    Ok(x == y || (x - y).abs() <= epsilon)
}

/// `Float.compare(x, y)`: the total order of `mo:core` and `mo:base` (NaNs by sign).
pub fn compare(_: &mut Interp, _: Option<&Value>, a: &[Value]) -> R {
    let (x, y) = (
        float_arg(a, 0, "Float.compare")?,
        float_arg(a, 1, "Float.compare")?,
    );
    Ok(super::collections::order_value(float::compare(x, y)))
}
