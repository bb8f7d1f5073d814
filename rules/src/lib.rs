//! The rules of Splut! (RULES.md): board geometry, bitboards, Zobrist keys,
//! steps and their notation, step generation per piece, applying steps,
//! turns and elimination, SPN positions and perft.
//!
//! This module depends on nothing else in the crate and on no external crate,
//! so it can be read, tested and reused on its own.

mod bitboard;
mod board;
mod dwarf;
mod history;
mod make;
mod movegen;
mod packed;
mod perft;
mod piece;
mod position;
mod sorcerer;
mod spn;
mod step;
mod troll;
mod turn;
mod zobrist;
pub use zobrist::splitmix64;

#[cfg(test)]
mod testkit;

pub use bitboard::Bitboard;
pub use board::{Direction, NUM_SQUARES, Square};
pub use history::{Game, StepListError};
pub use make::Undo;
pub use movegen::{MAX_STEPS, StepList};
pub use packed::PACKED_SIZE;
pub use perft::{divide, divide_with, perft, perft_interruptible, perft_with};
pub use piece::{Kind, Piece, Seat};
pub use position::{Levitation, MAX_TURN, Position, steps_in_turn};
pub use spn::SpnError;
pub use step::{Extra, Step, StepError, StepKind, StepText};
