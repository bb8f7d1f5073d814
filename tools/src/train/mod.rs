//! `splut train`: fits the NNUE ([`splut_engine::eval::nnue`]) to self-play data
//! on the CPU and writes the quantised network.
//!
//! A small trainer written for this network rather than a framework
//! (candle, burn): the network is 565 → 128 → 1 (one of 36 output rows),
//! and a view has 16 piece and rock inputs of the 565 active and a few
//! threats, so the first layer is a sum of about 16 columns and its
//! gradient touches those columns only. A dense framework would multiply
//! 565-wide mostly-zero vectors; here a view costs about 16 × 128 adds
//! forward and as many backward (measured
//! speed: docs/results/training.md).
//!
//! Determinism: each mini-batch is cut into chunks of [`CHUNK`] positions
//! whatever the thread count; each chunk's gradient is summed in entry
//! order into its own buffer, and the buffers are added in chunk order, so
//! the same seed and data give the same network byte for byte on 1 or 16
//! threads.

pub mod checkpoint;
pub mod data;
pub mod model;

use checkpoint::{Settings, State};
use data::{Data, Entry, InputTable};
use model::{ChunkLoss, Params, SIZE, Targets};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Positions a gradient chunk (fixed, so results do not depend on the
/// thread count).
pub const CHUNK: usize = 1024;

/// Largest mini-batch: its chunks' gradient buffers (292 KB each) take
/// 75 MB.
pub const MAX_BATCH: u32 = 1 << 18;

/// Adam's decay of the first moments.
const BETA1: f32 = 0.9;
/// Adam's decay of the second moments.
const BETA2: f32 = 0.999;
/// Adam's epsilon.
const EPS: f32 = 1e-8;
/// The learning rate falls along a cosine to this fraction of the start.
pub const LR_END: f64 = 0.01;
/// Most positions used to fit the sigmoid's scale (every k-th entry).
pub const FIT_MAX: usize = 1_000_000;

/// A training run's options (`splut train`).
#[derive(Clone, Debug)]
pub struct Config {
    /// Data files, text or binary.
    pub files: Vec<PathBuf>,
    /// Epochs of the run (default 10).
    pub epochs: Option<u32>,
    /// Positions a mini-batch (default 16384).
    pub batch: Option<u32>,
    /// Starting learning rate (default 0.001).
    pub lr: Option<f64>,
    /// Weight of the search score in the target (default 0.5).
    pub lambda: Option<f64>,
    /// The same for positions with 3–4 players in the game, where the
    /// seats other than the mover then share the rest of the search's
    /// probability (not given: the mover has `lambda`, the others their
    /// result alone, as networks up to t6c were trained).
    pub lambda_multi: Option<f64>,
    /// Weight of the search's value of each seat in that seat's target,
    /// for positions whose data has the values (not given: not used).
    pub lambda_values: Option<f64>,
    /// A network (`.nnue`) or checkpoint (`.ckpt`) whose weights a fresh
    /// run starts from, instead of random ones: a loop's next network
    /// goes on from the last.
    pub init: Option<PathBuf>,
    /// Fraction of the games kept for validation (default 0.05).
    pub validation: Option<f64>,
    /// Seed (default 1).
    pub seed: Option<u64>,
    /// The sigmoid's scale K in centi-units (default: fitted).
    pub scale: Option<f64>,
    /// Threads (0: all cores).
    pub threads: usize,
    /// Directory for a checkpoint (and network) every epoch.
    pub checkpoints: Option<PathBuf>,
    /// A checkpoint to go on from.
    pub resume: Option<PathBuf>,
    /// Where the quantised network goes.
    pub output: PathBuf,
    /// Show a progress bar.
    pub progress: bool,
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch (from 1).
    pub epoch: u32,
    /// Mean training loss over the epoch (as the weights moved).
    pub train_loss: f64,
    /// Validation loss at the epoch's end (`None` without validation data).
    pub validation_loss: Option<f64>,
    /// Seconds the epoch took.
    pub seconds: f64,
    /// Training positions a second.
    pub positions_per_second: f64,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The settings (the checkpoint's when resumed).
    pub settings: Settings,
    /// The quantised network's scale: round(K / 2).
    pub net_scale: i32,
    /// Training and validation positions.
    pub positions: (usize, usize),
    /// Each epoch run.
    pub epochs: Vec<EpochReport>,
    /// The final float network.
    pub params: Params,
}

/// Checks an option given on the command line against a resumed
/// checkpoint's value.
fn same<T: PartialEq + std::fmt::Display>(
    name: &str,
    given: Option<T>,
    kept: T,
) -> Result<(), String> {
    match given {
        Some(g) if g != kept => Err(format!(
            "--{name} {g} differs from the checkpoint's {kept}: a run resumes with its own settings"
        )),
        _ => Ok(()),
    }
}

/// The settings of a fresh run, with its defaults; an error for a value
/// out of range.
fn fresh_settings(cfg: &Config) -> Result<Settings, String> {
    let s = Settings {
        seed: cfg.seed.unwrap_or(1),
        epochs: cfg.epochs.unwrap_or(10),
        batch: cfg.batch.unwrap_or(16384),
        lr: cfg.lr.unwrap_or(0.001),
        lambda: cfg.lambda.unwrap_or(0.5),
        lambda_multi: cfg.lambda_multi,
        lambda_values: cfg.lambda_values,
        validation: cfg.validation.unwrap_or(0.05),
        scale: cfg.scale.unwrap_or(0.0),
        data: 0,
    };
    check_settings(&s, cfg.scale.is_some())?;
    Ok(s)
}

/// Ranges of the settings.
fn check_settings(s: &Settings, scale_given: bool) -> Result<(), String> {
    let bad = |what: &str| Err(what.to_string());
    if !(1..=100_000).contains(&s.epochs) {
        return bad("--epochs must be 1 to 100000");
    }
    if !(1..=MAX_BATCH).contains(&s.batch) {
        return bad("--batch must be 1 to 262144");
    }
    if !(s.lr > 0.0 && s.lr <= 1.0) {
        return bad("--lr must be above 0 and at most 1");
    }
    if !(0.0..=1.0).contains(&s.lambda) {
        return bad("--lambda must be 0 to 1");
    }
    if s.lambda_multi.is_some_and(|x| !(0.0..=1.0).contains(&x)) {
        return bad("--lambda-multi must be 0 to 1");
    }
    if s.lambda_values.is_some_and(|x| !(0.0..=1.0).contains(&x)) {
        return bad("--lambda-values must be 0 to 1");
    }
    if !(0.0..1.0).contains(&s.validation) {
        return bad("--validation must be 0 or more and below 1");
    }
    if scale_given && !(1.0..=200_000.0).contains(&s.scale) {
        return bad("--scale must be 1 to 200000 (centi-units)");
    }
    Ok(())
}

/// The sigmoid's scale K fitted to the side to move's search scores and
/// results (at most [`FIT_MAX`] positions, every k-th), by
/// [`crate::tune::minimise_scale`]. Summed in a fixed order, so it does
/// not depend on the thread count.
pub fn fit_scale(entries: &[Entry]) -> f64 {
    let all = data::score_outcomes(entries);
    let step = all.len().div_ceil(FIT_MAX).max(1);
    let pairs: Vec<(f32, f32)> = all.into_iter().step_by(step).collect();
    if pairs.is_empty() {
        return 400.0;
    }
    let loss = |k: f64| {
        let k = k as f32;
        let sums: Vec<f64> = pairs
            .par_chunks(CHUNK * 16)
            .map(|c| {
                c.iter()
                    .map(|&(cp, r)| f64::from((model::sigmoid(cp / k) - r).powi(2)))
                    .sum()
            })
            .collect();
        sums.iter().sum::<f64>() / pairs.len() as f64
    };
    crate::tune::minimise_scale(&loss)
}

/// The network's scale for a sigmoid scale `k`: round(K / 2). The search
/// compares a seat's value with its opponents' average; with 2 players
/// the two seats' logits are about +x and −x where sigmoid(x) is the win
/// chance, x ≈ cp / K, so their values differ by 2 × scale × x ≈ K × x,
/// the search score's own units.
pub fn net_scale(k: f64) -> i32 {
    ((k / 2.0).round() as i32).clamp(1, 100_000)
}

/// The learning rate at optimizer step `step` of `total`: a cosine from
/// `lr` down to `lr` × [`LR_END`].
pub fn learning_rate(lr: f64, step: u64, total: u64) -> f64 {
    let x = (step as f64 / total.max(1) as f64).min(1.0);
    let end = lr * LR_END;
    end + 0.5 * (lr - end) * (1.0 + (std::f64::consts::PI * x).cos())
}

/// The loss over `entries`, summed chunk by chunk in a fixed order.
pub fn mean_loss(p: &Params, table: &InputTable, entries: &[Entry], t: Targets) -> Option<f64> {
    let parts: Vec<ChunkLoss> = entries
        .par_chunks(CHUNK)
        .map(|c| model::chunk_loss(p, table, c, t))
        .collect();
    let views: usize = parts.iter().map(|l| l.views).sum();
    (views > 0).then(|| parts.iter().map(|l| l.sum).sum::<f64>() / views as f64)
}

/// Runs `cfg`: reads the data, trains, writes checkpoints and the
/// network; `say` hears a line per epoch (and the setup).
pub fn run(cfg: &Config, say: &mut (dyn FnMut(&str) + Send)) -> Result<Outcome, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|e| format!("threads: {e}"))?;
    pool.install(|| run_in_pool(cfg, say))
}

