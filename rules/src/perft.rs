//! Perft: the number of leaves of the step tree `depth` steps deep (RULES.md
//! §6). Each legal step is one edge, turn changes happen inside the tree, and
//! a finished game is a leaf only at depth 0.
//!
//! With `BULK` the last ply is counted with [`Position::legal_step_count`]
//! instead of making each step; without it every leaf is made, which checks
//! generation and make together.
//!
//! The hot path (docs/results/speed.md, 2026-11-28): each step is made as
//! it is generated (the generator calls a closure, inlined at every place
//! a step is found, so each kind of step gets its own make), on a copy of
//! the position and without the Zobrist hash, which perft never reads.
//! Copy-make needs no undo; with the rest of this path it measured faster
//! than make/unmake (the search, which reads the hash, keeps make/unmake).
//! At the last two plies most children are not made at all: after a plain
//! step, a levitation or a push the child's count is read from the
//! parent's squares with the moved pieces moved (docs/results/speed.md,
//! 2026-11-28 late night and 2026-11-29): the count then waits on no
//! loads from a child just written.

use super::bitboard::Bitboard;
use super::board::{PADDED, Square};
use super::dwarf::push_span;
use super::movegen::step_count;
use super::piece::Kind;
use super::position::{LEV_NOT_STARTED, LEV_OVER, Position, next_seat};
use super::step::{Step, StepKind};

/// Perft with bulk counting at the last ply.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_with::<true>(pos, depth)
}

/// Perft, counting the last ply in bulk (`BULK = true`) or by making every
/// step (`BULK = false`).
pub fn perft_with<const BULK: bool>(pos: &Position, depth: u32) -> u64 {
    perft_copy::<BULK>(pos, depth)
}

/// Copy-make recursion, the steps made as they are generated and without
/// the hash.
fn perft_copy<const BULK: bool>(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if BULK && depth == 1 {
        return pos.legal_step_count() as u64;
    }
    if BULK && depth == 2 {
        return last_two_plies(pos);
    }
    let mut n = 0;
    each_child(
        pos,
        #[inline(always)]
        |child| n += perft_copy::<BULK>(child, depth - 1),
    );
    n
}

/// Calls `f` with the position after each legal step: a copy of `pos`
/// with the step made on it, without the hash. Inlined with `f` where the
/// generator finds each step, so each kind of step gets its own make.
#[inline(always)]
fn each_child(pos: &Position, mut f: impl FnMut(&Position)) {
    pos.each_legal_step(
        #[inline(always)]
        |s| {
            let mut child = *pos;
            child.make_with::<false>(s);
            f(&child);
        },
    );
}

/// Perft 2 with bulk counting: the generation and each child's count in
/// one function, with no recursion; a child is made only where its step
/// pulls or throws a rock, or passes.
fn last_two_plies(pos: &Position) -> u64 {
    if pos.steps_left > 1 {
        return last_two_plies_with::<false>(pos);
    }
    last_two_plies_with::<true>(pos)
}

