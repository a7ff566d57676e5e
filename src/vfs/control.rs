//! Control files (`eval`): a writer's request is answered on the next read, per session.
//!
//! Semantics (Plan 9 `/net/cs` style): a write at offset 0 replaces the request (no stale
//! bytes from a longer earlier one), a write at the end appends. A request that does not
//! parse fails the write with `EINVAL` and its error text becomes the answer; a request that
//! fails on the snapshot's data (a limit, corrupt data) fails the read that runs it with the
//! errno of its kind ([`RequestErrorKind::errno`]) and its error text becomes the answer too,
//! read by the session's next read. A handle that wrote reads its own answer; a handle that
//! only reads gets the answer of the process it belongs with in its terminal session (itself,
//! its parent or child, an exited sibling: so `echo x > eval; cat eval` works, and concurrent
//! jobs of one shell each read their own, [`super::requests`]), an error naming both scripts
//! when two are equally near, or a usage text when nothing it belongs with was written.

use super::caller::{Caller, ProcessId};
use super::error::{RequestError, RequestErrorKind, VfsError};
use super::requests::{Resolution, SessionRequests, Slot};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

pub use super::caller::SessionId;

/// The engine behind a control file; the script engine implements it for `eval`.
pub trait ControlFile: Send + Sync {
    /// Checks that a complete request parses; `Err`'s text is shown to the user.
    fn check(&self, request: &[u8]) -> Result<(), RequestError>;
    /// Runs a request for `session` (whose definitions persist across its requests) and
    /// returns the answer text: the output, or the request's own error (a script's trap).
    /// `Err` is a failure the read reports with an errno (its text becomes the answer).
    fn run(&self, session: SessionId, request: &[u8]) -> Result<Vec<u8>, RequestError>;
    /// Forgets a session's state (called when the session is evicted).
    fn end_session(&self, _session: SessionId) {}
    /// The text a session reads before it has written anything.
    fn usage(&self) -> Vec<u8>;
    /// Whether the file may be used now: `Err` fails every write and read of it, before any
    /// usage text or earlier answer is served (a refused snapshot's files fail with `EACCES`).
    fn admit(&self) -> Result<(), RequestError> {
        Ok(())
    }
    /// The engine for the snapshot in `dir`, if this engine makes one per snapshot
    /// (otherwise every snapshot's control file uses `self`).
    fn for_snapshot(&self, _dir: &std::path::Path) -> Option<Arc<dyn ControlFile>> {
        None
    }
}

/// The placeholder engine used until the script engine is wired in.
pub struct NoScriptEngine;

impl ControlFile for NoScriptEngine {
    fn check(&self, _request: &[u8]) -> Result<(), RequestError> {
        Ok(())
    }

    fn run(&self, _session: SessionId, _request: &[u8]) -> Result<Vec<u8>, RequestError> {
        Ok(b"eval: scripts are not available yet in this build of mo-mem\n".to_vec())
    }

    fn usage(&self) -> Vec<u8> {
        b"Write a Motoko script into this file, then read the answer from it:\n  echo 'vars' > eval; cat eval\n".to_vec()
    }
}

/// Limits of one control file.
#[derive(Clone, Copy, Debug)]
pub struct ControlLimits {
    /// The largest request accepted, in bytes.
    pub max_request: usize,
    /// How many sessions keep their state before the least recently used is forgotten.
    pub max_sessions: usize,
}

impl Default for ControlLimits {
    fn default() -> Self {
        ControlLimits {
            max_request: 1 << 20,
            max_sessions: 64,
        }
    }
}

/// How many requests the control files of a tree may run at once. Each running request
/// holds a front-end worker thread until it ends (at the latest at the script deadline), so
/// the bound keeps workers free for everything else; a request over it is answered "busy".
pub struct EvalSlots {
    limit: usize,
    running: Mutex<usize>,
}

