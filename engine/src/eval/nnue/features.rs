//! The network's inputs, seen from one seat.
//!
//! Every seat in the game has its own view of the board: the diamond turned
//! by quarter turns until that seat sits at the bottom (where red starts),
//! and the other seats named by how many places after it they move
//! (0 = the seat itself, 1 = the next, …). So one set of weights serves
//! every seat, and the start positions of all seats look the same.
//!
//! | inputs | what |
//! |---|---|
//! | 0–491 | a piece: 123 × relative seat + 41 × kind (sorcerer, dwarf, troll) + turned square |
//! | 492–532 | a rock: 492 + turned square |
//! | 533–564 | a throw threat: 533 + 16 × plane + 4 × attacker's relative seat + victim's |
//!
//! The threat inputs ([`threats`]) are what the hand-written evaluation
//! computes explicitly and pieces on squares cannot express in one hidden
//! layer: whose troll can throw a rock onto whose sorcerer within its next
//! turn (plane 0), or within three steps more (plane 1). They depend on the
//! whole board, so they are not in the incremental accumulator: the
//! evaluation adds their columns when it reads a value.

use crate::eval::threats::{Reaches, Target};
use crate::eval::{DANGER_EXTRA_STEPS, near_of};
use splut_rules::{Bitboard, Kind, NUM_SQUARES, Position, Seat, Square};

/// Inputs of pieces and rocks (all a version-1 network file has).
pub const BOARD_INPUTS: usize = 4 * 3 * NUM_SQUARES + NUM_SQUARES;

/// First threat input.
pub const THREAT_BASE: usize = BOARD_INPUTS;

/// Threat planes: a throw within the attacker's next turn, and one within
/// [`DANGER_EXTRA_STEPS`] steps more.
pub const THREAT_PLANES: usize = 2;

/// Number of inputs.
pub const INPUTS: usize = BOARD_INPUTS + 16 * THREAT_PLANES;

/// First rock input.
pub const ROCK_BASE: usize = 4 * 3 * NUM_SQUARES;

/// Most piece and rock inputs active at once: 12 pieces and 4 rocks.
pub const MAX_BOARD_ACTIVE: usize = 16;

/// Most inputs active at once: pieces, rocks and every threat (4
/// attackers × 3 victims in each plane).
pub const MAX_ACTIVE: usize = MAX_BOARD_ACTIVE + 12 * THREAT_PLANES;

/// Output buckets: players in the game (2–4) × the mover's place after the
/// viewing seat (0–3) × steps left (1–3).
pub const BUCKETS: usize = 3 * 4 * 3;

/// `TURNED[k][sq]`: `sq` after `k` quarter turns anticlockwise (west goes
/// to south), which brings seat `k`'s side (red, yellow, green, blue in
/// turn order: south, west, north, east) to the bottom.
const TURNED: [[u8; NUM_SQUARES]; 4] = turned_table();

/// With x = file + rank − 4 and y = file − rank + 4 (the board's diagonal
/// coordinates, `game::board`), a quarter turn anticlockwise maps (x, y) to
/// (y, 8 − x); the square index is (9x + y) / 2.
const fn turned_table() -> [[u8; NUM_SQUARES]; 4] {
    let mut t = [[0u8; NUM_SQUARES]; 4];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        t[0][sq] = sq as u8;
        sq += 1;
    }
    let mut k = 1;
    while k < 4 {
        let mut sq = 0;
        while sq < NUM_SQUARES {
            let s = t[k - 1][sq] as usize;
            let x = 2 * s / 9;
            let y = 2 * s - 9 * x;
            let (nx, ny) = (y, 8 - x);
            t[k][sq] = ((9 * nx + ny) / 2) as u8;
            sq += 1;
        }
        k += 1;
    }
    t
}

/// `sq` as `view` sees it.
#[inline]
pub fn turned(view: Seat, sq: Square) -> usize {
    TURNED[view.index()][sq.index()] as usize
}

/// The input of `seat`'s piece of `kind` on `sq`, seen from `view`.
#[inline]
pub fn piece_input(view: Seat, seat: Seat, kind: Kind, sq: Square) -> usize {
    let rel = (seat.index() + 4 - view.index()) % 4;
    123 * rel + NUM_SQUARES * kind.index() + turned(view, sq)
}

/// The input of a rock on `sq`, seen from `view`.
#[inline]
pub fn rock_input(view: Seat, sq: Square) -> usize {
    ROCK_BASE + turned(view, sq)
}

/// The output bucket for `view`'s value in `pos`.
#[inline]
pub fn bucket(pos: &Position, view: Seat) -> usize {
    let players = pos.players_left().clamp(2, 4) as usize - 2;
    let mover = (pos.side_to_move().index() + 4 - view.index()) % 4;
    let steps = pos.steps_left().clamp(1, 3) as usize - 1;
    (players * 4 + mover) * 3 + steps
}

