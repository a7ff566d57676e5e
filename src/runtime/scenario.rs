//! Fixture scenarios (`motoko/fixtures/<name>/scenario.json`): install a module, run its init and
//! update calls, ask `dump` for the ground truth, and produce the snapshot directory's files.

use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;

use candid::{Decode, Encode, Int, Nat};
use serde::Deserialize;

use super::canister::Canister;
use super::config::RuntimeConfig;
use super::error::RuntimeError;
use super::service::Service;
use crate::snapshot::fixture::{
    gzip_deterministic, write_dir_atomically, EXPECTED_FILE, METADATA_FILE,
};
use crate::snapshot::metadata::{SnapshotMetadata, FIXTURE_TIMESTAMP_NS};

/// Largest scenario file accepted.
pub const MAX_SCENARIO_BYTES: u64 = 1024 * 1024;

/// Largest number of calls in a scenario.
pub const MAX_CALLS: usize = 1_000_000;

/// Why a scenario could not be loaded or run.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The scenario file could not be read.
    #[error("{file}: {error}")]
    Io {
        /// The file.
        file: String,
        /// The error.
        error: std::io::Error,
    },
    /// The scenario JSON is malformed or violates a limit.
    #[error("{file}: invalid scenario: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// A step of the scenario failed on the runner.
    #[error("scenario step {step}: {error}")]
    Step {
        /// `init`, `call N (method)` or `dump`.
        step: String,
        /// The runner's error.
        error: RuntimeError,
    },
    /// `dump` replied with something that is not `[(Text, Text)]` with unique names.
    #[error("dump: {0}")]
    Dump(String),
    /// Writing the snapshot directory failed.
    #[error("writing {dir}: {error}")]
    Write {
        /// The output directory.
        dir: String,
        /// The error.
        error: std::io::Error,
    },
}

/// One Candid argument of a scenario call.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum ArgValue {
    /// A `Nat`: a JSON integer or a decimal string (for values beyond 2^53).
    Nat(serde_json::Value),
    /// An `Int`: a JSON integer or a decimal string.
    Int(serde_json::Value),
    /// A `Text`.
    Text(String),
    /// A `Bool`.
    Bool(bool),
    /// A `Nat64`.
    Nat64(u64),
}

/// One update call of a scenario.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    /// The update method.
    pub method: String,
    /// Its arguments, in order.
    #[serde(default)]
    pub args: Vec<ArgValue>,
}

/// A query asked of the live canister when its snapshot is taken; its reply is recorded in
/// `expected.json` (`replies`), so the runner's offline answers can be checked against it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Query {
    /// The query method.
    pub method: String,
    /// Its arguments as Candid text (empty: none).
    #[serde(default)]
    pub args: String,
}

/// A fixture scenario (format in `docs/fixtures.md`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// What the fixture covers.
    #[serde(default)]
    pub description: String,
    /// The npm alias (in `scripts/package.json`) of the compiler that builds it, when it is
    /// not the pinned `motoko` (an older release, e.g. `motoko-0-7`).
    #[serde(default)]
    pub compiler: Option<String>,
    /// The modes it is compiled in.
    #[serde(default)]
    pub modes: Vec<String>,
    /// The modes that also get a `-forcegc` variant.
    #[serde(default)]
    pub force_gc_modes: Vec<String>,
    /// `canister_init` arguments.
    #[serde(default)]
    pub init_args: Vec<ArgValue>,
    /// The update calls, in order.
    #[serde(default)]
    pub calls: Vec<Call>,
    /// Queries whose replies are recorded after the calls.
    #[serde(default)]
    pub queries: Vec<Query>,
    /// Whether the snapshots are committed (false: generated on demand).
    #[serde(default = "yes")]
    pub committed: bool,
}

fn yes() -> bool {
    true
}

