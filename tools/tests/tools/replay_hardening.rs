//! `splut replay` on damaged records files: a bad game is reported with its
//! line and reason, the other games are still validated, and the exit code
//! says that something was wrong.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn replay(path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_splut"))
        .arg("replay")
        .arg(path)
        .output()
        .expect("run splut")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

fn temp(name: &str) -> PathBuf {
    crate::support::temp("replay", name)
}

/// A real 2-player game (red against green), numbered `n`, ending with a
/// blank line.
fn game(n: usize) -> String {
    let data = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tools/tests/data/repetition-mid-turn.games");
    let g = std::fs::read_to_string(data).unwrap();
    format!(
        "{}\n\n",
        g.trim_end().replacen("[Game 1]", &format!("[Game {n}]"), 1)
    )
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).unwrap()].matches('\n').count() + 1
}

#[test]
fn an_invalid_utf8_byte_spoils_its_game_only() {
    let (a, b, c) = (game(1), game(2), game(3));
    let mut bytes = a.clone().into_bytes();
    // A byte that is never UTF-8, in the middle of a turn of game 2.
    let b_turn = b.find("\ng ").unwrap() + 3;
    bytes.extend_from_slice(&b.as_bytes()[..b_turn]);
    bytes.push(0xFF);
    bytes.extend_from_slice(&b.as_bytes()[b_turn..]);
    bytes.extend_from_slice(c.as_bytes());
    let path = temp("utf8.games");
    std::fs::write(&path, &bytes).unwrap();
    let o = replay(&path);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let bad_line = a.lines().count() + line_of(&b, "\ng ") + 1;
    let start_b = a.lines().count() + 1;
    assert!(
        out.contains(&format!(
            "game 2 (line {start_b}): INVALID: line {bad_line}: not valid UTF-8"
        )),
        "{out}"
    );
    assert!(out.contains("3 games, 2 valid, 1 invalid"), "{out}");
    assert!(
        !out.contains("game 1 ") && !out.contains("game 3 "),
        "{out}"
    );
}

#[test]
fn seats_that_are_not_the_games_are_refused() {
    let good = game(1);
    let cases = [
        (
            "[Seats r=maxn g=mcts]",
            "[Seats r=maxn y=mcts]",
            "names seats r y",
        ),
        ("[Seats r=maxn g=mcts]", "[Seats ]", "[Seats] names no seat"),
        (
            "[Seats r=maxn g=mcts]",
            "[Seats r=maxn]",
            "names seats r but",
        ),
        (
            "[Seats r=maxn g=mcts]",
            "[Seats r=maxn g=mcts r=ab]",
            "names seat r twice",
        ),
        ("[Seats r=maxn g=mcts]", "[Seats r= g=mcts]", "has no name"),
        (
            "[Players 2]",
            "[Players 3]",
            "but the game is played by r y g",
        ),
        ("[Players 2]", "[Players 9]", "expected 2, 3 or 4"),
    ];
    for (from, to, says) in cases {
        let tampered = good.replacen(from, to, 1);
        assert_ne!(tampered, good);
        let path = temp("seats.games");
        std::fs::write(&path, format!("{tampered}{}", game(2))).unwrap();
        let o = replay(&path);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{to}: {out}");
        assert!(out.contains("game 1 (line 1): INVALID"), "{to}: {out}");
        assert!(out.contains(says), "{to}: {out}");
        assert!(out.contains("2 games, 1 valid, 1 invalid"), "{to}: {out}");
    }
}

#[test]
fn a_repeated_tag_is_refused() {
    let good = game(1);
    for tag in [
        "[Players 2]",
        "[Seats r=maxn g=mcts]",
        "[Reason repetition 3]",
        "[Result r = g]",
        "[Game 1]",
    ] {
        // The tag again, after the others.
        let tampered = good.replacen(
            "[Reason repetition 3]\n",
            &format!("[Reason repetition 3]\n{tag}\n"),
            1,
        );
        let name = tag[1..].split(' ').next().unwrap();
        let path = temp("repeated.games");
        std::fs::write(&path, format!("{}{tampered}", game(7))).unwrap();
        let o = replay(&path);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{tag}: {out}");
        let first = good.lines().count() + line_of(&tampered, &format!("[{name} "));
        let second = good.lines().count() + line_of(&tampered, "[Reason ") + 1;
        assert!(
            out.contains(&format!(
                "INVALID: line {second}: a second [{name}] tag (the first is on line {first})"
            )),
            "{tag}: {out}"
        );
        assert!(out.contains("2 games, 1 valid, 1 invalid"), "{tag}: {out}");
    }
}

