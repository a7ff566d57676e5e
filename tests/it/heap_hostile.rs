//! Hostile input: truncations and seeded byte mutations of a fixture's `wasm_memory.bin`,
//! `metadata.json` and `wasm_module.bin` fed to the library paths behind `info` and `stats`
//! (open, layout, walk, stats, roots, stable variables, object decoding) never panic or hang:
//! each run either succeeds or returns an error. `MOMEM_FUZZ_SCALE` (default 1) multiplies the
//! number of seeded cases.

use crate::heap_support;

use heap_support::files::{fuzz_scale as scale, give_back, SnapshotFiles};

use std::panic::{catch_unwind, AssertUnwindSafe};

use mo_mem::analysis::stats::{heap_stats, heap_stats_threads};
use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::module::ModuleFacts;
use mo_mem::snapshot::metadata::SnapshotMetadata;

/// Tight limits: every run is bounded in work.
fn limits() -> ReaderLimits {
    ReaderLimits {
        max_objects: 2_000_000,
        max_work: 20_000_000,
        ..ReaderLimits::default()
    }
}

/// What `info` and `stats` do with a heap; returns a small digest (to keep the work observable).
fn exercise(heap: &Heap, rng: &mut fastrand::Rng) -> u64 {
    let stats = heap_stats(heap);
    // The parallel walk (one range per thread) counts exactly what the one-thread walk does.
    assert_eq!(heap_stats_threads(heap, 2), stats);
    let mut digest = stats.objects.objects ^ stats.errors.len() as u64;
    let _ = heap.lifecycle();
    if let Ok(roots) = heap.roots() {
        for r in roots {
            if let Ok(o) = heap.object_of(r.word) {
                digest ^= o.size;
                digest ^= o.references().take(64).fold(0, |a, w| a ^ w);
            }
        }
    }
    if let Ok(vars) = heap.stable_vars() {
        for v in vars {
            if let Ok(w) = heap.stable_var_value(&v) {
                if let Ok(o) = heap.object_of(w) {
                    digest ^= o.size;
                    for r in o.references().take(64) {
                        if let Ok(o2) = heap.object_of(r) {
                            digest ^= o2.size;
                        }
                    }
                }
                let _ = heap.is_null(w);
            }
        }
    }
    let len = heap.image().len();
    for _ in 0..4 {
        if len > 0 {
            let addr = rng.u64(0..len) & !3;
            if let Ok(o) = heap.object(addr) {
                digest ^= o.size;
            }
        }
    }
    digest
}

/// One run through the library; panics are caught and reported with `case`.
fn run(
    case: &str,
    files: &SnapshotFiles,
    memory: Vec<u8>,
    metadata: &[u8],
    module: Option<&ModuleFacts>,
    module_bytes: &[u8],
    rng: &mut fastrand::Rng,
) -> Vec<u8> {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let snap = match files.snapshot(metadata, module_bytes, memory) {
            Ok(s) => s,
            Err(_) => return Vec::new(),
        };
        let opened = match module {
            Some(m) => Heap::open_with_module(snap, Some(m.clone()), limits()),
            None => Heap::open(snap, limits()),
        };
        match opened {
            Ok(heap) => {
                std::hint::black_box(exercise(&heap, rng));
                give_back(heap)
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                Vec::new()
            }
        }
    }));
    match result {
        Ok(v) => v,
        Err(_) => panic!("{}: panicked on {case}", files.label),
    }
}

/// The smallest snapshot (by main memory) of each of the five base modes (force-GC variants
/// share their mode's layout): the mutation loops here are sized for small images (the full campaign over every fixture is tests/mutation_campaign.rs).
fn one_snapshot_per_mode() -> Vec<(String, std::path::PathBuf)> {
    let mut all = heap_support::snapshots();
    let size = |dir: &std::path::Path| {
        std::fs::metadata(dir.join("wasm_memory.bin")).map_or(u64::MAX, |m| m.len())
    };
    all.sort_by_key(|(label, dir)| (size(dir), label.clone()));
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<_> = all
        .into_iter()
        .filter(|(label, _)| !label.ends_with("-forcegc"))
        .filter(|(_, dir)| seen.insert(dir.file_name().map(|f| f.to_os_string())))
        .collect();
    out.sort();
    out
}

