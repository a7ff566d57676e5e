//! The mutation campaign of issue #7: for every committed fixture snapshot, truncations of
//! each file and `MO_MEM_MUTANTS` seeded mutants of each (bit flips, boundary-value byte
//! and word overwrites, copied and swapped ranges, pointers redirected, tags changed,
//! lengths set to boundary values), each run in-process through `info`, `stats`, `vars`
//! (both renderings), the `objects/` rendering and the mount's tree. Every run succeeds or
//! is refused with a typed error: a panic, a run over the time bound, a memory peak over
//! 256 MiB plus the image size, a `stat` size differing from the bytes read or invalid JSON
//! fails the test, naming the case to rerun (`MO_MEM_MUTATION_CASE`, `MO_MEM_MUTATION_SEED`).
//!
//! The full campaign: `MO_MEM_MUTANTS=10000 MO_MEM_MUTATION_TRUNCATIONS=all cargo test
//! --release --locked --test mutation_campaign -- --nocapture` (see docs/robustness.md).

mod mutation_support;

use mutation_support::alloc::CountingAlloc;
use mutation_support::files::FileKind;
use mutation_support::mutate::{mutant, mutant_seed};
use mutation_support::runner::{self, parts_with, Config, Scratch};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

#[test]
fn mutation_campaign() {
    let fixtures = mutation_support::fixtures();
    // The default (CI) size: `runner::ci_cases` per file, weighted by heap size, so the test
    // stays near three minutes of a debug build on two cores as fixtures are added.
    let config = Config::from_env();
    assert!(!fixtures.is_empty(), "no committed fixture snapshots");
    let report = runner::run(fixtures, &config);
    runner::print(&report, &config);
    if !report.failures.is_empty() {
        for f in report.failures.iter().take(50) {
            eprintln!("{f}");
        }
        panic!(
            "{} mutation runs failed (first 50 above; rerun one with the printed variables)",
            report.failures.len()
        );
    }
}

/// The workers' in-place scratch copies give every run exactly the bytes a fresh copy gives,
/// and return to the original after each run.
#[test]
fn scratch_copies_equal_fresh_copies() {
    let fixtures = mutation_support::fixtures();
    let fixture = fixtures
        .iter()
        .min_by_key(|f| f.original(FileKind::Memory).len())
        .expect("a fixture");
    let mut scratch = Scratch::default();
    for file in [FileKind::Memory, FileKind::Module, FileKind::Stable] {
        let original = fixture.original(file);
        if original.is_empty() {
            continue;
        }
        let mut in_place = 0;
        for index in 0..300 {
            let seed = mutant_seed(7, &fixture.label, file, index);
            let m = mutant(fixture.map(file), original, seed);
            let fresh = parts_with(fixture, file, &m.edit);
            let Some(edited) = scratch.edited(fixture, file, &m.edit) else {
                continue;
            };
            in_place += 1;
            for (what, a, b) in [
                ("module", &fresh.module, &edited.module),
                ("memory", &fresh.memory, &edited.memory),
                ("stable", &fresh.stable, &edited.stable),
            ] {
                assert!(
                    a.as_slice() == b.as_slice(),
                    "{} {file:?} mutant {index} ({}): {what} differs",
                    fixture.label,
                    m.edit
                );
            }
            assert_eq!(fresh.metadata, edited.metadata);
            drop(edited);
            scratch.restore(fixture, file, &m.edit);
        }
        assert!(
            in_place > 100,
            "{file:?}: only {in_place} edits were in place"
        );
        let unchanged = mutation_support::mutate::Edit::Write {
            at: 0,
            bytes: Vec::new(),
        };
        let back = scratch.edited(fixture, file, &unchanged).expect("in place");
        let image = match file {
            FileKind::Memory => &back.memory,
            FileKind::Module => &back.module,
            _ => &back.stable,
        };
        assert!(image.as_slice() == original, "{file:?}: not restored");
    }
}
