//! Steps and their text form (RULES.md §5).
//!
//! | step | text |
//! |---|---|
//! | plain step, or a dwarf push (implied by occupancy) | `e2e3` |
//! | troll pull | `e5e6^e4` (rock square) |
//! | troll throw | `e4e5*n` (throw direction) |
//! | sorcerer levitating | `d2d3@a5` (rock square before the step) |
//! | nothing legal | `pass` |

use super::board::{Direction, Square};
use super::piece::Kind;
use std::fmt;

/// What a step does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum StepKind {
    /// The sorcerer steps without levitating.
    Sorcerer = 0,
    /// The dwarf steps, pushing the run in front of it if there is one.
    Dwarf = 1,
    /// The troll steps onto an empty square without pulling.
    Troll = 2,
    /// The troll steps onto an empty square and drags the rock behind it.
    Pull = 3,
    /// The troll steps onto a rock and throws it.
    Throw = 4,
    /// The sorcerer steps and levitates a rock the same way.
    Levitate = 5,
    /// Nothing else is legal; the turn ends.
    Pass = 6,
}

impl StepKind {
    const fn from_bits(b: u32) -> StepKind {
        match b {
            0 => StepKind::Sorcerer,
            1 => StepKind::Dwarf,
            2 => StepKind::Troll,
            3 => StepKind::Pull,
            4 => StepKind::Throw,
            5 => StepKind::Levitate,
            _ => StepKind::Pass,
        }
    }

    /// The kind of piece that makes this step (`None` for `pass`).
    pub const fn mover(self) -> Option<Kind> {
        match self {
            StepKind::Sorcerer | StepKind::Levitate => Some(Kind::Sorcerer),
            StepKind::Dwarf => Some(Kind::Dwarf),
            StepKind::Troll | StepKind::Pull | StepKind::Throw => Some(Kind::Troll),
            StepKind::Pass => None,
        }
    }
}

/// One step, packed in 32 bits: from (6), to (6), kind (3), direction of the
/// step (2), extra (6: the rock square of a pull or levitation, or the throw
/// direction).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Step(u32);

const TO_SHIFT: u32 = 6;
const KIND_SHIFT: u32 = 12;
const DIR_SHIFT: u32 = 15;
const EXTRA_SHIFT: u32 = 17;

impl Step {
    /// The `pass` step.
    pub const PASS: Step = Step((StepKind::Pass as u32) << KIND_SHIFT);

    #[inline]
    const fn pack(kind: StepKind, from: Square, to: Square, dir: Direction, extra: u32) -> Step {
        Step(
            from.index() as u32
                | (to.index() as u32) << TO_SHIFT
                | (kind as u32) << KIND_SHIFT
                | (dir as u32) << DIR_SHIFT
                | extra << EXTRA_SHIFT,
        )
    }

    /// A plain step of a sorcerer, dwarf (push included) or troll.
    #[inline]
    pub(crate) const fn plain(kind: StepKind, from: Square, to: Square, dir: Direction) -> Step {
        Step::pack(kind, from, to, dir, 0)
    }

    /// A troll pull dragging the rock on `rock` (behind `from`) onto `from`.
    #[inline]
    pub(crate) const fn pull(from: Square, to: Square, dir: Direction, rock: Square) -> Step {
        Step::pack(StepKind::Pull, from, to, dir, rock.index() as u32)
    }

    /// A troll stepping onto the rock on `to` and throwing it towards `throw`.
    #[inline]
    pub(crate) const fn throw(from: Square, to: Square, dir: Direction, throw: Direction) -> Step {
        Step::pack(StepKind::Throw, from, to, dir, throw as u32)
    }

    /// A sorcerer step levitating the rock on `rock` the same way.
    #[inline]
    pub(crate) const fn levitate(from: Square, to: Square, dir: Direction, rock: Square) -> Step {
        Step::pack(StepKind::Levitate, from, to, dir, rock.index() as u32)
    }

    /// The packed 32-bit form (for tables; see [`Self::from_bits`]).
    #[inline]
    pub const fn to_bits(self) -> u32 {
        self.0
    }

    /// A step from its packed form, if the bits describe one: squares on the
    /// board, a known kind. Whether it is legal is for the position to say.
    pub fn from_bits(bits: u32) -> Option<Step> {
        let s = Step(bits);
        let ok = bits >> (EXTRA_SHIFT + 6) == 0
            && (bits & 63) < 41
            && (bits >> TO_SHIFT & 63) < 41
            && (bits >> KIND_SHIFT & 7) <= StepKind::Pass as u32
            && (bits >> EXTRA_SHIFT & 63) < 41;
        ok.then_some(s)
    }

