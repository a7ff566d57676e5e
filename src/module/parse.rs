//! Parsing a moc module with wasmparser into [`ModuleFacts`].

use std::io::Read;

use super::code::{const_loads, ConstGlobals};
use super::raw::{read_raw, RawModule};
use super::stable_slots::stable_slots;
use super::{
    FunctionNames, GcKind, ModuleError, ModuleFacts, Persistence, RtsStatics, MAX_MODULE_BYTES,
};

/// Decompresses a gzip'ed module (at most [`MAX_MODULE_BYTES`]); plain modules pass through.
pub fn decompress_module(bytes: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>, ModuleError> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .take(MAX_MODULE_BYTES + 1)
            .read_to_end(&mut out)
            .map_err(|e| ModuleError::Gzip(e.to_string()))?;
        if out.len() as u64 > MAX_MODULE_BYTES {
            return Err(ModuleError::TooLarge {
                limit: MAX_MODULE_BYTES,
            });
        }
        Ok(std::borrow::Cow::Owned(out))
    } else if bytes.len() as u64 > MAX_MODULE_BYTES {
        Err(ModuleError::TooLarge {
            limit: MAX_MODULE_BYTES,
        })
    } else {
        Ok(std::borrow::Cow::Borrowed(bytes))
    }
}

/// Reads the facts from a Wasm module (plain or gzip-compressed).
pub(crate) fn parse_module(wasm: &[u8]) -> Result<ModuleFacts, ModuleError> {
    let wasm = decompress_module(wasm)?;
    let raw = read_raw(&wasm)?;
    derive_facts(&raw)
}

fn derive_facts(raw: &RawModule<'_>) -> Result<ModuleFacts, ModuleError> {
    if raw.names.is_empty() {
        if raw.motoko_section || raw.stable_types.is_some() || raw.compiler.is_some() {
            return Err(ModuleError::NameSectionStripped);
        }
        return Err(ModuleError::NotMotoko {
            missing: "no function names (name section missing or stripped)".into(),
        });
    }
    let is_motoko = raw.motoko_section
        || raw.stable_types.is_some()
        || raw.func_named("@get_actor_to_persist").is_some();
    if !is_motoko {
        return Err(ModuleError::NotMotoko {
            missing: "no `motoko` custom section, no motoko:stable-types, no @get_actor_to_persist"
                .into(),
        });
    }
    let version = raw.compiler.clone().unwrap_or_else(|| "unknown".into());
    let persistence = if raw.memory64 || raw.eop_section {
        Persistence::Enhanced
    } else {
        Persistence::Classical
    };
    let globals = raw.const_globals();
    let calls = |name: &str| -> Vec<u32> {
        raw.body_named(name)
            .map(super::code::calls)
            .unwrap_or_default()
    };
    let named = |name: &str| raw.func_named(name);

    // The compiler release and its layout era (spec 8): refused by name unless this build
    // reads it.
    let moc = super::Compiler::detect(
        raw.compiler.as_deref(),
        super::EraProbes {
            get_actor_to_persist: named("@get_actor_to_persist")
                .or_else(|| named("get_actor_to_persist"))
                .is_some(),
            region_new: named("region_new").is_some(),
        },
    );
    let gc = match persistence {
        Persistence::Enhanced => Ok(GcKind::Incremental),
        Persistence::Classical => classical_gc(raw, &calls, &version),
    };
    let refuse = |reason: String| ModuleError::UnsupportedCompiler {
        compiler: super::compiler::mode_summary(&moc, Some(persistence), gc.as_ref().ok().copied()),
        reason,
    };
    if let Some(reason) = moc.refusal() {
        return Err(refuse(reason));
    }
    let legacy = moc.era != super::LayoutEra::SortedTags;
    let legacy_partitions = if legacy && gc.as_ref().ok() == Some(&GcKind::Incremental) {
        Some(super::legacy_partitions::confirm(raw).map_err(refuse)?)
    } else {
        None
    };
    layout_known(raw, legacy, persistence).map_err(refuse)?;
    let gc = gc?;
    let has_weak_refs = named("weak_ref_is_live").is_some();
    if persistence == Persistence::Enhanced {
        eop_rts_matches_release(&moc, has_weak_refs).map_err(|reason| {
            ModuleError::UnsupportedCompiler {
                compiler: super::compiler::mode_summary(&moc, Some(persistence), Some(gc)),
                reason,
            }
        })?;
    }
    let rtti = match persistence {
        Persistence::Enhanced => true,
        Persistence::Classical => raw
            .body_named("B_add")
            .is_some_and(super::code::has_i32_const_or_2),
    };
    // `--experimental-rtti` first exists in moc 0.11.0: a module of the 0.6.10-0.9.8 layout
    // that looks tagged is not one this build has proven how to read.
    if rtti && moc.era == super::LayoutEra::OddTagsObjInd {
        return Err(ModuleError::UnsupportedCompiler {
            compiler: super::compiler::mode_summary(&moc, Some(persistence), Some(gc)),
            reason: "scalar type tags (rtti) in a module of the moc 0.6.10-0.9.8 layout, which had no --experimental-rtti".into(),
        });
    }
    let global_of = |name: &str| raw.body_named(name).and_then(super::code::first_global_get);
    let heap_base = heap_base(raw, &globals, persistence, &moc, gc)?;
    let hp_global = global_of("__get_hp");
    let hp_mutable_index = hp_global.and_then(|g| mutable_index(raw, g));
    let stack_top = stack_top(raw);
    let statics = rts_statics(raw, &globals, persistence, gc, hp_global, legacy_partitions);
    let stable_slots = stable_slots_of(raw, legacy, persistence, gc)?;
    Ok(ModuleFacts {
        persistence,
        gc,
        rtti,
        heap_base,
        stack_top,
        hp_global,
        hp_mutable_index,
        statics,
        stable_types: raw.stable_types.clone(),
        compiler: raw.compiler.clone(),
        moc,
        stable_slots,
        has_weak_refs,
        has_dedup_table: named("set_dedup_table").is_some(),
        libc_float_format: named("snprintf").is_some(),
        functions: FunctionNames {
            table: raw.table.clone(),
            names: raw.names.clone(),
        },
    })
}

