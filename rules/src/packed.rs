//! A position in 24 bytes, for data files of millions of positions
//! (`splut datagen --format binary`): every field of [`Position`] but the
//! hash, which is recomputed when it is read back.
//!
//! | bytes | what |
//! |---|---|
//! | 0–11 | each seat's sorcerer, dwarf and troll (red, yellow, green, blue), a square 0–40 or 255 off the board |
//! | 12–15 | the four rocks' squares, ascending |
//! | 16 | side to move (bits 0–1), steps left (2–3), seats in the game (4–7) |
//! | 17 | levitation: the levitated rock's square, 41 not started, 42 over |
//! | 18 | cooling rocks (bits 0–3) and rocks moved this turn (4–7), by index among bytes 12–15 |
//! | 19 | 0 |
//! | 20–23 | the turn number, little-endian |
//!
//! Reading checks everything [`Position::validate`] checks, so no bytes
//! make a position a game cannot reach.

use super::board::{NUM_SQUARES, Square};
use super::piece::{Kind, Seat};
use super::position::{LEV_OVER, Position, PositionError};
use std::fmt;

/// A packed position's size in bytes.
pub const PACKED_SIZE: usize = 24;

/// A square byte for a piece off the board.
const OFF: u8 = 255;

/// Why [`Position::unpack`] refused its bytes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum UnpackError {
    /// A piece's or rock's byte is neither a square 0–40 nor (for a piece)
    /// 255, off the board.
    BadSquare {
        /// The byte.
        byte: u8,
    },
    /// The four rock bytes are not strictly ascending.
    RocksNotAscending,
    /// The levitation byte is above 42.
    BadLevitation {
        /// The byte.
        byte: u8,
    },
    /// Byte 19, always 0, is not.
    NonZeroPadding {
        /// The byte.
        byte: u8,
    },
    /// The turn number is 0 (turns count from 1).
    TurnZero,
    /// The bytes read as a position that cannot occur
    /// ([`Position::validate`]'s reason).
    Invalid(PositionError),
}

impl fmt::Display for UnpackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnpackError::BadSquare { byte } => {
                write!(f, "square byte {byte} is not a square 0-40")
            }
            UnpackError::RocksNotAscending => f.write_str("the rocks are not in ascending order"),
            UnpackError::BadLevitation { byte } => {
                write!(f, "levitation byte {byte} is not 0-42")
            }
            UnpackError::NonZeroPadding { byte } => write!(f, "byte 19 is {byte}, not 0"),
            UnpackError::TurnZero => f.write_str("turn 0"),
            // The position's reason alone, as before the error was typed.
            UnpackError::Invalid(e) => e.fmt(f),
        }
    }
}

/// The reason is the whole message, so it is not also given as a source.
impl std::error::Error for UnpackError {}

impl From<PositionError> for UnpackError {
    fn from(e: PositionError) -> UnpackError {
        UnpackError::Invalid(e)
    }
}

impl Position {
    /// The position in [`PACKED_SIZE`] bytes (see the module).
    pub fn pack(&self) -> [u8; PACKED_SIZE] {
        let mut b = [0u8; PACKED_SIZE];
        for seat in Seat::ALL {
            for kind in Kind::ALL {
                b[seat.index() * 3 + kind.index()] = self
                    .piece_square(seat, kind)
                    .map_or(OFF, |s| s.index() as u8);
            }
        }
        let mut cooling_moved = 0u8;
        for (i, sq) in self.rocks.into_iter().enumerate().take(4) {
            b[12 + i] = sq.index() as u8;
            cooling_moved |= u8::from(self.cooling.has(sq)) << i;
            cooling_moved |= u8::from(self.moved.has(sq)) << (4 + i);
        }
        b[16] = self.side as u8 | self.steps_left << 2 | self.in_game << 4;
        b[17] = self.lev;
        b[18] = cooling_moved;
        b[20..24].copy_from_slice(&self.turn.to_le_bytes());
        b
    }

