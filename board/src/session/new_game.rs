//! A new game as the page asks for it, checked: its start and steps (a
//! player count, an SPN or a record) and its seats (who plays each, the
//! engine's algorithm, time per turn and level). A request that does not
//! check starts nothing.

use super::clock::{ClockIn, SeatClock};
use super::levels::{Level, Levels};
use super::{Pace, Refusal, SeatConfig};
use crate::view::BoardView;
use serde::{Deserialize, Serialize};
use splut_play::record::first_game;
use splut_rules::{Game, Position, Seat};
use std::ops::RangeInclusive;

/// Longest SPN a preview or a threats request reads (a real one is under
/// 100 characters).
pub const MAX_SPN: usize = 200;

/// A seat of a new game, as the page sends it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatIn {
    /// The engine plays it (else a person).
    pub engine: bool,
    /// The engine's `Algorithm` (`auto` if none).
    pub algorithm: Option<String>,
    /// The engine's time per turn in ms (1000 if none).
    pub movetime: Option<u64>,
    /// The engine's level (full strength if none).
    pub level: Option<Level>,
    /// A person's seat kept for someone invited (a table's open seat):
    /// `splut gui` gives it an invitation link.
    #[serde(default)]
    pub invite: bool,
    /// A person's seat's clock as it was kept (a game taken up again from
    /// its steps: the static board's reload, or a server restarted
    /// without its store): in place of the new game's `clock`.
    #[serde(default)]
    pub clock: Option<SeatClock>,
}

/// A new game, as the page sends it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// A new game's seat count (2, 3 or 4).
    pub players: Option<u8>,
    /// Its start, in SPN.
    pub spn: Option<String>,
    /// A game record (`splut replay`'s format): its start and steps.
    pub record: Option<String>,
    /// Steps played from the start, space-separated.
    pub moves: Option<String>,
    /// One per seat in the game; none with a record: every seat a person.
    #[serde(default)]
    pub seats: Vec<SeatIn>,
    /// The game this one replaces (it is closed).
    pub replace: Option<u64>,
    /// How fast the engine's steps are shown (default `normal`).
    #[serde(default)]
    pub pace: Pace,
    /// A table's takeover: an invited person away this many seconds at
    /// their turn has the engine play for them until they come back
    /// (none: never).
    pub takeover: Option<u64>,
    /// Listed in the lobby of open tables (`splut gui`): anyone may take
    /// a friend's seat nobody took yet. Only a table with one.
    #[serde(default)]
    pub lobby: bool,
    /// A clock for each person's seat (none: people play untimed).
    pub clock: Option<ClockIn>,
    /// The host had ended the game with the places so far
    /// ([`super::Session::end_here`]): a kept game taken up again ends
    /// there again.
    #[serde(default)]
    pub ended: bool,
}

/// Bounds on an engine's time per turn in a new game, in ms.
pub const MOVETIME: RangeInclusive<u64> = 10..=600_000;

/// An engine's time per turn when a seat names none, in ms.
pub const DEFAULT_MOVETIME: u64 = 1000;

/// Bounds on a table's takeover time, in seconds.
pub const TAKEOVER: RangeInclusive<u64> = 1..=3600;

impl NewGame {
    /// The game asked for and its seats, checked against the engine's
    /// `algorithms` (any plain word when it names none), its `levels` and
    /// the `bounds` on its time per turn, in ms.
    pub fn check(
        &mut self,
        algorithms: &[String],
        levels: &Levels,
        bounds: RangeInclusive<u64>,
    ) -> Result<(Game, Vec<SeatConfig>), Refusal> {
        if self.takeover.is_some_and(|t| !TAKEOVER.contains(&t)) {
            return Err(Refusal::BadInput(format!(
                "takeover must be {} to {} seconds",
                TAKEOVER.start(),
                TAKEOVER.end()
            )));
        }
        let clock = self.clock.map(|c| c.check()).transpose()?;
        let game = game_of(self)?;
        let start = *game.start();
        let letters: Vec<Seat> = start.seats_in_game().collect();
        if self.seats.is_empty() && self.record.is_some() {
            self.seats = letters
                .iter()
                .map(|_| SeatIn {
                    engine: false,
                    algorithm: None,
                    movetime: None,
                    level: None,
                    invite: false,
                    clock: None,
                })
                .collect();
        }
        if self.seats.len() != letters.len() {
            return Err(Refusal::BadInput(format!(
                "seats: the game has {} seats ({}), {} given",
                letters.len(),
                letters.iter().map(|s| s.letter()).collect::<String>(),
                self.seats.len()
            )));
        }
        let mut seats = Vec::new();
        for (seat, s) in letters.iter().zip(&self.seats) {
            let algorithm = s.algorithm.clone().unwrap_or_else(|| "auto".into());
            let known = if algorithms.is_empty() {
                // An engine without the option: a plain word at most.
                algorithm.len() <= 32
                    && algorithm
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-')
            } else {
                algorithms.contains(&algorithm)
            };
            if s.engine && s.invite {
                return Err(Refusal::BadInput(
                    "seats: an engine's seat takes no invitation".into(),
                ));
            }
            if s.engine && !known {
                return Err(Refusal::BadInput("seats: unknown algorithm".into()));
            }
            let movetime = s.movetime.unwrap_or(DEFAULT_MOVETIME);
            if !bounds.contains(&movetime) {
                return Err(Refusal::BadInput(format!(
                    "seats: movetime must be {} to {} ms",
                    bounds.start(),
                    bounds.end()
                )));
            }
            if let Some(level) = &s.level {
                levels.check(level).map_err(Refusal::BadInput)?;
            }
            let kept = match &s.clock {
                Some(_) if s.engine => {
                    return Err(Refusal::BadInput(
                        "seats: an engine's seat has no clock".into(),
                    ));
                }
                Some(c) => Some(c.check_kept(game.position().turn())?),
                None => None,
            };
            seats.push(SeatConfig {
                seat: *seat,
                engine: s.engine,
                algorithm,
                movetime,
                level: s.level,
                invited: s.invite,
                name: None,
                stand_in: false,
                left: false,
                stood_in: Vec::new(),
                clock: kept.or_else(|| clock.clone().filter(|_| !s.engine)),
            });
        }
        if self.lobby && !seats.iter().any(|s| s.invited) {
            return Err(Refusal::BadInput(
                "lobby: only a table with a friend's seat is listed".into(),
            ));
        }
        Ok((game, seats))
    }
}