/// The settings and starting state: a checkpoint's, or fresh ones.
fn start(
    cfg: &Config,
    say: &mut (dyn FnMut(&str) + Send),
) -> Result<(Settings, State, Data), String> {
    let resumed = match &cfg.resume {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    if let Some((s, _)) = &resumed {
        same("seed", cfg.seed, s.seed)?;
        same("epochs", cfg.epochs, s.epochs)?;
        same("batch", cfg.batch, s.batch)?;
        same("lr", cfg.lr, s.lr)?;
        same("lambda", cfg.lambda, s.lambda)?;
        let kept = s.lambda_multi.map_or("none".into(), |x| x.to_string());
        same(
            "lambda-multi",
            cfg.lambda_multi.map(|x| x.to_string()),
            kept,
        )?;
        let kept = s.lambda_values.map_or("none".into(), |x| x.to_string());
        same(
            "lambda-values",
            cfg.lambda_values.map(|x| x.to_string()),
            kept,
        )?;
        same("validation", cfg.validation, s.validation)?;
        same("scale", cfg.scale, s.scale)?;
    }
    let mut settings = match &resumed {
        Some((s, _)) => {
            // A damaged or hand-made file must not ask for a huge batch.
            check_settings(s, true).map_err(|e| format!("checkpoint settings: {e}"))?;
            *s
        }
        None => fresh_settings(cfg)?,
    };
    let t0 = std::time::Instant::now();
    let data = data::load(&cfg.files, settings.validation)?;
    say(&format!(
        "read {} positions in {:.1} s: {} training, {} validation (by game){}{}",
        data.read,
        t0.elapsed().as_secs_f64(),
        data.train.len(),
        data.validation.len(),
        if data.skipped > 0 {
            format!(", {} skipped (one seat left)", data.skipped)
        } else {
            String::new()
        },
        if data.cut > 0 {
            format!(
                "; the cut-short last record of {} file(s) left out",
                data.cut
            )
        } else {
            String::new()
        }
    ));
    let fingerprint = data::fingerprint(&data.train);
    let state = match resumed {
        Some((s, st)) => {
            if s.data != fingerprint {
                return Err(
                    "the data differ from the checkpoint's (another set, order or validation split)"
                        .into(),
                );
            }
            say(&format!(
                "resuming after epoch {} of {}",
                st.epoch, s.epochs
            ));
            st
        }
        None => {
            settings.data = fingerprint;
            if cfg.scale.is_none() {
                settings.scale = fit_scale(&data.train);
                say(&format!(
                    "sigmoid scale K fitted to the search scores: {:.1}",
                    settings.scale
                ));
            }
            let mut state = State::fresh(settings.seed);
            if let Some(path) = &cfg.init {
                state.params = initial_params(path)?;
                say(&format!("starting from the weights of {}", path.display()));
            }
            state
        }
    };
    Ok((settings, state, data))
}

/// The float weights of a network file or a checkpoint, to start from.
fn initial_params(path: &Path) -> Result<Params, String> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    if bytes.starts_with(checkpoint::MAGIC) {
        let (_, st) = checkpoint::from_bytes(&bytes).map_err(|e| format!("{name}: {e}"))?;
        return Ok(st.params);
    }
    let net = splut_engine::eval::nnue::Network::from_bytes(&bytes)
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(Params::from_network(&net))
}

