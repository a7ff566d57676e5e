//! One installed canister: a wasmi instance of a moc-compiled module with its host state, running
//! init, update and query messages deterministically.

use std::path::Path;

use wasmi::{
    Engine, Error, Extern, Func, Global, Instance, Memory, MemoryType, Module, Store, TrapCode, Val,
};

use super::config::RuntimeConfig;
use super::error::RuntimeError;
use super::host::{Host, HostTrap, MessageContext, MessageKind};
use super::ic0::{self, Resolution};
use super::instrument::{
    self, MemoryLimits, PreparedModule, GLOBAL_EXPORT_PREFIX, MEMORY_EXPORT, START_EXPORT,
};
use super::mapped_memory::MappedMemory;
use super::upgrade::{UpgradeCounts, UpgradeFailure, UpgradePhase};
use crate::snapshot::metadata::GlobalValue;

/// A canister module instantiated on the runner.
pub struct Canister {
    engine: Engine,
    module: Module,
    prepared: PreparedModule,
    imports: Vec<Resolution>,
    store: Store<Host>,
    instance: Instance,
    memory: Memory,
    globals: Vec<Global>,
    /// The copy-on-write mapping the memory lives in (its module imports the memory), if
    /// restored by [`Canister::from_snapshot_file`]. Declared after `store`: dropped after it.
    mapped: Option<Mapped>,
    /// Fuel the last message used (its whole limit if it ran out).
    last_instructions: u64,
}

/// A memory mapped from a snapshot's file and the memory type given to the module.
struct Mapped {
    memory: MappedMemory,
    ty: MemoryType,
}

/// The state a query (or a trapping message) must not change.
struct SavedState {
    memory: Vec<u8>,
    stable: Vec<u8>,
    globals: Vec<Val>,
    global_timer: u64,
    certified_data: Vec<u8>,
}

/// A fresh instance of `module` in its own store.
struct Instantiated {
    store: Store<Host>,
    instance: Instance,
    memory: Memory,
    globals: Vec<Global>,
    /// Fuel the start function used (0 if it did not run).
    start_instructions: u64,
}

/// Deepest wasm call nesting a message may reach. The IC bounds the native stack (a few MiB),
/// which moc code such as `debug_show` of a long linked list uses one frame per element; wasmi's
/// default (1,000 frames) is far shallower than that, ours is not the limiting factor.
const MAX_RECURSION_DEPTH: usize = 200_000;

/// Largest wasm value stack in bytes (wasmi keeps it on the heap, so this bounds memory, not the
/// native stack).
const MAX_VALUE_STACK_BYTES: usize = 256 << 20;

fn engine_for() -> Engine {
    let mut config = wasmi::Config::default();
    config.set_max_recursion_depth(MAX_RECURSION_DEPTH);
    config.set_max_stack_height(MAX_VALUE_STACK_BYTES);
    config.wasm_memory64(true);
    config.consume_fuel(true);
    config.wasm_mutable_global(true);
    config.wasm_bulk_memory(true);
    config.wasm_multi_value(true);
    config.wasm_sign_extension(true);
    Engine::new(&config)
}

/// Resolves every import of `module`, refusing non-function imports and bad signatures.
fn resolve_imports(module: &Module, memory64: bool) -> Result<Vec<Resolution>, RuntimeError> {
    let mut out = Vec::new();
    for import in module.imports() {
        if (import.module(), import.name()) == instrument::MEMORY_IMPORT
            && import.ty().memory().is_some()
        {
            continue;
        }
        let Some(ty) = import.ty().func() else {
            return Err(RuntimeError::UnsupportedImport(format!(
                "{}.{} is not a function",
                import.module(),
                import.name()
            )));
        };
        let resolution = ic0::resolve(import.module(), import.name(), ty, memory64);
        if let Resolution::BadSignature { expected } = &resolution {
            return Err(RuntimeError::ImportSignature {
                module: import.module().to_string(),
                name: import.name().to_string(),
                found: ic0::show_signature(ty.params(), ty.results()),
                expected: expected.clone(),
            });
        }
        out.push(resolution);
    }
    Ok(out)
}

/// Turns a wasmi error from executing `method` into a [`RuntimeError`].
fn message_error(err: Error, method: &str, limit: u64) -> RuntimeError {
    let method = method.to_string();
    if let Some(host) = err.downcast_ref::<HostTrap>() {
        return match host {
            HostTrap::Canister(message) => RuntimeError::Trap {
                method,
                message: message.clone(),
            },
            HostTrap::Unsupported(import) => RuntimeError::UnsupportedCall {
                method,
                import: import.clone(),
            },
            HostTrap::Violation(message) => RuntimeError::Trap {
                method,
                message: message.clone(),
            },
        };
    }
    if err.as_trap_code() == Some(TrapCode::OutOfFuel) {
        return RuntimeError::InstructionLimit { method, limit };
    }
    RuntimeError::Trap {
        method,
        message: format!("wasm trap: {err}"),
    }
}

