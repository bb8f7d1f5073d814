//! Action ids: every step as one number of a fixed range, the same in
//! every position, for learning environments (a policy's output, a legal
//! action mask) and anything else that wants steps as integers.
//!
//! A step is its mover's square, the direction it steps in and what it
//! does there; the id says exactly that, so it never depends on the
//! position (the position says only which ids are legal). With `f` the
//! mover's square (0–40, [`Square::index`]), `d` the step's direction
//! (0–3: north, east, south, west, [`Direction::index`]) and `fd = 4f + d`:
//!
//! | ids | count | step |
//! |---|---|---|
//! | 0 | 1 | `pass` |
//! | 1 + fd | 164 | a plain step: the sorcerer without levitating, the dwarf (pushing whatever is in front), the troll without pulling |
//! | 165 + fd | 164 | a troll pull (the rock behind it follows) |
//! | 329 + 4·fd + t | 656 | a troll throw: it steps onto the rock in direction `d` and throws it towards `t` (0–3) |
//! | 985 + 41·fd + r | 6,724 | a sorcerer levitating the rock on square `r` (before the step) one square in direction `d` |
//!
//! [`NUM_ACTIONS`] = 7,709. Most ids are never legal anywhere (a step off
//! the board, a rock square out of line): they are simply never in a mask.

use crate::board::{Direction, NUM_SQUARES, Square};
use crate::movegen::StepList;
use crate::position::Position;
use crate::step::{Step, StepKind};

/// How many action ids there are: every id is below this.
pub const NUM_ACTIONS: usize = 1 + 164 + 164 + 656 + 6724;

const PLAIN: usize = 1;
const PULL: usize = PLAIN + 164;
const THROW: usize = PULL + 164;
const LEVITATE: usize = THROW + 656;

impl Step {
    /// This step's action id (below [`NUM_ACTIONS`]), the same in every
    /// position (the module's table).
    pub fn action(self) -> usize {
        let fd = 4 * self.from().index() + self.direction().index();
        match self.kind() {
            StepKind::Pass => 0,
            StepKind::Sorcerer | StepKind::Dwarf | StepKind::Troll => PLAIN + fd,
            StepKind::Pull => PULL + fd,
            StepKind::Throw => THROW + 4 * fd + self.throw_direction().map_or(0, |t| t.index()),
            StepKind::Levitate => {
                LEVITATE + NUM_SQUARES * fd + self.rock().map_or(0, |r| r.index())
            }
        }
    }
}

/// What an action id describes, before a position says whether it is
/// legal: the mover's square, the direction and the step's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Described {
    Pass,
    Plain(Square, Direction),
    Pull(Square, Direction),
    Throw(Square, Direction, Direction),
    Levitate(Square, Direction, Square),
}

/// The mover's square and direction of `fd = 4f + d`.
fn square_and_direction(fd: usize) -> Option<(Square, Direction)> {
    let from = Square::new(u8::try_from(fd / 4).ok()?)?;
    Some((from, Direction::from_index((fd % 4) as u8)))
}

/// What `action` describes; `None` past [`NUM_ACTIONS`] or for a square
/// off the board.
fn describe(action: usize) -> Option<Described> {
    Some(match action {
        0 => Described::Pass,
        a if a < PULL => {
            let (f, d) = square_and_direction(a - PLAIN)?;
            Described::Plain(f, d)
        }
        a if a < THROW => {
            let (f, d) = square_and_direction(a - PULL)?;
            Described::Pull(f, d)
        }
        a if a < LEVITATE => {
            let (f, d) = square_and_direction((a - THROW) / 4)?;
            Described::Throw(f, d, Direction::from_index(((a - THROW) % 4) as u8))
        }
        a if a < NUM_ACTIONS => {
            let (f, d) = square_and_direction((a - LEVITATE) / NUM_SQUARES)?;
            let rock = Square::new(((a - LEVITATE) % NUM_SQUARES) as u8)?;
            Described::Levitate(f, d, rock)
        }
        _ => return None,
    })
}

impl Position {
    /// The legal step with this action id, if there is one here.
    pub fn step_for_action(&self, action: usize) -> Option<Step> {
        describe(action)?;
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list.iter().copied().find(|s| s.action() == action)
    }

    /// The action ids of the legal steps, in generation order (one per
    /// step: no two legal steps share an id).
    pub fn legal_actions(&self) -> Vec<usize> {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list.iter().map(|s| s.action()).collect()
    }

    /// Sets `mask[id]` to 1 for every legal step's id and every other entry
    /// to 0; `mask` has [`NUM_ACTIONS`] entries (a longer one is filled up
    /// to that, a shorter one only as far as it goes).
    pub fn fill_action_mask(&self, mask: &mut [u8]) {
        let n = mask.len().min(NUM_ACTIONS);
        mask[..n].fill(0);
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        for s in list.iter() {
            if let Some(m) = mask.get_mut(s.action()) {
                *m = 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zobrist::splitmix64;

    #[test]
    fn every_legal_step_has_its_own_id_that_maps_back() {
        let mut seed = 7u64;
        for players in 2..=4 {
            for _ in 0..60 {
                let mut p = Position::start(players).unwrap();
                for _ in 0..400 {
                    if p.is_game_over() {
                        break;
                    }
                    let steps = p.legal_step_vec();
                    let ids = p.legal_actions();
                    let mut sorted = ids.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    assert_eq!(sorted.len(), ids.len(), "{}: ids shared", p.to_spn());
                    let mut mask = vec![9u8; NUM_ACTIONS];
                    p.fill_action_mask(&mut mask);
                    assert_eq!(mask.iter().filter(|&&m| m == 1).count(), steps.len());
                    for (&s, &id) in steps.iter().zip(&ids) {
                        assert!(id < NUM_ACTIONS);
                        assert_eq!(mask[id], 1);
                        assert_eq!(p.step_for_action(id), Some(s), "{} {s}", p.to_spn());
                        assert!(describe(id).is_some());
                    }
                    let pick = (splitmix64(&mut seed) % steps.len() as u64) as usize;
                    p.play(steps[pick]);
                }
            }
        }
    }

    #[test]
    fn ids_outside_the_range_or_not_legal_give_no_step() {
        let p = Position::start(2).unwrap();
        assert_eq!(p.step_for_action(NUM_ACTIONS), None);
        assert_eq!(p.step_for_action(usize::MAX), None);
        // Pass is not legal at the start; nor is a pull from an empty square.
        assert_eq!(p.step_for_action(0), None);
        assert_eq!(p.step_for_action(PULL), None);
        assert_eq!(Step::PASS.action(), 0);
        // The table's last id is a levitation from square 40, west, rock 40.
        assert_eq!(
            describe(NUM_ACTIONS - 1),
            Some(Described::Levitate(
                Square::new(40).unwrap(),
                Direction::from_index(3),
                Square::new(40).unwrap()
            ))
        );
    }
}
