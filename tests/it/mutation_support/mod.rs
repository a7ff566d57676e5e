//! The mutation campaign's machinery (issue #7): fixture files and their maps, the mutator,
//! one run through the user paths, the runner with its watchdog and memory meter.

pub(crate) use crate::common;

pub(crate) use crate::cpu;

pub mod alloc;
pub mod exercise;
pub mod files;
pub mod mutate;
pub mod runner;

use files::Fixture;

/// Every committed fixture snapshot, loaded and mapped (`name/mode` labels, sorted);
/// `MO_MEM_MUTATION_FIXTURES` (comma-separated substrings of labels, or `none` for only the
/// `MO_MEM_MUTATION_EXTRA` snapshots) narrows the set. An empty entry, or one that matches no
/// fixture (a typo), fails: a filter never quietly selects less than it names.
pub fn fixtures() -> Vec<Fixture> {
    check_variables();
    let committed = common::committed_fixtures();
    let labels: Vec<String> = committed.iter().map(|(n, m)| format!("{n}/{m}")).collect();
    let only: Option<Vec<String>> = std::env::var("MO_MEM_MUTATION_FIXTURES")
        .ok()
        .map(|v| v.split(',').map(|o| o.trim().to_string()).collect());
    let selected: Vec<&String> = match only.as_deref() {
        None => labels.iter().collect(),
        Some([none]) if none == "none" => Vec::new(),
        Some(only) => {
            for o in only {
                assert!(
                    !o.is_empty() && labels.iter().any(|l| l.contains(o.as_str())),
                    "MO_MEM_MUTATION_FIXTURES: {o:?} matches no fixture (fixtures: {labels:?}; \
                     `none` selects only MO_MEM_MUTATION_EXTRA)"
                );
            }
            labels
                .iter()
                .filter(|l| only.iter().any(|o| l.contains(o.as_str())))
                .collect()
        }
    };
    selected
        .into_iter()
        .map(|label| {
            let (name, mode) = label.split_once('/').expect("name/mode");
            Fixture::load(label, &common::fixture(name, mode))
        })
        .chain(extra())
        .collect()
}

/// The campaign's variables; any other `MO_MEM_MUTA*` variable (a misspelt one) fails.
pub const VARIABLES: [&str; 12] = [
    "MO_MEM_MUTANTS",
    "MO_MEM_MUTATION_TRUNCATIONS",
    "MO_MEM_MUTATION_SEED",
    "MO_MEM_MUTATION_THREADS",
    "MO_MEM_MUTATION_RUN_SECS",
    "MO_MEM_MUTATION_CASE",
    "MO_MEM_MUTATION_PROGRESS_SECS",
    "MO_MEM_MUTATION_MODES",
    "MO_MEM_MUTATION_FILES",
    "MO_MEM_MUTATION_FIXTURES",
    "MO_MEM_MUTATION_EXTRA",
    "MO_MEM_MUTATION_TIMING",
];

/// Fails on a set variable that looks like the campaign's but is none of [`VARIABLES`].
pub fn check_variables() {
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("MO_MEM_MUTA") && !VARIABLES.contains(&name.as_ref()) {
            panic!("{name}: not a variable of the mutation campaign (known: {VARIABLES:?})");
        }
    }
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
            assert!(
                path.join("metadata.json").is_file(),
                "MO_MEM_MUTATION_EXTRA: {d} is not a snapshot directory (no metadata.json)"
            );
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
