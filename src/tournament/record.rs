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

use crate::game::{Position, Seat};
use std::fmt::Write as _;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// One sorcerer left.
    LastSorcerer,
    /// Adjudicated a draw after this many turns.
    TurnLimit(u32),
    /// Adjudicated a draw: a position occurred this many times.
    Repetition(u32),
    /// A seat lost by forfeit (crash, time, illegal step, …).
    Forfeit {
        /// The seat that forfeited.
        seat: Seat,
        /// What happened.
        what: String,
    },
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
    fn parse(s: &str) -> Result<Reason, String> {
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
                    what: c.as_str().trim().to_string(),
                });
            }
        }
        Err(format!("unknown reason '{s}'"))
    }
}

/// Places, first to last; seats in one group share the place.
pub type Places = Vec<Vec<Seat>>;

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

fn places_text(p: &Places) -> String {
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

fn parse_places(s: &str) -> Result<Places, String> {
    s.split('>')
        .map(|g| {
            g.split('=')
                .map(|x| {
                    let x = x.trim();
                    let mut c = x.chars();
                    match (c.next().and_then(Seat::from_letter), c.next()) {
                        (Some(seat), None) => Ok(seat),
                        _ => Err(format!("'{x}' is not a seat in the result")),
                    }
                })
                .collect()
        })
        .collect()
}

impl GameRecord {
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

    /// The participant name of a seat.
    pub fn name_of(&self, seat: Seat) -> Option<&str> {
        self.seats
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, n)| n.as_str())
    }
}

/// Parses a records file into games (the error names the line).
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, String> {
    let mut games = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    loop {
        while lines.peek().is_some_and(|(_, l)| l.trim().is_empty()) {
            lines.next();
        }
        let Some(&(first_line, _)) = lines.peek() else {
            break;
        };
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut turns = Vec::new();
        while let Some(&(n, line)) = lines.peek() {
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            lines.next();
            let at = n + 1;
            if let Some(tag) = line.strip_prefix('[') {
                let tag = tag
                    .strip_suffix(']')
                    .ok_or_else(|| format!("line {at}: a tag must end with ']'"))?;
                let (k, v) = tag.split_once(' ').unwrap_or((tag, ""));
                tags.push((k.to_string(), v.to_string()));
            } else {
                let mut words = line.split_whitespace();
                let seat = words
                    .next()
                    .and_then(|w| {
                        let mut c = w.chars();
                        match (c.next().and_then(Seat::from_letter), c.next()) {
                            (Some(s), None) => Some(s),
                            _ => None,
                        }
                    })
                    .ok_or_else(|| format!("line {at}: a turn starts with a seat letter"))?;
                turns.push((seat, words.map(String::from).collect()));
            }
        }
        let tag = |k: &str| {
            tags.iter()
                .find(|(name, _)| name == k)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| format!("game at line {}: no [{k}] tag", first_line + 1))
        };
        let number = tag("Game")?
            .parse()
            .map_err(|_| "bad [Game] number".to_string())?;
        let players = tag("Players")?
            .parse()
            .map_err(|_| "bad [Players]".to_string())?;
        let seats = tag("Seats")?
            .split_whitespace()
            .map(|w| {
                let (s, name) = w.split_once('=').ok_or(format!("bad seat '{w}'"))?;
                let mut c = s.chars();
                match (c.next().and_then(Seat::from_letter), c.next()) {
                    (Some(seat), None) => Ok((seat, name.to_string())),
                    _ => Err(format!("bad seat '{w}'")),
                }
            })
            .collect::<Result<_, String>>()?;
        games.push(GameRecord {
            number,
            players,
            seats,
            opening: tag("Opening")?,
            start: tag("Start")?,
            opening_steps: tag("OpeningSteps")?
                .parse()
                .map_err(|_| "bad [OpeningSteps]".to_string())?,
            time_control: tag("TimeControl")?,
            places: parse_places(&tag("Result")?)?,
            reason: Reason::parse(&tag("Reason")?)?,
            turns,
        });
    }
    Ok(games)
}

