//! A record judged again: its game replayed with the referee's
//! [`Judge`], its tags checked against what the game gives.

use super::{Forfeit, GameLines, GameRecord, Reason};
use crate::judge::{Judge, places, places_text};
use splut_rules::{Game, Position, Seat};

/// What a judgement of a record is about: a tag or a turn line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// The tag of this name (`Result`, `Seats`, …).
    Tag(&'static str),
    /// A turn line, 0-based.
    Turn(usize),
}

/// Why a record is not a game the judge accepts: what is wrong, what it
/// is about and, where [`validate_at`] knows it, the line. Shown as
/// `line 22: the result says r > g, the game gives g > r` (without the
/// line, the reason alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    /// The tag or turn the judgement is about.
    pub spot: Spot,
    /// Its 1-based line in the file, where known.
    pub line: Option<usize>,
    /// What is wrong.
    pub why: String,
}

impl Invalid {
    fn at(spot: Spot, why: impl Into<String>) -> Invalid {
        Invalid {
            spot,
            line: None,
            why: why.into(),
        }
    }
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(at) => write!(f, "line {at}: {}", self.why),
            None => f.write_str(&self.why),
        }
    }
}

impl std::error::Error for Invalid {}

/// Replays a game and judges it again with the referee's [`Judge`]: every
/// step legal and played by the seat to move, whole turns (but the last,
/// after a forfeit or a repetition), play stopping where the judge ends
/// the game, and the reason and result the judge gives.
pub fn validate(g: &GameRecord) -> Result<(), Invalid> {
    judge_record(g)
}

/// [`validate`], the error naming the line it is about (the tag or the
/// turn line, from `lines`, as [`RecordReader::lines`](super::RecordReader::lines) gives them):
/// `line 22: the result says r > g, the game gives g > r`.
pub fn validate_at(g: &GameRecord, lines: &GameLines) -> Result<(), Invalid> {
    judge_record(g).map_err(|e| Invalid {
        line: match e.spot {
            Spot::Tag(name) => lines.tag(name),
            Spot::Turn(i) => lines.turns.get(i).copied(),
        },
        ..e
    })
}

fn judge_record(g: &GameRecord) -> Result<(), Invalid> {
    let start = if g.start == "startpos" {
        Position::start(g.players).ok_or(Invalid::at(Spot::Tag("Players"), "bad player count"))?
    } else {
        Position::from_spn(&g.start).map_err(|e| Invalid::at(Spot::Tag("Start"), e.to_string()))?
    };
    check_seats(g, &start)?;
    let total_steps: usize = g.turns.iter().map(|t| t.1.len()).sum();
    if g.opening_steps > total_steps {
        return Err(Invalid::at(
            Spot::Tag("OpeningSteps"),
            format!(
                "[OpeningSteps {}] but the game has only {total_steps} steps",
                g.opening_steps
            ),
        ));
    }
    let (game, ended) = replay(g, start)?;
    let reason = |why: String| Invalid::at(Spot::Tag("Reason"), why);
    let pos = game.position();
    let n = game.steps().len();
    let at_end = ended.as_ref().filter(|e| e.0 == n).map(|e| &e.1);
    // What the record claims, checked first: it says best what is wrong.
    match &g.reason {
        Reason::LastSorcerer if !pos.is_game_over() => {
            return Err(reason("the game is not over".into()));
        }
        Reason::TurnLimit(t) if pos.turn() <= *t => {
            return Err(reason(format!(
                "turn limit {t} claimed at turn {}",
                pos.turn()
            )));
        }
        Reason::Repetition(r) if !matches!(at_end, Some(Reason::Repetition(_))) => {
            return Err(reason(format!(
                "repetition {r} claimed, but the last position did not occur {r} times"
            )));
        }
        Reason::Forfeit { seat, what } => check_forfeit(&game, *seat, what).map_err(reason)?,
        _ => {}
    }
    // Then the judge: the game stops where it ends it, for the reason given.
    if let Some((k, r)) = &ended
        && *k < n
    {
        return Err(Invalid::at(
            Spot::Turn(turn_of_step(g, *k)),
            format!("the game ended after step {k} ({r}) but the record goes on to step {n}"),
        ));
    }
    match (&g.reason, at_end) {
        (Reason::Forfeit { .. }, None) => {}
        // The winning step, then a step past the end of the turn.
        (
            Reason::Forfeit {
                what: Forfeit::PastTurnEnd { .. },
                ..
            },
            Some(Reason::LastSorcerer),
        ) => {}
        (claimed, Some(judged)) if claimed == judged => {}
        (claimed, judged) => {
            return Err(reason(format!(
                "the record says {claimed}, the game gives {}",
                judged.map_or("no end".to_string(), |r| r.to_string())
            )));
        }
    }
    check_places(g, &game)
}

