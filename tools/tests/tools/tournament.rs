//! `splut tournament` and `splut replay`, run as a user runs them.

use crate::support::splut;
use splut_play::judge::{Judge, places};
use splut_play::record::{Forfeit, GameRecord, Reason, parse_records, validate};
use splut_rules::{Game, Position};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `splut tournament` with whitespace-separated `args`, then `extra`
/// arguments (which may hold spaces), recording to `rec`.
fn tournament(args: &str, extra: &[&str], rec: &Path) -> Output {
    let mut all = vec!["tournament"];
    all.extend(args.split_whitespace());
    all.extend(extra);
    all.extend(["--records", rec.to_str().unwrap()]);
    splut(&all)
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

fn temp(name: &str) -> PathBuf {
    crate::support::temp("tests", name)
}

fn faulty(mode: &str) -> String {
    let script = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tools/tests/fixtures/faulty-engine");
    format!("cmd={} {mode}", script.display())
}

fn records(path: &Path) -> Vec<GameRecord> {
    let text = std::fs::read_to_string(path).unwrap();
    // The header block (the tournament's options) comes before the games.
    let games = match text.strip_prefix("[Tournament ") {
        Some(rest) => rest.split_once("\n\n").map_or("", |x| x.1),
        None => &text,
    };
    let games = parse_records(games).unwrap();
    for g in &games {
        validate(g).unwrap_or_else(|e| panic!("game {}: {e}", g.number));
        judge_agrees(g);
    }
    games
}

/// Judges a recorded game again, step by step, with the referee's judge
/// (not through `validate`): it ends the game where the record ends, for
/// the record's reason, with the record's places, and the record's turn
/// lines are the game's turns.
fn judge_agrees(g: &GameRecord) {
    let at = format!("game {} ({})", g.number, g.reason);
    let start = if g.start == "startpos" {
        Position::start(g.players).unwrap()
    } else {
        Position::from_spn(&g.start).unwrap()
    };
    let mut game = Game::new(start);
    let mut judge = Judge::new(g.reason.adjudication());
    let steps: Vec<&String> = g.turns.iter().flat_map(|t| &t.1).collect();
    let mut verdict = None;
    for (i, t) in steps.iter().enumerate() {
        let proper = i >= g.opening_steps;
        if proper {
            assert_eq!(judge.before_turn(game.position()), None, "{at}: step {i}");
        }
        game.play_text(t).unwrap_or_else(|e| panic!("{at}: {e}"));
        if proper {
            verdict = judge.after_step(game.position());
            if i + 1 < steps.len() {
                assert_eq!(verdict, None, "{at}: step {}", i + 1);
            }
        }
    }
    let verdict = verdict.or_else(|| judge.before_turn(game.position()));
    match &g.reason {
        Reason::Forfeit {
            what: Forfeit::PastTurnEnd { .. },
            ..
        } => assert!(matches!(verdict, None | Some(Reason::LastSorcerer)), "{at}"),
        Reason::Forfeit { .. } => assert_eq!(verdict, None, "{at}"),
        r => assert_eq!(verdict.as_ref(), Some(r), "{at}"),
    }
    let sorted = |p: &[Vec<splut_rules::Seat>]| {
        p.iter()
            .map(|g| {
                let mut g = g.clone();
                g.sort();
                g
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(sorted(&places(&game, &g.reason)), sorted(&g.places), "{at}");
    assert_eq!(GameRecord::turns_of(&game), g.turns, "{at}");
}

#[test]
fn the_judge_agrees_with_the_records_of_the_tests_and_of_turn_limits() {
    // The records kept in tests/data.
    let data = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("tools/tests/data");
    let mut files = 0;
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "games") {
            files += 1;
            assert!(!records(&path).is_empty(), "{}", path.display());
        }
    }
    assert!(files > 0);
    // Games drawn at the turn limit, and games played out (the other
    // tests' records all go through `records`, hence the judge, too).
    let rec = temp("judge-turn-limit.games");
    let o = tournament(
        "--players 3 --engine name=r algo=random --engine name=gr algo=greedy \
         --tc depth=1 --rounds 3 --max-turns 12 --seed 4",
        &[],
        &rec,
    );
    assert!(o.status.success(), "{}", text(&o));
    let games = records(&rec);
    assert!(
        games.iter().any(|g| g.reason == Reason::TurnLimit(12)),
        "no game reached the turn limit"
    );
    assert!(games.iter().any(|g| g.reason == Reason::LastSorcerer));
}

#[test]
fn two_players_round_robin_with_statistics_and_valid_records() {
    let rec = temp("two.games");
    let o = tournament(
        "--engine name=ab algo=alphabeta --engine name=rnd algo=random \
         --tc nodes=2000 --rounds 3 --seed 5",
        &[],
        &rec,
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("Standings after 6 games"), "{out}");
    assert!(out.contains("ab vs rnd: 6-0-0"), "{out}");
    assert!(out.contains("pairs [0, 0, 0, 0, 3]"), "{out}");
    assert!(out.contains("LOS"), "{out}");
    let games = records(&rec);
    assert_eq!(games.len(), 6);
    // Seats rotate: each participant plays red in half the games.
    let ab_red = games
        .iter()
        .filter(|g| g.name_of(splut_rules::Seat::Red) == Some("ab"))
        .count();
    assert_eq!(ab_red, 3);
    let r = splut(&["replay", rec.to_str().unwrap()]);
    assert!(r.status.success());
    assert!(text(&r).contains("6 games, 6 valid, 0 invalid"));
}

#[test]
fn four_players_places_and_points() {
    let rec = temp("four.games");
    let o = tournament(
        "--players 4 --engine name=ab algo=alphabeta --engine name=gr algo=greedy \
         --tc nodes=1500 --rounds 1 --max-turns 120 --concurrency 2",
        &[],
        &rec,
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("1st") && out.contains("4th"), "{out}");
    assert!(out.contains("ab vs gr:"), "{out}");
    let games = records(&rec);
    assert_eq!(games.len(), 2, "A B A B and B A B A");
    for g in &games {
        assert_eq!(g.places.iter().map(|p| p.len()).sum::<usize>(), 4);
    }
}

/// The pool rating column of the free-for-all table: name → rating.
fn pool_ratings(out: &str) -> Vec<(String, f64)> {
    let table = out
        .split("Free-for-all")
        .nth(1)
        .unwrap_or_else(|| panic!("no free-for-all table: {out}"));
    table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with("    "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[0].to_string(), w[w.len() - 2].parse().unwrap())
        })
        .collect()
}

