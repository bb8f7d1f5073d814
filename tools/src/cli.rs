//! The `splut` command line. Without a subcommand it speaks the protocol on
//! stdin/stdout.

// The doc comments of the arguments are clap's `--help` text, whose
// `<placeholders>` are not HTML.
#![allow(rustdoc::invalid_html_tags)]

use crate::tournament::participant::{
    DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, ParticipantSpec, Program, TimeControl,
    check_resource_option,
};
use crate::tournament::referee::Adjudication;
use crate::tournament::schedule::{SeatingMode, Shard};
use crate::tournament::stats::{Sprt, SprtModel};
use crate::tournament::{Config, OpeningSource};
use clap::{ArgAction, Args, Parser, Subcommand};
use splut_engine::eval::nnue::{Network, default_network, read_network};
use splut_engine::protocol::{Flow, Output};
use splut_engine::search::Algorithm;
use splut_play::openings::MAX_OPENING_STEPS;
use splut_rules::Position;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Deepest `splut perft`: beyond it a run would never end, and the
/// recursion (one step list per ply on the stack) would overflow it.
pub const PERFT_MAX_DEPTH: u32 = 64;

/// Most threads `perft` and `bench` start, and most games a tournament
/// plays at once: the engine's own `Threads` maximum.
pub const MAX_THREADS: u64 = 256;

/// Most game turns before a tournament game is drawn.
pub const MAX_TURNS: u32 = 100_000;

