//! One heap object as the JSON of `objects/.../ADDRESS.json`: its tag, size and every field
//! with its raw word, pointers as target addresses, scalars decoded where the heap says what
//! they are (EOP and rtti builds), text and blob payloads previewed.

use crate::heap::render::{principal_text, to_json};
use crate::heap::value::{Decoder, Value};
use crate::heap::{Body, Heap, Object, Words};
use num_bigint::BigUint;
use serde_json::{json, Map, Value as Json};
use std::collections::HashMap;
use std::sync::Arc;

/// The most words (fields, elements, captures) listed one by one; the rest are counted.
pub const MAX_LISTED_WORDS: usize = 4096;
/// The most payload bytes previewed for a text or blob.
pub const MAX_PREVIEW_BYTES: usize = 1024;
/// The most BigInt digits turned into a decimal value (larger ones show their digits only).
const MAX_BIGINT_DIGITS: u32 = 1024;

/// Renders heap objects as JSON, naming fields and variant tags by the labels it knows.
pub struct ObjectRenderer<'a, 'h> {
    heap: &'h Heap,
    decoder: &'a mut Decoder<'h>,
    labels: &'a HashMap<u32, Arc<str>>,
}

fn hex(word: u64) -> String {
    format!("{word:#x}")
}

fn value_json(value: &Value) -> Option<Json> {
    serde_json::from_str(&to_json(value)).ok()
}

/// A payload preview: the first bytes as (lossy) text, and whether it was cut.
fn text_preview(bytes: &[u8]) -> (String, bool) {
    let cut = bytes.len() > MAX_PREVIEW_BYTES;
    let mut end = bytes.len().min(MAX_PREVIEW_BYTES);
    // Cut at a character boundary when the payload is UTF-8.
    while end > 0 && end < bytes.len() && (bytes[end] & 0xC0) == 0x80 {
        end -= 1;
    }
    (
        String::from_utf8_lossy(bytes.get(..end).unwrap_or(&[])).into_owned(),
        cut,
    )
}

/// The decimal value of libtommath digits (least significant first), if not too large.
fn bigint_decimal(negative: bool, used: u32, digits: Words<'_>, digit_bits: u32) -> Option<String> {
    if used > MAX_BIGINT_DIGITS {
        return None;
    }
    let mask = (1u64 << digit_bits) - 1;
    let mut n = BigUint::default();
    for i in (0..u64::from(used)).rev() {
        n <<= digit_bits;
        n += BigUint::from(digits.get(i)? & mask);
    }
    let sign = if negative && n != BigUint::default() {
        "-"
    } else {
        ""
    };
    Some(format!("{sign}{n}"))
}

impl<'a, 'h> ObjectRenderer<'a, 'h> {
    /// A renderer using `decoder` for scalars and texts and `labels` (by hash) for names.
    pub fn new(
        heap: &'h Heap,
        decoder: &'a mut Decoder<'h>,
        labels: &'a HashMap<u32, Arc<str>>,
    ) -> ObjectRenderer<'a, 'h> {
        ObjectRenderer {
            heap,
            decoder,
            labels,
        }
    }

    /// One word of an object: its raw value, and the pointer target or the decoded scalar.
    fn slot(&mut self, word: u64) -> Json {
        let mut out = Map::new();
        out.insert("word".into(), json!(hex(word)));
        if let Some(target) = self.heap.pointer(word) {
            out.insert("pointer".into(), json!(hex(target)));
            let resolved = self.heap.resolve(target).ok();
            if let Some(resolved) = resolved.filter(|r| *r != target) {
                out.insert("resolved".into(), json!(hex(resolved)));
            }
            if let Some(object) = resolved.and_then(|r| self.heap.object(r).ok()) {
                out.insert("target_tag".into(), json!(object.tag.name()));
            }
        } else if word <= 1 {
            // 0 and 1 are `false`/`true` but also `()` and other untagged words: ambiguous.
        } else if let Ok(value) = self.decoder.untyped_shallow(word) {
            if value.is_scalar() {
                if let Some(v) = value_json(&value) {
                    out.insert("value".into(), v);
                }
            }
        }
        Json::Object(out)
    }

