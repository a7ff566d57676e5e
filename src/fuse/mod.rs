//! The FUSE adapter serving the virtual file tree: a thin translation of kernel requests
//! into [`crate::vfs::Tree`] calls, served by a pool of worker threads.

pub mod adapter;
mod passthrough;
pub mod pool;
pub mod session;
pub mod sigbus;

pub use adapter::MountFs;
pub use session::{serve, FuseError, MountConfig};
