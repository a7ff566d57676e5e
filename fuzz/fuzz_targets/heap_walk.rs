//! Fuzz target `heap_walk`: see [`mo_mem_fuzz::run::heap_walk`].
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("heap_walk"),
    |data: &[u8]| mo_mem_fuzz::run::heap_walk(data)
);
