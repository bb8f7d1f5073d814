//! What each step did, as the board tells and draws it: its mover, its
//! squares, the pieces it pushed, the rock it pulled or levitated, a thrown
//! rock's flight and landing, the piece crushed and the seats put out.
//!
//! Every event is read off the rules' own play of the step
//! ([`Position::after`]): the page holds no rule of movement, it only draws
//! and words these events (RULES.md §3 for what each piece does).

use splut_rules::{Direction, Game, Kind, Piece, Position, Seat, Square, Step, StepKind};

/// What a step does, as the page names it (`type` in the JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Nothing was legal: the turn ends.
    Pass,
    /// A piece steps onto an empty square (a sorcerer without levitating,
    /// a dwarf pushing nothing, a troll pulling nothing).
    Step,
    /// A dwarf steps into a run of pieces and pushes it one square on.
    Push,
    /// A troll steps and drags the rock behind it onto its old square.
    Pull,
    /// A sorcerer steps and a rock moves the same way.
    Levitate,
    /// A troll steps onto a rock and throws it.
    Throw,
}

/// One piece a dwarf pushed, and its squares before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Pushed {
    /// The piece (`R` or a team piece such as `gT`).
    #[serde(serialize_with = "crate::letters::text")]
    pub piece: Piece,
    /// Its square before the push.
    #[serde(serialize_with = "crate::letters::text")]
    pub from: Square,
    /// Its square after it.
    #[serde(serialize_with = "crate::letters::text")]
    pub to: Square,
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StepEvent {
    /// The step.
    #[serde(serialize_with = "crate::letters::text")]
    pub step: Step,
    /// The mover's seat (the seat that passes, for `pass`).
    #[serde(serialize_with = "crate::letters::text")]
    pub seat: Seat,
    /// The mover's kind (`None` for `pass`).
    #[serde(serialize_with = "crate::letters::kind_or_null")]
    pub kind: Option<Kind>,
    /// What the step does.
    #[serde(rename = "type")]
    pub action: Action,
    /// The mover's square before the step (`None` for `pass`).
    #[serde(serialize_with = "crate::letters::text_or_null")]
    pub from: Option<Square>,
    /// Its square after it.
    #[serde(serialize_with = "crate::letters::text_or_null")]
    pub to: Option<Square>,
    /// The direction of the step.
    #[serde(serialize_with = "crate::letters::text_or_null")]
    pub dir: Option<Direction>,
    /// A rock moved along with the mover, before and after: pulled by a
    /// troll or levitated by a sorcerer.
    #[serde(serialize_with = "crate::letters::pair_or_null")]
    pub rock: Option<(Square, Square)>,
    /// The pieces a dwarf pushed, the nearest first.
    pub pushed: Vec<Pushed>,
    /// The direction of a throw.
    #[serde(serialize_with = "crate::letters::text_or_null")]
    pub throw: Option<Direction>,
    /// A thrown rock's flight: the squares it passes, its landing last.
    #[serde(serialize_with = "crate::letters::texts")]
    pub flight: Vec<Square>,
    /// Where a thrown rock landed.
    #[serde(serialize_with = "crate::letters::text_or_null")]
    pub landing: Option<Square>,
    /// The piece a thrown rock crushed: a sorcerer it hit or a dwarf it
    /// landed on.
    #[serde(serialize_with = "crate::letters::text_or_null")]
    pub crushed: Option<Piece>,
    /// The seats put out of the game by the step.
    #[serde(serialize_with = "crate::letters::texts")]
    pub out: Vec<Seat>,
}

