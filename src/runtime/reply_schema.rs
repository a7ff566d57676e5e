//! The JSON Schema (draft 2020-12) of a method's reply as `mo-mem call --json` prints it
//! ([`super::reply_json`]), made from the method's Candid result types: records as objects
//! with every field, variants as one-field objects, options as the value or `null`, blobs as
//! hex, integers by the number rule (`docs/formats.md`, "Numbers in JSON") with their type's
//! bounds, floats as numbers or `"NaN"`/`"inf"`/`"-inf"`. Named types of the service become
//! `$defs`, so recursive types are schemas too.

use crate::heap::render::MAX_SAFE_INTEGER;
use candid::types::{Label, Type, TypeEnv, TypeInner};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

/// The version of the reply schemas, as in `docs/schemas/` (`$id`).
pub const SCHEMA_VERSION: &str = "v1";

/// The schema of the reply of `method`, whose result types are `rets` in `env`.
pub fn reply_schema(env: &TypeEnv, method: &str, rets: &[Type]) -> Value {
    let mut names = Names::default();
    let items: Vec<Value> = rets.iter().map(|t| type_schema(t, &mut names)).collect();
    let mut defs = Map::new();
    // Each named type once; a def's own references may add more names.
    while let Some(name) = names.pending.pop_first() {
        let def = match env.find_type(&name) {
            Ok(t) => type_schema(t, &mut names),
            Err(_) => json!({}),
        };
        names.done.insert(name.clone());
        defs.insert(name, def);
    }
    let mut schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": format!(
            "https://mo-mem.invalid/schemas/{SCHEMA_VERSION}/call/{}.schema.json",
            id_segment(method)
        ),
        "title": format!("the reply of {method} as `mo-mem call --json` prints it"),
        "type": "array",
        "prefixItems": items,
        "minItems": rets.len(),
        "maxItems": rets.len(),
    });
    if !defs.is_empty() {
        schema["$defs"] = Value::Object(defs);
    }
    schema
}

/// `method` with every character but ASCII letters, digits, `_` and `-` percent-encoded.
fn id_segment(method: &str) -> String {
    let mut out = String::new();
    for b in method.bytes() {
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The named types met so far: to define, and defined.
#[derive(Default)]
struct Names {
    pending: BTreeSet<String>,
    done: BTreeSet<String>,
}

fn label(id: &Label) -> String {
    match id {
        Label::Named(name) => name.clone(),
        Label::Id(n) | Label::Unnamed(n) => n.to_string(),
    }
}

/// An integer from `min` to `max` (`None`: unbounded) by the number rule: a JSON integer
/// within ±2^53, a decimal string of at least 16 digits beyond.
fn integer(min: Option<i128>, max: Option<u128>, max_digits: Option<u32>) -> Value {
    let safe = i128::from(MAX_SAFE_INTEGER);
    let lo = min.map_or(-safe, |m| m.max(-safe));
    let hi = max.map_or(safe, |m| m.min(safe as u128) as i128);
    let number = json!({"type": "integer", "minimum": lo, "maximum": hi});
    let fits_number = min.is_some_and(|m| m >= -safe) && max.is_some_and(|m| m <= safe as u128);
    if fits_number {
        return number;
    }
    let sign = if min.is_none_or(|m| m < 0) { "-?" } else { "" };
    let longer = match max_digits {
        Some(d) => format!("{{16,{}}}", d - 1),
        None => "{16,}".to_string(),
    };
    let pattern = format!(
        "^{sign}(?:[1-9][0-9]{longer}|{})$",
        beyond_safe_same_length()
    );
    json!({"anyOf": [number, {"type": "string", "pattern": pattern}]})
}

/// A regular expression of the decimal numbers with as many digits as 2^53 and greater.
fn beyond_safe_same_length() -> String {
    let digits: Vec<u8> = MAX_SAFE_INTEGER.to_string().into_bytes();
    let mut cases = Vec::new();
    for (i, &d) in digits.iter().enumerate() {
        if d < b'9' {
            let prefix = std::str::from_utf8(&digits[..i]).unwrap_or_default();
            let rest = digits.len() - i - 1;
            cases.push(format!("{prefix}[{}-9][0-9]{{{rest}}}", char::from(d + 1)));
        }
    }
    cases.join("|")
}

/// The schema of a value of type `t`.
fn type_schema(t: &Type, names: &mut Names) -> Value {
    match t.as_ref() {
        TypeInner::Null | TypeInner::Reserved => json!({"type": "null"}),
        TypeInner::Bool => json!({"type": "boolean"}),
        TypeInner::Nat => integer(Some(0), None, None),
        TypeInner::Int => integer(None, None, None),
        TypeInner::Nat8 => integer(Some(0), Some(u8::MAX.into()), None),
        TypeInner::Nat16 => integer(Some(0), Some(u16::MAX.into()), None),
        TypeInner::Nat32 => integer(Some(0), Some(u32::MAX.into()), None),
        TypeInner::Nat64 => integer(Some(0), Some(u64::MAX.into()), Some(20)),
        TypeInner::Int8 => integer(Some(i8::MIN.into()), Some(i8::MAX as u128), None),
        TypeInner::Int16 => integer(Some(i16::MIN.into()), Some(i16::MAX as u128), None),
        TypeInner::Int32 => integer(Some(i32::MIN.into()), Some(i32::MAX as u128), None),
        TypeInner::Int64 => integer(Some(i64::MIN.into()), Some(i64::MAX as u128), Some(19)),
        TypeInner::Float32 | TypeInner::Float64 => {
            json!({"anyOf": [{"type": "number"}, {"enum": ["NaN", "inf", "-inf"]}]})
        }
        TypeInner::Text => json!({"type": "string"}),
        TypeInner::Principal | TypeInner::Service(_) => json!({"type": "string"}),
        TypeInner::Func(_) => json!({"type": "string", "pattern": "\\."}),
        TypeInner::Empty => json!(false),
        TypeInner::Var(name) => {
            if !names.done.contains(name) {
                names.pending.insert(name.clone());
            }
            json!({"$ref": format!("#/$defs/{}", pointer_escape(name))})
        }
        TypeInner::Opt(inner) => json!({"anyOf": [{"type": "null"}, type_schema(inner, names)]}),
        TypeInner::Vec(inner) if matches!(inner.as_ref(), TypeInner::Nat8) => json!({"anyOf": [
            {"type": "string", "pattern": "^([0-9a-f]{2})*$"},
            {"type": "array", "items": type_schema(inner, names)}
        ]}),
        TypeInner::Vec(inner) => json!({"type": "array", "items": type_schema(inner, names)}),
        TypeInner::Record(fields) => {
            let mut properties = Map::new();
            for f in fields {
                properties.insert(label(&f.id), type_schema(&f.ty, names));
            }
            let required: Vec<&String> = properties.keys().collect();
            json!({
                "type": "object",
                "required": required,
                "properties": properties,
                "additionalProperties": false,
            })
        }
        TypeInner::Variant(fields) => {
            let cases: Vec<Value> = fields
                .iter()
                .map(|f| {
                    let tag = label(&f.id);
                    json!({
                        "type": "object",
                        "required": [tag],
                        "properties": {tag.clone(): type_schema(&f.ty, names)},
                        "additionalProperties": false,
                    })
                })
                .collect();
            json!({"oneOf": cases})
        }
        TypeInner::Knot(_) | TypeInner::Unknown | TypeInner::Class(..) | TypeInner::Future => {
            json!({})
        }
    }
}

/// `name` as one JSON Pointer token (`~` as `~0`, `/` as `~1`).
fn pointer_escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}
