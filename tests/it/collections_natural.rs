//! Natural views of collections against the canister's own iteration: for every collection
//! variable of every fixture whose `dump` prints `NAME.entries` / `NAME.values` (the
//! `debug_show` of `Iter.toArray(Map.entries(m))`, `Set.values`, `List.toArray`, …, filed
//! under `views` in expected.json), in every mode, the natural view rendered by the one
//! `debug_show` writer is that text byte for byte; the JSON writer of the same value is what
//! `mo-mem vars --format json` prints, and its structure is checked against the text.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use mo_mem::heap::collections::{recognize, CollectionKind};
use mo_mem::heap::render::{debug_show, to_json};
use mo_mem::heap::value::{heap_signature, signature_decoder, stable_variables, Value};
use mo_mem::heap::Heap;
use mo_mem::image::ReaderLimits;
use mo_mem::snapshot::Snapshot;
use serde_json::Value as Json;

/// Views the fixtures print that mo-mem has no natural view for yet (shown raw): none.
const NOT_NATURAL: &[&str] = &[];

/// Views a canister prints as its PriorityQueue's binary heap in array order
/// (`List.toArray(pq.heap)`), not in pop order: the natural view pops (highest priority
/// first), and the pop order of a queue of `Nat`s built with `Nat.compare` is its elements
/// sorted from the largest, which [`popped_in_order`] computes from the heap's text.
const HEAP_ORDER_VIEWS: &[(&str, &str)] = &[("collections", "pq_nat.values")];

/// The `debug_show` of an array of `Nat`s (`[980, 1_002, …]`) sorted from the largest.
fn popped_in_order(heap_text: &str) -> String {
    let inner = heap_text.trim_start_matches('[').trim_end_matches(']');
    let mut nats: Vec<u64> = inner
        .split(", ")
        .filter(|x| !x.is_empty())
        .map(|x| x.replace('_', "").parse().expect("a Nat"))
        .collect();
    nats.sort_unstable_by(|a, b| b.cmp(a));
    let shown: Vec<String> = nats
        .iter()
        .map(|n| mo_mem::heap::render::debug_show(&Value::Nat((*n).into())))
        .collect();
    format!("[{}]", shown.join(", "))
}

