//! `mo-mem call --json` against the number rule (`docs/formats.md`, "Numbers in JSON"): a JSON
//! number when |x| ≤ 2^53, a plain decimal string beyond, never `debug_show`'s `_` separators.
//! The on-demand fixture `numbers` (motoko/fixtures/numbers) answers queries holding every
//! Motoko numeric type at its extremes, and echoes numbers back; its replies, as the live
//! canister gave them when the snapshot was taken, are in its `expected.json`.

use crate::common;

use num_bigint::BigInt;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mo-mem");

fn numbers() -> Option<PathBuf> {
    common::generated_fixture("numbers").map(|root| root.join("eop"))
}

/// `mo-mem call SNAPSHOT METHOD [ARGS] --json`'s stdout, parsed (the call must succeed).
fn call_json(snap: &Path, method: &str, args: Option<&str>) -> (String, Json) {
    let out = Command::new(BIN)
        .arg("call")
        .arg(snap)
        .arg(method)
        .args(args)
        .arg("--json")
        .output()
        .expect("run mo-mem");
    assert!(
        out.status.success(),
        "{method}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method}: {e}: {text}"));
    (text, json)
}

#[test]
fn every_numeric_type_at_its_extremes_follows_the_number_rule() {
    let Some(snap) = numbers() else { return };
    let cases = [
        (
            "system_params",
            r#"[{"proposal_submission_deposit":{"amount_e8s":1000},"proposal_vote_threshold":{"amount_e8s":100000000},"transfer_fee":{"amount_e8s":10000}}]"#,
        ),
        (
            "nats",
            r#"[[0,999,1000,9007199254740992,"9007199254740993","18446744073709551615","18446744073709551616","340282366920938463463374607431768211456"]]"#,
        ),
        (
            "ints",
            r#"[[0,-999,-1000,-9007199254740992,"-9007199254740993","-18446744073709551616","9007199254740993"]]"#,
        ),
        (
            "fixed",
            r#"[255,65535,4294967295,"18446744073709551615",-128,-32768,-2147483648,"-9223372036854775808",9007199254740992,"9223372036854775807","-9007199254740993"]"#,
        ),
        (
            "floats",
            r#"[[0.0,-0.0,1000.0,0.1,1e+300,9007199254740992.0,"NaN","inf","-inf"]]"#,
        ),
    ];
    for (method, want) in cases {
        let (_, json) = call_json(&snap, method, None);
        assert_eq!(json.to_string(), want, "{method}");
        assert_no_grouped_digits(&json);
    }
}

#[test]
fn the_recorded_replies_are_the_ones_rendered() {
    // The live canister's replies (Candid text, with `debug_show`-style `_` grouping) hold the
    // same numbers the JSON does, digit for digit.
    let Some(snap) = numbers() else { return };
    let expected: Json =
        serde_json::from_slice(&std::fs::read(snap.join("expected.json")).unwrap()).unwrap();
    let replies = expected["replies"].as_array().expect("replies");
    assert_eq!(replies.len(), 5);
    for r in replies {
        let method = r["method"].as_str().unwrap();
        let candid = r["reply"].as_str().unwrap();
        let (_, json) = call_json(&snap, method, None);
        let mut from_json = Vec::new();
        numbers_in(&json, &mut from_json);
        let from_candid: Vec<String> = candid
            .split(|c: char| !(c.is_ascii_digit() || c == '_' || c == '-'))
            .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
            .map(|w| w.replace('_', ""))
            .filter(|w| !["8", "16", "32", "64"].contains(&w.as_str())) // the type names' widths
            .collect();
        if method != "floats" {
            // Candid orders a record's fields by their hash, the JSON object by name.
            let (mut from_json, mut from_candid) = (from_json, from_candid);
            if method == "system_params" {
                from_json.sort();
                from_candid.sort();
            }
            assert_eq!(from_json, from_candid, "{method}: {candid}");
        }
    }
}

/// No string in `json` is digits grouped by `_` (`"10_000"`, as `debug_show` writes them).
fn assert_no_grouped_digits(json: &Json) {
    match json {
        Json::String(s) => assert!(
            !(s.contains('_')
                && s.trim_start_matches('-')
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '_')),
            "grouped digits: {s:?}"
        ),
        Json::Array(xs) => xs.iter().for_each(assert_no_grouped_digits),
        Json::Object(m) => m.values().for_each(assert_no_grouped_digits),
        _ => {}
    }
}

/// The integers in `json`, in document order, as decimal text (strings or numbers).
fn numbers_in(json: &Json, out: &mut Vec<String>) {
    match json {
        Json::Number(n) => out.push(n.to_string()),
        Json::String(s) if s.parse::<BigInt>().is_ok() => out.push(s.clone()),
        Json::Array(xs) => xs.iter().for_each(|x| numbers_in(x, out)),
        Json::Object(m) => m.values().for_each(|x| numbers_in(x, out)),
        _ => {}
    }
}

#[test]
fn echoed_numbers_follow_the_number_rule() {
    let Some(snap) = numbers() else { return };
    let safe = BigInt::from(1u64 << 53);
    let two = BigInt::from(2);
    let mut values: Vec<BigInt> = [0i64, 999, 1000].into_iter().map(BigInt::from).collect();
    for bits in [53u32, 63, 64, 100] {
        values.extend([two.pow(bits) - 1, two.pow(bits), two.pow(bits) + 1]);
    }
    let negatives: Vec<BigInt> = values.iter().map(|v| -v.clone()).collect();
    values.extend(negatives);
    values.sort();
    values.dedup();
    let mut calls = 0;
    for (method, fits) in [
        ("echo_nat", (BigInt::from(0), None)),
        ("echo_int", (-two.pow(1000), None)),
        (
            "echo_nat64",
            (BigInt::from(0), Some(BigInt::from(u64::MAX))),
        ),
        (
            "echo_int64",
            (BigInt::from(i64::MIN), Some(BigInt::from(i64::MAX))),
        ),
    ] {
        let (min, max) = fits;
        for x in values
            .iter()
            .filter(|x| **x >= min && max.as_ref().is_none_or(|m| *x <= m))
        {
            let (text, json) = call_json(&snap, method, Some(&format!("({x})")));
            let got = &json[0];
            if x.magnitude() <= safe.magnitude() {
                assert_eq!(
                    got.to_string(),
                    x.to_string(),
                    "{method} {x}: a JSON number"
                );
            } else {
                assert_eq!(got, &Json::String(x.to_string()), "{method} {x}: a string");
            }
            assert!(!text.contains('_'), "{method} {x}: {text}");
            calls += 1;
        }
    }
    // nat: 0 and 14 positives; int: those and 14 negatives; nat64: 0 to 2^64 - 1; int64: -2^63
    // to 2^63 - 1.
    assert_eq!(
        calls,
        15 + 29 + 10 + 14,
        "every value in range of its type was asked"
    );
}
