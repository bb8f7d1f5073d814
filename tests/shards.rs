//! Sharded tournaments, `splut standings`, `--seatings all` and the
//! forfeit counts, run as a user runs them (node-limited, few games).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn splut(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_splut"))
        .args(args)
        .output()
        .expect("run splut")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("splut-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// `splut tournament` with whitespace-separated `args` and `extra`
/// arguments, recording to `rec`.
fn tournament_args(args: &str, extra: &[&str], rec: &Path) -> Vec<String> {
    let mut all: Vec<String> = vec!["tournament".into()];
    all.extend(args.split_whitespace().map(String::from));
    all.extend(extra.iter().map(|s| s.to_string()));
    all.extend(["--no-progress".into(), "--records".into()]);
    all.push(rec.to_str().unwrap().into());
    all
}

/// The standings the tournament printed at its end (without the records
/// line).
fn final_standings(out: &str) -> String {
    let from = out.rfind("Standings after").expect("standings printed");
    let to = out.rfind("records: ").unwrap_or(out.len());
    out[from..to].to_string()
}

/// Runs `args` whole and as 3 shards (3 processes at once), then merges
/// the shards: the merged standings are the whole run's, byte for byte.
fn shards_merge_to_the_whole(name: &str, args: &str) {
    let whole = temp(&format!("{name}-whole.games"));
    let o = splut(
        &tournament_args(args, &[], &whole)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let want = final_standings(&String::from_utf8_lossy(&o.stdout));

    let shards: Vec<PathBuf> = (0..3).map(|k| temp(&format!("{name}-{k}.games"))).collect();
    let children: Vec<_> = shards
        .iter()
        .enumerate()
        .map(|(k, rec)| {
            Command::new(env!("CARGO_BIN_EXE_splut"))
                .args(tournament_args(args, &["--shard", &format!("{k}/3")], rec))
                .output()
                .expect("run a shard")
        })
        .collect();
    for (k, c) in children.iter().enumerate() {
        assert!(c.status.success(), "shard {k}: {}", text(c));
        assert!(text(c).contains(&format!("shard {k}/3")), "{}", text(c));
    }
    let mut merge: Vec<&str> = vec!["standings", "--check"];
    // Any order of files.
    merge.extend(shards.iter().rev().map(|p| p.to_str().unwrap()));
    let m = splut(&merge);
    assert!(m.status.success(), "{}", text(&m));
    assert_eq!(String::from_utf8_lossy(&m.stdout), want, "{name}");
    assert!(String::from_utf8_lossy(&m.stderr).contains("checked: "));
    // The whole run's file merges to the same.
    let w = splut(&["standings", whole.to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&w.stdout), want);
}

#[test]
fn three_shards_merged_print_the_whole_two_player_run() {
    // 5 game pairs over 3 shards (2, 2, 1); the SPRT line is compared too
    // (a shard does not stop on its own part of the pairs).
    shards_merge_to_the_whole(
        "two",
        "--engine name=ab algo=alphabeta --engine name=gr algo=greedy --tc nodes=300 \
         --rounds 5 --seed 11 --max-turns 40 --sprt 0 5 0.05 0.05",
    );
}

#[test]
fn three_shards_merged_print_the_whole_four_player_run() {
    // 5 participants in 4-player games: 5 groups of 4 seatings per
    // opening, cut at 14 games (the last group half played), in thirds.
    shards_merge_to_the_whole(
        "four",
        "--players 4 --engine name=ab algo=alphabeta --engine name=gr algo=greedy \
         --engine name=rnd algo=random --engine name=brs algo=brs --engine name=mx algo=maxn \
         --tc nodes=200 --rounds 1 --games 14 --seed 12 --max-turns 30",
    );
}

fn run(args: &str, extra: &[&str], rec: &Path) -> Output {
    let o = splut(
        &tournament_args(args, extra, rec)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(o.status.success(), "{}", text(&o));
    o
}

#[test]
fn standings_refuse_other_schedules_and_games_twice() {
    let args = "--engine name=a algo=greedy --engine name=b algo=random --tc depth=1 \
                --rounds 2 --max-turns 20";
    let (s0, s1) = (temp("r0.games"), temp("r1.games"));
    run(&format!("{args} --seed 3"), &["--shard", "0/2"], &s0);
    run(&format!("{args} --seed 3"), &["--shard", "1/2"], &s1);
    let ok = splut(&["standings", s0.to_str().unwrap(), s1.to_str().unwrap()]);
    assert!(ok.status.success(), "{}", text(&ok));

    // Another seed is another schedule.
    let other = temp("other.games");
    run(&format!("{args} --seed 4"), &["--shard", "1/2"], &other);
    let e = splut(&["standings", s0.to_str().unwrap(), other.to_str().unwrap()]);
    assert_eq!(e.status.code(), Some(2));
    assert!(
        text(&e).contains("is not of the tournament of")
            && text(&e).contains("[Seed 3] against [Seed 4]"),
        "{}",
        text(&e)
    );
    // Another participant too.
    let more = temp("more.games");
    run(
        &format!("{args} --seed 3 --engine name=c algo=random"),
        &["--shard", "1/2"],
        &more,
    );
    let e = splut(&["standings", s0.to_str().unwrap(), more.to_str().unwrap()]);
    assert!(
        text(&e).contains("is not of the tournament of"),
        "{}",
        text(&e)
    );

    // A shard twice, under another name; the whole run with a shard.
    let copy = temp("copy.games");
    std::fs::copy(&s1, &copy).unwrap();
    let e = splut(&[
        "standings",
        s0.to_str().unwrap(),
        s1.to_str().unwrap(),
        copy.to_str().unwrap(),
    ]);
    assert_eq!(e.status.code(), Some(2));
    assert!(text(&e).contains("is twice: in "), "{}", text(&e));
    let e = splut(&["standings", s1.to_str().unwrap(), s1.to_str().unwrap()]);
    assert!(text(&e).contains("is given twice"), "{}", text(&e));

    // A file without a header, and an edited header.
    let bare = temp("bare.games");
    let body = std::fs::read_to_string(&s0).unwrap();
    let games = body.split_once("\n\n").unwrap().1;
    std::fs::write(&bare, games).unwrap();
    let e = splut(&["standings", bare.to_str().unwrap()]);
    assert!(text(&e).contains("no tournament header"), "{}", text(&e));
    // `replay` still reads it, and reads past a header.
    assert!(splut(&["replay", bare.to_str().unwrap()]).status.success());
    assert!(splut(&["replay", s0.to_str().unwrap()]).status.success());
    std::fs::write(&bare, body.replace("[Seed 3]", "[Seed 9]")).unwrap();
    let e = splut(&["standings", bare.to_str().unwrap()]);
    assert!(text(&e).contains("the header was edited"), "{}", text(&e));

    // A game moved into the wrong shard's file.
    let game2 = body
        .split("\n\n")
        .find(|g| g.starts_with("[Game "))
        .unwrap()
        .to_string();
    let wrong = temp("wrong.games");
    let s1_text = std::fs::read_to_string(&s1).unwrap();
    std::fs::write(&wrong, format!("{s1_text}{game2}\n\n")).unwrap();
    let e = splut(&["standings", wrong.to_str().unwrap()]);
    assert!(text(&e).contains("belongs to shard 0/2"), "{}", text(&e));

    // A tournament does not append to another tournament's records.
    let o = splut(
        &tournament_args(&format!("{args} --seed 4"), &["--shard", "0/2"], &s0)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("already holds games of another tournament"),
        "{}",
        text(&o)
    );
}

#[test]
fn seatings_all_schedules_every_permutation() {
    let args = "--players 3 --engine name=a algo=greedy --engine name=b algo=random \
                --engine name=c algo=random --tc depth=1 --rounds 1 --max-turns 10";
    let seatings = |extra: &[&str], name: &str| {
        let rec = temp(name);
        run(args, extra, &rec);
        let text = std::fs::read_to_string(&rec).unwrap();
        let mut s: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("[Seats "))
            .map(|l| {
                l.trim_end_matches(']')
                    .split(' ')
                    .map(|w| &w[2..])
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        s.sort();
        s
    };
    assert_eq!(
        seatings(&["--seatings", "all"], "all.games"),
        ["a b c", "a c b", "b a c", "b c a", "c a b", "c b a"]
    );
    // The default keeps one cyclic order.
    assert_eq!(seatings(&[], "rotate.games"), ["a b c", "b c a", "c a b"]);
}

#[test]
fn forfeits_are_counted_by_kind_in_the_standings() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/faulty-engine");
    let crash = format!("cmd={} crash", fixture.display());
    let illegal = format!("cmd={} illegal", fixture.display());
    let rec = temp("faulty.games");
    let o = run(
        "--engine name=ab algo=alphabeta --tc nodes=300 --rounds 1 --seed 2",
        &[
            "--engine",
            "name=crasher",
            &crash,
            "--engine",
            "name=cheat",
            &illegal,
        ],
        &rec,
    );
    let out = final_standings(&String::from_utf8_lossy(&o.stdout));
    assert!(out.contains("forfeits  time stall crash illegal"), "{out}");
    // (forfeits, time, stall, crash, illegal) of a participant's row.
    let row = |name: &str| -> Vec<u64> {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap();
        let w: Vec<u64> = line
            .split_whitespace()
            .rev()
            .take(5)
            .map(|x| x.parse().unwrap())
            .collect();
        w.into_iter().rev().collect()
    };
    let (c, i, a) = (row("crasher"), row("cheat"), row("ab"));
    // Each loses both games against ab; between them, whoever moves first.
    assert_eq!(c[0] + i[0], 6, "{out}");
    assert_eq!(c, vec![c[0], 0, 0, c[0], 0], "{out}");
    assert_eq!(i, vec![i[0], 0, 0, 0, i[0]], "{out}");
    assert_eq!(a, vec![0, 0, 0, 0, 0], "{out}");
    // And so does the merge of the file.
    let m = splut(&["standings", rec.to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&m.stdout), out);
}