/// Most openings (`--rounds`) a tournament plays.
pub const MAX_ROUNDS: u64 = 1_000_000;

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
    Perft {
        /// Depth in steps (at most 64).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=PERFT_MAX_DEPTH as i64))]
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
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=MAX_THREADS))]
        threads: u64,
        /// Make every leaf step instead of counting the last ply in bulk
        /// (slower; checks making steps, not just counting them).
        #[arg(long)]
        no_bulk: bool,
    },
    /// Search a fixed set of positions (2, 3 and 4 players) to a fixed depth
    /// on one thread; prints total nodes and nodes/s. The node count is the
    /// search's signature: it changes only when the search does.
    Bench {
        /// Depth in steps, 1 to 100 (default: the bench's own).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=splut_engine::search::MAX_DEPTH as i64))]
        depth: Option<u32>,
        /// Threads, 1 to 256 (the signature is only stable with 1).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS))]
        threads: u64,
        /// The evaluation: auto (the engine's default, `UseNNUE auto`:
        /// the compiled-in network for alpha-beta in the positions with 2
        /// players left, the hand-written evaluation elsewhere), nnue (the network
        /// everywhere) or hand (the hand-written evaluation everywhere).
        #[arg(long, default_value = "auto", value_parser = ["auto", "nnue", "hand"])]
        eval: String,
    },
    /// Play a tournament between engines and report standings, Elo, LOS
    /// and SPRT; every game is appended to a records file.
    // A repeated option takes its last value, so scripts can append
    // overrides to a fixed command.
    #[command(args_override_self = true)]
    Tournament(Box<TournamentArgs>),
    /// A local web board: play against the engine or watch it play, in
    /// the browser (docs/usage.md, "splut gui").
    Gui(GuiArgs),
    /// Replay and validate a game records file.
    Replay {
        /// The records file.
        file: PathBuf,
    },
    /// Self-play games from seeded random openings, each step chosen by a
    /// fixed-node search; appends sampled positions with their score and
    /// the game's outcome to a data file (docs/usage.md, "splut datagen").
    Datagen(DatagenArgs),
    /// Fit the evaluation's weights to datagen files, Texel style; prints
    /// the loss before and after and every weight, writes the tuned weights
    /// (docs/usage.md, "splut tune").
    Tune(TuneArgs),
    /// Train the NNUE on data files (CPU, all cores by default): prints
    /// the loss as it goes, the validation loss every epoch, writes the
    /// quantised network (docs/usage.md, "splut train").
    Train(Box<TrainArgs>),
    /// The self-improvement loop: rounds of self-play with the best
    /// network, training, a gate against the best and promotion, kept in
    /// a directory and resumed from it (docs/usage.md, "splut loop").
    Loop(Box<LoopArgs>),
    /// Data files converted (text and binary), merged, deduplicated and
    /// shuffled: reads every input (either format), writes one file
    /// (docs/usage.md, "splut data").
    Data(DataArgs),
    /// The standings of records files of one tournament (its shards, or
    /// its runs), as the whole tournament prints them at its end.
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
    Standings {
        /// Replay and judge every game: the default (kept for older
        /// scripts).
        #[arg(long, overrides_with = "no_check")]
        check: bool,
        /// Do not replay the games (faster for very large merges): an
        /// edited result, step or reason is then counted as it stands.
        /// Still refused: files of another tournament, edited headers,
        /// games twice, games not scheduled or in another shard's file,
        /// seats other than the schedule's, results that do not place
        /// each seat once, and games that cannot be read.
        #[arg(long, overrides_with = "check")]
        no_check: bool,
        /// Print the standings of the valid games found even when games
        /// are missing or invalid; missing games then exit with 0.
        #[arg(long)]
        partial: bool,
        /// The records files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// `splut tournament` options.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// 2, 3 or 4 players per game.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: u8,
    /// A participant, as key=value words: name=<name>, algo=<algorithm of
    /// this engine> or cmd="<program and arguments>", tc=<time control>,
    /// threads=<1-256>, hash=<MiB, 1-65536>, timeout=<ms>,
    /// option.<Name>=<value>. Repeat for each (at most 64).
    #[arg(long = "engine", num_args = 1.., action = ArgAction::Append, required = true)]
    engines: Vec<String>,
    /// Settings every participant gets unless its --engine says otherwise
    /// (same keys).
    #[arg(long, num_args = 1..)]
    each: Vec<String>,
    /// Time control when a participant names none: movetime=<ms>,
    /// nodes=<n>, depth=<steps> or clock=<seconds>+<increment seconds>.
    #[arg(long, default_value = "movetime=100")]
    tc: String,
    /// Milliseconds a participant may take for an answer that no clock or
    /// movetime limits (the handshake; a turn under nodes= or depth=),
    /// unless its timeout= says otherwise; missing it forfeits the game.
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_MS, value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_MS))]
    timeout: u64,
    /// The first participant plays each of the others (default: round-robin).
    #[arg(long)]
    gauntlet: bool,
    /// How each group of participants is seated: rotate (each plays each
    /// seat equally often) or all (every permutation of the seats).
    #[arg(long, default_value = "rotate")]
    seatings: String,
    /// Play only shard K of N (K from 0): the openings' game groups (with
    /// 2 players, game pairs) numbered K, K+N, K+2N, … in schedule order.
    /// Merge the shards' records with `splut standings`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// random:<steps> (seeded random openings) or the path of an opening
    /// file (one SPN or step list per line).
    #[arg(long, default_value = "random:4")]
    openings: String,
    /// Openings to play (at most 1000000); each is played with every
    /// seating.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=MAX_ROUNDS))]
    rounds: u64,
    /// Stop after this many games.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Seed of the random openings and of the engines' Seed option.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS))]
    concurrency: u64,
    /// Adjudicate a draw after this many game turns (1 to 100000).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=MAX_TURNS as i64))]
    max_turns: u32,
    /// Adjudicate a draw when a position occurs this many times (0: never).
    #[arg(long, default_value_t = 3)]
    repetitions: u32,
    /// Sequential test on game pairs between the first two participants:
    /// elo0 elo1 alpha beta.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// Elo model of the SPRT bounds: normalized or logistic.
    #[arg(long, default_value = "normalized")]
    sprt_model: String,
    /// The game records file (games are appended). One that already holds
    /// games is refused unless --append.
    #[arg(long, default_value = "tournament.games")]
    records: PathBuf,
    /// Add this run's games to a records file that already holds games
    /// (of the very same schedule and shard).
    #[arg(long)]
    append: bool,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

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
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS))]
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

