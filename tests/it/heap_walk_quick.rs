//! The walk's table-driven fast path yields exactly what sizing every block with the full
//! object decoder yields: over every fixture heap, and after seeded mutations of the words
//! the fast path reads (headers, forwarding words, counts, hash-array and hash-blob
//! pointers, the hash blobs themselves), blocks and errors alike. `MOMEM_FUZZ_SCALE`
//! (default 1) multiplies the number of mutants.

use crate::heap_support;

use heap_support::files::{fuzz_scale as scale, give_back, SnapshotFiles};

use mo_mem::heap::{Block, BlockKind, Body, Heap, Tag, WalkError};
use mo_mem::image::{ReaderLimits, WordSize};
use mo_mem::module::ModuleFacts;

/// Blocks compared after each mutated block (the mutation's effect on the walk shows
/// within a few blocks: the walk either resynchronizes or stops at the range).
const WINDOW: usize = 48;

type Walked = Vec<Result<Block, WalkError>>;

fn both(heap: &Heap, from: Option<u64>, take: usize) -> (Walked, Walked) {
    let walk = || match from {
        Some(a) => heap.walk_from(a),
        None => heap.walk(),
    };
    (
        walk().take(take).collect(),
        walk().decoding_every_block().take(take).collect(),
    )
}

/// Values a mutated word takes: tags of every kind, boundary values, self and near pointers.
fn pick_value(rng: &mut fastrand::Rng, at: u64, old: u64, word: WordSize) -> u64 {
    let max = match word {
        WordSize::W32 => u64::from(u32::MAX),
        WordSize::W64 => u64::MAX,
    };
    let v = match rng.u8(0..12) {
        0 => rng.u64(0..64),
        1 => [1, 3, 5, 17, 21, 23, 25, 27, 35, 37, 41, 43, 45, 49, 51][rng.usize(0..15)],
        2 => 0,
        3 => max,
        4 => max >> 1,
        5 => at.wrapping_sub(1),
        6 => at.wrapping_add(rng.u64(1..64) * 8).wrapping_sub(1),
        7 => old.wrapping_add(rng.u64(1..16)),
        8 => old.wrapping_sub(rng.u64(1..16)),
        9 => old ^ (1 << rng.u32(0..word.bits())),
        10 => rng.u64(0..1 << 20),
        _ => rng.u64(..),
    };
    v & max
}

fn write_word(mem: &mut [u8], at: u64, v: u64, word: WordSize) -> Option<u64> {
    let at = usize::try_from(at).ok()?;
    let n = word.bytes() as usize;
    let slot = mem.get_mut(at..at.checked_add(n)?)?;
    let mut old = [0u8; 8];
    old[..n].copy_from_slice(slot);
    slot.copy_from_slice(&v.to_le_bytes()[..n]);
    Some(u64::from_le_bytes(old))
}

/// One mutant: the word at `at` of `memory` changed to a value [`pick_value`] picks, the heap
/// of that memory opened (`open`) and handed to `check` with the old and new words, then the
/// word put back. `false` when there is no such word or the heap is refused at open (the
/// memory went with the snapshot: it is read again from `files`).
fn mutant(
    memory: &mut Vec<u8>,
    files: &SnapshotFiles,
    open: impl Fn(Vec<u8>) -> Option<Heap>,
    (at, word): (u64, WordSize),
    rng: &mut fastrand::Rng,
    check: impl FnOnce(&Heap, u64, u64),
) -> bool {
    let Some(old) = write_word(memory, at, 0, word) else {
        return false;
    };
    let new = pick_value(rng, at, old, word);
    write_word(memory, at, new, word);
    let Some(heap) = open(std::mem::take(memory)) else {
        *memory = files.memory.clone();
        return false;
    };
    check(&heap, old, new);
    *memory = give_back(heap);
    write_word(memory, at, old, word);
    true
}

