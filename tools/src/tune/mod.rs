//! `splut tune`: fits the evaluation's weights to self-play data, Texel
//! style.
//!
//! Each sample is a position and how its game ended ([`crate::datagen`]).
//! The evaluation predicts the outcome:
//!
//! - **2 players:** the side to move's evaluation (as the search sees it,
//!   [`evaluate`]) through a sigmoid, `1 / (1 + exp(−e / scale))`, against
//!   its result (1 win, ½ draw, 0 loss);
//! - **3–4 players**, one of two models ([`Model`]):
//!   - `pairs` (the default): for every two seats in the game, a sigmoid of
//!     the difference of their scores ([`seat_scores`]),
//!     `1 / (1 + exp(−(s_i − s_j) / scale))`, read as the chance that `i`
//!     finishes ahead of `j`, against whether it did (½ for a shared
//!     place). It uses the whole order of finish, not the winner alone;
//!   - `softmax`: a softmax over the seats' scores,
//!     `exp(s_i / scale) / Σ exp(s_j / scale)`, read as each seat's chance
//!     to win, against who won (a draw shares the win among the seats
//!     left).
//!
//! The loss is the mean squared error over samples (and seats). `scale` is
//! fitted first with the starting weights (the classic Texel `K`) and then
//! kept, so the weights cannot shrink or grow all together to fake a gain.
//! The weights are then improved by the classic local search: each weight
//! in turn is moved up or down by its step while that lowers the loss; a
//! weight whose moves no longer help has its step halved, down to 1. The
//! evaluation is not linear in its weights (the kill terms pick one
//! victim), so a search that only asks for the loss suits it better than a
//! gradient, and it needs only a few hundred loss evaluations for the
//! fifteen-odd weights (measured: docs/results/tuning.md).

use crate::datagen::Sample;
use rayon::prelude::*;
use splut_engine::eval::{EvalParams, MAX_WEIGHT, evaluate, seat_scores};
use splut_rules::{Position, Seat};

/// How a position with 3–4 seats in the game predicts its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Every two seats: who finishes ahead (from the places).
    Pairs,
    /// A softmax over the seats: who wins.
    Softmax,
}

impl std::str::FromStr for Model {
    type Err = String;
    fn from_str(s: &str) -> Result<Model, String> {
        match s {
            "pairs" => Ok(Model::Pairs),
            "softmax" => Ok(Model::Softmax),
            _ => Err(format!("unknown model '{s}': pairs or softmax")),
        }
    }
}

/// One sample ready for the loss: the position and a target per seat.
#[derive(Clone, Debug)]
pub struct Prepared {
    position: Position,
    /// Seats in the game at the position, side to move first.
    seats: Vec<Seat>,
    /// 2 players: the side to move's result; 3–4: each seat's share of the
    /// win (`Softmax`) or its place points (`Pairs`), in the order of
    /// `seats`.
    targets: Vec<f64>,
    model: Model,
}

impl Prepared {
    /// A sample with its targets for `model`; `None` for a sample with
    /// fewer than two seats in the game or a seat the outcome does not name.
    pub fn new(s: &Sample, model: Model) -> Option<Prepared> {
        let pos = s.position;
        let stm = pos.side_to_move();
        let mut seats: Vec<Seat> = vec![stm];
        seats.extend(pos.seats_in_game().filter(|&x| x != stm));
        if seats.len() < 2 {
            return None;
        }
        let targets = if seats.len() == 2 {
            vec![s.result_for(stm)?]
        } else if model == Model::Pairs {
            seats
                .iter()
                .map(|&x| s.result_for(x))
                .collect::<Option<Vec<f64>>>()?
        } else {
            // The win, shared by the seats placed first.
            let first = s.places.first()?;
            let winners = seats.iter().filter(|x| first.contains(x)).count();
            if winners == 0 {
                return None;
            }
            seats
                .iter()
                .map(|x| {
                    if first.contains(x) {
                        1.0 / winners as f64
                    } else {
                        0.0
                    }
                })
                .collect()
        };
        Some(Prepared {
            position: pos,
            seats,
            targets,
            model,
        })
    }