/// A data file format by its name on the command line.
fn data_format(name: &str) -> crate::datagen::Format {
    if name == "binary" {
        crate::datagen::Format::Binary
    } else {
        crate::datagen::Format::Text
    }
}

/// A whole number setting within `min..=max`, or an error naming it.
fn bounded(word: &str, value: &str, min: u64, max: u64, unit: &str) -> Result<u64, String> {
    value
        .parse::<u64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| format!("engine setting '{word}': expected {min} to {max}{unit}"))
}

fn participant(
    words: &[String],
    each: &[String],
    default_tc: &str,
    default_timeout: u64,
    n: usize,
) -> Result<ParticipantSpec, String> {
    let mut name = None;
    let mut program = None;
    let mut tc = None;
    let mut timeout = default_timeout;
    let mut ponder = false;
    let mut options: Vec<(String, String)> = Vec::new();
    // `each` first so the participant's own words win.
    for word in each.iter().chain(words) {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("engine setting '{word}': expected key=value"))?;
        match key {
            "name" => {
                if value.is_empty()
                    || !value
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_-.+".contains(c))
                {
                    return Err(format!(
                        "engine name '{value}': use letters, digits and _-.+"
                    ));
                }
                name = Some(value.to_string());
            }
            "algo" => {
                let a = Algorithm::parse(value).ok_or_else(|| {
                    let all: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                    format!("algo '{value}': expected one of {}", all.join(", "))
                })?;
                program = Some(Program::Builtin {
                    algorithm: a.name().to_string(),
                });
            }
            "cmd" => {
                let command: Vec<String> = value.split_whitespace().map(String::from).collect();
                if command.is_empty() {
                    return Err("cmd= needs a program".into());
                }
                program = Some(Program::External { command });
            }
            "tc" => tc = Some(TimeControl::parse(value)?),
            "timeout" => timeout = bounded(word, value, 1, MAX_TIMEOUT_MS, " ms")?,
            "ponder" => {
                ponder = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("engine setting '{word}': ponder=on or ponder=off")),
                }
            }
            "threads" | "hash" => {
                let opt = if key == "hash" { "Hash" } else { "Threads" };
                check_resource_option(word, opt, value)?;
                options.push((opt.into(), value.into()));
            }
            _ => match key.strip_prefix("option.") {
                Some(opt) if !opt.is_empty() => {
                    // The tournament sums the tables and counts threads: the
                    // same bounds whichever way they are given.
                    check_resource_option(word, opt, value)?;
                    options.push((opt.into(), value.into()))
                }
                _ => return Err(format!("engine setting '{word}': unknown key '{key}'")),
            },
        }
    }
    let program = program.ok_or("each --engine needs algo=<algorithm> or cmd=<program>")?;
    let name = name.unwrap_or_else(|| match &program {
        Program::Builtin { algorithm } => algorithm.clone(),
        Program::External { .. } => format!("engine{n}"),
    });
    let spec = ParticipantSpec {
        name,
        program,
        options,
        tc: match tc {
            Some(t) => t,
            None => TimeControl::parse(default_tc)?,
        },
        timeout: Duration::from_millis(timeout),
        ponder,
    };
    spec.check_options()?;
    Ok(spec)
}

