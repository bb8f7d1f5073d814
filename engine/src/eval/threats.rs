//! Throw threats: which sorcerers a troll can hit within a number of steps.
//!
//! A troll kills by stepping onto a rock and throwing it along a line that
//! reaches a sorcerer over empty squares and dwarves only. So seat `a`
//! threatens seat `v` within `k` steps when a rock lined up with `v`'s
//! sorcerer is adjacent to a square `a`'s troll can walk to in `k − 1` steps
//! over empty squares. The troll may also pull a rock into line first
//! ([`Throws`]): it steps away from a rock right behind it, dragging the
//! rock onto the square it leaves (one step per pull, at most two pulls),
//! then steps back onto the rock and throws it, when the rock now stands on
//! a line of fire (a line from the victim's sorcerer). The rest of the
//! board is assumed to stay still (no dwarf pushes or other pieces moving
//! on the way); the search sees those.
//!
//! A kill may also begin with a levitation ([`levitation_steps_to_kill`]):
//! the attacker's sorcerer floats a rock one or two squares into line with
//! the victim's sorcerer, then its troll steps onto the rock and throws it.
//! The rules allow throwing a rock levitated earlier in the same turn.

use splut_rules::{Bitboard, Direction, Kind, NUM_SQUARES, Position, Seat, Square};
use std::sync::LazyLock;

/// Squares the troll on `from` can stand on after at most `steps` plain
/// steps through `empty`, `from` included.
#[inline]
fn walk(from: Bitboard, empty: Bitboard, steps: u8) -> Bitboard {
    let mut reach = from;
    for _ in 0..steps {
        reach |= reach.neighbours() & empty;
    }
    reach
}

/// The lines of fire onto one sorcerer, going out from it along each
/// direction to the first stopper (a rock, a sorcerer, a troll other than
/// the attacker's: a thrown rock flies over empty squares and dwarves).
struct LinesOfFire {
    /// The stoppers that are rocks: thrown by a troll standing on them,
    /// they hit the sorcerer.
    rocks: Bitboard,
    /// The squares before the stoppers: a rock brought onto one of them
    /// and thrown back along the line hits the sorcerer.
    open: Bitboard,
}

/// The [`LinesOfFire`] onto `victim_sorcerer` for `attacker_troll`, which
/// is no stopper itself (it leaves its square to reach the rock).
#[inline]
fn lines_of_fire(
    pos: &Position,
    attacker_troll: Bitboard,
    victim_sorcerer: Bitboard,
) -> LinesOfFire {
    match victim_sorcerer.lowest() {
        Some(s) => lines_from(pos, attacker_troll, s).1,
        None => LinesOfFire {
            rocks: Bitboard::EMPTY,
            open: Bitboard::EMPTY,
        },
    }
}

/// The squares on a line with `s` ([`lines_through`]) and the
/// [`LinesOfFire`] onto a sorcerer on `s` for `attacker_troll`. Without a
/// branch: along the rays going up the square indices (north, east) the
/// first stopper is the lowest bit of the ray's stoppers, going down
/// (south, west) the highest, and the open squares are those of the ray on
/// this side of it.
#[inline]
fn lines_from(pos: &Position, attacker_troll: Bitboard, s: Square) -> (Bitboard, LinesOfFire) {
    let stoppers =
        (pos.rocks() | pos.kind_bb(Kind::Sorcerer) | (pos.kind_bb(Kind::Troll) & !attacker_troll))
            .0;
    let (mut near, mut first, mut open) = (0u64, 0u64, 0u64);
    for d in [Direction::North, Direction::East] {
        let ray = s.ray(d).0;
        let x = ray & stoppers;
        // The lowest stopper; 0 when there is none, and then all of the
        // ray is open (0 − 1 is every bit).
        let low = x & x.wrapping_neg();
        near |= ray;
        first |= low;
        open |= ray & low.wrapping_sub(1);
    }
    for d in [Direction::South, Direction::West] {
        let ray = s.ray(d).0;
        let x = ray & stoppers;
        // Every bit up to the highest stopper's, none without a stopper.
        let upto = if x == 0 {
            0
        } else {
            u64::MAX >> x.leading_zeros()
        };
        near |= ray;
        first |= upto & !(upto >> 1);
        open |= ray & !upto;
    }
    (
        Bitboard(near),
        LinesOfFire {
            rocks: Bitboard(first) & pos.rocks(),
            open: Bitboard(open),
        },
    )
}

/// [`lines_of_fire`] as first written, one direction at a time: the test
/// of the branch-free [`lines_from`].
#[cfg(test)]
fn lines_of_fire_by_walking(
    pos: &Position,
    attacker_troll: Bitboard,
    victim_sorcerer: Bitboard,
) -> LinesOfFire {
    let mut lines = LinesOfFire {
        rocks: Bitboard::EMPTY,
        open: Bitboard::EMPTY,
    };
    let Some(s) = victim_sorcerer.lowest() else {
        return lines;
    };
    let stoppers =
        pos.rocks() | pos.kind_bb(Kind::Sorcerer) | (pos.kind_bb(Kind::Troll) & !attacker_troll);
    for d in Direction::ALL {
        let ray = s.ray(d);
        match (ray & stoppers).first_towards(d) {
            Some(first) => {
                lines.rocks |= first.bb() & pos.rocks();
                lines.open |= ray & !first.bb() & !first.ray(d);
            }
            None => lines.open |= ray,
        }
    }
    lines
}

/// Most steps a threat looks at (a turn has 3).
const MAX_THREAT_STEPS: u8 = 8;

/// Most steps [`Reaches`] works out ahead: a throw with a turn's 3 steps
/// ([`Throws`]) and [`crate::eval::DANGER_EXTRA_STEPS`] more, and the
/// evaluation's farthest troll-to-rock distance.
pub const REACH_STEPS: usize = 5;

