//! Property tests of the rules core's text interfaces: SPN positions and step
//! texts. Random play (2, 3 and 4 players) gives reachable positions; random
//! text and mutations of valid texts probe the parsers.
//!
//! - Every reachable position round-trips through SPN.
//! - `Position::from_spn` never panics; whatever it accepts is consistent,
//!   is exactly the canonical text `to_spn` writes (fields joined by single
//!   spaces), and reads back as the same position.
//! - Step text never panics the parser or `Game::play_text`; every accepted
//!   step is legal, its text round-trips, and the game moves on by it.
//!
//! 256 cases per property by default; `PROPTEST_CASES=n` sets another count.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use splut_rules::{Game, MAX_TURN, Position, StepText};

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

/// A game from a standard start, each step chosen by the next number.
fn random_game(players: usize, choices: &[u32]) -> Game {
    let mut game = Game::new(Position::start(players).expect("2-4 players"));
    for &c in choices {
        let legal = game.position().legal_step_vec();
        if legal.is_empty() {
            break;
        }
        let step = legal[c as usize % legal.len()];
        game.play(step).expect("a generated step is legal");
    }
    game
}

fn arb_game() -> impl Strategy<Value = Game> {
    (2usize..=4, vec(any::<u32>(), 0..250)).prop_map(|(n, c)| random_game(n, &c))
}

/// Characters SPN and step texts use, and a few they do not.
const ALPHABET: &[char] = &[
    'R', 'r', 'y', 'g', 'b', 'S', 'D', 'T', '/', ' ', '-', 'x', ',', '0', '1', '2', '3', '4', '5',
    '6', '7', '8', '9', 'a', 'e', 'i', 'j', '^', '*', '@', 'n', 's', 'w', 'é', '\t', '\u{0}', '+',
];

fn arb_char() -> impl Strategy<Value = char> {
    prop_oneof![4 => select(ALPHABET), 1 => any::<char>()]
}

/// Numbers a field might be replaced by: huge, overflowing, signed, padded.
fn arb_number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        select(vec![
            "0".to_string(),
            "1".to_string(),
            "3".to_string(),
            "+3".to_string(),
            "-1".to_string(),
            "007".to_string(),
            (MAX_TURN - 1).to_string(),
            MAX_TURN.to_string(),
            (MAX_TURN + 1).to_string(),
            "4294967295".to_string(),
            "4294967296".to_string(),
            "18446744073709551615".to_string(),
            "18446744073709551616".to_string(),
            "340282366920938463463374607431768211456".to_string(),
        ]),
        "[0-9]{1,30}",
        any::<u64>().prop_map(|n| n.to_string()),
    ]
}

#[derive(Clone, Debug)]
enum Mutation {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
    SwapFields(usize, usize),
    Field(usize, String),
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), arb_char()).prop_map(|(i, c)| Mutation::Replace(i, c)),
        (any::<usize>(), arb_char()).prop_map(|(i, c)| Mutation::Insert(i, c)),
        any::<usize>().prop_map(Mutation::Delete),
        (0usize..7, 0usize..7).prop_map(|(a, b)| Mutation::SwapFields(a, b)),
        (
            0usize..7,
            prop_oneof![arb_number_text(), "[-xa-i1-9,]{0,8}", any::<String>()]
        )
            .prop_map(|(i, t)| Mutation::Field(i, t)),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for m in mutations {
        match m {
            Mutation::Replace(i, c) if !chars.is_empty() => {
                let n = chars.len();
                chars[i % n] = *c;
            }
            Mutation::Insert(i, c) => chars.insert(i % (chars.len() + 1), *c),
            Mutation::Delete(i) if !chars.is_empty() => {
                let n = chars.len();
                chars.remove(i % n);
            }
            Mutation::SwapFields(..) | Mutation::Field(..) => {
                let s: String = chars.iter().collect();
                let mut fields: Vec<String> = s.split(' ').map(String::from).collect();
                let n = fields.len();
                match m {
                    Mutation::Field(i, t) => fields[i % n] = t.clone(),
                    Mutation::SwapFields(a, b) => fields.swap(a % n, b % n),
                    _ => {}
                }
                chars = fields.join(" ").chars().collect();
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// What must hold for any text `from_spn` accepts: a consistent position,
/// written back as the same text (up to the spaces between fields), read
/// back as the same position; its steps can be generated and played.
fn check_accepted(text: &str, p: &Position) -> Result<(), TestCaseError> {
    prop_assert!(p.validate().is_ok(), "{text}: {:?}", p.validate());
    let spn = p.to_spn();
    let normalised = text.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
    prop_assert_eq!(&spn, &normalised, "only canonical SPN is accepted");
    prop_assert_eq!(Position::from_spn(&spn), Ok(*p));
    prop_assert!(p.turn() <= MAX_TURN);
    for step in p.legal_step_vec() {
        let q = p.after(step);
        prop_assert!(q.validate().is_ok(), "{spn} {step}: {:?}", q.validate());
    }
    Ok(())
}

fn check_spn_text(text: &str) -> Result<(), TestCaseError> {
    if let Ok(p) = Position::from_spn(text) {
        check_accepted(text, &p)?;
    }
    Ok(())
}

/// SPN-shaped text: seven fields, each from roughly its own alphabet.
fn arb_spn_shaped() -> impl Strategy<Value = String> {
    let board = "[RrygbSDT1-9]{0,9}(/[RrygbSDT1-9]{0,9}){8}";
    (
        board,
        "[rygbx]",
        "[0-4]",
        prop_oneof!["[1-9][0-9]{0,2}", arb_number_text()],
        "-|x|[a-i][1-9]",
        "-|[a-i][1-9](,[a-i][1-9]){0,3}",
        "-|[a-i][1-9](,[a-i][1-9]){0,3}",
    )
        .prop_map(|(b, s, n, t, l, c, m)| format!("{b} {s} {n} {t} {l} {c} {m}"))
}

/// A reachable board with random other fields: exercises the checks of
/// steps left, turn, levitation and the rock lists on real boards. The lists
/// name the board's rocks, in any order and with repeats.
fn arb_fields_on_real_board() -> impl Strategy<Value = String> {
    (
        arb_game(),
        "[rygb]",
        "[1-3]",
        prop_oneof!["[1-9]", "[1-9][0-9]{0,2}"],
        0u8..8,
        vec(0usize..4, 0..4),
        vec(0usize..4, 0..4),
    )
        .prop_map(|(g, side, steps, turn, lev, cooling, moved)| {
            let p = g.position();
            let rocks: Vec<String> = p.rocks().map(|s| s.to_string()).collect();
            let list = |picks: &[usize]| {
                if picks.is_empty() {
                    "-".to_string()
                } else {
                    let names: Vec<&str> = picks.iter().map(|&i| rocks[i].as_str()).collect();
                    names.join(",")
                }
            };
            let lev = match lev {
                0 => "-".to_string(),
                1 => "x".to_string(),
                2 => "e5".to_string(),
                i => rocks[usize::from(i - 3) % 4].clone(),
            };
            let board = p.to_spn().split(' ').next().unwrap_or("").to_string();
            format!(
                "{board} {side} {steps} {turn} {lev} {} {}",
                list(&cooling),
                list(&moved)
            )
        })
}

/// Step-shaped text: squares, annotations, and stray characters.
fn arb_step_shaped() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-j][0-9][a-j][0-9]([\\^@][a-j][0-9]|\\*[nesw])?",
        "[a-i1-9\\^@*nesw]{0,8}",
        Just("pass".to_string()),
        any::<String>(),
    ]
}