fn global_value(v: &Val) -> GlobalValue {
    match v {
        Val::I32(x) => GlobalValue::I32(*x),
        Val::I64(x) => GlobalValue::I64(*x),
        Val::F32(x) => GlobalValue::F32(x.to_float()),
        Val::F64(x) => GlobalValue::F64(x.to_float()),
        _ => GlobalValue::Unknown,
    }
}

impl Canister {
    /// Loads a (possibly gzip-compressed) canister module and instantiates it; no message runs yet.
    pub fn new(wasm: &[u8], cfg: RuntimeConfig) -> Result<Canister, RuntimeError> {
        let prepared = instrument::prepare(wasm)?;
        let engine = engine_for();
        let module = Module::new(&engine, &prepared.rewritten[..])
            .map_err(|e| RuntimeError::InvalidModule(e.to_string()))?;
        let imports = resolve_imports(&module, prepared.memory64)?;
        let host = Host::new(cfg);
        let inst = instantiate(
            &engine,
            &module,
            &prepared,
            &imports,
            host,
            MemoryInit::Fresh,
        )?;
        Ok(Canister::assemble(engine, module, prepared, imports, inst))
    }

    /// Puts a canister together from an instantiated module.
    fn assemble(
        engine: Engine,
        module: Module,
        prepared: PreparedModule,
        imports: Vec<Resolution>,
        inst: Instantiated,
    ) -> Canister {
        Canister {
            engine,
            module,
            prepared,
            imports,
            store: inst.store,
            instance: inst.instance,
            memory: inst.memory,
            globals: inst.globals,
            mapped: None,
            last_instructions: 0,
        }
    }

    /// Restores a snapshot's state into a fresh instance of its (possibly gzip-compressed)
    /// `wasm` module: main memory, stable memory and the mutable globals in index order, as
    /// the IC records them. No start function, `init` or upgrade hook runs. A state that does
    /// not fit the module (a memory larger than the limit, another number or type of globals)
    /// is refused with the reason.
    pub fn from_snapshot_state(
        wasm: &[u8],
        main: &[u8],
        stable: &[u8],
        globals: &[GlobalValue],
        cfg: RuntimeConfig,
    ) -> Result<Canister, RuntimeError> {
        let prepared = instrument::prepare(wasm)?;
        check_state(&prepared, main, stable, globals, &cfg)?;
        Canister::restored_instance(prepared, None, main, None, (stable, globals), cfg)
    }

    /// Like [`Canister::from_snapshot_state`], with main memory a copy-on-write mapping of the
    /// snapshot's memory file at `path` (checked against `main`, the snapshot's memory as
    /// opened) instead of a copy: restoring costs no copy and [`Canister::reset_state`]
    /// discards the pages a call wrote. The memory may grow to the module's maximum or
    /// `cfg.max_memory_bytes`, whichever is less. [`RuntimeError::Mapping`] if the file cannot
    /// be mapped or is not `main`'s (the caller may then copy instead).
    pub fn from_snapshot_file(
        wasm: &[u8],
        path: &Path,
        main: &[u8],
        stable: &[u8],
        globals: &[GlobalValue],
        cfg: RuntimeConfig,
    ) -> Result<Canister, RuntimeError> {
        let prepared = instrument::prepare(wasm)?;
        check_state(&prepared, main, stable, globals, &cfg)?;
        let (rewritten, limits) = instrument::import_memory(&prepared)?;
        let (capacity, ty) = mapped_type(limits, main.len() as u64, cfg.max_memory_bytes)?;
        let memory = MappedMemory::open(path, main, capacity)?;
        let mapped = Mapped { memory, ty };
        Canister::restored_instance(
            prepared,
            Some(rewritten),
            main,
            Some(mapped),
            (stable, globals),
            cfg,
        )
    }

