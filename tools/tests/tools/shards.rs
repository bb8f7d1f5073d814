//! Sharded tournaments, `splut standings`, `--seatings all` and the
//! forfeit counts, run as a user runs them (node-limited, few games).

use crate::support::{splut, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

fn temp(name: &str) -> PathBuf {
    crate::support::temp("shards", name)
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

/// A tournament played whole and as 3 shards (3 processes at once).
struct Played {
    /// The standings the whole run printed at its end.
    whole: String,
    /// The shards' records files, `name-K.games`; tests damage copies.
    shards: Vec<PathBuf>,
}

/// Plays `args` whole and as 3 shards.
fn play(name: &str, args: &str) -> Played {
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
    // The whole run's file merges to the same.
    let w = splut(&["standings", whole.to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&w.stdout), want, "{}", text(&w));

    let shards: Vec<PathBuf> = (0..3).map(|k| temp(&format!("{name}-{k}.games"))).collect();
    let children: Vec<_> = shards
        .iter()
        .enumerate()
        .map(|(k, rec)| {
            Command::new(env!("CARGO_BIN_EXE_splut"))
                .args(tournament_args(args, &["--shard", &format!("{k}/3")], rec))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("run a shard")
        })
        .collect();
    for (k, c) in children.into_iter().enumerate() {
        let c = c.wait_with_output().expect("a shard ends");
        assert!(c.status.success(), "shard {k}: {}", text(&c));
        assert!(text(&c).contains(&format!("shard {k}/3")), "{}", text(&c));
    }
    Played {
        whole: want,
        shards,
    }
}

/// 2 players: 5 game pairs over 3 shards (games 1-2 and 7-8, 3-4 and
/// 9-10, 5-6), with an SPRT line.
fn two() -> &'static Played {
    static P: OnceLock<Played> = OnceLock::new();
    P.get_or_init(|| {
        play(
            "two",
            "--engine name=ab algo=alphabeta --engine name=gr algo=greedy --tc nodes=300 \
             --rounds 5 --seed 11 --max-turns 40 --sprt 0 5 0.05 0.05",
        )
    })
}

/// 4 players: 5 participants, 5 groups of 4 seatings per opening, cut at
/// 14 games (the last group half played): games 1-4 and 13-14, 5-8, 9-12.
fn four() -> &'static Played {
    static P: OnceLock<Played> = OnceLock::new();
    P.get_or_init(|| {
        play(
            "four",
            "--players 4 --engine name=ab algo=alphabeta --engine name=gr algo=greedy \
             --engine name=rnd algo=random --engine name=brs algo=brs --engine name=mx algo=maxn \
             --tc nodes=200 --rounds 1 --games 14 --seed 12 --max-turns 30",
        )
    })
}

/// `splut standings` of `files` with `flags`.
fn standings(flags: &[&str], files: &[&PathBuf]) -> Output {
    let mut args: Vec<&str> = vec!["standings"];
    args.extend(flags);
    args.extend(files.iter().map(|p| p.to_str().unwrap()));
    splut(&args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Copies of a tournament's shard files for one test to damage.
fn copies(p: &Played, tag: &str) -> Vec<PathBuf> {
    p.shards
        .iter()
        .enumerate()
        .map(|(k, from)| {
            let to = temp(&format!("{tag}-{k}.games"));
            std::fs::copy(from, &to).unwrap();
            to
        })
        .collect()
}

/// The numbers of the games in a records file, in file order.
fn game_numbers(path: &Path) -> Vec<usize> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("[Game ")?.strip_suffix(']')?.parse().ok())
        .collect()
}