fn run_in_pool(cfg: &Config, say: &mut (dyn FnMut(&str) + Send)) -> Result<Outcome, String> {
    let (settings, mut state, data) = start(cfg, say)?;
    if let Some(dir) = &cfg.checkpoints {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let epochs = train(&settings, &mut state, &data, cfg.progress, &mut |e| {
        report(cfg, &settings, say, e)
    })?;
    let net = state.params.quantise(net_scale(settings.scale));
    write_file(&cfg.output, &net.to_bytes())?;
    Ok(Outcome {
        settings,
        net_scale: net.scale,
        positions: (data.train.len(), data.validation.len()),
        epochs,
        params: state.params,
    })
}

/// What a run reports as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// About a tenth of an epoch done, said only without a progress bar.
    Part {
        /// The epoch (from 1).
        epoch: u32,
        /// Training positions done in it.
        done: usize,
        /// Training positions in an epoch.
        of: usize,
        /// Mean training loss so far in the epoch.
        loss: f64,
    },
    /// An epoch done: the state after it and its figures.
    Epoch(&'a State, &'a EpochReport),
}

/// Trains from `st` to the end of the run `s` on `data`, with a progress
/// bar if `progress`; `on` hears the [`Event`]s (an error from it stops
/// the run).
pub fn train(
    s: &Settings,
    st: &mut State,
    data: &Data,
    progress: bool,
    on: &mut dyn FnMut(Event) -> Result<(), String>,
) -> Result<Vec<EpochReport>, String> {
    let t = Targets {
        lambda: s.lambda as f32,
        lambda_multi: s.lambda_multi.map(|x| x as f32),
        lambda_values: s.lambda_values.map(|x| x as f32),
        scale: s.scale as f32,
    };
    let table = InputTable::new();
    let mut epochs = Vec::new();
    while st.epoch < s.epochs {
        let report = epoch(progress, s, st, data, &table, t, on)?;
        on(Event::Epoch(st, &report))?;
        epochs.push(report);
    }
    Ok(epochs)
}

