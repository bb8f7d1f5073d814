//! `splut datagen`: training positions from self-play, for tuning the
//! evaluation or training a network.
//!
//! Game `n` of a run (numbered from 1) starts from a random opening of
//! `opening_steps` legal steps drawn from a seed that depends only on the
//! run's seed and `n` ([`splut_play::openings::random_openings`],
//! which never leaves a kill on the board). From there every step is
//! chosen by a fixed-node alpha-beta search (an [`splut_engine::engine::Engine`]
//! per thread: `Algorithm auto`, one thread, a table of its own cleared
//! before each game, [`engine_for`]), so a game depends on nothing but the seed, `n` and the options,
//! and a run writes the same bytes with any number of threads.
//!
//! A game ends when one sorcerer is left, when a position occurs for the
//! third time, or after `max_turns` game turns; the last two are draws
//! among the seats still playing (the eliminated seats keep their places).
//!
//! Every position the search chose a step in is a candidate; the opening's
//! positions are not. Each keeps the search's score and every seat's value
//! ([`search_values`]: what the evaluation expects each seat to score at the
//! end of the principal variation), so a network learns each seat's value
//! from the search and not only the side to move's. Candidates are left out when
//! 1. the score is proven (`win`/`loss`): the game is decided, and the
//!    score says nothing about the evaluation;
//! 2. the side to move can kill within its turn
//!    ([`Position::can_kill_this_turn`]): such positions are not quiet, and
//!    their score is the kill's. Unless [`Config::keep_kills`]: the
//!    search's quiescence resolves only kills of one step, so a network
//!    also judges positions where a kill takes two or three, and learns
//!    them from these (kept even with a proven score, which is then the
//!    kill's);
//! 3. more than `per_game` are left: `per_game` of them are drawn at
//!    random (seeded), so long games do not dominate.
//!
//! The kept positions of a game are written together, in game order, once
//! the game is over (the outcome is only known then), games in order of
//! their number; the file format is in [`mod@format`].

pub mod binary;
pub mod format;
pub mod read;
pub mod tool;

pub use format::Format;

pub use format::{NO_VALUE, ReadSummary, Sample, SeatValues, VALUE_UNIT, read_from};
pub use read::{read_files, read_files_with};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use splut_engine::engine::Engine;
use splut_engine::eval::nnue::{Network, seat_values};
use splut_engine::eval::{DEFAULT_SET, seat_scores};
use splut_engine::search::Limits;
use splut_engine::search::score::Score;
use splut_play::judge::{Adjudication, Judge, Reason, places};
use splut_play::openings::{MAX_OPENING_STEPS, random_openings};
use splut_rules::{Game, Position, Step, splitmix64};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, mpsc};

/// Default nodes per step's search (docs/results/speed.md, "Data generation": the
/// throughput it gives).
pub const DEFAULT_NODES: u64 = 500;
/// Default most positions kept per game.
pub const DEFAULT_PER_GAME: usize = 16;

/// Default most positions kept from one game with `players` players:
/// [`DEFAULT_PER_GAME`] with 2, twice that with 3-4, whose games are about
/// twice as long (the same share of each game, and 2,000 positions/s a
/// core at the default nodes).
pub fn default_per_game(players: usize) -> usize {
    if players <= 2 {
        DEFAULT_PER_GAME
    } else {
        2 * DEFAULT_PER_GAME
    }
}
/// Default random opening steps: the first three turns (1, 2 and 3 steps).
pub const DEFAULT_OPENING_STEPS: usize = 6;
/// Default turn limit.
pub const DEFAULT_MAX_TURNS: u32 = 200;
/// Default table per game, MiB.
pub const DEFAULT_HASH_MIB: usize = 2;

/// A position occurring this many times draws the game (as tournaments).
pub const REPETITIONS: u32 = 3;

