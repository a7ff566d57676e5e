//! The engine behind a mounted snapshot's `eval` control file (wired to the file in
//! `crate::serve`): one script [`Session`] per terminal session, each on its own thread,
//! over the snapshot's `image`, `heap`, `vars`.
//!
//! A request is a Motoko script (UTF-8). Its answer is what [`Session::eval`] produced:
//! the printed output and the value's `debug_show`, or the error text. A first line
//! `// @json` asks for the JSON form ([`crate::script::Evaluation::to_json`]). Each
//! evaluation runs under [`Limits`] (by default a 10 s deadline for the mount); a runaway
//! script stops there with the limit message and only its own session waits for it.

use super::host::canister::CanisterCalls;
use super::host::context::SnapshotContext;
use super::host::snapshots::SiblingOpener;
use super::host::HostErrorKind;
use super::limits::Limits;
use super::session::{output_mode, OutputMode, ScriptError, Session};
use super::setup::SessionSetup;
use super::show::render;
use super::syntax::{parse_program, SyntaxError};
use std::collections::HashMap;
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The default deadline of one evaluation through the `eval` file.
pub const MOUNT_EVAL_DEADLINE: Duration = Duration::from_secs(10);

/// The limits of the `eval` file by default: [`Limits::default`] with [`MOUNT_EVAL_DEADLINE`].
pub fn mount_limits() -> Limits {
    Limits {
        deadline: MOUNT_EVAL_DEADLINE,
        ..Limits::default()
    }
}

struct Job {
    script: String,
    reply: Sender<Result<Vec<u8>, StoppedByData>>,
}

/// Why the `eval` file refuses a script before running it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScriptRefused {
    /// The request is not UTF-8.
    #[error("eval: the script is not UTF-8: {0}")]
    NotUtf8(#[from] std::str::Utf8Error),
    /// The script does not parse.
    #[error("eval:{0}")]
    Syntax(#[from] SyntaxError),
}

/// Checks that `request` is a UTF-8 script that parses.
pub fn check_script(request: &[u8]) -> Result<(), ScriptRefused> {
    parse_program(std::str::from_utf8(request)?)?;
    Ok(())
}

/// A script stopped by the snapshot's data rather than by itself: a host value reached a
/// limit, read corrupt data, or found no stable signature ([`StoppedByData::kind`]). Its text
/// is the answer the session reads (what the script printed, then the error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoppedByData {
    /// The script's error; its trap is a host value's failure.
    pub error: Box<ScriptError>,
    /// Whether the answer is in the JSON form.
    pub json: bool,
}

impl StoppedByData {
    /// What stopped the script: [`HostErrorKind::Limit`], [`HostErrorKind::Corrupt`] or
    /// [`HostErrorKind::NoSignature`].
    pub fn kind(&self) -> HostErrorKind {
        self.error.host_kind().unwrap_or(HostErrorKind::Corrupt)
    }
}

impl std::fmt::Display for StoppedByData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let answer = error_answer(&self.error, self.json);
        f.write_str(answer.strip_suffix('\n').unwrap_or(&answer))
    }
}

impl std::error::Error for StoppedByData {}

/// Lists a session's sibling snapshots and opens them, called when the session starts.
pub type SiblingSource = Arc<dyn Fn() -> (Vec<String>, SiblingOpener) + Send + Sync>;

/// What a session reads from the `eval` file before it has written anything.
pub const USAGE: &[u8] = b"Write a Motoko script into this file, then read the answer from it:\n  echo 'vars' > eval; cat eval\nA first line `// @json` asks for JSON. See docs/eval.md.\n";

/// Script sessions that persist between requests, one thread each, keyed by the caller's
/// session number: a session's definitions stay until [`EvalWorkers::end`].
pub struct EvalWorkers {
    limits: Limits,
    canister: Option<Arc<dyn CanisterCalls>>,
    siblings: Option<SiblingSource>,
    workers: Mutex<HashMap<u64, Sender<Job>>>,
}

impl EvalWorkers {
    /// Sessions whose evaluations run under `limits`.
    pub fn new(limits: Limits) -> EvalWorkers {
        EvalWorkers {
            limits,
            canister: None,
            siblings: None,
            workers: Mutex::new(HashMap::new()),
        }
    }

    /// Sessions whose evaluations run under `limits`, each with the host value `canister`
    /// over `canister` when it has a snapshot.
    pub fn with_canister(limits: Limits, canister: Arc<dyn CanisterCalls>) -> EvalWorkers {
        EvalWorkers {
            canister: Some(canister),
            ..EvalWorkers::new(limits)
        }
    }