/// Says an event as a line, and writes an epoch's checkpoint.
fn report(
    cfg: &Config,
    settings: &Settings,
    say: &mut (dyn FnMut(&str) + Send),
    e: Event,
) -> Result<(), String> {
    let (st, r) = match e {
        Event::Part {
            epoch,
            done,
            of,
            loss,
        } => {
            say(&format!(
                "epoch {epoch}/{}: {done}/{of} positions, train loss {loss:.6}",
                settings.epochs
            ));
            return Ok(());
        }
        Event::Epoch(st, r) => (st, r),
    };
    say(&format!(
        "epoch {}/{}: train loss {:.6}, validation loss {}, {:.1} s, {:.0} positions/s",
        r.epoch,
        settings.epochs,
        r.train_loss,
        r.validation_loss
            .map_or("-".to_string(), |v| format!("{v:.6}")),
        r.seconds,
        r.positions_per_second
    ));
    match &cfg.checkpoints {
        Some(dir) => save_checkpoint(dir, settings, st),
        None => Ok(()),
    }
}

/// Writes `bytes` to `path` through a temporary file ([`tmp_path`]) and a
/// rename, so a killed run never leaves half a file.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = tmp_path(path);
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// `<path>.tmp`: where a file is written before it is whole.
pub fn tmp_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".tmp");
    PathBuf::from(s)
}

/// `DIR/epoch-<n>.ckpt` and the network of that epoch, `DIR/epoch-<n>.nnue`.
fn save_checkpoint(dir: &Path, s: &Settings, st: &State) -> Result<(), String> {
    let name = format!("epoch-{:03}", st.epoch);
    write_file(
        &dir.join(format!("{name}.ckpt")),
        &checkpoint::to_bytes(s, st),
    )?;
    let net = st.params.quantise(net_scale(s.scale));
    write_file(&dir.join(format!("{name}.nnue")), &net.to_bytes())
}