    /// This sample's squared error with `params` at `scale`.
    fn error(&self, params: &EvalParams, scale: f64) -> f64 {
        let pos = &self.position;
        if self.seats.len() == 2 {
            let e = evaluate(pos, self.seats[0], 2, params);
            let p = 1.0 / (1.0 + (-f64::from(e) / scale).exp());
            let d = p - self.targets[0];
            return d * d;
        }
        let scores = seat_scores(pos, params);
        if self.model == Model::Pairs {
            let n = self.seats.len();
            let mut sum = 0.0;
            for i in 0..n {
                for j in i + 1..n {
                    let diff = scores[self.seats[i].index()] - scores[self.seats[j].index()];
                    let p = 1.0 / (1.0 + (-f64::from(diff) / scale).exp());
                    let t = match self.targets[i].total_cmp(&self.targets[j]) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                    sum += (p - t) * (p - t);
                }
            }
            return sum / (n * (n - 1) / 2) as f64;
        }
        let logits: Vec<f64> = self
            .seats
            .iter()
            .map(|s| f64::from(scores[s.index()]) / scale)
            .collect();
        let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exps: Vec<f64> = logits.iter().map(|l| (l - max).exp()).collect();
        let sum: f64 = exps.iter().sum();
        exps.iter()
            .zip(&self.targets)
            .map(|(e, t)| {
                let d = e / sum - t;
                d * d
            })
            .sum::<f64>()
            / self.seats.len() as f64
    }
}

/// The mean squared error of `params` over `data` at `scale`.
pub fn loss(data: &[Prepared], params: &EvalParams, scale: f64) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let total: f64 = data.par_iter().map(|s| s.error(params, scale)).sum();
    total / data.len() as f64
}

/// Smallest scale [`fit_scale`] considers.
pub const SCALE_MIN: f64 = 10.0;
/// Largest scale [`fit_scale`] considers.
pub const SCALE_MAX: f64 = 100_000.0;

/// The scale (centi-units per unit of the sigmoid's or softmax's argument)
/// that fits `params` best, searched on a log scale between [`SCALE_MIN`]
/// and [`SCALE_MAX`].
pub fn fit_scale(data: &[Prepared], params: &EvalParams) -> f64 {
    minimise_scale(&|scale| loss(data, params, scale))
}

/// The scale between [`SCALE_MIN`] and [`SCALE_MAX`] where `loss` is
/// least, by a golden-section search on ln(scale) (a sigmoid's squared
/// error against outcomes is unimodal in it). `splut train` fits its
/// sigmoid of search scores with it too.
pub fn minimise_scale(loss: &dyn Fn(f64) -> f64) -> f64 {
    let f = |x: f64| loss(x.exp());
    let (mut a, mut b) = (SCALE_MIN.ln(), SCALE_MAX.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// How a tuning run goes.
#[derive(Clone, Debug)]
pub struct Config {
    /// The weights tuned (flat names, [`EvalParams::flat`]); empty: all.
    pub only: Vec<String>,
    /// Most passes over the weights.
    pub max_passes: usize,
    /// The scale to use; `None`: fitted to the starting weights.
    pub scale: Option<f64>,
}

/// One weight before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct TermReport {
    /// Its flat name.
    pub name: String,
    /// The starting value.
    pub before: i32,
    /// The tuned value.
    pub after: i32,
    /// The loss of the tuned weights with this one put back to `before`:
    /// above the tuned loss by what this weight's change gained.
    pub loss_reverted: f64,
}

/// A finished tuning run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The tuned weights.
    pub params: EvalParams,
    /// The scale fitted to the starting weights and kept.
    pub scale: f64,
    /// Loss of the starting weights.
    pub loss_before: f64,
    /// Loss of the tuned weights.
    pub loss_after: f64,
    /// Passes made.
    pub passes: usize,
    /// Loss evaluations made.
    pub evaluations: usize,
    /// Every tuned weight.
    pub terms: Vec<TermReport>,
}

