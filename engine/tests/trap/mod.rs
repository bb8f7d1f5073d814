//! A scripted opponent that repeats one known kill against the low
//! strength levels (issue 52): red, moving first in a 2-player game,
//! plays three fixed turns, the last of which throws red's rock up the f
//! file into green's sorcerer, whatever green (the engine at a level)
//! does in between. Shared by the test `levels_trap` and the example
//! `levels_trap`, which replays the figures of docs/results/levels.md.

use splut_engine::{Engine, Limits};
use splut_rules::{Game, Position, Seat};

/// Red's three turns: the troll to f3; the dwarf out of the way (e2 to
/// e5); the sorcerer floats the rock e1 to e2 to f2 and the troll throws
/// it north from f2 (`f3f2*n`), killing a sorcerer left on the f file
/// (f8, or f7/f6 where the levels often step it).
pub const TRAP: [&str; 3] = ["f2f3", "e2e3 e3e4 e4e5", "d2d3@e1 d3e3@e2 f3f2*n"];

/// How a game against the script went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The script's last turn killed green: lost the same way.
    Trapped,
    /// The engine's turns left a step of the script illegal, or its last
    /// turn killed nobody: the script would have to fall back on other
    /// play from there, so the game is not lost the same way (it is not
    /// played on).
    Deviated,
    /// The engine won first.
    EngineWon,
}

/// The options that set the level `elo` (`UCI_Elo`), as the board sends
/// them, with `Seed` at `seed`.
pub fn set_level(engine: &Engine, elo: u64, seed: u64) {
    engine.set_option("UCI_LimitStrength", "true").unwrap();
    engine.set_option("UCI_Elo", &elo.to_string()).unwrap();
    engine.set_option("Seed", &seed.to_string()).unwrap();
}

/// One game of the script against `engine` (its options set, a new game
/// begun): how it ended, and green's turns as text.
pub fn play(engine: &Engine) -> (End, Vec<String>) {
    let mut game = Game::new(Position::start(2).unwrap());
    let mut answers = Vec::new();
    for (k, turn) in TRAP.iter().enumerate() {
        if game.play_all(turn).is_err() {
            return (End::Deviated, answers);
        }
        if game.position().is_game_over() {
            return (End::Trapped, answers);
        }
        if k + 1 == TRAP.len() {
            return (End::Deviated, answers);
        }
        // No time limit: a level caps its own nodes, so its turn depends
        // on the seed and the game only, on any machine.
        let report = engine.go(&game, &Limits::default(), |_| {}).unwrap();
        let text: Vec<String> = report.turn.iter().map(|s| s.to_string()).collect();
        answers.push(text.join(" "));
        for s in report.turn {
            game.play(s).unwrap();
        }
        if game.position().winner() == Some(Seat::Green) {
            return (End::EngineWon, answers);
        }
    }
    (End::Deviated, answers)
}

/// The script's games against level `elo` with seeds `seeds`: how many
/// it won the same way.
#[allow(dead_code)] // the example counts each ending itself
pub fn trapped(engine: &Engine, elo: u64, seeds: std::ops::Range<u64>) -> usize {
    seeds
        .filter(|&seed| {
            set_level(engine, elo, seed);
            engine.new_game().unwrap();
            play(engine).0 == End::Trapped
        })
        .count()
}