/// What a run plays and keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Players per game, 2 to 4.
    pub players: usize,
    /// Nodes each step's search may take.
    pub nodes: u64,
    /// Random steps from the start before the game proper.
    pub opening_steps: usize,
    /// Game turns after which a game is drawn.
    pub max_turns: u32,
    /// Most positions kept from one game.
    pub per_game: usize,
    /// The run's seed.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Each game's transposition table, MiB.
    pub hash_mib: usize,
    /// Stop after this many games (`None`: no limit).
    pub games: Option<u64>,
    /// Stop after this many positions (`None`: no limit).
    pub positions: Option<u64>,
    /// The file's format: text lines, or binary records (a header with
    /// the seed first).
    pub format: Format,
    /// The network the searches evaluate with; `None`: the hand-written
    /// evaluation (the bootstrap data, before any network).
    pub net: Option<Arc<Network>>,
    /// Evaluate as the engine does by default (`UseNNUE auto`) rather than
    /// with `net` (or by hand) everywhere: `net` (or the compiled-in
    /// network) where 2 seats are left, `multi_net` (or the hand-written
    /// evaluation) where 3–4 are: how `splut loop` plays.
    pub auto: bool,
    /// The network for searches with 3–4 seats left (`EvalFileMulti`).
    pub multi_net: Option<Arc<Network>>,
    /// Keep the positions where the side to move can kill within its turn
    /// (filter 2 off), with their score even when it is proven.
    pub keep_kills: bool,
    /// Also label the positions along each search's principal variation
    /// (as Descent labels the nodes of its tree): each with the values of
    /// the variation's end, so a search gives several labels, some of
    /// positions the game never reaches ([`pv_labels`]).
    pub pv_labels: bool,
}

/// How many candidates each filter left out, and how the games ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games written.
    pub games: u64,
    /// Games ended by the last sorcerer standing.
    pub decisive: u64,
    /// Games drawn at the turn limit.
    pub turn_limit: u64,
    /// Games drawn by repetition.
    pub repetition: u64,
    /// Positions searched in the games proper (the candidates).
    pub candidates: u64,
    /// With a proven score.
    pub decided: u64,
    /// Where the side to move can kill within its turn (counted also among
    /// the proven ones: the filters overlap).
    pub kill: u64,
    /// Left out by either filter.
    pub filtered: u64,
    /// Left out: over `per_game` in their game.
    pub sampled_out: u64,
    /// Kept, but not written: `--positions` was reached mid-game.
    pub cut: u64,
    /// Written.
    pub written: u64,
    /// Of the candidates, positions along principal variations
    /// ([`Config::pv_labels`]), not searched themselves.
    pub pv_nodes: u64,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.games += o.games;
        self.decisive += o.decisive;
        self.turn_limit += o.turn_limit;
        self.repetition += o.repetition;
        self.candidates += o.candidates;
        self.decided += o.decided;
        self.kill += o.kill;
        self.filtered += o.filtered;
        self.sampled_out += o.sampled_out;
        self.cut += o.cut;
        self.written += o.written;
        self.pv_nodes += o.pv_nodes;
    }

    /// The filters' report: each count and its share of the candidates.
    pub fn report(&self, per_game: usize) -> String {
        let line = |what: &str, n: u64| {
            let share = 100.0 * n as f64 / self.candidates.max(1) as f64;
            format!("{what:<34}{n:>10} ({share:.1}%)\n")
        };
        let mut s = format!(
            "{} game{}: {} won, {} drawn at the turn limit, {} drawn by repetition\n",
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.decisive,
            self.turn_limit,
            self.repetition
        );
        s += &line("positions searched after openings", self.candidates);
        if self.pv_nodes > 0 {
            s += &line("- of which along variations (labels)", self.pv_nodes);
        }
        s += &line("- proven score", self.decided);
        s += &line("- side to move can kill", self.kill);
        s += &line("- either (left out)", self.filtered);
        s += &line(
            &format!("- over {per_game} per game (left out)"),
            self.sampled_out,
        );
        if self.cut > 0 {
            s += &line("- past --positions (left out)", self.cut);
        }
        s += &line("= written", self.written);
        s
    }
}

