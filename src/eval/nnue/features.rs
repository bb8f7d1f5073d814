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

use crate::game::{Bitboard, Kind, NUM_SQUARES, Position, Seat, Square};

/// Number of inputs.
pub const INPUTS: usize = 4 * 3 * NUM_SQUARES + NUM_SQUARES;

/// First rock input.
pub const ROCK_BASE: usize = 4 * 3 * NUM_SQUARES;

/// Most inputs active at once: 12 pieces and 4 rocks.
pub const MAX_ACTIVE: usize = 16;

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

/// The input of board `i` of [`Boards`] on `sq`, seen from `view`.
#[inline]
pub fn board_input(view: Seat, i: usize, sq: Square) -> usize {
    if i == 12 {
        rock_input(view, sq)
    } else {
        piece_input(view, Seat::ALL[i / 3], Kind::ALL[i % 3], sq)
    }
}

/// The active inputs of `pos` seen from `view`, in no particular order.
pub fn active(pos: &Position, view: Seat, out: &mut Vec<usize>) {
    out.clear();
    for (i, b) in boards(pos).iter().enumerate() {
        for sq in *b {
            out.push(board_input(view, i, sq));
        }
    }
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
            assert_eq!(a.len(), MAX_ACTIVE);
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
    fn buckets_cover_their_range() {
        let pos = Position::start(4).unwrap();
        for view in Seat::ALL {
            assert!(bucket(&pos, view) < BUCKETS);
        }
    }
}