/// What `step` does in `pos`; `None` if it is not legal there.
pub fn step_event(pos: &Position, step: Step) -> Option<StepEvent> {
    if !pos.is_legal(step) {
        return None;
    }
    let after = pos.after(step);
    let mut ev = StepEvent {
        step,
        seat: pos.side_to_move(),
        kind: step.kind().mover(),
        action: Action::Pass,
        from: None,
        to: None,
        dir: None,
        rock: None,
        pushed: Vec::new(),
        throw: None,
        flight: Vec::new(),
        landing: None,
        crushed: None,
        out: pos.seats_in_game().filter(|&s| !after.in_game(s)).collect(),
    };
    if step.is_pass() {
        return Some(ev);
    }
    let (from, to, dir) = (step.from(), step.to(), step.direction());
    (ev.from, ev.to, ev.dir) = (Some(from), Some(to), Some(dir));
    ev.action = match step.kind() {
        StepKind::Pass => Action::Pass,
        StepKind::Sorcerer | StepKind::Troll => Action::Step,
        StepKind::Dwarf => {
            ev.pushed = pushed_run(pos, from, dir);
            if ev.pushed.is_empty() {
                Action::Step
            } else {
                Action::Push
            }
        }
        StepKind::Pull => {
            ev.rock = step.rock().map(|r| (r, from));
            Action::Pull
        }
        StepKind::Levitate => {
            ev.rock = step.rock().and_then(|r| r.neighbour(dir).map(|t| (r, t)));
            Action::Levitate
        }
        StepKind::Throw => {
            ev.throw = step.throw_direction();
            if let Some((flight, landing)) = flight_of(pos, &after, step) {
                // The troll has left `from`: a rock landing there crushes nothing.
                ev.crushed = pos
                    .piece_at(landing)
                    .filter(|p| *p != Piece::Rock && landing != from);
                ev.flight = flight;
                ev.landing = Some(landing);
            }
            Action::Throw
        }
    };
    Some(ev)
}

/// A thrown rock's flight: the squares it passes from the troll's new
/// square, its landing last, and the landing. `None` unless `step` is a
/// throw legal in `pos`. The one reckoning of a flight for every board
/// mark ([`crate::marks`], [`crate::threats`]).
pub fn throw_flight(pos: &Position, step: Step) -> Option<(Vec<Square>, Square)> {
    if step.throw_direction().is_none() || !pos.is_legal(step) {
        return None;
    }
    flight_of(pos, &pos.after(step), step)
}

/// The flight of the throw `step` made in `before`, which led to `after`:
/// the rock left the troll's new square and is the one rock `after` has
/// where `before` had none.
fn flight_of(before: &Position, after: &Position, step: Step) -> Option<(Vec<Square>, Square)> {
    let dir = step.throw_direction()?;
    let landing = (after.rocks() & !before.rocks()).lowest()?;
    let mut flight = Vec::new();
    let mut sq = step.to();
    while sq != landing {
        // Off the board before the landing: not this step's flight.
        sq = sq.neighbour(dir)?;
        flight.push(sq);
    }
    Some((flight, landing))
}

/// The run a dwarf on `from` pushes stepping towards `dir` (RULES.md §3,
/// Dwarf): the pieces from its next square up to the first empty one, each
/// moving one square on; empty when the next square is empty.
fn pushed_run(pos: &Position, from: Square, dir: Direction) -> Vec<Pushed> {
    let mut out = Vec::new();
    let mut sq = from.neighbour(dir);
    while let Some(at) = sq {
        let (Some(piece), Some(to)) = (pos.piece_at(at), at.neighbour(dir)) else {
            break;
        };
        out.push(Pushed {
            piece,
            from: at,
            to,
        });
        sq = Some(to);
    }
    out
}

/// The events of `steps` (their texts) played one after another from
/// `pos`; a step that does not read or is not legal there ends the list.
pub fn step_events<S: AsRef<str>>(pos: &Position, steps: &[S]) -> Vec<StepEvent> {
    let mut at = *pos;
    steps
        .iter()
        .map_while(|t| {
            let ev = step_event(&at, at.parse_step(t.as_ref()).ok()?)?;
            at.play(ev.step);
            Some(ev)
        })
        .collect()
}

/// The events of `steps` played one after another from `pos`; a step not
/// legal there ends the list.
pub fn events_of(pos: &Position, steps: &[Step]) -> Vec<StepEvent> {
    let mut at = *pos;
    steps
        .iter()
        .map_while(|&s| {
            let ev = step_event(&at, s)?;
            at.play(s);
            Some(ev)
        })
        .collect()
}

/// The events of the steps `legal` offers in `pos` (a choice to draw
/// before it is made); a text that is not a legal step here is left out.
pub fn choice_events<S: AsRef<str>>(pos: &Position, legal: &[S]) -> Vec<StepEvent> {
    legal
        .iter()
        .filter_map(|t| step_event(pos, pos.parse_step(t.as_ref()).ok()?))
        .collect()
}

/// The events of `game`'s steps, grouped by turn as [`Game::turns`].
pub fn turn_events(game: &Game) -> Vec<Vec<StepEvent>> {
    let (steps, positions) = (game.steps(), game.positions());
    let mut at = 0;
    game.turns()
        .into_iter()
        .map(|(_, turn)| {
            let range = at..at + turn.len();
            at = range.end;
            range
                .filter_map(|i| step_event(positions.get(i)?, *steps.get(i)?))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests;
