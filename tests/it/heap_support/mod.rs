//! Snapshots for the heap tests: every committed fixture (materialized by `tests/it/common`),
//! every on-demand fixture already generated under `target/fixture-snapshots` (e.g. `big`) but
//! those the tests generate themselves (`common::GENERATED_BY_TESTS`: `big-small`, checked by
//! its own tests; whether it is there would depend on which test ran first),
//! plus any directory listed in `MOMEM_EXTRA_SNAPSHOTS` (colon-separated).

pub(crate) use crate::common;
pub mod files;

use std::path::PathBuf;

/// `(label, snapshot dir)` of every snapshot available to the tests.
pub fn snapshots() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = common::all_fixtures()
        .into_iter()
        .map(|(name, mode, dir)| (format!("{name}/{mode}"), dir))
        .collect();
    let known: std::collections::HashSet<String> = out.iter().map(|(l, _)| l.clone()).collect();
    // On-demand fixtures (never committed) that a generator already wrote.
    let generated = common::materialized_root();
    if let Ok(names) = std::fs::read_dir(&generated) {
        let mut dirs: Vec<(String, PathBuf)> = names
            .flatten()
            .flat_map(|n| std::fs::read_dir(n.path()).into_iter().flatten().flatten())
            // Not a materialization still being written (`<mode>.tmp-<pid>-<n>`, renamed
            // into place when complete).
            .filter(|m| !m.file_name().to_string_lossy().contains(".tmp-"))
            .filter(|m| m.path().join("metadata.json").exists())
            .filter_map(|m| {
                let mode = m.file_name().to_string_lossy().into_owned();
                let name = m
                    .path()
                    .parent()?
                    .file_name()?
                    .to_string_lossy()
                    .into_owned();
                Some((format!("{name}/{mode}"), m.path()))
            })
            .filter(|(l, _)| !known.contains(l))
            .filter(|(l, _)| {
                let name = l.split('/').next().unwrap_or_default();
                !common::GENERATED_BY_TESTS.contains(&name)
            })
            .collect();
        dirs.sort();
        out.extend(dirs);
    }
    // The older compilers' fixtures whose layout this build reads (the refused ones are
    // checked by `compiler_fixtures`).
    for (name, mode) in common::compiler_fixtures() {
        let dir = common::compiler_fixture(&name, &mode);
        let module = std::fs::read(dir.join("wasm_module.bin")).expect("wasm_module.bin");
        if mo_mem::module::ModuleFacts::parse(&module).is_ok() {
            out.push((format!("{name}/{mode}"), dir));
        }
    }
    if let Ok(extra) = std::env::var("MOMEM_EXTRA_SNAPSHOTS") {
        for dir in extra.split(':').filter(|s| !s.is_empty()) {
            out.push((dir.to_string(), PathBuf::from(dir)));
        }
    }
    assert!(!out.is_empty(), "no fixture snapshots found");
    out
}
