//! The hidden layer's shape, which the network's file and the kernels
//! that add its columns share: its width, its quantisation, and an
//! accumulator (one seat's, or a row of weights). Here, not in the
//! network, so the kernels need nothing of the network and the network
//! only calls the kernels.

/// Hidden layer size.
pub const HIDDEN: usize = 128;

/// The accumulator's quantisation: a float weight w is stored as
/// round(w × QA); the clipped activation's top is QA.
pub const QA: i32 = 255;

/// One seat's accumulator, and a row of the network's weights: `HIDDEN`
/// i16s, 32-byte aligned. Where the compiler knows the alignment, AVX2
/// moves whole registers; at the default tuning it splits every unaligned
/// 32-byte load and store in two.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(32))]
pub struct Accumulator(pub [i16; HIDDEN]);

impl Accumulator {
    /// All zeros.
    pub const ZERO: Accumulator = Accumulator([0; HIDDEN]);
}

impl std::ops::Deref for Accumulator {
    type Target = [i16; HIDDEN];
    #[inline(always)]
    fn deref(&self) -> &[i16; HIDDEN] {
        &self.0
    }
}

impl std::ops::DerefMut for Accumulator {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [i16; HIDDEN] {
        &mut self.0
    }
}
