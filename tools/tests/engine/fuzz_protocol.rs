//! Protocol fuzzing: the real binary, driven through pipes by a seeded
//! hostile GUI (see `tests/engine/fuzz/`). Runs briefly by default; set
//! `SPLUT_FUZZ_SECS` and `SPLUT_FUZZ_SEED` for longer runs, or use
//! `scripts/fuzz-protocol`. A failure writes a report (seed, transcript,
//! stderr) and a replay file (every byte sent in that session, for
//! `splut < file`) under `target/fuzz/`.
//!
//! `fuzz_protocol_wasm` fuzzes the WebAssembly engine under Node
//! (`target/web/splut-node.mjs`, or the one `SPLUT_FUZZ_WASM` names) the
//! same way, the native engine beside it as a twin given the same bytes:
//! every answer must be the native engine's (`fuzz/twin.rs`). It is
//! skipped, saying so, when `SPLUT_SKIP_WEB` is set or node or the folder
//! is missing; `scripts/fuzz-protocol --wasm` runs it for longer.

use crate::fuzz::config::Config;
use crate::fuzz::driver::Driver;
use crate::fuzz::session::{Failure, Session, Stats};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// Seconds of fuzzing under a plain `cargo test`.
const DEFAULT_SECS: f64 = 4.0;
/// Full reports printed per failure class (all are written to files).
const PRINTED_PER_KIND: usize = 1;

fn report_dir() -> PathBuf {
    // target/tmp → target/fuzz, wherever the target directory is.
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().map_or(tmp.clone(), |t| t.join("fuzz"))
}

fn file_name(kind: &str) -> String {
    kind.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect()
}

/// Writes the report and replay file; returns the report's text.
fn report(cfg: &Config, seed: u64, f: &Failure, transcript: &str, d: &Driver) -> (String, PathBuf) {
    let (wasm, test) = match &cfg.wasm {
        Some(p) => (
            format!("SPLUT_FUZZ_WASM={} ", p.display()),
            "fuzz_protocol::fuzz_protocol_wasm",
        ),
        None => (String::new(), "fuzz_protocol::fuzz_protocol"),
    };
    let mut text = format!(
        "splut protocol fuzz failure: {}\n{}\n\nsession seed {seed} (rerun: {wasm}SPLUT_FUZZ_SEED={seed} \
         SPLUT_FUZZ_SECS=1 cargo test --test engine {test} -- --exact --nocapture)\nconfig {cfg:?}\n\n\
         last lines (> sent, < received):\n",
        f.kind, f.detail
    );
    text.push_str(transcript);
    text.push('\n');
    text.push_str("\nstderr:\n");
    text.push_str(&d.stderr_tail());
    let dir = report_dir();
    let _ = std::fs::create_dir_all(&dir);
    let engine = if cfg.wasm.is_some() && !f.kind.starts_with("wasm-") {
        "wasm-"
    } else {
        ""
    };
    let base = dir.join(format!("{engine}{}-seed{seed}", file_name(&f.kind)));
    let path = base.with_extension("txt");
    let _ = std::fs::write(&path, &text);
    let _ = std::fs::write(base.with_extension("in"), &d.replay);
    (text, path)
}

#[test]
fn fuzz_protocol() {
    let mut cfg = Config::from_env(DEFAULT_SECS);
    cfg.wasm = None;
    run(&cfg);
}

/// The WebAssembly engine's `splut-node.mjs`, or why it is not fuzzed.
fn wasm_engine() -> Result<PathBuf, String> {
    if std::env::var_os("SPLUT_SKIP_WEB").is_some_and(|v| !v.is_empty()) {
        return Err("SPLUT_SKIP_WEB is set".into());
    }
    let script = match std::env::var_os("SPLUT_FUZZ_WASM").filter(|v| !v.is_empty()) {
        Some(p) => PathBuf::from(p),
        // The folder scripts/web wrote: SPLUT_WEB_DIR (as the web tests
        // read it) or target/web.
        None => std::env::var_os("SPLUT_WEB_DIR")
            .filter(|v| !v.is_empty())
            .map_or_else(
                || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("target/web"),
                PathBuf::from,
            )
            .join("splut-node.mjs"),
    };
    if Command::new("node").arg("--version").output().is_err() {
        return Err("no node".into());
    }
    let wasm = script.with_file_name("splut.wasm");
    if !script.is_file() || !wasm.is_file() {
        return Err(format!(
            "no {} beside {} (scripts/web target/web writes them)",
            script.display(),
            wasm.display()
        ));
    }
    Ok(script)
}

