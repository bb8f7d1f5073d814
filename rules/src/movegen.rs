//! Legal step generation into a fixed array, and bulk counting.
//!
//! Each piece's rules live in its own module (`sorcerer`, `dwarf`, `troll`);
//! this module runs them for the side to move and adds `pass` when nothing
//! else is legal. Every generated step is legal: Splut! has no check.

use super::bitboard::Bitboard;
use super::board::Square;
use super::dwarf::dwarf_step_count;
use super::piece::Kind;
use super::position::Position;
use super::sorcerer::sorcerer_step_count;
use super::step::{Step, StepText};
use super::troll::troll_step_count;
use std::ops::Deref;

/// More than the most steps any position has (a sorcerer 20, a troll 16, a
/// dwarf 4).
pub const MAX_STEPS: usize = 64;

/// A list of steps in a fixed array: no allocation in the search.
#[derive(Clone)]
pub struct StepList {
    len: usize,
    steps: [Step; MAX_STEPS],
}

impl StepList {
    /// An empty list.
    #[inline]
    pub fn new() -> StepList {
        StepList {
            len: 0,
            steps: [Step::PASS; MAX_STEPS],
        }
    }

    /// Appends a step.
    #[inline]
    pub fn push(&mut self, s: Step) {
        debug_assert!(self.len < MAX_STEPS);
        if let Some(slot) = self.steps.get_mut(self.len) {
            *slot = s;
            self.len += 1;
        }
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The steps as a mutable slice (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Step] {
        &mut self.steps[..self.len]
    }
}

impl Default for StepList {
    fn default() -> Self {
        StepList::new()
    }
}

impl Deref for StepList {
    type Target = [Step];
    #[inline]
    fn deref(&self) -> &[Step] {
        &self.steps[..self.len]
    }
}

impl std::fmt::Debug for StepList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Position {
    /// Fills `list` with every legal step (cleared first). Empty only when the
    /// game is over; `pass` only when nothing else is legal.
    pub fn legal_steps(&self, list: &mut StepList) {
        list.clear();
        self.each_legal_step(|s| list.push(s));
    }

    /// Calls `f` with every legal step, in [`Self::legal_steps`]' order.
    /// Inlined into its caller with `f`, so a caller that makes each step
    /// (perft) gets a make specialised for each kind of step, with no list
    /// in between.
    #[inline(always)]
    pub(super) fn each_legal_step(&self, mut f: impl FnMut(Step)) {
        if self.is_game_over() {
            return;
        }
        let empty = self.empty();
        let mine = self.seats[self.side.index()];
        // Whether any step was given (else `pass` is the step).
        let mut any = false;
        if let Some(x) = (mine & self.kinds[Kind::Sorcerer.index()]).lowest() {
            any |= self.sorcerer_steps(x, empty, &mut f);
        }
        if let Some(x) = (mine & self.kinds[Kind::Dwarf.index()]).lowest() {
            any |= self.dwarf_steps(x, empty, &mut f);
        }
        if let Some(x) = (mine & self.kinds[Kind::Troll.index()]).lowest() {
            any |= self.troll_steps(x, empty, &mut f);
        }
        if !any {
            f(Step::PASS);
        }
    }

    /// Number of legal steps, counted without generating them (perft's bulk
    /// counting). Always equals `legal_steps(..).len()`.
    #[inline]
    pub fn legal_step_count(&self) -> u32 {
        if self.is_game_over() {
            return 0;
        }
        let empty = self.empty();
        let mine = self.seats[self.side.index()];
        // Each piece's square index, 64 (an empty row of the tables) when
        // the seat has lost it: no branch on what the seat has.
        let at = |k: Kind| (mine & self.kinds[k.index()]).0.trailing_zeros() as usize;
        let pieces = [at(Kind::Sorcerer), at(Kind::Dwarf), at(Kind::Troll)];
        let lev = self.levitatable_for_count(self.lev);
        let trolls = self.kinds[Kind::Troll.index()];
        step_count(pieces, empty, lev, self.rocks, trolls)
    }

    /// Whether `step` is legal here.
    pub fn is_legal(&self, step: Step) -> bool {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list.contains(&step)
    }

    /// The legal step whose text is `text`, or an error saying what is
    /// malformed or why it is not legal here.
    pub fn parse_step(&self, text: &str) -> Result<Step, super::step::StepError> {
        let parsed = StepText::parse(text)?;
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        if let Some(&s) = list.iter().find(|s| s.text() == parsed) {
            return Ok(s);
        }
        Err(super::step::StepError {
            text: text.to_string(),
            column: None,
            reason: self.why_illegal(parsed, &list),
        })
    }

