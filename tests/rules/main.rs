//! The rules core: perft counts, random games against recomputed state,
//! garbage and property tests of the parsers, the `perft` command.
//! `cargo test --test rules`.

#[path = "../support/mod.rs"]
mod support;

mod cli_perft;
mod garbage_input;
mod perft;
mod properties_game;
mod random_games;
