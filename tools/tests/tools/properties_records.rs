//! Property tests of the game-records parser: it never panics, whatever it
//! is given, and what the writer writes reads back as the same game.

use proptest::prelude::*;
use splut_play::record::{Forfeit, GameRecord, Reason, RecordReader, parse_records, validate};
use splut_rules::{Position, Seat};

/// A real game: random legal steps from the start, written as the
/// referee writes it.
fn played_game(players: usize, seed: u64, max_steps: usize) -> GameRecord {
    let mut pos = Position::start(players).unwrap();
    let mut state = seed | 1;
    let mut turns: Vec<(Seat, Vec<String>)> = Vec::new();
    let mut eliminated = Vec::new();
    let mut line_turn = None;
    for _ in 0..max_steps {
        if pos.is_game_over() {
            break;
        }
        let steps = pos.legal_step_vec();
        // xorshift: enough randomness, no dependency.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let s = steps[(state % steps.len() as u64) as usize];
        // One line per turn, as the referee writes them.
        if line_turn != Some(pos.turn()) {
            line_turn = Some(pos.turn());
            turns.push((pos.side_to_move(), Vec::new()));
        }
        turns.last_mut().unwrap().1.push(s.to_string());
        let before: Vec<Seat> = pos.seats_in_game().collect();
        pos.play(s);
        eliminated.extend(before.into_iter().filter(|x| !pos.in_game(*x)));
    }
    let left: Vec<Seat> = pos.seats_in_game().collect();
    let (mut places, reason) = if pos.is_game_over() {
        (vec![left], Reason::LastSorcerer)
    } else {
        // Cut short: a forfeit by the side to move, which may come at any step.
        let loser = pos.side_to_move();
        (
            vec![
                left.iter().copied().filter(|&s| s != loser).collect(),
                vec![loser],
            ],
            Reason::Forfeit {
                seat: loser,
                what: Forfeit::TimedOut("no 'bestmove' within 10 ms".into()),
            },
        )
    };
    places.retain(|g: &Vec<Seat>| !g.is_empty());
    for s in eliminated.iter().rev() {
        places.push(vec![*s]);
    }
    let seats = Position::start(players)
        .unwrap()
        .seats_in_game()
        .enumerate()
        .map(|(i, s)| (s, format!("p{i}")))
        .collect();
    GameRecord {
        number: (seed % 1000) as usize + 1,
        players,
        seats,
        opening: format!("random 0 steps, seed {seed}, #1"),
        start: "startpos".into(),
        opening_steps: 0,
        time_control: "p0=nodes=100 p1=nodes=100".into(),
        places,
        reason,
        turns,
    }
}

fn valid_file() -> String {
    (0..3)
        .map(|i| played_game(2 + i % 3, 7 + i as u64, 60).to_text())
        .collect()
}

/// Every way of reading: the whole-text parser, the streaming reader (and
/// validating what it reads). None may panic.
fn read_every_way(bytes: &[u8]) {
    for g in RecordReader::new(bytes).flatten() {
        let _ = validate(&g.1);
    }
    if let Ok(text) = std::str::from_utf8(bytes)
        && let Ok(games) = parse_records(text)
    {
        for g in &games {
            let _ = validate(g);
        }
    }
}

