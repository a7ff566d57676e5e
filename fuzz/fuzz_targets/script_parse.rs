//! Fuzz target: the script parser and compiler (`Session::check`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mo_mem::script::Session;

fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("script_parse"),
    |data: &[u8]| {
        let Ok(src) = std::str::from_utf8(data) else { return };
        let session = Session::new(mo_mem_fuzz::small_script_limits());
        if let Err(e) = session.check(src) {
            let _ = e.to_string();
        }
    }
);
