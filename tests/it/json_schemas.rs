//! Every JSON document mo-mem writes validates against its published schema
//! (`docs/schemas/NAME.schema.json`, JSON Schema 2020-12, checked with the `jsonschema` crate):
//! the fixtures' `--json` outputs (`info`, `stats`, `vars`, `report`, `retained`, `object`,
//! `path`, `eval`, `diff`, `trend`, `call`) and a walk of a snapshot tree's `.json` files as the
//! mount shows them (`info.json`, `stats.json`, `vars/`, `objects/`, `analysis/`), and every
//! JSON example of `docs/`. The IC commands' documents are checked where they are made
//! (`ic_cli.rs`, against the emulator), `upgrade --json` in `upgrade_cli.rs`, the MCP tools'
//! answers in `mcp_server.rs`.

use crate::common;
use crate::common::schemas::{validator, Checker};

use mo_mem::script::workers::mount_limits;
use mo_mem::serve::{services, Snapshots};
use mo_mem::vfs::{Entry, Ino, NodeKind, SessionId, SnapshotDir, Tree, TreeConfig};
use serde_json::Value as Json;
use std::path::Path;
use std::sync::Arc;

/// A mutation of a document must fail its schema (the schemas are not vacuous).
#[test]
fn the_schemas_refuse_what_the_number_rule_forbids() {
    let value = validator("value");
    assert!(value.is_valid(&serde_json::json!({"a": [1, "x", {"b": 9.5}]})));
    let call = validator("call");
    assert!(call.is_valid(&serde_json::json!([{"amount_e8s": 10000}])));
    assert!(!call.is_valid(&serde_json::json!({"not": "an array"})));
    let garbage = validator("garbage");
    assert!(garbage.is_valid(&serde_json::json!({"objects": 1, "bytes": 9007199254740992u64})));
    assert!(!garbage.is_valid(&serde_json::json!({"objects": 1, "bytes": 9007199254740993u64})));
    assert!(!garbage.is_valid(&serde_json::json!({"objects": 1, "bytes": "12"})));
    assert!(!garbage.is_valid(&serde_json::json!({"objects": -1, "bytes": 0})));
    let object = validator("object");
    assert!(
        !object.is_valid(&serde_json::json!({"address": 5242880, "tag": "Array I",
        "raw_tag": "0x3", "size": 8, "references": []}))
    );
}

#[test]
fn every_fixture_json_output_follows_its_schema() {
    let mut c = Checker::default();
    for (name, mode, dir) in common::all_fixtures() {
        let d = dir.to_str().unwrap();
        c.command("info", &["info", d, "--json"]);
        c.command("stats", &["stats", d, "--json"]);
        c.command("vars", &["vars", d, "--format", "json"]);
        c.command("vars", &["vars", d, "--format", "json", "--raw"]);
        // The analyses, on the EOP heap and one classical heap of each fixture.
        if mode == "eop" || mode == "copying" {
            c.command("report", &["report", d, "--json"]);
            c.command("doctor", &["doctor", d, "--json"]);
            let retained = c.command("retained", &["retained", d, "--json"]);
            let top = retained["top"].as_array().expect("top");
            let vars = retained["vars"].as_array().expect("vars");
            let addresses = top
                .iter()
                .chain(vars)
                .filter_map(|r| r["address"].as_str())
                .take(3);
            for address in addresses {
                c.command("object", &["object", d, address, "--json"]);
                c.command("path", &["path", d, address, "--json"]);
            }
        }
        if name == "compound" && mode == "eop" {
            c.command("value", &["vars", d, "person", "--format", "json"]);
            c.command("eval", &["eval", d, "--json", "vars.person"]);
            c.command("eval", &["eval", d, "--json", "[vars.person.age, 2 ** 64]"]);
        }
        if mode == "eop" {
            c.command("call", &["call", d, "dump", "--json"]);
        }
    }
    let g1 = common::fixture("growth1", "eop");
    let g2 = common::fixture("growth2", "eop");
    let g3 = common::fixture("growth3", "eop");
    let (g1, g2, g3) = (
        g1.to_str().unwrap(),
        g2.to_str().unwrap(),
        g3.to_str().unwrap(),
    );
    let diff = c.command("diff", &["diff", g1, g2, "--json"]);
    // The mount's diff/OLD..NEW/ files are these parts byte for byte (tests/it/mount_diff.rs).
    let mut summary = diff.clone();
    let parts = summary.as_object_mut().expect("an object");
    c.check(
        "diff-vars",
        &parts.remove("vars").unwrap(),
        "diff vars.json",
    );
    c.check(
        "diff-types",
        &parts.remove("types").unwrap(),
        "diff types.json",
    );
    c.check("diff-summary", &summary, "diff summary.json");
    c.command("trend", &["trend", g1, g2, g3, "--json"]);
    for schema in [
        "info", "stats", "vars", "report", "retained", "object", "path", "value", "eval", "call",
        "diff", "trend", "doctor",
    ] {
        assert!(
            c.checked.get(schema).copied().unwrap_or(0) > 0,
            "{schema} not checked"
        );
    }
}