/// Sorted numbers as ranges: `3-4, 9-10, 12`.
fn ranges(numbers: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            numbers[i].to_string()
        } else {
            format!("{}-{}", numbers[i], numbers[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

/// 3 shards merged (checked, by default and with the old `--check`) print
/// the whole run's standings, byte for byte, in any order of the files.
fn shards_merge_to_the_whole(p: &Played) {
    let files: Vec<&PathBuf> = p.shards.iter().rev().collect();
    for flags in [&[][..], &["--check"]] {
        let m = standings(flags, &files);
        assert_eq!(m.status.code(), Some(0), "{}", text(&m));
        assert_eq!(stdout(&m), p.whole);
        assert!(stderr(&m).contains("checked: "), "{}", stderr(&m));
    }
}

#[test]
fn three_shards_merged_print_the_whole_two_player_run() {
    // The SPRT line is compared too (a shard does not stop on its own
    // part of the pairs).
    shards_merge_to_the_whole(two());
}

#[test]
fn three_shards_merged_print_the_whole_four_player_run() {
    shards_merge_to_the_whole(four());
}

/// A shard's file not given, then also a shard cut short: no standings
/// and exit code 3, every missing game listed by shard; `--partial`
/// prints the standings of the games found.
fn missing_games_are_refused_unless_partial(p: &Played, tag: &str) {
    let files = copies(p, tag);
    let gone = game_numbers(&files[1]);
    let total: usize = files.iter().map(|f| game_numbers(f).len()).sum();
    let left = [&files[0], &files[2]];
    let o = standings(&[], &left);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert_eq!(stdout(&o), "", "no standings of an incomplete tournament");
    let err = stderr(&o);
    let line = format!(
        "shard 1/3 (no file given): all its {} games: {}",
        gone.len(),
        ranges(&gone)
    );
    assert!(err.contains(&line), "{line}\n{err}");
    assert!(err.contains("--partial"), "{err}");
    assert!(!err.contains("maybe more"), "{err}");

    let o = standings(&["--partial"], &left);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let found = total - gone.len();
    assert!(
        stdout(&o).starts_with(&format!("Standings after {found} games")),
        "{}",
        text(&o)
    );
    assert!(stderr(&o).contains(&line), "{}", stderr(&o));

    // Shard 2 stopped before its last game.
    let body = std::fs::read_to_string(&files[2]).unwrap();
    let last_game = body.rfind("[Game ").unwrap();
    std::fs::write(&files[2], &body[..last_game]).unwrap();
    let lost = *game_numbers(&p.shards[2]).last().unwrap();
    let all = game_numbers(&p.shards[2]).len();
    let o = standings(&[], &left);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let err = stderr(&o);
    assert!(err.contains(&line), "{err}");
    let cut = format!(
        "shard 2/3 ({}): 1 of its {all} games: {lost}",
        files[2].display()
    );
    assert!(err.contains(&cut), "{cut}\n{err}");
}

#[test]
fn a_missing_shard_is_refused_unless_partial_two_players() {
    missing_games_are_refused_unless_partial(two(), "missing2");
}

#[test]
fn a_missing_shard_is_refused_unless_partial_four_players() {
    missing_games_are_refused_unless_partial(four(), "missing4");
}

/// The 1-based line of the first line of `text` that `pick` takes, and
/// that line.
fn find_line(text: &str, pick: impl Fn(&str) -> bool) -> (usize, &str) {
    text.lines()
        .enumerate()
        .find(|(_, l)| pick(l))
        .map(|(i, l)| (i + 1, l))
        .unwrap()
}

/// The game whose lines include line `at`: its number and first line.
fn game_at(text: &str, at: usize) -> (usize, usize) {
    text.lines()
        .enumerate()
        .take(at)
        .filter_map(|(i, l)| {
            Some((
                l.strip_prefix("[Game ")?.strip_suffix(']')?.parse().ok()?,
                i + 1,
            ))
        })
        .last()
        .unwrap()
}

/// One result reversed and one step edited: refused by default (exit 1,
/// the line and the reason, no standings), the same with `--check`;
/// `--partial` prints standings without those games; `--no-check` does
/// not replay, so it counts the edited result.
fn edited_games_are_refused(p: &Played, tag: &str) {
    let files = copies(p, tag);
    let all: Vec<&PathBuf> = files.iter().collect();
    // The first decisive result of shard 0, places reversed.
    let body = std::fs::read_to_string(&files[0]).unwrap();
    let (at, result) = find_line(&body, |l| l.starts_with("[Result ") && l.contains('>'));
    let places = &result["[Result ".len()..result.len() - 1];
    let mut reversed: Vec<&str> = places.split(" > ").collect();
    reversed.reverse();
    let reversed = reversed.join(" > ");
    let edited = body.replacen(result, &format!("[Result {reversed}]"), 1);
    std::fs::write(&files[0], &edited).unwrap();
    let (n, start) = game_at(&body, at);
    let says = format!(
        "{}: game {n} (line {start}): INVALID: line {at}: the result says {reversed}, \
         the game gives {places}",
        files[0].display()
    );
    // The first step of shard 1's first game played backwards.
    let body1 = std::fs::read_to_string(&files[1]).unwrap();
    let (turn_at, turn) = find_line(&body1, |l| l.len() > 2 && l.as_bytes()[1] == b' ');
    let step = &turn[2..6];
    let backwards = format!("{}{}{}", &turn[..2], &step[2..], &step[..2]);
    std::fs::write(
        &files[1],
        body1.replacen(turn, &format!("{backwards}{}", &turn[6..]), 1),
    )
    .unwrap();
    let (n1, start1) = game_at(&body1, turn_at);
    let says1 = format!(
        "{}: game {n1} (line {start1}): INVALID: line {turn_at}: turn 1: ",
        files[1].display()
    );

    for flags in [&[][..], &["--check"]] {
        let o = standings(flags, &all);
        assert_eq!(o.status.code(), Some(1), "{flags:?}: {}", text(&o));
        assert_eq!(stdout(&o), "", "{flags:?}: no standings with invalid games");
        let err = stderr(&o);
        assert!(err.contains(&says), "{says}\n{err}");
        assert!(err.contains(&says1), "{says1}\n{err}");
        assert!(err.contains("2 invalid"), "{err}");
    }

    // `--partial`: the standings leave the invalid games out, as if they
    // were not in the files.
    let o = standings(&["--partial"], &all);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let without: Vec<PathBuf> = [(&files[0], n), (&files[1], n1)]
        .iter()
        .map(|(f, n)| {
            let body = std::fs::read_to_string(f).unwrap();
            let kept: Vec<&str> = body
                .split_inclusive("\n\n")
                .filter(|g| !g.starts_with(&format!("[Game {n}]\n")))
                .collect();
            let to = PathBuf::from(format!("{}-without", f.display()));
            std::fs::write(&to, kept.concat()).unwrap();
            to
        })
        .collect();
    let w = standings(&["--partial"], &[&without[0], &without[1], &files[2]]);
    assert_eq!(w.status.code(), Some(0), "{}", text(&w));
    assert_eq!(stdout(&o), stdout(&w));
    assert_ne!(stdout(&o), p.whole);

    // `--no-check` reads the results as they are.
    let o = standings(&["--no-check"], &all);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_ne!(stdout(&o), p.whole, "the edited result is counted");
    assert!(stderr(&o).contains("not replayed"), "{}", stderr(&o));
}

#[test]
fn an_edited_result_or_step_is_refused_two_players() {
    edited_games_are_refused(two(), "edited2");
}

#[test]
fn an_edited_result_or_step_is_refused_four_players() {
    edited_games_are_refused(four(), "edited4");
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

/// Each participant's games and points in a standings table, by name.
fn points(report: &str) -> Vec<(String, usize, f64)> {
    let mut rows: Vec<(String, usize, f64)> = report
        .lines()
        .skip_while(|l| !l.contains("# name"))
        .skip(1)
        .take_while(|l| l.starts_with("  ") && !l.contains("name"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            // rank, name, games, places (2 with 2 players), points.
            (
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[5].parse().unwrap(),
            )
        })
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    rows
}

/// The game-pair pentanomial of a 2-player report's pairwise line.
fn pentanomial(report: &str) -> [u32; 5] {
    let from = report.find("pairs [").expect("a pentanomial") + 7;
    let to = from + report[from..].find(']').unwrap();
    let v: Vec<u32> = report[from..to]
        .split(", ")
        .map(|x| x.parse().unwrap())
        .collect();
    v.try_into().unwrap()
}

#[test]
fn runs_of_the_same_participants_pool_and_others_are_refused() {
    let args = "--engine name=ab algo=alphabeta --engine name=gr algo=greedy --tc nodes=300 \
                --rounds 3 --max-turns 40";
    let (a, b) = (temp("pool-a.games"), temp("pool-b.games"));
    let ra = run(&format!("{args} --seed 21 --sprt 0 5 0.05 0.05"), &[], &a);
    let rb = run(&format!("{args} --seed 22"), &[], &b);
    let (sa, sb) = (final_standings(&stdout(&ra)), final_standings(&stdout(&rb)));

    // Without --pool two seeds are two tournaments: refused.
    let e = standings(&[], &[&a, &b]);
    assert_eq!(e.status.code(), Some(2), "{}", text(&e));
    assert!(
        text(&e).contains("is not of the tournament of"),
        "{}",
        text(&e)
    );

    // Pooled: every game of both, the places and points summed, the
    // game pairs of both (none across the runs), no SPRT.
    let o = standings(&["--pool"], &[&b, &a]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let pooled = stdout(&o);
    assert!(pooled.starts_with("Standings after 12 games"), "{pooled}");
    let want: Vec<(String, usize, f64)> = points(&sa)
        .into_iter()
        .zip(points(&sb))
        .map(|(x, y)| (x.0, x.1 + y.1, x.2 + y.2))
        .collect();
    assert_eq!(points(&pooled), want, "{pooled}");
    let (pa, pb) = (pentanomial(&sa), pentanomial(&sb));
    let sum: Vec<u32> = pa.iter().zip(pb).map(|(x, y)| x + y).collect();
    assert_eq!(pentanomial(&pooled).to_vec(), sum, "{pooled}");
    assert_eq!(sum.iter().sum::<u32>(), 6, "three pairs a run");
    assert!(sa.contains("SPRT") && !pooled.contains("SPRT"), "{pooled}");
    assert!(
        stderr(&o).contains("pooled 2 tournaments (seeds 22, 21)"),
        "{}",
        stderr(&o)
    );
    // One tournament alone is what it printed, pooled or not.
    let alone = standings(&["--pool"], &[&a]);
    assert_eq!(stdout(&alone), sa);

    // Other participants (another time control) are refused.
    let other = temp("pool-other.games");
    run(
        &args
            .replace("nodes=300", "nodes=400")
            .replace("--rounds 3", "--rounds 1 --seed 23"),
        &[],
        &other,
    );
    let e = standings(&["--pool"], &[&a, &other]);
    assert_eq!(e.status.code(), Some(2), "{}", text(&e));
    assert!(
        text(&e).contains("is not the participants of") && text(&e).contains("tc=nodes=400"),
        "{}",
        text(&e)
    );

    // A run's missing games are named with its seed; --partial counts
    // the rest.
    let half = temp("pool-half.games");
    run(&format!("{args} --seed 24"), &["--shard", "0/2"], &half);
    let e = standings(&["--pool"], &[&a, &half]);
    assert_eq!(e.status.code(), Some(3), "{}", text(&e));
    assert!(stderr(&e).contains("seed 24: shard 1/2"), "{}", stderr(&e));
    let p = standings(&["--pool", "--partial"], &[&a, &half]);
    assert_eq!(p.status.code(), Some(0), "{}", text(&p));
    let n = 6 + game_numbers(&half).len();
    assert!(
        stdout(&p).starts_with(&format!("Standings after {n} games")),
        "{}",
        stdout(&p)
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
    let fixture = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tools/tests/fixtures/faulty-engine");
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

/// `scripts/shard-slurm --merge <dir>` runs $SPLUT (not a splut on PATH)
/// and keeps the standings and the merge's report in two files; a missing
/// shard leaves the standings empty and fails the job.
#[test]
fn the_slurm_merge_job_runs_the_given_splut_and_keeps_standings_and_report_apart() {
    let p = two();
    let dir = temp("slurm-merge");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (k, from) in p.shards.iter().enumerate() {
        std::fs::copy(from, dir.join(format!("shard-{k}-of-3.games"))).unwrap();
    }
    let script = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("scripts/shard-slurm");
    let merge = |splut: Option<&str>| {
        let mut c = Command::new("bash");
        c.arg(&script).arg("--merge").arg(&dir);
        // No splut on PATH: only the one given runs.
        c.env("PATH", "/usr/bin:/bin").env_remove("SPLUT");
        if let Some(s) = splut {
            c.env("SPLUT", s);
        }
        c.output().expect("run bash")
    };
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let o = merge(Some(env!("CARGO_BIN_EXE_splut")));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(read("standings.txt"), p.whole);
    let log = read("standings.log");
    assert!(
        log.contains("3 files, 10 of the 10 scheduled games") && log.contains("checked: "),
        "{log}"
    );
    assert!(!log.contains("Standings after"), "{log}");

    std::fs::remove_file(dir.join("shard-1-of-3.games")).unwrap();
    let o = merge(Some(env!("CARGO_BIN_EXE_splut")));
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert_eq!(read("standings.txt"), "");
    assert!(
        read("standings.log").contains("shard 1/3 (no file given): all its 4 games: 3-4, 9-10"),
        "{}",
        read("standings.log")
    );

    let o = merge(None);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("set SPLUT="), "{}", text(&o));
}

/// A participant's score (percent) in a standings report.
fn score_of(report: &str, name: &str) -> f64 {
    report
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.get(1) == Some(&name))
        .and_then(|f| f.iter().find_map(|x| x.strip_suffix('%')?.parse().ok()))
        .unwrap_or_else(|| panic!("no score for {name} in {report}"))
}

#[test]
fn two_tournaments_of_the_same_games_compare_game_by_game() {
    let field = "--players 3 --engine name=b algo=random --engine name=c algo=random \
                 --tc depth=1 --rounds 3 --max-turns 30";
    let (a, b) = (temp("vs-a.games"), temp("vs-b.games"));
    let ra = run(
        &format!("--engine name=greedy algo=greedy {field} --seed 31"),
        &[],
        &a,
    );
    let rb = run(
        &format!("--engine name=rand algo=random {field} --seed 31"),
        &[],
        &b,
    );
    let (sa, sb) = (final_standings(&stdout(&ra)), final_standings(&stdout(&rb)));
    let (a_s, b_s) = (a.to_str().unwrap(), b.to_str().unwrap());

    let o = splut(&["standings", a_s, "--vs", b_s]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = stdout(&o);
    // A's standings first, as without --vs, then the comparison.
    assert!(out.starts_with(&sa), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains("over the 9 games both played"))
        .unwrap_or_else(|| panic!("{out}"));
    let (x, y) = (score_of(&sa, "greedy"), score_of(&sb, "rand"));
    assert!(
        line.contains(&format!("greedy {x:.1}%, rand {y:.1}%")),
        "{line} against {x} and {y}"
    );
    let diff: f64 = line
        .split(": ")
        .nth(1)
        .and_then(|d| d.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!((diff - (x - y)).abs() < 0.11, "{line}: {x} - {y}");
    assert!(out.contains(&format!("Paired against {b_s}")), "{out}");

    // Another seed plays other games: refused, with the difference.
    let other = temp("vs-other.games");
    run(
        &format!("--engine name=rand algo=random {field} --seed 32"),
        &[],
        &other,
    );
    let e = splut(&["standings", a_s, "--vs", other.to_str().unwrap()]);
    assert_eq!(e.status.code(), Some(2), "{}", text(&e));
    assert!(
        stderr(&e).contains("not the same games: [Seed 31] against [Seed 32]"),
        "{}",
        stderr(&e)
    );
}
