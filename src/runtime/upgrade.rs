//! An upgrade dry run: a snapshot's canister restored into the runner and upgraded to a new
//! module as the IC's `install_code` in upgrade mode does it (the old module's
//! `canister_pre_upgrade`, then the new module's start function and `canister_post_upgrade`),
//! under one instruction limit for the three phases and a wall-clock deadline. What the
//! upgrade would do to the variables is the analysis' part (`crate::analysis::upgrade`).

use super::error::RuntimeError;
use super::instrument::decompress;
use super::offline::{restore_snapshot, SnapshotHolder};
use super::service::{Service, ServiceError};
use super::Canister;
use crate::image::{HeldBytes, Image};
use crate::snapshot::metadata::SnapshotMetadata;
use crate::snapshot::Snapshot;
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// The IC's instruction limit for `install_code` (an upgrade's three phases together).
pub const INSTALL_CODE_INSTRUCTIONS: u64 = 300_000_000_000;

/// A phase of an upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpgradePhase {
    /// The old module's `canister_pre_upgrade`.
    PreUpgrade,
    /// The new module's instantiation and start function.
    Start,
    /// The new module's `canister_post_upgrade`.
    PostUpgrade,
}

impl UpgradePhase {
    /// The phase's name in reports: `pre_upgrade`, `start`, `post_upgrade`.
    pub fn name(self) -> &'static str {
        match self {
            UpgradePhase::PreUpgrade => "pre_upgrade",
            UpgradePhase::Start => "start",
            UpgradePhase::PostUpgrade => "post_upgrade",
        }
    }
}

/// The instructions (runner fuel, about one per wasm instruction) each phase used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UpgradeCounts {
    /// `canister_pre_upgrade` of the old module.
    pub pre_upgrade: u64,
    /// The new module's start function.
    pub start: u64,
    /// `canister_post_upgrade` of the new module.
    pub post_upgrade: u64,
}

impl UpgradeCounts {
    /// All phases together.
    pub fn total(&self) -> u64 {
        self.pre_upgrade
            .saturating_add(self.start)
            .saturating_add(self.post_upgrade)
    }
}

/// Why an upgrade failed and in which phase (`None`: the new module could not be loaded).
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct UpgradeFailure {
    /// The phase that failed.
    pub phase: Option<UpgradePhase>,
    /// What happened (the canister's own trap message, the limit).
    pub error: RuntimeError,
}

/// The sizes of the two memories in bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemorySizes {
    /// Main (wasm) memory.
    pub main: u64,
    /// Stable memory.
    pub stable: u64,
}

/// How a dry run runs.
#[derive(Debug, Clone)]
pub struct UpgradeOptions {
    /// The instruction limit of the three phases together.
    pub instructions: u64,
    /// How long the dry run may take.
    pub timeout: Duration,
    /// Copy main memory into the runner instead of mapping it.
    pub copy_memory: bool,
}

impl Default for UpgradeOptions {
    fn default() -> Self {
        UpgradeOptions {
            instructions: INSTALL_CODE_INSTRUCTIONS,
            timeout: Duration::from_secs(600),
            copy_memory: false,
        }
    }
}

/// What a dry run did.
pub struct UpgradeRun {
    /// The canister after a successful upgrade; after a failure, back on its old module
    /// without the snapshot's state (a dry run does not put it back). `None` once
    /// [`UpgradeRun::take_snapshot`] released it.
    pub canister: Option<Canister>,
    /// Instructions per phase.
    pub counts: UpgradeCounts,
    /// The limit the phases shared.
    pub limit: u64,
    /// `None` when the upgrade succeeded.
    pub failure: Option<UpgradeFailure>,
    /// The memories of the restored snapshot.
    pub before: MemorySizes,
    /// The memories after the upgrade (after a failure, the snapshot's: the canister keeps its
    /// state).
    pub after: MemorySizes,
    /// What the canister printed during the upgrade.
    pub log: Vec<String>,
    /// Whether the old and new modules use 64-bit memory (enhanced orthogonal persistence).
    pub eop: (bool, bool),
}

/// Why a dry run could not be made (not an upgrade's verdict).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UpgradeError {
    /// The snapshot holds no module.
    #[error("the snapshot has no Wasm module")]
    NoModule,
    /// The new module is not one the runner can load.
    #[error("the new module: {0}")]
    NewModule(RuntimeError),
    /// The new module's service or the upgrade argument.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// Restoring the snapshot failed.
    #[error("restoring the snapshot: {0}")]
    Restore(RuntimeError),
    /// The deadline passed first.
    #[error("the upgrade did not finish within {0} s")]
    Deadline(u64),
    /// The upgraded state could not be made a snapshot.
    #[error("the upgraded state: {0}")]
    UpgradedState(String),
    /// The worker thread could not be started.
    #[error("cannot start the upgrade's thread: {0}")]
    Thread(String),
}