/// The 0-based turn that plays step `k` (0-based) of a record.
fn turn_of_step(g: &GameRecord, k: usize) -> usize {
    let mut steps = 0;
    for (i, (_, turn)) in g.turns.iter().enumerate() {
        steps += turn.len();
        if steps > k {
            return i;
        }
    }
    g.turns.len().saturating_sub(1)
}

/// The names must sit on the seats that play: a record whose seats are
/// another game's would credit the result to the wrong participants.
fn check_seats(g: &GameRecord, start: &Position) -> Result<(), Invalid> {
    let mut playing: Vec<Seat> = start.seats_in_game().collect();
    let mut named: Vec<Seat> = g.seats.iter().map(|s| s.0).collect();
    playing.sort();
    named.sort();
    if named != playing {
        let letters = |v: &[Seat]| v.iter().map(|s| s.letter().to_string()).collect::<Vec<_>>();
        return Err(Invalid::at(
            Spot::Tag("Seats"),
            format!(
                "[Seats] names seats {} but the game is played by {}",
                letters(&named).join(" "),
                letters(&playing).join(" ")
            ),
        ));
    }
    // A start position has `players` seats by construction; an SPN must
    // agree with the tag.
    if playing.len() != g.players {
        return Err(Invalid::at(
            Spot::Tag("Players"),
            format!(
                "[Players {}] but the start position has {} players",
                g.players,
                playing.len()
            ),
        ));
    }
    Ok(())
}

/// The result must be the places the game and its reason give.
fn check_places(g: &GameRecord, game: &Game) -> Result<(), Invalid> {
    let expected = places(game, &g.reason);
    let same = expected.len() == g.places.len()
        && expected.iter().zip(&g.places).all(|(a, b)| {
            let mut a = a.clone();
            let mut b = b.clone();
            a.sort();
            b.sort();
            a == b
        });
    if !same {
        return Err(Invalid::at(
            Spot::Tag("Result"),
            format!(
                "the result says {}, the game gives {}",
                places_text(&g.places),
                places_text(&expected)
            ),
        ));
    }
    Ok(())
}

/// Plays a record's turns into a [`Game`], checking that each turn line is
/// one whole turn of the seat to move; with the first end the judge sees in
/// the game proper (after how many steps, and why).
fn replay(g: &GameRecord, start: Position) -> Result<(Game, Option<(usize, Reason)>), Invalid> {
    let mut game = Game::new(start);
    let mut judge = Judge::new(g.reason.adjudication());
    let mut ended: Option<(usize, Reason)> = None;
    for (i, (seat, steps)) in g.turns.iter().enumerate() {
        let bad = |why: String| Invalid::at(Spot::Turn(i), format!("turn {}: {why}", i + 1));
        let last = i + 1 == g.turns.len();
        let to_move = game.position().side_to_move();
        if *seat != to_move {
            return Err(bad(format!(
                "{} plays, but {} is to move",
                seat.letter(),
                to_move.letter()
            )));
        }
        let turn = game.position().turn();
        for (j, t) in steps.iter().enumerate() {
            if game.position().turn() != turn {
                return Err(bad(format!(
                    "step {} '{t}' is past the end of the turn",
                    j + 1
                )));
            }
            // The referee judges from the end of the opening on.
            let proper = game.steps().len() >= g.opening_steps;
            if proper && ended.is_none() {
                ended = judge
                    .before_turn(game.position())
                    .map(|r| (game.steps().len(), r));
            }
            game.play_text(t).map_err(|e| bad(e.to_string()))?;
            if proper && let Some(r) = judge.after_step(game.position()) {
                ended.get_or_insert((game.steps().len(), r));
            }
        }
        // A forfeit, or a repetition (the judge counts positions after
        // every step), may end the game in the middle of a turn.
        let ended_here = last && matches!(g.reason, Reason::Forfeit { .. } | Reason::Repetition(_));
        let pos = game.position();
        if pos.turn() == turn && !pos.is_game_over() && !ended_here {
            return Err(bad("the turn is not finished".into()));
        }
    }
    if ended.is_none() && game.steps().len() >= g.opening_steps {
        ended = judge
            .before_turn(game.position())
            .map(|r| (game.steps().len(), r));
    }
    Ok((game, ended))
}

