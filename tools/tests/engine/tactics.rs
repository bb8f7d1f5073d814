//! Tactics, through the protocol: find a kill this turn, avoid a kill
//! threatened next turn, find a 2-turn forced win — for 2, 3 and 4 players,
//! each with the network (`net::`, `UseNNUE true`) and with the hand-written
//! evaluation (`hand::`); the cases are in `tactics_cases.rs`.

use crate::support::Engine;
use splut_rules::{Position, Seat, StepList};

/// Plays the engine's turn from `spn` and returns the position after it.
fn engine_turn(e: &mut Engine, spn: &str, go: &str) -> (Position, Vec<String>, Vec<String>) {
    e.send(&format!("position fen {spn}"));
    let (lines, turn, _) = e.go(go);
    let mut pos = Position::from_spn(spn).unwrap();
    for t in &turn {
        let s = pos
            .parse_step(t)
            .unwrap_or_else(|err| panic!("{turn:?}: {err}"));
        pos.play(s);
    }
    (pos, turn, lines)
}

/// Whether the side to move can, within the rest of its turn, remove
/// `victim` from the game (exhaustive over its steps).
fn can_eliminate(pos: &Position, victim: Seat) -> bool {
    let mover = pos.side_to_move();
    let turn = pos.turn();
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    for &s in list.iter() {
        let next = pos.after(s);
        if !next.in_game(victim) {
            return true;
        }
        if next.turn() == turn && next.side_to_move() == mover && can_eliminate(&next, victim) {
            return true;
        }
    }
    false
}

fn seats(pos: &Position) -> Vec<Seat> {
    pos.seats_in_game().collect()
}

/// An engine evaluating with the network (`UseNNUE`) or by hand.
fn engine(use_nnue: bool) -> Engine {
    let mut e = Engine::start();
    e.send(&format!("setoption name UseNNUE value {use_nnue}"));
    e
}

// ----- cases a network failed or fails (docs/results/networks.md) -----

/// A case the network v1 failed (docs/results/networks.md).
fn four_players_avoid_a_kill_threatened_next_turn(start: fn() -> Engine) {
    let mut e = start();
    let spn = "R/gTgDgS/5/yS5bT/RyD1yTR2bDR/6bS/rD1rS1rT/3/1 r 3 10 - - -";
    let threat = Position::from_spn(&spn.replace(" r 3 ", " y 3 ")).unwrap();
    assert!(can_eliminate(&threat, Seat::Red));
    for algo in ["alphabeta", "maxn"] {
        e.send(&format!("setoption name Algorithm value {algo}"));
        let (after, turn, _) = engine_turn(&mut e, spn, "depth 5");
        assert_eq!(after.side_to_move(), Seat::Yellow);
        assert!(
            !can_eliminate(&after, Seat::Red),
            "{algo}: after {turn:?} yellow still kills"
        );
    }
}

/// A case the networks t4, t5a, t6a and t6b failed
/// (docs/results/networks.md): max-n with 3 players, where their values
/// are weakest.
fn max_n_kills_this_turn_too(start: fn() -> Engine) {
    let mut e = start();
    e.send("setoption name Algorithm value maxn");
    let spn = "R/gTgDgS/5/3yS3/RyD6R/yT2R3/rD3rT/rS2/1 r 3 10 - - -";
    let (after, turn, _) = engine_turn(&mut e, spn, "depth 4");
    assert_eq!(seats(&after).len(), 2, "{turn:?} kills nobody");
}

/// A case the network v1 failed (docs/results/networks.md).
fn auto_turns_to_best_reply_search_when_paranoid_proves_a_loss(start: fn() -> Engine) {
    // 4 players, green to move (from a tournament game against greedy
    // players): paranoid alpha-beta proves that blue and red together kill
    // green whatever it does, and would play any turn. `auto` then spends
    // the rest of its budget on best-reply search and plays its turn.
    let spn = "R/gT2/yS2gSbT/3gD2bD/R1yD5R/yT5bS/rS1rD2/1RrT/1 g 3 7 - e2 -";
    let turn_of = |algo: &str| {
        let mut e = start();
        e.send(&format!("setoption name Algorithm value {algo}"));
        let (_, turn, lines) = engine_turn(&mut e, spn, "depth 8");
        (turn, lines)
    };
    let (_, paranoid) = turn_of("alphabeta");
    let last_info = |lines: &[String]| {
        lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .cloned()
            .unwrap_or_default()
    };
    assert!(last_info(&paranoid).contains("score loss"), "{paranoid:?}");
    let (brs_turn, _) = turn_of("brs");
    let (auto_turn, auto) = turn_of("auto");
    assert!(auto.iter().any(|l| l.contains("score loss")), "{auto:?}");
    assert!(!last_info(&auto).contains("score loss"), "{auto:?}");
    assert_eq!(auto_turn, brs_turn);
}

