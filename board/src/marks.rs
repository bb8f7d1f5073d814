//! How a board draws steps: the mover's squares, a rock moved along, a
//! thrown rock's flight.

use splut_rules::{Position, StepKind};

/// How to draw a step as an arrow: the mover's squares, a levitated or
/// pulled rock's, and a thrown rock's flight.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StepMark {
    /// The step's text.
    pub step: String,
    /// The mover's square before it (`None` for `pass`).
    pub from: Option<String>,
    /// Its square after it.
    pub to: Option<String>,
    /// A rock moved along: its square before and after (levitation, pull).
    pub rock: Option<(String, String)>,
    /// A thrown rock's flight: the squares it passes, its landing last.
    pub flight: Vec<String>,
}

/// The marks of `steps` played one after another from `pos`; a step that
/// is not legal there ends the list.
pub fn step_marks(pos: &Position, steps: &[String]) -> Vec<StepMark> {
    let mut pos = *pos;
    let mut out = Vec::new();
    for text in steps {
        let Ok(step) = pos.parse_step(text) else {
            break;
        };
        let next = pos.after(step);
        let mut mark = StepMark {
            step: text.clone(),
            from: None,
            to: None,
            rock: None,
            flight: Vec::new(),
        };
        if !step.is_pass() {
            mark.from = Some(step.from().to_string());
            mark.to = Some(step.to().to_string());
        }
        if let Some(r) = step.rock() {
            let to = match step.kind() {
                StepKind::Pull => Some(step.from()),
                _ => r.neighbour(step.direction()),
            };
            mark.rock = to.map(|t| (r.to_string(), t.to_string()));
        }
        if let Some(dir) = step.throw_direction() {
            let landing = (next.rocks() & !pos.rocks()).lowest();
            let mut sq = step.to();
            while let Some(n) = sq.neighbour(dir) {
                mark.flight.push(n.to_string());
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
        let steps: Vec<String> = ["d2d3@f3", "f2f3", "f3f4*n"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let m = step_marks(&p, &steps);
        assert_eq!(m.len(), 3);
        assert_eq!(m[0].rock, Some(("f3".into(), "f4".into())));
        assert_eq!(
            (m[1].from.as_deref(), m[1].to.as_deref()),
            (Some("f2"), Some("f3"))
        );
        assert_eq!(m[2].flight, ["f5", "f6", "f7", "f8"]);
        let direct = step_marks(&p, &["f2f3*w".to_string(), "e2e3".to_string()]);
        // Thrown west from f3: e3, d3 and c3, landing on c3 at the edge; the
        // turn ends there, so the next step does not read.
        assert_eq!(direct.len(), 1);
        assert_eq!(direct[0].flight, ["e3", "d3", "c3"]);
    }
}