/// The schema `mo-mem call SNAPSHOT METHOD --schema` makes from the method's Candid type.
fn method_schema(snapshot: &str, method: &str) -> jsonschema::Validator {
    let schema: Json =
        serde_json::from_slice(&common::mo_mem_ok(&["call", snapshot, method, "--schema"]))
            .expect("a JSON schema");
    assert_eq!(
        schema["$id"],
        format!("https://mo-mem.invalid/schemas/v1/call/{method}.schema.json")
    );
    jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{method}: {e}"))
}

#[test]
fn call_replies_follow_the_schemas_of_their_methods() {
    let Some(root) = common::generated_fixture("numbers") else {
        return;
    };
    let numbers = root.join("eop");
    let weak = common::fixture("weak", "eop");
    let (numbers, weak) = (numbers.to_str().unwrap(), weak.to_str().unwrap());
    let mut c = Checker::default();
    let calls: [(&str, &str, Option<&str>); 11] = [
        (numbers, "system_params", None),
        (numbers, "nats", None),
        (numbers, "ints", None),
        (numbers, "fixed", None),
        (numbers, "floats", None),
        (numbers, "echo_nat", Some("(18446744073709551616)")),
        (numbers, "echo_int64", Some("(-9007199254740993)")),
        (weak, "dump", None),
        (weak, "name_of", Some("(0)")),
        (weak, "whoami", None),
        (weak, "checked", Some("(4)")),
    ];
    for (snapshot, method, args) in calls {
        let mut argv = vec!["call", snapshot, method];
        argv.extend(args);
        argv.push("--json");
        let reply = c.command("call", &argv);
        let schema = method_schema(snapshot, method);
        let errors: Vec<String> = schema.iter_errors(&reply).map(|e| e.to_string()).collect();
        assert!(
            errors.is_empty(),
            "{method}: {reply} against its schema: {errors:?}"
        );
    }
    assert_eq!(c.checked["call"], 11);
    // The issue's reply (`"10_000"`) and a number beyond 2^53 do not fit their methods' schemas.
    let params = method_schema(numbers, "system_params");
    let mut reply: Json = serde_json::from_str(
        r#"[{"proposal_submission_deposit":{"amount_e8s":1000},"proposal_vote_threshold":{"amount_e8s":100000000},"transfer_fee":{"amount_e8s":10000}}]"#,
    )
    .unwrap();
    assert!(params.is_valid(&reply));
    reply[0]["transfer_fee"]["amount_e8s"] = Json::String("10_000".into());
    assert!(!params.is_valid(&reply));
    reply[0]["transfer_fee"]["amount_e8s"] = Json::String("10000".into());
    assert!(!params.is_valid(&reply));
    let nats = method_schema(numbers, "nats");
    assert!(nats.is_valid(&serde_json::json!([[1, "9007199254740993"]])));
    assert!(!nats.is_valid(&serde_json::json!([[1, 9007199254740993u64]])));
    assert!(!nats.is_valid(&serde_json::json!([[1, "9007199254740992"]])));
    assert!(!nats.is_valid(&serde_json::json!([[-1]])));
}