/// `engines`: the words of each `--engine`, one group per occurrence.
fn tournament_config(a: TournamentArgs, engines: Vec<Vec<String>>) -> Result<Config, String> {
    let participants = engines
        .iter()
        .enumerate()
        .map(|(i, words)| participant(words, &a.each, &a.tc, a.timeout, i + 1))
        .collect::<Result<Vec<_>, _>>()?;
    let openings = match a.openings.strip_prefix("random:") {
        Some(n) => OpeningSource::Random(
            n.parse()
                .ok()
                .filter(|&s| s <= MAX_OPENING_STEPS)
                .ok_or_else(|| {
                    format!("--openings random:<steps>: '{n}' is not a number from 0 to {MAX_OPENING_STEPS}")
                })?,
        ),
        None => OpeningSource::File(PathBuf::from(&a.openings)),
    };
    let sprt = match a.sprt {
        None => None,
        Some(v) => {
            let model = match a.sprt_model.as_str() {
                "normalized" => SprtModel::Normalized,
                "logistic" => SprtModel::Logistic,
                m => {
                    return Err(format!(
                        "--sprt-model '{m}': expected normalized or logistic"
                    ));
                }
            };
            let (elo0, elo1, alpha, beta) = (v[0], v[1], v[2], v[3]);
            // Beyond ±1000 Elo the expected scores round to 0 or 1 and the
            // likelihood ratio is no longer a number.
            if !(-1000.0..=1000.0).contains(&elo0) || !(-1000.0..=1000.0).contains(&elo1) {
                return Err("--sprt: elo0 and elo1 must be between -1000 and 1000".into());
            }
            if elo0 >= elo1
                || !(0.0..0.5).contains(&alpha)
                || !(0.0..0.5).contains(&beta)
                || alpha == 0.0
                || beta == 0.0
            {
                return Err("--sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5".into());
            }
            Some(Sprt {
                elo0,
                elo1,
                alpha,
                beta,
                model,
            })
        }
    };
    Ok(Config {
        players: usize::from(a.players),
        participants,
        gauntlet: a.gauntlet,
        seatings: SeatingMode::parse(&a.seatings).map_err(|e| format!("--{e}"))?,
        shard: match &a.shard {
            Some(s) => Shard::parse(s).map_err(|e| format!("--{e}"))?,
            None => Shard::WHOLE,
        },
        openings,
        // Bounded by clap: the conversions are exact on 64-bit machines and
        // saturate elsewhere.
        rounds: usize::try_from(a.rounds).unwrap_or(usize::MAX),
        max_games: a.games.map(|g| usize::try_from(g).unwrap_or(usize::MAX)),
        seed: a.seed,
        concurrency: usize::try_from(a.concurrency).unwrap_or(1),
        adjudication: Adjudication {
            max_turns: a.max_turns,
            repetitions: a.repetitions,
        },
        sprt,
        records: a.records,
        append: a.append,
        progress: !a.no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        quiet: false,
    })
}

/// Replays a records file game by game (one in memory at a time): a bad
/// game is reported with its line, the line of what is wrong (a tag or a
/// turn) and why, and the next one read; the exit code is 1 if any was
/// (or the header, checked and skipped, is bad).
fn run_replay(file: &std::path::Path) -> i32 {
    use splut_play::record::{RecordReader, validate_at};
    let f = match std::fs::File::open(file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", file.display());
            return 2;
        }
    };
    let mut out = std::io::stdout().lock();
    let (mut games, mut bad) = (0usize, 0usize);
    let mut bad_header = false;
    let mut input = std::io::BufReader::new(f);
    // A header (written by `tournament`) is checked and skipped.
    let lines = match crate::tournament::header::read(&mut input) {
        Ok(None) => 0,
        Ok(Some(block)) => {
            if let Err(e) = block.header {
                bad_header = true;
                let _ = writeln!(out, "header (line 1): INVALID: {e}");
            }
            block.lines
        }
        Err(e) => {
            eprintln!("error: {}: header: {e}", file.display());
            return 2;
        }
    };
    let mut reader = RecordReader::after_lines(input, lines);
    // Not a `for` loop: each game's lines are asked of the reader.
    while let Some(game) = reader.next() {
        games += 1;
        let problem = match game {
            Ok((line, g)) => validate_at(&g, reader.lines())
                .err()
                .map(|e| format!("game {} (line {line}): INVALID: {e}", g.number)),
            Err(b) => Some(match b.number {
                Some(n) => format!("game {n} (line {}): INVALID: {}", b.line, b.reason),
                None => format!("game at line {}: INVALID: {}", b.line, b.reason),
            }),
        };
        if let Some(p) = problem {
            bad += 1;
            let _ = writeln!(out, "{p}");
        }
    }
    let _ = writeln!(out, "{games} games, {} valid, {bad} invalid", games - bad);
    i32::from(bad > 0 || bad_header)
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
        Some(Command::Perft {
            depth,
            players,
            spn,
            divide,
            threads,
            no_bulk,
        }) => run_perft(
            depth,
            players,
            spn.as_deref(),
            divide,
            threads as usize,
            !no_bulk,
        ),
        Some(Command::Bench {
            depth,
            threads,
            eval,
        }) => splut_engine::bench::run(depth, threads as usize, &eval),
        Some(Command::Tournament(args)) => {
            match tournament_config(*args, engine_groups).and_then(crate::tournament::run) {
                Ok(code) => code,
                Err(e) => {
                    eprintln!("error: {e}");
                    2
                }
            }
        }
        Some(Command::Datagen(a)) => {
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
            let progress = !a.no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr());
            match crate::datagen::run_to_file(&cfg, &a.output, progress) {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("error: {e}");
                    2
                }
            }
        }
        Some(Command::Tune(a)) => run_tune(&a),
        Some(Command::Train(a)) => run_train(&a),
        Some(Command::Loop(a)) => run_loop(*a),
        Some(Command::Data(a)) => run_data(a),
        Some(Command::Replay { file }) => run_replay(&file),
        Some(Command::Gui(a)) => run_gui(a),
        Some(Command::Standings {
            check: _,
            no_check,
            partial,
            files,
        }) => run_standings(&files, !no_check, partial),
    }
}

