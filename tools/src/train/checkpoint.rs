//! The checkpoint file: everything a run needs to go on exactly where it
//! stopped, at the end of an epoch (docs/formats.md, "Checkpoint").
//!
//! Little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 0–7 | `SPLUTCKP` |
//! | 8–11 | format version, 3 |
//! | 12–23 | inputs, hidden size, buckets (must match this build) |
//! | 24–31 | seed |
//! | 32–35 | epochs of the run |
//! | 36–39 | epochs done |
//! | 40–43 | batch size |
//! | 44–47 | 0 |
//! | 48–79 | learning rate, λ, validation fraction, sigmoid scale K (f64 each) |
//! | 80–87 | the training data's fingerprint |
//! | 88–95 | optimizer steps done |
//! | 96–103 | the random generator's state |
//! | 104–111 | λ of positions with 3–4 players in the game (f64; −1: not given) |
//! | 112–119 | λ of the seats' values where the data has them (f64; −1: not given) |
//! | then | the float parameters, Adam's first and second moments: 3 × [`SIZE`] f32, each in the layout of [`super::model::Params`] |
//! | last 8 | FNV-1a 64 of every byte before |

use super::model::{Params, SIZE};
use splut_engine::eval::nnue::features::{BUCKETS, INPUTS};
use splut_engine::eval::nnue::network::{HIDDEN, fnv1a};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"SPLUTCKP";

/// The format's version.
pub const VERSION: u32 = 3;

/// Bytes before the parameters.
const HEAD: usize = 120;

/// A checkpoint file's exact size.
pub const FILE_SIZE: usize = HEAD + 3 * 4 * SIZE + 8;

/// What fixes a run's result besides its data: a run is resumed only with
/// the same settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The seed (starting weights, shuffles).
    pub seed: u64,
    /// Epochs of the whole run (the learning rate schedule spans them).
    pub epochs: u32,
    /// Positions a mini-batch.
    pub batch: u32,
    /// Starting learning rate.
    pub lr: f64,
    /// Weight of the search score in the target.
    pub lambda: f64,
    /// Weight of the search score in the target of positions with 3–4
    /// players in the game, if given (`None`: the target of networks up
    /// to t6c, [`super::model::target`]).
    pub lambda_multi: Option<f64>,
    /// Weight of the search's value of each seat in that seat's target,
    /// where the data has the values (`None`: they are not used).
    pub lambda_values: Option<f64>,
    /// Fraction of the games kept for validation.
    pub validation: f64,
    /// The sigmoid's scale K (centi-units).
    pub scale: f64,
    /// Fingerprint of the training entries.
    pub data: u64,
}

/// The state of a run at the end of an epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The float network.
    pub params: Params,
    /// Adam's first moments.
    pub m: Vec<f32>,
    /// Adam's second moments.
    pub v: Vec<f32>,
    /// Optimizer steps done.
    pub step: u64,
    /// Epochs done.
    pub epoch: u32,
    /// The random generator's state (splitmix64).
    pub rng: u64,
}

impl State {
    /// The start of a run with `seed`: random weights
    /// ([`Params::init`]), Adam's moments 0.
    pub fn fresh(seed: u64) -> State {
        let mut rng = seed;
        let params = Params::init(&mut rng);
        State {
            params,
            m: vec![0.0; SIZE],
            v: vec![0.0; SIZE],
            step: 0,
            epoch: 0,
            rng,
        }
    }
}