/// Where each seat's troll can stand after at most 0, 1, … plain steps
/// over empty squares, the rest of the board standing still: worked out
/// once for the evaluation's terms that walk the trolls (their throws a
/// turn ahead and farther, their ways to a rock), instead of once for each,
/// and for the four seats side by side (the same operations on four
/// numbers, which the compiler does two or four at a time in vector
/// registers).
pub struct Reaches {
    /// Each seat's troll (0 without one).
    troll: [u64; 4],
    /// The squares each troll may walk over (empty ones and its own).
    free: [u64; 4],
    /// `within[k][seat]`: where the seat's troll stands after at most `k`
    /// steps.
    within: [[u64; 4]; REACH_STEPS + 1],
}

/// Every square moved one step north, east, south and west, each as a
/// shift of the square index and a mask of the squares it lands on
/// ([`Bitboard::shift`]: a step that would leave the board lands on no
/// square of its mask); `[ALL shifted north, east, south, west]`.
#[inline]
fn neighbour_masks() -> [u64; 4] {
    Direction::ALL.map(|d| Bitboard::ALL.shift(d).0)
}

/// [`Bitboard::neighbours`] as shifts and masks ([`neighbour_masks`]).
#[inline(always)]
fn neighbours_of(x: u64, [n, e, s, w]: [u64; 4]) -> u64 {
    (x << 4 & n) | (x << 5 & e) | (x >> 4 & s) | (x >> 5 & w)
}

impl Reaches {
    /// Every seat's troll's reach (empty everywhere for a seat without a
    /// troll).
    #[inline]
    pub fn new(pos: &Position) -> Reaches {
        let trolls = pos.kind_bb(Kind::Troll);
        let empty = pos.empty().0;
        let troll = Seat::ALL.map(|s| (pos.seat_bb(s) & trolls).0);
        let free = troll.map(|t| empty | t);
        let masks = neighbour_masks();
        let mut within = [troll; REACH_STEPS + 1];
        let mut reach = troll;
        for w in within.iter_mut().skip(1) {
            for i in 0..4 {
                reach[i] |= neighbours_of(reach[i], masks) & free[i];
            }
            *w = reach;
        }
        Reaches {
            troll,
            free,
            within,
        }
    }

    /// Where `seat`'s troll stands after at most `k` steps.
    #[inline]
    pub fn within(&self, seat: Seat, k: u8) -> Bitboard {
        match self.within.get(usize::from(k)) {
            Some(r) => Bitboard(r[seat.index()]),
            None => walk(
                Bitboard(self.within[REACH_STEPS][seat.index()]),
                Bitboard(self.free[seat.index()]),
                k - REACH_STEPS as u8,
            ),
        }
    }

    /// The fewest steps (0..=`max`) after which `seat`'s troll stands on
    /// one of `squares`; `None` beyond or without a troll.
    #[inline]
    pub fn steps_to(&self, seat: Seat, squares: Bitboard, max: u8) -> Option<u8> {
        let i = seat.index();
        if self.troll[i] == 0 {
            return None;
        }
        let known = usize::from(max).min(REACH_STEPS);
        let found = self.within[..=known]
            .iter()
            .position(|r| r[i] & squares.0 != 0)
            .map(|k| k as u8);
        // Beyond the steps worked out (never in the evaluation), walk on.
        if found.is_some() || max as usize <= REACH_STEPS {
            return found;
        }
        (REACH_STEPS as u8 + 1..=max).find(|&k| (self.within(seat, k) & squares).any())
    }

    /// `seat`'s throws within `max_steps` steps (`Throws::new(pos, seat,
    /// max_steps, pulls)`).
    #[inline]
    pub fn throws(&self, pos: &Position, seat: Seat, max_steps: u8, pulls: bool) -> Throws {
        let (troll, free) = self.troll_and_free(seat);
        if troll.is_empty() || max_steps == 0 {
            return Throws::none(pos, troll, free);
        }
        let last = max_steps.min(MAX_THREAT_STEPS) - 1;
        Throws::with_reach(
            pos,
            troll,
            free,
            [
                self.within(seat, last),
                self.within(seat, last.saturating_sub(1)),
                self.within(seat, last.saturating_sub(2)),
            ],
            last,
            pulls,
        )
    }

    /// `self.throws(pos, seat, max_steps, _).farther(extra)`
    /// ([`Throws::farther`]) from the walks done.
    #[inline]
    pub fn farther_throws(&self, pos: &Position, seat: Seat, max_steps: u8, extra: u8) -> Throws {
        let (troll, free) = self.troll_and_free(seat);
        if troll.is_empty() || max_steps == 0 {
            return Throws::none(pos, troll, free);
        }
        let last = max_steps.min(MAX_THREAT_STEPS) - 1;
        Throws::plain(pos, troll, free, self.within(seat, last + extra))
    }

    #[inline]
    fn troll_and_free(&self, seat: Seat) -> (Bitboard, Bitboard) {
        (
            Bitboard(self.troll[seat.index()]),
            Bitboard(self.free[seat.index()]),
        )
    }
}

/// Where one seat's troll can throw from within a number of steps, for
/// any victim: [`Throws::hits_target`] then only asks the victim's lines of fire.
/// The rest of the board is assumed to stay still.
pub struct Throws {
    troll: Bitboard,
    /// Squares next to where the troll can stand with a step to spare: a
    /// rock here, lined up with a sorcerer, is thrown at it.
    next_to: Bitboard,
    /// Squares onto which the troll can pull a rock (one step per pull,
    /// straight ahead, the rock dragged onto the square the troll leaves)
    /// with a step to spare: on a line of fire, it is thrown back along it.
    landings: Bitboard,
    /// The rocks of `next_to` and the `landings`: a victim whose lines
    /// miss them all is not hit.
    aim: Bitboard,
    /// Where the troll can stand with a step to spare.
    reach: Bitboard,
    /// The squares the troll may walk over (empty ones and its own).
    free: Bitboard,
    /// The board's rocks.
    rocks: Bitboard,
}

