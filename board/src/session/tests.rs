//! The machine driven directly: requests, scripted engine answers and
//! timer wake-ups in, commands and the page's JSON out. No process runs.

use super::*;
use serde_json::{Value, json};

const PAUSE: Duration = Duration::from_millis(350);

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn seat(letter: char, engine: bool) -> SeatConfig {
    SeatConfig {
        seat: Seat::from_letter(letter).unwrap(),
        engine,
        algorithm: "alphabeta".into(),
        movetime: 50,
        level: None,
        invited: false,
        name: None,
        stand_in: false,
        left: false,
        stood_in: Vec::new(),
        clock: None,
    }
}

/// A 2-player game, red a person and green the engine, at `pace`.
fn person_vs_engine(pace: Pace) -> Session {
    let game = Game::new(Position::start(2).unwrap());
    let mut s = Session::new(
        7,
        game,
        vec![seat('r', false), seat('g', true)],
        Levels::default(),
        PAUSE,
        pace,
        ms(0),
    );
    assert_eq!(ready(&mut s, ms(0)), ["isready"]);
    s
}

/// The fresh engine's handshake, the machine's own: spawned, `ugi`
/// answered, `isready` answered; the lines sent after `ugi` (`isready`,
/// and the search it may then ask).
fn ready(s: &mut Session, now: Duration) -> Vec<String> {
    assert_eq!(sent(s), ["<Spawn>", "ugi"]);
    for line in [
        "id name test",
        "option name Hash type spin default 1 min 1 max 9",
    ] {
        s.engine_line(line, now);
    }
    assert!(sent(s).is_empty(), "nothing before ugiok");
    // No search before the engine is ready.
    assert!(!s.searching() && s.awaiting_engine());
    s.engine_line("ugiok", now);
    let mut lines = sent(s);
    s.engine_line("readyok", now);
    lines.extend(sent(s));
    lines
}

fn commands(s: &mut Session) -> Vec<Command> {
    std::iter::from_fn(|| s.command()).collect()
}

fn sent(s: &mut Session) -> Vec<String> {
    commands(s)
        .into_iter()
        .map(|c| match c {
            Command::Send(command) => command.to_string(),
            other => format!("<{other:?}>"),
        })
        .collect()
}

fn state(s: &Session) -> Value {
    serde_json::to_value(s).unwrap()
}

/// The legal steps for the side to move, as the page gets them.
fn legal(s: &Session) -> Vec<String> {
    serde_json::from_value(state(s)["legal"].clone()).unwrap()
}

/// The engine's two steps after red's first step, as the rules allow.
fn engine_turn(s: &Session) -> Vec<String> {
    let mut game = s.game().clone();
    let mut turn = Vec::new();
    for _ in 0..2 {
        let step = game.position().legal_step_vec()[0].to_string();
        game.play_text(&step).unwrap();
        turn.push(step);
    }
    turn
}

fn info(depth: u32) -> EngineEvent {
    EngineEvent::Info(
        InfoView {
            depth: Some(depth),
            score: Some("cp 14".into()),
            ..InfoView::default()
        },
        Some(vec![(Seat::Red, 0.4), (Seat::Green, 0.6)]),
    )
}

#[test]
fn a_new_game_is_the_pages_state() {
    let s = person_vs_engine(Pace::Normal);
    let st = state(&s);
    assert_eq!(st["id"], 7);
    assert_eq!(st["version"], 1);
    assert_eq!(st["spn"], "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -");
    assert_eq!(st["start"], st["spn"]);
    // The position read by the rules, beside its SPN.
    assert_eq!(st["board"]["spn"], st["spn"]);
    assert_eq!(st["board"]["pieces"]["d2"], "rS");
    assert_eq!(st["board"]["seats"], json!(["r", "g"]));
    assert_eq!(st["side"], "r");
    assert_eq!(st["steps_left"], 1);
    assert_eq!(st["gameover"], false);
    assert_eq!(st["winner"], Value::Null);
    assert_eq!(st["step_count"], 0);
    assert_eq!(st["turn"], 1);
    assert_eq!(st["turns"], json!([]));
    assert_eq!(st["places"], json!({}));
    assert_eq!(st["thinking"], Value::Null);
    assert_eq!(st["pace"], "normal");
    assert_eq!(st["engine_running"], true);
    assert_eq!(
        st["seats"][1],
        json!({"seat": "g", "engine": true, "algorithm": "alphabeta",
               "movetime": 50, "level": null, "invited": false, "name": null,
               "stand_in": false, "left": false, "stood_in": [], "clock": null})
    );
    assert_eq!(
        legal(&s).len(),
        st["legal_events"].as_array().unwrap().len()
    );
    assert!(!legal(&s).is_empty());
    // The person moves first: nothing is asked of the engine.
    assert_eq!(s.wake_at(), None);
}

#[test]
fn a_persons_step_starts_the_engines_search() {
    let mut s = person_vs_engine(Pace::Normal);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(10)).unwrap();
    let st = state(&s);
    assert_eq!(st["last_step"], step.as_str());
    assert_eq!(st["step_count"], 1);
    assert_eq!(st["side"], "g");
    assert_eq!(st["thinking"]["seat"], "g");
    assert_eq!(
        sent(&mut s),
        vec![
            "setoption name Algorithm value alphabeta".to_string(),
            format!("position spn R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - - moves {step}"),
            "go movetime 50".into(),
        ]
    );
    // Hung if silent past its time and the grace.
    assert_eq!(s.wake_at(), Some(ms(10 + 50) + HUNG_AFTER));
    // The person may not play the engine's turn.
    let before = state(&s);
    let next = legal(&s)[0].clone();
    assert_eq!(s.step(&next, ms(20)), Err(Refusal::NotPersonsTurn));
    assert_eq!(state(&s), before);
}

#[test]
fn the_machine_reads_its_engines_lines() {
    let mut s = person_vs_engine(Pace::Normal);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(0)).unwrap();
    sent(&mut s);
    s.engine_line("info depth 3 seldepth 3 score cp 0 nodes 9 pv e8e7", ms(20));
    assert_eq!(state(&s)["thinking"]["info"]["depth"], 3);
    // Lines it does not act on change nothing.
    let before = state(&s);
    for quiet in ["readyok", "info string hello", "id name x"] {
        s.engine_line(quiet, ms(21));
    }
    assert_eq!(state(&s), before);
    let turn = engine_turn(&s);
    s.engine_line(&format!("bestturn {}", turn.join(" ")), ms(30));
    s.engine_line(&format!("bestmove {}", turn[0]), ms(30));
    let st = state(&s);
    assert_eq!(st["step_count"], 2);
    assert_eq!(st["last_step"], turn[0].as_str());
    assert_eq!(st["thinking"], Value::Null);
}