    fn slots(&mut self, words: Words<'_>) -> Json {
        let listed: Vec<Json> = words
            .iter()
            .take(MAX_LISTED_WORDS)
            .map(|w| self.slot(w))
            .collect();
        Json::Array(listed)
    }

    fn label(&self, hash: u32) -> Json {
        self.labels.get(&hash).map_or(Json::Null, |l| json!(&**l))
    }

    /// The text a Blob T or Concat holds, decoded (bounded by the decoder's limits).
    fn text_of(&mut self, addr: u64) -> Option<String> {
        match self.decoder.untyped_shallow(addr.wrapping_sub(1)) {
            Ok(Value::Text(ref text)) => Some(text.clone()),
            _ => None,
        }
    }

    /// The JSON of the object at `addr`.
    pub fn render(&mut self, object: &Object<'_>) -> Json {
        let mut out = Map::new();
        out.insert("address".into(), json!(hex(object.addr)));
        out.insert("tag".into(), json!(object.tag.name()));
        out.insert("raw_tag".into(), json!(hex(object.raw_tag)));
        out.insert("size".into(), json!(object.size));
        out.insert("forwarded_to".into(), json!(object.forwarded_to().map(hex)));
        self.body(object, &mut out);
        let total = object.references().count();
        let references: Vec<Json> = object
            .references()
            .take(MAX_LISTED_WORDS)
            .map(|w| json!(hex(w.wrapping_add(1))))
            .collect();
        out.insert("references".into(), Json::Array(references));
        if total > MAX_LISTED_WORDS {
            out.insert("references_total".into(), json!(total));
        }
        Json::Object(out)
    }

    fn listed(&mut self, out: &mut Map<String, Json>, key: &str, words: Words<'_>) {
        out.insert(key.into(), self.slots(words));
        if words.len() > MAX_LISTED_WORDS as u64 {
            out.insert(format!("{key}_total"), json!(words.len()));
        }
    }

