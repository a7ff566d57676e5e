//! The engine behind a mounted snapshot's `eval` control file: one script [`Session`] per
//! terminal session, each on its own thread, over the snapshot's `image`, `heap`, `vars`.
//!
//! A request is a Motoko script (UTF-8). Its answer is what [`Session::eval`] produced:
//! the printed output and the value's `debug_show`, or the error text. A first line
//! `// @json` asks for the JSON form ([`crate::script::Evaluation::to_json`]). Each
//! evaluation runs under [`Limits`] (by default a 10 s deadline for the mount); a runaway
//! script stops there with the limit message and only its own session waits for it.

use super::host_show::render;
use super::host_snapshot::{install, SnapshotContext};
use super::limits::Limits;
use super::session::{output_mode, OutputMode, ScriptError, Session};
use super::syntax::parse_program;
use crate::image::ReaderLimits;
use crate::vfs::{ControlFile, SessionId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, OnceLock};
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
    reply: Sender<Vec<u8>>,
}

/// The `eval` engine for snapshots served by the mount; [`ControlFile::for_snapshot`] gives
/// each snapshot directory its own [`SnapshotEval`].
pub struct EvalFiles {
    limits: Limits,
    reader: ReaderLimits,
}

impl EvalFiles {
    /// Engines whose evaluations run under `limits`, reading snapshots under the default
    /// reader limits.
    pub fn new(limits: Limits) -> EvalFiles {
        EvalFiles {
            limits,
            reader: ReaderLimits::default(),
        }
    }

    /// The same engines reading snapshots under `reader`.
    pub fn with_reader_limits(self, reader: ReaderLimits) -> EvalFiles {
        EvalFiles { reader, ..self }
    }
}

fn check_script(request: &[u8]) -> Result<(), String> {
    let src =
        std::str::from_utf8(request).map_err(|e| format!("eval: the script is not UTF-8: {e}"))?;
    parse_program(src).map_err(|e| format!("eval:{e}"))?;
    Ok(())
}

const USAGE: &[u8] = b"Write a Motoko script into this file, then read the answer from it:\n  echo 'vars' > eval; cat eval\nA first line `// @json` asks for JSON. See docs/eval.md.\n";

impl ControlFile for EvalFiles {
    fn check(&self, request: &[u8]) -> Result<(), String> {
        check_script(request)
    }

    fn run(&self, _session: SessionId, _request: &[u8]) -> Vec<u8> {
        b"eval: no snapshot is attached to this file\n".to_vec()
    }

    fn usage(&self) -> Vec<u8> {
        USAGE.to_vec()
    }

    fn for_snapshot(&self, dir: &Path) -> Option<Arc<dyn ControlFile>> {
        let eval = SnapshotEval::new(dir, self.limits.clone()).with_reader_limits(self.reader);
        Some(Arc::new(eval))
    }
}

/// The `eval` engine of one snapshot directory: per-session script sessions.
pub struct SnapshotEval {
    dir: PathBuf,
    limits: Limits,
    reader: ReaderLimits,
    context: OnceLock<Result<Arc<SnapshotContext>, String>>,
    workers: Mutex<HashMap<SessionId, Sender<Job>>>,
}

impl SnapshotEval {
    /// The engine for the snapshot in `dir` (opened on the first evaluation).
    pub fn new(dir: &Path, limits: Limits) -> SnapshotEval {
        SnapshotEval {
            dir: dir.to_path_buf(),
            limits,
            reader: ReaderLimits::default(),
            context: OnceLock::new(),
            workers: Mutex::new(HashMap::new()),
        }
    }

    /// The same engine reading the snapshot under `reader`.
    pub fn with_reader_limits(self, reader: ReaderLimits) -> SnapshotEval {
        SnapshotEval { reader, ..self }
    }

    fn context(&self) -> Result<Arc<SnapshotContext>, String> {
        self.context
            .get_or_init(|| {
                SnapshotContext::open_with_limits(&self.dir, self.reader)
                    .map(Arc::new)
                    .map_err(|e| e.0)
            })
            .clone()
    }

    fn worker(&self, session: SessionId) -> Result<Sender<Job>, String> {
        let mut workers = self.workers.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(tx) = workers.get(&session) {
            return Ok(tx.clone());
        }
        // a snapshot whose heap does not decode still evaluates scripts, without host values
        let ctx = self.context();
        if let Err(e) = &ctx {
            tracing::warn!(snapshot = %self.dir.display(), error = %e, "eval without image/heap/vars");
        }
        let ctx = ctx.ok();
        let limits = self.limits.clone();
        let (tx, rx) = channel::<Job>();
        std::thread::Builder::new()
            .name(format!("mo-mem-eval-{}", session.0))
            .stack_size(super::EVAL_STACK_SIZE)
            .spawn(move || {
                let mut s = Session::new(limits);
                s.set_source_name("eval");
                if let Some(ctx) = ctx {
                    install(&mut s, ctx);
                }
                while let Ok(job) = rx.recv() {
                    let _ = job.reply.send(answer(&mut s, &job.script));
                }
            })
            .map_err(|e| format!("eval: cannot start an evaluation thread: {e}"))?;
        workers.insert(session, tx.clone());
        Ok(tx)
    }
}

/// Runs `script` in `session` and renders the answer the `eval` file returns.
pub fn answer(session: &mut Session, script: &str) -> Vec<u8> {
    let json = output_mode(script) == OutputMode::Json;
    match session.eval(script) {
        Ok(ev) if json => format!("{}\n", ev.to_json()).into_bytes(),
        Ok(ev) => render(&ev).into_bytes(),
        Err(e) => {
            let output = match &e {
                ScriptError::Trap { output, .. } => output.clone(),
                ScriptError::Syntax { .. } => String::new(),
            };
            if json {
                let j = serde_json::json!({
                    "output": output.lines().collect::<Vec<_>>(),
                    "error": e.to_string(),
                });
                format!("{j}\n").into_bytes()
            } else {
                format!("{output}{e}\n").into_bytes()
            }
        }
    }
}

impl ControlFile for SnapshotEval {
    fn check(&self, request: &[u8]) -> Result<(), String> {
        check_script(request)
    }

    fn run(&self, session: SessionId, request: &[u8]) -> Vec<u8> {
        let script = match std::str::from_utf8(request) {
            Ok(s) => s.to_string(),
            Err(e) => return format!("eval: the script is not UTF-8: {e}\n").into_bytes(),
        };
        let tx = match self.worker(session) {
            Ok(tx) => tx,
            Err(e) => return format!("{e}\n").into_bytes(),
        };
        let (reply, rx) = channel();
        if tx.send(Job { script, reply }).is_err() {
            self.end_session(session);
            return b"eval: the session's evaluation thread ended; write the script again\n"
                .to_vec();
        }
        match rx.recv() {
            Ok(answer) => answer,
            Err(_) => {
                self.end_session(session);
                b"eval: the evaluation failed; the session was reset\n".to_vec()
            }
        }
    }

    fn end_session(&self, session: SessionId) {
        let mut workers = self.workers.lock().unwrap_or_else(|p| p.into_inner());
        workers.remove(&session);
    }

    fn usage(&self) -> Vec<u8> {
        USAGE.to_vec()
    }
}
