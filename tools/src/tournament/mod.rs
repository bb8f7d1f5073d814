//! `splut tournament`: self-play and engine-versus-engine matches with real
//! statistics, in the manner of cutechess-cli and fastchess.
//!
//! - [`participant`]: participants are programs speaking the protocol —
//!   this engine with a chosen algorithm, or any command line — run through
//!   the protocol client ([`splut_play::client`]).
//! - [`referee`]: plays and judges one game.
//! - [`schedule`]: seatings, the games, and which of them a shard plays.
//! - [`header`]: the records file's header, naming its schedule and shard.
//! - [`merge`]: `splut standings`, records files of one schedule merged.
//! - [`stats`] and [`standings`]: Elo, error bars, LOS, SPRT, places.
//!
//! The openings, the judge and the record format are every game's, in
//! [`splut_play`].
//!
//! Every opening is played once per seating, and the seatings rotate the
//! participants over the seats so each plays each seat equally often from
//! every opening (with 2 players: game pairs with the seats swapped), or
//! with `--seatings all` take every permutation.
//! A game's content depends only on its number (opening, seating, seeds),
//! so running games concurrently gives the same games as running them in
//! order — with deterministic limits (`nodes`, `depth`) the very same steps.

pub mod header;
pub mod merge;
pub mod paired;
pub mod participant;
pub mod pool;
pub mod referee;
pub mod schedule;
pub mod standings;
pub mod stats;

use participant::{ParticipantSpec, Program};
use referee::{Adjudication, SeatPlayer};
use schedule::{GameSpec, SeatingMode, Shard};
use splut_engine::system::{TABLE_MEMORY_PERCENT, available_mib};
use splut_play::client::{Client, ClientError};
use splut_play::openings::{self, Opening};
use splut_play::record::{GameRecord, Reason};
use splut_protocol::command::SetOption;
use splut_rules::Seat;
use standings::Standings;
use stats::{Sprt, SprtVerdict};
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// Random openings of this many steps, from the tournament seed.
    Random(usize),
    /// An opening file.
    File(std::path::PathBuf),
}

/// A tournament.
#[derive(Clone, Debug)]
pub struct Config {
    /// 2, 3 or 4.
    pub players: usize,
    /// The participants (names unique).
    pub participants: Vec<ParticipantSpec>,
    /// Participant 0 against each other one, instead of round-robin.
    pub gauntlet: bool,
    /// How each group of participants is seated.
    pub seatings: SeatingMode,
    /// The part of the schedule to play ([`Shard::WHOLE`]: all of it).
    pub shard: Shard,
    /// Openings.
    pub openings: OpeningSource,
    /// How many openings to play (each with every seating).
    pub rounds: usize,
    /// Stop after this many games.
    pub max_games: Option<usize>,
    /// Seed of openings and of the engines' `Seed` option.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Draw rules.
    pub adjudication: Adjudication,
    /// Sequential test between participants 0 and 1 (2 players).
    pub sprt: Option<Sprt>,
    /// The game records file (appended to).
    pub records: std::path::PathBuf,
    /// Add to a records file that already holds games (of this schedule
    /// and shard); without it such a file is refused.
    pub append: bool,
    /// Show a progress bar.
    pub progress: bool,
    /// Print nothing on standard output (no per-game lines, no standings):
    /// for a caller that reads the records itself (`splut loop`'s gate).
    pub quiet: bool,
}

/// Most participants: each worker keeps a process per participant, so
/// this bounds the processes a tournament starts.
pub const MAX_PARTICIPANTS: usize = 64;

/// Most games one tournament schedules (each is kept in memory).
pub const MAX_GAMES: usize = 1_000_000;

/// How long a participant is given to `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// Checks the records file before anything is played: a file that holds
/// games must be of this very schedule and shard (so a merge never mixes
/// tournaments), and is refused without `append` (a second run would
/// record its games twice). Returns whether the file still needs the
/// header (it is missing or empty).
fn check_records(
    path: &std::path::Path,
    head: &header::Header,
    append: bool,
) -> Result<bool, String> {
    let empty = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
    if empty {
        return Ok(true);
    }
    let refuse = |why: String| {
        format!(
            "{} already holds games {why}: give another --records file, or remove it",
            path.display()
        )
    };
    match header::read_file(path)? {
        None => {
            return Err(refuse(
                "and no tournament header (an older splut's?)".into(),
            ));
        }
        Some(h) if h.shard != head.shard => {
            return Err(refuse(format!("of shard {}, not {}", h.shard, head.shard)));
        }
        Some(h) => {
            h.same_schedule(head)
                .map_err(|d| refuse(format!("of another tournament ({d})")))?;
        }
    }
    if !append && holds_games(path)? {
        return Err(format!(
            "{} already holds games of this tournament: running it again would record \
             them twice (which splut standings refuses); give another --records file, \
             or --append to add this run's games to it",
            path.display()
        ));
    }
    Ok(false)
}