/// [`last_two_plies`] in the middle of a turn (`END = false`: a step of
/// it left after this one; with 3 and 4 players most of perft 9's last
/// plies) or at its last step (`END = true`). After a plain step (a
/// sorcerer's or a troll's without a rock, a dwarf's onto an empty
/// square), a levitation or a push nobody is killed, so the seat that
/// moves in the child (the same, or the next at a turn's end) and its
/// count are known from this position's squares with the moved pieces
/// moved, without copying and making the child: the count then waits on
/// no loads from a position just written. In the middle of a turn the
/// mover's piece moves and a plain step ends a levitation run; at the
/// turn's end every rock but those moved this turn may be levitated.
/// Pulls, throws and `pass` are made.
fn last_two_plies_with<const END: bool>(pos: &Position) -> u64 {
    let empty = pos.empty();
    let seat = if END {
        next_seat(pos.side, pos.in_game)
    } else {
        pos.side
    };
    let ours = pos.seats[seat.index()];
    let at = |k: Kind| (ours & pos.kinds[k.index()]).0.trailing_zeros() as usize;
    let pieces = [at(Kind::Sorcerer), at(Kind::Dwarf), at(Kind::Troll)];
    let (rocks, trolls, moved) = (pos.rocks, pos.kinds[Kind::Troll.index()], pos.moved);
    // The rocks the child may levitate after a step that moves none.
    let lev = if END {
        rocks & !moved
    } else {
        // A plain step ends a levitation run; one not started stays so.
        pos.levitatable_for_count(if pos.lev < LEV_NOT_STARTED {
            LEV_OVER
        } else {
            pos.lev
        })
    };
    // The child's pieces: in the middle of a turn the mover's `kind` has
    // gone to `to`; at its end the next seat's have not moved.
    let after = |kind: Kind, to: Square| {
        let mut p = pieces;
        if !END {
            p[kind.index()] = to.index();
        }
        p
    };
    let mut n = 0;
    pos.each_legal_step(
        #[inline(always)]
        |s| {
            let (from, to) = (s.from().bb(), s.to().bb());
            n += u64::from(match s.kind() {
                StepKind::Sorcerer => {
                    let p = after(Kind::Sorcerer, s.to());
                    step_count(p, empty ^ from ^ to, lev, rocks, trolls)
                }
                StepKind::Troll => {
                    let p = after(Kind::Troll, s.to());
                    step_count(p, empty ^ from ^ to, lev, rocks, trolls ^ from ^ to)
                }
                StepKind::Dwarf if empty.has(s.to()) => {
                    let p = after(Kind::Dwarf, s.to());
                    step_count(p, empty ^ from ^ to, lev, rocks, trolls)
                }
                StepKind::Dwarf => {
                    push_count::<END>(s, after(Kind::Dwarf, s.to()), empty, lev, pos)
                }
                StepKind::Levitate => {
                    let r = s.rock().unwrap_or(s.from());
                    let (rock, landed) = (r.bb(), r.neighbour_bb(s.direction()));
                    let rocks = rocks ^ rock ^ landed;
                    let e = empty ^ from ^ to ^ rock ^ landed;
                    // In the middle of a turn the rock moved along stays
                    // the one to levitate; at its end it cools.
                    let lev = if END {
                        rocks & !((moved & !rock) | landed)
                    } else {
                        landed
                    };
                    step_count(after(Kind::Sorcerer, s.to()), e, lev, rocks, trolls)
                }
                _ => {
                    let mut child = *pos;
                    child.make_with::<false>(s);
                    child.legal_step_count()
                }
            });
        },
    );
    n
}

/// The count after the push `s` (a dwarf's step onto an occupied square),
/// from the parent `pos`: the run from the step's `to` up to the first
/// empty square beyond moves one square along, whatever stands in it
/// (any seat's pieces, rocks). `p` holds the child's mover's pieces as
/// they would be after a plain step, `lev` the rocks it may levitate
/// after a step that moves none. Pushed rocks count as moved: at a
/// turn's end they cool; in the middle of a turn they stay free, or
/// cooling, wherever they go.
#[inline(always)]
fn push_count<const END: bool>(
    s: Step,
    p: [usize; 3],
    empty: Bitboard,
    lev: Bitboard,
    pos: &Position,
) -> u32 {
    let (x, d) = (s.from(), s.direction());
    let Some((run, end)) = push_span(x, d, empty) else {
        // Not a legal push (there is always an empty square beyond one).
        let mut child = *pos;
        child.make_with::<false>(s);
        return child.legal_step_count();
    };
    let along = |b: Bitboard| (b & !run) | (b & run).shift(d);
    let piece = |i: usize| along(Bitboard(PADDED.bit[i])).0.trailing_zeros() as usize;
    // The dwarf is on `to` in the middle of a turn; the next seat's may
    // have been pushed.
    let p = [
        piece(p[0]),
        if END { piece(p[1]) } else { p[1] },
        piece(p[2]),
    ];
    let lev = if END { lev & !run } else { along(lev) };
    let e = empty ^ x.bb() ^ end.bb();
    let trolls = pos.kinds[Kind::Troll.index()];
    step_count(p, e, lev, along(pos.rocks), along(trolls))
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
    let n = walk.count(pos, depth);
    (!walk.stopped).then_some(n)
}

