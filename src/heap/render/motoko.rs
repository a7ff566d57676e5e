//! Motoko `debug_show` text, exactly as a compiled canister prints it (and, with
//! [`FloatStyle::Interpreted`], as moc's interpreter prints it: only `Float`s differ).
//!
//! The rules follow moc's generated show functions and its prelude (`@text_of_*`): Text and
//! Char are not escaped; Blob bytes are `\XX` (uppercase hex); `?x` and `#tag(x)` get
//! parentheses when `x` starts with `+`, `-`, `?` or `#` (option) or is not already
//! parenthesised (variant); `Int`s carry a sign; numbers group digits with `_`. Values moc
//! cannot show (functions, regions, actors, opaque words) get a documented rendering
//! (docs/formats.md). One writer serves every value model ([`Shown`]); it uses an explicit
//! stack, so deeply nested values (long lists) do not exhaust the call stack, and it never
//! cuts a value: callers bound the text's size (the decoder's limits, the script's budgets).

use std::fmt::Write as _;

use super::number::{show_float_as, show_int, show_nat};
use super::principal::principal_text;
use super::quoted::{write_blob, write_char, write_text};
use super::shape::{FloatStyle, Integer, Natural, Shape, Shown};
use crate::heap::value::Value;

enum Item<H> {
    Str(&'static str),
    Owned(String),
    Val(H),
}

/// The `debug_show` text of `v`, as a compiled canister prints it.
pub fn debug_show(v: &Value) -> String {
    let mut out = String::new();
    write_debug_show(v, &mut out);
    out
}

/// Appends the `debug_show` text of `v` to `out`, as a compiled canister prints it.
pub fn write_debug_show(v: &Value, out: &mut String) {
    write_debug_show_as(v, FloatStyle::Compiled, out);
}

/// Appends the `debug_show` text of `v` to `out`, `Float`s printed in `floats` style.
pub fn write_debug_show_as<H: Shown>(v: H, floats: FloatStyle, out: &mut String) {
    let mut stack: Vec<Item<H>> = vec![Item::Val(v)];
    while let Some(item) = stack.pop() {
        match item {
            Item::Str(s) => out.push_str(s),
            Item::Owned(s) => out.push_str(&s),
            Item::Val(v) => show_one(v.shape(), floats, out, &mut stack),
        }
    }
}

/// Writes a node's own text to `out` and pushes its parts (in reverse order) onto `stack`.
fn show_one<H: Shown>(
    shape: Shape<'_, H>,
    floats: FloatStyle,
    out: &mut String,
    stack: &mut Vec<Item<H>>,
) {
    let is_module = matches!(shape, Shape::Module(_));
    match shape {
        Shape::Null => out.push_str("null"),
        Shape::Unit => out.push_str("()"),
        Shape::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Shape::Nat(Natural::Small(n)) => out.push_str(&show_nat(n)),
        Shape::Nat(Natural::Big(n)) => out.push_str(&show_nat(n)),
        Shape::Int(Integer::Small(n)) => out.push_str(&show_int(n)),
        Shape::Int(Integer::Big(n)) => out.push_str(&show_int(n)),
        Shape::Float(f) => out.push_str(&show_float_as(f, floats)),
        Shape::Float32(f) => out.push_str(&show_float_as(f64::from(f), floats)),
        Shape::Char(c) => write_char(out, c),
        Shape::Text(t) => write_text(out, t),
        Shape::Blob(b) => write_blob(out, b),
        Shape::Principal(p) | Shape::Actor(p) => out.push_str(&principal_text(p)),
        Shape::SharedFunc { .. } | Shape::Closure { .. } => out.push_str("func"),
        Shape::Opt(value) => push_option(value, floats, out, stack),
        Shape::Weak(target) => {
            out.push_str("weak ");
            match target {
                None => out.push_str("null"),
                Some(t) => push_option(t, floats, out, stack),
            }
        }
        Shape::Variant(tag, payload) => {
            out.push('#');
            out.push_str(tag);
            let Some(payload) = payload else {
                return;
            };
            if opening(&payload, floats) != Opening::Paren {
                out.push('(');
                stack.push(Item::Str(")"));
            }
            stack.push(Item::Val(payload));
        }
        Shape::Record(fields) | Shape::Module(fields) => {
            if is_module {
                out.push_str("module ");
            }
            out.push('{');
            stack.push(Item::Str("}"));
            for (i, (label, value)) in fields.into_iter().enumerate().rev() {
                stack.push(Item::Val(value));
                let sep = if i > 0 { "; " } else { "" };
                stack.push(Item::Owned(format!("{sep}{label} = ")));
            }
        }
        Shape::Tuple(items) => {
            out.push('(');
            push_list(items, stack, ")");
        }
        Shape::Array { mutable, items } => {
            if mutable {
                out.push_str(if items.is_empty() { "[var" } else { "[var " });
            } else {
                out.push('[');
            }
            push_list(items, stack, "]");
        }
        Shape::Region { id, page_count, .. } => {
            let _ = write!(
                out,
                "region {{id = {}; pages = {}}}",
                show_nat(id),
                show_nat(page_count)
            );
        }
        Shape::Opaque { word, what, .. } => {
            let _ = write!(out, "<{what} {word:#x}>");
        }
        Shape::Cycle(addr) => {
            let _ = write!(out, "<cycle {addr:#x}>");
        }
        Shape::NotDecoded(word) => {
            let _ = write!(out, "<not decoded {word:#x}>");
        }
        Shape::Described(text) => out.push_str(&text),
        Shape::Same(inner) => stack.push(Item::Val(inner)),
        Shape::Heap(v) => write_debug_show_as(&*v, floats, out),
    }
}

/// `?x`, parenthesised when `x`'s text starts with `+ - ? #`.
fn push_option<H: Shown>(value: H, floats: FloatStyle, out: &mut String, stack: &mut Vec<Item<H>>) {
    if opening(&value, floats) == Opening::Sign {
        out.push_str("?(");
        stack.push(Item::Str(")"));
    } else {
        out.push('?');
    }
    stack.push(Item::Val(value));
}

fn push_list<H>(items: Vec<H>, stack: &mut Vec<Item<H>>, close: &'static str) {
    stack.push(Item::Str(close));
    for (i, item) in items.into_iter().enumerate().rev() {
        stack.push(Item::Val(item));
        if i > 0 {
            stack.push(Item::Str(", "));
        }
    }
}

/// How a value's `debug_show` text starts, as far as parentheses care.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Opening {
    /// With `+`, `-`, `?` or `#` (`@text_needs_parens`).
    Sign,
    /// With `(` (`@text_has_parens`).
    Paren,
    /// With anything else (or empty).
    Plain,
}