    /// What the step does.
    #[inline]
    pub const fn kind(self) -> StepKind {
        StepKind::from_bits(self.0 >> KIND_SHIFT & 7)
    }

    /// Whether this is `pass`.
    #[inline]
    pub const fn is_pass(self) -> bool {
        matches!(self.kind(), StepKind::Pass)
    }

    /// The mover's square (meaningless for `pass`).
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as u8)
    }

    /// The mover's destination (meaningless for `pass`).
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> TO_SHIFT & 63) as u8)
    }

    /// The direction of the step from `from` to `to`.
    #[inline]
    pub const fn direction(self) -> Direction {
        Direction::from_index((self.0 >> DIR_SHIFT & 3) as u8)
    }

    /// The rock square of a pull or a levitation (before the step).
    #[inline]
    pub fn rock(self) -> Option<Square> {
        matches!(self.kind(), StepKind::Pull | StepKind::Levitate)
            .then(|| Square::from_index_unchecked((self.0 >> EXTRA_SHIFT & 63) as u8))
    }

    /// The direction of a throw.
    #[inline]
    pub fn throw_direction(self) -> Option<Direction> {
        matches!(self.kind(), StepKind::Throw)
            .then(|| Direction::from_index((self.0 >> EXTRA_SHIFT & 3) as u8))
    }

    /// Whether this step ends the turn whatever the steps left (throw, pass).
    #[inline]
    pub const fn ends_turn(self) -> bool {
        matches!(self.kind(), StepKind::Throw | StepKind::Pass)
    }

    /// The notation-level content of the step (what its text says).
    pub fn text(self) -> StepText {
        match self.kind() {
            StepKind::Pass => StepText::Pass,
            k => StepText::Move {
                from: self.from(),
                to: self.to(),
                extra: match k {
                    StepKind::Pull => Extra::Pull(self.rock().unwrap_or(self.from())),
                    StepKind::Levitate => Extra::Levitate(self.rock().unwrap_or(self.from())),
                    StepKind::Throw => {
                        Extra::Throw(self.throw_direction().unwrap_or(Direction::North))
                    }
                    _ => Extra::None,
                },
            },
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.text().fmt(f)
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The annotation after `from to` in a step's text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Extra {
    /// Plain step or dwarf push.
    None,
    /// `^` rock square: troll pull.
    Pull(Square),
    /// `*` direction: troll throw.
    Throw(Direction),
    /// `@` rock square: levitation.
    Levitate(Square),
}

/// A step as its text says it, before it is checked against a position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum StepText {
    /// `pass`.
    Pass,
    /// `from to [annotation]`.
    Move {
        /// Square of the moving piece.
        from: Square,
        /// Where it goes.
        to: Square,
        /// Pull, throw or levitation details.
        extra: Extra,
    },
}

impl fmt::Display for StepText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StepText::Pass => write!(f, "pass"),
            StepText::Move { from, to, extra } => {
                write!(f, "{from}{to}")?;
                match extra {
                    Extra::None => Ok(()),
                    Extra::Pull(r) => write!(f, "^{r}"),
                    Extra::Throw(d) => write!(f, "*{d}"),
                    Extra::Levitate(r) => write!(f, "@{r}"),
                }
            }
        }
    }
}

/// Why a step's text was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StepError {
    /// The text as given.
    pub text: String,
    /// 1-based character where the problem is, for malformed text.
    pub column: Option<usize>,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(
                f,
                "malformed step '{}' at character {}: {}",
                self.text, c, self.reason
            ),
            None => write!(f, "illegal step '{}': {}", self.text, self.reason),
        }
    }
}

impl std::error::Error for StepError {}

fn malformed(text: &str, column: usize, reason: impl Into<String>) -> StepError {
    StepError {
        text: text.to_string(),
        column: Some(column),
        reason: reason.into(),
    }
}

/// Reads a square at byte offset `at`; the column in errors is 1-based.
fn square_at(text: &str, at: usize) -> Result<Square, StepError> {
    let b = text.as_bytes();
    let Some(&f) = b.get(at) else {
        return Err(malformed(text, at + 1, "expected a square, text ends"));
    };
    if !(b'a'..=b'i').contains(&f) {
        return Err(malformed(
            text,
            at + 1,
            format!(
                "expected a file letter a-i, found '{}'",
                text[at..].chars().next().unwrap_or(' ')
            ),
        ));
    }
    let Some(&r) = b.get(at + 1) else {
        return Err(malformed(
            text,
            at + 2,
            "expected a rank digit 1-9, text ends",
        ));
    };
    if !(b'1'..=b'9').contains(&r) {
        return Err(malformed(
            text,
            at + 2,
            format!(
                "expected a rank digit 1-9, found '{}'",
                text[at + 1..].chars().next().unwrap_or(' ')
            ),
        ));
    }
    Square::from_coords(f - b'a', r - b'1').ok_or_else(|| {
        malformed(
            text,
            at + 1,
            format!("{} is off the board", &text[at..at + 2]),
        )
    })
}

