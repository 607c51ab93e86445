//! A band-oriented bitboard solver for 9x9 grids.
//!
//! The grid is three bands of three rows (27 cells, one `u32` each). For every digit and band a
//! 27-bit mask holds the cells where the digit may still go. Inside a band a digit takes exactly
//! one cell per row and per box, so its three rows pick the three boxes in one of six orders.
//! Per row we note which of its three box segments ("triads") still hold candidates; a table maps
//! that 9-bit triad pattern to the triads used by some valid order, which removes the rest in one
//! step (pointing and claiming inside the band). A row left with one cell fixes the digit there:
//! the cell leaves the other digits' masks and its column leaves the other bands. Cells with one
//! digit left (naked singles) are found with bit-parallel counting over the nine masks. The same
//! order table works across bands: inside a stack a digit's three bands pick its three columns in
//! one of six orders, which gives pointing and claiming between columns and boxes, and digits with
//! one cell left in a column. Last, each segment (the three cells a row or a column shares with
//! a box) holds exactly three digits: counted bit-parallel over the digits, a segment that only
//! three digits can still reach gets them, and one that three digits must take loses the others.
//!
//! The search branches on a digit's order in a band or a stack (tdoku's idea): the unit with the
//! fewest open segments, and in it the digit with the fewest orders left, one child per order.
//!
//! State is a 124-byte `Copy` value, copied per branch: no allocation anywhere. The masks are
//! stored band by band, so a fixed cell leaves a band's nine masks with two 4-lane and-nots. The
//! naked singles and segment counting run on the three bands at once, one digit per 4-lane
//! vector (transposed from the band-major masks four digits at a time), in SSE2 on x86-64 (plain
//! arrays elsewhere).
//! The search is compiled twice, plain and (on x86-64 CPUs that have them, detected at run time)
//! with the popcnt/BMI instructions, where `pext`/`pdep` gather and scatter the order patterns;
//! both pass the same tests.
use rand::RngExt;
use rand::rngs::SmallRng;

use super::grid::Grid;
use super::query::{Extra, Outcome, Query};
use super::shape::Shape;

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// The three columns of stack 0 in a packed (band, column) word.
const STACK: u32 = 7 | 7 << 9 | 7 << 18;

/// The first cell of each row segment of a band (bit 9r + 3k: row r, box k).
const SEGMENTS: u32 = 0x124_9249;

/// Four `u32` lanes, one per band (the fourth unused): SSE2 on x86-64 (always present there),
/// plain arrays elsewhere ([`portable_lanes`]).
// SAFETY (every `unsafe` block in this module): the intrinsics only need SSE2, and the module is
// only compiled when SSE2 is enabled for the whole build (always so on x86-64), so the CPU running
// the code has it. Only `digits` and `clear_lanes` take pointers, each made from a `&[u32; 4]` or a
// `&mut [u32; 4]` (16 bytes, valid for reading, and for writing where written; the unaligned loads
// and stores need no alignment).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod lanes {
    use std::arch::x86_64::*;

    /// The masks of each digit, one band per lane, from band-major masks (`f[9 * band + digit]`):
    /// four digits at a time, three loads and a transpose.
    #[inline(always)]
    pub(super) fn digits(f: &[u32; 27]) -> [V; 9] {
        let load = |at: usize| -> __m128i {
            let four: &[u32; 4] = f[at..at + 4].try_into().unwrap();
            unsafe { _mm_loadu_si128(four.as_ptr().cast()) }
        };
        let mut out = [V::zero(); 9];
        for k in 0..2 {
            unsafe {
                let (a, b, c) = (load(4 * k), load(9 + 4 * k), load(18 + 4 * k));
                let zero = _mm_setzero_si128();
                let (ab_lo, ab_hi) = (_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b));
                let (c_lo, c_hi) = (_mm_unpacklo_epi32(c, zero), _mm_unpackhi_epi32(c, zero));
                out[4 * k] = V(_mm_unpacklo_epi64(ab_lo, c_lo));
                out[4 * k + 1] = V(_mm_unpackhi_epi64(ab_lo, c_lo));
                out[4 * k + 2] = V(_mm_unpacklo_epi64(ab_hi, c_hi));
                out[4 * k + 3] = V(_mm_unpackhi_epi64(ab_hi, c_hi));
            }
        }
        out[8] = V::new(f[8], f[17], f[26]);
        out
    }

    /// Clears the bits of `m` in each of the four masks; bit k of the result is set if mask k
    /// had any of them.
    #[inline(always)]
    pub(super) fn clear_lanes(x: &mut [u32; 4], m: u32) -> u32 {
        unsafe {
            let p = x.as_mut_ptr().cast::<__m128i>();
            let old = _mm_loadu_si128(p);
            let m = _mm_set1_epi32(m as i32);
            _mm_storeu_si128(p, _mm_andnot_si128(m, old));
            let untouched = _mm_cmpeq_epi32(_mm_and_si128(old, m), _mm_setzero_si128());
            _mm_movemask_ps(_mm_castsi128_ps(untouched)) as u32 ^ 0xf
        }
    }

    #[derive(Clone, Copy)]
    pub(super) struct V(__m128i);

    impl V {
        #[inline(always)]
        pub fn zero() -> V {
            unsafe { V(_mm_setzero_si128()) }
        }
        #[inline(always)]
        pub fn new(a: u32, b: u32, c: u32) -> V {
            unsafe { V(_mm_set_epi32(0, c as i32, b as i32, a as i32)) }
        }
        #[inline(always)]
        pub fn splat(x: u32) -> V {
            V::new(x, x, x)
        }
        #[inline(always)]
        pub fn and(self, o: V) -> V {
            unsafe { V(_mm_and_si128(self.0, o.0)) }
        }
        #[inline(always)]
        pub fn or(self, o: V) -> V {
            unsafe { V(_mm_or_si128(self.0, o.0)) }
        }
        #[inline(always)]
        pub fn xor(self, o: V) -> V {
            unsafe { V(_mm_xor_si128(self.0, o.0)) }
        }
        /// `self & !o`
        #[inline(always)]
        pub fn andnot(self, o: V) -> V {
            unsafe { V(_mm_andnot_si128(o.0, self.0)) }
        }
        #[inline(always)]
        pub fn shr<const N: i32>(self) -> V {
            unsafe { V(_mm_srli_epi32::<N>(self.0)) }
        }
        #[inline(always)]
        pub fn shl<const N: i32>(self) -> V {
            unsafe { V(_mm_slli_epi32::<N>(self.0)) }
        }
        /// Lane b takes lane (b + 1) % 3.
        #[inline(always)]
        pub fn rot1(self) -> V {
            unsafe { V(_mm_shuffle_epi32::<0b11_00_10_01>(self.0)) }
        }
        /// Lane b takes lane (b + 2) % 3.
        #[inline(always)]
        pub fn rot2(self) -> V {
            unsafe { V(_mm_shuffle_epi32::<0b11_01_00_10>(self.0)) }
        }
        /// True if any lane is not zero.
        #[inline(always)]
        pub fn any(self) -> bool {
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi32(self.0, _mm_setzero_si128())) != 0xffff }
        }
        /// The three band lanes.
        #[inline(always)]
        pub fn lanes(self) -> [u32; 3] {
            unsafe {
                [
                    _mm_cvtsi128_si32(self.0) as u32,
                    _mm_cvtsi128_si32(_mm_shuffle_epi32::<1>(self.0)) as u32,
                    _mm_cvtsi128_si32(_mm_shuffle_epi32::<2>(self.0)) as u32,
                ]
            }
        }
    }
}

