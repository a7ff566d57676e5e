//! Number formatting as Motoko's `debug_show` does it: `_` between groups of three digits,
//! `+` before positive `Int`s, and Rust's `{:.6}` for `Float`.

use std::fmt::Display;

/// The decimal digits of a non-negative number with `_` every three digits from the right.
pub fn group_digits(digits: &str) -> String {
    let n = digits.len();
    let mut out = String::with_capacity(n + n / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (n - i) % 3 == 0 {
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
}
