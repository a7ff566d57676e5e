//! Prepares a canister module for the runner: decompresses it, reads what the host needs
//! (memory kind, mutable globals) and, like the IC's instrumentation, exports the memory and every
//! mutable global under reserved names so their values can be read and restored.

use std::io::Read;

use wasmparser::{BinaryReader, ExportSectionReader, GlobalSectionReader, ImportSectionReader};

use super::error::RuntimeError;
use super::nan_canon;
use super::wasm_sections::{
    extend_vector_section, parse_err, read_leb_u32, sections, write_leb_u32, Section,
};

/// Largest (decompressed) module accepted; the IC's limit is 100 MiB.
pub const MAX_MODULE_BYTES: u64 = 100 * 1024 * 1024;

/// The name under which the rewritten module exports its memory.
pub const MEMORY_EXPORT: &str = "__mo_mem_memory";

/// The name under which the rewritten module exports its start function (the start section is
/// removed so that the runner can set up memory before running it, as the IC does on upgrades).
pub const START_EXPORT: &str = "__mo_mem_start";

/// The name prefix under which the rewritten module exports mutable global `N`.
pub const GLOBAL_EXPORT_PREFIX: &str = "__mo_mem_global_";

/// The module and field names under which a module rewritten by [`import_memory`] imports its
/// main memory.
pub const MEMORY_IMPORT: (&str, &str) = ("__mo_mem", "memory");

const SECTION_IMPORT: u8 = 2;
const SECTION_MEMORY: u8 = 5;
const SECTION_GLOBAL: u8 = 6;
const SECTION_EXPORT: u8 = 7;
const SECTION_START: u8 = 8;

/// What the runner learned from a module, and the module rewritten for execution.
#[derive(Debug, Clone)]
pub struct PreparedModule {
    /// The module as given (gunzipped): what a snapshot stores as `wasm_module.bin`.
    pub original: Vec<u8>,
    /// The module with the extra exports, for wasmi.
    pub rewritten: Vec<u8>,
    /// Whether memory 0 is a 64-bit memory (EOP).
    pub memory64: bool,
    /// Indices of the mutable globals, in index order.
    pub mutable_globals: Vec<u32>,
    /// Whether the module has a start function (exported as [`START_EXPORT`]).
    pub has_start: bool,
}

/// Gunzips `wasm` if it is gzip-compressed (at most [`MAX_MODULE_BYTES`]), else copies it.
pub fn decompress(wasm: &[u8]) -> Result<Vec<u8>, RuntimeError> {
    if !wasm.starts_with(&[0x1f, 0x8b]) {
        if wasm.len() as u64 > MAX_MODULE_BYTES {
            return Err(RuntimeError::InvalidModule(format!(
                "module is {} bytes, the limit is {MAX_MODULE_BYTES}",
                wasm.len()
            )));
        }
        return Ok(wasm.to_vec());
    }
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(wasm)
        .take(MAX_MODULE_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| RuntimeError::InvalidModule(format!("bad gzip: {e}")))?;
    if out.len() as u64 > MAX_MODULE_BYTES {
        return Err(RuntimeError::InvalidModule(format!(
            "gunzipped module exceeds {MAX_MODULE_BYTES} bytes"
        )));
    }
    Ok(out)
}

