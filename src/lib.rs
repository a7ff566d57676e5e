//! mo-mem: see inside Motoko canisters' memory.
//!
//! Layers, one folder each; dependencies point one way (a folder imports only those above it
//! in this list, as named):
//!
//! - `image`: bytes and limits, the bounds-checked reader of untrusted images; imports nothing.
//! - `module`: facts from a canister's Wasm module; imports `image`.
//! - `snapshot`: a snapshot's files (memory, stable memory, module, metadata); imports `image`, `module`.
//! - `heap`: Motoko layouts, objects, values, types, names, renderers (one `debug_show` and one
//!   JSON writer for heap and script values, the object model); imports `image`, `module`, `snapshot`.
//! - `analysis`: a heap opened once ([`analysis::OpenedHeap`]: signature, labels, cached
//!   stats and heap analysis) and the analyses over it; imports `image`, `module`, `snapshot`,
//!   `heap`.
//! - `store`: snapshots on disk, manifests, HMAC, the trust rule; imports `snapshot` (a
//!   download's metadata), nothing of the decoder.
//! - `ic`: the IC client (snapshot API, canister-hosted protocol); imports `store`.
//! - `runtime`: a canister runner on wasmi that makes snapshots; imports `image`, `snapshot`,
//!   `heap` (the JSON number rule; `image` to read an upgraded canister's memory in place).
//! - `script`: the Motoko-subset interpreter and its host values; imports `image`, `module`,
//!   `heap`, `analysis` (never `vfs` or `serve`).
//! - `vfs`: the file tree and its traits (decoder, control file, verifier, gate), no FUSE
//!   types; imports `image`, `snapshot`, `heap` (error types only; never `analysis`,
//!   `script`, `store` or `serve`).
//! - `serve`: the composition layer: one opened snapshot per directory shared by every
//!   front-end, the vfs traits implemented over `heap`, `analysis`, `script` and `store`
//!   (the decoded snapshot and its objects, `eval` file, trust), and the commands' trust
//!   check; imports all of the above.
//! - `fuse`: the FUSE adapter over the tree; imports `vfs`.
//! - `mcp`: the Model Context Protocol server (`mo-mem mcp`): tools over `serve` and
//!   `analysis`, the snapshots named as the mount names them; imports `analysis`, `store`,
//!   `runtime`, `script`, `vfs`, `serve` (never `fuse`).
//!
//! The binary (`src/main.rs`, `src/cli/`) only parses, calls `serve` (and the layers), prints.

pub mod analysis;
pub mod fuse;
pub mod heap;
pub mod ic;
pub mod image;
pub mod mcp;
pub mod module;
pub mod runtime;
pub mod script;
pub mod serve;
pub mod snapshot;
pub mod store;
pub mod vfs;
