//! Resource limits of one evaluation: steps, wall-clock time, memory, output, call depth.

use std::time::Duration;

/// The bounds every evaluation runs under; running out stops the script with a clear message.
///
/// - `max_steps`: deterministic fuel. One step is charged per loop iteration, function
///   call, iterator step and per element processed by a built-in (`Array.tabulate`,
///   `Text.join`, ...). The same script on the same input always uses the same steps.
/// - `deadline`: wall-clock time, checked every 1024 steps (so a single huge built-in
///   call, e.g. one `#` of two 100 MB texts, can overshoot it).
/// - `max_memory`: best effort, like starlark's heap limit: the bytes of every text,
///   blob, array, tuple and record the script creates are added up (not freed when the
///   value dies), and no single value may exceed it. It is not a bound on the process's
///   resident memory; for a hard bound run the evaluation in a process with OS limits.
/// - `max_output`: bytes `Debug.print` may write (the final value's rendering is not
///   counted).
/// - `max_source`: the largest script accepted, in bytes. Parsing, type declarations and
///   compilation are linear in the script's size (nesting and operator chains are bounded
///   by the parser), so this bounds them; their time also counts against `deadline`.
/// - `max_call_depth`: nested function calls. The interpreter recurses on the native
///   stack, so the thread running an evaluation needs about 64 KiB of stack per level in
///   debug builds (8 KiB in release); [`crate::script::EVAL_STACK_SIZE`] is enough for
///   the default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Step budget (deterministic fuel).
    pub max_steps: u64,
    /// Wall-clock budget.
    pub deadline: Duration,
    /// Allocation budget in bytes (cumulative, best effort).
    pub max_memory: u64,
    /// Output budget in bytes.
    pub max_output: u64,
    /// Call depth budget.
    pub max_call_depth: u32,
    /// Largest script accepted, in bytes.
    pub max_source: usize,
    /// Native stack the evaluation may use, in bytes (checked at every call, so deep
    /// recursion stops with a message instead of overflowing the thread's stack). The
    /// thread must have at least this much stack plus a margin; [`crate::script::on_eval_thread`]
    /// provides [`crate::script::EVAL_STACK_SIZE`].
    pub max_native_stack: usize,
}

impl Default for Limits {
    /// 1 billion steps, 30 seconds, 2 GiB of allocation, 16 MiB of output, depth 2000,
    /// 224 MiB of native stack, scripts of up to 4 MiB.
    fn default() -> Self {
        Limits {
            max_steps: 1_000_000_000,
            deadline: Duration::from_secs(30),
            max_memory: 2 << 30,
            max_output: 16 << 20,
            max_call_depth: 2000,
            max_source: 4 << 20,
            max_native_stack: crate::script::EVAL_STACK_SIZE - (32 << 20),
        }
    }
}