/// The portable version of [`lanes`] (used where SSE2 is missing; tested against it).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
mod portable_lanes {
    /// The masks of each digit, one band per lane, from band-major masks (`f[9 * band + digit]`).
    #[inline(always)]
    pub(super) fn digits(f: &[u32; 27]) -> [V; 9] {
        std::array::from_fn(|d| V::new(f[d], f[9 + d], f[18 + d]))
    }

    /// Clears the bits of `m` in each of the four masks; bit k of the result is set if mask k
    /// had any of them.
    #[inline(always)]
    pub(super) fn clear_lanes(x: &mut [u32; 4], m: u32) -> u32 {
        let mut hit = 0;
        for (k, x) in x.iter_mut().enumerate() {
            hit |= u32::from(*x & m != 0) << k;
            *x &= !m;
        }
        hit
    }

    #[derive(Clone, Copy)]
    pub(super) struct V([u32; 3]);

    impl V {
        #[inline(always)]
        pub fn zero() -> V {
            V([0; 3])
        }
        #[inline(always)]
        pub fn new(a: u32, b: u32, c: u32) -> V {
            V([a, b, c])
        }
        #[inline(always)]
        pub fn splat(x: u32) -> V {
            V([x; 3])
        }
        #[inline(always)]
        pub fn and(self, o: V) -> V {
            V(std::array::from_fn(|l| self.0[l] & o.0[l]))
        }
        #[inline(always)]
        pub fn or(self, o: V) -> V {
            V(std::array::from_fn(|l| self.0[l] | o.0[l]))
        }
        #[inline(always)]
        pub fn xor(self, o: V) -> V {
            V(std::array::from_fn(|l| self.0[l] ^ o.0[l]))
        }
        /// `self & !o`
        #[inline(always)]
        pub fn andnot(self, o: V) -> V {
            V(std::array::from_fn(|l| self.0[l] & !o.0[l]))
        }
        #[inline(always)]
        pub fn shr<const N: i32>(self) -> V {
            V(self.0.map(|x| x >> N))
        }
        #[inline(always)]
        pub fn shl<const N: i32>(self) -> V {
            V(self.0.map(|x| x << N))
        }
        /// Lane b takes lane (b + 1) % 3.
        #[inline(always)]
        pub fn rot1(self) -> V {
            V([self.0[1], self.0[2], self.0[0]])
        }
        /// Lane b takes lane (b + 2) % 3.
        #[inline(always)]
        pub fn rot2(self) -> V {
            V([self.0[2], self.0[0], self.0[1]])
        }
        /// True if any lane is not zero.
        #[inline(always)]
        pub fn any(self) -> bool {
            self.0[0] | self.0[1] | self.0[2] != 0
        }
        /// The three band lanes.
        #[inline(always)]
        pub fn lanes(self) -> [u32; 3] {
            self.0
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use lanes::{V, clear_lanes, digits};
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
use portable_lanes::{V, clear_lanes, digits};

/// Adds the bits of `x` (0 or 1 per position) to a 4-bit counter per position, held in bit planes.
#[inline(always)]
fn add_plane(planes: &mut [V; 4], x: V) {
    let mut carry = x;
    for plane in planes.iter_mut() {
        let next = plane.and(carry);
        *plane = plane.xor(carry);
        carry = next;
    }
}

/// Per segment bit (as in [`SEGMENTS`]): set if another segment of the same row is set.
#[inline(always)]
fn v_segment_peers(t: V) -> V {
    let k0 = V::splat(0x40201);
    let (k1, k2) = (V::splat(0x40201 << 3), V::splat(0x40201 << 6));
    (t.shr::<3>().or(t.shr::<6>()).and(k0))
        .or(t.shl::<3>().or(t.shr::<3>()).and(k1))
        .or(t.shl::<6>().or(t.shl::<3>()).and(k2))
}

/// Per column bit (9 bits): set if another column of the same stack is set.
#[inline(always)]
fn v_column_peers(c: V) -> V {
    let k0 = V::splat(0o111);
    let (k1, k2) = (V::splat(0o222), V::splat(0o444));
    (c.shr::<1>().or(c.shr::<2>()).and(k0))
        .or(c.shl::<1>().or(c.shr::<1>()).and(k1))
        .or(c.shl::<2>().or(c.shl::<1>()).and(k2))
}

/// The bits of `x` under `mask`, packed to the low end. With `BMI2` this is one instruction,
/// and must only run inside [`Search::search_bmi2`] (the CPU was checked to have BMI2).
#[inline(always)]
fn pext<const BMI2: bool>(x: u32, mask: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: `BMI2` code is only reached from `search_bmi2`, which `Search::search` calls
        // only for `Arch::Bmi2`, made by `Arch::detect` after checking the CPU has BMI2.
        return unsafe { std::arch::x86_64::_pext_u32(x, mask) };
    }
    let (mut out, mut m, mut bit) = (0, mask, 0);
    while m != 0 {
        let low = m.trailing_zeros();
        out |= (x >> low & 1) << bit;
        bit += 1;
        m &= m - 1;
    }
    out
}

/// The low bits of `x` spread to the positions of `mask` (the inverse of [`pext`]); the same
/// rule for `BMI2`.
#[inline(always)]
fn pdep<const BMI2: bool>(x: u32, mask: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: as in `pext`.
        return unsafe { std::arch::x86_64::_pdep_u32(x, mask) };
    }
    let (mut out, mut m, mut bit) = (0, mask, 0);
    while m != 0 {
        let low = m.trailing_zeros();
        out |= (x >> bit & 1) << low;
        bit += 1;
        m &= m - 1;
    }
    out
}

/// Per 9-bit row: bit k set if columns 3k..3k+3 hold a candidate.
static TRIADS: [u8; 512] = build_triads();
/// Per 9-bit triad pattern (bit 3r + k = row r, box k): the union of the six row-to-box orders
/// that fit in the pattern; 0 if none does.
static ORDERS: [u16; 512] = build_orders();
/// Per 9-bit triad pattern: the set of the six orders (bit k = `PERMS[k]`) that fit in it.
static FITS: [u8; 512] = build_fits();
/// Per order: its 9-bit triad pattern (bit 3r + k: row r takes box k).
static ORDER_BITS: [u16; 6] = build_order_bits();
/// Per 9-bit triad mask: the band cells of those triads.
static EXPAND: [u32; 512] = build_expand();
/// Per 9-bit triad pattern: the band cells of the orders that fit in it (`EXPAND` of `ORDERS`,
/// one lookup instead of two); 0 if none does.
static KEEP: [u32; 512] = build_keep();
/// Per 9-bit triad pattern (bit 3r + k: row r, box k): the band cells of every row and every
/// box that holds a triad of the pattern.
static UNITS: [u32; 512] = build_units();
/// Per band cell: the other cells of its row and box.
static PEERS: [u32; 27] = build_peers();

const fn build_triads() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut r = 0;
    while r < 512 {
        let mut k = 0;
        while k < 3 {
            if (r >> (3 * k)) & 7 != 0 {
                t[r] |= 1 << k;
            }
            k += 1;
        }
        r += 1;
    }
    t
}

