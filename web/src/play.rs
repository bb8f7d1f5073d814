//! The match for a page (the static board, `web/js/board-local.js`): a
//! game's record written and a record read as `splut gui`'s server writes
//! and reads them ([`splut_play::record::board_record`] and
//! [`splut_play::record::first_game`]), and an engine's `info` line read
//! by the protocol's own reader ([`splut_protocol::words::Info`]),
//! so the page keeps no copy of any of them. Answers are JSON
//! (docs/web.md has the fields).

use serde_json::Value;
use splut_play::record::{Participant, Strength, board_record, first_game};
use splut_protocol::words::Info;
use splut_rules::{Game, Position, Seat};

/// The record of a game on the board, as `splut gui` downloads it. The
/// input is a JSON object: `start` (`2`, `3`, `4` or an SPN), `steps` (an
/// array of step texts, or one string of them) and `seats`, the board's
/// seat configurations in seat order (`{seat, engine, algorithm,
/// movetime, level}`, `level` `{"elo": v}`, `{"skill": v}` or null). The
/// answer is `{"record": text}`, or `{"error": why}`.
pub fn record_json(input: &str) -> String {
    match record(input) {
        Ok(text) => object(&[("record", quote(&text))]),
        Err(e) => error(&e),
    }
}

fn record(input: &str) -> Result<String, String> {
    let v: Value = serde_json::from_str(input).map_err(|e| format!("bad input: {e}"))?;
    let start = match &v["start"] {
        Value::Null => "2".to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return Err("start: expected 2, 3, 4 or an SPN".into()),
    };
    let steps = match &v["steps"] {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .map(|s| s.as_str().ok_or("steps: expected step texts"))
            .collect::<Result<Vec<_>, _>>()?
            .join(" "),
        _ => return Err("steps: expected step texts".into()),
    };
    let mut game = Game::new(start_position(&start)?);
    game.play_all(&steps).map_err(|e| format!("moves: {e}"))?;
    let seats = v["seats"]
        .as_array()
        .ok_or("seats: expected the seats' configurations")?
        .iter()
        .map(seat_of)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(board_record(&game, &seats).to_text())
}

/// `2`, `3` or `4` (the start position with that many players) or an SPN.
fn start_position(start: &str) -> Result<Position, String> {
    match start.trim() {
        "2" | "3" | "4" | "" => Position::start(start.trim().parse().unwrap_or(2))
            .ok_or_else(|| "start: no such start".to_string()),
        spn => Position::from_spn(spn).map_err(|e| format!("start: {e}")),
    }
}

/// One seat's configuration as the board keeps it (`api.rs`'s and
/// board-local.js's): who plays it.
fn seat_of(c: &Value) -> Result<(Seat, Participant), String> {
    let seat = c["seat"]
        .as_str()
        .and_then(|s| {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(l), None) => Seat::from_letter(l),
                _ => None,
            }
        })
        .ok_or("seats: each needs its seat, r, y, g or b")?;
    if c["engine"].as_bool() != Some(true) {
        return Ok((seat, Participant::Person));
    }
    let algorithm = match &c["algorithm"] {
        Value::Null => "auto".to_string(),
        Value::String(s) => s.clone(),
        _ => return Err("seats: algorithm: expected a name".into()),
    };
    let movetime = match &c["movetime"] {
        Value::Null => 1000,
        m => m
            .as_u64()
            .ok_or("seats: movetime: expected whole milliseconds")?,
    };
    let level = match &c["level"] {
        Value::Null => None,
        l => Some(match (l["elo"].as_i64(), l["skill"].as_i64()) {
            (Some(v), _) => Strength::Elo(v),
            (None, Some(v)) => Strength::Skill(v),
            _ => return Err("seats: level: expected {\"elo\": v} or {\"skill\": v}".into()),
        }),
    };
    Ok((
        seat,
        Participant::Engine {
            algorithm,
            movetime,
            level,
        },
    ))
}

