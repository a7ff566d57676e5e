//! Which protocol a pull speaks and which snapshot it asks for: the user's `--snapshot` text
//! read once, then one entry point that runs the matching pull transaction.

use super::calls::parse_snapshot_hex;
use super::hosted::pull_hosted;
use super::pull::{pull, PullOptions, PullOutcome};
use super::{Connection, IcError};
use crate::store::{Store, StoreKey};
use candid::Principal;

/// A snapshot protocol and the snapshot asked for (`None`: the latest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnapshotChoice {
    /// The management canister's snapshot API; snapshot IDs are hex bytes.
    Management(Option<Vec<u8>>),
    /// The canister-hosted protocol of `motoko/main.mo`; snapshot IDs are numbers.
    Hosted(Option<u64>),
}

impl SnapshotChoice {
    /// Reads `--snapshot` as a management snapshot ID (hex).
    pub fn management(text: Option<&str>) -> Result<Self, IcError> {
        Ok(Self::Management(text.map(parse_snapshot_hex).transpose()?))
    }

    /// Reads `--snapshot` as a hosted snapshot ID (a decimal number).
    pub fn hosted(text: Option<&str>) -> Result<Self, IcError> {
        let id = text
            .map(|s| {
                s.parse::<u64>().map_err(|_| {
                    IcError::Config(format!(
                        "--snapshot {s:?}: hosted snapshot IDs are numbers (see `mo-mem info --protocol canister`)"
                    ))
                })
            })
            .transpose()?;
        Ok(Self::Hosted(id))
    }
}

/// Pulls the chosen snapshot of `canister` into `store` through the choice's protocol.
/// `opts.snapshot` is replaced by the choice's management ID.
pub async fn pull_chosen(
    conn: &Connection,
    canister: Principal,
    choice: &SnapshotChoice,
    store: &Store,
    key: &StoreKey,
    mut opts: PullOptions,
) -> Result<PullOutcome, IcError> {
    let label = conn.network.label();
    match choice {
        SnapshotChoice::Management(id) => {
            opts.snapshot = id.clone();
            pull(&conn.canister(canister), &label, store, key, &opts).await
        }
        SnapshotChoice::Hosted(id) => {
            opts.snapshot = None;
            pull_hosted(&conn.hosted(canister), &label, store, key, &opts, *id).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosted_ids_are_numbers_and_management_ids_hex() {
        assert_eq!(
            SnapshotChoice::hosted(Some("7")).unwrap(),
            SnapshotChoice::Hosted(Some(7))
        );
        let err = SnapshotChoice::hosted(Some("0a")).unwrap_err().to_string();
        assert!(err.contains("hosted snapshot IDs are numbers"), "{err}");
        assert_eq!(
            SnapshotChoice::management(Some("00000000000000010101")).unwrap(),
            SnapshotChoice::Management(Some(vec![0, 0, 0, 0, 0, 0, 0, 1, 1, 1]))
        );
        assert_eq!(
            SnapshotChoice::management(None).unwrap(),
            SnapshotChoice::Management(None)
        );
    }
}
