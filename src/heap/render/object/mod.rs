//! One heap object as a model ([`ObjectView`]): its tag, address, size, every field with its
//! raw word and label, pointers with their targets, scalars decoded where the heap says what
//! they are (EOP and rtti builds), text and blob payloads previewed. The mount's
//! `objects/…/ADDRESS.json` ([`ObjectView::to_json`]) and `mo-mem object`'s text
//! ([`ObjectView::to_text`]) are both printed from it.

use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::{json, Map, Value as Json};

use super::json::to_json;
use crate::heap::value::Value;

mod read;

pub use read::{ObjectReader, MAX_LISTED_WORDS, MAX_PREVIEW_BYTES};

/// A pointer word's target.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// The address the word points to.
    pub pointer: u64,
    /// Where that object lives now, when it was forwarded elsewhere.
    pub resolved: Option<u64>,
    /// The tag of the object found there.
    pub tag: Option<&'static str>,
}

/// One word of an object: its raw value, and the pointer target or the decoded scalar.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    /// The raw word.
    pub word: u64,
    /// Its target, when it is a pointer.
    pub target: Option<Target>,
    /// The scalar it holds, when the heap says which (tagged scalars).
    pub value: Option<Value>,
}

/// A record field: its label (when known) and hash, and its word.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldSlot {
    /// The label, found by hash among the program's labels.
    pub label: Option<Arc<str>>,
    /// The label's hash.
    pub hash: u32,
    /// The field's word.
    pub slot: Slot,
}

/// One attribute of an object's body.
#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    /// One word (an option's payload, a variant's, a box's).
    Slot(Slot),
    /// Words listed one by one (elements, captures).
    Slots(Vec<Slot>),
    /// A record's fields.
    Fields(Vec<FieldSlot>),
    /// A count or small number.
    Count(u64),
    /// A flag.
    Flag(bool),
    /// A word shown in hex.
    Word(u64),
    /// A name or text (`null` when absent).
    Text(Option<String>),
    /// A decoded scalar (`null` when it has no JSON).
    Scalar(Value),
}

/// One heap object, as the mount and `mo-mem object` show it.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectView {
    /// The object's address.
    pub address: u64,
    /// Its tag's name.
    pub tag: &'static str,
    /// The raw header word.
    pub raw_tag: u64,
    /// Its size in bytes.
    pub size: u64,
    /// Where it was forwarded to, if it is a stale copy.
    pub forwarded_to: Option<u64>,
    /// The body's attributes by name.
    pub body: Vec<(String, Attr)>,
    /// The first [`MAX_LISTED_WORDS`] objects it points to.
    pub references: Vec<u64>,
    /// How many objects it points to, when more than are listed.
    pub references_total: Option<usize>,
}

fn hex(word: u64) -> String {
    format!("{word:#x}")
}

/// The JSON of a scalar, from the one JSON writer.
fn value_json(value: &Value) -> Option<Json> {
    serde_json::from_str(&to_json(value)).ok()
}

impl Slot {
    fn to_json(&self) -> Map<String, Json> {
        let mut out = Map::new();
        out.insert("word".into(), json!(hex(self.word)));
        if let Some(t) = &self.target {
            out.insert("pointer".into(), json!(hex(t.pointer)));
            if let Some(r) = t.resolved {
                out.insert("resolved".into(), json!(hex(r)));
            }
            if let Some(tag) = t.tag {
                out.insert("target_tag".into(), json!(tag));
            }
        }
        if let Some(v) = self.value.as_ref().and_then(value_json) {
            out.insert("value".into(), v);
        }
        out
    }
}

impl Attr {
    fn to_json(&self) -> Json {
        match self {
            Attr::Slot(s) => Json::Object(s.to_json()),
            Attr::Slots(slots) => slots.iter().map(|s| Json::Object(s.to_json())).collect(),
            Attr::Fields(fields) => fields
                .iter()
                .map(|f| {
                    let mut field = Map::new();
                    field.insert("label".into(), json!(f.label.as_deref()));
                    field.insert("hash".into(), json!(f.hash));
                    field.extend(f.slot.to_json());
                    Json::Object(field)
                })
                .collect(),
            Attr::Count(n) => json!(n),
            Attr::Flag(b) => json!(b),
            Attr::Word(w) => json!(hex(*w)),
            Attr::Text(t) => json!(t),
            Attr::Scalar(v) => value_json(v).unwrap_or(Json::Null),
        }
    }
}

impl ObjectView {
    /// The object's JSON (keys sorted), as `objects/…/ADDRESS.json` holds it.
    pub fn to_json(&self) -> Json {
        let mut out = Map::new();
        out.insert("address".into(), json!(hex(self.address)));
        out.insert("tag".into(), json!(self.tag));
        out.insert("raw_tag".into(), json!(hex(self.raw_tag)));
        out.insert("size".into(), json!(self.size));
        out.insert("forwarded_to".into(), json!(self.forwarded_to.map(hex)));
        for (key, attr) in &self.body {
            out.insert(key.clone(), attr.to_json());
        }
        out.insert(
            "references".into(),
            self.references.iter().map(|r| json!(hex(*r))).collect(),
        );
        if let Some(total) = self.references_total {
            out.insert("references_total".into(), json!(total));
        }
        Json::Object(out)
    }

    /// The text `mo-mem object` prints: a header line, the forwarding, every other attribute
    /// (sorted by name; lists one item per line, as compact JSON), then the references.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {} ({} bytes)",
            hex(self.address),
            self.tag,
            self.size
        );
        if let Some(target) = self.forwarded_to {
            let _ = writeln!(out, "  forwarded to {}", hex(target));
        }
        let mut attrs: Vec<(&str, Json)> = vec![("raw_tag", json!(hex(self.raw_tag)))];
        attrs.extend(self.body.iter().map(|(k, a)| (k.as_str(), a.to_json())));
        attrs.sort_by(|a, b| a.0.cmp(b.0));
        for (key, value) in attrs {
            match value {
                Json::Array(items) if !items.is_empty() => {
                    let _ = writeln!(out, "  {key}:");
                    for item in items {
                        let _ = writeln!(out, "    {item}");
                    }
                }
                value => {
                    let _ = writeln!(out, "  {key}: {value}");
                }
            }
        }
        let more = match self.references_total {
            Some(total) => format!(" (of {total})"),
            None => String::new(),
        };
        let references: Vec<String> = self.references.iter().map(|r| hex(*r)).collect();
        let _ = writeln!(out, "  references{more}: {}", references.join(" "));
        out
    }
}
