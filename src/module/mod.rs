//! Facts read from a moc-compiled Wasm module: mode, GC, static addresses, stable signature.
//!
//! [`ModuleFacts::parse`] reads everything the heap decoder needs from the module (spec section 6):
//! the persistence mode, the classical GC kind, rtti, the heap base, the RTS static addresses, the
//! `_HP` global, the stable signature, the compiler version, the stable-variable slot map from
//! `@get_actor_to_persist` and the closure function names. Every parse is bounded.

mod code;
mod compiler;
mod error;
mod facts;
mod functions;
mod legacy_partitions;
mod parse;
mod raw;
mod stable_slots;

pub use compiler::{
    Compiler, EraProbes, Evidence, KnownBuild, LayoutEra, MocVersion, KNOWN_BUILDS,
    LEGACY_INCREMENTAL_VERIFIED, NEWEST_KNOWN, REFUSED_BUILDS,
};
pub use error::ModuleError;
pub use facts::{GcKind, ModuleFacts, Persistence, RtsStatics, SlotLocation, StableSlot};
pub use functions::FunctionNames;
pub use legacy_partitions::LegacyPartitionTable;

/// Largest module accepted, compressed or not (the IC's limit is 100 MiB for the Wasm chunk store).
pub const MAX_MODULE_BYTES: u64 = 256 << 20;

pub use parse::decompress_module;
