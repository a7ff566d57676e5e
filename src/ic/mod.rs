//! The Internet Computer client: snapshot API calls through ic-agent.
//!
//! [`connect`] builds an agent for a [`Network`] and identity; [`CanisterClient`] makes the
//! management canister's snapshot calls (retried when transient, explained when not);
//! [`ops::take`] is `create`/`update` behind the stopped-canister guard; [`pull::pull`] downloads
//! a snapshot into the [`crate::store`] resumably and verified.

pub mod agent;
pub mod calls;
pub mod canister;
pub mod choice;
pub mod error;
pub mod hosted;
pub mod identity;
pub mod network;
pub mod ops;
pub mod pull;
pub mod retry;
mod target;
pub mod transfer;

pub use agent::{connect, ConnectOptions, Connection};
pub use calls::{parse_snapshot_hex, snapshot_hex, CanisterClient, CanisterState};
pub use choice::{pull_chosen, SnapshotChoice};
pub use error::IcError;
pub use identity::{IdentityHomes, ResolvedIdentity};
pub use network::Network;
pub use ops::{latest, TakeOptions, TakeOutcome, MAX_SNAPSHOTS};
pub use pull::{pull, PullOptions, PullOutcome, MAX_SLICE};
pub use retry::RetryPolicy;