/// A tree over the snapshot `dir`, as the mount serves it.
fn tree(dir: &Path) -> Tree {
    let snapshot = SnapshotDir::new(
        "snap",
        dir,
        services(
            Arc::new(Snapshots::new(mo_mem::image::ReaderLimits::default())),
            mount_limits(),
        ),
    );
    Tree::new(Entry::Dir(Arc::new(snapshot)), TreeConfig::default()).unwrap()
}

fn read_all(tree: &Tree, ino: Ino) -> Vec<u8> {
    let open = tree.open(ino, false, SessionId(1)).unwrap();
    let mut out = Vec::new();
    loop {
        let chunk = tree.read(open.fh, out.len() as u64, 1 << 20).unwrap();
        if chunk.as_slice().is_empty() {
            break;
        }
        out.extend_from_slice(chunk.as_slice());
    }
    tree.release(open.fh);
    out
}

/// The schema of the mount's file at `path`, `None` for a file mo-mem does not write
/// (`metadata.json` is the snapshot's own, byte for byte).
fn schema_of(path: &str) -> Option<&'static str> {
    Some(match path {
        "/metadata.json" => return None,
        "/info.json" => "info",
        "/stats.json" => "stats",
        "/errors.json" => "errors",
        "/analysis/retained.json" => "retained",
        "/analysis/types.json" => "types",
        "/analysis/top.json" => "top",
        "/analysis/garbage.json" => "garbage",
        "/analysis/doctor.json" => "doctor",
        p if p.starts_with("/objects/") => "object",
        p if p.starts_with("/vars/") => "value",
        p => panic!("a .json file without a schema: {p}"),
    })
}

/// Walks the tree of `dir` and validates its `.json` files (at most `max_objects` of
/// `objects/`); the number checked per schema.
fn walk_and_check(dir: &Path, max_objects: usize, c: &mut Checker) {
    let tree = tree(dir);
    let mut stack = vec!["/".to_string()];
    let mut objects = 0;
    while let Some(path) = stack.pop() {
        let ino = tree.resolve(&path).unwrap();
        for (name, kind) in tree.names(ino, false).unwrap() {
            let child = format!("{}/{name}", path.trim_end_matches('/'));
            match kind {
                NodeKind::Dir if child == "/methods" => {}
                NodeKind::Dir => stack.push(child),
                NodeKind::File if name.ends_with(".json") => {
                    let Some(schema) = schema_of(&child) else {
                        continue;
                    };
                    if schema == "object" {
                        if objects == max_objects {
                            continue;
                        }
                        objects += 1;
                    }
                    let bytes = read_all(&tree, tree.resolve(&child).unwrap());
                    c.check_bytes(schema, &bytes, &format!("{}{child}", dir.display()));
                }
                _ => {}
            }
        }
    }
}

#[test]
fn a_mounted_fixture_json_files_follow_their_schemas() {
    let mut c = Checker::default();
    walk_and_check(&common::fixture("compound", "eop"), 400, &mut c);
    walk_and_check(&common::fixture("collections", "copying"), 200, &mut c);
    for (schema, at_least) in [
        ("info", 2),
        ("stats", 2),
        ("retained", 2),
        ("types", 2),
        ("top", 2),
        ("garbage", 2),
        ("object", 600),
        ("value", 100),
    ] {
        let n = c.checked.get(schema).copied().unwrap_or(0);
        assert!(n >= at_least, "{schema}: {n} files checked");
    }
}

#[test]
fn errors_json_follows_its_schema() {
    // A snapshot whose heap cannot be decoded: its main memory zeroed.
    let tmp = tempfile::tempdir().unwrap();
    let snap = tmp.path().join("broken");
    common::copy_snapshot(&common::fixture("weak", "eop"), &snap);
    let len = std::fs::metadata(snap.join("wasm_memory.bin"))
        .unwrap()
        .len();
    std::fs::write(snap.join("wasm_memory.bin"), vec![0u8; len as usize]).unwrap();
    let tree = tree(&snap);
    let ino = tree.resolve("/errors.json").expect("errors.json");
    let mut c = Checker::default();
    c.check_bytes("errors", &read_all(&tree, ino), "errors.json");
}

