//! Step ordering: the transposition-table step first, then throws that kill
//! an opponent's sorcerer, then killer steps, then the rest by history.
//! Throws that would kill one's own side go last.

use splut_rules::{Seat, Step, StepKind, StepList};

/// Deepest ply the search tables cover.
pub const MAX_PLY: usize = 128;

const TT_STEP: i32 = 1 << 30;
const KILLING_THROW: i32 = 1 << 29;
const KILLER: i32 = 1 << 28;
const SELF_KILL: i32 = -(1 << 29);
/// History scores saturate here, far below the killer band.
const HISTORY_MAX: i32 = 1 << 20;

/// Steps that caused cut-offs at each ply (two per ply).
pub struct Killers([[Option<Step>; 2]; MAX_PLY]);

impl Killers {
    /// No killers.
    pub fn new() -> Killers {
        Killers([[None; 2]; MAX_PLY])
    }

    /// Forgets every killer.
    pub fn clear(&mut self) {
        self.0 = [[None; 2]; MAX_PLY];
    }

    /// Records a quiet step that cut off at `ply`.
    pub fn add(&mut self, ply: usize, step: Step) {
        if let Some(k) = self.0.get_mut(ply)
            && k[0] != Some(step)
        {
            k[1] = k[0];
            k[0] = Some(step);
        }
    }

    fn rank(&self, ply: usize, step: Step) -> Option<i32> {
        let k = self.0.get(ply)?;
        if k[0] == Some(step) {
            Some(KILLER + 1)
        } else if k[1] == Some(step) {
            Some(KILLER)
        } else {
            None
        }
    }
}

impl Default for Killers {
    fn default() -> Self {
        Killers::new()
    }
}

/// History heuristic: how often a step (by seat, square, direction and
/// kind) caused a cut-off, weighted by depth.
pub struct History(Vec<i32>);

impl History {
    /// An empty table.
    pub fn new() -> History {
        History(vec![0; 4 * 41 * 4 * 8])
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        self.0.fill(0);
    }

    fn index(seat: Seat, step: Step) -> usize {
        ((seat.index() * 41 + step.from().index()) * 4 + step.direction().index()) * 8
            + step.kind() as usize
    }

    /// Rewards a step that cut off at this depth.
    pub fn reward(&mut self, seat: Seat, step: Step, depth: i32) {
        let h = &mut self.0[Self::index(seat, step)];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

    /// Punishes a step tried before the one that cut off.
    pub fn punish(&mut self, seat: Seat, step: Step, depth: i32) {
        let h = &mut self.0[Self::index(seat, step)];
        *h = (*h - depth * depth).max(-HISTORY_MAX);
    }

    /// Halves every entry (between searches, so old habits fade).
    pub fn age(&mut self) {
        for h in &mut self.0 {
            *h /= 2;
        }
    }

    fn get(&self, seat: Seat, step: Step) -> i32 {
        self.0[Self::index(seat, step)]
    }
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

/// What ordering needs to know about each step's throw: its victim, if any,
/// and whether that victim is on the mover's side.
pub enum ThrowClass {
    /// Not a throw, or a throw that hits no sorcerer.
    Quiet,
    /// Hits a sorcerer of the other side.
    Kills,
    /// Hits the mover's own sorcerer or an ally's.
    KillsOwnSide,
}

/// Sorts `list` best first. `classify` tells killing throws apart.
pub fn order(
    list: &mut StepList,
    seat: Seat,
    tt_step: Option<Step>,
    killers: &Killers,
    history: &History,
    ply: usize,
    classify: impl Fn(Step) -> ThrowClass,
) {
    let steps = list.as_mut_slice();
    let mut keyed: [(i32, Step); splut_rules::MAX_STEPS] =
        [(0, Step::PASS); splut_rules::MAX_STEPS];
    for (k, &s) in keyed.iter_mut().zip(steps.iter()) {
        let score = if Some(s) == tt_step {
            TT_STEP
        } else if s.kind() == StepKind::Throw {
            match classify(s) {
                ThrowClass::Kills => KILLING_THROW,
                ThrowClass::KillsOwnSide => SELF_KILL,
                ThrowClass::Quiet => history.get(seat, s) - HISTORY_MAX / 2,
            }
        } else if let Some(k) = killers.rank(ply, s) {
            k
        } else {
            history.get(seat, s)
        };
        *k = (score, s);
    }
    let keyed = &mut keyed[..steps.len()];
    // Stable: equal scores keep generation order, so search is reproducible.
    keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
    for (s, k) in steps.iter_mut().zip(keyed.iter()) {
        *s = k.1;
    }
}
