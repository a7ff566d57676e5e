//! The mount's policy, one for every front-end: each node's permission bits and link count,
//! how long a front-end may cache what it was told, and the changes a read-only tree refuses
//! (only a control file is written, and truncating it is how a new request starts).

use super::entry::NodeKind;
use super::error::VfsError;
use super::tree::{Attr, Ino, Tree};
use std::time::Duration;

/// How long a front-end may cache immutable entries and attributes.
pub const IMMUTABLE_TTL: Duration = Duration::from_secs(3600);
/// How long a front-end may cache entries of directories that change (store listings).
pub const VOLATILE_TTL: Duration = Duration::from_secs(1);

impl NodeKind {
    /// Its permission bits: directories and files read-only for all, control files writable by
    /// the owner (the mount's user), symbolic links as links always are.
    pub fn permissions(self) -> u16 {
        match self {
            NodeKind::Dir => 0o555,
            NodeKind::File => 0o444,
            NodeKind::Symlink => 0o777,
            NodeKind::Control => 0o644,
        }
    }

    /// Its link count (a directory's `.` counts).
    pub fn links(self) -> u32 {
        match self {
            NodeKind::Dir => 2,
            _ => 1,
        }
    }
}

impl Attr {
    /// How long a front-end may cache this node's attributes and entry: never for a control
    /// file (its answer changes with every request), briefly for what may change, long for
    /// the immutable rest.
    pub fn cache_ttl(&self) -> Duration {
        match (self.kind, self.volatile) {
            (NodeKind::Control, _) => Duration::ZERO,
            (_, true) => VOLATILE_TTL,
            _ => IMMUTABLE_TTL,
        }
    }
}

/// What a change of attributes (`setattr`) asks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AttrChange {
    /// A new size.
    pub size: Option<u64>,
    /// Whether it changes the mode, owner or group.
    pub ownership_or_mode: bool,
}

impl Tree {
    /// A change of `ino`'s attributes: only truncating a control file to 0 is accepted (`echo
    /// x > eval` starts a new request that way; the next write at offset 0 replaces the
    /// request anyway); anything else is refused, the tree being read-only.
    pub fn setattr(&self, ino: Ino, change: AttrChange) -> Result<Attr, VfsError> {
        let attr = self.getattr(ino)?;
        let truncating_control = attr.kind == NodeKind::Control
            && change.size.is_none_or(|s| s == 0)
            && !change.ownership_or_mode;
        if truncating_control {
            Ok(attr)
        } else {
            Err(self.refuse_change(ino))
        }
    }

    /// Whether `ino` may be opened for writing (`access(2)` with `W_OK`): control files only.
    pub fn access(&self, ino: Ino, write: bool) -> Result<(), VfsError> {
        let attr = self.getattr(ino)?;
        if write && attr.kind != NodeKind::Control {
            return Err(self.refuse_change(ino));
        }
        Ok(())
    }

    /// The refusal of a change to `ino` (a link, an extended attribute, space allocation).
    pub fn refuse_change(&self, ino: Ino) -> VfsError {
        VfsError::ReadOnly(self.path_of(ino))
    }

    /// The refusal of a change to the entry `name` of directory `parent` (creating,
    /// removing or renaming it).
    pub fn refuse_entry_change(&self, parent: Ino, name: &str) -> VfsError {
        VfsError::ReadOnly(format!("{}/{name}", self.path_of(parent)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_control_files_are_writable_and_never_cached() {
        for kind in [NodeKind::Dir, NodeKind::File, NodeKind::Symlink] {
            assert_eq!(kind.permissions() & 0o222 != 0, kind == NodeKind::Symlink);
        }
        assert_eq!(NodeKind::Control.permissions(), 0o644);
        let attr = |kind, volatile| Attr {
            ino: 2,
            kind,
            size: 0,
            volatile,
        };
        assert_eq!(attr(NodeKind::Control, false).cache_ttl(), Duration::ZERO);
        assert_eq!(attr(NodeKind::Dir, true).cache_ttl(), VOLATILE_TTL);
        assert_eq!(attr(NodeKind::File, false).cache_ttl(), IMMUTABLE_TTL);
    }
}
