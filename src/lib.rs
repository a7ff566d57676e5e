//! mo-mem: see inside Motoko canisters' memory.
//!
//! Layers (dependencies point one way): `image` -> `module`/`heap` -> `analysis` -> `vfs` -> `fuse`;
//! `script` builds on `heap`/`analysis`; `runtime`, `ic` and `store` feed images in.

pub mod analysis;
pub mod fuse;
pub mod heap;
pub mod ic;
pub mod image;
pub mod module;
pub mod runtime;
pub mod script;
pub mod serve;
pub mod snapshot;
pub mod store;
pub mod vfs;
