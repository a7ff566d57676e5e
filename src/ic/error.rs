//! Errors of the IC client, phrased so that a user knows what to do next.

use crate::store::StoreError;
use ic_agent::agent::RejectCode;
use ic_agent::AgentError;

/// What went wrong talking to the IC or acting on its replies.
#[derive(Debug, thiserror::Error)]
pub enum IcError {
    /// A flag or configuration value is unusable.
    #[error("{0}")]
    Config(String),
    /// The identity could not be loaded.
    #[error("identity {name}: {reason}")]
    Identity {
        /// The identity name or file.
        name: String,
        /// Why, and what to do.
        reason: String,
    },
    /// The caller may not do this to the canister.
    #[error("{op}: {caller} is not allowed: it is not a controller of {canister} (reading snapshots needs a controller, or a principal the canister's snapshot_visibility setting lists). Use --identity with a controller's identity, or have a controller run `icp canister settings update {canister} --add-controller {caller}` (dfx: `dfx canister update-settings {canister} --add-controller {caller}`). The IC said: {message}")]
    NotController {
        /// The operation.
        op: String,
        /// The canister.
        canister: String,
        /// The caller's principal.
        caller: String,
        /// The IC's message.
        message: String,
    },
    /// The snapshot does not exist (any more).
    #[error("{op}: canister {canister} has no snapshot {snapshot} (deleted or replaced); run `mo-mem info --canister {canister}` to see the current ones. The IC said: {message}")]
    NoSuchSnapshot {
        /// The operation.
        op: String,
        /// The canister.
        canister: String,
        /// Snapshot ID in hex.
        snapshot: String,
        /// The IC's message.
        message: String,
    },
    /// The canister does not exist on this network.
    #[error("{op}: there is no canister {canister} on {network}; check --canister and --network. The IC said: {message}")]
    NoSuchCanister {
        /// The operation.
        op: String,
        /// The canister.
        canister: String,
        /// The network.
        network: String,
        /// The IC's message.
        message: String,
    },
    /// The 10-snapshot limit is reached.
    #[error("{op}: canister {canister} already has the most snapshots the IC allows (10). Run `mo-mem update --canister {canister}` to replace the latest one, or delete one (`icp canister snapshot delete {canister} <ID>`). The IC said: {message}")]
    SnapshotLimit {
        /// The operation.
        op: String,
        /// The canister.
        canister: String,
        /// The IC's message.
        message: String,
    },
    /// The canister is short of cycles.
    #[error("{op}: canister {canister} does not have enough cycles for this (snapshots are charged to the canister); top it up (`icp canister top-up` / `dfx cycles top-up`) and retry. The IC said: {message}")]
    OutOfCycles {
        /// The operation.
        op: String,
        /// The canister.
        canister: String,
        /// The IC's message.
        message: String,
    },
    /// The canister is running and the user did not ask to stop it.
    #[error("canister {canister} is {status}: a snapshot of a running canister can capture calls in flight. Stop it first (`icp canister stop {canister}` / `dfx canister stop {canister}`) or pass --stop to let mo-mem stop it, take the snapshot and start it again")]
    CanisterRunning {
        /// The canister.
        canister: String,
        /// `running` or `stopping`.
        status: String,
    },
    /// A reply could not be trusted: certificate, signature or time check failed. Never retried.
    #[error("{op}: the reply from {network} failed certificate verification ({detail}); it was refused. For a local replica, check that --network points at it (its root key is fetched from it); otherwise suspect a proxy tampering with traffic or a clock that is far off")]
    Untrusted {
        /// The operation.
        op: String,
        /// The network.
        network: String,
        /// The agent's error.
        detail: String,
    },
    /// The network could not be reached after retries.
    #[error("{op}: cannot reach {network} ({detail}); check the network connection and --network (a local replica must be running)")]
    Unreachable {
        /// The operation.
        op: String,
        /// The network.
        network: String,
        /// The last error.
        detail: String,
    },
    /// The IC rejected the call for another reason.
    #[error("{op}: the IC rejected the call{code}: {message}")]
    Rejected {
        /// The operation.
        op: String,
        /// ` (IC0xyz)` or empty.
        code: String,
        /// The IC's message.
        message: String,
    },
    /// Any other agent failure.
    #[error("{op}: {source}")]
    Agent {
        /// The operation.
        op: String,
        /// The agent's error.
        source: Box<AgentError>,
    },
    /// The IC answered something that breaks the API's rules.
    #[error("{op}: unexpected reply: {reason}")]
    BadReply {
        /// The operation.
        op: String,
        /// What is wrong.
        reason: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Whether a failed call is worth retrying: transport trouble, timeouts, HTTP 429/5xx, and
/// transient rejects (such as the heap-delta rate limit IC0210), but not out-of-cycles (IC0207).
pub fn is_transient(err: &AgentError) -> bool {
    match err {
        AgentError::TransportError(_) | AgentError::TimeoutWaitingForResponse() => true,
        AgentError::HttpError(p) => p.status == 429 || p.status >= 500,
        AgentError::CertifiedReject { reject, .. }
        | AgentError::UncertifiedReject { reject, .. } => {
            reject.reject_code == RejectCode::SysTransient
                && reject.error_code.as_deref() != Some("IC0207")
        }
        _ => false,
    }
}

/// Context for turning an [`AgentError`] into an actionable [`IcError`].
#[derive(Debug, Clone)]
pub struct ErrorContext<'a> {
    /// What was being done, e.g. `read snapshot data`.
    pub op: &'a str,
    /// The canister, textual.
    pub canister: &'a str,
    /// The caller's principal, textual.
    pub caller: &'a str,
    /// The network label.
    pub network: &'a str,
    /// The snapshot involved, hex, if any.
    pub snapshot: Option<&'a str>,
}

/// Explains an agent error in words a user can act on.
pub fn explain(ctx: &ErrorContext<'_>, err: AgentError) -> IcError {
    let op = ctx.op.to_string();
    match &err {
        AgentError::CertifiedReject { reject, .. }
        | AgentError::UncertifiedReject { reject, .. } => {
            let message = reject.reject_message.clone();
            let code = reject.error_code.clone().unwrap_or_default();
            let lower = message.to_ascii_lowercase();
            if code == "IC0512"
                || lower.contains("not a controller")
                || lower.contains("only the controllers")
                || lower.contains("only controllers")
                || lower.contains("snapshot_visibility")
                || lower.contains("access denied")
            {
                return IcError::NotController {
                    op,
                    canister: ctx.canister.into(),
                    caller: ctx.caller.into(),
                    message,
                };
            }
            if code == "IC0305" || lower.contains("could not find the snapshot") {
                return IcError::NoSuchSnapshot {
                    op,
                    canister: ctx.canister.into(),
                    snapshot: ctx.snapshot.unwrap_or("?").into(),
                    message,
                };
            }
            if code == "IC0301" || lower.contains("canister not found") {
                return IcError::NoSuchCanister {
                    op,
                    canister: ctx.canister.into(),
                    network: ctx.network.into(),
                    message,
                };
            }
            if lower.contains("maximum number of snapshots") {
                return IcError::SnapshotLimit {
                    op,
                    canister: ctx.canister.into(),
                    message,
                };
            }
            if code == "IC0207" || lower.contains("out of cycles") {
                return IcError::OutOfCycles {
                    op,
                    canister: ctx.canister.into(),
                    message,
                };
            }
            let code = if code.is_empty() {
                format!(" (reject code {:?})", reject.reject_code)
            } else {
                format!(" ({code})")
            };
            IcError::Rejected { op, code, message }
        }
        AgentError::CertificateVerificationFailed()
        | AgentError::CertificateNotAuthorized()
        | AgentError::CertificateOutdated(_)
        | AgentError::CertificateHasTooManyDelegations
        | AgentError::MalformedSignature
        | AgentError::MalformedPublicKey
        | AgentError::DerKeyLengthMismatch { .. }
        | AgentError::DerPrefixMismatch { .. }
        | AgentError::QuerySignatureVerificationFailed => IcError::Untrusted {
            op,
            network: ctx.network.into(),
            detail: err.to_string(),
        },
        AgentError::TransportError(_)
        | AgentError::TimeoutWaitingForResponse()
        | AgentError::HttpError(_) => IcError::Unreachable {
            op,
            network: ctx.network.into(),
            detail: err.to_string(),
        },
        _ => IcError::Agent {
            op,
            source: Box::new(err),
        },
    }
}
