//! Shared test helpers: the committed fixture snapshots (`fixtures/snapshots/<name>/<mode>/`),
//! materialized once into `target/fixture-snapshots/<name>/<mode>` as plain icp-cli/dfx snapshot
//! directories (`fixtures.rs`, which the mutation campaign shares).

pub mod doc_examples;
mod fixtures;
pub mod machine;
pub mod skip;

pub use fixtures::*;

use std::path::{Path, PathBuf};

/// Where the fixtures of older compilers live: `fixtures/compilers` (`docs/fixtures.md`).
pub fn compilers_root() -> PathBuf {
    repo_root().join("fixtures").join("compilers")
}

/// Every committed fixture of an older compiler as `(name, mode)`, sorted.
pub fn compiler_fixtures() -> Vec<(String, String)> {
    fixtures::fixtures_under(&compilers_root())
}

/// The plain snapshot directory of an older compiler's fixture `name` in `mode`, materialized
/// into `<target>/fixture-snapshots/compilers/<name>/<mode>` like [`fixture`].
pub fn compiler_fixture(name: &str, mode: &str) -> PathBuf {
    fixtures::materialize_once(
        &compilers_root().join(name).join(mode),
        &materialized_root().join("compilers").join(name),
        mode,
    )
}

/// Every committed fixture as `(name, mode, materialized dir)`, sorted by name then mode.
pub fn all_fixtures() -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    for (name, mode) in committed_fixtures() {
        let dir = fixture(&name, &mode);
        out.push((name, mode, dir));
    }
    out
}

/// Whether mo-mem's `debug_show` text `got` is what a fixture's expected.json says. A cyclic
/// value (a doubly linked `mo:core/Queue`) has no text of its own (the canister's `debug_show`
/// would never end): fixtures expect the marker `<cyclic>`, and mo-mem prints a back-reference
/// `<cycle 0x...>` where the cycle closes.
pub fn debug_show_matches(expected: &str, got: &str) -> bool {
    expected == got || (expected == "<cyclic>" && got.contains("<cycle 0x"))
}

/// Runs `mo-mem ARGS`, which must succeed; its standard output.
pub fn mo_mem_ok(args: &[&str]) -> Vec<u8> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(args)
        .output()
        .expect("run mo-mem");
    assert!(
        out.status.success(),
        "mo-mem {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A private copy of the snapshot directory `from` in `to` (its regular files), for tests
/// that change them.
pub fn copy_snapshot(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}