impl Throws {
    /// `attacker`'s throws within `max_steps` steps (at most
    /// `MAX_THREAT_STEPS`, 8); `pulls` counts the throws of pulled rocks too.
    pub fn new(pos: &Position, attacker: Seat, max_steps: u8, pulls: bool) -> Throws {
        let troll = pos.seat_bb(attacker) & pos.kind_bb(Kind::Troll);
        let free = pos.empty() | troll;
        if troll.is_empty() || max_steps == 0 {
            return Throws::none(pos, troll, free);
        }
        let last = max_steps.min(MAX_THREAT_STEPS) - 1;
        // Where the troll stands after at most `last`, `last` − 1 and
        // `last` − 2 steps (the two pulls' starts need one and two steps to
        // spare).
        let (mut reach, mut spare1, mut spare2) = (troll, troll, troll);
        for _ in 0..last {
            spare2 = spare1;
            spare1 = reach;
            reach = walk(reach, free, 1);
        }
        Throws::with_reach(pos, troll, free, [reach, spare1, spare2], last, pulls)
    }

    /// No throws (no troll, or no step).
    #[inline]
    fn none(pos: &Position, troll: Bitboard, free: Bitboard) -> Throws {
        Throws {
            troll,
            next_to: Bitboard::EMPTY,
            landings: Bitboard::EMPTY,
            aim: Bitboard::EMPTY,
            reach: Bitboard::EMPTY,
            free,
            rocks: pos.rocks(),
        }
    }

    /// The plain throws from anywhere in `reach`.
    #[inline]
    fn plain(pos: &Position, troll: Bitboard, free: Bitboard, reach: Bitboard) -> Throws {
        let next_to = reach.neighbours();
        Throws {
            troll,
            next_to,
            landings: Bitboard::EMPTY,
            aim: next_to & pos.rocks(),
            reach,
            free,
            rocks: pos.rocks(),
        }
    }

    /// The throws of a troll that stands in `reach` after `last` steps, in
    /// `spare1` and `spare2` after one and two fewer (`last` ≥ 1, 2).
    #[inline(always)]
    fn with_reach(
        pos: &Position,
        troll: Bitboard,
        free: Bitboard,
        [reach, spare1, spare2]: [Bitboard; 3],
        last: u8,
        pulls: bool,
    ) -> Throws {
        let mut throws = Throws::plain(pos, troll, free, reach);
        // A pull starts next to a rock: most trolls stand near none.
        let rocks = pos.rocks();
        if !pulls || last == 0 || (spare1 & rocks.neighbours()).is_empty() {
            return throws;
        }
        for d in Direction::ALL {
            let back = d.opposite();
            // Squares with a rock right behind (against d) and the troll's
            // way ahead free for one pull, then for two.
            let ahead1 = free.shift(back);
            let way1 = rocks.shift(d) & free & ahead1;
            // One pull leaves the rock on the start square.
            throws.landings |= way1 & spare1;
            if last >= 2 {
                // Two pulls leave it one square ahead of the start.
                let way2 = way1 & ahead1.shift(back);
                throws.landings |= (way2 & spare2).shift(d);
            }
        }
        throws.aim |= throws.landings;
        throws
    }

    /// The squares a victim's lines must cross to be hit
    /// ([`Throws::hits_target`] is false for a target whose
    /// [`Target::near`] misses them all).
    #[inline]
    pub fn aim(&self) -> Bitboard {
        self.aim
    }

    /// Whether one of these throws hits the sorcerer of `target`.
    #[inline]
    pub fn hits_target(&self, pos: &Position, target: &Target) -> bool {
        // Most throws are nowhere near the victim's lines: a mask spares
        // the walk along them.
        if (self.aim & target.near).is_empty() {
            return false;
        }
        // The target's lines stop at every troll; they differ from this
        // troll's view only when it stands on one of them.
        let own;
        let lines = if (self.troll & target.near).is_empty() {
            &target.fire
        } else {
            own = lines_of_fire(pos, self.troll, target.sorcerer);
            &own
        };
        ((self.next_to & lines.rocks) | (self.landings & lines.open)).any()
    }

    /// The plain throws (no pulls) of the same troll with `extra` more
    /// steps: where it could throw from a turn later, the rest of the
    /// board standing still.
    pub fn farther(&self, extra: u8) -> Throws {
        let reach = walk(self.reach, self.free, extra);
        let next_to = reach.neighbours();
        Throws {
            troll: self.troll,
            next_to,
            landings: Bitboard::EMPTY,
            aim: next_to & self.rocks,
            reach,
            free: self.free,
            rocks: self.rocks,
        }
    }
}

/// One seat's sorcerer as a target, worked out once per position for
/// every attacker ([`Throws::hits_target`]) and for [`exposed_lines`].
pub struct Target {
    sorcerer: Bitboard,
    /// The squares on a line with the sorcerer ([`lines_through`]; empty
    /// without a sorcerer).
    pub near: Bitboard,
    /// The lines of fire onto the sorcerer, every troll a stopper.
    fire: LinesOfFire,
}

impl Target {
    /// `victim`'s sorcerer as a target.
    #[inline]
    pub fn new(pos: &Position, victim: Seat) -> Target {
        let sorcerer = pos.seat_bb(victim) & pos.kind_bb(Kind::Sorcerer);
        let (near, fire) = match sorcerer.lowest() {
            Some(s) => lines_from(pos, Bitboard::EMPTY, s),
            None => (
                Bitboard::EMPTY,
                LinesOfFire {
                    rocks: Bitboard::EMPTY,
                    open: Bitboard::EMPTY,
                },
            ),
        };
        Target {
            sorcerer,
            near,
            fire,
        }
    }

    /// The rocks lined up with the sorcerer ([`exposed_lines`]).
    #[inline]
    pub fn exposed_lines(&self) -> u32 {
        self.fire.rocks.count()
    }
}

