//! `debug_show`: values as text, exactly as moc's interpreter prints them.

use super::Value;
use crate::heap::render::{group_digits, write_blob, write_char, write_text};
use std::fmt::Write;

/// Renders a value the way moc's interpreter renders `debug_show v`.
pub fn debug_show(v: &Value) -> String {
    let mut out = String::new();
    show(&mut out, v, 0);
    out
}

/// Values nested deeper than this print as `...` (bounds the native stack).
pub const MAX_SHOW_DEPTH: u32 = 10_000;

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

fn signed(out: &mut String, neg: bool, magnitude: &str) {
    if magnitude == "0" {
        out.push('0');
        return;
    }
    out.push(if neg { '-' } else { '+' });
    out.push_str(&group_digits(magnitude));
}

/// Formats a float like C's `%.17g`, with moc's digit grouping.
pub fn show_float(f: f64) -> String {
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
        return format!("{sign}nan:0x{g}");
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
    // fixed notation with 17 significant digits
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

/// The textual form of a principal (`aaaaa-aa`): the heap renderer's, one function for both.
pub use crate::heap::render::principal_text;

/// True when the value prints without parentheses after `?`.
fn nullary(v: &Value) -> bool {
    match v {
        Value::Opt(_) | Value::Variant(_) => false,
        Value::Int(x) => *x == 0,
        Value::BigInt(_) => false,
        Value::Int8(x) => *x == 0,
        Value::Int16(x) => *x == 0,
        Value::Int32(x) => *x == 0,
        Value::Int64(x) => *x == 0,
        Value::Float(f) => !f.is_sign_negative(),
        _ => true,
    }
}

fn show_seq<'a>(
    out: &mut String,
    open: &str,
    items: impl Iterator<Item = &'a Value>,
    close: &str,
    d: u32,
) {
    out.push_str(open);
    for (i, x) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        show(out, x, d);
    }
    out.push_str(close);
}

