//! The protocol, driven through the real binary as a GUI or referee would.

use crate::support::Engine;
use splut_rules::Position;
use std::time::{Duration, Instant};

/// Applies a bestturn to `spn` and checks it is exactly the rest of the
/// side to move's turn: every step legal, and the turn over after the last.
fn assert_whole_legal_turn(spn: &str, turn: &[String]) {
    let mut pos = Position::from_spn(spn).unwrap();
    let (side, number) = (pos.side_to_move(), pos.turn());
    assert!(!turn.is_empty(), "empty turn for {spn}");
    for (i, text) in turn.iter().enumerate() {
        assert!(
            pos.turn() == number && pos.side_to_move() == side && !pos.is_game_over(),
            "{turn:?} goes past the turn at step {}",
            i + 1
        );
        let step = pos
            .parse_step(text)
            .unwrap_or_else(|e| panic!("{turn:?} in {spn}: {e}"));
        pos.play(step);
    }
    assert!(
        pos.turn() != number || pos.is_game_over(),
        "{turn:?} stops before the turn ends"
    );
}

#[test]
fn handshake_lists_id_and_every_option() {
    let mut e = Engine::spawn();
    e.send("ugi");
    let lines = e.read_until("ugiok");
    assert!(lines[0].starts_with("id name splut"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for name in [
        "Hash",
        "Threads",
        "Algorithm",
        "MoveOverhead",
        "Seed",
        "MctsParallel",
        "MctsExploration",
        "MctsPlayout",
        "MctsMinimax",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name} missing: {lines:?}"
        );
    }
    let algo = lines.iter().find(|l| l.contains("name Algorithm")).unwrap();
    for name in [
        "auto",
        "alphabeta",
        "maxn",
        "brs",
        "brsplus",
        "mcts",
        "uct-plain",
        "random",
        "greedy",
    ] {
        assert!(algo.contains(&format!("var {name}")), "{name}: {algo}");
    }
    e.send("isready");
    e.expect("readyok");
    assert!(e.quit().success());
}

#[test]
fn setoption_accepts_good_values_and_reports_bad_ones() {
    let mut e = Engine::start();
    for ok in [
        "setoption name Hash value 8",
        "setoption name Threads value 2",
        "setoption name Algorithm value maxn",
        "setoption name algorithm value AlphaBeta",
        "setoption name MoveOverhead value 0",
        "setoption name Seed value 12345",
    ] {
        e.send(ok);
    }
    for bad in [
        "setoption name Hash value 0",
        "setoption name Threads value many",
        "setoption name Algorithm value minimax",
        "setoption name Colour value red",
        "setoption Hash 8",
        "setoption name Hash",
        "setoption name Hash value 65536",
    ] {
        e.send(bad);
        let l = e.expect("info string error: ");
        assert!(l.len() > "info string error: ".len() + 5, "{bad}: {l}");
    }
    e.send("isready");
    let lines = e.read_until("readyok");
    assert_eq!(lines, ["readyok"], "good options must be silent");
    let (_, turn, _) = e.go("depth 3");
    assert_whole_legal_turn("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -", &turn);
}

#[test]
fn go_depth_reports_each_iteration_and_ends_with_bestturn_then_bestmove() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e3 e8e7 f8f7");
    let (lines, turn, best) = e.go("depth 5");
    let depths: Vec<u32> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .map(|l| l.split(' ').nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths, [1, 2, 3, 4, 5], "{lines:?}");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    for field in [
        " seldepth ",
        " score ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
    // Three steps, or fewer when a throw ends the turn early.
    assert!((1..=3).contains(&turn.len()), "{turn:?}");
    assert_eq!(best, turn[0]);
    let spn = e.query("spn");
    assert_whole_legal_turn(&spn, &turn);
}

