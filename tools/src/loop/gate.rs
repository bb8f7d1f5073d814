//! A round's gate: the new network in one seat against copies of the best
//! (the network that played the round's self-play, or the engine's own
//! evaluation), at fixed nodes, every seating, for each count of players
//! learned: a tournament (`splut tournament`'s) cut into the loop's
//! shards, each writing `round-RRR/gate-pP-sKofN.games`. The decision
//! reads the records back ([`crate::tournament::merge`]).
//!
//! With `--hand-games`, each shard also plays the new network against
//! copies of the hand-written evaluation (`round-RRR/gate-hand-…`): a
//! fixed reference, reported beside the gate and never part of the
//! decision, so that a loop shows whether its networks gain on what the
//! engine plays without them, not only on their predecessors.
//!
//! Promotion: the new network's place points over every count, games
//! weighted, reach the loop's threshold; and when 2 players are learned,
//! its 2-player score is not below parity by more than its 95% interval
//! (the 2-player strength must not fall).

use super::manifest::{Gate, GateResult, Round, Settings};
use super::{Config, Ended, ShardFiles, tmp_path, write_file};
use crate::tournament::participant::{DEFAULT_TIMEOUT_MS, ParticipantSpec, Program, TimeControl};
use crate::tournament::referee::Adjudication;
use crate::tournament::schedule::{SeatingMode, Shard};
use crate::tournament::{self, OpeningSource};
use splut_engine::engine::NO_MULTI_NETWORK;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The new network's name in the gate's records.
pub const NEW: &str = "new";

/// Random opening steps of the gate's games (as self-play's).
const OPENING_STEPS: usize = crate::datagen::DEFAULT_OPENING_STEPS;

/// Each engine's table in the gate, MiB (fixed-node searches of a few
/// thousand nodes).
const HASH_MIB: &str = "16";

/// Mixed into the reference's seed ("HAND"), so that its openings are
/// not the gate's.
const HAND_SEED: u64 = 0x4841_4e44;

/// Whom the new network plays in one of the gate's tournaments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Against {
    /// Copies of the best: the gate proper, which decides.
    Best,
    /// Copies of the hand-written evaluation (`EvalFileMulti none`): the
    /// reference.
    Hand,
}

impl Against {
    /// The opponents' names in the records (`best-2`, …).
    fn name(self) -> &'static str {
        match self {
            Against::Best => "best",
            Against::Hand => "hand",
        }
    }
}

/// A round's gate shards: the gate's files, and the reference's.
pub struct Shards(ShardFiles, ShardFiles);

impl Shards {
    /// The gate of `round` in the loop's directory `dir`.
    pub fn new(dir: &Path, s: &Settings, round: &Round) -> Shards {
        Shards(
            ShardFiles::new(dir, s, round, "gate"),
            ShardFiles::new(dir, s, round, "gate-hand"),
        )
    }

    /// Shard `k`'s records for `players` against `against`.
    fn records(&self, against: Against, players: usize, k: u32) -> PathBuf {
        let files = match against {
            Against::Best => &self.0,
            Against::Hand => &self.1,
        };
        self.0.dir.join(files.file(players, k, "games"))
    }

    /// Whom shard `k` plays, in order.
    fn opponents(s: &Settings) -> Vec<Against> {
        let mut v = vec![Against::Best];
        if s.hand_games > 0 {
            v.push(Against::Hand);
        }
        v
    }

    /// Plays what `cfg` asks of this step: its one shard (`--shard`), or
    /// every missing one; `Some` when the run stops here.
    pub fn play(
        &self,
        cfg: &Config,
        s: &Settings,
        round: &Round,
        say: &mut dyn FnMut(&str),
    ) -> Result<Option<Ended>, String> {
        self.0.play(cfg, "gate", say, |k, say| {
            self.play_shard(cfg, s, round, k, say)
        })
    }