    /// A fresh instance of `prepared` (or of `rewritten`, its module with the memory
    /// imported) holding a snapshot's state: main memory `mapped`, else a copy of `main`;
    /// the stable memory and the mutable globals.
    fn restored_instance(
        prepared: PreparedModule,
        rewritten: Option<Vec<u8>>,
        main: &[u8],
        mapped: Option<Mapped>,
        (stable, globals): (&[u8], &[GlobalValue]),
        cfg: RuntimeConfig,
    ) -> Result<Canister, RuntimeError> {
        let engine = engine_for();
        let bytes = rewritten.as_deref().unwrap_or(&prepared.rewritten[..]);
        let module =
            Module::new(&engine, bytes).map_err(|e| RuntimeError::InvalidModule(e.to_string()))?;
        let imports = resolve_imports(&module, prepared.memory64)?;
        let mut host = Host::new(cfg);
        host.stable = stable.to_vec();
        let init = match &mapped {
            Some(m) => MemoryInit::Mapped(m),
            None => MemoryInit::Copy(main),
        };
        let inst = instantiate_with(&engine, &module, &prepared, &imports, host, init, false)?;
        let mut canister = Canister::assemble(engine, module, prepared, imports, inst);
        canister.mapped = mapped;
        canister.set_globals(globals)?;
        Ok(canister)
    }

    /// Whether main memory is a copy-on-write mapping of the snapshot's file.
    pub fn is_memory_mapped(&self) -> bool {
        self.mapped.is_some()
    }

    /// Puts a snapshot's state back into this instance (after a message changed it): main
    /// memory, stable memory and the mutable globals; the timer and certified data are cleared,
    /// as in a freshly restored instance. A memory that grew is instantiated afresh.
    pub fn reset_state(
        &mut self,
        main: &[u8],
        stable: &[u8],
        globals: &[GlobalValue],
    ) -> Result<(), RuntimeError> {
        let same_size = self.main_memory().len() == main.len();
        match &self.mapped {
            Some(m) if same_size && m.memory.snapshot_len() == main.len() => {
                m.memory.discard(main.len())?;
            }
            None if same_size => copy_into_memory(&mut self.store, self.memory, main, None)?,
            _ => {
                // no start function: the snapshot's memory is already initialized
                let host = self.take_host();
                let init = match &self.mapped {
                    Some(m) => MemoryInit::Mapped(m),
                    None => MemoryInit::Copy(main),
                };
                let f = instantiate_with(
                    &self.engine,
                    &self.module,
                    &self.prepared,
                    &self.imports,
                    host,
                    init,
                    false,
                )?;
                self.install(f);
            }
        }
        let host = self.store.data_mut();
        host.stable.clear();
        host.stable.extend_from_slice(stable);
        host.global_timer = 0;
        host.certified_data.clear();
        self.set_globals(globals)
    }

    /// The runner configuration, to change what the next message sees (its caller, its
    /// instruction limit).
    pub fn config_mut(&mut self) -> &mut RuntimeConfig {
        &mut self.store.data_mut().cfg
    }

    /// Sets every mutable global to the snapshot's value of the same index and type.
    fn set_globals(&mut self, values: &[GlobalValue]) -> Result<(), RuntimeError> {
        for (i, (g, v)) in self.globals.iter().zip(values).enumerate() {
            let val = match (g.get(&self.store), v) {
                (Val::I32(_), GlobalValue::I32(x)) => Val::I32(*x),
                (Val::I64(_), GlobalValue::I64(x)) => Val::I64(*x),
                (Val::F32(_), GlobalValue::F32(x)) => Val::F32((*x).into()),
                (Val::F64(_), GlobalValue::F64(x)) => Val::F64((*x).into()),
                (have, want) => {
                    return Err(RuntimeError::Restore(format!(
                        "mutable global {i} is {:?} in the module, {want:?} in the snapshot",
                        have.ty()
                    )))
                }
            };
            g.set(&mut self.store, val)
                .map_err(|e| RuntimeError::Restore(format!("setting mutable global {i}: {e}")))?;
        }
        Ok(())
    }

    /// Runs `canister_init` with the Candid-encoded `arg` (a no-op if the module has none).
    pub fn init(&mut self, arg: &[u8]) -> Result<(), RuntimeError> {
        self.run(
            "canister_init",
            "canister_init",
            MessageKind::Init,
            arg,
            true,
        )
        .map(|_| ())
    }

    /// Runs update method `method` with the Candid-encoded `arg`; returns the reply bytes.
    /// A query method called this way runs as an update (its changes are kept), as on the IC.
    pub fn update(&mut self, method: &str, arg: &[u8]) -> Result<Vec<u8>, RuntimeError> {
        let export = self.find_export(&["canister_update", "canister_query"], method, "update")?;
        self.run(&export, method, MessageKind::Update, arg, false)
    }

    /// Runs query method `method`; every state change it makes is discarded afterwards.
    pub fn query(&mut self, method: &str, arg: &[u8]) -> Result<Vec<u8>, RuntimeError> {
        let export = self.find_export(
            &["canister_query", "canister_composite_query"],
            method,
            "query",
        )?;
        self.run(&export, method, MessageKind::Query, arg, false)
    }

