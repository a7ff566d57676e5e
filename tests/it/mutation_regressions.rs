//! Regressions found by the mutation campaign (`tests/mutation_campaign.rs`), each rebuilt
//! from a committed fixture plus the recorded mutation, and each run through the same user
//! paths under a time bound: the run must finish, without a panic, with a typed error.
//!
//! The mutations are rebuilt from what they did (e.g. "point a Concat's right part at the
//! Concat itself"), located by walking the fixture, so they survive fixture regeneration;
//! the campaign's original record is quoted with each.

use crate::mutation_support;

use std::sync::mpsc;
use std::time::Duration;

use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables};
use mo_mem::heap::{Body, Heap, Tag};
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;

use mutation_support::exercise::{exercise, Outcome};
use mutation_support::files::{FileKind, Fixture};
use mutation_support::mutate::Edit;
use mutation_support::runner::{object_sample, parts_with};

/// A run longer than this is a hang (debug build, shared machine).
const BOUND: Duration = Duration::from_secs(60);

fn fixture(label: &str) -> Fixture {
    let (name, mode) = label.split_once('/').expect("name/mode");
    Fixture::load(label, &mutation_support::common::fixture(name, mode))
}

/// Every committed fixture of `name` (all modes).
fn fixtures_named(name: &str) -> Vec<Fixture> {
    mutation_support::common::committed_fixtures()
        .into_iter()
        .filter(|(n, _)| n == name)
        .map(|(n, m)| fixture(&format!("{n}/{m}")))
        .collect()
}

/// Runs `edit` of the main memory of `fx` through every user path, on a thread, within
/// [`BOUND`]; panics (failing the test) on a panic or a hang.
fn run_bounded(fx: &Fixture, edit: Edit, what: &str) -> Outcome {
    let parts = parts_with(fx, FileKind::Memory, &edit);
    let facts = fx.facts.clone();
    let (tx, rx) = mpsc::channel();
    let label = format!("{} {what} ({edit})", fx.label);
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let out = exercise(parts, facts.as_ref(), &[], 1, &[]);
            let _ = tx.send(out);
        })
        .expect("spawn");
    match rx.recv_timeout(BOUND) {
        Ok(out) => out,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{label}: still running after {BOUND:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{label}: the run panicked"),
    }
}

/// The unmutated heap of `fx`.
fn original_heap(fx: &Fixture) -> Heap {
    let snapshot = Snapshot::from_parts(
        Some(fx.original(FileKind::Metadata)),
        Some(fx.original(FileKind::Module).to_vec()),
        fx.original(FileKind::Memory).to_vec(),
        Some(fx.original(FileKind::Stable).to_vec()),
    )
    .expect("fixture opens");
    Heap::open(snapshot, ReaderLimits::default()).expect("fixture heap")
}

/// `(addr, field address of n_bytes, left, right)` of every Concat in the original heap.
fn concats(fx: &Fixture) -> Vec<(u64, u64, u64, u64)> {
    let heap = original_heap(fx);
    let word = heap.layout().word.bytes();
    let header = heap.layout().header;
    let mut out = Vec::new();
    for block in heap.walk().flatten() {
        let Ok(o) = heap.object(block.addr) else {
            continue;
        };
        if o.tag != Tag::Concat || o.forwarded_to().is_some() {
            continue;
        }
        let Body::Concat { left, .. } = o.body else {
            continue;
        };
        let n_bytes_at = o.addr + header;
        // Check the field layout against the decoded body.
        let at = (n_bytes_at + word) as usize;
        let mut buf = [0u8; 8];
        buf[..word as usize]
            .copy_from_slice(&fx.original(FileKind::Memory)[at..at + word as usize]);
        assert_eq!(
            u64::from_le_bytes(buf),
            left,
            "Concat layout at {:#x}",
            o.addr
        );
        out.push((o.addr, n_bytes_at, n_bytes_at + word, n_bytes_at + 2 * word));
    }
    out
}

fn word_write(fx: &Fixture, at: u64, value: u64) -> Edit {
    let word = match fx.facts.as_ref().map(|f| f.word_size().bytes()) {
        Some(4) => 4,
        _ => 8,
    };
    Edit::Write {
        at: at as usize,
        bytes: value.to_le_bytes()[..word].to_vec(),
    }
}

/// The Text variables of the fixture decode to an error naming the rope, not forever.
fn assert_rope_refused(out: &Outcome, what: &str) {
    assert!(out.refused.is_none(), "{what}: refused at open: {out:?}");
    assert!(
        out.partial
            .iter()
            .any(|p| p == "vars:Heap/Object/Inconsistent"),
        "{what}: no variable refused the broken rope: {:?}",
        out.partial
    );
    assert!(out.violations.is_empty(), "{what}: {:?}", out.violations);
}

