//! A map entry found by its key without listing its directory: `mo-mem cat SNAP
//! vars/MAP/GROUP/KEY` in a fresh process (nothing listed before) answers exactly what the
//! listed directory holds, and only for names the listing shows (a key in another group,
//! a key not in the map, or a non-canonical number is not found).

use crate::common;

use serde_json::Value as Json;
use std::process::Command;

/// `mo-mem cat SNAP PATH`: its output, or `None` when it fails.
fn cat(snapshot: &str, path: &str) -> Option<Vec<u8>> {
    let out = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .args(["cat", snapshot, path])
        .output()
        .expect("mo-mem runs");
    out.status.success().then_some(out.stdout)
}

#[test]
fn a_map_entry_is_found_by_its_key_exactly_as_listed() {
    let dir = common::fixture("collections", "eop");
    let d = dir.to_string_lossy();
    let json: Json = serde_json::from_slice(&common::mo_mem_ok(&[
        "vars",
        &d,
        "map_nat_text",
        "--format",
        "json",
    ]))
    .unwrap();
    let entries = json.as_array().unwrap();
    assert!(
        entries.len() > 1000,
        "the map is grouped: {}",
        entries.len()
    );
    let group = |i: usize| {
        let first = i / 1000 * 1000;
        format!("{first}-{}", (first + 999).min(entries.len() - 1))
    };
    for i in [0, 1, 499, 999, 1000, 1001, entries.len() - 1] {
        let key = entries[i][0].to_string();
        let path = format!("vars/map_nat_text/{}/{key}", group(i));
        let got = cat(&d, &path).unwrap_or_else(|| panic!("{path} is found"));
        let want = format!("{}\n", entries[i][1]);
        assert_eq!(String::from_utf8(got).unwrap(), want, "{path}");
        // The same bytes as the listed directory gives (a second process lists first).
        let listed = common::mo_mem_ok(&["ls", &d, &format!("vars/map_nat_text/{}", group(i))]);
        let listed = String::from_utf8(listed).unwrap();
        assert!(
            listed.lines().any(|l| l == key),
            "{key} is listed in {}",
            group(i)
        );
    }
    // Not listed there, so not found there.
    let last = entries[entries.len() - 1][0].to_string();
    assert!(cat(&d, &format!("vars/map_nat_text/0-999/{last}")).is_none());
    let first = entries[0][0].as_u64().unwrap();
    assert!(cat(&d, &format!("vars/map_nat_text/0-999/0{first}")).is_none());
    let absent = (0..).find(|k| !entries.iter().any(|e| e[0] == *k)).unwrap();
    let probe = format!("vars/map_nat_text/{}/{absent}", group(0));
    assert!(cat(&d, &probe).is_none() || absent > entries[999][0].as_u64().unwrap());
}

/// The maps keyed by Text or Principal (`mo:core` Map, `pure/Map`, `mo:base` RBTree), in
/// fixtures of two GCs: `(fixture, variable)`.
const TEXT_AND_PRINCIPAL_MAPS: &[(&str, &str)] = &[
    ("collections", "map_text_item"),
    ("collections", "pure_map"),
    ("structures", "map_principal_user"),
    ("structures", "pure_map"),
    ("structures", "rbtree_text_nat"),
];

/// An entry of a map with Text or Principal keys is found by descending the map (the
/// value's `find_part` answers without listing: `None` would mean "list them"), holds
/// exactly what the listing holds, and only names the listing shows are found. The descent
/// follows the key type's own `compare`, so finding every probed key also checks that the
/// canister's order is bytes for Text and for a Principal's blob.
#[test]
fn text_and_principal_keys_are_found_by_descent() {
    use mo_mem::heap::Heap;
    use mo_mem::image::ReaderLimits;
    use mo_mem::serve::heap_source::HeapDecoder;
    use mo_mem::snapshot::Snapshot;

    let mut probed = 0;
    for mode in ["eop", "incremental"] {
        for (fixture, var) in TEXT_AND_PRINCIPAL_MAPS {
            let dir = common::fixture(fixture, mode);
            let heap = Heap::open(Snapshot::open(&dir).unwrap(), ReaderLimits::default()).unwrap();
            let decoded = HeapDecoder::decoded_heap(heap);
            let vars = decoded.vars().unwrap();
            let (_, map) = vars.iter().find(|(n, _)| n == var).unwrap();
            let count = map.part_count().unwrap().expect("a collection");
            assert!(count > 10, "{fixture}/{mode} {var}: {count} entries");
            assert!(count <= 1000, "{fixture}/{mode} {var}: one directory");
            let listed = map.parts(0, count).unwrap();
            for i in [0, 1, count / 3, count / 2, count - 2, count - 1] {
                let (name, value) = &listed[i];
                let found = map
                    .find_part(name, 0, count)
                    .unwrap()
                    .unwrap_or_else(|| panic!("{fixture}/{mode} {var}: {name} found by descent"));
                assert_eq!(found.json().unwrap(), value.json().unwrap(), "{var}/{name}");
                probed += 1;
            }
            // Names the listing does not show are not found.
            let first = &listed[0].0;
            for absent in [
                format!("{first}x"),
                first.to_uppercase(),
                String::from("nothing"),
            ] {
                if listed.iter().all(|(n, _)| *n != absent) {
                    assert!(
                        map.find_part(&absent, 0, count).unwrap().is_none(),
                        "{absent}"
                    );
                }
            }
            // Through the mount's paths in a fresh process: `KEY` and `KEY.json`.
            if mode == "eop" {
                let d = dir.to_string_lossy();
                let (name, value) = &listed[count / 2];
                let want = format!("{}\n", String::from_utf8(value.json().unwrap()).unwrap());
                let got = if value.is_compound() {
                    cat(&d, &format!("vars/{var}/{name}.json"))
                } else {
                    cat(&d, &format!("vars/{var}/{name}"))
                };
                assert_eq!(got.map(String::from_utf8), Some(Ok(want)), "{var}/{name}");
            }
        }
    }
    assert_eq!(probed, 2 * TEXT_AND_PRINCIPAL_MAPS.len() * 6);
}
