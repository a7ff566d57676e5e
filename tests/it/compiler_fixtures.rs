//! The fixtures of older compilers (`fixtures/compilers/<name>/<mode>/`, the `legacy` canister
//! compiled by each npm `motoko` release in `scripts/package.json`, `floats-*`, NaNs as each
//! release's RTS prints them, and `weak-0-16`, weak
//! references on moc 0.16.1's heap; see docs/fixtures.md): the
//! module names its compiler release exactly (`info`), and a release whose layout this build
//! does not read is refused with its name, its mode and the reason, never decoded; every
//! fixture of a release this build reads decodes to the canister's own `debug_show`, variable
//! by variable.

use crate::common;

use std::process::Command;

use mo_mem::module::{MocVersion, ModuleError, ModuleFacts};

/// One older compiler's fixture: its name, the `motoko:compiler` build id, the compiler's name
/// as mo-mem says it, and the reason of the refusal (None: read), for every mode and for the
/// incremental GC's.
struct Release {
    fixture: &'static str,
    build_id: &'static str,
    name: &'static str,
    refusal: Option<&'static str>,
    incremental_refusal: Option<&'static str>,
    /// The committed modes, sorted (every mode its JS API selects, plus `copying-forcegc`, and
    /// `eop-forcegc` where it builds EOP).
    modes: &'static [&'static str],
}

impl Release {
    /// Why this build refuses the fixture's `mode` (None: it reads it).
    fn refusal(&self, mode: &str) -> Option<&'static str> {
        match mode {
            "incremental" => self.refusal.or(self.incremental_refusal),
            _ => self.refusal,
        }
    }
}

const RELEASES: &[Release] = &[
    Release {
        fixture: "legacy-0-7",
        build_id: "csid3m3s-a93lcj51-ip98pbqz-2wdfwxmz",
        name: "moc 0.7.3+ (npm motoko 3.1.1)",
        refusal: None,
        incremental_refusal: None,
        modes: &["compacting", "copying", "copying-forcegc", "generational"],
    },
    Release {
        fixture: "legacy-0-8",
        build_id: "r24p13s3-k2qqapi1-lxrlansx-1v6kah7n",
        name: "moc 0.8.7 (npm motoko 3.5.6)",
        refusal: None,
        incremental_refusal: None,
        modes: &["compacting", "copying", "copying-forcegc", "generational"],
    },
    Release {
        fixture: "legacy-0-9",
        build_id: "1x84k71d-7bjj7zv7-ln6g0s34-zwphjydx",
        name: "moc 0.9.6 (npm motoko 3.6.4)",
        refusal: None,
        incremental_refusal: None,
        modes: &[
            "compacting",
            "copying",
            "copying-forcegc",
            "generational",
            "incremental",
        ],
    },
    Release {
        fixture: "legacy-0-11",
        build_id: "7ra5fjay-1viyqi4f-nl0y8jc2-r1qml17f",
        name: "moc 0.11.1+ (npm motoko 3.6.16)",
        refusal: None,
        incremental_refusal: None,
        modes: &[
            "compacting",
            "copying",
            "copying-forcegc",
            "generational",
            "incremental",
        ],
    },
    Release {
        fixture: "legacy-0-12",
        build_id: "kpynwl5w-kdsn43c3-5q9zkg9p-wyy89ifa",
        name: "moc 0.12.1 (npm motoko 3.8.1)",
        refusal: None,
        incremental_refusal: None,
        modes: &[
            "compacting",
            "copying",
            "copying-forcegc",
            "generational",
            "incremental",
        ],
    },
    Release {
        fixture: "legacy-0-13",
        build_id: "drmdjj1k-varm6f3c-v17kjgpk-0w8fl12f",
        name: "moc 0.13.2 (npm motoko 3.8.4)",
        refusal: None,
        incremental_refusal: None,
        modes: &["copying", "copying-forcegc"],
    },
    Release {
        fixture: "legacy-0-14",
        build_id: "fjsknwg3-3r2l6qvz-gs5iyqbc-ka22ysfy",
        name: "moc 0.14.10+ (npm motoko 3.13.0)",
        refusal: None,
        incremental_refusal: None,
        modes: ALL_MODES,
    },
    Release {
        fixture: "legacy-0-15",
        build_id: "5y0ykh2b-43whjhl3-qin3zj0c-94zb428g",
        name: "moc 0.15.1 (npm motoko 3.14.0)",
        refusal: None,
        incremental_refusal: None,
        modes: ALL_MODES,
    },
    Release {
        fixture: "legacy-0-16",
        build_id: "w5yjzr5v-0rx34pcf-l552h4a7-7n2wcrmv",
        name: "moc 0.16.1 (npm motoko 3.14.3)",
        refusal: None,
        incremental_refusal: None,
        modes: ALL_MODES,
    },
    // The `floats` canister (NaNs of both signs, the RTS's Float formatting) on the first
    // read release, the last classical one formatting with musl's `snprintf`, and the first
    // `persistent actor` one (Rust's formatting, EOP and classical).
    Release {
        fixture: "floats-0-7",
        build_id: "csid3m3s-a93lcj51-ip98pbqz-2wdfwxmz",
        name: "moc 0.7.3+ (npm motoko 3.1.1)",
        refusal: None,
        incremental_refusal: None,
        modes: &["copying"],
    },
    Release {
        fixture: "floats-0-13",
        build_id: "drmdjj1k-varm6f3c-v17kjgpk-0w8fl12f",
        name: "moc 0.13.2 (npm motoko 3.8.4)",
        refusal: None,
        incremental_refusal: None,
        modes: &["copying"],
    },
    Release {
        fixture: "floats-0-14",
        build_id: "fjsknwg3-3r2l6qvz-gs5iyqbc-ka22ysfy",
        name: "moc 0.14.10+ (npm motoko 3.13.0)",
        refusal: None,
        incremental_refusal: None,
        modes: &["copying", "eop"],
    },
    // The `weak` canister on the first release with weak references (WeakRef tag 45).
    Release {
        fixture: "weak-0-16",
        build_id: "w5yjzr5v-0rx34pcf-l552h4a7-7n2wcrmv",
        name: "moc 0.16.1 (npm motoko 3.14.3)",
        refusal: None,
        incremental_refusal: None,
        modes: &["eop", "eop-forcegc"],
    },
    Release {
        fixture: "legacy-1-3",
        build_id: "xddq7rjv-y8vabchk-yj53pv2j-shfimzb2",
        name: "moc 1.3.0 (npm motoko 3.20.0, 4.0.0)",
        refusal: None,
        incremental_refusal: None,
        modes: ALL_MODES,
    },
];

