//! The cheap features of several boards at once: eight with AVX-512, where each board's cells are
//! a 64-bit lane of low bits and one of high bits, shifted together with the double shifts of
//! VBMI2 and counted with VPOPCNTQ; four with AVX2, where the shifts carry bits between the
//! halves by hand and bits are counted a nibble at a time by table (the CPUs without AVX-512).
//! The features are the same code as for one board ([`super::features::Lanes`]), so the values are
//! the same.

/// The bit operations of a cell type (two vectors, `lo` and `hi`) and the sum of its count type
/// (one vector of 64-bit lanes), from the intrinsics of one vector width; `!` is xor with `$ones`.
/// The calling module states why its intrinsics are safe to call.
#[cfg(target_arch = "x86_64")]
macro_rules! vector_ops {
    ($cells:ident, $counts:ident, $and:ident, $or:ident, $xor:ident, $add:ident, $ones:expr) => {
        impl std::ops::Add for $counts {
            type Output = $counts;
            #[inline(always)]
            fn add(self, other: $counts) -> $counts {
                $counts(unsafe { $add(self.0, other.0) })
            }
        }
        vector_ops!(@bit $cells, BitAnd, bitand, $and);
        vector_ops!(@bit $cells, BitOr, bitor, $or);
        vector_ops!(@bit $cells, BitXor, bitxor, $xor);
        impl std::ops::Not for $cells {
            type Output = $cells;
            #[inline(always)]
            fn not(self) -> $cells {
                unsafe {
                    let ones = $ones;
                    $cells {
                        lo: $xor(self.lo, ones),
                        hi: $xor(self.hi, ones),
                    }
                }
            }
        }
    };
    (@bit $cells:ident, $trait:ident, $method:ident, $intrinsic:ident) => {
        impl std::ops::$trait for $cells {
            type Output = $cells;
            #[inline(always)]
            fn $method(self, other: $cells) -> $cells {
                unsafe {
                    $cells {
                        lo: $intrinsic(self.lo, other.lo),
                        hi: $intrinsic(self.hi, other.hi),
                    }
                }
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::super::features::{FEATURES, Lanes, cheap_counts};
    use std::arch::x86_64::*;

    /// Eight boards' cells. Only made inside [`cheap_all`], which runs only on CPUs with the
    /// instructions its operations use.
    #[derive(Clone, Copy)]
    pub(super) struct Cells8 {
        lo: __m512i,
        hi: __m512i,
    }

    /// Eight boards' counts (64-bit lanes).
    #[derive(Clone, Copy)]
    pub(super) struct Counts8(__m512i);

    // SAFETY: values of these types exist only inside `cheap_all` (AVX-512F checked).
    vector_ops!(
        Cells8,
        Counts8,
        _mm512_and_si512,
        _mm512_or_si512,
        _mm512_xor_si512,
        _mm512_add_epi64,
        _mm512_set1_epi64(-1)
    );

    // SAFETY (every `unsafe` below): values of these types exist only inside `cheap_all`, which
    // runs only where `available` found AVX-512 F, BW, VPOPCNTDQ and VBMI2.
    impl Lanes for Cells8 {
        type Count = Counts8;
        #[inline(always)]
        fn splat(cells: u128) -> Self {
            unsafe {
                Cells8 {
                    lo: _mm512_set1_epi64(cells as u64 as i64),
                    hi: _mm512_set1_epi64((cells >> 64) as u64 as i64),
                }
            }
        }
        #[inline(always)]
        fn shr(self, k: u32) -> Self {
            unsafe {
                let k = _mm512_set1_epi64(i64::from(k));
                Cells8 {
                    lo: _mm512_shrdv_epi64(self.lo, self.hi, k),
                    hi: _mm512_srlv_epi64(self.hi, k),
                }
            }
        }
        #[inline(always)]
        fn shl(self, k: u32) -> Self {
            unsafe {
                let k = _mm512_set1_epi64(i64::from(k));
                Cells8 {
                    lo: _mm512_sllv_epi64(self.lo, k),
                    hi: _mm512_shldv_epi64(self.hi, self.lo, k),
                }
            }
        }
        #[inline(always)]
        fn count(self) -> Counts8 {
            unsafe {
                Counts8(_mm512_add_epi64(
                    _mm512_popcnt_epi64(self.lo),
                    _mm512_popcnt_epi64(self.hi),
                ))
            }
        }
        #[inline(always)]
        fn zero() -> Counts8 {
            unsafe { Counts8(_mm512_setzero_si512()) }
        }
    }

    /// True if the CPU has the instructions [`cheap_all`] uses.
    pub fn available() -> bool {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx512vpopcntdq")
            && is_x86_feature_detected!("avx512vbmi2")
    }

    /// The weighted sums of the cheap features of `boards` into `out` (as long), eight boards
    /// at a time.
    ///
    /// # Safety
    /// The CPU must have the instructions [`available`] looks for.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2")]
    pub unsafe fn cheap_all(boards: &[u128], weights: &[i32; FEATURES], out: &mut [i32]) {
        assert_eq!(boards.len(), out.len());
        // Counts are below 2^15 and weights fit 16 bits: one multiply-add per feature, the
        // product in the low 32 bits of each lane (the high half multiplies zeros).
        let w: [__m512i; FEATURES] =
            std::array::from_fn(|i| _mm512_set1_epi64(i64::from(weights[i] as i16 as u16)));
        // Lanes 0, 2, .., 14 of two vectors of four boards are the low halves, 1, 3, .. the high.
        let even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
        let odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
        for (chunk, values) in boards.chunks(8).zip(out.chunks_mut(8)) {
            let n = chunk.len();
            let words = chunk.as_ptr().cast::<i64>();
            // Masked loads read only the boards there are (2n 64-bit words).
            let lanes = (1u32 << (2 * n)) - 1;
            // SAFETY: the masks keep the loads inside the chunk.
            let (a, b) = unsafe {
                (
                    _mm512_maskz_loadu_epi64(lanes as u8, words),
                    _mm512_maskz_loadu_epi64((lanes >> 8) as u8, words.wrapping_add(8)),
                )
            };
            let cells = Cells8 {
                lo: _mm512_permutex2var_epi64(a, even, b),
                hi: _mm512_permutex2var_epi64(a, odd, b),
            };
            let counts = cheap_counts(cells);
            let mut sum = _mm512_setzero_si512();
            for (count, w) in counts.iter().zip(&w) {
                sum = _mm512_add_epi32(sum, _mm512_madd_epi16(count.0, *w));
            }
            let sums = _mm512_cvtepi64_epi32(sum);
            // SAFETY: the mask keeps the store inside `values` (n i32).
            unsafe { _mm256_mask_storeu_epi32(values.as_mut_ptr(), ((1u32 << n) - 1) as u8, sums) };
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::features::{FEATURES, Lanes, cheap_counts};
    use std::arch::x86_64::*;

    /// Four boards' cells. Only made inside [`cheap_all`], which runs only on CPUs with AVX2.
    #[derive(Clone, Copy)]
    pub(super) struct Cells4 {
        lo: __m256i,
        hi: __m256i,
    }

    /// Four boards' counts (64-bit lanes).
    #[derive(Clone, Copy)]
    pub(super) struct Counts4(__m256i);

    // SAFETY (every `unsafe` in this module but the loads and stores of `cheap_all`): values of
    // these types exist only inside `cheap_all`, which runs only where `available` found AVX2.
    vector_ops!(
        Cells4,
        Counts4,
        _mm256_and_si256,
        _mm256_or_si256,
        _mm256_xor_si256,
        _mm256_add_epi64,
        _mm256_set1_epi64x(-1)
    );

    /// The number of set bits of each byte of `v`.
    #[inline(always)]
    unsafe fn byte_counts(v: __m256i) -> __m256i {
        unsafe {
            let table = _mm256_setr_epi8(
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3,
                2, 3, 3, 4,
            );
            let nibble = _mm256_set1_epi8(0x0f);
            let low = _mm256_shuffle_epi8(table, _mm256_and_si256(v, nibble));
            let high =
                _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
            _mm256_add_epi8(low, high)
        }
    }

    impl Lanes for Cells4 {
        type Count = Counts4;
        #[inline(always)]
        fn splat(cells: u128) -> Self {
            unsafe {
                Cells4 {
                    lo: _mm256_set1_epi64x(cells as u64 as i64),
                    hi: _mm256_set1_epi64x((cells >> 64) as u64 as i64),
                }
            }
        }
        #[inline(always)]
        fn shr(self, k: u32) -> Self {
            // Shifts by 64 or more give 0, so k = 0 carries nothing.
            unsafe {
                let by = _mm_cvtsi32_si128(k as i32);
                let back = _mm_cvtsi32_si128(64 - k as i32);
                Cells4 {
                    lo: _mm256_or_si256(
                        _mm256_srl_epi64(self.lo, by),
                        _mm256_sll_epi64(self.hi, back),
                    ),
                    hi: _mm256_srl_epi64(self.hi, by),
                }
            }
        }
        #[inline(always)]
        fn shl(self, k: u32) -> Self {
            unsafe {
                let by = _mm_cvtsi32_si128(k as i32);
                let back = _mm_cvtsi32_si128(64 - k as i32);
                Cells4 {
                    lo: _mm256_sll_epi64(self.lo, by),
                    hi: _mm256_or_si256(
                        _mm256_sll_epi64(self.hi, by),
                        _mm256_srl_epi64(self.lo, back),
                    ),
                }
            }
        }
        #[inline(always)]
        fn count(self) -> Counts4 {
            // A byte of either half holds at most 8 bits, so their sum fits a byte.
            unsafe {
                let bytes = _mm256_add_epi8(byte_counts(self.lo), byte_counts(self.hi));
                Counts4(_mm256_sad_epu8(bytes, _mm256_setzero_si256()))
            }
        }
        #[inline(always)]
        fn zero() -> Counts4 {
            unsafe { Counts4(_mm256_setzero_si256()) }
        }
    }

    /// True if the CPU has the instructions [`cheap_all`] uses.
    pub fn available() -> bool {
        is_x86_feature_detected!("avx2")
    }

    /// The weighted sums of the cheap features of `boards` into `out` (as long), four boards at
    /// a time.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn cheap_all(boards: &[u128], weights: &[i32; FEATURES], out: &mut [i32]) {
        assert_eq!(boards.len(), out.len());
        let w: [__m256i; FEATURES] =
            std::array::from_fn(|i| _mm256_set1_epi64x(i64::from(weights[i])));
        for (chunk, values) in boards.chunks(4).zip(out.chunks_mut(4)) {
            let mut four = [0u128; 4];
            four[..chunk.len()].copy_from_slice(chunk);
            let words = four.as_ptr().cast::<__m256i>();
            // SAFETY: `four` holds two vectors' worth of bytes.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(words),
                    _mm256_loadu_si256(words.wrapping_add(1)),
                )
            };
            // Lanes: boards 0, 2, 1, 3 (each half of a vector is one board).
            let cells = Cells4 {
                lo: _mm256_unpacklo_epi64(a, b),
                hi: _mm256_unpackhi_epi64(a, b),
            };
            let counts = cheap_counts(cells);
            let mut sum = _mm256_setzero_si256();
            for (count, w) in counts.iter().zip(&w) {
                // Counts are small and non-negative: the low 32 bits times the weight.
                sum = _mm256_add_epi64(sum, _mm256_mul_epi32(count.0, *w));
            }
            let mut sums = [0i64; 4];
            // SAFETY: `sums` is one vector long.
            unsafe { _mm256_storeu_si256(sums.as_mut_ptr().cast(), sum) };
            for (v, lane) in values.iter_mut().zip([0, 2, 1, 3]) {
                *v = sums[lane] as i32;
            }
        }
    }
}

/// Evaluates the cheap features of many boards with the widest instructions the CPU has.
#[derive(Debug, Clone, Copy)]
pub(super) struct Batch {
    avx512: bool,
    avx2: bool,
}

impl Batch {
    /// Looks at the CPU once.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            let avx512 = avx512::available();
            Batch {
                avx512,
                avx2: !avx512 && avx2::available(),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Batch {
                avx512: false,
                avx2: false,
            }
        }
    }

    /// True if several boards are evaluated at once (else the caller evaluates one by one).
    pub fn wide(&self) -> bool {
        self.avx512 || self.avx2
    }

    /// The weighted cheap features of `boards` into `out` (as long); false (and nothing done)
    /// without the instructions.
    #[inline]
    pub fn cheap_all(
        &self,
        boards: &[u128],
        weights: &[i32; super::features::FEATURES],
        out: &mut [i32],
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.avx512 {
            // SAFETY: `detect` found the instructions.
            unsafe { avx512::cheap_all(boards, weights, out) };
            return true;
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `detect` found the instructions.
            unsafe { avx2::cheap_all(boards, weights, out) };
            return true;
        }
        let _ = (boards, weights, out);
        false
    }
}
