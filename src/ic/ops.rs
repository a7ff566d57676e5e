//! `create` and `update`: taking a snapshot behind the stopped-canister guard.

use super::calls::CanisterClient;
use super::error::IcError;
use ic_management_canister_types::{CanisterStatusType, Snapshot};

/// The IC's limit of snapshots per canister.
pub const MAX_SNAPSHOTS: usize = 10;

/// How to take a snapshot.
#[derive(Debug, Clone, Copy, Default)]
pub struct TakeOptions {
    /// Stop a running canister, take, and start it again (also when taking fails).
    pub stop: bool,
    /// Replace the latest snapshot (`update`) instead of adding one (`create`).
    pub replace_latest: bool,
}

/// What taking a snapshot did.
#[derive(Debug, Clone)]
pub struct TakeOutcome {
    /// The new snapshot.
    pub snapshot: Snapshot,
    /// The ID of the snapshot it replaced, if any.
    pub replaced: Option<Vec<u8>>,
    /// Whether mo-mem stopped the canister and started it again.
    pub restarted: bool,
    /// SHA-256 of the module installed when the snapshot was taken.
    pub module_hash: Option<Vec<u8>>,
}

/// The latest snapshot: largest `taken_at_timestamp`, ties broken by the big-endian local ID prefix.
pub fn latest(list: &[Snapshot]) -> Option<&Snapshot> {
    list.iter().max_by(|a, b| {
        a.taken_at_timestamp
            .cmp(&b.taken_at_timestamp)
            .then_with(|| a.id.get(..8).cmp(&b.id.get(..8)))
    })
}

/// Takes a snapshot (`create`, or `update` with `replace_latest`), refusing a running canister
/// unless `stop` is set, in which case it is stopped, snapshotted, and started again.
pub async fn take(client: &CanisterClient, opts: TakeOptions) -> Result<TakeOutcome, IcError> {
    let state = client.status().await?;
    let was_running = state.status != CanisterStatusType::Stopped;
    if was_running && !opts.stop {
        return Err(IcError::CanisterRunning {
            canister: client.canister().to_text(),
            status: match state.status {
                CanisterStatusType::Running => "running",
                _ => "stopping",
            }
            .into(),
        });
    }
    if was_running {
        client.stop().await?;
    }
    let taken = take_stopped(client, opts.replace_latest).await;
    if was_running {
        if let Err(start_err) = client.start().await {
            return Err(match taken {
                Ok(_) => start_err,
                Err(take_err) => IcError::Config(format!(
                    "{take_err}; and restarting the canister failed too: {start_err}. Start it with `icp canister start {}`",
                    client.canister()
                )),
            });
        }
    }
    let (snapshot, replaced) = taken?;
    Ok(TakeOutcome {
        snapshot,
        replaced,
        restarted: was_running,
        module_hash: state.module_hash,
    })
}

async fn take_stopped(
    client: &CanisterClient,
    replace_latest: bool,
) -> Result<(Snapshot, Option<Vec<u8>>), IcError> {
    if !replace_latest {
        return Ok((client.take(None).await?, None));
    }
    // The latest may vanish between list and take (IC0305): list again and retry once.
    for attempt in 0..2 {
        let list = client.list().await?;
        let Some(old) = latest(&list).map(|s| s.id.clone()) else {
            return Err(IcError::Config(format!(
                "canister {} has no snapshot to replace; use `mo-mem create` to take the first one",
                client.canister()
            )));
        };
        match client.take(Some(old.clone())).await {
            Ok(s) => return Ok((s, Some(old))),
            Err(IcError::NoSuchSnapshot { .. }) if attempt == 0 => continue,
            Err(e) => return Err(e),
        }
    }
    Err(IcError::Config(
        "the latest snapshot kept changing; try again".into(),
    ))
}
