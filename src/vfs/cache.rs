//! A least-recently-used cache of generated file contents, bounded by a byte budget in
//! memory and another on disk (contents spilled to unlinked temporary files).

use super::spill::Content;
use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

/// Memory one cached content takes beyond its bytes (its slots in the two maps, the
/// allocation's header), counted against the memory budget: a budget of 16 MiB holds at
/// most about 130 000 contents however small they are (a map's entries are a few bytes each).
pub const ENTRY_BYTES: usize = 128;

/// The memory `content` is counted for.
fn memory_of(content: &Content) -> usize {
    content.memory_bytes().saturating_add(ENTRY_BYTES)
}

/// Generated contents by inode, evicting the least recently used beyond `budget` bytes of
/// memory (each content counted with [`ENTRY_BYTES`]) or `disk_budget` bytes of spilled
/// files.
pub struct ContentCache {
    budget: usize,
    disk_budget: u64,
    state: Mutex<CacheState>,
}

#[derive(Default)]
struct CacheState {
    bytes: usize,
    disk_bytes: u64,
    tick: u64,
    entries: HashMap<u64, (Content, u64)>,
    by_age: BTreeMap<u64, u64>,
}

impl CacheState {
    fn take(&mut self, ino: u64) -> Option<(Content, u64)> {
        let (old, age) = self.entries.remove(&ino)?;
        self.bytes -= memory_of(&old);
        self.disk_bytes -= old.disk_bytes();
        Some((old, age))
    }
}

impl ContentCache {
    /// An empty cache holding at most `budget` bytes of content in memory (and as much
    /// spilled to disk).
    pub fn new(budget: usize) -> ContentCache {
        ContentCache::with_disk_budget(budget, budget as u64)
    }

    /// An empty cache holding at most `budget` bytes of content in memory and
    /// `disk_budget` bytes of spilled content.
    pub fn with_disk_budget(budget: usize, disk_budget: u64) -> ContentCache {
        ContentCache {
            budget,
            disk_budget,
            state: Mutex::new(CacheState::default()),
        }
    }

    /// The cached content of `ino`, marking it recently used.
    pub fn get(&self, ino: u64) -> Option<Content> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.tick += 1;
        let tick = state.tick;
        let (content, old_tick) = {
            let (content, age) = state.entries.get_mut(&ino)?;
            let old = *age;
            *age = tick;
            (content.clone(), old)
        };
        state.by_age.remove(&old_tick);
        state.by_age.insert(tick, ino);
        Some(content)
    }

    /// Stores the content of `ino` (not kept if larger than the whole budget).
    pub fn insert(&self, ino: u64, content: Content) {
        if memory_of(&content) > self.budget || content.disk_bytes() > self.disk_budget {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.tick += 1;
        let tick = state.tick;
        if let Some((_, age)) = state.take(ino) {
            state.by_age.remove(&age);
        }
        state.bytes += memory_of(&content);
        state.disk_bytes += content.disk_bytes();
        state.entries.insert(ino, (content, tick));
        state.by_age.insert(tick, ino);
        while state.bytes > self.budget || state.disk_bytes > self.disk_budget {
            let Some((_, victim)) = state.by_age.pop_first() else {
                break;
            };
            state.take(victim);
        }
    }

    /// Drops the content of `ino`, if cached.
    pub fn remove(&self, ino: u64) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, age)) = state.take(ino) {
            state.by_age.remove(&age);
        }
    }

    /// The bytes of memory currently held (with [`ENTRY_BYTES`] per content).
    pub fn bytes(&self) -> usize {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).bytes
    }

    /// The bytes of spilled content currently held on disk.
    pub fn disk_bytes(&self) -> u64 {
        self.state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .disk_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vfs::spill::SpillFile;
    use std::sync::Arc;

    fn bytes(n: usize) -> Content {
        Content::Memory(vec![0u8; n].into())
    }

    fn spilled(n: usize) -> Content {
        let spill = SpillFile::create(&std::env::temp_dir(), &vec![1u8; n]).unwrap();
        Content::Spilled(Arc::new(spill))
    }

    #[test]
    fn spilled_contents_count_against_the_disk_budget_only() {
        let cache = ContentCache::with_disk_budget(10 + 3 * ENTRY_BYTES, 100);
        cache.insert(1, spilled(60));
        cache.insert(2, bytes(8));
        assert_eq!(
            (cache.bytes(), cache.disk_bytes()),
            (8 + 2 * ENTRY_BYTES, 60)
        );
        cache.insert(3, spilled(60));
        assert!(cache.get(1).is_none(), "1 was evicted for disk space");
        assert!(cache.get(2).is_some(), "memory was not short");
        assert_eq!(
            (cache.bytes(), cache.disk_bytes()),
            (8 + 2 * ENTRY_BYTES, 60)
        );
        cache.insert(4, spilled(101));
        assert!(cache.get(4).is_none(), "larger than the disk budget");
        cache.remove(3);
        assert_eq!((cache.bytes(), cache.disk_bytes()), (8 + ENTRY_BYTES, 0));
    }

    #[test]
    fn evicts_least_recently_used_within_budget() {
        let cache = ContentCache::new(10 + 2 * ENTRY_BYTES);
        cache.insert(1, bytes(4));
        cache.insert(2, bytes(4));
        assert!(cache.get(1).is_some());
        cache.insert(3, bytes(4));
        assert!(cache.get(2).is_none(), "2 was least recently used");
        assert!(cache.get(1).is_some());
        assert!(cache.get(3).is_some());
        assert_eq!(cache.bytes(), 8 + 2 * ENTRY_BYTES);
    }

    #[test]
    fn never_keeps_more_than_budget() {
        let cache = ContentCache::new(10 + ENTRY_BYTES);
        cache.insert(1, bytes(11));
        assert!(cache.get(1).is_none());
        cache.insert(2, bytes(10));
        cache.insert(2, bytes(3));
        assert_eq!(cache.bytes(), 3 + ENTRY_BYTES);
    }
}
