//! `mo-mem object` prints what the mount shows: its `--json` is the object's file under
//! `objects/`, byte for byte, and its text form names record fields by label.

use crate::common;

fn lines(bytes: Vec<u8>) -> Vec<String> {
    String::from_utf8(bytes)
        .expect("UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// The paths (under the snapshot) of the first `n` object files of the first shard.
fn object_files(snap: &str, n: usize) -> Vec<String> {
    let top = lines(common::mo_mem_ok(&["ls", snap, "objects"]));
    let region = format!("objects/{}", top[0].trim_end_matches('/'));
    let shard = lines(common::mo_mem_ok(&["ls", snap, &region]));
    let dir = format!("{region}/{}", shard[0].trim_end_matches('/'));
    lines(common::mo_mem_ok(&["ls", snap, &dir]))
        .into_iter()
        .take(n)
        .map(|f| format!("{dir}/{f}"))
        .collect()
}

/// The address of stable variable `person`'s record, by the script engine.
fn person_address(snap: &str) -> String {
    let script = r#"switch (heap.varObject("person")) { case (?o) o.address; case null 0 }"#;
    let out = String::from_utf8(common::mo_mem_ok(&["eval", snap, script])).expect("UTF-8");
    let addr: u64 = out.trim().replace('_', "").parse().expect("an address");
    assert!(addr > 0, "no object for `person`");
    format!("{addr:#x}")
}

#[test]
fn object_json_is_the_mounted_file() {
    for mode in ["eop", "incremental", "copying"] {
        let dir = common::fixture("compound", mode);
        let snap = dir.to_str().expect("UTF-8 path");
        let files = object_files(snap, 100);
        assert_eq!(files.len(), 100, "{mode}: {files:?}");
        for file in files {
            let addr = file
                .rsplit('/')
                .next()
                .and_then(|f| f.strip_suffix(".json"));
            let addr = addr.expect("ADDRESS.json");
            assert!(
                common::mo_mem_ok(&["object", snap, addr, "--json"])
                    == common::mo_mem_ok(&["cat", snap, &file]),
                "{mode}: `object --json` differs from {file}"
            );
        }
    }
}

#[test]
fn object_text_names_record_fields() {
    for mode in ["eop", "incremental", "copying"] {
        let dir = common::fixture("compound", mode);
        let snap = dir.to_str().expect("UTF-8 path");
        // `var person : Person = { name = "Ada"; var age = 36; tags = ["math", "engines"];
        // score = ?9.5 }` of motoko/fixtures/compound/main.mo.
        let record = person_address(snap);
        let text = String::from_utf8(common::mo_mem_ok(&["object", snap, &record])).expect("UTF-8");
        assert!(text.starts_with(&format!("{record}: Object (")), "{text}");
        for field in [
            "\n  fields:\n    {\"hash\":4846783,\"label\":\"age\",\"pointer\":",
            "\"label\":\"name\",\"pointer\":",
            "\"label\":\"tags\",\"pointer\":",
            "\"label\":\"score\",\"pointer\":",
            "\"target_tag\":\"MutBox\"",
            "\"target_tag\":\"Blob T\"",
        ] {
            assert!(text.contains(field), "{mode}: {field} not in {text}");
        }
    }
}

/// The text form says what the JSON says (both are printed from one object model): the
/// header from `address`, `tag`, `size` and `forwarded_to`, then every other key in order
/// (lists one item per line), then the references, recomputed here from the parsed JSON.
#[test]
fn object_text_and_json_print_one_model() {
    use serde_json::Value;
    const HEADER: [&str; 6] = [
        "address",
        "tag",
        "size",
        "forwarded_to",
        "references",
        "references_total",
    ];
    let dir = common::fixture("compound", "eop");
    let snap = dir.to_str().expect("UTF-8 path");
    let mut checked = 0;
    for file in object_files(snap, 60) {
        let addr = file.rsplit('/').next().unwrap().trim_end_matches(".json");
        let json: Value =
            serde_json::from_slice(&common::mo_mem_ok(&["object", snap, addr, "--json"]))
                .expect("the object's JSON");
        let mut want = format!(
            "{}: {} ({} bytes)\n",
            json["address"].as_str().unwrap(),
            json["tag"].as_str().unwrap(),
            json["size"]
        );
        if let Some(target) = json["forwarded_to"].as_str() {
            want.push_str(&format!("  forwarded to {target}\n"));
        }
        for (key, value) in json.as_object().unwrap() {
            if HEADER.contains(&key.as_str()) {
                continue;
            }
            match value {
                Value::Array(items) if !items.is_empty() => {
                    want.push_str(&format!("  {key}:\n"));
                    for item in items {
                        want.push_str(&format!("    {item}\n"));
                    }
                }
                _ => want.push_str(&format!("  {key}: {value}\n")),
            }
        }
        let refs: Vec<&str> = json["references"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        let more = json["references_total"]
            .as_u64()
            .map_or(String::new(), |t| format!(" (of {t})"));
        want.push_str(&format!("  references{more}: {}\n", refs.join(" ")));
        let got = String::from_utf8(common::mo_mem_ok(&["object", snap, addr])).expect("UTF-8");
        assert_eq!(got, want, "{file}");
        checked += 1;
    }
    assert!(checked >= 50, "{checked} objects");
}
