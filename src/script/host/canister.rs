//! The host value `canister`: the snapshot's canister asked its own queries from a script,
//! `canister.METHOD(args…)`. The arguments go to the canister as Candid text typed against the
//! method's argument types; the reply comes back as Motoko values, as `mo:core` sees Candid
//! (`nat` → `Nat`, `record` → record, `variant` → variant, `opt` → option, `vec` → array,
//! `blob` → `Blob`, `principal` → `Principal`, several results → a tuple). The runner behind
//! it belongs to the embedder ([`CanisterCalls`]).

use super::{HostError, HostObject};
use crate::script::value::Value;
use candid::types::Label;
use candid::{IDLArgs, IDLValue, Principal};
use std::fmt::Write as _;
use std::rc::Rc;
use std::sync::Arc;

/// Deepest argument or reply value converted.
pub const MAX_CANDID_DEPTH: usize = 128;

/// Why the embedder's canister cannot answer: its own error, kept whole (its type can be
/// recovered with `downcast_ref`); a script sees its message as a trap.
pub type CanisterCallError = Arc<dyn std::error::Error + Send + Sync>;

/// A snapshot's canister as the embedder runs it.
pub trait CanisterCalls: Send + Sync {
    /// The query methods' names and Candid types, in the service's order, or why the
    /// canister cannot be restored.
    fn queries(&self) -> Result<Vec<(String, String)>, CanisterCallError>;
    /// Calls query `method` with `args` (Candid text) and returns the reply, or the reason it
    /// failed (a trap's or reject's message, arguments that do not fit, a limit).
    fn call(&self, method: &str, args: &str) -> Result<IDLArgs, CanisterCallError>;
}

/// The `canister` host object.
pub struct CanisterHost {
    calls: Arc<dyn CanisterCalls>,
}

impl CanisterHost {
    /// The host object over `calls`.
    pub fn new(calls: Arc<dyn CanisterCalls>) -> CanisterHost {
        CanisterHost { calls }
    }
}

impl HostObject for CanisterHost {
    fn describe(&self) -> String {
        "canister".into()
    }

    fn field(&self, _name: &str) -> Result<Option<Value>, HostError> {
        Ok(None)
    }

