//! The requests one terminal session wrote to one control file, and which of them a reader's
//! answer is. Concurrent jobs of one shell share a session, so a session holds a request per
//! writing process; a reader gets the request of the process it belongs with (itself, its
//! parent or child, or a sibling that has exited: the shell idiom `echo … > eval; cat eval`),
//! the nearest such relation first, and an error, never another job's answer, when two
//! requests are equally near (`docs/mount.md`, "Whose answer a read gets").

use super::caller::{Caller, ProcessId};
use std::collections::VecDeque;
use std::sync::Arc;

/// How many requests (answered, pending or replaced) a session keeps per control file; the
/// oldest replaced ones go first.
pub const MAX_REQUESTS_PER_SESSION: usize = 16;

/// The longest excerpt of a script kept to name it in a message, in characters.
const EXCERPT_CHARS: usize = 60;

/// A request's request text or answer.
#[derive(Clone)]
pub enum Slot {
    /// Written, not run yet.
    Pending(Arc<[u8]>),
    /// Run (or refused); its answer.
    Answered(Arc<[u8]>),
}

/// Who replaced a request before it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// The process that wrote the newer request, if known.
    pub pid: Option<u32>,
    /// An excerpt of its script.
    pub script: String,
}

/// One writer's latest request.
pub struct Request {
    /// Its number within the control file's session.
    pub id: u64,
    /// The process that wrote it, and its parent.
    pub writer: Caller,
    /// Its text or answer.
    pub slot: Slot,
    /// An excerpt of its script, to name it in messages.
    pub script: String,
    /// Whether a read runs it now.
    pub running: bool,
    /// Counts the writer's rewrites (an answer is kept only for the text it answers).
    pub generation: u64,
    /// Set when a related writer's newer request took its place.
    pub replaced_by: Option<Replacement>,
}

/// Which request a reader's answer is.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolution {
    /// Nothing this reader belongs with was written.
    Nothing,
    /// The request with this id.
    One(u64),
    /// Several equally near requests: `(writer pid, excerpt)` of each.
    Ambiguous(Vec<(Option<u32>, String)>),
    /// The reader's request was replaced by a related writer's before it was read.
    Replaced {
        /// The replaced request: its writer and excerpt.
        mine: (Option<u32>, String),
        /// What replaced it.
        by: Replacement,
    },
}

/// The requests of one session at one control file.
#[derive(Default)]
pub struct SessionRequests {
    requests: VecDeque<Request>,
    next_id: u64,
}

fn same(a: Option<ProcessId>, b: Option<ProcessId>) -> bool {
    matches!((a, b), (Some(x), Some(y)) if x == y)
}

/// How near `writer` is to `reader`: 5 the same thread, 4 another thread of its process, 3
/// its child (a step of the reader's own job), 2 its parent (the shell that runs the
/// reader), 1 a sibling that has exited (a live sibling is another job), `None` unrelated.
/// Callers known by session only are related (0) to each other alone.
fn nearness(writer: &Caller, reader: &Caller, alive: &dyn Fn(ProcessId) -> bool) -> Option<u8> {
    if writer.process.is_none() || reader.process.is_none() {
        return (writer.process.is_none() && reader.process.is_none()).then_some(0);
    }
    if same(writer.thread, reader.thread) {
        Some(5)
    } else if same(writer.process, reader.process) {
        Some(4)
    } else if same(writer.parent, reader.process) {
        Some(3)
    } else if same(writer.process, reader.parent) {
        Some(2)
    } else if same(writer.parent, reader.parent) && !writer.process.is_some_and(alive) {
        Some(1)
    } else {
        None
    }
}

/// Whether a request of `new` takes the place of an earlier one, `old`, of another thread:
/// the parent's and the children's requests, and those of siblings that have exited, are
/// the same job's earlier steps; another thread's of the same process once it was answered
/// (threads of one process may be concurrent jobs too); a live sibling's is another job's and
/// stays.
fn replaces(new: &Caller, old: &Request, alive: &dyn Fn(ProcessId) -> bool) -> bool {
    let old_writer = &old.writer;
    if new.process.is_none() || old_writer.process.is_none() {
        return new.process.is_none() && old_writer.process.is_none();
    }
    if same(old_writer.process, new.process) {
        return matches!(old.slot, Slot::Answered(_));
    }
    same(old_writer.process, new.parent)
        || same(old_writer.parent, new.process)
        || (same(old_writer.parent, new.parent) && !old_writer.process.is_some_and(alive))
}

