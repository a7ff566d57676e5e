//! Fuzz target: the module facts parser (`ModuleFacts::parse`) over arbitrary Wasm bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mo_mem::module::ModuleFacts;

fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("module_facts"),
    |data: &[u8]| {
        if let Ok(facts) = ModuleFacts::parse(data) {
            let _ = facts.header_size();
            let _ = facts.function_name(0);
        }
    }
);
