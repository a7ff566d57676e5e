//! `Float` arithmetic as moc's interpreter (`moc run`, the scripts' reference) computes it,
//! down to which NaN an operation gives: the sign of a NaN shows in `debug_show`
//! (`-nan:0x8_0000_0000_0000`) and orders it in `Float.compare`.
//!
//! The interpreter computes `+ - * /`, `sqrt`, `min`, `max` and the roundings as the
//! WebAssembly reference interpreter does: a NaN operand is passed on (the first one, made
//! quiet), a NaN made from numbers (`0.0 / 0.0`, `inf - inf`) is the positive canonical NaN,
//! `min`/`max` put `-0` below `0`. `%`, `**`/`pow`, `sin`, `cos`, `tan`, `exp` and `log` come
//! from its JavaScript engine (moc's `run` is compiled to JavaScript): NaN operands are
//! passed on (of two in `%`, the one x87's `fprem`, which the engine's `%` runs on, keeps); a
//! NaN it makes is x86's negative default NaN (`sin(inf)`, `inf % 2.0`, `1.5 % 0.0`,
//! `pow(1.0, inf)`, which is NaN there), `0x7FFC_0000_0000_0000` for `log` and `pow` out of
//! their domain, and the positive canonical NaN for `x % 0.0` when the engine holds `x` as a
//! 32-bit integer. Each case was checked against the pinned moc
//! (`tests/conformance/float_nan_*.mo`, and the Floats of `tests/it/script_differential.rs`).

use std::cmp::Ordering;

/// The positive canonical NaN (`nan:0x8_0000_0000_0000`).
const CANONICAL_NAN: u64 = 0x7FF8_0000_0000_0000;
/// The NaN x86 makes from numbers (`-nan:0x8_0000_0000_0000`).
const DEFAULT_NAN: u64 = 0xFFF8_0000_0000_0000;
/// The NaN of `log` and `pow` out of their domain (`nan:0xc_000_0_0000_0000`).
const DOMAIN_NAN: u64 = 0x7FFC_0000_0000_0000;
/// The quiet bit of a NaN's payload.
const QUIET: u64 = 1 << 51;

