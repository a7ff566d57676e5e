//! `Char`, `Text` and `Blob` as `debug_show` prints them, compiled or interpreted alike:
//! quotes without escapes, blob bytes as `\XX` (uppercase hex).

use std::fmt::Write as _;

/// Appends `'c'`.
pub fn write_char(out: &mut String, c: char) {
    out.push('\'');
    out.push(c);
    out.push('\'');
}

/// Appends `"text"`.
pub fn write_text(out: &mut String, text: &str) {
    out.push('"');
    out.push_str(text);
    out.push('"');
}

/// Appends `"\XX\XX…"`, one `\XX` per byte.
pub fn write_blob(out: &mut String, bytes: &[u8]) {
    out.reserve(bytes.len() * 3 + 2);
    out.push('"');
    for byte in bytes {
        let _ = write!(out, "\\{byte:02X}");
    }
    out.push('"');
}
