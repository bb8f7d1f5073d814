//! Bad protocol lines never crash the engine's session: mutated commands
//! get an answer and leave it working, and mutated `go` arguments an
//! error or limits (the rules' own parsers: rules/tests/garbage_input.rs).

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Characters that SPN and steps use, plus a few that they do not.
const ALPHABET: &[char] = &[
    'R', 'r', 'y', 'g', 'b', 'S', 'D', 'T', '/', ' ', '-', 'x', ',', '0', '1', '2', '3', '4', '5',
    '6', '7', '8', '9', 'a', 'e', 'i', 'j', '^', '*', '@', 'n', 's', 'w', 'é', '\t', '\n',
];

fn mutate(rng: &mut Rng, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let c = ALPHABET[rng.below(ALPHABET.len())];
        let at = rng.below(chars.len() + 1);
        match rng.below(3) {
            0 => chars.insert(at, c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = c,
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

/// A writer the fuzz test can read back.
#[derive(Clone, Default)]
struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn mutated_protocol_lines_never_panic_and_get_answers() {
    use splut_engine::protocol::{Flow, Output, Session, commands::parse_go};
    let seeds = [
        "ugi",
        "isready",
        "uginewgame",
        "setoption name Hash value 4",
        "setoption name Threads value 2",
        "setoption name Algorithm value maxn",
        "position startpos players 3 moves e2e3 b5c5 b6c6",
        "position fen 1/1gD1/1gS3/1RgT4/1rSR6/2R3R/4rT/3/rD r 1 19 d4 h4 d4 moves d4e4",
        "query legal",
        "query p1turn",
        "query result",
        "d",
        "perft 2",
        "stop",
    ];
    let sink = Sink::default();
    let mut engine = Session::new(Output::new(Box::new(sink.clone())));
    let mut rng = Rng(0xF022);
    for i in 0..20_000 {
        let line = mutate(&mut rng, seeds[i % seeds.len()]);
        // Searches and quitting are exercised elsewhere; here the parser.
        let first = line.split_whitespace().next().unwrap_or("");
        if first == "go"
            || first == "quit"
            || first.starts_with("perft")
                && line.contains(char::is_numeric)
                && !line.contains("perft 2")
        {
            continue;
        }
        assert_eq!(engine.handle(&line), Flow::Continue, "{line:?}");
    }
    // A perft may still be running (it runs like a search): let it end.
    engine.shutdown();
    engine.handle("isready");
    let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
    assert!(text.ends_with("readyok\n"), "the engine still answers");
    assert!(!text.contains("panicked"));
    // `go` arguments through the parser alone.
    for i in 0..20_000 {
        let line = mutate(
            &mut rng,
            [
                "depth 5 nodes 100",
                "rtime 1000 ginc 5",
                "p1time 10 p2time 20 infinite",
            ][i % 3],
        );
        let words: Vec<&str> = line.split_whitespace().collect();
        let _ = parse_go(&words, splut_rules::Seat::Red, splut_rules::Seat::Green);
    }
}
