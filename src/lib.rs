//! Splut! engine library.
//!
//! - [`game`]: the rules core (no dependencies): positions, steps, SPN, perft.
//! - [`parallel_perft`]: perft split over threads with rayon.
//! - [`cli`]: the `splut` command line.

#![warn(missing_docs)]

pub mod cli;
pub mod game;
pub mod parallel_perft;
