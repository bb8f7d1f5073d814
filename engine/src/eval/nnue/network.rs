//! The quantised network and its file.
//!
//! One hidden layer shared by every seat: a seat's accumulator is
//! `bias + Σ column(input)` over its view's active inputs
//! ([`super::features`]), clipped to 0..=[`QA`] (CReLU), and its value is
//! the dot product with the output weights of its bucket plus that
//! bucket's bias, divided by `QA × QB`: the logit of the seat's expected
//! result (place points, 1 = first). [`Network::scale`] turns a logit into
//! evaluation units.
//!
//! The file (little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 0–7 | `SPLUTNET` |
//! | 8–11 | format version: 2 (1 is still read: a network without the threat inputs, whose columns are then zero) |
//! | 12–23 | inputs, hidden size, buckets (must match this build; a version-1 file has 533 inputs) |
//! | 24–27 | scale: evaluation units per logit |
//! | then | i16 input weights, input-major (`INPUTS × HIDDEN`); i16 hidden biases (`HIDDEN`); i16 output weights, bucket-major (`BUCKETS × HIDDEN`); i32 output biases (`BUCKETS`) |
//! | last 8 | FNV-1a 64 of every byte before |

use super::features::{BOARD_INPUTS, BUCKETS, INPUTS, THREAT_BASE};
pub use super::hidden::{Accumulator, HIDDEN, QA};
use super::kernels::{Base, Kernels};

/// The output weights' quantisation: round(w × QB).
pub const QB: i32 = 64;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"SPLUTNET";

/// The file format's version.
pub const VERSION: u32 = 2;

/// The exact size of a network file with `inputs` inputs.
pub const fn file_size(inputs: usize) -> usize {
    28 + 2 * (inputs * HIDDEN + HIDDEN + BUCKETS * HIDDEN) + 4 * BUCKETS + 8
}

/// A network file's exact size (this version's).
pub const FILE_SIZE: usize = file_size(INPUTS);

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Input weights, `INPUTS` columns of `HIDDEN`.
    pub input_weights: Vec<Accumulator>,
    /// Hidden biases.
    pub hidden_bias: Accumulator,
    /// Output weights, one row of `HIDDEN` per bucket.
    pub output_weights: Vec<Accumulator>,
    /// Output biases (scaled by `QA × QB`).
    pub output_bias: Vec<i32>,
    /// Evaluation units per logit.
    pub scale: i32,
    /// Whether any threat input's column is non-zero: if not, the
    /// evaluation skips finding the threats. Set by the constructors;
    /// [`Network::note_threats`] after editing weights.
    pub threats: bool,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({INPUTS}x{HIDDEN}x{BUCKETS}, scale {})",
            self.scale
        )
    }
}

