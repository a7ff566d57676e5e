//! Step timings for benchmarks (`scripts/bench-time`): with `MO_MEM_TIMES=1` in the
//! environment, a long command prints on stderr the process CPU time (user + system) and the
//! wall time of each step it times (`mo-mem: time flame 1.234 s CPU 1.240 s wall`), so a
//! benchmark can tell the flame graph or the export from the analysis before it. Off by
//! default: nothing is measured or printed.

use std::time::{Duration, Instant};

/// The environment variable that turns the timings on.
pub const TIMES_ENV: &str = "MO_MEM_TIMES";

/// This process's CPU time so far (user + system, all threads), if the OS tells it.
fn process_cpu() -> Option<Duration> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a whole `rusage` into the pointer it is given.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
    if rc != 0 {
        return None;
    }
    // SAFETY: initialised by the successful call above.
    let usage = unsafe { usage.assume_init() };
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    Some(tv(usage.ru_utime) + tv(usage.ru_stime))
}

/// The calling thread's CPU time so far, if the OS tells it.
fn thread_cpu() -> Option<Duration> {
    let mut t = std::mem::MaybeUninit::<libc::timespec>::zeroed();
    // SAFETY: clock_gettime writes a whole `timespec` into the pointer it is given.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, t.as_mut_ptr()) };
    if rc != 0 {
        return None;
    }
    // SAFETY: initialised by the successful call above.
    let t = unsafe { t.assume_init() };
    Some(Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    ))
}

/// Whether timings are asked for.
fn enabled() -> bool {
    std::env::var_os(TIMES_ENV).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Runs `step` and, when timings are asked for, prints its CPU and wall time as `what`.
pub fn timed<T>(what: &str, step: impl FnOnce() -> T) -> T {
    if !enabled() {
        return step();
    }
    let started = Started::now();
    let out = step();
    started.print(what);
    out
}

/// When a timed step began: the process' CPU time and the wall clock.
#[derive(Debug, Clone, Copy)]
pub struct Started {
    cpu: Option<Duration>,
    thread: Option<Duration>,
    wall: Instant,
}

impl Started {
    /// Now.
    fn now() -> Started {
        Started {
            cpu: process_cpu(),
            thread: thread_cpu(),
            wall: Instant::now(),
        }
    }

    /// Now, if timings are asked for.
    pub fn if_enabled() -> Option<Started> {
        enabled().then(Started::now)
    }

    /// Prints the CPU and wall time since this start as `what`, and the CPU time of this
    /// thread (on the same thread as the start): the step's time on a machine with a core
    /// free for each of its threads, when the others finish first.
    pub fn print(&self, what: &str) {
        let wall = self.wall.elapsed();
        let since = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
            (Some(a), Some(b)) => format!("{:.3}", b.saturating_sub(a).as_secs_f64()),
            _ => "?".to_string(),
        };
        eprintln!(
            "mo-mem: time {what} {} s CPU {:.3} s wall {} s this thread",
            since(self.cpu, process_cpu()),
            wall.as_secs_f64(),
            since(self.thread, thread_cpu()),
        );
    }
}