/// Whether a records file has anything but blank lines after its header.
fn holds_games(path: &std::path::Path) -> Result<bool, String> {
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let mut r = std::io::BufReader::new(std::fs::File::open(path).map_err(cannot)?);
    header::read(&mut r).map_err(|e| format!("{}: header: {e}", path.display()))?;
    loop {
        let buf = r.fill_buf().map_err(cannot)?;
        if buf.is_empty() {
            return Ok(false);
        }
        if buf.iter().any(|b| !b.is_ascii_whitespace()) {
            return Ok(true);
        }
        let n = buf.len();
        r.consume(n);
    }
}

/// Opens the records file to append to, writing the header first when
/// [`check_records`] said it needs one.
fn open_records(
    path: &std::path::Path,
    head: &header::Header,
    needs_header: bool,
) -> Result<std::fs::File, String> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    if needs_header {
        f.write_all(head.to_text().as_bytes())
            .and_then(|_| f.flush())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(f)
}

/// The hash table MiB of one process of a participant: its `Hash` option,
/// or for this engine its default; unknown (0) for another program.
fn hash_mib(p: &ParticipantSpec) -> usize {
    let set = p
        .options
        .iter()
        .rev()
        .find(|(name, _)| name.eq_ignore_ascii_case("hash"))
        .and_then(|(_, v)| v.parse().ok());
    match (set, &p.program) {
        (Some(mib), _) => mib,
        (None, Program::Builtin { .. }) => participant::BUILTIN_HASH_MIB,
        (None, Program::External { .. }) => 0,
    }
}

/// Starts every participant once: one that refuses an option it is given
/// (a missing `EvalFile`, an option an external engine lacks) would play
/// with other settings than asked, so the tournament does not start.
/// Other failures are left to the games, which record them as forfeits.
fn check_options_accepted(cfg: &Config) -> Result<(), String> {
    for p in &cfg.participants {
        // A started one is dropped, which kills it.
        if let Err(ClientError::Refused(e)) = participant::start(p) {
            return Err(format!("participant {}: it refused an option: {e}", p.name));
        }
    }
    Ok(())
}

/// Refuses a tournament whose engines' hash tables, summed over every
/// process that can be alive at once, do not fit in 90% of `available`
/// MiB (the engine's rule for one table). A worker keeps a process per
/// participant and per place that participant takes in one game, so the
/// peak is `workers` × the sum over those processes.
fn check_memory(cfg: &Config, games: &[GameSpec], available: Option<usize>) -> Result<(), String> {
    let Some(avail) = available else {
        return Ok(());
    };
    let mut kept: HashSet<(usize, usize)> = HashSet::new();
    for g in games {
        kept.extend(process_keys(&g.seating));
    }
    let workers = cfg.concurrency.max(1).min(games.len().max(1));
    let mut per_worker = 0usize;
    let mut parts: Vec<String> = Vec::new();
    for (i, p) in cfg.participants.iter().enumerate() {
        let procs = kept.iter().filter(|k| k.0 == i).count();
        let mib = hash_mib(p);
        if procs > 0 && mib > 0 {
            per_worker = per_worker.saturating_add(procs.saturating_mul(mib));
            parts.push(format!("{} {procs} × {mib} MiB", p.name));
        }
    }
    let total = per_worker.saturating_mul(workers);
    let limit = avail / 100 * TABLE_MEMORY_PERCENT;
    if total > limit {
        return Err(format!(
            "the engines' hash tables would take {total} MiB at once \
             ({workers} game{} at a time × ({})), more than {limit} MiB \
             ({TABLE_MEMORY_PERCENT}% of the {avail} MiB of memory available): lower hash= or --concurrency",
            if workers == 1 { "" } else { "s" },
            parts.join(" + ")
        ));
    }
    Ok(())
}

