//! A moc module whose `name` custom section was stripped (as `ic-wasm shrink` or
//! `wasm-opt --strip-debug` do) is refused with a message naming the missing section, through
//! the library and through `mo-mem info`/`vars` (exit status non-zero, one line on stderr).

use crate::common;

use std::path::Path;
use std::process::Command;

use mo_mem::module::{decompress_module, ModuleError, ModuleFacts};

/// Reads an unsigned LEB128 at `*pos`, advancing it.
fn leb(bytes: &[u8], pos: &mut usize) -> usize {
    let (mut v, mut shift) = (0usize, 0);
    loop {
        let b = bytes[*pos];
        *pos += 1;
        v |= usize::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return v;
        }
        shift += 7;
    }
}

/// `wasm` without its custom sections named `name` (the section list edited by hand).
/// Returns the new module and how many sections were removed.
fn strip_custom(wasm: &[u8], name: &str) -> (Vec<u8>, usize) {
    let mut out = wasm[..8].to_vec();
    let mut pos = 8;
    let mut removed = 0;
    while pos < wasm.len() {
        let start = pos;
        let id = wasm[pos];
        pos += 1;
        let size = leb(wasm, &mut pos);
        let payload = pos;
        let end = payload + size;
        let is_name = id == 0 && {
            let mut p = payload;
            let len = leb(wasm, &mut p);
            &wasm[p..p + len] == name.as_bytes()
        };
        if is_name {
            removed += 1;
        } else {
            out.extend_from_slice(&wasm[start..end]);
        }
        pos = end;
    }
    (out, removed)
}

fn module_of(dir: &Path) -> Vec<u8> {
    let raw = std::fs::read(dir.join("wasm_module.bin")).expect("wasm_module.bin");
    decompress_module(&raw).expect("decompresses").into_owned()
}

#[test]
fn stripped_name_section_is_refused_with_a_clear_error() {
    for mode in ["eop", "copying", "incremental"] {
        let dir = common::fixture("compound", mode);
        let wasm = module_of(&dir);
        // The unstripped module parses; the edit itself keeps a valid module.
        ModuleFacts::parse(&wasm).unwrap_or_else(|e| panic!("{mode}: {e}"));
        let (stripped, removed) = strip_custom(&wasm, "name");
        assert_eq!(removed, 1, "{mode}: one `name` section");
        assert!(stripped.len() < wasm.len());
        let (same, none) = strip_custom(&stripped, "name");
        assert_eq!((none, same.len()), (0, stripped.len()));
        let err = ModuleFacts::parse(&stripped).expect_err("a stripped module is refused");
        assert_eq!(err, ModuleError::NameSectionStripped, "{mode}");
        let msg = err.to_string();
        assert!(msg.contains("`name` custom section"), "{msg}");
        assert!(msg.contains("@get_actor_to_persist"), "{msg}");
    }
}

#[test]
fn plain_wasm_without_names_is_still_not_motoko() {
    // No Motoko custom sections and no names: "not a Motoko module", not "stripped".
    let empty = b"\0asm\x01\0\0\0";
    assert!(matches!(
        ModuleFacts::parse(empty),
        Err(ModuleError::NotMotoko { .. })
    ));
}

#[test]
fn cli_refuses_a_snapshot_with_a_stripped_module() {
    let dir = common::fixture("compound", "eop");
    let (stripped, _) = strip_custom(&module_of(&dir), "name");
    let tmp = tempfile::tempdir().expect("tempdir");
    let snap = tmp.path().join("snap");
    std::fs::create_dir(&snap).unwrap();
    for f in ["metadata.json", "wasm_memory.bin", "stable_memory.bin"] {
        if dir.join(f).exists() {
            std::fs::copy(dir.join(f), snap.join(f)).unwrap();
        }
    }
    std::fs::write(snap.join("wasm_module.bin"), &stripped).unwrap();
    // metadata.json records the module size; keep it consistent so only the names are missing.
    let meta = std::fs::read_to_string(snap.join("metadata.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&meta).unwrap();
    if let Some(obj) = json.as_object_mut() {
        for (k, v) in obj.iter_mut() {
            if k == "wasm_module_size" {
                *v = serde_json::json!(stripped.len());
            }
        }
    }
    std::fs::write(snap.join("metadata.json"), json.to_string()).unwrap();
    for cmd in ["info", "vars"] {
        let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .args([cmd, &snap.to_string_lossy()])
            .output()
            .expect("run mo-mem");
        assert!(!out.status.success(), "{cmd} accepted a stripped module");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("`name` custom section"),
            "{cmd}: stderr does not name the missing section: {err}"
        );
        assert!(!err.contains("panicked"), "{cmd}: {err}");
    }
}
