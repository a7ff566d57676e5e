//! A least-recently-used cache of generated file contents, bounded by a byte budget.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// Generated contents by inode, evicting the least recently used beyond `budget` bytes.
pub struct ContentCache {
    budget: usize,
    state: Mutex<CacheState>,
}

#[derive(Default)]
struct CacheState {
    bytes: usize,
    tick: u64,
    entries: HashMap<u64, (Arc<[u8]>, u64)>,
    by_age: BTreeMap<u64, u64>,
}

impl ContentCache {
    /// An empty cache holding at most `budget` bytes of content.
    pub fn new(budget: usize) -> ContentCache {
        ContentCache {
            budget,
            state: Mutex::new(CacheState::default()),
        }
    }

    /// The cached content of `ino`, marking it recently used.
    pub fn get(&self, ino: u64) -> Option<Arc<[u8]>> {
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
    pub fn insert(&self, ino: u64, content: Arc<[u8]>) {
        if content.len() > self.budget {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.tick += 1;
        let tick = state.tick;
        if let Some((old, age)) = state.entries.remove(&ino) {
            state.bytes -= old.len();
            state.by_age.remove(&age);
        }
        state.bytes += content.len();
        state.entries.insert(ino, (content, tick));
        state.by_age.insert(tick, ino);
        while state.bytes > self.budget {
            let Some((_, victim)) = state.by_age.pop_first() else {
                break;
            };
            if let Some((old, _)) = state.entries.remove(&victim) {
                state.bytes -= old.len();
            }
        }
    }

    /// Drops the content of `ino`, if cached.
    pub fn remove(&self, ino: u64) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((old, age)) = state.entries.remove(&ino) {
            state.bytes -= old.len();
            state.by_age.remove(&age);
        }
    }

    /// The bytes currently held.
    pub fn bytes(&self) -> usize {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(n: usize) -> Arc<[u8]> {
        vec![0u8; n].into()
    }

    #[test]
    fn evicts_least_recently_used_within_budget() {
        let cache = ContentCache::new(10);
        cache.insert(1, bytes(4));
        cache.insert(2, bytes(4));
        assert!(cache.get(1).is_some());
        cache.insert(3, bytes(4));
        assert!(cache.get(2).is_none(), "2 was least recently used");
        assert!(cache.get(1).is_some());
        assert!(cache.get(3).is_some());
        assert_eq!(cache.bytes(), 8);
    }

    #[test]
    fn never_keeps_more_than_budget() {
        let cache = ContentCache::new(10);
        cache.insert(1, bytes(11));
        assert!(cache.get(1).is_none());
        cache.insert(2, bytes(10));
        cache.insert(2, bytes(3));
        assert_eq!(cache.bytes(), 3);
    }
}
