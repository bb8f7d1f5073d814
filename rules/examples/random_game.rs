//! One random game with the rules crate alone: each turn's steps, then the
//! winner.
//!
//! `cargo run -p splut-rules --example random_game -- 3 [seed]` plays a
//! 3-player game (2, 3 or 4 players; the seed defaults to the clock).

use splut_rules::{Game, Position, splitmix64};
use std::time::{SystemTime, UNIX_EPOCH};

/// Random games rarely last this long.
const MAX_TURNS: u32 = 1000;

fn main() {
    let mut args = std::env::args().skip(1);
    let players: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let Some(start) = Position::start(players) else {
        eprintln!("usage: random_game [2|3|4] [seed]");
        std::process::exit(2);
    };
    let mut seed = args.next().and_then(|a| a.parse().ok()).unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    println!("{players} players, seed {seed}");
    println!("{}", start.board_art());

    let mut game = Game::new(start);
    while !game.position().is_game_over() && game.position().turn() <= MAX_TURNS {
        let p = *game.position();
        let steps = p.legal_step_vec();
        let step = steps[(splitmix64(&mut seed) % steps.len() as u64) as usize];
        game.play(step).expect("a generated step is legal");
    }
    let mut before = start;
    for (seat, steps) in game.turns() {
        let text: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
        let mut after = before;
        for &s in &steps {
            after.play(s);
        }
        let out: Vec<&str> = before
            .seats_in_game()
            .filter(|&s| !after.in_game(s))
            .map(|s| s.name())
            .collect();
        let out = if out.is_empty() {
            String::new()
        } else {
            format!("  ({} out)", out.join(", "))
        };
        println!(
            "turn {:>3} {:<6} {}{out}",
            before.turn(),
            seat.name(),
            text.join(" ")
        );
        before = after;
    }
    let end = game.position();
    println!("{}", end.board_art());
    match end.winner() {
        Some(w) => println!("{} wins after {} turns", w.name(), end.turn()),
        None => println!("no winner after {MAX_TURNS} turns"),
    }
}
