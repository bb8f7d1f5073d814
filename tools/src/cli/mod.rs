//! The `splut` command line. Without a subcommand it speaks the protocol on
//! stdin/stdout. Each subcommand is a file of this folder: its options
//! and how it runs.

// The doc comments of the arguments are clap's `--help` text, whose
// `<placeholders>` are not HTML.
#![allow(rustdoc::invalid_html_tags)]

mod bench;
mod data;
mod datagen;
mod gui;
mod r#loop;
mod perft;
mod replay;
mod standings;
mod tournament;
mod train;
mod tune;

use clap::{Parser, Subcommand};
use splut_engine::protocol::{Flow, Output};
use std::path::PathBuf;

/// Most game turns before a tournament or datagen game is drawn.
pub const MAX_TURNS: u32 = 100_000;

/// Splut! engine. Without a command, it speaks the text protocol
/// (protocol.md) on stdin/stdout.
#[derive(Parser, Debug)]
#[command(
    name = "splut",
    version,
    about = "An engine for Splut!, the 2-4 player abstract strategy game",
    after_help = "Without a command, splut is the engine: it speaks the text protocol \
                  (protocol.md) on stdin/stdout, for a GUI, a referee or a person typing \
                  (`ugi`, then `help` lists its commands). Every command and option: \
                  docs/usage.md."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the step tree (RULES.md §6). Prints `nodes <total>`
    /// last on stdout; time and speed go to stderr.
    Perft(perft::PerftArgs),
    /// Search a fixed set of positions (2, 3 and 4 players) to a fixed depth
    /// on one thread; prints total nodes and nodes/s. The node count is the
    /// search's signature: it changes only when the search does.
    Bench(bench::BenchArgs),
    /// Play a tournament between engines and report standings, Elo, LOS
    /// and SPRT; every game is appended to a records file.
    // A repeated option takes its last value, so scripts can append
    // overrides to a fixed command.
    #[command(args_override_self = true)]
    Tournament(Box<tournament::TournamentArgs>),
    /// A local web board: play against the engine or watch it play, in
    /// the browser (docs/usage.md, "splut gui").
    Gui(gui::GuiArgs),
    /// Replay and validate a game records file.
    Replay {
        /// The records file.
        file: PathBuf,
    },
    /// Self-play games from seeded random openings, each step chosen by a
    /// fixed-node search; appends sampled positions with their score and
    /// the game's outcome to a data file (docs/usage.md, "splut datagen").
    Datagen(datagen::DatagenArgs),
    /// Fit the evaluation's weights to datagen files, Texel style; prints
    /// the loss before and after and every weight, writes the tuned weights
    /// (docs/usage.md, "splut tune").
    Tune(tune::TuneArgs),
    /// Train the NNUE on data files (CPU, all cores by default): prints
    /// the loss as it goes, the validation loss every epoch, writes the
    /// quantised network (docs/usage.md, "splut train").
    Train(Box<train::TrainArgs>),
    /// The self-improvement loop: rounds of self-play with the best
    /// network, training, a gate against the best and promotion, kept in
    /// a directory and resumed from it (docs/usage.md, "splut loop").
    Loop(Box<r#loop::LoopArgs>),
    /// Data files converted (text and binary), merged, deduplicated and
    /// shuffled: reads every input (either format), writes one file
    /// (docs/usage.md, "splut data").
    Data(data::DataArgs),
    /// The standings of records files of one tournament (its shards, or
    /// its runs), as the whole tournament prints them at its end; with
    /// `--pool`, of several tournaments of the same participants.
    ///
    /// Every game is replayed and judged first (as `replay` does); an
    /// invalid game is listed on stderr and never counted. Standings go to
    /// stdout only when every scheduled game is there and valid, unless
    /// `--partial`; what was found, missing or invalid goes to stderr.
    #[command(
        after_help = "Exit codes: 0 every scheduled game found and valid (with \
        --partial: every game found valid); 1 an invalid game (left out of the standings); \
        2 the files refused (unreadable, of another tournament, a game twice, …), nothing \
        printed; 3 games missing, without --partial."
    )]
    Standings(standings::StandingsArgs),
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    // Each `--engine` occurrence is one participant's group of words.
    let engine_groups: Vec<Vec<String>> = matches
        .subcommand_matches("tournament")
        .and_then(|m| m.get_occurrences::<String>("engines"))
        .map(|occ| occ.map(|words| words.cloned().collect()).collect())
        .unwrap_or_default();
    match cli.command {
        None => {
            let out = Output::new(Box::new(std::io::stdout()));
            match splut_engine::protocol::run(std::io::stdin().lock(), out) {
                // `quit` exits at once, even with a search running.
                Flow::Quit => std::process::exit(0),
                Flow::Continue => 0,
            }
        }
        Some(Command::Perft(a)) => perft::run(a),
        Some(Command::Bench(a)) => bench::run(a),
        Some(Command::Tournament(a)) => tournament::run(*a, engine_groups),
        Some(Command::Datagen(a)) => datagen::run(a),
        Some(Command::Tune(a)) => tune::run(&a),
        Some(Command::Train(a)) => train::run(&a),
        Some(Command::Loop(a)) => r#loop::run(*a),
        Some(Command::Data(a)) => data::run(a),
        Some(Command::Replay { file }) => replay::run(&file),
        Some(Command::Gui(a)) => gui::run(a),
        Some(Command::Standings(a)) => standings::run(a),
    }
}

/// Whether to draw progress bars: not when asked not to, nor when stderr
/// is no terminal (a log, a pipe).
fn progress(no_progress: bool) -> bool {
    !no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr())
}

/// A data file format by its name on the command line.
fn data_format(name: &str) -> crate::datagen::Format {
    if name == "binary" {
        crate::datagen::Format::Binary
    } else {
        crate::datagen::Format::Text
    }
}