/// Replays a game and checks it: every step legal and played by the seat
/// to move, whole turns (but the last, after a forfeit or a repetition),
/// and a result that matches the end of the game.
pub fn validate(g: &GameRecord) -> Result<(), String> {
    let start = if g.start == "startpos" {
        Position::start(g.players).ok_or("bad player count")?
    } else {
        Position::from_spn(&g.start).map_err(|e| e.to_string())?
    };
    let mut pos = start;
    let mut eliminated: Vec<Seat> = Vec::new();
    let mut hashes = std::collections::HashMap::new();
    for (i, (seat, steps)) in g.turns.iter().enumerate() {
        let last = i + 1 == g.turns.len();
        if *seat != pos.side_to_move() {
            return Err(format!(
                "turn {}: {} plays, but {} is to move",
                i + 1,
                seat.letter(),
                pos.side_to_move().letter()
            ));
        }
        let turn = pos.turn();
        for (j, t) in steps.iter().enumerate() {
            if pos.turn() != turn {
                return Err(format!(
                    "turn {}: step {} '{t}' is past the end of the turn",
                    i + 1,
                    j + 1
                ));
            }
            let step = pos
                .parse_step(t)
                .map_err(|e| format!("turn {}: {e}", i + 1))?;
            let before: Vec<Seat> = pos.seats_in_game().collect();
            pos.play(step);
            eliminated.extend(before.into_iter().filter(|s| !pos.in_game(*s)));
            let n = hashes.entry(pos.hash()).or_insert(0u32);
            *n += 1;
        }
        // A forfeit, or a repetition (the referee counts positions after
        // every step), may end the game in the middle of a turn.
        let ended_here = last && matches!(g.reason, Reason::Forfeit { .. } | Reason::Repetition(_));
        if pos.turn() == turn && !pos.is_game_over() && !ended_here {
            return Err(format!("turn {}: the turn is not finished", i + 1));
        }
    }
    let seats_left: Vec<Seat> = pos.seats_in_game().collect();
    let mut expected: Places = Vec::new();
    match &g.reason {
        Reason::LastSorcerer => {
            let w = pos.winner().ok_or("the game is not over")?;
            expected.push(vec![w]);
        }
        Reason::TurnLimit(t) => {
            if pos.turn() <= *t {
                return Err(format!("turn limit {t} claimed at turn {}", pos.turn()));
            }
            expected.push(seats_left.clone());
        }
        Reason::Repetition(n) => {
            if hashes.get(&pos.hash()).copied().unwrap_or(0) < *n {
                return Err(format!(
                    "repetition {n} claimed, but the last position did not occur {n} times"
                ));
            }
            expected.push(seats_left.clone());
        }
        Reason::Forfeit { seat, what } => {
            if !seats_left.contains(seat) {
                return Err(format!(
                    "{} forfeited after leaving the game",
                    seat.letter()
                ));
            }
            // An illegal step claim must really be illegal here.
            if let Some(t) = what.strip_prefix("illegal step ") {
                let text = t.split_whitespace().next().unwrap_or("").trim_matches('\'');
                if pos.parse_step(text).is_ok() {
                    return Err(format!("'{text}' is claimed illegal but is legal"));
                }
            }
            expected.push(seats_left.iter().copied().filter(|s| s != seat).collect());
            expected.push(vec![*seat]);
        }
    }
    expected.retain(|g| !g.is_empty());
    for s in eliminated.iter().rev() {
        expected.push(vec![*s]);
    }
    let same = expected.len() == g.places.len()
        && expected.iter().zip(&g.places).all(|(a, b)| {
            let mut a = a.clone();
            let mut b = b.clone();
            a.sort();
            b.sort();
            a == b
        });
    if !same {
        return Err(format!(
            "the result says {}, the game gives {}",
            places_text(&g.places),
            places_text(&expected)
        ));
    }
    Ok(())
}
