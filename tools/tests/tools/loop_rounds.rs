//! `splut loop` as a user runs it: two tiny rounds, killed (`kill -9`)
//! mid-round and started again, the same rounds as a run never killed;
//! a finished directory that does nothing; settings that must be the
//! loop's; the cluster's way (shards played apart, `--coordinate` doing
//! the rest); and the network it trained loaded by the engine for 3–4
//! seats.

use crate::support::{Engine, SPLUT, splut, temp, text};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The tiny loop's settings: a game of each count a round, searches of a
/// few dozen nodes.
const TINY: [&str; 12] = [
    "--games",
    "2",
    "--nodes",
    "60",
    "--gate-games",
    "2",
    "--epochs",
    "1",
    "--threads",
    "1",
    "--no-progress",
    "--window",
];

fn tiny(dir: &Path, rounds: &str, more: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = vec!["loop".into(), dir.display().to_string()];
    a.extend(TINY.iter().map(|s| s.to_string()));
    a.push("2".into());
    a.extend(["--rounds".into(), rounds.into()]);
    a.extend(more.iter().map(|s| s.to_string()));
    a
}

fn run(args: &[String]) -> std::process::Output {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    splut(&a)
}

/// The loop refused to run (exit code 2), saying `why`.
fn refused(o: &std::process::Output, why: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", text(o));
    assert!(text(o).contains(why), "{}", text(o));
}

