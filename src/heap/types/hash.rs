//! Motoko's label hash for record fields, object fields and variant tags, and the names
//! read back from hashes.

use std::collections::HashMap;
use std::sync::Arc;

/// Label names by hash: field and variant names of the signature, shared by decoders.
pub type LabelMap = Arc<HashMap<u32, Arc<str>>>;

/// Motoko's hash of a field or tag label: `h = h * 223 + byte` over the UTF-8 bytes (mod 2^32),
/// with the top bit cleared. The label is hashed as written (`_123_` is not unescaped).
pub fn label_hash(label: &str) -> u32 {
    let mut h: u32 = 0;
    for b in label.bytes() {
        h = h.wrapping_mul(223).wrapping_add(u32::from(b));
    }
    h & 0x7FFF_FFFF
}

#[cfg(test)]
mod tests {
    use super::label_hash;

    #[test]
    fn known_hashes() {
        assert_eq!(label_hash("store"), 68555745);
        assert_eq!(label_hash("list"), 1202920542);
        assert_eq!(label_hash("text"), 1291439277);
    }
}
