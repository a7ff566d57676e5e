//! Fuzz target `restore_upgrade`: see [`mo_mem_fuzz::run::restore_upgrade`].
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("restore_upgrade"),
    |data: &[u8]| mo_mem_fuzz::run::restore_upgrade(data)
);
