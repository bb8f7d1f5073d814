//! `splut tournament`: its options, each `--engine`'s words read into a
//! participant, and the tournament's configuration.

use super::MAX_TURNS;
use crate::tournament::participant::{
    DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, ParticipantSpec, Program, TimeControl,
    check_resource_option,
};
use crate::tournament::referee::Adjudication;
use crate::tournament::schedule::{SeatingMode, Shard};
use crate::tournament::stats::{Sprt, SprtModel};
use crate::tournament::{Config, OpeningSource};
use clap::{ArgAction, Args};
use splut_engine::options::THREADS_MAX;
use splut_engine::search::Algorithm;
use splut_play::openings::MAX_OPENING_STEPS;
use std::path::PathBuf;
use std::time::Duration;

/// Most openings (`--rounds`) a tournament plays.
pub const MAX_ROUNDS: u64 = 1_000_000;

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
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=THREADS_MAX))]
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
        progress: super::progress(a.no_progress),
        quiet: false,
    })
}

/// Plays the tournament; exit code 2 if its settings are refused.
/// `engines`: the words of each `--engine`, one group per occurrence.
pub fn run(a: TournamentArgs, engines: Vec<Vec<String>>) -> i32 {
    match tournament_config(a, engines).and_then(crate::tournament::run) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
