//! `splut loop`: the engine improves itself, round after round, as
//! KataGo and expert iteration do: self-play with the best network so far
//! (or the newest, `--selfplay newest`) → every seat's targets → training
//! from the last weights → a gate against the best → promotion
//! (docs/usage.md, "splut loop").
//!
//! - [`manifest`]: `DIR/loop.json`, the settings and every finished step.
//! - [`selfplay`]: a round's games, in shards, as data files.
//! - [`gate`]: the new network against the best, in shards, and the
//!   decision.
//!
//! Every step writes its files under a temporary name and renames them
//! when whole, then records itself in the manifest: a loop killed at any
//! moment (`kill -9`) and started again goes on from the last finished
//! step, or the last finished shard; a directory whose rounds are all done
//! does nothing. Self-play and the gate are cut into shards by seed
//! ([`manifest::Settings::shards`]): `--shard K/N` plays one, so a Slurm
//! array or a Kubernetes indexed Job can play a round's shards while
//! `--coordinate` does the rest (scripts/loop-slurm).

pub mod gate;
pub mod manifest;
pub mod selfplay;

use manifest::{Manifest, Round, SelfPlayBy, Settings, Train};
use splut_engine::eval::nnue::{Network, default_network};
use splut_rules::splitmix64;
// Files are written whole or not at all, as training writes them.
pub(crate) use crate::train::{tmp_path, write_file};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Default self-play games a round: about 10 minutes of both cores at the
/// default nodes.
pub const DEFAULT_GAMES: u64 = 400;
/// Default nodes a step in self-play: a 3-player game takes about half a
/// second of one core.
pub const DEFAULT_NODES: u64 = 2_000;
/// Default gate games for each count of players.
pub const DEFAULT_GATE_GAMES: u64 = 300;
/// Default rounds of data a training reads.
pub const DEFAULT_WINDOW: u32 = 3;
/// Default training epochs a round.
pub const DEFAULT_EPOCHS: u32 = 4;
/// Default starting learning rate: half of a fresh training's, as each
/// round goes on from trained weights.
pub const DEFAULT_LR: f64 = 0.0005;
/// Default weight of the search's seat values in each seat's target (the
/// game's result, much noisier with 3–4 seats, has the rest).
pub const DEFAULT_LAMBDA_VALUES: f64 = 0.8;
/// Default place points a new network must reach to be promoted.
pub const DEFAULT_THRESHOLD: f64 = 0.52;
/// Positions kept from a self-play game: every searched one.
const PER_GAME: usize = 1_000_000;

/// What `splut loop` was asked; settings not given are the manifest's
/// (or, for a new loop, the defaults).
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The loop's directory.
    pub dir: PathBuf,
    /// Rounds to have done (a later start may ask for more).
    pub rounds: u32,
    /// Counts of players.
    pub players: Option<Vec<usize>>,
    /// Self-play games a round.
    pub games: Option<u64>,
    /// Nodes a step in self-play.
    pub nodes: Option<u64>,
    /// Gate games for each count.
    pub gate_games: Option<u64>,
    /// Nodes a turn in the gate (default 3 × `nodes`: a turn is up to
    /// three steps).
    pub gate_nodes: Option<u64>,
    /// The loop's seed.
    pub seed: Option<u64>,
    /// Rounds of data a training reads.
    pub window: Option<u32>,
    /// Training epochs a round.
    pub epochs: Option<u32>,
    /// Training's starting learning rate.
    pub lr: Option<f64>,
    /// Weight of the seat values in the targets.
    pub lambda_values: Option<f64>,
    /// Place points to be promoted.
    pub threshold: Option<f64>,
    /// Shards of self-play and the gate.
    pub shards: Option<u32>,
    /// Which network plays self-play.
    pub selfplay: Option<SelfPlayBy>,
    /// Label the positions along the searches' variations too (`None`:
    /// not given).
    pub pv_labels: Option<bool>,
    /// Games a round for each count against the hand-written evaluation
    /// (the reference).
    pub hand_games: Option<u64>,
    /// A network file to start from.
    pub net: Option<PathBuf>,
    /// Threads (games at once, training's threads).
    pub threads: usize,
    /// Play only this shard of the pending step, then stop.
    pub shard: Option<(u32, u32)>,
    /// Do every step but the shards; stop when shards are missing.
    pub coordinate: bool,
    /// Progress bars.
    pub progress: bool,
}

