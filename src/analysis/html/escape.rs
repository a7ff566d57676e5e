//! Text from the heap (names, paths, map keys) made inert in HTML: every character that could
//! start markup, end an attribute or spell a URL (`/`) is written as a character reference, so
//! no string a canister stored can open an element, a script or an attribute in the page.

/// `text` escaped for HTML text and for double- or single-quoted attribute values: `&`, `<`,
/// `>`, `"`, `'` and `/` as character references, control characters (other than tab and
/// newline) as `U+FFFD`'s reference (they are not allowed in HTML).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '/' => out.push_str("&#47;"),
            '\t' | '\n' => out.push(c),
            c if c.is_control() => out.push_str("&#xFFFD;"),
            c => out.push(c),
        }
    }
    out
}

/// Standard base64 (with padding) of `bytes`: the digests of the page's Content Security
/// Policy.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_heap_text_is_inert() {
        assert_eq!(
            escape("</script><img src=x onerror=\"alert('1')\">"),
            "&lt;&#47;script&gt;&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;"
        );
        assert_eq!(escape("a & b"), "a &amp; b");
        assert_eq!(escape("https://x"), "https:&#47;&#47;x");
        assert_eq!(escape("nul\0bell\u{7}"), "nul&#xFFFD;bell&#xFFFD;");
        assert_eq!(escape("vars.m.get(\"ü\")"), "vars.m.get(&quot;ü&quot;)");
    }

    #[test]
    fn base64_is_the_standard_alphabet_with_padding() {
        // RFC 4648's test vectors.
        for (raw, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(raw.as_bytes()), coded, "{raw}");
        }
        assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    }
}
