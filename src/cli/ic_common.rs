//! Flags shared by the IC commands (`--network`, `--identity`, `--canister`, `--json`, `--store`)
//! and the glue that turns them into a connection.

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use mo_mem::ic::{self, ConnectOptions, Connection, IdentityHomes, Network};
use mo_mem::store::{Store, StoreKey};
use std::path::PathBuf;

/// How to reach the canister's memory.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Protocol {
    /// The management canister's snapshot API (icp-cli/dfx layout).
    #[default]
    Management,
    /// The canister-hosted protocol of `motoko/main.mo` (a bare main-memory image).
    Canister,
}

/// Where and as whom to talk to the IC.
#[derive(Args, Debug, Clone)]
pub struct IcArgs {
    /// `ic` (mainnet), `local` (http://127.0.0.1:4943), or a replica URL; non-mainnet root keys are fetched from the replica.
    #[arg(long, default_value = "ic")]
    pub network: String,
    /// An icp-cli or dfx identity name, a PEM file, or `anonymous` (default: the icp-cli or dfx default identity, else anonymous).
    #[arg(long)]
    pub identity: Option<String>,
    /// Print machine-readable JSON on stdout (schemas: docs/schemas/ic-info.schema.json for
    /// `info --canister`, ic-take.schema.json for `create`/`update`, pull.schema.json for `pull`).
    #[arg(long)]
    pub json: bool,
    /// The snapshot API (default) or the canister-hosted protocol of motoko/main.mo.
    #[arg(long, value_enum, default_value_t = Protocol::Management)]
    pub protocol: Protocol,
}

/// The canister to act on.
#[derive(Args, Debug, Clone)]
pub struct CanisterArg {
    /// The canister: a principal, or a name from the project's canister_ids.json.
    #[arg(long)]
    pub canister: String,
}

/// Where the snapshot store is.
#[derive(Args, Debug, Clone)]
pub struct StoreArgs {
    /// The snapshot store directory (default: $MO_MEM_STORE, else <XDG data dir>/mo-mem/snapshots).
    #[arg(long)]
    pub store: Option<PathBuf>,
}

impl StoreArgs {
    /// The store and its HMAC key (created on first use).
    pub fn open(&self) -> Result<(Store, StoreKey)> {
        let store = Store::at(self.store.as_deref())?;
        let key_path = StoreKey::default_path()?;
        let key = StoreKey::load_or_create(&key_path)?;
        Ok((store, key))
    }
}

/// A tokio runtime for one command.
pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// Resolves the flags and connects; says which identity is used (on stderr).
pub async fn connect(args: &IcArgs) -> Result<Connection> {
    let network = Network::parse(&args.network)?;
    let identity = ic::identity::resolve(args.identity.as_deref(), &IdentityHomes::from_env())?;
    eprintln!(
        "using {} ({}) on {}",
        identity.description,
        identity.principal,
        network.label()
    );
    Ok(ic::connect(ConnectOptions::new(network, identity)).await?)
}

/// Resolves `--canister` for the network.
pub fn canister(args: &IcArgs, c: &CanisterArg) -> Result<candid::Principal> {
    let network = Network::parse(&args.network)?;
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    Ok(ic::canister::resolve(&c.canister, &network, &cwd)?)
}

/// Formats nanoseconds since 1970 as a UTC time, `YYYY-MM-DD HH:MM:SS UTC`.
pub fn utc(ns: u64) -> String {
    let secs = (ns / 1_000_000_000) as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil-from-days (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// A byte count for people: `1.5 GiB` (the report's rule).
pub use mo_mem::analysis::report::human as human_bytes;

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates() {
        assert_eq!(super::utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(
            super::utc(1_700_000_000_000_000_000),
            "2023-11-14 22:13:20 UTC"
        );
        assert_eq!(super::human_bytes(1536), "1.5 KiB");
    }
}
