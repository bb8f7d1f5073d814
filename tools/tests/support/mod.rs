//! What the three test crates share: running the `splut` binary, temporary
//! files, the protocol driver ([`engine`]) and the web board's HTTP client
//! ([`gui`]). The random numbers come from the crate's own SplitMix64
//! (`splut_rules::splitmix64`).
#![allow(dead_code)]

pub mod engine;
pub mod gui;

pub use engine::Engine;

use std::path::PathBuf;
use std::process::{Command, Output};

/// The binary under test.
pub const SPLUT: &str = env!("CARGO_BIN_EXE_splut");

/// Runs `splut` with `args` to its end.
pub fn splut(args: &[&str]) -> Output {
    Command::new(SPLUT).args(args).output().expect("run splut")
}

/// Its stdout, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Its stdout then its stderr, as text.
pub fn text(o: &Output) -> String {
    stdout(o) + &String::from_utf8_lossy(&o.stderr)
}

/// A path for the file `name` in this run's temporary directory of
/// `group` (one per test file, so tests running at once never share a
/// file); nothing is there yet.
pub fn temp(group: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("splut-{group}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}