#[test]
fn truncated_and_mutated_memory_never_panics() {
    for (label, dir) in one_snapshot_per_mode() {
        let files = SnapshotFiles::read(&dir, &label);
        let facts = ModuleFacts::parse(&files.module).ok();
        let mut rng = fastrand::Rng::with_seed(0x6d6f_6d65);
        let len = files.memory.len() as u64;
        // Every 64 KiB boundary from the heap base (or 4 MiB) to the end, plus seeded offsets.
        let base = facts.as_ref().map_or(0, |f| f.heap_base).min(len);
        let mut cuts: Vec<u64> = (base / 65536..=len / 65536).map(|k| k * 65536).collect();
        cuts.extend((0..300 * scale()).map(|_| rng.u64(0..=len)));
        cuts.extend([0, 1, len.saturating_sub(1), 0x48_0000, 0x48_0080, 0x48_1cb8]);
        cuts.retain(|&c| c <= len);
        let n_cuts = cuts.len();
        for cut in cuts {
            let memory = files.memory[..cut as usize].to_vec();
            let meta = files.metadata_with_memory_size(cut);
            run(
                &format!("memory truncated at {cut:#x}"),
                &files,
                memory,
                &meta,
                facts.as_ref(),
                &files.module,
                &mut rng,
            );
        }
        // Mutations: mostly in the heap, some in the EOP metadata / RTS statics, some anywhere.
        let n_mut = 2000 * scale();
        let mut memory = files.memory.clone();
        let heap_end = len;
        for i in 0..n_mut {
            let at = match i % 4 {
                0 | 1 if heap_end > base => rng.u64(base..heap_end),
                2 if len > 0x48_2000 => rng.u64(0x48_0000..0x48_2000),
                _ => rng.u64(0..len.max(1)),
            } as usize;
            if at >= memory.len() {
                continue;
            }
            let old = memory[at];
            memory[at] = match rng.u8(0..4) {
                0 => 0,
                1 => 0xff,
                2 => old ^ (1 << rng.u8(0..8)),
                _ => rng.u8(..),
            };
            let back = run(
                &format!("memory byte {at:#x} {old:#x}->{:#x}", memory[at]),
                &files,
                std::mem::take(&mut memory),
                &files.metadata,
                facts.as_ref(),
                &files.module,
                &mut rng,
            );
            memory = files.reuse(back);
            memory[at] = old;
        }
        println!("{label}: {n_cuts} memory truncations, {n_mut} memory mutations: no panic");
    }
}

#[test]
fn truncated_and_mutated_metadata_never_panics() {
    for (label, dir) in one_snapshot_per_mode() {
        let files = SnapshotFiles::read(&dir, &label);
        let facts = ModuleFacts::parse(&files.module).ok();
        let mut rng = fastrand::Rng::with_seed(0x6a73_6f6e);
        let mut memory = files.memory.clone();
        let n_cuts = files.metadata.len() + 1;
        for cut in 0..n_cuts {
            let meta = &files.metadata[..cut];
            let back = run(
                &format!("metadata truncated at {cut}"),
                &files,
                std::mem::take(&mut memory),
                meta,
                facts.as_ref(),
                &files.module,
                &mut rng,
            );
            memory = files.reuse(back);
        }
        let n_mut = 2000 * scale();
        let mut meta = files.metadata.clone();
        for _ in 0..n_mut {
            let at = rng.usize(0..meta.len().max(1));
            if at >= meta.len() {
                break;
            }
            let old = meta[at];
            meta[at] = match rng.u8(0..3) {
                0 => b"0123456789-{}[]\":,.e "[rng.usize(0..21)],
                1 => old ^ (1 << rng.u8(0..8)),
                _ => rng.u8(..),
            };
            let back = run(
                &format!("metadata byte {at}"),
                &files,
                std::mem::take(&mut memory),
                &meta,
                facts.as_ref(),
                &files.module,
                &mut rng,
            );
            memory = files.reuse(back);
            meta[at] = old;
        }
        println!("{label}: {n_cuts} metadata truncations, {n_mut} metadata mutations: no panic");
    }
}

#[test]
fn truncated_and_mutated_module_never_panics() {
    for (label, dir) in one_snapshot_per_mode() {
        let files = SnapshotFiles::read(&dir, &label);
        let mut rng = fastrand::Rng::with_seed(0x7761_736d);
        let len = files.module.len();
        let mut memory = files.memory.clone();
        let mut cuts: Vec<usize> = (0..200 * scale()).map(|_| rng.usize(0..=len)).collect();
        cuts.extend([0, 1, 4, 8, len.saturating_sub(1)]);
        let n_cuts = cuts.len();
        for cut in cuts {
            let module = &files.module[..cut.min(len)];
            let mut meta = SnapshotMetadata::from_json(&files.metadata).expect("fixture metadata");
            meta.0.wasm_module_size = module.len() as u64;
            let meta = meta.to_json_pretty().expect("json").into_bytes();
            let back = run(
                &format!("module truncated at {cut}"),
                &files,
                std::mem::take(&mut memory),
                &meta,
                None,
                module,
                &mut rng,
            );
            memory = files.reuse(back);
        }
        let n_mut = 1000 * scale();
        let mut module = files.module.clone();
        for _ in 0..n_mut {
            let at = rng.usize(0..len.max(1));
            if at >= len {
                break;
            }
            let old = module[at];
            module[at] = match rng.u8(0..3) {
                0 => 0,
                1 => old ^ (1 << rng.u8(0..8)),
                _ => rng.u8(..),
            };
            let back = run(
                &format!("module byte {at}"),
                &files,
                std::mem::take(&mut memory),
                &files.metadata,
                None,
                &module,
                &mut rng,
            );
            memory = files.reuse(back);
            module[at] = old;
        }
        println!("{label}: {n_cuts} module truncations, {n_mut} module mutations: no panic");
    }
}
