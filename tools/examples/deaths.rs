//! How sorcerers died in a tournament's games, read from its records: for
//! each elimination, whether the evaluation's throw test
//! ([`steps_to_kill`], pulls included) saw the kill coming, and what the
//! killing turn did that it could not see.
//!
//! ```text
//! cargo run --release --example deaths -- <records file>… [--show <name>] [--seats <n>]
//! ```
//!
//! Per engine (participant name) and count of seats left when the
//! sorcerer fell, it prints:
//!
//! - `deaths`, and `killer_after_victim=k`: the killer moves k seats
//!   after the victim in the turn order (with 4 seats, 3 is the seat just
//!   before the victim);
//! - `seen_at_killer_turn`: whether, at the start of the killing turn,
//!   the killer could throw at the victim within its steps by the test;
//!   if not, `unseen_kind`: the killing turn pushed with a dwarf (`>`),
//!   levitated (`@`), pulled (`^`), or none of these (`plain`);
//! - `seen_at_victim_turn killer=… any=…`: whether, at the start of the
//!   victim's last turn, the killer (or any seat) could throw at it
//!   within 3 steps: a threat the victim had a turn to parry;
//! - `killer_steps_at_victim_turn=d`: the killer's steps to the kill then
//!   (1–8; 9: more, or not at all with the board standing still).
//!
//! `--show <name>` also prints each death of that engine with `--seats`
//! seats in the game (4 unless given): the positions (SPN) at the
//! victim's last turn and at the killer's turn, with the steps played.

use splut::tournament::header;
use splut_engine::eval::threats::steps_to_kill;
use splut_play::record::{GameRecord, RecordReader};
use splut_rules::{Game, Position, Seat, StepKind};
use std::collections::BTreeMap;
use std::io::BufReader;

/// Counts per line of the report.
type Tally = BTreeMap<String, usize>;

fn main() {
    let mut files = Vec::new();
    let mut show = None;
    let mut seats = 4;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--show" {
            show = args.next();
        } else if a == "--seats" {
            seats = match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => n,
                None => {
                    eprintln!("error: --seats needs a count of seats (2, 3 or 4)");
                    std::process::exit(2);
                }
            };
        } else {
            files.push(a);
        }
    }
    if files.is_empty() {
        eprintln!("usage: deaths <records file>… [--show <name>] [--seats <n>]");
        std::process::exit(2);
    }
    let mut tally = Tally::new();
    for path in &files {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: {path}: {e}");
                std::process::exit(2);
            }
        };
        let mut input = BufReader::new(file);
        let lines = match header::read(&mut input) {
            Ok(block) => block.map_or(0, |b| b.lines),
            Err(e) => {
                eprintln!("error: {path}: header: {e}");
                std::process::exit(2);
            }
        };
        for game in RecordReader::after_lines(input, lines) {
            match game {
                Ok((_, g)) => {
                    if let Err(e) = tally_game(&g, show.as_deref(), seats, &mut tally) {
                        eprintln!("{path}: game {}: {e}", g.number);
                    }
                }
                Err(b) => eprintln!("{path}: line {}: {}", b.line, b.reason),
            }
        }
    }
    for (line, count) in tally {
        println!("{count:6} {line}");
    }
}

/// Adds the deaths of one game to `tally`.
fn tally_game(
    g: &GameRecord,
    show: Option<&str>,
    show_seats: usize,
    tally: &mut Tally,
) -> Result<(), String> {
    let start = if g.start == "startpos" {
        Position::start(g.players).ok_or("bad player count")?
    } else {
        Position::from_spn(&g.start).map_err(|e| e.to_string())?
    };
    let name = |s: Seat| g.name_of(s).unwrap_or("?").to_string();
    let mut game = Game::new(start);
    // Each seat's latest turn: where it started and what it played.
    let mut last_turn: [Option<(Position, String)>; 4] = Default::default();
    for (seat, steps) in &g.turns {
        let before_turn = *game.position();
        last_turn[seat.index()] = Some((before_turn, steps.join(" ")));
        let mut kinds = String::new();
        for text in steps {
            let before = *game.position();
            let step = game.play_text(text).map_err(|e| e.to_string())?;
            match step.kind() {
                StepKind::Pull => kinds.push('^'),
                StepKind::Levitate => kinds.push('@'),
                StepKind::Dwarf if before.piece_at(step.to()).is_some() => kinds.push('>'),
                _ => {}
            }
        }
        let after = *game.position();
        let order: Vec<Seat> = before_turn.seats_in_game().collect();
        let n = order.len();
        for (iv, &victim) in order.iter().enumerate() {
            if victim == *seat || after.in_game(victim) {
                continue;
            }
            let who = name(victim);
            let mut add =
                |line: String| *tally.entry(format!("{who} {n}p {line}")).or_default() += 1;
            let ik = order.iter().position(|s| s == seat).unwrap_or(iv);
            add("deaths".into());
            add(format!("killer_after_victim={}", (ik + n - iv) % n));
            let seen_now = steps_to_kill(&before_turn, *seat, victim, before_turn.steps_left());
            add(format!("seen_at_killer_turn={}", seen_now.is_some()));
            if seen_now.is_none() {
                let kind = ['>', '@', '^']
                    .into_iter()
                    .find(|&c| kinds.contains(c))
                    .map_or("plain".to_string(), String::from);
                add(format!("unseen_kind={kind}"));
            }
            if let Some((pv, _)) = &last_turn[victim.index()] {
                let killer = steps_to_kill(pv, *seat, victim, 3).is_some();
                let any = pv
                    .seats_in_game()
                    .any(|a| a != victim && steps_to_kill(pv, a, victim, 3).is_some());
                add(format!("seen_at_victim_turn killer={killer} any={any}"));
                let d = steps_to_kill(pv, *seat, victim, 8).unwrap_or(9);
                add(format!("killer_steps_at_victim_turn={d}"));
            }
            if let (true, Some((pv, played))) = (
                show == Some(who.as_str()) && n == show_seats,
                &last_turn[victim.index()],
            ) {
                println!(
                    "game {} {victim:?} killed by {seat:?}\n  victim's turn: {} :: {played}\n  killer's turn: {} :: {}",
                    g.number,
                    pv.to_spn(),
                    before_turn.to_spn(),
                    steps.join(" ")
                );
            }
        }
    }
    Ok(())
}