#[test]
fn the_engines_turn_is_read_and_shown_at_the_pace() {
    let mut s = person_vs_engine(Pace::Normal);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(0)).unwrap();
    sent(&mut s);
    s.engine_event(info(3), ms(20));
    let st = state(&s);
    assert_eq!(st["thinking"]["info"]["depth"], 3);
    assert_eq!(st["thinking"]["winprob"], json!({"r": 0.4, "g": 0.6}));
    // A report with none of the page's fields leaves the last one.
    s.engine_event(EngineEvent::Info(InfoView::default(), None), ms(25));
    assert_eq!(state(&s)["thinking"]["info"]["depth"], 3);
    let turn = engine_turn(&s);
    s.engine_event(EngineEvent::Answer(Ok(turn.clone())), ms(60));
    // The first step at once (a person's step came before), the second
    // after the pause.
    let st = state(&s);
    assert_eq!(st["step_count"], 2);
    assert_eq!(st["last_step"], turn[0].as_str());
    assert_eq!(st["thinking"], Value::Null);
    assert_eq!(
        st["evals"],
        json!([{"step": 1, "seat": "g", "score": "cp 14", "winprob": {"r": 0.4, "g": 0.6}}])
    );
    assert_eq!(s.wake_at(), Some(ms(60) + PAUSE));
    s.wake(ms(100));
    assert_eq!(state(&s)["step_count"], 2, "woken before the pause ended");
    s.wake(ms(60) + PAUSE);
    let st = state(&s);
    assert_eq!(st["step_count"], 3);
    assert_eq!(st["side"], "r");
    assert_eq!(s.wake_at(), None);
    assert!(sent(&mut s).is_empty(), "the person's turn asks nothing");
}

#[test]
fn the_engines_info_makes_a_version_at_most_every_info_every() {
    let mut s = person_vs_engine(Pace::Normal);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(0)).unwrap();
    sent(&mut s);
    let v = s.version();
    // The first report is shown at once.
    s.engine_event(info(1), ms(10));
    assert_eq!(s.version(), v + 1);
    // The next ones within INFO_EVERY are kept, not shown: no version
    // wakes the pages, but a read sees the newest.
    s.engine_event(info(2), ms(20));
    s.engine_event(info(3), ms(30));
    assert_eq!(s.version(), v + 1);
    assert_eq!(state(&s)["thinking"]["info"]["depth"], 3);
    let due = ms(10) + INFO_EVERY;
    assert_eq!(s.wake_at(), Some(due));
    s.wake(due - ms(1));
    assert_eq!(s.version(), v + 1, "woken early");
    s.wake(due);
    assert_eq!(s.version(), v + 2);
    assert_eq!(s.wake_at(), Some(ms(50) + HUNG_AFTER), "nothing held back");
    // A report held back is shown by the next version of any kind.
    s.engine_event(info(4), due + ms(5));
    assert!(s.wake_at() < Some(ms(50) + HUNG_AFTER));
    let turn = engine_turn(&s);
    s.engine_event(EngineEvent::Answer(Ok(turn)), due + ms(10));
    assert!(s.version() > v + 2);
    assert_ne!(s.wake_at(), Some(due + INFO_EVERY), "the answer showed it");
}

#[test]
fn step_by_step_waits_for_next() {
    let mut s = person_vs_engine(Pace::Step);
    assert_eq!(s.next(ms(0)), Err(Refusal::NothingWaiting));
    let step = legal(&s)[0].clone();
    s.step(&step, ms(0)).unwrap();
    let turn = engine_turn(&s);
    s.engine_event(EngineEvent::Answer(Ok(turn)), ms(50));
    assert_eq!(state(&s)["waiting"], true);
    assert_eq!(state(&s)["step_count"], 1);
    assert_eq!(s.wake_at(), None, "no timer: the page says when");
    s.next(ms(5000)).unwrap();
    assert_eq!(state(&s)["step_count"], 2);
    assert_eq!(state(&s)["waiting"], true);
    // A change of pace ends the wait at once.
    s.set_pace(Pace::None, ms(5001));
    let st = state(&s);
    assert_eq!(st["step_count"], 3);
    assert_eq!(st["waiting"], false);
    assert_eq!(st["pace"], "none");
}

#[test]
fn a_take_back_during_a_search_drops_its_late_answer() {
    let mut s = person_vs_engine(Pace::None);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(0)).unwrap();
    let turn = engine_turn(&s);
    sent(&mut s);
    s.take_back(ms(20)).unwrap();
    assert_eq!(sent(&mut s), vec!["stop".to_string()]);
    let st = state(&s);
    assert_eq!(st["step_count"], 0);
    assert_eq!(st["side"], "r");
    assert_eq!(st["thinking"], Value::Null);
    assert_eq!(st["unanswered"], 1, "the stopped search owes its answer");
    // The person may play while the stopped search winds down.
    let other = legal(&s)[1].clone();
    s.step(&other, ms(30)).unwrap();
    assert!(sent(&mut s).is_empty(), "no search before the old one ends");
    // The stopped search's report and answer: dropped, never played.
    s.engine_event(info(5), ms(40));
    assert_eq!(state(&s)["thinking"]["info"], Value::Null);
    s.engine_event(EngineEvent::Answer(Ok(turn)), ms(50));
    let st = state(&s);
    assert_eq!(st["step_count"], 1);
    assert_eq!(st["last_step"], other.as_str());
    assert_eq!(st["evals"], json!([]));
    // Now the engine is asked about the game as it is.
    let lines = sent(&mut s);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].ends_with(&format!("moves {other}")), "{lines:?}");
    assert_eq!(lines[1], "go movetime 50");
}

#[test]
fn the_page_sees_a_dropped_answer_come() {
    // After a take-back to the person's turn, the stopped search's answer
    // is owed until it comes; then the state changes (the browser test of
    // take-back waits for it rather than a fixed time).
    let mut s = person_vs_engine(Pace::None);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(0)).unwrap();
    let turn = engine_turn(&s);
    s.take_back(ms(20)).unwrap();
    let st = state(&s);
    assert_eq!(st["unanswered"], 1);
    s.engine_event(EngineEvent::Answer(Ok(turn)), ms(30));
    let after = state(&s);
    assert_eq!(after["unanswered"], 0);
    assert_ne!(after["version"], st["version"]);
    assert_eq!(after["step_count"], 0);
    assert_eq!(after["side"], "r");
}

