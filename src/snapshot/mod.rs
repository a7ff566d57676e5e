//! Snapshot sources: icp-cli/dfx snapshot directories and bare main-memory images.
