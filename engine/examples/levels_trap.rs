//! The scripted opponent of issue 52 against the board's low levels: red
//! repeats one known kill (`tests/trap/mod.rs`, [`trap::TRAP`]) against
//! the engine at a `UCI_Elo`, once per `Seed`, and counts the games it
//! wins the same way (docs/results/levels.md, 2026-11-27).
//!
//! ```text
//! cargo run --release -p splut-engine --example levels_trap -- [games] [elo…]
//! ```
//!
//! Defaults: 50 games (seeds 1 to 50) at each of the board's three
//! lowest named levels, Beginner 1040, Novice 1200 and Casual 1350, and
//! the next, Club player 1510. `-v` prints each game's green turns.

#[path = "../tests/trap/mod.rs"]
mod trap;

use splut_engine::Engine;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let games = numbers.first().copied().unwrap_or(50);
    let mut elos: Vec<u64> = numbers.iter().skip(1).copied().collect();
    if elos.is_empty() {
        elos = vec![1040, 1200, 1350, 1510];
    }
    let engine = Engine::new();
    for elo in elos {
        let mut count = [0usize; 3];
        for seed in 1..=games {
            trap::set_level(&engine, elo, seed);
            engine.new_game().expect("a new game");
            let (end, answers) = trap::play(&engine);
            count[end as usize] += 1;
            if verbose {
                println!("  elo {elo} seed {seed}: {end:?}: {}", answers.join(" / "));
            }
        }
        println!(
            "UCI_Elo {elo}: trapped {} of {games} ({:.0}%), deviated {}, engine won {}",
            count[0],
            100.0 * count[0] as f64 / games as f64,
            count[1],
            count[2]
        );
    }
}