#[test]
fn a_take_back_to_the_persons_turn_is_never_played_by_the_engine() {
    // Engine against engine, then a person: a take-back during the
    // engine's search leaves the person's turn to the person.
    let mut s = person_vs_engine(Pace::None);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(0)).unwrap();
    let turn = engine_turn(&s);
    s.engine_event(EngineEvent::Answer(Ok(turn)), ms(10));
    assert_eq!(state(&s)["side"], "r");
    let red = legal(&s)[0].clone();
    s.step(&red, ms(20)).unwrap();
    sent(&mut s);
    s.take_back(ms(30)).unwrap();
    let st = state(&s);
    assert_eq!(st["side"], "r");
    assert_eq!(st["step_count"], 3);
    // The answer of the stopped search, for green, comes too late.
    let mut game = s.game().clone();
    game.play_text(&red).unwrap();
    let green = game.position().legal_step_vec()[0].to_string();
    s.engine_event(EngineEvent::Answer(Ok(vec![green])), ms(40));
    assert_eq!(state(&s)["step_count"], 3);
    assert_eq!(state(&s)["side"], "r");
    assert!(sent(&mut s).iter().all(|l| !l.starts_with("go")));
}

#[test]
fn refusals_change_nothing() {
    let mut s = person_vs_engine(Pace::Normal);
    let before = state(&s);
    for bad in ["", "e2e4", "zz", "\u{0}", &"x".repeat(10_000)] {
        assert!(
            matches!(s.step(bad, ms(1)), Err(Refusal::IllegalStep(_))),
            "{bad:?}"
        );
    }
    assert_eq!(s.take_back(ms(1)), Err(Refusal::NothingToTakeBack));
    assert_eq!(s.next(ms(1)), Err(Refusal::NothingWaiting));
    // Engine lines when nothing was asked are not read.
    s.engine_event(info(4), ms(1));
    s.engine_event(EngineEvent::Answer(Ok(vec!["junk".into()])), ms(1));
    s.engine_event(EngineEvent::Refused("x".into()), ms(1));
    s.wake(ms(1_000_000));
    assert_eq!(state(&s), before);
    assert!(commands(&mut s).is_empty());
}

#[test]
fn engine_garbage_is_an_error_not_a_panic() {
    let mut s = person_vs_engine(Pace::None);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(0)).unwrap();
    sent(&mut s);
    s.engine_event(EngineEvent::Answer(Ok(vec!["a1a1".into()])), ms(10));
    let st = state(&s);
    assert!(
        st["error"].as_str().unwrap().contains("illegal step"),
        "{st}"
    );
    assert_eq!(st["step_count"], 1);
    // A person's step is refused until the engine is restarted.
    let before = state(&s);
    assert!(matches!(
        s.step("x", ms(20)),
        Err(Refusal::NotPersonsTurn | Refusal::EngineDown(_))
    ));
    assert_eq!(state(&s), before);
    s.restart(ms(30));
    assert_eq!(commands(&mut s)[0], Command::Spawn);
    assert_eq!(state(&s)["error"], Value::Null);
}

#[test]
fn a_hung_or_crashed_engine_is_reported_and_restarted() {
    let mut s = person_vs_engine(Pace::None);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(0)).unwrap();
    sent(&mut s);
    let due = s.wake_at().unwrap();
    s.wake(due + ms(1));
    let st = state(&s);
    assert_eq!(st["error"], "engine crashed: no bestmove within 10050 ms");
    assert_eq!(st["engine_running"], false);
    assert_eq!(st["thinking"], Value::Null);
    assert_eq!(commands(&mut s), vec![Command::Quit]);
    s.restart(due + ms(2));
    let c = ready(&mut s, due + ms(2));
    assert!(c.last().unwrap().starts_with("go movetime"), "{c:?}");
    s.engine_gone("the engine exited", due + ms(3));
    assert_eq!(state(&s)["error"], "engine crashed: the engine exited");
}

#[test]
fn a_finished_game_quits_its_engine_and_a_take_back_starts_one() {
    // Two people play pseudo-random legal steps to the end.
    let game = Game::new(Position::start(2).unwrap());
    let mut s = Session::new(
        1,
        game,
        vec![seat('r', false), seat('g', false)],
        Levels::default(),
        PAUSE,
        Pace::None,
        ms(0),
    );
    commands(&mut s);
    let (mut n, mut seed) = (0, 12345u64);
    while !s.game().position().is_game_over() && n < 5000 {
        let legal = s.game().position().legal_step_vec();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let step = legal[(seed >> 33) as usize % legal.len()].to_string();
        s.step(&step, ms(n)).unwrap();
        n += 1;
    }
    assert!(s.game().position().is_game_over(), "no end in {n} steps");
    assert_eq!(commands(&mut s), vec![Command::Quit]);
    assert_eq!(state(&s)["engine_running"], false);
    assert_eq!(s.step("x", ms(n)), Err(Refusal::GameOver));
    s.take_back(ms(n)).unwrap();
    assert_eq!(
        commands(&mut s),
        vec![Command::Spawn, Command::Send(EngineCommand::Ugi)]
    );
    assert_eq!(state(&s)["engine_running"], true);
}

#[test]
fn records_name_the_seats() {
    let mut s = person_vs_engine(Pace::None);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(0)).unwrap();
    let r = s.record();
    assert!(r.contains("person"), "{r}");
    assert!(r.contains("alphabeta"), "{r}");
}