/// One finished game: its kept positions and its counts.
#[derive(Clone, Debug, Default)]
pub struct GameData {
    /// The kept positions, in game order.
    pub samples: Vec<Sample>,
    /// The filters' counts for this game (`written` is 0 until written).
    pub stats: Stats,
}

/// Spreads the run seed and a game number into a game seed.
fn mix(mut z: u64) -> u64 {
    splitmix64(&mut z)
}

/// The engine a data generation thread searches with: `Algorithm auto`,
/// one thread, a table of `cfg.hash_mib`, the network `cfg.net` (with any
/// count of players) or the hand-written evaluation, no table samples
/// (nobody reads the reports).
pub fn engine_for(cfg: &Config) -> Result<Engine, String> {
    let hash = cfg.hash_mib.to_string();
    let use_nnue = match (cfg.auto, &cfg.net) {
        (true, _) => "auto",
        (false, Some(_)) => "true",
        (false, None) => "false",
    };
    let engine = Engine::with_options(&[
        ("Hash", hash.as_str()),
        ("Threads", "1"),
        ("Algorithm", "auto"),
        ("UseNNUE", use_nnue),
    ])
    .map_err(|e| e.to_string())?;
    if let Some(net) = &cfg.net {
        engine.set_network(net.clone()).map_err(|e| e.to_string())?;
    }
    engine
        .set_multi_network(cfg.multi_net.clone())
        .map_err(|e| e.to_string())?;
    engine.set_table_usage(false);
    Ok(engine)
}

/// The network the search of `root` evaluates with under `cfg` (as
/// [`splut_engine::search::Settings::net_for`] chooses for alpha-beta);
/// `None`: the hand-written evaluation.
pub fn net_at(cfg: &Config, root: &Position) -> Option<Arc<Network>> {
    let multi = root.players_left() >= 3;
    match (cfg.auto, multi) {
        (true, true) => cfg.multi_net.clone(),
        (true, false) => Some(
            cfg.net
                .clone()
                .unwrap_or_else(splut_engine::eval::nnue::default_network),
        ),
        (false, true) => cfg.multi_net.clone().or_else(|| cfg.net.clone()),
        (false, false) => cfg.net.clone(),
    }
}

/// Plays game `number` (from 1) of the run with `engine`; `None` if
/// `stop` was set during it (the game is dropped). The engine starts a
/// new game first (its table cleared).
pub fn play_game(
    cfg: &Config,
    number: u64,
    engine: &Engine,
    stop: &Arc<AtomicBool>,
) -> Result<Option<GameData>, String> {
    let game_seed = mix(cfg.seed ^ mix(number));
    let opening = random_openings(cfg.players, cfg.opening_steps, 1, game_seed)
        .map_err(|e| format!("game {number}: {e}"))?
        .pop()
        .ok_or_else(|| format!("game {number}: no opening"))?;
    let mut game: Game = opening.game();
    engine
        .new_game()
        .map_err(|e| format!("game {number}: {e}"))?;
    let mut pv_nodes = 0;
    let Some((reason, searched)) = self_play(cfg, number, &mut game, engine, stop, &mut pv_nodes)?
    else {
        return Ok(None);
    };
    let mut stats = Stats {
        games: 1,
        candidates: searched.len() as u64,
        pv_nodes,
        ..Stats::default()
    };
    match reason {
        Reason::LastSorcerer => stats.decisive += 1,
        Reason::TurnLimit(_) => stats.turn_limit += 1,
        _ => stats.repetition += 1,
    }
    let places = places(&game, &reason);
    let kept = keep(cfg, game_seed, searched, &mut stats);
    let samples = kept
        .into_iter()
        .map(|(position, score, values)| Sample {
            position,
            score,
            places: places.clone(),
            seed: cfg.seed,
            game: number,
            values: Some(values),
        })
        .collect();
    Ok(Some(GameData { samples, stats }))
}

