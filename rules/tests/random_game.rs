//! Random games of 2, 3 and 4 players with the rules crate alone (no other
//! crate of the project, no external crate). At every step: the position is
//! valid, its incremental hash equals a recompute, SPN and packed bytes read
//! back equal with the same hash, every legal step's text parses back to it,
//! and make/unmake of every legal step restores the position and its hash.
//! At the end: the game's history replays to the same positions, undo walks
//! back to the start, and a finished game has a winner and no legal step.

use splut_rules::{Game, MAX_TURN, Position, Seat, Step, StepList, StepText, perft, splitmix64};

/// Games per player count.
const GAMES: usize = 200;
/// Random games rarely last this long; the cap bounds the test's time.
const MAX_TURNS: u32 = 300;

/// A seeded random number generator on the crate's SplitMix64, so every run
/// plays the same games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (splitmix64(&mut self.0) % n as u64) as usize
    }
}

/// The invariants of one position; `list` holds its legal steps.
fn check_position(p: &Position, list: &StepList) {
    p.validate().unwrap_or_else(|e| panic!("{p}: {e}"));
    assert_eq!(p.hash(), p.compute_hash(), "{p}");

    // SPN round trip: an equal position with the same hash.
    let spn = p.to_spn();
    let back = if p.turn() <= MAX_TURN {
        Position::from_spn(&spn)
    } else {
        Position::from_written_spn(&spn)
    }
    .unwrap_or_else(|e| panic!("{spn}: {e}"));
    assert_eq!(back, *p, "{spn}");
    assert_eq!(back.hash(), p.hash(), "{spn}");

    // Packed round trip, likewise.
    let unpacked = Position::unpack(&p.pack()).unwrap_or_else(|e| panic!("{spn}: {e}"));
    assert_eq!(unpacked, *p, "{spn}");
    assert_eq!(unpacked.hash(), p.hash(), "{spn}");

    // The legal steps: counted as generated, none at the end of the game.
    assert_eq!(list.len() as u32, p.legal_step_count(), "{spn}");
    assert_eq!(list.is_empty(), p.is_game_over(), "{spn}");
    for (i, &s) in list.iter().enumerate() {
        // The text parses back, as syntax and as this position's step.
        let text = s.to_string();
        assert_eq!(StepText::parse(&text), Ok(s.text()), "{spn} {text}");
        assert_eq!(p.parse_step(&text), Ok(s), "{spn} {text}");
        assert!(p.is_legal(s), "{spn} {text}");
        assert!(!list[..i].contains(&s), "{spn}: {text} generated twice");
        if s.is_pass() {
            assert_eq!(list.len(), 1, "{spn}: pass beside other steps");
        }

        // make/unmake agrees with copy-make and restores everything.
        let after = p.after(s);
        let mut q = *p;
        let undo = q.make(s);
        assert_eq!(q, after, "{spn} {text}");
        assert_eq!(q.hash(), q.compute_hash(), "{spn} {text}");
        q.unmake(s, &undo);
        assert_eq!(q, *p, "{spn} {text}");
        assert_eq!(q.hash(), p.hash(), "{spn} {text}");
    }
}

/// The invariants of a game's history: it replays from its steps' text to
/// the same positions, its turns hold its steps, and undo walks back.
fn check_history(game: &Game) {
    let text: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
    let mut replay = Game::new(*game.start());
    replay
        .play_all(&text.join(" "))
        .unwrap_or_else(|e| panic!("{}: {e}", game.start()));
    assert_eq!(replay.positions(), game.positions());
    assert_eq!(replay.position(), game.position());
    assert_eq!(replay.position().hash(), game.position().hash());

    // The turns are the steps, in order, each turn by one seat.
    let turns = game.turns();
    let flat: Vec<Step> = turns.iter().flat_map(|(_, t)| t.clone()).collect();
    assert_eq!(flat, game.steps());
    for (seat, t) in &turns {
        assert!(!t.is_empty() && t.len() <= 3, "{seat}: {t:?}");
    }

    // Undo, step by step, comes back through every position to the start.
    let mut back = game.clone();
    for i in (0..game.steps().len()).rev() {
        assert_eq!(back.undo(), Some(game.steps()[i]));
        assert_eq!(back.position(), &game.positions()[i]);
    }
    assert_eq!(back.undo(), None);
    assert_eq!(back.position(), game.start());
}

/// Plays `GAMES` random games of `players` players; returns how many
/// finished and how many steps were played.
fn play_random_games(players: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let start = Position::start(players).unwrap();
    let mut list = StepList::new();
    let (mut finished, mut steps) = (0, 0);
    for _ in 0..GAMES {
        let mut game = Game::new(start);
        loop {
            let p = *game.position();
            p.legal_steps(&mut list);
            check_position(&p, &list);
            if list.is_empty() || p.turn() > MAX_TURNS {
                break;
            }
            let step = list[rng.below(list.len())];
            // Through the text, as a user or a GUI would give it.
            assert_eq!(game.play_text(&step.to_string()), Ok(step));
            assert_eq!(*game.position(), p.after(step));
            steps += 1;
        }
        check_history(&game);

        let end = game.position();
        let out = game.eliminations();
        if end.is_game_over() {
            finished += 1;
            let winner = end.winner().expect("a finished game has a winner");
            assert!(end.legal_step_vec().is_empty());
            assert_eq!(end.legal_step_count(), 0);
            assert_eq!(end.seats_in_game().collect::<Vec<Seat>>(), [winner]);
            assert_eq!(out.len(), players - 1);
            assert!(!out.contains(&winner));
            assert_eq!(perft(end, 1), 0);
            assert!(end.whole_turn_of(winner).is_err());
        } else {
            assert_eq!(end.winner(), None);
            assert_eq!(out.len() + end.players_left() as usize, players);
        }
    }
    eprintln!("{players} players: {finished} of {GAMES} games finished, {steps} steps");
    (finished, steps)
}

#[test]
fn random_two_player_games() {
    let (finished, steps) = play_random_games(2, 2);
    assert!(finished > GAMES / 2 && steps > 10_000, "{finished} {steps}");
}

#[test]
fn random_three_player_games() {
    let (finished, steps) = play_random_games(3, 3);
    assert!(finished > GAMES / 2 && steps > 10_000, "{finished} {steps}");
}

#[test]
fn random_four_player_games() {
    let (finished, steps) = play_random_games(4, 4);
    assert!(finished > GAMES / 2 && steps > 10_000, "{finished} {steps}");
}
