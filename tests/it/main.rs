//! The integration tests as one binary: each file here is a module (`cargo test --test it
//! mount::` runs the tests of `mount.rs`), the folders are the helpers they share. One binary
//! links the crate once instead of once per file. `tests/mutation_campaign.rs` stays a binary
//! of its own: it installs a counting global allocator and a panic hook for the whole process
//! (the campaign's regressions and machinery, `mutation_*`, are compiled there only).

mod common;
#[path = "../../benches/support/mod.rs"]
mod cpu;
mod differential_support;
mod emulator;
#[path = "emulator/harness.rs"]
mod emulator_harness;
mod faults_support;
mod heap_support;
mod mount_support;

mod analysis_diff;
mod analysis_diff_collections;
mod analysis_diff_keys;
mod analysis_export;
mod analysis_flame;
mod analysis_flame_fold;
mod analysis_path;
mod analysis_report;
mod analysis_retained;
mod analysis_types;
mod big_fixture;
mod call_cli;
mod call_json;
mod cli_paths;
mod collections_natural;
mod compiler_fixtures;
mod doctor;
mod download_state;
mod eop_stable_actor;
mod eval_canister;
mod eval_cli;
mod eval_host;
mod eval_host_docs;
mod eval_jobs;
mod eval_mount;
mod eval_null_collection;
mod eval_siblings;
mod eval_structures;
mod export_readback;
mod faults_mount;
mod faults_pull;
mod fixture_determinism;
mod formats_docs;
mod fuzz_regressions;
mod heap_hostile;
mod heap_walk;
mod heap_walk_parallel;
mod heap_walk_quick;
mod ic_cli;
mod ic_emulator;
mod ic_fixture;
mod json_schemas;
mod layers;
mod mcp_server;
mod module_stripped;
mod mount;
mod mount_analysis;
mod mount_budget;
mod mount_diff;
mod mount_docs;
mod mount_eval_busy;
mod mount_fixtures;
mod mount_keyed_lookup;
mod mount_load;
mod mount_memory;
mod mount_methods;
mod mount_passthrough;
mod mount_paths;
mod mount_symlinks;
mod mount_trust;
mod object_blocks;
mod object_cli;
mod render_one;
mod render_stream;
mod report_html;
mod restore_mapped;
mod runtime;
mod script_adversarial;
mod script_cli;
mod script_conformance;
mod script_differential;
mod script_direct_read;
mod script_docs;
mod script_engine;
mod script_equality;
mod script_fast_paths;
mod serve;
mod upgrade_cli;
mod value_limit_cli;
mod vars_fixtures;
mod vars_hostile;
