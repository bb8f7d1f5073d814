//! The loop's manifest, `DIR/loop.json`: its settings, fixed when the loop
//! starts, and every round's steps as they finish (docs/formats.md, "The
//! loop's directory"). It is written whole through a temporary file and a
//! rename after every step, so a loop killed at any moment finds the last
//! finished step in it.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// The manifest's file name in the loop's directory.
pub const FILE: &str = "loop.json";

/// The format's version.
pub const VERSION: u32 = 1;

/// What a loop does each round: fixed when it starts (a later start may
/// only add rounds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Counts of players learned (each of 2, 3, 4, at most once).
    pub players: Vec<usize>,
    /// Self-play games a round, shared evenly among the counts.
    pub games: u64,
    /// Nodes a step in self-play.
    pub nodes: u64,
    /// Gate games a round for each count.
    pub gate_games: u64,
    /// Nodes a turn in the gate.
    pub gate_nodes: u64,
    /// The loop's seed: every round's seeds come from it.
    pub seed: u64,
    /// Rounds of self-play data a training reads (this round's and the
    /// ones before it).
    pub window: u32,
    /// Training epochs a round.
    pub epochs: u32,
    /// Training's starting learning rate.
    pub lr: f64,
    /// Weight of the search's seat values in each seat's target.
    pub lambda_values: f64,
    /// The sigmoid scale K of training (2 × the first network's scale).
    pub scale: f64,
    /// Place points the new network must reach in the gate, over every
    /// count learned, to be promoted.
    pub threshold: f64,
    /// Shards each self-play and gate is cut into (1: one machine).
    pub shards: u32,
    /// The network the loop starts from, in the directory (`start.nnue`);
    /// `None`: the engine's own evaluation (the hand-written one with 3–4
    /// seats, the compiled-in network with 2).
    pub start: Option<String>,
    /// Which network plays each round's self-play (absent in loops begun
    /// before the choice existed: the best).
    #[serde(default)]
    pub selfplay: SelfPlayBy,
    /// Whether self-play also labels the positions along each search's
    /// principal variation (`splut datagen --pv-labels`; absent: no).
    #[serde(default)]
    pub pv_labels: bool,
    /// Games a round for each count in which the new network also plays
    /// copies of the hand-written evaluation, at the gate's nodes: a
    /// reference reported beside the gate, never part of the decision
    /// (absent or 0: none).
    #[serde(default)]
    pub hand_games: u64,
}

/// Which network plays a round's self-play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum SelfPlayBy {
    /// The best network so far (the last promoted): expert iteration with
    /// a gate, the data only ever from a network that won its gate.
    #[default]
    Best,
    /// The newest network, promoted or not (AlphaZero, KataGo): the data
    /// of each round come from the network that learned the last, so a
    /// network learns from its own games before it can beat the best.
    Newest,
}

#[cfg(test)]
impl Settings {
    /// A tiny loop's settings learning `players`, for tests.
    pub fn tiny(players: Vec<usize>) -> Settings {
        Settings {
            players,
            games: 10,
            nodes: 100,
            gate_games: 6,
            gate_nodes: 300,
            seed: 1,
            window: 2,
            epochs: 1,
            lr: 0.001,
            lambda_values: 0.8,
            scale: 896.0,
            threshold: 0.52,
            shards: 1,
            start: None,
            selfplay: SelfPlayBy::Best,
            pv_labels: false,
            hand_games: 0,
        }
    }
}

/// One round's steps; a step is `None` until it has finished.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// The round's number, from 1.
    pub round: u32,
    /// Its seed (self-play, training's shuffles and the gate's openings).
    pub seed: u64,
    /// The network that played its self-play and defended in its gate
    /// (a path in the directory; `None`: the engine's own evaluation).
    pub best_before: Option<String>,
    /// Self-play, once every shard is in.
    pub selfplay: Option<SelfPlay>,
    /// Training, once its network is written.
    pub train: Option<Train>,
    /// The gate, once every shard is in and the decision is made.
    pub gate: Option<Gate>,
}

/// A round's self-play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelfPlay {
    /// Its data files, in the directory.
    pub files: Vec<String>,
    /// Games played.
    pub games: u64,
    /// Positions written (every searched one, kills included).
    pub positions: u64,
    /// Seconds its shards took, summed.
    pub seconds: f64,
}

/// A round's training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Train {
    /// The new network, in the directory.
    pub net: String,
    /// Its float weights at the end (the next round starts from them).
    pub checkpoint: String,
    /// The weights it started from.
    pub init: String,
    /// The data files it read (the window).
    pub files: Vec<String>,
    /// Training positions.
    pub positions: u64,
    /// Training loss of the last epoch.
    pub train_loss: f64,
    /// Validation loss at the end, if there were validation games.
    pub validation_loss: Option<f64>,
    /// Seconds it took.
    pub seconds: f64,
}

/// One count of players in a gate: the new network in one seat against
/// copies of the best, every seating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateResult {
    /// Players in these games.
    pub players: usize,
    /// Games played.
    pub games: u64,
    /// The new network's place points, a fraction (parity 0.5).
    pub score: f64,
    /// Half the 95% interval of `score`.
    pub interval: f64,
    /// How often it finished 1st, 2nd, 3rd, 4th.
    pub places: [u64; 4],
}

/// A round's gate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gate {
    /// Each count's result.
    pub results: Vec<GateResult>,
    /// Place points over every count, games weighted.
    pub pooled: f64,
    /// Each count's result against the hand-written evaluation (the
    /// reference; empty without `hand_games`).
    #[serde(default)]
    pub hand: Vec<GateResult>,
    /// Whether the new network became the best.
    pub promoted: bool,
    /// Why (or why not), in words.
    pub why: String,
    /// Seconds its shards took, summed.
    pub seconds: f64,
}

/// The whole manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`VERSION`].
    pub version: u32,
    /// The loop's settings.
    pub settings: Settings,
    /// The best network so far (a path in the directory; `None`: the
    /// engine's own evaluation).
    pub best: Option<String>,
    /// The rounds begun, in order.
    pub rounds: Vec<Round>,
}

impl Manifest {
    /// Reads `dir`'s manifest; `None` if it has none yet.
    pub fn load(dir: &Path) -> Result<Option<Manifest>, String> {
        let path = dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let m: Manifest =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if m.version != VERSION {
            return Err(format!(
                "{}: a loop of format version {}; this build reads {VERSION}",
                path.display(),
                m.version
            ));
        }
        Ok(Some(m))
    }

    /// Writes the manifest to `dir` through a temporary file and a rename.
    pub fn save(&self, dir: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        super::write_file(&dir.join(FILE), text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_round_trips_and_a_bad_one_is_named() {
        let dir = std::env::temp_dir().join(format!("splut-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(Manifest::load(&dir).unwrap(), None);
        let m = Manifest {
            version: VERSION,
            settings: Settings::tiny(vec![3, 4]),
            best: Some("round-001/net.nnue".into()),
            rounds: vec![Round {
                round: 1,
                seed: 7,
                best_before: None,
                selfplay: None,
                train: None,
                gate: None,
            }],
        };
        m.save(&dir).unwrap();
        assert_eq!(Manifest::load(&dir).unwrap(), Some(m));
        std::fs::write(dir.join(FILE), "{").unwrap();
        let e = Manifest::load(&dir).unwrap_err();
        assert!(e.contains("loop.json"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
