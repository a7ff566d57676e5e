//! Inputs found by fuzzing (and by the adversarial review of the script budgets) that once
//! crashed, hung or exhausted memory: each runs through its fuzz target's body again.
//! The inputs live in `tests/data/fuzz-regressions/<target>/`; the bodies are the fuzz
//! crate's glue (`fuzz/src/lib.rs`, module `run`), compiled into this test.

#[allow(dead_code)]
#[path = "../fuzz/src/lib.rs"]
mod fuzz_glue;

use std::path::Path;
use std::time::{Duration, Instant};

#[test]
fn every_regression_input_runs_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz-regressions");
    let mut count = 0;
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
}
