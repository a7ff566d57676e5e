//! Fuzz target `value_render`: see [`mo_mem_fuzz::run::value_render`].
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("value_render"),
    |data: &[u8]| mo_mem_fuzz::run::value_render(data)
);