    /// The tournament of `players` seats, shard `k`: the new network
    /// against `players - 1` copies of the best (or of the hand-written
    /// evaluation).
    fn tournament(
        &self,
        cfg: &Config,
        s: &Settings,
        round: &Round,
        (against, players, k): (Against, usize, u32),
    ) -> tournament::Config {
        let new = self
            .0
            .dir
            .join(round.train.as_ref().map_or("", |t| t.net.as_str()));
        // The opponents' network (`None`: the hand-written evaluation),
        // the games and their seed.
        let (best, games, seed) = match against {
            Against::Best => (
                round.best_before.as_ref().map(|b| self.0.dir.join(b)),
                s.gate_games,
                round.seed ^ players as u64,
            ),
            // Other openings than the gate's: where the best is the
            // hand-written evaluation, the same games would be replayed.
            Against::Hand => (None, s.hand_games, round.seed ^ players as u64 ^ HAND_SEED),
        };
        let learns_two = s.players.contains(&2);
        let engine = |name: String, net: Option<&PathBuf>| {
            let mut options = vec![
                ("Hash".to_string(), HASH_MIB.to_string()),
                ("UseNNUE".to_string(), "auto".to_string()),
            ];
            match net {
                Some(net) => {
                    let path = net.display().to_string();
                    options.push(("EvalFileMulti".into(), path.clone()));
                    if learns_two {
                        options.push(("EvalFile".into(), path));
                    }
                }
                // The hand-written evaluation with 3–4 seats (round 0's
                // best), whatever network the build has compiled in.
                None => options.push(("EvalFileMulti".into(), NO_MULTI_NETWORK.into())),
            }
            ParticipantSpec {
                name,
                program: Program::Builtin {
                    algorithm: "auto".into(),
                },
                options,
                tc: TimeControl::Nodes(s.gate_nodes),
                timeout: Duration::from_millis(DEFAULT_TIMEOUT_MS),
                ponder: false,
            }
        };
        let mut participants = vec![engine(NEW.into(), Some(&new))];
        for i in 2..=players {
            participants.push(engine(format!("{}-{i}", against.name()), best.as_ref()));
        }
        tournament::Config {
            players,
            participants,
            gauntlet: false,
            seatings: SeatingMode::Rotate,
            shard: Shard {
                index: k as usize,
                count: self.0.count as usize,
            },
            openings: OpeningSource::Random(OPENING_STEPS),
            rounds: games.div_ceil(players as u64) as usize,
            max_games: Some(games as usize),
            seed,
            concurrency: cfg.threads.max(1),
            adjudication: Adjudication {
                max_turns: crate::datagen::DEFAULT_MAX_TURNS,
                repetitions: crate::datagen::REPETITIONS,
            },
            sprt: None,
            records: tmp_path(&self.records(against, players, k)),
            append: false,
            progress: cfg.progress,
            quiet: true,
        }
    }

