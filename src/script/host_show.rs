//! `debug_show` the way a compiled canister prints it, for sessions over a snapshot.
//!
//! The script engine prints like moc's interpreter; a compiled canister differs in one
//! place: a `Float` shows with six decimals (`9.500000`, as `mo-mem vars`), not as the
//! shortest `%.17g` form (`9.5`). Snapshot sessions use [`canister_show`] so that
//! `debug_show vars.x` equals `mo-mem vars SNAPSHOT x`.

use super::host_convert::OpaqueValue;
use super::session::Evaluation;
use super::value::show::{debug_show, MAX_SHOW_DEPTH};
use super::value::Value;
use crate::heap::render::show_float;
use std::cell::RefCell;
use std::rc::Rc;

/// `debug_show v` as a compiled canister prints it.
pub fn canister_show(v: &Value) -> String {
    debug_show(&floats_as_text(v, 0))
}

/// The printed output, then the value in canister style unless it is `()`.
pub fn render(ev: &Evaluation) -> String {
    let mut s = ev.output.clone();
    if !matches!(ev.value, Value::Unit) {
        s.push_str(&canister_show(&ev.value));
        s.push('\n');
    }
    s
}

/// A copy of `v` whose floats are opaque values showing canister text.
fn floats_as_text(v: &Value, depth: u32) -> Value {
    if depth > MAX_SHOW_DEPTH {
        return v.clone();
    }
    let d = depth + 1;
    match v {
        Value::Float(f) => Value::Host(Rc::new(OpaqueValue::new(show_float(*f)))),
        Value::Tuple(xs) => Value::Tuple(xs.iter().map(|x| floats_as_text(x, d)).collect()),
        Value::Array(xs) => Value::Array(xs.iter().map(|x| floats_as_text(x, d)).collect()),
        Value::VarArray(xs) => Value::VarArray(Rc::new(RefCell::new(
            xs.borrow().iter().map(|x| floats_as_text(x, d)).collect(),
        ))),
        Value::Opt(x) => Value::some(payload(x, d)),
        Value::Variant(tv) => Value::variant(&tv.0, payload(&tv.1, d)),
        Value::Record(r) => Value::record(
            r.fields
                .iter()
                .map(|f| {
                    (
                        f.name.clone(),
                        f.mutable,
                        floats_as_text(&f.value.borrow(), d),
                    )
                })
                .collect(),
        ),
        Value::Cell(c) => floats_as_text(&c.borrow(), d),
        other => other.clone(),
    }
}

/// An option's or variant's payload: a negative float is parenthesized, as a canister does.
fn payload(v: &Value, depth: u32) -> Value {
    match v {
        Value::Float(f) if f.is_sign_negative() && !f.is_nan() => {
            Value::Host(Rc::new(OpaqueValue::new(format!("({})", show_float(*f)))))
        }
        other => floats_as_text(other, depth),
    }
}
