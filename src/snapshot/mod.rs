//! Snapshot sources: icp-cli/dfx snapshot directories and bare main-memory images.

pub mod fixture;
pub mod metadata;