/// The positions a game's search chose a step in, with its score and the
/// seats' values.
type Searched = Vec<(Position, Score, SeatValues)>;

/// The hand-written evaluation's units per logit when its seat scores are
/// read as values: about the K fitted to its search scores
/// (docs/results/networks.md: 897 on the data of t3 to t6c).
pub const HAND_SCALE: f64 = 900.0;

/// Each seat's value of `root` as its search saw it: the evaluation at the
/// end of the principal variation `pv` (played from `root` as far as it
/// is legal), turned into expected place points (0–1). With the network,
/// sigmoid(value / scale): the quantity it is trained on. With the
/// hand-written evaluation, sigmoid of the seat's score less its
/// opponents' mean over [`HAND_SCALE`]: the paranoid score from that
/// seat's side. A seat in `root`'s game that the variation eliminates
/// scores 0, and one that wins 1; seats out of `root`'s game have none.
pub fn search_values(root: &Position, pv: &[Step], net: Option<&Network>) -> SeatValues {
    let mut leaf = *root;
    for &step in pv {
        if leaf.is_game_over() || !leaf.is_legal(step) {
            break;
        }
        let _undo = leaf.make(step);
    }
    let mut p = [0f64; 4];
    match (leaf.winner(), net) {
        (Some(w), _) => p[w.index()] = 1.0,
        (None, Some(net)) => {
            let v = seat_values(net, &leaf);
            for s in leaf.seats_in_game() {
                p[s.index()] = sigmoid(f64::from(v[s.index()]) / f64::from(net.scale.max(1)));
            }
        }
        (None, None) => {
            let params = DEFAULT_SET.for_players(leaf.players_left());
            let score = seat_scores(&leaf, params);
            let seats: Vec<_> = leaf.seats_in_game().collect();
            let total: i64 = seats.iter().map(|s| i64::from(score[s.index()])).sum();
            for &s in &seats {
                let own = f64::from(score[s.index()]);
                let others = (total as f64 - own) / (seats.len() as f64 - 1.0).max(1.0);
                p[s.index()] = sigmoid((own - others) / HAND_SCALE);
            }
        }
    }
    let mut out = [NO_VALUE; 4];
    for s in root.seats_in_game() {
        out[s.index()] = (p[s.index()] * f64::from(VALUE_UNIT)).round() as u8;
    }
    out
}

/// The positions along the principal variation `pv` searched from `root`
/// (after its first step, as far as the variation is legal and the game
/// goes on), each labelled with its seats' values at the variation's end
/// ([`search_values`]: the leaf is the same, the seats those of the
/// position) and the root's `score`, negated where another seat is to
/// move (exact with 2 players; with 3–4 the paranoid search's score
/// against that seat's coalition).
pub fn pv_labels(cfg: &Config, root: &Position, score: Score, pv: &[Step]) -> Searched {
    let mut out = Vec::new();
    let mut pos = *root;
    for (i, &step) in pv.iter().enumerate() {
        if pos.is_game_over() || !pos.is_legal(step) {
            break;
        }
        let _undo = pos.make(step);
        if pos.is_game_over() || i + 1 == pv.len() {
            break;
        }
        let values = search_values(&pos, &pv[i + 1..], net_at(cfg, &pos).as_deref());
        let own = pos.side_to_move() == root.side_to_move();
        out.push((pos, if own { score } else { negate(score) }, values));
    }
    out
}

/// `s` from the other side.
fn negate(s: Score) -> Score {
    match s {
        Score::Cp(x) => Score::Cp(-x),
        Score::Win(t) => Score::Loss(t),
        Score::Loss(t) => Score::Win(t),
    }
}

/// The logistic function.
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x.clamp(-50.0, 50.0)).exp())
}

