//! Each tool's answer, built by the library's own builders: the JSON is the CLI's `--json`
//! (or `--format json`) document for the same question, cut to the first entries of its long
//! lists when the agent asks for fewer (each cut said in a note).

use super::args::Args;
pub use super::error::ToolError;
use super::served::Served;
use crate::analysis::diff::json::DiffJson;
use crate::analysis::diff::SnapshotDiff;
use crate::analysis::doctor::DoctorReport;
use crate::analysis::path::path_to;
use crate::analysis::progress::NoProgress;
use crate::analysis::report::MemoryReport;
use crate::analysis::retained_json::RetainedJson;
use crate::analysis::{HeapAnalysis, OpenedHeap};
use crate::runtime::offline::{CallOptions, QUERY_INSTRUCTIONS};
use crate::runtime::reply_json::args_json;
use crate::script::Limits;
use crate::serve::object_lookup::{object_view_at, parse_address};
use crate::serve::script_run::{run_script, ScriptRun};
use crate::serve::siblings::catalog_siblings;
use crate::serve::vars_render::{render_vars, VarsFormat};
use crate::serve::{one_canister, Admitted};
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::Duration;

/// A tool's answer: its JSON document (as text, byte for byte the CLI's where nothing is
/// cut) and notes for the agent (what was left out, and how to ask for it).
#[derive(Debug, Clone)]
pub struct Answer {
    /// The JSON text.
    pub text: String,
    /// The document, parsed (for the structured result of object-shaped answers).
    pub json: Value,
    /// What was cut.
    pub notes: Vec<String>,
}

impl Answer {
    fn of(json: Value, notes: Vec<String>) -> Result<Answer, ToolError> {
        let text = serde_json::to_string_pretty(&json).map_err(ToolError::failed)? + "\n";
        Ok(Answer { text, json, notes })
    }
}

pub use super::error::{COMPACT_TOP, COMPACT_VALUE_BYTES, MAX_TOP};

/// The arguments that name a snapshot.
const SNAPSHOT_ARGS: [&str; 3] = ["snapshot", "old", "new"];

/// Answers the tool `name` with the arguments `args`. A call over snapshots keeps only
/// their heap analyses afterwards ([`Served::keep_analyses_of`]).
pub fn answer(served: &Served, name: &str, args: &Map<String, Value>) -> Result<Answer, ToolError> {
    let answered = answer_tool(served, name, args);
    let used: Vec<&str> = SNAPSHOT_ARGS
        .iter()
        .filter_map(|k| args.get(*k)?.as_str())
        .collect();
    if !used.is_empty() {
        served.keep_analyses_of(&used);
    }
    answered
}

/// The answer of tool `name`.
fn answer_tool(
    served: &Served,
    name: &str,
    args: &Map<String, Value>,
) -> Result<Answer, ToolError> {
    match name {
        "snapshots" => snapshots(served, &Args::new(name, args, &[])?),
        "report" => report(served, &Args::new(name, args, &["snapshot"])?),
        "doctor" => doctor(served, &Args::new(name, args, &["snapshot"])?),
        "retained" => retained(served, &Args::new(name, args, &["snapshot", "by", "top"])?),
        "path" => path(served, &Args::new(name, args, &["snapshot", "address"])?),
        "object" => object(
            served,
            &Args::new(name, args, &["snapshot", "address", "top"])?,
        ),
        "vars" => vars(
            served,
            &Args::new(name, args, &["snapshot", "name", "raw", "max_bytes"])?,
        ),
        "eval" => eval(
            served,
            &Args::new(
                name,
                args,
                &["snapshot", "script", "raw", "timeout_seconds"],
            )?,
        ),
        "diff" => diff(served, &Args::new(name, args, &["old", "new", "top"])?),
        "call" => call(
            served,
            &Args::new(name, args, &["snapshot", "method", "args", "caller"])?,
        ),
        other => Err(ToolError::BadArgument(format!(
            "no tool {other:?}: the tools are {}",
            super::tools::NAMES.join(", ")
        ))),
    }
}

/// The admitted snapshot of the argument `arg` and its opened heap.
fn heap_of(
    served: &Served,
    args: &Args,
    arg: &str,
) -> Result<(Admitted, Arc<OpenedHeap>), ToolError> {
    let admitted = served.admitted(args.text(arg)?)?;
    let heap = admitted.snapshot.heap().map_err(ToolError::failed)?.clone();
    Ok((admitted, heap))
}