/// The fewest steps (1..=`max_steps`) in which `attacker`'s troll can throw a
/// rock onto `victim`'s sorcerer ([`Throws`], pulls included), if it can
/// within `max_steps`.
pub fn steps_to_kill(pos: &Position, attacker: Seat, victim: Seat, max_steps: u8) -> Option<u8> {
    steps_to_kill_with(pos, attacker, victim, max_steps, true)
}

/// [`steps_to_kill`], with or without the throws of pulled rocks.
pub fn steps_to_kill_with(
    pos: &Position,
    attacker: Seat,
    victim: Seat,
    max_steps: u8,
    pulls: bool,
) -> Option<u8> {
    let target = Target::new(pos, victim);
    let hits = |k| Throws::new(pos, attacker, k, pulls).hits_target(pos, &target);
    // Throws only grow with the steps: most pairs miss at the most steps
    // already, and then no fewer need trying.
    if attacker == victim || !hits(max_steps) {
        return None;
    }
    (1..=max_steps).find(|&k| hits(k))
}

/// The squares in `aim` onto which `attacker`'s sorcerer might float one
/// of the rocks `floatable` within `max_steps`, leaving its troll enough
/// steps to step onto the rock there: a quick, generous superset of the
/// landing squares [`levitation_steps_to_kill`] finds. `aim` is where a
/// rock would be of use (the lines through the victims' sorcerers,
/// [`lines_through`]). Empty in most positions, after a few bitboard
/// operations.
pub fn levitation_landings(
    pos: &Position,
    attacker: Seat,
    max_steps: u8,
    floatable: Bitboard,
    aim: Bitboard,
) -> Bitboard {
    let rocks = floatable & pos.rocks();
    let troll = pos.seat_bb(attacker) & pos.kind_bb(Kind::Troll);
    let mine = pos.seat_bb(attacker) & pos.kind_bb(Kind::Sorcerer);
    let (Some(t), Some(s)) = (troll.lowest(), mine.lowest()) else {
        return Bitboard::EMPTY;
    };
    if max_steps < 2 || rocks.is_empty() {
        return Bitboard::EMPTY;
    }
    // Table lookups first, ignoring what stands in the way: the troll steps
    // onto the landing square after at least one levitating step, so it
    // lies within `max_steps - 1` of the troll; a rock floats one square
    // per step, two at most (one if the troll must then walk). A rock may
    // land where a rock or the sorcerer was.
    let balls = &*BALLS;
    let empty = pos.empty();
    let free = empty | rocks | mine;
    let zone = balls[usize::from(max_steps) - 1][t.index()] & aim & free;
    let float = if max_steps >= 3 { 2 } else { 1 };
    let mut near_rocks = Bitboard::EMPTY;
    for r in rocks {
        if (balls[float][r.index()] & zone).any() {
            near_rocks |= r.bb();
        }
    }
    if near_rocks.is_empty() {
        return Bitboard::EMPTY;
    }
    // After two levitating steps the troll has one step left: it must
    // already stand next to the landing square.
    let next_to_troll = if max_steps >= 3 {
        t.adjacent() & zone
    } else {
        Bitboard::EMPTY
    };
    let mut landings = Bitboard::EMPTY;
    for d1 in Direction::ALL {
        let s1 = s.neighbour_bb(d1);
        let f1 = near_rocks.shift(d1) & empty;
        if (s1 & empty).is_empty() || f1.is_empty() {
            continue;
        }
        landings |= f1 & zone;
        if next_to_troll.is_empty() {
            continue;
        }
        let free1 = free & !s1;
        for d2 in Direction::ALL {
            if d2 != d1.opposite() && (s1.shift(d2) & free1).any() {
                landings |= f1.shift(d2) & free1 & next_to_troll;
            }
        }
    }
    landings
}

/// `BALLS[r][sq]`: the squares at most `r` steps from `sq` (0..=3) over an
/// empty board. The board is a diamond, so any two squares are joined by a
/// shortest path of the grid that stays on it: walking distance on an
/// empty board is the Manhattan distance.
static BALLS: LazyLock<[[Bitboard; NUM_SQUARES]; 4]> = LazyLock::new(|| {
    let mut balls = [[Bitboard::EMPTY; NUM_SQUARES]; 4];
    for sq in Square::all() {
        let mut ball = sq.bb();
        for ring in &mut balls {
            ring[sq.index()] = ball;
            ball |= ball.neighbours();
        }
    }
    balls
});

/// Every square on a line with `sq` (its rank and file), whatever stands
/// between.
#[inline]
pub fn lines_through(sq: Square) -> Bitboard {
    LINES_THROUGH[sq.index()]
}

/// [`lines_through`] of every square.
static LINES_THROUGH: LazyLock<[Bitboard; NUM_SQUARES]> = LazyLock::new(|| {
    let mut lines = [Bitboard::EMPTY; NUM_SQUARES];
    for sq in Square::all() {
        lines[sq.index()] = Direction::ALL
            .into_iter()
            .fold(Bitboard::EMPTY, |l, d| l | sq.ray(d));
    }
    lines
});

/// The fewest steps (2..=`max_steps`) in which `attacker` can kill
/// `victim` by first levitating one of the rocks `floatable` (the rocks its
/// sorcerer may levitate this turn: not cooling, RULES.md §3) into line
/// with `victim`'s sorcerer, once or twice along any directions, and then
/// having its troll walk next to the rock, step onto it and throw it.
///
/// A levitating step moves the sorcerer and the rock one square each in the
/// same direction, both onto squares empty before the step. The troll walks
/// over the board as the levitation leaves it. Orders other than
/// levitation first (the troll walking out of the way first) are not
/// looked at; neither are throws that need no levitation
/// ([`steps_to_kill`] finds those).
pub fn levitation_steps_to_kill(
    pos: &Position,
    attacker: Seat,
    victim: Seat,
    max_steps: u8,
    floatable: Bitboard,
) -> Option<u8> {
    let aim = match pos.piece_square(victim, Kind::Sorcerer) {
        Some(v) => lines_through(v),
        None => Bitboard::EMPTY,
    };
    let landings = levitation_landings(pos, attacker, max_steps, floatable, aim);
    levitation_steps_to_kill_onto(pos, attacker, victim, max_steps, floatable, landings)
}

