//! `splut loop`: the self-improvement loop's options, kept in its
//! directory.

use clap::Args;
use splut_engine::options::THREADS_MAX;
use std::path::PathBuf;

/// `splut loop` options. The loop's settings (players to shards, and the
/// starting network) are fixed when it starts and kept in DIR/loop.json;
/// given again, they must be the same.
#[derive(Args, Debug)]
pub struct LoopArgs {
    /// The loop's directory (created if missing): its manifest, networks
    /// and data.
    dir: PathBuf,
    /// Rounds to have done; a loop started again with more goes on.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    rounds: u32,
    /// Counts of players learned, e.g. 3,4 (2,3,4 learns 2 players too:
    /// the network then also replaces the 2-player one) [default: 3,4].
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u8).range(2..=4))]
    players: Option<Vec<u8>>,
    /// Self-play games a round, shared among the counts [default: 400].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: Option<u64>,
    /// Nodes a step in self-play [default: 2000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    nodes: Option<u64>,
    /// Gate games a round for each count [default: 300].
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    gate_games: Option<u64>,
    /// Nodes a turn in the gate [default: 3 × --nodes].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    gate_nodes: Option<u64>,
    /// The loop's seed [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Rounds of self-play data each training reads [default: 3].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    window: Option<u32>,
    /// Training epochs a round [default: 4].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    epochs: Option<u32>,
    /// Training's starting learning rate [default: 0.0005].
    #[arg(long)]
    lr: Option<f64>,
    /// Weight of the search's value of each seat in its target, the
    /// game's result the rest [default: 0.8].
    #[arg(long)]
    lambda_values: Option<f64>,
    /// Place points the new network must score in the gate (over every
    /// count) to be promoted [default: 0.52].
    #[arg(long)]
    threshold: Option<f64>,
    /// Shards each self-play and gate is cut into, for a cluster
    /// (scripts/loop-slurm) [default: 1].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    shards: Option<u32>,
    /// Which network plays self-play: the best so far (the last promoted),
    /// or the newest trained, promoted or not [default: best].
    #[arg(long, value_enum)]
    selfplay: Option<crate::r#loop::manifest::SelfPlayBy>,
    /// Self-play also labels the positions along each search's principal
    /// variation (`splut datagen --pv-labels`).
    #[arg(long)]
    pv_labels: bool,
    /// Games a round for each count in which the new network also plays
    /// copies of the hand-written evaluation at the gate's nodes: a
    /// reference reported beside the gate, never part of its decision;
    /// 0 for none [default: 0].
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    hand_games: Option<u64>,
    /// A network to start from (its weights, and the best until one
    /// beats it) [default: the engine's own evaluation; training starts
    /// from the compiled-in network's weights].
    #[arg(long)]
    net: Option<PathBuf>,
    /// Threads: games at once, and training's [default: all cores].
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=THREADS_MAX))]
    threads: u64,
    /// Play shard K of N (0-based) of the round's pending self-play or
    /// gate, then stop: a cluster's array task.
    #[arg(long, conflicts_with = "coordinate")]
    shard: Option<String>,
    /// Do everything but the shards (merging, training, the decision);
    /// stop with exit code 3 when shards are missing.
    #[arg(long)]
    coordinate: bool,
    /// No progress bars.
    #[arg(long)]
    no_progress: bool,
}

/// Runs `splut loop`.
pub fn run(a: LoopArgs) -> i32 {
    let shard = match a
        .shard
        .as_deref()
        .map(crate::tournament::schedule::Shard::parse)
    {
        None => None,
        Some(Ok(s)) => Some((s.index as u32, s.count as u32)),
        Some(Err(e)) => {
            eprintln!("error: --{e}");
            return 2;
        }
    };
    // Absolute, so every shard names the same files (a cluster's nodes
    // may start elsewhere).
    if let Err(e) = std::fs::create_dir_all(&a.dir) {
        eprintln!("error: {}: {e}", a.dir.display());
        return 2;
    }
    let dir = std::fs::canonicalize(&a.dir).unwrap_or(a.dir);
    let threads = match a.threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        t => t as usize,
    };
    let cfg = crate::r#loop::Config {
        dir,
        rounds: a.rounds,
        players: a.players.map(|v| v.into_iter().map(usize::from).collect()),
        games: a.games,
        nodes: a.nodes,
        gate_games: a.gate_games,
        gate_nodes: a.gate_nodes,
        seed: a.seed,
        window: a.window,
        epochs: a.epochs,
        lr: a.lr,
        lambda_values: a.lambda_values,
        threshold: a.threshold,
        shards: a.shards,
        selfplay: a.selfplay,
        pv_labels: a.pv_labels.then_some(true),
        hand_games: a.hand_games,
        net: a.net,
        threads,
        shard,
        coordinate: a.coordinate,
        progress: super::progress(a.no_progress),
    };
    crate::r#loop::main(&cfg)
}
