//! The upgrade comparison's shortcut for enhanced orthogonal persistence
//! (`analysis::upgrade_unchanged`): on the committed `compound` EOP heap, every stable
//! variable is proven unchanged against an identical copy, and never once a byte of its value
//! differs (the last byte of its root object, or of an object below it); a byte changed
//! outside every value's objects changes no verdict. `upgrade_cli.rs` checks the whole
//! comparison against the canister's own `debug_show` after real upgrades.

use mo_mem::analysis::upgrade_unchanged::UnchangedWalk;
use mo_mem::heap::Heap;
use mo_mem::image::{Image, ReaderLimits};
use mo_mem::snapshot::Snapshot;

use crate::common;

/// The `compound/eop` heap, with `edit` (address, byte xor-ed in) applied to main memory.
fn heap(edit: Option<(u64, u8)>) -> Heap {
    let dir = common::fixture("compound", "eop");
    let snapshot = Snapshot::open(&dir).unwrap();
    let mut memory = snapshot.memory().as_slice().to_vec();
    if let Some((at, x)) = edit {
        memory[at as usize] ^= x;
    }
    let metadata = std::fs::read(dir.join("metadata.json")).unwrap();
    let module = std::fs::read(dir.join("wasm_module.bin")).unwrap();
    let stable = snapshot.stable_memory().map(|i| i.as_slice().to_vec());
    let copy = Snapshot::from_images(
        Some(&metadata),
        Some(Image::from_vec(module)),
        Image::from_vec(memory),
        stable.map(Image::from_vec),
    )
    .unwrap();
    Heap::open(copy, ReaderLimits::default()).unwrap()
}

/// Each stable variable's value word.
fn words(heap: &Heap) -> Vec<(String, u64)> {
    heap.stable_vars()
        .unwrap()
        .iter()
        .map(|v| (v.name.clone(), heap.stable_var_value(v).unwrap()))
        .collect()
}

#[test]
fn a_value_is_unchanged_only_when_every_byte_of_its_objects_is() {
    let before = heap(None);
    let vars = words(&before);
    assert!(vars.len() >= 5, "{vars:?}");
    let same = heap(None);
    let mut walk = UnchangedWalk::new(&before, &same).expect("an EOP heap");
    for (name, word) in &vars {
        assert!(walk.unchanged(*word), "{name} against an identical copy");
    }
    let mut pointers = 0;
    for (name, word) in &vars {
        let Some(addr) = before.pointer(*word) else {
            continue;
        };
        let root = before.object(before.resolve(addr).unwrap()).unwrap();
        // the root object's last byte, then the last byte of one object below it
        let mut edits = vec![root.addr + root.size - 1];
        if let Some(child) = root.references().find_map(|w| before.pointer(w)) {
            let child = before.object(before.resolve(child).unwrap()).unwrap();
            edits.push(child.addr + child.size - 1);
        }
        for at in edits {
            let after = heap(Some((at, 0x40)));
            let mut walk = UnchangedWalk::new(&before, &after).unwrap();
            assert!(!walk.unchanged(*word), "{name}: byte {at:#x} changed");
            // the walk that gave up leaves nothing behind: an identical value still passes
            for (other, w) in &vars {
                let shares = other == name || *w == *word;
                if !shares && !walk.unchanged(*w) {
                    // another variable may reach the changed object too: then it must fail
                    // again when walked alone
                    let mut alone = UnchangedWalk::new(&before, &after).unwrap();
                    assert!(!alone.unchanged(*w), "{other} after {name}'s walk");
                }
            }
        }
        pointers += 1;
    }
    assert!(pointers >= 3, "{vars:?}");
    // past the heap's last object: no value's object changes
    let end = before.ranges().iter().map(|r| r.end).max().unwrap();
    if end < before.image().len() {
        let after = heap(Some((end, 0x40)));
        let mut walk = UnchangedWalk::new(&before, &after).unwrap();
        for (name, word) in &vars {
            assert!(walk.unchanged(*word), "{name}: byte past the heap changed");
        }
    }
}

#[test]
fn a_classical_heap_takes_no_shortcut() {
    let dir = common::fixture("compound", "copying");
    let a = Heap::open(Snapshot::open(&dir).unwrap(), ReaderLimits::default()).unwrap();
    let b = Heap::open(Snapshot::open(&dir).unwrap(), ReaderLimits::default()).unwrap();
    assert!(UnchangedWalk::new(&a, &b).is_none());
}
