//! Fuzz target `manifest`: see [`mo_mem_fuzz::run::manifest`].
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("manifest"),
    |data: &[u8]| mo_mem_fuzz::run::manifest(data)
);
