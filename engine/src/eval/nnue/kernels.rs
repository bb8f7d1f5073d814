//! The vector work of the network: adding and subtracting weight columns
//! to accumulators, and the output layer's clipped dot product. Written
//! three times: portable loops the compiler vectorises for the build's
//! baseline ([`Plain`]), AVX2 ([`Avx2`]), which the accumulator stack's
//! AVX2 copies use, and WebAssembly's SIMD128 (`Simd128`), the baseline
//! of a WebAssembly build with `simd128` enabled ([`Base`]). All give the
//! same integers.
//!
//! The AVX2 kernels are intrinsics rather than the portable loops compiled
//! for AVX2 because at the default tuning the compiler splits every 32-byte
//! load and store it cannot prove aligned into two 16-byte halves; here
//! [`Accumulator`]'s alignment lets each be one instruction.

use super::hidden::{Accumulator, HIDDEN, QA};

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
    /// `dst = src - Σ off + Σ on`, wrapping, in one pass held in
    /// registers: a step that changes several inputs (a levitation moves a
    /// sorcerer and a rock, a push a row, a kill a team).
    fn apply<'a>(
        dst: &mut Accumulator,
        src: &Accumulator,
        off: impl IntoIterator<Item = &'a Accumulator>,
        on: impl IntoIterator<Item = &'a Accumulator>,
    );
    /// [`Kernels::dot`] of `acc + Σ extra` (wrapping), without writing
    /// that sum anywhere: the threat inputs' columns added to a view's
    /// accumulator as its value is read, in registers.
    fn dot_plus<'a>(
        acc: &Accumulator,
        extra: impl IntoIterator<Item = &'a Accumulator>,
        w: &Accumulator,
    ) -> i32;
}

/// Portable loops.
pub(super) struct Plain;

/// The kernels of the build's baseline: SIMD128 in a WebAssembly build
/// with `simd128` enabled (the compiler does not find `i32x4.dot_i16x8_s`
/// for the dot product by itself), the portable loops elsewhere.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub(super) type Base = Plain;
/// The kernels of the build's baseline: SIMD128.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) type Base = Simd128;

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

    #[inline(always)]
    fn apply<'a>(
        dst: &mut Accumulator,
        src: &Accumulator,
        off: impl IntoIterator<Item = &'a Accumulator>,
        on: impl IntoIterator<Item = &'a Accumulator>,
    ) {
        *dst = *src;
        for column in off {
            Plain::sub(dst, column);
        }
        for column in on {
            Plain::add(dst, column);
        }
    }

    #[inline(always)]
    fn dot_plus<'a>(
        acc: &Accumulator,
        extra: impl IntoIterator<Item = &'a Accumulator>,
        w: &Accumulator,
    ) -> i32 {
        let mut with = *acc;
        for column in extra {
            Plain::add(&mut with, column);
        }
        Plain::dot(&with, w)
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

    /// The sum of `sum`'s eight i32 lanes.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn horizontal_sum(sum: __m256i) -> i32 {
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let pairs = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let one = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        _mm_cvtsi128_si32(one)
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
        horizontal_sum(sum)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn apply<'a>(
        dst: &mut Accumulator,
        src: &Accumulator,
        off: impl IntoIterator<Item = &'a Accumulator>,
        on: impl IntoIterator<Item = &'a Accumulator>,
    ) {
        // SAFETY (each load and store): as `add`'s.
        let mut v: [__m256i; HIDDEN / LANES] = std::array::from_fn(|k| unsafe { load(src, k) });
        for column in off {
            for (k, x) in v.iter_mut().enumerate() {
                *x = _mm256_sub_epi16(*x, unsafe { load(column, k) });
            }
        }
        for column in on {
            for (k, x) in v.iter_mut().enumerate() {
                *x = _mm256_add_epi16(*x, unsafe { load(column, k) });
            }
        }
        for (k, x) in v.into_iter().enumerate() {
            unsafe { store(dst, k, x) };
        }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn dot_plus<'a>(
        acc: &Accumulator,
        extra: impl IntoIterator<Item = &'a Accumulator>,
        w: &Accumulator,
    ) -> i32 {
        // The whole accumulator in 8 registers while the columns are added.
        // SAFETY (each load): as `add`'s.
        let mut v: [__m256i; HIDDEN / LANES] = std::array::from_fn(|k| unsafe { load(acc, k) });
        for column in extra {
            for (k, x) in v.iter_mut().enumerate() {
                *x = _mm256_add_epi16(*x, unsafe { load(column, k) });
            }
        }
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
        let mut sum = _mm256_setzero_si256();
        for (k, x) in v.iter().enumerate() {
            let clipped = _mm256_min_epi16(_mm256_max_epi16(*x, zero), top);
            // SAFETY: as `add`'s.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, unsafe { load(w, k) }));
        }
        horizontal_sum(sum)
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

    #[inline(always)]
    fn apply<'a>(
        dst: &mut Accumulator,
        src: &Accumulator,
        off: impl IntoIterator<Item = &'a Accumulator>,
        on: impl IntoIterator<Item = &'a Accumulator>,
    ) {
        unsafe { avx2::apply(dst, src, off, on) }
    }

    #[inline(always)]
    fn dot_plus<'a>(
        acc: &Accumulator,
        extra: impl IntoIterator<Item = &'a Accumulator>,
        w: &Accumulator,
    ) -> i32 {
        unsafe { avx2::dot_plus(acc, extra, w) }
    }
}