/// How a run of the loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every round asked for is done.
    Done,
    /// A shard was played (`--shard`), or there was none to play.
    Shard,
    /// Shards are missing (`--coordinate`): they must be played first.
    ShardsMissing,
}

/// The files of one sharded step of a round (`step`: "selfplay" or
/// "gate"): `round-RRR/<step>-pP-sKofN.<ext>` for each count P and shard
/// K of N, and `round-RRR/<step>-sKofN.json`, there once shard K is done.
pub struct ShardFiles {
    /// The loop's directory.
    pub dir: PathBuf,
    /// The round's number.
    pub round: u32,
    /// Shards, N.
    pub count: u32,
    /// Counts of players.
    pub players: Vec<usize>,
    step: &'static str,
}

impl ShardFiles {
    /// `step`'s files of `round` in the loop's directory `dir`.
    pub fn new(dir: &Path, s: &Settings, round: &Round, step: &'static str) -> ShardFiles {
        ShardFiles {
            dir: dir.to_path_buf(),
            round: round.round,
            count: s.shards,
            players: s.players.clone(),
            step,
        }
    }

    /// Shard `k`'s file for `players`, with extension `ext`, relative to
    /// the directory.
    pub fn file(&self, players: usize, k: u32, ext: &str) -> String {
        format!(
            "{}/{}-p{players}-s{k}of{}.{ext}",
            round_dir(self.round),
            self.step,
            self.count
        )
    }

    /// Shard `k`'s record of what it did: there once it is done.
    pub fn done_file(&self, k: u32) -> PathBuf {
        self.dir.join(format!(
            "{}/{}-s{k}of{}.json",
            round_dir(self.round),
            self.step,
            self.count
        ))
    }

    fn done(&self, k: u32) -> bool {
        self.done_file(k).exists()
    }

    /// Plays what `cfg` asks of the step (named `what` in what it says):
    /// its one shard (`--shard`), or every missing one, each by `play`;
    /// stops with `Some` when the run ends here (a shard played, or
    /// shards missing under `--coordinate`), `None` once every shard is
    /// done.
    pub fn play(
        &self,
        cfg: &Config,
        what: &str,
        say: &mut dyn FnMut(&str),
        mut play: impl FnMut(u32, &mut dyn FnMut(&str)) -> Result<(), String>,
    ) -> Result<Option<Ended>, String> {
        let (round, count) = (self.round, self.count);
        if let Some((k, _)) = cfg.shard {
            if self.done(k) {
                say(&format!(
                    "round {round}: {what} shard {k}/{count} is done already"
                ));
            } else {
                play(k, say)?;
            }
            return Ok(Some(Ended::Shard));
        }
        let missing: Vec<u32> = (0..count).filter(|&k| !self.done(k)).collect();
        if missing.is_empty() {
            return Ok(None);
        }
        if cfg.coordinate {
            let list: Vec<String> = missing.iter().map(u32::to_string).collect();
            say(&format!(
                "round {round}: {what} shards missing: {} of {count} (play them with --shard K/{count})",
                list.join(", ")
            ));
            return Ok(Some(Ended::ShardsMissing));
        }
        for k in missing {
            play(k, say)?;
        }
        Ok(None)
    }
}

/// Round `r`'s seed.
fn round_seed(seed: u64, r: u32) -> u64 {
    let mut z = seed ^ u64::from(r).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    splitmix64(&mut z)
}

/// Round `r`'s directory name.
pub fn round_dir(r: u32) -> String {
    format!("round-{r:03}")
}

