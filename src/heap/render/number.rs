//! Number formatting as Motoko's `debug_show` does it: `_` between groups of three digits,
//! `+` before positive `Int`s, and Rust's `{:.6}` for `Float` (moc's interpreter: `%.17g`).

use std::fmt::{Display, Write as _};

use super::shape::FloatStyle;

/// The decimal digits of a non-negative number with `_` every three digits from the right.
pub fn group_digits(digits: &str) -> String {
    let n = digits.len();
    let mut out = String::with_capacity(n + n / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (n - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// A natural number as `debug_show` prints it (`1_000_000`).
pub fn show_nat(n: impl Display) -> String {
    group_digits(&n.to_string())
}

/// An integer as `debug_show` prints it: `0`, `+1_000`, `-42`.
pub fn show_int(n: impl Display) -> String {
    let s = n.to_string();
    match s.strip_prefix('-') {
        Some(abs) => format!("-{}", group_digits(abs)),
        None if s == "0" => s,
        None => format!("+{}", group_digits(&s)),
    }
}

/// A float as `debug_show` prints it in a compiled canister: six decimals (`3.250000`,
/// `-0.000000`, `inf`, `NaN`).
pub fn show_float(f: f64) -> String {
    format!("{f:.6}")
}

/// A float as `debug_show` prints it in a canister whose RTS formats with C's `snprintf`:
/// as [`show_float`] but a NaN is `nan` or `-nan` by its sign.
pub fn show_float_libc(f: f64) -> String {
    match (f.is_nan(), f.is_sign_negative()) {
        (true, false) => "nan".to_string(),
        (true, true) => "-nan".to_string(),
        (false, _) => show_float(f),
    }
}

/// A float as `debug_show` prints it in `style`.
pub fn show_float_as(f: f64, style: FloatStyle) -> String {
    match style {
        FloatStyle::Compiled => show_float(f),
        FloatStyle::CompiledLibc => show_float_libc(f),
        FloatStyle::Interpreted => show_float_interpreted(f),
    }
}

/// Fraction digits with `_` every three digits from the left.
fn group_frac(digits: &str) -> String {
    let mut s = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && i % 3 == 0 {
            s.push('_');
        }
        s.push(c);
    }
    s
}

/// moc's number grouping applied to a NaN's payload as the WebAssembly interpreter writes
/// it (hex digits in fours): moc takes the first run of decimal digits after the `0x` as a
/// fraction and puts a `_` after each three of its digits (`c_0000_0000_0000` becomes
/// `c_000_0_0000_0000`; a payload starting with a digit, `8_0000_0000_0000`, is unchanged:
/// that run is the one digit before the first `_`).
fn regroup_first_digits(payload: &str) -> String {
    let bytes = payload.as_bytes();
    let start = bytes
        .iter()
        .position(u8::is_ascii_digit)
        .unwrap_or(bytes.len());
    let end = bytes[start..]
        .iter()
        .position(|b| !b.is_ascii_digit())
        .map_or(bytes.len(), |i| start + i);
    let mut out = String::with_capacity(payload.len() + 4);
    out.push_str(&payload[..start]);
    for (i, c) in payload[start..end].chars().enumerate() {
        if i > 0 && i % 3 == 0 {
            out.push('_');
        }
        out.push(c);
    }
    out.push_str(&payload[end..]);
    out
}

/// A float as moc's interpreter prints it: C's `%.17g` with moc's digit grouping (`9.5`,
/// `0.1_000_000_000_000_000_1`, `1e+100`, `-0`, `nan:0x8_0000_0000_0000`).
pub fn show_float_interpreted(f: f64) -> String {
    if f.is_nan() {
        let bits = f.to_bits();
        let payload = bits & ((1u64 << 52) - 1);
        let hex = format!("{payload:x}");
        let mut g = String::new();
        let n = hex.len();
        for (i, c) in hex.chars().enumerate() {
            if i > 0 && (n - i) % 4 == 0 {
                g.push('_');
            }
            g.push(c);
        }
        let sign = if bits >> 63 == 1 { "-" } else { "" };
        return format!("{sign}nan:0x{}", regroup_first_digits(&g));
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let e = format!("{f:.16e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if neg { "-" } else { "" };
    if !(-4..17).contains(&exp) {
        let (int, frac) = digits.split_at(1);
        let frac = frac.trim_end_matches('0');
        let es = if exp < 0 { '-' } else { '+' };
        let ea = exp.unsigned_abs();
        let mut s = format!("{sign}{int}");
        if !frac.is_empty() {
            s.push('.');
            s.push_str(&group_frac(frac));
        }
        let _ = write!(s, "e{es}{ea:02}");
        return s;
    }
    // Fixed notation with 17 significant digits.
    let (int, frac): (String, String) = if exp >= 0 {
        let k = (exp + 1) as usize;
        (digits[..k].to_string(), digits[k..].to_string())
    } else {
        let zeros = "0".repeat((-exp - 1) as usize);
        ("0".to_string(), format!("{zeros}{digits}"))
    };
    let frac = frac.trim_end_matches('0');
    let mut s = format!("{sign}{}", group_digits(&int));
    if !frac.is_empty() {
        s.push('.');
        s.push_str(&group_frac(frac));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_moc_prints_them() {
        // Expected strings from moc's test/run/ok/show.wasm-run.ok (compiled canister output).
        assert_eq!(show_int(-42_000_000_000_000i64), "-42_000_000_000_000");
        assert_eq!(show_int(0), "0");
        assert_eq!(show_int(42), "+42");
        assert_eq!(show_int(2_147_483_646), "+2_147_483_646");
        assert_eq!(show_nat(420_000_000_000_000u64), "420_000_000_000_000");
        assert_eq!(show_nat(42), "42");
        assert_eq!(show_nat(0), "0");
        assert_eq!(show_float(0.0), "0.000000");
        assert_eq!(show_float(-0.0), "-0.000000");
        assert_eq!(show_float(-42.0), "-42.000000");
        assert_eq!(show_float(1000000.12345), "1000000.123450");
        assert_eq!(show_float(f64::NAN), "NaN");
        assert_eq!(show_float(f64::INFINITY), "inf");
    }

    #[test]
    fn libc_floats_differ_only_in_nans() {
        assert_eq!(show_float_libc(f64::NAN), "nan");
        assert_eq!(show_float_libc(-f64::NAN), "-nan");
        assert_eq!(show_float(-f64::NAN), "NaN");
        for f in [
            0.0,
            -0.0,
            2.5e-6,
            -1.5,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
        ] {
            assert_eq!(show_float_libc(f), show_float(f), "{f}");
        }
    }

    #[test]
    fn nan_payloads_as_moc_run_prints_them() {
        // Strings printed by the pinned `moc run` (0.0 / 0.0, its negation, Float.log(-1.0)).
        let nan = |bits: u64| show_float_interpreted(f64::from_bits(bits));
        assert_eq!(nan(0x7FF8_0000_0000_0000), "nan:0x8_0000_0000_0000");
        assert_eq!(nan(0xFFF8_0000_0000_0000), "-nan:0x8_0000_0000_0000");
        assert_eq!(nan(0x7FFC_0000_0000_0000), "nan:0xc_000_0_0000_0000");
        // moc's grouping by the same rule: the first run of decimal digits in threes
        assert_eq!(nan(0x7FF1_2345_6789_0000), "nan:0x1_2345_6789_0000");
        assert_eq!(nan(0x7FF0_0000_0000_1234), "nan:0x123_4");
        assert_eq!(nan(0xFFFC_1000_0000_0000), "-nan:0xc_100_0_0000_0000");
        assert_eq!(regroup_first_digits("abcd_1234"), "abcd_123_4");
        assert_eq!(regroup_first_digits("ab"), "ab");
    }
}
