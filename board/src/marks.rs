//! How a board draws steps: the mover's squares, a rock moved along, a
//! thrown rock's flight — each step's event ([`crate::events`]).

use crate::events::{StepEvent, step_events};
use splut_rules::{Position, StepText};

/// How to draw a step: its event ([`StepEvent`]), which names the mover's
/// squares (`from`, `to`), a pulled or levitated rock's (`rock`) and a
/// thrown rock's flight (`flight`), and what the page says of it.
pub type StepMark = StepEvent;

/// The marks of `steps` played one after another from `pos`; a step that
/// is not legal there ends the list. Their flights are the events' own
/// ([`crate::events::throw_flight`]'s reckoning).
pub fn step_marks(pos: &Position, steps: &[StepText]) -> Vec<StepMark> {
    let texts: Vec<String> = steps.iter().map(|t| t.to_string()).collect();
    step_events(pos, &texts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_rules::Square;

    #[test]
    fn steps_are_marked_for_arrows() {
        let p = Position::from_spn("R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -").unwrap();
        let text = |s: &str| StepText::parse(s).unwrap();
        let names = |v: &[Square]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let steps: Vec<StepText> = ["d2d3@f3", "f2f3", "f3f4*n"].map(text).to_vec();
        let m = step_marks(&p, &steps);
        assert_eq!(m.len(), 3);
        assert_eq!(m[0].rock, Square::parse("f3").zip(Square::parse("f4")));
        assert_eq!(
            (m[1].from, m[1].to),
            (Square::parse("f2"), Square::parse("f3"))
        );
        assert_eq!(names(&m[2].flight), ["f5", "f6", "f7", "f8"]);
        let direct = step_marks(&p, &[text("f2f3*w"), text("e2e3")]);
        // Thrown west from f3: e3, d3 and c3, landing on c3 at the edge; the
        // turn ends there, so the next step does not read.
        assert_eq!(direct.len(), 1);
        assert_eq!(names(&direct[0].flight), ["e3", "d3", "c3"]);
    }
}
