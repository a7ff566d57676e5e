//! Shared by the benchmarks.

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
