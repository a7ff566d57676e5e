//! Decoding of primitive-typed words: numbers (compact, BigInt, boxed Bits32/Bits64), Char,
//! Float, Text (Blob T and Concat ropes, with an explicit stack), Blob, Principal, Region.

use num_bigint::{BigInt, BigUint, Sign};

use super::{DecodeError, Decoder, Value};
use crate::heap::types::Prim;
use crate::heap::{BitsSort, Body, Object, Tag};

/// An inconsistent text rope at `addr`.
fn rope_error(addr: u64, what: &'static str) -> DecodeError {
    DecodeError::Heap(crate::heap::HeapError::Object(
        crate::heap::ObjectError::Inconsistent { addr, what },
    ))
}

impl<'h> Decoder<'h> {
    /// A mismatch error for `word` decoded as `expected`.
    pub(crate) fn mismatch(&self, word: u64, expected: &str) -> DecodeError {
        let (addr, found) = match self.heap.pointer(word) {
            Some(a) => match self.heap.object_of(word) {
                Ok(o) => (Some(o.addr), o.tag.name().to_string()),
                Err(e) => (Some(a), format!("an unreadable object ({e})")),
            },
            None => (None, "a scalar".to_string()),
        };
        DecodeError::Mismatch {
            word,
            addr,
            expected: expected.to_string(),
            found,
        }
    }