#[test]
fn the_positions_and_the_preview_come_with_their_boards() {
    let mut game = Game::new(Position::start(2).unwrap());
    game.play_text("e2e3").unwrap();
    let p = serde_json::to_value(view::Positions::of(&game)).unwrap();
    assert_eq!(p["spns"].as_array().unwrap().len(), 2);
    for (spn, board) in p["spns"]
        .as_array()
        .unwrap()
        .iter()
        .zip(p["boards"].as_array().unwrap())
    {
        assert_eq!(&board["spn"], spn);
    }
    assert_eq!(p["boards"][1]["pieces"]["e3"], "rD");
    assert_eq!(p["boards"][1]["side"], "g");

    let two = serde_json::to_value(new_game::preview(Some("2"), None).unwrap()).unwrap();
    assert_eq!(two["spn"], "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -");
    assert_eq!(two["seats"], json!(["r", "g"]));
    assert_eq!(two["side"], "r");
    assert_eq!(two["board"]["spn"], two["spn"]);
    assert_eq!(two["board"]["seats"], two["seats"]);
    let spn = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";
    let p = new_game::preview(None, Some(spn)).unwrap();
    assert_eq!(p.board.spn, spn);
    for (players, spn, why) in [
        (Some("9"), None, "players: expected 2, 3 or 4"),
        (Some("two"), None, "players: expected 2, 3 or 4"),
        (None, Some("junk"), "bad SPN"),
        (None, None, "give either players or spn"),
        (Some("2"), Some("junk"), "give either players or spn"),
    ] {
        let e = new_game::preview(players, spn).map(|_| ()).unwrap_err();
        assert!(e.to_string().starts_with(why), "{players:?} {spn:?}: {e}");
    }
    // The form's player counts' seats, without a preview.
    let c = config::Config::new(
        ("an engine".into(), None),
        vec![],
        Levels::default(),
        (10..=100, 50),
        PAUSE,
        1,
    );
    assert_eq!(
        serde_json::to_value(c).unwrap()["seats_by_players"],
        json!({"2": ["r", "g"], "3": ["r", "y", "g"], "4": ["r", "y", "g", "b"]})
    );
    let long = "R".repeat(new_game::MAX_SPN + 1);
    assert!(matches!(
        new_game::preview(None, Some(&long)),
        Err(Refusal::BadInput(_))
    ));
}

/// The `Seed` sent to an engine that has one, at a level, in the game `id`
/// begun at `now`.
fn seed_sent(id: u64, now: Duration) -> String {
    let ugi: Vec<String> = [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1910 min 930 max 1910",
        "option name Seed type spin default 0 min 0 max 4294967295",
    ]
    .iter()
    .map(|l| l.to_string())
    .collect();
    let engine = SeatConfig {
        level: Some(Level::Elo(1090)),
        ..seat('r', true)
    };
    let game = Game::new(Position::start(2).unwrap());
    let mut s = Session::new(
        id,
        game,
        vec![engine, seat('g', false)],
        Levels::from_ugi(&ugi),
        PAUSE,
        Pace::None,
        now,
    );
    let c = ready(&mut s, now);
    assert!(
        c.contains(&"setoption name UCI_Elo value 1090".to_string()),
        "{c:?}"
    );
    assert!(c.last().unwrap().starts_with("go movetime"), "{c:?}");
    c.into_iter()
        .find_map(|l| {
            l.strip_prefix("setoption name Seed value ")
                .map(str::to_string)
        })
        .expect("a seed sent")
}

#[test]
fn each_game_sends_the_engine_a_seed_of_its_own() {
    // The levels draw their choices from the seed and the position: the
    // same seed every game would answer the same steps the same way.
    let first = seed_sent(1, ms(0));
    assert_eq!(first, seed_sent(1, ms(0)));
    assert_ne!(first, seed_sent(2, ms(0)));
    assert_ne!(first, seed_sent(1, ms(5000)));
}

#[test]
fn a_person_names_their_seat_and_the_page_sees_it() {
    let game = Game::new(Position::start(2).unwrap());
    let mut s = Session::new(
        3,
        game,
        vec![seat('r', false), seat('g', true)],
        Levels::default(),
        Duration::ZERO,
        Pace::None,
        Duration::ZERO,
    );
    let v = s.version();
    // Markup is a name like any other: the page shows it as text.
    s.set_name(Seat::Red, "  <b>Ann</b> ").unwrap();
    assert_eq!(s.seats()[0].name.as_deref(), Some("<b>Ann</b>"));
    assert!(s.version() > v);
    let v = s.version();
    s.set_name(Seat::Red, "<b>Ann</b>").unwrap();
    assert_eq!(s.version(), v, "the same name is no change");
    for bad in ["", "   ", "a\u{7}b", &"x".repeat(MAX_NAME + 1)] {
        assert!(
            matches!(s.set_name(Seat::Red, bad), Err(Refusal::BadInput(_))),
            "{bad:?}"
        );
    }
    assert!(
        s.set_name(Seat::Green, "Bot").is_err(),
        "the engine's seat has no person"
    );
    assert!(s.set_name(Seat::Blue, "Bob").is_err(), "no such seat");
    assert_eq!(
        seat_name(&"é".repeat(MAX_NAME)).unwrap().chars().count(),
        MAX_NAME
    );
}

#[test]
fn the_engine_stands_in_for_an_away_person_and_gives_the_seat_back() {
    // Two people; green goes away after red's first step.
    let game = Game::new(Position::start(2).unwrap());
    let mut s = Session::new(
        9,
        game,
        vec![seat('r', false), seat('g', false)],
        Levels::default(),
        Duration::ZERO,
        Pace::None,
        ms(0),
    );
    ready(&mut s, ms(0));
    let step = legal(&s)[0].clone();
    s.step(&step, ms(1)).unwrap();
    assert!(sent(&mut s).is_empty(), "no engine seat: no search");
    s.stand_in(Seat::Green, (true, false), ms(2)).unwrap();
    assert!(sent(&mut s).iter().any(|l| l.starts_with("go movetime")));
    assert_eq!(state(&s)["seats"][1]["stand_in"], true);
    // Green's person may not play while the engine stands in.
    let next = legal(&s)[0].clone();
    assert_eq!(s.step(&next, ms(3)), Err(Refusal::NotPersonsTurn));
    // The engine's turn (its 2 steps) is played and marked as its.
    let turn = engine_turn(&s);
    s.engine_event(EngineEvent::Answer(Ok(turn)), ms(10));
    assert_eq!(state(&s)["step_count"], 3);
    assert_eq!(s.seats()[1].stood_in, vec![2]);
    let record = s.record();
    assert!(record.contains("g=person-unrated(engine:2)"), "{record}");
    // Red plays; green is away again at its turn, then comes back while
    // the engine thinks: the search is dropped and the person plays.
    for _ in 0..3 {
        let step = legal(&s)[0].clone();
        s.step(&step, ms(20)).unwrap();
    }
    assert!(sent(&mut s).iter().any(|l| l.starts_with("go movetime")));
    s.stand_in(Seat::Green, (false, false), ms(30)).unwrap();
    assert_eq!(sent(&mut s), vec!["stop".to_string()]);
    let late = engine_turn(&s);
    s.engine_event(EngineEvent::Answer(Ok(late)), ms(31));
    assert_eq!(
        state(&s)["step_count"],
        6,
        "the dropped answer plays nothing"
    );
    let mine = legal(&s)[0].clone();
    s.step(&mine, ms(32)).unwrap();
    // Left for good: the engine plays on, and the seat is not given back.
    s.stand_in(Seat::Green, (true, true), ms(40)).unwrap();
    assert_eq!(state(&s)["seats"][1]["left"], true);
    assert!(matches!(
        s.stand_in(Seat::Green, (false, false), ms(41)),
        Err(Refusal::Forbidden(_))
    ));
    assert!(s.stand_in(Seat::Blue, (true, false), ms(42)).is_err());
}