/// The heap analysis of `opened` (with its types, as `retained --json` and `report` need).
fn analysis(opened: &OpenedHeap) -> Result<Arc<HeapAnalysis>, ToolError> {
    let a = opened
        .analysis_with(&NoProgress)
        .map_err(|e| ToolError::Failed(format!("cannot analyse the heap: {e}")))?;
    a.types_with(opened, &NoProgress);
    Ok(a)
}

/// `doc[key]` cut to its first `keep` entries; a note if it was longer.
fn cut(doc: &mut Value, key: &str, keep: u64, ask: &str) -> Option<String> {
    let list = doc.get_mut(key)?.as_array_mut()?;
    let total = list.len();
    let keep = usize::try_from(keep).unwrap_or(usize::MAX);
    if total <= keep {
        return None;
    }
    list.truncate(keep);
    Some(format!(
        "{key}: the first {keep} of {total} shown ({ask} for more)"
    ))
}

fn snapshots(served: &Served, _args: &Args) -> Result<Answer, ToolError> {
    let list: Vec<Value> = served
        .list()?
        .into_iter()
        .map(|(name, dir)| json!({"name": name, "dir": dir}))
        .collect();
    Answer::of(json!({ "snapshots": list }), Vec::new())
}

fn report(served: &Served, args: &Args) -> Result<Answer, ToolError> {
    let (_, opened) = heap_of(served, args, "snapshot")?;
    let a = analysis(&opened)?;
    let a = &*a;
    let doc = serde_json::to_value(MemoryReport::new(&opened, a)).map_err(ToolError::failed)?;
    Answer::of(doc, Vec::new())
}

fn doctor(served: &Served, args: &Args) -> Result<Answer, ToolError> {
    let (_, opened) = heap_of(served, args, "snapshot")?;
    let a = analysis(&opened)?;
    let a = &*a;
    let bytes = DoctorReport::new(&opened, a)
        .json()
        .map_err(ToolError::failed)?;
    let doc = serde_json::from_slice(&bytes).map_err(ToolError::failed)?;
    Answer::of(doc, Vec::new())
}

fn retained(served: &Served, args: &Args) -> Result<Answer, ToolError> {
    let (_, opened) = heap_of(served, args, "snapshot")?;
    let by = args.choice("by", &["var", "type", "object"])?;
    let top = args.count("top", COMPACT_TOP, MAX_TOP)?;
    let a = analysis(&opened)?;
    let a = &*a;
    let json = RetainedJson::new(&opened, a, usize::try_from(top).unwrap_or(usize::MAX));
    let mut doc = serde_json::to_value(json).map_err(ToolError::failed)?;
    let mut notes = Vec::new();
    // `by`: only that view's list; the others are left empty.
    let keep = match by {
        None => &["vars", "types", "top"][..],
        Some("var") => &["vars"][..],
        Some("type") => &["types"][..],
        Some(_) => &["top"][..],
    };
    for list in ["vars", "types", "top"] {
        if !keep.contains(&list) {
            doc[list] = json!([]);
        }
    }
    notes.extend(cut(&mut doc, "vars", top, "top"));
    Answer::of(doc, notes)
}

fn path(served: &Served, args: &Args) -> Result<Answer, ToolError> {
    let address =
        parse_address(args.text("address")?).map_err(|e| ToolError::BadArgument(e.to_string()))?;
    let (_, opened) = heap_of(served, args, "snapshot")?;
    let a = analysis(&opened)?;
    let a = &*a;
    let (address, path) = path_to(&opened, a, address).map_err(ToolError::failed)?;
    Answer::of(path.to_json(address), Vec::new())
}

fn object(served: &Served, args: &Args) -> Result<Answer, ToolError> {
    let address =
        parse_address(args.text("address")?).map_err(|e| ToolError::BadArgument(e.to_string()))?;
    let top = args.count("top", 64, MAX_TOP)?;
    let (_, opened) = heap_of(served, args, "snapshot")?;
    let view = object_view_at(&opened, address).map_err(ToolError::failed)?;
    let mut doc = view.to_json();
    let mut notes = Vec::new();
    for list in ["fields", "elements", "references"] {
        let total = doc.get(list).and_then(Value::as_array).map_or(0, Vec::len);
        if let Some(note) = cut(&mut doc, list, top, "top") {
            // as the CLI says a list it cuts: `NAME_total` counts them all
            let total_key = format!("{list}_total");
            if doc.get(&total_key).is_none() {
                doc[total_key] = json!(total);
            }
            notes.push(note);
        }
    }
    Answer::of(doc, notes)
}

