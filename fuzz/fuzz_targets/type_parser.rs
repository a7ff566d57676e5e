//! Fuzz target: the Motoko type parser (stable signatures and single types), alias
//! normalization and display.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mo_mem::heap::types::{collect_labels, parse_signature, parse_type};

fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("type_parser"),
    |data: &[u8]| {
        let Ok(src) = std::str::from_utf8(data) else { return };
        if let Ok(sig) = parse_signature(src) {
            let _ = sig.labels();
            for v in &sig.vars {
                if let Ok(t) = sig.env.normalize(&v.ty) {
                    let _ = t.to_string();
                }
                let _ = v.ty.to_string();
            }
        }
        if let Ok(t) = parse_type(src) {
            let _ = t.to_string();
            let mut labels = Vec::new();
            collect_labels(&t, &mut labels);
        }
    }
);
