//! `splut datagen`: self-play positions with their scores, to a data file.

use super::{MAX_TURNS, data_format};
use clap::Args;
use splut_engine::eval::nnue::{Network, default_network, read_network};
use splut_engine::options::THREADS_MAX;
use splut_play::openings::MAX_OPENING_STEPS;
use std::path::PathBuf;
use std::sync::Arc;

/// `splut datagen` options.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// 2, 3 or 4 players per game.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: u8,
    /// Nodes searched for each step (1 to 10^9).
    #[arg(long, default_value_t = crate::datagen::DEFAULT_NODES, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    nodes: u64,
    /// Stop after this many games.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Stop after this many positions (without --games or --positions
    /// the run goes on until Ctrl-C).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    positions: Option<u64>,
    /// Most positions kept from one game (1 to 1000; default 16 with 2
    /// players, 32 with 3-4, whose games are about twice as long).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1000))]
    per_game: Option<u64>,
    /// Keep the positions where the side to move can kill within its turn
    /// (left out by default), even with a proven score: a network judges
    /// them at the search's horizon.
    #[arg(long)]
    keep_kills: bool,
    /// Also label the positions along each search's principal variation
    /// with the values of its end (Descent's labels of a search's nodes):
    /// several positions a search.
    #[arg(long)]
    pv_labels: bool,
    /// Random steps from the start before the game proper (0 to 40; with
    /// 0 every game is the same game).
    #[arg(long, default_value_t = crate::datagen::DEFAULT_OPENING_STEPS as u64, value_parser = clap::value_parser!(u64).range(0..=MAX_OPENING_STEPS as u64))]
    opening_steps: u64,
    /// Draw a game after this many game turns (1 to 100000).
    #[arg(long, default_value_t = crate::datagen::DEFAULT_MAX_TURNS, value_parser = clap::value_parser!(u32).range(1..=MAX_TURNS as i64))]
    max_turns: u32,
    /// Seed of the openings and of the sampling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once, 1 to 256 (the output does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=THREADS_MAX))]
    threads: u64,
    /// Each game's transposition table in MiB (1 to 1024).
    #[arg(long, default_value_t = crate::datagen::DEFAULT_HASH_MIB as u64, value_parser = clap::value_parser!(u64).range(1..=1024))]
    hash: u64,
    /// The data file (appended to).
    #[arg(long, short, default_value = "datagen.txt")]
    output: PathBuf,
    /// The file's format: text (a line a position) or binary (32 bytes a
    /// position; docs/formats.md).
    #[arg(long, default_value = "text", value_parser = ["text", "binary"])]
    format: String,
    /// The evaluation the searches use, whatever the count of players: hand
    /// (the hand-written evaluation, the data's bootstrap) or nnue (the
    /// network).
    #[arg(long, default_value = "hand", value_parser = ["nnue", "hand"])]
    eval: String,
    /// The network file for --eval nnue (default: the compiled-in one).
    #[arg(long)]
    net: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

impl DatagenArgs {
    /// The network the searches use, read from `--net`; `None` with
    /// `--eval hand`.
    fn network(&self) -> Result<Option<Arc<Network>>, String> {
        if self.eval == "hand" {
            if self.net.is_some() {
                return Err("--net goes with --eval nnue, not --eval hand".into());
            }
            return Ok(None);
        }
        match &self.net {
            None => Ok(Some(default_network())),
            Some(path) => read_network(&path.to_string_lossy())
                .map(|n| Some(Arc::new(n)))
                .map_err(|e| e.to_string()),
        }
    }
}

/// Generates the data; exit code 2 on an error.
pub fn run(a: DatagenArgs) -> i32 {
    let net = match a.network() {
        Ok(net) => net,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let cfg = crate::datagen::Config {
        players: a.players.into(),
        nodes: a.nodes,
        opening_steps: a.opening_steps as usize,
        max_turns: a.max_turns,
        per_game: a
            .per_game
            .map_or(crate::datagen::default_per_game(a.players.into()), |k| {
                k as usize
            }),
        seed: a.seed,
        threads: a.threads as usize,
        hash_mib: a.hash as usize,
        games: a.games,
        positions: a.positions,
        format: data_format(&a.format),
        net,
        auto: false,
        multi_net: None,
        keep_kills: a.keep_kills,
        pv_labels: a.pv_labels,
    };
    match crate::datagen::run_to_file(&cfg, &a.output, super::progress(a.no_progress)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