    fn call(&self, name: &str, args: &[Value]) -> Result<Option<Value>, HostError> {
        let queries = self
            .calls
            .queries()
            .map_err(|e| HostError::Misuse(format!("canister: {e}")))?;
        if !queries.iter().any(|(q, _)| q == name) {
            return Ok(None);
        }
        let mut text = String::from("(");
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            candid_text(a, &mut text, 0)
                .map_err(|e| HostError::Misuse(format!("canister.{name}: argument {i}: {e}")))?;
        }
        text.push(')');
        let reply = self
            .calls
            .call(name, &text)
            .map_err(|e| HostError::Misuse(format!("canister.{name}: {e}")))?;
        reply_value(&reply)
            .map(Some)
            .map_err(|e| HostError::Limit(format!("canister.{name}: {e}")))
    }

    fn field_names(&self) -> Vec<String> {
        self.calls
            .queries()
            .map(|q| q.into_iter().map(|(name, _)| name).collect())
            .unwrap_or_default()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Why a value cannot cross to or from the canister.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CandidError {
    /// The value nests deeper than [`MAX_CANDID_DEPTH`] levels.
    #[error("nests deeper than {MAX_CANDID_DEPTH} levels")]
    TooDeep,
    /// A NaN or infinite `Float`: Candid's text has no form for it.
    #[error("the Float {0} has no Candid text")]
    NonFiniteFloat(f64),
    /// A script value of this kind (a function, a module, …) has no Candid form.
    #[error("a {0} cannot be sent to the canister")]
    Unsendable(&'static str),
    /// A `Principal`'s bytes are not a principal.
    #[error("{0}")]
    Principal(candid::types::principal::PrincipalError),
}

/// A conversion to or from Candid, or why it cannot be made.
type ConvertResult<T> = Result<T, CandidError>;

/// Candid text of a string literal.
fn quoted(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Appends the Candid text of `v` (untyped: the method's types give it its type).
pub fn candid_text(v: &Value, out: &mut String, depth: usize) -> ConvertResult<()> {
    if depth > MAX_CANDID_DEPTH {
        return Err(CandidError::TooDeep);
    }
    let seq = |out: &mut String, open: &str, items: &[Value]| -> ConvertResult<()> {
        out.push_str(open);
        for item in items {
            candid_text(item, out, depth + 1)?;
            out.push_str("; ");
        }
        out.push('}');
        Ok(())
    };
    match v {
        Value::Unit => out.push_str("record {}"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Null => out.push_str("null"),
        Value::Nat(n) | Value::Nat64(n) => {
            let _ = write!(out, "{n}");
        }
        Value::BigNat(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Int(n) | Value::Int64(n) => {
            let _ = write!(out, "{n}");
        }
        Value::BigInt(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Nat8(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Nat16(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Nat32(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Int8(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Int16(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Int32(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Float(x) if x.is_finite() => {
            let _ = write!(out, "{x:?}");
        }
        Value::Float(x) => return Err(CandidError::NonFiniteFloat(*x)),
        Value::Char(c) => {
            let _ = write!(out, "{}", *c as u32);
        }
        Value::Text(t) => quoted(t, out),
        Value::Blob(b) => {
            out.push_str("blob \"");
            for byte in b.iter() {
                let _ = write!(out, "\\{byte:02x}");
            }
            out.push('"');
        }
        Value::Principal(bytes) => {
            let p = Principal::try_from_slice(bytes).map_err(CandidError::Principal)?;
            out.push_str("principal ");
            quoted(&p.to_text(), out);
        }
        Value::Tuple(items) | Value::Array(items) => {
            let open = if matches!(v, Value::Tuple(_)) {
                "record { "
            } else {
                "vec { "
            };
            seq(out, open, items)?;
        }
        Value::VarArray(items) => {
            let items: Vec<Value> = items.borrow().clone();
            seq(out, "vec { ", &items)?;
        }
        Value::Opt(inner) => {
            out.push_str("opt ");
            candid_text(inner, out, depth + 1)?;
        }
        Value::Variant(tv) => {
            out.push_str("variant { ");
            quoted(&tv.0, out);
            if !matches!(tv.1, Value::Unit) {
                out.push_str(" = ");
                candid_text(&tv.1, out, depth + 1)?;
            }
            out.push_str(" }");
        }
        Value::Record(r) => {
            out.push_str("record { ");
            for f in &r.fields {
                quoted(&f.name, out);
                out.push_str(" = ");
                candid_text(&f.get(), out, depth + 1)?;
                out.push_str("; ");
            }
            out.push('}');
        }
        other => return Err(CandidError::Unsendable(other.kind_name())),
    }
    Ok(())
}

/// The reply as one script value: `()` for none, the value for one, a tuple for several.
pub fn reply_value(reply: &IDLArgs) -> ConvertResult<Value> {
    let mut values = reply
        .args
        .iter()
        .map(|v| script_value(v, 0))
        .collect::<ConvertResult<Vec<_>>>()?;
    Ok(match values.len() {
        0 => Value::Unit,
        1 => values.remove(0),
        _ => Value::Tuple(values.into()),
    })
}

fn label_name(l: &Label) -> Rc<str> {
    match l {
        Label::Named(name) => Rc::from(name.as_str()),
        Label::Id(n) | Label::Unnamed(n) => Rc::from(format!("_{n}_").as_str()),
    }
}

/// One Candid value as a script value.
fn script_value(v: &IDLValue, depth: usize) -> ConvertResult<Value> {
    if depth > MAX_CANDID_DEPTH {
        return Err(CandidError::TooDeep);
    }
    let inner = |x: &IDLValue| script_value(x, depth + 1);
    Ok(match v {
        IDLValue::Bool(b) => Value::Bool(*b),
        IDLValue::Null | IDLValue::Reserved | IDLValue::None => Value::Null,
        IDLValue::Text(t) => Value::Text(Rc::from(t.as_str())),
        IDLValue::Number(n) => Value::Text(Rc::from(n.as_str())),
        IDLValue::Float64(x) => Value::Float(*x),
        IDLValue::Float32(x) => Value::Float(f64::from(*x)),
        IDLValue::Opt(x) => Value::some(inner(x)?),
        IDLValue::Vec(xs) => Value::Array(
            xs.iter()
                .map(inner)
                .collect::<ConvertResult<Vec<_>>>()?
                .into(),
        ),
        IDLValue::Blob(bytes) => Value::Blob(bytes.as_slice().into()),
        IDLValue::Record(fields) => {
            let tuple = fields.len() > 1
                && fields.iter().enumerate().all(
                    |(i, f)| matches!(f.id, Label::Unnamed(n) | Label::Id(n) if n as usize == i),
                );
            if tuple {
                let items = fields
                    .iter()
                    .map(|f| inner(&f.val))
                    .collect::<ConvertResult<Vec<_>>>()?;
                Value::Tuple(items.into())
            } else if fields.is_empty() {
                Value::Unit
            } else {
                let fields = fields
                    .iter()
                    .map(|f| Ok((label_name(&f.id), false, inner(&f.val)?)))
                    .collect::<ConvertResult<Vec<_>>>()?;
                Value::record(fields)
            }
        }
        IDLValue::Variant(v) => {
            let payload = inner(&v.0.val)?;
            Value::variant(&label_name(&v.0.id), payload)
        }
        IDLValue::Principal(p) | IDLValue::Service(p) => Value::Principal(p.as_slice().into()),
        IDLValue::Func(p, m) => Value::Text(Rc::from(format!("{}.{m}", p.to_text()).as_str())),
        IDLValue::Int(n) => Value::int_big(n.0.clone()),
        IDLValue::Nat(n) => Value::nat_big(n.0.clone()),
        IDLValue::Nat8(n) => Value::Nat8(*n),
        IDLValue::Nat16(n) => Value::Nat16(*n),
        IDLValue::Nat32(n) => Value::Nat32(*n),
        IDLValue::Nat64(n) => Value::Nat64(*n),
        IDLValue::Int8(n) => Value::Int8(*n),
        IDLValue::Int16(n) => Value::Int16(*n),
        IDLValue::Int32(n) => Value::Int32(*n),
        IDLValue::Int64(n) => Value::Int64(*n),
    })
}