/// `splut gui` options.
#[derive(Args, Debug)]
pub struct GuiArgs {
    /// Port to listen on; 0 takes any free port.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. Anything but a loopback address lets other
    /// machines play on this one.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// A name the server is reached by besides its address (a DNS name,
    /// or a proxy's), like `splut.example.org` or
    /// `splut.example.org:443`: accepted in the Host and Origin headers
    /// (`http://` and `https://`). May be given more than once.
    #[arg(long, value_name = "NAME")]
    public_name: Vec<String>,
    /// The engine: any program that speaks the protocol, with its
    /// arguments, started for each game. Default: the engine in this
    /// process, its searches in a shared pool (`--searches`).
    #[arg(long)]
    engine: Option<String>,
    /// Most searches at once of the in-process engine seats, the others
    /// waiting their turn (1 to 256; default: the machine's cores). Not
    /// with `--engine`.
    #[arg(long, value_name = "N", conflicts_with = "engine", value_parser = clap::value_parser!(u64).range(1..=256))]
    searches: Option<u64>,
    /// Most games at once (1 to 1000; default 8).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1000))]
    max_games: u64,
    /// Open the default browser at the page.
    #[arg(long)]
    open: bool,
    /// Seconds after which a game nobody looks at is closed and its
    /// engine stopped (1 to 86400).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    abandon_after: u64,
    /// Milliseconds the engine waits between the steps of its turn, so
    /// each piece can be seen moving (0 to 5000; 0 plays at full speed).
    #[arg(long, value_name = "MS", default_value_t = 350, value_parser = clap::value_parser!(u64).range(0..=5_000))]
    step_pause: u64,
    /// SQLite file the games are kept in (made if missing): each step is
    /// written before it is acknowledged, and unfinished games resume
    /// when the server starts again on the file. Default: kept in memory
    /// only, lost when the server stops.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// When a step written to --db is acknowledged: `disk`, once synced
    /// to the disk (it survives a power cut); `os`, once the operating
    /// system has it (it survives the server's crash or kill -9, not a
    /// power cut), no sync waited for: faster where syncs are slow.
    #[arg(long, value_name = "WHERE", default_value = "disk", value_parser = ["disk", "os"])]
    db_sync: String,
}