/// The first characters of a script, on one line.
fn excerpt(script: &[u8]) -> String {
    let text = String::from_utf8_lossy(script);
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = line.chars().take(EXCERPT_CHARS).collect();
    if line.chars().count() > EXCERPT_CHARS {
        out.push('…');
    }
    out
}

impl SessionRequests {
    /// Records `slot` (written by `writer`, its script `script`) as the writer's latest
    /// request, in place of the writer's earlier one and of those it replaces; its id.
    pub fn write(
        &mut self,
        writer: Caller,
        script: &[u8],
        slot: Slot,
        alive: &dyn Fn(ProcessId) -> bool,
    ) -> (u64, u64) {
        let text = excerpt(script);
        let own = self.requests.iter_mut().find(|r| {
            r.replaced_by.is_none()
                && (same(r.writer.thread, writer.thread)
                    || (r.writer.process.is_none() && writer.process.is_none()))
        });
        if let Some(own) = own {
            own.slot = slot;
            own.script = text;
            own.generation += 1;
            return (own.id, own.generation);
        }
        for old in self.requests.iter_mut() {
            if old.replaced_by.is_none() && replaces(&writer, old, alive) {
                old.replaced_by = Some(Replacement {
                    pid: writer.process.map(|p| p.pid),
                    script: text.clone(),
                });
                old.slot = Slot::Answered(Arc::from(&b""[..]));
            }
        }
        self.make_room();
        let id = self.next_id;
        self.next_id += 1;
        self.requests.push_back(Request {
            id,
            writer,
            slot,
            script: text,
            running: false,
            generation: 0,
            replaced_by: None,
        });
        (id, 0)
    }

    /// Drops the oldest replaced request (else the oldest) while the session is full.
    fn make_room(&mut self) {
        while self.requests.len() >= MAX_REQUESTS_PER_SESSION {
            let at = self
                .requests
                .iter()
                .position(|r| r.replaced_by.is_some())
                .unwrap_or(0);
            self.requests.remove(at);
        }
    }

    /// The request `id`, if the session still has it.
    pub fn get_mut(&mut self, id: u64) -> Option<&mut Request> {
        self.requests.iter_mut().find(|r| r.id == id)
    }

    /// The request `id`, if the session still has it.
    pub fn get(&self, id: u64) -> Option<&Request> {
        self.requests.iter().find(|r| r.id == id)
    }

