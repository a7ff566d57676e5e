//! `Float.format(x, #fix p)`, `#exp p`, `#gen p` and `#exact`, printed exactly as `moc run`
//! prints them. moc's interpreter formats with OCaml's `Printf` (`%.*f`, `%.*e`, `%.*g`;
//! `#exact` is `%.17g`), which js_of_ocaml runs on JavaScript's `toFixed` and
//! `toExponential` (its `caml_format_float`), with their quirks: ties round away from zero
//! (`#fix 0` of `2.5` is `3`), `nan` has no sign, `%f` of a number from 1e21 up is its leading
//! digits (from V8's `Math.pow(10, n)`, which is not always the nearest Float) padded with
//! zeros, `%g` decides between the two notations by js_of_ocaml's own rule, and a precision
//! above 100 where JavaScript refuses it is a `RangeError` (moc stops with an internal error;
//! mo-mem traps).

use super::args::{arg, float_arg, wrong};
use super::view;
use crate::script::eval::{trap, EResult, Interp};
use crate::script::value::num::to_bigint;
use crate::script::value::Value;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive};

/// JavaScript's refusal of a precision above 100.
#[derive(Debug, PartialEq, Eq)]
struct RangeError(&'static str);

const TO_FIXED: RangeError = RangeError("toFixed() digits argument must be between 0 and 100");
const TO_EXPONENTIAL: RangeError = RangeError("toExponential() argument must be between 0 and 100");

/// `Float.format(x, fmt)`.
pub fn format(it: &mut Interp, _: Option<&Value>, a: &[Value]) -> EResult {
    let x = float_arg(a, 0, "Float.format")?;
    let fmt = arg(a, 1, "Float.format")?;
    let (tag, payload) =
        view::variant(it, fmt)?.ok_or_else(|| wrong("Float.format", "format variant", fmt))?;
    let precision = || -> EResult<u32> {
        to_bigint(&payload)
            .and_then(|p| p.to_u8())
            .map(u32::from)
            .ok_or_else(|| wrong("Float.format", "Nat8 precision", &payload))
    };
    let (conversion, precision) = match &*tag {
        "fix" => ('f', precision()?),
        "exp" => ('e', precision()?),
        "gen" => ('g', precision()?),
        "exact" => ('g', 17),
        _ => return Err(wrong("Float.format", "format variant", fmt)),
    };
    let text = format_float(x, conversion, precision).map_err(|RangeError(e)| {
        trap(format!(
            "Float.format: RangeError: {e} (moc's interpreter fails with an internal error)"
        ))
    })?;
    it.alloc(text.len() as u64)?;
    Ok(Value::text(&text))
}

/// js_of_ocaml's `caml_format_float` of `%.{precision}{conversion}`.
fn format_float(x: f64, conversion: char, precision: u32) -> Result<String, RangeError> {
    let negative = x < 0.0 || x == 0.0 && x.is_sign_negative();
    let x = x.abs();
    let body = if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        "inf".to_string()
    } else {
        match conversion {
            'e' => pad_exponent(to_exponential(x, precision)?),
            'f' => fixed(x, precision)?,
            _ => general(x, precision)?,
        }
    };
    Ok(if negative { format!("-{body}") } else { body })
}

/// `%e`'s exponent has at least two digits (`1e+05`).
fn pad_exponent(mut s: String) -> String {
    if s.len() >= 3 && s.as_bytes()[s.len() - 3] == b'e' {
        s.insert(s.len() - 1, '0');
    }
    s
}

/// `%f`: JavaScript's `toFixed`, except from 1e21 up (where `toFixed` gives the shortest
/// text in exponential notation): the number divided by a power of ten to about 1e20, its
/// digits, then zeros.
fn fixed(x: f64, precision: u32) -> Result<String, RangeError> {
    if x < 1.0 {
        return to_fixed(x, precision);
    }
    let (_, exponent) = shortest(x);
    if exponent <= 20 {
        return to_fixed(x, precision);
    }
    let zeros = exponent - 20;
    let mut s = js_to_string(x / v8_pow10(zeros));
    s.push_str(&"0".repeat(zeros as usize));
    if precision > 0 {
        s.push('.');
        s.push_str(&"0".repeat(precision as usize));
    }
    Ok(s)
}