/// The modes of a release whose JS API selects EOP and the four classical GCs.
const ALL_MODES: &[&str] = &[
    "compacting",
    "copying",
    "copying-forcegc",
    "eop",
    "eop-forcegc",
    "generational",
    "incremental",
];

/// The releases before moc 0.13 whose JS API selects the incremental GC, and the offset of the partition
/// records in the RTS's `RefCell<State>` static (S) as each build's `get_heap_size` reads them:
/// `dynamic_size` at S + offset + 12 + 28·index (0.9.6's `PartitionedHeap` has no
/// `evacuated_size`, so its records start 4 bytes earlier).
const INCREMENTAL: &[(&str, u64)] = &[("legacy-0-9", 36), ("legacy-0-11", 40), ("legacy-0-12", 40)];

/// The packed releases before moc 0.13 with the incremental GC and their records' offset in S.
/// moc 0.9.1+ (npm 3.6.0) and 0.9.2 (3.6.1) have no `precomputed_heap_size`: their
/// `get_heap_size` sums `static_size` + `dynamic_size` over all 127 records, which start at
/// S+16 and S+32.
const PACKED_INCREMENTAL: &[(&str, u64)] = &[
    ("npm-3.6.0", 16),
    ("npm-3.6.1", 32),
    ("npm-3.6.13", 40),
    ("npm-3.6.14", 40),
];

fn release(fixture: &str) -> &'static Release {
    RELEASES
        .iter()
        .find(|r| r.fixture == fixture)
        .unwrap_or_else(|| panic!("fixture {fixture} is not in RELEASES"))
}

/// `moc …, classical, copying GC` for a fixture mode (`copying-forcegc` is copying; `eop` is
/// enhanced orthogonal persistence with the incremental GC).
fn summary(r: &Release, mode: &str) -> String {
    summary_of(r.name, mode)
}

/// [`summary`] of the compiler named `name`.
fn summary_of(name: &str, mode: &str) -> String {
    match mode.strip_suffix("-forcegc").unwrap_or(mode) {
        "eop" => format!("{name}, enhanced orthogonal persistence, incremental GC"),
        gc => format!("{name}, classical, {gc} GC"),
    }
}

/// Whether the fixture's compiler is older than moc 0.13 (the layouts of the `legacy` eras).
fn before_0_13(fixture: &str) -> bool {
    matches!(
        fixture,
        "legacy-0-7" | "legacy-0-8" | "legacy-0-9" | "legacy-0-11" | "legacy-0-12" | "floats-0-7"
    )
}

#[test]
fn every_release_and_mode_is_committed() {
    let all = common::compiler_fixtures();
    for r in RELEASES {
        let modes: Vec<&str> = all
            .iter()
            .filter(|(n, _)| n == r.fixture)
            .map(|(_, m)| m.as_str())
            .collect();
        assert_eq!(modes, r.modes, "{}: committed modes", r.fixture);
        let incremental_before_0_13 = INCREMENTAL.iter().any(|(f, _)| *f == r.fixture);
        assert_eq!(
            incremental_before_0_13,
            before_0_13(r.fixture) && r.modes.contains(&"incremental"),
            "{}: INCREMENTAL",
            r.fixture
        );
    }
    for (name, _) in &all {
        release(name);
    }
}

