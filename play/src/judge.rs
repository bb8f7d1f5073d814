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
/// watching after the opening. Python's environments (`EnvGame`, the
/// PettingZoo environment, `Batch`) judge their episodes with it too.
#[derive(Clone, Debug)]
pub struct Judge {
    adjudication: Adjudication,
    /// How often each position (by hash) occurred after a step.
    seen: Seen,
    /// How often the position [`Judge::after_step`] counted last had
    /// occurred, that time included (0 before any step).
    last: u32,
}

impl Judge {
    /// A judge applying these draw rules.
    pub fn new(adjudication: Adjudication) -> Judge {
        Judge {
            adjudication,
            seen: Seen::default(),
            last: 0,
        }
    }

    /// The draw rules it applies.
    pub fn adjudication(&self) -> Adjudication {
        self.adjudication
    }

    /// Forgets every position counted, for a new game under the same draw
    /// rules (as [`Judge::new`], keeping the memory for the next game).
    pub fn clear(&mut self) {
        self.seen.clear();
        self.last = 0;
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
        self.last = self.seen.count(pos.hash());
        let limit = self.adjudication.repetitions;
        (limit > 0 && self.last >= limit).then_some(Reason::Repetition(limit))
    }

    /// How many times the position the last [`Judge::after_step`] counted
    /// has occurred after a step (by hash: pieces, rocks, side to move,
    /// steps left, levitation), that time included; 0 before any step.
    /// The game is drawn when this reaches the `repetitions` of its
    /// [`Adjudication`].
    pub fn occurrences(&self) -> u32 {
        self.last
    }
}

/// How often each position (by Zobrist hash) occurred: the hashes in
/// order behind a 4,096-bit filter of them, so that a position never seen
/// before (nearly every step) costs a bit test and a push and only a
/// likely repeat scans the list; a game longer than [`Seen::LIST_MAX`]
/// positions goes on with a map, so a step never costs more than a map
/// look-up. Eight bytes a position while a list: Python's `Batch` keeps
/// one for each of up to 2^18 games.
#[derive(Clone, Debug)]
struct Seen {
    /// Every position counted, in order (emptied once `map` takes over).
    hashes: Vec<u64>,
    /// Bit `hash >> 52` set for every hash in `hashes`.
    filter: Box<[u64; 64]>,
    /// The counts, by hash, once the list grew past [`Seen::LIST_MAX`].
    map: HashMap<u64, u32>,
}

impl Default for Seen {
    /// No position counted.
    fn default() -> Seen {
        Seen {
            hashes: Vec::new(),
            filter: Box::new([0; 64]),
            map: HashMap::new(),
        }
    }
}

impl Seen {
    /// The most positions kept as a list: with a quarter of the filter set
    /// at most, one step in four scans at most this many hashes.
    const LIST_MAX: usize = 1024;

    /// Forgets every position.
    fn clear(&mut self) {
        self.hashes.clear();
        self.filter.fill(0);
        self.map = HashMap::new();
    }

    /// Counts a position as reached once more; returns how often it has
    /// been, this time included.
    #[inline]
    fn count(&mut self, hash: u64) -> u32 {
        if self.hashes.len() >= Seen::LIST_MAX {
            for h in std::mem::take(&mut self.hashes) {
                *self.map.entry(h).or_insert(0) += 1;
            }
        }
        if !self.map.is_empty() {
            let n = self.map.entry(hash).or_insert(0);
            *n += 1;
            return *n;
        }
        let bit = (hash >> 52) as usize; // 12 bits
        let (word, mask) = (bit / 64, 1u64 << (bit % 64));
        let n = if self.filter[word] & mask == 0 {
            self.filter[word] |= mask;
            1
        } else {
            1 + self.hashes.iter().filter(|&&h| h == hash).count() as u32
        };
        self.hashes.push(hash);
        n
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

    #[test]
    fn the_judge_counts_the_occurrences_of_each_position() {
        let mut judge = Judge::new(Adjudication {
            max_turns: 100,
            repetitions: 3,
        });
        assert_eq!(judge.occurrences(), 0);
        let mut game = Game::new(Position::start(2).unwrap());
        // The dwarfs shuffle on the e-file: after three steps, a cycle of
        // twelve steps comes back to where it started.
        let cycle = "e3e2 e2e3 e3e2 e8e7 e7e8 e8e7 e2e3 e3e2 e2e3 e7e8 e8e7 e7e8";
        let steps = format!("e2e3 e8e7 e7e8 {cycle} {cycle}");
        let mut counts = Vec::new();
        let mut ended = None;
        for s in steps.split(' ') {
            game.play_text(s).unwrap();
            if let Some(r) = judge.after_step(game.position()) {
                ended.get_or_insert((game.steps().len(), r));
            }
            counts.push(judge.occurrences());
        }
        let mut want = vec![1; 12];
        want.extend([2; 12]);
        want.extend([3; 3]);
        assert_eq!(counts, want);
        assert_eq!(ended, Some((25, Reason::Repetition(3))));
        assert_eq!(judge.adjudication().repetitions, 3);
        // A new game under the same rules starts counting afresh.
        judge.clear();
        assert_eq!(judge.occurrences(), 0);
        assert_eq!(judge.after_step(game.position()), None);
        assert_eq!(judge.occurrences(), 1);
    }

    #[test]
    fn counts_stay_exact_past_the_list_and_through_filter_collisions() {
        // Hashes sharing their top 12 bits (one filter bit) and hashes all
        // over; long enough that the list gives way to the map.
        let mut seen = Seen::default();
        let mut naive: HashMap<u64, u32> = HashMap::new();
        let mut x = 0x1234_5678_9abc_def0u64;
        for i in 0..3 * Seen::LIST_MAX {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let hash = match i % 3 {
                0 => x,
                1 => (7 << 52) | (x % 50),
                _ => x % 40,
            };
            let n = naive.entry(hash).or_insert(0);
            *n += 1;
            assert_eq!(seen.count(hash), *n, "position {i}");
        }
        assert!(seen.hashes.is_empty() && !seen.map.is_empty());
        seen.clear();
        assert_eq!(seen.count(x % 40), 1);
        assert_eq!(seen.count(x % 40), 2);
    }
}