impl Scenario {
    /// Parses scenario JSON; `file` names it in errors.
    pub fn from_json(bytes: &[u8], file: &str) -> Result<Scenario, ScenarioError> {
        let invalid = |message: String| ScenarioError::Invalid {
            file: file.to_string(),
            message,
        };
        if bytes.len() as u64 > MAX_SCENARIO_BYTES {
            return Err(invalid(format!("larger than {MAX_SCENARIO_BYTES} bytes")));
        }
        let s: Scenario = serde_json::from_slice(bytes)
            .map_err(|e| invalid(format!("line {} column {}: {e}", e.line(), e.column())))?;
        if s.calls.len() > MAX_CALLS || s.queries.len() > MAX_CALLS {
            return Err(invalid(format!("more than {MAX_CALLS} calls")));
        }
        // Check every argument encodes now, so a bad one is reported before anything runs.
        encode_args(&s.init_args).map_err(|e| invalid(format!("init_args: {e}")))?;
        for (i, c) in s.calls.iter().enumerate() {
            encode_args(&c.args).map_err(|e| invalid(format!("call {i} ({}): {e}", c.method)))?;
        }
        Ok(s)
    }

    /// Reads and parses a scenario file (at most [`MAX_SCENARIO_BYTES`]).
    pub fn read(path: &Path) -> Result<Scenario, ScenarioError> {
        let file = path.display().to_string();
        let io = |error| ScenarioError::Io {
            file: file.clone(),
            error,
        };
        let len = std::fs::metadata(path).map_err(io)?.len();
        if len > MAX_SCENARIO_BYTES {
            return Err(ScenarioError::Invalid {
                file,
                message: format!("larger than {MAX_SCENARIO_BYTES} bytes"),
            });
        }
        let bytes = std::fs::read(path).map_err(io)?;
        Scenario::from_json(&bytes, &file)
    }
}

/// A JSON integer or decimal string as a big-number string.
fn decimal(v: &serde_json::Value) -> Result<String, String> {
    match v {
        serde_json::Value::Number(n) if n.is_u64() || n.is_i64() => Ok(n.to_string()),
        serde_json::Value::String(s) => Ok(s.replace('_', "")),
        other => Err(format!(
            "{other} is not an integer (use a decimal string beyond 2^53)"
        )),
    }
}

/// Encodes scenario arguments as one Candid message.
pub fn encode_args(args: &[ArgValue]) -> Result<Vec<u8>, String> {
    let mut b = candid::ser::IDLBuilder::new();
    for a in args {
        match a {
            ArgValue::Nat(v) => {
                let n = Nat::from_str(&decimal(v)?).map_err(|e| format!("bad nat: {e}"))?;
                b.arg(&n)
            }
            ArgValue::Int(v) => {
                let n = Int::from_str(&decimal(v)?).map_err(|e| format!("bad int: {e}"))?;
                b.arg(&n)
            }
            ArgValue::Text(t) => b.arg(t),
            ArgValue::Bool(x) => b.arg(x),
            ArgValue::Nat64(x) => b.arg(x),
        }
        .map_err(|e| e.to_string())?;
    }
    b.serialize_to_vec().map_err(|e| e.to_string())
}

/// The contents of a generated snapshot directory.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotFiles {
    /// `metadata.json`.
    pub metadata: String,
    /// `expected.json`.
    pub expected: String,
    /// `wasm_module.bin`.
    pub wasm_module: Vec<u8>,
    /// `wasm_memory.bin`.
    pub wasm_memory: Vec<u8>,
    /// `stable_memory.bin`.
    pub stable_memory: Vec<u8>,
    /// The `(name, debug_show)` pairs `dump` returned, sorted by name.
    pub vars: BTreeMap<String, String>,
    /// The pairs `dump` returned whose name holds a dot (`PATH.entries`, `PATH.values`: PATH a
    /// variable name, maybe followed by `.field`s): a collection's iteration in its own order
    /// (`views` in expected.json, the ground truth of the natural views).
    pub views: BTreeMap<String, String>,
}

/// The moc version recorded in the module's `motoko:compiler` custom section, if any.
pub fn compiler_version(wasm: &[u8]) -> Option<String> {
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        if let Ok(wasmparser::Payload::CustomSection(c)) = payload {
            let name = c.name();
            let bare = name
                .strip_prefix("icp:private ")
                .or_else(|| name.strip_prefix("icp:public "))
                .unwrap_or(name);
            if bare == "motoko:compiler" {
                return std::str::from_utf8(c.data()).ok().map(str::to_string);
            }
        }
    }
    None
}

