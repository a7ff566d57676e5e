//! Fuzz target: layout detection and the linear walk of an image built from the input over a
//! fixture (its module facts and globals), plus objects, references, roots and stable slots.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("heap_walk"),
    |data: &[u8]| {
        let Some((_, Ok(heap))) = mo_mem_fuzz::heap_from_input(data) else {
            return;
        };
        let mut blocks = 0u32;
        for item in heap.walk() {
            let Ok(block) = item else { continue };
            blocks += 1;
            if blocks <= 2000 {
                if let Ok(obj) = heap.object(block.addr) {
                    let _ = obj.forwarded_to();
                    let _ = obj.references().take(64).count();
                }
            }
        }
        let _ = heap.roots();
        if let Ok(vars) = heap.stable_vars() {
            for v in &vars {
                if let Ok(word) = heap.stable_var_value(v) {
                    let _ = heap.object_of(word);
                }
            }
        }
        let _ = mo_mem::analysis::stats::heap_stats(&heap);
    }
);
