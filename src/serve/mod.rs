//! The composition layer: what every front-end (the mount, `ls/cat/tree`, `eval`, `repl`,
//! each command) serves a snapshot with, wired once.
//!
//! [`Snapshots`] holds one [`OpenedSnapshot`] per snapshot directory (images, heap,
//! signature and labels, cached analyses), opened once per process and shared by the file
//! tree ([`SharedDecoder`]) and the `eval` file ([`EvalFiles`]); [`services`] wires both
//! into the vfs's [`crate::vfs::SnapshotServices`].

pub mod analysis_dir;
pub mod analysis_index;
pub mod catalog;
pub mod decoder;
pub mod diff_files;
pub mod eval_file;
pub mod front;
pub mod heap_source;
pub mod methods;
pub mod mount_trust;
pub mod object_lookup;
pub mod script_run;
pub mod services;
pub mod siblings;
pub mod source;
pub mod trust;
pub mod vars_render;

pub use catalog::{CanisterError, OpenedSnapshot, Snapshots, TrustPolicy, Verdict};
pub use decoder::SharedDecoder;
pub use eval_file::{EvalFiles, SnapshotEval};
pub use methods::MethodFiles;
pub use mount_trust::StoreVerifier;
pub use services::{services, services_with_calls};
pub use source::{SnapshotSource, SourceError};
pub use trust::{
    admit, command_policy, one_canister, Admitted, CanisterMismatch, Refused, StoreGate,
};
