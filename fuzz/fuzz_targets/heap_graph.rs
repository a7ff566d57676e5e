//! Fuzz target `heap_graph`: see [`mo_mem_fuzz::run::heap_graph`].
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("heap_graph"),
    |data: &[u8]| mo_mem_fuzz::run::heap_graph(data)
);