fn show(out: &mut String, v: &Value, depth: u32) {
    if depth > MAX_SHOW_DEPTH {
        out.push_str("...");
        return;
    }
    let d = depth + 1;
    match v {
        Value::Unit => out.push_str("()"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Null => out.push_str("null"),
        Value::Nat(x) => out.push_str(&group_digits(&x.to_string())),
        Value::BigNat(x) => out.push_str(&group_digits(&x.to_string())),
        Value::Nat8(x) => out.push_str(&group_digits(&x.to_string())),
        Value::Nat16(x) => out.push_str(&group_digits(&x.to_string())),
        Value::Nat32(x) => out.push_str(&group_digits(&x.to_string())),
        Value::Nat64(x) => out.push_str(&group_digits(&x.to_string())),
        Value::Int(x) => signed(out, *x < 0, &x.unsigned_abs().to_string()),
        Value::BigInt(x) => signed(
            out,
            x.sign() == num_bigint::Sign::Minus,
            &x.magnitude().to_string(),
        ),
        Value::Int8(x) => signed(out, *x < 0, &x.unsigned_abs().to_string()),
        Value::Int16(x) => signed(out, *x < 0, &x.unsigned_abs().to_string()),
        Value::Int32(x) => signed(out, *x < 0, &x.unsigned_abs().to_string()),
        Value::Int64(x) => signed(out, *x < 0, &x.unsigned_abs().to_string()),
        Value::Float(f) => out.push_str(&show_float(*f)),
        Value::Char(c) => write_char(out, *c),
        Value::Text(t) => write_text(out, t),
        Value::Blob(b) => write_blob(out, b),
        Value::Principal(p) => out.push_str(&principal_text(p)),
        Value::Tuple(xs) => show_seq(out, "(", xs.iter(), ")", d),
        Value::Array(xs) => show_seq(out, "[", xs.iter(), "]", d),
        Value::VarArray(xs) => {
            let xs = xs.borrow();
            if xs.is_empty() {
                out.push_str("[var]");
            } else {
                show_seq(out, "[var ", xs.iter(), "]", d);
            }
        }
        Value::Opt(x) => {
            out.push('?');
            if nullary(x) {
                show(out, x, d);
            } else {
                out.push('(');
                show(out, x, d);
                out.push(')');
            }
        }
        Value::Variant(tv) => {
            out.push('#');
            out.push_str(&tv.0);
            match &tv.1 {
                Value::Unit => {}
                Value::Tuple(_) => show(out, &tv.1, d),
                x => {
                    out.push('(');
                    show(out, x, d);
                    out.push(')');
                }
            }
        }
        Value::Record(r) => {
            out.push('{');
            for (i, f) in r.fields.iter().enumerate() {
                if i > 0 {
                    out.push_str("; ");
                }
                out.push_str(&f.name);
                out.push_str(" = ");
                show(out, &f.value.borrow(), d);
            }
            out.push('}');
        }
        Value::Func(_) | Value::Builtin(_) => out.push_str("func"),
        Value::Module(m) => {
            let _ = write!(out, "module {}", m.name);
        }
        Value::Iter(_) => out.push_str("{next = func}"),
        Value::Host(h) => out.push_str(&h.describe()),
        Value::Cell(c) => show(out, &c.borrow(), d),
    }
}

/// The approximate length of `debug_show v` in bytes, or `None` as soon as it exceeds `cap`.
///
/// Values share their parts (`let a1 = (a0, a0)`), so a small value can render to an
/// exponentially long text; this walk (explicit stack, shared parts counted each time they
/// print) stops after about `cap` bytes' worth of nodes, so callers can refuse a rendering
/// before building it. Nodes nested deeper than [`MAX_SHOW_DEPTH`] print as `...`.
pub fn show_size_within(v: &Value, cap: u64) -> Option<u64> {
    let mut total: u64 = 0;
    let mut stack: Vec<(Value, u32)> = vec![(v.clone(), 0)];
    while let Some((v, depth)) = stack.pop() {
        if depth > MAX_SHOW_DEPTH {
            total += 3;
            continue;
        }
        let seq = |n: usize| 2 + 2 * n as u64;
        let own = match &v {
            Value::Nat(x) => digits(*x),
            Value::Int(x) => 1 + digits(x.unsigned_abs()),
            Value::BigNat(x) => 2 + x.bits() * 2 / 5,
            Value::BigInt(x) => 3 + x.bits() * 2 / 5,
            Value::Float(_) => 32,
            Value::Text(t) => 2 + t.len() as u64,
            Value::Blob(b) => 2 + 3 * b.len() as u64,
            Value::Principal(p) => 8 + 2 * p.len() as u64,
            Value::Tuple(xs) | Value::Array(xs) => seq(xs.len()),
            Value::VarArray(xs) => 4 + seq(xs.borrow().len()),
            Value::Opt(_) => 3,
            Value::Variant(tv) => 3 + tv.0.len() as u64,
            Value::Record(r) => {
                2 + r
                    .fields
                    .iter()
                    .map(|f| 5 + f.name.len() as u64)
                    .sum::<u64>()
            }
            Value::Cell(_) => 0,
            Value::Module(m) => 7 + m.name.len() as u64,
            Value::Iter(_) => 14,
            Value::Host(_) => 32,
            _ => 8,
        };
        total = total.saturating_add(own);
        if total > cap {
            return None;
        }
        // Children are pushed only once their separators fit: at most `cap` of them.
        let d = depth + 1;
        match &v {
            Value::Tuple(xs) | Value::Array(xs) => stack.extend(xs.iter().map(|x| (x.clone(), d))),
            Value::VarArray(xs) => stack.extend(xs.borrow().iter().map(|x| (x.clone(), d))),
            Value::Opt(x) => stack.push(((**x).clone(), d)),
            Value::Variant(tv) => stack.push((tv.1.clone(), d)),
            Value::Record(r) => {
                stack.extend(r.fields.iter().map(|f| (f.value.borrow().clone(), d)))
            }
            Value::Cell(c) => stack.push((c.borrow().clone(), d)),
            _ => {}
        }
    }
    Some(total)
}

/// Decimal digits of `x` plus its `_` separators.
fn digits(x: u64) -> u64 {
    let n = u64::from(x.checked_ilog10().unwrap_or(0)) + 1;
    n + (n - 1) / 3
}
