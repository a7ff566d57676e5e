//! The diff and trend of snapshots on the `growth` fixtures (`growth1`..`growth3`: one
//! canister snapshotted as it grows; the scenario's calls are in
//! motoko/fixtures/growthN/scenario.json). Every figure of the diff is checked against each
//! snapshot's own analysis, and the keys of `users` (a mo:core Map) and the elements of the
//! arrays against the calls the scenario made.

use crate::common;

use std::path::PathBuf;

use mo_mem::analysis::diff::collections::{CollectionDiff, KeyChanges};
use mo_mem::analysis::diff::entries::Kind;
use mo_mem::analysis::diff::json::DiffJson;
use mo_mem::analysis::diff::trend::Trend;
use mo_mem::analysis::diff::values::ValueChange;
use mo_mem::analysis::diff::{Figures, SnapshotDiff};
use mo_mem::analysis::progress::NoProgress;
use mo_mem::analysis::OpenedHeap;

const MODES: [&str; 2] = ["eop", "copying"];

fn stage(n: u32, mode: &str) -> PathBuf {
    common::fixture(&format!("growth{n}"), mode)
}

fn open(n: u32, mode: &str) -> OpenedHeap {
    OpenedHeap::open(&stage(n, mode)).unwrap_or_else(|e| panic!("growth{n}/{mode}: {e}"))
}

fn diff(a: u32, b: u32, mode: &str) -> SnapshotDiff {
    SnapshotDiff::compute(&open(a, mode), &open(b, mode), &NoProgress).expect("diff")
}

fn var<'d>(d: &'d SnapshotDiff, name: &str) -> &'d mo_mem::analysis::diff::VarDiff {
    d.vars
        .iter()
        .find(|v| v.name == name)
        .unwrap_or_else(|| panic!("no variable {name}"))
}

fn collection(d: &SnapshotDiff, name: &str) -> CollectionDiff {
    match &var(d, name).collection {
        Some(Ok(c)) => c.clone(),
        other => panic!("{name}: {other:?}"),
    }
}

fn keys(added: u64, removed: u64, changed: u64, first: [Option<&str>; 3]) -> KeyChanges {
    KeyChanges {
        added,
        removed,
        changed,
        first_added: first[0].map(str::to_string),
        first_removed: first[1].map(str::to_string),
        first_changed: first[2].map(str::to_string),
    }
}

#[test]
fn diff_figures_are_each_snapshots_own_analysis() {
    for mode in MODES {
        for (a, b) in [(1, 2), (2, 3), (1, 3)] {
            let d = diff(a, b, mode);
            for (n, fig) in [(a, &d.old), (b, &d.new)] {
                // A second, separate opening and analysis of the same snapshot.
                let own = open(n, mode);
                let an = own.analysis().expect("analysis");
                let an = &*an;
                assert_eq!(fig.vars, an.vars(), "growth{n}/{mode} vars");
                assert_eq!(fig.types, an.types(&own), "growth{n}/{mode} types");
                assert_eq!(fig.space.live, an.live(), "growth{n}/{mode}");
                assert_eq!(fig.space.garbage, an.garbage(), "growth{n}/{mode}");
                assert_eq!(fig.space.free, own.stats().free, "growth{n}/{mode}");
                assert_eq!(fig.space.unused_bytes, own.stats().unused_bytes);
            }
            // Every variable and type of either snapshot, once, with its two sides.
            assert_eq!(d.vars.len(), 5, "{mode}");
            for v in &d.vars {
                assert_eq!(v.old.as_ref(), d.old.var(&v.name));
                assert_eq!(v.new.as_ref(), d.new.var(&v.name));
            }
            let names = |f: &Figures| f.types.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
            let mut all = names(&d.old);
            all.extend(names(&d.new));
            all.sort();
            all.dedup();
            assert_eq!(d.types.len(), all.len(), "{mode}: {all:?}");
            for t in &d.types {
                assert_eq!(
                    t.old.as_ref(),
                    d.old.types.iter().find(|x| x.name == t.name)
                );
                assert_eq!(
                    t.new.as_ref(),
                    d.new.types.iter().find(|x| x.name == t.name)
                );
            }
        }
    }
}