/// The cases with the network (`UseNNUE true`).
mod net {
    use super::*;

    fn start() -> Engine {
        engine(true)
    }

    include!("tactics_cases.rs");

    #[test]
    fn four_players_avoid_a_kill_threatened_next_turn() {
        super::four_players_avoid_a_kill_threatened_next_turn(start)
    }

    #[test]
    fn auto_turns_to_best_reply_search_when_paranoid_proves_a_loss() {
        super::auto_turns_to_best_reply_search_when_paranoid_proves_a_loss(start)
    }

    #[test]
    fn max_n_kills_this_turn_too() {
        super::max_n_kills_this_turn_too(start)
    }
}

/// The cases with the hand-written evaluation.
mod hand {
    use super::*;

    fn start() -> Engine {
        engine(false)
    }

    include!("tactics_cases.rs");

    #[test]
    fn four_players_avoid_a_kill_threatened_next_turn() {
        super::four_players_avoid_a_kill_threatened_next_turn(start)
    }

    #[test]
    fn auto_turns_to_best_reply_search_when_paranoid_proves_a_loss() {
        super::auto_turns_to_best_reply_search_when_paranoid_proves_a_loss(start)
    }

    #[test]
    fn max_n_kills_this_turn_too() {
        super::max_n_kills_this_turn_too(start)
    }
}

// ----- levitation threats -----

/// `spn` with `seat` to move at the start of its turn and no rock cooling:
/// the board as the next seat would find it if the side to move passed.
fn as_if_to_move(spn: &str, seat: char) -> Position {
    let mut f: Vec<String> = spn.split(' ').map(String::from).collect();
    f[1] = seat.to_string();
    f[5] = "-".into();
    Position::from_spn(&f.join(" ")).unwrap()
}

#[test]
fn avoid_a_levitation_kill_threatened_next_turn() {
    // Found in random games: the next seat can float a rock into line with
    // the side to move's sorcerer and throw it in one turn; no rock is
    // lined up before. At depth 3 the search ends with the side to move's
    // own turn, so only the evaluation can see the threat: before it
    // counted levitations, the engine walked into each of these kills.
    // The term is off by default (until a tournament shows it pays); it
    // is tested with the hand-set weights it was made with (with the
    // tuned ones the third position's threat is outweighed at depth 3).
    let file = std::env::temp_dir().join(format!("splut-lev-{}.txt", std::process::id()));
    let hand_set = "dwarf 150\nkill_now 5000\nthreat_unanswered 3000\nthreat 250\n\
        threat_per_spent_step 150\nexposed_line 30\nsorcerer_freedom 10\n\
        troll_near_rock 60 40 20 10\nmobility 3\n";
    std::fs::write(&file, format!("{hand_set}levitation_threat 100\n")).unwrap();
    let mut e = engine(false);
    e.send(&format!("setoption name EvalFile value {}", file.display()));
    for (spn, next) in [
        // 2 players: green to move, red threatens.
        ("1/1R1/2gDgS1/2rS4/4rT4/gT1rD2RR/5/3/R g 3 24 - g4 -", 'r'),
        // 3 players: yellow to move, green threatens.
        ("R/3/3gTR/1yS1rD3/RgSyT3R2/1rS5/1yD3/3/rT y 3 26 - - -", 'g'),
        // 3 players (red, green, blue): red to move, green threatens.
        (
            "R/gD2/2gS2/1R5/5bSbDbT1/5R1/2gTrDrT/rS2/R r 3 13 - - -",
            'g',
        ),
    ] {
        let start = Position::from_spn(spn).unwrap();
        let me = start.side_to_move();
        assert!(can_eliminate(&as_if_to_move(spn, next), me), "{spn}");
        let (after, turn, _) = engine_turn(&mut e, spn, "depth 3");
        assert!(after.in_game(me), "{spn}");
        assert_eq!(after.side_to_move().letter(), next, "{spn}");
        assert!(
            !can_eliminate(&after, me),
            "{spn}: after {turn:?} {next} still kills"
        );
    }
}