/// The processes a worker keeps for a seating: (participant, how many
/// times it already sits at this table), so a participant playing itself
/// has one process per place and one playing once has one in all.
fn process_keys(seating: &[usize]) -> Vec<(usize, usize)> {
    seating
        .iter()
        .enumerate()
        .map(|(slot, &p)| (p, seating[..slot].iter().filter(|&&q| q == p).count()))
        .collect()
}

/// A forfeit recorded without playing: a participant could not start.
fn unplayed(
    spec: &GameSpec,
    cfg: &Config,
    opening: &Opening,
    seats: &[Seat],
    failed: Seat,
    why: ClientError,
) -> GameRecord {
    let names: Vec<(Seat, String)> = seats
        .iter()
        .zip(&spec.seating)
        .map(|(&s, &p)| (s, cfg.participants[p].name.clone()))
        .collect();
    let reason = Reason::Forfeit {
        seat: failed,
        what: participant::forfeit(why),
    };
    let labels = opening.labels(spec.number, names, String::new());
    GameRecord::new(labels, &opening.game(), reason)
}

/// Refuses a configuration the command line would not give.
fn check_config(cfg: &Config) -> Result<(), String> {
    if !(2..=4).contains(&cfg.players) {
        return Err("--players must be 2, 3 or 4".into());
    }
    if cfg.participants.len() < 2 {
        return Err("a tournament needs at least two participants (--engine …)".into());
    }
    for (i, p) in cfg.participants.iter().enumerate() {
        if cfg.participants[..i].iter().any(|q| q.name == p.name) {
            return Err(format!("two participants are named '{}'", p.name));
        }
    }
    if cfg.participants.len() > MAX_PARTICIPANTS {
        return Err(format!(
            "{} participants: at most {MAX_PARTICIPANTS}",
            cfg.participants.len()
        ));
    }
    if cfg.sprt.is_some() && (cfg.players != 2 || cfg.participants.len() != 2) {
        return Err("--sprt needs 2 players and exactly 2 participants".into());
    }
    Ok(())
}

/// The first `rounds` openings, and their name in the header.
fn load_openings(cfg: &Config, rounds: usize) -> Result<(Vec<Opening>, String), String> {
    match &cfg.openings {
        OpeningSource::Random(steps) => Ok((
            openings::random_openings(cfg.players, *steps, rounds, cfg.seed)?,
            format!("random:{steps}"),
        )),
        OpeningSource::File(path) => {
            let (all, text) = openings::read_opening_file(path, cfg.players)?;
            // By content: the path differs between the machines of a
            // sharded run.
            let name = format!("file fnv1a {:016x}", header::fnv1a(text.as_bytes()));
            Ok((
                (0..rounds).map(|i| all[i % all.len()].clone()).collect(),
                name,
            ))
        }
    }
}

/// Runs a tournament; returns the exit code (0 done, 130 interrupted).
pub fn run(cfg: Config) -> Result<i32, String> {
    check_config(&cfg)?;
    // Counted before anything is made: a round-robin of many participants
    // in 4-player games has millions of seatings.
    // Only the openings the games reach (opening `i` does not depend on
    // how many are made).
    let (per_opening, rounds) = schedule::plan(
        cfg.participants.len(),
        cfg.players,
        cfg.gauntlet,
        cfg.seatings,
        cfg.rounds,
        cfg.max_games,
    )?;
    let (openings, openings_name) = load_openings(&cfg, rounds)?;
    let all_games = schedule::schedule(cfg.players, &per_opening, openings.len(), cfg.max_games);
    let scheduled = all_games.len();
    let games: Vec<GameSpec> = all_games
        .into_iter()
        .filter(|g| cfg.shard.has(g.unit))
        .collect();
    check_memory(&cfg, &games, available_mib())?;
    let head = header::Header::new(&cfg, &openings_name);
    let needs_header = check_records(&cfg.records, &head, cfg.append)?;
    check_options_accepted(&cfg)?;
    let records = open_records(&cfg.records, &head, needs_header)?;

    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupted.clone();
        // Only one handler per process; a second tournament in the same
        // process keeps the first.
        let _ = ctrlc::set_handler(move || flag.store(true, Relaxed));
    }
    let mut report = Reporter::new(cfg.progress, games.len(), scheduled);
    report.quiet = cfg.quiet;
    let shard_note = if cfg.shard.is_whole() {
        String::new()
    } else {
        format!(" of {scheduled}, shard {}", cfg.shard)
    };
    report.say(&format!(
        "{} players, {} participants, {} openings, {} games{shard_note}, concurrency {}",
        cfg.players,
        cfg.participants.len(),
        openings.len(),
        games.len(),
        cfg.concurrency.max(1)
    ));
    let total = games.len();
    let end = drive(&cfg, games, &openings, records, &mut report, &interrupted);
    report.bar.finish_and_clear();
    let was_interrupted = interrupted.load(Relaxed);
    if was_interrupted {
        report.print(&format!(
            "interrupted: {} of {total} games finished and recorded\n",
            end.finished
        ));
    }
    if let Some((llr, verdict)) = end.sprt {
        report.print(&format!(
            "SPRT decided after {} games: LLR {llr:.2}, {verdict:?}\n",
            end.finished
        ));
    }
    report.print(&end.standings.report(cfg.sprt.as_ref()));
    report.print(&format!("records: {}\n", cfg.records.display()));
    Ok(if was_interrupted { 130 } else { 0 })
}