    fn why_illegal(&self, parsed: StepText, legal: &StepList) -> String {
        let side = self.side;
        if let Some(w) = self.winner() {
            return format!("the game is over: {} won", w.name());
        }
        let StepText::Move { from, .. } = parsed else {
            return format!(
                "pass is only legal when no other step is; {} has {} legal steps",
                side.name(),
                legal.len()
            );
        };
        match self.piece_at(from) {
            None => format!("{from} is empty"),
            Some(super::piece::Piece::Rock) => {
                format!("{from} holds a rock, which never moves by itself")
            }
            Some(super::piece::Piece::Team(s, k)) if s != side => {
                format!(
                    "{from} holds {}'s {}, but {} is to move",
                    s.name(),
                    k.name(),
                    side.name()
                )
            }
            Some(super::piece::Piece::Team(_, k)) => {
                let from_here: Vec<String> = legal
                    .iter()
                    .filter(|s| !s.is_pass() && s.from() == from)
                    .map(|s| s.to_string())
                    .collect();
                if from_here.is_empty() {
                    format!("the {} on {from} has no legal step", k.name())
                } else {
                    format!(
                        "not a legal step of the {} on {from}; its legal steps: {}",
                        k.name(),
                        from_here.join(" ")
                    )
                }
            }
        }
    }

    /// Legal steps as a `Vec` (convenient outside hot paths).
    pub fn legal_step_vec(&self) -> Vec<Step> {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list.to_vec()
    }

    /// The legal steps of the piece on `from`.
    pub fn legal_steps_from(&self, from: Square) -> Vec<Step> {
        self.legal_step_vec()
            .into_iter()
            .filter(|s| !s.is_pass() && s.from() == from)
            .collect()
    }
}

/// The number of legal steps of a seat whose sorcerer, dwarf and troll
/// are on the square indices `pieces` (64 for one it has lost), given the
/// empty squares, the rocks it may levitate, the rocks and the trolls: at
/// least 1, `pass`. [`Position::legal_step_count`] counts with it, and so
/// does perft's count of a child from its parent's squares.
#[inline(always)]
pub(super) fn step_count(
    pieces: [usize; 3],
    empty: Bitboard,
    lev: Bitboard,
    rocks: Bitboard,
    trolls: Bitboard,
) -> u32 {
    let [sorcerer, dwarf, troll] = pieces;
    (sorcerer_step_count(sorcerer, empty, lev)
        + dwarf_step_count(dwarf, empty)
        + troll_step_count(troll, empty, rocks, trolls))
    .max(1)
}

#[cfg(test)]
mod tests {
    use crate::Position;

    #[test]
    fn illegal_steps_say_why() {
        let p = Position::start(2).unwrap();
        let why = |t: &str| p.parse_step(t).unwrap_err().to_string();
        assert_eq!(why("e5e6"), "illegal step 'e5e6': e5 is empty");
        assert_eq!(
            why("e1e2"),
            "illegal step 'e1e2': e1 holds a rock, which never moves by itself"
        );
        assert_eq!(
            why("e8e7"),
            "illegal step 'e8e7': e8 holds green's dwarf, but red is to move"
        );
        assert_eq!(
            why("e2e1"),
            "illegal step 'e2e1': not a legal step of the dwarf on e2; its legal steps: e2e3"
        );
        assert_eq!(
            why("e2e3*n"),
            "illegal step 'e2e3*n': not a legal step of the dwarf on e2; its legal steps: e2e3"
        );
        assert!(why("e2e4").starts_with("malformed step 'e2e4' at character 3"));
    }

    #[test]
    fn step_list_holds_the_most_steps_a_position_can_have() {
        // A sorcerer in the open with four levitatable rocks that can all
        // follow it every way: 20 steps; a troll and a dwarf in corners.
        let p = Position::from_spn("gS/gT1gD/2R2/7/2R1rS1R2/rT6/rD1R2/3/1 r 3 10 - - -").unwrap();
        assert_eq!(
            p.legal_steps_from(crate::Square::parse("e5").unwrap())
                .len(),
            20
        );
        let n = p.legal_step_vec().len();
        assert_eq!(n, 24);
        assert!(n <= super::MAX_STEPS);
        assert_eq!(n as u32, p.legal_step_count());
    }
}