/// How `v`'s `debug_show` text starts.
pub(super) fn opening<H: Shown>(v: &H, floats: FloatStyle) -> Opening {
    match v.shape() {
        Shape::Opt(_) | Shape::Variant(..) => Opening::Sign,
        Shape::Unit | Shape::Tuple(_) => Opening::Paren,
        Shape::Int(Integer::Small(n)) if n != 0 => Opening::Sign,
        Shape::Int(Integer::Big(n)) if n.sign() != num_bigint::Sign::NoSign => Opening::Sign,
        Shape::Float(f) => text_opening(&show_float_as(f, floats)),
        Shape::Float32(f) => text_opening(&show_float_as(f64::from(f), floats)),
        Shape::Described(text) => text_opening(&text),
        // A script's cell holds no further cell ([`Shape::Same`] is resolved once).
        Shape::Same(inner) => match inner.shape() {
            Shape::Same(_) => Opening::Plain,
            _ => opening(&inner, floats),
        },
        Shape::Heap(h) => opening(&&*h, floats),
        // Every other rendering starts with a digit, a quote, a bracket or a letter.
        _ => Opening::Plain,
    }
}

fn text_opening(text: &str) -> Opening {
    match text.chars().next() {
        Some('+' | '-' | '?' | '#') => Opening::Sign,
        Some('(') => Opening::Paren,
        _ => Opening::Plain,
    }
}
