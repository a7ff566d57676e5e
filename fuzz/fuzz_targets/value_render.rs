//! Fuzz target: typed value decoding of every stable variable of an image built from the input
//! over a fixture, both renderings (debug_show, JSON), and untyped decoding of heap objects.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mo_mem::heap::render::{debug_show, to_json};
use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables};

fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("value_render"),
    |data: &[u8]| {
        let Some((_, Ok(heap))) = mo_mem_fuzz::heap_from_input(data) else {
            return;
        };
        let Ok(sig) = heap_signature(&heap) else { return };
        let mut decoder = signature_decoder(&heap, &sig);
        decoder.set_max_nodes(50_000);
        if let Ok(vars) = stable_variables(&heap, &sig) {
            for v in &vars {
                if let Ok(value) = decoder.deep(&v.value) {
                    let _ = debug_show(&value);
                    let json = to_json(&value);
                    if let Err(e) = serde_json::from_str::<serde_json::Value>(&json) {
                        panic!("invalid JSON for {}: {e}: {json}", v.name);
                    }
                }
            }
        }
        for block in heap.walk().take(200).flatten() {
            if let Ok(value) = decoder.untyped_shallow(block.addr) {
                let _ = debug_show(&value);
                let _ = to_json(&value);
            }
        }
    }
);
