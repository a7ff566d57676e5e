//! Fuzz target: `metadata.json` parsing (and the globals list form), with a re-serialization.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mo_mem::snapshot::metadata::SnapshotMetadata;
use mo_mem::snapshot::open::parse_globals_json;

fuzz_target!(
    init: mo_mem_fuzz::write_seeds_if_asked("metadata_json"),
    |data: &[u8]| {
        if let Ok(meta) = SnapshotMetadata::from_json(data) {
            let _ = meta.globals();
            let _ = meta.wasm_memory_size();
            if let Ok(text) = meta.to_json_pretty() {
                if let Err(e) = SnapshotMetadata::from_json(text.as_bytes()) {
                    panic!("re-serialized metadata does not parse: {e}\n{text}");
                }
            }
        }
        let _ = parse_globals_json(data, std::path::Path::new("globals.json"));
        let _ = mo_mem::snapshot::Snapshot::from_parts(Some(data), None, Vec::new(), None);
    }
);
