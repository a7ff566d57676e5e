//! The virtual file tree a snapshot is presented as; no FUSE types here.
//!
//! A [`Tree`] holds nodes with stable inode numbers. Directories ([`DirSource`]) are listed
//! on first use; generated files ([`FileSource`]) are rendered on first access and cached
//! within a byte budget, their exact size known from then on; raw files are served in
//! ranges from the memory-mapped source; control files ([`ControlNode`]) answer requests
//! per session. The decoded content comes from [`Decoder`] implementations.

pub mod analysis_dir;
pub mod cache;
pub mod caller;
pub mod control;
pub mod decoded;
pub mod diff_dir;
pub mod entry;
pub mod error;
pub mod gate;
pub mod guard;
pub mod guarded;
pub mod methods_dir;
pub mod names;
pub mod objects_dir;
pub mod policy;
pub mod raw;
pub mod readme;
pub mod requests;
pub mod snapshot_dir;
pub mod sources;
pub mod spill;
pub mod tree;
pub mod vars_dir;

pub use caller::{Caller, IntoCaller, ProcessId, ThreadId};
pub use control::{ControlFile, ControlLimits, ControlNode, EvalSlots, NoScriptEngine, SessionId};
pub use decoded::{DecodedSnapshot, Decoder, NoDecoder, ObjectSource, ValueNode};
pub use entry::{DirSource, Entry, FileSource, NodeKind};
pub use error::{
    ChangedFile, DecodeFailure, FileChange, ForeignError, RequestError, RequestErrorKind,
    Untrusted, VfsError,
};
pub use gate::{is_snapshot_dir, SnapshotGate};
pub use guard::{SnapshotGuard, SnapshotVerifier, Verified};
pub use methods_dir::{CanisterMethods, MethodsProvider, QueryMethod};
pub use policy::{AttrChange, IMMUTABLE_TTL, VOLATILE_TTL};
pub use snapshot_dir::{SnapshotDir, SnapshotServices};
pub use sources::{PathsRoot, StoreRoot};
pub use tree::{Attr, Child, Ino, OpenInfo, ReadBytes, Tree, TreeConfig, ROOT_INO};

#[cfg(test)]
mod tree_tests;