/// The shadow stack top (`__stack_pointer`'s initial value): the first mutable global
/// initialised to a non-zero multiple of 64 KiB (0x200000 classical, 0x400000 EOP).
fn stack_top(raw: &RawModule<'_>) -> Option<u64> {
    raw.globals
        .iter()
        .find(|(m, v)| *m && v.is_some_and(|v| v != 0 && v % 0x1_0000 == 0))
        .and_then(|(_, v)| *v)
}

/// Where the stable variables are, read from the function that reads them all: moc >= 0.13
/// reads every stable variable in `@get_actor_to_persist`; before (`legacy`), the upgrade
/// hook `pre_exp` reads them (after the user's `preupgrade`) into the record it serializes.
fn stable_slots_of(
    raw: &RawModule<'_>,
    legacy: bool,
    persistence: Persistence,
    gc: GcKind,
) -> Result<Vec<super::StableSlot>, ModuleError> {
    let (slot_reader, last_record) = if legacy {
        ("pre_exp", true)
    } else {
        ("@get_actor_to_persist", false)
    };
    Ok(match raw.body_named(slot_reader) {
        Some(body) => stable_slots(raw, body, persistence, gc, last_record)?,
        None => Vec::new(),
    })
}

/// Why the module's layout is not known to this build, if it is not: the function that
/// reads its stable variables (`pre_exp` before moc 0.13, `@get_actor_to_persist` from
/// 0.13) or, with enhanced orthogonal persistence, `get_static_variable` is missing.
fn layout_known(raw: &RawModule<'_>, legacy: bool, persistence: Persistence) -> Result<(), String> {
    let named = |name: &str| raw.func_named(name);
    if legacy && named("pre_exp").is_none() {
        return Err(
            "no pre_exp (every actor module of moc < 0.13 has one): where its stable variables are is not known to this build".into(),
        );
    }
    if !legacy
        && raw.func_named("@get_actor_to_persist").is_none()
        && raw.func_named("get_actor_to_persist").is_none()
    {
        return Err(
            "no @get_actor_to_persist (every module of moc >= 0.13 has one); its layout is not known to this build".into(),
        );
    }
    if persistence == Persistence::Enhanced && named("get_static_variable").is_none() {
        return Err(
            "an enhanced-orthogonal-persistence module without get_static_variable; its layout is not known to this build".into(),
        );
    }
    Ok(())
}