/// The game a new-game request asks for: its start (`players`, `spn` or a
/// `record`'s) and the steps played from it (`moves`, or the record's).
fn game_of(req: &NewGame) -> Result<Game, Refusal> {
    let (start, steps) = match &req.record {
        Some(text) => {
            if req.players.is_some() || req.spn.is_some() || req.moves.is_some() {
                return Err(Refusal::BadRequest(
                    "a record gives its own start and steps: no players, spn or moves with it"
                        .into(),
                ));
            }
            // The static web board reads it with the same function.
            let (start, steps) = first_game(text).map_err(|e| Refusal::BadInput(e.to_string()))?;
            (start, steps.join(" "))
        }
        None => (
            start_position(req.players, req.spn.as_deref())?,
            req.moves.clone().unwrap_or_default(),
        ),
    };
    let mut game = Game::new(start);
    game.play_all(&steps)
        .map_err(|e| Refusal::BadInput(format!("moves: {}", short(&e.to_string(), 200))))?;
    Ok(game)
}

/// A game's start: `players` seats' start, or the position in `spn`
/// (exactly one of them), not yet over.
pub fn start_position(players: Option<u8>, spn: Option<&str>) -> Result<Position, Refusal> {
    let start = match (spn, players) {
        (Some(spn), None) => Position::from_spn(spn.trim())
            .map_err(|e| Refusal::BadInput(format!("bad SPN: {e}")))?,
        (None, Some(n)) => Position::start(usize::from(n))
            .ok_or_else(|| Refusal::BadInput("players: expected 2, 3 or 4".into()))?,
        _ => return Err(Refusal::BadRequest("give either players or spn".into())),
    };
    if start.is_game_over() {
        return Err(Refusal::BadInput(
            "bad SPN: the game in it is already over".into(),
        ));
    }
    Ok(start)
}

/// The position a new game would start from (`GET /api/preview`, the
/// same from both hosts), for the page to draw before Start and to offer
/// its seats.
#[derive(Serialize)]
pub struct Preview {
    /// The start's SPN.
    pub spn: String,
    /// The seats in the game, in turn order.
    pub seats: Vec<String>,
    /// The seat to move first.
    pub side: String,
    /// The start as the board draws it.
    pub board: BoardView,
}

/// The preview of a new game from `players` seats or the position `spn`
/// (as the page's query gives them, exactly one), checked as a new game's
/// start is ([`start_position`]).
pub fn preview(players: Option<&str>, spn: Option<&str>) -> Result<Preview, Refusal> {
    let players = match players {
        Some(v) => Some(
            v.parse::<u8>()
                .map_err(|_| Refusal::BadInput("players: expected 2, 3 or 4".into()))?,
        ),
        None => None,
    };
    if spn.is_some_and(|s| s.len() > MAX_SPN) {
        return Err(Refusal::BadInput(format!(
            "bad SPN: over {MAX_SPN} characters"
        )));
    }
    let start = start_position(players, spn)?;
    let board = BoardView::of(&start);
    Ok(Preview {
        spn: board.spn.clone(),
        seats: board.seats.iter().map(|s| s.letter().to_string()).collect(),
        side: board.side.letter().to_string(),
        board,
    })
}

/// At most `n` characters of `s`, control characters shown as `?`.
fn short(s: &str, n: usize) -> String {
    s.chars()
        .take(n)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}
