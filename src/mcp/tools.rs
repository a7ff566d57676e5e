//! The tools: names, what each answers (in a Motoko developer's words), their input schemas,
//! and the output schema of those whose answer is a JSON object (the published schema of the
//! CLI's `--json` for the same question, `docs/schemas/`).

use serde_json::{json, Map, Value};

/// Every tool, in the order they are listed.
pub const NAMES: [&str; 10] = [
    "snapshots",
    "report",
    "retained",
    "path",
    "object",
    "vars",
    "eval",
    "diff",
    "call",
    "doctor",
];

/// One tool's definition.
pub struct ToolDef {
    /// Its name.
    pub name: &'static str,
    /// What it answers.
    pub description: &'static str,
    /// Its arguments (JSON Schema of an object).
    pub input: Value,
    /// The schema of its structured answer, if the answer is a JSON object.
    pub output: Option<Value>,
}

fn schema(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok()
}

fn snapshot_arg() -> Value {
    json!({"type": "string", "description": "the snapshot's name, as the snapshots tool lists it"})
}

fn top_arg(what: &str, default: u64) -> Value {
    json!({"type": "integer", "minimum": 1, "maximum": super::error::MAX_TOP,
           "description": format!("how many {what} (default {default})")})
}

fn address_arg() -> Value {
    json!({"type": "string", "description": "the object's address, hex with 0x (as the other tools print it) or decimal"})
}

fn object_of(props: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

/// The tools' definitions.
pub fn definitions() -> Vec<ToolDef> {
    let compact = super::error::COMPACT_TOP;
    vec![
        ToolDef {
            name: "snapshots",
            description: "List the canister snapshots this server can read (their names are what the other tools take). Start here.",
            input: object_of(json!({}), &[]),
            output: schema(include_str!("../../docs/schemas/mcp-snapshots.schema.json")),
        },
        ToolDef {
            name: "report",
            description: "One-screen memory report of a Motoko canister snapshot: where main memory goes (heap, garbage, free space), the stable variables, types and objects that retain the most bytes, and the likely suspects with their access paths. The first question to ask about a canister's memory.",
            input: object_of(json!({"snapshot": snapshot_arg()}), &["snapshot"]),
            output: schema(include_str!("../../docs/schemas/report.schema.json")),
        },
        ToolDef {
            name: "retained",
            description: "What holds the memory: for each stable variable, Motoko type or single object, the objects and bytes it keeps alive (retained: freed if it went away) and reaches; per root kind; the garbage. `by` picks one view (var, type or object), `top` how many rows.",
            input: object_of(json!({
                "snapshot": snapshot_arg(),
                "by": {"type": "string", "enum": ["var", "type", "object"], "description": "only this view: stable variables, Motoko types, or the largest single objects (default: all three)"},
                "top": top_arg("rows of each list", compact),
            }), &["snapshot"]),
            output: schema(include_str!("../../docs/schemas/retained.schema.json")),
        },
        ToolDef {
            name: "path",
            description: "Why an object is still alive: the shortest path from a root to it as Motoko access syntax (vars.users.get(\"bob\").orders[3]), or that it is garbage.",
            input: object_of(json!({"snapshot": snapshot_arg(), "address": address_arg()}), &["snapshot", "address"]),
            output: schema(include_str!("../../docs/schemas/path.schema.json")),
        },
        ToolDef {
            name: "object",
            description: "One heap object decoded: its tag, size, fields (with their record labels), elements and the objects it references, with their addresses.",
            input: object_of(json!({
                "snapshot": snapshot_arg(), "address": address_arg(),
                "top": top_arg("fields, elements and references", 64),
            }), &["snapshot", "address"]),
            output: schema(include_str!("../../docs/schemas/object.schema.json")),
        },
        ToolDef {
            name: "vars",
            description: "The value of one stable variable of the actor as JSON (records as objects, collections such as mo:core Map as [key, value] pairs; big numbers as decimal strings). Refused when larger than max_bytes: pick a part with eval instead.",
            input: object_of(json!({
                "snapshot": snapshot_arg(),
                "name": {"type": "string", "description": "the stable variable's name (retained by var lists them)"},
                "raw": {"type": "boolean", "description": "collections as their own structure, not their natural view"},
                "max_bytes": {"type": "integer", "minimum": 1, "description": format!("the largest answer in bytes of JSON (default {})", super::error::COMPACT_VALUE_BYTES)},
            }), &["snapshot", "name"]),
            output: None,
        },
        ToolDef {
            name: "eval",
            description: "Run a Motoko script over the snapshot (a subset of Motoko with `vars` for the stable variables, `heap`, `canister.QUERY(...)` and `snapshots`; docs/eval.md) and get its printed output and value, e.g. `vars.users.size()`. Runs under the script limits (steps, memory, output, time).",
            input: object_of(json!({
                "snapshot": snapshot_arg(),
                "script": {"type": "string", "description": "the Motoko script; its last expression is the value"},
                "raw": {"type": "boolean", "description": "collections as their own structure, not their natural view"},
                "timeout_seconds": {"type": "integer", "minimum": 1, "description": "a shorter wall-clock limit than the default"},
            }), &["snapshot", "script"]),
            output: schema(include_str!("../../docs/schemas/eval.schema.json")),
        },
        ToolDef {
            name: "diff",
            description: "What changed between two snapshots of one canister: the growth suspects, each stable variable's retained bytes before and after (and a collection's entries added and removed), per type, and the heap's space. For finding a memory leak between upgrades or over time.",
            input: object_of(json!({
                "old": {"type": "string", "description": "the older snapshot's name"},
                "new": {"type": "string", "description": "the newer snapshot's name"},
                "top": top_arg("suspects, variables and types", compact),
            }), &["old", "new"]),
            output: schema(include_str!("../../docs/schemas/diff.schema.json")),
        },
        ToolDef {
            name: "call",
            description: "Call one of the canister's own query methods offline on the snapshot (as the IC would, with the canister's code; nothing is sent anywhere, the snapshot never changes) and get the Candid reply as JSON. Update methods are refused.",
            input: object_of(json!({
                "snapshot": snapshot_arg(),
                "method": {"type": "string", "description": "the query method"},
                "args": {"type": "string", "description": "its arguments as Candid text, e.g. (42, \"x\") (default: none)"},
                "caller": {"type": "string", "description": "the caller's principal (default: anonymous)"},
            }), &["snapshot", "method"]),
            output: None,
        },
        ToolDef {
            name: "doctor",
            description: "What can I change to use less memory? The heap doctor's findings for a Motoko canister snapshot, largest saving first: duplicate texts, [Nat8] arrays a Blob would hold in less, empty and sparse collections, ropes, boxed numbers, garbage, dead weak references; each with the bytes a fix would save (exact, from the heap), up to five access paths and one sentence of advice; and why main memory is larger than the live heap.",
            input: object_of(json!({"snapshot": snapshot_arg()}), &["snapshot"]),
            output: schema(include_str!("../../docs/schemas/doctor.schema.json")),
        },
    ]
}

/// A schema value as the protocol's JSON object (an empty object if it is not one).
pub fn as_object(v: &Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}
