//! A round's self-play: one network in every seat ([`super::selfplay_net`]:
//! the best, or the newest), at fixed nodes,
//! cut into shards by seed. Shard `k` of `n` plays its share of each
//! count's games (a `splut datagen` run of its own seed for each count),
//! keeping every searched position with its score and every seat's value
//! ([`crate::datagen::search_values`]), and writes
//! `round-RRR/selfplay-pP-sKofN.bin`; a shard is done once its
//! `selfplay-sKofN.json` (its counts and time) is there.

use super::manifest::{Round, SelfPlay, Settings};
use super::{Config, Ended, PER_GAME, ShardFiles, load_net, write_file};
use crate::datagen::{self, Format};
use serde::{Deserialize, Serialize};
use splut_rules::splitmix64;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// What a shard played, kept beside its files.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShardStats {
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Seconds it took.
    pub seconds: f64,
    /// Threads it played on.
    pub threads: usize,
}

/// `total` split into `parts` as evenly as possible: part `k`'s share.
pub fn share(total: u64, parts: u64, k: u64) -> u64 {
    total / parts + u64::from(k < total % parts)
}

/// A round's self-play shards.
pub struct Shards(ShardFiles);

impl Shards {
    /// The shards of `round` in the loop's directory `dir`.
    pub fn new(dir: &Path, s: &Settings, round: &Round) -> Shards {
        Shards(ShardFiles::new(dir, s, round, "selfplay"))
    }

    /// Shard `k`'s data file for `players` (relative to the directory).
    fn file(&self, players: usize, k: u32) -> String {
        self.0.file(players, k, "bin")
    }

    /// Plays what `cfg` asks of this step: its one shard (`--shard`), or
    /// every missing one; `Some` when the run stops here.
    /// `by` is the network that plays (a path in the directory; `None`:
    /// the engine's own evaluation).
    pub fn play(
        &self,
        cfg: &Config,
        s: &Settings,
        round: &Round,
        by: Option<&str>,
        say: &mut dyn FnMut(&str),
    ) -> Result<Option<Ended>, String> {
        self.0.play(cfg, "self-play", say, |k, say| {
            self.play_shard(cfg, s, round, by, k, say)
        })
    }

    /// Plays shard `k`: each count's share of the round's games, `by`
    /// playing every seat.
    fn play_shard(
        &self,
        cfg: &Config,
        s: &Settings,
        round: &Round,
        by: Option<&str>,
        k: u32,
        say: &mut dyn FnMut(&str),
    ) -> Result<(), String> {
        let t0 = std::time::Instant::now();
        let best = match by {
            Some(rel) => Some(load_net(&self.0.dir, rel)?),
            None => None,
        };
        let mut stats = ShardStats {
            threads: cfg.threads.max(1),
            ..ShardStats::default()
        };
        let counts = s.players.len() as u64;
        for (ci, &players) in s.players.iter().enumerate() {
            let of_count = share(s.games, counts, ci as u64);
            let games = share(of_count, u64::from(self.0.count), u64::from(k));
            let mut seed = round.seed ^ ((players as u64) << 32) ^ (u64::from(k) << 40);
            let dcfg = datagen::Config {
                players,
                nodes: s.nodes,
                opening_steps: datagen::DEFAULT_OPENING_STEPS,
                max_turns: datagen::DEFAULT_MAX_TURNS,
                per_game: PER_GAME,
                seed: splitmix64(&mut seed),
                threads: cfg.threads.max(1),
                hash_mib: datagen::DEFAULT_HASH_MIB,
                games: Some(games),
                positions: None,
                format: Format::Binary,
                // The 2-seat network is the loop's only when it learns
                // 2 players; else the engine's own.
                net: best.clone().filter(|_| s.players.contains(&2)),
                auto: true,
                multi_net: best.clone(),
                keep_kills: true,
                pv_labels: s.pv_labels,
            };
            say(&format!(
                "round {}: self-play shard {k}/{}, {players} players: {games} games at {} nodes a step",
                self.0.round, self.0.count, s.nodes
            ));
            let path = self.0.dir.join(self.file(players, k));
            let played = if games == 0 {
                write_file(&path, &datagen::binary::header(dcfg.seed))?;
                datagen::Stats::default()
            } else {
                play_to_file(&dcfg, &path, cfg.progress)?
            };
            stats.games += played.games;
            stats.positions += played.written;
        }
        stats.seconds = t0.elapsed().as_secs_f64();
        let json = serde_json::to_string_pretty(&stats).map_err(|e| e.to_string())?;
        write_file(&self.0.done_file(k), json.as_bytes())
    }

    /// The step's record, once every shard is done.
    pub fn merge(&self) -> Result<SelfPlay, String> {
        let mut sp = SelfPlay {
            files: Vec::new(),
            games: 0,
            positions: 0,
            seconds: 0.0,
        };
        for k in 0..self.0.count {
            let path = self.0.done_file(k);
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let st: ShardStats =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            sp.games += st.games;
            sp.positions += st.positions;
            sp.seconds += st.seconds;
            for &p in &self.0.players {
                sp.files.push(self.file(p, k));
            }
        }
        Ok(sp)
    }
}

/// One datagen run into `path` (written as `<path>.tmp`, renamed when
/// whole), with a progress bar of its games.
fn play_to_file(
    dcfg: &datagen::Config,
    path: &Path,
    progress: bool,
) -> Result<datagen::Stats, String> {
    let tmp = super::tmp_path(path);
    let name = tmp.display().to_string();
    let file = std::fs::File::create(&tmp).map_err(|e| format!("{name}: {e}"))?;
    let mut out = std::io::BufWriter::new(file);
    out.write_all(&datagen::binary::header(dcfg.seed))
        .map_err(|e| format!("{name}: {e}"))?;
    let bar = if progress {
        indicatif::ProgressBar::new(dcfg.games.unwrap_or(0))
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games, {elapsed} [{msg}]")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let stop = Arc::new(AtomicBool::new(false));
    let stats = datagen::run(dcfg, &mut out, &stop, &mut |st| {
        bar.set_position(st.games);
        bar.set_message(format!("{} positions", st.written));
    });
    bar.finish_and_clear();
    let stats = stats?;
    out.flush().map_err(|e| format!("{name}: {e}"))?;
    drop(out);
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_add_up() {
        for total in 0..20 {
            for parts in 1..6 {
                let sum: u64 = (0..parts).map(|k| share(total, parts, k)).sum();
                assert_eq!(sum, total);
            }
        }
        assert_eq!(share(10, 3, 0), 4);
        assert_eq!(share(10, 3, 2), 3);
    }
}
