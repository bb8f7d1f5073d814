//! A set of squares in one `u64`: bit `i` is the square with index `i`.
//! Only the low 41 bits are ever set.

use super::board::{Direction, NUM_SQUARES, Square, has_neighbour};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of on-board squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 41 squares.
    pub const ALL: Bitboard = Bitboard((1 << NUM_SQUARES) - 1);

    /// True when no square is in the set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when at least one square is in the set.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub fn lowest(self) -> Option<Square> {
        self.any()
            .then(|| Square::from_index_unchecked(self.0.trailing_zeros() as u8))
    }

    /// The first square met when walking in direction `d` along a ray that
    /// contains this set (lowest for north/east, highest for south/west).
    #[inline]
    pub fn first_towards(self, d: Direction) -> Option<Square> {
        if self.is_empty() {
            None
        } else if d.is_increasing() {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        } else {
            Some(Square::from_index_unchecked(
                63 - self.0.leading_zeros() as u8,
            ))
        }
    }

    /// Every square of the set moved one step in direction `d`; squares
    /// whose step would leave the board drop out.
    #[inline]
    pub fn shift(self, d: Direction) -> Bitboard {
        // A rotation by the index offset (north +4, east +5, south −4 ≡ 60,
        // west −5 ≡ 59): no square that keeps its neighbour wraps round, and
        // one instruction serves every direction, so a `d` known only at run
        // time needs no branch or jump table.
        const ROTATE: [u32; 4] = [4, 5, 60, 59];
        Bitboard((self.0 & has_neighbour(d)).rotate_left(ROTATE[d.index()]))
    }

    /// Every square orthogonally adjacent to some square of the set.
    #[inline]
    pub fn neighbours(self) -> Bitboard {
        self.shift(Direction::North)
            | self.shift(Direction::East)
            | self.shift(Direction::South)
            | self.shift(Direction::West)
    }

    /// The only square of a one-square set (the lowest one otherwise).
    #[inline]
    pub fn single(self) -> Square {
        debug_assert!(self.any());
        Square::from_index_unchecked(self.0.trailing_zeros() as u8)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let s = self.lowest()?;
        self.0 &= self.0 - 1;
        Some(s)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

macro_rules! bit_ops {
    ($($tr:ident $m:ident $tra:ident $ma:ident $op:tt),*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $m(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $ma(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}
bit_ops!(BitAnd bitand BitAndAssign bitand_assign &, BitOr bitor BitOrAssign bitor_assign |,
         BitXor bitxor BitXorAssign bitxor_assign ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within the board.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |bb, s| bb | s.bb())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complement_stays_on_the_board() {
        assert_eq!((!Bitboard::EMPTY), Bitboard::ALL);
        assert_eq!((!Bitboard::ALL), Bitboard::EMPTY);
        assert_eq!(Bitboard::ALL.count(), 41);
    }

    #[test]
    fn first_towards_picks_the_nearest_square() {
        let e5 = Square::parse("e5").unwrap();
        let ray = e5.ray(Direction::North) | e5.ray(Direction::South);
        let both = ray
            & (Square::parse("e7").unwrap().bb()
                | Square::parse("e3").unwrap().bb()
                | Square::parse("e8").unwrap().bb()
                | Square::parse("e2").unwrap().bb());
        let north = both & e5.ray(Direction::North);
        let south = both & e5.ray(Direction::South);
        assert_eq!(north.first_towards(Direction::North), Square::parse("e7"));
        assert_eq!(south.first_towards(Direction::South), Square::parse("e3"));
        assert_eq!(Bitboard::EMPTY.first_towards(Direction::West), None);
    }

    #[test]
    fn iterates_in_index_order() {
        let bb: Bitboard = ["e9", "e1", "a5"]
            .iter()
            .map(|s| Square::parse(s).unwrap())
            .collect();
        let v: Vec<String> = bb.map(|s| s.to_string()).collect();
        assert_eq!(v, ["a5", "e1", "e9"]);
    }
}
