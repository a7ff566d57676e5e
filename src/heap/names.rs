//! Label hashing and the lightweight extraction of stable variable names from the
//! `motoko:stable-types` signature.

/// Motoko's label hash (spec 5.1): `h = h*223 + byte` mod 2^32, top bit cleared.
pub fn label_hash(label: &str) -> u32 {
    let h = label
        .bytes()
        .fold(0u32, |h, c| h.wrapping_mul(223).wrapping_add(u32::from(c)));
    h & 0x7FFF_FFFF
}

/// The names of the stable variables (`stable var x : T` and `stable let x : T`, with or
/// without `stable`) declared in the signature's last `actor { ... }` block, in order.
/// Returns `None` if no actor block is found. Bounded by the signature length.
pub fn stable_var_names(signature: &str) -> Option<Vec<String>> {
    let bytes = signature.as_bytes();
    let body = find_actor_body(bytes)?;
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut at_decl_start = true;
    let mut i = body;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'{' | b'(' | b'[' | b'<' => depth += 1,
            b'}' | b')' | b']' | b'>' if depth == 0 && c == b'}' => break,
            b'}' | b')' | b']' | b'>' => depth = depth.saturating_sub(1),
            b';' if depth == 0 => at_decl_start = true,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            _ if depth == 0 && at_decl_start && is_ident_start(c) => {
                at_decl_start = false;
                let (name, next) = decl_name(bytes, i);
                if let Some(name) = name {
                    names.push(name);
                }
                i = next;
                continue;
            }
            _ => {}
        }
        // `->` is not a closing angle bracket.
        if c == b'-' && bytes.get(i + 1) == Some(&b'>') {
            i += 2;
            continue;
        }
        i += 1;
    }
    Some(names)
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn ident_at(bytes: &[u8], i: usize) -> (&[u8], usize) {
    let mut j = i;
    while j < bytes.len() && is_ident(bytes[j]) {
        j += 1;
    }
    (&bytes[i..j], j)
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Parses `[stable] [var|let] name :` at `i`; returns the name and the index after it.
fn decl_name(bytes: &[u8], i: usize) -> (Option<String>, usize) {
    let mut j = i;
    for _ in 0..3 {
        let (word, next) = ident_at(bytes, j);
        let after = skip_ws(bytes, next);
        match word {
            b"stable" | b"var" | b"let" | b"flexible" | b"transient" => j = after,
            _ => {
                if bytes.get(after) == Some(&b':') {
                    return (
                        std::str::from_utf8(word).ok().map(str::to_string),
                        after + 1,
                    );
                }
                return (None, next);
            }
        }
        if j >= bytes.len() || !is_ident_start(bytes[j]) {
            return (None, j.max(i + 1));
        }
    }
    (None, j.max(i + 1))
}

/// The index just after the `{` of the top-level `actor {` that declares the stable fields:
/// the `actor` keyword at nesting depth 0 that starts an item (first, or after `;`), not an
/// actor type on the right of a `type` alias or inside a field type.
fn find_actor_body(bytes: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut last_significant: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if is_ident_start(c) {
            let (word, next) = ident_at(bytes, i);
            if depth == 0 && word == b"actor" && matches!(last_significant, None | Some(b';')) {
                let j = skip_ws(bytes, next);
                if bytes.get(j) == Some(&b'{') {
                    return Some(j + 1);
                }
            }
            last_significant = Some(b'a');
            i = next;
            continue;
        }
        match c {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        last_significant = Some(c);
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_match_the_spec() {
        assert_eq!(label_hash("store"), 68_555_745);
        assert_eq!(label_hash("list"), 1_202_920_542);
        assert_eq!(label_hash("text"), 1_291_439_277);
    }

    #[test]
    fn names_from_a_signature() {
        let sig = "// Version: 1.0.0\ntype A = actor {m : shared () -> ()};\ntype T<K> = {#a : K; #b : {x : Nat; f : () -> ()}};\nactor {\n  stable var list : ?(Text, Nat);\n  stable var act : actor {f : shared query () -> async Text};\n  stable store : [var Nat];\n  stable let text : T<Text>\n};\n";
        assert_eq!(
            stable_var_names(sig),
            Some(vec![
                "list".into(),
                "act".into(),
                "store".into(),
                "text".into()
            ])
        );
        assert_eq!(stable_var_names("nothing"), None);
    }
}
