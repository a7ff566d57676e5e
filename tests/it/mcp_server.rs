//! `mo-mem mcp` driven by a real MCP client, the Python `mcp` package (`scripts/test`
//! installs it into `target/mcp-venv`; or set `MO_MEM_MCP_PYTHON`), through
//! `tests/data/mcp/client.py`: the tools are listed with their schemas, each is called on
//! committed fixtures and its answer is the CLI's `--json` for the same question (and follows
//! the same published schema); malformed calls get error results and the server keeps
//! serving; docs/agents.md's worked session gives what the document shows.

use crate::common;
use crate::common::schemas::Checker;
use serde_json::{json, Value as Json};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The Python that has the `mcp` package: `MO_MEM_MCP_PYTHON`, else `target/mcp-venv`.
fn mcp_python() -> Option<PathBuf> {
    let python = std::env::var_os("MO_MEM_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::repo_root().join("target/mcp-venv/bin/python3"));
    let ok = Command::new(&python)
        .args(["-c", "import mcp"])
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(python)
}

/// The Python client, or a skip (a failure under `MO_MEM_STRICT=1`).
fn python_or_skip() -> Option<PathBuf> {
    let python = mcp_python();
    if python.is_none() {
        common::skip::skipped(
            "the Python mcp package is not installed (scripts/test installs it into \
             target/mcp-venv; or set MO_MEM_MCP_PYTHON)",
        );
    }
    python
}

/// The fixtures the server is given, as `(served name, materialized dir)`.
fn served_fixtures() -> Vec<(&'static str, PathBuf)> {
    vec![
        ("compound-eop", common::fixture("compound", "eop")),
        ("weak-eop", common::fixture("weak", "eop")),
        ("growth1-eop", common::fixture("growth1", "eop")),
        ("growth2-eop", common::fixture("growth2", "eop")),
    ]
}

/// Runs `calls` (`[{"tool", "arguments"}]`) through the client against `mo-mem mcp ARGS`;
/// the client's report (`tools`, `calls`).
pub fn session(python: &PathBuf, server_args: &[String], calls: &Json) -> Json {
    let mut args = vec!["mcp".to_string()];
    args.extend_from_slice(server_args);
    let mut env: serde_json::Map<String, Json> = std::env::vars()
        .filter(|(k, _)| ["PATH", "HOME", "XDG_DATA_HOME", "MO_MEM_STORE"].contains(&k.as_str()))
        .map(|(k, v)| (k, Json::String(v)))
        .collect();
    env.insert("MO_MEM_LOG".into(), json!("warn"));
    let plan = json!({
        "command": env!("CARGO_BIN_EXE_mo-mem"),
        "args": args,
        "env": env,
        "calls": calls,
    });
    let client = common::repo_root().join("tests/data/mcp/client.py");
    let mut child = Command::new(python)
        .arg(&client)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the MCP client");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(plan.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the MCP client failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the client's report")
}

fn fixture_args() -> Vec<String> {
    served_fixtures()
        .into_iter()
        .map(|(_, dir)| dir.to_string_lossy().into_owned())
        .collect()
}

/// The CLI's JSON for `args`.
fn cli(args: &[&str]) -> Json {
    serde_json::from_slice(&common::mo_mem_ok(args)).expect("JSON")
}

/// The one JSON document a successful call answered (its first text content), checked to be
/// the structured content too where there is one.
fn answer(call: &Json, what: &str) -> Json {
    assert_eq!(call["isError"], false, "{what}: {call}");
    let text = call["text"][0].as_str().expect("a text content");
    let doc: Json = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}"));
    if !call["structured"].is_null() {
        assert_eq!(call["structured"], doc, "{what}: structured = text");
    }
    doc
}

/// `doc` with its `vars` cut to the first `n`.
fn vars_cut(mut doc: Json, n: usize) -> Json {
    doc["vars"].as_array_mut().unwrap().truncate(n);
    doc
}