fn step(step: impl Into<String>) -> impl FnOnce(RuntimeError) -> ScenarioError {
    let step = step.into();
    move |error| ScenarioError::Step { step, error }
}

/// Runs `scenario` on `wasm` and returns the snapshot files of the idle canister afterwards.
/// `fixture` and `mode` go into `expected.json`; `compiler` overrides the version read from the
/// module.
pub fn run_scenario(
    wasm: &[u8],
    scenario: &Scenario,
    fixture: &str,
    mode: &str,
    compiler: Option<&str>,
    cfg: RuntimeConfig,
) -> Result<SnapshotFiles, ScenarioError> {
    let mut canister = Canister::new(wasm, cfg).map_err(step("load"))?;
    let init = encode_args(&scenario.init_args)
        .map_err(RuntimeError::Candid)
        .map_err(step("init"))?;
    canister.init(&init).map_err(step("init"))?;
    for (i, call) in scenario.calls.iter().enumerate() {
        let label = format!("call {i} ({})", call.method);
        let arg = encode_args(&call.args)
            .map_err(RuntimeError::Candid)
            .map_err(step(label.clone()))?;
        canister.update(&call.method, &arg).map_err(step(label))?;
    }
    let reply = canister
        .query(
            "dump",
            &Encode!().map_err(|e| ScenarioError::Dump(e.to_string()))?,
        )
        .map_err(step("dump"))?;
    let pairs = Decode!(&reply, Vec<(String, String)>)
        .map_err(|e| ScenarioError::Dump(format!("not [(Text, Text)]: {e}")))?;
    let mut vars = BTreeMap::new();
    // `NAME.entries`/`NAME.values`: a collection's iteration (its natural view), kept apart.
    let mut views = BTreeMap::new();
    for (name, value) in pairs {
        let into = if name.contains('.') {
            &mut views
        } else {
            &mut vars
        };
        if into.insert(name.clone(), value).is_some() {
            return Err(ScenarioError::Dump(format!(
                "variable {name:?} listed twice"
            )));
        }
    }
    let replies = record_replies(&mut canister, &scenario.queries)?;
    let wasm_module = canister.wasm_module().to_vec();
    let compiler = compiler
        .map(str::to_string)
        .or_else(|| compiler_version(&wasm_module))
        .unwrap_or_default();
    let mut expected = serde_json::json!({
        "fixture": fixture,
        "mode": mode,
        "compiler": compiler,
        "vars": vars,
    });
    if !replies.is_empty() {
        expected["replies"] = serde_json::Value::Array(replies);
    }
    if !views.is_empty() {
        expected["views"] = serde_json::json!(views);
    }
    let expected =
        serde_json::to_string_pretty(&expected).map_err(|e| ScenarioError::Dump(e.to_string()))?;
    let wasm_memory = canister.main_memory().to_vec();
    let stable_memory = canister.stable_memory().to_vec();
    let mut meta = SnapshotMetadata::taken_from_canister(
        FIXTURE_TIMESTAMP_NS,
        wasm_module.len() as u64,
        &canister.mutable_globals(),
        wasm_memory.len() as u64,
        stable_memory.len() as u64,
        canister.messages_executed(),
    );
    if let Some(t) = canister.global_timer() {
        meta.0.global_timer = Some(ic_management_canister_types::CanisterTimer::Active(t));
    }
    meta.0.certified_data = canister.certified_data().to_vec();
    let metadata = meta
        .to_json_pretty()
        .map_err(|e| ScenarioError::Dump(e.to_string()))?;
    Ok(SnapshotFiles {
        metadata,
        expected: expected + "\n",
        wasm_module,
        wasm_memory,
        stable_memory,
        vars,
        views,
    })
}