    /// The object `word` points to (following forwarding), counted against the budget.
    pub(crate) fn obj(&mut self, word: u64) -> Result<Object<'h>, DecodeError> {
        let o = self.heap.object_of(word)?;
        self.budget.object(o.addr)?;
        Ok(o)
    }

    /// Decodes `word` as the primitive type `p`.
    pub(crate) fn prim(&mut self, p: Prim, word: u64) -> Result<Value, DecodeError> {
        let sc = self.heap.scalars();
        let ptr = self.heap.is_pointer(word);
        let bad = |s: &Self| s.mismatch(word, p.name());
        Ok(match p {
            Prim::Bool => Value::Bool(sc.bool(word).ok_or_else(|| bad(self))?),
            Prim::Nat | Prim::Int => {
                let n: BigInt = if ptr {
                    self.bigint(word, p)?
                } else {
                    BigInt::from(sc.nat_int(word).ok_or_else(|| bad(self))?)
                };
                if p == Prim::Int {
                    Value::Int(n)
                } else {
                    Value::Nat(n.to_biguint().ok_or_else(|| bad(self))?)
                }
            }
            Prim::Nat64 => Value::Nat64(match sc.nat64(word) {
                Some(v) if !ptr => v,
                _ => self.bits64(word, BitsSort::Unsigned, p)?,
            }),
            Prim::Int64 => Value::Int64(match sc.int64(word) {
                Some(v) if !ptr => v,
                _ => self.bits64(word, BitsSort::Signed, p)? as i64,
            }),
            Prim::Nat32 => Value::Nat32(match sc.nat32(word) {
                Some(v) if !ptr => v,
                _ => self.bits32(word, BitsSort::Unsigned, p)?,
            }),
            Prim::Int32 => Value::Int32(match sc.int32(word) {
                Some(v) if !ptr => v,
                _ => self.bits32(word, BitsSort::Signed, p)? as i32,
            }),
            Prim::Nat16 => Value::Nat16(sc.nat16(word).ok_or_else(|| bad(self))?),
            Prim::Int16 => Value::Int16(sc.int16(word).ok_or_else(|| bad(self))?),
            Prim::Nat8 => Value::Nat8(sc.nat8(word).ok_or_else(|| bad(self))?),
            Prim::Int8 => Value::Int8(sc.int8(word).ok_or_else(|| bad(self))?),
            Prim::Char => Value::Char(
                sc.char(word)
                    .and_then(char::from_u32)
                    .ok_or_else(|| bad(self))?,
            ),
            Prim::Float => Value::Float(f64::from_bits(self.bits64(word, BitsSort::Float, p)?)),
            Prim::Float32 => Value::Float32(self.float32(word)?),
            Prim::Text => Value::Text(self.text(word)?),
            Prim::Blob => Value::Blob(self.blob_bytes(word, p)?),
            Prim::Principal => Value::Principal(self.blob_bytes(word, p)?),
            Prim::Null => {
                if self.heap.is_null(word)? {
                    Value::Null
                } else {
                    return Err(bad(self));
                }
            }
            Prim::Region => self.region(word)?,
            Prim::Any => return self.untyped_shallow(word),
            Prim::Error => Value::Opaque {
                word,
                addr: self.heap.pointer(word),
                what: "Error".into(),
            },
            Prim::None => return Err(bad(self)),
        })
    }

    fn bits64(&mut self, word: u64, _sort: BitsSort, p: Prim) -> Result<u64, DecodeError> {
        if !self.heap.is_pointer(word) {
            return Err(self.mismatch(word, p.name()));
        }
        match self.obj(word)?.body {
            Body::Bits64 { bits, .. } => Ok(bits),
            _ => Err(self.mismatch(word, p.name())),
        }
    }

    /// A `Float32`: unboxed in the high half of an EOP word, otherwise a Bits32 F box.
    fn float32(&mut self, word: u64) -> Result<f32, DecodeError> {
        if !self.heap.is_pointer(word) {
            if self.heap.layout().word.bits() == 64 {
                return Ok(f32::from_bits((word >> 32) as u32));
            }
            return Err(self.mismatch(word, "Float32"));
        }
        match self.obj(word)?.body {
            Body::Bits32 { bits, .. } => Ok(f32::from_bits(bits)),
            Body::Bits64 { bits, .. } => Ok(f64::from_bits(bits) as f32),
            _ => Err(self.mismatch(word, "Float32")),
        }
    }

    fn bits32(&mut self, word: u64, _sort: BitsSort, p: Prim) -> Result<u32, DecodeError> {
        if !self.heap.is_pointer(word) {
            return Err(self.mismatch(word, p.name()));
        }
        match self.obj(word)?.body {
            Body::Bits32 { bits, .. } => Ok(bits),
            Body::Bits64 { bits, .. } => Ok(bits as u32),
            _ => Err(self.mismatch(word, p.name())),
        }
    }

    /// A libtommath BigInt object as an integer.
    pub(crate) fn bigint(&mut self, word: u64, p: Prim) -> Result<BigInt, DecodeError> {
        let o = self.obj(word)?;
        let Body::BigInt {
            negative,
            used,
            digits,
            digit_bits,
            ..
        } = o.body
        else {
            return Err(self.mismatch(word, p.name()));
        };
        let used = u64::from(used).min(digits.len());
        self.budget.spend(used, o.addr)?;
        let mask = (1u64 << digit_bits) - 1;
        let mut mag = BigUint::default();
        for i in (0..used).rev() {
            let d = digits.get(i).unwrap_or(0) & mask;
            mag = (mag << digit_bits) + BigUint::from(d);
        }
        let sign = if negative { Sign::Minus } else { Sign::Plus };
        Ok(BigInt::from_biguint(sign, mag))
    }

    /// The bytes of any blob object (Blob, Text, Principal or actor), within the text limit.
    pub(crate) fn blob_bytes(&mut self, word: u64, p: Prim) -> Result<Vec<u8>, DecodeError> {
        if !self.heap.is_pointer(word) {
            return Err(self.mismatch(word, p.name()));
        }
        let o = self.obj(word)?;
        match o.body {
            Body::Blob { bytes, .. } => {
                // Rendered, every byte takes up to three (`\XX` in `debug_show`).
                let rendered = (bytes.len() as u64).saturating_mul(3);
                self.limits.check_text_bytes(rendered, o.addr)?;
                self.budget.spend(bytes.len() as u64 / 8, o.addr)?;
                Ok(bytes.to_vec())
            }
            _ => Err(self.mismatch(word, p.name())),
        }
    }

    /// A text: a Blob T, or a Concat rope walked with an explicit stack.
    ///
    /// The RTS makes a Concat only of two non-empty texts, so every part of a rope is
    /// non-empty and shorter than the Concat holding it, and the text is at most the root's
    /// `n_bytes` long. Those checks refuse cyclic or inflated ropes (which would otherwise
    /// be walked forever, or exponentially long through shared parts) with an error naming
    /// the node.
    pub(crate) fn text(&mut self, word: u64) -> Result<String, DecodeError> {
        if !self.heap.is_pointer(word) {
            return Err(self.mismatch(word, "Text"));
        }
        let root = self.heap.object_of(word)?;
        if let Body::Blob { bytes, .. } = root.body {
            // A flat text (the common case): the same checks as a rope's, one copy.
            self.budget.object(root.addr)?;
            self.limits
                .check_text_bytes(bytes.len() as u64, root.addr)?;
            self.budget.spend(bytes.len() as u64 / 8, root.addr)?;
            self.check_rendered_len(bytes, self.heap.pointer(word).unwrap_or(0))?;
            return Ok(match std::str::from_utf8(bytes) {
                Ok(s) => s.to_owned(),
                Err(_) => String::from_utf8_lossy(bytes).into_owned(),
            });
        }
        let mut out: Vec<u8> = Vec::new();
        // (word, the most bytes it may hold): unbounded at the root.
        let mut stack: Vec<(u64, u64)> = vec![(word, u64::MAX)];
        let mut declared = u64::MAX;
        let mut root = Some(root);
        while let Some((w, bound)) = stack.pop() {
            let o = match root.take() {
                // the root, read above: counted here as `obj` would count it
                Some(o) => {
                    self.budget.object(o.addr)?;
                    o
                }
                None if !self.heap.is_pointer(w) => return Err(self.mismatch(w, "Text")),
                None => self.obj(w)?,
            };
            let in_rope = bound != u64::MAX;
            match o.body {
                Body::Blob { bytes, .. } => {
                    let len = bytes.len() as u64;
                    if in_rope && (len == 0 || len > bound) {
                        return Err(rope_error(
                            o.addr,
                            "a text part is empty or not shorter than its Concat",
                        ));
                    }
                    let total = out.len() as u64 + len;
                    if total > declared {
                        return Err(rope_error(
                            o.addr,
                            "the text rope is longer than its root Concat says",
                        ));
                    }
                    self.limits.check_text_bytes(total, o.addr)?;
                    self.budget.spend(len / 8, o.addr)?;
                    out.extend_from_slice(bytes);
                }
                Body::Concat {
                    n_bytes,
                    left,
                    right,
                } => {
                    if n_bytes < 2 || n_bytes > bound {
                        return Err(rope_error(
                            o.addr,
                            "a Concat is shorter than two bytes or not shorter than its parent",
                        ));
                    }
                    if !in_rope {
                        self.limits.check_text_bytes(n_bytes, o.addr)?;
                        declared = n_bytes;
                    }
                    let depth = u32::try_from(stack.len() + 2).unwrap_or(u32::MAX);
                    self.limits.check_rope_depth(depth, o.addr)?;
                    stack.push((right, n_bytes - 1));
                    stack.push((left, n_bytes - 1));
                }
                _ => return Err(self.mismatch(w, "Text")),
            }
        }
        self.check_rendered_len(&out, self.heap.pointer(word).unwrap_or(0))?;
        Ok(match String::from_utf8(out) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }

    /// A text of control bytes renders six times as long in JSON (`\u0000`): the limit holds
    /// for the rendered text, checked before anything is rendered (counted only when the
    /// bound `6 × len + 2` could exceed it).
    fn check_rendered_len(&self, bytes: &[u8], addr: u64) -> Result<(), DecodeError> {
        let bound = (bytes.len() as u64).saturating_mul(6).saturating_add(2);
        if bound > self.limits.max_text_bytes {
            self.limits
                .check_text_bytes(rendered_text_len(bytes), addr)?;
        }
        Ok(())
    }

    /// A Region object: id, page count and its block list.
    pub(crate) fn region(&mut self, word: u64) -> Result<Value, DecodeError> {
        if !self.heap.is_pointer(word) {
            return Err(self.mismatch(word, "Region"));
        }
        let o = self.obj(word)?;
        let Body::Region {
            id,
            page_count,
            vec_pages,
        } = o.body
        else {
            return Err(self.mismatch(word, "Region"));
        };
        let bytes = self.blob_bytes(vec_pages, Prim::Blob)?;
        let blocks = bytes
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(Value::Region {
            addr: o.addr,
            id,
            page_count,
            blocks,
        })
    }

    /// Whether `word` points to an object with tag `tag`.
    pub(crate) fn points_to(&mut self, word: u64, tag: Tag) -> Result<bool, DecodeError> {
        if !self.heap.is_pointer(word) {
            return Ok(false);
        }
        Ok(self.heap.object_of(word)?.tag == tag)
    }
}

