//! `splut datagen` and its reader: round trips, reproducibility, the
//! filters, and errors instead of panics.

use crate::support::splut;
use splut::datagen::{Config, Sample, read_files, read_files_with, run};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn temp(name: &str) -> PathBuf {
    crate::support::temp("datagen", name)
}

/// `splut datagen` with small settings and `args`, into `out`.
fn datagen(args: &str, out: &Path) -> Output {
    let mut all = vec!["datagen", "--nodes", "200", "--no-progress"];
    all.extend(args.split_whitespace());
    all.extend(["--output", out.to_str().unwrap()]);
    let o = splut(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn config(players: usize, games: u64) -> Config {
    Config {
        players,
        nodes: 200,
        opening_steps: 6,
        max_turns: 200,
        per_game: 5,
        keep_kills: false,
        pv_labels: false,
        auto: false,
        multi_net: None,
        seed: 3,
        threads: 1,
        hash_mib: 1,
        games: Some(games),
        positions: None,
        format: splut::datagen::Format::Text,
        net: Some(splut_engine::eval::nnue::default_network()),
    }
}

#[test]
fn written_samples_read_back_equal() {
    for players in [2, 3] {
        let cfg = config(players, 3);
        let mut bytes = Vec::new();
        let mut written = Vec::new();
        let stats = run(
            &cfg,
            &mut bytes,
            &Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        )
        .unwrap();
        let text = String::from_utf8(bytes).unwrap();
        for line in text.lines() {
            written.push(Sample::parse_line(line).unwrap());
        }
        assert_eq!(stats.written as usize, written.len());
        assert!(!written.is_empty());
        let path = temp(&format!("round-{players}.txt"));
        std::fs::write(&path, &text).unwrap();
        let read = read_files(&[&path]).unwrap();
        assert_eq!(read, written);
        let again: String = read.iter().map(|s| s.to_line() + "\n").collect();
        assert_eq!(again, text);
        for s in &read {
            assert!(s.position.players_left() as usize <= players);
            assert_eq!(s.places.iter().map(Vec::len).sum::<usize>(), players);
        }
    }
}

#[test]
fn a_seed_gives_the_same_bytes_with_any_thread_count() {
    let (a, b, c, d) = (temp("a.txt"), temp("b.txt"), temp("c.txt"), temp("d.txt"));
    datagen("--games 6 --seed 9", &a);
    datagen("--games 6 --seed 9", &b);
    datagen("--games 6 --seed 9 --threads 3", &c);
    datagen("--games 6 --seed 10", &d);
    let read = |p: &Path| std::fs::read(p).unwrap();
    assert_eq!(read(&a), read(&b));
    assert_eq!(read(&a), read(&c));
    assert_ne!(read(&a), read(&d));
    // --positions: the first N lines of the same stream, whatever the
    // threads.
    let (e, f) = (temp("e.txt"), temp("f.txt"));
    let o = datagen("--positions 7 --seed 9", &e);
    datagen("--positions 7 --seed 9 --threads 2", &f);
    assert_eq!(read(&e), read(&f));
    let lines = |p: &Path| -> Vec<String> {
        String::from_utf8(read(p))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    assert_eq!(lines(&e).len(), 7);
    assert_eq!(lines(&e)[..], lines(&a)[..7]);
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(report.contains("= written"), "{report}");
}

#[test]
fn kept_positions_pass_the_filters() {
    let path = temp("filters.txt");
    datagen(
        "--players 3 --games 6 --per-game 4 --opening-steps 6",
        &path,
    );
    datagen("--games 6 --per-game 4 --opening-steps 6", &path);
    let samples = read_files(&[&path]).unwrap();
    assert!(!samples.is_empty());
    let mut per_game: HashMap<(u64, u64, usize), usize> = HashMap::new();
    for s in &samples {
        assert!(!s.position.can_kill_this_turn(), "{}", s.to_line());
        assert!(!s.score.is_decided(), "{}", s.to_line());
        // Six opening steps are turns 1 to 3.
        assert!(s.turn() >= 4, "{}", s.to_line());
        let players = s.places.iter().map(Vec::len).sum();
        *per_game.entry((s.seed, s.game, players)).or_default() += 1;
    }
    assert!(per_game.values().all(|&n| n <= 4), "{per_game:?}");
    assert!(per_game.len() > 6);
}

#[test]
fn keep_kills_keeps_the_positions_with_a_kill_at_hand() {
    let path = temp("keep-kills.txt");
    let o = datagen(
        "--players 3 --games 8 --per-game 1000 --keep-kills --seed 4",
        &path,
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with('#') && text.lines().next().unwrap().contains("keep-kills"));
    let samples = read_files(&[&path]).unwrap();
    let kills = samples
        .iter()
        .filter(|s| s.position.can_kill_this_turn())
        .count();
    assert!(kills > 0, "{}", String::from_utf8_lossy(&o.stdout));
    // Proven scores are kept only with a kill at hand.
    for s in &samples {
        assert!(
            !s.score.is_decided() || s.position.can_kill_this_turn(),
            "{}",
            s.to_line()
        );
    }
    // Without the option the same games keep none of them.
    let plain = temp("no-keep-kills.txt");
    datagen("--players 3 --games 8 --per-game 1000 --seed 4", &plain);
    let fewer = read_files(&[&plain]).unwrap();
    assert_eq!(fewer.len() + kills, samples.len());
}

#[test]
fn appending_removes_a_cut_last_line_and_readers_skip_one() {
    let path = temp("cut.txt");
    datagen("--games 2", &path);
    let full = std::fs::read_to_string(&path).unwrap();
    let n = read_files(&[&path]).unwrap().len();
    // A killed run: half a line at the end.
    let last = full.lines().last().unwrap();
    std::fs::write(&path, format!("{full}{}", &last[..last.len() / 2])).unwrap();
    let mut cut = Vec::new();
    let summary = read_files_with(&[&path], &mut |s| cut.push(s)).unwrap();
    assert_eq!(cut.len(), n);
    assert_eq!(summary.truncated.len(), 1);
    datagen("--games 2", &path);
    let both = std::fs::read_to_string(&path).unwrap();
    assert_eq!(both, format!("{full}{full}"));
    assert_eq!(read_files(&[&path, &path]).unwrap().len(), 4 * n);
}

#[test]
fn bad_arguments_and_files_are_errors_not_panics() {
    let out = temp("bad.txt");
    let o = out.to_str().unwrap();
    for args in [
        vec!["--players", "5"],
        vec!["--nodes", "0"],
        vec!["--per-game", "0"],
        vec!["--games", "0"],
        vec!["--positions", "-3"],
        vec!["--opening-steps", "41"],
        vec!["--max-turns", "0"],
        vec!["--threads", "999"],
        vec!["--hash", "0"],
        vec!["--seed", "x"],
    ] {
        let mut all = vec!["datagen", "--games", "1", "--output", o];
        all.extend(&args);
        let r = splut(&all);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let dir = std::env::temp_dir();
    let r = splut(&["datagen", "--games", "1", "--output", dir.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: "), "{err}");

    let missing = temp("missing.txt");
    let e = read_files(&[&missing]).unwrap_err();
    assert!(e.contains("missing.txt"), "{e}");
    let bad = temp("malformed.txt");
    let good = config(2, 1);
    let mut bytes = Vec::new();
    run(
        &good,
        &mut bytes,
        &Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    )
    .unwrap();
    let first = String::from_utf8(bytes)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    for (text, line) in [
        (format!("# c\n{first}\nnonsense\n"), 3),
        (format!("{}\n", first.replace(" | cp ", " | cp x")), 1),
        (format!("{}\n", first.replacen('/', "/9", 1)), 1),
        (format!("{first}\n\u{0}\u{1}\n"), 2),
    ] {
        std::fs::write(&bad, text).unwrap();
        let e = read_files(&[&bad]).unwrap_err();
        assert!(e.contains(&format!("malformed.txt line {line}: ")), "{e}");
    }
    let mut cfg = config(5, 1);
    let e = run(
        &cfg,
        &mut Vec::new(),
        &Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    );
    assert!(e.is_err());
    cfg.players = 2;
    cfg.per_game = 0;
    let e = run(
        &cfg,
        &mut Vec::new(),
        &Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    );
    assert!(e.is_err());
}

#[test]
fn games_at_the_turn_limit_are_draws_among_the_seats_left() {
    let cfg = Config {
        max_turns: 5,
        ..config(2, 4)
    };
    let mut bytes = Vec::new();
    let stats = run(
        &cfg,
        &mut bytes,
        &Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    )
    .unwrap();
    assert!(stats.turn_limit > 0, "{stats:?}");
    assert_eq!(stats.games, 4);
    let text = String::from_utf8(bytes).unwrap();
    for line in text.lines() {
        let s = Sample::parse_line(line).unwrap();
        assert!(s.turn() <= 5, "{line}");
        if s.places.len() == 1 {
            assert_eq!(s.result_for(s.side_to_move()), Some(0.5), "{line}");
        }
    }
    assert!(
        text.contains(" | r = g | ") || text.contains(" | g = r | "),
        "{text}"
    );
}

#[test]
fn the_evaluation_is_chosen_and_a_bad_network_is_an_error() {
    let read = |path: &Path| std::fs::read_to_string(path).unwrap();
    let net = temp("default.nnue");
    std::fs::write(&net, splut_engine::eval::nnue::default_network().to_bytes()).unwrap();
    let (nnue, hand, named) = (temp("nnue.txt"), temp("hand.txt"), temp("named.txt"));
    for (args, out) in [
        ("--games 2 --eval nnue", &nnue),
        ("--games 2", &hand),
        (
            &*format!("--games 2 --eval nnue --net {}", net.display()),
            &named,
        ),
    ] {
        let _ = std::fs::remove_file(out);
        let o = datagen(args, out);
        assert!(o.status.success(), "{args}");
    }
    // The compiled-in network is the one --net names here; the
    // hand-written evaluation (the default) plays other games.
    assert_eq!(read(&nnue), read(&named));
    assert_ne!(read(&nnue), read(&hand));
    let bad = temp("bad.nnue");
    let mut bytes = splut_engine::eval::nnue::default_network().to_bytes();
    bytes.truncate(100);
    std::fs::write(&bad, &bytes).unwrap();
    let out = temp("never.txt");
    for args in [
        format!("--games 1 --eval nnue --net {}", bad.display()),
        format!("--games 1 --eval hand --net {}", net.display()),
        "--games 1 --eval best".to_string(),
    ] {
        let mut all = vec!["datagen", "--output", out.to_str().unwrap()];
        all.extend(args.split_whitespace());
        let o = splut(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args}: {err}");
        assert!(err.starts_with("error"), "{args}: {err}");
        assert!(!err.contains("panicked"), "{args}: {err}");
        if args.contains("bad.nnue") && !args.contains("hand") {
            assert!(err.contains("truncated"), "{err}");
        }
    }
    assert!(!out.exists(), "no data before the network is read");
}
