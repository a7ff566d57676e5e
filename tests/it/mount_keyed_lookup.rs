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
