//! A transposition table shared by all threads that stays deterministic: when several threads
//! reach the same position, the one with the smallest `origin` (its place in the sequential
//! order) wins, whatever the timing. Lock-free: compare-and-swap on the key, atomic min on the
//! origin.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Open addressing with linear probing; key 0 marks an empty slot (a real hash of 0 is mapped to 1).
pub struct TranspositionTable {
    keys: Vec<AtomicU64>,
    origins: Vec<AtomicU64>,
    mask: usize,
}

impl TranspositionTable {
    /// A table for up to `entries` positions (sized to twice that, a power of two).
    pub fn with_capacity(entries: usize) -> Self {
        let size = (entries.max(8) * 2).next_power_of_two();
        TranspositionTable {
            keys: (0..size).map(|_| AtomicU64::new(0)).collect(),
            origins: (0..size).map(|_| AtomicU64::new(u64::MAX)).collect(),
            mask: size - 1,
        }
    }

    /// Empties the table, growing it when `entries` no longer fit.
    pub fn clear(&mut self, entries: usize) {
        if entries * 2 > self.keys.len() {
            *self = Self::with_capacity(entries);
            return;
        }
        for (k, o) in self.keys.iter_mut().zip(&mut self.origins) {
            *k.get_mut() = 0;
            *o.get_mut() = u64::MAX;
        }
    }

    fn slot(&self, hash: u64) -> usize {
        let key = hash.max(1);
        let mut i = (key as usize) & self.mask;
        loop {
            match self.keys[i].compare_exchange(0, key, Relaxed, Relaxed) {
                Ok(_) => return i,
                Err(k) if k == key => return i,
                Err(_) => i = (i + 1) & self.mask,
            }
        }
    }

    /// Records that `origin` reached the position with `hash`.
    pub fn insert(&self, hash: u64, origin: u64) {
        let i = self.slot(hash);
        self.origins[i].fetch_min(origin, Relaxed);
    }

    /// True when `origin` is the first (smallest) origin recorded for `hash`. Call after all
    /// inserts of a round are done.
    pub fn is_first(&self, hash: u64, origin: u64) -> bool {
        self.origins[self.slot(hash)].load(Relaxed) == origin
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn the_smallest_origin_wins_whatever_the_order() {
        let table = TranspositionTable::with_capacity(1000);
        // 1000 origins over 100 positions, inserted in parallel in a scrambled order. (Hashes 0
        // and 1 share a slot by design, as any two colliding hashes would; avoid them here.)
        let hash = |o: u64| (o * 7919) % 100 + 2;
        (0..1000u64).into_par_iter().map(|o| 999 - o).for_each(|o| table.insert(hash(o), o));
        for o in 0..1000u64 {
            let first = (0..1000u64).find(|&p| hash(p) == hash(o)).unwrap();
            assert_eq!(table.is_first(hash(o), o), o == first);
        }
    }

    #[test]
    fn clear_forgets_everything() {
        let mut table = TranspositionTable::with_capacity(4);
        table.insert(5, 3);
        table.clear(4);
        table.insert(5, 9);
        assert!(table.is_first(5, 9));
    }
}