/// WebAssembly SIMD128: 8 i16s per register. A WebAssembly module has no
/// run-time feature test, so these are chosen when the build enables
/// `simd128` (every browser and Node since 2021 runs it).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) struct Simd128;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[allow(unsafe_code)]
mod simd128 {
    use super::{Accumulator, HIDDEN, QA};
    use std::arch::wasm32::*;

    /// 8 i16s per register.
    pub const LANES: usize = 8;

    /// Register `k` of `a`; `k < HIDDEN / LANES` (every caller's loop
    /// bound).
    #[inline(always)]
    pub fn load(a: &Accumulator, k: usize) -> v128 {
        debug_assert!(k < HIDDEN / LANES);
        // SAFETY: in bounds (k < HIDDEN / 8); WebAssembly loads need no
        // alignment.
        unsafe { v128_load(a.0.as_ptr().add(k * LANES).cast()) }
    }

    #[inline(always)]
    pub fn store(a: &mut Accumulator, k: usize, v: v128) {
        debug_assert!(k < HIDDEN / LANES);
        // SAFETY: as `load`'s.
        unsafe { v128_store(a.0.as_mut_ptr().add(k * LANES).cast(), v) }
    }

    /// `Σ clamp(acc, 0, QA) · w`, pairs of products summed into i32s
    /// (exact: 255 · 32767 · 2 fits).
    #[inline(always)]
    pub fn dot(acc: &Accumulator, w: &Accumulator) -> i32 {
        dot_plus(acc, [], w)
    }

    /// [`dot`] of `acc + Σ extra`, the sum kept in registers: 16 of
    /// them, 8 i16s each.
    #[inline(always)]
    pub fn dot_plus<'a>(
        acc: &Accumulator,
        extra: impl IntoIterator<Item = &'a Accumulator>,
        w: &Accumulator,
    ) -> i32 {
        let mut v: [v128; HIDDEN / LANES] = std::array::from_fn(|k| load(acc, k));
        for column in extra {
            for (k, x) in v.iter_mut().enumerate() {
                *x = i16x8_add(*x, load(column, k));
            }
        }
        let (zero, top) = (i16x8_splat(0), i16x8_splat(QA as i16));
        let mut sum = i32x4_splat(0);
        for (k, x) in v.iter().enumerate() {
            let clipped = i16x8_min(i16x8_max(*x, zero), top);
            sum = i32x4_add(sum, i32x4_dot_i16x8(clipped, load(w, k)));
        }
        i32x4_extract_lane::<0>(sum)
            .wrapping_add(i32x4_extract_lane::<1>(sum))
            .wrapping_add(i32x4_extract_lane::<2>(sum))
            .wrapping_add(i32x4_extract_lane::<3>(sum))
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
impl Kernels for Simd128 {
    #[inline(always)]
    fn add(acc: &mut Accumulator, column: &Accumulator) {
        use std::arch::wasm32::i16x8_add;
        for k in 0..HIDDEN / simd128::LANES {
            let v = i16x8_add(simd128::load(acc, k), simd128::load(column, k));
            simd128::store(acc, k, v);
        }
    }

    #[inline(always)]
    fn sub(acc: &mut Accumulator, column: &Accumulator) {
        use std::arch::wasm32::i16x8_sub;
        for k in 0..HIDDEN / simd128::LANES {
            let v = i16x8_sub(simd128::load(acc, k), simd128::load(column, k));
            simd128::store(acc, k, v);
        }
    }

    #[inline(always)]
    fn sub_add(dst: &mut Accumulator, src: &Accumulator, off: &Accumulator, on: &Accumulator) {
        use std::arch::wasm32::{i16x8_add, i16x8_sub};
        for k in 0..HIDDEN / simd128::LANES {
            let v = i16x8_sub(simd128::load(src, k), simd128::load(off, k));
            simd128::store(dst, k, i16x8_add(v, simd128::load(on, k)));
        }
    }

    #[inline(always)]
    fn dot(acc: &Accumulator, w: &Accumulator) -> i32 {
        simd128::dot(acc, w)
    }

    #[inline(always)]
    fn apply<'a>(
        dst: &mut Accumulator,
        src: &Accumulator,
        off: impl IntoIterator<Item = &'a Accumulator>,
        on: impl IntoIterator<Item = &'a Accumulator>,
    ) {
        use std::arch::wasm32::{i16x8_add, i16x8_sub, v128};
        let mut v: [v128; HIDDEN / simd128::LANES] = std::array::from_fn(|k| simd128::load(src, k));
        for column in off {
            for (k, x) in v.iter_mut().enumerate() {
                *x = i16x8_sub(*x, simd128::load(column, k));
            }
        }
        for column in on {
            for (k, x) in v.iter_mut().enumerate() {
                *x = i16x8_add(*x, simd128::load(column, k));
            }
        }
        for (k, x) in v.into_iter().enumerate() {
            simd128::store(dst, k, x);
        }
    }

    #[inline(always)]
    fn dot_plus<'a>(
        acc: &Accumulator,
        extra: impl IntoIterator<Item = &'a Accumulator>,
        w: &Accumulator,
    ) -> i32 {
        simd128::dot_plus(acc, extra, w)
    }
}

