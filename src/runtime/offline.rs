//! A snapshot's canister asked offline: its module restored once with the snapshot's state
//! (main and stable memory, mutable globals; no `init`, start function or upgrade hook), its
//! Candid service read from the module, and calls run on that instance, each under an
//! instruction limit and a wall-clock deadline. Main memory is a copy-on-write mapping of the
//! snapshot's `wasm_memory.bin` when the snapshot is on disk (a copy otherwise; see
//! [`super::mapped_memory`]). After every call the instance is put back to the snapshot's
//! state (off the caller's path; a mapped memory discards the pages the call wrote), so
//! repeated calls reuse it, taking turns, and no call sees another's changes: a query never
//! changes the snapshot, an update (only with [`CallOptions::allow_update`]) runs on this
//! scratch state.

use super::config::RuntimeConfig;
use super::error::RuntimeError;
use super::instrument::decompress;
use super::service::{service_text, Method, Service, ServiceError};
use super::Canister;
use crate::snapshot::open::MEMORY_FILE;
use crate::snapshot::{Snapshot, SnapshotKind};
use candid::{IDLArgs, Principal};
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::Duration;

/// The IC's instruction limit for a query.
pub const QUERY_INSTRUCTIONS: u64 = 5_000_000_000;

/// Whatever keeps a snapshot open for as long as its canister is asked (a [`Snapshot`], or
/// an opened heap that owns one).
pub trait SnapshotHolder: Send + Sync {
    /// The snapshot.
    fn snapshot(&self) -> &Snapshot;
}

impl SnapshotHolder for Snapshot {
    fn snapshot(&self) -> &Snapshot {
        self
    }
}

/// How one call runs.
#[derive(Debug, Clone)]
pub struct CallOptions {
    /// The caller the canister sees (`ic0.msg_caller`).
    pub caller: Principal,
    /// The instructions the call may execute.
    pub instructions: u64,
    /// How long the caller waits for the reply.
    pub timeout: Duration,
    /// Whether an update method may run (on the scratch state).
    pub allow_update: bool,
}

impl Default for CallOptions {
    fn default() -> Self {
        CallOptions {
            caller: Principal::anonymous(),
            instructions: QUERY_INSTRUCTIONS,
            timeout: Duration::from_secs(30),
            allow_update: false,
        }
    }
}

/// The answer of a call.
#[derive(Debug)]
pub struct Reply {
    /// The reply decoded with the method's result types.
    pub values: IDLArgs,
    /// What the canister printed (`Debug.print`) during the call.
    pub log: Vec<String>,
}

/// Why a call could not be answered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OfflineError {
    /// The snapshot holds no module.
    #[error("the snapshot has no Wasm module (give one with --wasm)")]
    NoModule,
    /// The service, the arguments or the reply.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// Restoring the state or running the method failed (a trap, a reject, a limit).
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
    /// An update method without [`CallOptions::allow_update`].
    #[error("{0} is an update method; `--allow-update` runs it on a scratch copy of the state")]
    Update(String),
    /// The deadline passed first.
    #[error("{method} did not finish within {seconds} s")]
    Deadline {
        /// The method.
        method: String,
        /// The deadline in seconds.
        seconds: u64,
    },
    /// The worker thread could not be started.
    #[error("cannot start the call's thread: {0}")]
    Thread(String),
}

/// The restored instance between calls: put back to the snapshot's state, or being used (or
/// put back) by a call's thread.
#[derive(Default)]
struct Slot {
    canister: Option<Canister>,
    busy: bool,
}

/// The slot and the signal that it was given back.
type Idle = Arc<(Mutex<Slot>, Condvar)>;

/// Takes the slot's instance for one call, waiting at most `wait` (half the call's deadline)
/// while another call uses it or puts it back: calls take turns on one instance rather than
/// each restoring its own; past the wait (a runaway call) this call restores a fresh one.
/// `None` if there is none yet.
fn take_instance(idle: &Idle, wait: Duration) -> Option<Canister> {
    let (slot, given_back) = &**idle;
    let guard = slot.lock().unwrap_or_else(|p| p.into_inner());
    let (mut guard, _) = given_back
        .wait_timeout_while(guard, wait, |s| s.busy)
        .unwrap_or_else(|p| p.into_inner());
    guard.busy = true;
    guard.canister.take()
}