/// The settings of a new loop: the given ones, the defaults for the rest.
fn new_settings(cfg: &Config, start: Option<&Network>) -> Result<Settings, String> {
    let nodes = cfg.nodes.unwrap_or(DEFAULT_NODES);
    let scale = start.map_or_else(|| default_network().scale, |n| n.scale);
    let s = Settings {
        players: cfg.players.clone().unwrap_or_else(|| vec![3, 4]),
        games: cfg.games.unwrap_or(DEFAULT_GAMES),
        nodes,
        gate_games: cfg.gate_games.unwrap_or(DEFAULT_GATE_GAMES),
        gate_nodes: cfg.gate_nodes.unwrap_or(3 * nodes),
        seed: cfg.seed.unwrap_or(1),
        window: cfg.window.unwrap_or(DEFAULT_WINDOW),
        epochs: cfg.epochs.unwrap_or(DEFAULT_EPOCHS),
        lr: cfg.lr.unwrap_or(DEFAULT_LR),
        lambda_values: cfg.lambda_values.unwrap_or(DEFAULT_LAMBDA_VALUES),
        scale: 2.0 * f64::from(scale),
        threshold: cfg.threshold.unwrap_or(DEFAULT_THRESHOLD),
        shards: cfg.shards.unwrap_or(1),
        start: start.map(|_| "start.nnue".to_string()),
        selfplay: cfg.selfplay.unwrap_or_default(),
        pv_labels: cfg.pv_labels.unwrap_or(false),
        hand_games: cfg.hand_games.unwrap_or(0),
    };
    check_settings(&s)?;
    Ok(s)
}

/// The bounds of the settings (the command line's too).
fn check_settings(s: &Settings) -> Result<(), String> {
    let mut seen = [false; 5];
    for &p in &s.players {
        if !(2..=4).contains(&p) || std::mem::replace(&mut seen[p], true) {
            return Err("--players: counts of 2, 3 or 4, each once (e.g. 3,4)".into());
        }
    }
    if s.players.is_empty() {
        return Err("--players: at least one count".into());
    }
    let counts = s.players.len() as u64;
    if s.games < counts || s.gate_games < 2 || s.nodes == 0 || s.gate_nodes == 0 {
        return Err(
            "--games must give each count a game, --gate-games be at least 2, nodes at least 1"
                .into(),
        );
    }
    if s.hand_games == 1 {
        return Err("--hand-games must be 0 (none) or at least 2".into());
    }
    if s.window == 0 || s.epochs == 0 || s.shards == 0 || s.shards > 10_000 {
        return Err(
            "--window, --epochs and --shards must be at least 1 (shards at most 10000)".into(),
        );
    }
    if !(s.lr > 0.0 && s.lr <= 1.0 && (0.0..=1.0).contains(&s.lambda_values)) {
        return Err("--lr must be above 0 and at most 1, --lambda-values 0 to 1".into());
    }
    if !(0.0..=1.0).contains(&s.threshold) {
        return Err("--threshold must be 0 to 1".into());
    }
    Ok(())
}

/// A setting given on the command line must be the manifest's.
fn same<T: PartialEq + std::fmt::Debug>(
    name: &str,
    given: &Option<T>,
    kept: &T,
) -> Result<(), String> {
    match given {
        Some(g) if g != kept => Err(format!(
            "--{name} {g:?} differs from this loop's {kept:?} (DIR/loop.json): a loop keeps its settings; \
             start a new one in another directory"
        )),
        _ => Ok(()),
    }
}

/// `--net` given to a loop that has begun: the same network as it
/// started from (byte for byte) goes on, so the command that started a
/// loop also resumes it; another network, or one given to a loop started
/// from the engine's own evaluation, is refused.
fn same_start(
    dir: &std::path::Path,
    given: &std::path::Path,
    start: Option<&str>,
) -> Result<(), String> {
    let shown = given.display();
    let Some(start) = start else {
        return Err(format!(
            "--net {shown}: this loop started from the engine's own evaluation (DIR/loop.json); \
             a loop keeps its start: start a new one in another directory"
        ));
    };
    let bytes = std::fs::read(given).map_err(|e| format!("{shown}: {e}"))?;
    let kept = std::fs::read(dir.join(start))
        .map_err(|e| format!("{}: {e}", dir.join(start).display()))?;
    if bytes != kept {
        return Err(format!(
            "--net {shown} is not the network this loop started from (DIR/{start}); \
             a loop keeps its start: start a new one in another directory"
        ));
    }
    Ok(())
}

