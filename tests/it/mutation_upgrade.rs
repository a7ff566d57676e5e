//! Restore + upgrade under mutation (issue #30): seeded mutants of the main memory, the
//! stable memory, the module and `metadata.json` of the small committed fixtures (`compound`
//! in EOP and in classical copying persistence, `regions` with its stable memory), each
//! snapshot upgraded to its own unmutated module as `mo-mem upgrade` does
//! (`runtime::upgrade::dry_run` under a small instruction limit and a wall-clock bound), then
//! compared (`analysis::upgrade::compare_vars` after a success, `compare_types` after a
//! failure, `data_loss`). Every run ends with a report or a typed error: a panic, or a run over
//! its time bound, fails the test and names the mutant.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mo_mem::analysis::upgrade::{compare_types, compare_vars, data_loss};
use mo_mem::analysis::OpenedHeap;
use mo_mem::image::ReaderLimits;
use mo_mem::runtime::upgrade::{dry_run, UpgradeOptions};
use mo_mem::snapshot::Snapshot;

use crate::mutation_support::exercise::Parts;
use crate::mutation_support::files::FileKind;
use crate::mutation_support::mutate::{mutant, mutant_seed};
use crate::mutation_support::runner::parts_with;

/// Seeded mutants per file per fixture.
const MUTANTS: u64 = 5;
/// The instruction limit of each dry run (the fixtures' own upgrades take under 2 million).
const LIMIT: u64 = 50_000_000;
/// The wall-clock bound of each dry run; a whole run (restore, upgrade, comparison) must end
/// within twice that.
const TIMEOUT: Duration = Duration::from_secs(30);

/// How one run ended.
fn run(parts: Parts, new_module: &[u8]) -> &'static str {
    let Ok(snapshot) = Snapshot::from_images(
        Some(&parts.metadata),
        Some(parts.module),
        parts.memory,
        Some(parts.stable),
    ) else {
        return "snapshot refused";
    };
    let Ok(before) = OpenedHeap::from_snapshot(snapshot, ReaderLimits::default()) else {
        return "heap refused";
    };
    let before = Arc::new(before);
    let options = UpgradeOptions {
        instructions: LIMIT,
        timeout: TIMEOUT,
        copy_memory: false,
    };
    let mut upgrade = match dry_run(before.clone(), new_module, "", &options) {
        Ok(run) => run,
        Err(_) => return "restore or upgrade refused",
    };
    assert!(
        upgrade.counts.total() <= LIMIT,
        "{:?} over the limit {LIMIT}",
        upgrade.counts
    );
    if upgrade.failure.is_some() {
        let _ = compare_types(&before, new_module);
        return "upgrade fails";
    }
    let Ok(upgraded) = upgrade.take_snapshot(before.heap().snapshot()) else {
        return "upgraded state refused";
    };
    let Ok(after) = OpenedHeap::from_snapshot(upgraded, ReaderLimits::default()) else {
        return "upgraded heap refused";
    };
    match compare_vars(&before, &after) {
        Ok(vars) => {
            let _ = data_loss(&vars);
            "upgraded and compared"
        }
        Err(_) => "comparison refused",
    }
}

#[test]
fn restore_and_upgrade_of_mutated_snapshots_end_with_a_report_or_an_error() {
    let wanted = ["compound/eop", "compound/copying", "regions/eop"];
    let fixtures = crate::mutation_support::fixtures();
    let chosen: Vec<_> = fixtures
        .iter()
        .filter(|f| wanted.contains(&f.label.as_str()))
        .collect();
    assert_eq!(chosen.len(), wanted.len(), "fixtures: {wanted:?}");
    let mut endings: std::collections::BTreeMap<&'static str, usize> = Default::default();
    for fx in chosen {
        let new_module = fx.original(FileKind::Module).to_vec();
        for file in [
            FileKind::Memory,
            FileKind::Stable,
            FileKind::Module,
            FileKind::Metadata,
        ] {
            if fx.original(file).is_empty() {
                continue;
            }
            for i in 0..MUTANTS {
                let seed = mutant_seed(30, &fx.label, file, i);
                let m = mutant(fx.map(file), fx.original(file), seed);
                let parts = parts_with(fx, file, &m.edit);
                let case = format!("{} {} mutant {i} ({})", fx.label, file.name(), m.kind);
                let started = Instant::now();
                let ended = catch_unwind(AssertUnwindSafe(|| run(parts, &new_module)))
                    .unwrap_or_else(|_| panic!("{case}: panicked"));
                assert!(
                    started.elapsed() < 2 * TIMEOUT,
                    "{case}: {:?}",
                    started.elapsed()
                );
                *endings.entry(ended).or_insert(0) += 1;
            }
        }
    }
    eprintln!("mutation_upgrade: {endings:?}");
    // the mutants reach the upgrade and the comparison, not only the parsers
    assert!(
        endings.get("upgraded and compared").is_some_and(|&n| n > 0),
        "{endings:?}"
    );
}
