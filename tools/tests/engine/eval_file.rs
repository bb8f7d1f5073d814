//! `setoption name EvalFile value <path>`, through the real binary: a file
//! of weights (with `UseNNUE false`) or a network file reaches the search,
//! a bad file (an empty one, or one that names no weight, included) is
//! refused with one error line and the weights and network in use stay,
//! `default` brings the compiled-in ones back.

use crate::support::Engine;
use splut_engine::eval::DEFAULT_SET;
use splut_engine::eval::nnue::Network;
use splut_engine::eval::nnue::network::FILE_SIZE;
use std::path::PathBuf;

/// An engine with the hand-written evaluation, which weights files set.
fn hand_engine() -> Engine {
    let mut e = Engine::start();
    e.send("setoption name UseNNUE value false");
    e
}

/// A middle game position with 2 players.
const POSITION: &str = "position fen 1/3/2gT1gD/5R1/5gS3/R5rT/rS4/RR1/1 r 3 17 - g6 -";

fn temp(name: &str, text: &str) -> PathBuf {
    temp_bytes(name, text.as_bytes())
}

fn temp_bytes(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("splut-eval-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The search's result from a fresh table, without its timing: each
/// `info` line's depth, score, nodes and pv, and the turn chosen.
fn search(e: &mut Engine) -> Vec<String> {
    search_from(e, POSITION)
}

/// [`search`] from `position` (a `position` command).
fn search_from(e: &mut Engine, position: &str) -> Vec<String> {
    e.send("uginewgame");
    e.send(position);
    let (lines, turn, _) = e.go("depth 5");
    let mut out: Vec<String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| {
            // Everything but the timing (and the table's fill, which
            // follows the timing-free search anyway).
            let mut words = l.split(' ');
            let mut kept = Vec::new();
            while let Some(w) = words.next() {
                if matches!(w, "nps" | "time" | "hashfull") {
                    words.next();
                } else {
                    kept.push(w);
                }
            }
            kept.join(" ")
        })
        .collect();
    out.push(turn.join(" "));
    out
}

/// Sends `setoption` and returns the lines it caused (up to `readyok`).
fn set_eval_file(e: &mut Engine, value: &str) -> Vec<String> {
    e.send(&format!("setoption name EvalFile value {value}"));
    e.send("isready");
    let mut lines = e.read_until("readyok");
    lines.pop();
    lines
}

#[test]
fn ugi_lists_the_option() {
    let mut e = Engine::spawn();
    e.send("ugi");
    let lines = e.read_until("ugiok");
    assert!(
        lines.contains(&"option name EvalFile type string default <empty>".to_string()),
        "{lines:?}"
    );
}

#[test]
fn a_file_of_weights_reaches_the_search_and_default_restores() {
    let mut e = hand_engine();
    let compiled = search(&mut e);
    // The compiled-in weights written out load as the same weights.
    let same = temp("same.txt", &DEFAULT_SET.to_text());
    assert_eq!(
        set_eval_file(&mut e, same.to_str().unwrap()),
        Vec::<String>::new()
    );
    assert_eq!(search(&mut e), compiled);
    // One weight changed (the others keep their defaults).
    let changed = temp(
        "changed.txt",
        "# sorcerers want room\nsorcerer_freedom 400\n",
    );
    assert_eq!(
        set_eval_file(&mut e, changed.to_str().unwrap()),
        Vec::<String>::new()
    );
    let tuned = search(&mut e);
    assert_ne!(tuned, compiled, "the file changed nothing");
    for back in ["default", "<empty>"] {
        set_eval_file(&mut e, changed.to_str().unwrap());
        assert_eq!(set_eval_file(&mut e, back), Vec::<String>::new());
        assert_eq!(search(&mut e), compiled, "{back}");
    }
}

#[test]
fn a_section_changes_only_its_count_of_seats() {
    let three = "position startpos players 3 moves e2e3 b5c5 b6c6";
    let mut e = hand_engine();
    let (two_before, three_before) = (search(&mut e), search_from(&mut e, three));
    let file = temp(
        "section.txt",
        "players 3\nsorcerer_freedom 400\nmobility 40\n",
    );
    assert!(set_eval_file(&mut e, file.to_str().unwrap()).is_empty());
    assert_eq!(
        search(&mut e),
        two_before,
        "2 players: no section, no change"
    );
    assert_ne!(
        search_from(&mut e, three),
        three_before,
        "3 players: the section changed nothing"
    );
    let bad = temp("bad-section.txt", "players 5\ndwarf 1\n");
    let lines = set_eval_file(&mut e, bad.to_str().unwrap());
    assert!(
        lines.len() == 1 && lines[0].contains("line 1: 'players' takes counts from 2 to 4"),
        "{lines:?}"
    );
}

#[test]
fn a_bad_file_is_refused_and_the_weights_in_use_stay() {
    let mut e = hand_engine();
    let changed = temp("in-use.txt", "sorcerer_freedom 400\n");
    assert!(set_eval_file(&mut e, changed.to_str().unwrap()).is_empty());
    let in_use = search(&mut e);
    let bad = temp("bad.txt", "dwarf 100\nsorcerer_freedom ten\n");
    let unknown = temp("unknown.txt", "dwarf 100\n\nbishop 3\n");
    let missing = std::env::temp_dir().join("splut-no-such-weights.txt");
    for (path, says) in [
        (
            bad,
            "line 2: 'sorcerer_freedom': 'ten' is not a whole number",
        ),
        (unknown, "line 3: unknown weight 'bishop'"),
        (missing, "cannot read"),
    ] {
        let lines = set_eval_file(&mut e, path.to_str().unwrap());
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("info string error: option EvalFile:"),
            "{lines:?}"
        );
        assert!(lines[0].contains(says), "{lines:?}");
        assert!(lines[0].contains("kept"), "{lines:?}");
        assert_eq!(search(&mut e), in_use, "{path:?}");
    }
    // A directory is no file of weights either.
    let lines = set_eval_file(&mut e, std::env::temp_dir().to_str().unwrap());
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(search(&mut e), in_use);
}