/// The manifest of `cfg.dir`: read (the given settings checked against
/// it) or made for a new loop.
fn open(cfg: &Config) -> Result<Manifest, String> {
    std::fs::create_dir_all(&cfg.dir).map_err(|e| format!("{}: {e}", cfg.dir.display()))?;
    if let Some(m) = Manifest::load(&cfg.dir)? {
        let s = &m.settings;
        same("players", &cfg.players, &s.players)?;
        same("games", &cfg.games, &s.games)?;
        same("nodes", &cfg.nodes, &s.nodes)?;
        same("gate-games", &cfg.gate_games, &s.gate_games)?;
        same("gate-nodes", &cfg.gate_nodes, &s.gate_nodes)?;
        same("seed", &cfg.seed, &s.seed)?;
        same("window", &cfg.window, &s.window)?;
        same("epochs", &cfg.epochs, &s.epochs)?;
        same("lr", &cfg.lr, &s.lr)?;
        same("lambda-values", &cfg.lambda_values, &s.lambda_values)?;
        same("threshold", &cfg.threshold, &s.threshold)?;
        same("shards", &cfg.shards, &s.shards)?;
        same("selfplay", &cfg.selfplay, &s.selfplay)?;
        same("pv-labels", &cfg.pv_labels, &s.pv_labels)?;
        same("hand-games", &cfg.hand_games, &s.hand_games)?;
        if let Some(path) = &cfg.net {
            same_start(&cfg.dir, path, s.start.as_deref())?;
        }
        return Ok(m);
    }
    if cfg.shard.is_some() {
        return Err(format!(
            "{} holds no loop yet: start it with `splut loop {}` (or --coordinate) before its shards",
            cfg.dir.display(),
            cfg.dir.display()
        ));
    }
    let start = match &cfg.net {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let net =
                Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            write_file(&cfg.dir.join("start.nnue"), &bytes)?;
            Some(net)
        }
        None => None,
    };
    let settings = new_settings(cfg, start.as_ref())?;
    let m = Manifest {
        version: manifest::VERSION,
        best: settings.start.clone(),
        settings,
        rounds: Vec::new(),
    };
    m.save(&cfg.dir)?;
    Ok(m)
}

