//! Label hashing and the lightweight extraction of stable variable names from the
//! `motoko:stable-types` signature.

/// Motoko's label hash (spec 5.1): `h = h*223 + byte` mod 2^32, top bit cleared.
pub fn label_hash(label: &str) -> u32 {
    let h = label
        .bytes()
        .fold(0u32, |h, c| h.wrapping_mul(223).wrapping_add(u32::from(c)));
    h & 0x7FFF_FFFF
}

/// The names of the stable variables (`stable var x : T` and stable `let`s `stable x : T`)
/// declared in the signature's actor (for a migration signature `actor (pre, post)`: the
/// post record), in order. Returns `None` if the signature does not parse.
pub fn stable_var_names(signature: &str) -> Option<Vec<String>> {
    let sig = super::types::parse_signature(signature).ok()?;
    Some(sig.vars.iter().map(|v| v.name.to_string()).collect())
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
