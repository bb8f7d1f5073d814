//! The vector work of the network: adding and subtracting weight columns
//! to accumulators, and the output layer's clipped dot product. Written
//! twice: portable loops the compiler vectorises for the build's baseline
//! ([`Plain`]), and AVX2 ([`Avx2`]), which the accumulator stack's AVX2
//! copies use. Both give the same integers.
//!
//! The AVX2 kernels are intrinsics rather than the portable loops compiled
//! for AVX2 because at the default tuning the compiler splits every 32-byte
//! load and store it cannot prove aligned into two 16-byte halves; here
//! [`Accumulator`]'s alignment lets each be one instruction.

use super::network::{Accumulator, HIDDEN, QA};

/// One set of kernels; the stack's code is generic over it, so each copy
/// (baseline, AVX2) inlines its own.
pub(super) trait Kernels {
    /// `acc += column`, wrapping (a trained network keeps far from the ends).
    fn add(acc: &mut Accumulator, column: &Accumulator);
    /// `acc -= column`, wrapping.
    fn sub(acc: &mut Accumulator, column: &Accumulator);
    /// `dst = src - off + on`, wrapping, in one pass.
    fn sub_add(dst: &mut Accumulator, src: &Accumulator, off: &Accumulator, on: &Accumulator);
    /// `Σ clamp(acc, 0, QA) · w` (no overflow: at most 128 · 255 · 32767).
    fn dot(acc: &Accumulator, w: &Accumulator) -> i32;
}

/// Portable loops.
pub(super) struct Plain;

impl Kernels for Plain {
    #[inline(always)]
    fn add(acc: &mut Accumulator, column: &Accumulator) {
        for (a, w) in acc.iter_mut().zip(column.iter()) {
            *a = a.wrapping_add(*w);
        }
    }

    #[inline(always)]
    fn sub(acc: &mut Accumulator, column: &Accumulator) {
        for (a, w) in acc.iter_mut().zip(column.iter()) {
            *a = a.wrapping_sub(*w);
        }
    }

    #[inline(always)]
    fn sub_add(dst: &mut Accumulator, src: &Accumulator, off: &Accumulator, on: &Accumulator) {
        for i in 0..HIDDEN {
            dst[i] = src[i].wrapping_sub(off[i]).wrapping_add(on[i]);
        }
    }

    #[inline(always)]
    fn dot(acc: &Accumulator, w: &Accumulator) -> i32 {
        let mut sum = 0i32;
        for i in 0..HIDDEN {
            sum += i32::from(acc[i].clamp(0, QA as i16)) * i32::from(w[i]);
        }
        sum
    }
}

/// AVX2 intrinsics. Only called from functions compiled with AVX2 enabled,
/// which run only where the CPU has it (`accumulator::wide_vectors`); so
/// private to the network's module.
#[cfg(target_arch = "x86_64")]
pub(super) struct Avx2;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use super::{Accumulator, HIDDEN, QA};
    use std::arch::x86_64::*;

    /// 16 i16s per register.
    const LANES: usize = 16;

    /// Register `k` of `a`: aligned, since an [`Accumulator`] is 32-byte
    /// aligned and `k` counts whole registers.
    #[inline(always)]
    unsafe fn load(a: &Accumulator, k: usize) -> __m256i {
        debug_assert!(k < HIDDEN / LANES);
        // SAFETY: in bounds (k < HIDDEN / 16) and 32-byte aligned.
        unsafe { _mm256_load_si256(a.0.as_ptr().add(k * LANES).cast()) }
    }

    #[inline(always)]
    unsafe fn store(a: &mut Accumulator, k: usize, v: __m256i) {
        debug_assert!(k < HIDDEN / LANES);
        // SAFETY: as `load`'s.
        unsafe { _mm256_store_si256(a.0.as_mut_ptr().add(k * LANES).cast(), v) }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn add(acc: &mut Accumulator, column: &Accumulator) {
        for k in 0..HIDDEN / LANES {
            // SAFETY: AVX2 is enabled here; `load`/`store` stay in bounds.
            unsafe { store(acc, k, _mm256_add_epi16(load(acc, k), load(column, k))) };
        }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn sub(acc: &mut Accumulator, column: &Accumulator) {
        for k in 0..HIDDEN / LANES {
            // SAFETY: as `add`'s.
            unsafe { store(acc, k, _mm256_sub_epi16(load(acc, k), load(column, k))) };
        }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn sub_add(
        dst: &mut Accumulator,
        src: &Accumulator,
        off: &Accumulator,
        on: &Accumulator,
    ) {
        for k in 0..HIDDEN / LANES {
            // SAFETY: as `add`'s.
            unsafe {
                let v = _mm256_sub_epi16(load(src, k), load(off, k));
                store(dst, k, _mm256_add_epi16(v, load(on, k)));
            }
        }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn dot(acc: &Accumulator, w: &Accumulator) -> i32 {
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
        let mut sum = _mm256_setzero_si256();
        for k in 0..HIDDEN / LANES {
            // SAFETY: as `add`'s.
            let (a, b) = unsafe { (load(acc, k), load(w, k)) };
            let clipped = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            // Pairs of products summed into i32s: exact (255 · 32767 · 2).
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, b));
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let pairs = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let one = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        _mm_cvtsi128_si32(one)
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
impl Kernels for Avx2 {
    // SAFETY (each): these run only inside functions compiled with AVX2,
    // which are called only where the CPU has it.
    #[inline(always)]
    fn add(acc: &mut Accumulator, column: &Accumulator) {
        unsafe { avx2::add(acc, column) }
    }

    #[inline(always)]
    fn sub(acc: &mut Accumulator, column: &Accumulator) {
        unsafe { avx2::sub(acc, column) }
    }

    #[inline(always)]
    fn sub_add(dst: &mut Accumulator, src: &Accumulator, off: &Accumulator, on: &Accumulator) {
        unsafe { avx2::sub_add(dst, src, off, on) }
    }

    #[inline(always)]
    fn dot(acc: &Accumulator, w: &Accumulator) -> i32 {
        unsafe { avx2::dot(acc, w) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::splitmix64;

    fn random(seed: &mut u64, range: i16) -> Accumulator {
        let mut a = Accumulator::ZERO;
        for x in a.iter_mut() {
            let r = (splitmix64(seed) % (2 * range as u64 + 1)) as i64;
            *x = (r - i64::from(range)) as i16;
        }
        a
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx2_kernels_give_the_plain_kernels_integers() {
        if !super::super::accumulator::wide_vectors() {
            return;
        }
        let mut seed = 11;
        for _ in 0..200 {
            // Wide ranges: wrapping and clipping at both ends.
            let (a, b, c) = (
                random(&mut seed, i16::MAX),
                random(&mut seed, i16::MAX),
                random(&mut seed, 600),
            );
            let (mut p, mut v) = (a, a);
            Plain::add(&mut p, &b);
            Avx2::add(&mut v, &b);
            assert_eq!(p, v);
            Plain::sub(&mut p, &c);
            Avx2::sub(&mut v, &c);
            assert_eq!(p, v);
            let (mut p2, mut v2) = (Accumulator::ZERO, Accumulator::ZERO);
            Plain::sub_add(&mut p2, &a, &b, &c);
            Avx2::sub_add(&mut v2, &a, &b, &c);
            assert_eq!(p2, v2);
            assert_eq!(Plain::dot(&c, &b), Avx2::dot(&c, &b));
            assert_eq!(Plain::dot(&a, &b), Avx2::dot(&a, &b));
        }
    }
}
