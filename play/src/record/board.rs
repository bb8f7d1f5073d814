//! The board's records (`splut gui`'s page, with its server or static in
//! WebAssembly): the seats named by who plays them, an unfinished game
//! cut to its whole turns, and the game a board loads from a record.

use super::{BadGame, GameRecord, Labels, Reason, parse_records};
use splut_rules::{Game, Position, Seat, SpnError};

/// Who plays a seat of a game on the board (`splut gui`'s page, with its
/// server or static in WebAssembly): a person, or an engine at a time per
/// turn and a level. A board's record names the seats by it
/// ([`board_record`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Participant {
    /// A person, playing by clicks.
    Person,
    /// A person for whom the engine played these turns while they were
    /// away or after they left (a table's takeover): unrated for them.
    StoodIn {
        /// The turns the engine played, in order.
        turns: Vec<u32>,
    },
    /// An engine.
    Engine {
        /// Its `Algorithm` option.
        algorithm: String,
        /// Its time per turn in ms.
        movetime: u64,
        /// Its level; full strength if none.
        level: Option<Strength>,
    },
}

/// An engine's level on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// `UCI_LimitStrength` on and `UCI_Elo` at this value.
    Elo(i64),
    /// `Skill Level` at this value.
    Skill(i64),
}

impl Participant {
    /// The name a record gives it: `person`, or the engine's
    /// `<algorithm>-<ms>ms`, with `-elo<v>` or `-skill<v>` for a level
    /// (`alphabeta-1000ms-elo1500`); a person the engine stood in for,
    /// `person-unrated(engine:5,7)` (the turns it played).
    pub fn name(&self) -> String {
        match self {
            Participant::Person => "person".to_string(),
            Participant::StoodIn { turns } => {
                let turns: Vec<String> = turns.iter().map(u32::to_string).collect();
                format!("person-unrated(engine:{})", turns.join(","))
            }
            Participant::Engine {
                algorithm,
                movetime,
                level,
            } => {
                let level = match level {
                    Some(Strength::Elo(v)) => format!("-elo{v}"),
                    Some(Strength::Skill(v)) => format!("-skill{v}"),
                    None => String::new(),
                };
                format!("{algorithm}-{movetime}ms{level}")
            }
        }
    }
}

/// The board's `[TimeControl]`: each engine's `<name>=movetime=<ms>` once,
/// sorted, then when a person plays `person=none`, or with the people's
/// `clock` (`(base, increment)` in ms) `person=clock=<base>+<increment>`.
fn board_time_control(seats: &[(Seat, Participant)], clock: Option<(u64, u64)>) -> String {
    let mut tcs: Vec<String> = seats
        .iter()
        .filter_map(|(_, p)| match p {
            Participant::Engine { movetime, .. } => {
                Some(format!("{}=movetime={movetime}", p.name()))
            }
            Participant::Person | Participant::StoodIn { .. } => None,
        })
        .collect();
    tcs.sort();
    tcs.dedup();
    if seats
        .iter()
        .any(|(_, p)| matches!(p, Participant::Person | Participant::StoodIn { .. }))
    {
        tcs.push(match clock {
            Some((base, increment)) => format!("person=clock={base}+{increment}"),
            None => "person=none".into(),
        });
    }
    tcs.join(" ")
}

/// Takes back the steps of a turn `game` has begun and not finished, so
/// that it ends after its last whole turn. A game that is over keeps its
/// every step (the winning step may end a turn early).
pub fn cut_to_whole_turns(game: &mut Game) {
    if game.position().is_game_over() {
        return;
    }
    let turn = game.position().turn();
    game.undo_turn(turn);
}

/// A game played on the board, as the record `splut gui` and the static
/// web board download (`splut replay` reads it): game 1, opening
/// `splut gui`, the start as an SPN, the seats named by who plays them
/// ([`Participant::name`]) with their time controls. A finished game ends
/// with the last sorcerer standing; an unfinished one is cut to its last
/// whole turn ([`cut_to_whole_turns`]) and recorded as a draw by a turn
/// limit at that turn, the only ending the format has for a game nobody
/// won.
pub fn board_record(game: &Game, seats: &[(Seat, Participant)]) -> GameRecord {
    board_record_clocked(game, seats, None)
}

