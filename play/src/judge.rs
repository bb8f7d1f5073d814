//! The judge: when a game ends, why, and who placed where. The referee
//! asks it while playing, `splut replay` ([`super::record::validate`]) asks
//! it again while replaying a record, so a game is judged the same way both
//! times. The reasons' text, as records hold it, is written and read here.

use splut_rules::{Game, Position, Seat};
use std::collections::HashMap;

/// Draw rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Game turns after which the game is drawn.
    pub max_turns: u32,
    /// A position occurring this many times draws the game (0: never).
    pub repetitions: u32,
}

impl Adjudication {
    /// No draw rule: the game is played out.
    pub const NONE: Adjudication = Adjudication {
        max_turns: u32::MAX,
        repetitions: 0,
    };
}

/// Why a seat lost by forfeit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// The process ended or its pipes closed.
    Crashed(String),
    /// No answer within its time.
    TimedOut(String),
    /// It took longer than its clock had left.
    LostOnTime {
        /// Milliseconds it took.
        spent_ms: u64,
        /// Milliseconds its clock had.
        left_ms: u64,
    },
    /// `bestmove` named no step.
    NoStep,
    /// `bestmove` is not the first step of `bestturn`.
    BestMoveNotInTurn {
        /// The `bestmove` step.
        best: String,
        /// The `bestturn` steps.
        turn: String,
    },
    /// A step that is not legal where it was played.
    IllegalStep {
        /// The step as the participant wrote it.
        text: String,
        /// Why it is not legal.
        why: String,
    },
    /// A step after its turn (or the game) was over.
    PastTurnEnd {
        /// The step as the participant wrote it.
        text: String,
    },
    /// No participant sits on the seat to move.
    NoParticipant,
    /// Any other text: a record written by another program or version.
    Other(String),
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// One sorcerer left.
    LastSorcerer,
    /// Adjudicated a draw after this many turns.
    TurnLimit(u32),
    /// Adjudicated a draw: a position occurred this many times.
    Repetition(u32),
    /// A seat lost by forfeit.
    Forfeit {
        /// The seat that forfeited.
        seat: Seat,
        /// What happened.
        what: Forfeit,
    },
}

const PAST_TURN_END: &str = "the turn is already over";

impl std::fmt::Display for Forfeit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Forfeit::Crashed(s) => write!(f, "crashed ({s})"),
            Forfeit::TimedOut(s) => write!(f, "timed out ({s})"),
            Forfeit::LostOnTime { spent_ms, left_ms } => {
                write!(f, "lost on time ({spent_ms} ms with {left_ms} ms left)")
            }
            Forfeit::NoStep => write!(f, "no step after 'bestmove'"),
            Forfeit::BestMoveNotInTurn { best, turn } => {
                write!(
                    f,
                    "bestmove {best} is not the first step of bestturn {turn}"
                )
            }
            Forfeit::IllegalStep { text, why } => write!(f, "illegal step '{text}': {why}"),
            Forfeit::PastTurnEnd { text } => write!(f, "illegal step '{text}': {PAST_TURN_END}"),
            Forfeit::NoParticipant => write!(f, "no participant on this seat"),
            Forfeit::Other(s) => write!(f, "{s}"),
        }
    }
}

impl Forfeit {
    /// Reads what [`Forfeit`]'s `Display` writes; text it does not know is
    /// [`Forfeit::Other`], so every record stays readable.
    pub fn parse(s: &str) -> Forfeit {
        let inner = |prefix: &str| s.strip_prefix(prefix)?.strip_suffix(')');
        if let Some(x) = inner("crashed (") {
            return Forfeit::Crashed(x.to_string());
        }
        if let Some(x) = inner("timed out (") {
            return Forfeit::TimedOut(x.to_string());
        }
        if let Some((spent, left)) = inner("lost on time (")
            .and_then(|x| x.strip_suffix(" ms left"))
            .and_then(|x| x.split_once(" ms with "))
            && let (Ok(spent_ms), Ok(left_ms)) = (spent.parse(), left.parse())
        {
            return Forfeit::LostOnTime { spent_ms, left_ms };
        }
        if let Some((best, turn)) = s
            .strip_prefix("bestmove ")
            .and_then(|x| x.split_once(" is not the first step of bestturn "))
        {
            return Forfeit::BestMoveNotInTurn {
                best: best.to_string(),
                turn: turn.to_string(),
            };
        }
        // A step is one word, so its text holds no "': ".
        if let Some((text, why)) = s
            .strip_prefix("illegal step '")
            .and_then(|x| x.split_once("': "))
            && !text.contains(char::is_whitespace)
        {
            let text = text.to_string();
            return if why == PAST_TURN_END {
                Forfeit::PastTurnEnd { text }
            } else {
                Forfeit::IllegalStep {
                    text,
                    why: why.to_string(),
                }
            };
        }
        match s {
            "no step after 'bestmove'" => Forfeit::NoStep,
            "no participant on this seat" => Forfeit::NoParticipant,
            _ => Forfeit::Other(s.to_string()),
        }
    }

