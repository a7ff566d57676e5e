//! Fuzz target `metadata_json`: see [`mo_mem_fuzz::run::metadata_json`].
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("metadata_json"),
    |data: &[u8]| mo_mem_fuzz::run::metadata_json(data)
);
