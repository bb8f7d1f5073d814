//! Game records: one text file, a game appended as each ends, which
//! `splut replay` reads back and validates.
//!
//! ```text
//! [Game 12]
//! [Players 3]
//! [Seats r=ab y=mcts g=ab]
//! [Opening random 4 steps, seed 1, #3]
//! [Start startpos]
//! [OpeningSteps 4]
//! [TimeControl ab=movetime=100 mcts=movetime=100]
//! [Result g > r > y]
//! [Reason last sorcerer standing]
//! r e2e3
//! y b5c5 b6c6
//! …
//! ```
//!
//! - Tags are `[Name value]`. `Seats` names the participant on each seat;
//!   `Start` is `startpos` or an SPN; the first `OpeningSteps` steps are the
//!   opening. `Result` lists the seats from first place to last, `>`
//!   between places and `=` between seats that share one (a draw).
//! - Then one line per turn: the seat and its steps, in order. The last
//!   line may be a partial turn when a participant forfeited.
//! - A blank line ends the game.
//! - Each tag appears once, and `Seats` names exactly the seats that play.
//!
//! [`RecordReader`] reads a file game by game, so a file of any size
//! takes the memory of one game; a line over [`MAX_LINE`] bytes, a line
//! that is not UTF-8 or a malformed game is reported and reading goes on.
//!
//! The board (`splut gui`'s page, with its server or static in
//! WebAssembly) writes its game with [`board_record`] and loads one with
//! [`first_game`], so both hosts write and read the same text.
//!
//! The format is here ([`GameRecord`], written by
//! [`GameRecord::to_text`]); the reader in `reader`, the board's records
//! in `board`, the judgement of a record in `validate`: each is
//! re-exported here, so callers name `record::…` alone.

mod board;
mod reader;
mod validate;

pub use crate::judge::{Forfeit, Places, Reason};
use crate::judge::{places, places_text};
pub use board::{
    BadRecord, Participant, Strength, board_record, board_record_clocked, board_record_ended,
    cut_to_whole_turns, first_game,
};
pub use reader::{BadGame, GameLines, MAX_GAME, MAX_LINE, RecordReader, parse_records};
use splut_rules::{Game, Seat};
use std::fmt::Write as _;
pub use validate::{Invalid, Spot, validate, validate_at};

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// 1-based game number in the tournament.
    pub number: usize,
    /// Players at the start.
    pub players: usize,
    /// Participant name per seat in the game.
    pub seats: Vec<(Seat, String)>,
    /// Opening label.
    pub opening: String,
    /// `startpos` or an SPN.
    pub start: String,
    /// How many of the steps are the opening.
    pub opening_steps: usize,
    /// Time control per participant name.
    pub time_control: String,
    /// Places.
    pub places: Places,
    /// Why it ended.
    pub reason: Reason,
    /// Turns: the seat and its steps as text.
    pub turns: Vec<(Seat, Vec<String>)>,
}

/// The result's places, read by the rules' reader of places.
fn parse_places(s: &str) -> Result<Places, String> {
    s.parse::<splut_rules::Places>().map(|p| p.to_groups())
}

/// What a record says of a game besides its steps and how it ended: the
/// labels whoever played it gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labels {
    /// 1-based game number in the tournament.
    pub number: usize,
    /// Participant name per seat in the game.
    pub seats: Vec<(Seat, String)>,
    /// Opening label.
    pub opening: String,
    /// Whether the game starts from the standard start (`startpos`);
    /// otherwise the record gives its start's SPN.
    pub from_startpos: bool,
    /// How many of the game's first steps are the opening.
    pub opening_steps: usize,
    /// Time control per participant name.
    pub time_control: String,
}

impl GameRecord {
    /// The record of `game`, ended for `reason`: the players, start, turns
    /// and places come from the game, the rest from `labels`. Every
    /// record written is made here.
    pub fn new(labels: Labels, game: &Game, reason: Reason) -> GameRecord {
        let Labels {
            number,
            seats,
            opening,
            from_startpos,
            opening_steps,
            time_control,
        } = labels;
        GameRecord {
            number,
            players: game.start().players_left() as usize,
            seats,
            opening,
            start: if from_startpos {
                "startpos".to_string()
            } else {
                game.start().to_spn()
            },
            opening_steps,
            time_control,
            places: places(game, &reason),
            reason,
            turns: GameRecord::turns_of(game),
        }
    }

    /// The record as text (ends with a blank line).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let seats: Vec<String> = self
            .seats
            .iter()
            .map(|(seat, name)| format!("{}={name}", seat.letter()))
            .collect();
        let _ = writeln!(s, "[Game {}]", self.number);
        let _ = writeln!(s, "[Players {}]", self.players);
        let _ = writeln!(s, "[Seats {}]", seats.join(" "));
        let _ = writeln!(s, "[Opening {}]", self.opening);
        let _ = writeln!(s, "[Start {}]", self.start);
        let _ = writeln!(s, "[OpeningSteps {}]", self.opening_steps);
        let _ = writeln!(s, "[TimeControl {}]", self.time_control);
        let _ = writeln!(s, "[Result {}]", places_text(&self.places));
        let _ = writeln!(s, "[Reason {}]", self.reason);
        for (seat, steps) in &self.turns {
            let _ = writeln!(s, "{} {}", seat.letter(), steps.join(" "));
        }
        s.push('\n');
        s
    }

    /// A game's turns as records list them: the seat and the text of the
    /// steps it played in each turn.
    pub fn turns_of(game: &Game) -> Vec<(Seat, Vec<String>)> {
        game.turns()
            .into_iter()
            .map(|(seat, steps)| (seat, steps.iter().map(|s| s.to_string()).collect()))
            .collect()
    }

    /// The participant name of a seat.
    pub fn name_of(&self, seat: Seat) -> Option<&str> {
        self.seats
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, n)| n.as_str())
    }
}

/// What the tests of the record's modules share.
#[cfg(test)]
mod test_support {
    use super::*;

    /// A 2-player record of these turns from the start, ending so.
    pub(super) fn record(turns: &[(Seat, &str)], reason: Reason, places: Places) -> GameRecord {
        GameRecord {
            number: 1,
            players: 2,
            seats: vec![(Seat::Red, "a".into()), (Seat::Green, "b".into())],
            opening: "test".into(),
            start: "startpos".into(),
            opening_steps: 0,
            time_control: String::new(),
            places,
            reason,
            turns: turns
                .iter()
                .map(|(s, t)| (*s, t.split_whitespace().map(String::from).collect()))
                .collect(),
        }
    }

    pub(super) const R: Seat = Seat::Red;
    pub(super) const G: Seat = Seat::Green;
}
