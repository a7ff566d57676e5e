//! Configuration of the canister runner: identities, time and limits.

use candid::Principal;

/// The canister id the runner uses by default (`rrkah-fqaaa-aaaaa-aaaaq-cai`).
pub const DEFAULT_CANISTER_ID: &str = "rrkah-fqaaa-aaaaa-aaaaq-cai";

/// The fixed time (ns since 1970) `ic0.time` returns by default; the same as fixture snapshots'.
pub const DEFAULT_TIME_NS: u64 = crate::snapshot::metadata::FIXTURE_TIMESTAMP_NS;

/// The fixed self-authenticating principal that calls every message by default.
pub fn default_caller() -> Principal {
    Principal::self_authenticating(b"mo-mem test caller")
}

/// How the runner executes a canister.
#[derive(Debug, Clone)]
pub struct RuntimeConfig {
    /// The canister's own id (`ic0.canister_self_*`).
    pub canister_id: Principal,
    /// The caller of every message, also the canister's only controller.
    pub caller: Principal,
    /// What `ic0.time` returns.
    pub time_ns: u64,
    /// The cycle balance `ic0.canister_cycle_balance128` reports.
    pub cycles: u128,
    /// Fuel (about one unit per wasm instruction) each message may use.
    pub instruction_limit: u64,
    /// Largest main memory in bytes (64-bit modules; 32-bit ones stop at 4 GiB anyway).
    pub max_memory_bytes: u64,
    /// Largest stable memory in bytes.
    pub max_stable_bytes: u64,
    /// Largest reply (and call argument) in bytes.
    pub max_message_bytes: u64,
    /// Largest number of `debug_print` lines kept (older lines are dropped first).
    pub max_debug_lines: usize,
    /// Whether a trapping init/update rolls back its state changes, as on the IC (costs a copy of
    /// the memories per message).
    pub rollback_on_trap: bool,
    /// Whether a query's state changes are undone afterwards (costs a copy of the memories per
    /// query; a one-shot call on a restored snapshot that is then dropped can skip it).
    pub restore_after_query: bool,
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        RuntimeConfig {
            canister_id: Principal::from_slice(&[0, 0, 0, 0, 0, 0, 0, 1, 1, 1]),
            caller: default_caller(),
            time_ns: DEFAULT_TIME_NS,
            cycles: 100_000_000_000_000,
            instruction_limit: 40_000_000_000,
            max_memory_bytes: 8 << 30,
            max_stable_bytes: 4 << 30,
            max_message_bytes: 64 << 20,
            max_debug_lines: 10_000,
            rollback_on_trap: true,
            restore_after_query: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_canister_id_is_rrkah() {
        assert_eq!(
            RuntimeConfig::default().canister_id,
            Principal::from_text(DEFAULT_CANISTER_ID).unwrap()
        );
    }
}
