//! The mutation campaign of issue #7: for every committed fixture snapshot, truncations of
//! each file and `MO_MEM_MUTANTS` seeded mutants of each (bit flips, boundary-value byte
//! and word overwrites, copied and swapped ranges, pointers redirected, tags changed,
//! lengths set to boundary values), each run in-process through `info`, `stats`, `vars`
//! (both renderings), `retained` (graph, dominators, retained sizes and their invariants), the
//! `objects/` rendering and the mount's tree. Every run succeeds or
//! is refused with a typed error: a panic, a run over the time bound, a memory peak over
//! 256 MiB plus the image size, a `stat` size differing from the bytes read or invalid JSON
//! fails the test, naming the case to rerun (`MO_MEM_MUTATION_CASE`, `MO_MEM_MUTATION_SEED`).
//!
//! The test also fails when the campaign ran less than it promises (`runner::shortfalls`: a
//! fixture without runs of a selected file, or whose main-memory mutants did not reach the
//! decoder) and on a misspelt variable or value (`mutation_support::check_variables`).
//!
//! The campaign's regressions (`mutation_regressions`, `tests/it/mutation_regressions.rs`) and
//! restore + upgrade under mutation (`mutation_upgrade`, `tests/it/mutation_upgrade.rs`) run in
//! this binary, the only one with the campaign's machinery (`tests/it/mutation_support`).
//!
//! The full campaign: `MO_MEM_MUTANTS=10000 MO_MEM_MUTATION_TRUNCATIONS=all cargo test
//! --release --locked --test mutation_campaign -- --nocapture` (see docs/robustness.md).

#[path = "it/common/fixtures.rs"]
mod common;
#[path = "../benches/support/mod.rs"]
mod cpu;
#[path = "it/mutation_regressions.rs"]
mod mutation_regressions;
#[path = "it/mutation_support/mod.rs"]
mod mutation_support;
#[path = "it/mutation_upgrade.rs"]
mod mutation_upgrade;

use mutation_support::alloc::CountingAlloc;
use mutation_support::files::FileKind;
use mutation_support::mutate::{mutant, mutant_seed};
use mutation_support::runner::{self, parts_with, Config, Scratch};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

#[test]
fn mutation_campaign() {
    // The default (CI) size: `runner::ci_cases` per file, weighted by heap size, so the test
    // stays near three minutes of a debug build on two cores as fixtures are added.
    let config = Config::from_env();
    let fixtures = mutation_support::fixtures();
    assert!(!fixtures.is_empty(), "no committed fixture snapshots");
    let report = runner::run(&fixtures, &config);
    runner::print(&report, &config);
    let short = runner::shortfalls(&report, &fixtures, &config);
    assert!(
        short.is_empty(),
        "the campaign ran less than it promises:\n{}",
        short.join("\n")
    );
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

/// A misspelt variable or value fails the campaign at once instead of running less (or
/// nothing) and passing: the campaign is run in a child process with each.
#[test]
fn misspelt_variables_and_values_fail() {
    for (var, value) in [
        ("MO_MEM_MUTATION_FILES", "wasm_memory"),
        ("MO_MEM_MUTATION_FILES", ""),
        ("MO_MEM_MUTATION_MODES", "mutant"),
        ("MO_MEM_MUTATION_FIXTURES", "compound,scalrs"),
        ("MO_MEM_MUTATION_FIXTURES", ""),
        ("MO_MEM_MUTANTS", "0"),
        ("MO_MEM_MUTANTS", "lots"),
        ("MO_MEM_MUTATION_TRUNCATIONS", "al"),
        ("MO_MEM_MUTATION_SEED", "0xg"),
        ("MO_MEM_MUTATION_FIXTURE", "compound"),
        ("MO_MEM_MUTANT", "5"),
        ("MO_MEM_MUTATION_EXTRA", "/nonexistent/snapshot"),
    ] {
        let out = std::process::Command::new(std::env::current_exe().expect("this test binary"))
            .args(["mutation_campaign", "--exact", "--test-threads=1"])
            .env(var, value)
            .output()
            .expect("run the campaign");
        // libtest prints a failed test's panic on stdout.
        let err = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(var),
            "{var}={value:?}: want a failure naming it, got {}:\n{err}",
            out.status
        );
    }
}

/// The floor: a fixture whose main-memory mutants did not reach the decoder (here: a report
/// with no runs, and one whose mutants were all refused at open) is named.
#[test]
fn a_campaign_that_never_decodes_main_memory_falls_short() {
    use mutation_support::files::Fixture;
    use runner::{Mode, Report, Tally};
    let dir = mutation_support::common::fixture("scalars", "eop");
    let fixture = Fixture::load("scalars/eop", &dir);
    let config = Config::from_env();
    let mut report = Report {
        tallies: Default::default(),
        failures: Vec::new(),
        elapsed: Default::default(),
    };
    let short = runner::shortfalls(&report, std::slice::from_ref(&fixture), &config);
    assert!(
        short
            .iter()
            .any(|s| s == "scalars/eop: no mutate runs of wasm_memory.bin"),
        "{short:#?}"
    );
    for file in FileKind::ALL {
        for mode in [Mode::Truncate, Mode::Mutate] {
            let tally = Tally {
                runs: 10,
                decoded: if file == FileKind::Memory { 0 } else { 10 },
                ..Tally::default()
            };
            report
                .tallies
                .insert(("scalars/eop".to_string(), file, mode), tally);
        }
    }
    let short = runner::shortfalls(&report, std::slice::from_ref(&fixture), &config);
    assert_eq!(short.len(), 1, "{short:#?}");
    assert!(
        short[0].starts_with("scalars/eop: 0 of 10 mutants of wasm_memory.bin reached the decoder"),
        "{short:#?}"
    );
}
