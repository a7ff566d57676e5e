//! The host side of a running canister: the state the `ic0` imports read and write.

use std::fmt;

use wasmi::{Memory, StoreLimits};

use super::config::RuntimeConfig;

/// Which kind of message is executing (decides what the `ic0` imports allow).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    /// `canister_init`.
    Init,
    /// An update call (`canister_update <name>`, or a query method called as an update).
    Update,
    /// A query call: its state changes are discarded.
    Query,
    /// `canister_pre_upgrade`.
    PreUpgrade,
    /// `canister_post_upgrade`.
    PostUpgrade,
    /// The module's start function, during instantiation.
    Start,
}

impl MessageKind {
    /// Whether a reply is expected (update and query).
    pub fn replies(self) -> bool {
        matches!(self, MessageKind::Update | MessageKind::Query)
    }
}

/// The state of the current message.
#[derive(Debug, Default)]
pub struct MessageContext {
    /// The method name (`msg_method_name_*`), empty outside calls.
    pub method: String,
    /// The argument bytes (`msg_arg_data_*`).
    pub arg: Vec<u8>,
    /// Reply bytes appended so far.
    pub reply: Vec<u8>,
    /// Whether `msg_reply` was called.
    pub replied: bool,
    /// The message of `msg_reject`, if called.
    pub rejected: Option<String>,
    /// Whether `call_new` started a call not yet performed.
    pub call_pending: bool,
}

/// A trap raised by an `ic0` import; turned into a [`super::RuntimeError`] when the message ends.
#[derive(Debug)]
pub enum HostTrap {
    /// `ic0.trap` with the canister's message.
    Canister(String),
    /// An import the runner does not implement was called (`module.name`).
    Unsupported(String),
    /// The canister broke an `ic0` rule (bad pointer, reply twice, limit exceeded...).
    Violation(String),
}

impl fmt::Display for HostTrap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostTrap::Canister(m) => write!(f, "{m}"),
            HostTrap::Unsupported(i) => write!(f, "unsupported import {i} called"),
            HostTrap::Violation(m) => write!(f, "{m}"),
        }
    }
}

impl wasmi::errors::HostError for HostTrap {}

/// Everything the `ic0` imports of one canister instance share.
pub struct Host {
    /// The runner configuration.
    pub cfg: RuntimeConfig,
    /// The canister's main memory (set right after instantiation).
    pub memory: Option<Memory>,
    /// Stable memory bytes (a multiple of 64 KiB).
    pub stable: Vec<u8>,
    /// The executing message.
    pub ctx: MessageContext,
    /// The kind of the executing message.
    pub kind: MessageKind,
    /// `debug_print` output, oldest first.
    pub debug_log: Vec<String>,
    /// The global timer deadline (0 = inactive).
    pub global_timer: u64,
    /// `certified_data_set` contents.
    pub certified_data: Vec<u8>,
    /// State-changing messages executed so far (the canister version).
    pub messages_executed: u64,
    /// wasmi's memory growth limits.
    pub limits: StoreLimits,
}

impl Host {
    /// A host for a fresh canister.
    pub fn new(cfg: RuntimeConfig) -> Host {
        let limits = wasmi::StoreLimitsBuilder::new()
            .memory_size(usize::try_from(cfg.max_memory_bytes).unwrap_or(usize::MAX))
            .instances(1)
            // one memory; an imported one (a mapped snapshot's) is counted once when made and
            // again when the instance is checked
            .memories(2)
            .tables(4)
            .build();
        Host {
            cfg,
            memory: None,
            stable: Vec::new(),
            ctx: MessageContext::default(),
            kind: MessageKind::Start,
            debug_log: Vec::new(),
            global_timer: 0,
            certified_data: Vec::new(),
            messages_executed: 0,
            limits,
        }
    }

    /// Appends a `debug_print` line, dropping the oldest beyond the configured maximum.
    pub fn log(&mut self, line: String) {
        tracing::debug!(target: "mo_mem::runtime", "canister: {line}");
        if self.cfg.max_debug_lines == 0 {
            return;
        }
        if self.debug_log.len() >= self.cfg.max_debug_lines {
            let excess = self.debug_log.len() + 1 - self.cfg.max_debug_lines;
            self.debug_log.drain(..excess);
        }
        self.debug_log.push(line);
    }
}