/// The heap's first address: fixed with enhanced orthogonal persistence; classical, the
/// value `get_heap_base` reads, aligned to 32 bytes when the RTS aligns it.
fn heap_base(
    raw: &RawModule<'_>,
    globals: &ConstGlobals,
    persistence: Persistence,
    moc: &super::Compiler,
    gc: GcKind,
) -> Result<u64, ModuleError> {
    let global_of = |name: &str| raw.body_named(name).and_then(super::code::first_global_get);
    let heap_base_raw = global_of("get_heap_base").and_then(|g| globals.any_value(raw, g));
    Ok(match persistence {
        Persistence::Enhanced => 0x50_0000,
        Persistence::Classical => {
            let hb = heap_base_raw.ok_or_else(|| ModuleError::NotMotoko {
                missing: "get_heap_base (`global.get __heap_base`) not found".into(),
            })?;
            let aligned = if moc.era == super::LayoutEra::OddTagsObjInd {
                rts_init_aligns(raw).map_err(|reason| ModuleError::UnsupportedCompiler {
                    compiler: super::compiler::mode_summary(moc, Some(persistence), Some(gc)),
                    reason: reason.into(),
                })?
            } else {
                true
            };
            if aligned {
                hb.checked_add(31)
                    .map(|v| v & !31)
                    .ok_or(ModuleError::NotMotoko {
                        missing: "heap base overflows".into(),
                    })?
            } else {
                hb
            }
        }
    })
}

/// The addresses of the RTS statics, read from their accessors' code.
fn rts_statics(
    raw: &RawModule<'_>,
    globals: &ConstGlobals,
    persistence: Persistence,
    gc: GcKind,
    hp_global: Option<u32>,
    legacy_partitions: Option<super::LegacyPartitionTable>,
) -> RtsStatics {
    let first_load = |name: &str| {
        raw.body_named(name)
            .and_then(|b| const_loads(b, globals).into_iter().next())
    };
    RtsStatics {
        static_variables: first_load("get_static_variable"),
        static_roots: raw
            .body_named("get_static_roots")
            .and_then(super::code::first_const),
        continuation_table: first_load("continuation_table_size"),
        n_continuations: first_load("continuation_count"),
        region0: first_load("region0_get"),
        gc_state: if gc == GcKind::Incremental
            && persistence == Persistence::Classical
            && legacy_partitions.is_none()
        {
            raw.body_named("get_heap_size")
                .and_then(|b| super::code::const_addresses(b, globals).into_iter().next())
        } else {
            None
        },
        heap_pointer: if hp_global.is_none() && persistence == Persistence::Classical {
            heap_pointer_static(raw, globals)
        } else {
            None
        },
        legacy_partitions,
    }
}

/// The EOP tag numbering is taken from the RTS (`weak_ref_is_live`, linked into every EOP
/// module from moc 0.16.0: WeakRef 45, slices from 46; before, slices from 44). A module whose
/// release says otherwise is not one whose numbering this build can tell, so it is refused.
fn eop_rts_matches_release(moc: &super::Compiler, has_weak_refs: bool) -> Result<(), String> {
    let Some(release) = moc.release else {
        return Ok(());
    };
    let weak_from = super::MocVersion::new(0, 16, 0);
    if (release >= weak_from) == has_weak_refs {
        return Ok(());
    }
    Err(format!(
        "its RTS {} weak references (weak_ref_is_live), which every EOP build {} moc 0.16.0 {}: which tag numbering its heap uses is not known",
        if has_weak_refs { "has" } else { "has no" },
        if release >= weak_from { "from" } else { "before" },
        if release >= weak_from { "has" } else { "lacks" },
    ))
}