#[test]
fn three_players_free_for_all_table_and_pool_rating() {
    // Players of fixed strength, each deterministic at a node limit or
    // with the tournament's seed: the search, greedy, random.
    let rec = temp("ffa.games");
    let o = tournament(
        "--players 3 --engine name=ab algo=alphabeta tc=nodes=3000 --engine name=greedy algo=greedy \
         --engine name=random algo=random --openings random:4 --rounds 4 --seed 3 --concurrency 2",
        &[],
        &rec,
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("out first") && out.contains("last two won"),
        "{out}"
    );
    assert!(
        out.contains("By seat (score, every participant): r "),
        "{out}"
    );
    let ratings = pool_ratings(&out);
    let names: Vec<&str> = ratings.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(names, ["ab", "greedy", "random"], "{out}");
    assert!(
        ratings[0].1 > ratings[1].1 && ratings[1].1 > ratings[2].1,
        "{out}"
    );
    // `splut standings` of the records prints the same table.
    let merged = text(&splut(&["standings", rec.to_str().unwrap()]));
    assert_eq!(pool_ratings(&merged), ratings, "{merged}");
    let table = |s: &str| {
        s.split("Free-for-all")
            .nth(1)
            .unwrap()
            .split("Pairwise")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(table(&merged), table(&out));
}

#[test]
fn a_crashing_an_illegal_and_a_hanging_participant_lose_and_the_tournament_goes_on() {
    for (mode, says, tc) in [
        ("crash", "crashed", "nodes=1000"),
        ("illegal", "illegal step 'e5e6'", "nodes=1000"),
        ("hang", "timed out", "movetime=100"),
    ] {
        let rec = temp(&format!("faulty-{mode}.games"));
        let bad = faulty(mode);
        let o = tournament(
            &format!("--engine name=ab algo=alphabeta --tc {tc} --rounds 2"),
            &["--engine", "name=bad", &bad],
            &rec,
        );
        let out = text(&o);
        assert!(o.status.success(), "{mode}: {out}");
        assert!(out.contains("ab vs bad: 4-0-0"), "{mode}: {out}");
        let games = records(&rec);
        assert_eq!(games.len(), 4, "{mode}: every game is played and recorded");
        for g in &games {
            match &g.reason {
                Reason::Forfeit { what, .. } => {
                    assert!(what.to_string().contains(says), "{mode}: {what}")
                }
                r => panic!("{mode}: game {} ended by {r}", g.number),
            }
        }
    }
}

#[test]
fn concurrency_plays_the_same_games() {
    let serial = temp("serial.games");
    let parallel = temp("parallel.games");
    for (rec, c) in [(&serial, "1"), (&parallel, "2")] {
        let o = tournament(
            &format!(
                "--players 3 --engine name=ab algo=alphabeta --engine name=mc algo=mcts \
                 --tc nodes=800 --rounds 1 --seed 9 --concurrency {c}"
            ),
            &[],
            rec,
        );
        assert!(o.status.success(), "{}", text(&o));
    }
    let mut a: Vec<String> = records(&serial).iter().map(|g| g.to_text()).collect();
    let mut b: Vec<String> = records(&parallel).iter().map(|g| g.to_text()).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn sprt_stops_when_decided() {
    let rec = temp("sprt.games");
    let o = tournament(
        "--engine name=ab algo=alphabeta --engine name=rnd algo=random --tc nodes=500 \
         --rounds 50 --sprt 0 50 0.05 0.05 --concurrency 2",
        &[],
        &rec,
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("SPRT decided after"), "{out}");
    assert!(out.contains("H1 accepted"), "{out}");
    assert!(records(&rec).len() < 100, "it stopped early");
}

#[test]
fn bad_options_are_errors() {
    for args in [
        "--engine name=a algo=nonsense --engine algo=random",
        "--engine name=a algo=random",
        "--engine name=a algo=random --engine name=a algo=greedy",
        "--engine algo=random --engine algo=greedy --tc fast",
        "--engine algo=random --engine algo=greedy --tc clock=0+1",
        "--engine algo=random --engine algo=greedy --players 5",
        "--engine algo=random --engine algo=greedy --openings /nonexistent",
        "--engine algo=random --engine flavour=sweet",
        "--engine algo=random ponder=maybe --engine algo=greedy",
        "--engine algo=random --engine algo=greedy --sprt 0 5 0.05",
    ] {
        let o = tournament(args, &[], &temp("bad.games"));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains("error"), "{args:?}");
    }
}

#[test]
fn a_participant_that_refuses_an_option_stops_the_tournament_before_it_starts() {
    let rec = temp("refused.games");
    let o = tournament(
        "--engine name=a algo=random option.EvalFile=/nonexistent/weights.txt --engine name=b algo=greedy --rounds 1",
        &["--no-progress"],
        &rec,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("participant a: it refused an option: info string error: option EvalFile"),
        "{t}"
    );
    assert!(!t.contains("game 1/"), "no game was played: {t}");
}

#[test]
fn a_pondering_participant_ponders_and_every_game_is_played_out() {
    let log = temp("ponder.log");
    let script = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tools/tests/fixtures/logging-engine");
    let engine = format!(
        "cmd={} {} {}",
        script.display(),
        log.display(),
        env!("CARGO_BIN_EXE_splut")
    );
    let rec = temp("ponder.games");
    let o = tournament(
        "--players 2 --tc clock=3+0.1 --rounds 1 --seed 4",
        &[
            "--engine",
            "name=ponderer",
            &engine,
            "ponder=on",
            "--engine",
            "name=plain",
            "algo=auto",
            "--no-progress",
        ],
        &rec,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let games = records(&rec);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(
            !matches!(g.reason, Reason::Forfeit { .. }),
            "{:?}",
            g.reason
        );
        judge_agrees(g);
    }
    // It pondered after its turns, and each ponder search was ended by a
    // hit or a stop before the next search or game.
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    let ponders = lines.iter().filter(|l| l.starts_with("go ponder ")).count();
    let ended = lines
        .iter()
        .filter(|l| **l == "ponderhit" || **l == "stop")
        .count();
    assert!(ponders >= 2, "{ponders} ponder searches:\n{sent}");
    assert_eq!(ponders, ended, "{sent}");
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("go ponder") {
            let next = lines[i + 1..]
                .iter()
                .find(|n| n.starts_with("go") || **n == "ponderhit" || **n == "stop")
                .unwrap();
            assert!(
                *next == "ponderhit" || *next == "stop",
                "a search was started over a ponder search: {next}"
            );
        }
    }
    // The records' header names the setting (another schedule than without).
    let head = std::fs::read_to_string(&rec).unwrap();
    assert!(
        head.lines()
            .any(|l| l.starts_with("[Participant ponderer ") && l.contains(" ponder=on")),
        "{head}"
    );
}

