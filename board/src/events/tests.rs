use super::*;
use splut_rules::splitmix64;

fn pos(spn: &str) -> Position {
    Position::from_spn(spn).unwrap()
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// The event of the step `text` in `p`.
fn event(p: &Position, text: &str) -> StepEvent {
    step_event(p, p.parse_step(text).unwrap()).unwrap()
}

fn names(v: &[Square]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Red troll e5 above a rock on e4; green dwarf e8 below the rock on e9,
/// green sorcerer f8, green troll h4 (rules/src/troll.rs).
const THROWS: &str = "R/1gDgS/5/7/R3rT3R/3R2gT/5/rSrD1/1 r 3 10 - - -";

#[test]
fn a_plain_step_names_its_mover_and_squares() {
    let ev = event(&Position::start(2).unwrap(), "e2e3");
    assert_eq!(ev.action, Action::Step);
    assert_eq!((ev.seat, ev.kind), (Seat::Red, Some(Kind::Dwarf)));
    assert_eq!((ev.from, ev.to), (Some(sq("e2")), Some(sq("e3"))));
    assert_eq!(ev.dir, Some(Direction::North));
    assert!(ev.pushed.is_empty() && ev.rock.is_none() && ev.flight.is_empty());
    assert!(ev.out.is_empty());
}

#[test]
fn a_dwarf_pushes_the_run_of_any_pieces_nearest_first() {
    // c5 dwarf pushes green troll d5, rock e5, green sorcerer f5 east.
    let ev = event(
        &pos("R/1gD1/5/7/R1rDgTRgS3/7/5/rS1rT/R r 3 10 - - -"),
        "c5d5",
    );
    assert_eq!(ev.action, Action::Push);
    let pushed: Vec<String> = ev
        .pushed
        .iter()
        .map(|p| format!("{}{}{}", p.piece, p.from, p.to))
        .collect();
    assert_eq!(pushed, ["gTd5e5", "Re5f5", "gSf5g5"]);
    assert!(ev.out.is_empty(), "pushing never kills");
}

#[test]
fn a_troll_pulls_and_a_sorcerer_levitates_a_rock() {
    let pull = event(&pos(THROWS), "e5e6^e4");
    assert_eq!(pull.action, Action::Pull);
    assert_eq!(pull.kind, Some(Kind::Troll));
    assert_eq!(pull.rock, Some((sq("e4"), sq("e5"))));
    let open = pos("R/gD1gT/2gS2/7/R7R/3rS3/rD3rT/3/R r 3 10 - - -");
    let lev = event(&open, "e4e5@e1");
    assert_eq!(lev.action, Action::Levitate);
    assert_eq!(lev.kind, Some(Kind::Sorcerer));
    assert_eq!(lev.rock, Some((sq("e1"), sq("e2"))));
    // A plain sorcerer step moves no rock.
    assert_eq!(event(&open, "e4e5").rock, None);
}

#[test]
fn a_throw_flies_over_the_trolls_old_square_and_crushes_a_dwarf() {
    // Thrown north from e4: e5 (the troll has left it), e6, e7, then the
    // dwarf on e8 with the rock e9 behind it: SPLUT!
    let ev = event(&pos(THROWS), "e5e4*n");
    assert_eq!(ev.action, Action::Throw);
    assert_eq!(ev.throw, Some(Direction::North));
    assert_eq!(names(&ev.flight), ["e5", "e6", "e7", "e8"]);
    assert_eq!(ev.landing, Some(sq("e8")));
    assert_eq!(ev.crushed, Some(Piece::Team(Seat::Green, Kind::Dwarf)));
    assert!(ev.out.is_empty());
    // East: stops before the troll on h4, crushing nothing.
    let east = event(&pos(THROWS), "e5e4*e");
    assert_eq!(names(&east.flight), ["f4", "g4"]);
    assert_eq!((east.landing, east.crushed), (Some(sq("g4")), None));
}

#[test]
fn a_throw_that_hits_a_sorcerer_puts_its_seat_out() {
    let p = pos("R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -");
    let evs = step_events(&p, &["d2d3@f3", "f2f3", "f3f4*n"]);
    assert_eq!(evs.len(), 3);
    let throw = &evs[2];
    assert_eq!(names(&throw.flight), ["f5", "f6", "f7", "f8"]);
    assert_eq!(
        throw.crushed,
        Some(Piece::Team(Seat::Green, Kind::Sorcerer))
    );
    assert_eq!(throw.out, [Seat::Green]);
    // The flight is the one marks and threats draw.
    let before = p.after(evs[0].step).after(evs[1].step);
    assert_eq!(
        throw_flight(&before, throw.step),
        Some((throw.flight.clone(), sq("f8")))
    );
    assert_eq!(throw_flight(&before, evs[1].step), None, "not a throw");
}

#[test]
fn a_pass_names_the_seat_that_passes() {
    let p = pos("R/1gD1/5/7/rTgS6R/1R3R1/5/1gT1/rS r 2 10 - - -");
    let ev = event(&p, "pass");
    assert_eq!(
        (ev.action, ev.seat, ev.kind),
        (Action::Pass, Seat::Red, None)
    );
    assert_eq!((ev.from, ev.to), (None, None));
}

#[test]
fn bad_or_illegal_steps_give_no_event() {
    let start = Position::start(2).unwrap();
    // e2e4 reads but is no step; e1e2 is not legal (a rock on e1).
    assert_eq!(step_events(&start, &["e2e3", "zz", "g8g7"]).len(), 1);
    assert!(step_events(&start, &["e2e4"]).is_empty());
    let offered = choice_events(&start, &["e2e3", "nonsense", "pass", "e2e4", "d2d3"]);
    let steps: Vec<String> = offered.iter().map(|e| e.step.to_string()).collect();
    assert_eq!(steps, ["e2e3", "d2d3"]);
    let illegal = start.parse_step("e2e3").unwrap();
    assert_eq!(step_event(&start.after(illegal), illegal), None);
}

/// The position `ev` leaves behind agrees with what `ev` says of it.
fn check(before: &Position, after: &Position, ev: &StepEvent) {
    assert_eq!(ev.seat, before.side_to_move());
    let out: Vec<Seat> = Seat::ALL
        .into_iter()
        .filter(|&s| before.in_game(s) && !after.in_game(s))
        .collect();
    assert_eq!(ev.out, out, "{ev:?}");
    let (Some(from), Some(to), Some(kind)) = (ev.from, ev.to, ev.kind) else {
        assert_eq!(ev.action, Action::Pass);
        return;
    };
    let mover = Piece::Team(ev.seat, kind);
    assert_eq!(before.piece_at(from), Some(mover), "{ev:?}");
    // A troll may throw at its own sorcerer: its whole team leaves.
    if !ev.out.contains(&ev.seat) {
        assert_eq!(after.piece_at(to), Some(mover), "{ev:?}");
    }
    for p in &ev.pushed {
        assert_eq!(before.piece_at(p.from), Some(p.piece), "{ev:?}");
        assert_eq!(after.piece_at(p.to), Some(p.piece), "{ev:?}");
    }
    if let Some((a, b)) = ev.rock {
        assert!(before.rocks().has(a) && after.rocks().has(b), "{ev:?}");
    }
    assert_eq!(ev.action == Action::Throw, ev.landing.is_some(), "{ev:?}");
    if let Some(landing) = ev.landing {
        assert_eq!(ev.flight.last(), Some(&landing));
        assert!(after.rocks().has(landing) && !before.rocks().has(landing));
        // Each square of the flight one on from the last, along the throw.
        let mut at = to;
        for &sq in &ev.flight {
            assert_eq!(at.neighbour(ev.throw.unwrap()), Some(sq), "{ev:?}");
            at = sq;
        }
        if let Some(crushed) = ev.crushed {
            assert_eq!(before.piece_at(landing), Some(crushed));
        }
    }
}

#[test]
fn random_games_events_agree_with_the_rules_positions() {
    let mut seed = 0xe7e9_u64;
    let (mut kinds, mut outs) = (std::collections::HashSet::new(), 0);
    for g in 0..60 {
        let mut game = Game::new(Position::start(2 + g % 3).unwrap());
        while !game.position().is_game_over() && game.steps().len() < 400 {
            let legal = game.position().legal_step_vec();
            let s = legal[(splitmix64(&mut seed) % legal.len() as u64) as usize];
            game.play(s).unwrap();
        }
        let turns = turn_events(&game);
        let lens: Vec<usize> = game.turns().iter().map(|t| t.1.len()).collect();
        assert_eq!(turns.iter().map(Vec::len).collect::<Vec<_>>(), lens);
        let events: Vec<&StepEvent> = turns.iter().flatten().collect();
        let positions = game.positions();
        for (i, ev) in events.iter().enumerate() {
            assert_eq!(ev.step, game.steps()[i]);
            check(&positions[i], &positions[i + 1], ev);
            kinds.insert(format!("{:?}", ev.action));
            outs += ev.out.len();
        }
        let told: Vec<Seat> = events.iter().flat_map(|e| e.out.clone()).collect();
        assert_eq!(told, game.eliminations());
    }
    // The games saw every kind of step but pass, and kills.
    assert!(kinds.len() >= 5, "{kinds:?}");
    assert!(outs > 10, "{outs}");
}

#[test]
fn events_serialise_as_the_page_reads_them() {
    let ev = event(&pos(THROWS), "e5e4*n");
    let v = serde_json::to_value(&ev).unwrap();
    assert_eq!(v["step"], "e5e4*n");
    assert_eq!(
        (v["seat"].as_str(), v["kind"].as_str()),
        (Some("r"), Some("T"))
    );
    assert_eq!(v["type"], "throw");
    assert_eq!(v["throw"], "n");
    assert_eq!(v["flight"], serde_json::json!(["e5", "e6", "e7", "e8"]));
    assert_eq!(
        (v["landing"].as_str(), v["crushed"].as_str()),
        (Some("e8"), Some("gD"))
    );
    let push = event(
        &pos("R/1gD1/5/7/R1rDgTRgS3/7/5/rS1rT/R r 3 10 - - -"),
        "c5d5",
    );
    let v = serde_json::to_value(&push).unwrap();
    assert_eq!(
        v["pushed"][1],
        serde_json::json!({"piece": "R", "from": "e5", "to": "f5"})
    );
    assert_eq!((v["rock"].is_null(), v["landing"].is_null()), (true, true));
    let pass = event(
        &pos("R/1gD1/5/7/rTgS6R/1R3R1/5/1gT1/rS r 2 10 - - -"),
        "pass",
    );
    let v = serde_json::to_value(&pass).unwrap();
    assert_eq!(
        (v["type"].as_str(), v["kind"].is_null()),
        (Some("pass"), true)
    );
}