/// The checkpoint's bytes.
pub fn to_bytes(s: &Settings, st: &State) -> Vec<u8> {
    let mut out = Vec::with_capacity(FILE_SIZE);
    out.extend_from_slice(MAGIC);
    for v in [VERSION, INPUTS as u32, HIDDEN as u32, BUCKETS as u32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&s.seed.to_le_bytes());
    for v in [s.epochs, st.epoch, s.batch, 0] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in [s.lr, s.lambda, s.validation, s.scale] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in [s.data, st.step, st.rng] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    // −1 stands for "not given".
    out.extend_from_slice(&s.lambda_multi.unwrap_or(-1.0).to_le_bytes());
    out.extend_from_slice(&s.lambda_values.unwrap_or(-1.0).to_le_bytes());
    for x in st.params.w.iter().chain(&st.m).chain(&st.v) {
        out.extend_from_slice(&x.to_le_bytes());
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads a checkpoint, naming what is wrong with a bad one.
pub fn from_bytes(b: &[u8]) -> Result<(Settings, State), String> {
    if b.len() < 8 || &b[..8] != MAGIC {
        return Err("not a splut training checkpoint (no SPLUTCKP header)".into());
    }
    if b.len() < HEAD {
        return Err(format!("checkpoint truncated: {} bytes", b.len()));
    }
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default());
    let f64_at = |i: usize| f64::from_bits(u64_at(i));
    if u32_at(8) != VERSION {
        return Err(format!(
            "checkpoint format version {}, this build reads {VERSION}",
            u32_at(8)
        ));
    }
    let arch = (u32_at(12), u32_at(16), u32_at(20));
    if arch != (INPUTS as u32, HIDDEN as u32, BUCKETS as u32) {
        return Err(format!(
            "checkpoint of a {}x{}x{} network, this build has {INPUTS}x{HIDDEN}x{BUCKETS}",
            arch.0, arch.1, arch.2
        ));
    }
    if b.len() != FILE_SIZE {
        return Err(format!(
            "checkpoint is {} bytes, expected {FILE_SIZE} (truncated or damaged)",
            b.len()
        ));
    }
    if fnv1a(&b[..FILE_SIZE - 8]) != u64_at(FILE_SIZE - 8) {
        return Err("checkpoint damaged (checksum mismatch)".into());
    }
    let settings = Settings {
        seed: u64_at(24),
        epochs: u32_at(32),
        batch: u32_at(40),
        lr: f64_at(48),
        lambda: f64_at(56),
        lambda_multi: Some(f64_at(104)).filter(|&x| x >= 0.0),
        lambda_values: Some(f64_at(112)).filter(|&x| x >= 0.0),
        validation: f64_at(64),
        scale: f64_at(72),
        data: u64_at(80),
    };
    let floats = |k: usize| -> Vec<f32> {
        let at = HEAD + 4 * SIZE * k;
        b[at..at + 4 * SIZE]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let state = State {
        params: Params { w: floats(0) },
        m: floats(1),
        v: floats(2),
        step: u64_at(88),
        epoch: u32_at(36),
        rng: u64_at(96),
    };
    if state.epoch > settings.epochs || settings.batch == 0 {
        return Err("checkpoint inconsistent (epochs done beyond the run, or batch 0)".into());
    }
    Ok((settings, state))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_round_trip_and_bad_ones_are_named() {
        let mut rng = 3;
        let params = Params::init(&mut rng);
        let st = State {
            m: params.w.iter().map(|x| x * 0.5).collect(),
            v: params.w.iter().map(|x| x * x).collect(),
            params,
            step: 17,
            epoch: 2,
            rng,
        };
        let s = Settings {
            seed: 9,
            epochs: 5,
            batch: 1024,
            lr: 0.001,
            lambda: 0.5,
            lambda_multi: Some(0.25),
            lambda_values: Some(0.75),
            validation: 0.05,
            scale: 412.5,
            data: 0xabcdef,
        };
        let b = to_bytes(&s, &st);
        assert_eq!(b.len(), FILE_SIZE);
        assert_eq!(from_bytes(&b).unwrap(), (s, st));
        let err = |x: &[u8]| from_bytes(x).unwrap_err();
        assert!(err(b"nope").contains("not a splut training checkpoint"));
        assert!(err(&b[..FILE_SIZE - 3]).contains("truncated"));
        let mut bad = b.clone();
        bad[5000] ^= 4;
        assert!(err(&bad).contains("checksum"));
        let mut v = b;
        v[8] = 7;
        assert!(err(&v).contains("version 7"));
    }
}
