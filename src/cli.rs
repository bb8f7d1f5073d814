//! The `splut` command line. Without a subcommand it speaks the protocol on
//! stdin/stdout.

use crate::game::Position;
use crate::protocol::{Flow, Output};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::time::Instant;

/// Splut! engine. Without a command, it speaks the text protocol
/// (protocol.md) on stdin/stdout.
#[derive(Parser, Debug)]
#[command(
    name = "splut",
    version,
    about = "An engine for Splut!, the 2-4 player abstract strategy game"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the step tree (RULES.md §6). Prints `nodes <total>`
    /// last on stdout; time and speed go to stderr.
    Perft {
        /// Depth in steps.
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
        /// Threads (rayon); 0 = all cores.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Make every leaf step instead of counting the last ply in bulk
        /// (slower; checks making steps, not just counting them).
        #[arg(long)]
        no_bulk: bool,
    },
    /// Search a fixed set of positions (2, 3 and 4 players) to a fixed depth
    /// on one thread; prints total nodes and nodes/s. The node count is the
    /// search's signature: it changes only when the search does.
    Bench {
        /// Depth in steps (default: the bench's own).
        #[arg(long)]
        depth: Option<u32>,
        /// Threads (the signature is only stable with 1).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        None => {
            let out = Output::new(Box::new(std::io::stdout()));
            match crate::protocol::run(std::io::stdin().lock(), out) {
                // `quit` exits at once, even with a search running.
                Flow::Quit => std::process::exit(0),
                Flow::Continue => 0,
            }
        }
        Some(Command::Perft {
            depth,
            players,
            spn,
            divide,
            threads,
            no_bulk,
        }) => run_perft(depth, players, spn.as_deref(), divide, threads, !no_bulk),
        Some(Command::Bench { depth, threads }) => crate::bench::run(depth, threads),
    }
}

fn run_perft(
    depth: u32,
    players: u8,
    spn: Option<&str>,
    divide: bool,
    threads: usize,
    bulk: bool,
) -> i32 {
    let pos = match spn {
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
    let mut rows = match crate::parallel_perft::divide(&pos, depth, threads, bulk) {
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