/// The six ways three rows (or columns) can take three boxes (or bands), one each.
const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

const fn build_order_bits() -> [u16; 6] {
    let mut t = [0u16; 6];
    let mut i = 0;
    while i < 6 {
        let order = PERMS[i];
        t[i] = (1 << order[0]) | (1 << (3 + order[1])) | (1 << (6 + order[2]));
        i += 1;
    }
    t
}

const fn build_fits() -> [u8; 512] {
    let bits = build_order_bits();
    let mut t = [0u8; 512];
    let mut p = 0;
    while p < 512 {
        let mut i = 0;
        while i < 6 {
            if p as u16 & bits[i] == bits[i] {
                t[p] |= 1 << i;
            }
            i += 1;
        }
        p += 1;
    }
    t
}

const fn build_orders() -> [u16; 512] {
    let bits = build_order_bits();
    let fits = build_fits();
    let mut t = [0u16; 512];
    let mut p = 0;
    while p < 512 {
        let mut i = 0;
        while i < 6 {
            if fits[p] >> i & 1 != 0 {
                t[p] |= bits[i];
            }
            i += 1;
        }
        p += 1;
    }
    t
}

const fn build_expand() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 9 {
            if (m >> i) & 1 != 0 {
                t[m] |= 7 << ((i / 3) * 9 + (i % 3) * 3);
            }
            i += 1;
        }
        m += 1;
    }
    t
}

const fn build_keep() -> [u32; 512] {
    let (orders, expand) = (build_orders(), build_expand());
    let mut t = [0u32; 512];
    let mut p = 0;
    while p < 512 {
        t[p] = expand[orders[p] as usize];
        p += 1;
    }
    t
}

const fn build_units() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut p = 0;
    while p < 512 {
        let mut i = 0;
        while i < 9 {
            if (p >> i) & 1 != 0 {
                t[p] |= 0x1ff << (9 * (i / 3)) | STACK << (3 * (i % 3));
            }
            i += 1;
        }
        p += 1;
    }
    t
}

const fn build_peers() -> [u32; 27] {
    let mut t = [0u32; 27];
    let mut x = 0;
    while x < 27 {
        let (row, col) = (x / 9, x % 9);
        let mut m = 0x1ff << (9 * row);
        let mut r = 0;
        while r < 3 {
            m |= 7 << (9 * r + col / 3 * 3);
            r += 1;
        }
        t[x] = m & !(1 << x);
        x += 1;
    }
    t
}

/// The triad pattern of a band mask (bit 3r + k: row r of the band has a candidate in box k).
#[inline(always)]
fn row_pattern<const BMI2: bool>(a: u32) -> usize {
    if BMI2 {
        pext::<BMI2>(a | a >> 1 | a >> 2, SEGMENTS) as usize
    } else {
        let [r0, r1, r2] = rows(a);
        TRIADS[r0] as usize | (TRIADS[r1] as usize) << 3 | (TRIADS[r2] as usize) << 6
    }
}

/// The three rows of a band mask, each as a 9-bit value.
#[inline(always)]
fn rows(a: u32) -> [usize; 3] {
    [
        (a & 0x1ff) as usize,
        ((a >> 9) & 0x1ff) as usize,
        (a >> 18) as usize,
    ]
}

/// The index of a digit's mask in a band, in [`State::f`] and [`State::dirty`].
#[inline(always)]
const fn at(digit: usize, band: usize) -> usize {
    9 * band + digit
}

/// The search state: `f[at(digit, band)]` is the digit's candidate mask in the band (its fixed
/// cell included), `unsolved[band]` the cells not yet fixed, `dirty` the masks to re-examine
/// (bit `at(digit, band)`). A band's nine masks are adjacent, so a fixed cell leaves them
/// together ([`clear_lanes`]).
#[derive(Clone, Copy)]
struct State {
    f: [u32; 27],
    unsolved: [u32; 3],
    dirty: u32,
}

