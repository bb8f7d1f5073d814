//! Threats for the web board: every throw an enemy could make in its next
//! turn that kills a seat's sorcerer, and the seat's own kills at hand.
//!
//! Worked out on the rules core alone (legal steps and copy-make), by
//! trying every sequence of steps of one turn (at most three steps): a
//! sequence that ends with a throw killing the victim's sorcerer is a
//! threat. Each enemy is tried on the board as it stands, at the start of
//! a whole turn of its own ([`Position::whole_turn_of`]: three steps, no
//! rock cooling, so every levitation open): what it *could* do if the
//! other seats' turns changed nothing, which may show a threat that a
//! cooling rock or another seat's turn would in fact prevent, and never
//! misses one the board allows.

use crate::events::{StepEvent, events_of, throw_flight};
use splut_rules::{Kind, Position, Seat, Square, Step, StepKind};
use std::collections::HashMap;

/// Most positions one enumeration visits (a turn has well under this).
const MAX_NODES: usize = 400_000;

/// One killing throw and the steps leading to it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Kill {
    /// The seat that throws.
    #[serde(serialize_with = "crate::letters::text")]
    pub attacker: Seat,
    /// The seat whose sorcerer is hit.
    #[serde(serialize_with = "crate::letters::text")]
    pub victim: Seat,
    /// The steps of the attacker's turn, the throw last.
    #[serde(serialize_with = "crate::letters::texts")]
    pub steps: Vec<Step>,
    /// The troll's square before the throw.
    #[serde(serialize_with = "crate::letters::text")]
    pub troll: Square,
    /// The square the rock is thrown from (the troll steps onto it).
    #[serde(serialize_with = "crate::letters::text")]
    pub rock: Square,
    /// The squares the rock flies over, the sorcerer's square last.
    #[serde(serialize_with = "crate::letters::texts")]
    pub flight: Vec<Square>,
    /// A levitation on the way: the rock's squares, from and to, if the
    /// attacker's sorcerer floats a rock into place first.
    #[serde(serialize_with = "crate::letters::pair_or_null")]
    pub levitation: Option<(Square, Square)>,
    /// What each step of the turn does, for the page's words and marks.
    pub events: Vec<StepEvent>,
}

/// A seat's threats and kills at hand.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Threats {
    /// The seat they are for.
    #[serde(serialize_with = "crate::letters::text")]
    pub seat: Seat,
    /// Enemy throws that could kill its sorcerer before its next turn.
    pub threats: Vec<Kill>,
    /// Its own throws that kill an enemy sorcerer: in this turn when it is
    /// to move (with the steps it has left), else in its next whole turn.
    pub kills: Vec<Kill>,
    /// Whether `kills` are for the turn being played now.
    pub now: bool,
}

/// The seat a request names by its letter (`r`, `y`, `g` or `b`), the
/// side to move in `pos` when it names none.
pub fn seat_named(letter: Option<&str>, pos: &Position) -> Result<Seat, String> {
    let Some(text) = letter else {
        return Ok(pos.side_to_move());
    };
    let mut c = text.chars();
    match (c.next().and_then(Seat::from_letter), c.next()) {
        (Some(s), None) => Ok(s),
        _ => Err("seat: expected r, y, g or b".into()),
    }
}

/// The threats against `seat` and its kills at hand in `pos`; an error if
/// the seat is not in the game or the game is over.
pub fn threats(pos: &Position, seat: Seat) -> Result<Threats, String> {
    if pos.is_game_over() {
        return Err("the game is over".into());
    }
    if !pos.in_game(seat) {
        return Err(format!("{} is not in the game", seat.name()));
    }
    let mut threats = Vec::new();
    let enemies: Vec<Seat> = pos.seats_in_game().filter(|&s| s != seat).collect();
    for enemy in enemies {
        let turn = pos.whole_turn_of(enemy).map_err(|e| e.to_string())?;
        threats.extend(kills_in_turn(&turn, Some(seat)));
    }
    let now = pos.side_to_move() == seat;
    let own = if now {
        *pos
    } else {
        pos.whole_turn_of(seat).map_err(|e| e.to_string())?
    };
    let kills = kills_in_turn(&own, None)
        .into_iter()
        .filter(|k| k.victim != seat)
        .collect();
    Ok(Threats {
        seat,
        threats,
        kills,
        now,
    })
}