    /// Reads [`Position::pack`]'s bytes; an error says what is wrong.
    pub fn unpack(b: &[u8; PACKED_SIZE]) -> Result<Position, UnpackError> {
        let square = |byte: u8| {
            (usize::from(byte) < NUM_SQUARES)
                .then(|| Square::from_index_unchecked(byte))
                .ok_or(UnpackError::BadSquare { byte })
        };
        let mut p = Position::blank();
        for seat in Seat::ALL {
            for kind in Kind::ALL {
                let byte = b[seat.index() * 3 + kind.index()];
                if byte == OFF {
                    continue;
                }
                let sq = square(byte)?;
                p.kinds[kind.index()] |= sq.bb();
                p.seats[seat.index()] |= sq.bb();
            }
        }
        let mut rocks = [0u8; 4];
        for (i, &byte) in b[12..16].iter().enumerate() {
            let sq = square(byte)?;
            if i > 0 && byte <= rocks[i - 1] {
                return Err(UnpackError::RocksNotAscending);
            }
            rocks[i] = byte;
            p.rocks |= sq.bb();
            if b[18] >> i & 1 != 0 {
                p.cooling |= sq.bb();
            }
            if b[18] >> (4 + i) & 1 != 0 {
                p.moved |= sq.bb();
            }
        }
        p.side = Seat::ALL[usize::from(b[16] & 3)];
        p.steps_left = b[16] >> 2 & 3;
        p.in_game = b[16] >> 4;
        if b[17] > LEV_OVER {
            return Err(UnpackError::BadLevitation { byte: b[17] });
        }
        p.lev = b[17];
        if b[19] != 0 {
            return Err(UnpackError::NonZeroPadding { byte: b[19] });
        }
        p.turn = u32::from_le_bytes([b[20], b[21], b[22], b[23]]);
        if p.turn == 0 {
            return Err(UnpackError::TurnZero);
        }
        p.board_hash = p.compute_board_hash();
        p.validate()?;
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::splitmix64;

    /// Every position of random 2–4 player games packs and reads back
    /// equal, hash included.
    #[test]
    fn positions_of_random_games_round_trip() {
        let mut rng = 11u64;
        let mut count = 0;
        for game in 0..60 {
            let mut p = Position::start(2 + game % 3).unwrap();
            while !p.is_game_over() && p.turn() < 80 {
                let back = Position::unpack(&p.pack()).unwrap();
                assert_eq!(back, p, "{}", p.to_spn());
                assert_eq!(back.hash(), p.hash());
                count += 1;
                let steps = p.legal_step_vec();
                p = p.after(steps[(splitmix64(&mut rng) % steps.len() as u64) as usize]);
            }
        }
        assert!(count > 2000, "{count}");
    }

    /// Bytes no position packs to are errors, never a panic or a position
    /// that fails validation.
    #[test]
    fn bad_bytes_are_errors() {
        let good = Position::start(4).unwrap().pack();
        let err = |f: &dyn Fn(&mut [u8; PACKED_SIZE])| {
            let mut b = good;
            f(&mut b);
            Position::unpack(&b).unwrap_err()
        };
        assert_eq!(err(&|b| b[0] = 41), UnpackError::BadSquare { byte: 41 });
        assert_eq!(
            err(&|b| b[0] = 41).to_string(),
            "square byte 41 is not a square 0-40"
        );
        assert_eq!(err(&|b| b[12] = b[13]), UnpackError::RocksNotAscending);
        assert_eq!(
            err(&|b| b[17] = 43),
            UnpackError::BadLevitation { byte: 43 }
        );
        assert_eq!(err(&|b| b[19] = 1), UnpackError::NonZeroPadding { byte: 1 });
        assert_eq!(err(&|b| b[19] = 1).to_string(), "byte 19 is 1, not 0");
        assert_eq!(
            err(&|b| b[20..24].copy_from_slice(&[0; 4])),
            UnpackError::TurnZero
        );
        // Two pieces on one square.
        let e = err(&|b| b[1] = b[0]);
        assert_eq!(
            e,
            UnpackError::Invalid(PositionError::KindsShareSquare),
            "{e}"
        );
        assert_eq!(e.to_string(), "two kinds of piece share a square");
        // Every single-byte change is an error or a valid position.
        let mut rng = 5u64;
        for _ in 0..20_000 {
            let mut b = good;
            let i = (splitmix64(&mut rng) % PACKED_SIZE as u64) as usize;
            b[i] = splitmix64(&mut rng) as u8;
            if let Ok(p) = Position::unpack(&b) {
                assert_eq!(p.validate(), Ok(()));
                assert_eq!(p.pack(), b);
            }
        }
    }
}