/// How a line of a valid file is mutated.
#[derive(Clone, Debug)]
enum Mutation {
    Drop(usize),
    Duplicate(usize),
    Swap(usize, usize),
    /// Replace the character at this position (modulo the length).
    Char(usize, char),
    /// Insert a byte that is never UTF-8.
    Byte(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Drop),
        any::<usize>().prop_map(Mutation::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::Swap(a, b)),
        (
            any::<usize>(),
            prop_oneof![
                Just('['),
                Just(']'),
                Just('='),
                Just('>'),
                Just(' '),
                Just('\n'),
                Just('9'),
                Just('r'),
                Just('b'),
                any::<char>()
            ]
        )
            .prop_map(|(a, c)| Mutation::Char(a, c)),
        any::<usize>().prop_map(Mutation::Byte),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = text.lines().map(|l| l.as_bytes().to_vec()).collect();
    for m in mutations {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        match *m {
            Mutation::Drop(i) => {
                lines.remove(i % n);
            }
            Mutation::Duplicate(i) => {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
            Mutation::Swap(a, b) => lines.swap(a % n, b % n),
            Mutation::Char(i, c) => {
                let all: usize = lines.iter().map(|l| l.len()).sum::<usize>().max(1);
                let mut at = i % all;
                for l in &mut lines {
                    if at < l.len() {
                        let mut buf = [0u8; 4];
                        l.splice(at..=at, c.encode_utf8(&mut buf).bytes());
                        break;
                    }
                    at -= l.len();
                }
            }
            Mutation::Byte(i) => {
                let l = &mut lines[i % n];
                let at = i % (l.len() + 1);
                l.insert(at, 0xFF);
            }
        }
    }
    lines.join(&b'\n')
}

/// Any forfeit, with text fields a record line can hold (one line, no
/// space at either end; a step is one word).
fn forfeit() -> impl Strategy<Value = Forfeit> {
    let words = "[!-~]+( [!-~]+){0,4}";
    prop_oneof![
        words.prop_map(Forfeit::Crashed),
        words.prop_map(Forfeit::TimedOut),
        (any::<u64>(), any::<u64>())
            .prop_map(|(spent_ms, left_ms)| Forfeit::LostOnTime { spent_ms, left_ms }),
        Just(Forfeit::NoStep),
        ("[!-~]{0,12}", words).prop_map(|(best, turn)| Forfeit::BestMoveNotInTurn { best, turn }),
        ("[!-~]{0,12}", words).prop_map(|(text, why)| Forfeit::IllegalStep { text, why }),
        "[!-~]{0,12}".prop_map(|text| Forfeit::PastTurnEnd { text }),
        Just(Forfeit::NoParticipant),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn typed_forfeits_read_back_from_the_record_text(
        what in forfeit(),
        seed in any::<u64>(),
        steps in 0usize..40,
    ) {
        let mut g = played_game(2, seed, steps);
        let seat = g.seats[(seed % 2) as usize].0;
        g.reason = Reason::Forfeit { seat, what };
        let back = parse_records(&g.to_text()).unwrap();
        prop_assert_eq!(&back, &vec![g]);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "(\\[[A-Za-z]{0,12}( [ -~]{0,20})?\\]|[rygb]( [a-i][0-9][a-i][0-9]){0,3}|[ -~]{0,30}|)(\n(\\[[A-Za-z]{0,12}( [ -~]{0,20})?\\]|[rygb]( [a-i][0-9][a-i][0-9]){0,3}|[ -~]{0,30}|)){0,30}") {
        read_every_way(text.as_bytes());
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        read_every_way(&bytes);
    }

    #[test]
    fn mutated_records_never_panic(mutations in proptest::collection::vec(mutation(), 1..6)) {
        let bytes = mutate(&valid_file(), &mutations);
        read_every_way(&bytes);
    }

    #[test]
    fn written_records_read_back_as_the_same_games(
        players in 2usize..=4,
        seed in any::<u64>(),
        steps in 0usize..120,
    ) {
        let g = played_game(players, seed, steps);
        prop_assert_eq!(validate(&g), Ok(()));
        let text = g.to_text();
        let back = parse_records(&text).unwrap();
        prop_assert_eq!(&back, &vec![g.clone()]);
        // Twice in a row, through the streaming reader.
        let two = format!("{text}{text}");
        let read: Vec<GameRecord> = RecordReader::new(two.as_bytes())
            .map(|r| r.unwrap().1)
            .collect();
        prop_assert_eq!(read, vec![g.clone(), g]);
    }
}

#[test]
fn the_file_the_mutations_start_from_is_valid() {
    let games = parse_records(&valid_file()).unwrap();
    assert_eq!(games.len(), 3);
    for g in &games {
        assert_eq!(validate(g), Ok(()), "game {}", g.number);
    }
    // Some of them are played to the end, or at least well into the game.
    assert!(games.iter().any(|g| g.turns.len() > 10));
}