    /// Plays shard `k` of every count's tournament.
    fn play_shard(
        &self,
        cfg: &Config,
        s: &Settings,
        round: &Round,
        k: u32,
        say: &mut dyn FnMut(&str),
    ) -> Result<(), String> {
        let t0 = std::time::Instant::now();
        let matches = s
            .players
            .iter()
            .flat_map(|&p| Self::opponents(s).into_iter().map(move |a| (a, p)));
        for (against, players) in matches {
            let path = self.records(against, players, k);
            if path.exists() {
                continue;
            }
            let tc = self.tournament(cfg, s, round, (against, players, k));
            // What a killed run left is played again.
            let _ = std::fs::remove_file(&tc.records);
            let whom = match against {
                Against::Best => "of the best",
                Against::Hand => "of the hand-written evaluation (the reference)",
            };
            say(&format!(
                "round {}: gate shard {k}/{}, {players} players: the new network against {} {whom}, {} nodes a turn",
                self.0.round,
                self.0.count,
                players - 1,
                s.gate_nodes
            ));
            let tmp = tc.records.clone();
            match tournament::run(tc)? {
                0 => {}
                code => return Err(format!("the gate's tournament stopped (exit code {code})")),
            }
            std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        let seconds = format!("{{\"seconds\": {:.3}}}\n", t0.elapsed().as_secs_f64());
        write_file(&self.0.done_file(k), seconds.as_bytes())
    }

    /// Seconds the shards took, summed.
    fn seconds(&self) -> f64 {
        (0..self.0.count)
            .filter_map(|k| std::fs::read_to_string(self.0.done_file(k)).ok())
            .filter_map(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .filter_map(|v| v["seconds"].as_f64())
            .sum()
    }

    /// Reads every shard's records and decides.
    pub fn decide(&self, s: &Settings) -> Result<Gate, String> {
        let results = self.results(Against::Best)?;
        let hand = match s.hand_games {
            0 => Vec::new(),
            _ => self.results(Against::Hand)?,
        };
        Ok(decision(s, results, hand, self.seconds()))
    }

    /// The new network's result for each count against `against`, from
    /// every shard's records.
    fn results(&self, against: Against) -> Result<Vec<GateResult>, String> {
        let mut results = Vec::new();
        for &players in &self.0.players {
            let files: Vec<PathBuf> = (0..self.0.count)
                .map(|k| self.records(against, players, k))
                .collect();
            let merged = tournament::merge::merge(&files, false, false, &mut |_| {})?;
            if merged.missing > 0 {
                return Err(format!(
                    "the gate's {players}-player records against {} miss {} games: {}",
                    against.name(),
                    merged.missing,
                    merged.missing_report.join("; ")
                ));
            }
            let e = merged
                .standings
                .entry(NEW)
                .ok_or("the gate's records have no new network")?;
            results.push(GateResult {
                players,
                games: e.games,
                score: e.points / e.games.max(1) as f64,
                interval: e.score_interval().unwrap_or(1.0),
                places: e.places,
            });
        }
        Ok(results)
    }
}

/// `(pooled score, its 95% half-interval)` of `results`, games weighted
/// (the counts' games are independent).
pub fn pooled(results: &[GateResult]) -> (f64, f64) {
    let games: u64 = results.iter().map(|r| r.games).sum();
    let total = games.max(1) as f64;
    let points: f64 = results.iter().map(|r| r.score * r.games as f64).sum();
    let variance: f64 = results
        .iter()
        .map(|r| (r.interval * r.games as f64).powi(2))
        .sum();
    (points / total, variance.sqrt() / total)
}

/// Each count's result in words: `3p 54.5% ± 4.6 of 300, …`.
fn each(results: &[GateResult]) -> String {
    results
        .iter()
        .map(|r| {
            format!(
                "{}p {:.1}% ± {:.1} of {}",
                r.players,
                100.0 * r.score,
                100.0 * r.interval,
                r.games
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The gate's verdict on `results` under the loop's settings, with the
/// reference's `hand` results (empty without `--hand-games`) reported.
pub fn decision(
    s: &Settings,
    results: Vec<GateResult>,
    hand: Vec<GateResult>,
    seconds: f64,
) -> Gate {
    let games: u64 = results.iter().map(|r| r.games).sum();
    let (pooled, _) = pooled(&results);
    let two_fell = results
        .iter()
        .find(|r| r.players == 2)
        .filter(|r| r.score + r.interval < 0.5);
    let (promoted, verdict) = match two_fell {
        Some(r) => (
            false,
            format!(
                "kept the best: the 2-player score fell ({:.1}% ± {:.1})",
                100.0 * r.score,
                100.0 * r.interval
            ),
        ),
        None if pooled >= s.threshold => (true, "promoted".to_string()),
        None => (
            false,
            format!("kept the best (below {:.1}%)", 100.0 * s.threshold),
        ),
    };
    let reference = if hand.is_empty() {
        String::new()
    } else {
        let (score, interval) = self::pooled(&hand);
        format!(
            "; against the hand-written evaluation {:.1}% ± {:.1} ({})",
            100.0 * score,
            100.0 * interval,
            each(&hand)
        )
    };
    Gate {
        why: format!(
            "new network {:.1}% over {games} games ({}): {verdict}{reference}",
            100.0 * pooled,
            each(&results)
        ),
        results,
        hand,
        pooled,
        promoted,
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(players: usize, games: u64, score: f64, interval: f64) -> GateResult {
        GateResult {
            players,
            games,
            score,
            interval,
            places: [0; 4],
        }
    }

    #[test]
    fn the_gate_pools_the_counts_and_guards_two_players() {
        let s = Settings::tiny(vec![3, 4]);
        let g = decision(
            &s,
            vec![result(3, 300, 0.56, 0.05), result(4, 100, 0.44, 0.07)],
            vec![],
            1.0,
        );
        assert!((g.pooled - 0.53).abs() < 1e-9, "{}", g.pooled);
        assert!(g.promoted, "{}", g.why);
        let g = decision(
            &s,
            vec![result(3, 300, 0.51, 0.05), result(4, 300, 0.52, 0.07)],
            vec![],
            1.0,
        );
        assert!(!g.promoted && g.why.contains("below 52.0%"), "{}", g.why);
        let s = Settings::tiny(vec![2, 3]);
        let g = decision(
            &s,
            vec![result(2, 100, 0.40, 0.05), result(3, 300, 0.70, 0.05)],
            vec![],
            1.0,
        );
        assert!(
            !g.promoted && g.why.contains("2-player score fell"),
            "{}",
            g.why
        );
        let g = decision(
            &s,
            vec![result(2, 100, 0.47, 0.05), result(3, 300, 0.70, 0.05)],
            vec![],
            1.0,
        );
        assert!(g.promoted, "{}", g.why);
        assert!(g.hand.is_empty() && !g.why.contains("hand-written"));
    }

    #[test]
    fn the_reference_is_reported_and_never_decides() {
        let mut s = Settings::tiny(vec![3, 4]);
        s.hand_games = 300;
        let hand = vec![result(3, 300, 0.40, 0.04), result(4, 100, 0.60, 0.08)];
        let g = decision(
            &s,
            vec![result(3, 300, 0.56, 0.05), result(4, 100, 0.44, 0.07)],
            hand.clone(),
            1.0,
        );
        assert!(g.promoted, "{}", g.why);
        assert_eq!(g.hand, hand);
        // Pooled 45%; interval √((0.04·300)² + (0.08·100)²) / 400.
        let (score, interval) = pooled(&hand);
        assert!((score - 0.45).abs() < 1e-9, "{score}");
        assert!(
            (interval - 208f64.sqrt() / 400.0).abs() < 1e-9,
            "{interval}"
        );
        assert!(
            g.why.ends_with(
                "promoted; against the hand-written evaluation 45.0% ± 3.6 \
                 (3p 40.0% ± 4.0 of 300, 4p 60.0% ± 8.0 of 100)"
            ),
            "{}",
            g.why
        );
        let g = decision(&s, vec![result(3, 300, 0.49, 0.05)], hand, 1.0);
        assert!(!g.promoted, "{}", g.why);
    }
}