/// Gives the slot back after a call, with the instance if it was put back to the snapshot's
/// state (on drop, so that a failed restore or a panic frees the slot too).
struct GiveBack {
    idle: Idle,
    canister: Option<Canister>,
}

impl Drop for GiveBack {
    fn drop(&mut self) {
        let (slot, given_back) = &*self.idle;
        let mut guard = slot.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(c) = self.canister.take() {
            guard.canister = Some(c);
        }
        guard.busy = false;
        given_back.notify_one();
    }
}

/// A snapshot's canister, restored on the first call and reused by the next ones.
pub struct OfflineCanister {
    source: Arc<dyn SnapshotHolder>,
    wasm: Arc<Vec<u8>>,
    /// The service's text (a parsed [`Service`] cannot cross threads; it is parsed per use).
    service: String,
    methods: Vec<Method>,
    idle: Idle,
    copy_memory: bool,
}

impl OfflineCanister {
    /// The canister of `source`'s snapshot: its module and service read now, its state
    /// restored on the first call.
    pub fn open(source: Arc<dyn SnapshotHolder>) -> Result<OfflineCanister, OfflineError> {
        let wasm = decompress(source.snapshot().module().ok_or(OfflineError::NoModule)?)?;
        let service = service_text(&wasm)?;
        let methods = Service::parse(&service)?.methods();
        Ok(OfflineCanister {
            source,
            wasm: Arc::new(wasm),
            service,
            methods,
            idle: Arc::default(),
            copy_memory: false,
        })
    }

    /// The same canister restoring main memory by copying it, never by mapping it (the
    /// fallback path, to compare with).
    pub fn copying_memory(mut self) -> OfflineCanister {
        self.copy_memory = true;
        self
    }

    /// Restores the snapshot's state now (if no call did yet), so that the first call does
    /// not wait for it; whether main memory is mapped copy-on-write (else copied).
    pub fn restore_now(&self) -> Result<bool, OfflineError> {
        let mut give_back = GiveBack {
            idle: self.idle.clone(),
            canister: take_instance(&self.idle, Duration::from_secs(30)),
        };
        if give_back.canister.is_none() {
            let snapshot = self.source.snapshot();
            give_back.canister = Some(restore(snapshot, &self.wasm, self.copy_memory)?);
        }
        Ok(give_back
            .canister
            .as_ref()
            .is_some_and(Canister::is_memory_mapped))
    }

    /// The canister's Candid service (parsed anew: it was checked when the canister opened).
    pub fn service(&self) -> Result<Service, OfflineError> {
        Ok(Service::parse(&self.service)?)
    }

    /// Every method of the service, in its order.
    pub fn methods(&self) -> &[Method] {
        &self.methods
    }

    /// The method `name`, refused if it is an update and `options` do not allow updates.
    pub fn method(&self, name: &str, options: &CallOptions) -> Result<Method, OfflineError> {
        let method = self
            .methods
            .iter()
            .find(|m| m.name == name)
            .cloned()
            .ok_or_else(|| ServiceError::NoSuchMethod(name.to_string()))?;
        if !method.query && !options.allow_update {
            return Err(OfflineError::Update(name.to_string()));
        }
        Ok(method)
    }

    /// Calls `method` with arguments given as Candid text (empty: none).
    pub fn call(
        &self,
        method: &str,
        args: &str,
        options: &CallOptions,
    ) -> Result<Reply, OfflineError> {
        let m = self.method(method, options)?;
        let arg = self.service()?.encode_args(method, args)?;
        let (bytes, log) = self.call_encoded(&m, arg, options)?;
        Ok(Reply {
            values: self.service()?.decode_reply(method, &bytes)?,
            log,
        })
    }

