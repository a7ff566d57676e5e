//! Thread CPU clocks, shared by the benchmarks and the mutation campaign (which bounds each
//! run by the CPU time it used, so a stalled or paused process is not taken for a hang).

#![allow(dead_code)]

use std::time::Duration;

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), `None` if the clock
/// cannot be read: per-core cost on a shared machine, where wall time also counts the time
/// other processes hold the core.
pub fn thread_cpu() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux supports.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| {
        Duration::new(
            ts.tv_sec.max(0) as u64,
            ts.tv_nsec.clamp(0, 999_999_999) as u32,
        )
    })
}

/// The CPU-time clock of the calling thread, readable from other threads, `None` if there is
/// none.
pub fn this_thread_clock() -> Option<libc::clockid_t> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: `clock` is a valid, writable clockid_t; `pthread_self` is the calling thread.
    let rc = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
    (rc == 0).then_some(clock)
}

/// The time of `clock` (a thread's CPU clock from [`this_thread_clock`]), `None` if it cannot
/// be read (e.g. the thread ended).
pub fn clock_time(clock: libc::clockid_t) -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    (rc == 0).then(|| {
        Duration::new(
            ts.tv_sec.max(0) as u64,
            ts.tv_nsec.clamp(0, 999_999_999) as u32,
        )
    })
}