#[test]
fn a_lobby_seat_is_taken_once_and_only_while_open() {
    let game = Game::new(Position::start(3).unwrap());
    let invited = |letter| SeatConfig {
        invited: true,
        ..seat(letter, false)
    };
    let mut s = Session::new(
        2,
        game,
        vec![seat('r', false), invited('y'), invited('g')],
        Levels::default(),
        PAUSE,
        Pace::None,
        ms(0),
    );
    ready(&mut s, ms(0));
    assert!(s.seats()[1].open() && !s.seats()[0].open());
    let v = s.version();
    // Bad names, and seats that are no friend's, change nothing.
    assert!(matches!(
        s.sit(Seat::Yellow, " "),
        Err(Refusal::BadInput(_))
    ));
    assert!(matches!(s.sit(Seat::Red, "Ann"), Err(Refusal::NotFound(_))));
    assert!(matches!(
        s.sit(Seat::Blue, "Ann"),
        Err(Refusal::NotFound(_))
    ));
    assert_eq!(s.version(), v);
    s.sit(Seat::Yellow, "  Yan ").unwrap();
    assert_eq!(s.seats()[1].name.as_deref(), Some("Yan"));
    assert!(!s.seats()[1].open());
    // Taken: the second one is refused, the name stays the first's.
    assert!(matches!(s.sit(Seat::Yellow, "Eve"), Err(Refusal::Taken(_))));
    assert_eq!(s.seats()[1].name.as_deref(), Some("Yan"));
    // A seat whose friend left is not open either.
    s.stand_in(Seat::Green, (true, true), ms(1)).unwrap();
    assert!(matches!(s.sit(Seat::Green, "Gil"), Err(Refusal::Taken(_))));
}

/// A 2-player game, red a person on a clock of `base` ms and `increment`
/// ms a turn, green the engine, with no pause between the engine's steps.
fn clocked(base: u64, increment: u64) -> Session {
    let clock = SeatClock {
        base,
        increment,
        left: base,
        out: false,
        turns: Vec::new(),
    };
    let red = SeatConfig {
        clock: Some(clock),
        ..seat('r', false)
    };
    let game = Game::new(Position::start(2).unwrap());
    let mut s = Session::new(
        11,
        game,
        vec![red, seat('g', true)],
        Levels::default(),
        Duration::ZERO,
        Pace::None,
        ms(1000),
    );
    ready(&mut s, ms(1000));
    s
}

/// The engine answers its search with the rest of the turn under way.
fn engine_answers(s: &mut Session, now: Duration) {
    let mut game = s.game().clone();
    let (side, turn) = (game.position().side_to_move(), game.position().turn());
    let mut steps = Vec::new();
    while !game.position().is_game_over()
        && game.position().side_to_move() == side
        && game.position().turn() == turn
    {
        let step = game.position().legal_step_vec()[0].to_string();
        game.play_text(&step).unwrap();
        steps.push(step);
    }
    s.engine_event(EngineEvent::Answer(Ok(steps)), now);
}

fn clock_left(s: &Session, seat: &str) -> u64 {
    state(s)["clock"]["left"][seat].as_u64().unwrap()
}

#[test]
fn a_persons_clock_runs_at_their_turn_only_and_gains_its_increment() {
    let mut s = clocked(60_000, 2_000);
    let st = state(&s);
    assert_eq!(
        st["clock"],
        json!({"base": 60000, "increment": 2000, "left": {"r": 60000}, "running": "r"})
    );
    assert_eq!(st["seats"][1]["clock"], Value::Null, "the engine has none");
    // Red's clock runs out 60 s after its turn began, unless it moves.
    assert_eq!(s.wake_at(), Some(ms(61_000)));
    s.observe(ms(3_500));
    assert_eq!(clock_left(&s, "r"), 57_500);
    // Red's one step ends its first turn at 5 s (it began at 1 s): 56 s
    // left, + 2 s.
    let step = legal(&s)[0].clone();
    s.step(&step, ms(5_000)).unwrap();
    let st = state(&s);
    assert_eq!(st["clock"]["left"]["r"], 58_000);
    assert_eq!(st["clock"]["running"], Value::Null, "the engine's turn");
    assert_eq!(st["seats"][0]["clock"]["turns"], json!([[1, 60000]]));
    // The engine thinks 30 s: red's clock does not move.
    sent(&mut s);
    engine_answers(&mut s, ms(35_000));
    assert_eq!(state(&s)["side"], "r");
    assert_eq!(clock_left(&s, "r"), 58_000);
    assert_eq!(s.wake_at(), Some(ms(35_000 + 58_000)));
    // Red's second turn: 3 steps over 10 s.
    for t in [36_000, 40_000, 45_000] {
        let step = legal(&s)[0].clone();
        s.step(&step, ms(t)).unwrap();
    }
    assert_eq!(clock_left(&s, "r"), 58_000 - 10_000 + 2_000);
}

#[test]
fn a_clock_that_runs_out_has_the_engine_finish_the_turn() {
    let mut s = clocked(10_000, 0);
    // Red's first turn, then the engine's.
    let step = legal(&s)[0].clone();
    s.step(&step, ms(2_000)).unwrap();
    sent(&mut s);
    engine_answers(&mut s, ms(3_000));
    assert_eq!(clock_left(&s, "r"), 9_000);
    // Red plays one step of three, then lets the clock run out.
    let step = legal(&s)[0].clone();
    s.step(&step, ms(4_000)).unwrap();
    assert_eq!(s.wake_at(), Some(ms(12_000)));
    s.wake(ms(11_999));
    assert!(sent(&mut s).is_empty(), "not yet out");
    s.wake(ms(12_000));
    let st = state(&s);
    assert_eq!(st["seats"][0]["clock"]["out"], true);
    assert_eq!(st["clock"]["left"]["r"], 0);
    assert_eq!(st["clock"]["running"], Value::Null);
    assert_eq!(st["thinking"]["seat"], "r");
    let lines = sent(&mut s);
    assert!(
        lines.iter().any(|l| l.starts_with("go movetime")),
        "{lines:?}"
    );
    // The person may not step now; a give-back of an away stand-in does
    // not drop the search (the clock's reason stays).
    let next = legal(&s)[0].clone();
    assert_eq!(s.step(&next, ms(12_100)), Err(Refusal::NotPersonsTurn));
    s.stand_in(Seat::Red, (true, false), ms(12_200)).unwrap();
    s.stand_in(Seat::Red, (false, false), ms(12_300)).unwrap();
    assert!(sent(&mut s).is_empty(), "no stop: the search goes on");
    assert_eq!(state(&s)["thinking"]["seat"], "r");
    // The engine plays the rest of red's turn (turn 3), recorded as its.
    engine_answers(&mut s, ms(12_500));
    assert_eq!(state(&s)["side"], "g");
    assert_eq!(s.seats()[0].stood_in, vec![3]);
    assert!(!s.seats()[0].out_of_time());
    assert!(s.record().contains("r=person-unrated(engine:3)"));
    assert!(
        s.record().contains("person=clock=10000+0"),
        "{}",
        s.record()
    );
    // No increment: at red's next turn the engine plays at once.
    sent(&mut s);
    engine_answers(&mut s, ms(13_000));
    assert_eq!(state(&s)["side"], "r");
    assert_eq!(state(&s)["thinking"]["seat"], "r");
    assert!(sent(&mut s).iter().any(|l| l.starts_with("go movetime")));
}