/// Every killing throw the side to move can make in the rest of its turn
/// (of `victim`'s sorcerer only, if given), one per distinct throw (troll,
/// rock and direction), each by its shortest sequence of steps (so a
/// levitation is listed only where the throw needs it).
pub fn kills_in_turn(pos: &Position, victim: Option<Seat>) -> Vec<Kill> {
    let mut found: HashMap<String, Kill> = HashMap::new();
    let mut path = Vec::new();
    let mut nodes = 0;
    search(pos, victim, &mut path, &mut found, &mut nodes);
    let mut out: Vec<Kill> = found.into_values().collect();
    // By the victim's letter, then the shortest and the steps' text: the
    // order the page lists them in.
    let key = |k: &Kill| {
        let steps: Vec<String> = k.steps.iter().map(|s| s.to_string()).collect();
        (k.victim.letter(), k.steps.len(), steps)
    };
    out.sort_by_cached_key(key);
    for k in &mut out {
        k.events = events_of(pos, &k.steps);
    }
    out
}

/// Depth-first over the rest of the side to move's turn.
fn search(
    pos: &Position,
    victim: Option<Seat>,
    path: &mut Vec<Step>,
    found: &mut HashMap<String, Kill>,
    nodes: &mut usize,
) {
    let mover = pos.side_to_move();
    for step in pos.legal_step_vec() {
        *nodes += 1;
        if *nodes > MAX_NODES {
            return;
        }
        let next = pos.after(step);
        if step.kind() == StepKind::Throw {
            for hit in pos.seats_in_game().filter(|&s| !next.in_game(s)) {
                if victim.is_some_and(|v| v != hit) {
                    continue;
                }
                path.push(step);
                if let Some(kill) = describe(pos, mover, hit, path) {
                    let key = kill.steps.last().map(|s| s.to_string()).unwrap_or_default();
                    let shorter = found
                        .get(&key)
                        .is_none_or(|k| kill.steps.len() < k.steps.len());
                    if shorter {
                        found.insert(key, kill);
                    }
                }
                path.pop();
            }
            continue;
        }
        // The turn goes on only while the same seat moves.
        if next.side_to_move() == mover && next.turn() == pos.turn() && !next.is_game_over() {
            path.push(step);
            search(&next, victim, path, found, nodes);
            path.pop();
        }
    }
}