/// Plays `game` on from its opening, every step chosen by the search,
/// until the judge ends it: why it ended, and each position searched with
/// its score (and those along its variations with `pv_labels`, counted in
/// `pv_nodes`). `None` if `stop` was set (seen after each search: a
/// search of a few thousand nodes takes milliseconds).
fn self_play(
    cfg: &Config,
    number: u64,
    game: &mut Game,
    engine: &Engine,
    stop: &Arc<AtomicBool>,
    pv_nodes: &mut u64,
) -> Result<Option<(Reason, Searched)>, String> {
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    let mut judge = Judge::new(Adjudication {
        max_turns: cfg.max_turns,
        repetitions: REPETITIONS,
    });
    let mut searched: Searched = Vec::new();
    loop {
        let pos = *game.position();
        if let Some(r) = judge.before_turn(&pos) {
            return Ok(Some((r, searched)));
        }
        // The game's earlier positions count for repetitions.
        let outcome = engine
            .go(game, &limits, |_| {})
            .map_err(|e| format!("game {number}: {e}"))?;
        if stop.load(Relaxed) {
            return Ok(None);
        }
        let step = *outcome
            .turn
            .first()
            .ok_or_else(|| format!("game {number}: the search found no step"))?;
        game.play(step)
            .map_err(|e| format!("game {number}: the search's step: {e}"))?;
        let values = search_values(&pos, &outcome.info.pv, net_at(cfg, &pos).as_deref());
        searched.push((pos, outcome.info.score, values));
        if cfg.pv_labels {
            let along = pv_labels(cfg, &pos, outcome.info.score, &outcome.info.pv);
            *pv_nodes += along.len() as u64;
            searched.extend(along);
        }
        if let Some(r) = judge.after_step(game.position()) {
            return Ok(Some((r, searched)));
        }
    }
}

/// The searched positions kept: the quiet ones (no proven score, no kill
/// for the side to move), at most `per_game` of them drawn at random
/// (seeded by the game), in game order; `stats` counts what was left out.
fn keep(cfg: &Config, game_seed: u64, searched: Searched, stats: &mut Stats) -> Searched {
    let mut quiet = Vec::new();
    for (pos, score, values) in searched {
        let decided = score.is_decided();
        let kill = pos.can_kill_this_turn();
        stats.decided += u64::from(decided);
        stats.kill += u64::from(kill);
        let left_out = if cfg.keep_kills {
            decided && !kill
        } else {
            decided || kill
        };
        if left_out {
            stats.filtered += 1;
        } else {
            quiet.push((pos, score, values));
        }
    }
    let mut rng = SmallRng::seed_from_u64(game_seed ^ 0x5A17_DA7A);
    let mut chosen = if quiet.len() > cfg.per_game {
        rand::seq::index::sample(&mut rng, quiet.len(), cfg.per_game).into_vec()
    } else {
        (0..quiet.len()).collect()
    };
    chosen.sort_unstable();
    stats.sampled_out = (quiet.len() - chosen.len()) as u64;
    chosen.into_iter().map(|i| quiet[i]).collect()
}

/// Checks the options a library caller may get wrong (the command line
/// bounds them too).
fn check(cfg: &Config) -> Result<(), String> {
    if !(2..=4).contains(&cfg.players) {
        return Err(format!("players: {} (expected 2, 3 or 4)", cfg.players));
    }
    let zero = [
        cfg.nodes,
        cfg.per_game as u64,
        cfg.threads as u64,
        cfg.hash_mib as u64,
    ]
    .contains(&0)
        || cfg.max_turns == 0
        || cfg.games == Some(0)
        || cfg.positions == Some(0);
    if zero {
        return Err(
            "nodes, per-game, threads, hash, max-turns, games and positions must be at least 1"
                .into(),
        );
    }
    if cfg.opening_steps > MAX_OPENING_STEPS {
        return Err(format!("opening-steps: at most {MAX_OPENING_STEPS}"));
    }
    Ok(())
}