/// Standard output that a closed pipe does not crash (`splut tournament
/// … | head`): once a write fails, nothing more is written.
struct Stdout {
    closed: bool,
}

impl Stdout {
    fn write(&mut self, text: &str) {
        if self.closed {
            return;
        }
        let mut out = std::io::stdout().lock();
        if out
            .write_all(text.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            self.closed = true;
        }
    }
}

/// What a tournament says while it plays: the progress bar (on a
/// terminal, with the per-game lines above it) or the per-game lines on
/// standard output.
struct Reporter {
    bar: indicatif::ProgressBar,
    out: Stdout,
    /// Games in the whole schedule (a shard plays some of them).
    scheduled: usize,
    /// Say nothing (the bar still shows).
    quiet: bool,
}

impl Reporter {
    fn new(progress: bool, total: usize, scheduled: usize) -> Reporter {
        let bar = if progress {
            indicatif::ProgressBar::new(total as u64)
        } else {
            indicatif::ProgressBar::hidden()
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games, {elapsed} [{msg}]",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Reporter {
            bar,
            out: Stdout { closed: false },
            scheduled,
            quiet: false,
        }
    }

    /// A line above the bar, or on standard output.
    fn say(&mut self, line: &str) {
        if self.quiet {
            return;
        }
        if self.bar.is_hidden() {
            self.out.write(&format!("{line}\n"));
        } else {
            self.bar.println(line);
        }
    }

    /// Text on standard output.
    fn print(&mut self, text: &str) {
        if !self.quiet {
            self.out.write(text);
        }
    }

    /// Whether standard output is gone (its reader closed the pipe).
    fn closed(&self) -> bool {
        self.out.closed
    }

    /// A game ended: its line, and the bar moves on.
    fn game(&mut self, record: &GameRecord, standings: &Standings) {
        let who: Vec<String> = record
            .seats
            .iter()
            .map(|(s, n)| format!("{n} ({})", s.letter()))
            .collect();
        let places: Vec<String> = record
            .places
            .iter()
            .map(|g| {
                g.iter()
                    .map(|s| s.letter().to_string())
                    .collect::<Vec<_>>()
                    .join("=")
            })
            .collect();
        self.say(&format!(
            "game {}/{}: {}: {} ({})",
            record.number,
            self.scheduled,
            who.join(" vs "),
            places.join(" > "),
            record.reason
        ));
        self.bar.inc(1);
        self.bar.set_message(standings.short());
    }
}

/// How the games went.
struct End {
    standings: Standings,
    finished: usize,
    /// The SPRT's log-likelihood ratio and verdict, if it decided.
    sprt: Option<(f64, SprtVerdict)>,
}

