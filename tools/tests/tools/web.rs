//! The WebAssembly engine (docs/web.md) under Node, against the native
//! binary: the same protocol lines, the same bench signature, the SIMD128
//! kernels, and a tournament between the two; and in Chromium, the worker
//! and the rules in a page served by a plain file server. Needs `scripts/web` to have
//! written `target/web` (scripts/test does) and `node`; without them the
//! tests fail, unless `SPLUT_SKIP_WEB=1` says to skip them.

use crate::gui_browser::{Browser, THROW_SPN, browser_programs};
use crate::support::engine::Engine;
use crate::support::gui::{Asked, static_server};
use crate::support::{SPLUT, splut, temp};
use splut_engine::protocol::words::Info;
use splut_play::record::{Participant, Reason, Strength, board_record, first_game, parse_records};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

mod slices;

/// The folder scripts/web wrote, `None` (skip) only with `SPLUT_SKIP_WEB=1`.
pub fn web_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SPLUT_WEB_DIR").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("target/web"),
        PathBuf::from,
    );
    let node = Command::new("node").arg("--version").output().is_ok();
    if node && dir.join("splut.wasm").is_file() && dir.join("splut-node.mjs").is_file() {
        return Some(dir);
    }
    if std::env::var("SPLUT_SKIP_WEB").as_deref() == Ok("1") {
        eprintln!("web: skipped (SPLUT_SKIP_WEB=1; node or target/web missing)");
        return None;
    }
    panic!(
        "the WebAssembly tests need node and {}: run scripts/web (or set SPLUT_SKIP_WEB=1)",
        dir.display()
    );
}

fn node_engine(dir: &std::path::Path) -> Engine {
    let script = dir.join("splut-node.mjs");
    Engine::spawn_command(&["node", script.to_str().unwrap()])
}

/// `line` without the words that depend on the clock (`time`, `nps`).
fn timeless(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if line.starts_with("info depth") && matches!(words[i], "time" | "nps") {
            i += 2;
        } else {
            kept.push(words[i]);
            i += 1;
        }
    }
    kept.join(" ")
}

/// The lines `engine` answers to each of `script`'s lines: a search's up
/// to `bestmove`, a perft's up to its total; any other's up to the `readyok` of an `isready` sent
/// after it (so the two engines are compared line for line).
fn transcript(mut engine: Engine, script: &[&str]) -> Vec<String> {
    let mut all = Vec::new();
    for line in script {
        engine.send(line);
        let until = if line.starts_with("go") {
            "bestmove"
        } else if line.starts_with("perft") && !line.contains("99") {
            "nodes "
        } else {
            engine.send("isready");
            "readyok"
        };
        let mut lines = Vec::new();
        // A search ends with `bestmove`; a refused `go` with its error.
        while !lines
            .last()
            .is_some_and(|l: &String| l.starts_with(until) || l.starts_with("info string error"))
        {
            let next = engine.next_line(Duration::from_secs(120));
            lines.push(
                next.unwrap_or_else(|| panic!("no {until} after {line:?}: {:?}", engine.seen)),
            );
        }
        all.push(format!("> {line}"));
        all.extend(lines.iter().map(|l| timeless(l)));
    }
    engine.send("quit");
    all
}

#[test]
fn protocol_sessions_give_the_native_engines_lines() {
    let Some(dir) = web_dir() else { return };
    let script = [
        "ugi",
        "uci",
        "help",
        "uginewgame",
        "position startpos",
        "go nodes 3000",
        "go depth 5",
        "position startpos players 3 moves e2e3",
        "query legal",
        "query spn",
        "query p1turn",
        "d",
        "perft 3",
        "go nodes 4000",
        "setoption name MultiPV value 3",
        "go depth 4",
        "setoption name MultiPV value 1",
        "setoption name ShowWinProb value true",
        "go nodes 2000",
        "setoption name Algorithm value maxn",
        "go nodes 3000",
        "setoption name Algorithm value brsplus",
        "go nodes 3000",
        "setoption name Algorithm value mcts",
        "go nodes 2000",
        "setoption name Algorithm value auto",
        "setoption name Skill Level value 4",
        "go nodes 5000",
        "setoption name Skill Level value 20",
        "setoption name UseNNUE value true",
        "position startpos moves e2e3 e8e7 f8f7",
        "go nodes 3000",
        "position startpos players 4 moves e2e3",
        "go nodes 3000",
        // README.md's and protocol.md's examples.
        "position startpos moves e2e3 e8e7 f8f7",
        "query p1turn",
        "go depth 6",
        "query steps",
        "query turn",
        "query winner",
        "query gameover",
        "position spn R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - - moves d2d3",
        "query legal",
        // Bad lines: the same errors, the state unchanged.
        "isready\rquery spn",
        "query spn fen",
        "perft 3 4",
        "frobnicate",
        "isready now",
        "go nodes many",
        "go wtime -5",
        "position fen R/garbage",
        "position startpos moves e2e9",
        "setoption name NoSuchOption value 1",
        "setoption name Hash value lots",
        "perft 99",
        "query nonsense",
        "ponderhit",
        "stop",
        "query spn",
        "position startpos players 3 moves e2e3 b5c5 b6c6 b4c4",
        "go nodes 100000 depth 3",
    ];
    let native = transcript(Engine::spawn(), &script);
    let wasm = transcript(node_engine(&dir), &script);
    let mut command = "";
    for (n, w) in native.iter().zip(&wasm) {
        if n.starts_with("> ") {
            command = n;
        }
        assert_eq!(n, w, "the WebAssembly engine differs after {command}");
    }
    assert_eq!(native.len(), wasm.len());
    assert!(
        wasm.iter()
            .any(|l| l.contains("error: unknown command 'frobnicate'"))
    );
}