/// The throw threats of `pos` as bits `16 × plane + 4 × attacker + victim`
/// (absolute seat indices): plane 0 when the attacker's troll can throw a
/// rock onto the victim's sorcerer within its next turn (the side to move
/// with the steps it has left, the others with 3; rocks pulled into line
/// included), plane 1 when it cannot but could with
/// [`DANGER_EXTRA_STEPS`] steps more (plain throws). The rest of the board
/// is assumed to stay still, as the hand-written evaluation assumes
/// ([`crate::eval::threats`]).
pub fn threats(pos: &Position) -> u32 {
    let stm = pos.side_to_move();
    // Written out as the hand-written evaluation's threats are (4% fewer
    // instructions than options of targets and nested filtered iterators
    // over the seats). A seat out of the game has no sorcerer (its target
    // is never hit) and no troll.
    let targets: [Target; 4] = [
        Target::new(pos, Seat::Red),
        Target::new(pos, Seat::Yellow),
        Target::new(pos, Seat::Green),
        Target::new(pos, Seat::Blue),
    ];
    let mut seats = [Seat::Red; 4];
    let mut n = 0;
    for s in pos.seats_in_game() {
        seats[n] = s;
        n += 1;
    }
    let seats = &seats[..n];
    let reaches = Reaches::new(pos);
    let mut bits = 0u32;
    for &attacker in seats {
        let steps = if attacker == stm { pos.steps_left() } else { 3 };
        let throws = reaches.throws(pos, attacker, steps, true);
        let far = reaches.farther_throws(pos, attacker, steps, DANGER_EXTRA_STEPS);
        // Most attackers reach no other seat's lines at all (as in the
        // hand-written evaluation's threats).
        let others = near_of(seats, &targets, |v| v != attacker);
        if ((throws.aim() | far.aim()) & others).is_empty() {
            continue;
        }
        for &victim in seats {
            if victim == attacker {
                continue;
            }
            let target = &targets[victim.index()];
            let bit = 4 * attacker.index() + victim.index();
            if throws.hits_target(pos, target) {
                bits |= 1 << bit;
            } else if far.hits_target(pos, target) {
                bits |= 1 << (16 + bit);
            }
        }
    }
    bits
}

/// The input of threat bit `bit` ([`threats`]) seen from `view`.
#[inline]
pub fn threat_input(view: Seat, bit: u32) -> usize {
    let plane = (bit / 16) as usize;
    let attacker = ((bit / 4) % 4) as usize;
    let victim = (bit % 4) as usize;
    let rel = |s: usize| (s + 4 - view.index()) % 4;
    THREAT_BASE + 16 * plane + 4 * rel(attacker) + rel(victim)
}

/// The threat inputs of `bits` ([`threats`]) seen from `view`.
#[inline]
pub fn threat_inputs(view: Seat, bits: u32) -> impl Iterator<Item = usize> {
    let mut rest = bits;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            threat_input(view, bit)
        })
    })
}

/// The pieces and rocks of a position as bitboards: 12 piece boards
/// (3 × seat + kind) then the rocks. Two of them, before and after a
/// step, tell which inputs changed (`changes`).
pub type Boards = [Bitboard; 13];

/// `pos`'s [`Boards`].
pub fn boards(pos: &Position) -> Boards {
    let mut b = [Bitboard::EMPTY; 13];
    for seat in Seat::ALL {
        let mine = pos.seat_bb(seat);
        for kind in Kind::ALL {
            b[3 * seat.index() + kind.index()] = mine & pos.kind_bb(kind);
        }
    }
    b[12] = pos.rocks();
    b
}

/// `BOARD_BASE[view][i]`: the first input of board `i` of [`Boards`] seen
/// from `view` (its square's turned index is added): a table, since the
/// accumulators' update looks it up for every changed square and view.
const BOARD_BASE: [[u16; 13]; 4] = board_base_table();

const fn board_base_table() -> [[u16; 13]; 4] {
    let mut t = [[0u16; 13]; 4];
    let mut view = 0;
    while view < 4 {
        let mut i = 0;
        while i < 12 {
            let rel = (i / 3 + 4 - view) % 4;
            t[view][i] = (123 * rel + NUM_SQUARES * (i % 3)) as u16;
            i += 1;
        }
        t[view][12] = ROCK_BASE as u16;
        view += 1;
    }
    t
}

/// The input of board `i` of [`Boards`] on `sq`, seen from `view`: for a
/// piece board (`i` < 12: seat `i / 3`, kind `i % 3`) its
/// [`piece_input`], for the rocks' (12) the [`rock_input`].
#[inline]
pub fn board_input(view: Seat, i: usize, sq: Square) -> usize {
    usize::from(BOARD_BASE[view.index()][i]) + turned(view, sq)
}

