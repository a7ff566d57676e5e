//! Fuzz target `restore_call`: see [`mo_mem_fuzz::run::restore_call`].
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("restore_call"),
    |data: &[u8]| mo_mem_fuzz::run::restore_call(data)
);
