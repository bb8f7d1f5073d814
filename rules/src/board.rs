//! Board geometry: the 41 squares of the diamond, directions, and the
//! precomputed neighbour and ray tables every rule is built on.
//!
//! Squares are numbered along the board's diagonals so that every direction
//! is a constant index offset: with x = file + rank − 4 and
//! y = file − rank + 4 (both 0..=8, and of equal parity on the diamond), the
//! index is (9x + y) / 2, which runs over 0..=40 without gaps. A step north
//! adds 4, east 5, south subtracts 4, west 5. So a whole bitboard moves one
//! square with one masked shift ([`Bitboard::shift`]), and the first piece
//! along a ray is the lowest set bit (north, east) or the highest (south,
//! west). `a5` = 0, `e1` = 4, `e9` = 36, `i5` = 40.

use super::bitboard::Bitboard;
use std::fmt;

/// Number of on-board squares.
pub const NUM_SQUARES: usize = 41;

/// Rank widths from rank 1 (south) to rank 9 (north).
const RANK_WIDTH: [u8; 9] = [1, 3, 5, 7, 9, 7, 5, 3, 1];

/// One of the 41 on-board squares.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

/// One of the four orthogonal directions.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Direction {
    /// Towards rank 9.
    North = 0,
    /// Towards file i.
    East = 1,
    /// Towards rank 1.
    South = 2,
    /// Towards file a.
    West = 3,
}

impl Direction {
    /// All four directions, in index order.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// The direction with this index (0 = north … 3 = west), taken modulo 4.
    #[inline]
    pub const fn from_index(i: u8) -> Direction {
        match i & 3 {
            0 => Direction::North,
            1 => Direction::East,
            2 => Direction::South,
            _ => Direction::West,
        }
    }

    /// Calls `f` with each direction in index order, written out four
    /// times rather than looped: inlined, each call knows its direction
    /// (constant shifts and table offsets, no loop branch to mispredict).
    #[inline(always)]
    pub(super) fn each(mut f: impl FnMut(Direction)) {
        f(Direction::North);
        f(Direction::East);
        f(Direction::South);
        f(Direction::West);
    }

    /// Index 0..4.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The reverse direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction::from_index(self as u8 + 2)
    }

    /// Whether moving this way increases the square index.
    #[inline]
    pub const fn is_increasing(self) -> bool {
        matches!(self, Direction::North | Direction::East)
    }

    /// The notation letter: `n`, `e`, `s` or `w`.
    pub const fn letter(self) -> char {
        match self {
            Direction::North => 'n',
            Direction::East => 'e',
            Direction::South => 's',
            Direction::West => 'w',
        }
    }

    /// Parses `n`, `e`, `s` or `w`.
    pub fn from_letter(c: char) -> Option<Direction> {
        match c {
            'n' => Some(Direction::North),
            'e' => Some(Direction::East),
            's' => Some(Direction::South),
            'w' => Some(Direction::West),
            _ => None,
        }
    }

    /// How far one step moves a square index (north +4, east +5, south −4,
    /// west −5).
    pub const fn index_offset(self) -> i8 {
        match self {
            Direction::North => 4,
            Direction::East => 5,
            Direction::South => -4,
            Direction::West => -5,
        }
    }

    /// (file, rank) offset of one step.
    const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Is (file, rank), 0-based, on the board?
pub const fn on_board(file: i8, rank: i8) -> bool {
    let df = if file > 4 { file - 4 } else { 4 - file };
    let dr = if rank > 4 { rank - 4 } else { 4 - rank };
    file >= 0 && file < 9 && rank >= 0 && rank < 9 && df + dr <= 4
}

struct Tables {
    coords: [(u8, u8); NUM_SQUARES],
    index: [[u8; 9]; 9],
    neighbour: [[u8; 4]; NUM_SQUARES],
    neighbour_bb: [[u64; 4]; NUM_SQUARES],
    ray: [[u64; 4]; NUM_SQUARES],
    ray_end: [[u8; 4]; NUM_SQUARES],
    adjacent: [u64; NUM_SQUARES],
    has_neighbour: [u64; 4],
}

/// Marks "no square" in the byte tables.
const NONE: u8 = 0xFF;

