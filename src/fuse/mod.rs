//! The FUSE adapter serving the virtual file tree.
