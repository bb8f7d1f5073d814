//! The engine's options, as `ugi` lists them and `setoption` sets them.

use crate::search::Algorithm;
use crate::search::mcts::{MCTS, MctsConfig, Parallel};

/// Option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size, MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Which search.
    pub algorithm: Algorithm,
    /// Milliseconds kept back per move for the time lost in transit.
    pub move_overhead: u64,
    /// Seed for the randomised searches (MCTS, UCT, random, greedy).
    pub seed: u64,
    /// How MCTS threads share the work.
    pub mcts_parallel: Parallel,
    /// MCTS exploration constant, hundredths.
    pub mcts_exploration: u64,
    /// MCTS playout length, steps.
    pub mcts_playout: u64,
    /// Weight of the implicit minimax value in MCTS, percent.
    pub mcts_minimax: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mib: 64,
            threads: 1,
            algorithm: Algorithm::Auto,
            move_overhead: 30,
            seed: 0,
            mcts_parallel: MCTS.parallel,
            mcts_exploration: (MCTS.exploration * 100.0).round() as u64,
            mcts_playout: u64::from(MCTS.playout_steps),
            mcts_minimax: (MCTS.minimax_weight * 100.0).round() as u64,
        }
    }
}

impl Options {
    /// The engine's MCTS as these options tune it.
    pub fn mcts(&self) -> MctsConfig {
        MctsConfig {
            exploration: self.mcts_exploration as f64 / 100.0,
            playout_steps: self.mcts_playout as u32,
            minimax_weight: self.mcts_minimax as f64 / 100.0,
            parallel: self.mcts_parallel,
            ..MCTS
        }
    }
}

const HASH_MAX: u64 = 65_536;
const THREADS_MAX: u64 = 256;
const OVERHEAD_MAX: u64 = 10_000;
const SEED_MAX: u64 = u32::MAX as u64;
const EXPLORATION_MAX: u64 = 1000;
const PLAYOUT_MAX: u64 = 200;

/// The `option …` lines of the `ugi` answer.
pub fn declarations() -> Vec<String> {
    let d = Options::default();
    let algos: Vec<String> = Algorithm::ALL
        .iter()
        .map(|a| format!("var {}", a.name()))
        .collect();
    vec![
        format!(
            "option name Hash type spin default {} min 1 max {HASH_MAX}",
            d.hash_mib
        ),
        format!(
            "option name Threads type spin default {} min 1 max {THREADS_MAX}",
            d.threads
        ),
        format!(
            "option name Algorithm type combo default {} {}",
            d.algorithm.name(),
            algos.join(" ")
        ),
        format!(
            "option name MoveOverhead type spin default {} min 0 max {OVERHEAD_MAX}",
            d.move_overhead
        ),
        format!(
            "option name Seed type spin default {} min 0 max {SEED_MAX}",
            d.seed
        ),
        format!(
            "option name MctsParallel type combo default {} var tree var root",
            parallel_name(d.mcts_parallel)
        ),
        format!(
            "option name MctsExploration type spin default {} min 0 max {EXPLORATION_MAX}",
            d.mcts_exploration
        ),
        format!(
            "option name MctsPlayout type spin default {} min 0 max {PLAYOUT_MAX}",
            d.mcts_playout
        ),
        format!(
            "option name MctsMinimax type spin default {} min 0 max 100",
            d.mcts_minimax
        ),
    ]
}

fn parallel_name(p: Parallel) -> &'static str {
    match p {
        Parallel::Tree => "tree",
        Parallel::Root => "root",
    }
}

/// What changed, so the engine can act (resize the table).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Changed {
    /// The table size.
    Hash,
    /// Anything else.
    Other,
}

fn spin(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    let v: u64 = value
        .parse()
        .map_err(|_| format!("option {name}: '{value}' is not a whole number"))?;
    if v < min || v > max {
        return Err(format!("option {name}: {v} is outside {min}..={max}"));
    }
    Ok(v)
}

impl Options {
    /// Sets an option by name (case-insensitive); the value is checked.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Changed, String> {
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                self.hash_mib = spin("Hash", value, 1, HASH_MAX)? as usize;
                Ok(Changed::Hash)
            }
            "threads" => {
                self.threads = spin("Threads", value, 1, THREADS_MAX)? as usize;
                Ok(Changed::Other)
            }
            "algorithm" => {
                self.algorithm = Algorithm::parse(value).ok_or_else(|| {
                    format!(
                        "option Algorithm: '{value}' is not one of {}",
                        Algorithm::ALL.map(|a| a.name()).join(", ")
                    )
                })?;
                Ok(Changed::Other)
            }
            "moveoverhead" => {
                self.move_overhead = spin("MoveOverhead", value, 0, OVERHEAD_MAX)?;
                Ok(Changed::Other)
            }
            "seed" => {
                self.seed = spin("Seed", value, 0, SEED_MAX)?;
                Ok(Changed::Other)
            }
            "mctsparallel" => {
                self.mcts_parallel = match value.to_ascii_lowercase().as_str() {
                    "tree" => Parallel::Tree,
                    "root" => Parallel::Root,
                    _ => {
                        return Err(format!(
                            "option MctsParallel: '{value}' is not tree or root"
                        ));
                    }
                };
                Ok(Changed::Other)
            }
            "mctsexploration" => {
                self.mcts_exploration = spin("MctsExploration", value, 0, EXPLORATION_MAX)?;
                Ok(Changed::Other)
            }
            "mctsplayout" => {
                self.mcts_playout = spin("MctsPlayout", value, 0, PLAYOUT_MAX)?;
                Ok(Changed::Other)
            }
            "mctsminimax" => {
                self.mcts_minimax = spin("MctsMinimax", value, 0, 100)?;
                Ok(Changed::Other)
            }
            _ => Err(format!(
                "unknown option '{name}' (options: Hash, Threads, Algorithm, MoveOverhead, Seed, MctsParallel, MctsExploration, MctsPlayout, MctsMinimax)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_checks_names_and_values() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", "16"), Ok(Changed::Hash));
        assert_eq!(o.hash_mib, 16);
        assert_eq!(o.set("Algorithm", "MaxN"), Ok(Changed::Other));
        assert_eq!(o.algorithm, Algorithm::MaxN);
        assert!(o.set("Threads", "0").unwrap_err().contains("outside"));
        assert!(
            o.set("Threads", "two")
                .unwrap_err()
                .contains("whole number")
        );
        assert!(
            o.set("Algorithm", "minimax")
                .unwrap_err()
                .contains("not one of")
        );
        assert!(
            o.set("Ponder", "true")
                .unwrap_err()
                .contains("unknown option")
        );
        assert_eq!(o.hash_mib, 16);
        assert_eq!(o.set("MctsParallel", "root"), Ok(Changed::Other));
        assert_eq!(o.mcts_parallel, Parallel::Root);
        assert!(o.set("MctsParallel", "leaf").is_err());
        assert_eq!(o.set("MctsMinimax", "25"), Ok(Changed::Other));
        assert_eq!(o.mcts().minimax_weight, 0.25);
        assert!(o.set("MctsMinimax", "101").is_err());
        assert_eq!(o.set("MctsExploration", "141"), Ok(Changed::Other));
        assert_eq!(o.mcts().exploration, 1.41);
        assert_eq!(o.mcts().parallel, Parallel::Root);
        assert_eq!(Options::default().mcts(), MCTS);
        assert_eq!(declarations().len(), 9);
    }
}