/// Everything `command` writes to stdout for `input` (written whole, then
/// the end of input).
fn answer_to(command: &[&str], input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = Command::new(command[0])
        .args(&command[1..])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "{command:?}");
    out.stdout
}

/// Issue 49, item 8: the WebAssembly engine under Node read `\u{feff}ugi`
/// as `ugi` (TextDecoder drops a leading byte-order mark; the native
/// engine answers an unknown command), and `isready\r\r` as `isready` (two
/// `\r` taken off). Every line, whatever its bytes, gets the native
/// engine's answer: byte-order marks at the start and mid-stream, CR LF,
/// lone and doubled CRs, NUL, bytes that are not UTF-8, lines on and past
/// the 1 MiB bound (counted in bytes, before a `\r` is dropped or U+FFFD
/// replaces a bad byte), and a last line with no newline.
#[test]
fn any_bytes_get_the_native_engines_answer() {
    let Some(dir) = web_dir() else { return };
    const MAX_LINE: usize = 1 << 20;
    let mut input: Vec<u8> = Vec::new();
    let mut line = |bytes: &[u8]| {
        input.extend_from_slice(bytes);
        input.push(b'\n');
    };
    line("\u{feff}ugi".as_bytes());
    line(b"isready");
    line("\u{feff}isready".as_bytes());
    line("\u{feff}".as_bytes());
    line("\u{feff}\u{feff}uci".as_bytes());
    line("query spn\u{feff}".as_bytes());
    line("\u{feff} isready".as_bytes());
    line(b"\xef\xbbisready");
    line(b"\xff\xfeisready");
    line(b"\xfe\xffisready");
    line(b"isready\r");
    line(b"isready\r\r");
    line(b"\risready");
    line(b"\r");
    line(b"isready\rquery spn");
    line(b"is\0ready");
    line(b"\0");
    line(b"query\tspn");
    line(b"ugi\xc3");
    line(b"\xed\xa0\x80 \xc0\xaf \xf8\x88\x80\x80\x80 \xe2\x82");
    line(b"position startpos moves e2e3\xff");
    line("query\u{a0}spn".as_bytes());
    // On and past the bound: the bytes count, not the characters.
    let mut padded = b"isready".to_vec();
    padded.resize(MAX_LINE, b' ');
    line(&padded);
    padded.push(b'\r');
    line(&padded);
    line(&vec![0xff; MAX_LINE]);
    line(&vec![0xff; MAX_LINE + 1]);
    let mut boms = "\u{feff}".repeat(MAX_LINE / 3).into_bytes();
    boms.truncate(MAX_LINE);
    line(&boms);
    line(&vec![b'x'; 3 * MAX_LINE]);
    line(b"query spn");
    input.extend_from_slice(b"isready\r");
    let node = dir.join("splut-node.mjs");
    let native = String::from_utf8(answer_to(&[SPLUT], &input)).unwrap();
    let wasm = String::from_utf8(answer_to(&["node", node.to_str().unwrap()], &input)).unwrap();
    assert!(
        native.starts_with("info string error: unknown command '\\u{feff}ugi'\nreadyok\n"),
        "{native}"
    );
    let (n, w): (Vec<&str>, Vec<&str>) = (native.lines().collect(), wasm.lines().collect());
    for (i, (a, b)) in n.iter().zip(&w).enumerate() {
        assert_eq!(a, b, "line {i} of the answers differs");
    }
    assert_eq!(n.len(), w.len(), "{wasm}");
    assert_eq!(native, wasm);
}

#[test]
fn stop_ends_an_infinite_search_and_isready_is_answered_while_it_thinks() {
    let Some(dir) = web_dir() else { return };
    let mut e = node_engine(&dir);
    e.send("position startpos players 3");
    e.send("go infinite");
    e.read_until("info depth 3");
    e.send("isready");
    e.read_until("readyok");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let lines = e.read_until("bestmove");
    assert!(lines[lines.len() - 2].starts_with("bestturn "), "{lines:?}");
    e.send("go movetime 300");
    let lines = e.read_until_within("bestmove", Duration::from_secs(5));
    assert!(
        lines.is_some(),
        "a timed search ends on its clock: {:?}",
        e.seen
    );
}