const fn build_tables() -> Tables {
    let mut t = Tables {
        coords: [(0, 0); NUM_SQUARES],
        index: [[NONE; 9]; 9],
        neighbour: [[NONE; 4]; NUM_SQUARES],
        neighbour_bb: [[0; 4]; NUM_SQUARES],
        ray: [[0; 4]; NUM_SQUARES],
        ray_end: [[NONE; 4]; NUM_SQUARES],
        adjacent: [0; NUM_SQUARES],
        has_neighbour: [0; 4],
    };
    let mut rank = 0;
    while rank < 9 {
        let mut file = 0;
        while file < 9 {
            if on_board(file as i8, rank as i8) {
                let x = file + rank - 4;
                let y = file + 4 - rank;
                let n = (9 * x + y) / 2;
                t.coords[n] = (file as u8, rank as u8);
                t.index[file][rank] = n as u8;
            }
            file += 1;
        }
        rank += 1;
    }
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = Direction::from_index(d as u8).delta();
            let mut f = t.coords[sq].0 as i8 + df;
            let mut r = t.coords[sq].1 as i8 + dr;
            let mut first = true;
            let mut last = sq as u8;
            while on_board(f, r) {
                let s = t.index[f as usize][r as usize];
                if first {
                    t.neighbour[sq][d] = s;
                    t.neighbour_bb[sq][d] = 1 << s;
                    t.adjacent[sq] |= 1 << s;
                    t.has_neighbour[d] |= 1 << sq;
                    assert!(
                        s as i32 - sq as i32
                            == Direction::from_index(d as u8).index_offset() as i32
                    );
                    first = false;
                }
                t.ray[sq][d] |= 1 << s;
                last = s;
                f += df;
                r += dr;
            }
            t.ray_end[sq][d] = last;
            d += 1;
        }
        sq += 1;
    }
    t
}

static TABLES: Tables = build_tables();

/// "No square" in [`Padded`]: the trailing zeros of an empty set.
pub(super) const NO_SQUARE: usize = 64;

/// The neighbour, adjacency and ray tables again, with a row for every
/// index up to [`NO_SQUARE`] (the rows past 40 empty), for bulk counting
/// without branches: a seat without some piece finds that piece at
/// `trailing_zeros(0) = 64`, whose steps the empty row counts as none, and
/// the index needs no bounds check.
pub(super) struct Padded {
    /// The square as a set.
    pub bit: [u64; NO_SQUARE + 1],
    /// The neighbour in each direction as a set.
    pub neighbour_bb: [[u64; 4]; NO_SQUARE + 1],
    /// The neighbour's index in each direction, `NO_SQUARE` off the board.
    pub neighbour: [[u8; 4]; NO_SQUARE + 1],
    /// The adjacent squares.
    pub adjacent: [u64; NO_SQUARE + 1],
    /// The squares beyond, in each direction.
    pub ray: [[u64; 4]; NO_SQUARE + 1],
}

const fn build_padded() -> Padded {
    let t = build_tables();
    let mut p = Padded {
        bit: [0; NO_SQUARE + 1],
        neighbour_bb: [[0; 4]; NO_SQUARE + 1],
        neighbour: [[NO_SQUARE as u8; 4]; NO_SQUARE + 1],
        adjacent: [0; NO_SQUARE + 1],
        ray: [[0; 4]; NO_SQUARE + 1],
    };
    let mut sq = 0;
    while sq < NUM_SQUARES {
        p.bit[sq] = 1 << sq;
        p.neighbour_bb[sq] = t.neighbour_bb[sq];
        p.adjacent[sq] = t.adjacent[sq];
        p.ray[sq] = t.ray[sq];
        let mut d = 0;
        while d < 4 {
            if t.neighbour[sq][d] != NONE {
                p.neighbour[sq][d] = t.neighbour[sq][d];
            }
            d += 1;
        }
        sq += 1;
    }
    p
}

/// [`Padded`], built at compile time.
pub(super) static PADDED: Padded = build_padded();