/// [`board_record`] of a game whose people played on a clock (`(base,
/// increment)` in ms, Fischer): its `[TimeControl]` says
/// `person=clock=<base>+<increment>` where an untimed game's says
/// `person=none`.
pub fn board_record_clocked(
    game: &Game,
    seats: &[(Seat, Participant)],
    clock: Option<(u64, u64)>,
) -> GameRecord {
    let mut game = game.clone();
    cut_to_whole_turns(&mut game);
    let reason = if game.position().is_game_over() {
        Reason::LastSorcerer
    } else {
        Reason::TurnLimit(game.position().turn().saturating_sub(1))
    };
    board_record_ended(&game, seats, clock, reason)
}

/// [`board_record_clocked`] of a game a judge ended where it stands (the
/// board's draw rules: a repetition may end it within a turn), with that
/// reason and every step.
pub fn board_record_ended(
    game: &Game,
    seats: &[(Seat, Participant)],
    clock: Option<(u64, u64)>,
    reason: Reason,
) -> GameRecord {
    let labels = Labels {
        number: 1,
        seats: seats.iter().map(|(s, p)| (*s, p.name())).collect(),
        opening: "splut gui".into(),
        from_startpos: false,
        opening_steps: 0,
        time_control: board_time_control(seats, clock),
    };
    GameRecord::new(labels, game, reason)
}

/// Most characters of a reader's error a board's refusal quotes.
const REFUSAL_CHARS: usize = 200;

/// Why a board refuses a records text ([`first_game`]). Shown as the
/// board's refusal: `bad record: …`, the reader's reason cut to 200
/// characters with any control character shown as `?`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadRecord {
    /// A game of the text does not read (the first that does not).
    Unreadable(BadGame),
    /// The text holds no game.
    NoGame,
    /// A standard start for a count of players there is none for.
    PlayerCount(usize),
    /// The start's SPN does not read.
    Start(SpnError),
}

