//! A set of boards for deduplicating search states: open addressing with linear probing over
//! `u128` keys, cleared and reused between searches without freeing memory.

/// Marks an occupied slot; keys use at most bits 0..=126.
const OCCUPIED: u128 = 1 << 127;

/// A set of `u128` keys below `2^127`.
#[derive(Debug, Clone)]
pub struct BoardSet {
    slots: Vec<u128>,
    len: usize,
}

impl Default for BoardSet {
    fn default() -> Self {
        BoardSet {
            slots: vec![0; 1 << 14],
            len: 0,
        }
    }
}

impl BoardSet {
    /// Empties the set, keeping its memory.
    pub fn clear(&mut self) {
        if self.len > 0 {
            self.slots.fill(0);
            self.len = 0;
        }
    }

    #[inline]
    fn slot_of(key: u128, mask: usize) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & mask
    }

    /// Inserts `key`; returns false if it was already there.
    #[inline]
    pub fn insert(&mut self, key: u128) -> bool {
        debug_assert!(key & OCCUPIED == 0);
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let stored = key | OCCUPIED;
        let mask = self.slots.len() - 1;
        let mut i = Self::slot_of(key, mask);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                self.slots[i] = stored;
                self.len += 1;
                return true;
            }
            if slot == stored {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let bigger = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.len = 0;
        for key in old.into_iter().filter(|&s| s != 0) {
            self.insert(key & !OCCUPIED);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::BoardSet;

    #[test]
    fn inserts_once_and_grows() {
        let mut set = BoardSet::default();
        for i in 0..5000u128 {
            assert!(set.insert(i * 0x1_0000_0001));
        }
        assert!(!set.insert(0));
        assert!(!set.insert(4999 * 0x1_0000_0001));
        set.clear();
        assert!(set.insert(7));
        assert!(set.insert(4999 * 0x1_0000_0001));
    }
}
