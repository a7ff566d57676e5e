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
use mutation_support::runner::{self, Config};

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
