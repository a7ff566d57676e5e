//! Scalar parts of a streamed rendering written straight from the heap into the output: a
//! compact number as its digits, a text's bytes escaped from the heap's blob, with no
//! [`Value`](crate::heap::value::Value) built and nothing allocated per value (the walk in
//! `stream.rs` meets millions of them in a large map).
//!
//! The bytes, the work spent and the errors are those of [`Decoder::shallow`] followed by
//! the writers ([`super::write_json_as`], [`super::write_debug_show_as`]): anything this
//! module does not write itself (a big number, a text rope, a float, a malformed word) is
//! decoded by the decoder's own [`Decoder::prim`] and written by those writers.

use std::io::Write;
use std::sync::Arc;

use super::json::MAX_SAFE_INTEGER;
use super::shape::FloatStyle;
use super::{write_debug_show_as, write_json_as};
use crate::heap::object::eop_blob;
use crate::heap::types::{Prim, Type};
use crate::heap::value::{rendered_text_len, DecodeError, Decoder, LazyValue};
use crate::heap::Body;

/// Which text a leaf is written in.
#[derive(Clone, Copy)]
pub(super) enum LeafFormat {
    Json,
    Motoko(FloatStyle),
}

/// The primitive type of `lazy` when its rendering never opens a level (a number, a
/// boolean, a text, a character), so it can be written by [`write_leaf`]; `None` for
/// every other value (and for a type that does not resolve: the caller's decoding reports
/// that).
pub(super) fn leaf_prim(decoder: &Decoder<'_>, lazy: &LazyValue) -> Option<Prim> {
    leaf_prim_of(decoder, lazy.ty.as_ref()?)
}

/// [`leaf_prim`] of a value of type `ty`.
pub(super) fn leaf_prim_of(decoder: &Decoder<'_>, ty: &Arc<Type>) -> Option<Prim> {
    let direct = match &**ty {
        Type::Prim(p) => Some(*p),
        Type::Con { .. } => None,
        _ => return None,
    };
    let p = match direct {
        Some(p) => p,
        None => match &*decoder.env.normalize(ty).ok()? {
            Type::Prim(p) => *p,
            _ => return None,
        },
    };
    use Prim as P;
    matches!(
        p,
        P::Bool
            | P::Nat
            | P::Int
            | P::Nat8
            | P::Nat16
            | P::Nat32
            | P::Nat64
            | P::Int8
            | P::Int16
            | P::Int32
            | P::Int64
            | P::Float
            | P::Float32
            | P::Char
            | P::Text
    )
    .then_some(p)
}

/// Writes the leaf `word` of primitive type `p` (see [`leaf_prim`]) to `out`, spending
/// what [`Decoder::shallow`] spends; `scratch` is reused for the values written through
/// the general writers.
pub(super) fn write_leaf(
    decoder: &mut Decoder<'_>,
    p: Prim,
    word: u64,
    format: LeafFormat,
    out: &mut impl Write,
    scratch: &mut String,
) -> Result<(), LeafError> {
    decoder.budget.spend(1, word).map_err(DecodeError::from)?;
    let heap = decoder.heap;
    let sc = heap.scalars();
    let pointer = heap.is_pointer(word);
    if let LeafFormat::Json = format {
        if !pointer {
            let small = match p {
                Prim::Nat => sc.nat_int(word).filter(|n| *n >= 0).map(Number::Signed),
                Prim::Int => sc.nat_int(word).map(Number::Signed),
                Prim::Nat64 => sc.nat64(word).map(Number::Unsigned),
                Prim::Int64 => sc.int64(word).map(Number::Signed),
                Prim::Nat32 => sc.nat32(word).map(|n| Number::Unsigned(n.into())),
                Prim::Int32 => sc.int32(word).map(|n| Number::Signed(n.into())),
                Prim::Nat16 => sc.nat16(word).map(|n| Number::Unsigned(n.into())),
                Prim::Int16 => sc.int16(word).map(|n| Number::Signed(n.into())),
                Prim::Nat8 => sc.nat8(word).map(|n| Number::Unsigned(n.into())),
                Prim::Int8 => sc.int8(word).map(|n| Number::Signed(n.into())),
                Prim::Bool => match sc.bool(word) {
                    Some(b) => {
                        out.write_all(if b { b"true" } else { b"false" })?;
                        return Ok(());
                    }
                    None => None,
                },
                _ => None,
            };
            if let Some(n) = small {
                write_number_json(n, out)?;
                return Ok(());
            }
        }
    }
    if p == Prim::Text && pointer {
        if let Some((addr, bytes)) = eop_blob(heap.image(), heap.layout(), word) {
            return write_text(decoder, addr, word, bytes, format, out);
        }
        if let Ok(o) = heap.object_of(word) {
            if let Body::Blob { bytes, .. } = o.body {
                return write_text(decoder, o.addr, word, bytes, format, out);
            }
        }
    }
    // Everything else as `shallow` decodes it (its budget step is spent above).
    let v = decoder.prim(p, word)?;
    scratch.clear();
    match format {
        LeafFormat::Json => write_json_as(&v, scratch),
        LeafFormat::Motoko(floats) => write_debug_show_as(&v, floats, scratch),
    }
    out.write_all(scratch.as_bytes())?;
    Ok(())
}

/// Why a leaf was not written.
#[derive(Debug)]
pub(super) enum LeafError {
    Decode(DecodeError),
    Write(std::io::Error),
}

impl From<DecodeError> for LeafError {
    fn from(e: DecodeError) -> LeafError {
        LeafError::Decode(e)
    }
}

impl From<std::io::Error> for LeafError {
    fn from(e: std::io::Error) -> LeafError {
        LeafError::Write(e)
    }
}