/// `doc` with the arrays `lists` emptied.
fn emptied(mut doc: Json, lists: &[&str]) -> Json {
    for list in lists {
        doc[*list] = json!([]);
    }
    doc
}

#[test]
fn each_tool_answers_what_the_cli_prints() {
    let Some(python) = python_or_skip() else {
        return;
    };
    let compound = common::fixture("compound", "eop");
    let d = compound.to_str().unwrap();
    let retained = cli(&["retained", d, "--json", "--top", "20"]);
    let address = retained["top"][0]["address"].as_str().unwrap().to_string();
    let (g1, g2) = (
        common::fixture("growth1", "eop"),
        common::fixture("growth2", "eop"),
    );
    let weak = common::fixture("weak", "eop");
    let calls = json!([
        {"tool": "snapshots"},
        {"tool": "report", "arguments": {"snapshot": "compound-eop"}},
        {"tool": "retained", "arguments": {"snapshot": "compound-eop", "top": 20}},
        {"tool": "retained", "arguments": {"snapshot": "compound-eop", "by": "type", "top": 5}},
        {"tool": "path", "arguments": {"snapshot": "compound-eop", "address": address}},
        {"tool": "object", "arguments": {"snapshot": "compound-eop", "address": address, "top": 4096}},
        {"tool": "vars", "arguments": {"snapshot": "compound-eop", "name": "person"}},
        {"tool": "eval", "arguments": {"snapshot": "compound-eop", "script": "[vars.person.age, 2 ** 64]"}},
        {"tool": "diff", "arguments": {"old": "growth1-eop", "new": "growth2-eop", "top": 10000}},
        {"tool": "call", "arguments": {"snapshot": "weak-eop", "method": "dump"}},
        {"tool": "call", "arguments": {"snapshot": "weak-eop", "method": "checked", "args": "(4)"}},
        {"tool": "retained", "arguments": {"snapshot": "compound-eop"}},
        {"tool": "doctor", "arguments": {"snapshot": "compound-eop"}},
    ]);
    let report = session(&python, &fixture_args(), &calls);
    assert_eq!(report["server"], "mo-mem");
    let names: Vec<&str> = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "snapshots",
            "report",
            "retained",
            "path",
            "object",
            "vars",
            "eval",
            "diff",
            "call",
            "doctor"
        ]
    );
    for tool in report["tools"].as_array().unwrap() {
        assert!(tool["description"].as_str().unwrap().len() > 40, "{tool}");
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
    }
    let c = &report["calls"];
    let mut checker = Checker::default();
    // snapshots: the served names and directories.
    let listed = answer(&c[0], "snapshots");
    checker.check("mcp-snapshots", &listed, "snapshots");
    let served: Vec<(String, String)> = listed["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().into(),
                s["dir"].as_str().unwrap().into(),
            )
        })
        .collect();
    // in the order given, as the mount lists them
    let want: Vec<(String, String)> = served_fixtures()
        .into_iter()
        .map(|(n, d)| {
            (
                n.into(),
                d.canonicalize().unwrap().to_string_lossy().into_owned(),
            )
        })
        .collect();
    assert_eq!(served, want);
    let same = |i: usize, schema: &str, expected: Json, checker: &mut Checker| {
        let got = answer(&c[i], schema);
        checker.check(schema, &got, &format!("the {schema} tool"));
        assert_eq!(got, expected, "call {i} ({schema})");
    };
    same(1, "report", cli(&["report", d, "--json"]), &mut checker);
    same(12, "doctor", cli(&["doctor", d, "--json"]), &mut checker);
    // the tool cuts the variables to `top` too (the CLI lists them all)
    same(2, "retained", vars_cut(retained.clone(), 20), &mut checker);
    let by_type = cli(&["retained", d, "--json", "--top", "5"]);
    same(
        3,
        "retained",
        emptied(by_type, &["vars", "top"]),
        &mut checker,
    );
    same(
        4,
        "path",
        cli(&["path", d, &address, "--json"]),
        &mut checker,
    );
    same(
        5,
        "object",
        cli(&["object", d, &address, "--json"]),
        &mut checker,
    );
    // vars: byte for byte the CLI's text.
    let person = common::mo_mem_ok(&["vars", d, "person", "--format", "json"]);
    assert_eq!(c[6]["text"][0].as_str().unwrap().as_bytes(), &person[..]);
    checker.check_bytes("value", &person, "vars person");
    same(
        7,
        "eval",
        cli(&["eval", d, "--json", "[vars.person.age, 2 ** 64]"]),
        &mut checker,
    );
    let (g1, g2) = (g1.to_str().unwrap(), g2.to_str().unwrap());
    same(8, "diff", cli(&["diff", g1, g2, "--json"]), &mut checker);
    let w = weak.to_str().unwrap();
    let dump = answer(&c[9], "call");
    checker.check("call", &dump, "call dump");
    assert_eq!(dump, cli(&["call", w, "dump", "--json"]));
    assert_eq!(
        answer(&c[10], "call"),
        cli(&["call", w, "checked", "(4)", "--json"])
    );
    // compact by default: 10 rows, and a note saying what was cut when there was more.
    let compact = answer(&c[11], "retained");
    let full = cli(&["retained", d, "--json", "--top", "10"]);
    let total_vars = full["vars"].as_array().unwrap().len();
    assert_eq!(compact, vars_cut(full, 10));
    if total_vars > 10 {
        let note = c[11]["text"][1].as_str().unwrap();
        assert!(note.contains(&format!("of {total_vars}")), "{note}");
    }
}