    /// Runs `method` with Candid-encoded `arg` on a worker thread, waiting at most the
    /// deadline; the reply's bytes and the canister's new log lines.
    fn call_encoded(
        &self,
        method: &Method,
        arg: Vec<u8>,
        options: &CallOptions,
    ) -> Result<(Vec<u8>, Vec<String>), OfflineError> {
        let (tx, rx) = mpsc::channel();
        let source = self.source.clone();
        let wasm = self.wasm.clone();
        let idle = self.idle.clone();
        let copy_memory = self.copy_memory;
        let (name, query, opts) = (method.name.clone(), method.query, options.clone());
        std::thread::Builder::new()
            .name("mo-mem-call".into())
            .spawn(move || {
                let snapshot = source.snapshot();
                let taken = take_instance(&idle, opts.timeout / 2);
                let mut give_back = GiveBack {
                    idle,
                    canister: None,
                };
                let mut canister =
                    match taken.map_or_else(|| restore(snapshot, &wasm, copy_memory), Ok) {
                        Ok(c) => c,
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    };
                let cfg = canister.config_mut();
                cfg.caller = opts.caller;
                cfg.instruction_limit = opts.instructions;
                let before = canister.debug_log().len();
                let reply = if query {
                    canister.query(&name, &arg)
                } else {
                    canister.update(&name, &arg)
                };
                let log = canister.debug_log()[before.min(canister.debug_log().len())..].to_vec();
                let _ = tx.send(reply.map(|r| (r, log)).map_err(OfflineError::from));
                // put the state back off the caller's path; a failure drops the instance
                if reset(&mut canister, snapshot).is_ok() {
                    give_back.canister = Some(canister);
                }
            })
            .map_err(|e| OfflineError::Thread(e.to_string()))?;
        match rx.recv_timeout(options.timeout) {
            Ok(result) => result,
            Err(_) => Err(OfflineError::Deadline {
                method: method.name.clone(),
                seconds: options.timeout.as_secs(),
            }),
        }
    }
}

/// The runner's configuration for a snapshot's calls: time stands at the snapshot's
/// `taken_at_timestamp`; state changes are undone by [`reset`], not per message.
fn config_for(snapshot: &Snapshot) -> RuntimeConfig {
    let default = RuntimeConfig::default();
    RuntimeConfig {
        time_ns: snapshot
            .metadata()
            .map(|m| m.taken_at_timestamp())
            .unwrap_or(default.time_ns),
        restore_after_query: false,
        rollback_on_trap: false,
        ..default
    }
}

/// The snapshot's state in a fresh instance of its module: main memory mapped copy-on-write
/// from the snapshot's memory file where it can be (a snapshot directory or a bare image on
/// disk), else copied (a snapshot built in memory, a file that cannot be mapped, or
/// `copy_memory`).
fn restore(snapshot: &Snapshot, wasm: &[u8], copy_memory: bool) -> Result<Canister, OfflineError> {
    Ok(restore_snapshot(snapshot, wasm, copy_memory)?)
}

/// The snapshot's state in a fresh instance of `wasm` (its gunzipped module), main memory
/// mapped copy-on-write where it can be, else copied (see [`OfflineCanister`]); time stands at
/// the snapshot's `taken_at_timestamp`, and no message is rolled back by the runner.
pub fn restore_snapshot(
    snapshot: &Snapshot,
    wasm: &[u8],
    copy_memory: bool,
) -> Result<Canister, RuntimeError> {
    let stable = snapshot
        .stable_memory()
        .map(|i| i.as_slice())
        .unwrap_or(&[]);
    let globals = snapshot.globals().unwrap_or(&[]);
    let main = snapshot.memory().as_slice();
    let cfg = config_for(snapshot);
    if let Some(path) = memory_file(snapshot).filter(|_| !copy_memory) {
        match Canister::from_snapshot_file(wasm, &path, main, stable, globals, cfg.clone()) {
            Ok(canister) => return Ok(canister),
            Err(RuntimeError::Mapping(e)) => tracing::debug!(
                target: "mo_mem::runtime",
                "{}: copying main memory, not mapping it: {e}",
                path.display()
            ),
            Err(e) => return Err(e),
        }
    }
    Canister::from_snapshot_state(wasm, main, stable, globals, cfg)
}

/// The file on disk that holds the snapshot's main memory, if it has one.
fn memory_file(snapshot: &Snapshot) -> Option<PathBuf> {
    match snapshot.kind() {
        SnapshotKind::Directory => Some(snapshot.path().join(MEMORY_FILE)),
        SnapshotKind::BareImage => Some(snapshot.path().to_path_buf()),
        SnapshotKind::InMemory => None,
    }
}

/// Puts the snapshot's state back into `canister`.
fn reset(canister: &mut Canister, snapshot: &Snapshot) -> Result<(), RuntimeError> {
    let stable = snapshot
        .stable_memory()
        .map(|i| i.as_slice())
        .unwrap_or(&[]);
    let globals = snapshot.globals().unwrap_or(&[]);
    canister.reset_state(snapshot.memory().as_slice(), stable, globals)
}