#[test]
fn an_empty_file_or_one_that_names_no_weight_is_refused() {
    // Loaded weights in use, so that a file read as "no changes" (the
    // compiled-in weights) would show in the search.
    let mut e = hand_engine();
    let changed = temp("kept.txt", "sorcerer_freedom 400\n");
    assert!(set_eval_file(&mut e, changed.to_str().unwrap()).is_empty());
    let in_use = search(&mut e);
    let empty = temp("empty.txt", "");
    let blank = temp("blank.txt", "\n  \n\t\n");
    let comments = temp("comments.txt", "# tuned weights\n\n# (none yet)\n");
    let sections = temp("sections.txt", "# by seats\nplayers 3 4\n");
    for (path, says) in [
        (&empty, "is empty"),
        (&blank, "names no weight"),
        (&comments, "names no weight"),
        (&sections, "names no weight"),
    ] {
        let path = path.to_str().unwrap();
        let lines = set_eval_file(&mut e, path);
        assert_eq!(lines.len(), 1, "{path}: {lines:?}");
        assert!(
            lines[0].starts_with(&format!(
                "info string error: option EvalFile: '{path}' {says}"
            )),
            "{lines:?}"
        );
        assert!(
            lines[0].ends_with("; the weights and network in use are kept"),
            "{lines:?}"
        );
        assert_eq!(search(&mut e), in_use, "{path}");
    }
    // The network in use stays too.
    let mut e = Engine::start();
    e.send("setoption name UseNNUE value true");
    let net = net_file("kept.nnue", 7);
    assert!(set_eval_file(&mut e, net.to_str().unwrap()).is_empty());
    let in_use = search(&mut e);
    let lines = set_eval_file(&mut e, empty.to_str().unwrap());
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("is empty"), "{lines:?}");
    assert_eq!(search(&mut e), in_use);
}

#[test]
fn protocol_md_shows_the_compiled_in_weights() {
    let doc = std::fs::read_to_string(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
        "/protocol.md"
    ))
    .unwrap();
    let text = DEFAULT_SET.to_text();
    assert!(
        doc.contains(&format!("```\n{text}```\n")),
        "protocol.md: update the parameter file example to\n{text}"
    );
}

/// A stand-in network from `seed`, as a file.
fn net_file(name: &str, seed: u64) -> PathBuf {
    temp_bytes(name, &Network::pseudo_random(seed, 300).to_bytes())
}

#[test]
fn a_network_file_reaches_the_search_and_default_restores() {
    let mut e = Engine::start();
    e.send("setoption name UseNNUE value true");
    let compiled = search(&mut e);
    let other = net_file("other.nnue", 99);
    assert!(set_eval_file(&mut e, other.to_str().unwrap()).is_empty());
    let with_other = search(&mut e);
    assert_ne!(with_other, compiled, "the network changed nothing");
    // The hand-written evaluation ignores the network; back on, the
    // loaded one evaluates again.
    e.send("setoption name UseNNUE value false");
    let hand = search(&mut e);
    assert_ne!(hand, with_other);
    e.send("setoption name UseNNUE value true");
    assert_eq!(search(&mut e), with_other);
    // A weights file leaves the network alone.
    let weights = temp("net-weights.txt", "sorcerer_freedom 400\n");
    assert!(set_eval_file(&mut e, weights.to_str().unwrap()).is_empty());
    assert_eq!(search(&mut e), with_other);
    assert!(set_eval_file(&mut e, "default").is_empty());
    assert_eq!(search(&mut e), compiled);
}

