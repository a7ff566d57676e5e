//! Fuzz target `module_facts`: see [`mo_mem_fuzz::run::module_facts`].
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("module_facts"),
    |data: &[u8]| mo_mem_fuzz::run::module_facts(data)
);