/// Plays `games` on `cfg.concurrency` workers, recording and reporting
/// each as it ends, until all are played, the SPRT decides, Ctrl-C
/// (`interrupted`) or the reader of standard output is gone.
fn drive(
    cfg: &Config,
    games: Vec<GameSpec>,
    openings: &[Opening],
    mut records: std::fs::File,
    report: &mut Reporter,
    interrupted: &Arc<AtomicBool>,
) -> End {
    let total = games.len();
    let abort = Arc::new(AtomicBool::new(false));
    let names: Vec<String> = cfg.participants.iter().map(|p| p.name.clone()).collect();
    let mut end = End {
        standings: Standings::new(names, cfg.players),
        finished: 0,
        sprt: None,
    };
    let queue: Mutex<VecDeque<GameSpec>> = Mutex::new(games.into_iter().collect());
    let (tx, rx) = std::sync::mpsc::channel::<(GameSpec, GameRecord)>();
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1) {
            let (queue, tx) = (&queue, tx.clone());
            let (abort, interrupted) = (abort.clone(), interrupted.clone());
            scope.spawn(move || worker(queue, tx, cfg, openings, &abort, &interrupted));
        }
        drop(tx);
        for (spec, record) in rx {
            end.finished += 1;
            let _ = records.write_all(record.to_text().as_bytes());
            let _ = records.flush();
            end.standings.add(&record, spec.pair);
            report.game(&record, &end.standings);
            if end.finished.is_multiple_of(20) && end.finished < total {
                report.say(&end.standings.report(cfg.sprt.as_ref()));
            }
            // A shard sees part of the pairs: the test is decided on all
            // of them, by `splut standings`.
            if let Some(sprt) = cfg.sprt.as_ref().filter(|_| cfg.shard.is_whole()) {
                let (llr, verdict) = end.standings.sprt(sprt);
                if verdict != SprtVerdict::Continue && end.sprt.is_none() {
                    end.sprt = Some((llr, verdict));
                    abort.store(true, Relaxed);
                }
            }
            if interrupted.load(Relaxed) || report.closed() {
                abort.store(true, Relaxed);
            }
        }
    });
    end
}

/// One concurrency slot: takes games off the queue and plays them, keeping
/// a process per participant and place at the table (see [`process_keys`])
/// between games.
fn worker(
    queue: &Mutex<VecDeque<GameSpec>>,
    tx: std::sync::mpsc::Sender<(GameSpec, GameRecord)>,
    cfg: &Config,
    openings: &[Opening],
    abort: &AtomicBool,
    interrupted: &AtomicBool,
) {
    let mut procs: Procs = HashMap::new();
    loop {
        if abort.load(Relaxed) || interrupted.load(Relaxed) {
            break;
        }
        let Some(spec) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            break;
        };
        let opening = &openings[spec.opening];
        let seats: Vec<Seat> = opening.position().seats_in_game().collect();
        let record = match seat_processes(&mut procs, &spec, cfg, &seats) {
            Err((seat, e)) => unplayed(&spec, cfg, opening, &seats, seat, e),
            Ok(()) => match play_game(&mut procs, &spec, cfg, opening, &seats, abort) {
                Some(record) => record,
                None => break,
            },
        };
        if tx.send((spec, record)).is_err() {
            break;
        }
    }
    for (_, p) in procs {
        p.quit(QUIT_GRACE);
    }
}

/// A worker's processes, by [`process_keys`].
type Procs = HashMap<(usize, usize), Client>;

/// Makes sure every seat of the game has its process, started if need be,
/// and gives each built-in engine its seed for the game. `Err`: the seat
/// whose process failed (its process is dropped).
fn seat_processes(
    procs: &mut Procs,
    spec: &GameSpec,
    cfg: &Config,
    seats: &[Seat],
) -> Result<(), (Seat, ClientError)> {
    let keys = process_keys(&spec.seating);
    for (slot, &p) in spec.seating.iter().enumerate() {
        let key = keys[slot];
        if let std::collections::hash_map::Entry::Vacant(v) = procs.entry(key) {
            v.insert(participant::start(&cfg.participants[p]).map_err(|e| (seats[slot], e))?);
        }
        // Randomised searches get a seed that depends on the game only.
        if let (Program::Builtin { .. }, Some(client)) =
            (&cfg.participants[p].program, procs.get_mut(&key))
        {
            let seed = cfg.seed ^ (spec.number as u64).wrapping_mul(0x9E37_79B9) ^ slot as u64;
            if let Err(e) =
                client.command(&SetOption::new("Seed", (seed & 0xFFFF_FFFF).to_string()).into())
            {
                procs.remove(&key);
                return Err((seats[slot], e));
            }
        }
    }
    Ok(())
}