    /// Runs `canister_pre_upgrade` (a no-op if the module has none).
    pub fn pre_upgrade(&mut self) -> Result<(), RuntimeError> {
        self.run(
            "canister_pre_upgrade",
            "canister_pre_upgrade",
            MessageKind::PreUpgrade,
            &[],
            true,
        )
        .map(|_| ())
    }

    /// Upgrades to `wasm`: runs `canister_pre_upgrade`, instantiates the new module keeping stable
    /// memory (and, when both modules use 64-bit memory as EOP does, main memory), then runs
    /// `canister_post_upgrade` with `arg`. On failure the canister keeps its old module and state.
    /// The instruction limit covers the three phases together, as the IC's `install_code`'s.
    pub fn upgrade(&mut self, wasm: &[u8], arg: &[u8]) -> Result<(), RuntimeError> {
        self.upgrade_counted(wasm, arg).1.map_err(|f| f.error)
    }

    /// [`Canister::upgrade`], with the instructions each phase used (the whole remaining limit
    /// for a phase that ran out) and, on failure, the phase that failed.
    pub fn upgrade_counted(
        &mut self,
        wasm: &[u8],
        arg: &[u8],
    ) -> (UpgradeCounts, Result<(), UpgradeFailure>) {
        let limit = self.config().instruction_limit;
        let mut counts = UpgradeCounts::default();
        let result = self.upgrade_phases(wasm, arg, limit, &mut counts);
        self.config_mut().instruction_limit = limit;
        (counts, result)
    }

    /// The phases of an upgrade, sharing `limit`.
    fn upgrade_phases(
        &mut self,
        wasm: &[u8],
        arg: &[u8],
        limit: u64,
        counts: &mut UpgradeCounts,
    ) -> Result<(), UpgradeFailure> {
        let failed = |phase| move |error| UpgradeFailure { phase, error };
        let load = || -> Result<_, RuntimeError> {
            let prepared = instrument::prepare(wasm)?;
            let module = Module::new(&self.engine, &prepared.rewritten[..])
                .map_err(|e| RuntimeError::InvalidModule(e.to_string()))?;
            let imports = resolve_imports(&module, prepared.memory64)?;
            Ok((prepared, module, imports))
        };
        let (prepared, module, imports) = load().map_err(failed(None))?;
        // the state to put back after a failure (a dry run that drops the canister skips it)
        let saved = self.config().rollback_on_trap.then(|| self.save());
        let pre = self.pre_upgrade();
        counts.pre_upgrade = self.last_instructions;
        pre.map_err(failed(Some(UpgradePhase::PreUpgrade)))?;
        let keep_main = prepared.memory64 && self.prepared.memory64;
        // the old store lives until the new instance has copied its main memory: the memory
        // is held twice at most, never copied aside first
        let old_store = self.take_store();
        let old_host = old_store.data();
        let mut host = Host::new(old_host.cfg.clone());
        host.cfg.instruction_limit = limit.saturating_sub(counts.pre_upgrade);
        host.stable = old_host.stable.clone();
        host.debug_log = old_host.debug_log.clone();
        host.messages_executed = old_host.messages_executed;
        host.certified_data = old_host.certified_data.clone();
        let main = keep_main.then(|| self.memory.data(&old_store));
        let init = match (main, &self.mapped) {
            (None, _) => MemoryInit::Fresh,
            // the old memory lies in the mapping: each part copied is let go at once
            (Some(bytes), Some(m)) if std::ptr::eq(bytes.as_ptr(), m.memory.base()) => {
                MemoryInit::Move(bytes, m)
            }
            (Some(bytes), _) => MemoryInit::Copy(bytes),
        };
        let fresh = instantiate(&self.engine, &module, &prepared, &imports, host, init);
        let old_host = old_store.into_data();
        if let Some(m) = &self.mapped {
            // no store uses the mapping now (a rollback maps the file afresh): its pages are
            // let go so that they are not held beside the new memory; failing to is harmless
            let _ = m.memory.discard(m.memory.capacity());
        }
        let old = (
            std::mem::replace(&mut self.module, module),
            std::mem::replace(&mut self.prepared, prepared),
            std::mem::replace(&mut self.imports, imports),
        );
        match fresh {
            Ok(f) => {
                counts.start = f.start_instructions;
                self.install(f);
            }
            Err(e) => {
                counts.start = limit.saturating_sub(counts.pre_upgrade);
                let rolled = self.rollback_upgrade(old, old_host, saved.as_ref());
                let error = if let RuntimeError::Instantiate(m) = &e {
                    if m.contains("instruction limit") {
                        RuntimeError::InstructionLimit {
                            method: "start".into(),
                            limit,
                        }
                    } else {
                        e
                    }
                } else {
                    e
                };
                rolled.map_err(failed(Some(UpgradePhase::Start)))?;
                return Err(failed(Some(UpgradePhase::Start))(error));
            }
        }
        self.config_mut().instruction_limit = limit
            .saturating_sub(counts.pre_upgrade)
            .saturating_sub(counts.start);
        let result = self.run(
            "canister_post_upgrade",
            "canister_post_upgrade",
            MessageKind::PostUpgrade,
            arg,
            true,
        );
        counts.post_upgrade = self.last_instructions;
        if let Err(e) = result {
            let new_host = self.take_host();
            let mut old_host = old_host;
            old_host.debug_log = new_host.debug_log;
            self.rollback_upgrade(old, old_host, saved.as_ref())
                .map_err(failed(Some(UpgradePhase::PostUpgrade)))?;
            return Err(failed(Some(UpgradePhase::PostUpgrade))(e));
        }
        // the new module has a memory of its own; the old mapping is no longer used
        self.mapped = None;
        Ok(())
    }