fn vars(served: &Served, args: &Args) -> Result<Answer, ToolError> {
    let name = args.text("name")?;
    let raw = args.flag("raw")?;
    let max = args.count("max_bytes", COMPACT_VALUE_BYTES, 64 << 30)?;
    let (_, opened) = heap_of(served, args, "snapshot")?;
    let done =
        render_vars(&opened, Some(name), VarsFormat::Json, raw).map_err(ToolError::failed)?;
    if let Some(failure) = done.failures.first() {
        return Err(ToolError::Failed(failure.clone()));
    }
    let size = done.text.len() as u64;
    if size > max {
        return Err(ToolError::Failed(format!(
            "the JSON of {name} is {size} bytes, more than max_bytes ({max}): ask with a larger \
             max_bytes, or pick a part of it with the eval tool (e.g. `vars.{name}.size()`)"
        )));
    }
    let json: Value = serde_json::from_str(&done.text).map_err(ToolError::failed)?;
    Ok(Answer {
        text: done.text,
        json,
        notes: Vec::new(),
    })
}

fn eval(served: &Served, args: &Args) -> Result<Answer, ToolError> {
    let source = args.text("script")?.to_string();
    let raw = args.flag("raw")?;
    let defaults = Limits::default();
    let most = defaults.deadline.as_secs().max(1);
    let timeout = args.count("timeout_seconds", most, most)?;
    let (admitted, opened) = heap_of(served, args, "snapshot")?;
    let siblings = catalog_siblings(served.catalog().clone(), admitted.snapshot.dir());
    let run = ScriptRun {
        heap: Some(opened),
        siblings: Some(siblings),
        source,
        name: "script".into(),
        limits: Limits {
            deadline: Duration::from_secs(timeout),
            ..defaults
        },
        json: true,
        raw,
    };
    let text = run_script(run).map_err(|f| match f.output.is_empty() {
        true => ToolError::Failed(f.message),
        false => ToolError::Failed(format!("{}\n(output before it: {})", f.message, f.output)),
    })?;
    let json: Value = serde_json::from_str(&text).map_err(ToolError::failed)?;
    Ok(Answer {
        text,
        json,
        notes: Vec::new(),
    })
}

fn diff(served: &Served, args: &Args) -> Result<Answer, ToolError> {
    let top = args.count("top", COMPACT_TOP, MAX_TOP)?;
    let (old_admitted, old) = heap_of(served, args, "old")?;
    let (new_admitted, new) = heap_of(served, args, "new")?;
    one_canister("diff", &[old_admitted, new_admitted]).map_err(ToolError::failed)?;
    let d = SnapshotDiff::compute_lean(&old, &new, &NoProgress).map_err(ToolError::failed)?;
    let mut doc = serde_json::to_value(DiffJson::new(&d)).map_err(ToolError::failed)?;
    let notes = ["suspects", "vars", "types"]
        .iter()
        .filter_map(|list| cut(&mut doc, list, top, "top"))
        .collect();
    Answer::of(doc, notes)
}

fn call(served: &Served, args: &Args) -> Result<Answer, ToolError> {
    let method = args.text("method")?;
    let candid = args.opt_text("args")?.unwrap_or("");
    let caller = match args.opt_text("caller")? {
        Some(text) => candid::Principal::from_text(text)
            .map_err(|e| ToolError::BadArgument(format!("caller {text}: not a principal ({e})")))?,
        None => candid::Principal::anonymous(),
    };
    let admitted = served.admitted(args.text("snapshot")?)?;
    let canister = admitted.snapshot.canister().map_err(ToolError::failed)?;
    let options = CallOptions {
        caller,
        instructions: QUERY_INSTRUCTIONS,
        timeout: Duration::from_secs(30),
        allow_update: false,
    };
    let reply = canister
        .call(method, candid, &options)
        .map_err(|e| match e {
            crate::runtime::offline::OfflineError::Update(m) => ToolError::BadArgument(format!(
                "{m} is an update method: the call tool runs queries only"
            )),
            e => ToolError::failed(e),
        })?;
    let json = args_json(&reply.values).map_err(ToolError::failed)?;
    Answer::of(json, Vec::new())
}