#[test]
fn fuzz_protocol_wasm() {
    let script = match wasm_engine() {
        Ok(s) => s,
        Err(why) => {
            eprintln!("fuzz_protocol_wasm: skipped ({why})");
            return;
        }
    };
    // Without SPLUT_FUZZ_WASM (a plain `cargo test`), a short slice whatever
    // SPLUT_FUZZ_SECS says: that is for the native fuzzer's long runs.
    let asked = std::env::var_os("SPLUT_FUZZ_WASM").is_some_and(|v| !v.is_empty());
    let mut cfg = Config::from_env(DEFAULT_SECS);
    if !asked {
        cfg.duration = std::time::Duration::from_secs_f64(DEFAULT_SECS);
    }
    // Node runs the engine 1.5–2× slower than native, and starts slower.
    cfg.slack *= 2.0;
    cfg.wasm = Some(script);
    run(&cfg);
}

fn run(cfg: &Config) {
    let cfg = cfg.clone();
    let start = Instant::now();
    let end = start + cfg.duration;
    let mut stats = Stats::default();
    let mut failures: BTreeMap<String, (usize, PathBuf)> = BTreeMap::new();
    let mut session_no = 0u64;
    while session_no == 0 || Instant::now() < end {
        let seed = cfg.seed.wrapping_add(session_no);
        session_no += 1;
        // Session lengths vary so that restarts happen at different points.
        let actions = 30 + (seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize % 370;
        let (mut driver, mut found) = match Session::start(&cfg, seed, &mut stats) {
            Ok(mut s) => {
                let r = s.run(actions, end);
                let mut found = std::mem::take(&mut s.soft);
                let twin = s.twin_tail();
                let mut d = s.into_driver();
                if let Err(f) = r {
                    let t: Vec<&str> = d.transcript.iter().map(String::as_str).collect();
                    let mut t = t.join("\n");
                    if let Some(twin) = twin {
                        t.push_str("\n\nthe native twin's last lines:\n");
                        t.push_str(&twin);
                    }
                    found.push((f, t));
                }
                d.kill();
                (d, found)
            }
            Err(b) => {
                let (d, f) = *b;
                let t: Vec<&str> = d.transcript.iter().map(String::as_str).collect();
                let t = t.join("\n");
                (d, vec![(f, t)])
            }
        };
        driver.kill();
        stats.lines += driver.lines_sent;
        for (failure, transcript) in found.drain(..) {
            let (text, path) = report(&cfg, seed, &failure, &transcript, &driver);
            let entry = failures
                .entry(failure.kind.clone())
                .or_insert((0, path.clone()));
            entry.0 += 1;
            if entry.0 <= PRINTED_PER_KIND {
                let lines: Vec<&str> = text.lines().collect();
                let cut = lines.len().saturating_sub(60);
                eprintln!(
                    "\n=== fuzz failure: {} (report: {})\n{}\n...\n{}\n",
                    failure.kind,
                    path.display(),
                    lines[..8.min(lines.len())].join("\n"),
                    lines[cut.max(8)..].join("\n")
                );
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let total: usize = failures.values().map(|v| v.0).sum();
    let engine = if cfg.wasm.is_some() {
        format!(
            "WebAssembly under Node against native: {} answers compared, {} jobs compared in full; ",
            stats.compared, stats.jobs_compared
        )
    } else {
        String::new()
    };
    // Not "N searches" nor "N perfts": scripts/fuzz-protocol reads those.
    let kinds = format!(
        "{} MCTS/level searches, {} deep perfts (stopped unless done), {} ends of input under a job; ",
        stats.varied_searches, stats.deep_perfts, stats.eof_jobs
    );
    println!(
        "fuzz summary: {engine}{kinds}{} actions, {} commands sent ({:.0}/s), {} sessions, {} searches, {} perfts, {} bestmoves checked, {} error lines, {} failures in {:.1} s (seeds {}..{})",
        stats.actions,
        stats.lines,
        stats.lines as f64 / secs,
        stats.sessions,
        stats.searches,
        stats.perfts,
        stats.bestmoves,
        stats.errors,
        total,
        secs,
        cfg.seed,
        cfg.seed.wrapping_add(session_no)
    );
    for (kind, (n, path)) in &failures {
        println!(
            "fuzz failure: {n} x {kind} (first report: {})",
            path.display()
        );
    }
    assert!(
        failures.is_empty(),
        "{total} fuzz failures: {:?}",
        failures.keys().collect::<Vec<_>>()
    );
}