/// Runs the upgrade of `snapshot`'s canister to `new_wasm` (gzip'ed or not) with `arg`
/// (Candid text typed against the new module's init arguments; empty: `()`).
pub fn dry_run(
    snapshot: Arc<dyn SnapshotHolder>,
    new_wasm: &[u8],
    arg: &str,
    options: &UpgradeOptions,
) -> Result<UpgradeRun, UpgradeError> {
    let old_wasm = decompress(snapshot.snapshot().module().ok_or(UpgradeError::NoModule)?)
        .map_err(UpgradeError::Restore)?;
    let new_wasm = decompress(new_wasm).map_err(UpgradeError::NewModule)?;
    let arg = match Service::of_module(&new_wasm) {
        Ok(service) => service.encode_init_args(arg)?,
        Err(ServiceError::NoService) if arg.trim().is_empty() => candid::encode_args(())
            .map_err(|e| UpgradeError::Service(ServiceError::Module(e.to_string())))?,
        Err(e) => return Err(e.into()),
    };
    let (tx, rx) = mpsc::channel();
    let seconds = options.timeout.as_secs();
    let worker_options = options.clone();
    std::thread::Builder::new()
        .name("mo-mem-upgrade".into())
        .spawn(move || {
            let _ = tx.send(run(
                snapshot.snapshot(),
                &old_wasm,
                &new_wasm,
                &arg,
                &worker_options,
            ));
        })
        .map_err(|e| UpgradeError::Thread(e.to_string()))?;
    match rx.recv_timeout(options.timeout.max(Duration::from_millis(1))) {
        Ok(result) => result,
        Err(_) => Err(UpgradeError::Deadline(seconds)),
    }
}

/// The dry run itself, on the worker thread.
fn run(
    snapshot: &Snapshot,
    old_wasm: &[u8],
    new_wasm: &[u8],
    arg: &[u8],
    options: &UpgradeOptions,
) -> Result<UpgradeRun, UpgradeError> {
    let mut canister =
        restore_snapshot(snapshot, old_wasm, options.copy_memory).map_err(UpgradeError::Restore)?;
    let sizes = |c: &Canister| MemorySizes {
        main: c.main_memory().len() as u64,
        stable: c.stable_memory().len() as u64,
    };
    let before = sizes(&canister);
    let old_eop = canister.is_memory64();
    canister.config_mut().instruction_limit = options.instructions;
    let logged = canister.debug_log().len();
    let (counts, result) = canister.upgrade_counted(new_wasm, arg);
    let failure = match result {
        Ok(()) => None,
        Err(UpgradeFailure { phase: None, error }) => return Err(UpgradeError::NewModule(error)),
        Err(f) => Some(f),
    };
    let new_eop = match &failure {
        None => canister.is_memory64(),
        Some(_) => super::instrument::prepare(new_wasm)
            .map(|p| p.memory64)
            .unwrap_or(false),
    };
    let log = canister.debug_log()[logged.min(canister.debug_log().len())..].to_vec();
    Ok(UpgradeRun {
        after: if failure.is_none() {
            sizes(&canister)
        } else {
            before
        },
        canister: Some(canister),
        counts,
        limit: options.instructions,
        failure,
        before,
        log,
        eop: (old_eop, new_eop),
    })
}

impl UpgradeRun {
    /// The upgraded canister, or why there is none.
    fn upgraded(&self) -> Result<&Canister, UpgradeError> {
        self.canister.as_ref().ok_or_else(|| {
            UpgradeError::UpgradedState("the upgraded canister was released".to_string())
        })
    }

    /// The upgraded state as the files of a snapshot directory (`metadata.json`,
    /// `wasm_module.bin`, `wasm_memory.bin`, `stable_memory.bin`): taken at the old
    /// snapshot's time, its canister version advanced by the upgrade. The memories are the
    /// canister's own bytes, not copies.
    pub fn snapshot_files(
        &self,
        old: &Snapshot,
    ) -> Result<Vec<(&'static str, Vec<u8>)>, UpgradeError> {
        let c = self.upgraded()?;
        Ok(vec![
            ("metadata.json", metadata_json(c, old)?),
            ("wasm_module.bin", c.wasm_module().to_vec()),
            ("wasm_memory.bin", c.main_memory().to_vec()),
            ("stable_memory.bin", c.stable_memory().to_vec()),
        ])
    }