#[test]
fn go_nodes_stops_at_exactly_that_many_nodes() {
    let mut e = Engine::start();
    e.send("position startpos players 3 moves e2e3 b5c5 b6c6");
    let (lines, turn, _) = e.go("nodes 20000");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let nodes: u64 = last
        .split(' ')
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(nodes, 20000, "{last}");
    assert_whole_legal_turn(&e.query("spn"), &turn);
    // And it is reproducible from the same state (an empty hash table:
    // what earlier searches left in it steers the next one).
    e.send("uginewgame");
    e.send("position startpos players 3 moves e2e3 b5c5 b6c6");
    let (lines2, turn2, _) = e.go("nodes 20000");
    assert_eq!(turn, turn2);
    let last2 = lines2
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert_eq!(
        last.split(" nps ").next(),
        last2.split(" nps ").next(),
        "same depth, score and nodes"
    );
}

#[test]
fn go_movetime_and_clocks_give_legal_turns() {
    let mut e = Engine::start();
    for (setup, go) in [
        ("position startpos", "movetime 100"),
        (
            "position startpos moves e2e3",
            "p1time 5000 p2time 5000 p1inc 100 p2inc 100",
        ),
        (
            "position startpos players 4",
            "rtime 3000 ytime 3000 gtime 3000 btime 3000 rinc 50",
        ),
        (
            "position startpos players 3 moves e2e3 b5c5 b6c6",
            "gtime 2000 ginc 0",
        ),
    ] {
        e.send(setup);
        let spn = e.query("spn");
        let (_, turn, best) = e.go(go);
        assert_eq!(best, turn[0], "{go}");
        assert_whole_legal_turn(&spn, &turn);
    }
}

#[test]
fn stop_ends_an_infinite_search_promptly() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e3 e8e7 f8f7");
    e.send("go infinite");
    // While searching: isready and queries are answered at once.
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.expect("readyok");
    assert_eq!(e.query("turn"), "r");
    // An infinite search does not end by itself.
    assert!(
        e.read_until_within("bestmove", Duration::from_millis(300))
            .is_none()
    );
    let t = Instant::now();
    e.send("stop");
    let (_, turn, _) = e.finish_search();
    let waited = t.elapsed();
    // The requirement is 50 ms (measured: docs/results/speed.md, "Search"); the bound here is
    // loose because test machines are shared.
    assert!(waited < Duration::from_millis(500), "{waited:?}");
    assert_whole_legal_turn(&e.query("spn"), &turn);
}

#[test]
fn a_referee_asking_step_by_step_gets_the_plan_at_once() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e3 e8e7 f8f7");
    let (_, turn, _) = e.go("depth 6");
    assert_eq!(turn.len(), 3);
    let mut played = String::from("position startpos moves e2e3 e8e7 f8f7");
    for k in 1..3 {
        played.push(' ');
        played.push_str(&turn[k - 1]);
        e.send(&played);
        let t = Instant::now();
        let (lines, rest, best) = e.go("depth 30");
        assert!(
            t.elapsed() < Duration::from_secs(1),
            "no new search expected"
        );
        assert!(
            lines
                .iter()
                .any(|l| l == "info string continuing the planned turn"),
            "{lines:?}"
        );
        assert_eq!(rest, turn[k..]);
        assert_eq!(best, turn[k]);
    }
}

#[test]
fn queries_answer_about_the_current_position() {
    let mut e = Engine::start();
    assert_eq!(e.query("p1turn"), "true");
    assert_eq!(e.query("gameover"), "false");
    assert_eq!(e.query("result"), "none");
    assert_eq!(e.query("turn"), "r");
    assert_eq!(e.query("winner"), "none");
    assert_eq!(e.query("steps"), "1");
    assert_eq!(e.query("legal"), "d2d3 e2e3 f2f3");
    assert_eq!(e.query("spn"), "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -");
    e.send("position startpos moves e2e3");
    assert_eq!(e.query("p1turn"), "false");
    assert_eq!(e.query("steps"), "2");
    // Green throws onto the red sorcerer: game over, p2 (green) won.
    e.send("position fen R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 g 3 10 - - -");
    assert_eq!(
        e.query("p1turn"),
        "false",
        "turn 10 is green's, so red is p1"
    );
    e.send("position fen R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 11 - - - moves e3e4*n");
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), "p1win");
    assert_eq!(e.query("winner"), "r");
    assert_eq!(e.query("legal"), "");
    e.send("go depth 3");
    let lines = e.read_until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: the game is over")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
}

