//! Who opened a control file: the process the kernel names in the request, its parent and its
//! terminal session, each process named with its start time so that a reused process id is
//! never taken for the process that had it before (`docs/mount.md`, "Whose answer a read gets").

/// Whose answers a control file returns, and whose script definitions a script sees: the
/// caller's terminal session (or the thread itself once it is gone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SessionId(pub u64);

/// One process: its id and its start time (clock ticks after boot, `/proc/PID/stat` field
/// 22), which together never name two processes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProcessId {
    /// The process (or thread) id.
    pub pid: u32,
    /// When it started, in clock ticks after boot.
    pub start: u64,
}

/// The opener of a control file: its terminal session (whose script definitions it shares),
/// and, where the kernel told, the thread, its process and the process's parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caller {
    /// The terminal session (0 for every process whose session leader is outside the
    /// mount's process namespace; the thread itself once it is gone).
    pub session: SessionId,
    /// The thread that opened the file (the kernel names threads in requests), if known.
    pub thread: Option<ProcessId>,
    /// Its process (the thread group), if known.
    pub process: Option<ProcessId>,
    /// The process's parent, if known.
    pub parent: Option<ProcessId>,
}

impl From<SessionId> for Caller {
    /// A caller known by its session only (the CLI's one-shot reads, tests).
    fn from(session: SessionId) -> Caller {
        Caller {
            session,
            thread: None,
            process: None,
            parent: None,
        }
    }
}

/// Something that names a caller, looked up only when a control file is opened (raw and
/// generated files never need one).
pub trait IntoCaller {
    /// The caller.
    fn into_caller(self) -> Caller;
}

impl IntoCaller for Caller {
    fn into_caller(self) -> Caller {
        self
    }
}

impl IntoCaller for SessionId {
    fn into_caller(self) -> Caller {
        self.into()
    }
}

/// The thread a request came from, described from `/proc` when needed
/// ([`Caller::of_process`]).
pub struct ThreadId(pub u32);

impl IntoCaller for ThreadId {
    fn into_caller(self) -> Caller {
        Caller::of_process(self.0)
    }
}

/// What `/proc/PID/stat` says of a process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stat {
    /// `Z` (zombie) or `X` (dead): exited, not reaped yet.
    exited: bool,
    parent: u32,
    session: i64,
    start: u64,
}

impl Stat {
    /// The session: its leader's process id, or 0 when the leader lives outside this process
    /// namespace (a container's processes, a CI job's). All of those share that one session,
    /// as the processes of one terminal do; the nearness rules keep their jobs apart.
    fn session_id(&self) -> SessionId {
        SessionId(u64::try_from(self.session).unwrap_or(0))
    }
}

/// Parses `/proc/PID/stat`: the fields after the command name (which may hold spaces and
/// parentheses, so the last `)` ends it). `None` for a text of another shape.
fn parse_stat(text: &str) -> Option<Stat> {
    let rest = text.get(text.rfind(')')? + 1..)?;
    // fields from 3 (state) on; ppid is 4, session 6, starttime 22
    let fields: Vec<&str> = rest.split_whitespace().take(20).collect();
    Some(Stat {
        exited: matches!(*fields.first()?, "Z" | "X"),
        parent: fields.get(1)?.parse().ok()?,
        session: fields.get(3)?.parse().ok()?,
        start: fields.get(19)?.parse().ok()?,
    })
}

