//! Why a module's facts could not be read.

/// Why a Wasm module was refused or could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModuleError {
    /// The bytes do not start with the Wasm magic (or the gzip magic).
    #[error("not a WebAssembly module (no \\0asm magic)")]
    NotWasm,
    /// The module is larger than the limit (after decompression).
    #[error("module is larger than {limit} bytes")]
    TooLarge {
        /// The size limit in bytes.
        limit: u64,
    },
    /// The gzip-compressed module could not be decompressed.
    #[error("cannot decompress the gzip'ed module: {0}")]
    Gzip(String),
    /// wasmparser refused the module.
    #[error("malformed Wasm module at byte {offset:#x}: {message}")]
    Malformed {
        /// Byte offset of the error in the module.
        offset: usize,
        /// wasmparser's description.
        message: String,
    },
    /// The module is Wasm but not produced by moc.
    #[error("not a Motoko (moc) module: {missing}")]
    NotMotoko {
        /// What is missing.
        missing: String,
    },
    /// A moc module (it has Motoko's custom sections) whose `name` custom section was
    /// stripped (e.g. by `ic-wasm shrink` or `wasm-opt --strip-debug`): mo-mem finds the RTS
    /// statics and `@get_actor_to_persist` by function name and cannot read the heap without it.
    #[error(
        "Motoko module without its `name` custom section (stripped): mo-mem needs the function \
         names (`@get_actor_to_persist` and the RTS functions) to read the heap; use the module \
         as moc produced it (before `ic-wasm shrink`, `wasm-opt --strip-debug` or similar)"
    )]
    NameSectionStripped,
    /// A moc module whose compiler release has a heap layout this build does not read: named,
    /// with its modes and the reason (`moc 0.7.3+ (npm motoko 3.1.1), classical, copying GC: the
    /// classical layout of moc 0.6.10-0.9.8 (...) is not supported by this build`).
    #[error("{compiler}: {reason}")]
    UnsupportedCompiler {
        /// The compiler's name and the module's mode (`moc 0.8.7, classical, compacting GC`).
        compiler: String,
        /// Why it is refused.
        reason: String,
    },
}

impl ModuleError {
    /// A module the Wasm parser cannot read, at the offset it stopped.
    pub(crate) fn malformed(err: wasmparser::BinaryReaderError) -> ModuleError {
        ModuleError::Malformed {
            offset: err.offset(),
            message: err.message().to_string(),
        }
    }
}
