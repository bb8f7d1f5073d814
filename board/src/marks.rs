//! How a board draws steps: the mover's squares, a rock moved along, a
//! thrown rock's flight.

use splut_rules::{Position, Square, Step, StepKind, StepText};

/// How to draw a step as an arrow: the mover's squares, a levitated or
/// pulled rock's, and a thrown rock's flight.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StepMark {
    /// The step.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::letters::text"))]
    pub step: Step,
    /// The mover's square before it (`None` for `pass`).
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::letters::text_or_null")
    )]
    pub from: Option<Square>,
    /// Its square after it.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::letters::text_or_null")
    )]
    pub to: Option<Square>,
    /// A rock moved along: its square before and after (levitation, pull).
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::letters::pair_or_null")
    )]
    pub rock: Option<(Square, Square)>,
    /// A thrown rock's flight: the squares it passes, its landing last.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::letters::texts"))]
    pub flight: Vec<Square>,
}

/// The marks of `steps` played one after another from `pos`; a step that
/// is not legal there ends the list.
pub fn step_marks(pos: &Position, steps: &[StepText]) -> Vec<StepMark> {
    let mut pos = *pos;
    let mut out = Vec::new();
    for text in steps {
        let Ok(step) = pos.parse_step(&text.to_string()) else {
            break;
        };
        let next = pos.after(step);
        let mut mark = StepMark {
            step,
            from: None,
            to: None,
            rock: None,
            flight: Vec::new(),
        };
        if !step.is_pass() {
            mark.from = Some(step.from());
            mark.to = Some(step.to());
        }
        if let Some(r) = step.rock() {
            let to = match step.kind() {
                StepKind::Pull => Some(step.from()),
                _ => r.neighbour(step.direction()),
            };
            mark.rock = to.map(|t| (r, t));
        }
        if let Some(dir) = step.throw_direction() {
            let landing = (next.rocks() & !pos.rocks()).lowest();
            let mut sq = step.to();
            while let Some(n) = sq.neighbour(dir) {
                mark.flight.push(n);
                if Some(n) == landing || mark.flight.len() > 9 {
                    break;
                }
                sq = n;
            }
        }
        out.push(mark);
        pos = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