    /// Puts the old module back after a failed upgrade and restores the state before it (if
    /// it was `saved`: with [`RuntimeConfig::rollback_on_trap`] off the memories are left as
    /// the old module's fresh instance has them).
    fn rollback_upgrade(
        &mut self,
        old: (Module, PreparedModule, Vec<Resolution>),
        host: Host,
        saved: Option<&SavedState>,
    ) -> Result<(), RuntimeError> {
        self.module = old.0;
        self.prepared = old.1;
        self.imports = old.2;
        let init = self
            .mapped
            .as_ref()
            .map_or(MemoryInit::Fresh, MemoryInit::Mapped);
        let f = instantiate(
            &self.engine,
            &self.module,
            &self.prepared,
            &self.imports,
            host,
            init,
        )?;
        self.install(f);
        match saved {
            Some(saved) => self.restore(saved),
            None => Ok(()),
        }
    }

    /// The main memory's bytes (`wasm_memory.bin` of a snapshot).
    pub fn main_memory(&self) -> &[u8] {
        self.memory.data(&self.store)
    }

    /// The stable memory's bytes (`stable_memory.bin` of a snapshot).
    pub fn stable_memory(&self) -> &[u8] {
        &self.store.data().stable
    }

    /// Every mutable global of the module in index order, as the IC's snapshot metadata lists them.
    pub fn mutable_globals(&self) -> Vec<GlobalValue> {
        self.globals
            .iter()
            .map(|g| global_value(&g.get(&self.store)))
            .collect()
    }

    /// The module as given (gunzipped): a snapshot's `wasm_module.bin`.
    pub fn wasm_module(&self) -> &[u8] {
        &self.prepared.original
    }

    /// Whether the module uses 64-bit memory (enhanced orthogonal persistence).
    pub fn is_memory64(&self) -> bool {
        self.prepared.memory64
    }

    /// State-changing messages (init, updates, upgrades) executed successfully so far: the
    /// canister version a snapshot records.
    pub fn messages_executed(&self) -> u64 {
        self.store.data().messages_executed
    }

    /// The canister's `debug_print` output so far, oldest first.
    pub fn debug_log(&self) -> &[String] {
        &self.store.data().debug_log
    }

    /// The global timer deadline in ns, or `None` if the timer is inactive.
    pub fn global_timer(&self) -> Option<u64> {
        Some(self.store.data().global_timer).filter(|&t| t != 0)
    }

    /// The data set by `ic0.certified_data_set`.
    pub fn certified_data(&self) -> &[u8] {
        &self.store.data().certified_data
    }

    /// The runner configuration.
    pub fn config(&self) -> &RuntimeConfig {
        &self.store.data().cfg
    }

    /// The export for `method` under the first of `prefixes` the module has.
    fn find_export(
        &self,
        prefixes: &[&str],
        method: &str,
        kind: &'static str,
    ) -> Result<String, RuntimeError> {
        prefixes
            .iter()
            .map(|p| format!("{p} {method}"))
            .find(|name| self.instance.get_func(&self.store, name).is_some())
            .ok_or_else(|| RuntimeError::NoSuchMethod {
                kind,
                method: method.to_string(),
            })
    }