#[test]
fn diff_finds_the_values_and_keys_the_scenario_changed() {
    for mode in MODES {
        // Stage 1 -> 2: log +100 events, users +100..149, -10..19, 30..34 renamed; cache kept.
        let d = diff(1, 2, mode);
        assert_eq!(var(&d, "config").value, Some(ValueChange::Same), "{mode}");
        assert_eq!(var(&d, "cache").value, Some(ValueChange::Same), "{mode}");
        assert_eq!(
            var(&d, "counter")
                .value
                .as_ref()
                .and_then(ValueChange::changed),
            Some(true)
        );
        assert_eq!(
            var(&d, "log").value.as_ref().and_then(ValueChange::changed),
            Some(true)
        );
        assert!(var(&d, "config").collection.is_none() && var(&d, "cache").collection.is_none());
        let users = collection(&d, "users");
        assert_eq!(
            (users.kind, users.old_entries, users.new_entries),
            (Kind::Map, 100, 140)
        );
        assert_eq!(
            users.keys,
            keys(50, 10, 5, [Some("100"), Some("10"), Some("30")]),
            "{mode}"
        );
        let log = collection(&d, "log");
        assert_eq!(
            (log.kind, log.old_entries, log.new_entries),
            (Kind::Array, 50, 150)
        );
        assert_eq!(
            log.keys,
            keys(100, 0, 0, [Some("50"), None, None]),
            "{mode}"
        );

        // Stage 2 -> 3: log +200, cache cut to its first 20, users +150..159, -0..4.
        let d = diff(2, 3, mode);
        let users = collection(&d, "users");
        assert_eq!((users.old_entries, users.new_entries), (140, 145));
        assert_eq!(
            users.keys,
            keys(10, 5, 0, [Some("150"), Some("0"), None]),
            "{mode}"
        );
        let cache = collection(&d, "cache");
        assert_eq!(
            (cache.kind, cache.old_entries, cache.new_entries),
            (Kind::Array, 200, 20)
        );
        assert_eq!(
            cache.keys,
            keys(0, 180, 0, [None, Some("20"), None]),
            "{mode}"
        );

        // Stage 1 -> 3 adds both: renamed 30..34 and removed 0..19 (0..4 and 10..19).
        let d = diff(1, 3, mode);
        let users = collection(&d, "users");
        assert_eq!(
            users.keys,
            keys(60, 15, 5, [Some("100"), Some("0"), Some("30")]),
            "{mode}"
        );
        // A snapshot against itself: nothing changed.
        let same = diff(2, 2, mode);
        for v in &same.vars {
            assert_eq!(v.value, Some(ValueChange::Same), "{mode} {}", v.name);
            assert_eq!(v.retained_delta(), 0);
        }
        assert!(same.suspects.is_empty(), "{:?}", same.suspects);
    }
}

#[test]
fn growth_suspects_are_what_grew_most_with_paths() {
    for mode in MODES {
        let d = diff(2, 3, mode);
        assert!(!d.suspects.is_empty());
        for w in d.suspects.windows(2) {
            assert!(w[0].grew_bytes >= w[1].grew_bytes, "{:?}", d.suspects);
        }
        let top_var = d
            .vars
            .iter()
            .max_by_key(|v| v.retained_delta())
            .expect("vars");
        assert_eq!(top_var.name, "log", "{mode}");
        let s = d
            .suspects
            .iter()
            .find(|s| s.kind == "var")
            .expect("a var suspect");
        assert_eq!(
            (s.name.as_str(), s.path.as_deref()),
            ("log", Some("vars.log"))
        );
        assert_eq!(s.grew_bytes as i64, top_var.retained_delta());
        assert!(
            d.suspects
                .iter()
                .all(|s| s.grew_bytes > 0 && s.path.is_some()),
            "{:?}",
            d.suspects
        );
        // cache shrank: never a suspect; its retained bytes fell.
        assert!(var(&d, "cache").retained_delta() < 0);
        assert!(d.suspects.iter().all(|s| s.name != "cache"));
        // A type suspect's path leads to an object of that type in the new snapshot.
        let new = open(3, mode);
        let a = new.analysis().expect("analysis");
        let a = &*a;
        for s in d.suspects.iter().filter(|s| s.kind == "type") {
            let path = s.path.as_deref().expect("path");
            assert!(path.starts_with("vars."), "{path}");
            assert!(a.types(&new).iter().any(|t| t.name == s.name));
        }
    }
}

