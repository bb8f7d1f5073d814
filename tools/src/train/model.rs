//! The float network the trainer fits, its gradient over a chunk of
//! positions, and its quantisation into [`Network`].
//!
//! Per position and seat in the game (a view): hidden =
//! clamp(b1 + Σ W1\[input\] over the view's active inputs, 0, 1); logit =
//! W2\[bucket\]·hidden + b2\[bucket\]; prediction sigmoid(logit), against
//! the target of [`target`]. The loss is the mean squared error over views.

use super::data::{Entry, InputTable, PROVEN};
use splut_engine::eval::nnue::features::{BUCKETS, INPUTS, MAX_ACTIVE};
use splut_engine::eval::nnue::network::{HIDDEN, Network, QA, QB};
use splut_rules::splitmix64;

/// Largest |W1| and |b1|: 17 terms of at most 1.98 × [`QA`] sum to 8,585,
/// far inside i16, so no accumulator can overflow (bullet's usual clip).
pub const CLIP_HIDDEN: f32 = 1.98;

/// Largest |W2|: round(w × [`QB`]) stays in i16.
pub const CLIP_OUTPUT: f32 = 32767.0 / QB as f32;

/// Offsets of the parameter blocks in [`Params::w`].
pub const W1: usize = 0;
/// Hidden biases.
pub const B1: usize = INPUTS * HIDDEN;
/// Output weights, bucket-major.
pub const W2: usize = B1 + HIDDEN;
/// Output biases.
pub const B2: usize = W2 + BUCKETS * HIDDEN;
/// Number of parameters.
pub const SIZE: usize = B2 + BUCKETS;

/// The float network: all parameters in one vector (W1 input-major, b1,
/// W2 bucket-major, b2), the layout [`Network`] has.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// The parameters, [`SIZE`] of them.
    pub w: Vec<f32>,
}

