//! One Motoko script run over a snapshot, as `mo-mem eval` runs it: its session bound to the
//! heap (`image`, `heap`, `vars`), the canister (`canister.METHOD`) and the sibling
//! snapshots (`snapshots`), under the script limits; one runner for every front-end (the
//! command, the MCP server's `eval` tool).

use crate::analysis::OpenedHeap;
use crate::script::host::snapshots::SiblingOpener;
use crate::script::session::{output_mode, OutputMode};
use crate::script::setup::SessionSetup;
use crate::script::{on_eval_thread, Limits, ScriptError};
use crate::serve::methods::ScriptCanister;
use std::sync::Arc;

/// What to run and over what.
pub struct ScriptRun {
    /// The snapshot's heap (`None`: a script without a snapshot).
    pub heap: Option<Arc<OpenedHeap>>,
    /// The other snapshots of its canister, by name, and how to open one.
    pub siblings: Option<(Vec<String>, SiblingOpener)>,
    /// The script.
    pub source: String,
    /// Its name in messages (a file name, or `script`).
    pub name: String,
    /// Its budgets.
    pub limits: Limits,
    /// Answer JSON (`{"output", "value", "show"}`); a script starting with `// @json` does too.
    pub json: bool,
    /// With JSON: the canister's collections as their structure, not their natural view.
    pub raw: bool,
}

/// A script that failed: what it printed before, and why.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct ScriptFailure {
    /// Its output up to the failure.
    pub output: String,
    /// The trap, syntax or type error, or limit it hit.
    pub message: String,
}

/// The session of a command (`eval`, `repl`, the MCP server's `eval` tool) named `name`:
/// over `heap` with its canister, restored on its first call, and `siblings`.
pub fn command_session(
    limits: Limits,
    name: &str,
    heap: Option<Arc<OpenedHeap>>,
    siblings: Option<(Vec<String>, SiblingOpener)>,
) -> SessionSetup {
    let mut setup = SessionSetup::new(limits, name);
    if let Some(heap) = heap {
        setup.canister = Some(Arc::new(ScriptCanister::over_heap(heap.clone())));
        setup.snapshot = Some(heap);
        setup.siblings = siblings;
    }
    setup
}

/// Runs `run` on a thread of its own (the interpreter's stack) and returns what `mo-mem
/// eval` prints: the JSON document and a newline, or the value's text.
pub fn run_script(run: ScriptRun) -> Result<String, ScriptFailure> {
    let json = run.json || output_mode(&run.source) == OutputMode::Json;
    let outcome = on_eval_thread(move || {
        let snapshot = run.heap.is_some();
        let mut setup = command_session(run.limits, &run.name, run.heap, run.siblings);
        setup.raw_json = run.raw;
        let mut s = setup.start();
        match s.eval(&run.source) {
            Ok(ev) => Ok(if json {
                format!("{}\n", s.json_of(&ev))
            } else if snapshot {
                crate::script::show::render(&ev)
            } else {
                ev.render()
            }),
            Err(e) => Err(ScriptFailure {
                output: match &e {
                    ScriptError::Trap { output, .. } => output.clone(),
                    ScriptError::Syntax { .. } | ScriptError::Type { .. } => String::new(),
                },
                message: e.to_string(),
            }),
        }
    });
    outcome.unwrap_or_else(|_| {
        Err(ScriptFailure {
            output: String::new(),
            message: "the evaluation thread failed".into(),
        })
    })
}