/// Whether the dynamic heap starts at `__heap_base` rounded up to 32 bytes. moc 0.6.16-0.8.x
/// start it where `rts_start`'s call of the RTS's `init(align)` says (`memory/ic.rs`): the
/// compiler passes `false` for the copying GC, whose collections also copy back to the
/// unaligned `get_heap_base()` (`gc/copying.rs` to 0.8.8), `true` for the others. Without such a
/// call (0.9.0 on: `initialize_*_gc`) the heap is aligned; a call without a constant flag
/// (0.6.10-0.6.15: `init()` starts every heap unaligned) is not proven here.
fn rts_init_aligns(raw: &RawModule<'_>) -> Result<bool, &'static str> {
    let Some(start) = raw.body_named("rts_start") else {
        return Ok(true);
    };
    // Several functions may be named `init` (the RTS's, the canister's): the callee counts.
    let is_init = |f: u32| raw.names.get(&f).is_some_and(|n| n == "init");
    let mut prev = None;
    for op in super::code::ops(start) {
        if matches!(op, wasmparser::Operator::Call { function_index } if is_init(function_index)) {
            return match prev {
                Some(wasmparser::Operator::I32Const { value: 0 }) => Ok(false),
                Some(wasmparser::Operator::I32Const { value: 1 }) => Ok(true),
                _ => Err("the RTS's init without an alignment flag (moc 0.6.10-0.6.15): where its heap starts is not proven by this build"),
            };
        }
        prev = Some(op);
    }
    Ok(true)
}

/// The address of the RTS's `HP` static of moc < 0.9.5, whose heap end is no Wasm global:
/// its `get_heap_size` is `HP - get_(aligned_)heap_base()` (`rts/motoko-rts/src/memory/ic.rs`
/// at 0.6.10-0.8.x, `memory/ic/linear_memory.rs` at 0.9.0-0.9.4), so it loads exactly one
/// static, calls only `get_heap_base` and subtracts. Any other shape proves nothing (None).
fn heap_pointer_static(raw: &RawModule<'_>, globals: &ConstGlobals) -> Option<u64> {
    let body = raw.body_named("get_heap_size")?;
    let heap_base = raw.func_named("get_heap_base")?;
    let loads = const_loads(body, globals);
    let has_sub = super::code::ops(body).any(|op| matches!(op, wasmparser::Operator::I32Sub));
    (loads.len() == 1 && super::code::calls(body) == [heap_base] && has_sub).then(|| loads[0])
}

/// The position of global `g` among the module's mutable globals (snapshot `globals` order).
fn mutable_index(raw: &RawModule<'_>, g: u32) -> Option<u32> {
    let i = g.checked_sub(raw.imported_globals)? as usize;
    if !raw.globals.get(i)?.0 {
        return None;
    }
    Some(raw.globals[..i].iter().filter(|(m, _)| *m).count() as u32)
}

fn classical_gc(
    raw: &RawModule<'_>,
    calls: &dyn Fn(&str) -> Vec<u32>,
    version: &str,
) -> Result<GcKind, ModuleError> {
    let called_from_start = calls("rts_start");
    if let Some(inc) = raw.func_named("initialize_incremental_gc") {
        if called_from_start.contains(&inc) {
            return Ok(GcKind::Incremental);
        }
    }
    // Which scheduling entry point the compiled code calls.
    let candidates = [
        ("schedule_copying_gc", GcKind::Copying),
        ("schedule_compacting_gc", GcKind::Compacting),
        ("schedule_generational_gc", GcKind::Generational),
        ("copying_gc", GcKind::Copying),
        ("compacting_gc", GcKind::Compacting),
        ("generational_gc", GcKind::Generational),
        ("schedule_incremental_gc", GcKind::Incremental),
        ("incremental_gc", GcKind::Incremental),
    ];
    let called = super::code::called_from_compiled(raw);
    for (name, kind) in candidates {
        if raw.func_named(name).is_some_and(|f| called.contains(&f)) {
            return Ok(kind);
        }
    }
    Err(ModuleError::NotMotoko {
        missing: format!(
            "compiler {version}: cannot tell the classical GC (no schedule_*_gc call)"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_not_a_moc_module() {
        assert_eq!(parse_module(b"hello").unwrap_err(), ModuleError::NotWasm);
        let empty = b"\0asm\x01\0\0\0";
        assert!(matches!(
            parse_module(empty),
            Err(ModuleError::NotMotoko { .. })
        ));
        // A truncated section is malformed, not a panic.
        let bad = b"\0asm\x01\0\0\0\x01\x05\x01";
        assert!(matches!(
            parse_module(bad),
            Err(ModuleError::Malformed { .. })
        ));
        // Gzip garbage.
        assert!(matches!(
            parse_module(&[0x1f, 0x8b, 8, 0, 1, 2, 3]),
            Err(ModuleError::Gzip(_))
        ));
    }

    #[test]
    fn the_eop_rts_must_agree_with_the_release_on_weak_references() {
        use super::super::{Compiler, EraProbes};
        let moc = |text| Compiler::detect(Some(text), EraProbes::default());
        assert_eq!(eop_rts_matches_release(&moc("0.15.1"), false), Ok(()));
        assert_eq!(eop_rts_matches_release(&moc("0.16.0"), true), Ok(()));
        assert_eq!(eop_rts_matches_release(&moc("zzzz-build"), true), Ok(()));
        assert!(eop_rts_matches_release(&moc("0.16.3-caffeine-3"), false)
            .unwrap_err()
            .contains("has no weak references"));
        assert!(eop_rts_matches_release(&moc("0.14.11"), true)
            .unwrap_err()
            .contains("which tag numbering"));
    }
}