    /// The same sessions, each with the host value `snapshots` (the sibling snapshots
    /// `siblings` lists when the session starts) when it has a snapshot.
    pub fn with_siblings(self, siblings: SiblingSource) -> EvalWorkers {
        EvalWorkers {
            siblings: Some(siblings),
            ..self
        }
    }

    /// The worker of `session`, started (over `context()`'s snapshot, if any) when new.
    fn worker(
        &self,
        session: u64,
        context: impl FnOnce() -> Option<Arc<SnapshotContext>>,
    ) -> Result<Sender<Job>, String> {
        let mut workers = self.workers.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(tx) = workers.get(&session) {
            return Ok(tx.clone());
        }
        let ctx = context();
        let limits = self.limits.clone();
        let canister = self.canister.clone();
        let siblings = ctx.as_ref().and(self.siblings.as_ref()).map(|list| list());
        let (tx, rx) = channel::<Job>();
        std::thread::Builder::new()
            .name(format!("mo-mem-eval-{session}"))
            .stack_size(super::EVAL_STACK_SIZE)
            .spawn(move || {
                let mut setup = SessionSetup::new(limits, "eval");
                if ctx.is_some() {
                    setup.canister = canister;
                    setup.siblings = siblings;
                }
                setup.snapshot = ctx;
                let mut s = setup.start();
                while let Ok(job) = rx.recv() {
                    let _ = job.reply.send(answer(&mut s, &job.script));
                }
            })
            .map_err(|e| format!("eval: cannot start an evaluation thread: {e}"))?;
        workers.insert(session, tx.clone());
        Ok(tx)
    }

    /// Runs `request` in `session` and returns the answer text, or the failure of a script
    /// the snapshot's data stopped. A new session starts over `context()`'s snapshot
    /// (`None`: without `image`, `heap`, `vars`).
    pub fn run(
        &self,
        session: u64,
        request: &[u8],
        context: impl FnOnce() -> Option<Arc<SnapshotContext>>,
    ) -> Result<Vec<u8>, StoppedByData> {
        let script = match std::str::from_utf8(request) {
            Ok(s) => s.to_string(),
            Err(e) => return Ok(format!("{}\n", ScriptRefused::from(e)).into_bytes()),
        };
        let tx = match self.worker(session, context) {
            Ok(tx) => tx,
            Err(e) => return Ok(format!("{e}\n").into_bytes()),
        };
        let (reply, rx) = channel();
        if tx.send(Job { script, reply }).is_err() {
            self.end(session);
            return Ok(
                b"eval: the session's evaluation thread ended; write the script again\n".to_vec(),
            );
        }
        match rx.recv() {
            Ok(answer) => answer,
            Err(_) => {
                self.end(session);
                Ok(b"eval: the evaluation failed; the session was reset\n".to_vec())
            }
        }
    }

    /// Forgets `session` (its thread ends).
    pub fn end(&self, session: u64) {
        let mut workers = self.workers.lock().unwrap_or_else(|p| p.into_inner());
        workers.remove(&session);
    }
}

/// Runs `script` in `session` and renders the answer the `eval` file returns: its value, or
/// its error (a trap of its own is its answer); `Err` when the snapshot's data stopped it.
pub fn answer(session: &mut Session, script: &str) -> Result<Vec<u8>, StoppedByData> {
    let answer = answer_of(session, script);
    session.end_request();
    answer
}

/// [`answer`] before the session is told the request ended.
fn answer_of(session: &mut Session, script: &str) -> Result<Vec<u8>, StoppedByData> {
    let json = output_mode(script) == OutputMode::Json;
    match session.eval(script) {
        Ok(ev) if json => Ok(format!("{}\n", session.json_of(&ev)).into_bytes()),
        Ok(ev) => Ok(render(&ev).into_bytes()),
        Err(error) => match error.host_kind() {
            Some(HostErrorKind::Limit | HostErrorKind::Corrupt | HostErrorKind::NoSignature) => {
                Err(StoppedByData {
                    error: Box::new(error),
                    json,
                })
            }
            _ => Ok(error_answer(&error, json).into_bytes()),
        },
    }
}

/// The answer text of a failed script: what it printed, then the error (or the JSON form).
fn error_answer(e: &ScriptError, json: bool) -> String {
    let output = match e {
        ScriptError::Trap { output, .. } => output.as_str(),
        ScriptError::Syntax { .. } | ScriptError::Type { .. } => "",
    };
    if json {
        let j = serde_json::json!({
            "output": output.lines().collect::<Vec<_>>(),
            "error": e.to_string(),
        });
        format!("{j}\n")
    } else {
        format!("{output}{e}\n")
    }
}
