//! Rendered pages and typeset PDFs kept in memory, bounded by their size in bytes rather than by
//! their number: one design's report can be a hundred times another's.

use lru::LruCache;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// Something kept, which knows how many bytes it holds (allocated, not only used: a buffer
/// grown by doubling can hold twice its length).
pub trait Weighed {
    fn bytes(&self) -> usize;
}

/// A least-recently-used cache that holds at most `budget` bytes; an entry larger than the
/// whole budget is not kept.
pub struct ByteCache<K: Hash + Eq, V> {
    entries: Mutex<(LruCache<K, V>, usize)>,
    budget: usize,
}

impl<K: Hash + Eq, V: Weighed + Clone> ByteCache<K, V> {
    pub fn new(budget: usize) -> Arc<ByteCache<K, V>> {
        Arc::new(ByteCache {
            entries: Mutex::new((LruCache::unbounded(), 0)),
            budget,
        })
    }

    pub fn get(&self, key: &K) -> Option<V> {
        self.entries.lock().ok()?.0.get(key).cloned()
    }

    pub fn put(&self, key: K, value: V) {
        let size = value.bytes();
        if size > self.budget {
            return;
        }
        let Ok(mut guard) = self.entries.lock() else {
            return;
        };
        let (entries, used) = &mut *guard;
        if let Some(old) = entries.put(key, value) {
            *used -= old.bytes();
        }
        *used += size;
        while *used > self.budget {
            match entries.pop_lru() {
                Some((_, evicted)) => *used -= evicted.bytes(),
                None => break,
            }
        }
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.entries.lock().map_or(0, |g| g.1)
    }
}

impl Weighed for Arc<app::pages::document::Page> {
    /// What the page's text holds allocated, which can be up to twice its length.
    fn bytes(&self) -> usize {
        self.html.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone)]
    struct Blob(usize);

    impl Weighed for Blob {
        fn bytes(&self) -> usize {
            self.0
        }
    }

    #[test]
    fn the_oldest_entries_go_when_the_bytes_exceed_the_budget() {
        let cache = ByteCache::new(100);
        cache.put(1, Blob(40));
        cache.put(2, Blob(40));
        assert!(cache.get(&1).is_some());
        cache.put(3, Blob(40));
        assert!(cache.get(&2).is_none(), "the least recently used left");
        assert!(cache.get(&1).is_some() && cache.get(&3).is_some());
        assert_eq!(cache.bytes(), 80);
        cache.put(4, Blob(101));
        assert!(cache.get(&4).is_none(), "larger than the budget: not kept");
        cache.put(3, Blob(10));
        assert_eq!(cache.bytes(), 50, "a replaced entry's bytes are returned");
    }
}
