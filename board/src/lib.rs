//! What a Splut! board shows about a game, worked out on the rules alone,
//! for both of the web board's back ends: `splut gui`'s server and the
//! WebAssembly board without one (docs/web.md).
//!
//! - [`threats`]: every killing throw an enemy could make against a seat
//!   in its next turn, and the seat's own kills at hand;
//! - [`events`]: what each step did (mover, squares, pushes, pulls,
//!   levitations, a throw's flight, crushes, seats out), read off the
//!   rules' play of it, for the page's words and marks;
//! - [`marks`]: how a step is drawn (its event);
//! - [`page`]: the page itself (`board/page/`), which both hosts serve;
//! - [`review`]: a seat's expected score on the game's scale, and the
//!   marks of a turn that drops it;
//! - [`view`]: a position as the board draws it (its pieces, side,
//!   steps, rocks cooling, moved and levitated, seats in), which both
//!   hosts send beside every SPN: the page reads no SPN;
//! - [`session`]: one game on the board as a state
//!   machine with no I/O: requests, engine answers and the time go in;
//!   protocol lines for the engine, the timer it wants and the page's
//!   state come out. Each host runs the engine and the clock.
//!
//! They speak the rules' types (`Seat`, `Square`, `Step`) and serialise
//! as the page reads them (serde's derive, always: every host answers the
//! page in JSON), a seat as its letter, a square as its name and a step as
//! its text ([`letters`]).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod events;
pub mod letters;
pub mod marks;
pub mod page;
pub mod review;
pub mod session;
pub mod threats;
pub mod view;
