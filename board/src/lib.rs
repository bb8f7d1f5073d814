//! What a Splut! board shows about a game, worked out on the rules alone,
//! for both of the web board's back ends: `splut gui`'s server and the
//! WebAssembly board without one (docs/web.md).
//!
//! - [`threats`]: every killing throw an enemy could make against a seat
//!   in its next turn, and the seat's own kills at hand;
//! - [`marks`]: how a step is drawn (squares, rock, a throw's flight);
//! - [`review`]: a seat's expected score on the game's scale, and the
//!   marks of a turn that drops it.
//!
//! They speak the rules' types (`Seat`, `Square`, `Step`); with the
//! feature `serde` they serialise as the page reads them, a seat as its
//! letter, a square as its name and a step as its text (`letters`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "serde")]
pub mod letters;
pub mod marks;
pub mod review;
pub mod threats;