/// The squares on `v`'s lines up to (not including) the first of `fixed`
/// in each direction.
fn open_lines(v: Square, fixed: Bitboard) -> Bitboard {
    let mut open = Bitboard::EMPTY;
    for d in Direction::ALL {
        let ray = v.ray(d);
        open |= match (ray & fixed).first_towards(d) {
            Some(stop) => ray & !stop.bb() & !stop.ray(d),
            None => ray,
        };
    }
    open
}

/// [`levitation_steps_to_kill`] given the attacker's
/// [`levitation_landings`] (the same for every victim, so computed once).
pub fn levitation_steps_to_kill_onto(
    pos: &Position,
    attacker: Seat,
    victim: Seat,
    max_steps: u8,
    floatable: Bitboard,
    landings: Bitboard,
) -> Option<u8> {
    // A levitation and a throw take two steps at least.
    if max_steps < 2 || attacker == victim {
        return None;
    }
    let rocks = floatable & pos.rocks();
    let troll = pos.seat_bb(attacker) & pos.kind_bb(Kind::Troll);
    let mine = pos.seat_bb(attacker) & pos.kind_bb(Kind::Sorcerer);
    let target = pos.seat_bb(victim) & pos.kind_bb(Kind::Sorcerer);
    let v = target.lowest()?;
    if rocks.is_empty() || troll.is_empty() || mine.is_empty() {
        return None;
    }
    // First the landing squares worth trying, cheaply: in line with `v`
    // and not behind anything a levitation leaves in place; then only the
    // rocks within two squares of one.
    let other_stoppers = pos.kind_bb(Kind::Sorcerer) | (pos.kind_bb(Kind::Troll) & !troll);
    // What no levitation moves (all but the attacker's sorcerer, its troll
    // and the rocks it may float) stops a throw whatever happens: a landing
    // square beyond such a stopper, seen from `v`, is of no use.
    let fixed = (other_stoppers & !mine) | (pos.rocks() & !rocks);
    let targets = landings & open_lines(v, fixed);
    if targets.is_empty() {
        return None;
    }
    let balls = &*BALLS;
    let float = if max_steps >= 3 { 2 } else { 1 };
    let rocks = rocks
        .filter(|r| (balls[float][r.index()] & targets).any())
        .collect::<Bitboard>();
    if rocks.is_empty() {
        return None;
    }
    let empty = pos.empty();
    // After the rock on `from` was floated to `to` and the sorcerer to
    // `sorcerer`, `used` steps spent: the steps in all if the troll can
    // then throw it onto `v` within `max_steps`.
    let throws = |from: Bitboard, to: Bitboard, sorcerer: Bitboard, used: u8| {
        let f = to.lowest()?;
        if !targets.has(f) {
            return None;
        }
        let stoppers = (pos.rocks() ^ from ^ to) | (other_stoppers ^ mine ^ sorcerer);
        let lined_up = Direction::ALL
            .into_iter()
            .any(|d| v.ray(d).has(f) && (v.ray(d) & stoppers).first_towards(d) == Some(f));
        if !lined_up {
            return None;
        }
        let walkable = (empty | from | mine) & !to & !sorcerer;
        let mut reach = troll;
        for k in used + 1..=max_steps {
            if (reach.neighbours() & to).any() {
                return Some(k);
            }
            reach = walk(reach, walkable, 1);
        }
        None
    };
    let mut best = None;
    for r in rocks {
        let from = r.bb();
        for d1 in Direction::ALL {
            let (s1, f1) = (mine.shift(d1), from.shift(d1));
            if (s1 & empty).is_empty() || (f1 & empty).is_empty() {
                continue;
            }
            if let Some(k) = throws(from, f1, s1, 1) {
                if k == 2 {
                    return Some(2);
                }
                best = Some(k);
            }
            if max_steps < 3 || (f1.neighbours() & targets).is_empty() {
                continue;
            }
            // A second levitating step of the same rock, over the board
            // the first one left.
            let empty1 = (empty | mine | from) & !s1 & !f1;
            for d2 in Direction::ALL {
                if d2 == d1.opposite() {
                    continue;
                }
                let (s2, f2) = (s1.shift(d2), f1.shift(d2));
                if (s2 & empty1).any() && (f2 & empty1).any() {
                    best = best.or(throws(from, f2, s2, 2));
                }
            }
        }
    }
    best
}

/// Rocks lined up with `seat`'s sorcerer over empty squares and dwarves,
/// whoever might throw them (every troll a stopper): its exposure.
pub fn exposed_lines(pos: &Position, seat: Seat) -> u32 {
    Target::new(pos, seat).exposed_lines()
}