#[test]
fn malformed_calls_get_error_results_and_the_server_keeps_serving() {
    let Some(python) = python_or_skip() else {
        return;
    };
    let bad = [
        json!({"tool": "report", "arguments": {}}),
        json!({"tool": "report", "arguments": {"snapshot": 7}}),
        json!({"tool": "report", "arguments": {"snapshot": "no-such-snapshot"}}),
        json!({"tool": "report", "arguments": {"snapshot": "compound-eop", "extra": 1}}),
        json!({"tool": "retained", "arguments": {"snapshot": "compound-eop", "by": "colour"}}),
        json!({"tool": "retained", "arguments": {"snapshot": "compound-eop", "top": 0}}),
        json!({"tool": "retained", "arguments": {"snapshot": "compound-eop", "top": -3}}),
        json!({"tool": "object", "arguments": {"snapshot": "compound-eop", "address": "zzz"}}),
        json!({"tool": "object", "arguments": {"snapshot": "compound-eop", "address": "0x3"}}),
        json!({"tool": "path", "arguments": {"snapshot": "compound-eop", "address": "0x10"}}),
        json!({"tool": "vars", "arguments": {"snapshot": "compound-eop", "name": "nope"}}),
        json!({"tool": "vars", "arguments": {"snapshot": "compound-eop", "name": "person", "max_bytes": 4}}),
        json!({"tool": "eval", "arguments": {"snapshot": "compound-eop", "script": "let x = ;"}}),
        json!({"tool": "eval", "arguments": {"snapshot": "compound-eop", "script": "loop {}", "timeout_seconds": 1}}),
        json!({"tool": "diff", "arguments": {"old": "growth1-eop"}}),
        json!({"tool": "call", "arguments": {"snapshot": "weak-eop", "method": "no_such_method"}}),
        json!({"tool": "call", "arguments": {"snapshot": "weak-eop", "method": "checked", "args": "(\"not a nat\")"}}),
        json!({"tool": "no_such_tool", "arguments": {}}),
    ];
    let mut calls: Vec<Json> = Vec::new();
    for b in &bad {
        calls.push(b.clone());
        calls.push(json!({"tool": "snapshots"}));
    }
    let report = session(&python, &fixture_args(), &Json::Array(calls));
    let c = report["calls"].as_array().unwrap();
    assert_eq!(c.len(), bad.len() * 2);
    for (i, b) in bad.iter().enumerate() {
        let got = &c[2 * i];
        assert_eq!(got["isError"], true, "{b}: {got}");
        let message = got["text"][0].as_str().unwrap();
        assert!(
            !message.is_empty() && !message.contains("panicked"),
            "{b}: {message}"
        );
        // the next call is answered
        answer(&c[2 * i + 1], "snapshots after an error");
    }
    let says = |i: usize, what: &str| {
        let message = c[2 * i]["text"][0].as_str().unwrap();
        assert!(message.contains(what), "{}: {message}", bad[i]);
    };
    says(0, "\"snapshot\" is required");
    says(2, "no snapshot named");
    says(3, "no argument \"extra\"");
    says(7, "invalid address");
    says(11, "max_bytes");
    says(17, "no tool");
}

