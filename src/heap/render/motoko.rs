//! Motoko `debug_show` text, exactly as a compiled canister prints it.
//!
//! The rules follow moc's generated show functions and its prelude (`@text_of_*`): Text and
//! Char are not escaped; Blob bytes are `\XX` (uppercase hex); `?x` and `#tag(x)` get
//! parentheses when `x` starts with `+`, `-`, `?` or `#` (option) or is not already
//! parenthesised (variant); `Int`s carry a sign; numbers group digits with `_`; Float uses
//! six decimals. Values moc cannot show (functions, regions, actors, opaque words) get a
//! documented rendering (docs/formats.md). Rendering uses an explicit stack, so deeply
//! nested values (long lists) do not exhaust the call stack.

use std::fmt::Write as _;

use super::number::{show_float, show_int, show_nat};
use super::principal::principal_text;
use super::quoted::{write_blob, write_char, write_text};
use crate::heap::value::Value;

enum Item<'a> {
    Str(&'static str),
    Owned(String),
    Val(&'a Value),
}

/// The `debug_show` text of `v`.
pub fn debug_show(v: &Value) -> String {
    let mut out = String::new();
    write_debug_show(v, &mut out);
    out
}

/// Appends the `debug_show` text of `v` to `out`.
pub fn write_debug_show(v: &Value, out: &mut String) {
    let mut stack: Vec<Item<'_>> = vec![Item::Val(v)];
    while let Some(item) = stack.pop() {
        match item {
            Item::Str(s) => out.push_str(s),
            Item::Owned(s) => out.push_str(&s),
            Item::Val(v) => show_one(v, out, &mut stack),
        }
    }
}

/// Writes `v`'s own text to `out` and pushes its parts (in reverse order) onto `stack`.
fn show_one<'a>(v: &'a Value, out: &mut String, stack: &mut Vec<Item<'a>>) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Unit => out.push_str("()"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Nat(n) => out.push_str(&show_nat(n)),
        Value::Int(n) => out.push_str(&show_int(n)),
        Value::Nat8(n) => out.push_str(&show_nat(n)),
        Value::Nat16(n) => out.push_str(&show_nat(n)),
        Value::Nat32(n) => out.push_str(&show_nat(n)),
        Value::Nat64(n) => out.push_str(&show_nat(n)),
        Value::Int8(n) => out.push_str(&show_int(n)),
        Value::Int16(n) => out.push_str(&show_int(n)),
        Value::Int32(n) => out.push_str(&show_int(n)),
        Value::Int64(n) => out.push_str(&show_int(n)),
        Value::Float(f) => out.push_str(&show_float(*f)),
        Value::Float32(f) => out.push_str(&show_float(f64::from(*f))),
        Value::Char(c) => write_char(out, *c),
        Value::Text(t) => write_text(out, t),
        Value::Blob(b) => write_blob(out, b),
        Value::Principal(p) | Value::Actor(p) => out.push_str(&principal_text(p)),
        Value::SharedFunc { .. } | Value::Closure { .. } => out.push_str("func"),
        Value::Opt { value, .. } => {
            if needs_parens(value) {
                out.push_str("?(");
                stack.push(Item::Str(")"));
            } else {
                out.push('?');
            }
            stack.push(Item::Val(value));
        }
        Value::Weak { target, .. } => {
            out.push_str("weak ");
            match target {
                None => out.push_str("null"),
                Some(t) => {
                    if needs_parens(t) {
                        out.push_str("?(");
                        stack.push(Item::Str(")"));
                    } else {
                        out.push('?');
                    }
                    stack.push(Item::Val(t));
                }
            }
        }
        Value::Variant { tag, payload, .. } => {
            out.push('#');
            out.push_str(tag);
            if matches!(**payload, Value::Unit) {
                return;
            }
            if starts_with_paren(payload) {
                stack.push(Item::Val(payload));
            } else {
                out.push('(');
                stack.push(Item::Str(")"));
                stack.push(Item::Val(payload));
            }
        }
        Value::Record { fields, .. } => {
            out.push('{');
            stack.push(Item::Str("}"));
            for (i, f) in fields.iter().enumerate().rev() {
                stack.push(Item::Val(&f.value));
                let sep = if i > 0 { "; " } else { "" };
                stack.push(Item::Owned(format!("{sep}{} = ", f.label)));
            }
        }
        Value::Tuple { items, .. } => {
            out.push('(');
            push_list(items, stack, ")");
        }
        Value::Array { mutable, items, .. } => {
            if *mutable {
                out.push_str(if items.is_empty() { "[var" } else { "[var " });
            } else {
                out.push('[');
            }
            push_list(items, stack, "]");
        }
        Value::Region { id, page_count, .. } => {
            let _ = write!(
                out,
                "region {{id = {}; pages = {}}}",
                show_nat(id),
                show_nat(page_count)
            );
        }
        Value::Opaque { word, what, .. } => {
            let _ = write!(out, "<{what} {word:#x}>");
        }
        Value::Cycle { addr } => {
            let _ = write!(out, "<cycle {addr:#x}>");
        }
        Value::Lazy(l) => {
            let _ = write!(out, "<not decoded {:#x}>", l.word);
        }
    }
}

fn push_list<'a>(items: &'a [Value], stack: &mut Vec<Item<'a>>, close: &'static str) {
    stack.push(Item::Str(close));
    for (i, item) in items.iter().enumerate().rev() {
        stack.push(Item::Val(item));
        if i > 0 {
            stack.push(Item::Str(", "));
        }
    }
}

/// The first character of `v`'s `debug_show` text (`None` if it is empty).
fn first_char(v: &Value) -> Option<char> {
    Some(match v {
        Value::Opt { .. } => '?',
        Value::Variant { .. } => '#',
        Value::Int(n) => show_int(n).chars().next()?,
        Value::Int8(n) => int_first(i64::from(*n)),
        Value::Int16(n) => int_first(i64::from(*n)),
        Value::Int32(n) => int_first(i64::from(*n)),
        Value::Int64(n) => int_first(*n),
        Value::Float(f) => show_float(*f).chars().next()?,
        Value::Float32(f) => show_float(f64::from(*f)).chars().next()?,
        Value::Unit | Value::Tuple { .. } => '(',
        Value::Text(_) | Value::Blob(_) => '"',
        Value::Record { .. } => '{',
        Value::Array { .. } => '[',
        _ => {
            // Every other rendering starts with a fixed, non-special character.
            let mut s = String::new();
            let mut stack = Vec::new();
            show_one(v, &mut s, &mut stack);
            return s.chars().next();
        }
    })
}

fn int_first(n: i64) -> char {
    match n.signum() {
        1 => '+',
        -1 => '-',
        _ => '0',
    }
}

/// `@text_needs_parens`: the text starts with `+`, `-`, `?` or `#`.
fn needs_parens(v: &Value) -> bool {
    matches!(first_char(v), Some('+' | '-' | '?' | '#'))
}

/// `@text_has_parens`: the text starts with `(`.
fn starts_with_paren(v: &Value) -> bool {
    first_char(v) == Some('(')
}
