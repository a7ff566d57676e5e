//! The byte level of a WebAssembly module: LEB128 numbers and top-level sections, split,
//! replaced and extended (the runner's rewrites, `instrument` and `nan_canon`, build on it).

use std::ops::Range;

use super::error::RuntimeError;

/// The code section's id.
pub const SECTION_CODE: u8 = 10;

/// A wasmparser error as the runner reports a module it cannot load.
pub fn parse_err(e: wasmparser::BinaryReaderError) -> RuntimeError {
    RuntimeError::InvalidModule(e.to_string())
}

/// Reads an unsigned LEB128 `u32` at `*pos`, advancing it.
pub fn read_leb_u32(bytes: &[u8], pos: &mut usize) -> Result<u32, RuntimeError> {
    let mut result: u64 = 0;
    for shift in (0..35).step_by(7) {
        let byte = *bytes
            .get(*pos)
            .ok_or_else(|| RuntimeError::InvalidModule("truncated LEB128".into()))?;
        *pos += 1;
        result |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return u32::try_from(result)
                .map_err(|_| RuntimeError::InvalidModule("LEB128 overflows u32".into()));
        }
    }
    Err(RuntimeError::InvalidModule("LEB128 too long".into()))
}

/// Appends `v` as unsigned LEB128.
pub fn write_leb_u32(out: &mut Vec<u8>, mut v: u32) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// One top-level section: its id, the whole byte range (header included) and its contents' range.
pub struct Section {
    /// The section id (0: custom).
    pub id: u8,
    /// The bytes of the whole section, its id and length included.
    pub whole: Range<usize>,
    /// The bytes of its contents.
    pub contents: Range<usize>,
}

/// Splits a module into its sections (checking the header and every length).
pub fn sections(wasm: &[u8]) -> Result<Vec<Section>, RuntimeError> {
    if wasm.len() < 8 || &wasm[0..4] != b"\0asm" {
        return Err(RuntimeError::InvalidModule(
            "not a WebAssembly module (bad magic)".into(),
        ));
    }
    let mut out = Vec::new();
    let mut pos = 8;
    while pos < wasm.len() {
        let start = pos;
        let id = wasm[pos];
        pos += 1;
        let len = read_leb_u32(wasm, &mut pos)? as usize;
        let end = pos
            .checked_add(len)
            .filter(|&e| e <= wasm.len())
            .ok_or_else(|| {
                RuntimeError::InvalidModule(format!("section {id} at {start} overruns the module"))
            })?;
        out.push(Section {
            id,
            whole: start..end,
            contents: pos..end,
        });
        pos = end;
    }
    Ok(out)
}

/// Position of a section id in the order the binary format requires (custom sections: none).
fn order(id: u8) -> Option<u8> {
    const ORDER: [u8; 13] = [1, 2, 3, 4, 5, 13, 6, 7, 8, 9, 12, 10, 11];
    ORDER.iter().position(|&x| x == id).map(|p| p as u8)
}

/// `wasm` (whose sections are `secs`) with `count` more entries, `entries` encoded, at the end
/// of its vector section `id` (the section made, in its place in the section order, if there
/// is none), and without its section `drop`. `what` names the section in errors.
pub fn extend_vector_section(
    wasm: &[u8],
    secs: &[Section],
    id: u8,
    (count, entries): (u32, &[u8]),
    drop: u8,
    what: &str,
) -> Result<Vec<u8>, RuntimeError> {
    let rank = order(id);
    let mut out = Vec::with_capacity(wasm.len() + entries.len() + 16);
    out.extend_from_slice(&wasm[..8]);
    let mut done = false;
    let emit = |out: &mut Vec<u8>, old: Option<&[u8]>| -> Result<(), RuntimeError> {
        let mut body = Vec::new();
        match old {
            Some(old) => {
                let mut pos = 0;
                let before = read_leb_u32(old, &mut pos)?;
                let total = before
                    .checked_add(count)
                    .ok_or_else(|| RuntimeError::InvalidModule(format!("too many {what}s")))?;
                write_leb_u32(&mut body, total);
                body.extend_from_slice(&old[pos..]);
            }
            None => write_leb_u32(&mut body, count),
        }
        body.extend_from_slice(entries);
        out.push(id);
        let len = u32::try_from(body.len())
            .map_err(|_| RuntimeError::InvalidModule(format!("{what} section too large")))?;
        write_leb_u32(out, len);
        out.extend_from_slice(&body);
        Ok(())
    };
    for s in secs {
        if !done {
            if s.id == id {
                emit(&mut out, Some(&wasm[s.contents.clone()]))?;
                done = true;
                continue;
            }
            if order(s.id).is_some() && order(s.id) > rank {
                emit(&mut out, None)?;
                done = true;
            }
        }
        if s.id != drop {
            out.extend_from_slice(&wasm[s.whole.clone()]);
        }
    }
    if !done {
        emit(&mut out, None)?;
    }
    Ok(out)
}

/// `wasm` (whose sections are `secs`) with the contents of its section `id` replaced by
/// `contents` (the section's length prefix written anew).
pub fn replace_section(
    wasm: &[u8],
    secs: &[Section],
    id: u8,
    contents: &[u8],
) -> Result<Vec<u8>, RuntimeError> {
    let mut out = Vec::with_capacity(wasm.len() + contents.len());
    out.extend_from_slice(&wasm[..8]);
    for s in secs {
        if s.id != id {
            out.extend_from_slice(&wasm[s.whole.clone()]);
            continue;
        }
        out.push(id);
        let len = u32::try_from(contents.len())
            .map_err(|_| RuntimeError::InvalidModule(format!("section {id} too large")))?;
        write_leb_u32(&mut out, len);
        out.extend_from_slice(contents);
    }
    Ok(out)
}