impl EvalSlots {
    /// At most `limit` requests at once (at least one).
    pub fn new(limit: usize) -> EvalSlots {
        EvalSlots {
            limit: limit.max(1),
            running: Mutex::new(0),
        }
    }

    /// The slots of a tree served by `threads` worker threads: `requested`, or half the
    /// workers by default, always at least one and below `threads` (so one worker stays free
    /// for everything but scripts; `threads` counts as at least 2).
    pub fn for_workers(threads: usize, requested: Option<usize>) -> EvalSlots {
        let threads = threads.max(2);
        EvalSlots::new(requested.unwrap_or(threads / 2).clamp(1, threads - 1))
    }

    /// The bound.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// A slot if one is free.
    ///
    /// Taking a slot, giving it back and refusing one are logged (debug, warn) while the
    /// count is locked, so the log's order is the order of the slots' states: what a test
    /// (or an operator) reads to tell "busy" from a slow machine, by order, not by clock.
    fn try_acquire(self: &Arc<Self>) -> Option<EvalPermit> {
        let mut running = lock(&self.running);
        if *running >= self.limit {
            tracing::warn!(limit = self.limit, "eval: busy, request not run");
            return None;
        }
        *running += 1;
        tracing::debug!(
            running = *running,
            limit = self.limit,
            "eval: request started"
        );
        Some(EvalPermit(self.clone()))
    }
}

impl Default for EvalSlots {
    /// Four requests at once.
    fn default() -> Self {
        EvalSlots::new(4)
    }
}

/// One running request; its slot is given back on drop.
struct EvalPermit(Arc<EvalSlots>);

impl Drop for EvalPermit {
    fn drop(&mut self) {
        let mut running = lock(&self.0.running);
        *running = running.saturating_sub(1);
        tracing::debug!(running = *running, "eval: request ended");
    }
}

/// Whether a process still runs; [`super::caller::alive`] reads `/proc` (the request
/// matching itself is tested with other answers, `super::requests`).
type Liveness = fn(ProcessId) -> bool;

/// One control file of the tree: its engine plus the requests and answers of each session.
pub struct ControlNode {
    engine: Arc<dyn ControlFile>,
    limits: ControlLimits,
    slots: Arc<EvalSlots>,
    sessions: Mutex<Sessions>,
    alive: Liveness,
}

#[derive(Default)]
struct Sessions {
    slots: HashMap<SessionId, Arc<Mutex<SessionRequests>>>,
    order: VecDeque<SessionId>,
}

/// An open control file: the request written through it and the answer it reads.
pub struct ControlHandle {
    caller: Caller,
    request: Vec<u8>,
    state: HandleState,
}

