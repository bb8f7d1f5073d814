//! `splut replay`: a records file read and every game judged again.

use splut_play::record::{RecordReader, validate_at};
use std::io::Write;
use std::path::Path;

/// Replays a records file game by game (one in memory at a time): a bad
/// game is reported with its line, the line of what is wrong (a tag or a
/// turn) and why, and the next one read; the exit code is 1 if any was
/// (or the header, checked and skipped, is bad).
pub fn run(file: &Path) -> i32 {
    let f = match std::fs::File::open(file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", file.display());
            return 2;
        }
    };
    let mut out = std::io::stdout().lock();
    let (mut games, mut bad) = (0usize, 0usize);
    let mut bad_header = false;
    let mut input = std::io::BufReader::new(f);
    // A header (written by `tournament`) is checked and skipped.
    let lines = match crate::tournament::header::read(&mut input) {
        Ok(None) => 0,
        Ok(Some(block)) => {
            if let Err(e) = block.header {
                bad_header = true;
                let _ = writeln!(out, "header (line 1): INVALID: {e}");
            }
            block.lines
        }
        Err(e) => {
            eprintln!("error: {}: header: {e}", file.display());
            return 2;
        }
    };
    let mut reader = RecordReader::after_lines(input, lines);
    // Not a `for` loop: each game's lines are asked of the reader.
    while let Some(game) = reader.next() {
        games += 1;
        let problem = match game {
            Ok((line, g)) => validate_at(&g, reader.lines())
                .err()
                .map(|e| format!("game {} (line {line}): INVALID: {e}", g.number)),
            Err(b) => Some(match b.number {
                Some(n) => format!("game {n} (line {}): INVALID: {}", b.line, b.reason),
                None => format!("game at line {}: INVALID: {}", b.line, b.reason),
            }),
        };
        if let Some(p) = problem {
            bad += 1;
            let _ = writeln!(out, "{p}");
        }
    }
    let _ = writeln!(out, "{games} games, {} valid, {bad} invalid", games - bad);
    i32::from(bad > 0 || bad_header)
}