#[test]
fn the_bench_signature_and_the_simd128_kernels() {
    let Some(dir) = web_dir() else { return };
    let script = dir.join("splut-node.mjs");
    let node = |args: &[&str]| {
        let o = Command::new("node")
            .arg(&script)
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    assert_eq!(node(&["selftest"]).trim(), "ok simd128");
    let nodes = |text: &str| text.lines().last().unwrap_or("").to_string();
    for eval in ["auto", "hand", "nnue"] {
        let native = String::from_utf8(splut(&["bench", "--eval", eval]).stdout).unwrap();
        let wasm = node(&["bench", "--eval", eval]);
        assert!(nodes(&native).starts_with("nodes "), "{native}");
        assert_eq!(nodes(&wasm), nodes(&native), "bench --eval {eval}");
    }
    let o = Command::new("node")
        .arg(&script)
        .args(["bench", "--depth", "x"])
        .output()
        .unwrap();
    assert!(!o.status.success());
}

#[test]
fn the_folder_is_a_package_a_node_project_imports_by_name() {
    let Some(dir) = web_dir() else { return };
    // A project with the folder installed as npm installs a path: a link
    // in node_modules (made here, so the test needs no npm).
    let project = temp("web", "project");
    let _ = std::fs::remove_dir_all(&project);
    let modules = project.join("node_modules");
    std::fs::create_dir_all(&modules).unwrap();
    std::os::unix::fs::symlink(&dir, modules.join("splut")).unwrap();
    std::fs::write(project.join("package.json"), r#"{"type": "module"}"#).unwrap();
    // The package's name resolves through its `exports`: the rules and the
    // engine from `splut`, the wasm beside it found by default.
    let script = "import { load } from 'splut';\n\
        import { existsSync } from 'node:fs';\n\
        import { fileURLToPath } from 'node:url';\n\
        const s = await load();\n\
        const g = s.game('3', ['e2e3']);\n\
        const lines = [];\n\
        const e = s.engine(l => lines.push(l));\n\
        e.send('ugi');\n\
        const worker = fileURLToPath(import.meta.resolve('splut/worker'));\n\
        console.log(JSON.stringify({ side: g.side, ugi: lines.includes('ugiok'), worker: existsSync(worker) }));\n";
    std::fs::write(project.join("main.mjs"), script).unwrap();
    let o = Command::new("node")
        .arg("main.mjs")
        .current_dir(&project)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(out.trim(), r#"{"side":"y","ugi":true,"worker":true}"#);
    // Its metadata: the web crate's version (every crate takes the
    // workspace's, this one's included), and the command it installs is the
    // protocol under Node; every file it lists is in the folder.
    let meta = std::fs::read_to_string(dir.join("package.json")).unwrap();
    let version = format!("{:?}", env!("CARGO_PKG_VERSION"));
    let crate_version = format!("\"version\": {version}");
    assert!(meta.contains(&crate_version), "{meta}");
    assert!(
        meta.contains(r#""splut-wasm": "./splut-node.mjs""#),
        "{meta}"
    );
    let files = meta
        .split("\"files\": [")
        .nth(1)
        .unwrap()
        .split(']')
        .next()
        .unwrap();
    for f in files.split(',').map(|f| f.trim().trim_matches('"')) {
        assert!(
            dir.join(f).is_file(),
            "package.json lists {f}, not in the folder"
        );
    }
}

#[test]
fn a_tournament_between_the_webassembly_and_the_native_engine_has_no_forfeit() {
    let Some(dir) = web_dir() else { return };
    let rec = temp("web", "node-vs-native.games");
    let node = format!("cmd=node {}", dir.join("splut-node.mjs").display());
    let o = Command::new(SPLUT)
        .args(["tournament", "--engine", "name=wasm", &node])
        .args(["--engine", "name=native", "algo=auto"])
        .args(["--tc", "movetime=40", "--rounds", "10", "--seed", "41"])
        .args(["--concurrency", "2", "--records", rec.to_str().unwrap()])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{out}");
    let text = std::fs::read_to_string(&rec).unwrap();
    // The header block (the tournament's options) comes before the games.
    let games = text
        .strip_prefix("[Tournament ")
        .map_or(text.as_str(), |rest| {
            rest.split_once("\n\n").map_or("", |x| x.1)
        });
    let games = parse_records(games).unwrap();
    assert_eq!(games.len(), 20, "{out}");
    for g in &games {
        assert!(
            !matches!(g.reason, Reason::Forfeit { .. }),
            "{:?}\n{out}",
            g.reason
        );
    }
}

/// A browser, and the folder scripts/web wrote on a plain file server (its
/// port, and the paths asked of it); `None` (skip) where `web_dir` or
/// `browser_programs` says to skip.
fn static_site() -> Option<(Browser, u16, Asked)> {
    let dir = web_dir()?;
    let (chromium, chromedriver) = browser_programs()?;
    let (port, asked) = static_server(dir);
    Some((Browser::start(&chromium, &chromedriver), port, asked))
}

#[test]
fn the_worker_and_the_rules_in_a_page_from_a_static_file_server() {
    let Some((b, port, asked)) = static_site() else {
        return;
    };
    b.go(&format!("http://127.0.0.1:{port}/embed.html"));
    let ready = "window.ready && window.engineLines.includes('readyok')";
    b.wait(ready, Duration::from_secs(30), "the worker's readyok");
    // A 1 s search in the worker; meanwhile the page's timers keep time
    // and a click is answered.
    b.js(
        "send('position startpos players 3'); send('go movetime 1000');
         window.lags = [];
         (async () => { for (let i = 0; i < 20; i++) {
             const t = performance.now();
             await new Promise(r => setTimeout(r, 20));
             window.lags.push(performance.now() - t - 20); } })();
         return 1;",
    );
    b.wait(
        "window.engineLines.some(l => l.startsWith('info depth 3'))",
        Duration::from_secs(10),
        "the search",
    );
    b.click("#ping");
    let during = b.js(
        "return document.getElementById('pong').textContent === 'pong 1'
            && !window.engineLines.some(l => l.startsWith('bestmove '));",
    );
    assert_eq!(
        during, true,
        "the click was answered while the engine thought"
    );
    let best = b.wait(
        "window.engineLines.find(l => l.startsWith('bestmove '))",
        Duration::from_secs(10),
        "bestmove",
    );
    let lags = b.js("return window.lags.length === 20 && Math.max(...window.lags);");
    let worst = lags.as_f64().unwrap_or_else(|| panic!("timers: {lags}"));
    assert!(
        worst < 100.0,
        "the page stalled {worst} ms while the engine thought"
    );
    // The rules in the page: the engine's step is legal, a bad one refused.
    let step = best.as_str().unwrap().trim_start_matches("bestmove ");
    let legal = b.js(&format!(
        "return splut.game('3', ['{step}']).error === undefined;"
    ));
    assert_eq!(legal, true, "{step}");
    b.js("document.getElementById('steps').value = 'e2e3 e2e9';
          document.querySelector('#rules button').click(); return 1;");
    let verdict = b.wait(
        "document.querySelector('#verdict.refused')?.textContent",
        Duration::from_secs(5),
        "the rules' verdict",
    );
    assert!(
        verdict.as_str().unwrap().starts_with("Refused (step 2)"),
        "{verdict}"
    );
    let asked = asked.lock().unwrap().clone();
    assert!(asked.iter().any(|p| p == "/splut.wasm"), "{asked:?}");
    assert!(!asked.iter().any(|p| p.starts_with("/api/")), "{asked:?}");
}

#[test]
fn the_board_plays_from_a_static_file_server_with_no_server_behind_it() {
    let Some((b, port, asked)) = static_site() else {
        return;
    };
    let ready = b.open(&format!("http://127.0.0.1:{port}/index.html"), "the board");
    let ready_ms = ready.as_f64().unwrap();
    eprintln!("the static board was ready {ready_ms:.0} ms after it began loading");
    assert!(ready_ms < 3000.0, "{ready_ms} ms");
    static_game_with_engines(&b);
    static_threats_and_review(&b);
    let st = static_engines_only_game(&b);
    static_record_reads_back(&b, &st);
    let asked = asked.lock().unwrap().clone();
    assert!(!asked.iter().any(|p| p.starts_with("/api/")), "{asked:?}");
}

/// On the static board: a 3-player game, red a person (a step by clicks),
/// the engines' turns, a hint, take-backs, and a new engine worker.
fn static_game_with_engines(b: &Browser) {
    // 3 players, red a person, the engines quick; red's turn by clicks.
    b.click("#players option[value=\"3\"]");
    for seat in ["y", "g"] {
        b.click(&format!("#kind-{seat} option[value=\"engine\"]"));
        b.type_into(&format!("#ms-{seat}"), "50");
    }
    b.start_game();
    b.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game",
    );
    b.click("#pace option[value=\"none\"]");
    b.click_square("e2");
    let lit =
        b.js("return [...document.querySelectorAll('.hit.target')].map(e => e.dataset.square);");
    assert_eq!(lit, serde_json::json!(["e3"]));
    b.click_square("e3");
    b.wait(
        "game.step_count >= 5 && game.side === 'r' && !game.thinking",
        Duration::from_secs(20),
        "the engines' turns",
    );
    let st = b.js("return game;");
    assert_eq!(st["turns"][0]["steps"], serde_json::json!(["e2e3"]));
    // Its record, made in the page: what `splut gui` writes of it.
    let record = b.js("return await window.splutBackend('GET', `/api/games/${game.id}/record`);");
    assert_eq!(record.as_str(), Some(native_record(&st).as_str()));
    assert!(
        st["evals"].as_array().is_some_and(|e| !e.is_empty()),
        "win chances: {st}"
    );
    // A hint from the second engine: drawn, nothing played.
    let (hint, first) = b.hint();
    let legal = b.js(&format!(
        "return game.legal.includes('{first}') && game.step_count;"
    ));
    assert!(legal.as_u64().is_some_and(|n| n >= 5), "{hint} {legal}");
    // Take back to red's turn: the engines' turns go too.
    b.click("#takeback");
    b.wait(
        "game.step_count === 0",
        Duration::from_secs(10),
        "the take-back",
    );
    // A new engine worker (the page's Restart): the game goes on with it.
    let restarted =
        b.js("return await window.splutBackend('POST', `/api/games/${game.id}/restart`);");
    assert_eq!(restarted["error"], serde_json::Value::Null, "{restarted}");
    b.js("playStep('e2e3'); return null;");
    b.wait(
        "game.step_count >= 5 && game.side === 'r' && !game.thinking",
        Duration::from_secs(20),
        "the engines' turns after the restart",
    );
    b.click("#takeback");
    b.wait(
        "game.step_count === 0",
        Duration::from_secs(10),
        "the second take-back",
    );
}

/// On the static board: threats and a review, worked out in the page as
/// the server does.
fn static_threats_and_review(b: &Browser) {
    b.click("#players option[value=\"2\"]");
    b.type_into("#start-spn", THROW_SPN);
    b.click("#kind-g option[value=\"person\"]");
    let old = b.shown_game();
    b.start_game();
    b.wait_other_game(&old, "the position's game");
    b.click("#threats-toggle");
    b.wait(
        "document.querySelector('#threat-marks .kill-mark[data-steps=\"f2f3*n\"]')",
        Duration::from_secs(10),
        "the kill at hand drawn",
    );
    b.self_kill_reviewed();
    b.click("#threats-toggle");
    b.type_into("#start-spn", "");
}

/// A 3-player position where yellow (d8) and green (e8) have only their
/// sorcerers, walled in, so their only step is `pass`; red's troll (c7)
/// crushes yellow (onto d7, north), then green (onto e7, north).
const THREE_BOXED_SPN: &str = "R/ySgSR/rTRR2/7/9/7/5/1rS1/1 r 3 5 - - -";

/// On the static board: an engines-only 3-player game, watched to its
/// end; the game's final state.
fn static_engines_only_game(b: &Browser) -> serde_json::Value {
    b.click("#players option[value=\"3\"]");
    // Where yellow and green can only pass and red's troll crushes them
    // one a turn: the game ends in red's second turn (from the start, its
    // length varied, once past 500 turns and the 300 s waited).
    b.type_into("#start-spn", THREE_BOXED_SPN);
    b.wait(
        "document.getElementById('kind-y') && !document.getElementById('kind-b')",
        Duration::from_secs(5),
        "the three seats",
    );
    b.click("#engines-only");
    b.click("#level option[value=\"full\"]");
    for seat in ["r", "y", "g"] {
        let algo = if seat == "r" { "alphabeta" } else { "greedy" };
        b.click(&format!("#algo-{seat} option[value=\"{algo}\"]"));
        b.type_into(&format!("#ms-{seat}"), "20");
    }
    let old = b.shown_game();
    b.start_game();
    b.wait_other_game(&old, "the new game");
    b.wait(
        "!document.getElementById('banner').classList.contains('hidden')",
        Duration::from_secs(120),
        "the end of the engines' game",
    );
    let st = b.js("return game;");
    assert_eq!(st["gameover"], true, "{st}");
    let places = b.js("return document.getElementById('banner-places').textContent;");
    assert!(
        places.as_str().unwrap().starts_with("Places: 1st "),
        "{places}"
    );
    st
}

/// On the static board: the record of the finished game `st`, made in
/// the page, reads back as a game and loads back from a file.
fn static_record_reads_back(b: &Browser, st: &serde_json::Value) {
    // The record is made in the page and reads back as a game.
    let record = b.js("return await window.splutBackend('GET', `/api/games/${game.id}/record`);");
    let text = record.as_str().unwrap();
    assert!(text.contains("[Reason last sorcerer standing]"), "{text}");
    assert_eq!(text, native_record(st));
    let games = parse_records(text).unwrap();
    assert_eq!(games.len(), 1);
    // Loaded back from the file: the same game, every seat a person.
    let path = temp("web", "static-board.txt");
    std::fs::write(&path, text).unwrap();
    let old = b.shown_game();
    b.upload("#record-file", &path);
    b.wait_other_game(&old, "the loaded game");
    let loaded = b.js("return game;");
    assert_eq!(loaded["step_count"], st["step_count"], "{loaded}");
    assert_eq!(loaded["gameover"], true);
    assert!(
        loaded["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["engine"] == false)
    );
}

/// The static board's match in the module under Node (`splut.mjs`'s
/// `record`, `gameOfRecord` and `info`, as board-local.js calls them) on
/// `input` (its JSON: `records`, `texts`, `lines`): each game written,
/// read back and written again, each text read, each line read.
fn module_match(dir: &std::path::Path, input: &serde_json::Value) -> serde_json::Value {
    let data = temp("web", "match-input.json");
    std::fs::write(&data, input.to_string()).unwrap();
    let script = temp("web", "match.mjs");
    let module = dir.join("splut.mjs");
    std::fs::write(
        &script,
        format!(
            "import {{ load }} from {module:?};\n\
             import {{ readFileSync }} from 'node:fs';\n\
             const s = await load();\n\
             const input = JSON.parse(readFileSync({data:?}, 'utf8'));\n\
             const written = input.records.map(r => s.record(r.start, r.steps, r.seats));\n\
             const read = written.map(w => w.record === undefined ? w : s.gameOfRecord(w.record));\n\
             const again = read.map((g, i) => g.error ? g : s.record(g.start, g.steps, input.records[i].seats));\n\
             const texts = input.texts.map(t => s.gameOfRecord(t));\n\
             const lines = input.lines.map(l => s.info(l));\n\
             console.log(JSON.stringify({{ written, read, again, texts, lines }}));\n",
            module = module.display().to_string(),
            data = data.display().to_string(),
        ),
    )
    .unwrap();
    let o = Command::new("node").arg(&script).output().unwrap();
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// A game's seats as the board keeps them (`{seat, engine, algorithm,
/// movetime, level}`, the JSON of `splut gui`'s and board-local.js's seat
/// configurations) and as its record names them.
fn participants(seats: &serde_json::Value) -> Vec<(splut_rules::Seat, Participant)> {
    seats
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let seat =
                splut_rules::Seat::from_letter(c["seat"].as_str().unwrap().chars().next().unwrap())
                    .unwrap();
            if c["engine"] != true {
                return (seat, Participant::Person);
            }
            let level = match (&c["level"]["elo"], &c["level"]["skill"]) {
                (serde_json::Value::Number(v), _) => Some(Strength::Elo(v.as_i64().unwrap())),
                (_, serde_json::Value::Number(v)) => Some(Strength::Skill(v.as_i64().unwrap())),
                _ => None,
            };
            let engine = Participant::Engine {
                algorithm: c["algorithm"].as_str().unwrap().into(),
                movetime: c["movetime"].as_u64().unwrap(),
                level,
            };
            (seat, engine)
        })
        .collect()
}

/// The record `splut gui` writes of the game in board state `st` (its
/// start, turns and seats), by the code its server calls.
fn native_record(st: &serde_json::Value) -> String {
    let start = splut_rules::Position::from_spn(st["start"].as_str().unwrap()).unwrap();
    let mut game = splut_rules::Game::new(start);
    game.play_all(&crate::support::gui::steps_of(st).join(" "))
        .unwrap();
    board_record(&game, &participants(&st["seats"])).to_text()
}

#[test]
fn the_static_boards_record_and_info_lines_are_splut_guis() {
    use rand::{Rng, SeedableRng, rngs::SmallRng};
    use serde_json::json;
    use splut_rules::{Game, Position};
    let Some(dir) = web_dir() else { return };
    // Games on the native server, each left where a person is to move or
    // at its end (so no engine plays on): its record downloaded, the same
    // game and seats written by the module.
    let gui = crate::support::gui::Gui::start(&[]);
    let mut rng = SmallRng::seed_from_u64(11);
    let mut records = Vec::new();
    let mut native = Vec::new();
    let algorithms = ["auto", "alphabeta", "mcts", "greedy", "random"];
    for i in 0..12 {
        let start = match i % 4 {
            0 => Position::from_spn(THROW_SPN).unwrap(),
            k => Position::start(k + 1).unwrap(),
        };
        let seats: Vec<serde_json::Value> = start
            .seats_in_game()
            .enumerate()
            .map(|(k, _)| {
                // Red is a person; the others people or engines, with or
                // without a level.
                if k == 0 || rng.random_bool(0.3) {
                    return json!({"engine": false});
                }
                let level = match rng.random_range(0..3) {
                    0 => json!(null),
                    1 => json!({"elo": rng.random_range(1040..=1970)}),
                    _ => json!({"skill": rng.random_range(0..=20)}),
                };
                let algorithm = algorithms[rng.random_range(0..algorithms.len())];
                let movetime = [20, 50, 1000][rng.random_range(0..3)];
                json!({"engine": true, "algorithm": algorithm, "movetime": movetime,
                       "level": level})
            })
            .collect();
        let mut game = Game::new(start);
        if i == 0 {
            game.play_all("f2f3*n").unwrap();
        } else {
            // Random steps, ending on red's move, part-way into its turn.
            let turns = rng.random_range(0..12);
            while !game.position().is_game_over() && game.turns().len() <= turns {
                let legal = game.position().legal_step_vec();
                game.play(legal[rng.random_range(0..legal.len())]).unwrap();
            }
            let red = splut_rules::Seat::Red;
            while !game.position().is_game_over()
                && game.position().in_game(red)
                && (game.position().side_to_move() != red || rng.random_bool(0.5))
            {
                let legal = game.position().legal_step_vec();
                game.play(legal[rng.random_range(0..legal.len())]).unwrap();
            }
            if !game.position().is_game_over() && !game.position().in_game(red) {
                // An engine would be to move: not a game to hold still.
                continue;
            }
        }
        let steps: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
        let st = gui.new_game(json!({
            "spn": start.to_spn(), "moves": steps.join(" "), "seats": seats,
        }));
        let id = st["id"].as_u64().unwrap();
        let r = gui.get(&format!("/api/games/{id}/record"));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body, native_record(&st));
        native.push(r.body);
        records.push(json!({"start": start.to_spn(), "steps": steps, "seats": st["seats"]}));
        assert_eq!(gui.delete(&format!("/api/games/{id}")).status, 200);
    }
    assert!(
        native[0].contains("[Reason last sorcerer standing]"),
        "{}",
        native[0]
    );
    assert!(native.iter().any(|t| t.contains("[Reason turn limit")));
    // Random games written by splut-play (as the server writes them),
    // every seat a person or an engine, cut anywhere.
    for _ in 0..60 {
        let start = Position::start(rng.random_range(2..=4)).unwrap();
        let mut game = Game::new(start);
        let n = rng.random_range(0..200);
        while !game.position().is_game_over() && game.steps().len() < n {
            let legal = game.position().legal_step_vec();
            game.play(legal[rng.random_range(0..legal.len())]).unwrap();
        }
        let seats: Vec<serde_json::Value> = start
            .seats_in_game()
            .map(|s| {
                let engine = rng.random_bool(0.6);
                json!({"seat": s.letter().to_string(), "engine": engine,
                       "algorithm": algorithms[rng.random_range(0..algorithms.len())],
                       "movetime": rng.random_range(10..3000),
                       "level": if rng.random_bool(0.5) { json!(null) } else { json!({"elo": 1500}) }})
            })
            .collect();
        let seats = serde_json::Value::Array(seats);
        let steps: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
        native.push(board_record(&game, &participants(&seats)).to_text());
        let players = start.players_left().to_string();
        records.push(json!({"start": players, "steps": steps, "seats": seats}));
    }
    // Records to read: the games' own, and bad ones, refused as the
    // server refuses them.
    let bad = [
        String::new(),
        "hello".into(),
        native[1].replace("[Players", "[Players 9]\n[Nope"),
        native[1].replace("[Start R", "[Start X"),
        native[1].replace("[Result ", "[Result q"),
        format!("{}[Game 2]\n", native[1]),
    ];
    // Lines of the native engine's searches: MultiPV, win chances, and
    // the other lines it writes.
    let mut engine = Engine::spawn();
    let mut lines = Vec::new();
    for (setup, go) in [
        ("setoption name UCI_ShowWinProb value true", "depth 4"),
        ("setoption name MultiPV value 3", "depth 3"),
        ("position startpos players 3 moves e2e3", "nodes 3000"),
        ("setoption name UCI_ShowWinProb value false", "depth 3"),
    ] {
        engine.send(setup);
        lines.extend(engine.go(go).0);
    }
    engine.send("frobnicate");
    engine.send("isready");
    lines.extend(engine.read_until("readyok"));
    engine.quit();
    lines.extend(
        [
            "info depth 2 score cp 5 currmove e2e3 tbhits 0 pv e2e3 foo winprob r 0.55 g 0.45",
            "info nodes 10 time 1",
            "info string error: unknown command",
        ]
        .map(String::from),
    );
    assert!(lines.iter().any(|l| l.contains(" winprob ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains(" multipv 3 ")), "{lines:?}");
    let texts: Vec<&str> = native
        .iter()
        .map(String::as_str)
        .chain(bad.iter().map(String::as_str))
        .collect();
    let out = module_match(
        &dir,
        &json!({"records": records, "texts": texts, "lines": lines}),
    );

    // Written: the server's text, byte for byte; read back and written
    // again: the same.
    for (i, text) in native.iter().enumerate() {
        assert_eq!(
            out["written"][i]["record"].as_str(),
            Some(text.as_str()),
            "{i}"
        );
        assert_eq!(
            out["again"][i]["record"].as_str(),
            Some(text.as_str()),
            "{i}"
        );
        let read = &out["read"][i];
        let (start, steps) = first_game(text).unwrap();
        assert_eq!(read["steps"], json!(steps), "{i}");
        let players = start.players_left() as usize;
        let expected = if Position::start(players).as_ref() == Some(&start) {
            players.to_string()
        } else {
            start.to_spn()
        };
        assert_eq!(read["start"], expected, "{i}");
        assert_eq!(out["texts"][i], *read);
    }
    // Refused: the server's words (its refusal is `first_game`'s), on the
    // server too.
    for (k, text) in bad.iter().enumerate() {
        let got = &out["texts"][native.len() + k];
        let e = first_game(text).unwrap_err().to_string();
        assert_eq!(*got, json!({ "error": e }), "{text}");
        let r = gui.post("/api/games", &json!({ "record": text }).to_string());
        assert_eq!(r.json()["error"], e, "{text}");
    }
    // The engine's lines: what its own reader reads, winprob to three
    // decimals in the line's order; null for any other line.
    for (k, line) in lines.iter().enumerate() {
        let got = &out["lines"][k];
        let Some(info) = Info::parse(line).ok().filter(|i| i.depth.is_some()) else {
            assert_eq!(*got, serde_json::Value::Null, "{line}");
            continue;
        };
        let pv: Vec<String> = info.pv.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            got["info"],
            json!({"depth": info.depth, "score": info.score.map(|s| s.to_string()),
                   "nodes": info.nodes, "time": info.time_ms, "pv": pv}),
            "{line}"
        );
        assert_eq!(got["multipv"], json!(info.multipv), "{line}");
        // (The order is the unit tests': serde_json's objects sort.)
        let mut winprob: Vec<String> = info
            .winprob
            .iter()
            .map(|(s, p)| format!("{}:{}", s.letter(), (p * 1000.0).round() / 1000.0))
            .collect();
        let mut shown: Vec<String> = got["winprob"]
            .as_object()
            .map(|w| {
                w.iter()
                    .map(|(s, p)| format!("{s}:{}", p.as_f64().unwrap()))
                    .collect()
            })
            .unwrap_or_default();
        shown.sort();
        winprob.sort();
        assert_eq!(shown, winprob, "{line}");
    }
    assert!(
        out["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["multipv"] == 3)
    );
    assert!(
        out["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["winprob"].is_object())
    );
}

#[test]
fn the_static_board_keeps_no_copy_of_the_match() {
    // board-local.js is transport: the game is `splut gui`'s session in
    // the module (splut.mjs's `session`), and so are hints and reviews
    // (its analysis, whose lines the page only carries to the analyst
    // worker and back); nothing of the match or the game's rules is
    // copied into it.
    let source = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../web/js/board-local.js"
    ))
    .unwrap();
    for copy in [
        "parseInfo",
        "parseWinprob",
        "readRecord",
        "[Reason ",
        "[TimeControl ",
        "'winprob'",
        "bestturn ') && turn",
        "takeBack",
        "generation",
        "levelOptions",
        "ALGORITHMS",
        "setoption name Algorithm",
        "splut.record(",
        "splut.gameOfRecord(",
        "splut.info(",
        "board_marks",
        "board_review",
        "movetime must be",
        "position spn",
        "go movetime",
    ] {
        assert!(!source.contains(copy), "board-local.js has its own {copy}");
    }
    for call in ["splut.session(", "analysis_line", "analysis_gone"] {
        assert!(source.contains(call), "board-local.js does not call {call}");
    }
    let lines = source.lines().count();
    assert!(
        lines <= 200,
        "board-local.js is {lines} lines: transport only"
    );
}

#[test]
fn a_take_back_during_the_search_never_lets_the_engine_play_the_persons_turn() {
    let Some((b, port, _)) = static_site() else {
        return;
    };
    b.open(&format!("http://127.0.0.1:{port}/index.html"), "the board");
    // Red a person, green an engine that thinks 1.5 s; the game's state
    // read every 20 ms.
    let st = b.js(
        "const st = await window.splutBackend('POST', '/api/games', {players: 2, pace: 'none',
            seats: [{engine: false}, {engine: true, algorithm: 'alphabeta', movetime: 1500}]});
         window.st = st;
         (async () => { for (;;) {
             window.st = await window.splutBackend('GET', `/api/games/${st.id}`);
             await new Promise(r => setTimeout(r, 20)); } })();
         return st;",
    );
    let id = st["id"].as_u64().unwrap();
    for round in 0..2 {
        b.js(&format!(
            "return await window.splutBackend('POST', '/api/games/{id}/step', {{step: 'e2e3'}});"
        ));
        b.wait(
            "window.st.thinking && window.st.thinking.info",
            Duration::from_secs(10),
            "green's search",
        );
        let back = b.js(&format!(
            "return await window.splutBackend('POST', '/api/games/{id}/takeback');"
        ));
        assert_eq!(back["step_count"], 0, "round {round}: {back}");
        // Past the search's time: its late answer came, and was dropped.
        std::thread::sleep(Duration::from_millis(2500));
        let st = b.js("return window.st;");
        assert_eq!(st["step_count"], 0, "round {round}: {st}");
        assert_eq!(st["side"], "r", "round {round}: {st}");
        assert_eq!(
            st["thinking"],
            serde_json::Value::Null,
            "round {round}: {st}"
        );
        assert_eq!(st["error"], serde_json::Value::Null, "round {round}: {st}");
    }
    // The game goes on: red's step, then green's turn, played once.
    b.js(&format!(
        "return await window.splutBackend('POST', '/api/games/{id}/step', {{step: 'e2e3'}});"
    ));
    let st = b.wait(
        "window.st.side === 'r' && window.st.step_count > 1 && window.st",
        Duration::from_secs(10),
        "green's turn",
    );
    assert_eq!(st["turns"].as_array().map(Vec::len), Some(2), "{st}");
}
