//! Parsing a moc module with wasmparser into [`ModuleFacts`].

use super::{ModuleError, ModuleFacts};

/// Reads the facts from a Wasm module (plain or gzip-compressed).
pub(crate) fn parse_module(_wasm: &[u8]) -> Result<ModuleFacts, ModuleError> {
    Err(ModuleError::NotMotoko {
        missing: "module parsing not implemented yet".to_string(),
    })
}