#[test]
fn replay_finds_tampered_records() {
    let rec = temp("tamper.games");
    let o = tournament(
        "--engine name=a algo=greedy --engine name=b algo=random --tc depth=1 --rounds 1",
        &[],
        &rec,
    );
    assert!(o.status.success(), "{}", text(&o));
    let good = std::fs::read_to_string(&rec).unwrap();
    // Reverse the places of the first game.
    let line = good.lines().find(|l| l.starts_with("[Result ")).unwrap();
    let places: Vec<&str> = line["[Result ".len()..line.len() - 1]
        .split(" > ")
        .collect();
    let reversed: Vec<&str> = places.iter().rev().copied().collect();
    let tampered = good.replacen(line, &format!("[Result {}]", reversed.join(" > ")), 1);
    assert_ne!(tampered, good);
    std::fs::write(&rec, tampered).unwrap();
    let r = splut(&["replay", rec.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r).contains("INVALID"), "{}", text(&r));
}

#[test]
fn ctrl_c_prints_the_standings_and_keeps_the_finished_games() {
    let rec = temp("interrupted.games");
    let child = Command::new(env!("CARGO_BIN_EXE_splut"))
        .args([
            "tournament",
            "--engine",
            "name=ab",
            "algo=alphabeta",
            "--engine",
            "name=gr",
            "algo=greedy",
            "--tc",
            "movetime=30",
            "--rounds",
            "100",
            "--records",
            rec.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Let some games finish, then interrupt as Ctrl-C does.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&rec).map_or(0, |t| t.matches("[Game ").count()) < 2 {
        assert!(std::time::Instant::now() < deadline, "no game finished");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let o = child.wait_with_output().unwrap();
    let out = text(&o);
    assert_eq!(o.status.code(), Some(130), "{out}");
    assert!(out.contains("interrupted:"), "{out}");
    assert!(out.contains("Standings after"), "{out}");
    let games = records(&rec);
    assert!(games.len() >= 2 && games.len() < 200);
}

#[test]
fn an_external_engine_an_opening_file_and_clocks() {
    // Another build of this engine, entered by its command line, plays on
    // per-seat clocks from the openings of a file.
    let book = temp("book.txt");
    std::fs::write(
        &book,
        "# two openings\ne2e3 e8e7 f8f7\nR/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - - d2d3\n",
    )
    .unwrap();
    let rec = temp("external.games");
    let me = format!("cmd={}", env!("CARGO_BIN_EXE_splut"));
    let o = tournament(
        "--engine name=inside algo=greedy --tc clock=5+0.1 --rounds 2",
        &[
            "--engine",
            "name=outside",
            &me,
            "option.Algorithm=alphabeta",
            "--openings",
            book.to_str().unwrap(),
        ],
        &rec,
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let games = records(&rec);
    assert_eq!(games.len(), 4, "2 openings, seats swapped");
    for g in &games {
        assert!(g.time_control.contains("clock=5+0.1"), "{}", g.time_control);
        assert!(!matches!(g.reason, Reason::Forfeit { .. }), "{}", g.reason);
    }
    assert_eq!(games.iter().filter(|g| g.start == "startpos").count(), 2);
    assert!(games.iter().any(|g| g.opening.contains("line 2")));
    assert!(games.iter().any(|g| g.opening.contains("line 3")));
}

#[test]
fn a_three_player_gauntlet_meets_every_seat() {
    let rec = temp("gauntlet.games");
    let o = tournament(
        "--players 3 --gauntlet --engine name=ab algo=alphabeta --engine name=r1 algo=random \
         --engine name=r2 algo=random --tc nodes=300 --rounds 1 --max-turns 60",
        &[],
        &rec,
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let games = records(&rec);
    // No game without the first participant, none between r1 and r2 alone.
    for g in &games {
        let names: Vec<&str> = g.seats.iter().map(|(_, n)| n.as_str()).collect();
        assert!(names.contains(&"ab"), "{names:?}");
        assert!(
            !(names.contains(&"r1") && names.contains(&"r2")),
            "{names:?}"
        );
    }
    for seat in [
        splut_rules::Seat::Red,
        splut_rules::Seat::Yellow,
        splut_rules::Seat::Green,
    ] {
        assert!(
            games.iter().any(|g| g.name_of(seat) == Some("ab")),
            "ab never sat at {seat:?}"
        );
    }
}

#[test]
fn a_repetition_in_the_middle_of_a_turn_replays_and_a_false_claim_does_not() {
    // A real game from `scripts/experiments searches2-100`: the referee
    // counts positions after every step, so a third repetition may come in
    // the middle of a turn, and the record ends there.
    let data = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tools/tests/data/repetition-mid-turn.games");
    let r = splut(&["replay", data.to_str().unwrap()]);
    assert!(r.status.success(), "{}", text(&r));
    assert!(
        text(&r).contains("1 games, 1 valid, 0 invalid"),
        "{}",
        text(&r)
    );
    // One legal step more: the game goes on past the repetition.
    let good = std::fs::read_to_string(&data).unwrap();
    let last = good.trim_end().lines().last().unwrap();
    let tampered = good.replacen(last, &format!("{last} e7d7"), 1);
    let rec = temp("repetition-cut.games");
    std::fs::write(&rec, tampered).unwrap();
    let r = splut(&["replay", rec.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r));
    assert!(text(&r).contains("did not occur 3 times"), "{}", text(&r));
}

/// Runs `splut tournament … --records rec`, failing the test (not hanging
/// it) if the run takes longer than `limit`.
fn tournament_within(args: &[&str], rec: &Path, limit: std::time::Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_splut"))
        .arg("tournament")
        .args(args)
        .args(["--records", rec.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!("the tournament stalled: {}", text(&o));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// A participant that does the handshake and then never answers `go`.
fn silent_engine() -> String {
    let script = temp("silent-engine");
    std::fs::write(
        &script,
        "#!/bin/sh\n\
         while IFS= read -r line; do\n\
           case \"$line\" in\n\
             ugi) echo 'id name silent'; echo ugiok ;;\n\
             isready) echo readyok ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("cmd={}", script.display())
}

#[test]
fn a_participant_silent_under_a_node_or_depth_limit_forfeits_at_its_timeout() {
    let silent = silent_engine();
    let cases: [(&[&str], &str); 2] = [
        // The tournament's --timeout, under a node limit.
        (
            &["--tc", "nodes=1000", "--timeout", "500"],
            "timed out (no 'bestmove' within 500 ms)",
        ),
        // The participant's own timeout=, under a depth limit.
        (
            &["--tc", "depth=3", "--timeout", "600000"],
            "timed out (no 'bestmove' within 300 ms)",
        ),
    ];
    for (i, (args, says)) in cases.iter().enumerate() {
        let rec = temp(&format!("silent-{i}.games"));
        let mut all = vec!["--engine", "name=ab", "algo=alphabeta"];
        all.extend(["--engine", "name=silent", &silent]);
        if i == 1 {
            all.push("timeout=300");
        }
        all.extend(*args);
        all.extend(["--rounds", "1"]);
        let o = tournament_within(&all, &rec, std::time::Duration::from_secs(60));
        let out = text(&o);
        assert!(o.status.success(), "{out}");
        assert!(out.contains("ab vs silent: 2-0-0"), "{out}");
        let games = records(&rec);
        assert_eq!(games.len(), 2, "{out}");
        for g in &games {
            match &g.reason {
                Reason::Forfeit { what, .. } => assert_eq!(what.to_string(), *says),
                r => panic!("game {} ended by {r}", g.number),
            }
        }
    }
}

#[test]
fn hash_tables_of_all_the_processes_at_once_must_fit_in_memory() {
    if !Path::new("/proc/meminfo").exists() {
        return;
    }
    // Each table alone may fit; four processes at once (two games of two
    // participants) cannot.
    let o = tournament(
        "--engine name=a algo=greedy --engine name=b algo=random --each hash=65536 \
         --concurrency 2 --tc depth=1 --games 2",
        &[],
        &temp("hash.games"),
    );
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains(
            "error: the engines' hash tables would take 262144 MiB at once \
             (2 games at a time × (a 1 × 65536 MiB + b 1 × 65536 MiB)), more than"
        ),
        "{out}"
    );
    assert!(out.contains("lower hash= or --concurrency"), "{out}");
}

#[test]
fn numbers_out_of_bounds_are_errors_at_the_command_line() {
    let two = "--engine algo=random --engine algo=greedy";
    for (args, says) in [
        ("--concurrency 0", "0 is not in 1..=256"),
        ("--concurrency 100000", "100000 is not in 1..=256"),
        ("--rounds 0", "0 is not in 1..=1000000"),
        ("--rounds 10000000", "10000000 is not in 1..=1000000"),
        ("--games 0", "0 is not in 1.."),
        ("--max-turns 0", "0 is not in 1..=100000"),
        ("--max-turns 4000000000", "4000000000 is not in 1..=100000"),
        ("--players 300", "300 is not in 2..=4"),
        ("--timeout 0", "0 is not in 1..=86400000"),
        ("--seed 18446744073709551616", "invalid value"),
        ("--tc movetime=99999999999999", "at most 86400000 ms"),
        ("--tc nodes=99999999999999", "at most 1000000000000 nodes"),
        ("--tc depth=101", "at most 100 steps"),
        ("--tc depth=0", "at least 1"),
        ("--tc clock=1e300", "at most 86400 s"),
        ("--tc clock=60+1e20", "at most 86400 s"),
        ("--openings random:1000000000", "not a number from 0 to 40"),
        ("--sprt 0 1e300 0.05 0.05", "between -1000 and 1000"),
        ("--sprt NaN 5 0.05 0.05", "between -1000 and 1000"),
        ("--each hash=0", "'hash=0': expected 1 to 65536 MiB"),
        ("--each hash=99999999", "expected 1 to 65536 MiB"),
        ("--each option.Hash=70000", "expected 1 to 65536 MiB"),
        (
            "--each threads=100000",
            "'threads=100000': expected 1 to 256 threads",
        ),
        ("--each timeout=0", "'timeout=0': expected 1 to 86400000 ms"),
        ("--each timeout=1e9", "expected 1 to 86400000 ms"),
    ] {
        let o = tournament(&format!("{two} {args}"), &[], &temp("bounds.games"));
        let out = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args}: {out}");
        assert!(out.contains("error"), "{args}: {out}");
        assert!(out.contains(says), "{args}: {out}");
        assert!(!out.contains("panicked"), "{args}: {out}");
    }
    // Participants and the games they make are bounded before anything is
    // scheduled.
    let many: Vec<String> = (0..65)
        .map(|i| format!("--engine name=e{i} algo=random"))
        .collect();
    let o = tournament(&many.join(" "), &[], &temp("bounds.games"));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("65 participants: at most 64"),
        "{}",
        text(&o)
    );
    let o = tournament(
        &format!("--players 4 --rounds 10 {}", many[..40].join(" ")),
        &[],
        &temp("bounds.games"),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("40 participants in 4-player games with --rounds 10 make 3655600 games"),
        "{}",
        text(&o)
    );
}

#[test]
fn the_tournament_knows_the_engines_bounds_without_depending_on_them() {
    // The tournament talks to engines through the protocol only; the few
    // numbers it knows of this engine must be the engine's own.
    use splut::tournament::participant::{BUILTIN_HASH_MIB, MAX_DEPTH};
    assert_eq!(MAX_DEPTH, u64::from(splut_engine::search::MAX_DEPTH));
    assert_eq!(
        BUILTIN_HASH_MIB,
        splut_engine::engine::Engine::new()
            .options()
            .spin(splut_engine::options::Id::Hash) as usize
    );
}

#[test]
fn a_records_file_that_holds_games_is_refused_unless_append() {
    let rec = temp("again.games");
    let args = "--engine name=a algo=random --engine name=b algo=greedy --tc depth=1 \
                --rounds 1 --max-turns 20 --no-progress";
    let first = tournament(args, &[], &rec);
    assert!(first.status.success(), "{}", text(&first));
    let before = std::fs::read_to_string(&rec).unwrap();
    assert_eq!(records(&rec).len(), 2);
    // The same tournament again would record its games twice: refused
    // before anything is played, naming the file and the way out.
    let again = tournament(args, &[], &rec);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    let t = text(&again);
    assert!(
        t.contains(&format!("{} already holds games", rec.display())),
        "{t}"
    );
    assert!(
        t.contains("another --records file") && t.contains("--append"),
        "{t}"
    );
    assert!(!t.contains("game 1/"), "{t}");
    assert_eq!(std::fs::read_to_string(&rec).unwrap(), before);
    // --append adds the games after the first run's, under its header;
    // `splut standings` then finds them twice.
    let appended = tournament(args, &["--append"], &rec);
    assert!(appended.status.success(), "{}", text(&appended));
    let after = std::fs::read_to_string(&rec).unwrap();
    assert!(after.starts_with(&before));
    assert_eq!(after.matches("[Tournament ").count(), 1);
    assert_eq!(after.matches("[Game ").count(), 4);
    let s = splut(&["standings", rec.to_str().unwrap()]);
    assert_eq!(s.status.code(), Some(2), "{}", text(&s));
    assert!(text(&s).contains("game 1 is twice"), "{}", text(&s));
    // --append keeps the header check: another tournament is refused.
    let other = tournament(&format!("{args} --seed 2"), &["--append"], &rec);
    assert_eq!(other.status.code(), Some(2), "{}", text(&other));
    assert!(
        text(&other).contains("of another tournament"),
        "{}",
        text(&other)
    );
    // A new file takes --append as well.
    let fresh = temp("fresh.games");
    let o = tournament(args, &["--append"], &fresh);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(records(&fresh).len(), 2);
}

#[test]
fn a_closed_output_pipe_ends_the_tournament_quietly() {
    use std::io::BufRead;
    let rec = temp("pipe.games");
    let mut child = Command::new(env!("CARGO_BIN_EXE_splut"))
        .args([
            "tournament",
            "--engine",
            "name=a",
            "algo=random",
            "--engine",
            "name=b",
            "algo=greedy",
            "--tc",
            "depth=1",
            "--rounds",
            "1000",
            "--max-turns",
            "20",
            "--no-progress",
            "--records",
            rec.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read the first line, then close the pipe, as `| head -1` does.
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(line.starts_with("2 players, 2 participants"), "{line}");
    drop(out);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    // It stopped: the games finished by then are recorded.
    assert!(records(&rec).len() < 2000);
}

#[test]
fn a_tiny_ladder_of_strength_levels() {
    // scripts/ladder at a tiny scale: greedy (the anchor) and two levels,
    // a gauntlet at a node limit, 2 and 3 players; every game ends by
    // play (no forfeit) and the report has the pairings' Elo.
    for players in ["2", "3"] {
        let rec = temp(&format!("ladder-{players}.games"));
        let o = tournament(
            &format!(
                "--players {players} --gauntlet --engine name=greedy algo=greedy \
                 --tc nodes=3000 --rounds 2 --seed 25 --concurrency 2"
            ),
            &[
                "--engine",
                "name=L0",
                "algo=auto",
                "option.Skill Level=0",
                "--engine",
                "name=L12",
                "algo=auto",
                "option.Skill Level=12",
            ],
            &rec,
        );
        let out = text(&o);
        assert!(o.status.success(), "{out}");
        assert!(out.contains("greedy vs L0"), "{out}");
        assert!(out.contains("greedy vs L12"), "{out}");
        let games = records(&rec);
        assert!(games.len() >= 8, "{}", games.len());
        assert!(
            games
                .iter()
                .all(|g| !matches!(g.reason, Reason::Forfeit { .. })),
            "{out}"
        );
    }
}
