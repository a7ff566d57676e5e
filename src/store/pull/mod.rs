//! Pulling a snapshot into the store, for both protocols (the management canister's snapshot
//! API and the canister-hosted one): the transaction that makes a download resumable and
//! verified ([`PullDir`], [`PullTransaction`]), the reads it plans ([`Item`]), its progress
//! file ([`PullState`]) and how it reports progress ([`Progress`]). The IC client only fetches
//! the bytes of each item and hands them in.

mod plan;
mod progress;
mod state;
mod transaction;

pub use plan::{slice_items, Blob, Item};
pub use progress::{Progress, Silent};
pub use state::{PullState, STATE_VERSION};
pub use transaction::{source, Plan, PullDir, PullTransaction, Start, MAX_SLICE};

#[cfg(test)]
mod tests;
