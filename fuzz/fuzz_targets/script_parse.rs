//! Fuzz target `script_parse`: see [`mo_mem_fuzz::run::script_parse`].
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("script_parse"),
    |data: &[u8]| mo_mem_fuzz::run::script_parse(data)
);