#[test]
fn each_module_names_its_release_and_mode_and_unread_ones_are_refused_by_name() {
    for (name, mode) in common::compiler_fixtures() {
        let r = release(&name);
        let dir = common::compiler_fixture(&name, &mode);
        let expected: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap())
                .unwrap();
        assert_eq!(expected["compiler"], r.build_id, "{name}/{mode}");
        let wasm = std::fs::read(dir.join("wasm_module.bin")).unwrap();
        match (ModuleFacts::parse(&wasm), r.refusal(&mode)) {
            (Err(ModuleError::UnsupportedCompiler { compiler, reason }), Some(want)) => {
                assert_eq!(compiler, summary(r, &mode), "{name}/{mode}");
                assert_eq!(reason, want, "{name}/{mode}");
            }
            (Ok(facts), None) if !before_0_13(&name) => {
                assert_eq!(facts.compiler_summary(), summary(r, &mode), "{name}/{mode}");
                // moc >= 0.13: the heap end is the `__get_hp` global (classical, but for the
                // incremental GC's partition table in the RTS's state); EOP has its
                // persistent metadata; the 0.16 RTS has weak references, the 1.0 one the
                // dedup table, in EOP builds only (classical ones have no use for them).
                let eop = mode.starts_with("eop");
                let incremental = mode == "incremental";
                assert_eq!(
                    (
                        facts.hp_mutable_index.is_some(),
                        facts.statics.heap_pointer.is_some(),
                        facts.statics.legacy_partitions.is_some(),
                        facts.statics.gc_state.is_some(),
                    ),
                    (!eop && !incremental, false, false, incremental),
                    "{name}/{mode}"
                );
                let at_least = |a, b, c| facts.moc.release >= Some(MocVersion::new(a, b, c));
                assert_eq!(
                    (facts.has_weak_refs, facts.has_dedup_table),
                    (eop && at_least(0, 16, 0), eop && at_least(1, 0, 0)),
                    "{name}/{mode}"
                );
                assert_eq!(facts.heap_base % 32, 0, "{name}/{mode}");
            }
            (Ok(facts), None) => {
                assert_eq!(facts.compiler_summary(), summary(r, &mode), "{name}/{mode}");
                // The heap end: the `_HP` global of `__get_hp` (moc >= 0.9.5), else the RTS's
                // `HP` static that `get_heap_size` reads (0.7.3+, 0.8.7), never both; the
                // incremental GC has neither but its partition table, confirmed from its RTS.
                let old_hp = matches!(name.as_str(), "legacy-0-7" | "legacy-0-8" | "floats-0-7");
                let incremental = mode == "incremental";
                assert_eq!(
                    (
                        facts.hp_mutable_index.is_some(),
                        facts.statics.heap_pointer.is_some(),
                        facts.statics.legacy_partitions.is_some(),
                    ),
                    (!old_hp && !incremental, old_hp, incremental),
                    "{name}/{mode}"
                );
                // The dynamic heap of moc < 0.9 with the copying GC starts at the unaligned
                // `__heap_base` (the RTS's `init(false)`); every other at it rounded up to 32.
                assert_eq!(
                    facts.heap_base % 32 != 0,
                    old_hp && mode.starts_with("copying"),
                    "{name}/{mode}: heap base {:#x}",
                    facts.heap_base
                );
            }
            (other, _) => panic!("{name}/{mode}: {other:?}"),
        }
        // The CLI says the same: `info` names the release (or refuses it by name).
        let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .arg("info")
            .arg(&dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        match r.refusal(&mode) {
            Some(reason) => {
                assert!(!out.status.success(), "{name}/{mode}: info succeeded");
                let want = format!("{}: {reason}", summary(r, &mode));
                assert!(stderr.contains(&want), "{name}/{mode}: {stderr}");
                assert!(!stderr.contains("unsupported Motoko layout"), "{stderr}");
            }
            None => {
                assert!(out.status.success(), "{name}/{mode}: {stderr}");
                let want = format!("built by:        {}", summary(r, &mode));
                assert!(stdout.contains(&want), "{name}/{mode}: {stdout}");
            }
        }
    }
}