/// Campaign record: `MO_MEM_MUTATION_CASE=compound/compacting:wasm_memory.bin:mutate:6
/// (pointer->self (cycle): write dbdd2000 at 0x20dde8)`: a Concat's right part pointed at
/// itself; `vars` walked the rope forever (no work was spent on Concat nodes and the empty
/// stack never grew). Fixed in `heap/value/prim.rs` (`Decoder::text`): rope parts must be
/// non-empty and shorter than their Concat.
#[test]
fn text_rope_cycles_are_refused() {
    let mut tried = 0;
    for fx in fixtures_named("compound") {
        let ropes = concats(&fx);
        assert!(!ropes.is_empty(), "{}: no Concat in the heap", fx.label);
        let (addr, _, left_at, right_at) = ropes[0];
        let skewed = addr - 1;
        for (field, at) in [("right", right_at), ("left", left_at)] {
            let what = format!("{}: Concat {addr:#x} {field} -> itself", fx.label);
            let out = run_bounded(&fx, word_write(&fx, at, skewed), &what);
            assert_rope_refused(&out, &what);
            tried += 1;
        }
        if ropes.len() >= 2 {
            // A two-node cycle: the second Concat's left points back at the first, and the
            // first's right at the second.
            let (a, ..) = ropes[0];
            let (b, _, b_left, _) = ropes[1];
            let what = format!("{}: Concats {a:#x} <-> {b:#x}", fx.label);
            let out = run_bounded_two(&fx, [(right_at, b - 1), (b_left, a - 1)], &what);
            assert_rope_refused(&out, &what);
        }
    }
    assert!(tried > 0);
}

/// Like [`run_bounded`] with several word writes.
fn run_bounded_two(fx: &Fixture, writes: [(u64, u64); 2], what: &str) -> Outcome {
    let mut memory = fx.original(FileKind::Memory).to_vec();
    for (at, value) in writes {
        word_write(fx, at, value).apply(&mut memory);
    }
    let edit = Edit::Write {
        at: 0,
        bytes: memory,
    };
    run_bounded(fx, edit, what)
}

/// A Concat whose `n_bytes` is inflated to the text limit still decodes within bounds
/// (or is refused): the text may not be longer than the root says.
#[test]
fn text_rope_lengths_bound_the_walk() {
    for fx in fixtures_named("compound") {
        let ropes = concats(&fx);
        let Some(&(addr, n_at, _, _)) = ropes.first() else {
            continue;
        };
        for n in [0u64, 1, 2, 64 << 20, u64::MAX] {
            let what = format!("{}: Concat {addr:#x} n_bytes = {n:#x}", fx.label);
            let out = run_bounded(&fx, word_write(&fx, n_at, n), &what);
            assert!(out.violations.is_empty(), "{what}: {:?}", out.violations);
        }
    }
}

/// The campaign's decoder paths agree with the untouched fixture: every variable decodes.
#[test]
fn unmutated_fixtures_decode_every_variable() {
    for fx in fixtures_named("compound") {
        let snapshot = Snapshot::from_parts(
            Some(fx.original(FileKind::Metadata)),
            Some(fx.original(FileKind::Module).to_vec()),
            fx.original(FileKind::Memory).to_vec(),
            Some(fx.original(FileKind::Stable).to_vec()),
        )
        .expect("opens");
        let heap = Heap::open(snapshot, ReaderLimits::default()).expect("heap");
        let sig = heap_signature(&heap).expect("signature");
        let vars = stable_variables(&heap, &sig).expect("vars");
        let mut d = signature_decoder(&heap, &sig);
        for v in &vars {
            d.deep(&v.value)
                .unwrap_or_else(|e| panic!("{}: {}: {e}", fx.label, v.name));
        }
        let unchanged = Edit::Write {
            at: 0,
            bytes: Vec::new(),
        };
        let parts = parts_with(&fx, FileKind::Memory, &unchanged);
        let out = exercise(parts, fx.facts.as_ref(), &object_sample(&fx), 3, &[]);
        assert!(
            out.refused.is_none() && out.partial.is_empty(),
            "{}: {out:?}",
            fx.label
        );
        assert!(
            out.violations.is_empty(),
            "{}: {:?}",
            fx.label,
            out.violations
        );
    }
}

/// Campaign record (2026-11-30, session 4): `MO_MEM_MUTATION_CASE=weak/eop-forcegc:
/// wasm_memory.bin:mutate:7798 (length boundary: write 0000000100000000 at 0x5028f8)`, MEMORY
/// (608 MiB at peak, limit 384 MiB). The length of the text `"kept #1"` (the name of
/// `strong[0]`, also reached through `weak_live`) set to 16 MiB: the text then runs over the
/// 128 MiB image's zeros and renders to 96 MiB of JSON (`\u0000` per byte), several copies
/// of it per file read. The text limit now holds for the rendered form: a typed error.
#[test]
fn inflated_text_lengths_are_bounded_by_their_rendering() {
    let fx = fixture("weak/eop-forcegc");
    let heap = original_heap(&fx);
    let header = heap.layout().header;
    let text = heap
        .walk()
        .flatten()
        .filter_map(|b| heap.object(b.addr).ok())
        .find(|o| matches!(o.body, Body::Blob { bytes, .. } if bytes == b"kept #1"))
        .expect("the text \"kept #1\"");
    let edit = word_write(&fx, text.addr + header, 1 << 24);
    drop(heap);
    let out = run_bounded(&fx, edit, "text length 16 MiB");
    assert!(out.violations.is_empty(), "{:?}", out.violations);
    assert!(
        out.partial.iter().any(|p| p.contains("TextBytes")),
        "the inflated text is refused by the text limit: {out:?}"
    );
}