/// Reads a network of the loop's directory (`rel` relative to it).
pub fn load_net(dir: &Path, rel: &str) -> Result<Arc<Network>, String> {
    let path = dir.join(rel);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Network::from_bytes(&bytes)
        .map(Arc::new)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs the loop as `cfg` asks; `say` hears a line per step.
pub fn run(cfg: &Config, say: &mut dyn FnMut(&str)) -> Result<Ended, String> {
    let mut m = open(cfg)?;
    if cfg.shard.is_some_and(|(_, n)| n != m.settings.shards) {
        return Err(format!(
            "--shard K/N: this loop has {} shards (N must be that)",
            m.settings.shards
        ));
    }
    for r in 1..=cfg.rounds {
        if m.rounds.len() < r as usize {
            m.rounds.push(Round {
                round: r,
                seed: round_seed(m.settings.seed, r),
                best_before: m.best.clone(),
                selfplay: None,
                train: None,
                gate: None,
            });
            m.save(&cfg.dir)?;
        }
        let i = r as usize - 1;
        if m.rounds[i].gate.is_some() {
            continue;
        }
        std::fs::create_dir_all(cfg.dir.join(round_dir(r)))
            .map_err(|e| format!("{}: {e}", cfg.dir.display()))?;
        if let Some(ended) = step_round(cfg, &mut m, i, say)? {
            return Ok(ended);
        }
    }
    Ok(if cfg.shard.is_some() {
        Ended::Shard
    } else {
        Ended::Done
    })
}

/// Takes round `i` as far as it goes: `Some` when the run stops there
/// (a shard played, or shards missing), `None` once its gate is done.
fn step_round(
    cfg: &Config,
    m: &mut Manifest,
    i: usize,
    say: &mut dyn FnMut(&str),
) -> Result<Option<Ended>, String> {
    let r = m.rounds[i].round;
    if m.rounds[i].selfplay.is_none() {
        let shards = selfplay::Shards::new(&cfg.dir, &m.settings, &m.rounds[i]);
        let by = selfplay_net(m, i);
        match shards.play(cfg, &m.settings, &m.rounds[i], by.as_deref(), say)? {
            Some(ended) => return Ok(Some(ended)),
            None => {
                let sp = shards.merge()?;
                say(&format!(
                    "round {r}: self-play done: {} games, {} positions",
                    sp.games, sp.positions
                ));
                m.rounds[i].selfplay = Some(sp);
                m.save(&cfg.dir)?;
            }
        }
    }
    if m.rounds[i].train.is_none() {
        if cfg.shard.is_some() {
            say(&format!(
                "round {r}: its next step is training, which is the coordinator's \
                 (`splut loop DIR --coordinate`): no shard to play"
            ));
            return Ok(Some(Ended::Shard));
        }
        let t = train(cfg, m, i, say)?;
        m.rounds[i].train = Some(t);
        m.save(&cfg.dir)?;
    }
    let gates = gate::Shards::new(&cfg.dir, &m.settings, &m.rounds[i]);
    if let Some(ended) = gates.play(cfg, &m.settings, &m.rounds[i], say)? {
        return Ok(Some(ended));
    }
    let g = gates.decide(&m.settings)?;
    say(&format!("round {r}: gate: {}", g.why));
    if g.promoted {
        m.best = m.rounds[i].train.as_ref().map(|t| t.net.clone());
    }
    m.rounds[i].gate = Some(g);
    m.save(&cfg.dir)?;
    Ok(None)
}

/// The network that plays round `i`'s self-play, as the settings choose
/// ([`SelfPlayBy`]): the best when the round began, or the newest trained
/// before it (the starting network, else the engine's own evaluation, in
/// round 1). A path in the directory; `None`: the engine's own evaluation.
pub fn selfplay_net(m: &Manifest, i: usize) -> Option<String> {
    match m.settings.selfplay {
        SelfPlayBy::Best => m.rounds[i].best_before.clone(),
        SelfPlayBy::Newest => m.rounds[..i]
            .iter()
            .rev()
            .find_map(|r| r.train.as_ref().map(|t| t.net.clone()))
            .or_else(|| m.settings.start.clone()),
    }
}

/// The weights round `i`'s training starts from: the last training's (its
/// float checkpoint), else the start network, else the compiled-in one
/// (written to the directory once).
fn init_weights(dir: &Path, m: &Manifest, i: usize) -> Result<String, String> {
    if let Some(t) = m.rounds[..i].iter().rev().find_map(|r| r.train.as_ref()) {
        return Ok(t.checkpoint.clone());
    }
    if let Some(start) = &m.settings.start {
        return Ok(start.clone());
    }
    let name = "default.nnue";
    if !dir.join(name).exists() {
        write_file(&dir.join(name), &default_network().to_bytes())?;
    }
    Ok(name.to_string())
}

/// Round `i`'s training: the window's data, from the last weights; a
/// training killed midway goes on from its last epoch's checkpoint.
fn train(cfg: &Config, m: &Manifest, i: usize, say: &mut dyn FnMut(&str)) -> Result<Train, String> {
    let s = &m.settings;
    let r = m.rounds[i].round;
    let first = i.saturating_sub(s.window as usize - 1);
    let files: Vec<String> = m.rounds[first..=i]
        .iter()
        .filter_map(|x| x.selfplay.as_ref())
        .flat_map(|sp| sp.files.clone())
        .collect();
    let init = init_weights(&cfg.dir, m, i)?;
    let rd = round_dir(r);
    let ckpt_dir = cfg.dir.join(&rd).join("train");
    let resume = last_checkpoint(&ckpt_dir, s.epochs);
    let net = format!("{rd}/net.nnue");
    let tc = crate::train::Config {
        files: files.iter().map(|f| cfg.dir.join(f)).collect(),
        epochs: Some(s.epochs),
        batch: None,
        lr: Some(s.lr),
        lambda: None,
        lambda_multi: None,
        lambda_values: Some(s.lambda_values),
        init: resume.is_none().then(|| cfg.dir.join(&init)),
        validation: None,
        seed: Some(m.rounds[i].seed),
        scale: Some(s.scale),
        threads: cfg.threads,
        checkpoints: Some(ckpt_dir),
        resume,
        output: cfg.dir.join(&net),
        progress: cfg.progress,
    };
    say(&format!(
        "round {r}: training on {} file(s) from {init}",
        files.len()
    ));
    let t0 = std::time::Instant::now();
    let o = crate::train::run(&tc, &mut |line| {
        if !cfg.progress {
            eprintln!("  {line}");
        }
    })?;
    let last = o.epochs.last();
    Ok(Train {
        net,
        checkpoint: format!("{rd}/train/epoch-{:03}.ckpt", s.epochs),
        init,
        files,
        positions: o.positions.0 as u64,
        train_loss: last.map_or(0.0, |e| e.train_loss),
        validation_loss: last.and_then(|e| e.validation_loss),
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// The newest epoch checkpoint in `dir` before the last epoch, to resume
/// a training cut short.
fn last_checkpoint(dir: &Path, epochs: u32) -> Option<PathBuf> {
    (1..epochs)
        .rev()
        .map(|e| dir.join(format!("epoch-{e:03}.ckpt")))
        .find(|p| p.exists())
}

/// The table of rounds, as `splut loop` prints it at its end.
pub fn table(m: &Manifest) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let counts: Vec<String> = m
        .settings
        .players
        .iter()
        .map(|p| format!("gate {p}p"))
        .collect();
    // The reference's column, with `--hand-games`.
    let with_hand = m.settings.hand_games > 0;
    let hand_column = |text: &str| {
        if with_hand {
            format!("  {text:<15}")
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        out,
        "{:<6}{:<22}{:>7}{:>10}{:>10}{:>10}  {}  {:>7}{}  promoted",
        "round",
        "played by",
        "games",
        "positions",
        "train",
        "valid.",
        counts
            .iter()
            .map(|c| format!("{c:<15}"))
            .collect::<Vec<_>>()
            .join(" "),
        "pooled",
        hand_column("vs hand")
    );
    for (i, r) in m.rounds.iter().enumerate() {
        let by = selfplay_net(m, i).unwrap_or_else(|| "engine (hand 3-4)".into());
        let (games, positions) = r.selfplay.as_ref().map_or(("-".into(), "-".into()), |s| {
            (s.games.to_string(), s.positions.to_string())
        });
        let (tl, vl) = r.train.as_ref().map_or(("-".into(), "-".into()), |t| {
            (
                format!("{:.5}", t.train_loss),
                t.validation_loss.map_or("-".into(), |v| format!("{v:.5}")),
            )
        });
        let gates: Vec<String> = m
            .settings
            .players
            .iter()
            .map(|&p| {
                r.gate
                    .as_ref()
                    .and_then(|g| g.results.iter().find(|x| x.players == p))
                    .map_or("-".to_string(), |x| {
                        format!("{:.1}% ± {:.1}", 100.0 * x.score, 100.0 * x.interval)
                    })
            })
            .collect();
        let (pooled, promoted) = r.gate.as_ref().map_or(("-".into(), "-"), |g| {
            (
                format!("{:.1}%", 100.0 * g.pooled),
                if g.promoted { "yes" } else { "no" },
            )
        });
        let hand = r
            .gate
            .as_ref()
            .filter(|g| !g.hand.is_empty())
            .map_or("-".to_string(), |g| {
                let (score, interval) = gate::pooled(&g.hand);
                format!("{:.1}% ± {:.1}", 100.0 * score, 100.0 * interval)
            });
        let _ = writeln!(
            out,
            "{:<6}{:<22}{:>7}{:>10}{:>10}{:>10}  {}  {:>7}{}  {promoted}",
            r.round,
            by,
            games,
            positions,
            tl,
            vl,
            gates
                .iter()
                .map(|c| format!("{c:<15}"))
                .collect::<Vec<_>>()
                .join(" "),
            pooled,
            hand_column(&hand)
        );
    }
    let _ = writeln!(
        out,
        "best: {}",
        m.best
            .as_deref()
            .unwrap_or("the engine's own evaluation (no network promoted)")
    );
    out
}

/// `splut loop`: runs it, prints the table of rounds; the exit code (0
/// done or a shard played, 3 shards missing under `--coordinate`, 2 an
/// error).
pub fn main(cfg: &Config) -> i32 {
    // Everything is kept step by step: Ctrl-C ends the process at once, and
    // the next start goes on from the last finished step.
    let _ = ctrlc::set_handler(|| {
        eprintln!("\ninterrupted: `splut loop` with the same directory goes on from here");
        std::process::exit(130);
    });
    let ended = run(cfg, &mut |line| eprintln!("{line}"));
    match ended {
        Ok(e) => {
            // A shard's task says what it played; the table is the loop's.
            if cfg.shard.is_none()
                && let Ok(Some(m)) = Manifest::load(&cfg.dir)
            {
                print!("{}", table(&m));
            }
            match e {
                Ended::Done | Ended::Shard => 0,
                Ended::ShardsMissing => 3,
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::manifest::{Train, VERSION};
    use super::*;

    fn trained(r: u32) -> Round {
        Round {
            round: r,
            seed: u64::from(r),
            best_before: None,
            selfplay: None,
            train: Some(Train {
                net: format!("{}/net.nnue", round_dir(r)),
                checkpoint: String::new(),
                init: String::new(),
                files: Vec::new(),
                positions: 0,
                train_loss: 0.0,
                validation_loss: None,
                seconds: 0.0,
            }),
            gate: None,
        }
    }

    /// The best plays while it is the best; the newest plays as soon as it
    /// is trained, and the start network (or the engine's own evaluation)
    /// before any is.
    #[test]
    fn the_settings_choose_who_plays_self_play() {
        let mut m = Manifest {
            version: VERSION,
            settings: Settings::tiny(vec![3, 4]),
            best: None,
            rounds: vec![trained(1), trained(2), trained(3)],
        };
        m.rounds[2].best_before = Some("round-001/net.nnue".into());
        assert_eq!(selfplay_net(&m, 0), None);
        assert_eq!(selfplay_net(&m, 1), None);
        assert_eq!(selfplay_net(&m, 2).as_deref(), Some("round-001/net.nnue"));
        m.settings.selfplay = SelfPlayBy::Newest;
        assert_eq!(selfplay_net(&m, 0), None);
        assert_eq!(selfplay_net(&m, 1).as_deref(), Some("round-001/net.nnue"));
        assert_eq!(selfplay_net(&m, 2).as_deref(), Some("round-002/net.nnue"));
        m.settings.start = Some("start.nnue".into());
        assert_eq!(selfplay_net(&m, 0).as_deref(), Some("start.nnue"));
        // A round whose training is not done is skipped.
        m.rounds[1].train = None;
        assert_eq!(selfplay_net(&m, 2).as_deref(), Some("round-001/net.nnue"));
    }

    /// The table shows the reference's column only when the loop plays
    /// one.
    #[test]
    fn the_table_shows_the_reference_when_there_is_one() {
        let result = |players, score, interval| manifest::GateResult {
            players,
            games: 100,
            score,
            interval,
            places: [0; 4],
        };
        let mut m = Manifest {
            version: VERSION,
            settings: Settings::tiny(vec![3, 4]),
            best: None,
            rounds: vec![trained(1)],
        };
        let gate = |s: &Settings| {
            gate::decision(
                s,
                vec![result(3, 0.5, 0.05), result(4, 0.5, 0.05)],
                match s.hand_games {
                    0 => vec![],
                    _ => vec![result(3, 0.55, 0.06), result(4, 0.6, 0.08)],
                },
                1.0,
            )
        };
        m.rounds[0].gate = Some(gate(&m.settings));
        let t = table(&m);
        assert!(!t.contains("vs hand"), "{t}");
        m.settings.hand_games = 100;
        m.rounds[0].gate = Some(gate(&m.settings));
        let t = table(&m);
        assert!(t.lines().next().unwrap().contains("pooled  vs hand"), "{t}");
        // (55 + 60) / 2; √(6² + 8²) / 2 = 5.
        assert!(t.contains("50.0%  57.5% ± 5.0"), "{t}");
    }
}
