//! The tools around the engine: tournaments, shards and standings,
//! records, datagen, tuning, training, and the web board (its API and, in Chromium,
//! its page). The slow group: `cargo test --test tools` runs it alone.

#[path = "../support/mod.rs"]
mod support;

mod cli_perft;
mod data;
mod datagen;
mod fuzz_gui;
mod gui_analysis;
mod gui_api;
mod gui_browser;
mod gui_clocks;
mod gui_clocks_browser;
mod gui_expose;
mod gui_lobby;
mod gui_pool;
mod gui_store;
mod gui_tables;
mod gui_tables_browser;
mod loop_rounds;
mod properties_records;
mod replay_hardening;
mod shards;
mod test_command;
mod tournament;
mod train;
mod tune;
mod web;
