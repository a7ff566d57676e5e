//! Inputs found by fuzzing (and by the adversarial review of the script budgets) that once
//! crashed, hung or exhausted memory: each runs through its fuzz target's body again.
//! The inputs live in `tests/data/fuzz-regressions/<target>/`; the bodies are the fuzz
//! crate's glue (`fuzz/src/lib.rs`, module `run`), compiled into this test. The seeds the
//! targets start from (`fuzz_glue::seeds`) run through the same bodies.

#[path = "../../fuzz/src/lib.rs"]
mod fuzz_glue;

use std::path::Path;
use std::time::{Duration, Instant};

#[test]
fn every_regression_input_runs_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz-regressions");
    let mut count = 0;
    let mut targets_run = Vec::new();
    for target in std::fs::read_dir(&root).expect("regression dir") {
        let target = target.expect("entry").path();
        let name = target
            .file_name()
            .and_then(|n| n.to_str())
            .expect("target name")
            .to_string();
        assert!(
            fuzz_glue::run::TARGETS.contains(&name.as_str()),
            "{name}: no such fuzz target"
        );
        let mut inputs: Vec<_> = std::fs::read_dir(&target)
            .expect("target dir")
            .map(|e| e.expect("entry").path())
            .collect();
        inputs.sort();
        if !inputs.is_empty() {
            targets_run.push(name.clone());
        }
        for input in inputs {
            let data = std::fs::read(&input).expect("input");
            let what = input.display().to_string();
            let t = Instant::now();
            let n = name.clone();
            // An 8 MiB thread, like a main thread: the parser must not need more.
            std::thread::Builder::new()
                .stack_size(8 << 20)
                .spawn(move || fuzz_glue::run::target(&n, &data))
                .expect("thread")
                .join()
                .unwrap_or_else(|_| panic!("{what}: the target panicked"));
            assert!(
                t.elapsed() < Duration::from_secs(60),
                "{what}: took {:?}",
                t.elapsed()
            );
            count += 1;
        }
    }
    assert!(count > 0, "no regression inputs");
    // Every target keeps at least one input, so each target's body runs in the test command.
    targets_run.sort();
    let mut want: Vec<String> = fuzz_glue::run::TARGETS.map(String::from).to_vec();
    want.sort();
    assert_eq!(targets_run, want, "targets with regression inputs");
}

/// The heap inputs open their image (the walk and the decoder run on them, not only the
/// input's parse).
#[test]
fn the_heap_seeds_reach_the_decoder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz-regressions");
    for (target, seed) in [
        ("heap_walk", "first-object-header-ff.bin"),
        ("value_render", "classical-word-ff.bin"),
    ] {
        let data = std::fs::read(root.join(target).join(seed)).expect("seed");
        let (fixture, heap) = fuzz_glue::heap_from_input(&data).expect("an image");
        let heap = heap.unwrap_or_else(|e| panic!("{target}/{seed}: {e}"));
        assert!(
            heap.walk().next().is_some(),
            "{target}/{seed} on {}",
            fixture.name
        );
    }
}

/// Every target has seeds, and they run through its body cleanly (the script targets' seeds
/// are the conformance scripts: every 16th of them, and every host script).
#[test]
fn every_targets_seeds_run_cleanly() {
    for target in fuzz_glue::run::TARGETS {
        let seeds = fuzz_glue::seeds(target);
        assert!(!seeds.is_empty(), "{target}: no seeds");
        let scripts = target.starts_with("script_");
        for (i, (name, data)) in seeds.into_iter().enumerate() {
            if scripts && i % 16 != 0 && !name.starts_with("host-") {
                continue;
            }
            let what = format!("{target}/{name}");
            let t = target.to_string();
            let known = std::thread::Builder::new()
                .stack_size(8 << 20)
                .spawn(move || fuzz_glue::run::target(&t, &data))
                .expect("thread")
                .join()
                .unwrap_or_else(|_| panic!("{what}: the target panicked"));
            assert!(known, "{what}: no such target");
        }
    }
}
