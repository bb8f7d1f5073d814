//! `splut train`: the network trained on data files.

use clap::Args;
use splut_engine::options::THREADS_MAX;
use std::path::PathBuf;

/// `splut train` options. The training settings (seed, epochs, batch,
/// lr, lambda, lambda-multi, validation, scale) default when not given;
/// resuming, they are the checkpoint's, and one given must equal it.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Data files from `splut datagen` or `splut data`, binary or text
    /// (any number; they concatenate).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where the quantised network goes (SPLUTNET).
    #[arg(short, long, default_value = "net.nnue")]
    output: PathBuf,
    /// Passes over the training positions [default: 10].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: Option<u32>,
    /// Positions a mini-batch, 1 to 262144 [default: 16384].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::train::MAX_BATCH)))]
    batch: Option<u32>,
    /// Adam's starting learning rate; falls along a cosine to 1% of it by
    /// the last step [default: 0.001].
    #[arg(long)]
    lr: Option<f64>,
    /// Weight of the search score in each seat's target, 0 to 1 (the rest
    /// is the game's result) [default: 0.5].
    #[arg(long)]
    lambda: Option<f64>,
    /// The search score's weight for positions with 3-4 players in the
    /// game, 0 to 1, where the search sets the side to move against all
    /// the others: they share evenly what its probability leaves of the
    /// places [default: none: the side to move has --lambda, the others
    /// their result alone].
    #[arg(long)]
    lambda_multi: Option<f64>,
    /// Weight of the search's value of each seat in that seat's own
    /// target, 0 to 1, for positions whose data has the values (data of
    /// this version's `splut datagen`); it takes the place of --lambda and
    /// --lambda-multi there [default: none: the values are not used].
    #[arg(long)]
    lambda_values: Option<f64>,
    /// Start from this network's (.nnue) or checkpoint's (.ckpt) weights
    /// instead of random ones (a fresh run; not with --resume).
    #[arg(long, conflicts_with = "resume")]
    init: Option<PathBuf>,
    /// Fraction of the games (by seed:game) kept out for the validation
    /// loss, 0 to below 1 [default: 0.05].
    #[arg(long)]
    validation: Option<f64>,
    /// Seed of the starting weights and the shuffles [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// The sigmoid scale K in centi-units (the side to move's target is
    /// sigmoid(cp / K)) [default: fitted to the data's scores and
    /// outcomes].
    #[arg(long)]
    scale: Option<f64>,
    /// Threads; 0 = all cores; at most 256.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=THREADS_MAX))]
    threads: u64,
    /// Directory for a checkpoint and a network after every epoch
    /// (`epoch-<n>.ckpt`, `epoch-<n>.nnue`; created if missing).
    #[arg(long)]
    checkpoints: Option<PathBuf>,
    /// Go on from a checkpoint, on the same data (the result is that of
    /// the run never stopped).
    #[arg(long)]
    resume: Option<PathBuf>,
    /// No progress bar: a line every tenth of an epoch instead.
    #[arg(long)]
    no_progress: bool,
}

/// Trains and writes the network; exit code 2 on an error.
pub fn run(a: &TrainArgs) -> i32 {
    let cfg = crate::train::Config {
        files: a.files.clone(),
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lambda: a.lambda,
        lambda_multi: a.lambda_multi,
        lambda_values: a.lambda_values,
        init: a.init.clone(),
        validation: a.validation,
        seed: a.seed,
        scale: a.scale,
        threads: a.threads as usize,
        checkpoints: a.checkpoints.clone(),
        resume: a.resume.clone(),
        output: a.output.clone(),
        progress: super::progress(a.no_progress),
    };
    match crate::train::run(&cfg, &mut |line| eprintln!("{line}")) {
        Ok(o) => {
            println!(
                "network written to {} (scale {}: K {:.1} / 2)",
                a.output.display(),
                o.net_scale,
                o.settings.scale
            );
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