/// What must hold after `game.play_text(text)`.
fn check_step_text(game: &mut Game, text: &str) -> Result<(), TestCaseError> {
    let before = *game.position();
    let syntax = StepText::parse(text);
    match game.play_text(text) {
        Ok(step) => {
            prop_assert!(before.legal_step_vec().contains(&step), "{before} {text}");
            prop_assert_eq!(step.to_string(), text);
            prop_assert_eq!(syntax.clone(), Ok(step.text()));
            prop_assert_eq!(*game.position(), before.after(step));
            prop_assert_eq!(before.parse_step(&step.to_string()), Ok(step));
            game.undo();
        }
        Err(_) => prop_assert_eq!(*game.position(), before),
    }
    if let Ok(t) = syntax {
        prop_assert_eq!(t.to_string(), text, "step syntax round trip");
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn reachable_positions_round_trip_through_spn(game in arb_game()) {
        for p in game.positions() {
            let spn = p.to_spn();
            prop_assert_eq!(Position::from_spn(&spn), Ok(*p), "{}", spn);
        }
        check_accepted(&game.position().to_spn(), game.position())?;
    }

    #[test]
    fn from_spn_never_panics_on_arbitrary_text(text in any::<String>()) {
        check_spn_text(&text)?;
    }

    #[test]
    fn from_spn_never_panics_on_spn_shaped_text(text in arb_spn_shaped()) {
        check_spn_text(&text)?;
    }

    #[test]
    fn from_spn_checks_every_field_of_a_real_board(text in arb_fields_on_real_board()) {
        check_spn_text(&text)?;
    }

    #[test]
    fn from_spn_never_panics_on_mutated_spn(
        game in arb_game(),
        mutations in vec(arb_mutation(), 1..4),
    ) {
        let text = mutate(&game.position().to_spn(), &mutations);
        check_spn_text(&text)?;
    }

    #[test]
    fn step_text_never_panics_on_arbitrary_text(
        game in arb_game(),
        text in arb_step_shaped(),
    ) {
        let mut game = game;
        check_step_text(&mut game, &text)?;
    }

    #[test]
    fn step_text_never_panics_on_mutated_legal_steps(
        game in arb_game(),
        pick in any::<usize>(),
        mutations in vec(
            prop_oneof![
                (any::<usize>(), arb_char()).prop_map(|(i, c)| Mutation::Replace(i, c)),
                (any::<usize>(), arb_char()).prop_map(|(i, c)| Mutation::Insert(i, c)),
                any::<usize>().prop_map(Mutation::Delete),
            ],
            0..3,
        ),
    ) {
        let mut game = game;
        let legal = game.position().legal_step_vec();
        let text = match legal.get(pick % legal.len().max(1)) {
            Some(s) => mutate(&s.to_string(), &mutations),
            None => mutate("pass", &mutations),
        };
        check_step_text(&mut game, &text)?;
    }

    #[test]
    fn every_legal_step_text_is_accepted_and_round_trips(game in arb_game()) {
        let mut game = game;
        for step in game.position().legal_step_vec() {
            let text = step.to_string();
            check_step_text(&mut game, &text)?;
            prop_assert_eq!(game.position().parse_step(&text), Ok(step));
        }
    }
}
