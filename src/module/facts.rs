//! [`ModuleFacts`]: what the heap decoder needs to know about a moc module.

use crate::image::WordSize;

use super::compiler::mode_summary;
use super::FunctionNames;

/// The persistence mode of a Motoko canister.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Persistence {
    /// Enhanced orthogonal persistence: 64-bit, incremental GC, metadata at 4.5 MiB.
    Enhanced,
    /// Classical (legacy) persistence: 32-bit, one of four GCs.
    Classical,
}

impl Persistence {
    /// The word size of this mode.
    pub fn word_size(self) -> WordSize {
        match self {
            Persistence::Enhanced => WordSize::W64,
            Persistence::Classical => WordSize::W32,
        }
    }
}

/// The garbage collector a module was compiled with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GcKind {
    /// The incremental GC (always in EOP): 2-word headers, partitioned heap.
    Incremental,
    /// The classical copying GC.
    Copying,
    /// The classical mark-compact GC.
    Compacting,
    /// The classical generational GC.
    Generational,
}

impl GcKind {
    /// The name used in mode names and output (`incremental`, `copying`, ...).
    pub fn name(self) -> &'static str {
        match self {
            GcKind::Incremental => "incremental",
            GcKind::Copying => "copying",
            GcKind::Compacting => "compacting",
            GcKind::Generational => "generational",
        }
    }
}

/// Addresses of RTS statics (and their accessors' results) derived from the module's code.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RtsStatics {
    /// EOP: address of the `STATIC_VARIABLES` static (holds the pool array pointer).
    pub static_variables: Option<u64>,
    /// Classical: skewed pointer to the static-roots array (from `get_static_roots`).
    pub static_roots: Option<u64>,
    /// Address of the continuation `TABLE` static (holds the table array pointer).
    pub continuation_table: Option<u64>,
    /// Address of the `N_CONTINUATIONS` static.
    pub n_continuations: Option<u64>,
    /// Address of the `REGION_0` static (holds the region-0 object pointer or 0).
    pub region0: Option<u64>,
    /// Classical incremental: address of the `RefCell<State>` holding the partition table
    /// (from `get_heap_size`; the table is at +16).
    pub gc_state: Option<u64>,
    /// Classical moc < 0.9.5 (no `__get_hp`): address of the RTS's `HP` static, the unskewed
    /// heap end (from `get_heap_size`, which is `HP - heap base`).
    pub heap_pointer: Option<u64>,
    /// Classical incremental GC of moc < 0.13: where its partition table and phase are
    /// (confirmed from the RTS code, see [`super::LegacyPartitionTable`]).
    pub legacy_partitions: Option<super::LegacyPartitionTable>,
}

/// Where the MutBox of a stable variable lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotLocation {
    /// EOP: index into the static-variables (pool) array.
    PoolSlot(u64),
    /// Classical: address of a static MutBox.
    StaticMutBox(u64),
}

/// One stable variable's slot: field position `field` of the stable record (ascending label
/// hash order) is stored in `location`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StableSlot {
    /// Field position in the stable record (names sorted by label hash).
    pub field: u32,
    /// Where the variable's MutBox is.
    pub location: SlotLocation,
}

/// Everything mo-mem reads from a moc module.
#[derive(Debug, Clone)]
pub struct ModuleFacts {
    /// EOP or classical.
    pub persistence: Persistence,
    /// The GC (always incremental in EOP).
    pub gc: GcKind,
    /// Whether scalars carry type tags (always in EOP; classical `--experimental-rtti`).
    pub rtti: bool,
    /// Start of the dynamic heap (EOP 5 MiB; classical `__heap_base` rounded up to 32, or not
    /// for the copying GC of moc 0.6.16-0.8.x, whose RTS starts it unaligned).
    pub heap_base: u64,
    /// Initial `__stack_pointer` (classical: the lifecycle word's address), if found.
    pub stack_top: Option<u64>,
    /// Index of the `_HP` global among ALL globals (classical non-incremental).
    pub hp_global: Option<u32>,
    /// Index of the `_HP` global among the module's MUTABLE defined globals (the position in
    /// a snapshot's `globals` list).
    pub hp_mutable_index: Option<u32>,
    /// RTS static addresses.
    pub statics: RtsStatics,
    /// The `motoko:stable-types` signature text.
    pub stable_types: Option<String>,
    /// The `motoko:compiler` version text.
    pub compiler: Option<String>,
    /// The compiler release (and its layout era) as far as the module tells.
    pub moc: super::Compiler,
    /// The stable-variable slot map from `@get_actor_to_persist`, in field order.
    pub stable_slots: Vec<StableSlot>,
    /// Whether the RTS has weak references (EOP >= 0.16: tag 45, slice tags from 46).
    pub has_weak_refs: bool,
    /// Whether the RTS has the dedup table (>= 1.0).
    pub has_dedup_table: bool,
    /// Whether the RTS formats a `Float` with C's `snprintf` (the classical RTS before moc
    /// 0.13.4, which links musl: a NaN shows as `nan` or `-nan`); later RTSs and every EOP RTS
    /// use Rust's formatting (`NaN`, whatever its sign). Told by the function `snprintf`.
    pub libc_float_format: bool,
    /// Closure function names (table index -> name).
    pub functions: FunctionNames,
}

impl ModuleFacts {
    /// Reads the facts from a Wasm module (plain or gzip-compressed).
    pub fn parse(wasm: &[u8]) -> Result<ModuleFacts, super::ModuleError> {
        super::parse::parse_module(wasm)
    }

    /// The word size (4 classical, 8 EOP).
    pub fn word_size(&self) -> WordSize {
        self.persistence.word_size()
    }

    /// The object header size in bytes (EOP 16; classical incremental 8; other classical 4).
    pub fn header_size(&self) -> u64 {
        match (self.persistence, self.gc) {
            (Persistence::Enhanced, _) => 16,
            (Persistence::Classical, GcKind::Incremental) => 8,
            (Persistence::Classical, _) => 4,
        }
    }

    /// One line naming the compiler and the mode: `moc 0.8.7 (npm motoko 3.5.6), classical,
    /// compacting GC`.
    pub fn compiler_summary(&self) -> String {
        mode_summary(&self.moc, Some(self.persistence), Some(self.gc))
    }

    /// The name of the closure function with table index `funid`, if known.
    pub fn function_name(&self, funid: u64) -> Option<&str> {
        self.functions.name_of_funid(funid)
    }
}