/// A text held in one blob (`bytes` of the object at `addr`), checked and spent as the
/// decoder's `text` does, written as a JSON string or `debug_show`'s quotes.
fn write_text(
    decoder: &mut Decoder<'_>,
    addr: u64,
    word: u64,
    bytes: &[u8],
    format: LeafFormat,
    out: &mut impl Write,
) -> Result<(), LeafError> {
    let e = |e: crate::image::ImageError| LeafError::Decode(DecodeError::from(e));
    decoder.budget.object(addr).map_err(e)?;
    let len = bytes.len() as u64;
    decoder.limits.check_text_bytes(len, addr).map_err(e)?;
    decoder.budget.spend(len / 8, addr).map_err(e)?;
    // The rendered length is checked only when it could pass the limit (6 bytes per byte
    // at most, and the quotes).
    if len.saturating_mul(6).saturating_add(2) > decoder.limits.max_text_bytes {
        let at = decoder.heap.pointer(word).unwrap_or(0);
        decoder
            .limits
            .check_text_bytes(rendered_text_len(bytes), at)
            .map_err(e)?;
    }
    if let LeafFormat::Json = format {
        if bytes
            .iter()
            .all(|&b| (0x20..0x80).contains(&b) && b != b'"' && b != b'\\')
        {
            // Printable ASCII, nothing to escape: written as it is.
            out.write_all(b"\"")?;
            out.write_all(bytes)?;
            out.write_all(b"\"")?;
            return Ok(());
        }
    }
    let lossy;
    let text = match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(_) => {
            lossy = String::from_utf8_lossy(bytes);
            &*lossy
        }
    };
    match format {
        LeafFormat::Json => {
            write_json_string(text.as_bytes(), out)?;
        }
        LeafFormat::Motoko(_) => {
            out.write_all(b"\"")?;
            out.write_all(text.as_bytes())?;
            out.write_all(b"\"")?;
        }
    }
    Ok(())
}

/// `text` (UTF-8) as a JSON string, escaped as serde_json escapes it (the JSON writer's
/// [`super::json_string`]): quotes and backslashes, `\b \t \n \f \r`, other control
/// characters as `\u00xx`; runs of other bytes are written as they are.
fn write_json_string(text: &[u8], out: &mut impl Write) -> std::io::Result<()> {
    out.write_all(b"\"")?;
    let mut start = 0;
    for (i, &b) in text.iter().enumerate() {
        let short = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            b'\t' => b't',
            b'\n' => b'n',
            0x0c => b'f',
            b'\r' => b'r',
            0..=0x1f => 0,
            _ => continue,
        };
        out.write_all(&text[start..i])?;
        start = i + 1;
        if short != 0 {
            out.write_all(&[b'\\', short])?;
        } else {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let code = [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ];
            out.write_all(&code)?;
        }
    }
    out.write_all(&text[start..])?;
    out.write_all(b"\"")
}

/// A small integer read from a word.
#[derive(Clone, Copy)]
enum Number {
    Signed(i64),
    Unsigned(u64),
}

/// A number as JSON: its digits, or a string of them beyond ±2^53 (as the JSON writer).
fn write_number_json(n: Number, out: &mut impl Write) -> std::io::Result<()> {
    let (negative, magnitude) = match n {
        Number::Signed(n) => (n < 0, n.unsigned_abs()),
        Number::Unsigned(n) => (false, n),
    };
    let mut buf = [0u8; 23];
    let mut at = buf.len();
    let quoted = magnitude > MAX_SAFE_INTEGER;
    if quoted {
        at -= 1;
        buf[at] = b'"';
    }
    let mut m = magnitude;
    loop {
        at -= 1;
        buf[at] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if negative {
        at -= 1;
        buf[at] = b'-';
    }
    if quoted {
        at -= 1;
        buf[at] = b'"';
    }
    out.write_all(&buf[at..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json_of(n: Number) -> String {
        let mut out = Vec::new();
        write_number_json(n, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn numbers_are_written_as_the_json_writer_writes_them() {
        use crate::heap::value::Value;
        let signed = [
            0i64,
            1,
            -1,
            9,
            10,
            -10,
            123_456_789,
            (1 << 53) - 1,
            1 << 53,
            (1 << 53) + 1,
            -(1 << 53),
            -(1 << 53) - 1,
            i64::MAX,
            i64::MIN,
        ];
        for n in signed {
            let mut want = String::new();
            write_json_as(&Value::Int64(n), &mut want);
            assert_eq!(json_of(Number::Signed(n)), want, "{n}");
        }
        for n in [0u64, 7, 1 << 53, (1 << 53) + 1, u64::MAX] {
            let mut want = String::new();
            write_json_as(&Value::Nat64(n), &mut want);
            assert_eq!(json_of(Number::Unsigned(n)), want, "{n}");
        }
    }

    #[test]
    fn texts_are_escaped_as_serde_json_escapes_them() {
        let mut all: String = (0u8..0x80).map(char::from).collect();
        all.push_str("é 字 🙂 \u{7f}\u{2028}");
        for text in ["", "plain", "quote \" and \\", "tab\tnul\u{0}\u{1f}", &all] {
            let mut got = Vec::new();
            write_json_string(text.as_bytes(), &mut got).unwrap();
            assert_eq!(
                String::from_utf8(got).unwrap(),
                super::super::json_string(text)
            );
        }
    }

    #[test]
    fn rendered_length_bounds_the_json_string() {
        for text in ["", "plain", "quote \" and \\", "tab\tnul\u{0}", "é 字 🙂"] {
            let json = serde_json::to_string(text).unwrap();
            assert!(rendered_text_len(text.as_bytes()) >= json.len() as u64);
        }
        assert_eq!(rendered_text_len(&[b'a', 0xff, b'b']), 7);
    }
}