/// The schema of `mo-mem ARGS`'s JSON (`args[0]` the command), `None` when it prints none.
fn schema_of_command(args: &[String]) -> Option<&'static str> {
    let json = args.iter().any(|a| a == "--json")
        || args
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "json");
    if !json || args.iter().any(|a| a == "--schema") {
        return None;
    }
    Some(match args[0].as_str() {
        // `vars SNAPSHOT NAME`: one value; `vars SNAPSHOT`: every variable.
        "vars"
            if args
                .iter()
                .skip(2)
                .any(|a| !a.starts_with('-') && a != "json") =>
        {
            "value"
        }
        "vars" => "vars",
        "info" => "info",
        "stats" => "stats",
        "report" => "report",
        "retained" => "retained",
        "object" => "object",
        "path" => "path",
        "eval" => "eval",
        "diff" => "diff",
        "trend" => "trend",
        "call" => "call",
        "upgrade" => "upgrade",
        "doctor" => "doctor",
        other => panic!("an example of `{other} --json` without a schema"),
    })
}

/// Every JSON example of the docs follows its schema: an example showing a whole document
/// (`mo-mem … --json` without a filter, a ```` ```json ```` block of mo-mem's output) is
/// validated as shown; one shown through a filter (`| jq …`) is run on its fixture and its
/// whole output validated; a `call` reply also against its method's own schema.
#[test]
fn every_json_example_in_the_docs_follows_its_schema() {
    let mut c = Checker::default();
    let mut shown = 0;
    let mut run = 0;
    let docs = common::repo_root().join("docs");
    let mut files: Vec<_> = std::fs::read_dir(&docs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.push(common::repo_root().join("README.md"));
    files.sort();
    for file in files {
        let doc = std::fs::read_to_string(&file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for (command, expected) in common::doc_examples::console_examples(&doc) {
            let Some(cmd) = command.strip_prefix("mo-mem ") else {
                continue;
            };
            let (cmd, filter) = match cmd.split_once(" | ") {
                Some((cmd, filter)) => (cmd, Some(filter)),
                None => (cmd, None),
            };
            let words: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
            let Some(schema) = schema_of_command(&words) else {
                continue;
            };
            let what = format!("{name}: $ mo-mem {cmd}");
            if filter.is_none() {
                c.check_bytes(schema, expected.as_bytes(), &what);
                shown += 1;
                continue;
            }
            let args = common::doc_examples::fixture_args(cmd);
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let reply = c.command(schema, &argv);
            if schema == "call" {
                let method = method_schema(&args[1], &args[2]);
                let errors = common::schemas::errors_of(&method, &reply);
                assert!(errors.is_empty(), "{what}: {errors:?}");
            }
            run += 1;
        }
        // ```json blocks: mo-mem's output where the document says which (mount.md: an
        // object's JSON); other blocks (fixtures.md's scenario.json) are inputs, not output.
        for block in json_blocks(&doc) {
            match name.as_str() {
                "mount.md" => c.check_bytes("object", block.as_bytes(), "mount.md's ```json"),
                "fixtures.md" => continue,
                other => panic!("{other}: a ```json block of an unknown document"),
            }
            shown += 1;
        }
    }
    assert!(shown >= 7, "{shown} whole documents shown in the docs");
    assert!(run >= 10, "{run} filtered examples run");
    for schema in ["value", "call", "eval", "diff", "upgrade", "object"] {
        assert!(c.checked.contains_key(schema), "no example of {schema}");
    }
}

/// The bodies of the ```` ```json ```` blocks of a markdown document (indented ones too).
fn json_blocks(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut body: Option<String> = None;
    for line in md.lines() {
        let fence = line.trim_start();
        match &mut body {
            None if fence == "```json" => body = Some(String::new()),
            Some(_) if fence == "```" => out.extend(body.take()),
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
            None => {}
        }
    }
    out
}
