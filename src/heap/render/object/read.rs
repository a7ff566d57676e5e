//! Reading one heap object into an [`ObjectView`].

use std::collections::HashMap;
use std::sync::Arc;

use num_bigint::BigUint;
use serde_json::Value as Json;

use super::{Attr, FieldSlot, ObjectView, Slot, Target};
use crate::heap::render::principal::principal_text;
use crate::heap::value::{Decoder, Value};
use crate::heap::{BitsSort, BlobSort, Body, Hashes, Heap, Object, Words};

/// The most words (fields, elements, captures) listed one by one; the rest are counted.
pub const MAX_LISTED_WORDS: usize = 4096;
/// The most payload bytes previewed for a text or blob.
pub const MAX_PREVIEW_BYTES: usize = 1024;
/// The most BigInt digits turned into a decimal value (larger ones show their digits only).
const MAX_BIGINT_DIGITS: u32 = 1024;

/// Builds [`ObjectView`]s, naming fields and variant tags by the labels it knows.
pub struct ObjectReader<'a, 'h> {
    heap: &'h Heap,
    decoder: &'a mut Decoder<'h>,
    labels: &'a HashMap<u32, Arc<str>>,
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

impl<'a, 'h> ObjectReader<'a, 'h> {
    /// A reader using `decoder` for scalars and texts and `labels` (by hash) for names.
    pub fn new(
        heap: &'h Heap,
        decoder: &'a mut Decoder<'h>,
        labels: &'a HashMap<u32, Arc<str>>,
    ) -> ObjectReader<'a, 'h> {
        ObjectReader {
            heap,
            decoder,
            labels,
        }
    }

    /// One word of an object: its raw value, and the pointer target or the decoded scalar.
    fn slot(&mut self, word: u64) -> Slot {
        let mut slot = Slot {
            word,
            target: None,
            value: None,
        };
        if let Some(pointer) = self.heap.pointer(word) {
            let resolved = self.heap.resolve(pointer).ok();
            slot.target = Some(Target {
                pointer,
                resolved: resolved.filter(|r| *r != pointer),
                tag: resolved
                    .and_then(|r| self.heap.object(r).ok())
                    .map(|object| object.tag.name()),
            });
        } else if word <= 1 {
            // 0 and 1 are `false`/`true` but also `()` and other untagged words: ambiguous.
        } else if let Ok(value) = self.decoder.untyped_shallow(word) {
            if value.is_scalar() {
                slot.value = Some(value);
            }
        }
        slot
    }

    fn slots(&mut self, words: Words<'_>) -> Vec<Slot> {
        words
            .iter()
            .take(MAX_LISTED_WORDS)
            .map(|w| self.slot(w))
            .collect()
    }

    fn label(&self, hash: u32) -> Option<Arc<str>> {
        self.labels.get(&hash).cloned()
    }

    /// The text a Blob T or Concat holds, decoded (bounded by the decoder's limits).
    fn text_of(&mut self, addr: u64) -> Option<String> {
        match self.decoder.untyped_shallow(addr.wrapping_sub(1)) {
            Ok(Value::Text(ref text)) => Some(text.clone()),
            _ => None,
        }
    }

    /// The view of `object`.
    pub fn read(&mut self, object: &Object<'_>) -> ObjectView {
        let mut body = Vec::new();
        self.body(object, &mut body);
        let total = object.references().count();
        ObjectView {
            address: object.addr,
            tag: object.tag.name(),
            raw_tag: object.raw_tag,
            size: object.size,
            forwarded_to: object.forwarded_to(),
            body,
            references: object
                .references()
                .take(MAX_LISTED_WORDS)
                .map(|w| w.wrapping_add(1))
                .collect(),
            references_total: (total > MAX_LISTED_WORDS).then_some(total),
        }
    }

    fn listed(&mut self, out: &mut Vec<(String, Attr)>, key: &str, words: Words<'_>) {
        out.push((key.into(), Attr::Slots(self.slots(words))));
        if words.len() > MAX_LISTED_WORDS as u64 {
            out.push((format!("{key}_total"), Attr::Count(words.len())));
        }
    }