    /// The upgraded state as an in-memory snapshot (for the decoder), its memories copied:
    /// the canister stays. [`UpgradeRun::take_snapshot`] reads them in place.
    pub fn snapshot(&self, old: &Snapshot) -> Result<Snapshot, UpgradeError> {
        let c = self.upgraded()?;
        Snapshot::from_parts(
            Some(&metadata_json(c, old)?),
            Some(c.wasm_module().to_vec()),
            c.main_memory().to_vec(),
            Some(c.stable_memory().to_vec()),
        )
        .map(|s| s.with_globals(c.mutable_globals()))
        .map_err(|e| UpgradeError::UpgradedState(e.to_string()))
    }

    /// The upgraded state as an in-memory snapshot whose memories are the canister's own,
    /// read in place: the canister moves into the snapshot (`self.canister` is `None`
    /// after), so main memory is held once while the upgraded state is decoded.
    pub fn take_snapshot(&mut self, old: &Snapshot) -> Result<Snapshot, UpgradeError> {
        let c = self.upgraded()?;
        let (meta, module, globals) = (
            metadata_json(c, old)?,
            c.wasm_module().to_vec(),
            c.mutable_globals(),
        );
        let canister = Arc::new(self.canister.take().ok_or_else(|| {
            UpgradeError::UpgradedState("the upgraded canister was released".to_string())
        })?);
        let held = |stable| Image::from_held(Box::new(HeldMemory::new(canister.clone(), stable)));
        Snapshot::from_images(
            Some(&meta),
            Some(Image::from_vec(module)),
            held(false),
            Some(held(true)),
        )
        .map(|s| s.with_globals(globals))
        .map_err(|e| UpgradeError::UpgradedState(e.to_string()))
    }
}

/// `metadata.json` of the upgraded state of `c`: taken at the `old` snapshot's time, its
/// canister version advanced by the upgrade.
fn metadata_json(c: &Canister, old: &Snapshot) -> Result<Vec<u8>, UpgradeError> {
    let (taken, version) = old
        .metadata()
        .map(|m| (m.taken_at_timestamp(), m.canister_version()))
        .unwrap_or((crate::snapshot::metadata::FIXTURE_TIMESTAMP_NS, 0));
    let meta = SnapshotMetadata::taken_from_canister(
        taken,
        c.wasm_module().len() as u64,
        &c.mutable_globals(),
        c.main_memory().len() as u64,
        c.stable_memory().len() as u64,
        version.saturating_add(1),
    );
    meta.to_json_pretty()
        .map(String::into_bytes)
        .map_err(|e| UpgradeError::UpgradedState(e.to_string()))
}

/// One memory of an upgraded canister, read in place by the decoder. The canister is never
/// run again once held: its memories do not change. The slice is resolved once (the decoder
/// reads the bytes millions of times, and wasmi resolves its memory on every call).
struct HeldMemory {
    /// Keeps the memory alive (and unchanged: no one can borrow the canister mutably while
    /// this shared handle lives).
    _canister: Arc<Canister>,
    /// Address and length of the memory's bytes, as `canister` lent them.
    bytes: (*const u8, usize),
}

impl HeldMemory {
    /// Stable memory if `stable`, else main memory, of `canister`.
    fn new(canister: Arc<Canister>, stable: bool) -> HeldMemory {
        let slice = if stable {
            canister.stable_memory()
        } else {
            canister.main_memory()
        };
        let bytes = (slice.as_ptr(), slice.len());
        HeldMemory {
            _canister: canister,
            bytes,
        }
    }
}

// SAFETY: the pointer is into memory owned by the canister behind the `Arc`, which is `Send`
// and `Sync`; the bytes are only read.
unsafe impl Send for HeldMemory {}
// SAFETY: as for `Send`.
unsafe impl Sync for HeldMemory {}

impl HeldBytes for HeldMemory {
    fn held_bytes(&self) -> &[u8] {
        // SAFETY: the slice was lent by the canister that `self` keeps alive through an `Arc`;
        // with that shared handle alive nothing can borrow the canister mutably, so its
        // memories are neither grown (moved), freed nor written while `self` lives.
        unsafe { std::slice::from_raw_parts(self.bytes.0, self.bytes.1) }
    }
}
