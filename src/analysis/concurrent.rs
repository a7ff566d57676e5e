//! Two independent steps of the analysis at once: the second on a thread of its own while
//! the first runs on the caller's, or one after the other when one thread is asked for (or
//! no thread can be started). The results do not depend on which.

use std::panic::resume_unwind;
use std::sync::{Mutex, PoisonError};
use std::thread;

/// Runs `first` on this thread and `second` beside it on another one when `threads` is 2 or
/// more (else, or if the thread cannot be started, `second` after `first`), and returns
/// both results once both are done. A panic in `second` is raised again here.
pub fn both<A, B: Send, S: FnOnce() -> B + Send>(
    threads: usize,
    first: impl FnOnce() -> A,
    second: S,
) -> (A, B) {
    if threads < 2 {
        let a = first();
        return (a, second());
    }
    // The thread takes `second` from here once started: if it cannot be started, `second`
    // is still here and runs on this thread.
    let slot: Mutex<Option<S>> = Mutex::new(Some(second));
    let (a, beside) = thread::scope(|scope| {
        let started = thread::Builder::new()
            .name("mo-mem analysis".into())
            .spawn_scoped(scope, || take(&slot).map(|step| step()));
        let a = first();
        let beside = match started {
            Ok(handle) => handle.join().unwrap_or_else(|panic| resume_unwind(panic)),
            Err(_) => None,
        };
        (a, beside)
    });
    let b = match beside {
        Some(b) => b,
        None => take(&slot).expect("a step not run beside is still in its slot")(),
    };
    (a, b)
}

/// The step in `slot`, taken out (a poisoned lock is still read: the step never ran).
fn take<S>(slot: &Mutex<Option<S>>) -> Option<S> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}

#[cfg(test)]
mod tests {
    use super::both;

    #[test]
    fn both_steps_run_and_return_in_order_on_any_thread_count() {
        for threads in [0, 1, 2, 8] {
            let here = std::thread::current().id();
            let (a, (b, elsewhere)) = both(
                threads,
                || 1 + 1,
                || ("two", std::thread::current().id() != here),
            );
            assert_eq!((a, b), (2, "two"));
            assert_eq!(elsewhere, threads >= 2, "{threads} threads");
        }
    }

    #[test]
    #[should_panic(expected = "second step failed")]
    fn a_panic_beside_is_raised_again() {
        let _ = both(2, || 1, || -> u32 { panic!("second step failed") });
    }
}