impl State {
    /// Loads the grid's values; `None` if two of them clash (or clash with `extra`).
    fn new(grid: &Grid, extra: Extra) -> Option<State> {
        // All clues at once: each digit keeps its clue cells and loses every other filled cell
        // and the rows, columns and boxes of its clues. A `Grid` never repeats a value in a
        // unit, so only the extra placement needs checking. Per band the filled cells come
        // first, without a branch per cell (whether a cell is filled is as good as random), then
        // a loop visits them alone.
        let mut clues = [[0u32; 3]; 9];
        let values: &[u8; 81] = grid.values().try_into().expect("a 9x9 grid");
        for (band, values) in values.chunks_exact(27).enumerate() {
            let mut filled = 0u32;
            for (x, &value) in values.iter().enumerate() {
                filled |= u32::from(value != 0) << x;
            }
            while filled != 0 {
                let x = filled.trailing_zeros();
                filled &= filled - 1;
                clues[values[x as usize] as usize - 1][band] |= 1 << x;
            }
        }
        if let Extra::Place(cell, value) = extra {
            grid.check_move(cell, value).ok()?;
            clues[value as usize - 1][cell / 27] |= 1 << (cell % 27);
        }
        let mut filled = [0u32; 3];
        for digit in &clues {
            for (f, c) in filled.iter_mut().zip(digit) {
                *f |= c;
            }
        }
        let mut s = State {
            f: [0; 27],
            unsolved: filled.map(|f| BAND & !f),
            dirty: (1 << 27) - 1,
        };
        for (d, digit) in clues.iter().enumerate() {
            let cols = digit.iter().fold(0, |m, &c| m | c | c >> 9 | c >> 18) & 0x1ff;
            let cols = cols | cols << 9 | cols << 18;
            for (b, &c) in digit.iter().enumerate() {
                // The rows and boxes of the clues, from their triad pattern.
                let units = cols | UNITS[row_pattern::<false>(c)];
                s.f[at(d, b)] = (s.unsolved[b] & !units) | c;
            }
        }
        if let Extra::Forbid(cell, value) = extra
            && grid.get(cell) == 0
        {
            s.f[at(value as usize - 1, cell / 27)] &= !(1 << (cell % 27));
        }
        Some(s)
    }

    /// Restricts `digit` to `cell` in its row and box; the next update of the mask does the rest.
    #[inline(always)]
    fn fix(&mut self, digit: usize, cell: usize) -> bool {
        let (i, x) = (at(digit, cell / 27), cell % 27);
        if self.f[i] & (1 << x) == 0 {
            return false;
        }
        self.f[i] &= !PEERS[x];
        self.dirty |= 1 << i;
        true
    }

    /// Re-examines mask `i` (digit `i % 9`, band `i / 9`): keeps only triads of some valid order
    /// and fixes the digit in rows left with one cell, adding the masks that changed to `dirty`
    /// (the caller's copy of [`State::dirty`], kept out of memory). False on a contradiction.
    #[inline(always)]
    fn update<const BMI2: bool>(&mut self, i: usize, dirty: &mut u32) -> bool {
        let old = self.f[i];
        let keep = KEEP[row_pattern::<BMI2>(old)];
        if keep == 0 {
            return false;
        }
        let a = old & keep;
        // Every row still holds a cell, so taking the lowest cell of each row borrows across no
        // row: rows left empty by it had one cell.
        let rest = a & a.wrapping_sub(0x40201);
        let single = |row: u32| row & u32::from(rest & row == 0).wrapping_neg();
        let singles = a & (single(0x1ff) | single(0x1ff << 9) | single(0x1ff << 18));
        let (digit, band) = (i % 9, i / 9);
        let new = singles & self.unsolved[band];
        if new != 0 {
            self.unsolved[band] &= !new;
            // Every digit of the band loses the new cells (branch-free), then this one gets
            // them back.
            let masks = &mut self.f[9 * band..9 * band + 9];
            let (four, rest) = masks.split_at_mut(4);
            let (four2, last) = rest.split_at_mut(4);
            let old = last[0];
            last[0] = old & !new;
            let changed = clear_lanes(four.try_into().unwrap(), new)
                | clear_lanes(four2.try_into().unwrap(), new) << 4
                | u32::from(old & new != 0) << 8;
            let mut changed = changed << (9 * band);
            // The digit's other bands lose the new cells' columns (branch-free as well).
            let cols = (new | new >> 9 | new >> 18) & 0x1ff;
            let cols = cols | cols << 9 | cols << 18;
            for b in 0..3 {
                // This band's mask too: it is restored below.
                let j = at(digit, b);
                let old = self.f[j];
                self.f[j] = old & !cols;
                changed |= u32::from(old & cols != 0) << j;
            }
            self.f[i] = a;
            *dirty |= changed & !(1 << i);
        } else {
            // Stored only here: a narrow store just before the wide loads above would stall them
            // (no store-to-load forwarding).
            self.f[i] = a;
        }
        true
    }

    /// Fixes cells with a single candidate digit. `None` on an empty cell, else whether any
    /// single was found.
    #[inline(always)]
    fn naked_singles(&mut self) -> Option<bool> {
        // Counted over the digits for the three bands at once: cells with one digit or more,
        // two or more.
        let (mut one, mut two) = (V::zero(), V::zero());
        for x in digits(&self.f) {
            two = two.or(one.and(x));
            one = one.or(x);
        }
        let [u0, u1, u2] = self.unsolved;
        let open = V::new(u0, u1, u2);
        if open.andnot(one).any() {
            return None;
        }
        let singles = open.andnot(two);
        if !singles.any() {
            return Some(false);
        }
        for (band, singles) in singles.lanes().into_iter().enumerate() {
            if singles == 0 {
                continue;
            }
            for d in 0..9 {
                let i = at(d, band);
                let mut m = self.f[i] & singles;
                if m != 0 {
                    self.dirty |= 1 << i;
                    while m != 0 {
                        self.f[i] &= !PEERS[m.trailing_zeros() as usize];
                        m &= m - 1;
                    }
                }
            }
        }
        Some(true)
    }