impl Square {
    /// The square with this index, if it is below 41.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < NUM_SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index; the caller guarantees `index < 41`.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < NUM_SQUARES);
        Square(index)
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..NUM_SQUARES as u8).map(Square)
    }

    /// The square at 0-based (file, rank), if it is on the board.
    pub fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 9 {
            let i = TABLES.index[file as usize][rank as usize];
            (i != NONE).then_some(Square(i))
        } else {
            None
        }
    }

    /// Index 0..41.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file (a = 0).
    #[inline]
    pub fn file(self) -> u8 {
        TABLES.coords[self.index()].0
    }

    /// 0-based rank (1 = 0).
    #[inline]
    pub fn rank(self) -> u8 {
        TABLES.coords[self.index()].1
    }

    /// The single-square bitboard.
    #[inline]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// The adjacent square in direction `d`, if on the board.
    #[inline]
    pub fn neighbour(self, d: Direction) -> Option<Square> {
        let n = TABLES.neighbour[self.index()][d.index()];
        (n != NONE).then_some(Square(n))
    }

    /// The adjacent square in direction `d` as a bitboard (empty off the board).
    #[inline]
    pub fn neighbour_bb(self, d: Direction) -> Bitboard {
        Bitboard(TABLES.neighbour_bb[self.index()][d.index()])
    }

    /// The (one to four) adjacent squares.
    #[inline]
    pub fn adjacent(self) -> Bitboard {
        Bitboard(TABLES.adjacent[self.index()])
    }

    /// All squares strictly beyond this one in direction `d`, up to the edge.
    #[inline]
    pub fn ray(self, d: Direction) -> Bitboard {
        Bitboard(TABLES.ray[self.index()][d.index()])
    }

    /// The last on-board square going from here in direction `d` (this square
    /// itself at the edge).
    #[inline]
    pub fn ray_end(self, d: Direction) -> Square {
        Square(TABLES.ray_end[self.index()][d.index()])
    }

    /// The direction from this square to an adjacent square.
    pub fn direction_to(self, to: Square) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|&d| self.neighbour(d) == Some(to))
    }

    /// Parses a square name such as `e5`; `None` if malformed or off the board.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 || !(b'a'..=b'i').contains(&b[0]) || !(b'1'..=b'9').contains(&b[1]) {
            return None;
        }
        Square::from_coords(b[0] - b'a', b[1] - b'1')
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Squares that have a neighbour in each direction.
#[inline]
pub(super) fn has_neighbour(d: Direction) -> u64 {
    TABLES.has_neighbour[d.index()]
}

/// Rank widths, south to north.
pub fn rank_width(rank: u8) -> u8 {
    RANK_WIDTH[rank as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_has_41_squares_with_the_right_rank_widths() {
        assert_eq!(Square::all().count(), 41);
        for rank in 0..9u8 {
            let n = Square::all().filter(|s| s.rank() == rank).count();
            assert_eq!(n as u8, rank_width(rank));
        }
        assert_eq!(Square::parse("a5").unwrap().index(), 0);
        assert_eq!(Square::parse("e1").unwrap().index(), 4);
        assert_eq!(Square::parse("e9").unwrap().index(), 36);
        assert_eq!(Square::parse("i5").unwrap().index(), 40);
        let mut seen: Vec<usize> = Square::all().map(|s| s.index()).collect();
        seen.dedup();
        assert_eq!(seen, (0..41).collect::<Vec<_>>());
        assert!(Square::parse("a1").is_none());
        assert!(Square::parse("j5").is_none());
        assert!(Square::parse("e0").is_none());
        assert!(Square::parse("e55").is_none());
    }

    #[test]
    fn tips_have_exactly_one_neighbour() {
        for name in ["e9", "i5", "e1", "a5"] {
            let s = Square::parse(name).unwrap();
            let n = Direction::ALL
                .iter()
                .filter(|&&d| s.neighbour(d).is_some())
                .count();
            assert_eq!(n, 1, "{name}");
        }
        let centre = Square::parse("e5").unwrap();
        assert!(
            Direction::ALL
                .iter()
                .all(|&d| centre.neighbour(d).is_some())
        );
    }

    #[test]
    fn neighbours_and_rays_agree_and_order_indices() {
        for s in Square::all() {
            for d in Direction::ALL {
                let mut ray = Bitboard::EMPTY;
                let mut cur = s;
                while let Some(n) = cur.neighbour(d) {
                    assert_eq!(n.neighbour(d.opposite()), Some(cur));
                    assert_eq!(n > cur, d.is_increasing());
                    ray |= n.bb();
                    cur = n;
                }
                assert_eq!(ray, s.ray(d));
                assert_eq!(s.bb().shift(d), s.neighbour_bb(d));
                assert_eq!(cur, s.ray_end(d));
                assert_eq!(s.neighbour_bb(d).is_empty(), s.neighbour(d).is_none());
            }
        }
    }

    #[test]
    fn square_names_round_trip() {
        for s in Square::all() {
            assert_eq!(Square::parse(&s.to_string()), Some(s));
        }
    }
}
