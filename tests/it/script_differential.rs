//! Differential testing: programs generated from the script subset run in mo-mem's engine
//! and in moc's own interpreter must print the same. A mismatch is shrunk to a minimal
//! program and reported (add it to `tests/conformance/` once fixed).
//!
//! CI runs a fixed seed at a small size; `scripts/differential COUNT SEED` runs more
//! (`MO_MEM_DIFF_PROGRAMS`, `MO_MEM_DIFF_SEED`, `MO_MEM_DIFF_STATEMENTS`).

use crate::differential_support;

fn env_or(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number")),
        Err(_) => default,
    }
}

#[test]
fn generated_programs_print_what_moc_prints() {
    let count = env_or("MO_MEM_DIFF_PROGRAMS", 150) as usize;
    let seed = env_or("MO_MEM_DIFF_SEED", 1);
    let statements = env_or("MO_MEM_DIFF_STATEMENTS", 12) as usize;
    let (valid, mismatches) = differential_support::campaign(seed, count, statements, 3);
    // the generator writes valid Motoko: most programs must type-check in moc
    assert!(
        valid * 10 >= count * 9,
        "moc accepted only {valid} of {count} programs"
    );
    if !mismatches.is_empty() {
        let report: Vec<String> = mismatches
            .iter()
            .map(|m| {
                format!(
                    "--- program\n{}--- moc\n{}--- mo-mem\n{}",
                    m.src, m.moc, m.mo_mem
                )
            })
            .collect();
        panic!(
            "{} of {count} programs (seed {seed}) differ; minimal programs:\n{}",
            mismatches.len(),
            report.join("\n")
        );
    }
    eprintln!("{count} programs (seed {seed}), {valid} valid in moc, all equal");
}

#[test]
fn generated_equality_checks_answer_what_moc_answers() {
    let count = env_or("MO_MEM_DIFF_PROGRAMS", 40) as usize;
    let seed = env_or("MO_MEM_DIFF_SEED", 1);
    let (valid, mismatches) = differential_support::equality_campaign(seed, count, 12, 3);
    assert!(
        valid * 10 >= count * 9,
        "moc accepted only {valid} of {count} programs"
    );
    let report: Vec<String> = mismatches
        .iter()
        .map(|m| {
            format!(
                "--- program\n{}--- moc\n{}--- mo-mem\n{}",
                m.src, m.moc, m.mo_mem
            )
        })
        .collect();
    assert!(
        mismatches.is_empty(),
        "{} of {count} equality programs (seed {seed}) differ; minimal programs:\n{}",
        mismatches.len(),
        report.join("\n")
    );
}

/// Shrinks the programs named in `MO_MEM_DIFF_SHRINK` (paths, separated by spaces; one
/// statement a line, as the generator writes them, e.g. from `MO_MEM_DIFF_DUMP`) and prints
/// each minimal program with moc's and mo-mem's outputs. Does nothing without the variable.
#[test]
fn shrink_given_programs() {
    let Ok(paths) = std::env::var("MO_MEM_DIFF_SHRINK") else {
        return;
    };
    for path in paths.split_whitespace() {
        let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let statements: Vec<String> = src.lines().map(str::to_string).collect();
        let m = differential_support::shrink(statements, differential_support::gen::IMPORTS);
        eprintln!(
            "=== {path}\n--- program\n{}--- moc\n{}--- mo-mem\n{}",
            m.src, m.moc, m.mo_mem
        );
    }
}