    fn body(&mut self, object: &Object<'_>, out: &mut Map<String, Json>) {
        match object.body {
            Body::Object {
                hashes,
                fields,
                hash_ptr,
            } => {
                let listed: Vec<Json> = hashes
                    .iter()
                    .zip(fields.iter())
                    .take(MAX_LISTED_WORDS)
                    .map(|(hash, word)| {
                        let mut field = Map::new();
                        field.insert("label".into(), self.label(hash));
                        field.insert("hash".into(), json!(hash));
                        if let Json::Object(slot) = self.slot(word) {
                            field.extend(slot);
                        }
                        Json::Object(field)
                    })
                    .collect();
                out.insert("fields".into(), Json::Array(listed));
                if fields.len() > MAX_LISTED_WORDS as u64 {
                    out.insert("fields_total".into(), json!(fields.len()));
                }
                out.insert("hash_table".into(), self.slot(hash_ptr));
            }
            Body::Array {
                sort,
                elems,
                slice_index,
            } => {
                out.insert("sort".into(), json!(sort));
                out.insert("length".into(), json!(elems.len()));
                if let Some(index) = slice_index {
                    out.insert("slice_index".into(), json!(index));
                }
                self.listed(out, "elements", elems);
            }
            Body::Bits64 { sort, bits } => {
                out.insert("sort".into(), json!(sort));
                out.insert("bits".into(), json!(hex(bits)));
                let value = match sort {
                    crate::heap::BitsSort::Unsigned => Value::Nat64(bits),
                    crate::heap::BitsSort::Signed => Value::Int64(bits as i64),
                    crate::heap::BitsSort::Float => Value::Float(f64::from_bits(bits)),
                };
                out.insert("value".into(), value_json(&value).unwrap_or(Json::Null));
            }
            Body::Bits32 { sort, bits } => {
                out.insert("sort".into(), json!(sort));
                out.insert("bits".into(), json!(hex(u64::from(bits))));
                let value = match sort {
                    crate::heap::BitsSort::Unsigned => Value::Nat32(bits),
                    crate::heap::BitsSort::Signed => Value::Int32(bits as i32),
                    crate::heap::BitsSort::Float => Value::Float32(f32::from_bits(bits)),
                };
                out.insert("value".into(), value_json(&value).unwrap_or(Json::Null));
            }
            Body::MutBox { value } | Body::Some { value } => {
                out.insert("value".into(), self.slot(value));
            }
            Body::Closure { funid, captured } => {
                out.insert("function_index".into(), json!(funid));
                out.insert("function".into(), json!(self.heap.function_name(funid)));
                self.listed(out, "captured", captured);
            }
            Body::Variant { hash, payload } => {
                out.insert("label".into(), self.label(hash));
                out.insert("hash".into(), json!(hash));
                out.insert("payload".into(), self.slot(payload));
            }
            Body::Blob { sort, bytes } => {
                out.insert("sort".into(), json!(sort));
                out.insert("length".into(), json!(bytes.len()));
                let cut = bytes.len() > MAX_PREVIEW_BYTES;
                match sort {
                    crate::heap::BlobSort::Text => {
                        let (text, _) = text_preview(bytes);
                        out.insert("text".into(), json!(text));
                    }
                    crate::heap::BlobSort::Principal | crate::heap::BlobSort::Actor => {
                        out.insert("principal".into(), json!(principal_text(bytes)));
                        let shown = bytes.get(..MAX_PREVIEW_BYTES).unwrap_or(bytes);
                        out.insert("hex".into(), json!(hex::encode(shown)));
                    }
                    crate::heap::BlobSort::Bytes => {
                        let shown = bytes.get(..MAX_PREVIEW_BYTES).unwrap_or(bytes);
                        out.insert("hex".into(), json!(hex::encode(shown)));
                    }
                }
                out.insert("truncated".into(), json!(cut));
            }
            Body::BigInt {
                negative,
                used,
                alloc,
                digits,
                digit_bits,
            } => {
                out.insert("negative".into(), json!(negative));
                out.insert("used".into(), json!(used));
                out.insert("alloc".into(), json!(alloc));
                out.insert("digit_bits".into(), json!(digit_bits));
                out.insert(
                    "value".into(),
                    json!(bigint_decimal(negative, used, digits, digit_bits)),
                );
            }
            Body::Concat {
                n_bytes,
                left,
                right,
            } => {
                out.insert("length".into(), json!(n_bytes));
                out.insert("left".into(), self.slot(left));
                out.insert("right".into(), self.slot(right));
                if let Some(text) = self.text_of(object.addr) {
                    let (preview, cut) = text_preview(text.as_bytes());
                    out.insert("text".into(), json!(preview));
                    out.insert("truncated".into(), json!(cut));
                }
            }
            Body::Region {
                id,
                page_count,
                vec_pages,
            } => {
                out.insert("id".into(), json!(id));
                out.insert("page_count".into(), json!(page_count));
                out.insert("vec_pages".into(), self.slot(vec_pages));
            }
            Body::WeakRef { target } => {
                out.insert("target".into(), self.slot(target));
            }
            Body::FwdPtr { target } => {
                out.insert("target".into(), self.slot(target));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_cut_at_character_boundaries() {
        let text = "é".repeat(MAX_PREVIEW_BYTES);
        let (preview, cut) = text_preview(text.as_bytes());
        assert!(cut);
        assert_eq!(preview, "é".repeat(MAX_PREVIEW_BYTES / 2));
        assert_eq!(text_preview(b"abc"), ("abc".to_string(), false));
    }
}
