//! A position as the board draws it, read by the rules: what stands on
//! each square, the side to move and its steps, the rocks cooling, moved
//! and levitated, and the seats still in the game. Both hosts send it
//! beside every SPN they serve (the game's state, its positions, a new
//! game's preview), so the page draws it and reads no SPN itself.

use splut_rules::{Levitation, Piece, Position, Seat, Square};

/// One position, as the page draws it (`board` in the JSON).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BoardView {
    /// The position's SPN: what the page keys its drawing by and sends
    /// back (threats), never reads.
    pub spn: String,
    /// What stands on each occupied square: `{"e1": "rS", "a5": "R", …}`.
    #[serde(serialize_with = "crate::letters::text_map")]
    pub pieces: Vec<(Square, Piece)>,
    /// The seat to move (after the game: the winner).
    #[serde(serialize_with = "crate::letters::text")]
    pub side: Seat,
    /// Steps left in the turn (1 to 3).
    pub steps_left: u8,
    /// The turn's number, from 1.
    pub turn: u32,
    /// The rock levitated by the last step, which may follow the
    /// sorcerer again (`null`: none).
    #[serde(serialize_with = "crate::letters::text_or_null")]
    pub levitated: Option<Square>,
    /// Whether a levitation ended this turn: no more this turn.
    pub levitation_over: bool,
    /// The rocks moved last turn, which may not be levitated.
    #[serde(serialize_with = "crate::letters::texts")]
    pub cooling: Vec<Square>,
    /// The rocks moved so far this turn.
    #[serde(serialize_with = "crate::letters::texts")]
    pub moved: Vec<Square>,
    /// The seats whose sorcerer is on the board, in turn order from red.
    #[serde(serialize_with = "crate::letters::texts")]
    pub seats: Vec<Seat>,
}

impl BoardView {
    /// The position `pos` as the board draws it.
    pub fn of(pos: &Position) -> BoardView {
        let levitation = pos.levitation();
        BoardView {
            spn: pos.to_spn(),
            pieces: Square::all()
                .filter_map(|sq| pos.piece_at(sq).map(|p| (sq, p)))
                .collect(),
            side: pos.side_to_move(),
            steps_left: pos.steps_left(),
            turn: pos.turn(),
            levitated: match levitation {
                Levitation::Rock(sq) => Some(sq),
                _ => None,
            },
            levitation_over: levitation == Levitation::Over,
            cooling: pos.cooling().collect(),
            moved: pos.moved().collect(),
            seats: pos.seats_in_game().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn the_start_is_read_square_by_square() {
        let pos = Position::start(2).unwrap();
        let v = BoardView::of(&pos);
        assert_eq!(v.spn, "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -");
        assert_eq!(v.side, Seat::Red);
        assert_eq!((v.steps_left, v.turn), (1, 1));
        assert_eq!((v.levitated, v.levitation_over), (None, false));
        assert!(v.cooling.is_empty() && v.moved.is_empty());
        assert_eq!(v.seats, [Seat::Red, Seat::Green]);
        // Four rocks and three pieces a seat.
        assert_eq!(v.pieces.len(), 10);
        let at = |name: &str| {
            v.pieces
                .iter()
                .find(|p| p.0 == sq(name))
                .map(|p| p.1.to_string())
        };
        assert_eq!(at("e1").as_deref(), Some("R"));
        assert_eq!(at("e9").as_deref(), Some("R"));
        assert_eq!(at("a5").as_deref(), Some("R"));
        assert_eq!(at("d2").as_deref(), Some("rS"));
        assert_eq!(at("f8").as_deref(), Some("gS"));
        assert_eq!(at("e5"), None);
        let four = BoardView::of(&Position::start(4).unwrap());
        assert_eq!(four.seats, Seat::ALL);
    }

    #[test]
    fn levitation_cooling_and_moved_rocks_are_read() {
        // Red levitated the rock now on f4 this turn; the rock on a5 moved
        // last turn.
        let spn = "R/gTgDgS/5/7/R7R/4R2/1rS3/1rDrT/1 r 2 3 f4 a5 f4";
        let v = BoardView::of(&Position::from_spn(spn).unwrap());
        assert_eq!(v.spn, spn);
        assert_eq!((v.steps_left, v.turn), (2, 3));
        assert_eq!(v.levitated, Some(sq("f4")));
        assert!(!v.levitation_over);
        assert_eq!(v.cooling, [sq("a5")]);
        assert_eq!(v.moved, [sq("f4")]);
        let over = "R/gTgDgS/5/7/R7R/4R2/1rS3/1rDrT/1 r 1 3 x a5 f4";
        let v = BoardView::of(&Position::from_spn(over).unwrap());
        assert_eq!((v.levitated, v.levitation_over), (None, true));
    }

    #[test]
    fn a_seat_out_is_not_in_the_seats() {
        // A three-seat game after yellow's sorcerer was crushed: its team
        // left the board with it.
        let spn = "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R g 3 4 - - -";
        let v = BoardView::of(&Position::from_spn(spn).unwrap());
        assert_eq!(v.seats, [Seat::Red, Seat::Green]);
        assert_eq!(v.side, Seat::Green);
        assert!(!v.pieces.iter().any(|p| p.1.to_string().starts_with('y')));
    }

    #[test]
    fn the_json_is_what_the_page_draws() {
        let spn = "R/gTgDgS/5/7/R7R/4R2/1rS3/1rDrT/1 r 2 3 f4 a5 f4";
        let j = serde_json::to_value(BoardView::of(&Position::from_spn(spn).unwrap())).unwrap();
        assert_eq!(j["spn"], spn);
        assert_eq!(j["pieces"]["f4"], "R");
        assert_eq!(j["pieces"]["d3"], "rS");
        assert_eq!(j["pieces"]["f8"], "gS");
        assert_eq!(j["pieces"].as_object().unwrap().len(), 10);
        assert_eq!(j["side"], "r");
        assert_eq!(j["steps_left"], 2);
        assert_eq!(j["turn"], 3);
        assert_eq!(j["levitated"], "f4");
        assert_eq!(j["levitation_over"], false);
        assert_eq!(j["cooling"], serde_json::json!(["a5"]));
        assert_eq!(j["moved"], serde_json::json!(["f4"]));
        assert_eq!(j["seats"], serde_json::json!(["r", "g"]));
        let start = serde_json::to_value(BoardView::of(&Position::start(2).unwrap())).unwrap();
        assert_eq!(start["levitated"], serde_json::Value::Null);
        assert_eq!(start["cooling"], serde_json::json!([]));
    }
}