/// A position with 3 players (the bench's sixth).
const THREE: &str = "position spn R/gD1gS/4gT/1yS5/RyD6R/1yT2rT2/1rD3/rSR1/1 r 2 10 - - -";

/// A 3-player game after red's throw killed green: 2 players left.
const THREE_TO_TWO: &str =
    "position spn R/gTgDgS/5/3yS3/RyD6R/yT2R3/rD3rT/rS2/1 r 3 10 - - - moves d2e2@e4 g3g4 g4f4*n";

/// The same position as the start of a game.
const TWO_LEFT: &str = "position spn R/2R/5/3yS3/RyD6R/yT3rT2/rD4/1rS1/1 y 3 11 - f8 -";

#[test]
fn use_nnue_auto_is_a_network_for_alpha_beta_and_none_leaves_3_4_seats_by_hand() {
    let mut e = Engine::start();
    let searches = |e: &mut Engine| -> Vec<Vec<String>> {
        [POSITION, THREE, THREE_TO_TWO, TWO_LEFT]
            .iter()
            .map(|p| search_from(e, p))
            .collect()
    };
    let auto = searches(&mut e);
    e.send("setoption name UseNNUE value true");
    let net = searches(&mut e);
    e.send("setoption name UseNNUE value false");
    let hand = searches(&mut e);
    // With 3 left the network for 3–4 seats (compiled in; `true` takes
    // it too), with 2 left of a game of 3 the 2-player one (it converts
    // the last two's game better).
    for i in 0..auto.len() {
        assert_eq!(auto[i], net[i], "case {i}");
        assert_ne!(auto[i], hand[i], "case {i}: the evaluations searched alike");
    }
    // `EvalFileMulti none`: 3–4 seats by hand again, the last two still
    // by the network.
    e.send("setoption name UseNNUE value auto");
    e.send("setoption name EvalFileMulti value none");
    assert_eq!(search_from(&mut e, THREE), hand[1]);
    assert_eq!(search_from(&mut e, THREE_TO_TWO), net[2]);
    e.send("setoption name EvalFileMulti value default");
    assert_eq!(search_from(&mut e, THREE), net[1]);
    // Back to the default, by name and case-insensitively.
    e.send("setoption name UseNNUE value AUTO");
    assert_eq!(search(&mut e), net[0]);
    e.send("setoption name UseNNUE value maybe");
    assert!(e.expect("info string error").contains("UseNNUE"));
    assert_eq!(search_from(&mut e, THREE), net[1], "a bad value changed it");
}

#[test]
fn a_bad_network_file_is_refused_and_the_network_in_use_stays() {
    let mut e = Engine::start();
    let good = Network::pseudo_random(5, 300).to_bytes();
    let path = temp_bytes("in-use.nnue", &good);
    assert!(set_eval_file(&mut e, path.to_str().unwrap()).is_empty());
    let in_use = search(&mut e);
    let mut damaged = good.clone();
    damaged[5000] ^= 0x10;
    let mut wider = good.clone();
    wider[16..20].copy_from_slice(&256u32.to_le_bytes());
    let mut later = good.clone();
    later[8..12].copy_from_slice(&3u32.to_le_bytes());
    let mut longer = good.clone();
    longer.push(0);
    let cases: [(&str, Vec<u8>, &str); 7] = [
        (
            "truncated.nnue",
            good[..FILE_SIZE / 2].to_vec(),
            "truncated",
        ),
        ("header.nnue", good[..20].to_vec(), "truncated"),
        ("damaged.nnue", damaged, "checksum"),
        ("wider.nnue", wider, "architecture"),
        ("later.nnue", later, "version 3"),
        ("longer.nnue", longer, "bytes"),
        // Neither a network nor text: refused as a weights file.
        ("binary.nnue", vec![0xff, 0xfe, 0, 1, 2], "not UTF-8"),
    ];
    for (name, bytes, says) in cases {
        let path = temp_bytes(name, &bytes);
        let lines = set_eval_file(&mut e, path.to_str().unwrap());
        assert_eq!(lines.len(), 1, "{name}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: option EvalFile:"),
            "{lines:?}"
        );
        assert!(lines[0].contains(says), "{name}: {lines:?}");
        assert!(lines[0].contains("kept"), "{lines:?}");
        assert_eq!(search(&mut e), in_use, "{name}");
    }
}