fn stat(pid: u32) -> Option<Stat> {
    parse_stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// The thread group (process) of thread `tid`: the `Tgid:` line of `/proc/TID/status`.
fn thread_group(tid: u32) -> Option<u32> {
    let status = std::fs::read_to_string(format!("/proc/{tid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Tgid:"))?
        .trim()
        .parse()
        .ok()
}

impl Caller {
    /// The caller `tid` (a thread id, as the kernel names it in a request) as `/proc`
    /// describes it now. A thread that is gone already (or whose record cannot be read) is a
    /// session of its own, with its id and no start time.
    pub fn of_process(tid: u32) -> Caller {
        let Some(me) = stat(tid) else {
            let gone = Some(ProcessId { pid: tid, start: 0 });
            return Caller {
                session: SessionId(u64::from(tid) | (1 << 63)),
                thread: gone,
                process: gone,
                parent: None,
            };
        };
        let session = me.session_id();
        let thread = ProcessId {
            pid: tid,
            start: me.start,
        };
        let process = match thread_group(tid) {
            Some(tgid) if tgid != tid => stat(tgid).map(|p| ProcessId {
                pid: tgid,
                start: p.start,
            }),
            _ => Some(thread),
        };
        let parent = stat(me.parent).map(|p| ProcessId {
            pid: me.parent,
            start: p.start,
        });
        Caller {
            session,
            thread: Some(thread),
            process,
            parent,
        }
    }
}

/// Whether `process` still runs (its id names a process with its start time that has not
/// exited: a zombie has).
pub fn alive(process: ProcessId) -> bool {
    stat(process.pid).is_some_and(|s| s.start == process.start && !s.exited)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_with_spaces_and_parentheses_in_the_name_parses() {
        let line = "4242 (a (b) c) S 17 4242 99 34816 4242 4194560 1 0 0 0 3 1 0 0 20 0 1 0 \
                    123456 1000 100 18446744073709551615";
        assert_eq!(
            parse_stat(line),
            Some(Stat {
                exited: false,
                parent: 17,
                session: 99,
                start: 123456
            })
        );
        let zombie = line.replace(") S ", ") Z ");
        assert!(parse_stat(&zombie).unwrap().exited);
        assert_eq!(parse_stat(line).unwrap().session_id(), SessionId(99));
        // a leader outside this process namespace: session 0, shared
        let outside = line.replace(" 17 4242 99 ", " 17 0 0 ");
        assert_eq!(parse_stat(&outside).unwrap().session_id(), SessionId(0));
        assert_eq!(parse_stat("4242 (x) S 17"), None);
        assert_eq!(parse_stat("no parenthesis"), None);
    }

    #[test]
    fn a_thread_is_known_with_its_process() {
        let main = Caller::of_process(std::process::id());
        // SAFETY: gettid(2) takes no arguments and cannot fail.
        let tid = std::thread::spawn(|| unsafe { libc::gettid() } as u32);
        let tid = tid.join().unwrap();
        // the thread has ended: a caller of its own
        assert_eq!(Caller::of_process(tid).process.unwrap().start, 0);
        let (tx, rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
        let t = std::thread::spawn(move || {
            // SAFETY: as above.
            tx.send(unsafe { libc::gettid() } as u32).unwrap();
            let _ = stop_rx.recv();
        });
        let tid = rx.recv().unwrap();
        let other = Caller::of_process(tid);
        assert_ne!(other.thread, main.thread);
        assert_eq!(other.process, main.process);
        assert_eq!(other.parent, main.parent);
        stop_tx.send(()).unwrap();
        t.join().unwrap();
    }

    #[test]
    fn this_process_is_known_with_its_parent_and_alive() {
        let me = Caller::of_process(std::process::id());
        assert_eq!(me.thread, me.process);
        let process = me.process.unwrap();
        assert_eq!(process.pid, std::process::id());
        assert!(process.start > 0);
        assert!(alive(process));
        assert!(!alive(ProcessId {
            pid: process.pid,
            start: process.start + 1
        }));
        let parent = me.parent.unwrap();
        // SAFETY: getppid(2) takes no arguments and cannot fail.
        assert_eq!(parent.pid, unsafe { libc::getppid() } as u32);
        // SAFETY: getsid(0) reads this process's session; it cannot fail for itself.
        assert_eq!(me.session, SessionId(unsafe { libc::getsid(0) } as u64));
    }
}