#[test]
fn d_and_perft_show_the_position() {
    let mut e = Engine::start();
    e.send("position startpos players 3");
    e.send("d");
    let lines = e.read_until("R/gTgDgS");
    assert!(lines.iter().any(|l| l.starts_with("9 ")), "{lines:?}");
    e.send("perft 4");
    let lines = e.read_until("nodes ");
    assert_eq!(lines.last().unwrap(), "nodes 219");
    assert_eq!(lines.len(), 4);
}

#[test]
fn bad_input_gives_an_error_and_changes_nothing() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e3 e8e7");
    let before = e.query("spn");
    for bad in [
        "frobnicate",
        "position",
        "position startpos moves e2e3 e8e7 e7e5",
        "position startpos moves e2e3 zz99",
        "position fen R/gTgDgS/5/7/R7R/7/5/rSrDrT r 1 1 - - -",
        "position fen R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - - moves d2d4",
        "position startpos players 7",
        "go depth -3",
        "go sideways",
        "go movetime",
        "query colour",
        "query",
        "perft",
        "perft 99",
        "setoption name Hash value -1",
    ] {
        e.send(bad);
        let l = e.expect("info string error: ");
        assert!(!l.contains("panicked"), "{bad}: {l}");
        assert_eq!(e.query("spn"), before, "state changed by: {bad}");
    }
    // Garbage bytes and a half line.
    e.send_raw(b"\xff\xfe\x00garbage\n");
    e.expect("info string error: ");
    e.send_raw(b"   \n\t\n");
    e.send_raw(b"isre");
    e.send_raw(b"ady\n");
    e.expect("readyok");
    assert_eq!(e.query("spn"), before);
    let (_, turn, _) = e.go("depth 3");
    assert_whole_legal_turn(&before, &turn);
    assert!(e.quit().success());
}

#[test]
fn commands_that_need_an_idle_engine_wait_for_stop() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("position startpos moves e2e3");
    let l = e.expect("info string error: ");
    assert!(l.contains("send 'stop' first"), "{l}");
    e.send("stop");
    e.finish_search();
    assert_eq!(e.query("steps"), "1", "the position command was refused");
}

#[test]
fn quit_exits_at_once_even_while_searching() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    assert!(e.quit().success());
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut e = Engine::start();
    e.send("go depth 4");
    e.close_input();
    e.finish_search();
    assert!(e.next_line(Duration::from_secs(5)).is_none());
}

#[test]
fn every_algorithm_plays_legal_turns_for_every_player_count() {
    for (algo, go) in [
        ("alphabeta", "depth 4"),
        ("maxn", "depth 4"),
        ("brs", "depth 4"),
        ("brsplus", "depth 4"),
        ("mcts", "nodes 1000"),
        ("uct-plain", "nodes 300"),
        ("random", "depth 1"),
        ("greedy", "depth 1"),
    ] {
        let mut e = Engine::start();
        e.send(&format!("setoption name Algorithm value {algo}"));
        for players in [2, 3, 4] {
            e.send(&format!("position startpos players {players}"));
            let mut spn = e.query("spn");
            for _ in 0..4 {
                let (_, turn, _) = e.go(go);
                assert_whole_legal_turn(&spn, &turn);
                e.send(&format!("position fen {spn} moves {}", turn.join(" ")));
                spn = e.query("spn");
            }
        }
    }
}