#[test]
fn an_overlong_line_is_not_read_whole_and_spoils_its_game_only() {
    let a = game(1);
    let b = game(2).replacen("[Opening ", &format!("[Opening {}", "x".repeat(3 << 20)), 1);
    let path = temp("long.games");
    std::fs::write(&path, format!("{a}{b}{}", game(3))).unwrap();
    let o = replay(&path);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let line = a.lines().count() + line_of(&b, "[Opening ");
    assert!(
        out.contains(&format!("line {line}: longer than 1048576 bytes")),
        "{out}"
    );
    assert!(out.contains("3 games, 2 valid, 1 invalid"), "{out}");
}

#[test]
fn games_run_together_and_crlf_line_ends() {
    // A lost blank line glues two games: the second [Game] tag says so.
    let glued = format!("{}{}", game(1).trim_end(), "\n") + &game(2) + &game(3);
    let path = temp("glued.games");
    std::fs::write(&path, glued).unwrap();
    let o = replay(&path);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("a second [Game] tag"), "{out}");
    assert!(out.contains("2 games, 1 valid, 1 invalid"), "{out}");
    // Windows line ends are fine.
    let crlf = (game(1) + &game(2)).replace('\n', "\r\n");
    std::fs::write(&path, crlf).unwrap();
    let o = replay(&path);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("2 games, 2 valid, 0 invalid"),
        "{}",
        text(&o)
    );
}

#[test]
fn an_unreadable_file_is_an_error() {
    let o = replay(&temp("does-not-exist.games"));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("error: cannot read"), "{}", text(&o));
}

/// A small tournament's records file (with its header), `players` per
/// game.
fn played(players: u8, name: &str) -> PathBuf {
    let rec = temp(name);
    let _ = std::fs::remove_file(&rec);
    let o = Command::new(env!("CARGO_BIN_EXE_splut"))
        .args([
            "tournament",
            "--players",
            &players.to_string(),
            "--engine",
            "name=a",
            "algo=greedy",
            "--engine",
            "name=b",
            "algo=random",
            "--tc",
            "depth=1",
            "--rounds",
            "2",
            "--max-turns",
            "40",
            "--seed",
            "5",
            "--no-progress",
            "--records",
        ])
        .arg(&rec)
        .output()
        .expect("run splut");
    assert!(o.status.success(), "{}", text(&o));
    rec
}

/// A result reversed and a step played backwards are refused: exit 1,
/// the game, the line of the edit and the reason.
fn an_edited_result_or_step_is_refused_with_its_line(players: u8) {
    let rec = played(players, &format!("edited-{players}.games"));
    let good = std::fs::read_to_string(&rec).unwrap();
    let games = good.matches("\n[Game ").count();
    let o = replay(&rec);
    assert!(o.status.success(), "{}", text(&o));
    // The file up to its last game, and the last game.
    let (before, last) = good.split_at(good.rfind("\n[Game ").unwrap() + 1);
    let lines_before = before.lines().count();
    let number = |game: &str| -> usize {
        game["[Game ".len()..]
            .split(']')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };

    // The first decisive result before the last game, places reversed.
    let result = before
        .lines()
        .find(|l| l.starts_with("[Result ") && l.contains('>'))
        .expect("a decisive game");
    let places = &result["[Result ".len()..result.len() - 1];
    let mut reversed: Vec<&str> = places.split(" > ").collect();
    reversed.reverse();
    let reversed = reversed.join(" > ");
    let at = line_of(before, result);
    let game_start = before[..before.find(result).unwrap()]
        .rfind("[Game ")
        .unwrap();
    let start = line_of(before, &before[game_start..]);
    let says = format!(
        "game {} (line {start}): INVALID: line {at}: the result says {reversed}, \
         the game gives {places}",
        number(&before[game_start..])
    );
    let before = before.replacen(result, &format!("[Result {reversed}]"), 1);

    // The first step of the last game played backwards.
    let turn = last
        .lines()
        .find(|l| l.as_bytes().get(1) == Some(&b' '))
        .unwrap();
    let backwards = format!("{}{}{}{}", &turn[..2], &turn[4..6], &turn[2..4], &turn[6..]);
    let turn_at = lines_before + line_of(last, &format!("{turn}\n"));
    let says_turn = format!(
        "game {} (line {}): INVALID: line {turn_at}: turn 1: ",
        number(last),
        lines_before + 1
    );
    let last = last.replacen(&format!("\n{turn}\n"), &format!("\n{backwards}\n"), 1);
    std::fs::write(&rec, format!("{before}{last}")).unwrap();

    let o = replay(&rec);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains(&says), "{says}\n{out}");
    assert!(out.contains(&says_turn), "{says_turn}\n{out}");
    assert!(
        out.contains(&format!("{games} games, {} valid, 2 invalid", games - 2)),
        "{out}"
    );
}

#[test]
fn an_edited_result_or_step_is_refused_with_its_line_two_players() {
    an_edited_result_or_step_is_refused_with_its_line(2);
}

#[test]
fn an_edited_result_or_step_is_refused_with_its_line_four_players() {
    an_edited_result_or_step_is_refused_with_its_line(4);
}