/// Tunes `start` on `data`; `progress` hears the loss after every pass.
pub fn tune(
    data: &[Prepared],
    start: &EvalParams,
    cfg: &Config,
    progress: &mut dyn FnMut(usize, f64),
) -> Result<Outcome, String> {
    if data.is_empty() {
        return Err("no usable samples to tune on".into());
    }
    let tuned = tuned_weights(start, cfg)?;
    let scale = choose_scale(data, start, cfg)?;
    let loss_before = loss(data, start, scale);
    let mut search = LocalSearch {
        data,
        scale,
        params: start.clone(),
        best: loss_before,
        evaluations: 1,
    };
    let mut steps: Vec<i32> = tuned.iter().map(|(_, v)| (v.abs() / 4).max(8)).collect();
    let mut passes = 0;
    while passes < cfg.max_passes && steps.iter().any(|&s| s > 0) {
        passes += 1;
        for (i, (name, _)) in tuned.iter().enumerate() {
            if steps[i] > 0 && !search.improve(name, steps[i])? {
                steps[i] /= 2;
            }
        }
        progress(passes, search.best);
    }
    let params = search.params;
    let mut terms = Vec::new();
    for (name, before) in &tuned {
        let mut reverted = params.clone();
        reverted
            .set_flat(name, *before)
            .map_err(|e| e.to_string())?;
        terms.push(TermReport {
            name: name.clone(),
            before: *before,
            after: value_of(&params, name),
            loss_reverted: loss(data, &reverted, scale),
        });
    }
    Ok(Outcome {
        params,
        scale,
        loss_before,
        loss_after: search.best,
        passes,
        evaluations: search.evaluations,
        terms,
    })
}