    /// Which request a read by `reader` answers.
    pub fn resolve(&self, reader: &Caller, alive: &dyn Fn(ProcessId) -> bool) -> Resolution {
        let near = |r: &&Request| nearness(&r.writer, reader, alive);
        let live: Vec<(&Request, u8)> = self
            .requests
            .iter()
            .filter(|r| r.replaced_by.is_none())
            .filter_map(|r| near(&r).map(|n| (r, n)))
            .collect();
        if let Some(top) = live.iter().map(|(_, n)| *n).max() {
            let nearest: Vec<&Request> = live
                .iter()
                .filter(|(_, n)| *n == top)
                .map(|(r, _)| *r)
                .collect();
            return match nearest.as_slice() {
                [one] => Resolution::One(one.id),
                many => Resolution::Ambiguous(
                    many.iter()
                        .map(|r| (r.writer.process.map(|p| p.pid), r.script.clone()))
                        .collect(),
                ),
            };
        }
        let replaced = self
            .requests
            .iter()
            .rev()
            .filter(|r| near(r).is_some())
            .find_map(|r| r.replaced_by.clone().map(|by| (r, by)));
        match replaced {
            Some((r, by)) => Resolution::Replaced {
                mine: (r.writer.process.map(|p| p.pid), r.script.clone()),
                by,
            },
            None => Resolution::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vfs::control::SessionId;

    /// Process `pid` (one thread), child of `parent`.
    fn proc(pid: u32, parent: u32) -> Caller {
        let id = |pid| ProcessId { pid, start: 7 };
        Caller {
            session: SessionId(1),
            thread: Some(id(pid)),
            process: Some(id(pid)),
            parent: Some(id(parent)),
        }
    }

    /// Thread `tid` of process `pid`, child of `parent`.
    fn thread(tid: u32, pid: u32, parent: u32) -> Caller {
        Caller {
            thread: Some(ProcessId { pid: tid, start: 7 }),
            ..proc(pid, parent)
        }
    }

    /// Processes below 100 run; the others have exited.
    fn alive(p: ProcessId) -> bool {
        p.pid < 100
    }

    fn pending(s: &str) -> Slot {
        Slot::Pending(Arc::from(s.as_bytes()))
    }

    fn write(reqs: &mut SessionRequests, writer: Caller, script: &str) -> u64 {
        reqs.write(writer, script.as_bytes(), pending(script), &alive)
            .0
    }

    fn script_of(reqs: &SessionRequests, resolution: Resolution) -> String {
        match resolution {
            Resolution::One(id) => reqs.get(id).unwrap().script.clone(),
            other => panic!("{other:?}"),
        }
    }

    const SHELL: u32 = 10;

    #[test]
    fn the_shell_idioms_read_their_own_request() {
        let mut reqs = SessionRequests::default();
        // echo (a builtin of the shell) > eval; cat eval (a child of the shell)
        write(&mut reqs, proc(SHELL, 1), "echo");
        let cat = proc(200, SHELL);
        assert_eq!(script_of(&reqs, reqs.resolve(&cat, &alive)), "echo");
        // cat s.mo > eval (an exited child); cat eval (another child): the newer one
        write(&mut reqs, proc(201, SHELL), "cat");
        assert_eq!(
            script_of(&reqs, reqs.resolve(&proc(202, SHELL), &alive)),
            "cat"
        );
        // and echo again: the shell's own request replaces its child's
        write(&mut reqs, proc(SHELL, 1), "echo again");
        assert_eq!(
            script_of(&reqs, reqs.resolve(&proc(203, SHELL), &alive)),
            "echo again"
        );
        // sh -c 'cat s.mo > eval; exec cat eval': the reader is the writer's parent, nearer
        // than the reader's own parent (the shell), whose request stays
        write(&mut reqs, proc(204, 50), "child of 50");
        assert_eq!(
            script_of(&reqs, reqs.resolve(&proc(50, SHELL), &alive)),
            "child of 50"
        );
        assert_eq!(
            script_of(&reqs, reqs.resolve(&proc(205, SHELL), &alive)),
            "echo again"
        );
    }

    #[test]
    fn concurrent_jobs_each_read_their_own_or_an_error() {
        let mut reqs = SessionRequests::default();
        // ( echo a > eval; cat eval ) & ( echo b > eval; cat eval ) &: subshells 20 and 21
        write(&mut reqs, proc(20, SHELL), "a");
        write(&mut reqs, proc(21, SHELL), "b");
        // ( cat c.mo > eval; cat eval ) &: subshell 22's exited child 300
        write(&mut reqs, proc(300, 22), "c");
        assert_eq!(script_of(&reqs, reqs.resolve(&proc(301, 20), &alive)), "a");
        assert_eq!(script_of(&reqs, reqs.resolve(&proc(302, 21), &alive)), "b");
        assert_eq!(script_of(&reqs, reqs.resolve(&proc(303, 22), &alive)), "c");
        // a subshell that execs its reader: its own request, not its live sibling's
        assert_eq!(
            script_of(&reqs, reqs.resolve(&proc(20, SHELL), &alive)),
            "a"
        );
        // an exited sibling job's request is farther than the reader's own
        write(&mut reqs, proc(120, SHELL), "exited job");
        assert_eq!(
            script_of(&reqs, reqs.resolve(&proc(21, SHELL), &alive)),
            "b"
        );
    }

    #[test]
    fn two_equally_near_requests_are_an_error_not_a_guess() {
        // cat a.mo > eval & cat b.mo > eval & (both running as the other writes); cat eval
        let mut reqs = SessionRequests::default();
        let running = |_: ProcessId| true;
        for (pid, script) in [(130, "a"), (131, "b")] {
            reqs.write(
                proc(pid, SHELL),
                script.as_bytes(),
                pending(script),
                &running,
            );
        }
        // while they run, neither is the reader's; once both exited, both are equally near
        assert_eq!(
            reqs.resolve(&proc(402, SHELL), &running),
            Resolution::Nothing
        );
        assert_eq!(
            reqs.resolve(&proc(402, SHELL), &alive),
            Resolution::Ambiguous(vec![(Some(130), "a".into()), (Some(131), "b".into())])
        );
        // a sibling that had exited when the next one wrote was that job's earlier step
        let mut reqs = SessionRequests::default();
        write(&mut reqs, proc(130, 60), "a");
        write(&mut reqs, proc(131, 60), "b");
        assert_eq!(script_of(&reqs, reqs.resolve(&proc(402, 60), &alive)), "b");
    }

    #[test]
    fn a_replaced_request_is_reported_with_what_replaced_it() {
        let mut reqs = SessionRequests::default();
        // the shell writes; before its reader reads, a (live) child of the shell writes
        write(&mut reqs, proc(SHELL, 1), "mine");
        write(&mut reqs, proc(40, SHELL), "theirs");
        assert_eq!(
            reqs.resolve(&proc(405, SHELL), &alive),
            Resolution::Replaced {
                mine: (Some(SHELL), "mine".into()),
                by: Replacement {
                    pid: Some(40),
                    script: "theirs".into()
                }
            }
        );
        assert_eq!(
            script_of(&reqs, reqs.resolve(&proc(40, SHELL), &alive)),
            "theirs"
        );
    }

    #[test]
    fn threads_of_one_process_are_jobs_until_answered() {
        let mut reqs = SessionRequests::default();
        // a thread pool: two threads write, each reads its own
        write(&mut reqs, thread(501, 50, 1), "t1");
        write(&mut reqs, thread(502, 50, 1), "t2");
        assert_eq!(
            script_of(&reqs, reqs.resolve(&thread(501, 50, 1), &alive)),
            "t1"
        );
        assert_eq!(
            script_of(&reqs, reqs.resolve(&thread(502, 50, 1), &alive)),
            "t2"
        );
        // another thread of the process cannot tell which
        assert!(matches!(
            reqs.resolve(&thread(503, 50, 1), &alive),
            Resolution::Ambiguous(_)
        ));
        // an async program: written on one thread, read (and answered) on another, then
        // written again on a third: the answered request gives way
        let mut reqs = SessionRequests::default();
        let id = write(&mut reqs, thread(601, 60, 1), "first");
        assert_eq!(
            reqs.resolve(&thread(602, 60, 1), &alive),
            Resolution::One(id)
        );
        reqs.get_mut(id).unwrap().slot = Slot::Answered(Arc::from(&b"1"[..]));
        write(&mut reqs, thread(603, 60, 1), "second");
        assert_eq!(
            script_of(&reqs, reqs.resolve(&thread(604, 60, 1), &alive)),
            "second"
        );
    }

    #[test]
    fn excerpts_are_one_short_line() {
        assert_eq!(excerpt(b"let x = 1;\n  x +\t 2"), "let x = 1; x + 2");
        let long = "a".repeat(100);
        assert_eq!(excerpt(long.as_bytes()).chars().count(), EXCERPT_CHARS + 1);
    }

    #[test]
    fn a_session_keeps_a_bounded_number_of_requests() {
        let mut reqs = SessionRequests::default();
        for pid in 0..100 {
            write(&mut reqs, proc(pid, 1000 + pid), "x");
        }
        assert_eq!(reqs.requests.len(), MAX_REQUESTS_PER_SESSION);
    }
}
