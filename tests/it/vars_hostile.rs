//! Hostile input for `vars`: seeded byte mutations of the objects the stable variables reach
//! (and truncations of the image) in a fixture of every mode; decoding every variable and
//! rendering it as Motoko text and JSON never panics or hangs: each variable either decodes
//! or returns an error. `MOMEM_FUZZ_SCALE` (default 1) multiplies the number of cases.

use crate::heap_support;

use heap_support::files::{fuzz_scale as scale, give_back, SnapshotFiles};

use std::panic::{catch_unwind, AssertUnwindSafe};

use mo_mem::heap::render::{debug_show, to_json};
use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables, Value};
use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::module::ModuleFacts;

fn limits() -> ReaderLimits {
    ReaderLimits {
        max_objects: 1_000_000,
        max_work: 5_000_000,
        max_depth: 2_000,
        max_text_bytes: 1 << 20,
        ..ReaderLimits::default()
    }
}

/// Decodes and renders every stable variable; returns the addresses of the objects reached
/// (on clean images) and the number of variables that decoded.
fn decode_all(heap: &Heap) -> (Vec<u64>, usize) {
    let Ok(sig) = heap_signature(heap) else {
        return (Vec::new(), 0);
    };
    let Ok(vars) = stable_variables(heap, &sig) else {
        return (Vec::new(), 0);
    };
    let mut d = signature_decoder(heap, &sig);
    d.set_max_nodes(200_000);
    let mut addrs = Vec::new();
    let mut ok = 0;
    for v in &vars {
        match d.deep(&v.value) {
            Ok(value) => {
                ok += 1;
                std::hint::black_box((debug_show(&value), to_json(&value)));
                let mut stack: Vec<&Value> = vec![&value];
                while let Some(x) = stack.pop() {
                    addrs.extend(x.addr());
                    stack.extend((0..x.child_count()).filter_map(|i| x.child(i)));
                }
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
        // Piecemeal access on the same value.
        let _ = d.len(&v.value);
        let _ = d.element(&v.value, 0);
    }
    (addrs, ok)
}

#[test]
fn mutated_variables_never_panic() {
    let snapshots: Vec<_> = heap_support::snapshots()
        .into_iter()
        .filter(|(label, _)| label.starts_with("compound/"))
        .collect();
    for (label, dir) in snapshots {
        let files = SnapshotFiles::read(&dir, &label);
        let clean = &files.memory;
        let facts = ModuleFacts::parse(&files.module).expect("fixture module");
        let heap = files
            .open(clean.clone(), &facts, limits())
            .expect("fixture opens");
        let (mut addrs, decoded) = decode_all(&heap);
        assert!(decoded > 0, "{label}: nothing decoded");
        drop(heap);
        addrs.sort_unstable();
        addrs.dedup();
        let mut rng = fastrand::Rng::with_seed(0x7661_7273);
        let mut memory = clean.clone();
        let n = 120 * scale();
        for _ in 0..n {
            let base = addrs[rng.usize(0..addrs.len())];
            let at = (base + rng.u64(0..48)) as usize;
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
            let case = format!("{label}: byte {at:#x} {old:#x} -> {:#x}", memory[at]);
            let mem = std::mem::take(&mut memory);
            let back = catch_unwind(AssertUnwindSafe(|| {
                let heap = files.open(mem, &facts, limits())?;
                decode_all(&heap);
                Some(give_back(heap))
            }))
            .unwrap_or_else(|_| panic!("panicked on {case}"));
            memory = files.reuse(back.unwrap_or_default());
            memory[at] = old;
        }
        // Truncations inside the region the variables reach.
        for _ in 0..10 * scale() {
            let cut = addrs[rng.usize(0..addrs.len())] as usize + rng.usize(0..64);
            let mem = clean[..cut.min(clean.len())].to_vec();
            catch_unwind(AssertUnwindSafe(|| {
                let meta = files.metadata_with_memory_size(mem.len() as u64);
                let snap = files.snapshot(&meta, &files.module, mem).ok()?;
                let heap = Heap::open_with_module(snap, Some(facts.clone()), limits()).ok()?;
                decode_all(&heap);
                Some(())
            }))
            .unwrap_or_else(|_| panic!("{label}: panicked on truncation at {cut:#x}"));
        }
        println!(
            "{label}: {n} mutations of {} reached objects: no panic",
            addrs.len()
        );
    }
}
