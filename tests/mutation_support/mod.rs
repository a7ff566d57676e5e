//! The mutation campaign's machinery (issue #7): fixture files and their maps, the mutator,
//! one run through the user paths, the runner with its watchdog and memory meter.

#![allow(dead_code)]

#[path = "../common/mod.rs"]
pub mod common;

#[path = "../../benches/support/mod.rs"]
pub mod cpu;

pub mod alloc;
pub mod exercise;
pub mod files;
pub mod mutate;
pub mod runner;

use files::Fixture;

/// Every committed fixture snapshot, loaded and mapped (`name/mode` labels, sorted);
/// `MO_MEM_MUTATION_FIXTURES` (comma-separated substrings of labels) narrows the set.
pub fn fixtures() -> Vec<Fixture> {
    let only: Vec<String> = std::env::var("MO_MEM_MUTATION_FIXTURES")
        .map(|v| v.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    common::all_fixtures()
        .into_iter()
        .filter(|(name, mode, _)| {
            let label = format!("{name}/{mode}");
            only.is_empty() || only.iter().any(|o| label.contains(o.as_str()))
        })
        .map(|(name, mode, dir)| Fixture::load(&format!("{name}/{mode}"), &dir))
        .chain(extra())
        .collect()
}

/// Snapshot directories named in `MO_MEM_MUTATION_EXTRA` (colon-separated), labelled by
/// their last two path components.
fn extra() -> Vec<Fixture> {
    let Ok(dirs) = std::env::var("MO_MEM_MUTATION_EXTRA") else {
        return Vec::new();
    };
    dirs.split(':')
        .filter(|d| !d.is_empty())
        .map(|d| {
            let path = std::path::Path::new(d);
            let label: Vec<String> = path
                .components()
                .rev()
                .take(2)
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            Fixture::load(&format!("{}/{}", label[1..].join(""), label[0]), path)
        })
        .collect()
}