/// The game a records text gives the board to play on (its first game),
/// as `splut gui`'s server reads it: `{"start": s, "steps": [...]}`, `s`
/// the player count (`"3"`) for a standard start and the SPN for any
/// other; or `{"error": "bad record: …"}`, the board's refusal. The steps
/// are the record's, not yet played (the board plays them).
pub fn read_record_json(text: &str) -> String {
    match first_game(text) {
        Ok((start, steps)) => {
            let players = start.players_left() as usize;
            let start = match Position::start(players) {
                Some(standard) if standard == start => players.to_string(),
                _ => start.to_spn(),
            };
            let steps: Vec<String> = steps.iter().map(|s| quote(s)).collect();
            object(&[
                ("start", quote(&start)),
                ("steps", format!("[{}]", steps.join(","))),
            ])
        }
        Err(e) => error(&e.to_string()),
    }
}

/// An engine's line as the board shows a search's report: `null` unless
/// it is an `info` line with a `depth` that reads
/// ([`Info::parse`]); else `{"info": {depth, score, nodes, time, pv},
/// "multipv": k, "winprob": {seat: p, …}}`, `score` as the line says it
/// (`"cp 14"`), `multipv` null for a line without one, and `winprob`
/// each seat's chance as the line gives it, to three decimals, in the
/// line's order, or null for a line without one.
pub fn info_json(line: &str) -> String {
    let Ok(info) = Info::parse(line) else {
        return "null".into();
    };
    let Some(depth) = info.depth else {
        return "null".into();
    };
    let or_null = |n: Option<String>| n.unwrap_or_else(|| "null".into());
    let pv: Vec<String> = info.pv.iter().map(|s| quote(&s.to_string())).collect();
    let fields = object(&[
        ("depth", depth.to_string()),
        ("score", or_null(info.score.map(|s| quote(&s.to_string())))),
        ("nodes", or_null(info.nodes.map(|n| n.to_string()))),
        ("time", or_null(info.time_ms.map(|n| n.to_string()))),
        ("pv", format!("[{}]", pv.join(","))),
    ]);
    let winprob = if info.winprob.is_empty() {
        "null".to_string()
    } else {
        // As the board's values spell them, in the line's order.
        let mut out = Vec::new();
        let json = &mut serde_json::Serializer::new(&mut out);
        match splut_board::letters::probabilities(&info.winprob, json) {
            Ok(()) => String::from_utf8_lossy(&out).into_owned(),
            Err(_) => "null".to_string(),
        }
    };
    object(&[
        ("info", fields),
        ("multipv", or_null(info.multipv.map(|n| n.to_string()))),
        ("winprob", winprob),
    ])
}

/// A JSON object of these keys and JSON values, in this order.
fn object(fields: &[(&str, String)]) -> String {
    let fields: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", quote(k)))
        .collect();
    format!("{{{}}}", fields.join(","))
}

fn error(why: &str) -> String {
    object(&[("error", quote(why))])
}