#[test]
fn after_running_out_the_seat_comes_back_with_its_increment() {
    let mut s = clocked(10_000, 5_000);
    s.wake(ms(11_000));
    assert!(s.seats()[0].out_of_time(), "out in its first turn");
    sent(&mut s);
    engine_answers(&mut s, ms(11_500));
    // Red's turn played by the engine; then green's.
    assert_eq!(s.seats()[0].stood_in, vec![1]);
    assert_eq!(clock_left(&s, "r"), 5_000);
    sent(&mut s);
    engine_answers(&mut s, ms(12_000));
    // Red's own again, with the increment alone.
    let st = state(&s);
    assert_eq!(st["side"], "r");
    assert_eq!(st["thinking"], Value::Null);
    assert_eq!(st["clock"]["running"], "r");
    assert_eq!(s.wake_at(), Some(ms(17_000)));
    let step = legal(&s)[0].clone();
    s.step(&step, ms(13_000)).unwrap();
}

#[test]
fn a_take_back_gives_the_clocks_back_as_they_were() {
    let mut s = clocked(60_000, 1_000);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(11_000)).unwrap();
    assert_eq!(clock_left(&s, "r"), 51_000);
    sent(&mut s);
    engine_answers(&mut s, ms(12_000));
    let step = legal(&s)[0].clone();
    s.step(&step, ms(20_000)).unwrap();
    // Red's part-turn taken back: its clock as at its turn's start, and
    // running anew from the take-back.
    s.take_back(ms(30_000)).unwrap();
    assert_eq!(state(&s)["step_count"], 3);
    assert_eq!(clock_left(&s, "r"), 51_000);
    assert_eq!(s.wake_at(), Some(ms(30_000 + 51_000)));
    // Then the engine's turn and red's first: back to the game's start.
    s.take_back(ms(31_000)).unwrap();
    let st = state(&s);
    assert_eq!(st["step_count"], 0);
    assert_eq!(st["clock"]["left"]["r"], 60_000);
    assert_eq!(st["seats"][0]["clock"]["turns"], json!([]));
    // A turn the engine finished for a clock run out: taken back, it is
    // the person's again, with the time they had at its start.
    s.wake(ms(31_000 + 60_000));
    assert!(s.seats()[0].out_of_time());
    s.take_back(ms(91_500)).unwrap_err();
    sent(&mut s);
    engine_answers(&mut s, ms(92_000));
    assert_eq!(s.seats()[0].stood_in, vec![1]);
    s.take_back(ms(93_000)).unwrap();
    let st = state(&s);
    assert_eq!(st["step_count"], 0);
    assert_eq!(st["seats"][0]["stood_in"], json!([]));
    assert_eq!(st["seats"][0]["clock"]["out"], false);
    assert_eq!(st["clock"]["left"]["r"], 60_000);
    assert_eq!(st["clock"]["running"], "r");
}

#[test]
fn the_clock_stops_while_the_engine_stands_in_or_is_down() {
    let mut s = clocked(60_000, 0);
    s.stand_in(Seat::Red, (true, false), ms(5_000)).unwrap();
    assert_eq!(state(&s)["clock"]["running"], Value::Null);
    s.observe(ms(50_000));
    assert_eq!(clock_left(&s, "r"), 56_000);
    // Back before the engine answered: the search dropped, the clock on.
    s.stand_in(Seat::Red, (false, false), ms(50_000)).unwrap();
    assert_eq!(state(&s)["clock"]["running"], "r");
    s.engine_gone("test", ms(51_000));
    assert_eq!(state(&s)["clock"]["running"], Value::Null);
    s.observe(ms(100_000));
    assert_eq!(clock_left(&s, "r"), 55_000);
    assert_eq!(s.wake_at().filter(|t| *t > ms(100_000)), None);
    sent(&mut s);
    s.restart(ms(100_000));
    // The handshake's timer, then the clock's once the engine is ready.
    assert_eq!(s.wake_at(), Some(ms(100_000) + HUNG_AFTER));
    ready(&mut s, ms(100_000));
    assert_eq!(s.wake_at(), Some(ms(155_000)));
}

#[test]
fn bad_clocks_are_refused() {
    let levels = Levels::default();
    let check = |clock: Value| {
        let body = json!({"players": 2, "clock": clock,
            "seats": [{"engine": false}, {"engine": true}]});
        requests::new_game(&body.to_string())
            .and_then(|mut r| r.check(&[], &levels, requests::MOVETIME))
    };
    for bad in [
        json!({"base": 9}),
        json!({"base": 36_001}),
        json!({"base": 60, "increment": 601}),
    ] {
        assert!(
            matches!(check(bad.clone()), Err(Refusal::BadInput(ref m)) if m.starts_with("clock:")),
            "{bad}"
        );
    }
    for bad in [
        json!({"base": 60, "fischer": true}),
        json!({"base": -1}),
        json!(5),
    ] {
        assert!(
            matches!(check(bad.clone()), Err(Refusal::BadRequest(_))),
            "{bad}"
        );
    }
    let (_, seats) = check(json!({"base": 300, "increment": 3})).unwrap();
    let clock = seats[0].clock.as_ref().unwrap();
    assert_eq!(
        (clock.base, clock.increment, clock.left),
        (300_000, 3_000, 300_000)
    );
    assert_eq!(
        seats[1].clock, None,
        "the engine's seat keeps its time a turn"
    );
    let (_, seats) = check(Value::Null).unwrap();
    assert_eq!(seats[0].clock, None);
}