/// Decompresses `wasm`, reads its memory kind and mutable globals, and adds the reserved exports.
pub fn prepare(wasm: &[u8]) -> Result<PreparedModule, RuntimeError> {
    let original = decompress(wasm)?;
    let secs = sections(&original)?;
    let mut memory64 = None;
    let mut imported_globals = 0u32;
    let mut imported_memories = 0u32;
    let mut mutable_globals = Vec::new();
    let mut export_names = Vec::new();
    let mut start = None;
    for s in &secs {
        let data = &original[s.contents.clone()];
        let reader = BinaryReader::new(data, s.contents.start);
        match s.id {
            SECTION_IMPORT => {
                for imp in ImportSectionReader::new(reader).map_err(parse_err)? {
                    match imp.map_err(parse_err)?.ty {
                        wasmparser::TypeRef::Global(_) => imported_globals += 1,
                        wasmparser::TypeRef::Memory(_) => imported_memories += 1,
                        _ => {}
                    }
                }
            }
            SECTION_MEMORY => {
                for mem in wasmparser::MemorySectionReader::new(reader).map_err(parse_err)? {
                    let mem = mem.map_err(parse_err)?;
                    memory64.get_or_insert(mem.memory64);
                }
            }
            SECTION_GLOBAL => {
                for (i, g) in GlobalSectionReader::new(reader)
                    .map_err(parse_err)?
                    .into_iter()
                    .enumerate()
                {
                    if g.map_err(parse_err)?.ty.mutable {
                        let index = u32::try_from(i)
                            .ok()
                            .and_then(|i| i.checked_add(imported_globals))
                            .ok_or_else(|| {
                                RuntimeError::InvalidModule("too many globals".into())
                            })?;
                        mutable_globals.push(index);
                    }
                }
            }
            SECTION_EXPORT => {
                for e in ExportSectionReader::new(reader).map_err(parse_err)? {
                    export_names.push(e.map_err(parse_err)?.name.to_string());
                }
            }
            SECTION_START => {
                let mut pos = 0;
                start = Some(read_leb_u32(data, &mut pos)?);
            }
            _ => {}
        }
    }
    if imported_memories > 0 {
        return Err(RuntimeError::UnsupportedImport(
            "the module imports a memory".into(),
        ));
    }
    let memory64 = memory64
        .ok_or_else(|| RuntimeError::InvalidModule("the module defines no memory".into()))?;
    if export_names
        .iter()
        .any(|n| n == MEMORY_EXPORT || n == START_EXPORT || n.starts_with(GLOBAL_EXPORT_PREFIX))
    {
        return Err(RuntimeError::InvalidModule(format!(
            "the module already exports a name reserved by the runner ({MEMORY_EXPORT}, {START_EXPORT} or {GLOBAL_EXPORT_PREFIX}*)"
        )));
    }
    let exported = add_exports(&original, &secs, &mutable_globals, start)?;
    let rewritten = nan_canon::canonicalize_nans(&exported)?;
    Ok(PreparedModule {
        original,
        rewritten,
        memory64,
        mutable_globals,
        has_start: start.is_some(),
    })
}

/// Encodes one export entry.
fn push_export(out: &mut Vec<u8>, name: &str, kind: u8, index: u32) {
    write_leb_u32(out, name.len() as u32);
    out.extend_from_slice(name.as_bytes());
    out.push(kind);
    write_leb_u32(out, index);
}

/// Returns `wasm` with the memory, the given globals and the start function exported under the
/// reserved names, and without its start section.
fn add_exports(
    wasm: &[u8],
    secs: &[Section],
    globals: &[u32],
    start: Option<u32>,
) -> Result<Vec<u8>, RuntimeError> {
    let mut extra = Vec::new();
    push_export(&mut extra, MEMORY_EXPORT, 0x02, 0);
    for g in globals {
        push_export(&mut extra, &format!("{GLOBAL_EXPORT_PREFIX}{g}"), 0x03, *g);
    }
    if let Some(f) = start {
        push_export(&mut extra, START_EXPORT, 0x00, f);
    }
    let added = u32::try_from(globals.len() + 1 + usize::from(start.is_some()))
        .map_err(|_| RuntimeError::InvalidModule("too many globals".into()))?;
    extend_vector_section(
        wasm,
        secs,
        SECTION_EXPORT,
        (added, &extra),
        SECTION_START,
        "export",
    )
}

/// The limits of a module's memory 0, as declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryLimits {
    /// The initial size in 64 KiB pages.
    pub initial: u64,
    /// The maximum size in pages, if declared.
    pub maximum: Option<u64>,
    /// Whether it is a 64-bit memory.
    pub memory64: bool,
}

