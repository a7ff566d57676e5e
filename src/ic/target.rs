//! One canister as every call on it sees it: the agent, the canister, who calls on which
//! network (for error messages), and how transient failures are retried.

use super::agent::Connection;
use super::error::ErrorContext;
use super::retry::RetryPolicy;
use candid::Principal;
use ic_agent::Agent;

/// The agent and the facts about one canister that its clients share. Cheap to clone.
#[derive(Clone)]
pub(crate) struct CanisterTarget {
    /// The agent calls go through.
    pub(crate) agent: Agent,
    /// The canister called.
    pub(crate) canister: Principal,
    /// Retry policy for transient failures.
    pub(crate) retry: RetryPolicy,
    canister_text: String,
    caller: String,
    network: String,
}

impl CanisterTarget {
    /// `canister` over `conn`.
    pub(crate) fn new(conn: &Connection, canister: Principal) -> Self {
        Self {
            agent: conn.agent.clone(),
            canister,
            retry: conn.retry,
            canister_text: canister.to_text(),
            caller: conn.identity.principal.clone(),
            network: conn.network.label(),
        }
    }

    /// What an error of `op` (on `snapshot`, if one) names.
    pub(crate) fn ctx<'a>(&'a self, op: &'a str, snapshot: Option<&'a str>) -> ErrorContext<'a> {
        ErrorContext {
            op,
            canister: &self.canister_text,
            caller: &self.caller,
            network: &self.network,
            snapshot,
        }
    }
}