/// Checks the build's baseline kernels (SIMD128 in a WebAssembly build
/// with `simd128`, else the portable loops themselves) against the
/// portable loops on `rounds` rounds of random accumulators, wrapping and
/// clipping at both ends: the first round where they differ, if any. Run
/// by the tests and, in a WebAssembly build, by its `selftest` export
/// under Node.
pub fn check_base_kernels(rounds: u32) -> Result<(), String> {
    same_integers::<Base>(rounds)
}

/// Kernels `K` against the portable loops on `rounds` rounds of random
/// accumulators, wrapping and clipping at both ends: the first round where
/// they differ, if any.
fn same_integers<K: Kernels>(rounds: u32) -> Result<(), String> {
    use splut_rules::splitmix64;
    let random = |seed: &mut u64, range: i16| {
        let mut a = Accumulator::ZERO;
        for x in a.iter_mut() {
            let r = (splitmix64(seed) % (2 * range as u64 + 1)) as i64;
            *x = (r - i64::from(range)) as i16;
        }
        a
    };
    let mut seed = 11;
    for round in 0..rounds {
        let (a, b, c) = (
            random(&mut seed, i16::MAX),
            random(&mut seed, i16::MAX),
            random(&mut seed, 600),
        );
        let (mut p, mut v) = (a, a);
        Plain::add(&mut p, &b);
        K::add(&mut v, &b);
        let mut same = p == v;
        Plain::sub(&mut p, &c);
        K::sub(&mut v, &c);
        same &= p == v;
        let (mut p2, mut v2) = (Accumulator::ZERO, Accumulator::ZERO);
        Plain::sub_add(&mut p2, &a, &b, &c);
        K::sub_add(&mut v2, &a, &b, &c);
        same &= p2 == v2;
        same &= Plain::dot(&c, &b) == K::dot(&c, &b) && Plain::dot(&a, &b) == K::dot(&a, &b);
        // Several columns off and on in one pass.
        let (mut p3, mut v3) = (Accumulator::ZERO, Accumulator::ZERO);
        Plain::apply(&mut p3, &a, [&b, &c], [&c, &a, &b]);
        K::apply(&mut v3, &a, [&b, &c], [&c, &a, &b]);
        let mut by_hand = a;
        for (column, on) in [(&b, false), (&c, false), (&c, true), (&a, true), (&b, true)] {
            if on {
                Plain::add(&mut by_hand, column);
            } else {
                Plain::sub(&mut by_hand, column);
            }
        }
        same &= p3 == by_hand && v3 == by_hand;
        // With extra columns: none, one, and three wrapping past the ends.
        for extra in [&[][..], &[&c][..], &[&b, &c, &a][..]] {
            let mut sum = a;
            for column in extra {
                Plain::add(&mut sum, column);
            }
            let columns = || extra.iter().copied();
            same &= K::dot_plus(&a, columns(), &c) == Plain::dot(&sum, &c);
            same &= K::dot_plus(&c, columns(), &b) == Plain::dot_plus(&c, columns(), &b);
        }
        if !same {
            return Err(format!(
                "round {round}: the kernels differ from the portable loops"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_baseline_kernels_give_the_plain_kernels_integers() {
        assert_eq!(check_base_kernels(100), Ok(()));
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx2_kernels_give_the_plain_kernels_integers() {
        if !super::super::accumulator::wide_vectors() {
            return;
        }
        assert_eq!(same_integers::<Avx2>(200), Ok(()));
    }
}
