//! Room for the search tree's arrays, reserved once at the tree's largest size and, on Linux,
//! backed by huge pages beyond the first few megabytes: a tree of a million nodes spans tens of
//! megabytes, and in 4 KB pages every descent and expansion walks pages the processor's address
//! cache does not hold, and every page touched first costs a fault. Reserving addresses costs
//! nothing until they are touched, and the arrays never move.

/// The size of a huge page (x86-64, AArch64 with 4 KB base pages).
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Bytes of an array left in ordinary pages: small trees (low levels, tests) touch no huge
/// page, whose first touch clears all of it.
#[cfg(target_os = "linux")]
const SMALL_BYTES: usize = 4 << 20;

/// Reserves room in `v` for `n` elements in all (nothing if it has that room already, and no
/// harm if the system refuses: the vector then grows as usual), and asks the system for huge
/// pages over that room beyond its first [`SMALL_BYTES`].
pub fn reserve<T>(v: &mut Vec<T>, n: usize) {
    if v.capacity() >= n || v.try_reserve_exact(n - v.len()).is_err() {
        return;
    }
    #[cfg(target_os = "linux")]
    advise_huge_pages(v.as_ptr() as usize, v.capacity() * size_of::<T>());
}

/// Asks for huge pages over the whole huge pages of `start..start + len` past its first
/// [`SMALL_BYTES`].
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: usize, len: usize) {
    let from = (start + SMALL_BYTES).next_multiple_of(HUGE_PAGE);
    let to = (start + len) / HUGE_PAGE * HUGE_PAGE;
    if to > from {
        // SAFETY: the range lies inside the vector's own allocation; the advice changes how
        // its pages are backed, never their contents.
        unsafe {
            libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Room is reserved once: the vector does not move while it fills it.
    #[test]
    fn reserved_room_keeps_the_array_in_place() {
        let mut v = vec![1u32];
        reserve(&mut v, 3 << 20);
        assert!(v.capacity() >= 3 << 20);
        let at = v.as_ptr();
        v.resize(3 << 20, 7);
        assert_eq!(at, v.as_ptr());
        assert_eq!((v[0], v[(3 << 20) - 1]), (1, 7));
    }
}