    /// Whether the participant ran out of time (its clock, or no answer in
    /// time), as opposed to crashing or playing something wrong.
    pub fn is_time_loss(&self) -> bool {
        matches!(self, Forfeit::TimedOut(_) | Forfeit::LostOnTime { .. })
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::LastSorcerer => write!(f, "last sorcerer standing"),
            Reason::TurnLimit(t) => write!(f, "turn limit {t}"),
            Reason::Repetition(n) => write!(f, "repetition {n}"),
            Reason::Forfeit { seat, what } => write!(f, "forfeit {}: {what}", seat.letter()),
        }
    }
}

impl Reason {
    /// Reads what [`Reason`]'s `Display` writes.
    pub fn parse(s: &str) -> Result<Reason, String> {
        if s == "last sorcerer standing" {
            return Ok(Reason::LastSorcerer);
        }
        if let Some(t) = s.strip_prefix("turn limit ") {
            return t
                .parse()
                .map(Reason::TurnLimit)
                .map_err(|_| format!("bad turn limit '{t}'"));
        }
        if let Some(t) = s.strip_prefix("repetition ") {
            return t
                .parse()
                .map(Reason::Repetition)
                .map_err(|_| format!("bad repetition '{t}'"));
        }
        if let Some(rest) = s.strip_prefix("forfeit ") {
            let mut c = rest.chars();
            if let (Some(seat), Some(':')) = (c.next().and_then(Seat::from_letter), c.next()) {
                return Ok(Reason::Forfeit {
                    seat,
                    what: Forfeit::parse(c.as_str().trim()),
                });
            }
        }
        Err(format!("unknown reason '{s}'"))
    }

    /// The draw rules a record of this ending shows: the one it names;
    /// which others were in force is not recorded.
    pub fn adjudication(&self) -> Adjudication {
        match *self {
            Reason::TurnLimit(max_turns) => Adjudication {
                max_turns,
                ..Adjudication::NONE
            },
            Reason::Repetition(repetitions) => Adjudication {
                repetitions,
                ..Adjudication::NONE
            },
            _ => Adjudication::NONE,
        }
    }
}

/// Places, first to last; seats in one group share the place.
pub type Places = Vec<Vec<Seat>>;

/// Watches a game being played (or replayed) and says when it ends.
/// Only the game proper counts for repetitions: the referee starts
/// watching after the opening.
#[derive(Clone, Debug)]
pub struct Judge {
    adjudication: Adjudication,
    /// How often each position (by hash) occurred after a step.
    seen: HashMap<u64, u32>,
}

impl Judge {
    /// A judge applying these draw rules.
    pub fn new(adjudication: Adjudication) -> Judge {
        Judge {
            adjudication,
            seen: HashMap::new(),
        }
    }

    /// Whether the game is over before the side to move asks for its next
    /// turn: one sorcerer left, or the turn limit passed.
    pub fn before_turn(&self, pos: &Position) -> Option<Reason> {
        if pos.is_game_over() {
            Some(Reason::LastSorcerer)
        } else if pos.turn() > self.adjudication.max_turns {
            Some(Reason::TurnLimit(self.adjudication.max_turns))
        } else {
            None
        }
    }

    /// Counts the position a step led to: a repetition ends the game at
    /// once, in the middle of a turn if need be.
    pub fn after_step(&mut self, pos: &Position) -> Option<Reason> {
        let n = self.seen.entry(pos.hash()).or_insert(0);
        *n += 1;
        let limit = self.adjudication.repetitions;
        (limit > 0 && *n >= limit).then_some(Reason::Repetition(limit))
    }
}

/// The places a game ended this way gives, as [`Game::places`] computes
/// them: the seats still in the game share the first place (all of them
/// after a draw; a forfeiting seat is put below them,
/// [`splut_rules::Places::with_forfeit`]), then the eliminated seats,
/// last out first.
pub fn places(game: &Game, reason: &Reason) -> Places {
    let places = game.places();
    match reason {
        Reason::LastSorcerer | Reason::TurnLimit(_) | Reason::Repetition(_) => places,
        Reason::Forfeit { seat, .. } => places.with_forfeit(*seat),
    }
    .to_groups()
}

