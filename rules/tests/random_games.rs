//! Thousands of seeded random games for 2, 3 and 4 players. After every step:
//! the incremental Zobrist hash equals a full recompute, the position is
//! consistent, bulk counting equals generation, SPN and step text round-trip,
//! and make/unmake agrees with copy-make. At the end every step is unmade in
//! reverse order and each earlier position (hash included) comes back exactly.

use splut_rules::{Game, Position, Step, StepList, StepText, Undo};
use std::collections::HashSet;

const GAMES_PER_PLAYER_COUNT: u64 = 2000;
/// Random games rarely last this long; the cap keeps the test's time bounded.
const MAX_STEPS: usize = 600;

/// The crate's SplitMix64: seeded and dependency-free, so every run plays
/// the same games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        splut_rules::splitmix64(&mut self.0)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn check_position(pos: &Position, list: &StepList) {
    pos.validate().unwrap_or_else(|e| panic!("{pos}: {e}"));
    assert_eq!(pos.hash(), pos.compute_hash(), "{pos}");
    assert_eq!(list.len() as u32, pos.legal_step_count(), "{pos}");
    assert_eq!(list.is_empty(), pos.is_game_over(), "{pos}");
    let again = Position::from_spn(&pos.to_spn()).unwrap_or_else(|e| panic!("{pos}: {e}"));
    assert_eq!(again, *pos, "SPN round trip");
    let mut texts = HashSet::new();
    for &s in list.iter() {
        let text = s.to_string();
        assert_eq!(StepText::parse(&text).unwrap(), s.text(), "{text}");
        assert!(
            texts.insert(text.clone()),
            "{text} generated twice in {pos}"
        );
        if s.is_pass() {
            assert_eq!(list.len(), 1, "pass beside other steps in {pos}");
        }
    }
}

struct Stats {
    games: u64,
    finished: u64,
    steps: u64,
}

fn play_random_games(players: usize, seed: u64) -> Stats {
    let mut rng = Rng(seed);
    let start = Position::start(players).unwrap();
    let mut stats = Stats {
        games: 0,
        finished: 0,
        steps: 0,
    };
    let mut list = StepList::new();
    for _ in 0..GAMES_PER_PLAYER_COUNT {
        let mut game = Game::new(start);
        let mut pos = start;
        let mut undos: Vec<(Step, Undo, Position)> = Vec::new();
        loop {
            assert_eq!(pos, *game.position());
            pos.legal_steps(&mut list);
            check_position(&pos, &list);
            if list.is_empty() {
                stats.finished += 1;
                break;
            }
            if game.steps().len() >= MAX_STEPS {
                break;
            }
            let step: Step = list[rng.below(list.len())];
            // Through the text, as a GUI would send it.
            let parsed = pos.parse_step(&step.to_string()).unwrap();
            assert_eq!(parsed, step);
            game.play(step).unwrap();
            let before = pos;
            let undo = pos.make(step);
            assert_eq!(pos.hash(), pos.compute_hash(), "after {step} in {before}");
            assert_eq!(pos, before.after(step));
            // Unmake at once too, then make again, so every step is checked
            // both ways while its position is fresh.
            let mut back = pos;
            back.unmake(step, &undo);
            assert_eq!(back, before, "unmake {step}");
            undos.push((step, undo, before));
        }
        stats.steps += game.steps().len() as u64;
        stats.games += 1;
        while let Some((step, undo, before)) = undos.pop() {
            pos.unmake(step, &undo);
            assert_eq!(pos, before);
            assert_eq!(pos.hash(), pos.compute_hash());
            game.undo();
            assert_eq!(*game.position(), before);
        }
        assert_eq!(pos, start);
    }
    stats
}

fn run(players: usize, seed: u64) {
    let s = play_random_games(players, seed);
    eprintln!(
        "{players} players: {} games, {} finished, {} steps",
        s.games, s.finished, s.steps
    );
    assert_eq!(s.games, GAMES_PER_PLAYER_COUNT);
    // Random play does end games: if none did, kills would be broken.
    assert!(
        s.finished * 2 > s.games,
        "only {} of {} games finished",
        s.finished,
        s.games
    );
}

#[test]
fn two_players() {
    run(2, 2);
}

#[test]
fn three_players() {
    run(3, 3);
}

#[test]
fn four_players() {
    run(4, 4);
}