/// A number in [-1, 1) from the generator.
fn uniform(st: &mut u64) -> f32 {
    ((splitmix64(st) >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}

impl Params {
    /// Random starting weights from `rng`: W1 uniform in ±0.25 (16 active
    /// inputs give a pre-activation spread of about 0.6 around b1 = 0.5,
    /// so most hidden units start in the linear part), W2 in ±1/√HIDDEN,
    /// biases b2 0.
    pub fn init(rng: &mut u64) -> Params {
        let mut w = vec![0.0f32; SIZE];
        for x in &mut w[W1..B1] {
            *x = 0.25 * uniform(rng);
        }
        w[B1..W2].fill(0.5);
        let a = 1.0 / (HIDDEN as f32).sqrt();
        for x in &mut w[W2..B2] {
            *x = a * uniform(rng);
        }
        Params { w }
    }

    /// Clips the weights to what quantisation holds.
    pub fn clip(&mut self) {
        for x in &mut self.w[W1..W2] {
            *x = x.clamp(-CLIP_HIDDEN, CLIP_HIDDEN);
        }
        for x in &mut self.w[W2..B2] {
            *x = x.clamp(-CLIP_OUTPUT, CLIP_OUTPUT);
        }
    }

    /// The hidden pre-activations of a view with `inputs` active.
    #[inline]
    fn hidden(&self, inputs: &[u16]) -> [f32; HIDDEN] {
        let mut h = [0.0f32; HIDDEN];
        h.copy_from_slice(&self.w[B1..W2]);
        for &i in inputs {
            let col = &self.w[W1 + usize::from(i) * HIDDEN..][..HIDDEN];
            for (a, c) in h.iter_mut().zip(col) {
                *a += c;
            }
        }
        h
    }

    /// The logit of a view with `inputs` active, in `bucket`.
    pub fn logit(&self, inputs: &[u16], bucket: usize) -> f32 {
        self.output(&self.hidden(inputs), bucket)
    }

    /// The logit from the hidden layer's values before clipping (`pre`),
    /// in `bucket`: the bias, then each clipped value times its weight,
    /// added in order (the gradient's forward pass is this one).
    pub fn output(&self, pre: &[f32], bucket: usize) -> f32 {
        let w2 = &self.w[W2 + bucket * HIDDEN..][..HIDDEN];
        let mut logit = self.w[B2 + bucket];
        for (x, w) in pre.iter().zip(w2) {
            logit += x.clamp(0.0, 1.0) * w;
        }
        logit
    }

    /// The float weights of a quantised network (exactly its values, so
    /// training goes on from what it plays).
    pub fn from_network(n: &Network) -> Params {
        let mut w = vec![0.0f32; SIZE];
        for (i, col) in n.input_weights.iter().enumerate() {
            for (j, &q) in col.iter().enumerate() {
                w[W1 + i * HIDDEN + j] = f32::from(q) / QA as f32;
            }
        }
        for (j, &q) in n.hidden_bias.iter().enumerate() {
            w[B1 + j] = f32::from(q) / QA as f32;
        }
        for (b, row) in n.output_weights.iter().enumerate() {
            for (j, &q) in row.iter().enumerate() {
                w[W2 + b * HIDDEN + j] = f32::from(q) / QB as f32;
            }
        }
        for (b, &q) in n.output_bias.iter().enumerate() {
            w[B2 + b] = (f64::from(q) / f64::from(QA * QB)) as f32;
        }
        Params { w }
    }

    /// The quantised network, with `scale` evaluation units per logit.
    pub fn quantise(&self, scale: i32) -> Network {
        let q16 = |x: f32, by: i32| (x * by as f32).round().clamp(-32767.0, 32767.0) as i16;
        let mut n = Network::zeroed(scale);
        for (i, col) in n.input_weights.iter_mut().enumerate() {
            for (j, q) in col.iter_mut().enumerate() {
                *q = q16(self.w[W1 + i * HIDDEN + j], QA);
            }
        }
        for (j, q) in n.hidden_bias.iter_mut().enumerate() {
            *q = q16(self.w[B1 + j], QA);
        }
        for (b, row) in n.output_weights.iter_mut().enumerate() {
            for (j, q) in row.iter_mut().enumerate() {
                *q = q16(self.w[W2 + b * HIDDEN + j], QB);
            }
        }
        for (b, q) in n.output_bias.iter_mut().enumerate() {
            *q = (f64::from(self.w[B2 + b]) * f64::from(QA * QB)).round() as i32;
        }
        n.note_threats();
        n
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the trainer aims at: `lambda` of the search score's probability
/// and the rest of the game's result, per seat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Targets {
    /// Weight of the search score (0–1).
    pub lambda: f32,
    /// Weight of the search score (0–1) with 3–4 players in the game, if
    /// given: then every seat's target takes the search into account.
    pub lambda_multi: Option<f32>,
    /// Weight (0–1) of the search's value of each seat in its own target,
    /// for positions whose data has the values: then every seat, in every
    /// count of players, learns from what the search expected of it.
    pub lambda_values: Option<f32>,
    /// The sigmoid's scale: the side to move's probability is
    /// sigmoid(cp / scale).
    pub scale: f32,
}

/// Seat `seat`'s target in `e`: t = λ·p + (1−λ)·r, r its place points, p
/// its share of the search score: sigmoid(cp/K) for the side to move (win
/// 1, loss 0), 1 − that for its opponent with 2 players.
///
/// With 3–4 players the search sets the side to move against all the
/// others and says nothing about which of them does better. Given
/// `lambda_multi`, the others share evenly what the side to move's p
/// leaves of the places still to be had (their results' sum), and λ is
/// `lambda_multi`: the seats' targets add up to what they score together.
/// Not given, the side to move has λ and the others r alone (the target
/// of the networks up to t6c).
///
/// Given `lambda_values` and a position whose data has the seats' values
/// (the search's expectation for each seat, [`Entry::value`]), every
/// seat's target is `lambda_values` of its own value and the rest its
/// result, whatever the count of players.
#[inline]
pub fn target(e: &Entry, seat: usize, r: f32, t: Targets) -> f32 {
    if let (Some(lambda), Some(v)) = (t.lambda_values, e.value(seat)) {
        return lambda * v + (1.0 - lambda) * r;
    }
    let p_stm = if e.score >= PROVEN {
        1.0
    } else if e.score <= -PROVEN {
        0.0
    } else {
        sigmoid(e.score as f32 / t.scale)
    };
    let mover = seat == usize::from(e.stm);
    let (lambda, p) = if e.players == 2 {
        (t.lambda, if mover { p_stm } else { 1.0 - p_stm })
    } else {
        match t.lambda_multi {
            None if mover => (t.lambda, p_stm),
            None => return r,
            Some(lambda) if mover => (lambda, p_stm),
            Some(lambda) => (lambda, rest_shared(e, p_stm)),
        }
    };
    lambda * p + (1.0 - lambda) * r
}

/// What each seat other than the side to move gets of the places still to
/// be had (the in-game seats' results' sum) once the side to move has
/// `p_stm` of them, shared evenly.
fn rest_shared(e: &Entry, p_stm: f32) -> f32 {
    let (mut left, mut seats) = (0.0f32, 0.0f32);
    for s in 0..4 {
        if let Some(x) = e.result(s) {
            left += x;
            seats += 1.0;
        }
    }
    ((left - p_stm) / (seats - 1.0).max(1.0)).clamp(0.0, 1.0)
}

/// The squared error summed over a chunk's views, and the views.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ChunkLoss {
    /// Σ (prediction − target)² over views.
    pub sum: f64,
    /// Views.
    pub views: usize,
}

/// Adds the gradient of the squared error summed over the views of
/// `entries` to `grad` (zeroed by the caller), in entry order; returns
/// the chunk's loss.
pub fn gradient(
    p: &Params,
    table: &InputTable,
    entries: &[Entry],
    t: Targets,
    grad: &mut [f32],
) -> ChunkLoss {
    let mut loss = ChunkLoss::default();
    let mut inputs = [0u16; MAX_ACTIVE];
    for e in entries {
        for seat in 0..4 {
            let Some(r) = e.result(seat) else { continue };
            let n = table.active(e, seat, &mut inputs);
            let bucket = usize::from(e.bucket[seat]);
            let pre = p.hidden(&inputs[..n]);
            let w2 = &p.w[W2 + bucket * HIDDEN..][..HIDDEN];
            let y = sigmoid(p.output(&pre, bucket));
            let err = y - target(e, seat, r, t);
            loss.sum += f64::from(err * err);
            loss.views += 1;
            let g = 2.0 * err * y * (1.0 - y);
            let mut dh = [0.0f32; HIDDEN];
            {
                let gw2 = &mut grad[W2 + bucket * HIDDEN..][..HIDDEN];
                for j in 0..HIDDEN {
                    let x = pre[j];
                    gw2[j] += g * x.clamp(0.0, 1.0);
                    if x > 0.0 && x < 1.0 {
                        dh[j] = g * w2[j];
                    }
                }
            }
            grad[B2 + bucket] += g;
            for &i in inputs[..n].iter().chain(std::iter::once(&u16::MAX)) {
                // u16::MAX stands for the bias, a column of its own.
                let at = if i == u16::MAX {
                    B1
                } else {
                    W1 + usize::from(i) * HIDDEN
                };
                for (gw, d) in grad[at..at + HIDDEN].iter_mut().zip(&dh) {
                    *gw += d;
                }
            }
        }
    }
    loss
}

/// The loss summed over the views of `entries`, without a gradient.
pub fn chunk_loss(p: &Params, table: &InputTable, entries: &[Entry], t: Targets) -> ChunkLoss {
    let mut loss = ChunkLoss::default();
    let mut inputs = [0u16; MAX_ACTIVE];
    for e in entries {
        for seat in 0..4 {
            let Some(r) = e.result(seat) else { continue };
            let n = table.active(e, seat, &mut inputs);
            let y = sigmoid(p.logit(&inputs[..n], usize::from(e.bucket[seat])));
            let err = y - target(e, seat, r, t);
            loss.sum += f64::from(err * err);
            loss.views += 1;
        }
    }
    loss
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::data::NONE;

    fn entry() -> Entry {
        Entry {
            squares: [
                0, 1, 2, NONE, NONE, NONE, 20, 21, 22, NONE, NONE, NONE, 10, 30, NONE, NONE,
            ],
            bucket: [3, NONE, 5, NONE],
            result: [12, NONE, 0, NONE],
            score: 100,
            stm: 0,
            players: 2,
            pad: [0; 2],
            threats: 0,
            values: [NONE; 4],
        }
    }

    #[test]
    fn targets_mix_score_and_result() {
        let e = entry();
        let t = Targets {
            lambda: 0.5,
            lambda_multi: None,
            lambda_values: None,
            scale: 100.0,
        };
        let p = sigmoid(1.0);
        assert!((target(&e, 0, 1.0, t) - (0.5 * p + 0.5)).abs() < 1e-6);
        assert!((target(&e, 2, 0.0, t) - 0.5 * (1.0 - p)).abs() < 1e-6);
        let won = Entry { score: PROVEN, ..e };
        assert_eq!(target(&won, 0, 1.0, t), 1.0);
        assert_eq!(target(&won, 2, 0.0, t), 0.0);
        // Four seats in the game with 1, 2/3, 1/3 and 0 to share: the side
        // to move (seat 0) at p leaves (2 − p)/3 to each other seat.
        let four = Entry {
            players: 4,
            result: [12, 8, 0, 4],
            ..e
        };
        let t4 = Targets {
            lambda_multi: Some(0.25),
            ..t
        };
        assert!((target(&four, 0, 1.0, t4) - (0.25 * p + 0.75)).abs() < 1e-6);
        let other = (2.0 - p) / 3.0;
        assert!((target(&four, 2, 0.0, t4) - 0.25 * other).abs() < 1e-6);
        let sum: f32 = (0..4)
            .map(|s| target(&four, s, four.result(s).unwrap(), t4))
            .sum();
        assert!((sum - 2.0).abs() < 1e-5, "{sum}");
        let results_only = Targets {
            lambda_multi: Some(0.0),
            ..t
        };
        assert_eq!(target(&four, 2, 0.0, results_only), 0.0);
        assert_eq!(target(&four, 0, 1.0, results_only), 1.0);
        // Not given: the mover has λ, the others their result alone.
        let old = Targets {
            lambda_multi: None,
            ..t
        };
        assert!((target(&four, 0, 1.0, old) - (0.5 * p + 0.5)).abs() < 1e-6);
        assert_eq!(target(&four, 2, 0.0, old), 0.0);
        assert_eq!(target(&four, 3, 1.0 / 3.0, old), 1.0 / 3.0);
        // With the seats' values every seat learns its own value, the
        // others' never (open_spiel PR #1396's trap: a seat trained on
        // another's return).
        let valued = Entry {
            values: [200, 50, 25, 100],
            ..four
        };
        let tv = Targets {
            lambda_values: Some(0.8),
            ..t4
        };
        for (seat, v) in [(0, 0.8), (1, 0.2), (2, 0.1), (3, 0.4)] {
            let r = valued.result(seat).unwrap();
            let got = target(&valued, seat, r, tv);
            assert!((got - (0.8 * v + 0.2 * r)).abs() < 1e-6, "{seat}: {got}");
        }
        // A position without values keeps the other targets.
        assert_eq!(target(&four, 2, 0.0, tv), target(&four, 2, 0.0, t4));
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let table = InputTable::new();
        let mut rng = 5;
        let p = Params::init(&mut rng);
        let t = Targets {
            lambda: 0.3,
            lambda_multi: Some(0.3),
            lambda_values: None,
            scale: 200.0,
        };
        let es = [entry()];
        let mut grad = vec![0.0; SIZE];
        gradient(&p, &table, &es, t, &mut grad);
        let mut inputs = [0u16; MAX_ACTIVE];
        let n = table.active(&es[0], 0, &mut inputs);
        let probe = [
            W1 + usize::from(inputs[0]) * HIDDEN + 3,
            B1 + 7,
            W2 + 3 * HIDDEN + 11,
            B2 + 5,
        ];
        assert!(n > 0);
        for k in probe {
            let h = 1e-2f32;
            let (mut a, mut b) = (p.clone(), p.clone());
            a.w[k] += h;
            b.w[k] -= h;
            let num = (chunk_loss(&a, &table, &es, t).sum - chunk_loss(&b, &table, &es, t).sum)
                / f64::from(2.0 * h);
            assert!(
                (num - f64::from(grad[k])).abs() < 1e-3 + 1e-2 * num.abs(),
                "{k}: {num} vs {}",
                grad[k]
            );
        }
    }

    #[test]
    fn quantised_outputs_match_the_float_ones() {
        let table = InputTable::new();
        let mut rng = 9;
        let p = Params::init(&mut rng);
        let n = p.quantise(100);
        let mut inputs = [0u16; MAX_ACTIVE];
        let e = entry();
        let k = table.active(&e, 0, &mut inputs);
        let acc = n.refresh(
            &inputs[..k]
                .iter()
                .map(|&i| usize::from(i))
                .collect::<Vec<_>>(),
        );
        let q = n.output(&acc, 3) as f32 / (QA * QB) as f32;
        let f = p.logit(&inputs[..k], 3);
        // Rounding errors are uniform within half a step: the output
        // weights' (1/(2 QB) against activations up to 1) over 128 hidden
        // units add up to about 0.01 (one standard deviation); a wrong
        // scale or layout would be off by the logit itself.
        assert!((q - f).abs() < 0.03, "{q} vs {f}");
        // Back to floats and quantised again: the same network.
        assert_eq!(Params::from_network(&n).quantise(100), n);
    }
}