/// Plays one game with the worker's processes (all there: see
/// [`seat_processes`]); a process that failed is stopped, the others are
/// kept for the next game. `None` if the game was aborted.
fn play_game(
    procs: &mut Procs,
    spec: &GameSpec,
    cfg: &Config,
    opening: &Opening,
    seats: &[Seat],
    abort: &AtomicBool,
) -> Option<GameRecord> {
    let keys = process_keys(&spec.seating);
    let mut taken: Vec<(usize, Client)> = keys
        .iter()
        .enumerate()
        .filter_map(|(slot, key)| procs.remove(key).map(|c| (slot, c)))
        .collect();
    let played = {
        let mut players: Vec<SeatPlayer<'_>> = taken
            .iter_mut()
            .map(|(slot, client)| {
                let p = &cfg.participants[spec.seating[*slot]];
                SeatPlayer {
                    seat: seats[*slot],
                    name: p.name.clone(),
                    tc: p.tc,
                    process: client,
                    ponder: p.ponder,
                    pondering: None,
                }
            })
            .collect();
        referee::play(spec.number, opening, &mut players, cfg.adjudication, abort)
    };
    let Some(played) = played else {
        // Dropped: the processes of an aborted game are killed.
        return None;
    };
    for (slot, client) in taken {
        if played.restart != Some(seats[slot]) {
            procs.insert(keys[slot], client);
        } else {
            client.quit(QUIT_GRACE);
        }
    }
    Some(played.record)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(participants: &[(&str, Option<&str>)], players: usize, concurrency: usize) -> Config {
        Config {
            players,
            participants: participants
                .iter()
                .map(|(name, hash)| ParticipantSpec {
                    name: name.to_string(),
                    program: Program::Builtin {
                        algorithm: "random".into(),
                    },
                    options: hash
                        .map(|h| vec![("Hash".to_string(), h.to_string())])
                        .unwrap_or_default(),
                    tc: participant::TimeControl::Nodes(100),
                    timeout: std::time::Duration::from_secs(1),
                    ponder: false,
                })
                .collect(),
            gauntlet: false,
            seatings: SeatingMode::Rotate,
            shard: Shard::WHOLE,
            openings: OpeningSource::Random(0),
            rounds: 2,
            max_games: None,
            seed: 1,
            concurrency,
            adjudication: Adjudication {
                max_turns: 10,
                repetitions: 3,
            },
            sprt: None,
            records: "unused".into(),
            append: false,
            progress: false,
            quiet: false,
        }
    }

    #[test]
    fn hash_tables_are_summed_over_every_process_alive_at_once() {
        let per_opening = |c: &Config| {
            schedule::seatings(c.participants.len(), c.players, c.gauntlet, c.seatings)
        };
        // 8000 MiB each fits alone in 24000 MiB; two games of two
        // participants (4 processes, 32000 MiB) do not.
        let c = config(&[("a", Some("8000")), ("b", Some("8000"))], 2, 2);
        let games = schedule::schedule(c.players, &per_opening(&c), 2, None);
        let e = check_memory(&c, &games, Some(24_000)).unwrap_err();
        assert!(
            e.contains("would take 32000 MiB at once (2 games at a time × (a 1 × 8000 MiB + b 1 × 8000 MiB)), more than 21600 MiB (90% of the 24000 MiB"),
            "{e}"
        );
        // One game at a time fits, and so does anything where the system
        // does not say what it has.
        let c = config(&[("a", Some("8000")), ("b", Some("8000"))], 2, 1);
        assert_eq!(check_memory(&c, &games, Some(24_000)), Ok(()));
        assert_eq!(check_memory(&c, &games, None), Ok(()));
        // A participant playing itself round a 4-player table has a process
        // per place; this engine's default table counts when none is set.
        let c = config(&[("a", Some("3000")), ("b", None)], 4, 1);
        let games = schedule::schedule(c.players, &per_opening(&c), 1, None);
        let e = check_memory(&c, &games, Some(6_000)).unwrap_err();
        assert!(e.contains("(a 2 × 3000 MiB + b 2 × 64 MiB)"), "{e}");
        // Concurrency beyond the games played adds nothing.
        let c = config(&[("a", Some("5000")), ("b", Some("5000"))], 2, 8);
        let one = schedule::schedule(c.players, &per_opening(&c), 1, None)[..1].to_vec();
        assert_eq!(check_memory(&c, &one, Some(12_000)), Ok(()));
    }
}