    fn body(&mut self, object: &Object<'_>, out: &mut Vec<(String, Attr)>) {
        match object.body {
            Body::Object {
                hashes,
                fields,
                hash_ptr,
            } => self.record_body(out, hashes, fields, hash_ptr),
            Body::Array {
                sort,
                elems,
                slice_index,
            } => {
                put(out, "sort", Attr::Text(Some(sort_name(&sort))));
                put(out, "length", Attr::Count(elems.len()));
                if let Some(index) = slice_index {
                    put(out, "slice_index", Attr::Count(index));
                }
                self.listed(out, "elements", elems);
            }
            Body::Bits64 { sort, bits } => {
                // Classical moc < 0.13: the sort (and so the value) is the type's.
                let value = match sort {
                    BitsSort::Unsigned => Some(Value::Nat64(bits)),
                    BitsSort::Signed => Some(Value::Int64(bits as i64)),
                    BitsSort::Float => Some(Value::Float(f64::from_bits(bits))),
                    BitsSort::Unknown => None,
                };
                bits_body(out, sort, bits, value);
            }
            Body::Bits32 { sort, bits } => {
                let value = match sort {
                    BitsSort::Unsigned => Some(Value::Nat32(bits)),
                    BitsSort::Signed => Some(Value::Int32(bits as i32)),
                    BitsSort::Float => Some(Value::Float32(f32::from_bits(bits))),
                    BitsSort::Unknown => None,
                };
                bits_body(out, sort, u64::from(bits), value);
            }
            Body::MutBox { value } | Body::Some { value } => {
                put(out, "value", Attr::Slot(self.slot(value)));
            }
            Body::Closure { funid, captured } => {
                put(out, "function_index", Attr::Count(funid));
                put(
                    out,
                    "function",
                    Attr::Text(self.heap.function_name(funid).map(str::to_string)),
                );
                self.listed(out, "captured", captured);
            }
            Body::Variant { hash, payload } => {
                put(
                    out,
                    "label",
                    Attr::Text(self.label(hash).map(|l| l.to_string())),
                );
                put(out, "hash", Attr::Count(u64::from(hash)));
                put(out, "payload", Attr::Slot(self.slot(payload)));
            }
            Body::Blob { sort, bytes } => blob_body(out, sort, bytes),
            Body::BigInt {
                negative,
                used,
                alloc,
                digits,
                digit_bits,
            } => {
                put(out, "negative", Attr::Flag(negative));
                put(out, "used", Attr::Count(u64::from(used)));
                put(out, "alloc", Attr::Count(u64::from(alloc)));
                put(out, "digit_bits", Attr::Count(u64::from(digit_bits)));
                put(
                    out,
                    "value",
                    Attr::Text(bigint_decimal(negative, used, digits, digit_bits)),
                );
            }
            Body::Concat {
                n_bytes,
                left,
                right,
            } => {
                put(out, "length", Attr::Count(n_bytes));
                put(out, "left", Attr::Slot(self.slot(left)));
                put(out, "right", Attr::Slot(self.slot(right)));
                if let Some(text) = self.text_of(object.addr) {
                    let (preview, cut) = text_preview(text.as_bytes());
                    put(out, "text", Attr::Text(Some(preview)));
                    put(out, "truncated", Attr::Flag(cut));
                }
            }
            Body::Region {
                id,
                page_count,
                vec_pages,
            } => {
                put(out, "id", Attr::Count(id));
                put(out, "page_count", Attr::Count(page_count));
                put(out, "vec_pages", Attr::Slot(self.slot(vec_pages)));
            }
            Body::WeakRef { target } | Body::FwdPtr { target } => {
                put(out, "target", Attr::Slot(self.slot(target)));
            }
            _ => {}
        }
    }

    /// A record's attributes: its first fields (label, hash, slot), their count if cut, its
    /// hash table.
    fn record_body(
        &mut self,
        out: &mut Vec<(String, Attr)>,
        hashes: Hashes<'_>,
        fields: Words<'_>,
        hash_ptr: u64,
    ) {
        let listed: Vec<FieldSlot> = hashes
            .iter()
            .zip(fields.iter())
            .take(MAX_LISTED_WORDS)
            .map(|(hash, word)| FieldSlot {
                label: self.label(hash),
                hash,
                slot: self.slot(word),
            })
            .collect();
        put(out, "fields", Attr::Fields(listed));
        if fields.len() > MAX_LISTED_WORDS as u64 {
            put(out, "fields_total", Attr::Count(fields.len()));
        }
        put(out, "hash_table", Attr::Slot(self.slot(hash_ptr)));
    }
}

/// A boxed 64- or 32-bit number's attributes: its sort, its bits, its `value` when the sort
/// tells it (classical moc < 0.13: the sort, and so the value, is the type's).
fn bits_body(out: &mut Vec<(String, Attr)>, sort: BitsSort, bits: u64, value: Option<Value>) {
    put(out, "sort", Attr::Text(Some(sort_name(&sort))));
    put(out, "bits", Attr::Word(bits));
    if let Some(value) = value {
        put(out, "value", Attr::Scalar(value));
    }
}

/// A blob's attributes: its sort and length, a preview (text, principal and hex, or hex)
/// and whether the preview is cut.
fn blob_body(out: &mut Vec<(String, Attr)>, sort: BlobSort, bytes: &[u8]) {
    put(out, "sort", Attr::Text(Some(sort_name(&sort))));
    put(out, "length", Attr::Count(bytes.len() as u64));
    let cut = bytes.len() > MAX_PREVIEW_BYTES;
    match sort {
        BlobSort::Text => {
            let (text, _) = text_preview(bytes);
            put(out, "text", Attr::Text(Some(text)));
        }
        BlobSort::Principal | BlobSort::Actor => {
            put(out, "principal", Attr::Text(Some(principal_text(bytes))));
            let shown = bytes.get(..MAX_PREVIEW_BYTES).unwrap_or(bytes);
            put(out, "hex", Attr::Text(Some(hex::encode(shown))));
        }
        BlobSort::Bytes | BlobSort::Unknown => {
            let shown = bytes.get(..MAX_PREVIEW_BYTES).unwrap_or(bytes);
            put(out, "hex", Attr::Text(Some(hex::encode(shown))));
        }
    }
    put(out, "truncated", Attr::Flag(cut));
}

fn put(out: &mut Vec<(String, Attr)>, key: &str, attr: Attr) {
    out.push((key.to_string(), attr));
}

/// A sort's name as its serde form spells it (`"Immutable"`, `"Text"`, …).
fn sort_name(sort: &impl serde::Serialize) -> String {
    match serde_json::to_value(sort) {
        Ok(Json::String(s)) => s,
        _ => String::new(),
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