#[test]
fn a_kept_clock_is_taken_up_and_a_bad_one_refused() {
    let levels = Levels::default();
    // Red's first turn (e2e3) played: green's, turn 2.
    let check = |red: Value, green: Value| {
        let body = json!({"players": 2, "moves": "e2e3",
            "seats": [{"engine": false, "clock": red}, green]});
        requests::new_game(&body.to_string())
            .and_then(|mut r| r.check(&[], &levels, requests::MOVETIME))
    };
    let kept = json!({"base": 12_000, "increment": 2_000, "left": 9_500,
        "out": false, "turns": [[1, 12_000]]});
    let (_, seats) = check(kept.clone(), json!({"engine": true})).unwrap();
    let clock = seats[0].clock.as_ref().unwrap();
    assert_eq!(
        (clock.left, clock.turns.clone()),
        (9_500, vec![(1, 12_000)])
    );
    // Over the new game's own clock, and the state shows it.
    let (game, seats) = check(kept.clone(), json!({"engine": true})).unwrap();
    let s = Session::new(1, game, seats, Levels::default(), PAUSE, Pace::None, ms(0));
    assert_eq!(state(&s)["clock"]["left"]["r"], 9_500);
    let refused = |red: Value, green: Value| matches!(check(red, green), Err(Refusal::BadInput(m)) if m.starts_with("seats:"));
    assert!(refused(
        kept.clone(),
        json!({"engine": true, "clock": kept})
    ));
    for bad in [
        json!({"base": 9_000, "increment": 0, "left": 9_000}),
        json!({"base": 12_000, "increment": 601_000, "left": 9_000}),
        json!({"base": 12_000, "increment": 2_000, "left": 16_001}),
        json!({"base": 12_000, "increment": 0, "left": 9_000, "turns": [[2, 12_000]]}),
        json!({"base": 12_000, "increment": 0, "left": 9_000, "turns": [[1, 12_000], [1, 12_000]]}),
        json!({"base": 12_000, "increment": 0, "left": 9_000, "turns": [[1, 13_000]]}),
    ] {
        assert!(refused(bad.clone(), json!({"engine": true})), "{bad}");
    }
}

/// A 2-player game from `start` with these seats at full speed, whose
/// engine plays `turns` (each a turn's steps) as it is asked; the steps
/// played.
fn engine_plays_turns(start: Position, seats: Vec<SeatConfig>, turns: &[&str]) -> Session {
    let mut s = Session::new(
        9,
        Game::new(start),
        seats,
        Levels::default(),
        PAUSE,
        Pace::None,
        ms(0),
    );
    ready(&mut s, ms(0));
    for (i, turn) in turns.iter().enumerate() {
        commands(&mut s);
        if s.over() {
            break;
        }
        let steps: Vec<String> = turn.split(' ').map(String::from).collect();
        if s.searching() {
            s.engine_event(EngineEvent::Answer(Ok(steps)), ms(10 * i as u64));
        } else {
            for step in steps {
                s.step(&step, ms(10 * i as u64)).unwrap();
            }
        }
    }
    s
}

/// The dwarfs shuffle on the e-file: after the first two turns, a cycle
/// of four turns of three steps comes back to where it started.
const SHUFFLE: [&str; 10] = [
    "e2e3",
    "e8e7 e7e8",
    "e3e2 e2e3 e3e2",
    "e8e7 e7e8 e8e7",
    "e2e3 e3e2 e2e3",
    "e7e8 e8e7 e7e8",
    "e3e2 e2e3 e3e2",
    "e8e7 e7e8 e8e7",
    "e2e3 e3e2 e2e3",
    "e7e8 e8e7 e7e8",
];

#[test]
fn engines_left_alone_draw_by_repetition() {
    let start = Position::start(2).unwrap();
    let s = engine_plays_turns(start, vec![seat('r', true), seat('g', true)], &SHUFFLE);
    // The position after step 13 comes a third time at step 25, within
    // red's turn: the game ends there, the rest of the turn unplayed.
    assert_eq!(s.game().steps().len(), 25);
    assert!(s.over());
    assert_eq!(s.drawn(), Some(&Reason::Repetition(3)));
    let st = state(&s);
    assert_eq!(st["gameover"], true);
    assert_eq!(st["drawn"], "repetition 3");
    assert_eq!(st["places"], json!({"r": 1, "g": 1}));
    assert_eq!(st["engine_running"], false);
    assert_eq!(s.places_text(), "r = g");
    // Its record says so, and `splut replay` accepts it.
    let record = s.record();
    assert!(record.contains("repetition 3"), "{record}");
    let games = splut_play::record::parse_records(&record).unwrap();
    assert_eq!(splut_play::record::validate(&games[0]), Ok(()));

    // A person still playing is never drawn: the rules have none.
    let person = vec![seat('r', false), seat('g', true)];
    let s = engine_plays_turns(start, person, &SHUFFLE);
    assert_eq!((s.game().steps().len(), s.over()), (27, false));
    assert_eq!(state(&s)["drawn"], Value::Null);
    // One who left for good is out of it: the engine plays on and draws.
    let mut left = vec![seat('r', false), seat('g', true)];
    left[0].stand_in = true;
    left[0].left = true;
    let s = engine_plays_turns(start, left, &SHUFFLE);
    assert_eq!(s.drawn(), Some(&Reason::Repetition(3)));
}

#[test]
fn engines_left_alone_draw_past_turn_200() {
    // The start at turn 200 (the SPN's fourth field), three steps a turn.
    let spn = Position::start(2).unwrap().to_spn();
    let mut fields: Vec<&str> = spn.split(' ').collect();
    fields[2] = "3";
    fields[3] = "200";
    let start = Position::from_spn(&fields.join(" ")).unwrap();
    assert_eq!(start.turn(), 200);
    let turns = ["e2e3 e3e2 e2e3", "e8e7 e7e8 e8e7", "e3e2 e2e3 e3e2"];
    let s = engine_plays_turns(start, vec![seat('r', true), seat('g', true)], &turns);
    // Turn 200 (red's) is played out; turn 201 is not begun.
    assert_eq!(s.game().steps().len(), 3);
    assert_eq!(s.game().position().turn(), 201);
    assert_eq!(s.drawn(), Some(&Reason::TurnLimit(200)));
    let games = splut_play::record::parse_records(&s.record()).unwrap();
    assert_eq!(splut_play::record::validate(&games[0]), Ok(()));
}