/// The most bytes the text `bytes` (read as UTF-8, invalid sequences as U+FFFD) takes
/// rendered: as a JSON string, control characters escaped as `\u00XX` and quotes and
/// backslashes doubled (`debug_show` escapes nothing, so JSON is the longer form); the
/// decoder's bound on a text, which the streaming renderers check too.
pub fn rendered_text_len(bytes: &[u8]) -> u64 {
    bytes
        .utf8_chunks()
        .map(|chunk| {
            let valid: u64 = chunk
                .valid()
                .bytes()
                .map(|b| match b {
                    0..=0x1f => 6,
                    b'"' | b'\\' => 2,
                    _ => 1,
                })
                .sum();
            valid + if chunk.invalid().is_empty() { 0 } else { 3 }
        })
        .sum::<u64>()
        + 2
}

#[cfg(test)]
mod tests {
    use super::rendered_text_len;

    #[test]
    fn rendered_text_len_bounds_the_json_form() {
        for text in ["", "plain", "quote \" and \\", "tab\tnul\u{0}", "é 字 🙂"] {
            let json = serde_json::to_string(text).expect("json");
            assert!(
                rendered_text_len(text.as_bytes()) >= json.len() as u64,
                "{text:?}"
            );
        }
        assert_eq!(rendered_text_len(&[0; 10]), 62);
        assert_eq!(rendered_text_len("字".as_bytes()), 5);
        // One invalid byte is one U+FFFD (three bytes).
        assert_eq!(rendered_text_len(&[b'a', 0xff, b'b']), 7);
    }
}