#[test]
fn version_lists_every_known_release() {
    let out = common::mo_mem_ok(&["version"]);
    let text = String::from_utf8(out).unwrap();
    for (npm, moc, verdict) in [
        ("0.1.0", "0.6.29+", "refused"),
        ("2.0.3", "0.6.29+", "refused"),
        ("3.0.0", "0.7.0+", "read"),
        ("3.0.1", "0.7.3+", "read"),
        ("3.1.1", "0.7.3+", "read"),
        ("3.5.6", "0.8.7", "read"),
        ("3.6.0", "0.9.1+", "read"),
        ("3.6.1", "0.9.2", "read"),
        ("3.6.4", "0.9.6", "read"),
        ("3.6.16", "0.11.1+", "read"),
        ("3.8.1", "0.12.1", "read"),
        ("3.8.4", "0.13.2", "read"),
        ("3.13.0", "0.14.10+", "read"),
        ("3.14.0", "0.15.1", "read"),
        ("3.14.3", "0.16.1", "read"),
        ("3.20.0", "1.3.0", "read"),
        ("4.10.0", "1.10.1", "read"),
    ] {
        assert!(
            text.lines().any(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                w.len() > 3 && w[0] == npm && w[2] == moc && w[3] == verdict
            }),
            "no line for npm {npm}: {text}"
        );
    }
    // Each release names its committed fixture of the `legacy` canister.
    for r in RELEASES.iter().filter(|r| r.fixture.starts_with("legacy-")) {
        let npm = r
            .name
            .split("(npm motoko ")
            .nth(1)
            .and_then(|t| t.strip_suffix(')'))
            .and_then(|t| t.split(", ").next())
            .unwrap();
        let checked = format!("checked: fixtures/compilers/{}", r.fixture);
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().next() == Some(npm) && l.ends_with(&checked)),
            "no line for npm {npm} ending in `{checked}`: {text}"
        );
    }
}

