//! The rules of Splut! (RULES.md): board geometry, bitboards, Zobrist keys,
//! steps and their notation, step generation per piece, applying steps,
//! turns and elimination, SPN positions and perft.
//!
//! ```
//! use splut_rules::{Position, perft};
//!
//! // A position from its SPN: here the 2-player start's own.
//! let spn = Position::start(2).unwrap().to_spn();
//! assert_eq!(spn, "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -");
//! let start = Position::from_spn(&spn)?;
//!
//! // Its legal steps, in their text form.
//! let steps: Vec<String> = start.legal_step_vec().iter().map(|s| s.to_string()).collect();
//! assert_eq!(steps.len(), 3);
//!
//! // A whole turn: the side to move's steps until the turn passes (red's
//! // first turn has one step, green's then has two).
//! let mut pos = start.after(start.parse_step("e2e3")?);
//! let mover = pos.side_to_move();
//! while pos.side_to_move() == mover && !pos.is_game_over() {
//!     let step = pos.legal_step_vec()[0];
//!     println!("{mover} plays {step}");
//!     pos.play(step);
//! }
//! assert_eq!((pos.side_to_move(), pos.turn()), (start.side_to_move(), 3));
//!
//! // Perft: the leaves of the step tree 4 steps deep (tests/data/perft.txt).
//! assert_eq!(perft(&start, 4), 691);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The crate has no dependencies, not even on other crates of the
//! project, so it can be read, tested and reused on its own. What is in it:
//!
//! - **board**: the 41 squares of the diamond ([`Square`]), [`Direction`]s,
//!   neighbour and ray tables; **bitboard**: sets of squares ([`Bitboard`]).
//! - **piece**: seats and pieces ([`Seat`], [`Kind`], [`Piece`]).
//! - **position**: the game state ([`Position`]), its queries, and
//!   [`Position::validate`] ([`PositionError`]); **zobrist**: its hash keys
//!   ([`Position::hash`], [`splitmix64`]).
//! - **step**: steps and their text ([`Step`], [`StepText`], [`StepError`]).
//! - **sorcerer**, **dwarf**, **troll**: each piece's steps (levitation,
//!   pushes, pulls and throws); **movegen**: the legal steps
//!   ([`Position::legal_steps`], [`StepList`], [`Position::parse_step`]).
//! - **make**: playing and taking back steps ([`Position::make`],
//!   [`Position::unmake`], [`Position::after`]); **turn**: turns,
//!   elimination, the end of the game ([`Position::whole_turn_of`],
//!   [`WholeTurnError`]).
//! - **history**: a game, its steps and undo ([`Game`]); **places**: the
//!   finishing places ([`Game::places`], [`Places`]) and their points
//!   ([`place_points`]).
//! - **spn**: positions as text ([`Position::from_spn`],
//!   [`Position::to_spn`], [`SpnError`]); **packed**: positions in 24
//!   bytes ([`Position::pack`], [`Position::unpack`], [`UnpackError`]).
//! - **perft**: counting the step tree ([`perft`], [`divide`]; a part at
//!   a time, [`PerftWalk`]).

mod action;
mod bitboard;
mod board;
mod dwarf;
mod history;
mod make;
mod movegen;
mod packed;
mod perft;
mod piece;
mod places;
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

pub use action::NUM_ACTIONS;
pub use bitboard::Bitboard;
pub use board::{Direction, NUM_SQUARES, Square};
pub use history::{Game, StepListError};
pub use make::Undo;
pub use movegen::{MAX_STEPS, StepList};
pub use packed::{PACKED_SIZE, UnpackError};
pub use perft::{PerftWalk, divide, divide_with, perft, perft_interruptible, perft_with};
pub use piece::{Kind, Piece, Seat};
pub use places::{Places, place_points, shared_place_points};
pub use position::{Levitation, MAX_TURN, Position, PositionError, steps_in_turn};
pub use spn::SpnError;
pub use step::{Extra, Step, StepError, StepKind, StepText};
pub use turn::WholeTurnError;
