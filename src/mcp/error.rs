//! Why a tool gives no answer, and the bounds of a compact answer: shared by the argument
//! reader, the served snapshots and the answers.

/// Why a tool gives no answer (a tool error for the client; the server keeps serving).
#[derive(Debug, Clone, thiserror::Error)]
pub enum ToolError {
    /// An argument is missing, unknown, of the wrong type or out of range.
    #[error("{0}")]
    BadArgument(String),
    /// The question has no answer on this snapshot (not an object, garbage, a trap, a limit).
    #[error("{0}")]
    Failed(String),
}

impl ToolError {
    pub(super) fn failed(e: impl std::fmt::Display) -> ToolError {
        ToolError::Failed(e.to_string())
    }
}

/// How many entries of each long list an answer has unless the agent asks for more.
pub const COMPACT_TOP: u64 = 10;
/// The most entries an agent may ask for.
pub const MAX_TOP: u64 = 10_000;
/// The largest value `vars` answers unless the agent asks for more (bytes of JSON).
pub const COMPACT_VALUE_BYTES: u64 = 64 << 10;