impl StepText {
    /// Parses the text of a step (syntax only: whether it is legal depends on
    /// the position, see [`super::Position::parse_step`]).
    pub fn parse(text: &str) -> Result<StepText, StepError> {
        if text == "pass" {
            return Ok(StepText::Pass);
        }
        if text.is_empty() {
            return Err(malformed(text, 1, "empty step"));
        }
        let from = square_at(text, 0)?;
        let to = square_at(text, 2)?;
        let b = text.as_bytes();
        let extra = match b.get(4) {
            None => Extra::None,
            Some(b'^') => Extra::Pull(square_at(text, 5)?),
            Some(b'@') => Extra::Levitate(square_at(text, 5)?),
            Some(b'*') => match text[5..].chars().next() {
                None => return Err(malformed(text, 6, "expected a direction n, e, s or w")),
                Some(c) => Extra::Throw(Direction::from_letter(c).ok_or_else(|| {
                    malformed(
                        text,
                        6,
                        format!("expected a direction n, e, s or w, found '{c}'"),
                    )
                })?),
            },
            Some(_) => {
                let c = text[4..].chars().next().unwrap_or(' ');
                return Err(malformed(
                    text,
                    5,
                    format!(
                        "expected '^' (pull), '*' (throw), '@' (levitate) or the end, found '{c}'"
                    ),
                ));
            }
        };
        let len = match extra {
            Extra::None => 4,
            Extra::Throw(_) => 6,
            _ => 7,
        };
        if text.len() > len {
            return Err(malformed(text, len + 1, "unexpected text after the step"));
        }
        if from.direction_to(to).is_none() {
            return Err(malformed(
                text,
                3,
                format!("{to} is not adjacent to {from} (steps go one square orthogonally)"),
            ));
        }
        Ok(StepText::Move { from, to, extra })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn packing_keeps_every_field() {
        for from in Square::all() {
            for d in Direction::ALL {
                let Some(to) = from.neighbour(d) else {
                    continue;
                };
                for r in Square::all() {
                    let s = Step::levitate(from, to, d, r);
                    assert_eq!(
                        (s.from(), s.to(), s.direction(), s.rock()),
                        (from, to, d, Some(r))
                    );
                    assert_eq!(s.kind(), StepKind::Levitate);
                }
                for e in Direction::ALL {
                    let s = Step::throw(from, to, d, e);
                    assert_eq!(s.throw_direction(), Some(e));
                    assert!(s.ends_turn());
                }
            }
        }
        assert!(Step::PASS.is_pass());
    }

    #[test]
    fn texts_print_as_the_rules_write_them() {
        let e = |a, b| (sq(a), sq(b));
        let (f, t) = e("e2", "e3");
        assert_eq!(
            Step::plain(StepKind::Dwarf, f, t, Direction::North).to_string(),
            "e2e3"
        );
        let (f, t) = e("e5", "e6");
        assert_eq!(
            Step::pull(f, t, Direction::North, sq("e4")).to_string(),
            "e5e6^e4"
        );
        let (f, t) = e("e4", "e5");
        assert_eq!(
            Step::throw(f, t, Direction::North, Direction::North).to_string(),
            "e4e5*n"
        );
        let (f, t) = e("d2", "d3");
        assert_eq!(
            Step::levitate(f, t, Direction::North, sq("a5")).to_string(),
            "d2d3@a5"
        );
        assert_eq!(Step::PASS.to_string(), "pass");
    }

    #[test]
    fn parse_reads_every_form() {
        for t in ["e2e3", "e5e6^e4", "e4e5*n", "e4e5*w", "d2d3@a5", "pass"] {
            assert_eq!(StepText::parse(t).unwrap().to_string(), t);
        }
    }

    #[test]
    fn malformed_steps_say_where() {
        let cases = [
            ("", 1),
            ("e", 2),
            ("e2", 3),
            ("x2e3", 1),
            ("e0e1", 2),
            ("a1a2", 1),
            ("e2e4", 3),
            ("e2e3x", 5),
            ("e2e3*", 6),
            ("e2e3*q", 6),
            ("e2e3*nn", 7),
            ("e2e3^e", 7),
            ("e2e3^e1 ", 8),
            ("E2E3", 1),
            ("pas", 1),
            ("e2é3", 3),
            ("e2e3@é", 6),
        ];
        for (t, col) in cases {
            let e = StepText::parse(t).unwrap_err();
            assert_eq!(e.column, Some(col), "{t}: {e}");
            assert!(e.to_string().contains("malformed"), "{e}");
        }
    }
}