/// Plain steps `seat`'s troll needs before it stands next to some rock
/// (0 when it already does), up to `max`; `None` beyond or without a troll.
pub fn troll_steps_to_rock(pos: &Position, seat: Seat, max: u8) -> Option<u8> {
    let troll = pos.seat_bb(seat) & pos.kind_bb(Kind::Troll);
    if troll.is_empty() {
        return None;
    }
    let next_to_rocks = pos.rocks().neighbours();
    let empty = pos.empty();
    let mut reach = troll;
    for k in 0..=max {
        if (reach & next_to_rocks).any() {
            return Some(k);
        }
        reach = walk(reach, empty, 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(spn: &str) -> Position {
        Position::from_spn(spn).unwrap()
    }

    /// The rocks whose throw, by `attacker`'s troll once it stands on them,
    /// would hit `victim`'s sorcerer ([`LinesOfFire::rocks`]).
    fn lined_up_rocks(
        pos: &Position,
        attacker_troll: Bitboard,
        victim_sorcerer: Bitboard,
    ) -> Bitboard {
        lines_of_fire(pos, attacker_troll, victim_sorcerer).rocks
    }

    /// Whom the rules say `throw` kills once `steps` are played from `p`.
    fn victim_of(p: Position, steps: &str, throw: &str) -> Option<Seat> {
        let mut g = splut_rules::Game::new(p);
        g.play_all(steps).unwrap();
        let throw = g.position().parse_step(throw).unwrap();
        g.position().throw_victim(throw)
    }

    #[test]
    fn a_troll_next_to_a_lined_up_rock_kills_in_one_step() {
        // Red troll e3 under the rock e4; over the green dwarf e5 to the
        // green sorcerer e7.
        let p = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 10 - - -");
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 3), Some(1));
        // The rock e4 is lined up with the red sorcerer b4 too (west), but
        // the green troll d8 is far away.
        assert_eq!(steps_to_kill(&p, Seat::Green, Seat::Red, 3), None);
        assert_eq!(exposed_lines(&p, Seat::Red), 1);
        // e4 below (over the dwarf) and e9 above.
        assert_eq!(exposed_lines(&p, Seat::Green), 2);
    }

    #[test]
    fn walking_to_the_rock_counts_steps() {
        // Red troll g3 must walk to f4 (2 steps: g4, f4) or e3 (2 steps)
        // before stepping onto e4: 3 steps in all.
        let p = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r 3 10 - - -");
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 3), Some(3));
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 2), None);
        assert_eq!(troll_steps_to_rock(&p, Seat::Red, 3), Some(2));
    }

    #[test]
    fn the_attackers_own_troll_does_not_block_its_throw() {
        // Red troll e5 stands between the rock e4 and the green sorcerer
        // e7; it steps onto e4 and throws north over its old square.
        let p = pos("R/gT2/2gS2/7/R3rT3R/rS2R3/rD4/3/1 r 3 10 - - -");
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 1), Some(1));
        assert!(
            p.legal_step_vec()
                .iter()
                .any(|&s| p.throw_victim(s) == Some(Seat::Green))
        );
    }

    #[test]
    fn another_troll_on_the_line_blocks_it() {
        let p = pos("R/3/2gS2/3gT3/R7R/rS2R3/rD1rT2/3/1 r 3 10 - - -");
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 3), None);
    }

    /// Red's troll e6 stands below the green sorcerer e7 with the rock d6
    /// behind it (west) and f6 empty: it steps to f6 pulling d6 onto e6,
    /// then steps back onto e6 and throws north. No rock is lined up.
    const PULL: &str = "1/gT2/2gS2/2RrT3/R3gD3R/rS5R/rD4/3/1 r 3 10 - - -";

    #[test]
    fn a_pull_then_a_throw_kills() {
        let p = pos(PULL);
        let green_sorcerer = p.seat_bb(Seat::Green) & p.kind_bb(Kind::Sorcerer);
        assert_eq!(
            lined_up_rocks(&p, Bitboard::EMPTY, green_sorcerer),
            Bitboard::EMPTY
        );
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 3), Some(2));
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 2), Some(2));
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 1), None);
        // The rules agree: the two steps kill green.
        assert_eq!(victim_of(p, "e6f6^d6", "f6e6*n"), Some(Seat::Green));
    }

    #[test]
    fn walking_to_a_pull_counts_steps() {
        // The troll starts on f5 and walks to e6 (f6, e6: 2 steps) first.
        let p = pos("1/gT2/2gS2/2R4/R3gDrT2R/rS5R/rD4/3/1 r 3 10 - - -");
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 3), None);
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 4), Some(4));
    }

    #[test]
    fn two_pulls_then_a_throw_kill() {
        // The troll d6 pulls c6 onto d6 (stepping to e6), then onto e6
        // (stepping to f6), and throws it north from f6.
        let spn = "1/gT2/2gS2/1RrT4/R3gD3R/rS5R/rD4/3/1 r 3 10 - - -";
        assert_eq!(steps_to_kill(&pos(spn), Seat::Red, Seat::Green, 3), Some(3));
        assert_eq!(steps_to_kill(&pos(spn), Seat::Red, Seat::Green, 2), None);
        assert_eq!(
            victim_of(pos(spn), "d6e6^c6 e6f6^d6", "f6e6*n"),
            Some(Seat::Green)
        );
    }

    #[test]
    fn pull_near_misses() {
        for (why, spn) in [
            // The troll's way ahead (f6) is taken by a dwarf: no pull.
            (
                "no room",
                "1/gT2/2gS2/2RrTgD2/R7R/rS5R/rD4/3/1 r 3 10 - - -",
            ),
            // The troll d6 can pull c6 onto d6, off e7's lines, but not on
            // to e6 (f6 is taken).
            (
                "off the line",
                "1/gT2/2gS2/1RrT1gD2/R7R/rS5R/rD4/3/1 r 3 10 - - -",
            ),
            // The troll e6 has no rock behind it (the fourth rock is b6).
            (
                "no rock behind",
                "1/gT2/2gS2/R2rT3/R3gD3R/rS5R/rD4/3/1 r 3 10 - - -",
            ),
        ] {
            let p = pos(spn);
            assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 3), None, "{why}");
        }
    }

    /// Red's sorcerer c4 steps east to d4 floating the rock d5 to e5, in
    /// line with the green sorcerer e7; the red troll f5 steps onto e5 and
    /// throws north. No rock is lined up with e7 before.
    const LEVITATE: &str = "1/3/gTgDgS2/7/R2R1rT2R/1rS5/4R/1rD1/1 r 3 10 - - -";

    fn lev(spn: &str, attacker: Seat, victim: Seat, steps: u8) -> Option<u8> {
        let p = pos(spn);
        let floatable = p.rocks() & !p.cooling();
        let found = levitation_steps_to_kill(&p, attacker, victim, steps, floatable);
        // The quick superset never misses what the exact search finds.
        let v = p.piece_square(victim, Kind::Sorcerer).unwrap();
        let landings = levitation_landings(&p, attacker, steps, floatable, lines_through(v));
        assert!(found.is_none() || (landings & lines_through(v)).any());
        found
    }

    #[test]
    fn a_levitation_then_a_throw_kills() {
        let p = pos(LEVITATE);
        // Without a levitation it takes three steps: the troll f5 walks to
        // e5, steps back to f5 pulling d5 onto e5, and throws it.
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 3), Some(3));
        assert_eq!(steps_to_kill(&p, Seat::Red, Seat::Green, 2), None);
        assert_eq!(lev(LEVITATE, Seat::Red, Seat::Green, 3), Some(2));
        assert_eq!(lev(LEVITATE, Seat::Red, Seat::Green, 2), Some(2));
        assert_eq!(lev(LEVITATE, Seat::Red, Seat::Green, 1), None);
        // The rules agree: the two steps kill green.
        assert_eq!(victim_of(p, "c4d4@d5", "f5e5*n"), Some(Seat::Green));
    }

    #[test]
    fn a_rock_floated_twice_counts_three_steps() {
        // The sorcerer b4 floats c5 east twice (to d5, then e5); the troll
        // f5 is next to e5 already.
        let spn = "1/3/gTgDgS2/7/R1R2rT2R/rS6/4R/1rD1/1 r 3 10 - - -";
        assert_eq!(lev(spn, Seat::Red, Seat::Green, 3), Some(3));
        assert_eq!(lev(spn, Seat::Red, Seat::Green, 2), None);
    }

    #[test]
    fn levitation_near_misses() {
        for (why, spn, steps) in [
            // The rock d5 moved in the previous turn: it may not be floated.
            (
                "cooling rock",
                "1/3/gTgDgS2/7/R2R1rT2R/1rS5/4R/1rD1/1 r 3 10 - d5 -",
                3,
            ),
            // The red dwarf d4 bars the sorcerer's way east and the rock's
            // way south; floating north then east takes two steps and the
            // troll two more.
            (
                "not movable into line",
                "1/3/gTgDgS2/7/R2R1rT2R/1rSrD4/4R/3/1 r 3 10 - - -",
                3,
            ),
            // A troll on e6 stops the throw.
            (
                "troll on the line",
                "1/3/1gDgS2/3gT3/R2R1rT2R/1rS5/4R/1rD1/1 r 3 10 - - -",
                3,
            ),
            // So does a sorcerer.
            (
                "sorcerer on the line",
                "1/3/gTgDgS2/3yS3/R2R1rT2R/1rS5/4R/1rD1/1 r 3 10 - - -",
                3,
            ),
            // One step left: the levitation takes it.
            ("too few steps", LEVITATE, 1),
            // The troll g4 needs two steps to stand next to e5.
            (
                "troll too far",
                "1/3/gTgDgS2/7/R2R4R/1rS3rT1/4R/1rD1/1 r 3 10 - - -",
                3,
            ),
            // The troll g5 needs one, but only two steps are left.
            (
                "troll one step too far",
                "1/3/gTgDgS2/7/R2R2rT1R/1rS5/4R/1rD1/1 r 3 10 - - -",
                2,
            ),
            // Only yellow's sorcerer could float d5 to e5; red's is boxed
            // in on e1.
            (
                "another seat's sorcerer",
                "1/3/gTgDgS2/7/R2R2rT1R/1yS5/4R/1rD1/rS r 3 10 - - -",
                3,
            ),
        ] {
            assert_eq!(lev(spn, Seat::Red, Seat::Green, steps), None, "{why}");
        }
        // One step farther is still a threat with a whole turn.
        let far = "1/3/gTgDgS2/7/R2R2rT1R/1rS5/4R/1rD1/1 r 3 10 - - -";
        assert_eq!(lev(far, Seat::Red, Seat::Green, 3), Some(3));
        // Green may float too: its sorcerer e7 steps to e8 and d8 and takes
        // d5 to d6 and c6, in line with the red sorcerer c4, next to the
        // green troll c7.
        assert_eq!(lev(LEVITATE, Seat::Green, Seat::Red, 3), Some(3));
        assert_eq!(lev(LEVITATE, Seat::Green, Seat::Red, 2), None);
    }
    /// Whether the side to move can kill `victim` within `steps` steps of
    /// this turn, by trying every line of steps.
    fn can_kill(p: &Position, victim: Seat, steps: u8) -> bool {
        steps > 0
            && p.legal_step_vec().into_iter().any(|s| {
                p.throw_victim(s) == Some(victim) || {
                    let q = p.after(s);
                    q.side_to_move() == p.side_to_move() && can_kill(&q, victim, steps - 1)
                }
            })
    }

    /// Whether the side to move can kill `victim` within `steps` steps of
    /// its troll alone.
    fn troll_can_kill(p: &Position, victim: Seat, steps: u8) -> bool {
        let troll = p.piece_square(p.side_to_move(), Kind::Troll);
        steps > 0
            && p.legal_step_vec().into_iter().any(|s| {
                s.from() == troll.unwrap()
                    && (p.throw_victim(s) == Some(victim) || {
                        let q = p.after(s);
                        q.side_to_move() == p.side_to_move()
                            && troll_can_kill(&q, victim, steps - 1)
                    })
            })
    }

    /// Positions of random games with 2, 3 and 4 players.
    fn random_positions(seed: u64, games: usize) -> Vec<Position> {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut all = Vec::new();
        for game in 0..games {
            let mut p = Position::start(2 + game % 3).unwrap();
            while !p.is_game_over() && p.turn() < 60 {
                all.push(p);
                let steps = p.legal_step_vec();
                p = p.after(steps[rng.random_range(0..steps.len())]);
            }
        }
        all
    }

    #[test]
    fn lines_without_a_branch_are_the_lines_walked() {
        let mut lined_up = 0;
        for p in random_positions(11, 60) {
            for victim in Seat::ALL {
                let sorcerer = p.seat_bb(victim) & p.kind_bb(Kind::Sorcerer);
                let target = Target::new(&p, victim);
                let walked = lines_of_fire_by_walking(&p, Bitboard::EMPTY, sorcerer);
                assert_eq!(target.fire.rocks, walked.rocks, "{}", p.to_spn());
                assert_eq!(target.fire.open, walked.open, "{}", p.to_spn());
                let near = sorcerer.lowest().map_or(Bitboard::EMPTY, lines_through);
                assert_eq!(target.near, near);
                lined_up += walked.rocks.count();
                for attacker in Seat::ALL {
                    let troll = p.seat_bb(attacker) & p.kind_bb(Kind::Troll);
                    let fast = lines_of_fire(&p, troll, sorcerer);
                    let walked = lines_of_fire_by_walking(&p, troll, sorcerer);
                    assert_eq!((fast.rocks, fast.open), (walked.rocks, walked.open));
                }
            }
        }
        assert!(lined_up > 1000, "{lined_up}");
    }

    /// [`Throws`]' sets, to compare two of them.
    fn sets(t: &Throws) -> [Bitboard; 7] {
        [
            t.troll, t.next_to, t.landings, t.aim, t.reach, t.free, t.rocks,
        ]
    }

    #[test]
    fn reaches_walk_as_each_term_did() {
        let (mut pulls, mut far_walks) = (0, 0);
        for p in random_positions(12, 60) {
            let reaches = Reaches::new(&p);
            let next_to_rocks = p.rocks().neighbours();
            for seat in Seat::ALL {
                for max in [0, 3, 5, 8] {
                    assert_eq!(
                        reaches.steps_to(seat, next_to_rocks, max),
                        troll_steps_to_rock(&p, seat, max)
                    );
                }
                // A far square, to reach beyond the steps worked out.
                let corner = Square::all().last().unwrap().bb();
                let troll = p.seat_bb(seat) & p.kind_bb(Kind::Troll);
                let walked = (0..=12).find(|&k| (walk(troll, p.empty() | troll, k) & corner).any());
                let k = reaches.steps_to(seat, corner, 12);
                assert_eq!(k, walked.filter(|_| troll.any()));
                far_walks += usize::from(k.is_some_and(|k| k as usize > REACH_STEPS));
                for steps in 0..=MAX_THREAT_STEPS {
                    for pull in [false, true] {
                        let fast = reaches.throws(&p, seat, steps, pull);
                        let slow = Throws::new(&p, seat, steps, pull);
                        assert_eq!(sets(&fast), sets(&slow), "{} {steps}", p.to_spn());
                        pulls += usize::from(fast.landings.any());
                        for extra in 0..=4 {
                            assert_eq!(
                                sets(&reaches.farther_throws(&p, seat, steps, extra)),
                                sets(&slow.farther(extra)),
                                "{} {steps} {extra}",
                                p.to_spn()
                            );
                        }
                    }
                }
            }
        }
        assert!(pulls > 100 && far_walks > 100, "{pulls} {far_walks}");
    }

    #[test]
    fn throw_threats_in_random_games_are_real_and_the_trolls_own_are_all_found() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(8);
        let (mut found, mut pulls) = (0, 0);
        for game in 0..60 {
            let mut p = Position::start(2 + game % 3).unwrap();
            while !p.is_game_over() && p.turn() < 60 {
                let stm = p.side_to_move();
                let has_troll = p.piece_square(stm, Kind::Troll).is_some();
                for victim in p.seats_in_game().filter(|&v| v != stm) {
                    let steps = p.steps_left();
                    let k = steps_to_kill(&p, stm, victim, steps);
                    if let Some(k) = k {
                        found += 1;
                        assert!(troll_can_kill(&p, victim, k), "{} {victim:?}", p.to_spn());
                        let troll = p.seat_bb(stm) & p.kind_bb(Kind::Troll);
                        let sorcerer = p.seat_bb(victim) & p.kind_bb(Kind::Sorcerer);
                        if (troll.neighbours() & lined_up_rocks(&p, troll, sorcerer)).is_empty() {
                            pulls += 1;
                        }
                    } else if has_troll {
                        assert!(
                            !troll_can_kill(&p, victim, steps),
                            "{} {victim:?}",
                            p.to_spn()
                        );
                    }
                }
                let steps = p.legal_step_vec();
                p = p.after(steps[rng.random_range(0..steps.len())]);
            }
        }
        assert!(found > 50 && pulls > 10, "{found} {pulls}");
    }

    #[test]
    fn levitation_threats_in_random_games_are_real_and_the_filter_misses_none() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(7);
        let mut found = 0;
        for game in 0..60 {
            let mut p = Position::start(2 + game % 3).unwrap();
            while !p.is_game_over() && p.turn() < 60 {
                let stm = p.side_to_move();
                let floatable = match p.levitation() {
                    splut_rules::Levitation::NotStarted => p.rocks() & !p.cooling(),
                    splut_rules::Levitation::Rock(sq) => sq.bb(),
                    splut_rules::Levitation::Over => Bitboard::EMPTY,
                };
                for victim in p.seats_in_game().filter(|&v| v != stm) {
                    let steps = p.steps_left();
                    let k = levitation_steps_to_kill(&p, stm, victim, steps, floatable);
                    let all = levitation_steps_to_kill_onto(
                        &p,
                        stm,
                        victim,
                        steps,
                        floatable,
                        Bitboard::ALL,
                    );
                    assert_eq!(k, all, "{}", p.to_spn());
                    if let Some(k) = k {
                        found += 1;
                        assert!(can_kill(&p, victim, k), "{} {victim:?}", p.to_spn());
                    }
                }
                let steps = p.legal_step_vec();
                p = p.after(steps[rng.random_range(0..steps.len())]);
            }
        }
        assert!(found > 10, "{found}");
    }
}