/// The kill of `victim` by the last step of `path` (a throw made in
/// `before`): the troll, the rock, the flight and any levitation.
fn describe(before: &Position, attacker: Seat, victim: Seat, path: &[Step]) -> Option<Kill> {
    let throw = *path.last()?;
    // The rules' own flight: a kill's ends on the victim's sorcerer.
    let (flight, landing) = throw_flight(before, throw)?;
    if before.piece_square(victim, Kind::Sorcerer) != Some(landing) {
        return None;
    }
    let levitation = path
        .iter()
        .filter(|s| s.kind() == StepKind::Levitate)
        .filter_map(|s| s.rock().map(|r| (r, s.direction())))
        .fold(None::<(Square, Square)>, |acc, (r, d)| {
            let start = acc.map_or(r, |a| a.0);
            r.neighbour(d).map(|to| (start, to)).or(acc)
        });
    Some(Kill {
        attacker,
        victim,
        steps: path.to_vec(),
        troll: throw.from(),
        rock: throw.to(),
        flight,
        levitation,
        events: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Squares or steps as their text.
    fn texts<T: std::fmt::Display>(v: &[T]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn pos(spn: &str) -> Position {
        Position::from_spn(spn).unwrap()
    }

    /// Red's troll on f2 can throw the rock on f3 north at green's
    /// sorcerer on f8 at once.
    const LINED_UP: &str = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";

    #[test]
    fn a_rock_lined_up_is_a_kill_at_hand_and_a_threat_to_the_victim() {
        let p = pos(LINED_UP);
        let red = threats(&p, Seat::Red).unwrap();
        assert!(red.now);
        let direct = red
            .kills
            .iter()
            .find(|k| texts(&k.steps) == ["f2f3*n"])
            .expect("the one-step kill");
        assert_eq!((direct.attacker, direct.victim), (Seat::Red, Seat::Green));
        assert_eq!(texts(&[direct.troll, direct.rock]), ["f2", "f3"]);
        assert_eq!(texts(&direct.flight), ["f4", "f5", "f6", "f7", "f8"]);
        assert_eq!(direct.levitation, None);
        // One entry per throw: no throw listed twice (say, after a
        // levitation of some rock that changes nothing).
        let mut throws: Vec<String> = red
            .kills
            .iter()
            .filter_map(|k| k.steps.last())
            .map(|s| s.to_string())
            .collect();
        let n = throws.len();
        throws.sort();
        throws.dedup();
        assert_eq!(throws.len(), n, "{:?}", red.kills);
        // Every kill listed replays to green's sorcerer gone.
        for k in &red.kills {
            let mut q = p;
            for &s in &k.steps {
                q.play(s);
            }
            assert!(!q.in_game(Seat::Green), "{:?}", k.steps);
        }
        // Seen from green: the same throw is a threat, found on a whole
        // turn of red's (three steps).
        let green = threats(&p, Seat::Green).unwrap();
        assert!(!green.now);
        assert!(green.threats.iter().any(|k| texts(&k.steps) == ["f2f3*n"]));
        assert!(
            green
                .threats
                .iter()
                .all(|k| k.attacker == Seat::Red && k.victim == Seat::Green)
        );
    }

    #[test]
    fn the_start_has_no_threats_and_no_kills() {
        for players in 2..=4 {
            let p = Position::start(players).unwrap();
            for seat in p.seats_in_game().collect::<Vec<_>>() {
                let t = threats(&p, seat).unwrap();
                assert!(
                    t.threats.is_empty() && t.kills.is_empty(),
                    "{players} {seat:?}"
                );
            }
        }
    }

    #[test]
    fn a_levitation_then_a_throw_is_found_with_its_rock() {
        // No rock on a line of green's sorcerer (f8): red's sorcerer on
        // c3 steps east and floats the rock on e5 to f5, then red's troll
        // on f4 steps onto it and throws it north.
        let p = pos("1/2gS/5/7/R3R3R/4rT2/rS4/3/R r 3 3 - - -");
        let kills = kills_in_turn(&p, Some(Seat::Green));
        assert!(!kills.is_empty());
        let lev = kills.iter().find(|k| k.levitation.is_some());
        assert!(lev.is_some(), "{kills:?}");
        let k = lev.unwrap();
        // Replays to the kill.
        let mut q = p;
        for &s in &k.steps {
            q.play(s);
        }
        assert!(!q.in_game(Seat::Green));
        assert_eq!(k.flight.last(), Square::parse("f8").as_ref());
    }

    #[test]
    fn bad_seats_are_errors() {
        let p = pos(LINED_UP);
        assert!(threats(&p, Seat::Blue).is_err());
    }

    #[test]
    fn the_page_reads_seats_squares_and_steps_as_text() {
        let p = pos(LINED_UP);
        let red = threats(&p, Seat::Red).unwrap();
        let direct = red
            .kills
            .iter()
            .find(|k| texts(&k.steps) == ["f2f3*n"])
            .unwrap();
        let mut json = serde_json::to_value(direct).unwrap();
        // Its steps' events, the throw's own flight among them.
        let events = json.as_object_mut().unwrap().remove("events").unwrap();
        assert_eq!(events[0]["type"], "throw");
        assert_eq!(events[0]["flight"], json["flight"]);
        assert_eq!(
            json,
            serde_json::json!({
                "attacker": "r", "victim": "g", "steps": ["f2f3*n"],
                "troll": "f2", "rock": "f3", "flight": ["f4", "f5", "f6", "f7", "f8"],
                "levitation": null,
            })
        );
        assert_eq!(serde_json::to_value(&red).unwrap()["seat"], "r");
        // A levitation moves a rock along: its squares as a pair.
        let p = pos("R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -");
        let step = splut_rules::StepText::parse("d2d3@f3").unwrap();
        let marks = crate::marks::step_marks(&p, &[step]);
        let m = &serde_json::to_value(&marks).unwrap()[0];
        let drawn = ["step", "from", "to", "rock", "flight"].map(|k| m[k].clone());
        assert_eq!(
            serde_json::Value::from(drawn.to_vec()),
            serde_json::json!(["d2d3@f3", "d2", "d3", ["f3", "f4"], []])
        );
    }
}