    /// Executes one message; `optional` exports that are missing succeed without running.
    fn run(
        &mut self,
        export: &str,
        method: &str,
        kind: MessageKind,
        arg: &[u8],
        optional: bool,
    ) -> Result<Vec<u8>, RuntimeError> {
        self.last_instructions = 0;
        let Some(func) = self.instance.get_func(&self.store, export) else {
            if optional {
                if kind != MessageKind::PreUpgrade {
                    self.store.data_mut().messages_executed += 1;
                }
                return Ok(Vec::new());
            }
            return Err(RuntimeError::NoSuchMethod {
                kind: "exported",
                method: method.to_string(),
            });
        };
        let max = self.store.data().cfg.max_message_bytes;
        if arg.len() as u64 > max {
            return Err(RuntimeError::Candid(format!(
                "argument of {} bytes exceeds the limit of {max}",
                arg.len()
            )));
        }
        let cfg = &self.store.data().cfg;
        let rollback =
            (kind == MessageKind::Query && cfg.restore_after_query) || cfg.rollback_on_trap;
        let saved = rollback.then(|| self.save());
        let limit = self.store.data().cfg.instruction_limit;
        {
            let host = self.store.data_mut();
            host.kind = kind;
            host.ctx = MessageContext {
                method: method.to_string(),
                arg: arg.to_vec(),
                ..MessageContext::default()
            };
        }
        self.store
            .set_fuel(limit)
            .map_err(|e| RuntimeError::Instantiate(e.to_string()))?;
        let outcome = func.call(&mut self.store, &[], &mut []);
        self.last_instructions = limit.saturating_sub(self.store.get_fuel().unwrap_or(0));
        let ctx = std::mem::take(&mut self.store.data_mut().ctx);
        let result = match outcome {
            Err(e) => {
                let e = message_error(e, method, limit);
                if matches!(e, RuntimeError::InstructionLimit { .. }) {
                    // it needed more than all of it (wasmi stops before a block it cannot pay)
                    self.last_instructions = limit;
                }
                Err(e)
            }
            Ok(()) if !kind.replies() => Ok(Vec::new()),
            Ok(()) => match (ctx.replied, ctx.rejected) {
                (true, _) => Ok(ctx.reply),
                (false, Some(message)) => Err(RuntimeError::Rejected {
                    method: method.to_string(),
                    message,
                }),
                (false, None) => Err(RuntimeError::NoReply {
                    method: method.to_string(),
                }),
            },
        };
        let failed = matches!(
            result,
            Err(RuntimeError::Trap { .. }
                | RuntimeError::UnsupportedCall { .. }
                | RuntimeError::InstructionLimit { .. }
                | RuntimeError::NoReply { .. })
        );
        if let Some(saved) = saved {
            if (kind == MessageKind::Query && self.store.data().cfg.restore_after_query) || failed {
                self.restore(&saved)?;
            }
        }
        // An upgrade (pre_upgrade + post_upgrade) counts once, as on the IC.
        if !matches!(kind, MessageKind::Query | MessageKind::PreUpgrade) && !failed {
            self.store.data_mut().messages_executed += 1;
        }
        result
    }

    /// Copies the state a rollback needs.
    fn save(&self) -> SavedState {
        let host = self.store.data();
        SavedState {
            memory: self.main_memory().to_vec(),
            stable: host.stable.clone(),
            globals: self.globals.iter().map(|g| g.get(&self.store)).collect(),
            global_timer: host.global_timer,
            certified_data: host.certified_data.clone(),
        }
    }

    /// Moves the host state out, leaving a placeholder store (to be replaced by `install`).
    fn take_host(&mut self) -> Host {
        self.take_store().into_data()
    }

    /// Moves the store (with its instance's memory) out, leaving a placeholder store.
    fn take_store(&mut self) -> Store<Host> {
        let cfg = self.store.data().cfg.clone();
        let placeholder = Store::new(&self.engine, Host::new(cfg));
        std::mem::replace(&mut self.store, placeholder)
    }

    fn install(&mut self, f: Instantiated) {
        self.store = f.store;
        self.instance = f.instance;
        self.memory = f.memory;
        self.globals = f.globals;
    }

    /// Puts back a saved state. Memory that grew meanwhile cannot shrink, so then the module is
    /// instantiated afresh (tables hold only the module's static elements in moc code).
    fn restore(&mut self, saved: &SavedState) -> Result<(), RuntimeError> {
        if self.main_memory().len() != saved.memory.len() {
            let host = self.take_host();
            let init = self
                .mapped
                .as_ref()
                .map_or(MemoryInit::Fresh, MemoryInit::Mapped);
            let f = instantiate(
                &self.engine,
                &self.module,
                &self.prepared,
                &self.imports,
                host,
                init,
            )?;
            self.install(f);
        }
        copy_into_memory(&mut self.store, self.memory, &saved.memory, None)?;
        for (g, v) in self.globals.iter().zip(&saved.globals) {
            g.set(&mut self.store, v.clone())
                .map_err(|e| RuntimeError::Instantiate(format!("restoring a global: {e}")))?;
        }
        let host = self.store.data_mut();
        host.stable.clone_from(&saved.stable);
        host.global_timer = saved.global_timer;
        host.certified_data.clone_from(&saved.certified_data);
        Ok(())
    }
}