/// Plays the run's games on `cfg.threads` threads and writes their kept
/// positions to `out` game by game, in game order, flushing after each
/// game; stops after `cfg.games` games or `cfg.positions` positions, or
/// when `stop` is set from outside (a Ctrl-C handler): the games finished
/// by then are written up to the first unfinished one, so the file always
/// holds a prefix of what the run would write. The run sets `stop` itself
/// when it is over, to stop its threads. `progress` is called after each
/// game written with the totals so far.
pub fn run(
    cfg: &Config,
    out: &mut dyn Write,
    stop: &Arc<AtomicBool>,
    progress: &mut dyn FnMut(&Stats),
) -> Result<Stats, String> {
    check(cfg)?;
    // Every table is written whole at each game's start: all of them must
    // fit at once.
    let sum = cfg.threads.saturating_mul(cfg.hash_mib);
    if let Some(avail) = splut_engine::system::available_mib()
        && sum > avail / 100 * splut_engine::system::TABLE_MEMORY_PERCENT
    {
        return Err(format!(
            "{} tables of {} MiB ({sum} MiB) do not fit in the {avail} MiB of memory available",
            cfg.threads, cfg.hash_mib
        ));
    }
    let engines = (0..cfg.threads)
        .map(|_| engine_for(cfg))
        .collect::<Result<Vec<_>, _>>()?;
    let next = AtomicU64::new(1);
    let mut total = Stats::default();
    let (tx, rx) = mpsc::channel::<(u64, Result<Option<GameData>, String>)>();
    std::thread::scope(|scope| {
        for engine in &engines {
            let (tx, next) = (tx.clone(), &next);
            scope.spawn(move || {
                loop {
                    let n = next.fetch_add(1, Relaxed);
                    if cfg.games.is_some_and(|g| n > g) || stop.load(Relaxed) {
                        break;
                    }
                    let game = play_game(cfg, n, engine, stop);
                    if tx.send((n, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let outcome = write_in_order(cfg, &rx, out, &mut total, progress);
        stop.store(true, Relaxed);
        outcome
    })?;
    Ok(total)
}

/// The writing side of [`run`]: games arrive in any order and are written
/// in order of number, until enough are written or the workers are gone.
fn write_in_order(
    cfg: &Config,
    rx: &mpsc::Receiver<(u64, Result<Option<GameData>, String>)>,
    out: &mut dyn Write,
    total: &mut Stats,
    progress: &mut dyn FnMut(&Stats),
) -> Result<(), String> {
    let mut waiting: BTreeMap<u64, GameData> = BTreeMap::new();
    let mut to_write = 1u64;
    while let Ok((n, game)) = rx.recv() {
        // A game abandoned at a stop leaves a gap: nothing after it is
        // written.
        let Some(game) = game? else { continue };
        waiting.insert(n, game);
        while let Some(mut game) = waiting.remove(&to_write) {
            let room = cfg.positions.map_or(u64::MAX, |p| p - total.written);
            let keep = game
                .samples
                .len()
                .min(usize::try_from(room).unwrap_or(usize::MAX));
            let bytes = encode_game(cfg.format, &game.samples[..keep])?;
            // One write and a flush per game: an interrupted run loses at
            // most the line or record being written, cut off before the
            // next run appends.
            out.write_all(&bytes)
                .and_then(|()| out.flush())
                .map_err(|e| format!("writing the data: {e}"))?;
            game.stats.written = keep as u64;
            game.stats.cut = (game.samples.len() - keep) as u64;
            total.add(&game.stats);
            progress(total);
            to_write += 1;
            if cfg.positions.is_some_and(|p| total.written >= p)
                || cfg.games.is_some_and(|g| to_write > g)
            {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// A game's samples as the file's format writes them.
fn encode_game(format: Format, samples: &[Sample]) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    for s in samples {
        match format {
            Format::Text => {
                bytes.extend_from_slice(s.to_line().as_bytes());
                bytes.push(b'\n');
            }
            Format::Binary => bytes.extend_from_slice(&binary::encode(s)?),
        }
    }
    Ok(bytes)
}

/// A binary run appends only to an empty file or a binary one.
fn check_binary_file(file: &mut std::fs::File) -> Result<(), String> {
    use std::io::{Seek, SeekFrom};
    file.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    let magic = binary::read_magic(&mut *file).map_err(|e| e.to_string())?;
    if magic.is_empty() {
        return Ok(());
    }
    if magic != binary::MAGIC {
        return Err(
            "not a binary data file: a binary run appends only to one (or to a new file)".into(),
        );
    }
    file.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    match binary::first_record_size(&mut *file).map_err(|e| e.to_string())? {
        Some(binary::RECORD) => Ok(()),
        _ => Err(format!(
            "a binary data file of an older version: a run appends only to one of version {} \
             (or to a new file)",
            binary::VERSION
        )),
    }
}

/// Cuts a record cut short (left by a killed run) off the end of a
/// binary `file`.
fn cut_partial_record(file: &mut std::fs::File) -> std::io::Result<()> {
    let len = file.metadata()?.len();
    file.set_len(len - len % binary::RECORD as u64)
}

/// Cuts a last line without a newline (left by a killed run) off the end
/// of `file`, so that what is appended starts on a line of its own.
fn cut_partial_line(file: &mut std::fs::File) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let len = file.metadata()?.len();
    let mut end = len;
    let mut buf = [0u8; 4096];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let chunk = &mut buf[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            end = start + i as u64 + 1;
            break;
        }
        end = start;
    }
    if end < len {
        file.set_len(end)?;
    }
    Ok(())
}

/// `splut datagen`: appends the run to the file at `path` (a cut-short
/// last line of an earlier, killed run is removed first), with a progress
/// bar on a terminal if `show_progress`; Ctrl-C stops it, keeping every
/// game written. Prints the filters' report and the speed at the end.
pub fn run_to_file(
    cfg: &Config,
    path: &std::path::Path,
    show_progress: bool,
) -> Result<(), String> {
    check(cfg)?;
    let name = path.display();
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("{name}: {e}"))?;
    let head = match cfg.format {
        Format::Text => {
            cut_partial_line(&mut file).map_err(|e| format!("{name}: {e}"))?;
            // Which evaluation played: net v2 is trained on net v1's games.
            let eval = match &cfg.net {
                Some(net) => format!("nnue {:016x}", net.checksum()),
                None => "hand".into(),
            };
            format!(
                "# splut datagen: players {}, nodes {}, opening-steps {}, max-turns {}, \
                 per-game {}, seed {}, eval {eval}{}{}\n",
                cfg.players,
                cfg.nodes,
                cfg.opening_steps,
                cfg.max_turns,
                cfg.per_game,
                cfg.seed,
                if cfg.keep_kills { ", keep-kills" } else { "" },
                if cfg.pv_labels { ", pv-labels" } else { "" }
            )
            .into_bytes()
        }
        Format::Binary => {
            check_binary_file(&mut file).map_err(|e| format!("{name}: {e}"))?;
            cut_partial_record(&mut file).map_err(|e| format!("{name}: {e}"))?;
            binary::header(cfg.seed).to_vec()
        }
    };
    let mut out = std::io::BufWriter::new(file);
    out.write_all(&head).map_err(|e| format!("{name}: {e}"))?;

    let stop = Arc::new(AtomicBool::new(false));
    {
        let flag = stop.clone();
        // One handler per process; a second run in the same process keeps
        // the first, which then stops nothing (only tests do that).
        let _ = ctrlc::set_handler(move || flag.store(true, Relaxed));
    }
    let (len, unit) = match (cfg.positions, cfg.games) {
        (Some(p), _) => (Some(p), "positions"),
        (None, Some(g)) => (Some(g), "games"),
        (None, None) => (None, "games"),
    };
    let bar = match len {
        _ if !show_progress => indicatif::ProgressBar::hidden(),
        Some(n) => indicatif::ProgressBar::new(n),
        None => indicatif::ProgressBar::no_length(),
    };
    let template = if len.is_some() {
        format!("{{bar:30}} {{pos}}/{{len}} {unit}, {{elapsed}} [{{msg}}]")
    } else {
        format!("{{pos}} {unit}, {{elapsed}} [{{msg}}]")
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let start = std::time::Instant::now();
    let per_second = |n: u64| n as f64 / start.elapsed().as_secs_f64().max(1e-9);
    let stats = run(cfg, &mut out, &stop, &mut |s| {
        bar.set_position(if cfg.positions.is_some() {
            s.written
        } else {
            s.games
        });
        bar.set_message(format!(
            "{} games, {} positions, {:.0} positions/s",
            s.games,
            s.written,
            per_second(s.written)
        ));
    });
    bar.finish_and_clear();
    let stats = stats?;
    // A closed stdout (`| head`) must not panic.
    let mut stdout = std::io::stdout();
    let _ = writeln!(
        stdout,
        "{} positions from {} game{} appended to {name} in {:.1} s: {:.0} positions/s, {} thread{}",
        stats.written,
        stats.games,
        if stats.games == 1 { "" } else { "s" },
        start.elapsed().as_secs_f64(),
        per_second(stats.written),
        cfg.threads,
        if cfg.threads == 1 { "" } else { "s" }
    );
    let _ = write!(stdout, "{}", stats.report(cfg.per_game));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(players: usize) -> Config {
        Config {
            players,
            nodes: 100,
            opening_steps: 0,
            max_turns: 200,
            per_game: 10,
            seed: 1,
            threads: 1,
            hash_mib: 1,
            games: Some(1),
            positions: None,
            format: Format::Binary,
            net: None,
            auto: true,
            multi_net: None,
            keep_kills: true,
            pv_labels: true,
        }
    }

    /// The positions along a variation, each labelled with the values of
    /// the variation's end seen from it; the leaf itself is not one (its
    /// label would be its own evaluation), and the score turns with the
    /// seat to move.
    #[test]
    fn a_variation_labels_the_positions_along_it() {
        for players in [2, 3, 4] {
            let cfg = config(players);
            let root = Position::start(players).unwrap();
            // Five steps: the first seat's turn, then the next seat's.
            let mut pv = Vec::new();
            let mut p = root;
            for _ in 0..5 {
                let step = p.legal_step_vec()[0];
                pv.push(step);
                let _ = p.make(step);
            }
            let along = pv_labels(&cfg, &root, Score::Cp(40), &pv);
            assert_eq!(along.len(), 4, "{players} players");
            let mut p = root;
            for (i, (pos, score, values)) in along.iter().enumerate() {
                let _ = p.make(pv[i]);
                assert_eq!(*pos, p);
                let net = net_at(&cfg, &p);
                assert_eq!(*values, search_values(&p, &pv[i + 1..], net.as_deref()));
                let leaf = search_values(&root, &pv, net.as_deref());
                assert_eq!(*values, leaf, "one leaf");
                let own = p.side_to_move() == root.side_to_move();
                assert_eq!(*score, if own { Score::Cp(40) } else { Score::Cp(-40) });
            }
            // The first turn is one step: the second position is the next
            // seat's.
            assert_ne!(along[1].0.side_to_move(), root.side_to_move());
            // A variation cut by an illegal step stops there.
            let mut bad = pv.clone();
            bad[2] = bad[0];
            assert_eq!(pv_labels(&cfg, &root, Score::Cp(0), &bad).len(), 2);
            assert!(pv_labels(&cfg, &root, Score::Cp(0), &pv[..1]).is_empty());
        }
    }
}