/// Perft counted a part at a time, for a host with one thread that reads
/// its input meanwhile (the protocol's `perft` in WebAssembly): the top
/// of the tree is walked with a stack of its own, the subtrees at most
/// [`PerftWalk::SUBTREE`] deep below it are counted whole (in bulk), and
/// [`PerftWalk::run`] stops between two of them when asked to, to go on
/// where it stopped at its next call. Done, its counts are [`divide`]'s.
///
/// ```
/// use splut_rules::{PerftWalk, Position, divide, perft};
///
/// let start = Position::start(3).unwrap();
/// let mut walk = PerftWalk::new(&start, 8);
/// let mut parts = 1;
/// // Told to stop after each subtree, then called again.
/// while !walk.run(&mut || false) {
///     parts += 1;
/// }
/// // A part for each subtree of 5 steps below the top's 3, and the last.
/// assert_eq!(parts, perft(&start, 3) + 1);
/// assert_eq!(walk.divide(), &divide(&start, 8)[..]);
/// ```
#[derive(Clone, Debug)]
pub struct PerftWalk {
    depth: u32,
    /// Each root step (generation order) and its leaves counted so far.
    rows: Vec<(Step, u64)>,
    /// The path from the root to the position whose steps are walked
    /// now: each position, its steps, and the next of them to take.
    stack: Vec<(Position, Vec<Step>, usize)>,
}

impl PerftWalk {
    /// Subtrees this deep or shallower are counted whole: from the start
    /// positions a few thousand leaves, well under a millisecond.
    pub const SUBTREE: u32 = 5;

    /// A perft of `pos` to `depth`, nothing counted yet.
    pub fn new(pos: &Position, depth: u32) -> PerftWalk {
        let steps = if depth > 0 {
            pos.legal_step_vec()
        } else {
            Vec::new()
        };
        PerftWalk {
            depth,
            rows: steps.iter().map(|&s| (s, 0)).collect(),
            stack: vec![(*pos, steps, 0)],
        }
    }

    /// Counts on, asking `go_on` after each subtree counted and stopping
    /// once it answers `false`; returns whether the count is done.
    pub fn run(&mut self, go_on: &mut dyn FnMut() -> bool) -> bool {
        while let Some((pos, steps, next)) = self.stack.last_mut() {
            let Some(&step) = steps.get(*next) else {
                self.stack.pop();
                continue;
            };
            *next += 1;
            let child = pos.after(step);
            // The depth left below the child.
            let left = self.depth - self.stack.len() as u32;
            if left > Self::SUBTREE {
                self.stack.push((child, child.legal_step_vec(), 0));
                continue;
            }
            self.rows[self.stack[0].2 - 1].1 += perft(&child, left);
            if !go_on() {
                return self.is_done();
            }
        }
        true
    }

    /// Whether every leaf is counted.
    pub fn is_done(&self) -> bool {
        self.stack.is_empty()
    }

    /// The leaves below each legal root step counted so far, in
    /// generation order (empty at depth 0).
    pub fn divide(&self) -> &[(Step, u64)] {
        &self.rows
    }

    /// The leaves counted so far (1 at depth 0, [`perft`]'s once done).
    pub fn total(&self) -> u64 {
        if self.depth == 0 {
            1
        } else {
            self.rows.iter().map(|r| r.1).sum()
        }
    }
}

/// Nodes with more than two steps to go between two calls of `go_on`
/// (a tenth of all interior nodes or less: about as often in time as 4,096
/// interior nodes were when each was asked about).
const CHECK_EVERY: u32 = 512;

struct Interruptible<'a> {
    go_on: &'a mut dyn FnMut() -> bool,
    budget: u32,
    stopped: bool,
}