/// The weights to tune (all, or those `--only` names) with their starting
/// values; an unknown name is an error listing the known ones.
fn tuned_weights(start: &EvalParams, cfg: &Config) -> Result<Vec<(String, i32)>, String> {
    let flat = start.flat();
    for name in &cfg.only {
        if !flat.iter().any(|(n, _)| n == name) {
            return Err(format!(
                "unknown weight '{name}' (weights: {})",
                flat.iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    Ok(flat
        .into_iter()
        .filter(|(n, _)| cfg.only.is_empty() || cfg.only.contains(n))
        .collect())
}

/// The sigmoid's scale: `--scale`, else fitted to the starting weights.
fn choose_scale(data: &[Prepared], start: &EvalParams, cfg: &Config) -> Result<f64, String> {
    match cfg.scale {
        Some(s) if s.is_finite() && s > 0.0 => Ok(s),
        Some(s) => Err(format!("scale {s}: expected a positive number")),
        None => {
            let s = fit_scale(data, start);
            // At a bound the fit failed: the starting evaluation predicts
            // the outcomes at no scale, and tuning with it would only
            // inflate every weight together (seen on 4-player data).
            if !(SCALE_MIN * 1.05..=SCALE_MAX / 1.05).contains(&s) {
                return Err(format!(
                    "the fitted scale {s:.0} is at the end of its range {SCALE_MIN}..{SCALE_MAX}: \
                     the starting weights do not predict these outcomes at any scale; \
                     give one with --scale, or other data"
                ));
            }
            Ok(s)
        }
    }
}

/// The local search's state: the best weights so far and their loss.
struct LocalSearch<'a> {
    data: &'a [Prepared],
    scale: f64,
    params: EvalParams,
    best: f64,
    evaluations: usize,
}

impl LocalSearch<'_> {
    /// Moves weight `name` by `step` up, else down, for as long as that
    /// lowers the loss; whether it moved.
    fn improve(&mut self, name: &str, step: i32) -> Result<bool, String> {
        let value = value_of(&self.params, name);
        for dir in [1, -1] {
            let mut v = value;
            let mut moved = false;
            loop {
                let next = (v + dir * step).clamp(-MAX_WEIGHT, MAX_WEIGHT);
                if next == v {
                    break;
                }
                let mut trial = self.params.clone();
                trial.set_flat(name, next).map_err(|e| e.to_string())?;
                let l = loss(self.data, &trial, self.scale);
                self.evaluations += 1;
                if l >= self.best {
                    break;
                }
                self.best = l;
                self.params = trial;
                v = next;
                moved = true;
            }
            if moved {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

fn value_of(p: &EvalParams, name: &str) -> i32 {
    p.flat()
        .into_iter()
        .find(|(n, _)| n == name)
        .map_or(0, |(_, v)| v)
}

/// The report `splut tune` prints.
pub fn report(o: &Outcome, samples: usize) -> String {
    let mut out = format!(
        "{samples} samples, scale {:.1}\nloss before {:.6}, after {:.6} ({:+.2}%), {} passes, {} loss evaluations\n\n{:<24} {:>8} {:>8}   {}\n",
        o.scale,
        o.loss_before,
        o.loss_after,
        (o.loss_after / o.loss_before - 1.0) * 100.0,
        o.passes,
        o.evaluations,
        "weight",
        "before",
        "after",
        "loss with it put back"
    );
    for t in &o.terms {
        out.push_str(&format!(
            "{:<24} {:>8} {:>8}   {:.6}{}\n",
            t.name,
            t.before,
            t.after,
            t.loss_reverted,
            if t.before == t.after {
                "  (unchanged)"
            } else {
                ""
            }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Positions from random play, `players` seats, with targets made by a
    /// known set of weights at a known scale.
    fn synthetic(players: usize, truth: &EvalParams, scale: f64, n: usize) -> Vec<Prepared> {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Position::start(players).unwrap();
            for _ in 0..rng.random_range(4..40) {
                let steps = pos.legal_step_vec();
                if pos.is_game_over() || steps.is_empty() {
                    break;
                }
                pos.play(steps[rng.random_range(0..steps.len())]);
            }
            if pos.is_game_over() || pos.can_kill_this_turn() {
                continue;
            }
            let stm = pos.side_to_move();
            let mut seats = vec![stm];
            seats.extend(pos.seats_in_game().filter(|&x| x != stm));
            let mut p = Prepared {
                position: pos,
                seats,
                targets: Vec::new(),
                model: Model::Softmax,
            };
            // The prediction of the true weights is the target.
            if p.seats.len() == 2 {
                let e = evaluate(&pos, stm, 2, truth);
                p.targets = vec![1.0 / (1.0 + (-f64::from(e) / scale).exp())];
            } else {
                let sc = seat_scores(&pos, truth);
                let ex: Vec<f64> = p
                    .seats
                    .iter()
                    .map(|s| (f64::from(sc[s.index()]) / scale).exp())
                    .collect();
                let sum: f64 = ex.iter().sum();
                p.targets = ex.iter().map(|e| e / sum).collect();
            }
            out.push(p);
        }
        out
    }

    #[test]
    fn the_tuner_recovers_a_known_weight() {
        let truth = EvalParams::default();
        for players in [2, 4] {
            let data = synthetic(players, &truth, 400.0, 600);
            let mut start = truth.clone();
            start.set_flat("mobility", 30).unwrap();
            // The scale of the truth: fitted to the wrong start, a scale
            // would be found that the wrong weight fits better.
            let cfg = Config {
                only: vec!["mobility".into()],
                max_passes: 30,
                scale: Some(400.0),
            };
            let o = tune(&data, &start, &cfg, &mut |_, _| {}).unwrap();
            let got = value_of(&o.params, "mobility");
            let want = value_of(&truth, "mobility");
            assert!(
                (got - want).abs() <= 1,
                "{players} players: mobility {got}, truth {want}"
            );
            assert!(o.loss_after < o.loss_before / 10.0, "{o:?}");
        }
    }

    /// A sample of `pos` whose game ended in `places`.
    fn sample(pos: Position, places: Vec<Vec<Seat>>) -> Sample {
        Sample {
            position: pos,
            score: splut_engine::search::score::Score::Cp(0),
            places,
            seed: 1,
            game: 1,
            values: None,
        }
    }

    #[test]
    fn the_pairs_model_reads_the_places() {
        use Seat::*;
        let pos = Position::start(4).unwrap();
        let s = sample(pos, vec![vec![Green], vec![Red], vec![Yellow, Blue]]);
        let p = Prepared::new(&s, Model::Pairs).unwrap();
        // Side to move (red) first; place points 1, 2/3, 1/6 shared.
        assert_eq!(p.seats, vec![Red, Yellow, Green, Blue]);
        let want = [2.0 / 3.0, 1.0 / 6.0, 1.0, 1.0 / 6.0];
        for (got, want) in p.targets.iter().zip(want) {
            assert!((got - want).abs() < 1e-9, "{:?}", p.targets);
        }
        // Equal scores predict ½ for every pair: the error is that of the
        // five decided pairs (¼ each) and the one shared place (0), over 6.
        let flat = EvalParams::from_text(
            "dwarf 0\nexposed_line 0\nsorcerer_freedom 0\ntroll_near_rock 0 0 0 0 0 0\nmobility 0",
        )
        .unwrap();
        assert!((p.error(&flat, 100.0) - 5.0 / 24.0).abs() < 1e-9);
        // The softmax model wants the winner alone.
        let q = Prepared::new(&s, Model::Softmax).unwrap();
        assert_eq!(q.targets, vec![0.0, 0.0, 1.0, 0.0]);
    }

    #[test]
    fn the_pairs_model_learns_a_weight_from_places() {
        // Places that follow the scores of the true weights: starting from
        // a mobility of 0, tuning moves it up and lowers the loss.
        let truth = EvalParams::default();
        let mut rng = SmallRng::seed_from_u64(11);
        let mut data = Vec::new();
        while data.len() < 300 {
            let mut pos = Position::start(4).unwrap();
            for _ in 0..rng.random_range(6..30) {
                let steps = pos.legal_step_vec();
                if pos.is_game_over() || steps.is_empty() {
                    break;
                }
                pos.play(steps[rng.random_range(0..steps.len())]);
            }
            if pos.is_game_over() || pos.players_left() < 3 {
                continue;
            }
            let scores = seat_scores(&pos, &truth);
            let mut order: Vec<Seat> = pos.seats_in_game().collect();
            order.sort_by_key(|s| std::cmp::Reverse(scores[s.index()]));
            let mut places: Vec<Vec<Seat>> = order.iter().map(|&s| vec![s]).collect();
            // Seats out of the game finished last.
            let out: Vec<Seat> = (0..4)
                .map(Seat::from_index)
                .filter(|&s| !pos.in_game(s))
                .collect();
            if !out.is_empty() {
                places.push(out);
            }
            data.extend(Prepared::new(&sample(pos, places), Model::Pairs));
        }
        let mut start = truth.clone();
        start.set_flat("mobility", 0).unwrap();
        let cfg = Config {
            only: vec!["mobility".into()],
            max_passes: 20,
            scale: Some(300.0),
        };
        let o = tune(&data, &start, &cfg, &mut |_, _| {}).unwrap();
        assert!(o.loss_after < o.loss_before, "{o:?}");
        assert!(value_of(&o.params, "mobility") > 20, "{o:?}");
    }

    #[test]
    fn the_scale_is_found() {
        let truth = EvalParams::default();
        let data = synthetic(2, &truth, 250.0, 400);
        let s = fit_scale(&data, &truth);
        assert!((s - 250.0).abs() < 5.0, "{s}");
    }

    #[test]
    fn outcomes_the_evaluation_cannot_predict_are_refused() {
        // Targets that say the opposite of the evaluation: the best scale
        // is as large as allowed (predict a coin toss).
        let mut data = synthetic(2, &EvalParams::default(), 400.0, 200);
        for p in &mut data {
            p.targets[0] = if p.targets[0] > 0.5 { 0.0 } else { 1.0 };
        }
        let cfg = Config {
            only: vec![],
            max_passes: 1,
            scale: None,
        };
        let e = tune(&data, &EvalParams::default(), &cfg, &mut |_, _| {}).unwrap_err();
        assert!(e.contains("at the end of its range"), "{e}");
    }

    #[test]
    fn unknown_weights_and_no_data_are_errors() {
        let cfg = Config {
            only: vec!["nonsense".into()],
            max_passes: 1,
            scale: None,
        };
        let data = synthetic(2, &EvalParams::default(), 400.0, 10);
        let e = tune(&data, &EvalParams::default(), &cfg, &mut |_, _| {}).unwrap_err();
        assert!(e.contains("unknown weight 'nonsense'"), "{e}");
        let cfg = Config {
            only: vec![],
            max_passes: 1,
            scale: Some(-1.0),
        };
        assert!(tune(&data, &EvalParams::default(), &cfg, &mut |_, _| {}).is_err());
        let cfg = Config {
            only: vec![],
            max_passes: 1,
            scale: None,
        };
        assert!(tune(&[], &EvalParams::default(), &cfg, &mut |_, _| {}).is_err());
    }
}