#[test]
fn diff_and_trend_commands_print_the_librarys_figures() {
    let mode = "eop";
    let (s1, s2, s3) = (stage(1, mode), stage(2, mode), stage(3, mode));
    let json: serde_json::Value = serde_json::from_slice(&common::mo_mem_ok(&[
        "diff",
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
        "--json",
    ]))
    .expect("json");
    let lib = serde_json::to_value(DiffJson::new(&diff(1, 2, mode))).expect("json");
    assert_eq!(json, lib);
    // One analysis at a time: the same diff.
    let low: serde_json::Value = serde_json::from_slice(&common::mo_mem_ok(&[
        "diff",
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
        "--json",
        "--low-memory",
    ]))
    .expect("json");
    assert_eq!(low, lib);
    let users = json["vars"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "users")
        .unwrap();
    assert_eq!(users["collection"]["added"], 50);
    assert_eq!(users["changed"], true);

    let text = String::from_utf8(common::mo_mem_ok(&[
        "diff",
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
    ]))
    .unwrap();
    assert!(text.starts_with("growth suspects"), "{text}");
    assert!(text.contains("Map 100 -> 140 entries: +50 -10 ~5, first added 100, first removed 10, first changed 30"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("trend.svg");
    let trend: Trend = {
        let out = common::mo_mem_ok(&[
            "trend",
            s1.to_str().unwrap(),
            s2.to_str().unwrap(),
            s3.to_str().unwrap(),
            "--json",
            "--svg",
            svg.to_str().unwrap(),
        ]);
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let points: Vec<(String, Figures)> = [1, 2, 3]
            .iter()
            .map(|&n| {
                let o = open(n, mode);
                (
                    format!("growth{n}-eop"),
                    Figures::of(&o, &NoProgress).unwrap(),
                )
            })
            .collect();
        let lib = Trend::new(&points, 10);
        assert_eq!(v, serde_json::to_value(&lib).unwrap());
        lib
    };
    // Each variable's line is its retained bytes in each snapshot's own analysis.
    for (i, n) in [1, 2, 3].into_iter().enumerate() {
        let o = open(n, mode);
        for v in o.analysis().unwrap().vars() {
            let line = trend.vars.iter().find(|s| s.name == v.name).unwrap();
            assert_eq!(line.retained_bytes[i], Some(v.retained.bytes));
        }
    }
    let log = trend.vars.iter().find(|s| s.name == "log").unwrap();
    assert!(
        log.retained_bytes.windows(2).all(|w| w[0] < w[1]),
        "{log:?}"
    );
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(chart.matches("<polyline").count(), trend.vars.len());
    assert!(chart.len() < 20_000);
}

#[test]
fn a_script_over_the_new_snapshot_opens_an_older_one_beside_it() {
    // One canister's snapshots side by side, as in a store: s1, s2, s3.
    let canister = tempfile::tempdir().unwrap();
    for n in 1..=3 {
        common::copy_snapshot(&stage(n, "eop"), &canister.path().join(format!("s{n}")));
    }
    let s3 = canister.path().join("s3");
    let eval = |script: &str| {
        String::from_utf8(common::mo_mem_ok(&["eval", s3.to_str().unwrap(), script])).unwrap()
    };
    assert_eq!(eval("snapshots.names"), "[\"s1\", \"s2\"]\n");
    // The directory of the canister's snapshots stands for all of them, in order.
    let trend: serde_json::Value = serde_json::from_slice(&common::mo_mem_ok(&[
        "trend",
        canister.path().to_str().unwrap(),
        "--json",
    ]))
    .unwrap();
    assert_eq!(trend["snapshots"], serde_json::json!(["s1", "s2", "s3"]));
    // The values the scenario left in each stage (its own expected.json says the same).
    let expected = |n: u32, var: &str| -> String {
        let text = std::fs::read_to_string(stage(n, "eop").join("expected.json")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["vars"][var].as_str().unwrap().to_string()
    };
    assert_eq!(
        eval("(snapshots.open(\"s1\").vars.counter, snapshots.open(\"s2\").vars.counter, vars.counter)"),
        format!("({}, {}, {})\n", expected(1, "counter"), expected(2, "counter"), expected(3, "counter"))
    );
    // The map's keys as the diff counts them: 140 entries before, 145 after; 30 renamed
    // in stage 2, 0 removed in stage 3.
    assert_eq!(
        eval(
            "import Map \"mo:core/Map\"; import Nat \"mo:core/Nat\"; let old = snapshots.open(\"s2\"); \
             (Map.size(old.vars.users), Map.size(vars.users), Map.get(old.vars.users, Nat.compare, 30), \
             Map.get(vars.users, Nat.compare, 0), old.vars.config == vars.config)"
        ),
        "(140, 145, ?\"renamed 30\", null, true)\n"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(["eval", s3.to_str().unwrap(), "snapshots.open(\"../s1\")"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no snapshot \"../s1\""));
}

#[test]
fn collection_comparisons_stop_at_their_limits() {
    use mo_mem::analysis::diff::collections::{
        compare_collections, CollectionError, CollectionLimits,
    };
    use mo_mem::heap::value::stable_variables;
    let (a, b) = (open(1, "eop"), open(2, "eop"));
    let value = |o: &OpenedHeap, name: &str| {
        let vars = stable_variables(o.heap(), o.signature().unwrap()).unwrap();
        vars.into_iter().find(|v| &*v.name == name).unwrap().value
    };
    let (old, new) = (value(&a, "log"), value(&b, "log"));
    let run = |limits: CollectionLimits| {
        compare_collections(
            &mut a.any_decoder(),
            &old,
            &mut b.any_decoder(),
            &new,
            limits,
        )
        .expect("an array")
    };
    let full = CollectionLimits::default();
    assert_eq!(run(full).unwrap().keys.added, 100);
    let few = CollectionLimits {
        max_entries: 10,
        ..full
    };
    assert_eq!(run(few), Err(CollectionError::TooMany(10)));
    // An event is 3 parts (the record, its id, its note): 200 events need 600.
    let parts = CollectionLimits {
        max_total_parts: 599,
        ..full
    };
    assert_eq!(run(parts), Err(CollectionError::Budget(599)));
    let enough = CollectionLimits {
        max_total_parts: 600,
        ..full
    };
    assert_eq!(run(enough).unwrap().keys.added, 100);
}
