//! Perft: the number of leaves of the step tree `depth` steps deep (RULES.md
//! §6). Each legal step is one edge, turn changes happen inside the tree, and
//! a finished game is a leaf only at depth 0.
//!
//! With `BULK` the last ply is counted with [`Position::legal_step_count`]
//! instead of making each step; without it every leaf is made, which checks
//! generation and make together.

use super::movegen::StepList;
use super::position::Position;
use super::step::Step;

/// Perft with bulk counting at the last ply.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_with::<true>(pos, depth)
}

/// Perft, counting the last ply in bulk (`BULK = true`) or by making every
/// step (`BULK = false`).
pub fn perft_with<const BULK: bool>(pos: &Position, depth: u32) -> u64 {
    let mut pos = *pos;
    perft_in_place::<BULK>(&mut pos, depth)
}

/// Make/unmake recursion (measured faster than copy-make).
fn perft_in_place<const BULK: bool>(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if BULK && depth == 1 {
        return pos.legal_step_count() as u64;
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    let mut n = 0;
    for &s in list.iter() {
        let undo = pos.make(s);
        n += perft_in_place::<BULK>(pos, depth - 1);
        pos.unmake(s, &undo);
    }
    n
}

/// The count below each legal root step, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Step, u64)> {
    divide_with::<true>(pos, depth)
}

/// [`divide`], with or without bulk counting.
pub fn divide_with<const BULK: bool>(pos: &Position, depth: u32) -> Vec<(Step, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_step_vec()
        .into_iter()
        .map(|s| (s, perft_with::<BULK>(&pos.after(s), depth - 1)))
        .collect()
}

/// [`perft`] that can be interrupted: `go_on` is asked every few thousand
/// nodes and the count given up (`None`) once it answers `false`. Perft at
/// depth 12 can run for hours; a protocol engine must still obey `stop`.
pub fn perft_interruptible(
    pos: &Position,
    depth: u32,
    go_on: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    let mut walk = Interruptible {
        go_on,
        budget: CHECK_EVERY,
        stopped: false,
    };
    let mut pos = *pos;
    let n = walk.count(&mut pos, depth);
    (!walk.stopped).then_some(n)
}

/// Interior nodes between two calls of `go_on`.
const CHECK_EVERY: u32 = 4096;

struct Interruptible<'a> {
    go_on: &'a mut dyn FnMut() -> bool,
    budget: u32,
    stopped: bool,
}

impl Interruptible<'_> {
    fn count(&mut self, pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return pos.legal_step_count() as u64;
        }
        self.budget -= 1;
        if self.budget == 0 {
            self.budget = CHECK_EVERY;
            self.stopped = self.stopped || !(self.go_on)();
        }
        if self.stopped {
            return 0;
        }
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let mut n = 0;
        for &s in list.iter() {
            let undo = pos.make(s);
            n += self.count(pos, depth - 1);
            pos.unmake(s, &undo);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bulk_and_full_perft_agree_with_the_reference_at_low_depth() {
        let want: [[u64; 6]; 3] = [
            [3, 9, 79, 691, 5597, 53945],
            [3, 9, 73, 219, 1863, 14767],
            [3, 9, 70, 210, 1653, 12358],
        ];
        for (i, counts) in want.iter().enumerate() {
            let p = Position::start(i + 2).unwrap();
            for (d, &n) in counts.iter().enumerate() {
                let depth = d as u32 + 1;
                assert_eq!(perft(&p, depth), n, "{} players depth {depth}", i + 2);
                if depth <= 5 {
                    assert_eq!(perft_with::<false>(&p, depth), n);
                }
            }
        }
    }

    #[test]
    fn interruptible_perft_counts_the_same_or_gives_up() {
        let p = Position::start(3).unwrap();
        assert_eq!(perft_interruptible(&p, 6, &mut || true), Some(14767));
        let mut asked = 0;
        let got = perft_interruptible(&Position::start(2).unwrap(), 8, &mut || {
            asked += 1;
            asked < 3
        });
        assert_eq!(got, None);
        assert_eq!(asked, 3, "asked until it said no, then never again");
    }

    #[test]
    fn divide_sums_to_perft() {
        let p = Position::start(4).unwrap();
        let d = divide(&p, 4);
        assert_eq!(d.len(), 3);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 210);
        assert_eq!(perft(&p, 0), 1);
        assert!(divide(&p, 0).is_empty());
    }
}