enum HandleState {
    Fresh,
    Written {
        deferred_error: Option<RequestError>,
        /// The session's record of this request and its generation.
        id: u64,
        generation: u64,
    },
    Answered(Arc<[u8]>),
    /// The read cannot tell which answer is this handle's: the text says why, then reads
    /// fail with the error.
    Refused(Arc<[u8]>, RequestError),
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl ControlNode {
    /// A control file served by `engine`, running at most [`EvalSlots::default`] requests
    /// at once.
    pub fn new(engine: Arc<dyn ControlFile>, limits: ControlLimits) -> ControlNode {
        ControlNode::with_slots(engine, limits, Arc::new(EvalSlots::default()))
    }

    /// A control file served by `engine` whose requests take a slot of `slots` (shared by
    /// the control files of a tree) while they run.
    pub fn with_slots(
        engine: Arc<dyn ControlFile>,
        limits: ControlLimits,
        slots: Arc<EvalSlots>,
    ) -> ControlNode {
        ControlNode {
            engine,
            limits,
            slots,
            sessions: Mutex::new(Sessions::default()),
            alive: super::caller::alive,
        }
    }

    /// Opens the file for `caller` (a [`SessionId`] alone for a caller without a process).
    pub fn open(&self, caller: impl Into<Caller>) -> ControlHandle {
        ControlHandle {
            caller: caller.into(),
            request: Vec::new(),
            state: HandleState::Fresh,
        }
    }

    fn slot(&self, session: SessionId) -> Arc<Mutex<SessionRequests>> {
        let mut sessions = lock(&self.sessions);
        if let Some(slot) = sessions.slots.get(&session).cloned() {
            sessions.order.retain(|s| *s != session);
            sessions.order.push_back(session);
            return slot;
        }
        while sessions.slots.len() >= self.limits.max_sessions.max(1) {
            let Some(old) = sessions.order.pop_front() else {
                break;
            };
            sessions.slots.remove(&old);
            self.engine.end_session(old);
        }
        let slot = Arc::new(Mutex::new(SessionRequests::default()));
        sessions.slots.insert(session, slot.clone());
        sessions.order.push_back(session);
        slot
    }

    /// Writes `data` at `offset` of the handle's request. `more_may_follow` says the write
    /// filled a whole kernel chunk, so a parse error is reported at flush instead.
    pub fn write(
        &self,
        handle: &mut ControlHandle,
        offset: u64,
        data: &[u8],
        more_may_follow: bool,
    ) -> Result<usize, VfsError> {
        let offset = usize::try_from(offset)
            .ok()
            .filter(|o| *o <= handle.request.len())
            .ok_or_else(|| {
                VfsError::InvalidArgument(format!(
                    "write at offset {offset} past the end of the request ({} bytes)",
                    handle.request.len()
                ))
            })?;
        let new_len = offset.saturating_add(data.len());
        if new_len > self.limits.max_request {
            return Err(VfsError::TooLarge(format!(
                "request of {new_len} bytes exceeds the limit of {} bytes",
                self.limits.max_request
            )));
        }
        self.engine.admit().map_err(VfsError::Request)?;
        handle.request.truncate(offset);
        handle.request.extend_from_slice(data);
        let slot = self.slot(handle.caller.session);
        match self.engine.check(&handle.request) {
            Ok(()) => {
                let pending = Slot::Pending(handle.request.clone().into());
                let (id, generation) =
                    lock(&slot).write(handle.caller, &handle.request, pending, &self.alive);
                handle.state = HandleState::Written {
                    deferred_error: None,
                    id,
                    generation,
                };
                Ok(data.len())
            }
            Err(error) if more_may_follow => {
                let pending = Slot::Pending(handle.request.clone().into());
                let (id, generation) =
                    lock(&slot).write(handle.caller, &handle.request, pending, &self.alive);
                handle.state = HandleState::Written {
                    deferred_error: Some(error),
                    id,
                    generation,
                };
                Ok(data.len())
            }
            Err(error) => Err(self.fail(handle, &slot, error)),
        }
    }

    /// Makes a refused request's error the session's answer; the error for the write.
    fn fail(
        &self,
        handle: &mut ControlHandle,
        slot: &Mutex<SessionRequests>,
        error: RequestError,
    ) -> VfsError {
        let answer = error_answer(&error);
        let refused = Slot::Answered(answer.clone());
        lock(slot).write(handle.caller, &handle.request, refused, &self.alive);
        handle.state = HandleState::Answered(answer);
        VfsError::Request(error)
    }

    /// Reports a parse error deferred by [`ControlNode::write`] (on flush or close).
    pub fn flush(&self, handle: &mut ControlHandle) -> Result<(), VfsError> {
        if let HandleState::Written {
            deferred_error: Some(error),
            ..
        } = &handle.state
        {
            let error = error.clone();
            let slot = self.slot(handle.caller.session);
            return Err(self.fail(handle, &slot, error));
        }
        Ok(())
    }

    /// The answer this handle reads at `offset` (running its request, or the one it belongs
    /// with, if needed). A request that fails on the snapshot's data is `Err` (its text becomes
    /// the answer of the handle and its writer). A request that cannot run now (it already
    /// runs, or the tree runs as many as it may) is answered "busy" on this handle and stays
    /// pending for the next. A read that cannot tell which request is its own reads why,
    /// then fails ([`RequestErrorKind::Ambiguous`]).
    pub fn answer_at(
        &self,
        handle: &mut ControlHandle,
        offset: u64,
    ) -> Result<Arc<[u8]>, VfsError> {
        if let HandleState::Refused(text, error) = &handle.state {
            if offset >= text.len() as u64 {
                return Err(VfsError::Request(error.clone()));
            }
        }
        self.answer(handle)
    }

    /// The answer this handle reads (see [`ControlNode::answer_at`]); a refused read's text.
    pub fn answer(&self, handle: &mut ControlHandle) -> Result<Arc<[u8]>, VfsError> {
        self.engine.admit().map_err(VfsError::Request)?;
        self.flush(handle)?;
        let session = handle.caller.session;
        let slot = self.slot(session);
        let (id, request): (Option<(u64, u64)>, Arc<[u8]>) = match &handle.state {
            HandleState::Answered(answer) | HandleState::Refused(answer, _) => {
                return Ok(answer.clone())
            }
            HandleState::Written { id, generation, .. } => {
                (Some((*id, *generation)), handle.request.clone().into())
            }
            HandleState::Fresh => {
                let requests = lock(&slot);
                match requests.resolve(&handle.caller, &self.alive) {
                    Resolution::Nothing => {
                        let usage: Arc<[u8]> = self.engine.usage().into();
                        handle.state = HandleState::Answered(usage.clone());
                        return Ok(usage);
                    }
                    Resolution::One(id) => {
                        match requests.get(id).map(|r| (r.slot.clone(), r.generation)) {
                            Some((Slot::Answered(answer), _)) => {
                                handle.state = HandleState::Answered(answer.clone());
                                return Ok(answer);
                            }
                            Some((Slot::Pending(request), generation)) => {
                                (Some((id, generation)), request)
                            }
                            None => (None, Arc::from(&b""[..])),
                        }
                    }
                    refused => {
                        let error = ambiguity(refused);
                        let text = error_answer(&error);
                        handle.state = HandleState::Refused(text.clone(), error);
                        return Ok(text);
                    }
                }
            }
        };
        let (answer, failure) = match self.run(session, &slot, id, &request) {
            Ok(answer) => (answer, None),
            Err(error) => (error_answer(&error), Some(error)),
        };
        handle.state = HandleState::Answered(answer.clone());
        match failure {
            None => Ok(answer),
            Some(error) => Err(VfsError::Request(error)),
        }
    }

    /// Runs `request` (the session's request `id` at its generation, if recorded) for
    /// `session` unless that would make it wait; its answer (a failure too) becomes the
    /// recorded request's answer if it was not rewritten meanwhile.
    fn run(
        &self,
        session: SessionId,
        slot: &Mutex<SessionRequests>,
        id: Option<(u64, u64)>,
        request: &[u8],
    ) -> Result<Arc<[u8]>, RequestError> {
        let _permit = {
            let mut requests = lock(slot);
            let record = id.and_then(|(id, _)| requests.get_mut(id));
            if record.as_ref().is_some_and(|r| r.running) {
                tracing::debug!(
                    session = session.0,
                    "eval: busy, this session's previous request still runs"
                );
                return Ok(BUSY_SESSION.as_bytes().into());
            }
            let Some(permit) = self.slots.try_acquire() else {
                return Ok(format!(
                    "eval: busy: {} scripts are already running in this mount (the most \
                     --max-evals allows); this one was not run: read the file again to run it\n",
                    self.slots.limit()
                )
                .into_bytes()
                .into());
            };
            if let Some(record) = record {
                record.running = true;
            }
            permit
        };
        let outcome = self.engine.run(session, request);
        let answer: Arc<[u8]> = match &outcome {
            Ok(answer) => answer.as_slice().into(),
            Err(error) => error_answer(error),
        };
        if let Some((id, generation)) = id {
            if let Some(record) = lock(slot).get_mut(id) {
                record.running = false;
                if record.generation == generation && record.replaced_by.is_none() {
                    record.slot = Slot::Answered(answer.clone());
                }
            }
        }
        outcome.map(|_| answer)
    }
}

/// Why a read cannot tell which request is its own, as the error it fails with.
fn ambiguity(resolution: Resolution) -> RequestError {
    let who = |pid: Option<u32>| pid.map_or("a process".to_string(), |p| format!("process {p}"));
    let text = match resolution {
        Resolution::Ambiguous(requests) => {
            let list: Vec<String> = requests
                .into_iter()
                .map(|(pid, script)| format!("{} wrote `{script}`", who(pid)))
                .collect();
            format!(
                "eval: ambiguous: {} scripts of this terminal session are equally near this \
                 reader ({}), so it answers none of them. Read each answer before another job \
                 writes, write and read from one process, or run each job in its own \
                 session (`setsid`).",
                list.len(),
                list.join("; ")
            )
        }
        Resolution::Replaced { mine, by } => format!(
            "eval: replaced: the script this read belongs with (`{}`, written by {}) was \
             replaced by `{}`, written by {} of the same job or shell, before it was read. \
             Read each answer before the next write, or run concurrent jobs in their own \
             session (`setsid`).",
            mine.1,
            who(mine.0),
            by.script,
            who(by.pid)
        ),
        Resolution::Nothing | Resolution::One(_) => "eval: no answer".to_string(),
    };
    RequestError::new(RequestErrorKind::Ambiguous, std::io::Error::other(text))
}

/// The answer text of a failed request: its error, ending in a newline.
fn error_answer(error: &RequestError) -> Arc<[u8]> {
    let mut answer = error.to_string().into_bytes();
    if !answer.ends_with(b"\n") {
        answer.push(b'\n');
    }
    answer.into()
}

/// The answer to a read while the same session's previous request still runs.
const BUSY_SESSION: &str = "eval: busy: this session's previous script is still running; \
read the file again when it has finished\n";

#[cfg(test)]
mod slot_count_tests {
    use super::EvalSlots;

