//! `splut bench`: the search's signature and speed.

use clap::Args;
use splut_engine::options::THREADS_MAX;
use splut_engine::search::MAX_DEPTH;

/// `splut bench` options.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth in steps, 1 to 100 (default: the bench's own).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    depth: Option<u32>,
    /// Threads, 1 to 256 (the signature is only stable with 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=THREADS_MAX))]
    threads: u64,
    /// The evaluation: auto (the engine's default, `UseNNUE auto`:
    /// the compiled-in network for alpha-beta in the positions with 2
    /// players left, the hand-written evaluation elsewhere), nnue (the network
    /// everywhere) or hand (the hand-written evaluation everywhere).
    #[arg(long, default_value = "auto", value_parser = ["auto", "nnue", "hand"])]
    eval: String,
}

/// Runs the bench; its exit code.
pub fn run(a: BenchArgs) -> i32 {
    splut_engine::bench::run(a.depth, a.threads as usize, &a.eval)
}
