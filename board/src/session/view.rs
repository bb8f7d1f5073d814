//! The session's state as the page reads it (`GET /api/games/<id>` of
//! `splut gui`, and the static board's copy): one JSON object, whose
//! fields are those the page (board/page/) reads.

use super::{Engine, Session, WinProb};
use crate::events::{StepEvent, choice_events, turn_events};
use crate::view::BoardView;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use splut_rules::{Game, Seat};

/// A turn of the move list: its seat, its steps and what each did.
#[derive(Serialize)]
struct TurnView {
    seat: String,
    steps: Vec<String>,
    events: Vec<StepEvent>,
}

/// Seats' places as `{"g": 3}`.
struct Places(Vec<(Seat, usize)>);

impl Serialize for Places {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::letters::keyed(&self.0, s)
    }
}

/// Win probabilities as `{"r": 0.6, …}`, or `null` when none read.
pub(super) fn probabilities_or_null<S: Serializer>(
    w: &Option<WinProb>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match w {
        Some(w) => crate::letters::probabilities(w, s),
        None => s.serialize_none(),
    }
}

impl Session {
    /// The move list: each turn's seat, steps and events.
    fn turns(&self) -> Vec<TurnView> {
        // What each step did, as the rules played it: the page words and
        // draws them and replays nothing.
        let events = turn_events(&self.game);
        self.game
            .turns()
            .into_iter()
            .zip(events)
            .map(|((seat, steps), events)| TurnView {
                seat: seat.letter().to_string(),
                steps: steps.iter().map(|s| s.to_string()).collect(),
                events,
            })
            .collect()
    }
}

/// The page's state: the game, its seats, the steps the side to move may
/// play (the rules' legal steps, which the engine's `query legal`
/// answers too) and what each would do, the engine's thought and errors.
impl Serialize for Session {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let pos = self.game.position();
        let legal: Vec<String> = pos.legal_step_vec().iter().map(|s| s.to_string()).collect();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", &self.id)?;
        m.serialize_entry("version", &self.version)?;
        m.serialize_entry("start", &self.start_spn)?;
        m.serialize_entry("seats", &self.seats)?;
        // The people's clocks, as of the state (null: none).
        m.serialize_entry("clock", &super::clock::ClocksView(self))?;
        m.serialize_entry("spn", &pos.to_spn())?;
        // The position read by the rules, for the page to draw.
        m.serialize_entry("board", &BoardView::of(pos))?;
        m.serialize_entry("side", &pos.side_to_move().letter().to_string())?;
        m.serialize_entry("steps_left", &pos.steps_left())?;
        m.serialize_entry("gameover", &self.over())?;
        // Why the board's draw rules ended the game (`turn limit 200`,
        // `repetition 3`, as records write it), or null.
        m.serialize_entry("drawn", &self.drawn.as_ref().map(|r| r.to_string()))?;
        // The host ended it with the places so far (`drawn` says where).
        m.serialize_entry("ended_here", &self.ended_here)?;
        m.serialize_entry("winner", &pos.winner().map(|w| w.letter().to_string()))?;
        m.serialize_entry("legal_events", &choice_events(pos, &legal))?;
        m.serialize_entry("legal", &legal)?;
        m.serialize_entry("step_count", &self.game.steps().len())?;
        m.serialize_entry("turn", &pos.turn())?;
        m.serialize_entry("turns", &self.turns())?;
        // The places decided so far: each seat out, and the winner once
        // the game is over.
        // After a draw, the seats still in share the first place.
        let places = self.game.places();
        let places: Vec<(Seat, usize)> = if self.drawn.is_some() {
            places
                .seats()
                .iter()
                .filter_map(|&s| Some((s, places.place_of(s)?)))
                .collect()
        } else {
            places.decided().collect()
        };
        m.serialize_entry("places", &Places(places))?;
        m.serialize_entry("last_step", &self.last_step)?;
        m.serialize_entry("thinking", &self.thinking)?;
        m.serialize_entry("evals", &self.evals)?;
        m.serialize_entry("pace", &self.pace)?;
        m.serialize_entry("waiting", &self.waiting)?;
        m.serialize_entry("error", &self.error)?;
        m.serialize_entry("engine_running", &(self.engine == Engine::Up))?;
        // The `go`s the engine has not answered, a dropped one included:
        // at 0 after a take-back, its late answer came and was dropped.
        m.serialize_entry("unanswered", &self.searches.len())?;
        m.serialize_entry("closed", &self.closed)?;
        m.end()
    }
}

/// Every position of a game, its start first (`GET
/// /api/games/<id>/positions`, the same from both hosts): `spns`, and
/// `boards`, each as the board draws it ([`BoardView`]).
#[derive(Serialize)]
pub struct Positions {
    /// Each position's SPN.
    pub spns: Vec<String>,
    /// Each position read by the rules.
    pub boards: Vec<BoardView>,
}

impl Positions {
    /// The positions of `game`.
    pub fn of(game: &Game) -> Positions {
        let boards: Vec<BoardView> = game.positions().iter().map(BoardView::of).collect();
        Positions {
            spns: boards.iter().map(|b| b.spn.clone()).collect(),
            boards,
        }
    }
}