/// Refuses a snapshot state that does not fit the module or the limits.
fn check_state(
    prepared: &PreparedModule,
    main: &[u8],
    stable: &[u8],
    globals: &[GlobalValue],
    cfg: &RuntimeConfig,
) -> Result<(), RuntimeError> {
    if !(main.len() as u64).is_multiple_of(65536) || main.len() as u64 > cfg.max_memory_bytes {
        return Err(RuntimeError::Restore(format!(
            "main memory of {} bytes: not whole 64 KiB pages within the limit of {} bytes",
            main.len(),
            cfg.max_memory_bytes
        )));
    }
    if stable.len() as u64 > cfg.max_stable_bytes {
        return Err(RuntimeError::Restore(format!(
            "stable memory of {} bytes exceeds the limit of {} bytes",
            stable.len(),
            cfg.max_stable_bytes
        )));
    }
    if globals.len() != prepared.mutable_globals.len() {
        return Err(RuntimeError::Restore(format!(
            "the snapshot has {} mutable globals, the module {}",
            globals.len(),
            prepared.mutable_globals.len()
        )));
    }
    Ok(())
}

/// The bytes a mapped memory may grow to (the module's maximum or `max_bytes`, whichever is
/// less) and the type of the memory given to the module: the snapshot's size, that maximum.
fn mapped_type(
    limits: MemoryLimits,
    snapshot_bytes: u64,
    max_bytes: u64,
) -> Result<(u64, MemoryType), RuntimeError> {
    let page = 65536u64;
    let absolute = if limits.memory64 {
        u64::MAX / page
    } else {
        1 << 16
    };
    let max_pages = limits
        .maximum
        .unwrap_or(absolute)
        .min(absolute)
        .min(max_bytes / page);
    let pages = snapshot_bytes / page;
    if pages > max_pages || pages < limits.initial {
        return Err(RuntimeError::Restore(format!(
            "main memory of {pages} pages: the module's memory takes {} to {max_pages}",
            limits.initial
        )));
    }
    let mut ty = MemoryType::builder();
    ty.min(pages).max(Some(max_pages)).memory64(limits.memory64);
    let ty = ty
        .build()
        .map_err(|e| RuntimeError::Restore(format!("the memory's type: {e}")))?;
    Ok((max_pages * page, ty))
}

/// Grows the instance's memory to `bytes.len()` if needed and copies `bytes` into it; with
/// `release` (the mapping `bytes` lie in), each part's pages there are let go once copied.
fn copy_into_memory(
    store: &mut Store<Host>,
    memory: Memory,
    bytes: &[u8],
    release: Option<&Mapped>,
) -> Result<(), RuntimeError> {
    let page = 65536u64;
    let have = memory.size(&*store);
    let want = bytes.len() as u64 / page;
    if want > have {
        memory
            .grow(&mut *store, want - have)
            .map_err(|e| RuntimeError::Instantiate(format!("growing memory: {e}")))?;
    }
    let data = memory.data_mut(&mut *store);
    if data.len() != bytes.len() {
        return Err(RuntimeError::Instantiate(format!(
            "memory is {} bytes, the state to restore {}",
            data.len(),
            bytes.len()
        )));
    }
    match release {
        None => data.copy_from_slice(bytes),
        Some(m) => {
            // parts of whole 64 KiB pages, each let go in the mapping once copied (only the
            // parts not yet let go are read: their bytes are the old memory's)
            const PART: usize = 64 << 20;
            for (i, (to, from)) in data.chunks_mut(PART).zip(bytes.chunks(PART)).enumerate() {
                to.copy_from_slice(from);
                // failing to let go keeps the pages, nothing else
                let _ = m.memory.discard_range(i * PART, from.len());
            }
        }
    }
    Ok(())
}