fn nan(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// `x` made quiet (a NaN operand passed on).
fn quiet(x: f64) -> f64 {
    nan(x.to_bits() | QUIET)
}

/// The result `r` of a WebAssembly operation on `x` and `y`: a NaN result is the first NaN
/// operand, or the canonical NaN when neither is one.
fn wasm(x: f64, y: f64, r: f64) -> f64 {
    if !r.is_nan() {
        r
    } else if x.is_nan() {
        quiet(x)
    } else if y.is_nan() {
        quiet(y)
    } else {
        nan(CANONICAL_NAN)
    }
}

/// The result `r` of a library function of `x`: a NaN operand passed on, else a NaN result
/// is `made` (the NaN that function makes).
fn library(x: f64, r: f64, made: u64) -> f64 {
    if x.is_nan() {
        quiet(x)
    } else if r.is_nan() {
        nan(made)
    } else {
        r
    }
}

/// `x + y`.
pub fn add(x: f64, y: f64) -> f64 {
    wasm(x, y, x + y)
}

/// `x - y`.
pub fn sub(x: f64, y: f64) -> f64 {
    wasm(x, y, x - y)
}

/// `x * y`.
pub fn mul(x: f64, y: f64) -> f64 {
    wasm(x, y, x * y)
}

/// `x / y`.
pub fn div(x: f64, y: f64) -> f64 {
    wasm(x, y, x / y)
}

/// `x % y` (C's `fmod`, as JavaScript's `%`). A NaN it makes (`y` zero or `x` infinite) is
/// the canonical one where the engine takes its 32-bit integer path (`x` an integer of
/// `i32`'s range that is not `-0`, `y` the positive zero), else x86's default NaN.
pub fn rem(x: f64, y: f64) -> f64 {
    if x.is_nan() && y.is_nan() {
        x87_nan(x, y)
    } else if x.is_nan() {
        quiet(x)
    } else if y.is_nan() {
        quiet(y)
    } else if x.is_infinite() || y == 0.0 {
        let int32 = |f: f64| {
            f.trunc() == f
                && (-2_147_483_648.0..=2_147_483_647.0).contains(&f)
                && f.to_bits() != (-0.0f64).to_bits()
        };
        if int32(x) && y.to_bits() == 0 {
            nan(CANONICAL_NAN)
        } else {
            nan(DEFAULT_NAN)
        }
    } else {
        x % y
    }
}

/// Which of two NaN operands x87's `fprem` (the engine's `%`) passes on: a quiet one before a
/// signalling one, then the larger payload, then the positive one.
fn x87_nan(x: f64, y: f64) -> f64 {
    let rank = |f: f64| {
        let b = f.to_bits();
        (b & QUIET != 0, b & ((1 << 52) - 1), b >> 63 == 0)
    };
    quiet(if rank(y) > rank(x) { y } else { x })
}

/// `x ** y` and `Float.pow(x, y)` (JavaScript's `Math.pow`: `pow(x, 0.0)` is 1 even for a
/// NaN `x`, `pow(1.0, y)` is NaN for a NaN or infinite `y`). The exponents `pow` special-cases
/// (as fdlibm's does) are exact: `x ** 1.0`, `x ** -1.0` (`1.0 / x`), `x ** 2.0` (`x * x`),
/// `x ** 0.5` (`sqrt(x)` for a positive `x`); other results come from the C library and may
/// differ from the engine's in the last bits.
pub fn pow(x: f64, y: f64) -> f64 {
    if y == 0.0 {
        1.0
    } else if x.is_nan() {
        quiet(x)
    } else if y.is_nan() {
        quiet(y)
    } else if x.abs() == 1.0 && y.is_infinite() {
        nan(DEFAULT_NAN)
    } else if y == 1.0 {
        x
    } else if y == -1.0 {
        1.0 / x
    } else if y == 2.0 {
        x * x
    } else if y == 0.5 && x.is_sign_positive() {
        x.sqrt()
    } else {
        library(x, x.powf(y), DOMAIN_NAN)
    }
}

/// `Float.sqrt(x)`.
pub fn sqrt(x: f64) -> f64 {
    wasm(x, x, x.sqrt())
}

/// `Float.floor`, `ceil`, `trunc`, `nearest` (`round`: the rounding): a NaN passed on.
pub fn rounded(x: f64, round: fn(f64) -> f64) -> f64 {
    wasm(x, x, round(x))
}

/// `Float.sin`, `cos`, `tan` (`f`): an infinite `x` gives x86's default NaN.
pub fn trig(x: f64, f: fn(f64) -> f64) -> f64 {
    library(x, f(x), DEFAULT_NAN)
}

/// `Float.exp(x)`.
pub fn exp(x: f64) -> f64 {
    library(x, x.exp(), CANONICAL_NAN)
}

/// `Float.log(x)`: a negative `x` gives `nan:0xc_000_0_0000_0000`.
pub fn log(x: f64) -> f64 {
    library(x, x.ln(), DOMAIN_NAN)
}

/// `Float.min(x, y)`: `-0` below `0`, a NaN operand passed on.
pub fn min(x: f64, y: f64) -> f64 {
    match x.partial_cmp(&y) {
        Some(Ordering::Equal) => f64::from_bits(x.to_bits() | y.to_bits()),
        Some(Ordering::Less) => x,
        Some(Ordering::Greater) => y,
        None => wasm(x, y, f64::NAN),
    }
}

/// `Float.max(x, y)`: `0` above `-0`, a NaN operand passed on.
pub fn max(x: f64, y: f64) -> f64 {
    match x.partial_cmp(&y) {
        Some(Ordering::Equal) => f64::from_bits(x.to_bits() & y.to_bits()),
        Some(Ordering::Less) => y,
        Some(Ordering::Greater) => x,
        None => wasm(x, y, f64::NAN),
    }
}

/// `Float.compare(x, y)` as `mo:core` and `mo:base` define it: a total order with the
/// negative NaNs below every number and the positive ones above, NaNs of one sign equal,
/// `-0` equal to `0`.
pub fn compare(x: f64, y: f64) -> Ordering {
    let side = |f: f64| if f.is_sign_negative() { -1 } else { 1 };
    match (x.is_nan(), y.is_nan()) {
        (true, true) => side(x).cmp(&side(y)),
        (true, false) => side(x).cmp(&0),
        (false, true) => 0.cmp(&side(y)),
        (false, false) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(f: f64) -> u64 {
        f.to_bits()
    }

    #[test]
    fn nans_made_from_numbers_are_what_moc_run_makes() {
        let inf = f64::INFINITY;
        assert_eq!(bits(div(0.0, 0.0)), CANONICAL_NAN);
        assert_eq!(bits(sub(inf, inf)), CANONICAL_NAN);
        assert_eq!(bits(mul(0.0, inf)), CANONICAL_NAN);
        assert_eq!(bits(sqrt(-1.0)), CANONICAL_NAN);
        assert_eq!(bits(rem(2.0, 0.0)), CANONICAL_NAN);
        assert_eq!(bits(rem(-2_147_483_648.0, 0.0)), CANONICAL_NAN);
        assert_eq!(bits(rem(2_147_483_648.0, 0.0)), DEFAULT_NAN);
        assert_eq!(bits(rem(1.5, 0.0)), DEFAULT_NAN);
        assert_eq!(bits(rem(-0.0, 0.0)), DEFAULT_NAN);
        assert_eq!(bits(rem(2.0, -0.0)), DEFAULT_NAN);
        assert_eq!(bits(rem(inf, 0.0)), DEFAULT_NAN);
        assert_eq!(bits(trig(inf, f64::sin)), DEFAULT_NAN);
        assert_eq!(bits(pow(1.0, inf)), DEFAULT_NAN);
        assert_eq!(bits(pow(-8.0, 1.0 / 3.0)), DOMAIN_NAN);
        assert_eq!(bits(log(-1.0)), DOMAIN_NAN);
    }

    #[test]
    fn nan_operands_are_passed_on_first_first() {
        let pos = nan(CANONICAL_NAN);
        let neg = -pos;
        assert_eq!(bits(add(neg, pos)), bits(neg));
        assert_eq!(bits(add(pos, neg)), CANONICAL_NAN);
        assert_eq!(bits(sub(1.0, neg)), bits(neg));
        assert_eq!(bits(min(neg, 1.0)), bits(neg));
        assert_eq!(bits(max(1.0, neg)), bits(neg));
        assert_eq!(bits(trig(neg, f64::cos)), bits(neg));
        assert_eq!(bits(pow(1.0, neg)), bits(neg));
        assert_eq!(pow(neg, 0.0), 1.0);
        assert_eq!(bits(rem(neg, 0.0)), bits(neg));
        assert_eq!(bits(pow(pos, neg)), CANONICAL_NAN);
        assert_eq!(bits(pow(neg, pos)), bits(neg));
        // two NaNs in `%`: the larger payload, then the positive one
        assert_eq!(bits(rem(pos, neg)), CANONICAL_NAN);
        assert_eq!(bits(rem(neg, pos)), CANONICAL_NAN);
        assert_eq!(bits(rem(neg, nan(DOMAIN_NAN))), DOMAIN_NAN);
        // a signalling NaN comes out quiet
        let signalling = nan(0x7FF0_0000_0000_0001);
        assert_eq!(bits(add(signalling, 1.0)), 0x7FF8_0000_0000_0001);
    }

    #[test]
    fn min_and_max_order_the_zeros_and_compare_orders_the_nans() {
        assert!(min(0.0, -0.0).is_sign_negative());
        assert!(min(-0.0, 0.0).is_sign_negative());
        assert!(max(-0.0, 0.0).is_sign_positive());
        assert!(max(0.0, -0.0).is_sign_positive());
        assert_eq!(min(1.0, 2.0), 1.0);
        assert_eq!(max(1.0, 2.0), 2.0);
        let pos = nan(CANONICAL_NAN);
        let neg = -pos;
        let inf = f64::INFINITY;
        assert_eq!(compare(pos, inf), Ordering::Greater);
        assert_eq!(compare(-inf, neg), Ordering::Greater);
        assert_eq!(compare(neg, pos), Ordering::Less);
        assert_eq!(compare(pos, pos), Ordering::Equal);
        assert_eq!(compare(-0.0, 0.0), Ordering::Equal);
        assert_eq!(compare(1.0, 2.0), Ordering::Less);
    }
}
