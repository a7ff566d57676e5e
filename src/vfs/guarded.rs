//! Entries wrapped in a [`SnapshotGuard`]: listing or rendering one checks the snapshot's
//! files before and after, so nothing made from files that changed meanwhile is served.

use super::entry::{DirSource, Entry, FileSource};
use super::error::VfsError;
use super::guard::SnapshotGuard;
use std::sync::Arc;

/// Wraps an entry so that listing it or rendering it first checks `guard` (and checks it
/// again after, discarding what was made from files that changed meanwhile).
pub fn guarded(entry: Entry, guard: &Arc<SnapshotGuard>) -> Entry {
    match entry {
        Entry::Dir(inner) => Entry::Dir(Arc::new(GuardedDir {
            inner,
            guard: guard.clone(),
        })),
        Entry::File(inner) => Entry::File(Arc::new(GuardedFile {
            inner,
            guard: guard.clone(),
        })),
        other => other,
    }
}

struct GuardedDir {
    inner: Arc<dyn DirSource>,
    guard: Arc<SnapshotGuard>,
}

impl DirSource for GuardedDir {
    fn list(&self) -> Result<Vec<(String, Entry)>, VfsError> {
        self.guard.check()?;
        let entries = self.inner.list()?;
        self.guard.check()?;
        Ok(entries
            .into_iter()
            .map(|(name, entry)| (name, guarded(entry, &self.guard)))
            .collect())
    }

    fn is_dynamic(&self) -> bool {
        self.inner.is_dynamic()
    }
}

struct GuardedFile {
    inner: Arc<dyn FileSource>,
    guard: Arc<SnapshotGuard>,
}

impl FileSource for GuardedFile {
    fn render(&self) -> Result<Vec<u8>, VfsError> {
        self.guard.check()?;
        let bytes = self.inner.render()?;
        self.guard.check()?;
        Ok(bytes)
    }

    fn render_to(&self, out: &mut dyn std::io::Write) -> Result<(), VfsError> {
        self.guard.check()?;
        self.inner.render_to(out)?;
        self.guard.check()
    }

    fn streams(&self) -> bool {
        self.inner.streams()
    }
}
