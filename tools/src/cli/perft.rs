//! `splut perft`: the leaves of the step tree, counted on threads.

use clap::Args;
use splut_engine::options::THREADS_MAX;
use splut_engine::parallel_perft::MAX_DEPTH;
use splut_rules::Position;
use std::io::Write;
use std::time::Instant;

/// `splut perft` options.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in steps (at most 64).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
    depth: u32,
    /// Start position for 2, 3 or 4 players.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4), conflicts_with = "spn")]
    players: u8,
    /// A position in SPN instead of a start position.
    #[arg(long)]
    spn: Option<String>,
    /// Print `<step> <count>` for every legal root step first.
    #[arg(long)]
    divide: bool,
    /// Threads (rayon); 0 = all cores; at most 256.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=THREADS_MAX))]
    threads: u64,
    /// Make every leaf step instead of counting the last ply in bulk
    /// (slower; checks making steps, not just counting them).
    #[arg(long)]
    no_bulk: bool,
}

/// Counts the leaves and prints them; exit code 2 on a bad position or
/// threads that cannot start.
pub fn run(a: PerftArgs) -> i32 {
    let PerftArgs {
        depth,
        players,
        spn,
        divide,
        threads,
        no_bulk,
    } = a;
    let (threads, bulk) = (threads as usize, !no_bulk);
    let pos = match spn.as_deref() {
        Some(s) => match Position::from_spn(s) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
        None => match Position::start(players as usize) {
            Some(p) => p,
            None => {
                eprintln!("error: players must be 2, 3 or 4");
                return 2;
            }
        },
    };
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    let start = Instant::now();
    let mut rows = match splut_engine::parallel_perft::divide(&pos, depth, threads, bulk) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let elapsed = start.elapsed().as_secs_f64();
    let total: u64 = if depth == 0 {
        1
    } else {
        rows.iter().map(|r| r.1).sum()
    };
    let mut out = std::io::stdout().lock();
    if divide {
        rows.sort_by_key(|r| r.0.to_string());
        for (s, n) in rows {
            let _ = writeln!(out, "{s} {n}");
        }
    }
    let _ = writeln!(out, "nodes {total}");
    let _ = out.flush();
    eprintln!(
        "time {:.1} ms, {:.0} nodes/s, {threads} thread{}",
        elapsed * 1e3,
        total as f64 / elapsed.max(1e-9),
        if threads == 1 { "" } else { "s" }
    );
    0
}