#[test]
fn the_host_ends_the_game_with_the_places_so_far_once_every_person_is_out() {
    // Red's engine throws onto yellow, the person; then green's turn.
    let start =
        Position::from_spn("R/gTgDgS/5/3yS3/RyD6R/yT2R3/rD1rT2/rS2/1 r 3 10 - - -").unwrap();
    let seats = vec![seat('r', true), seat('y', false), seat('g', true)];
    let mut s = engine_plays_turns(start, seats.clone(), &[]);
    let refused = s.end_here(ms(5));
    assert!(matches!(refused, Err(Refusal::Forbidden(_))), "{refused:?}");
    assert!(!s.over());

    let mut s = engine_plays_turns(start, seats, &["e3e4*n"]);
    assert_eq!(s.game().steps().len(), 1);
    assert!(s.searching(), "the engine thinks for green");
    commands(&mut s);
    s.end_here(ms(100)).unwrap();
    // The search is stopped, the engine quits, the seats still in share
    // the first place and yellow keeps its third.
    assert_eq!(sent(&mut s), vec!["stop".to_string()]);
    assert!(s.over());
    let st = state(&s);
    assert_eq!(st["gameover"], true);
    assert_eq!(st["ended_here"], true);
    assert_eq!(st["drawn"], "turn limit 10");
    assert_eq!(st["places"], json!({"r": 1, "g": 1, "y": 3}));
    assert_eq!(s.places_text(), "r = g > y");
    let games = splut_play::record::parse_records(&s.record()).unwrap();
    assert_eq!(games[0].reason, splut_play::judge::Reason::TurnLimit(10));
    assert_eq!(splut_play::record::validate(&games[0]), Ok(()));
    assert_eq!(s.end_here(ms(110)), Err(Refusal::GameOver));
    // The stopped search's late answer is dropped; then the engine quits.
    s.engine_event(EngineEvent::Answer(Ok(vec!["a1a2".into()])), ms(120));
    assert_eq!(commands(&mut s), vec![Command::Quit]);
    // A take-back plays on.
    s.take_back(ms(200)).unwrap();
    assert!(!s.over());
    assert_eq!(state(&s)["ended_here"], false);
}

#[test]
fn ending_the_game_mid_turn_takes_that_turn_back() {
    // Engines only, step by step: green's turn stops after its first step.
    let game = Game::new(Position::start(2).unwrap());
    let seats = vec![seat('r', true), seat('g', true)];
    let mut s = Session::new(3, game, seats, Levels::default(), PAUSE, Pace::Step, ms(0));
    ready(&mut s, ms(0));
    for (i, turn) in [vec!["e2e3"], vec!["e8e7", "e7e8"]].into_iter().enumerate() {
        let turn = turn.into_iter().map(String::from).collect();
        s.engine_event(EngineEvent::Answer(Ok(turn)), ms(10 * i as u64));
        s.next(ms(10 * i as u64 + 5)).unwrap();
    }
    assert_eq!(s.game().steps().len(), 2);
    assert_eq!(state(&s)["waiting"], true);
    s.end_here(ms(50)).unwrap();
    assert_eq!(s.game().steps().len(), 1);
    let st = state(&s);
    assert_eq!(
        (st["waiting"].clone(), st["drawn"].clone()),
        (json!(false), json!("turn limit 1"))
    );
    assert_eq!(s.places_text(), "r = g");
    let games = splut_play::record::parse_records(&s.record()).unwrap();
    assert_eq!(splut_play::record::validate(&games[0]), Ok(()));
}

#[test]
fn a_silent_or_refusing_engine_fails_its_handshake() {
    let mut s = person_vs_engine(Pace::None);
    s.restart(ms(10));
    assert_eq!(sent(&mut s), ["<Spawn>", "ugi"]);
    // The machine's timer: woken when the handshake is late.
    assert_eq!(s.wake_at(), Some(ms(10) + HUNG_AFTER));
    s.wake(ms(10) + HUNG_AFTER);
    assert_eq!(state(&s)["error"], Value::Null, "not late yet");
    s.wake(ms(11) + HUNG_AFTER);
    let st = state(&s);
    assert_eq!(st["error"], "engine crashed: no ugiok within 10000 ms");
    assert_eq!(st["engine_running"], false);
    assert_eq!(sent(&mut s), ["<Quit>"]);
    assert_eq!(s.wake_at(), None);
    // A refused option of the handshake: the same.
    s.restart(ms(20_000));
    sent(&mut s);
    s.engine_line("ugiok", ms(20_001));
    assert_eq!(sent(&mut s), ["isready"]);
    s.engine_line("info string error: no", ms(20_002));
    assert_eq!(
        state(&s)["error"],
        "engine crashed: the engine refused its handshake: no"
    );
    assert_eq!(sent(&mut s), ["<Quit>"]);
}

#[test]
fn the_engine_is_asked_nothing_before_its_readyok() {
    // The engine moves first: its search waits for the handshake.
    let game = Game::new(Position::start(2).unwrap());
    let seats = vec![seat('r', true), seat('g', false)];
    let mut s = Session::new(4, game, seats, Levels::default(), PAUSE, Pace::None, ms(0));
    assert_eq!(sent(&mut s), ["<Spawn>", "ugi"]);
    s.engine_line(
        "option name UCI_ShowWinProb type check default false",
        ms(1),
    );
    s.engine_line("ugiok", ms(2));
    assert_eq!(
        sent(&mut s),
        ["setoption name UCI_ShowWinProb value true", "isready"]
    );
    assert!(!s.searching());
    // Lines of a search are not read as one before it is asked.
    s.engine_line("bestmove e2e3", ms(3));
    assert_eq!(s.game().steps().len(), 0);
    s.engine_line("readyok", ms(4));
    let c = sent(&mut s);
    assert!(c.last().unwrap().starts_with("go movetime"), "{c:?}");
    assert!(s.searching());
    assert_eq!(s.wake_at(), Some(ms(4 + 50) + HUNG_AFTER));
}

#[test]
fn a_seat_is_its_letter_in_json_and_reads_back() {
    let c = seat('y', false);
    let v = serde_json::to_value(&c).unwrap();
    assert_eq!(v["seat"], "y");
    let back: SeatConfig = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(back, c);
    let mut bad = v;
    bad["seat"] = "x".into();
    assert!(serde_json::from_value::<SeatConfig>(bad).is_err());
    // The engine's thinking and its points of view name the seat alike.
    let mut s = person_vs_engine(Pace::None);
    let step = legal(&s)[0].clone();
    s.step(&step, ms(0)).unwrap();
    assert_eq!(state(&s)["thinking"]["seat"], "g");
}