/// What is wrong with a network file ([`Network::from_bytes`]), in the
/// order it is checked. Its [`Display`](std::fmt::Display) is the message
/// the protocol shows, e.g. `network file damaged (checksum mismatch)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The bytes do not begin with [`MAGIC`].
    NotANetwork,
    /// Shorter than the 28 bytes of the header.
    HeaderTruncated {
        /// The file's size, bytes.
        len: usize,
    },
    /// A format version other than 1 and [`VERSION`].
    Version {
        /// The version the file gives.
        version: u32,
    },
    /// Inputs, hidden size or buckets other than this build's for the
    /// file's version.
    Architecture {
        /// The file's format version.
        version: u32,
        /// The file's inputs, hidden size and buckets.
        found: [u32; 3],
        /// This build's, for that version.
        want: [u32; 3],
    },
    /// A size other than its architecture's (shorter: truncated).
    Size {
        /// The file's size, bytes.
        len: usize,
        /// The network's inputs (by the file's version).
        inputs: usize,
        /// The size a network of that many inputs takes, bytes.
        want: usize,
    },
    /// The bytes do not sum to the checksum that ends the file.
    Checksum,
    /// A scale outside 1..=100000.
    Scale {
        /// The scale the file gives.
        scale: i32,
    },
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetworkError::NotANetwork => {
                write!(f, "not a Splut! network file (no SPLUTNET header)")
            }
            NetworkError::HeaderTruncated { len } => {
                write!(f, "network file truncated: {len} bytes")
            }
            NetworkError::Version { version } => write!(
                f,
                "network file format version {version}, this build reads 1 and {VERSION}"
            ),
            NetworkError::Architecture {
                version,
                found: [fi, fh, fb],
                want: [wi, wh, wb],
            } => write!(
                f,
                "network architecture {fi}x{fh}x{fb} (inputs x hidden x buckets), this build has {wi}x{wh}x{wb} for version {version}"
            ),
            NetworkError::Size { len, inputs, want } => write!(
                f,
                "network file is {len} bytes, a {inputs}x{HIDDEN}x{BUCKETS} network takes {want}{}",
                if len < want { " (truncated)" } else { "" }
            ),
            NetworkError::Checksum => write!(f, "network file damaged (checksum mismatch)"),
            NetworkError::Scale { scale } => {
                write!(f, "network scale {scale} out of range 1..=100000")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// FNV-1a, 64 bits: enough to tell a damaged file from a sound one.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Network {
    /// A network of zeros with `scale` (for builders and tests).
    pub fn zeroed(scale: i32) -> Network {
        Network {
            input_weights: vec![Accumulator::ZERO; INPUTS],
            hidden_bias: Accumulator::ZERO,
            output_weights: vec![Accumulator::ZERO; BUCKETS],
            output_bias: vec![0; BUCKETS],
            scale,
            threats: false,
        }
    }

    /// Sets [`Network::threats`] from the weights.
    pub fn note_threats(&mut self) {
        self.threats = self.input_weights[THREAT_BASE..]
            .iter()
            .any(|col| col.iter().any(|&w| w != 0));
    }

    /// Small deterministic pseudo-random weights from `seed`: inputs in
    /// -8..=8, output weights in -4..=4 (a network for tests whose every
    /// weight matters).
    pub fn pseudo_random(seed: u64, scale: i32) -> Network {
        let mut state = seed;
        let mut next = |range: i16| {
            let r = splut_rules::splitmix64(&mut state);
            (r % (2 * range as u64 + 1)) as i16 - range
        };
        let mut n = Network::zeroed(scale);
        for col in n.input_weights.iter_mut() {
            col.iter_mut().for_each(|w| *w = next(8));
        }
        n.hidden_bias.iter_mut().for_each(|w| *w = 32 + next(16));
        for row in n.output_weights.iter_mut() {
            row.iter_mut().for_each(|w| *w = next(4));
        }
        n.note_threats();
        n
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.file_bytes(VERSION, INPUTS)
    }

    /// The bytes of a file of `version` holding the first `inputs` input
    /// columns (an older version has fewer).
    fn file_bytes(&self, version: u32, inputs: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_size(inputs));
        out.extend_from_slice(MAGIC);
        for v in [version, inputs as u32, HIDDEN as u32, BUCKETS as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        let rows = self.input_weights[..inputs]
            .iter()
            .chain([&self.hidden_bias]);
        for row in rows.chain(self.output_weights.iter()) {
            for w in row.iter() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The checksum its file ends with: a short name for the network.
    pub fn checksum(&self) -> u64 {
        let bytes = self.to_bytes();
        u64::from_le_bytes(bytes[FILE_SIZE - 8..].try_into().unwrap_or([0; 8]))
    }

    /// Reads a network file, naming what is wrong with a bad one
    /// ([`NetworkError`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        if bytes.len() < 28 {
            return Err(NetworkError::HeaderTruncated { len: bytes.len() });
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
        let version = u32_at(8);
        // Version 1 had no threat inputs.
        let inputs = match version {
            1 => BOARD_INPUTS,
            VERSION => INPUTS,
            _ => return Err(NetworkError::Version { version }),
        };
        let found = [u32_at(12), u32_at(16), u32_at(20)];
        let want = [inputs as u32, HIDDEN as u32, BUCKETS as u32];
        if found != want {
            return Err(NetworkError::Architecture {
                version,
                found,
                want,
            });
        }
        let size = file_size(inputs);
        if bytes.len() != size {
            return Err(NetworkError::Size {
                len: bytes.len(),
                inputs,
                want: size,
            });
        }
        let body = &bytes[..size - 8];
        let sum = u64::from_le_bytes(bytes[size - 8..].try_into().unwrap());
        if fnv1a(body) != sum {
            return Err(NetworkError::Checksum);
        }
        let scale = u32_at(24) as i32;
        if !(1..=100_000).contains(&scale) {
            return Err(NetworkError::Scale { scale });
        }
        let mut at = 28;
        let mut row = || {
            let mut r = Accumulator::ZERO;
            for w in r.iter_mut() {
                *w = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
                at += 2;
            }
            r
        };
        let mut input_weights: Vec<Accumulator> = (0..inputs).map(|_| row()).collect();
        let hidden_bias = row();
        let output_weights = (0..BUCKETS).map(|_| row()).collect();
        input_weights.resize(INPUTS, Accumulator::ZERO);
        let output_bias = (0..BUCKETS)
            .map(|i| {
                let j = size - 8 - 4 * BUCKETS + 4 * i;
                i32::from_le_bytes(bytes[j..j + 4].try_into().unwrap())
            })
            .collect();
        let mut n = Network {
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
            scale,
            threats: false,
        };
        n.note_threats();
        Ok(n)
    }

    /// The accumulator of a view whose active inputs are `inputs`, from
    /// scratch.
    pub fn refresh(&self, inputs: &[usize]) -> Accumulator {
        let mut acc = self.hidden_bias;
        for &i in inputs {
            Base::add(&mut acc, &self.input_weights[i]);
        }
        acc
    }

    /// The raw output for `acc` in `bucket`: the logit × `QA × QB`.
    #[inline(always)]
    pub fn output(&self, acc: &Accumulator, bucket: usize) -> i32 {
        self.output_with::<Base>(acc, bucket)
    }

    /// [`Network::output`] with the kernels `K`.
    #[inline(always)]
    pub(super) fn output_with<K: Kernels>(&self, acc: &Accumulator, bucket: usize) -> i32 {
        K::dot(acc, &self.output_weights[bucket]) + self.output_bias[bucket]
    }

    /// [`Network::output`] in evaluation units.
    #[inline(always)]
    pub fn value(&self, acc: &Accumulator, bucket: usize) -> i32 {
        self.value_with::<Base>(acc, bucket)
    }

    /// [`Network::value`] with the kernels `K`.
    #[inline(always)]
    pub(super) fn value_with<K: Kernels>(&self, acc: &Accumulator, bucket: usize) -> i32 {
        let out = self.output_with::<K>(acc, bucket);
        self.units(out)
    }

    /// [`Network::value_with`] of `acc` with the columns `extra` added
    /// (wrapping), which are not written anywhere.
    #[inline(always)]
    pub(super) fn value_plus_with<'a, K: Kernels>(
        &self,
        acc: &Accumulator,
        extra: impl IntoIterator<Item = &'a Accumulator>,
        bucket: usize,
    ) -> i32 {
        let out = K::dot_plus(acc, extra, &self.output_weights[bucket]) + self.output_bias[bucket];
        self.units(out)
    }

    /// A raw output in evaluation units.
    #[inline(always)]
    fn units(&self, out: i32) -> i32 {
        (i64::from(out) * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Network {
        let mut n = Network::zeroed(300);
        for (i, col) in n.input_weights.iter_mut().enumerate() {
            for (j, w) in col.iter_mut().enumerate() {
                *w = ((i * 31 + j * 7) % 97) as i16 - 48;
            }
        }
        n.hidden_bias[3] = 17;
        n.output_weights[5][9] = -12;
        n.output_bias[7] = 1234;
        n.note_threats();
        n
    }

    #[test]
    fn a_version_1_file_is_read_with_zero_threat_columns() {
        let mut n = sample();
        // As version 1 wrote it: the same without threat columns.
        let v1 = n.file_bytes(1, BOARD_INPUTS);
        assert_eq!(v1.len(), file_size(BOARD_INPUTS));
        let read = Network::from_bytes(&v1).unwrap();
        assert!(n.threats && !read.threats);
        n.input_weights[THREAT_BASE..].fill(Accumulator::ZERO);
        n.note_threats();
        assert_eq!(read, n);
        // A version-1 header over a version-2 body is refused.
        let mut mixed = sample().to_bytes();
        mixed[8] = 1;
        assert!(
            Network::from_bytes(&mixed)
                .unwrap_err()
                .to_string()
                .contains("architecture")
        );
    }

    #[test]
    fn the_file_round_trips_and_has_its_size() {
        let n = sample();
        let bytes = n.to_bytes();
        assert_eq!(bytes.len(), FILE_SIZE);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), n);
    }

    #[test]
    fn bad_files_are_refused_by_name() {
        let bytes = sample().to_bytes();
        let err = |b: &[u8]| Network::from_bytes(b).unwrap_err().to_string();
        assert!(err(b"hello").contains("not a Splut! network"));
        assert!(err(&bytes[..FILE_SIZE - 1]).contains("truncated"));
        let mut flipped = bytes.clone();
        flipped[1000] ^= 1;
        assert!(err(&flipped).contains("checksum"));
        let mut other = bytes.clone();
        other[16..20].copy_from_slice(&256u32.to_le_bytes());
        assert!(err(&other).contains("architecture"));
        let mut version = bytes;
        version[8] = 9;
        assert!(err(&version).contains("version 9"));
    }

    /// Each [`NetworkError`] from a real damaged file, and its message.
    #[test]
    fn each_network_error_and_its_message() {
        let good = sample().to_bytes();
        let with = |at: usize, v: u32| {
            let mut b = good.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            b
        };
        // A file whose checksum is right again after an edit of the body.
        let resummed = |mut b: Vec<u8>| {
            let n = b.len();
            let sum = fnv1a(&b[..n - 8]);
            b[n - 8..].copy_from_slice(&sum.to_le_bytes());
            b
        };
        let mut flipped = good.clone();
        flipped[1000] ^= 1;
        let mut longer = good.clone();
        longer.push(0);
        let cases: Vec<(Vec<u8>, NetworkError, String)> = vec![
            (
                b"hello".to_vec(),
                NetworkError::NotANetwork,
                "not a Splut! network file (no SPLUTNET header)".into(),
            ),
            (
                Vec::new(),
                NetworkError::NotANetwork,
                "not a Splut! network file (no SPLUTNET header)".into(),
            ),
            (
                good[..20].to_vec(),
                NetworkError::HeaderTruncated { len: 20 },
                "network file truncated: 20 bytes".into(),
            ),
            (
                with(8, 9),
                NetworkError::Version { version: 9 },
                "network file format version 9, this build reads 1 and 2".into(),
            ),
            (
                with(16, 256),
                NetworkError::Architecture {
                    version: 2,
                    found: [INPUTS as u32, 256, BUCKETS as u32],
                    want: [INPUTS as u32, HIDDEN as u32, BUCKETS as u32],
                },
                format!(
                    "network architecture {INPUTS}x256x{BUCKETS} (inputs x hidden x buckets), this build has {INPUTS}x{HIDDEN}x{BUCKETS} for version 2"
                ),
            ),
            (
                good[..FILE_SIZE - 1].to_vec(),
                NetworkError::Size {
                    len: FILE_SIZE - 1,
                    inputs: INPUTS,
                    want: FILE_SIZE,
                },
                format!(
                    "network file is {} bytes, a {INPUTS}x{HIDDEN}x{BUCKETS} network takes {FILE_SIZE} (truncated)",
                    FILE_SIZE - 1
                ),
            ),
            (
                longer,
                NetworkError::Size {
                    len: FILE_SIZE + 1,
                    inputs: INPUTS,
                    want: FILE_SIZE,
                },
                format!(
                    "network file is {} bytes, a {INPUTS}x{HIDDEN}x{BUCKETS} network takes {FILE_SIZE}",
                    FILE_SIZE + 1
                ),
            ),
            (
                flipped,
                NetworkError::Checksum,
                "network file damaged (checksum mismatch)".into(),
            ),
            (
                resummed(with(24, 0)),
                NetworkError::Scale { scale: 0 },
                "network scale 0 out of range 1..=100000".into(),
            ),
        ];
        for (bytes, error, says) in cases {
            let got = Network::from_bytes(&bytes).unwrap_err();
            assert_eq!(got, error);
            assert_eq!(got.to_string(), says);
        }
    }
}