/// `%g` as js_of_ocaml writes it: `toExponential` with trailing zeros removed when the
/// exponent is below -4 or the integer part has more digits than the precision, else
/// `toFixed` with as many decimals as fit the precision, trailing zeros removed.
fn general(x: f64, precision: u32) -> Result<String, RangeError> {
    let t = precision.max(1);
    let e = to_exponential(x, t - 1)?;
    let at = e.find('e').unwrap_or(e.len());
    let exponent: i64 = e[at + 1..].parse().unwrap_or(0);
    if exponent < -4 || x >= 1e21 || to_fixed(x, 0)?.len() > t as usize {
        let mantissa = e[..at].trim_end_matches('0');
        let mantissa = mantissa.strip_suffix('.').unwrap_or(mantissa);
        return Ok(pad_exponent(format!("{mantissa}{}", &e[at..])));
    }
    let mut decimals = t as i64;
    let s = if exponent < 0 {
        decimals -= exponent + 1;
        to_fixed(x, decimals as u32)?
    } else {
        loop {
            let s = to_fixed(x, decimals as u32)?;
            if s.len() <= t as usize + 1 || decimals == 0 {
                break s;
            }
            decimals -= 1;
        }
    };
    if decimals == 0 {
        return Ok(s);
    }
    let s = s.trim_end_matches('0');
    Ok(s.strip_suffix('.').unwrap_or(s).to_string())
}

/// `x` (finite, not negative) as `m * 2^e` exactly.
fn parts(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, exponent - 1075)
    }
}

/// `x * 10^p` (`x` finite, not negative) as a fraction `(numerator, denominator)`.
fn scaled(x: f64, p: i64) -> (BigUint, BigUint) {
    let (m, e) = parts(x);
    let mut num = BigUint::from(m);
    let mut den = BigUint::one();
    if e >= 0 {
        num <<= e as u64;
    } else {
        den <<= e.unsigned_abs() as u64;
    }
    let ten = BigUint::from(10u8);
    if p >= 0 {
        num *= ten.pow(p as u32);
    } else {
        den *= ten.pow(p.unsigned_abs() as u32);
    }
    (num, den)
}

/// The integer nearest to `x * 10^p` (finite, not negative), the larger of two equally near:
/// what `toFixed` and `toExponential` round to.
fn scaled_round(x: f64, p: i64) -> BigUint {
    let (num, den) = scaled(x, p);
    (num * 2u8 + &den) / (den * 2u8)
}

/// The decimal exponent of `x` (finite, positive): `10^e <= x < 10^(e + 1)`. The shortest
/// digits' exponent, or one less for a number just below a power of ten (the shortest text
/// of the Float nearest to 1e-274 is `1e-274`, its value 9.99...97e-275).
fn decimal_exponent(x: f64) -> i64 {
    let e = shortest(x).1;
    let (num, den) = scaled(x, -e);
    if num < den {
        e - 1
    } else {
        e
    }
}

/// JavaScript's `x.toFixed(f)` for `x` finite, not negative and below 1e21.
fn to_fixed(x: f64, f: u32) -> Result<String, RangeError> {
    if f > 100 {
        return Err(TO_FIXED);
    }
    let digits = scaled_round(x, f as i64).to_string();
    if f == 0 {
        return Ok(digits);
    }
    let f = f as usize;
    let digits = if digits.len() <= f {
        format!("{}{digits}", "0".repeat(f + 1 - digits.len()))
    } else {
        digits
    };
    let point = digits.len() - f;
    Ok(format!("{}.{}", &digits[..point], &digits[point..]))
}

/// JavaScript's `x.toExponential(f)` for `x` finite and not negative.
fn to_exponential(x: f64, f: u32) -> Result<String, RangeError> {
    if f > 100 {
        return Err(TO_EXPONENTIAL);
    }
    let (digits, exponent) = if x == 0.0 {
        ("0".repeat(f as usize + 1), 0)
    } else {
        // x's own exponent, one more where rounding carries (9.96 to 1.0e+1)
        let exponent = decimal_exponent(x);
        let n = scaled_round(x, f as i64 - exponent).to_string();
        if n.len() > f as usize + 1 {
            (
                scaled_round(x, f as i64 - exponent - 1).to_string(),
                exponent + 1,
            )
        } else {
            (n, exponent)
        }
    };
    let sign = if exponent < 0 { '-' } else { '+' };
    let (first, rest) = digits.split_at(1);
    let point = if rest.is_empty() { "" } else { "." };
    Ok(format!("{first}{point}{rest}e{sign}{}", exponent.abs()))
}

/// The shortest digits that read back as `x` (finite, positive) and the decimal exponent of
/// the first: `x = d.ddd * 10^exponent` (as JavaScript's `Number.prototype.toString` picks
/// them).
fn shortest(x: f64) -> (String, i64) {
    let s = format!("{x:e}");
    let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
    (mantissa.replace('.', ""), exponent.parse().unwrap_or(0))
}

