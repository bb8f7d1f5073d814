use super::*;
use splut_rules::Seat;

fn w(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

fn parse_position(words: &[&str]) -> Result<PositionCommand, PositionCommandError> {
    PositionCommand::parse(words)
}

/// The clock `go`'s words give the side to move.
fn clock(text: &str, p1: Seat, side: Seat) -> Result<Option<(u64, u64)>, GoCommandError> {
    Go::parse(&w(text))?.clock(p1, side)
}

#[test]
fn positions_parse_with_steps() {
    let p = parse_position(&w("startpos moves e2e3 e8e7 f8f7")).unwrap();
    assert_eq!(p.game.steps().len(), 3);
    assert_eq!(p.p1(), Seat::Red);
    let p = parse_position(&w("startpos players 4")).unwrap();
    assert_eq!(p.game.position().players_left(), 4);
    let p = parse_position(&w(
        "fen R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - - moves e2e3",
    ))
    .unwrap();
    assert_eq!(p.game.position().side_to_move(), Seat::Green);
    let p = parse_position(&w("spn R/gTgDgS/5/7/R7R/7/5/rSrDrT/R g 3 4 - - -")).unwrap();
    assert_eq!(
        p.p1(),
        Seat::Red,
        "turn 4 is green's, so red has the odd turns"
    );
}

#[test]
fn bad_positions_say_why() {
    for (text, says) in [
        ("", "expected 'startpos'"),
        ("startgame", "found 'startgame'"),
        ("startpos players 5", "expected 2, 3 or 4"),
        ("startpos players", "expected 2, 3 or 4"),
        ("startpos moves e2e4", "step 1"),
        ("startpos moves e2e3 e2e3", "step 2"),
        ("startpos moves e2e4 zz", "step 1"),
        ("startpos e2e3", "expected 'moves'"),
        (
            "fen R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - -",
            "7 fields, found 6",
        ),
        (
            "fen R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - - -",
            "7 fields, found 8",
        ),
        ("fen R/gTgDgS/5/7/R7R/7/5/rSrDrT/R x 1 1 - - -", "field 2"),
    ] {
        let e = parse_position(&w(text)).err().map(|e| e.to_string());
        let e = e.unwrap_or_default();
        assert!(e.contains(says), "{text}: {e}");
    }
}

#[test]
fn go_reads_every_limit() {
    let l = Go::parse(&w("depth 5 nodes 1000 movetime 200")).unwrap();
    assert_eq!(
        (l.depth, l.nodes, l.movetime),
        (Some(5), Some(1000), Some(200))
    );
    let c = clock(
        "p1time 1000 p2time 2000 p1inc 10 p2inc 20",
        Seat::Red,
        Seat::Green,
    );
    assert_eq!(c, Ok(Some((2000, 20))));
    let c = clock(
        "rtime 5 ytime 6 gtime 7 btime 8 binc 3",
        Seat::Red,
        Seat::Blue,
    );
    assert_eq!(c, Ok(Some((8, 3))));
    assert_eq!(clock("depth 3", Seat::Red, Seat::Red), Ok(None));
    assert!(Go::parse(&w("infinite")).unwrap().infinite);
    let p = Go::parse(&w("ponder movetime 50")).unwrap();
    assert!(p.ponder && !p.infinite && p.movetime == Some(50));
    assert_eq!(
        Go::parse(&w("depth 0")),
        Err(GoCommandError::Zero { key: "depth" })
    );
    assert_eq!(
        clock("gtime 100", Seat::Red, Seat::Red),
        Err(GoCommandError::NoTimeForTheMover {
            side: Seat::Red,
            p: 1
        })
    );
    for (text, says) in [
        ("depth", "needs a value"),
        ("depth x", "whole number"),
        ("depth 0", "at least 1"),
        ("movetime -5", "whole number"),
        ("wtime 100", "unknown parameter 'wtime'"),
        ("pondr", "unknown parameter"),
        (
            "gtime 100",
            "no time for the side to move (red: rtime, or p1time)",
        ),
        ("p2time 100", "no time for the side to move"),
        ("p1inc 100", "no time for the side to move"),
        ("rinc 0", "no time for the side to move"),
        ("ginc 100", "no time for the side to move"),
        ("nodes 0", "at least 1"),
        ("movetime 1000000000001", "over the maximum"),
        ("rtime 18446744073709551615", "over the maximum"),
        ("depth 18446744073709551616", "whole number"),
    ] {
        let e = clock(text, Seat::Red, Seat::Red).unwrap_err();
        assert!(e.to_string().contains(says), "{text}: {e}");
    }
}

#[test]
fn setoption_takes_names_and_values_with_spaces() {
    assert_eq!(
        parse_setoption(&w("name Hash value 128")).unwrap(),
        SetOption::new("Hash", "128")
    );
    let missing = parse_setoption(&w("name Hash")).unwrap_err();
    assert_eq!(
        missing,
        SetOptionCommandError::MissingValue {
            name: "Hash".into()
        }
    );
    assert!(missing.to_string().contains("value is missing"));
    assert_eq!(
        parse_setoption(&w("Hash 128")),
        Err(SetOptionCommandError::ExpectedName)
    );
    let no_name = parse_setoption(&w("name value 3")).unwrap_err();
    assert_eq!(no_name, SetOptionCommandError::MissingName);
    assert!(no_name.to_string().contains("name is missing"));
}

/// Every command a client writes prints as it always did and reads back
/// to itself.
#[test]
fn commands_print_as_clients_wrote_them_and_read_back() {
    let start = splut_rules::Position::start(2).unwrap();
    let mut game = splut_rules::Game::new(start);
    for s in ["e2e3", "e8e7", "f8f7"] {
        game.play_text(s).unwrap();
    }
    let spn = start.to_spn();
    let mut clocked = Go::default();
    clocked.seats[Seat::Red.index()] = SeatClock::new(1000, 10);
    clocked.seats[Seat::Green.index()] = SeatClock::new(2000, 20);
    clocked.players = [SeatClock::new(1000, 10), SeatClock::new(2000, 20)];
    let pondering = Go {
        ponder: true,
        ..Go::movetime(100)
    };
    let cases: Vec<(Command, String)> = vec![
        (Command::Ugi, "ugi".into()),
        (Command::Uci, "uci".into()),
        (Command::IsReady, "isready".into()),
        (Command::UgiNewGame, "uginewgame".into()),
        (Command::UciNewGame, "ucinewgame".into()),
        (Command::Stop, "stop".into()),
        (Command::PonderHit, "ponderhit".into()),
        (Command::D, "d".into()),
        (Command::Help, "help".into()),
        (Command::Quit, "quit".into()),
        (Command::Perft(5), "perft 5".into()),
        (Command::Query(Query::P1Turn), "query p1turn".into()),
        (Command::Query(Query::Fen), "query fen".into()),
        (
            SetOption::new("Skill Level", "3").into(),
            "setoption name Skill Level value 3".into(),
        ),
        (Go::movetime(50).into(), "go movetime 50".into()),
        (Go::nodes(1000).into(), "go nodes 1000".into()),
        (Go::depth(6).into(), "go depth 6".into()),
        (pondering.into(), "go ponder movetime 100".into()),
        (
            clocked.into(),
            "go rtime 1000 rinc 10 gtime 2000 ginc 20 p1time 1000 p2time 2000 p1inc 10 p2inc 20"
                .into(),
        ),
        (
            Go {
                infinite: true,
                ..Go::default()
            }
            .into(),
            "go infinite".into(),
        ),
        (
            PositionCommand::spn(&game, 3).into(),
            format!("position spn {spn} moves e2e3 e8e7 f8f7"),
        ),
        (
            PositionCommand::spn(&game, 0).into(),
            format!("position spn {spn}"),
        ),
        (
            PositionCommand::spn(&game, 1).into(),
            format!("position spn {spn} moves e2e3"),
        ),
        (
            PositionCommand::of(&game, true).into(),
            "position startpos players 2 moves e2e3 e8e7 f8f7".into(),
        ),
        (
            PositionCommand::of(&game, false).into(),
            format!("position fen {spn} moves e2e3 e8e7 f8f7"),
        ),
    ];
    for (command, text) in cases {
        assert_eq!(command.to_string(), text);
        assert_eq!(Command::parse(&text), Ok(Some(command)), "{text}");
    }
    let p = Command::parse("position startpos").unwrap().unwrap();
    assert_eq!(p.to_string(), "position startpos");
}

#[test]
fn lines_that_are_no_commands_say_why() {
    assert_eq!(Command::parse(" \t "), Ok(None));
    for (line, says, idle) in [
        (
            "isready now",
            "'isready' takes no arguments, found 'now'",
            None,
        ),
        ("frobnicate", "unknown command 'frobnicate'", None),
        ("query spn fen", "found 'spn fen'", None),
        ("query", "query: expected one of", None),
        ("perft 13", "perft: expected a depth 0..=12", Some("perft")),
        ("perft 3 4", "perft: expected a depth", Some("perft")),
        ("go depth x", "whole number", Some("go")),
        ("position x", "expected 'startpos'", Some("position")),
        ("setoption Hash", "expected 'name", Some("setoption")),
        (
            "isready\rquery spn",
            "control character \\x0d at byte 7",
            None,
        ),
    ] {
        let e = Command::parse(line).unwrap_err();
        assert!(e.to_string().contains(says), "{line}: {e}");
        assert_eq!(e.needs_idle(), idle, "{line}");
    }
    let needs_idle = |l: &str| Command::parse(l).unwrap().unwrap().needs_idle();
    assert!(needs_idle("uginewgame") && needs_idle("go") && needs_idle("perft 1"));
    assert!(!needs_idle("isready") && !needs_idle("query spn") && !needs_idle("stop"));
}