/// `views` of expected.json: `VAR.entries` or `VAR.values` → the canister's text.
pub(crate) fn expected_views(dir: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(dir.join("expected.json")).expect("expected.json");
    let json: Json = serde_json::from_str(&text).expect("expected.json is JSON");
    json.get("views")
        .and_then(Json::as_object)
        .map(|views| {
            views
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().expect("a text").to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// One variable's collection kind and natural value, decoded through the library.
struct Natural {
    kind: Option<CollectionKind>,
    value: Value,
}

fn natural_vars(dir: &Path) -> BTreeMap<String, Natural> {
    let snapshot = Snapshot::open(dir).expect("snapshot");
    let heap = Heap::open(snapshot, ReaderLimits::default()).expect("heap");
    let sig = heap_signature(&heap).expect("signature");
    let vars = stable_variables(&heap, &sig).expect("vars");
    let mut d = signature_decoder(&heap, &sig);
    d.set_natural(true);
    let mut out = BTreeMap::new();
    for v in vars {
        let kind = d
            .type_of(&v.value)
            .expect("type")
            .and_then(|t| recognize(&sig.env, &t));
        let value = d.deep(&v.value).expect("decodes");
        out.insert(v.name.to_string(), Natural { kind, value });
    }
    out
}

#[test]
fn natural_views_are_the_canisters_own_iteration() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, mode, dir) in common::all_fixtures() {
        let views = expected_views(&dir);
        if views.is_empty() {
            continue;
        }
        let vars = natural_vars(&dir);
        for (view, want) in &views {
            // A collection inside a variable's fields (`nested.index.entries`): the script
            // tests (eval_structures) follow the fields; here whole variables are compared.
            if view.matches('.').count() > 1 {
                continue;
            }
            let var = view.split('.').next().unwrap_or(view);
            let got = &vars[var];
            if NOT_NATURAL.contains(&var) {
                assert!(
                    got.kind.is_none(),
                    "{name}/{mode}: {var} has a natural view now"
                );
                continue;
            }
            let text = debug_show(&got.value);
            let want = &match HEAP_ORDER_VIEWS.contains(&(name.as_str(), view.as_str())) {
                true => popped_in_order(want),
                false => want.clone(),
            };
            if &text != want {
                failures.push(format!(
                    "{name}/{mode}: {view} ({:?})\n  canister: {}\n  mo-mem:   {}",
                    got.kind,
                    &want[..want.len().min(300)],
                    &text[..text.len().min(300)]
                ));
            }
            checked += 1;
        }
    }
    assert!(checked >= 5 * 11, "only {checked} views checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn vars_json_is_the_natural_view_and_raw_is_the_structure() {
    let dir = common::fixture("collections", "eop");
    let vars = natural_vars(&dir);
    let d = dir.to_string_lossy();
    for (var, natural) in &vars {
        let printed = common::mo_mem_ok(&["vars", &d, var, "--format", "json"]);
        let printed = String::from_utf8(printed).unwrap();
        assert_eq!(printed.trim_end(), to_json(&natural.value), "{var}");
        let Some(kind) = natural.kind else { continue };
        let json: Json = serde_json::from_str(&printed).unwrap();
        let items = json.as_array().unwrap_or_else(|| panic!("{var}: an array"));
        if kind.is_map() {
            assert!(
                items
                    .iter()
                    .all(|p| p.as_array().is_some_and(|p| p.len() == 2)),
                "{var}: [key, value] pairs"
            );
        }
        let raw = common::mo_mem_ok(&["vars", &d, var, "--format", "json", "--raw"]);
        let raw: Json = serde_json::from_slice(&raw).unwrap();
        assert_ne!(raw, json, "{var}: --raw is the structure");
    }
    // A second, simple computation of two views: the big map's pairs are `k -> "v{k}"` (but
    // the churn's marker) in increasing key order; the set's elements increase.
    let map: Json = serde_json::from_slice(&common::mo_mem_ok(&[
        "vars",
        &d,
        "map_nat_text",
        "--format",
        "json",
    ]))
    .unwrap();
    let mut last = -1i64;
    for pair in map.as_array().unwrap() {
        let k = pair[0].as_i64().unwrap();
        assert!(k > last, "keys increase");
        last = k;
        if k != 1_000_000_007 {
            assert_eq!(pair[1], Json::String(format!("v{k}")));
        }
    }
    let set: Json = serde_json::from_slice(&common::mo_mem_ok(&[
        "vars", &d, "set_nat", "--format", "json",
    ]))
    .unwrap();
    let set: Vec<i64> = set
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect();
    assert!(set.windows(2).all(|w| w[0] < w[1]) && set.len() > 100);
}

/// The names `mo-mem ls` shows in `dir` (a path under the snapshot), with the `FIRST-LAST/`
/// groups of a large directory expanded; each value once (`NAME/`, `NAME.json`, `NAME.mo`
/// and `NAME.raw.json` are one name).
fn listed_names(snapshot: &str, dir: &str) -> Vec<String> {
    let out = String::from_utf8(common::mo_mem_ok(&["ls", snapshot, dir])).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let is_group = |l: &str| {
        l.strip_suffix('/')
            .and_then(|g| g.split_once('-'))
            .is_some_and(|(a, b)| a.parse::<u64>().is_ok() && b.parse::<u64>().is_ok())
    };
    if !lines.is_empty() && lines.iter().all(|l| is_group(l)) {
        return lines
            .iter()
            .flat_map(|g| listed_names(snapshot, &format!("{dir}/{}", g.trim_end_matches('/'))))
            .collect();
    }
    let mut names: Vec<String> = Vec::new();
    for l in lines {
        let base = [".raw.json", ".json", ".mo", "/"]
            .iter()
            .find_map(|s| l.strip_suffix(s))
            .unwrap_or(l);
        if names.last().map(String::as_str) != Some(base) {
            names.push(base.to_string());
        }
    }
    names
}

#[test]
fn the_mounts_directory_of_a_map_lists_exactly_its_keys() {
    for mode in ["eop", "copying"] {
        let dir = common::fixture("collections", mode);
        let d = dir.to_string_lossy();
        for var in [
            "map_nat_text",
            "map_text_item",
            "pure_map",
            "set_nat",
            "list_nat",
        ] {
            let json: Json =
                serde_json::from_slice(&common::mo_mem_ok(&["vars", &d, var, "--format", "json"]))
                    .unwrap();
            let items = json.as_array().unwrap();
            let want: Vec<String> = if var.starts_with("set") || var.starts_with("list") {
                (0..items.len()).map(|i| i.to_string()).collect()
            } else {
                items
                    .iter()
                    .map(|pair| match &pair[0] {
                        Json::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect()
            };
            let got = listed_names(&d, &format!("vars/{var}"));
            assert_eq!(got, want, "{mode}: vars/{var}/");
        }
        // One entry, by its key: the value by today's rules (a record is a directory).
        let item: Json = serde_json::from_slice(&common::mo_mem_ok(&[
            "cat",
            &d,
            "vars/map_text_item/item-100.json",
        ]))
        .unwrap();
        assert_eq!(item["id"], 100, "{mode}");
        let name = common::mo_mem_ok(&["cat", &d, "vars/map_text_item/item-100/name"]);
        assert_eq!(String::from_utf8_lossy(&name).trim_end(), "\"item-100\"");
    }
}

#[test]
fn eval_json_shows_the_natural_views_and_raw_the_structure() {
    let dir = common::fixture("collections", "eop");
    let d = dir.to_string_lossy();
    let vars: Json =
        serde_json::from_slice(&common::mo_mem_ok(&["vars", &d, "--format", "json"])).unwrap();
    let raw: Json = serde_json::from_slice(&common::mo_mem_ok(&[
        "vars", &d, "--format", "json", "--raw",
    ]))
    .unwrap();
    let eval = |script: &str, raw: bool| -> Json {
        let mut args = vec!["eval", &d, "--json", script];
        if raw {
            args.push("--raw");
        }
        let out: Json = serde_json::from_slice(&common::mo_mem_ok(&args)).unwrap();
        out["value"].clone()
    };
    for (name, want) in vars.as_object().unwrap() {
        let script = format!("vars.{name}");
        assert_eq!(&eval(&script, false), want, "eval --json {script}");
        assert_eq!(
            &eval(&script, true),
            &raw[name],
            "eval --json --raw {script}"
        );
    }
    // Inside a script's own values too, and a collection's parts as their own structure.
    let got = eval("{m = vars.pure_map; n = vars.map_nat_text.size}", false);
    assert_eq!(got["m"], vars["pure_map"]);
    assert_eq!(got["n"], raw["map_nat_text"]["size"]);
}

#[test]
fn lookup_by_key_finds_every_entry_and_only_those() {
    use mo_mem::heap::collections::{compare_keys, lookup};
    for mode in ["eop", "compacting"] {
        let dir = common::fixture("collections", mode);
        let heap = Heap::open(Snapshot::open(&dir).unwrap(), ReaderLimits::default()).unwrap();
        let sig = heap_signature(&heap).unwrap();
        let vars = stable_variables(&heap, &sig).unwrap();
        let mut d = signature_decoder(&heap, &sig);
        let mut checked = 0;
        for var in ["map_nat_text", "map_text_item", "pure_map"] {
            let v = vars.iter().find(|v| &*v.name == var).unwrap();
            let kind = d.collection_kind(&v.value).unwrap();
            // The entries, from the in-order walk (the natural view), decoded.
            d.set_natural(true);
            let view = d.deep(&v.value).unwrap();
            let Value::Array { items, .. } = &view else {
                panic!("{var}: an array");
            };
            d.set_natural(false);
            let mut keys = Vec::new();
            for pair in items {
                let Value::Tuple { items: kv, .. } = pair else {
                    panic!("{var}: a pair")
                };
                let found = lookup(&mut d, &v.value, kind, &kv[0]).unwrap();
                let found = d.deep(&found.expect("found")).unwrap();
                assert_eq!(found, kv[1], "{mode}/{var}: {}", debug_show(&kv[0]));
                keys.push(kv[0].clone());
                checked += 1;
            }
            // A second computation of the order: the walk's keys increase by compare_keys.
            assert!(keys
                .windows(2)
                .all(|w| compare_keys(&w[0], &w[1]) == Some(std::cmp::Ordering::Less)));
            // Keys between and beyond the present ones are absent.
            let absent = match &keys[0] {
                Value::Nat(_) => vec![
                    Value::Nat(14u32.into()),
                    Value::Nat(2_000_000_000u64.into()),
                ],
                _ => vec![
                    Value::Text("item-1x".into()),
                    Value::Text("p".into()),
                    Value::Text("zz".into()),
                ],
            };
            for k in absent {
                assert_eq!(
                    lookup(&mut d, &v.value, kind, &k).unwrap(),
                    None,
                    "{var}: {k:?}"
                );
            }
        }
        assert!(checked > 1334 + 700, "{checked}");
    }
}
