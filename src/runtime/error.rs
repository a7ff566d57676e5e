//! Errors of the canister runner.

/// Why a module could not be loaded or a message failed.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// The bytes are not a module the runner can load (bad gzip, bad wasm, too large, invalid).
    #[error("invalid canister module: {0}")]
    InvalidModule(String),
    /// The module imports something the runner cannot provide (a memory, table or global).
    #[error("unsupported import: {0}")]
    UnsupportedImport(String),
    /// The module imports a known `ic0` function with a signature the runner does not know.
    #[error("import {module}.{name} has signature {found}, the runner provides {expected}")]
    ImportSignature {
        /// Import module name (`ic0`).
        module: String,
        /// Import name.
        name: String,
        /// The signature the module declares.
        found: String,
        /// The signature(s) the runner implements.
        expected: String,
    },
    /// Instantiation failed (a trapping start function, a resource limit).
    #[error("cannot instantiate the canister: {0}")]
    Instantiate(String),
    /// A snapshot's state does not fit its module (memory sizes, mutable globals).
    #[error("cannot restore the snapshot: {0}")]
    Restore(String),
    /// The canister exports no such method of the requested kind.
    #[error("the canister has no {kind} method {method:?}")]
    NoSuchMethod {
        /// `init`, `update`, `query`, `pre_upgrade`, `post_upgrade`.
        kind: &'static str,
        /// The method name.
        method: String,
    },
    /// The canister trapped; `message` is its own message (`ic0.trap`) or the wasm trap.
    #[error("canister trapped in {method}: {message}")]
    Trap {
        /// The method being executed.
        method: String,
        /// The trap message.
        message: String,
    },
    /// The canister called an import the runner does not implement.
    #[error("canister called unsupported import {import} in {method}")]
    UnsupportedCall {
        /// The method being executed.
        method: String,
        /// `module.name` of the import.
        import: String,
    },
    /// The message ran out of its instruction budget.
    #[error("{method} exceeded the instruction limit of {limit}")]
    InstructionLimit {
        /// The method being executed.
        method: String,
        /// The limit (wasmi fuel units, about one per instruction).
        limit: u64,
    },
    /// The canister rejected the message (`ic0.msg_reject`); its state changes are kept.
    #[error("canister rejected {method}: {message}")]
    Rejected {
        /// The method.
        method: String,
        /// The reject message.
        message: String,
    },
    /// The message finished without replying or rejecting.
    #[error("{method} finished without a reply")]
    NoReply {
        /// The method.
        method: String,
    },
    /// A snapshot's memory file could not be mapped copy-on-write, or put back after a call.
    #[error("cannot map the snapshot's memory: {0}")]
    Mapping(#[from] super::mapped_memory::MapError),
    /// Encoding or decoding a Candid value failed.
    #[error("candid: {0}")]
    Candid(String),
}