    /// Locked candidates across bands: inside a stack a digit takes one column per band and one
    /// band per column, so the 3x3 pattern (band, column) of where it can still go must hold a
    /// permutation, and only the columns of fitting permutations stay. This also finds digits
    /// with one cell left in a column (through the band update that follows). Only `digits` (a
    /// set, bit d for digit d) are looked at. `None` if no permutation fits, else whether
    /// anything was removed.
    #[inline(always)]
    fn vertical<const BMI2: bool>(&mut self, digits: u32) -> Option<bool> {
        let mut found = false;
        let mut digits = digits;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let c = self.columns(d);
            if BMI2 {
                // The same with the columns of the three bands packed in one word.
                let packed = c[0] | c[1] << 9 | c[2] << 18;
                let mut keep = 0;
                for s in 0..3 {
                    let m = STACK << (3 * s);
                    let allowed = u32::from(ORDERS[pext::<BMI2>(packed, m) as usize]);
                    if allowed == 0 {
                        return None;
                    }
                    keep |= pdep::<BMI2>(allowed, m);
                }
                if keep != packed {
                    for (b, &old) in c.iter().enumerate() {
                        let k = keep >> (9 * b) & 0x1ff;
                        if k != old {
                            self.f[at(d, b)] &= k | k << 9 | k << 18;
                            self.dirty |= 1 << at(d, b);
                        }
                    }
                    found = true;
                }
                continue;
            }
            let mut keep = [0u32; 3];
            for s in 0..3 {
                let sh = 3 * s;
                let p = (c[0] >> sh & 7) | (c[1] >> sh & 7) << 3 | (c[2] >> sh & 7) << 6;
                let allowed = u32::from(ORDERS[p as usize]);
                if allowed == 0 {
                    return None;
                }
                keep[0] |= (allowed & 7) << sh;
                keep[1] |= (allowed >> 3 & 7) << sh;
                keep[2] |= (allowed >> 6) << sh;
            }
            for b in 0..3 {
                if keep[b] != c[b] {
                    let k = keep[b] | keep[b] << 9 | keep[b] << 18;
                    self.f[at(d, b)] &= k;
                    self.dirty |= 1 << at(d, b);
                    found = true;
                }
            }
        }
        Some(found)
    }

    /// Three digits per segment: the three cells a row (or a column) shares with a box hold
    /// exactly three digits. Where only three digits can still go, each must go there; where
    /// three digits must go (the only segment of their row, or of their column, that has them),
    /// no other can. `None` on a segment left with fewer than three digits or made to take more,
    /// else whether anything was removed.
    #[inline(always)]
    fn segments(&mut self, totals: &mut [u32; 6]) -> Option<bool> {
        // Lanes are bands. Per digit: `t` the row segments (bit 9r + 3k: row r, box k), `c` the
        // columns (column segments); `st`, `sc` the certain ones: the only segment of their
        // row, the only band of their column. Digits per segment are counted exactly in four
        // bit planes (`p`, `q`), certain digits up to four (`f`, `g`).
        let z = V::zero();
        let mut p = [z; 4];
        let mut q = [z; 4];
        let (mut fone, mut ftwo, mut fthree, mut ffour) = (z, z, z, z);
        let (mut gone, mut gtwo, mut gthree, mut gfour) = (z, z, z, z);
        let (segs, cols) = (V::splat(SEGMENTS), V::splat(0x1ff));
        // Per digit: its row segments and the certain ones, its columns and the certain ones.
        let row_words = |x: V| {
            let t = x.or(x.shr::<1>()).or(x.shr::<2>()).and(segs);
            (t, t.andnot(v_segment_peers(t)))
        };
        let column_words = |x: V| {
            let c = x.or(x.shr::<9>()).or(x.shr::<18>()).and(cols);
            (c, c.andnot(c.rot1().or(c.rot2())))
        };
        // Rows, then columns: eight counters at a time fit in the registers.
        let xs = digits(&self.f);
        for &x in &xs {
            let (t, st) = row_words(x);
            add_plane(&mut p, t);
            ffour = ffour.or(fthree.and(st));
            fthree = fthree.or(ftwo.and(st));
            ftwo = ftwo.or(fone.and(st));
            fone = fone.or(st);
        }
        for &x in &xs {
            let (c, sc) = column_words(x);
            add_plane(&mut q, c);
            gfour = gfour.or(gthree.and(sc));
            gthree = gthree.or(gtwo.and(sc));
            gtwo = gtwo.or(gone.and(sc));
            gone = gone.or(sc);
        }
        // At least four, at least three digits per segment.
        let four = p[3].or(p[2]);
        let three = four.or(p[1].and(p[0]));
        let cfour = q[3].or(q[2]);
        let cthree = cfour.or(q[1].and(q[0]));
        let short = segs.andnot(three).or(cols.andnot(cthree));
        if short.or(ffour).or(gfour).any() {
            return None;
        }
        let exact = three.andnot(four).andnot(fthree);
        let full = fthree.and(four);
        let cexact = cthree.andnot(cfour).andnot(gthree);
        let cfull = gthree.and(cfour);
        if !exact.or(full).or(cexact).or(cfull).any() {
            // Nothing to remove: total the digits over each band's row segments and each
            // stack's column segments, for the branching choice.
            let (p, q) = (p.map(V::lanes), q.map(V::lanes));
            *totals = [0; 6];
            for (k, (pk, qk)) in p.iter().zip(&q).enumerate() {
                let packed = qk[0] | qk[1] << 9 | qk[2] << 18;
                for b in 0..3 {
                    totals[b] += pk[b].count_ones() << k;
                    totals[3 + b] += (packed & STACK << (3 * b)).count_ones() << k;
                }
            }
            return Some(false);
        }
        let mut found = false;
        for (d, &x) in xs.iter().enumerate() {
            let ((t, st), (c, sc)) = (row_words(x), column_words(x));
            let loose = t.andnot(st);
            let clear = loose.and(full).or(v_segment_peers(loose.and(exact)));
            let loose = c.andnot(sc);
            let cclear = loose.and(cfull).or(v_column_peers(loose.and(cexact)));
            let rows = clear.or(clear.shl::<1>()).or(clear.shl::<2>());
            let gone = rows.or(cclear).or(cclear.shl::<9>()).or(cclear.shl::<18>());
            for (b, g) in gone.lanes().into_iter().enumerate() {
                let i = at(d, b);
                if self.f[i] & g != 0 {
                    self.f[i] &= !g;
                    self.dirty |= 1 << i;
                    found = true;
                }
            }
        }
        Some(found)
    }

    /// Propagates to a fixpoint; false on a contradiction. The state comes in at a fixpoint (the
    /// parent's) but for the masks marked dirty, so only the digits of masks re-examined since
    /// the last [`State::vertical`] can lose columns.
    #[inline(always)]
    fn propagate<const BMI2: bool>(&mut self, totals: &mut [u32; 6]) -> bool {
        let mut touched = 0;
        loop {
            let mut dirty = std::mem::take(&mut self.dirty);
            while dirty != 0 {
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                touched |= 1 << i;
                if !self.update::<BMI2>(i, &mut dirty) {
                    return false;
                }
            }
            match self.naked_singles() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            if self.is_solved() {
                return true;
            }
            let digits = (touched | touched >> 9 | touched >> 18) & 0x1ff;
            touched = 0;
            match self.vertical::<BMI2>(digits) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.segments(totals) {
                None => return false,
                Some(true) => {}
                Some(false) => return true,
            }
        }
    }

    /// The columns of `digit` per band (9 bits each).
    #[inline(always)]
    fn columns(&self, digit: usize) -> [u32; 3] {
        [self.f[digit], self.f[9 + digit], self.f[18 + digit]]
            .map(|x| (x | x >> 9 | x >> 18) & 0x1ff)
    }

    /// The unit to branch on: among the six bands and stacks not yet settled, the one with the
    /// fewest open segments over all digits (`totals`, from [`State::segments`]), and in it
    /// the digit with the fewest orders left (at least two). Returns (stack?, band or stack,
    /// digit, fitting orders); `None` if no digit has two orders left.
    #[inline(always)]
    fn choose_unit<const BMI2: bool>(&self, totals: &[u32; 6]) -> Option<(bool, usize, usize, u8)> {
        // Minimum keys (count, then index) without a branch per candidate.
        let key = totals
            .iter()
            .enumerate()
            .map(|(u, &t)| if t > 27 { t << 3 | u as u32 } else { u32::MAX })
            .fold(u32::MAX, u32::min);
        let unit = if key == u32::MAX {
            0
        } else {
            (key & 7) as usize
        };
        // The digits' order patterns in the unit (a closure here would not be compiled with
        // the BMI2 features, so it would call `pext` out of line).
        let mut patterns = [0; 9];
        if unit < 3 {
            for (d, p) in patterns.iter_mut().enumerate() {
                *p = row_pattern::<BMI2>(self.f[at(d, unit)]);
            }
        } else {
            let sh = 3 * (unit - 3);
            for (d, p) in patterns.iter_mut().enumerate() {
                let c = self.columns(d);
                *p = if BMI2 {
                    pext::<BMI2>(c[0] | c[1] << 9 | c[2] << 18, STACK << sh) as usize
                } else {
                    ((c[0] >> sh & 7) | (c[1] >> sh & 7) << 3 | (c[2] >> sh & 7) << 6) as usize
                };
            }
        }
        let key = patterns
            .iter()
            .enumerate()
            .map(|(d, &p)| {
                let n = FITS[p].count_ones();
                if n > 1 { n << 4 | d as u32 } else { u32::MAX }
            })
            .fold(u32::MAX, u32::min);
        if key == u32::MAX {
            return None;
        }
        let digit = (key & 15) as usize;
        Some((unit >= 3, unit % 3, digit, FITS[patterns[digit]]))
    }

    /// Restricts `digit` to order `k` in a band (or a stack).
    #[inline(always)]
    fn apply_order(&mut self, stack: bool, unit: usize, digit: usize, k: usize) {
        let bits = u32::from(ORDER_BITS[k]);
        if stack {
            let sh = 3 * unit;
            for b in 0..3 {
                let keep = (0x1ff & !(7 << sh)) | (bits >> (3 * b) & 7) << sh;
                self.f[at(digit, b)] &= keep | keep << 9 | keep << 18;
                self.dirty |= 1 << at(digit, b);
            }
        } else {
            let i = at(digit, unit);
            self.f[i] &= EXPAND[bits as usize];
            self.dirty |= 1 << i;
        }
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to branch on (band, band cell): among cells with two candidates the one with
    /// the most open peers (its guess prunes most), else one with the fewest candidates.
    #[inline(always)]
    fn choose(&self) -> (usize, usize) {
        let mut pick = None;
        let mut best_score = 0;
        for band in 0..3 {
            let open = self.unsolved[band];
            if open == 0 {
                continue;
            }
            let (mut one, mut two, mut more) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.f[at(d, band)];
                more |= two & x;
                two |= one & x;
                one |= x;
            }
            let mut pairs = open & two & !more;
            while pairs != 0 {
                let x = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let col = x % 9;
                let col_mask = 0x40201u32 << col;
                let score = (PEERS[x] & open).count_ones()
                    + (self.unsolved[(band + 1) % 3] & col_mask).count_ones()
                    + (self.unsolved[(band + 2) % 3] & col_mask).count_ones()
                    + 1;
                if score > best_score {
                    best_score = score;
                    pick = Some((band, x));
                }
            }
        }
        if let Some(p) = pick {
            return p;
        }
        let mut best = (u32::MAX, 0, 0);
        for band in 0..3 {
            let mut open = self.unsolved[band];
            while open != 0 {
                let x = open.trailing_zeros() as usize;
                open &= open - 1;
                let k = (0..9)
                    .filter(|&d| self.f[at(d, band)] >> x & 1 != 0)
                    .count() as u32;
                if k < best.0 {
                    best = (k, band, x);
                }
            }
        }
        (best.1, best.2)
    }

    /// The solved grid's values.
    fn values(&self) -> [u8; 81] {
        let mut values = [0u8; 81];
        for (i, &mask) in self.f.iter().enumerate() {
            let mut m = mask;
            while m != 0 {
                values[(i / 9) * 27 + m.trailing_zeros() as usize] = (i % 9) as u8 + 1;
                m &= m - 1;
            }
        }
        values
    }
}