/// Fisher–Yates with the run's generator.
fn shuffle(order: &mut [u32], rng: &mut u64) {
    for i in (1..order.len()).rev() {
        let j = (splut_rules::splitmix64(rng) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
}

/// One epoch: shuffled mini-batches, an Adam step each.
fn epoch(
    progress: bool,
    s: &Settings,
    st: &mut State,
    data: &Data,
    table: &InputTable,
    t: Targets,
    on: &mut dyn FnMut(Event) -> Result<(), String>,
) -> Result<EpochReport, String> {
    let t0 = std::time::Instant::now();
    let n = data.train.len();
    let batch = s.batch as usize;
    let per_epoch = n.div_ceil(batch) as u64;
    let total = per_epoch * u64::from(s.epochs);
    let mut order: Vec<u32> = (0..n as u32).collect();
    shuffle(&mut order, &mut st.rng);
    let bar = progress_bar(progress, n as u64);
    let chunks = batch.div_ceil(CHUNK);
    let mut grads = vec![vec![0.0f32; SIZE]; chunks];
    let mut grad = vec![0.0f32; SIZE];
    let mut entries = Vec::with_capacity(batch);
    let mut sum = ChunkLoss::default();
    let tenth = per_epoch.div_ceil(10) as usize;
    for (k, idx) in order.chunks(batch).enumerate() {
        entries.clear();
        entries.extend(idx.iter().map(|&i| data.train[i as usize]));
        let parts: Vec<ChunkLoss> = entries
            .par_chunks(CHUNK)
            .zip(grads.par_iter_mut())
            .map(|(c, g)| {
                g.fill(0.0);
                model::gradient(&st.params, table, c, t, g)
            })
            .collect();
        let used = parts.len();
        let views: usize = parts.iter().map(|l| l.views).sum();
        sum.views += views;
        sum.sum += parts.iter().map(|l| l.sum).sum::<f64>();
        reduce(&grads[..used], &mut grad, views);
        let lr = learning_rate(s.lr, st.step, total) as f32;
        st.step += 1;
        adam(st, &grad, lr);
        let loss = sum.sum / sum.views.max(1) as f64;
        bar.inc(idx.len() as u64);
        bar.set_message(format!(
            "epoch {}/{}, loss {loss:.6}",
            st.epoch + 1,
            s.epochs
        ));
        if bar.is_hidden() && (k + 1) % tenth == 0 && (k + 1) < per_epoch as usize {
            on(Event::Part {
                epoch: st.epoch + 1,
                done: ((k + 1) * batch).min(n),
                of: n,
                loss,
            })?;
        }
    }
    bar.finish_and_clear();
    st.epoch += 1;
    let seconds = t0.elapsed().as_secs_f64();
    Ok(EpochReport {
        epoch: st.epoch,
        train_loss: sum.sum / sum.views.max(1) as f64,
        validation_loss: mean_loss(&st.params, table, &data.validation, t),
        seconds,
        positions_per_second: n as f64 / seconds.max(1e-9),
    })
}

/// `out` = the mean gradient: the chunks' sums added in chunk order,
/// divided by the views (parallel over parameters, each parameter's sum
/// in the same order).
fn reduce(grads: &[Vec<f32>], out: &mut [f32], views: usize) {
    let inv = 1.0 / views.max(1) as f32;
    out.par_chunks_mut(4096).enumerate().for_each(|(k, o)| {
        let at = k * 4096;
        for (j, x) in o.iter_mut().enumerate() {
            let mut acc = 0.0f32;
            for g in grads {
                acc += g[at + j];
            }
            *x = acc * inv;
        }
    });
}

/// An Adam step with learning rate `lr`, then the clip to what
/// quantisation holds.
fn adam(st: &mut State, grad: &[f32], lr: f32) {
    let step = st.step as i32;
    let c1 = 1.0 - BETA1.powi(step);
    let c2 = 1.0 - BETA2.powi(step);
    st.params
        .w
        .par_chunks_mut(4096)
        .zip(st.m.par_chunks_mut(4096))
        .zip(st.v.par_chunks_mut(4096))
        .zip(grad.par_chunks(4096))
        .for_each(|(((w, m), v), g)| {
            for i in 0..w.len() {
                m[i] = BETA1 * m[i] + (1.0 - BETA1) * g[i];
                v[i] = BETA2 * v[i] + (1.0 - BETA2) * g[i] * g[i];
                w[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + EPS);
            }
        });
    st.params.clip();
}

/// The bar datagen and tournaments show, counting positions.
fn progress_bar(show: bool, len: u64) -> indicatif::ProgressBar {
    let bar = if show {
        indicatif::ProgressBar::new(len)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions, {elapsed} [{msg}]",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::Sample;
    use data::NONE;
    use splut_engine::eval::nnue::features::{self, MAX_ACTIVE};
    use splut_engine::eval::nnue::network::{QA, QB};
    use splut_engine::search::score::Score;
    use splut_rules::{Game, Position, splitmix64};

    /// The planted square: a rock on it (as red sees it) wins for red.
    const PLANTED: u8 = 17;

    /// Entries where red alone has a view, its pieces fixed and four rocks
    /// on random squares: red wins exactly when a rock is on [`PLANTED`].
    fn planted(n: usize, seed: u64) -> Vec<Entry> {
        let mut st = seed;
        (0..n)
            .map(|_| {
                let mut squares = [NONE; 16];
                squares[..3].copy_from_slice(&[0, 1, 2]);
                squares[6..9].copy_from_slice(&[38, 39, 40]);
                let mut k = 12;
                while k < 16 {
                    let sq = (splitmix64(&mut st) % 38 + 3) as u8;
                    if sq != 38 && sq != 39 && !squares[12..k].contains(&sq) {
                        squares[k] = sq;
                        k += 1;
                    }
                }
                let win = squares[12..].contains(&PLANTED);
                Entry {
                    squares,
                    bucket: [0, NONE, NONE, NONE],
                    result: [if win { 12 } else { 0 }, NONE, NONE, NONE],
                    score: 0,
                    stm: 0,
                    players: 2,
                    pad: [0; 2],
                    threats: 0,
                    values: [NONE; 4],
                }
            })
            .collect()
    }

    fn settings(epochs: u32, batch: u32, lr: f64) -> Settings {
        Settings {
            seed: 11,
            epochs,
            batch,
            lr,
            lambda: 0.0,
            lambda_multi: None,
            lambda_values: None,
            validation: 0.0,
            scale: 400.0,
            data: 0,
        }
    }

    fn planted_data() -> Data {
        Data {
            train: planted(3000, 1),
            validation: planted(600, 2),
            ..Data::default()
        }
    }

    fn run_with(threads: usize, s: &Settings, st: &mut State, d: &Data) -> Vec<EpochReport> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| train(s, st, d, false, &mut |_| Ok(())).unwrap())
    }

    #[test]
    fn training_learns_a_planted_pattern() {
        let d = planted_data();
        let s = settings(25, 256, 0.01);
        let mut st = State::fresh(s.seed);
        let t = Targets {
            lambda: 0.0,
            lambda_multi: None,
            lambda_values: None,
            scale: 400.0,
        };
        let table = InputTable::new();
        let before = mean_loss(&st.params, &table, &d.validation, t).unwrap();
        let reports = run_with(2, &s, &mut st, &d);
        let after = reports.last().unwrap().validation_loss.unwrap();
        assert!(after < 0.01 && after < before / 5.0, "{before} -> {after}");
        assert!(reports.last().unwrap().train_loss < reports[0].train_loss);
        let mut inputs = [0u16; MAX_ACTIVE];
        for e in &d.validation[..50] {
            let n = table.active(e, 0, &mut inputs);
            let p = model::sigmoid(st.params.logit(&inputs[..n], 0));
            let won = e.result[0] == 12;
            assert!(if won { p > 0.8 } else { p < 0.2 }, "{won} {p}");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_network_on_any_thread_count() {
        let d = planted_data();
        // 3000 positions, batches of 2500: chunks of 1024, and a short one.
        let s = settings(2, 2500, 0.01);
        let nets: Vec<Vec<u8>> = [1, 2, 2, 3]
            .iter()
            .map(|&threads| {
                let mut st = State::fresh(s.seed);
                run_with(threads, &s, &mut st, &d);
                st.params.quantise(200).to_bytes()
            })
            .collect();
        assert!(nets.iter().all(|n| *n == nets[0]));
        let mut other = State::fresh(s.seed + 1);
        run_with(2, &s, &mut other, &d);
        assert_ne!(other.params.quantise(200).to_bytes(), nets[0]);
    }

    #[test]
    fn a_resumed_run_ends_as_an_uninterrupted_one() {
        let d = planted_data();
        let s = settings(3, 512, 0.005);
        let mut whole = State::fresh(s.seed);
        run_with(2, &s, &mut whole, &d);
        let mut first = State::fresh(s.seed);
        let mut saved = Vec::new();
        let mut parts = 0;
        let stopped = train(&s, &mut first, &d, false, &mut |e| match e {
            Event::Part { .. } => {
                parts += 1;
                Ok(())
            }
            Event::Epoch(st, _) => {
                saved = checkpoint::to_bytes(&s, st);
                Err("stop".into())
            }
        });
        // 6 batches an epoch: a line after each but the last.
        assert_eq!(parts, 5);
        assert_eq!(stopped.unwrap_err(), "stop");
        let (s2, mut resumed) = checkpoint::from_bytes(&saved).unwrap();
        assert_eq!((s2, resumed.epoch), (s, 1));
        run_with(1, &s2, &mut resumed, &d);
        assert_eq!(resumed, whole);
    }

    /// Positions of random games of 2–4 players, with made-up outcomes.
    fn real_entries() -> (Vec<Position>, Vec<Entry>) {
        let mut st = 3u64;
        let (mut positions, mut entries) = (Vec::new(), Vec::new());
        for players in 2..=4 {
            for _ in 0..10 {
                let mut game = Game::new(Position::start(players).unwrap());
                for _ in 0..(splitmix64(&mut st) % 60) {
                    let legal = game.position().legal_step_vec();
                    if legal.is_empty() {
                        break;
                    }
                    let step = legal[(splitmix64(&mut st) % legal.len() as u64) as usize];
                    game.play(step).unwrap();
                }
                let pos = *game.position();
                let sample = Sample {
                    position: pos,
                    score: Score::Cp((splitmix64(&mut st) % 800) as i32 - 400),
                    places: pos.seats_in_game().map(|s| vec![s]).collect(),
                    seed: 1,
                    game: 1,
                    values: None,
                };
                if let Some(e) = Entry::new(&sample) {
                    positions.push(pos);
                    entries.push(e);
                }
            }
        }
        (positions, entries)
    }

    /// Tolerance of a quantised logit against the float one, worst and
    /// mean over views: W1 and b1 are rounded to ±1/510 (17 terms: a
    /// hidden value up to 0.033 off, about 0.005 typically, times W2) and
    /// W2 to ±1/128 over 128 hidden values. Measured on this test's
    /// overfitted net (logits up to ±7.3): worst 0.081, mean 0.017.
    const QUANTISED_TOLERANCE: (f32, f32) = (0.1, 0.03);

    #[test]
    fn the_quantised_network_gives_the_float_outputs_on_real_positions() {
        let (positions, entries) = real_entries();
        let d = Data {
            train: entries.clone(),
            ..Data::default()
        };
        let mut s = settings(30, 16, 0.02);
        s.lambda = 0.5;
        let mut st = State::fresh(s.seed);
        run_with(2, &s, &mut st, &d);
        let net = st.params.quantise(200);
        let table = InputTable::new();
        let (mut worst, mut sum, mut views) = (0.0f32, 0.0f32, 0);
        let mut buf = [0u16; MAX_ACTIVE];
        for (pos, e) in positions.iter().zip(&entries) {
            for view in pos.seats_in_game() {
                let mut active = Vec::new();
                features::active(pos, view, &mut active);
                let bucket = features::bucket(pos, view);
                let q = net.output(&net.refresh(&active), bucket) as f32 / (QA * QB) as f32;
                let n = table.active(e, view.index(), &mut buf);
                let f = st.params.logit(&buf[..n], bucket);
                worst = worst.max((q - f).abs());
                sum += (q - f).abs();
                views += 1;
            }
        }
        assert!(views > 60);
        let mean = sum / views as f32;
        assert!(worst < QUANTISED_TOLERANCE.0, "worst {worst}");
        assert!(mean < QUANTISED_TOLERANCE.1, "mean {mean}");
    }

    #[test]
    fn the_learning_rate_falls_along_a_cosine() {
        assert_eq!(learning_rate(0.1, 0, 100), 0.1);
        assert!((learning_rate(0.1, 50, 100) - 0.0505).abs() < 1e-12);
        assert!((learning_rate(0.1, 100, 100) - 0.001).abs() < 1e-12);
        assert_eq!(net_scale(523.0), 262);
    }

    #[test]
    fn the_scale_fit_finds_the_data_scale() {
        let mut st = 5u64;
        let entries: Vec<Entry> = (0..20_000)
            .map(|_| {
                let cp = (splitmix64(&mut st) % 2001) as i32 - 1000;
                let p = model::sigmoid(cp as f32 / 300.0);
                let u = (splitmix64(&mut st) >> 40) as f32 / (1u64 << 24) as f32;
                let win = u < p;
                Entry {
                    squares: [NONE; 16],
                    bucket: [0, NONE, 0, NONE],
                    result: [
                        if win { 12 } else { 0 },
                        NONE,
                        if win { 0 } else { 12 },
                        NONE,
                    ],
                    score: cp,
                    stm: 0,
                    players: 2,
                    pad: [0; 2],
                    threats: 0,
                    values: [NONE; 4],
                }
            })
            .collect();
        let k = fit_scale(&entries);
        assert!((240.0..380.0).contains(&k), "{k}");
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("splut-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    fn config(files: Vec<PathBuf>) -> Config {
        Config {
            files,
            epochs: Some(1),
            batch: None,
            lr: None,
            lambda: None,
            lambda_multi: None,
            lambda_values: None,
            init: None,
            validation: None,
            seed: None,
            scale: None,
            threads: 1,
            checkpoints: None,
            resume: None,
            output: temp("out.nnue"),
            progress: false,
        }
    }

    #[test]
    fn bad_options_and_files_are_errors() {
        let quiet = &mut |_: &str| {};
        let missing = config(vec![temp("missing.bin")]);
        assert!(run(&missing, quiet).unwrap_err().contains("missing.bin"));
        let junk = temp("junk.txt");
        std::fs::write(&junk, "not data\n").unwrap();
        assert!(run(&config(vec![junk.clone()]), quiet).is_err());
        let empty = temp("empty.txt");
        std::fs::write(&empty, "").unwrap();
        let e = run(&config(vec![empty.clone()]), quiet).unwrap_err();
        assert!(e.contains("no training positions"), "{e}");
        let huge = temp("huge.ckpt");
        let mut s = settings(1, 1, 0.001);
        s.batch = 1 << 30;
        std::fs::write(&huge, checkpoint::to_bytes(&s, &State::fresh(1))).unwrap();
        let plain = temp("plain.ckpt");
        let s = settings(1, 1, 0.001);
        std::fs::write(&plain, checkpoint::to_bytes(&s, &State::fresh(1))).unwrap();
        for (cfg, want) in [
            (
                Config {
                    lambda_multi: Some(1.5),
                    ..config(vec![empty.clone()])
                },
                "--lambda-multi must be",
            ),
            (
                Config {
                    lambda_multi: Some(0.5),
                    resume: Some(plain.clone()),
                    ..config(vec![empty.clone()])
                },
                "--lambda-multi 0.5 differs from the checkpoint's none",
            ),
            (
                Config {
                    lambda: Some(1.5),
                    ..config(vec![empty.clone()])
                },
                "--lambda",
            ),
            (
                Config {
                    lr: Some(0.0),
                    ..config(vec![empty.clone()])
                },
                "--lr",
            ),
            (
                Config {
                    validation: Some(1.0),
                    ..config(vec![empty.clone()])
                },
                "--validation",
            ),
            (
                Config {
                    scale: Some(0.5),
                    ..config(vec![empty.clone()])
                },
                "--scale",
            ),
            (
                Config {
                    resume: Some(junk.clone()),
                    ..config(vec![empty.clone()])
                },
                "checkpoint",
            ),
            (
                Config {
                    resume: Some(huge.clone()),
                    ..config(vec![empty.clone()])
                },
                "checkpoint settings: --batch",
            ),
        ] {
            let e = run(&cfg, quiet).unwrap_err();
            assert!(e.contains(want), "{want}: {e}");
        }
    }
}
