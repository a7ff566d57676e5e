//! Fuzz target `type_parser`: see [`mo_mem_fuzz::run::type_parser`].
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("type_parser"),
    |data: &[u8]| mo_mem_fuzz::run::type_parser(data)
);