/// Asks the live canister each of `queries` (its state restored after each) and records
/// `{"method", "args", "caller", "reply"}` (the reply as Candid text with the method's types)
/// or `{"method", "args", "caller", "error"}` (a trap or reject, as the runner reports it).
fn record_replies(
    canister: &mut Canister,
    queries: &[Query],
) -> Result<Vec<serde_json::Value>, ScenarioError> {
    if queries.is_empty() {
        return Ok(Vec::new());
    }
    let service = Service::of_module(canister.wasm_module())
        .map_err(|e| ScenarioError::Dump(format!("queries: {e}")))?;
    let mut out = Vec::new();
    for q in queries {
        let label = format!("query {} {}", q.method, q.args);
        let arg = service
            .encode_args(&q.method, &q.args)
            .map_err(|e| ScenarioError::Dump(format!("{label}: {e}")))?;
        let caller = canister.config().caller.to_text();
        let mut entry = serde_json::json!({ "method": q.method, "args": q.args, "caller": caller });
        match canister.query(&q.method, &arg) {
            Ok(bytes) => {
                let reply = service
                    .decode_reply(&q.method, &bytes)
                    .map_err(|e| ScenarioError::Dump(format!("{label}: {e}")))?;
                entry["reply"] = reply.to_string().into();
            }
            Err(e) => entry["error"] = e.to_string().into(),
        }
        out.push(entry);
    }
    Ok(out)
}

/// Writes `files` as a snapshot directory `dir` atomically; with `gzip` the raw files are written
/// as deterministic `*.bin.gz` (the committed form).
pub fn write_snapshot_dir(
    dir: &Path,
    files: &SnapshotFiles,
    gzip: bool,
) -> Result<(), ScenarioError> {
    let werr = |error| ScenarioError::Write {
        dir: dir.display().to_string(),
        error,
    };
    let raw: [(&str, &[u8]); 3] = [
        ("wasm_module", &files.wasm_module),
        ("wasm_memory", &files.wasm_memory),
        ("stable_memory", &files.stable_memory),
    ];
    let mut named: Vec<(String, Vec<u8>)> = vec![
        (
            METADATA_FILE.to_string(),
            files.metadata.as_bytes().to_vec(),
        ),
        (
            EXPECTED_FILE.to_string(),
            files.expected.as_bytes().to_vec(),
        ),
    ];
    for (name, bytes) in raw {
        if gzip {
            named.push((
                format!("{name}.bin.gz"),
                gzip_deterministic(bytes).map_err(werr)?,
            ));
        } else {
            named.push((format!("{name}.bin"), bytes.to_vec()));
        }
    }
    let refs: Vec<(&str, &[u8])> = named
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    write_dir_atomically(dir, &refs).map_err(werr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_contract_example() {
        let s = Scenario::from_json(
            br#"{ "description": "what it covers",
              "modes": ["eop", "copying"], "force_gc_modes": ["eop"], "init_args": [],
              "calls": [ {"method": "fill", "args": [{"nat": 3000}, {"int": "-99999999999999999999"},
                {"text": "x"}, {"bool": true}, {"nat64": 18446744073709551615}]}, {"method": "step"} ],
              "committed": true }"#,
            "s.json",
        )
        .unwrap();
        assert_eq!(s.calls.len(), 2);
        assert_eq!(s.calls[1].args, vec![]);
        let bytes = encode_args(&s.calls[0].args).unwrap();
        let (n, i, t, b, x) = Decode!(&bytes, Nat, Int, String, bool, u64).unwrap();
        assert_eq!(n, 3000u32);
        assert_eq!(i.to_string().replace('_', ""), "-99999999999999999999");
        assert_eq!((t.as_str(), b, x), ("x", true, u64::MAX));
    }

    #[test]
    fn bad_scenarios_are_refused_with_the_file_name() {
        for bad in [
            &br#"{"calls": [{"method": "f", "args": [{"nat": -1}]}]}"#[..],
            br#"{"calls": [{"method": "f", "args": [{"nat": 1.5}]}]}"#,
            br#"{"calls": [{"method": "f", "args": [{"float": 1}]}]}"#,
            br#"{"calls": [{"method": "f", "args": [{"int": "12a"}]}]}"#,
            br#"{"calls": 5}"#,
            br#"{"unknown": 5}"#,
        ] {
            let err = Scenario::from_json(bad, "x/scenario.json").unwrap_err();
            assert!(err.to_string().starts_with("x/scenario.json"), "{err}");
        }
    }
}
