//! A set of boards for deduplicating search states: open addressing with linear probing over
//! `u128` keys. Emptying it is one addition: each slot carries the number of the filling it
//! belongs to (a stamp in its top bits), and a slot of an older filling counts as empty.

/// The bits of the stamp; keys use at most bits 0..=103.
const STAMP_SHIFT: u32 = 104;
const KEY_BITS: u128 = (1 << STAMP_SHIFT) - 1;
/// Slots when the set first holds a key.
const FIRST_SLOTS: usize = 1 << 14;

/// A set of `u128` keys below `2^104`.
#[derive(Debug, Clone)]
pub struct BoardSet {
    slots: Vec<u128>,
    len: usize,
    /// The stamp of the current filling, in place (never 0).
    stamp: u128,
}

impl Default for BoardSet {
    /// An empty set; memory is taken at the first insertion.
    fn default() -> Self {
        BoardSet {
            slots: Vec::new(),
            len: 0,
            stamp: 1 << STAMP_SHIFT,
        }
    }
}

impl BoardSet {
    /// Empties the set, keeping its memory.
    pub fn clear(&mut self) {
        if self.len > 0 {
            self.stamp = self.stamp.wrapping_add(1 << STAMP_SHIFT);
            if self.stamp == 0 {
                // The stamps went round: old slots could look current.
                self.slots.fill(0);
                self.stamp = 1 << STAMP_SHIFT;
            }
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
        debug_assert!(key & !KEY_BITS == 0);
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let stored = key | self.stamp;
        let mask = self.slots.len() - 1;
        let mut i = Self::slot_of(key, mask);
        loop {
            let slot = self.slots[i];
            if slot & !KEY_BITS != self.stamp {
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
        let size = (self.slots.len() * 2).max(FIRST_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        let stamp = std::mem::replace(&mut self.stamp, 1 << STAMP_SHIFT);
        self.len = 0;
        for slot in old {
            if slot & !KEY_BITS == stamp {
                self.insert(slot & KEY_BITS);
            }
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
        assert!(!set.insert(7));
    }

    #[test]
    fn clearing_forgets_every_key_even_when_the_stamps_go_round() {
        let mut set = BoardSet::default();
        for round in 0..3u128 {
            for i in 0..100u128 {
                assert!(set.insert(i << 90 | i | round << 100));
                assert!(set.insert(i + 1000));
                assert!(!set.insert(i + 1000));
            }
            set.clear();
        }
        // The last stamp before going round: the next clear starts over from zeroed slots.
        set.stamp = u128::MAX << super::STAMP_SHIFT;
        assert!(set.insert(5));
        set.clear();
        assert_eq!(set.stamp, 1 << super::STAMP_SHIFT);
        assert!(set.insert(5));
        assert!(!set.insert(5));
    }
}