#[test]
fn fast_path_agrees_with_the_full_decoder() {
    let mut total_blocks = 0usize;
    let mut mutants = 0usize;
    for (label, dir) in heap_support::snapshots() {
        let files = SnapshotFiles::read(&dir, &label);
        let facts = ModuleFacts::parse(&files.module).unwrap_or_else(|e| panic!("{label}: {e}"));
        let open = |memory| files.open(memory, &facts, ReaderLimits::default());
        let heap = open(files.memory.clone()).unwrap_or_else(|| panic!("{label}: fixture refused"));
        let (quick, full) = both(&heap, None, usize::MAX);
        assert_eq!(quick, full, "{label}: the walks differ");
        assert!(quick.iter().all(Result::is_ok), "{label}: walk errors");
        total_blocks += quick.len();
        let blocks: Vec<Block> = quick.into_iter().flatten().collect();
        let word = heap.layout().word;
        let w = word.bytes();
        let eop = w == 8;
        let mut memory = give_back(heap);

        // Mutants: fewer on the object-dense heaps (each costs two walks of the window).
        let count = (40_000 / (blocks.len() / 50 + 100)).clamp(20, 400) * scale();
        let mut rng = fastrand::Rng::with_seed(0x0071_7569_636b ^ total_blocks as u64);
        for i in 0..count {
            let block = blocks[rng.usize(0..blocks.len())];
            // The word to change: one of the block's first four, or (EOP records) one of its
            // hash blob's first four.
            let mut base = block.addr;
            if eop && block.kind == BlockKind::Object(Tag::Object) && rng.bool() {
                let ptr = memory
                    .get(block.addr as usize + 16..block.addr as usize + 24)
                    .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")));
                if let Some(p) = ptr {
                    base = p.wrapping_add(1);
                }
            }
            let at = base.wrapping_add(rng.u64(0..4) * w);
            let checked = mutant(
                &mut memory,
                &files,
                open,
                (at, word),
                &mut rng,
                |heap, old, new| {
                    let (quick, full) = both(heap, Some(block.addr), WINDOW);
                    assert_eq!(
                        quick, full,
                        "{label}: mutant {i}: word {at:#x} {old:#x} -> {new:#x} (block {block:?})"
                    );
                },
            );
            mutants += usize::from(checked);
        }
    }
    eprintln!("fast path = full decoder on {total_blocks} fixture blocks and {mutants} mutants");
    assert!(mutants > 1000, "too few mutants ran: {mutants}");
}

/// What `Heap::narrow_blob` says of the object at `addr`, checked against the full decoder:
/// a narrow read is the decoded blob's sort and bytes (`true`), or none (`false`).
fn narrow_agrees(heap: &Heap, addr: u64, what: &str) -> bool {
    let Some((sort, bytes)) = heap.narrow_blob(addr) else {
        return false;
    };
    match heap.object(addr).map(|o| o.body) {
        Ok(Body::Blob { sort: s, bytes: b }) => assert!(
            s == sort && b == bytes,
            "{what}: {addr:#x}: narrow read differs"
        ),
        other => panic!("{what}: {addr:#x}: narrow blob where the decoder reads {other:?}"),
    }
    true
}

#[test]
fn narrow_blob_reads_what_the_decoder_reads() {
    let (mut narrow, mut mutants) = (0usize, 0usize);
    for (label, dir) in heap_support::snapshots() {
        let files = SnapshotFiles::read(&dir, &label);
        let facts = ModuleFacts::parse(&files.module).unwrap_or_else(|e| panic!("{label}: {e}"));
        let open = |memory| files.open(memory, &facts, ReaderLimits::default());
        let heap = open(files.memory.clone()).unwrap_or_else(|| panic!("{label}: fixture refused"));
        let eop = heap.layout().word.bytes() == 8;
        let mut blobs = Vec::new();
        for block in heap.walk().flatten() {
            let read = narrow_agrees(&heap, block.addr, &label);
            let BlockKind::Object(Tag::Blob(_)) = block.kind else {
                continue;
            };
            // EOP: every blob of the fixtures is in place (not forwarded) and reads narrowly;
            // classical layouts never do.
            assert_eq!(read, eop, "{label}: blob {:#x}", block.addr);
            narrow += usize::from(read);
            blobs.push(block.addr);
        }
        if !eop || blobs.is_empty() {
            continue;
        }
        // Mutants of a blob's header, length and first bytes.
        let word = heap.layout().word;
        let mut memory = give_back(heap);
        let mut rng = fastrand::Rng::with_seed(0x6e61_7272 ^ blobs.len() as u64);
        for i in 0..200 * scale() {
            let addr = blobs[rng.usize(0..blobs.len())];
            let at = addr + rng.u64(0..4) * 8;
            let checked = mutant(
                &mut memory,
                &files,
                open,
                (at, word),
                &mut rng,
                |heap, _, new| {
                    narrow_agrees(
                        heap,
                        addr,
                        &format!("{label}: mutant {i}: {at:#x} -> {new:#x}"),
                    );
                },
            );
            mutants += usize::from(checked);
        }
    }
    eprintln!("narrow blob reads = decoder on {narrow} blobs and {mutants} mutants");
    assert!(
        narrow > 1000 && mutants > 500,
        "{narrow} blobs, {mutants} mutants"
    );
}
