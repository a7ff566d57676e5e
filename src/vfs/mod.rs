//! The virtual file tree a snapshot is presented as; no FUSE types here.