/// What an instance's main memory starts as.
#[derive(Clone, Copy)]
enum MemoryInit<'a> {
    /// The module's own memory with its data segments.
    Fresh,
    /// The module's own memory, then these bytes copied over it (grown to their size).
    Copy(&'a [u8]),
    /// As `Copy`, from bytes that are the start of a mapped memory no store runs any more:
    /// each part's pages in the mapping are let go once copied (the memory is not held twice).
    Move(&'a [u8], &'a Mapped),
    /// A snapshot's file mapped copy-on-write (the module imports its memory).
    Mapped(&'a Mapped),
}

/// Creates a store for `host`, the import functions, and an instance of `module`; sets up
/// its memory as `init` says and then runs its start function.
fn instantiate(
    engine: &Engine,
    module: &Module,
    prepared: &PreparedModule,
    imports: &[Resolution],
    host: Host,
    init: MemoryInit<'_>,
) -> Result<Instantiated, RuntimeError> {
    instantiate_with(engine, module, prepared, imports, host, init, true)
}

/// Creates the instance; runs the start function if `run_start`.
fn instantiate_with(
    engine: &Engine,
    module: &Module,
    prepared: &PreparedModule,
    imports: &[Resolution],
    host: Host,
    init: MemoryInit<'_>,
    run_start: bool,
) -> Result<Instantiated, RuntimeError> {
    let limit = host.cfg.instruction_limit;
    let mut store = Store::new(engine, host);
    store.limiter(|h| &mut h.limits);
    store
        .set_fuel(limit)
        .map_err(|e| RuntimeError::Instantiate(e.to_string()))?;
    let provided = match init {
        MemoryInit::Mapped(m) => {
            m.memory.map_zero_blocks()?;
            // SAFETY: the canister that owns `m` keeps one store at a time (the previous one
            // was dropped by `take_host` before this instantiation) and drops its store
            // before `m` (field order); so this is the only wasmi memory over the buffer, and
            // it does not outlive the mapping.
            let buffer = unsafe { m.memory.buffer() };
            let memory = Memory::new_static(&mut store, m.ty, buffer)
                .map_err(|e| RuntimeError::Instantiate(format!("the mapped memory: {e}")))?;
            Some(memory)
        }
        MemoryInit::Fresh | MemoryInit::Copy(_) | MemoryInit::Move(..) => None,
    };
    let mut externs = Vec::with_capacity(imports.len() + 1);
    let mut resolutions = imports.iter();
    for import in module.imports() {
        if import.ty().memory().is_some() {
            let memory = provided.ok_or_else(|| {
                RuntimeError::UnsupportedImport(format!(
                    "{}.{} (a memory)",
                    import.module(),
                    import.name()
                ))
            })?;
            externs.push(Extern::Memory(memory));
            continue;
        }
        let (Some(ty), Some(resolution)) = (import.ty().func().cloned(), resolutions.next()) else {
            return Err(RuntimeError::UnsupportedImport(format!(
                "{}.{}",
                import.module(),
                import.name()
            )));
        };
        let func = match resolution.clone() {
            Resolution::Known(api) => {
                Func::new(&mut store, ty, move |mut caller, params, results| {
                    ic0::call(api, &mut caller, params, results)
                })
            }
            Resolution::Unsupported(name) | Resolution::BadSignature { expected: name } => {
                Func::new(&mut store, ty, move |_, _, _| {
                    Err(Error::host(HostTrap::Unsupported(name.clone())))
                })
            }
        };
        externs.push(Extern::Func(func));
    }
    store.data_mut().kind = MessageKind::Start;
    let instance = Instance::new(&mut store, module, &externs)
        .map_err(|e| RuntimeError::Instantiate(message_error(e, "start", limit).to_string()))?;
    let memory = instance
        .get_memory(&store, MEMORY_EXPORT)
        .ok_or_else(|| RuntimeError::Instantiate("the memory export is missing".into()))?;
    let globals = prepared
        .mutable_globals
        .iter()
        .map(|i| {
            instance
                .get_global(&store, &format!("{GLOBAL_EXPORT_PREFIX}{i}"))
                .ok_or_else(|| RuntimeError::Instantiate(format!("global {i} export is missing")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    store.data_mut().memory = Some(memory);
    let mut f = Instantiated {
        store,
        instance,
        memory,
        globals,
        start_instructions: 0,
    };
    match init {
        MemoryInit::Copy(bytes) => copy_into_memory(&mut f.store, f.memory, bytes, None)?,
        MemoryInit::Move(bytes, m) => copy_into_memory(&mut f.store, f.memory, bytes, Some(m))?,
        MemoryInit::Mapped(m) => m.memory.map_snapshot()?,
        MemoryInit::Fresh => {}
    }
    if prepared.has_start && run_start {
        let start = f
            .instance
            .get_func(&f.store, START_EXPORT)
            .ok_or_else(|| RuntimeError::Instantiate("the start export is missing".into()))?;
        start
            .call(&mut f.store, &[], &mut [])
            .map_err(|e| RuntimeError::Instantiate(message_error(e, "start", limit).to_string()))?;
        f.start_instructions = limit.saturating_sub(f.store.get_fuel().unwrap_or(0));
    }
    Ok(f)
}