#[test]
fn threads_give_legal_turns() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("position startpos players 4 moves e2e3 b5c5 b6c6");
    let spn = e.query("spn");
    let (_, turn, _) = e.go("movetime 200");
    assert_whole_legal_turn(&spn, &turn);
}

/// `help` lists every command as `info string` lines and changes nothing.
#[test]
fn help_lists_the_commands() {
    let mut e = Engine::spawn();
    e.send("position startpos moves e2e3");
    e.send("help");
    e.send("isready");
    let lines = e.read_until("readyok");
    let help: Vec<&String> = lines.iter().filter(|l| *l != "readyok").collect();
    assert!(help.len() > 10, "{lines:?}");
    assert!(
        help.iter().all(|l| l.starts_with("info string ")),
        "{lines:?}"
    );
    for cmd in [
        "ugi",
        "isready",
        "setoption",
        "uginewgame",
        "position",
        "go",
        "stop",
        "ponderhit",
        "query",
        "perft",
        "quit",
        "help",
    ] {
        assert!(
            help.iter()
                .any(|l| l["info string ".len()..].starts_with(cmd)),
            "{cmd} missing: {help:?}"
        );
    }
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    assert_eq!(
        e.query("spn"),
        Position::start(2)
            .unwrap()
            .after(Position::start(2).unwrap().parse_step("e2e3").unwrap())
            .to_spn()
    );
    e.send("help me");
    assert!(e.expect("info string error").contains("takes no arguments"));
}

/// A line with the values that vary between runs (`nps`, `time`) masked.
fn mask_timing(l: &str) -> String {
    let mut words: Vec<String> = l.split(' ').map(str::to_string).collect();
    for i in 1..words.len() {
        if matches!(words[i - 1].as_str(), "nps" | "time") {
            words[i] = "_".into();
        }
    }
    words.join(" ")
}

/// Reads from `e` until `want` (masked) comes; the lines read on the way.
fn read_to(e: &mut Engine, want: &str) -> Vec<String> {
    let mut got = Vec::new();
    loop {
        let Some(line) = e.next_line(Duration::from_secs(20)) else {
            panic!("the engine never said: {want}\nit said: {got:#?}");
        };
        let masked = mask_timing(&line);
        got.push(masked.clone());
        if masked == want {
            return got;
        }
    }
}

fn doc(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/{name}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    ))
    .unwrap()
}

/// The README's protocol session, replayed: every line it shows comes out
/// in that order (`…` stands for lines left out; `nps` and `time` vary).
#[test]
fn the_readme_protocol_example_is_true() {
    let readme = doc("README.md");
    let start = readme
        .find("<!-- example:protocol -->")
        .expect("start marker");
    let end = readme
        .find("<!-- /example:protocol -->")
        .expect("end marker");
    let blocks: Vec<&str> = readme[start..end].split("```").collect();
    // [marker, commands, between, output, after]
    let (commands, shown) = (blocks[1], blocks[3]);
    let mut e = Engine::spawn();
    for c in commands.lines().filter(|l| !l.trim().is_empty()) {
        e.send(c);
    }
    for want in shown
        .lines()
        .filter(|l| !l.trim().is_empty() && l.trim() != "…")
    {
        read_to(&mut e, &mask_timing(want));
    }
}

/// protocol.md's example, played as a referee would: each `>` line sent,
/// each `<` line awaited in order (`…` stands for lines left out).
#[test]
fn the_protocol_md_example_is_true() {
    let spec = doc("protocol.md");
    let example = &spec[spec.find("## Example").expect("an Example section")..];
    let block = example.split("```").nth(1).expect("a fenced block");
    let mut e = Engine::spawn();
    for line in block.lines() {
        if let Some(cmd) = line.strip_prefix("> ") {
            e.send(cmd);
        } else if let Some(want) = line.strip_prefix("< ")
            && want != "…"
        {
            read_to(&mut e, &mask_timing(want));
        }
    }
    assert!(
        e.wait_exit(Duration::from_secs(5)).is_some(),
        "quit ends it"
    );
}
