//! A small deterministic host that runs moc-compiled canisters on wasmi: the `ic0` system API
//! moc-generated code uses, fixed time and identities, an instruction limit, and access to the
//! memories and globals a snapshot records.

pub mod canister;
pub mod config;
pub mod error;
pub(crate) mod host;
pub(crate) mod ic0;
pub mod instrument;
pub mod mapped_memory;
pub mod nan_canon;
#[cfg(test)]
mod nan_canon_tests;
pub mod offline;
pub mod reply_json;
#[cfg(test)]
mod reply_json_tests;
pub mod reply_schema;
pub mod scenario;
pub mod service;
pub mod upgrade;
pub(crate) mod wasm_sections;

pub use crate::snapshot::metadata::GlobalValue;
pub use canister::Canister;
pub use config::RuntimeConfig;
pub use error::RuntimeError;
