//! Fuzz target `script_eval`: see [`mo_mem_fuzz::run::script_eval`].
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("script_eval"),
    |data: &[u8]| mo_mem_fuzz::run::script_eval(data)
);
