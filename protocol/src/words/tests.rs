//! The lines printed and read back: every field combination, the engine's
//! own lines byte for byte, tolerance to other words, and errors (never a
//! panic) for what does not read.

use super::*;
use splut_rules::splitmix64;

fn steps(text: &str) -> Vec<StepText> {
    text.split(' ')
        .map(|t| StepText::parse(t).unwrap())
        .collect()
}

/// Step texts of every form: plain, push, pull, throw, levitation, pass.
const STEPS: [&str; 8] = [
    "e2e3", "d2d3@e1", "f2e2*e", "e3e4*n", "c4c5^c3", "pass", "b5c5", "e8e7",
];

/// A number below `n` from the generator `state`.
fn below(state: &mut u64, n: u64) -> u64 {
    splitmix64(state) % n
}

/// An `Info` with the fields of `mask` (bit k: the k-th field), its values
/// from `state`.
fn info_of(mask: u32, state: &mut u64) -> Info {
    let has = |k: u32| mask & (1 << k) != 0;
    let mut i = Info::default();
    let small = |s: &mut u64| below(s, 200) as u32;
    if has(0) {
        i.depth = Some(small(state));
    }
    if has(1) {
        i.seldepth = Some(small(state));
    }
    if has(2) {
        i.multipv = Some(1 + below(state, 64) as u32);
    }
    if has(3) {
        i.score = Some(match below(state, 4) {
            0 => Score::Win(1 + small(state)),
            1 => Score::Loss(1 + small(state)),
            2 => Score::Cp(-(below(state, 900_000) as i32)),
            _ => Score::Cp(below(state, 900_000) as i32),
        });
    }
    if has(4) {
        i.nodes = Some(splitmix64(state) >> below(state, 64));
    }
    if has(5) {
        i.nps = Some(splitmix64(state) >> 20);
    }
    if has(6) {
        i.time_ms = Some(below(state, 1 << 40));
    }
    if has(7) {
        i.hashfull = Some(below(state, 1001) as u32);
    }
    if has(8) {
        let n = 1 + below(state, 12) as usize;
        let text = (0..n)
            .map(|_| STEPS[below(state, STEPS.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(" ");
        i.pv = steps(&text);
    }
    if has(9) {
        // 2, 3 or 4 seats, chances in hundredths (what two decimals keep).
        let seats = 2 + below(state, 3) as usize;
        i.winprob = Seat::ALL[..seats]
            .iter()
            .map(|&s| (s, below(state, 101) as f64 / 100.0))
            .collect();
    }
    i
}

#[test]
fn every_field_combination_reads_back() {
    let mut state = 7;
    for mask in 0..1 << 10 {
        for _ in 0..8 {
            let i = info_of(mask, &mut state);
            let text = i.to_string();
            assert_eq!(Info::parse(&text).as_ref(), Ok(&i), "{text}");
            assert_eq!(Line::parse(&text), Ok(Line::Info(i.clone())), "{text}");
            assert_eq!(Line::Info(i).to_string(), text);
        }
    }
}

#[test]
fn the_engines_lines_print_as_they_always_did() {
    let mut i = Info {
        depth: Some(6),
        seldepth: Some(6),
        multipv: None,
        score: Some(Score::Cp(-89)),
        nodes: Some(10181),
        nps: Some(5090500),
        time_ms: Some(2),
        hashfull: Some(1),
        pv: steps("e3e4 d2d3@e1 f2e2*e d8d7 e7f7 f7f6"),
        winprob: Vec::new(),
    };
    // protocol.md's example.
    let doc = "info depth 6 seldepth 6 score cp -89 nodes 10181 nps 5090500 time 2 hashfull 1 pv e3e4 d2d3@e1 f2e2*e d8d7 e7f7 f7f6";
    assert_eq!(i.to_string(), doc);
    i.multipv = Some(2);
    i.score = Some(Score::Win(3));
    i.winprob = vec![(Seat::Red, 0.614), (Seat::Green, 0.386)];
    assert_eq!(
        i.to_string(),
        "info depth 6 seldepth 6 multipv 2 score win 3 nodes 10181 nps 5090500 time 2 hashfull 1 pv e3e4 d2d3@e1 f2e2*e d8d7 e7f7 f7f6 winprob r 0.61 g 0.39"
    );
    i.pv.clear();
    i.score = Some(Score::Loss(2));
    i.winprob = vec![
        (Seat::Red, 0.0),
        (Seat::Yellow, 1.0 / 3.0),
        (Seat::Green, 1.0 / 3.0),
        (Seat::Blue, 1.0 / 3.0),
    ];
    assert!(
        i.to_string()
            .ends_with("hashfull 1 winprob r 0.00 y 0.33 g 0.33 b 0.33")
    );
    assert_eq!(Info::default().to_string(), "info");
    assert_eq!(
        BestTurn(steps("e3e4 d2d3@e1 f2e2*e")).to_string(),
        "bestturn e3e4 d2d3@e1 f2e2*e"
    );
    assert_eq!(BestTurn::default().to_string(), "bestturn (none)");
    assert_eq!(BestMove::default().to_string(), "bestmove (none)");
    assert_eq!(
        InfoString::error("unknown command 'x'").to_string(),
        "info string error: unknown command 'x'"
    );
}

#[test]
fn scores_read_as_they_print() {
    for s in [
        Score::Cp(0),
        Score::Cp(-14),
        Score::Cp(i32::MIN),
        Score::Cp(i32::MAX),
        Score::Win(1),
        Score::Loss(7000),
    ] {
        assert_eq!(s.to_string().parse(), Ok(s));
    }
    for bad in ["", "cp", "cp x", "mate 3", "win -1", "cp 1 2", "loss 1.5"] {
        assert!(bad.parse::<Score>().is_err(), "{bad}");
    }
}

#[test]
fn other_engines_words_are_skipped() {
    let line = "info  depth 3 currmove e2e3 currmovenumber 1 score cp 10 lowerbound nodes 5 \
                tbhits 0 pv e2e3 f8f7 refutation e2e3 winprob r 0.6 g 0.4 string depth 9 x\r";
    let i = Info::parse(line).unwrap();
    assert_eq!(i.depth, Some(3));
    assert_eq!(i.score, Some(Score::Cp(10)));
    assert_eq!(i.nodes, Some(5));
    assert_eq!(i.pv, steps("e2e3 f8f7"), "the pv ends at 'refutation'");
    assert_eq!(i.winprob, vec![(Seat::Red, 0.6), (Seat::Green, 0.4)]);
    assert_eq!((i.seldepth, i.multipv, i.time_ms), (None, None, None));
    // A pv before other fields, as the engine's winprob follows it.
    let i = Info::parse("info pv e2e3 pass nodes 9").unwrap();
    assert_eq!((i.pv, i.nodes), (steps("e2e3 pass"), Some(9)));
    // Words it does not know only: a report with nothing in it.
    assert_eq!(Info::parse("info hello 3"), Ok(Info::default()));
    assert_eq!(Info::parse("info pv"), Ok(Info::default()));
    assert_eq!(
        BestMove::parse("bestmove e2e3 ponder f8f7"),
        Ok(BestMove(Some(steps("e2e3")[0])))
    );
}

fn missing(word: &'static str) -> ParseError {
    ParseError::Missing { word }
}

fn unreadable(word: &'static str, found: &str) -> ParseError {
    ParseError::Unreadable {
        word,
        found: found.to_string(),
    }
}

fn repeated(word: &'static str) -> ParseError {
    ParseError::Repeated { word }
}

/// Why `line` does not read as an `info` line.
fn info_error(line: &str) -> ParseError {
    Info::parse(line).unwrap_err()
}

#[test]
fn what_does_not_read_is_an_error() {
    let not_info = ParseError::WrongKind { expected: "info" };
    assert_eq!(info_error("bestmove e2e3"), not_info);
    assert_eq!(info_error("information"), not_info);
    assert_eq!(info_error("info string error: x"), ParseError::InfoString);
    assert_eq!(info_error("info depth"), missing("depth"));
    assert_eq!(info_error("info depth x"), unreadable("depth", "x"));
    assert_eq!(info_error("info depth -1"), unreadable("depth", "-1"));
    assert_eq!(info_error("info nodes 1 nodes 2"), repeated("nodes"));
    assert_eq!(info_error("info score cp"), missing("score"));
    assert_eq!(info_error("info score mate 3"), unreadable("score", "mate"));
    assert_eq!(info_error("info score win x"), unreadable("score", "x"));
    assert_eq!(info_error("info pv e2e3 pv e3e4"), repeated("pv"));
    assert_eq!(info_error("info winprob"), missing("winprob"));
    assert_eq!(info_error("info winprob x 0.5"), unreadable("winprob", "x"));
    assert_eq!(info_error("info winprob r"), missing("winprob"));
    assert_eq!(
        info_error("info winprob r 1.5"),
        unreadable("winprob", "1.5")
    );
    assert_eq!(
        info_error("info winprob r NaN"),
        unreadable("winprob", "NaN")
    );
    assert_eq!(info_error("info winprob r 0.5 r 0.5"), repeated("winprob"));
    let turn = |line| BestTurn::parse(line).unwrap_err();
    assert_eq!(turn("bestturn"), missing("bestturn"));
    assert_eq!(turn("bestturn e2e3 x"), unreadable("bestturn", "x"));
    assert_eq!(
        turn("bestturn (none) e2e3"),
        unreadable("bestturn", "(none)")
    );
    assert_eq!(
        turn("bestmove e2e3"),
        ParseError::WrongKind {
            expected: "bestturn"
        }
    );
    let first = |line| BestMove::parse(line).unwrap_err();
    assert_eq!(first("bestmove"), missing("bestmove"));
    assert_eq!(first("bestmove e2e9"), unreadable("bestmove", "e2e9"));
    let free = |line| InfoString::parse(line).unwrap_err();
    let not_free = ParseError::WrongKind {
        expected: "info string",
    };
    assert_eq!(free("info depth 1"), not_free);
    assert_eq!(free("info stringent"), not_free);
    assert_eq!(free("info"), not_free);
    assert!(Line::parse("info depth x").is_err());
    assert!(Line::parse("bestturn").is_err());
    // Errors echo what they quote safely.
    let e = info_error("info depth \u{1b}[2J");
    assert!(!e.to_string().contains('\u{1b}'), "{e}");
}

#[test]
fn answers_and_free_text_read_back() {
    for text in ["e2e3", "e3e4 d2d3@e1 f2e2*e", "pass", "c4c5^c3 e3e4*n"] {
        let turn = BestTurn(steps(text));
        let line = turn.to_string();
        assert_eq!(BestTurn::parse(&line).as_ref(), Ok(&turn));
        assert_eq!(Line::parse(&line), Ok(Line::BestTurn(turn.clone())));
        let first = turn.best_move();
        assert_eq!(first.0, Some(turn.0[0]));
        assert_eq!(BestMove::parse(&first.to_string()), Ok(first));
        assert_eq!(Line::parse(&first.to_string()), Ok(Line::BestMove(first)));
    }
    assert_eq!(
        "bestmove e2e3".parse(),
        Ok(BestMove(Some(steps("e2e3")[0])))
    );
    assert_eq!(
        "info depth 2".parse::<Line>().map(|l| l.to_string()),
        Ok("info depth 2".into())
    );
    let none = BestTurn::parse("bestturn (none)").unwrap();
    assert_eq!(none, BestTurn::default());
    assert_eq!(none.best_move(), BestMove(None));
    assert_eq!(BestMove::parse("bestmove (none)"), Ok(BestMove(None)));
    for text in [
        "",
        "  two leading spaces",
        "error: the game is over (r won)",
        "a\ttab",
    ] {
        let s = InfoString::new(text);
        assert_eq!(InfoString::parse(&s.to_string()).as_ref(), Ok(&s));
        assert_eq!(Line::parse(&s.to_string()), Ok(Line::InfoString(s)));
    }
    let e = InfoString::parse("info string error: no such position").unwrap();
    assert_eq!(e.error_message(), Some("no such position"));
    assert_eq!(InfoString::new("hello").error_message(), None);
    assert_eq!(InfoString::parse("info string"), Ok(InfoString::default()));
    for other in ["", "nodes 3", "e2e3 17", "readyokay", " . . R . ."] {
        assert_eq!(Line::parse(other), Ok(Line::Other(other.into())));
        assert_eq!(Line::Other(other.into()).to_string(), other);
    }
}

#[test]
fn the_handshake_and_responses_read_back() {
    let spin = |default, min, max| OptionKind::Spin { default, min, max };
    let cases = [
        (
            Line::Id(Id::Name("splut 0.1.0".into())),
            "id name splut 0.1.0",
        ),
        (
            Line::Id(Id::Author("the splut developers".into())),
            "id author the splut developers",
        ),
        (
            Line::Option(OptionLine {
                name: "Hash".into(),
                kind: spin(64, 1, 65536),
            }),
            "option name Hash type spin default 64 min 1 max 65536",
        ),
        (
            Line::Option(OptionLine {
                name: "Skill Level".into(),
                kind: spin(20, 0, 20),
            }),
            "option name Skill Level type spin default 20 min 0 max 20",
        ),
        (
            Line::Option(OptionLine {
                name: "MctsParallel".into(),
                kind: OptionKind::Combo {
                    default: "tree".into(),
                    vars: vec!["tree".into(), "root".into()],
                },
            }),
            "option name MctsParallel type combo default tree var tree var root",
        ),
        (
            Line::Option(OptionLine {
                name: "EvalFile".into(),
                kind: OptionKind::Text {
                    default: "<empty>".into(),
                },
            }),
            "option name EvalFile type string default <empty>",
        ),
        (
            Line::Option(OptionLine {
                name: "Ponder".into(),
                kind: OptionKind::Check { default: false },
            }),
            "option name Ponder type check default false",
        ),
        (
            Line::Option(OptionLine {
                name: "Clear Hash".into(),
                kind: OptionKind::Button,
            }),
            "option name Clear Hash type button",
        ),
        (Line::UgiOk, "ugiok"),
        (Line::UciOk, "uciok"),
        (Line::ReadyOk, "readyok"),
        (Line::Response(Response("true".into())), "response true"),
        (Line::Response(Response(String::new())), "response "),
        (
            Line::Response(Response("e2e3 d2d3@e1".into())),
            "response e2e3 d2d3@e1",
        ),
    ];
    for (line, text) in cases {
        assert_eq!(line.to_string(), text);
        assert_eq!(Line::parse(text), Ok(line), "{text}");
    }
    let lines = [
        "id name x",
        "option name UCI_Elo type spin default 1500 min 800 max 2400",
        "option name uci_showwinprob type check default false",
        "option name UCI_Elo type spin default x min 1 max 2",
    ];
    assert_eq!(options(&lines).count(), 2, "the bad spin does not read");
    let elo = find_option(&lines, "uci_elo").unwrap();
    assert!(elo.is("UCI_ELO") && elo.kind == spin(1500, 800, 2400));
    assert!(find_option(&lines, "UCI_ShowWinProb").is_some());
    assert_eq!(Response::parse("response  true ").unwrap().answer(), "true");
    for bad in [
        "id",
        "id nick x",
        "option",
        "option name X",
        "option name type spin",
        "option name X type spin default 1 min 2",
        "option name X type check default maybe",
        "option name X type colour",
    ] {
        assert!(Line::parse(bad).is_err(), "{bad}");
    }
}

/// What reading `text` gives must print as something that reads back to
/// the same line: read, print, read, print is stable. Never a panic.
fn check_stable(text: &str) {
    if let Ok(line) = Line::parse(text) {
        let printed = line.to_string();
        let again = Line::parse(&printed).unwrap_or_else(|e| panic!("{printed:?}: {e}"));
        assert_eq!(again.to_string(), printed, "{text:?}");
    }
}

#[test]
fn random_and_cut_lines_never_panic() {
    let lines = [
        "info depth 3 seldepth 4 multipv 2 score cp -14 nodes 120 nps 1000 time 5 hashfull 0 pv d2d3@e1 e3e4 winprob r 0.61 y 0.2 g 0.19",
        "info string error: the game is over (r won); nothing to search",
        "bestturn e3e4 d2d3@e1 f2e2*e",
        "bestmove c4c5^c3",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name Algorithm type combo default auto var auto var alphabeta",
        "id name splut 0.1.0",
        "response e2e3 d2d3@e1",
    ];
    // Every cut, at every character.
    for line in lines {
        for (at, _) in line.char_indices() {
            check_stable(&line[..at]);
            check_stable(&line[at..]);
        }
    }
    // Words of the lines, shuffled, with numbers and bytes of every kind.
    let vocabulary: Vec<&str> = lines
        .iter()
        .flat_map(|l| l.split(' '))
        .chain([
            "-1",
            "1e309",
            "inf",
            "-0",
            "0.005",
            "99999999999999999999",
            "(none)",
            "é",
            "\u{0}",
            "e9e9",
            "a1a2^",
            "z",
            "\t",
            "string",
            "win",
            "loss",
            "cp",
            "mate",
        ])
        .collect();
    let mut state = 11;
    for _ in 0..20_000 {
        let n = below(&mut state, 14) as usize;
        let mut words: Vec<String> = (0..n)
            .map(|_| vocabulary[below(&mut state, vocabulary.len() as u64) as usize].to_string())
            .collect();
        if below(&mut state, 3) > 0 {
            let first = [
                "info",
                "bestturn",
                "bestmove",
                "info string",
                "option name",
                "id",
                "response",
            ];
            let k = below(&mut state, first.len() as u64) as usize;
            words.insert(0, first[k].to_string());
        }
        check_stable(&words.join(" "));
        let bytes: Vec<u8> = (0..below(&mut state, 40))
            .map(|_| splitmix64(&mut state) as u8)
            .collect();
        check_stable(&String::from_utf8_lossy(&bytes));
    }
}