/// JavaScript's `x.toString()` for `x` finite and positive.
fn js_to_string(x: f64) -> String {
    let (digits, exponent) = shortest(x);
    let k = digits.len() as i64;
    let n = exponent + 1;
    if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat(n.unsigned_abs() as usize))
    } else {
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        let sign = if n - 1 < 0 { '-' } else { '+' };
        format!("{first}{point}{rest}e{sign}{}", (n - 1).abs())
    }
}

/// The exponents `n` (up to 288, the largest `%f` uses) at which V8's `Math.pow(10, n)` is not
/// the Float nearest to 10^n, and by how many units in the last place it is off.
const V8_POW10_OFF: &[(i64, i64)] = &[
    (26, -1),
    (29, 1),
    (34, 1),
    (36, -1),
    (39, 1),
    (42, -1),
    (49, 1),
    (58, 1),
    (61, 1),
    (70, -1),
    (95, -1),
    (96, -1),
    (111, 1),
    (126, 1),
    (136, -1),
    (142, -1),
    (165, 1),
    (166, 1),
    (169, 1),
    (187, 1),
    (191, -1),
    (210, 1),
    (215, 1),
    (218, -1),
    (225, 1),
    (232, -1),
    (242, -1),
    (244, -1),
    (260, -1),
    (273, 1),
    (274, 1),
    (275, 1),
    (279, -1),
    (284, -1),
];

/// V8's `Math.pow(10, n)` for `0 <= n <= 288`.
fn v8_pow10(n: i64) -> f64 {
    let nearest: f64 = format!("1e{n}").parse().unwrap_or(f64::INFINITY);
    match V8_POW10_OFF.iter().find(|(m, _)| *m == n) {
        Some((_, off)) => f64::from_bits((nearest.to_bits() as i64 + off) as u64),
        None => nearest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f64, c: char, p: u32) -> String {
        format_float(x, c, p).unwrap()
    }

    #[test]
    fn ties_round_up_and_specials_print_as_moc_run() {
        // each checked against the pinned `moc run`
        assert_eq!(f(0.5, 'f', 0), "1");
        assert_eq!(f(2.5, 'f', 0), "3");
        assert_eq!(f(1.25, 'f', 1), "1.3");
        assert_eq!(f(1e21, 'f', 2), "1000000000000000000000.00");
        assert_eq!(f(-0.0, 'e', 3), "-0.000e+00");
        assert_eq!(f(f64::NAN, 'g', 3), "nan");
        assert_eq!(f(-f64::NAN, 'g', 3), "nan");
        assert_eq!(f(f64::NEG_INFINITY, 'g', 3), "-inf");
        assert_eq!(f(0.1, 'g', 17), "0.10000000000000001");
        assert_eq!(f(123456.0, 'g', 0), "1e+05");
        assert_eq!(f(1e-274, 'g', 17), "9.9999999999999997e-275");
        assert_eq!(f(9.96, 'e', 1), "1.0e+01");
        assert_eq!(
            f(0.1, 'f', 100),
            "0.1000000000000000055511151231257827021181583404541015625000000000000000000000000000000000000000000000"
        );
        let big = f(1.5e300, 'f', 2);
        assert_eq!(big.len(), 301 + 3);
        assert!(big.starts_with("15000") && big.ends_with("000.00"));
    }

    #[test]
    fn precisions_javascript_refuses_are_range_errors() {
        assert_eq!(format_float(0.1, 'f', 101), Err(TO_FIXED));
        assert_eq!(format_float(0.1, 'e', 101), Err(TO_EXPONENTIAL));
        // where js_of_ocaml does not call them, any precision works
        assert_eq!(f(1e300, 'f', 150).len(), 301 + 151);
        let tiny = f(1e-10, 'g', 101);
        assert!(tiny.starts_with("1.00000000000000003643") && tiny.ends_with("5e-10"));
        assert_eq!(f(f64::NAN, 'e', 255), "nan");
    }

    #[test]
    fn javascript_number_text() {
        assert_eq!(js_to_string(1e20), "100000000000000000000");
        assert_eq!(js_to_string(1e21), "1e+21");
        assert_eq!(js_to_string(1.5), "1.5");
        assert_eq!(js_to_string(1.5e-7), "1.5e-7");
        assert_eq!(js_to_string(0.000001), "0.000001");
        assert_eq!(v8_pow10(26).to_bits(), 1e26f64.to_bits() - 1);
        assert_eq!(v8_pow10(22), 1e22);
    }
}