/// The active inputs of `pos` seen from `view`, in no particular order:
/// pieces and rocks, then threats.
pub fn active(pos: &Position, view: Seat, out: &mut Vec<usize>) {
    out.clear();
    for (i, b) in boards(pos).iter().enumerate() {
        for sq in *b {
            out.push(board_input(view, i, sq));
        }
    }
    out.extend(threat_inputs(view, threats(pos)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_quarter_turns_are_the_identity_and_each_is_a_bijection() {
        for k in 0..4 {
            let mut seen = [false; NUM_SQUARES];
            for sq in 0..NUM_SQUARES {
                seen[TURNED[k][sq] as usize] = true;
            }
            assert!(seen.iter().all(|&s| s));
        }
        for sq in Square::all() {
            let mut s = sq;
            for _ in 0..4 {
                s = Square::new(TURNED[1][s.index()]).unwrap();
            }
            assert_eq!(s, sq);
        }
        // West goes to south: a5 (the west corner) to e1 (the south one).
        let a5 = Square::parse("a5").unwrap();
        assert_eq!(
            TURNED[1][a5.index()] as usize,
            Square::parse("e1").unwrap().index()
        );
    }

    #[test]
    fn every_seat_sees_the_same_four_player_start() {
        let pos = Position::start(4).unwrap();
        let mut seen: Vec<Vec<usize>> = Vec::new();
        for view in Seat::ALL {
            let mut a = Vec::new();
            active(&pos, view, &mut a);
            a.sort_unstable();
            assert_eq!(a.len(), MAX_BOARD_ACTIVE);
            assert!(a.iter().all(|&i| i < INPUTS));
            seen.push(a);
        }
        assert!(seen.iter().all(|a| *a == seen[0]), "{seen:?}");
        // And seat 2 (green) sees the 2-player start as red does.
        let two = Position::start(2).unwrap();
        let (mut r, mut g) = (Vec::new(), Vec::new());
        active(&two, Seat::Red, &mut r);
        active(&two, Seat::Green, &mut g);
        r.sort_unstable();
        g.sort_unstable();
        assert_eq!(r, g);
    }

    #[test]
    fn threats_are_the_throws_that_kill_within_a_turn_and_three_steps_more() {
        // Red's troll e3 under the rock e4, lined up over the green dwarf
        // e5 with the green sorcerer e7 (the threats module's example).
        let p = Position::from_spn("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 10 - - -").unwrap();
        let (r, g) = (Seat::Red.index(), Seat::Green.index());
        // Plane 0 holds red on green alone (green's troll d8 is far from
        // the rocks lined up with red's sorcerer: a danger at most).
        assert_eq!(threats(&p) & 0xffff, 1 << (4 * r + g));
        // Seen from green, red moves two places later and is the attacker.
        let mut a: Vec<usize> = Vec::new();
        active(&p, Seat::Green, &mut a);
        assert!(a.contains(&(THREAT_BASE + 4 * 2)));
        // With the troll on g3 red needs 3 steps: a threat with 3 steps
        // left, a danger (plane 1) with 1.
        let far = "R/gT2/2gS2/7/R3gD3R/rS2R3/rD3rT/3/1 r";
        let with = |steps| Position::from_spn(&format!("{far} {steps} 10 - - -")).unwrap();
        let red_on_green = |steps| threats(&with(steps)) >> (4 * r + g) & 0x1_0001;
        assert_eq!(red_on_green(3), 1);
        assert_eq!(red_on_green(1), 1 << 16);
    }

    #[test]
    fn threats_agree_with_steps_to_kill_over_random_games() {
        use crate::eval::threats::steps_to_kill;
        let mut rng = 11;
        let mut seen = 0;
        for players in 2..=4 {
            for _ in 0..40 {
                let mut pos = Position::start(players).unwrap();
                for _ in 0..120 {
                    let steps = pos.legal_step_vec();
                    if pos.is_game_over() || steps.is_empty() {
                        break;
                    }
                    let i = splut_rules::splitmix64(&mut rng) % steps.len() as u64;
                    pos.make(steps[i as usize]);
                    let bits = threats(&pos);
                    for a in pos.seats_in_game() {
                        let k = if a == pos.side_to_move() {
                            pos.steps_left()
                        } else {
                            3
                        };
                        for v in pos.seats_in_game().filter(|&v| v != a) {
                            let hit = steps_to_kill(&pos, a, v, k).is_some();
                            assert_eq!(bits >> (4 * a.index() + v.index()) & 1 == 1, hit, "{pos}");
                            seen += usize::from(hit);
                            if hit {
                                assert_eq!(bits >> (16 + 4 * a.index() + v.index()) & 1, 0);
                            }
                        }
                    }
                }
            }
        }
        assert!(seen > 100, "{seen} threats seen");
    }

    #[test]
    fn board_inputs_are_the_piece_and_rock_inputs() {
        for view in Seat::ALL {
            for sq in Square::all() {
                for i in 0..12 {
                    let (seat, kind) = (Seat::ALL[i / 3], Kind::ALL[i % 3]);
                    assert_eq!(board_input(view, i, sq), piece_input(view, seat, kind, sq));
                }
                assert_eq!(board_input(view, 12, sq), rock_input(view, sq));
            }
        }
    }

    #[test]
    fn buckets_cover_their_range() {
        let pos = Position::start(4).unwrap();
        for view in Seat::ALL {
            assert!(bucket(&pos, view) < BUCKETS);
        }
    }
}