impl Interruptible<'_> {
    fn count(&mut self, pos: &Position, depth: u32) -> u64 {
        // The last two plies as `perft` counts them, whole.
        if depth <= 2 {
            return perft_copy::<true>(pos, depth);
        }
        self.budget -= 1;
        if self.budget == 0 {
            self.budget = CHECK_EVERY;
            self.stopped = self.stopped || !(self.go_on)();
        }
        if self.stopped {
            return 0;
        }
        let mut n = 0;
        each_child(pos, |child| n += self.count(child, depth - 1));
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
    fn a_perft_walked_in_parts_counts_what_divide_counts() {
        let midgame =
            Position::from_spn("R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r 3 10 - - -").unwrap();
        for (pos, depth) in [
            (Position::start(2).unwrap(), 7),
            (Position::start(3).unwrap(), 6),
            (Position::start(4).unwrap(), 8),
            (midgame, 6),
            (Position::start(2).unwrap(), 1),
            (Position::start(2).unwrap(), 0),
        ] {
            for every in [1, 7, u32::MAX] {
                let mut walk = PerftWalk::new(&pos, depth);
                let (mut asked, mut parts) = (0u32, 1u64);
                while !walk.run(&mut || {
                    asked += 1;
                    asked % every != 0
                }) {
                    parts += 1;
                }
                assert!(walk.is_done() && walk.run(&mut || false));
                assert_eq!(walk.divide(), &divide(&pos, depth)[..], "{depth}");
                assert_eq!(walk.total(), perft(&pos, depth), "{depth}");
                // Asked after every subtree: as many parts as subtrees
                // (one a leaf of the top), and the last to end the walk.
                if every == 1 && depth > PerftWalk::SUBTREE {
                    let subtrees = perft(&pos, depth - PerftWalk::SUBTREE);
                    assert_eq!(parts, subtrees + 1, "{depth}");
                }
            }
        }
    }

    /// The counts of the last two plies (a child counted from its parent
    /// after a plain step, a levitation or a push, in the middle of a turn
    /// and at its end) agree with making every leaf, along random games
    /// with 2–4 seats: levitations running and over, cooling rocks,
    /// pushes, pulls, throws, lost pieces and finished games among them.
    /// The pushes counted below are the last two plies' first steps.
    #[test]
    fn last_two_plies_agree_with_making_every_leaf() {
        let mut rng = 11;
        let mut mid_turn = 0;
        let mut pushes = Pushes::default();
        for game in 0..90 {
            let mut p = Position::start(2 + game % 3).unwrap();
            for _ in 0..150 {
                mid_turn += (p.steps_left > 1) as usize;
                assert_eq!(last_two_plies(&p), perft_with::<false>(&p, 2), "{p}");
                let steps = p.legal_step_vec();
                if steps.is_empty() {
                    break;
                }
                steps.iter().for_each(|&s| pushes.tally(&p, s));
                p.play(steps[(crate::splitmix64(&mut rng) % steps.len() as u64) as usize]);
            }
        }
        assert!(mid_turn > 1000, "{mid_turn}");
        let Pushes {
            mid,
            end,
            own,
            next,
            rocks,
            cooling,
            trolls,
        } = pushes;
        // Seen: 3810, 1755; 1440, 439, 1966; 1371, 225.
        assert!(mid > 2000 && end > 800, "{pushes:?}");
        assert!(own > 700 && next > 200 && trolls > 900, "{pushes:?}");
        assert!(rocks > 600 && cooling > 100, "{pushes:?}");
    }

    /// Pushes seen, by what they move: in the middle of a turn or at its
    /// end; a run holding the mover's own sorcerer or troll (in the middle
    /// of a turn, the pieces its count reads), the next seat's pieces (at
    /// the turn's end), a rock, a cooling rock before any levitation (in
    /// the middle of a turn), a troll.
    #[derive(Default, Debug, Clone, Copy)]
    struct Pushes {
        mid: usize,
        end: usize,
        own: usize,
        next: usize,
        rocks: usize,
        cooling: usize,
        trolls: usize,
    }

    impl Pushes {
        fn tally(&mut self, p: &Position, s: Step) {
            if s.kind() != StepKind::Dwarf || p.empty().has(s.to()) {
                return;
            }
            let (run, _) = push_span(s.from(), s.direction(), p.empty()).unwrap();
            let (mid, moves) = (p.steps_left > 1, |b: Bitboard| (run & b).any());
            let next = p.seats[next_seat(p.side, p.in_game).index()];
            self.mid += mid as usize;
            self.end += !mid as usize;
            self.own += (mid && moves(p.seats[p.side.index()])) as usize;
            self.next += (!mid && moves(next)) as usize;
            self.rocks += moves(p.rocks) as usize;
            self.cooling += (mid && p.lev == LEV_NOT_STARTED && moves(p.cooling)) as usize;
            self.trolls += moves(p.kinds[Kind::Troll.index()]) as usize;
        }
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
