//! The Motoko-subset script engine: syntax, evaluation, host values, limits.
//!
//! Layers, each its own module: [`syntax`] (lexer, parser, AST with spans) ->
//! [`compile`] (variables resolved to slots, literals typed) -> [`eval`] (the
//! interpreter) over [`value`]s, with the built-in library in [`lib`] and embedder
//! objects behind [`host::HostObject`]. [`Session`] ties them together with REPL
//! semantics: definitions persist across evaluations.
//!
//! Sessions use `Rc` internally and are not `Send`: keep each session on one thread
//! (the thread needs a large stack, see [`EVAL_STACK_SIZE`]).

pub mod check;
pub mod compile;
pub mod eval;
pub mod host;
pub mod json;
pub mod lib;
pub mod limits;
pub mod natural;
pub mod session;
pub mod setup;
pub mod show;
pub mod syntax;
pub mod value;
pub mod workers;

pub use eval::{Trap, TrapKind};
pub use host::{HostError, HostErrorKind, HostObject};
pub use limits::Limits;
pub use session::{Evaluation, ScriptError, Session};
pub use value::Value;

/// Stack size for a thread that runs evaluations with the default call-depth limit.
pub const EVAL_STACK_SIZE: usize = 256 << 20;

/// Runs `f` on a fresh thread with [`EVAL_STACK_SIZE`] of stack and returns its result.
pub fn on_eval_thread<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> std::thread::Result<T> {
    std::thread::Builder::new()
        .name("mo-mem-eval".into())
        .stack_size(EVAL_STACK_SIZE)
        .spawn(f)
        .map_err(|e| Box::new(e.to_string()) as Box<dyn std::any::Any + Send>)?
        .join()
}