    #[test]
    fn eval_slots_leave_a_worker_free() {
        assert_eq!(EvalSlots::for_workers(8, None).limit(), 4);
        assert_eq!(EvalSlots::for_workers(8, Some(100)).limit(), 7);
        assert_eq!(EvalSlots::for_workers(8, Some(0)).limit(), 1);
        assert_eq!(EvalSlots::for_workers(1, None).limit(), 1);
        assert_eq!(EvalSlots::for_workers(3, None).limit(), 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vfs::RequestErrorKind;

    /// Echoes the request reversed; "bad" does not parse, "corrupt" and "huge" fail.
    struct Reverse;
    impl ControlFile for Reverse {
        fn check(&self, request: &[u8]) -> Result<(), RequestError> {
            if request.starts_with(b"bad") {
                let why = std::io::Error::other("parse error at 1:1");
                Err(RequestError::new(RequestErrorKind::Invalid, why))
            } else {
                Ok(())
            }
        }
        fn run(&self, _s: SessionId, request: &[u8]) -> Result<Vec<u8>, RequestError> {
            let failure = |kind, text: &str| RequestError::new(kind, std::io::Error::other(text));
            match request {
                b"corrupt" => Err(failure(RequestErrorKind::Corrupt, "bad tag at 0x10")),
                b"huge" => Err(failure(RequestErrorKind::Limit, "too many objects")),
                _ => Ok(request.iter().rev().copied().collect()),
            }
        }
        fn usage(&self) -> Vec<u8> {
            b"usage".to_vec()
        }
    }

    fn node() -> ControlNode {
        ControlNode::new(Arc::new(Reverse), ControlLimits::default())
    }

    #[test]
    fn writer_then_reader_of_same_session_sees_answer() {
        let node = node();
        let mut w = node.open(SessionId(1));
        node.write(&mut w, 0, b"abc", false).unwrap();
        node.flush(&mut w).unwrap();
        let mut r = node.open(SessionId(1));
        assert_eq!(&*node.answer(&mut r).unwrap(), b"cba");
        let mut other = node.open(SessionId(2));
        assert_eq!(&*node.answer(&mut other).unwrap(), b"usage");
    }

    /// Admits nothing once `refused` is set: a refused snapshot's engine.
    struct Refusing(std::sync::atomic::AtomicBool);
    impl ControlFile for Refusing {
        fn check(&self, request: &[u8]) -> Result<(), RequestError> {
            Reverse.check(request)
        }
        fn run(&self, s: SessionId, request: &[u8]) -> Result<Vec<u8>, RequestError> {
            Reverse.run(s, request)
        }
        fn usage(&self) -> Vec<u8> {
            Reverse.usage()
        }
        fn admit(&self) -> Result<(), RequestError> {
            if self.0.load(std::sync::atomic::Ordering::SeqCst) {
                let why = std::io::Error::other("snapshot refused");
                Err(RequestError::new(RequestErrorKind::NotTrusted, why))
            } else {
                Ok(())
            }
        }
    }

    #[test]
    fn a_refusing_engine_fails_usage_answers_and_writes_with_eacces() {
        let engine = Arc::new(Refusing(Default::default()));
        let node = ControlNode::new(engine.clone(), ControlLimits::default());
        let mut answered = node.open(SessionId(1));
        node.write(&mut answered, 0, b"abc", false).unwrap();
        assert_eq!(&*node.answer(&mut answered).unwrap(), b"cba");
        engine.0.store(true, std::sync::atomic::Ordering::SeqCst);
        let errno = |r: Result<Arc<[u8]>, VfsError>| r.map(|_| ()).unwrap_err().errno();
        assert_eq!(errno(node.answer_at(&mut answered, 0)), libc::EACCES);
        let mut fresh = node.open(SessionId(2));
        assert_eq!(errno(node.answer(&mut fresh)), libc::EACCES);
        let err = node.write(&mut fresh, 0, b"xyz", false).unwrap_err();
        assert_eq!(err.errno(), libc::EACCES);
    }

    #[test]
    fn rewrite_replaces_request_without_stale_bytes() {
        let node = node();
        let mut h = node.open(SessionId(1));
        node.write(&mut h, 0, b"long request", false).unwrap();
        node.write(&mut h, 0, b"ab", false).unwrap();
        assert_eq!(&*node.answer(&mut h).unwrap(), b"ba");
        node.write(&mut h, 0, b"x", false).unwrap();
        node.write(&mut h, 1, b"y", false).unwrap();
        assert_eq!(&*node.answer(&mut h).unwrap(), b"yx");
    }

    #[test]
    fn parse_error_fails_write_and_becomes_answer() {
        let node = node();
        let mut h = node.open(SessionId(1));
        let err = node.write(&mut h, 0, b"bad", false).unwrap_err();
        assert_eq!(err.errno(), libc::EINVAL);
        assert_eq!(&*node.answer(&mut h).unwrap(), b"parse error at 1:1\n");
        let mut r = node.open(SessionId(1));
        assert_eq!(&*node.answer(&mut r).unwrap(), b"parse error at 1:1\n");
    }

    #[test]
    fn a_failed_run_fails_the_read_with_its_kinds_errno_and_becomes_the_answer() {
        let node = node();
        for (request, errno, text) in [
            (&b"corrupt"[..], libc::EUCLEAN, &b"bad tag at 0x10\n"[..]),
            (b"huge", libc::EFBIG, b"too many objects\n"),
        ] {
            let mut h = node.open(SessionId(1));
            node.write(&mut h, 0, request, false).unwrap();
            assert_eq!(node.answer(&mut h).unwrap_err().errno(), errno);
            // the same handle and the session's next reader read why
            assert_eq!(&*node.answer(&mut h).unwrap(), text);
            let mut r = node.open(SessionId(1));
            assert_eq!(&*node.answer(&mut r).unwrap(), text);
        }
    }

    #[test]
    fn deferred_parse_error_reported_at_flush() {
        let node = node();
        let mut h = node.open(SessionId(1));
        node.write(&mut h, 0, b"bad", true).unwrap();
        assert_eq!(node.flush(&mut h).unwrap_err().errno(), libc::EINVAL);
    }

    #[test]
    fn write_past_end_and_oversized_are_refused() {
        let node = ControlNode::new(
            Arc::new(Reverse),
            ControlLimits {
                max_request: 4,
                max_sessions: 2,
            },
        );
        let mut h = node.open(SessionId(1));
        assert_eq!(
            node.write(&mut h, 3, b"x", false).unwrap_err().errno(),
            libc::EINVAL
        );
        assert_eq!(
            node.write(&mut h, 0, b"12345", false).unwrap_err().errno(),
            libc::EFBIG
        );
    }

    #[test]
    fn sessions_are_bounded() {
        let node = ControlNode::new(
            Arc::new(Reverse),
            ControlLimits {
                max_request: 16,
                max_sessions: 2,
            },
        );
        for s in 0..10 {
            let mut h = node.open(SessionId(s));
            node.write(&mut h, 0, b"ab", false).unwrap();
        }
        assert!(lock(&node.sessions).slots.len() <= 2);
    }

    /// Runs requests only when the test lets them finish.
    struct Gate(Mutex<std::sync::mpsc::Receiver<()>>);
    impl ControlFile for Gate {
        fn check(&self, _request: &[u8]) -> Result<(), RequestError> {
            Ok(())
        }
        fn run(&self, _s: SessionId, request: &[u8]) -> Result<Vec<u8>, RequestError> {
            if request == b"wait" {
                let _ = lock(&self.0).recv();
            }
            Ok(request.to_vec())
        }
        fn usage(&self) -> Vec<u8> {
            b"usage".to_vec()
        }
    }

    #[test]
    fn running_requests_are_bounded_and_extra_ones_are_busy_not_blocked() {
        let (release, wait) = std::sync::mpsc::channel();
        let node = Arc::new(ControlNode::with_slots(
            Arc::new(Gate(Mutex::new(wait))),
            ControlLimits::default(),
            Arc::new(EvalSlots::new(1)),
        ));
        let mut a = node.open(SessionId(1));
        node.write(&mut a, 0, b"wait", false).unwrap();
        let runner = {
            let node = node.clone();
            std::thread::spawn(move || node.answer(&mut a).unwrap())
        };
        while lock(&node.slots.running).eq(&0) {
            std::thread::yield_now();
        }
        // The same session's next read, and another session's request, answer at once.
        let mut again = node.open(SessionId(1));
        let busy = node.answer(&mut again).unwrap();
        assert!(busy.starts_with(b"eval: busy: this session"));
        let mut b = node.open(SessionId(2));
        node.write(&mut b, 0, b"other", false).unwrap();
        let busy = node.answer(&mut b).unwrap();
        assert!(busy.starts_with(b"eval: busy: 1 scripts"), "{busy:?}");
        release.send(()).unwrap();
        assert_eq!(&*runner.join().unwrap(), b"wait");
        // The busy request stayed pending: a new read of that session runs it.
        let mut b2 = node.open(SessionId(2));
        assert_eq!(&*node.answer(&mut b2).unwrap(), b"other");
        let mut a2 = node.open(SessionId(1));
        assert_eq!(&*node.answer(&mut a2).unwrap(), b"wait");
    }
}