/// Starts the GUI's server; exit code 2 if it cannot.
fn run_gui(a: GuiArgs) -> i32 {
    if let Some(e) = a
        .public_name
        .iter()
        .find_map(|n| crate::gui::server::check_public_name(n).err())
    {
        eprintln!("error: {e}");
        return 2;
    }
    let engine = match &a.engine {
        Some(cmd) => match crate::gui::split_command(cmd) {
            Ok(words) => words,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
        None => match std::env::current_exe() {
            Ok(exe) => vec![exe.to_string_lossy().into_owned()],
            Err(e) => {
                eprintln!("error: cannot find this program: {e}");
                return 2;
            }
        },
    };
    // Without --engine the seats play in this process; hints and reviews
    // still start this program (the analyst).
    let searches = match (&a.engine, a.searches) {
        (Some(_), _) => None,
        (None, n) => Some(n.map_or_else(crate::gui::pool::Pool::cores, |n| n as usize)),
    };
    crate::gui::run(crate::gui::Config {
        host: a.host,
        public_names: a.public_name,
        port: a.port,
        engine,
        searches,
        max_games: a.max_games as usize,
        open: a.open,
        abandon_after: std::time::Duration::from_secs(a.abandon_after),
        step_pause: std::time::Duration::from_millis(a.step_pause),
        db: a.db,
        db_sync: a.db_sync == "disk",
    })
}

/// `splut tune` options.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Data files from `splut datagen` (any number; they concatenate).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Only the samples with this many seats in the game (2, 3 or 4);
    /// default: every sample.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: Option<u8>,
    /// Start from these weights (a parameter file, as `EvalFile` loads;
    /// its section for `--players`, or for 2) instead of the compiled-in
    /// ones.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Tune only these weights (comma-separated flat names, e.g.
    /// `dwarf,troll_near_rock.0`); default: all.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Most passes over the weights (1 to 1000).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=1000))]
    max_passes: u64,
    /// The sigmoid's and softmax's scale in centi-units; default: fitted
    /// to the starting weights and kept.
    #[arg(long)]
    scale: Option<f64>,
    /// How positions with 3-4 seats in the game predict the outcome:
    /// `pairs` (every two seats: who finishes ahead) or `softmax` (who
    /// wins).
    #[arg(long, default_value = "pairs")]
    model: crate::tune::Model,
    /// Where the tuned weights go (with `--players`, as that count's
    /// `players <n>` section).
    #[arg(short, long, default_value = "tuned.txt")]
    output: PathBuf,
}

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
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=MAX_THREADS))]
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
    /// A network to start from (its weights, and the best until one
    /// beats it) [default: the engine's own evaluation; training starts
    /// from the compiled-in network's weights].
    #[arg(long)]
    net: Option<PathBuf>,
    /// Threads: games at once, and training's [default: all cores].
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=MAX_THREADS))]
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
fn run_loop(a: LoopArgs) -> i32 {
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
        net: a.net,
        threads,
        shard,
        coordinate: a.coordinate,
        progress: !a.no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr()),
    };
    crate::r#loop::main(&cfg)
}

/// Trains and writes the network; exit code 2 on an error.
fn run_train(a: &TrainArgs) -> i32 {
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
        progress: !a.no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr()),
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

/// `splut data` options.
#[derive(Args, Debug)]
pub struct DataArgs {
    /// Data files, text or binary (known by the binary header), read in
    /// order.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The file written (replaced; it may not be an input).
    #[arg(short, long)]
    output: PathBuf,
    /// The output's format: binary (32 bytes a position) or text.
    #[arg(long, default_value = "binary", value_parser = ["binary", "text"])]
    format: String,
    /// Keep only the first of positions met more than once.
    #[arg(long)]
    dedup: bool,
    /// Shuffle the positions with this seed (the same seed, the same
    /// order).
    #[arg(long)]
    shuffle: Option<u64>,
}