/// `s` as a JSON string.
fn quote(s: &str) -> String {
    Value::from(s).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_play::record::{parse_records, validate};

    fn parse(json: &str) -> Value {
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"))
    }

    /// An engine seat's algorithm, time per turn and level.
    type EngineSeat<'a> = (&'a str, u64, Value);

    /// The seats of a game as the board keeps them.
    fn configs(list: &[(&str, Option<EngineSeat>)]) -> Value {
        Value::Array(
            list.iter()
                .map(|(seat, engine)| match engine {
                    None => serde_json::json!({"seat": seat, "engine": false,
                        "algorithm": "auto", "movetime": 1000, "level": null}),
                    Some((algorithm, ms, level)) => serde_json::json!({"seat": seat,
                        "engine": true, "algorithm": algorithm, "movetime": ms, "level": level}),
                })
                .collect(),
        )
    }

    fn write(start: &str, steps: &[&str], seats: &Value) -> Value {
        let input = serde_json::json!({"start": start, "steps": steps, "seats": seats});
        parse(&record_json(&input.to_string()))
    }

    /// Red to move with a kill at hand: `f2f3*n` ends the game.
    const THROW_SPN: &str = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";

    #[test]
    fn a_record_is_written_as_the_native_board_writes_it_and_reads_back() {
        let seats_json = configs(&[
            ("r", Some(("mcts", 50, serde_json::json!({"elo": 1500})))),
            ("y", None),
            ("g", Some(("mcts", 50, serde_json::json!({"elo": 1500})))),
        ]);
        let engine = Participant::Engine {
            algorithm: "mcts".into(),
            movetime: 50,
            level: Some(Strength::Elo(1500)),
        };
        let seats = [
            (Seat::Red, engine.clone()),
            (Seat::Yellow, Participant::Person),
            (Seat::Green, engine),
        ];
        // Random legal steps from the 3-player start: after each, the
        // record written here and by splut-play (as `splut gui`), read
        // back, and written again from what was read.
        let mut game = Game::new(Position::start(3).unwrap());
        let mut seed = 7u64;
        while !game.position().is_game_over() && game.steps().len() < 80 {
            let steps: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
            let steps: Vec<&str> = steps.iter().map(String::as_str).collect();
            let text = write("3", &steps, &seats_json);
            let native = board_record(&game, &seats).to_text();
            assert_eq!(text["record"].as_str(), Some(native.as_str()), "{text}");
            let records = parse_records(&native).unwrap();
            assert_eq!(validate(&records[0]), Ok(()));
            let back = parse(&read_record_json(&native));
            assert_eq!(back["start"], "3");
            let whole: usize = records[0].turns.iter().map(|t| t.1.len()).sum();
            assert_eq!(back["steps"].as_array().unwrap().len(), whole);
            let read: Vec<&str> = back["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap())
                .collect();
            let again = write("3", &read, &seats_json);
            assert_eq!(again["record"].as_str(), Some(native.as_str()));
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let legal = game.position().legal_step_vec();
            game.play(legal[(seed >> 33) as usize % legal.len()])
                .unwrap();
        }
        // A finished game: the last sorcerer standing, the places by it.
        let two = configs(&[("r", None), ("g", Some(("greedy", 20, Value::Null)))]);
        let text = write(THROW_SPN, &["f2f3*n"], &two)["record"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            text.contains("[Result r > g]\n[Reason last sorcerer standing]\nr f2f3*n\n\n"),
            "{text}"
        );
        let records = parse_records(&text).unwrap();
        assert_eq!(validate(&records[0]), Ok(()));
        let back = parse(&read_record_json(&text));
        assert_eq!(
            back,
            serde_json::json!({"start": THROW_SPN, "steps": ["f2f3*n"]})
        );
    }

    #[test]
    fn an_unfinished_game_is_a_draw_at_its_last_whole_turn() {
        let seats = configs(&[
            ("r", None),
            (
                "y",
                Some(("alphabeta", 20, serde_json::json!({"skill": 3}))),
            ),
            ("g", Some(("greedy", 20, Value::Null))),
        ]);
        // Red's turn and the first of yellow's two steps.
        let mut game = Game::new(Position::start(3).unwrap());
        game.play_all("e2e3").unwrap();
        let yellow = game.position().legal_step_vec()[0].to_string();
        let answer = write("3", &["e2e3", &yellow], &seats);
        let text = answer["record"].as_str().unwrap();
        let spn = Position::start(3).unwrap().to_spn();
        assert_eq!(
            text,
            format!(
                "[Game 1]\n[Players 3]\n\
                 [Seats r=person y=alphabeta-20ms-skill3 g=greedy-20ms]\n\
                 [Opening splut gui]\n[Start {spn}]\n[OpeningSteps 0]\n\
                 [TimeControl alphabeta-20ms-skill3=movetime=20 greedy-20ms=movetime=20 person=none]\n\
                 [Result r = y = g]\n[Reason turn limit 1]\nr e2e3\n\n"
            )
        );
        // Read back: the standard start as its player count.
        let back = parse(&read_record_json(text));
        assert_eq!(back, serde_json::json!({"start": "3", "steps": ["e2e3"]}));
        // Steps as one string, and nothing played.
        let none = parse(&record_json(&format!(
            "{{\"start\":\"2\",\"steps\":\"\",\"seats\":{}}}",
            configs(&[("r", None), ("g", None)])
        )));
        assert!(
            none["record"]
                .as_str()
                .unwrap()
                .contains("[Reason turn limit 0]\n\n")
        );
    }

    #[test]
    fn bad_input_and_bad_records_are_refused() {
        let seats = configs(&[("r", None), ("g", None)]);
        let e = write("2", &["e2e9"], &seats);
        assert!(e["error"].as_str().unwrap().starts_with("moves: "), "{e}");
        let e = write("nonsense", &[], &seats);
        assert!(e["error"].as_str().unwrap().starts_with("start: "), "{e}");
        let e = parse(&record_json("not json"));
        assert!(e["error"].as_str().unwrap().starts_with("bad input"), "{e}");
        let e = parse(&record_json(
            r#"{"start":"2","steps":[],"seats":[{"seat":"x"}]}"#,
        ));
        assert!(e["error"].as_str().unwrap().starts_with("seats: "), "{e}");
        let e = parse(&record_json(
            r#"{"start":"2","steps":[],"seats":[{"seat":"r","engine":true,"movetime":1.5}]}"#,
        ));
        assert!(e["error"].as_str().unwrap().contains("movetime"), "{e}");
        // Records: the refusals of `splut gui`'s server, word for word.
        let refused = |text: &str| {
            let v = parse(&read_record_json(text));
            assert_eq!(v.as_object().unwrap().len(), 1, "{v}");
            v["error"].as_str().unwrap().to_string()
        };
        assert_eq!(refused(""), "bad record: no game in it");
        assert_eq!(
            refused("hello"),
            first_game("hello").unwrap_err().to_string()
        );
        assert!(refused("hello").starts_with("bad record: game at line 1: "));
        let good = write("2", &["e2e3"], &seats)["record"]
            .as_str()
            .unwrap()
            .to_string();
        let e = refused(&good.replace("[Players 2]", "[Players 2]\n[Players 3]"));
        assert!(e.starts_with("bad record: game 1 (line 1): "), "{e}");
        let e = refused(&good.replace("[Start R", "[Start X"));
        assert!(e.starts_with("bad record: "), "{e}");
    }

    #[test]
    fn info_lines_read_as_the_board_shows_them() {
        let v = parse(&info_json(
            "info depth 3 seldepth 5 score cp -14 nodes 120 nps 1000 time 5 hashfull 0 \
             pv d2d3@e1 e3e4 winprob r 0.60 y 0.25 g 0.15",
        ));
        assert_eq!(
            v,
            serde_json::json!({
                "info": {"depth": 3, "score": "cp -14", "nodes": 120, "time": 5,
                         "pv": ["d2d3@e1", "e3e4"]},
                "multipv": null,
                "winprob": {"r": 0.6, "y": 0.25, "g": 0.15},
            })
        );
        // The seats in the line's order, as the page read them.
        let text = info_json("info depth 1 score win 2 winprob g 0.333 r 0.667");
        assert!(
            text.ends_with(r#""winprob":{"g":0.333,"r":0.667}}"#),
            "{text}"
        );
        // multipv, unknown words skipped, no pv, no winprob.
        let v = parse(&info_json(
            "info depth 7 multipv 2 currmove e2e3 score loss 4 tbhits 0 nodes 9",
        ));
        assert_eq!(
            v,
            serde_json::json!({
                "info": {"depth": 7, "score": "loss 4", "nodes": 9, "time": null, "pv": []},
                "multipv": 2,
                "winprob": null,
            })
        );
        // A pv ends at the first word that is not a step.
        let v = parse(&info_json("info depth 2 pv e2e3 e3e4 foo winprob r 1 g 0"));
        assert_eq!(v["info"]["pv"], serde_json::json!(["e2e3", "e3e4"]));
        assert_eq!(v["winprob"], serde_json::json!({"r": 1.0, "g": 0.0}));
        // Not a search's report: null.
        for line in [
            "info string error: unknown command",
            "info nodes 5 time 3",
            "info depth x",
            "info depth 3 depth 4",
            "bestmove e2e3",
            "bestturn e2e3",
            "",
            "readyok",
        ] {
            assert_eq!(info_json(line), "null", "{line}");
        }
    }
}