/// Checks a forfeit against the game: the seat was still playing, and a
/// claim about its last step is true.
fn check_forfeit(game: &Game, seat: Seat, what: &Forfeit) -> Result<(), String> {
    let pos = game.position();
    if !pos.in_game(seat) {
        return Err(format!(
            "{} forfeited after leaving the game",
            seat.letter()
        ));
    }
    match what {
        Forfeit::IllegalStep { text, .. } => {
            if pos.side_to_move() != seat {
                return Err(format!(
                    "{} is said to have played '{text}', but {} is to move",
                    seat.letter(),
                    pos.side_to_move().letter()
                ));
            }
            if pos.parse_step(text).is_ok() {
                return Err(format!("'{text}' is claimed illegal but is legal"));
            }
        }
        Forfeit::PastTurnEnd { text } => {
            let over = pos.is_game_over() || pos.side_to_move() != seat;
            if game.turns().last().map(|t| t.0) != Some(seat) || !over {
                return Err(format!(
                    "'{text}' is said to come after {}'s turn ended, but that turn is not over",
                    seat.letter()
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{G, R, record};
    use super::*;

    fn forfeit(seat: Seat, what: Forfeit) -> Reason {
        Reason::Forfeit { seat, what }
    }

    #[test]
    fn the_judge_checks_where_and_why_a_game_ended() {
        let three = [(R, "e2e3"), (G, "e8e7 f8f7"), (R, "d2d3 e3e4 f2f3")];
        let draw = vec![vec![R, G]];
        assert_eq!(
            validate(&record(&three, Reason::TurnLimit(3), draw.clone())),
            Ok(())
        );
        // Play went on past the turn limit.
        let e = validate(&record(&three, Reason::TurnLimit(2), draw.clone()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("ended after step 3 (turn limit 2)"), "{e}");
        // The game gives a turn limit, not a repetition.
        let e = validate(&record(&three, Reason::Repetition(3), draw))
            .unwrap_err()
            .to_string();
        assert!(e.contains("did not occur 3 times"), "{e}");
    }

    #[test]
    fn a_game_from_the_last_turn_an_spn_may_give_is_replayed_past_it() {
        // The referee and `splut replay` play steps into a `Game`: a turn
        // at MAX_TURN ends like any other, into turn MAX_TURN + 1.
        let turns = [(R, "e2e3 e3e4 d2d3"), (G, "e8e7 e7e6 f8f7")];
        let last = splut_rules::MAX_TURN + 1;
        let mut g = record(&turns, Reason::TurnLimit(last), vec![vec![R, G]]);
        g.start = format!(
            "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 {} - - -",
            splut_rules::MAX_TURN
        );
        assert_eq!(validate(&g), Ok(()));
    }

    #[test]
    fn forfeit_claims_are_checked_against_the_game() {
        let two = [(R, "e2e3"), (G, "e8e7 f8f7")];
        let red_lost = vec![vec![G], vec![R]];
        let illegal = |text: &str| Forfeit::IllegalStep {
            text: text.into(),
            why: "whatever".into(),
        };
        let ok = record(&two, forfeit(R, illegal("e5e6")), red_lost.clone());
        assert_eq!(validate(&ok), Ok(()));
        let e = validate(&record(&two, forfeit(R, illegal("e3e4")), red_lost.clone()));
        assert!(
            e.unwrap_err()
                .to_string()
                .contains("claimed illegal but is legal")
        );
        // Green is not to move.
        let green_lost = vec![vec![R], vec![G]];
        let e = validate(&record(
            &two,
            forfeit(G, illegal("e5e6")),
            green_lost.clone(),
        ));
        assert!(e.unwrap_err().to_string().contains("but r is to move"));
        // A step past the end of green's turn: green's turn is over.
        let past = Forfeit::PastTurnEnd {
            text: "d8d7".into(),
        };
        let ok = record(&two, forfeit(G, past.clone()), green_lost);
        assert_eq!(validate(&ok), Ok(()));
        let e = validate(&record(&two, forfeit(R, past), red_lost))
            .unwrap_err()
            .to_string();
        assert!(e.contains("that turn is not over"), "{e}");
    }
}