/// Which compiled version of the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arch {
    /// Plain code for any CPU.
    Portable,
    /// Compiled with popcnt, bmi1, bmi2 and lzcnt; only [`Arch::detect`] returns it, and only
    /// on a CPU that has them.
    #[cfg(target_arch = "x86_64")]
    Bmi2,
}

impl Arch {
    /// The fastest version this CPU can run.
    pub(crate) fn detect() -> Arch {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
        {
            return Arch::Bmi2;
        }
        Arch::Portable
    }
}

struct Search<'a> {
    arch: Arch,
    query: Query,
    outcome: Outcome,
    /// When set, branches are tried in random order (to build random solved grids).
    rng: Option<&'a mut SmallRng>,
}

impl Search<'_> {
    /// The branch to try next among the set bits of `set`: the lowest, or a random one.
    #[inline(always)]
    fn next_branch(&mut self, set: u32) -> usize {
        match self.rng.as_deref_mut() {
            None => set.trailing_zeros() as usize,
            Some(rng) => {
                let mut m = set;
                for _ in 0..rng.random_range(0..set.count_ones()) {
                    m &= m - 1;
                }
                m.trailing_zeros() as usize
            }
        }
    }
}

/// The search, written once and compiled twice: for any x86-64 (or other) CPU, and with the
/// bit-manipulation instructions (popcnt, tzcnt, blsr, andn, pext) where the CPU has them.
macro_rules! search_fn {
    ($(#[$attr:meta])* $name:ident, $bmi2:expr) => {
        $(#[$attr])*
        fn $name(&mut self, mut s: State) {
            let mut totals = [0; 6];
            if !s.propagate::<{ $bmi2 }>(&mut totals) {
                return;
            }
            if s.is_solved() {
                self.outcome.count += 1;
                if self.query.want_solution && self.outcome.solution.is_none() {
                    self.outcome.solution = Some(Grid::from_solution(Shape::CLASSIC, &s.values()));
                }
                return;
            }
            if let Some((stack, unit, digit, fits)) = s.choose_unit::<{ $bmi2 }>(&totals) {
                let mut fits = u32::from(fits);
                while fits != 0 {
                    if self.outcome.count >= self.query.limit
                        || self.outcome.guesses >= self.query.budget
                    {
                        self.outcome.aborted |= self.outcome.count < self.query.limit;
                        return;
                    }
                    let k = self.next_branch(fits);
                    fits &= !(1 << k);
                    self.outcome.guesses += 1;
                    if fits == 0 {
                        s.apply_order(stack, unit, digit, k);
                        self.$name(s);
                        return;
                    }
                    let mut child = s;
                    child.apply_order(stack, unit, digit, k);
                    self.$name(child);
                }
                return;
            }
            let (band, x) = s.choose();
            let mut digits: u32 = (0..9)
                .filter(|&d| s.f[at(d, band)] >> x & 1 != 0)
                .fold(0, |m, d| m | 1 << d);
            let cell = band * 27 + x;
            while digits != 0 {
                if self.outcome.count >= self.query.limit || self.outcome.guesses >= self.query.budget {
                    self.outcome.aborted |= self.outcome.count < self.query.limit;
                    return;
                }
                let d = self.next_branch(digits);
                digits &= !(1 << d);
                self.outcome.guesses += 1;
                if digits == 0 {
                    s.fix(d, cell);
                    self.$name(s);
                    return;
                }
                let mut child = s;
                child.fix(d, cell);
                self.$name(child);
            }
        }
    };
}

impl Search<'_> {
    search_fn!(search_portable, false);
    search_fn!(
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
        search_bmi2,
        true
    );

    fn search(&mut self, s: State) {
        #[cfg(target_arch = "x86_64")]
        if self.arch == Arch::Bmi2 {
            // SAFETY: `Arch::Bmi2` is only made by `Arch::detect`, after the CPU was found to
            // have every feature `search_bmi2` is compiled for.
            unsafe { self.search_bmi2(s) };
            return;
        }
        self.search_portable(s);
    }
}

/// Runs a query on a 9x9 grid. With `rng`, branches are tried in random order.
pub(crate) fn run(grid: &Grid, extra: Extra, query: Query, rng: Option<&mut SmallRng>) -> Outcome {
    run_on(Arch::detect(), grid, extra, query, rng)
}

/// [`run`] with the given version of the search.
pub(crate) fn run_on(
    arch: Arch,
    grid: &Grid,
    extra: Extra,
    query: Query,
    rng: Option<&mut SmallRng>,
) -> Outcome {
    debug_assert_eq!(grid.shape(), Shape::CLASSIC);
    let mut search = Search {
        arch,
        query,
        outcome: Outcome::default(),
        rng,
    };
    if let Some(state) = State::new(grid, extra) {
        search.search(state);
    }
    search.outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_table_keeps_only_valid_orders() {
        assert_eq!(ORDERS[0x1ff], 0x1ff);
        // Row 0 only in box 0: boxes 0 of rows 1 and 2 are impossible.
        assert_eq!(ORDERS[0b111_111_001], 0b110_110_001);
        // Rows 0 and 1 both only in box 0: no order fits.
        assert_eq!(ORDERS[0b111_001_001], 0);
    }

    #[test]
    fn units_cover_rows_and_boxes_of_a_pattern() {
        assert_eq!(UNITS[0], 0);
        // Row 0, box 0.
        assert_eq!(UNITS[1], 0x1ff | STACK);
        // Row 2, box 1.
        assert_eq!(UNITS[1 << 7], 0x1ff << 18 | STACK << 3);
        assert_eq!(UNITS[0x1ff], BAND);
    }

    #[test]
    fn peers_cover_row_and_box() {
        assert_eq!(PEERS[0].count_ones(), 8 + 6);
        assert_eq!(PEERS[0] & 0x1ff, 0x1fe);
        assert_eq!(PEERS[0] >> 9 & 0x1ff, 0b111);
    }

    /// Hard puzzles (forum hardest 1106, 17-clue, magictour, forum hardest 1905) and their
    /// unique solutions.
    const PUZZLES: [(&str, &str); 6] = [
        (
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
            "621943758783615492594728361142879635357461289869532174238197546916354827475286913",
        ),
        (
            "..34...8.......1.37........2...9.......5..8...6...7.4...51....8.7...5...9...62.5.",
            "123456789456789123789231564214698375397524816568317942645173298872945631931862457",
        ),
        (
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
            "953168742862734951417952836746893125281645397395271468138529674574386219629417583",
        ),
        (
            "................12....34...........3..2.......567........2...7.3.518....8.....4..",
            "578912634493876512261534987984651723732498165156723849619245378345187296827369451",
        ),
        (
            "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
            "798635421126974583453218679972586314564123897381497256617352948835749162249861735",
        ),
        (
            "98.7..6..75..4......3..8.7.8....9.5..3.2..1.....4....6.7...4.3....8..4......1...2",
            "984751623752346981613928574846139257539267148127485396271694835365872419498513762",
        ),
    ];

    fn grid(line: &str) -> Grid {
        Grid::parse(Shape::CLASSIC, line).unwrap()
    }

    fn arches() -> Vec<Arch> {
        let mut v = vec![Arch::Portable];
        if Arch::detect() != Arch::Portable {
            v.push(Arch::detect());
        }
        v
    }

    fn count(arch: Arch, g: &Grid, limit: u64) -> Outcome {
        let query = Query {
            want_solution: true,
            ..Query::count(limit)
        };
        run_on(arch, g, Extra::None, query, None)
    }

    #[test]
    fn both_versions_solve_hard_puzzles() {
        for arch in arches() {
            for (puzzle, solution) in PUZZLES {
                let out = count(arch, &grid(puzzle), 2);
                assert_eq!(out.count, 1, "{arch:?} {puzzle}");
                assert_eq!(out.solution.unwrap().to_string(), solution, "{arch:?}");
            }
        }
    }

    #[test]
    fn both_versions_count_like_the_generic_solver() {
        // Emptying cells of a hard puzzle's solution outside its clues, or dropping clues, gives
        // grids with many solutions; every version must count them the same as the generic
        // solver, and each first solution must extend the grid.
        let mut workspace = super::super::generic::Workspace::new();
        for (puzzle, _) in PUZZLES {
            let clues = grid(puzzle);
            let filled: Vec<usize> = (0..81).filter(|&c| clues.get(c) != 0).collect();
            for drop in [1, 2, 3, 5] {
                let mut g = clues.clone();
                for &cell in filled.iter().take(drop) {
                    g.clear(cell);
                }
                let expected = workspace
                    .run(&g, Extra::None, Query::count(500), None)
                    .count;
                assert!(expected > 1, "{puzzle} without {drop} clues");
                for arch in arches() {
                    let out = count(arch, &g, 500);
                    assert_eq!(out.count, expected, "{arch:?} {puzzle} without {drop}");
                    let first = out.solution.unwrap();
                    assert!(first.is_complete());
                    assert!((0..81).all(|c| g.get(c) == 0 || g.get(c) == first.get(c)));
                }
            }
        }
    }

    #[test]
    fn both_versions_find_contradictions() {
        for arch in arches() {
            // Two different values forced into the top-left cell's row by the rest.
            let mut g = Grid::empty(Shape::CLASSIC);
            for (cell, value) in [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7)] {
                g.place(cell, value).unwrap();
            }
            g.place(9, 8).unwrap();
            g.place(27, 9).unwrap();
            assert_eq!(count(arch, &g, 2).count, 0, "{arch:?}");
            // Forbidding the only value of a cell leaves no solution.
            let (puzzle, solution) = PUZZLES[0];
            let cell = puzzle.find('.').unwrap();
            let value = solution.as_bytes()[cell] - b'0';
            let out = run_on(
                arch,
                &grid(puzzle),
                Extra::Forbid(cell, value),
                Query::count(2),
                None,
            );
            assert_eq!(out.count, 0, "{arch:?}");
        }
    }

    #[test]
    fn random_branching_makes_valid_distinct_grids() {
        use rand::SeedableRng;
        let mut rng = SmallRng::seed_from_u64(1);
        let empty = Grid::empty(Shape::CLASSIC);
        let query = Query {
            want_solution: true,
            ..Query::count(1)
        };
        let a = run(&empty, Extra::None, query, Some(&mut rng))
            .solution
            .unwrap();
        let b = run(&empty, Extra::None, query, Some(&mut rng))
            .solution
            .unwrap();
        assert!(a.is_complete() && b.is_complete());
        assert_ne!(a, b);
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[test]
    fn sse2_lanes_match_the_portable_ones() {
        use super::portable_lanes::V as P;
        use rand::{RngExt, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(3);
        for _ in 0..1000 {
            let a: [u32; 3] = std::array::from_fn(|_| rng.random::<u32>() >> 5);
            let b: [u32; 3] = std::array::from_fn(|_| rng.random::<u32>() >> 5);
            let (va, vb) = (V::new(a[0], a[1], a[2]), V::new(b[0], b[1], b[2]));
            let (pa, pb) = (P::new(a[0], a[1], a[2]), P::new(b[0], b[1], b[2]));
            assert_eq!(va.and(vb).lanes(), pa.and(pb).lanes());
            assert_eq!(va.or(vb).lanes(), pa.or(pb).lanes());
            assert_eq!(va.andnot(vb).lanes(), pa.andnot(pb).lanes());
            assert_eq!(va.shr::<9>().lanes(), pa.shr::<9>().lanes());
            assert_eq!(va.shl::<2>().lanes(), pa.shl::<2>().lanes());
            assert_eq!(va.rot1().lanes(), pa.rot1().lanes());
            assert_eq!(va.rot2().lanes(), pa.rot2().lanes());
            assert_eq!(V::splat(a[1]).lanes(), P::splat(a[1]).lanes());
            assert_eq!(va.and(V::zero()).any(), pa.and(P::zero()).any());
            assert_eq!(va.any(), pa.any());
            assert_eq!(a[0] | a[1] | a[2] != 0, va.any());
            let (mut x, mut y) = ([a[0], a[1], a[2], b[0]], [a[0], a[1], a[2], b[0]]);
            let m = b[1] & b[2];
            assert_eq!(
                super::lanes::clear_lanes(&mut x, m),
                super::portable_lanes::clear_lanes(&mut y, m)
            );
            assert_eq!(x, y);
            assert!(x.iter().all(|&x| x & m == 0));
        }
        for _ in 0..100 {
            let f: [u32; 27] = std::array::from_fn(|_| rng.random::<u32>() >> 5);
            let (v, p) = (super::lanes::digits(&f), super::portable_lanes::digits(&f));
            for d in 0..9 {
                assert_eq!(v[d].lanes(), p[d].lanes());
                assert_eq!(v[d].lanes(), [f[d], f[9 + d], f[18 + d]]);
                // The unused fourth lane is zero, as `any` needs.
                assert_eq!(v[d].any(), f[d] | f[9 + d] | f[18 + d] != 0);
            }
        }
    }

    #[test]
    fn portable_pext_and_pdep() {
        assert_eq!(pext::<false>(0b1010_0110, 0b1111_0000), 0b1010);
        assert_eq!(pext::<false>(SEGMENTS, SEGMENTS), 0x1ff);
        assert_eq!(pext::<false>(1 << 9 | 1 << 21, STACK), 0b1000);
        assert_eq!(pdep::<false>(0b1010, 0b1111_0000), 0b1010_0000);
        assert_eq!(pdep::<false>(0x1ff, STACK << 3), STACK << 3);
        for x in [0u32, 1, 0x155, 0x1ff, 0x0ab] {
            assert_eq!(pext::<false>(pdep::<false>(x, STACK << 6), STACK << 6), x);
        }
    }
}