/// `prepared`'s rewritten module with its one defined memory turned into an import
/// ([`MEMORY_IMPORT`], same limits), so the runner can give it a memory of its own making
/// (a copy-on-write mapping of a snapshot's main memory); and the memory's limits.
pub fn import_memory(prepared: &PreparedModule) -> Result<(Vec<u8>, MemoryLimits), RuntimeError> {
    let wasm = &prepared.rewritten;
    let secs = sections(wasm)?;
    let memory = secs
        .iter()
        .find(|s| s.id == SECTION_MEMORY)
        .ok_or_else(|| RuntimeError::InvalidModule("the module defines no memory".into()))?;
    let body = &wasm[memory.contents.clone()];
    let mut pos = 0;
    if read_leb_u32(body, &mut pos)? != 1 {
        return Err(RuntimeError::InvalidModule(
            "the module defines more than one memory".into(),
        ));
    }
    let limits_bytes = &body[pos..];
    let reader = BinaryReader::new(body, memory.contents.start);
    let ty = wasmparser::MemorySectionReader::new(reader)
        .map_err(parse_err)?
        .into_iter()
        .next()
        .ok_or_else(|| RuntimeError::InvalidModule("empty memory section".into()))?
        .map_err(parse_err)?;
    if ty.shared || ty.page_size_log2.is_some_and(|p| p != 16) {
        return Err(RuntimeError::InvalidModule(
            "the memory is shared or has a custom page size".into(),
        ));
    }
    let limits = MemoryLimits {
        initial: ty.initial,
        maximum: ty.maximum,
        memory64: ty.memory64,
    };
    let mut entry = Vec::new();
    for name in [MEMORY_IMPORT.0, MEMORY_IMPORT.1] {
        write_leb_u32(&mut entry, name.len() as u32);
        entry.extend_from_slice(name.as_bytes());
    }
    entry.push(0x02);
    entry.extend_from_slice(limits_bytes);
    let out = extend_vector_section(
        wasm,
        &secs,
        SECTION_IMPORT,
        (1, &entry),
        SECTION_MEMORY,
        "import",
    )?;
    Ok((out, limits))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (module (memory 1) (global (mut i32) (i32.const 5)) (global i64 (i64.const 1))
    ///  (global (mut i64) (i64.const 7)) (func (export "f")))
    pub(crate) const TINY: &[u8] = &[
        0, 97, 115, 109, 1, 0, 0, 0, // header
        1, 4, 1, 96, 0, 0, // type: () -> ()
        3, 2, 1, 0, // func 0: type 0
        5, 3, 1, 0, 1, // memory min 1
        6, 16, 3, 127, 1, 65, 5, 11, 126, 0, 66, 1, 11, 126, 1, 66, 7, 11, // globals
        7, 5, 1, 1, 102, 0, 0, // export "f" func 0
        10, 4, 1, 2, 0, 11, // code
    ];

    #[test]
    fn finds_mutable_globals_and_adds_exports() {
        let p = prepare(TINY).unwrap();
        assert!(!p.memory64);
        assert_eq!(p.mutable_globals, vec![0, 2]);
        let engine = wasmi::Engine::default();
        let m = wasmi::Module::new(&engine, &p.rewritten[..]).unwrap();
        let mut names: Vec<_> = m.exports().map(|e| e.name().to_string()).collect();
        names.sort();
        assert_eq!(
            names,
            vec!["__mo_mem_global_0", "__mo_mem_global_2", MEMORY_EXPORT, "f"]
        );
    }

    #[test]
    fn the_defined_memory_becomes_an_import_with_the_same_limits() {
        let p = prepare(TINY).unwrap();
        let (wasm, limits) = import_memory(&p).unwrap();
        assert_eq!(
            limits,
            MemoryLimits {
                initial: 1,
                maximum: None,
                memory64: false
            }
        );
        let engine = wasmi::Engine::default();
        let m = wasmi::Module::new(&engine, &wasm[..]).unwrap();
        let imports: Vec<_> = m
            .imports()
            .map(|i| (i.module().to_string(), i.name().to_string()))
            .collect();
        assert_eq!(imports, vec![("__mo_mem".into(), "memory".into())]);
        let ty = m.imports().next().unwrap().ty().memory().cloned().unwrap();
        assert_eq!((ty.minimum(), ty.maximum()), (1, None));
        // the exports (the memory's among them) are unchanged
        assert_eq!(m.exports().count(), 4);
    }

    #[test]
    fn adds_an_export_section_when_missing() {
        // Drop the export section of TINY.
        let mut no_exports = TINY[..41].to_vec();
        no_exports.extend_from_slice(&TINY[48..]);
        let p = prepare(&no_exports).unwrap();
        let engine = wasmi::Engine::default();
        let m = wasmi::Module::new(&engine, &p.rewritten[..]).unwrap();
        assert_eq!(m.exports().count(), 3);
    }

    #[test]
    fn gzip_input_is_accepted_and_garbage_refused() {
        let gz = crate::snapshot::fixture::gzip_deterministic(TINY).unwrap();
        assert_eq!(prepare(&gz).unwrap().original, TINY);
        assert!(matches!(
            prepare(b"\0asm\x01\0\0\0\x05\xff"),
            Err(RuntimeError::InvalidModule(_))
        ));
        assert!(prepare(b"hello world").is_err());
        assert!(prepare(&[0x1f, 0x8b, 1, 2, 3]).is_err());
    }
}