/// Every fixture of an older compiler that this build reads decodes, variable by variable, to
/// the canister's own `debug_show` (its `expected.json`), as `tests/it/vars_fixtures.rs` checks
/// today's; and `mo-mem vars` prints exactly those texts. Every release and mode of
/// [`RELEASES`] that is not refused is here: moc 0.7.3+, 0.8.7, 0.9.6, 0.11.1+ and 0.12.1 with
/// the copying, compacting and generational GCs, and 0.9.6, 0.11.1+ and 0.12.1 with the
/// incremental GC; 0.13.2 with the copying GC; 0.14.10+, 0.15.1, 0.16.1 and 1.3.0 in EOP and
/// with the four classical GCs.
#[test]
fn every_read_older_compiler_fixture_decodes_to_its_expected_values() {
    use crate::vars_fixtures::{decoded_vars, expected_vars};
    let mut read = Vec::new();
    let mut failures = Vec::new();
    for (name, mode) in common::compiler_fixtures() {
        if release(&name).refusal(&mode).is_some() {
            continue;
        }
        read.push(format!("{name}/{mode}"));
        let dir = common::compiler_fixture(&name, &mode);
        let want = expected_vars(&dir);
        let got = decoded_vars(&dir).unwrap_or_else(|e| panic!("{name}/{mode}: {e}"));
        let canister_vars = match name.split_once('-').map_or("", |(family, _)| family) {
            "legacy" => 56,
            "floats" => 8,
            _ => 7,
        };
        assert_eq!(
            want.len(),
            canister_vars,
            "{name}/{mode}: the canister's variables"
        );
        for (var, text) in &want {
            match got.get(var) {
                Some(t) if t == text => {}
                Some(t) => failures.push(format!(
                    "{name}/{mode}: `{var}`\n  expected: {text}\n  decoded:  {t}"
                )),
                None => failures.push(format!("{name}/{mode}: `{var}` not decoded")),
            }
        }
        for var in got.keys().filter(|k| !want.contains_key(*k)) {
            failures.push(format!("{name}/{mode}: `{var}` decoded but not expected"));
        }
        let printed: String = want.iter().map(|(k, v)| format!("{k} = {v}\n")).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
            .args(["vars", &dir.to_string_lossy(), "--format", "motoko"])
            .output()
            .expect("run mo-mem");
        if String::from_utf8_lossy(&out.stdout) != printed {
            failures.push(format!(
                "{name}/{mode}: `mo-mem vars` differs: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let mut want_read = Vec::new();
    let mut fixtures: Vec<&Release> = RELEASES.iter().collect();
    fixtures.sort_by_key(|r| r.fixture);
    for r in fixtures {
        for mode in r.modes {
            want_read.push(format!("{}/{mode}", r.fixture));
        }
    }
    assert_eq!(read, want_read, "the older fixtures this build reads");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The runner runs every older compiler's module: re-running each fixture's scenario on its
/// committed module reproduces its main memory and the canister's own `dump` byte for byte.
#[test]
fn rerunning_each_older_compilers_scenario_reproduces_its_fixture() {
    use mo_mem::runtime::scenario::{run_scenario, write_snapshot_dir, Scenario};
    use mo_mem::runtime::RuntimeConfig;
    use std::io::Read;

    let tmp = tempfile::tempdir().unwrap();
    for (name, mode) in common::compiler_fixtures() {
        let committed = common::compilers_root().join(&name).join(&mode);
        let scenario = Scenario::read(
            &common::repo_root()
                .join("motoko/fixtures")
                .join(&name)
                .join("scenario.json"),
        )
        .unwrap();
        assert_eq!(
            scenario.compiler.as_deref(),
            name.split_once('-')
                .map(|(_, release)| format!("motoko-{release}"))
                .as_deref(),
            "{name}: scenario.json names its compiler"
        );
        let wasm = std::fs::read(committed.join("wasm_module.bin.gz")).unwrap();
        let expected = std::fs::read(committed.join("expected.json")).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&expected).unwrap();
        let files = run_scenario(
            &wasm,
            &scenario,
            &name,
            &mode,
            json["compiler"].as_str(),
            RuntimeConfig::default(),
        )
        .unwrap_or_else(|e| panic!("{name}/{mode}: {e}"));
        let out = tmp.path().join(&name).join(&mode);
        write_snapshot_dir(&out, &files, false).unwrap();
        assert!(
            std::fs::read(out.join("expected.json")).unwrap() == expected,
            "{name}/{mode}: expected.json differs from a fresh run"
        );
        let mut memory = Vec::new();
        flate2::read::GzDecoder::new(
            std::fs::File::open(committed.join("wasm_memory.bin.gz")).unwrap(),
        )
        .read_to_end(&mut memory)
        .unwrap();
        assert!(
            std::fs::read(out.join("wasm_memory.bin")).unwrap() == memory,
            "{name}/{mode}: main memory differs from a fresh run"
        );
    }
}

/// The incremental GC of moc < 0.13 (0.9.1+, 0.9.2, 0.9.6, 0.11.0, 0.11.1, 0.11.1+, 0.12.1): the
/// partition table found through the RTS code is the one the canister's own `get_heap_size`
/// reads. Its formula (the Wasm of `get_heap_size`: `precomputed_heap_size` at S+32 plus
/// `dynamic_size` at S+52+28·index, index `allocation_index` at S+20; 0.9.6: S+48+28·index;
/// 0.9.1+ and 0.9.2: the sum of every record's static and dynamic size), evaluated on the raw
/// image, equals the occupied size summed over the decoded records (static plus dynamic space
/// of every partition in use); the walk covers exactly the dynamic space of the partitions in
/// use and nothing of the free ones.
#[test]
fn old_incremental_partition_tables_agree_with_the_canisters_get_heap_size() {
    use mo_mem::heap::Heap;
    use mo_mem::image::ReaderLimits;
    use mo_mem::snapshot::Snapshot;

    let dirs = INCREMENTAL
        .iter()
        .map(|&(name, at)| (name, at, common::compiler_fixture(name, "incremental")))
        .chain(PACKED_INCREMENTAL.iter().map(|&(name, at)| {
            (
                name,
                at,
                common::packed_compiler_fixture(name, "incremental"),
            )
        }));
    for (name, records_in_state, dir) in dirs {
        let heap = Heap::open(Snapshot::open(&dir).unwrap(), ReaderLimits::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let table = heap
            .module()
            .unwrap()
            .statics
            .legacy_partitions
            .expect("the table of moc < 0.13");
        let image = heap.image();
        let u32_at = |a: u64| u64::from(image.read_u32(a).unwrap());
        // The canister's own formula, on the raw image (S = records - records_in_state).
        let s = table.records - records_in_state;
        let heap_size = if records_in_state < 36 {
            // moc 0.9.1+, 0.9.2: the sum over all 127 records.
            (0..127u64)
                .map(|i| {
                    u32_at(s + records_in_state + 28 * i + 8)
                        + u32_at(s + records_in_state + 28 * i + 12)
                })
                .sum()
        } else {
            let index = u32_at(s + 20);
            assert!(index < 127, "{name}: allocation index {index}");
            u32_at(s + 32) + u32_at(s + records_in_state + 12 + 28 * index)
        };
        // The decoded records: 127, each with its index.
        let mut occupied = 0;
        let mut used = Vec::new();
        for i in 0..127u64 {
            let at = table.records + 28 * i;
            assert_eq!(u32_at(at), i, "{name}: record {i}'s index");
            let (free, temporary) = (
                image.read_u8(at + 20).unwrap(),
                image.read_u8(at + 22).unwrap(),
            );
            let (static_size, dynamic_size) = (u32_at(at + 8), u32_at(at + 12));
            if free == 0 {
                occupied += static_size + dynamic_size;
            }
            if free == 0 && temporary == 0 && dynamic_size > 0 {
                let start = i * (32 << 20) + static_size;
                used.push((start, start + dynamic_size));
            }
        }
        assert_eq!(occupied, heap_size, "{name}: get_heap_size");
        let ranges: Vec<(u64, u64)> = heap.ranges().iter().map(|r| (r.start, r.end)).collect();
        assert_eq!(ranges, used, "{name}: the walked ranges");
        assert!(heap
            .ranges()
            .iter()
            .all(|r| r.partition.is_some_and(|p| !p.free)));
        assert_eq!(ranges[0].0, heap.layout().heap_base, "{name}: partition 0");
        // The walk ends exactly at each range's end and finds every block.
        let mut blocks = 0u64;
        let mut bytes = 0u64;
        for block in heap.walk() {
            let block = block.unwrap_or_else(|e| panic!("{name}: {e}"));
            blocks += 1;
            bytes += block.size;
        }
        let want: u64 = used.iter().map(|(a, b)| b - a).sum();
        assert_eq!(bytes, want, "{name}: bytes walked");
        assert!(blocks > 50, "{name}: {blocks} blocks");
        assert_eq!(
            heap.gc_phase(),
            Some(1),
            "{name}: the GC pauses between messages"
        );
    }
}

/// Every npm `motoko` release from 3.0.0 (moc 0.7) to 4.10.0 (`npm view motoko versions`,
/// 2026-12-03; before it only 0.1.0 and 2.0.3, both moc 0.6.29+, refused by name).
const NPM_RELEASES: &[&str] = &[
    "3.0.0", "3.0.1", "3.1.0", "3.1.1", "3.5.4", "3.5.6", "3.6.0", "3.6.1", "3.6.4", "3.6.13",
    "3.6.14", "3.6.16", "3.8.1", "3.8.2", "3.8.4", "3.9.1", "3.9.3", "3.9.6", "3.9.7", "3.11.1",
    "3.11.2", "3.11.3", "3.12.0", "3.12.1", "3.13.0", "3.14.0", "3.14.3", "3.14.6", "3.15.0",
    "3.17.1", "3.20.0", "4.0.0", "4.10.0",
];

/// docs/formats.md's table of every npm release and `KNOWN_BUILDS` agree: each release from
/// 3.0.0 to 4.10.0 has its row, with the build id, the moc and the evidence (committed
/// fixture, or the date of `scripts/check-releases`) the build knows, and each is read.
#[test]
fn the_docs_table_of_npm_releases_agrees_with_the_known_builds() {
    use mo_mem::module::{Compiler, EraProbes, Evidence, KNOWN_BUILDS};
    let docs = std::fs::read_to_string(common::repo_root().join("docs/formats.md")).unwrap();
    let table = docs
        .split("### Every npm release from 3.0.0 on")
        .nth(1)
        .expect("docs/formats.md: the table of every npm release");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .skip_while(|l| !l.starts_with("| npm"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    let mut seen = Vec::new();
    for row in &rows {
        assert_eq!(row.len(), 6, "{row:?}");
        let id = row[2].trim_matches('`');
        let b = KNOWN_BUILDS
            .iter()
            .find(|b| b.build_id == id)
            .unwrap_or_else(|| panic!("{row:?}: build id not in KNOWN_BUILDS"));
        let npm: Vec<&str> = std::iter::once(b.npm)
            .chain(b.also_npm.iter().copied())
            .collect();
        assert_eq!(row[0].split(", ").collect::<Vec<_>>(), npm, "{row:?}");
        let moc = format!("{}{}", b.moc, if b.after { "+" } else { "" });
        assert_eq!(row[1], moc, "{row:?}");
        let evidence = match b.evidence {
            Evidence::Fixture(f) => format!("`fixtures/{f}`"),
            Evidence::CheckReleases { date, .. } => format!("scripts/check-releases {date}"),
        };
        assert_eq!(row[5], evidence, "{row:?}");
        assert_eq!(
            Compiler::detect(Some(id), EraProbes::default()).refusal(),
            None,
            "{row:?}"
        );
        assert!(!row[3].is_empty() && row[3] != "–", "{row:?}: no mode read");
        seen.extend(npm);
    }
    assert_eq!(seen, NPM_RELEASES, "the table's releases, oldest first");
    let known: usize = KNOWN_BUILDS.iter().map(|b| 1 + b.also_npm.len()).sum();
    assert_eq!(known, NPM_RELEASES.len(), "every known build has its row");
}

/// The modes `scripts/check-releases` compiles for npm release `npm` (its `modes_of`): every
/// mode the release's JS API selects, `copying-forcegc`, and `eop-forcegc` where it builds EOP.
fn modes_of(npm: &str) -> Vec<&'static str> {
    let v = MocVersion::parse(npm).unwrap();
    let at = |a, b, c| v >= MocVersion::new(a, b, c);
    let mut modes = if at(3, 11, 0) {
        ALL_MODES.to_vec()
    } else if at(3, 8, 2) {
        vec!["copying", "copying-forcegc"]
    } else if at(3, 6, 0) {
        vec![
            "compacting",
            "copying",
            "copying-forcegc",
            "generational",
            "incremental",
        ]
    } else if at(3, 1, 1) {
        vec!["compacting", "copying", "copying-forcegc", "generational"]
    } else {
        // 3.1.0's moc.js has no generational GC.
        vec!["compacting", "copying", "copying-forcegc"]
    };
    modes.sort_unstable();
    modes
}

/// The known build a packed fixture (`npm-VERSION`) was compiled by.
fn packed_build(name: &str) -> &'static mo_mem::module::KnownBuild {
    let npm = name
        .strip_prefix("npm-")
        .expect("packs are named npm-VERSION");
    mo_mem::module::KNOWN_BUILDS
        .iter()
        .find(|b| b.npm == npm)
        .unwrap_or_else(|| panic!("{name}: no known build of npm motoko {npm}"))
}

/// Every npm `motoko` release is checked by a committed fixture: a directory of `legacy-*` (one
/// release per layout step, above), `fixtures/snapshots` (the pinned compiler), or the pack of
/// the release (`fixtures/compilers/npm-VERSION.pack`) holding every mode check-releases
/// compiles; and the evidence `mo-mem version` names is that fixture.
#[test]
fn every_known_build_has_a_committed_fixture_in_every_mode() {
    use mo_mem::module::{Evidence, KNOWN_BUILDS};
    let packed = common::packed_compiler_fixtures();
    for b in KNOWN_BUILDS {
        let Evidence::Fixture(path) = b.evidence else {
            panic!("npm {}: no committed fixture ({})", b.npm, b.evidence);
        };
        let full = common::repo_root().join("fixtures").join(path);
        assert!(
            full.exists(),
            "npm {}: {} is missing",
            b.npm,
            full.display()
        );
        if let Some(name) = path
            .strip_prefix("compilers/")
            .and_then(|p| p.strip_suffix(".pack"))
        {
            assert_eq!(name, format!("npm-{}", b.npm));
            let modes: Vec<&str> = packed
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, m)| m.as_str())
                .collect();
            assert_eq!(modes, modes_of(b.npm), "{name}: packed modes");
        }
    }
    for (name, _) in &packed {
        packed_build(name);
    }
}

/// Every packed release, in every mode: the module names its release and mode, and every one of
/// the `legacy` canister's 56 variables decodes to the canister's own `debug_show`.
#[test]
fn every_packed_release_decodes_to_its_expected_values() {
    use crate::vars_fixtures::{decoded_vars, expected_vars};
    use mo_mem::module::{Compiler, EraProbes};
    let packed = common::packed_compiler_fixtures();
    assert!(!packed.is_empty(), "no packs in fixtures/compilers");
    let mut failures = Vec::new();
    for (name, mode) in &packed {
        let b = packed_build(name);
        let dir = common::packed_compiler_fixture(name, mode);
        let expected: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap())
                .unwrap();
        assert_eq!(expected["compiler"], b.build_id, "{name}/{mode}");
        let wasm = std::fs::read(dir.join("wasm_module.bin")).unwrap();
        let facts = ModuleFacts::parse(&wasm).unwrap_or_else(|e| panic!("{name}/{mode}: {e}"));
        let moc = Compiler::detect(Some(b.build_id), EraProbes::default());
        assert_eq!(
            facts.compiler_summary(),
            summary_of(&moc.name(), mode),
            "{name}/{mode}"
        );
        let want = expected_vars(&dir);
        assert_eq!(want.len(), 56, "{name}/{mode}: the canister's variables");
        let got = decoded_vars(&dir).unwrap_or_else(|e| panic!("{name}/{mode}: {e}"));
        for (var, text) in &want {
            match got.get(var) {
                Some(t) if t == text => {}
                Some(t) => failures.push(format!(
                    "{name}/{mode}: `{var}`\n  expected: {text}\n  decoded:  {t}"
                )),
                None => failures.push(format!("{name}/{mode}: `{var}` not decoded")),
            }
        }
        if got.len() != want.len() {
            failures.push(format!("{name}/{mode}: {} variables decoded", got.len()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Writes the pack of one release's snapshots (not a test; run by `scripts/check-releases
/// --pack`): `MO_MEM_PACK_FROM=DIR` holds one `MODE/snapshot/` (or `MODE/`) directory per mode,
/// `MO_MEM_PACK_MODES` names the modes (default: all), `MO_MEM_PACK_TO=FILE` is written after
/// the pack was unpacked and compared with the snapshots, byte for byte.
#[test]
#[ignore]
fn write_a_release_pack() {
    let from =
        std::path::PathBuf::from(std::env::var("MO_MEM_PACK_FROM").expect("MO_MEM_PACK_FROM"));
    let to = std::env::var("MO_MEM_PACK_TO").expect("MO_MEM_PACK_TO");
    let mut modes: Vec<String> = match std::env::var("MO_MEM_PACK_MODES") {
        Ok(m) => m.split_whitespace().map(String::from).collect(),
        Err(_) => std::fs::read_dir(&from)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect(),
    };
    modes.sort();
    let mut files = Vec::new();
    for mode in &modes {
        let mut dir = from.join(mode);
        if dir.join("snapshot").is_dir() {
            dir = dir.join("snapshot");
        }
        for file in [
            "metadata.json",
            "expected.json",
            "wasm_module.bin",
            "wasm_memory.bin",
            "stable_memory.bin",
        ] {
            let bytes = std::fs::read(dir.join(file))
                .unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()));
            files.push((format!("{mode}/{file}"), bytes));
        }
    }
    let packed = common::packs::pack(&files).unwrap();
    let u = common::packs::unpack(&packed).unwrap();
    for (i, (path, bytes)) in files.iter().enumerate() {
        assert_eq!(u.files[i].path, *path);
        assert!(u.bytes(i) == &bytes[..], "{path}: differs after unpacking");
    }
    std::fs::write(&to, &packed).unwrap();
    let raw: usize = files.iter().map(|(_, b)| b.len()).sum();
    println!(
        "{to}: {} bytes ({raw} unpacked, {} modes)",
        packed.len(),
        modes.len()
    );
}

/// A module of npm `motoko` 2.0.3 (moc 0.6.29+, before the 0.7 this build reads; compiled from
/// `fixtures/compilers/refused/npm-2.0.3.mo` by the package under node 20) is refused at open,
/// naming the release; `info` says so too. (0.1.0's moc.js builds no module under node 20:
/// docs/formats.md, "npm releases before 3.0.0".)
#[test]
fn npm_releases_before_moc_0_7_are_refused_by_name() {
    use std::io::Read;
    let path = common::compilers_root().join("refused/npm-2.0.3.wasm.gz");
    let mut wasm = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
        .read_to_end(&mut wasm)
        .unwrap();
    match ModuleFacts::parse(&wasm) {
        Err(ModuleError::UnsupportedCompiler { compiler, reason }) => {
            assert_eq!(
                compiler,
                "moc 0.6.29+ (npm motoko 2.0.3), classical, copying GC"
            );
            assert!(
                reason.starts_with(
                    "an npm `motoko` release before 3.0.0, bundling a moc older than 0.7.0"
                ),
                "{reason}"
            );
        }
        other => panic!("npm 2.0.3: {other:?}"),
    }
    let tmp = tempfile::tempdir().unwrap();
    let module = tmp.path().join("npm-2.0.3.wasm");
    std::fs::write(&module, &wasm).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .arg("info")
        .arg("--wasm")
        .arg(&module)
        .arg(&module)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("moc 0.6.29+ (npm motoko 2.0.3), classical, copying GC: an npm `motoko` release before 3.0.0"),
        "{stderr}"
    );
}

/// The RTS's `Float` formatting is told by the module's function `snprintf`: present exactly
/// in the classical modules of moc before 0.13.4 (musl's `printf`: a NaN is `nan` or `-nan`),
/// absent from later ones and from every EOP module (Rust's: `NaN`). Checked on every read
/// fixture against the rule by release, and on the `floats` canister's values, whose NaNs
/// print as each rule says.
#[test]
fn libc_float_formatting_is_told_exactly_for_classical_moc_before_0_13_4() {
    use mo_mem::module::Persistence;
    let mut libc = 0;
    for (name, mode) in common::compiler_fixtures() {
        if release(&name).refusal(&mode).is_some() {
            continue;
        }
        let dir = common::compiler_fixture(&name, &mode);
        let wasm = std::fs::read(dir.join("wasm_module.bin")).unwrap();
        let facts = ModuleFacts::parse(&wasm).unwrap_or_else(|e| panic!("{name}/{mode}: {e}"));
        let moc = facts.moc.release.expect("a known release");
        let want = facts.persistence == Persistence::Classical && moc < MocVersion::new(0, 13, 4);
        assert_eq!(facts.libc_float_format, want, "{name}/{mode}: moc {moc}");
        libc += usize::from(want);
        if name.starts_with("floats-") {
            let vars = crate::vars_fixtures::expected_vars(&dir);
            let (made, negative) = (&vars["nan_made"], &vars["nan_neg"]);
            if want {
                assert_eq!(
                    (made.as_str(), negative.as_str()),
                    ("nan", "-nan"),
                    "{name}/{mode}"
                );
            } else {
                assert_eq!(
                    (made.as_str(), negative.as_str()),
                    ("NaN", "NaN"),
                    "{name}/{mode}"
                );
            }
            // A script over the snapshot shows the canister's text too, and its value is
            // rendered so.
            let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
                .args(["eval", &dir.to_string_lossy()])
                .arg("(debug_show vars.nan_neg, vars.in_record)")
                .output()
                .unwrap();
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                format!("(\"{negative}\", {})\n", vars["in_record"]),
                "{name}/{mode}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    assert!(libc >= 20, "{libc} classical fixtures of moc < 0.13.4");
}