fn manifest(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("loop.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The manifest without its times (which differ from run to run).
fn without_times(mut v: serde_json::Value) -> serde_json::Value {
    for r in v["rounds"].as_array_mut().unwrap() {
        for step in ["selfplay", "train", "gate"] {
            if let Some(o) = r[step].as_object_mut() {
                o.remove("seconds");
            }
        }
    }
    v
}

fn fresh(name: &str) -> PathBuf {
    let dir = temp("loop", name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_loop_killed_mid_round_goes_on_to_the_same_rounds() {
    // Uninterrupted, with the reference games against the hand-written
    // evaluation.
    let hand = ["--hand-games", "2"];
    let whole = fresh("whole");
    let o = run(&tiny(&whole, "2", &hand));
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(
        out.contains("round played by") && out.contains("vs hand"),
        "the table of rounds: {out}"
    );
    let m = manifest(&whole);
    assert_eq!(m["rounds"].as_array().unwrap().len(), 2);
    for r in m["rounds"].as_array().unwrap() {
        assert!(r["gate"]["results"].as_array().unwrap().len() == 2, "{r}");
        let reference = r["gate"]["hand"].as_array().unwrap();
        assert_eq!(reference.len(), 2, "{r}");
        assert!(reference.iter().all(|x| x["games"] == 2), "{r}");
        assert!(
            r["gate"]["why"]
                .as_str()
                .unwrap()
                .contains("against the hand-written evaluation"),
            "{r}"
        );
        let sp = &r["selfplay"];
        assert!(sp["games"].as_u64().unwrap() >= 2, "{sp}");
        assert!(sp["positions"].as_u64().unwrap() > 0, "{sp}");
    }
    // Round 2 trains from round 1's weights, on both rounds' data.
    let t2 = &m["rounds"][1]["train"];
    assert_eq!(t2["init"], "round-001/train/epoch-001.ckpt");
    assert_eq!(t2["files"].as_array().unwrap().len(), 4);

    // Killed, at a moment that moves with the machine's speed: once round
    // 1's self-play is in, or later.
    let killed = fresh("killed");
    let args = tiny(&killed, "2", &hand);
    let mut child = Command::new(SPLUT)
        .args(&args[..])
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !killed.join("round-001/selfplay-s0of1.json").exists() {
        assert!(t0.elapsed() < Duration::from_secs(120), "no self-play");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let o = run(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        without_times(manifest(&killed)),
        without_times(manifest(&whole)),
        "the resumed loop is the one never killed"
    );
    assert_eq!(
        std::fs::read(killed.join("round-002/net.nnue")).unwrap(),
        std::fs::read(whole.join("round-002/net.nnue")).unwrap(),
    );
    // The gate's games too (their header, which names the networks'
    // paths, aside).
    let games = |dir: &Path| {
        let text = std::fs::read_to_string(dir.join("round-002/gate-p3-s0of1.games")).unwrap();
        text.split_once("\n\n").unwrap().1.to_string()
    };
    assert_eq!(games(&killed), games(&whole));
    // The reference's games are against the hand-written evaluation.
    let reference =
        std::fs::read_to_string(whole.join("round-002/gate-hand-p4-s0of1.games")).unwrap();
    assert!(
        reference.contains("hand-4") && reference.contains("EvalFileMulti=none"),
        "{reference}"
    );

    // Done: starting it again does nothing.
    let before = std::fs::metadata(whole.join("loop.json"))
        .unwrap()
        .modified()
        .unwrap();
    let o = run(&tiny(&whole, "2", &[]));
    assert!(o.status.success(), "{}", text(&o));
    let after = std::fs::metadata(whole.join("loop.json"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after, "a finished loop wrote nothing");
    // Its settings are kept: another value is refused, naming it.
    let dir = whole.display().to_string();
    let o = splut(&["loop", &dir, "--rounds", "2", "--nodes", "61"]);
    refused(&o, "--nodes 61 differs");

    // The engine loads the trained network for 3–4 seats: it searches
    // differently from the engine's own evaluation there.
    let net = whole.join("round-002/net.nnue").display().to_string();
    let nodes = |multi: Option<&str>| {
        let mut e = Engine::start();
        if let Some(path) = multi {
            e.send(&format!("setoption name EvalFileMulti value {path}"));
        }
        e.send("position startpos players 3");
        let (lines, _, _) = e.go("depth 4");
        // The last report's score and nodes (its time and speed vary).
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        let words: Vec<&str> = info.split(' ').collect();
        let at = |w: &str| words.iter().position(|x| *x == w).unwrap();
        let (score, nodes) = (at("score"), at("nodes"));
        format!("{} {}", words[score..score + 3].join(" "), words[nodes + 1])
    };
    // The same search twice gives the same figures: the network makes
    // the difference (against the hand-written evaluation, `none`, and
    // against the compiled-in network).
    assert_eq!(nodes(Some("none")), nodes(Some("none")));
    assert_ne!(nodes(Some(&net)), nodes(Some("none")));
    assert_ne!(nodes(Some(&net)), nodes(None));
    assert_ne!(nodes(None), nodes(Some("none")));
    let mut e = Engine::start();
    e.send("setoption name EvalFileMulti value /no/such.nnue");
    let error = e.expect("info string error");
    assert!(
        error.contains("EvalFileMulti") && error.contains("/no/such.nnue"),
        "{error}"
    );
}

/// The command that started a loop from a network also resumes it (its
/// `--net` the same file); another network, or one given to a loop
/// started from the engine's own evaluation, is refused.
#[test]
fn the_command_that_started_a_loop_from_a_network_resumes_it() {
    let nets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/nets");
    let (multi, two) = (nets.join("multi.nnue"), nets.join("default.nnue"));
    let (multi, two) = (multi.to_str().unwrap(), two.to_str().unwrap());
    let dir = fresh("from-net");
    let o = run(&tiny(&dir, "1", &["--net", multi]));
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&tiny(&dir, "2", &["--net", multi]));
    assert!(o.status.success(), "{}", text(&o));
    let m = manifest(&dir);
    assert_eq!(m["rounds"].as_array().unwrap().len(), 2, "{m}");
    assert_eq!(m["settings"]["start"], "start.nnue");
    let o = run(&tiny(&dir, "2", &["--net", two]));
    refused(&o, "is not the network this loop started from");
    let own = fresh("from-own");
    let o = run(&tiny(&own, "1", &[]));
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&tiny(&own, "1", &["--net", multi]));
    refused(&o, "started from the engine's own evaluation");
}

/// `--selfplay newest`: round 2's self-play is played by round 1's
/// network though the gate did not promote it; with the best (none
/// promoted) the engine's own evaluation plays it.
#[test]
fn the_newest_network_plays_self_play_when_asked() {
    let by_best = fresh("by-best");
    let by_newest = fresh("by-newest");
    // No network can reach 100% of the place points of 2 games against
    // itself and a seat more: nothing is promoted.
    for (dir, by) in [(&by_best, "best"), (&by_newest, "newest")] {
        let o = run(&tiny(dir, "2", &["--threshold", "1", "--selfplay", by]));
        assert!(o.status.success(), "{}", text(&o));
        let m = manifest(dir);
        assert_eq!(m["best"], serde_json::Value::Null, "{m}");
        assert_eq!(m["settings"]["selfplay"], by);
        let table = text(&o);
        let round2 = table.lines().find(|l| l.starts_with("2 ")).unwrap();
        let played = if by == "newest" {
            "round-001/net.nnue"
        } else {
            "engine"
        };
        assert!(round2.contains(played), "{table}");
    }
    let data = |dir: &Path, r: u32| {
        std::fs::read(dir.join(format!("round-00{r}/selfplay-p3-s0of1.bin"))).unwrap()
    };
    assert_eq!(
        data(&by_best, 1),
        data(&by_newest, 1),
        "round 1: both the engine's own"
    );
    assert_ne!(
        data(&by_best, 2),
        data(&by_newest, 2),
        "round 2: the network's games"
    );
    // The choice is the loop's: another one given later is refused.
    let dir = by_newest.display().to_string();
    let o = splut(&["loop", &dir, "--rounds", "2", "--selfplay", "best"]);
    refused(&o, "--selfplay Best differs");
}

#[test]
fn a_cluster_plays_the_shards_and_the_coordinator_the_rest() {
    let dir = fresh("shards");
    let coordinate = tiny(&dir, "1", &["--shards", "2", "--coordinate"]);
    let shard = |k: &str| run(&tiny(&dir, "1", &["--shards", "2", "--shard", k]));
    // Nothing played yet: the coordinator names the missing shards.
    let o = run(&coordinate);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(
        text(&o).contains("self-play shards missing: 0, 1 of 2"),
        "{}",
        text(&o)
    );
    for k in ["0/2", "1/2"] {
        let o = shard(k);
        assert!(o.status.success(), "{}", text(&o));
    }
    // Self-play in: the coordinator trains, then waits for the gate.
    let o = run(&coordinate);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(
        text(&o).contains("gate shards missing: 0, 1 of 2"),
        "{}",
        text(&o)
    );
    assert!(dir.join("round-001/net.nnue").exists());
    for k in ["1/2", "0/2"] {
        let o = shard(k);
        assert!(o.status.success(), "{}", text(&o));
    }
    let o = run(&coordinate);
    assert!(o.status.success(), "{}", text(&o));
    let m = manifest(&dir);
    let gate = &m["rounds"][0]["gate"];
    let games: u64 = gate["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_u64().unwrap())
        .sum();
    assert_eq!(games, 4, "every gate game, from both shards: {gate}");
    // A shard of another count is refused.
    let o = run(&tiny(&dir, "1", &["--shards", "2", "--shard", "0/3"]));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}