/// The places as records write them: `g > r = y > b` (what
/// [`splut_rules::Places`] displays, for a record's places, which a
/// damaged record may give with a seat twice).
pub fn places_text(p: &Places) -> String {
    p.iter()
        .map(|g| {
            g.iter()
                .map(|s| s.letter().to_string())
                .collect::<Vec<_>>()
                .join(" = ")
        })
        .collect::<Vec<_>>()
        .join(" > ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_forfeit() -> Vec<Forfeit> {
        vec![
            Forfeit::Crashed("exit status: 3".into()),
            Forfeit::Crashed("cannot write: Broken pipe (os error 32)".into()),
            Forfeit::TimedOut("no 'bestmove' within 500 ms".into()),
            Forfeit::LostOnTime {
                spent_ms: 1203,
                left_ms: 1100,
            },
            Forfeit::NoStep,
            Forfeit::BestMoveNotInTurn {
                best: "e2e3".into(),
                turn: "d2d3 e2e3".into(),
            },
            Forfeit::IllegalStep {
                text: "e5e6".into(),
                why: "e5 is empty".into(),
            },
            Forfeit::IllegalStep {
                text: String::new(),
                why: "malformed step ''".into(),
            },
            Forfeit::IllegalStep {
                text: "it's:".into(),
                why: "malformed step 'it's:': x".into(),
            },
            Forfeit::PastTurnEnd {
                text: "d8d7".into(),
            },
            Forfeit::NoParticipant,
            Forfeit::Other("unplugged by the cat".into()),
        ]
    }

    #[test]
    fn forfeits_round_trip_through_their_text() {
        for f in every_forfeit() {
            let text = f.to_string();
            assert_eq!(Forfeit::parse(&text), f, "{text}");
            for seat in Seat::ALL {
                let r = Reason::Forfeit {
                    seat,
                    what: f.clone(),
                };
                assert_eq!(Reason::parse(&r.to_string()), Ok(r.clone()), "{r}");
            }
        }
        // Text written before the reasons were typed reads as it was meant.
        assert_eq!(
            Forfeit::parse("illegal step 'e5e6': the turn is already over"),
            Forfeit::PastTurnEnd {
                text: "e5e6".into()
            }
        );
        assert_eq!(
            Forfeit::parse("lost on time (12 ms with 3 ms left)"),
            Forfeit::LostOnTime {
                spent_ms: 12,
                left_ms: 3
            }
        );
        // Text it does not know is kept word for word.
        for s in ["", "crashed", "lost on time (soon)", "illegal step e5e6"] {
            assert_eq!(Forfeit::parse(s), Forfeit::Other(s.to_string()));
            assert_eq!(Forfeit::parse(s).to_string(), s);
        }
        for r in [
            Reason::LastSorcerer,
            Reason::TurnLimit(300),
            Reason::Repetition(3),
        ] {
            assert_eq!(Reason::parse(&r.to_string()), Ok(r.clone()));
        }
        assert!(Reason::parse("forfeit x: crashed (x)").is_err());
        assert!(Reason::parse("turn limit many").is_err());
    }

    #[test]
    fn time_losses_are_told_apart() {
        let losses: Vec<bool> = every_forfeit().iter().map(Forfeit::is_time_loss).collect();
        assert_eq!(losses.iter().filter(|&&x| x).count(), 2);
        assert!(Forfeit::TimedOut(String::new()).is_time_loss());
    }

    #[test]
    fn the_judge_ends_games_and_places_seats() {
        let mut game = Game::new(Position::start(2).unwrap());
        let mut judge = Judge::new(Adjudication {
            max_turns: 2,
            repetitions: 0,
        });
        assert_eq!(judge.before_turn(game.position()), None);
        for s in ["e2e3", "e8e7", "f8f7"] {
            game.play_text(s).unwrap();
            assert_eq!(judge.after_step(game.position()), None);
        }
        assert_eq!(
            judge.before_turn(game.position()),
            Some(Reason::TurnLimit(2))
        );
        let draw = places(&game, &Reason::TurnLimit(2));
        assert_eq!(places_text(&draw), "r = g");
        let lost = Reason::Forfeit {
            seat: Seat::Red,
            what: Forfeit::NoStep,
        };
        assert_eq!(places_text(&places(&game, &lost)), "g > r");

        // Red throws onto yellow, then green's turn (3 players).
        let start =
            Position::from_spn("R/gTgDgS/5/3yS3/RyD6R/yT2R3/rD1rT2/rS2/1 r 3 10 - - -").unwrap();
        let mut game = Game::new(start);
        game.play_text("e3e4*n").unwrap();
        let lost = Reason::Forfeit {
            seat: Seat::Green,
            what: Forfeit::TimedOut("no 'bestmove' within 5 ms".into()),
        };
        assert_eq!(places_text(&places(&game, &lost)), "r > g > y");
        // The records' text is the rules' own.
        let rules = game.places().with_forfeit(Seat::Green);
        assert_eq!(places_text(&places(&game, &lost)), rules.to_string());
        let draw = places(&game, &Reason::TurnLimit(10));
        assert_eq!(places_text(&draw), "r = g > y");
        assert_eq!(places_text(&draw), game.places().to_string());
    }

    #[test]
    fn a_repetition_ends_the_game_when_it_is_reached() {
        let mut judge = Judge::new(Adjudication {
            max_turns: 100,
            repetitions: 2,
        });
        let p = Position::start(2).unwrap();
        assert_eq!(judge.after_step(&p), None);
        assert_eq!(judge.after_step(&p), Some(Reason::Repetition(2)));
        let mut never = Judge::new(Adjudication::NONE);
        for _ in 0..10 {
            assert_eq!(never.after_step(&p), None);
        }
        assert_eq!(
            Reason::Repetition(4).adjudication(),
            Adjudication {
                max_turns: u32::MAX,
                repetitions: 4
            }
        );
    }
}