/// The server answers a protocol message that is not JSON with an error, then goes on:
/// `initialize`, garbage, `tools/list`, over a raw pipe.
#[test]
fn a_line_that_is_not_json_does_not_stop_the_server() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mo-mem"))
        .arg("mcp")
        .args(fixture_args())
        .env("MO_MEM_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}});
    for line in [
        init.to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
        "this is not JSON".to_string(),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string(),
    ] {
        writeln!(stdin, "{line}").unwrap();
    }
    stdin.flush().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let Ok(msg) = serde_json::from_str::<Json>(&line) else {
                continue;
            };
            if msg["id"] == 2 {
                let _ = tx.send(msg);
                return;
            }
        }
    });
    let listed = rx.recv_timeout(std::time::Duration::from_secs(20));
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    let listed = listed.expect("tools/list answered after the garbage line");
    assert_eq!(
        listed["result"]["tools"].as_array().map(Vec::len),
        Some(mo_mem::mcp::tools::NAMES.len()),
        "{listed}"
    );
}

/// The `(call, answer)` pairs of docs/agents.md's worked session: each ```` ```json mcp-call
/// ```` block and the ```` ```json mcp-result ```` block after it.
fn documented_session(md: &str) -> Vec<(Json, Json)> {
    let mut blocks: Vec<(String, String)> = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in md.lines() {
        match (&mut open, line.strip_prefix("```json ")) {
            (None, Some(kind)) => open = Some((kind.to_string(), String::new())),
            (Some(_), _) if line == "```" => blocks.extend(open.take()),
            (Some((_, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            _ => {}
        }
    }
    let mut pairs = Vec::new();
    let mut call: Option<Json> = None;
    for (kind, body) in blocks {
        let doc: Json = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
        match kind.as_str() {
            "mcp-call" => call = Some(doc),
            "mcp-result" => pairs.push((call.take().expect("a call before its result"), doc)),
            _ => {}
        }
    }
    pairs
}

/// Where a snapshot lies differs per machine: `dir` masked.
fn without_dirs(mut doc: Json) -> Json {
    if let Some(list) = doc.get_mut("snapshots").and_then(Json::as_array_mut) {
        for s in list {
            s["dir"] = json!("…");
        }
    }
    doc
}

#[test]
fn the_documented_session_answers_what_the_document_shows() {
    let Some(python) = python_or_skip() else {
        return;
    };
    let md = std::fs::read_to_string(common::repo_root().join("docs/agents.md")).unwrap();
    let pairs = documented_session(&md);
    assert!(pairs.len() >= 5, "{} calls in the session", pairs.len());
    let calls: Vec<Json> = pairs.iter().map(|(c, _)| c.clone()).collect();
    let report = session(&python, &fixture_args(), &Json::Array(calls));
    let mut checker = Checker::default();
    for (i, (call, shown)) in pairs.iter().enumerate() {
        let got = &report["calls"][i];
        let doc = answer(got, &call.to_string());
        let tool = call["tool"].as_str().unwrap();
        let schema = match tool {
            "snapshots" => "mcp-snapshots",
            "vars" => "value",
            other => other,
        };
        checker.check(schema, shown, &format!("docs/agents.md: {call}"));
        assert_eq!(
            without_dirs(doc),
            without_dirs(shown.clone()),
            "docs/agents.md: {call}"
        );
    }
}