impl std::fmt::Display for BadRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("bad record: ")?;
        match self {
            BadRecord::Unreadable(b) => {
                let e: String = b
                    .to_string()
                    .chars()
                    .take(REFUSAL_CHARS)
                    .map(|c| if c.is_control() { '?' } else { c })
                    .collect();
                f.write_str(&e)
            }
            BadRecord::NoGame => f.write_str("no game in it"),
            BadRecord::PlayerCount(_) => f.write_str("player count"),
            BadRecord::Start(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BadRecord {}

/// The game a board loads from a records text (`splut gui`'s page, with
/// its server or static): the first game's start and its steps, to go on
/// playing from. The whole text must read ([`parse_records`]); the steps
/// are the record's, not yet played. The error shows as the board's
/// refusal ([`BadRecord`]).
pub fn first_game(text: &str) -> Result<(Position, Vec<String>), BadRecord> {
    let games = parse_records(text).map_err(BadRecord::Unreadable)?;
    let Some(g) = games.into_iter().next() else {
        return Err(BadRecord::NoGame);
    };
    let start = if g.start == "startpos" {
        Position::start(g.players).ok_or(BadRecord::PlayerCount(g.players))?
    } else {
        Position::from_spn(&g.start).map_err(BadRecord::Start)?
    };
    let steps = g.turns.into_iter().flat_map(|t| t.1).collect();
    Ok((start, steps))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{G, R, record};
    use super::*;
    use crate::record::validate;

    fn engine(algorithm: &str, movetime: u64, level: Option<Strength>) -> Participant {
        Participant::Engine {
            algorithm: algorithm.into(),
            movetime,
            level,
        }
    }

    #[test]
    fn a_board_names_its_seats_and_their_time_controls() {
        let mut game = Game::new(Position::start(3).unwrap());
        game.play_all("e2e3").unwrap();
        let seats = [
            (R, Participant::Person),
            (Seat::Yellow, engine("mcts", 50, Some(Strength::Elo(1500)))),
            (G, engine("alphabeta", 50, Some(Strength::Skill(3)))),
        ];
        let text = board_record(&game, &seats).to_text();
        let spn = game.start().to_spn();
        assert_eq!(
            text,
            format!(
                "[Game 1]\n[Players 3]\n\
                 [Seats r=person y=mcts-50ms-elo1500 g=alphabeta-50ms-skill3]\n\
                 [Opening splut gui]\n[Start {spn}]\n[OpeningSteps 0]\n\
                 [TimeControl alphabeta-50ms-skill3=movetime=50 mcts-50ms-elo1500=movetime=50 person=none]\n\
                 [Result r = y = g]\n[Reason turn limit 1]\nr e2e3\n\n"
            )
        );
        // Two engines of one name: one time control.
        let same = [
            (R, engine("greedy", 20, None)),
            (G, engine("greedy", 20, None)),
        ];
        let two = Game::new(Position::start(2).unwrap());
        let r = board_record(&two, &same);
        assert_eq!(r.time_control, "greedy-20ms=movetime=20");
        assert_eq!(r.name_of(G), Some("greedy-20ms"));
        assert_eq!(r.reason, Reason::TurnLimit(0));
        assert!(r.turns.is_empty());
    }

    #[test]
    fn an_unfinished_game_is_cut_to_its_last_whole_turn_and_reads_back() {
        let mut game = Game::new(Position::start(2).unwrap());
        // Red's turn, green's turn, and two steps of red's second.
        game.play_all("e2e3 e8e7 f8f7 d2d3 e3e4").unwrap();
        let seats = [(R, Participant::Person), (G, engine("auto", 1000, None))];
        let r = board_record(&game, &seats);
        assert_eq!(r.reason, Reason::TurnLimit(2));
        assert_eq!(r.places, vec![vec![R, G]]);
        assert_eq!(r.turns.len(), 2);
        assert_eq!(validate(&r), Ok(()));
        // Read back: the same start and the whole turns' steps.
        let (start, steps) = first_game(&r.to_text()).unwrap();
        assert_eq!(&start, game.start());
        assert_eq!(steps, ["e2e3", "e8e7", "f8f7"]);
        // The game itself is left as it was.
        assert_eq!(game.steps().len(), 5);
        let mut whole = game.clone();
        cut_to_whole_turns(&mut whole);
        assert_eq!(whole.steps().len(), 3);
        cut_to_whole_turns(&mut whole);
        assert_eq!(whole.steps().len(), 3);
    }

    #[test]
    fn a_bad_record_is_refused_as_the_board_refuses_it() {
        assert_eq!(first_game(""), Err(BadRecord::NoGame));
        assert_eq!(BadRecord::NoGame.to_string(), "bad record: no game in it");
        let e = first_game("[Game 1]\n[Start startpos]\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("bad record: game 1 (line 1): "), "{e}");
        let good = record(&[(R, "e2e3")], Reason::TurnLimit(1), vec![vec![R, G]]);
        let mut bad_start = good.clone();
        bad_start.start = "nonsense".into();
        let e = first_game(&bad_start.to_text()).unwrap_err().to_string();
        assert!(e.starts_with("bad record: "), "{e}");
        let mut players = good.clone();
        players.players = 7;
        let e = first_game(&players.to_text()).unwrap_err().to_string();
        assert!(
            e.starts_with("bad record: game 1 (line 1): bad [Players]"),
            "{e}"
        );
        // The reason quoted is short and has no control characters.
        let long = format!("[Game 1]\n[Result {}\u{7}]\n", "x".repeat(500));
        let e = first_game(&long).unwrap_err().to_string();
        assert!(e.chars().count() <= 200 + "bad record: ".len(), "{e}");
        assert!(!e.chars().any(char::is_control), "{e}");
        // Steps are not played here: the board plays them (`moves: …`).
        let mut illegal = good;
        illegal.turns = vec![(R, vec!["e2e9".into()])];
        let (_, steps) = first_game(&illegal.to_text()).unwrap();
        assert_eq!(steps, ["e2e9"]);
    }
}