fn run_data(a: DataArgs) -> i32 {
    use crate::datagen::tool::{DataConfig, run};
    let cfg = DataConfig {
        inputs: a.inputs,
        output: a.output,
        format: data_format(&a.format),
        dedup: a.dedup,
        shuffle: a.shuffle,
    };
    match run(&cfg) {
        Ok(r) => {
            let per = r.bytes as f64 / r.written.max(1) as f64;
            eprintln!(
                "read {} positions, dropped {} duplicates, wrote {} to {} ({} bytes, {per:.1} a position{}) in {:.2} s: {:.0} positions/s",
                r.read,
                r.duplicates,
                r.written,
                cfg.output.display(),
                r.bytes,
                if r.renumbered {
                    "; games of several runs numbered afresh as one run, seed 0"
                } else {
                    ""
                },
                r.seconds,
                r.read as f64 / r.seconds.max(1e-9),
            );
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Reads the data, tunes, prints the report and writes the weights; exit
/// code 2 on an error.
fn run_tune(a: &TuneArgs) -> i32 {
    let result = (|| -> Result<String, String> {
        let start = match &a.start {
            // Read as `EvalFile` reads it: an empty file, or one naming
            // no weight, is refused rather than taken as the defaults.
            Some(path) => splut_engine::eval::EvalSet::from_file(&path.to_string_lossy())
                .map_err(|e| e.to_string())?
                .for_players(a.players.map_or(2, u32::from))
                .clone(),
            None => splut_engine::eval::EvalParams::default(),
        };
        let samples = crate::datagen::read_files(&a.files)?;
        let data: Vec<crate::tune::Prepared> = samples
            .iter()
            .filter(|s| {
                a.players
                    .is_none_or(|n| s.position.players_left() == u32::from(n))
            })
            .filter_map(|s| crate::tune::Prepared::new(s, a.model))
            .collect();
        eprintln!("{} samples read, {} used", samples.len(), data.len());
        let cfg = crate::tune::Config {
            only: a.only.clone(),
            max_passes: a.max_passes as usize,
            scale: a.scale,
        };
        let o = crate::tune::tune(&data, &start, &cfg, &mut |pass, loss| {
            eprintln!("pass {pass}: loss {loss:.6}");
        })?;
        // Weights fitted to one count of seats are written as its section.
        let text = match a.players {
            Some(n) => format!("players {n}\n{}", o.params.to_text()),
            None => o.params.to_text(),
        };
        std::fs::write(&a.output, text).map_err(|e| format!("{}: {e}", a.output.display()))?;
        Ok(format!(
            "{}tuned weights written to {}\n",
            crate::tune::report(&o, data.len()),
            a.output.display()
        ))
    })();
    match result {
        Ok(text) => {
            let _ = std::io::stdout().write_all(text.as_bytes());
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Merges records files and prints their standings (when complete and
/// valid, or with `partial`); exit code 1 if a game is invalid, 2 if the
/// files were refused, 3 if games are missing (without `partial`).
fn run_standings(files: &[PathBuf], check: bool, partial: bool) -> i32 {
    let mut on_invalid = |line: String| eprintln!("{line}");
    let m = match crate::tournament::merge::merge(files, check, &mut on_invalid) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let complete = m.missing == 0 && m.invalid == 0;
    if complete || partial {
        // Only the standings on stdout: they compare byte for byte with
        // the whole tournament's.
        // A closed pipe (`| head`) is no reason to panic.
        let _ = std::io::stdout().write_all(m.report.as_bytes());
        let _ = std::io::stdout().flush();
    }
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    eprintln!(
        "{}, {} of the {} scheduled games",
        plural(files.len(), "file"),
        m.games,
        m.scheduled
    );
    if m.missing > 0 {
        eprintln!("missing {}:", plural(m.missing, "game"));
        for line in &m.missing_report {
            eprintln!("  {line}");
        }
    }
    if check {
        eprintln!(
            "checked: {} valid, {} invalid",
            m.games - m.invalid,
            m.invalid
        );
    } else {
        eprintln!(
            "not checked (--no-check): the games were not replayed, \
             so an edited result, step or reason is counted as it stands"
        );
    }
    let mut gaps = Vec::new();
    if m.missing > 0 {
        gaps.push(plural(m.missing, "missing game"));
    }
    if m.invalid > 0 {
        gaps.push(format!(
            "{} (listed above)",
            plural(m.invalid, "invalid game")
        ));
    }
    if !complete {
        let gaps = gaps.join(" and ");
        if partial {
            eprintln!("partial standings: without {gaps}");
        } else {
            eprintln!(
                "error: no standings printed: {gaps}; --partial prints the standings \
                 of the {} {}games found",
                m.games - m.invalid,
                if check { "valid " } else { "" }
            );
        }
    }
    if m.invalid > 0 {
        1
    } else if m.missing > 0 && !partial {
        3
    } else {
        0
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
