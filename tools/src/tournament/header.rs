//! The header of a records file: the tournament's canonical options, a
//! fingerprint of them and the shard, so `splut standings` can tell
//! whether files belong to one schedule and rebuild that schedule.
//!
//! ```text
//! [Tournament 5d0f3c2a9b81e764 shard 0/3]
//! [Players 2]
//! [Pairing round-robin]
//! [Seatings rotate]
//! [Openings random:4]
//! [Rounds 3]
//! [Games all]
//! [Seed 5]
//! [MaxTurns 300]
//! [Repetitions 3]
//! [SPRT none]
//! [Participant ab algo=alphabeta tc=nodes=2000 timeout=60000]
//! [Participant rnd algo=random tc=nodes=2000 timeout=60000 Hash=16]
//!
//! ```
//!
//! The fingerprint is FNV-1a (64 bits) of the lines after the first, each
//! ended by a newline: two runs with the same fingerprint play the same
//! schedule. An opening file is named by its content's fingerprint, not
//! its path, which differs between machines. The games follow the blank
//! line; a file without a header (an older splut's) still replays.

use super::participant::{ParticipantSpec, Program};
use super::schedule::{self, GameSpec, SeatingMode, Shard};
use super::stats::{Sprt, SprtModel};
use super::{Config, MAX_PARTICIPANTS};
use std::io::BufRead;

/// What starts a header's first line.
pub const START: &str = "[Tournament ";

/// Longest header line read (64 participants with long commands fit).
const MAX_HEADER_LINE: usize = 64 << 10;

/// Most header lines: the fixed ones and one per participant.
const MAX_HEADER_LINES: usize = MAX_PARTICIPANTS + 32;

/// FNV-1a, 64 bits: small, stable across builds and machines (the
/// standard library's hasher is neither promised to be).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A records file's header.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// Fingerprint of the schedule (of [`Header::lines`]).
    pub fingerprint: u64,
    /// The part of the schedule the file holds.
    pub shard: Shard,
    /// The canonical option lines (without the first), as written.
    pub lines: Vec<String>,
    /// Players per game.
    pub players: usize,
    /// Participant 0 against each other one.
    pub gauntlet: bool,
    /// How groups are seated.
    pub seatings: SeatingMode,
    /// `--rounds`.
    pub rounds: usize,
    /// `--games`.
    pub max_games: Option<usize>,
    /// Participant names, in order.
    pub names: Vec<String>,
    /// The sequential test, if any.
    pub sprt: Option<Sprt>,
}

/// The first pair of lines that differ, in order, as `a against b`.
fn first_difference<'a>(
    mine: impl Iterator<Item = &'a String>,
    theirs: impl Iterator<Item = &'a String>,
) -> Option<String> {
    mine.zip(theirs)
        .find(|(a, b)| a != b)
        .map(|(a, b)| format!("{a} against {b}"))
}

/// A participant as one canonical line: name, program, time control,
/// timeout, options (values escaped, so the line stays one line).
fn participant_line(p: &ParticipantSpec) -> String {
    let program = match &p.program {
        Program::Builtin { algorithm } => format!("algo={algorithm}"),
        Program::External { command } => {
            format!("cmd=\"{}\"", command.join(" ").escape_debug())
        }
    };
    let mut line = format!(
        "[Participant {} {program} tc={} timeout={}",
        p.name,
        p.tc,
        p.timeout.as_millis()
    );
    if p.ponder {
        line.push_str(" ponder=on");
    }
    for (k, v) in &p.options {
        line.push_str(&format!(" {}={}", k.escape_debug(), v.escape_debug()));
    }
    line.push(']');
    line
}

fn model_name(m: SprtModel) -> &'static str {
    match m {
        SprtModel::Normalized => "normalized",
        SprtModel::Logistic => "logistic",
    }
}

impl Header {
    /// The header of a tournament; `openings` names its openings
    /// (`random:<steps>` or `file fnv1a <hex>`).
    pub fn new(cfg: &Config, openings: &str) -> Header {
        let sprt = match &cfg.sprt {
            None => "none".to_string(),
            Some(s) => format!(
                "{} {} {} {} {}",
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                model_name(s.model)
            ),
        };
        let mut lines = vec![
            format!("[Players {}]", cfg.players),
            format!(
                "[Pairing {}]",
                if cfg.gauntlet {
                    "gauntlet"
                } else {
                    "round-robin"
                }
            ),
            format!("[Seatings {}]", cfg.seatings.name()),
            format!("[Openings {openings}]"),
            format!("[Rounds {}]", cfg.rounds),
            format!(
                "[Games {}]",
                cfg.max_games.map_or("all".to_string(), |n| n.to_string())
            ),
            format!("[Seed {}]", cfg.seed),
            format!("[MaxTurns {}]", cfg.adjudication.max_turns),
            format!("[Repetitions {}]", cfg.adjudication.repetitions),
            format!("[SPRT {sprt}]"),
        ];
        lines.extend(cfg.participants.iter().map(participant_line));
        Header {
            fingerprint: fingerprint(&lines),
            shard: cfg.shard,
            lines,
            players: cfg.players,
            gauntlet: cfg.gauntlet,
            seatings: cfg.seatings,
            rounds: cfg.rounds,
            max_games: cfg.max_games,
            names: cfg.participants.iter().map(|p| p.name.clone()).collect(),
            sprt: cfg.sprt,
        }
    }

    /// The header as text, ending with the blank line.
    pub fn to_text(&self) -> String {
        let mut s = format!("{START}{:016x} shard {}]\n", self.fingerprint, self.shard);
        for l in &self.lines {
            s.push_str(l);
            s.push('\n');
        }
        s.push('\n');
        s
    }

    /// Parses a header's lines (without the blank line).
    pub fn parse(lines: &[String]) -> Result<Header, String> {
        let first = lines.first().ok_or("an empty header")?;
        let (fp, written, shard) = parse_first_line(first)?;
        let lines: Vec<String> = lines[1..].to_vec();
        let computed = fingerprint(&lines);
        if computed != written {
            return Err(format!(
                "the fingerprint {fp} does not match the lines below it ({computed:016x}): \
                 the header was edited"
            ));
        }
        let mut h = Header {
            fingerprint: written,
            shard,
            lines: lines.clone(),
            players: 0,
            gauntlet: false,
            seatings: SeatingMode::Rotate,
            rounds: 0,
            max_games: None,
            names: Vec::new(),
            sprt: None,
        };
        let mut seen: Vec<&str> = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let at = i + 2;
            let tag = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| format!("line {at}: expected [Name value]"))?;
            let (key, value) = tag.split_once(' ').unwrap_or((tag, ""));
            if key != "Participant" {
                if seen.contains(&key) {
                    return Err(format!("line {at}: a second [{key}] tag"));
                }
                seen.push(key);
            }
            h.read_tag(key, value, at)?;
        }
        for key in ["Players", "Pairing", "Seatings", "Rounds", "Games", "SPRT"] {
            if !seen.contains(&key) {
                return Err(format!("no [{key}] tag"));
            }
        }
        if !(2..=MAX_PARTICIPANTS).contains(&h.names.len()) {
            return Err(format!(
                "{} participants: expected 2 to {MAX_PARTICIPANTS}",
                h.names.len()
            ));
        }
        Ok(h)
    }

    /// Reads one tag, `[key value]` on line `at`, into the header.
    fn read_tag(&mut self, key: &str, value: &str, at: usize) -> Result<(), String> {
        let bad = || format!("line {at}: bad [{key}] '{value}'");
        let number = |max: usize| {
            value
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(bad)
        };
        match key {
            "Players" => {
                self.players = number(4).and_then(|p| if p >= 2 { Ok(p) } else { Err(bad()) })?
            }
            "Pairing" => {
                self.gauntlet = match value {
                    "round-robin" => false,
                    "gauntlet" => true,
                    _ => return Err(bad()),
                }
            }
            "Seatings" => {
                self.seatings = SeatingMode::parse(value).map_err(|e| format!("line {at}: {e}"))?
            }
            "Rounds" => self.rounds = number(super::MAX_GAMES)?,
            "Games" => {
                self.max_games = match value {
                    "all" => None,
                    _ => Some(number(usize::MAX)?),
                }
            }
            "Participant" => {
                let name = value.split(' ').next().unwrap_or("");
                if name.is_empty() || self.names.iter().any(|n| n == name) {
                    return Err(format!("line {at}: bad or repeated participant '{name}'"));
                }
                self.names.push(name.to_string());
            }
            "SPRT" => {
                self.sprt = match value {
                    "none" => None,
                    _ => Some(parse_sprt(value).ok_or_else(bad)?),
                }
            }
            // Part of the fingerprint only: the schedule does not
            // depend on them.
            "Openings" | "Seed" | "MaxTurns" | "Repetitions" => {}
            _ => return Err(format!("line {at}: unknown header tag [{key}]")),
        }
        Ok(())
    }

    /// Whether `other` comes from the same schedule; if not, which line
    /// differs.
    pub fn same_schedule(&self, other: &Header) -> Result<(), String> {
        if self.fingerprint == other.fingerprint && self.lines == other.lines {
            return Ok(());
        }
        Err(first_difference(self.lines.iter(), other.lines.iter())
            .unwrap_or_else(|| self.participant_count_difference(other)))
    }

    /// Its `[Participant]` lines, in order.
    fn participant_lines(&self) -> impl Iterator<Item = &String> {
        self.lines.iter().filter(|l| l.starts_with("[Participant "))
    }

    /// `N participants against M`: what differs when every line both
    /// headers have is the same.
    fn participant_count_difference(&self, other: &Header) -> String {
        format!(
            "{} participants against {}",
            self.names.len(),
            other.names.len()
        )
    }

    /// Whether `other` is a tournament of the same participants (the same
    /// players a game and the same participant lines, in order: names,
    /// engines, options and time controls), whatever its schedule; if
    /// not, the first difference.
    pub fn same_participants(&self, other: &Header) -> Result<(), String> {
        if self.players != other.players {
            return Err(format!(
                "{} players against {}",
                self.players, other.players
            ));
        }
        if let Some(d) = first_difference(self.participant_lines(), other.participant_lines()) {
            return Err(d);
        }
        if self.names.len() != other.names.len() {
            return Err(self.participant_count_difference(other));
        }
        Ok(())
    }

    /// Whether `other` plays the same games, whoever plays them: every
    /// line but the participants' and the SPRT's the same (seed,
    /// openings, rounds, seatings…) and as many participants, so the same
    /// opening with the same seating in every game; if not, the first
    /// difference.
    pub fn same_games(&self, other: &Header) -> Result<(), String> {
        fn games(h: &Header) -> impl Iterator<Item = &String> {
            h.lines
                .iter()
                .filter(|l| !l.starts_with("[Participant ") && !l.starts_with("[SPRT "))
        }
        if let Some(d) = first_difference(games(self), games(other)) {
            return Err(format!("not the same games: {d}"));
        }
        if games(self).count() != games(other).count() {
            return Err("not the same games: the schedules differ".into());
        }
        if self.names.len() != other.names.len() {
            return Err(self.participant_count_difference(other));
        }
        Ok(())
    }

    /// The tournament's seed (its `[Seed]` line).
    pub fn seed(&self) -> Option<u64> {
        self.lines
            .iter()
            .find_map(|l| l.strip_prefix("[Seed ")?.strip_suffix(']')?.parse().ok())
    }

    /// The schedule these options play (the whole tournament).
    pub(crate) fn schedule(&self) -> Result<Vec<GameSpec>, String> {
        let (per, openings) = schedule::plan(
            self.names.len(),
            self.players,
            self.gauntlet,
            self.seatings,
            self.rounds,
            self.max_games,
        )?;
        Ok(schedule::schedule(
            self.players,
            &per,
            openings,
            self.max_games,
        ))
    }
}

/// Reads a header's first line, `[Tournament <fingerprint> shard K/N]`:
/// the fingerprint as written and as a number, and the shard.
fn parse_first_line(first: &str) -> Result<(&str, u64, Shard), String> {
    let bad_first =
        || format!("bad first line '{first}': expected {START}<fingerprint> shard K/N]");
    let inner = first
        .strip_prefix(START)
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(bad_first)?;
    let (fp, shard) = inner.split_once(" shard ").ok_or_else(bad_first)?;
    let written = u64::from_str_radix(fp, 16)
        .ok()
        .filter(|_| fp.len() == 16)
        .ok_or_else(bad_first)?;
    Ok((fp, written, Shard::parse(shard)?))
}

fn fingerprint(lines: &[String]) -> u64 {
    let mut text = String::new();
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    fnv1a(text.as_bytes())
}

fn parse_sprt(s: &str) -> Option<Sprt> {
    let w: Vec<&str> = s.split(' ').collect();
    let [elo0, elo1, alpha, beta, model] = w.as_slice() else {
        return None;
    };
    let model = match *model {
        "normalized" => SprtModel::Normalized,
        "logistic" => SprtModel::Logistic,
        _ => return None,
    };
    let sprt = Sprt {
        elo0: elo0.parse().ok()?,
        elo1: elo1.parse().ok()?,
        alpha: alpha.parse().ok()?,
        beta: beta.parse().ok()?,
        model,
    };
    // The bounds the command line accepts: outside them the test is not
    // a number.
    let ok = (-1000.0..=1000.0).contains(&sprt.elo0)
        && (-1000.0..=1000.0).contains(&sprt.elo1)
        && sprt.elo0 < sprt.elo1
        && sprt.alpha > 0.0
        && sprt.alpha < 0.5
        && sprt.beta > 0.0
        && sprt.beta < 0.5;
    ok.then_some(sprt)
}

/// One line of at most `max` bytes, without its line end; `None` at the
/// end of the input.
fn read_line<R: BufRead>(r: &mut R, max: usize) -> Result<Option<String>, String> {
    let mut buf = Vec::new();
    let n = std::io::Read::take(&mut *r, max as u64 + 1)
        .read_until(b'\n', &mut buf)
        .map_err(|e| format!("cannot read: {e}"))?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() > max {
        return Err(format!("a header line is longer than {max} bytes"));
    }
    String::from_utf8(buf)
        .map(Some)
        .map_err(|_| "a header line is not UTF-8".to_string())
}

/// A header block as read.
#[derive(Debug)]
pub struct Block {
    /// Lines it took, with the blank line after it.
    pub lines: usize,
    /// The header, or why it is not one.
    pub header: Result<Header, String>,
}

/// Reads the header block at the start of `r`, if the input starts with
/// one. The reader is left after the block, whether or not it is a good
/// header; `Err` when the block cannot be read to its end.
pub fn read<R: BufRead>(r: &mut R) -> Result<Option<Block>, String> {
    let starts = r
        .fill_buf()
        .map_err(|e| format!("cannot read: {e}"))?
        .starts_with(START.as_bytes());
    if !starts {
        return Ok(None);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut taken = 0;
    while let Some(line) = read_line(r, MAX_HEADER_LINE)? {
        taken += 1;
        if line.trim().is_empty() {
            break;
        }
        if lines.len() == MAX_HEADER_LINES {
            return Err(format!(
                "the header has more than {MAX_HEADER_LINES} lines (no blank line after it?)"
            ));
        }
        lines.push(line);
    }
    Ok(Some(Block {
        lines: taken,
        header: Header::parse(&lines),
    }))
}

/// The header of the file at `path`: `None` when the file is missing,
/// empty or starts with no header.
pub fn read_file(path: &std::path::Path) -> Result<Option<Header>, String> {
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    match read(&mut std::io::BufReader::new(f)) {
        Ok(None) => Ok(None),
        Ok(Some(Block { header: Ok(h), .. })) => Ok(Some(h)),
        Ok(Some(Block { header: Err(e), .. })) | Err(e) => {
            Err(format!("{}: header: {e}", path.display()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines()
            .take_while(|l| !l.is_empty())
            .map(String::from)
            .collect()
    }

    fn sample() -> String {
        let body = "[Players 3]\n[Pairing round-robin]\n[Seatings all]\n[Openings random:4]\n\
                    [Rounds 2]\n[Games 5]\n[Seed 9]\n[MaxTurns 300]\n[Repetitions 3]\n\
                    [SPRT 0 5 0.05 0.1 logistic]\n[Participant a algo=random tc=nodes=10 timeout=60000]\n\
                    [Participant b cmd=\"x y\" tc=depth=2 timeout=5]\n";
        format!(
            "{START}{:016x} shard 1/2]\n{body}\n",
            fnv1a(body.as_bytes())
        )
    }

    #[test]
    fn a_header_reads_back_and_rebuilds_its_schedule() {
        let text = sample();
        let h = Header::parse(&lines(&text)).unwrap();
        assert_eq!(h.to_text(), text);
        assert_eq!(
            (h.players, h.seatings, h.max_games),
            (3, SeatingMode::All, Some(5))
        );
        assert_eq!(h.names, vec!["a", "b"]);
        assert_eq!(h.shard, Shard { index: 1, count: 2 });
        assert_eq!(h.sprt.map(|s| s.model), Some(SprtModel::Logistic));
        // 2 participants at 3 seats, every permutation: 6 seatings.
        assert_eq!(h.schedule().unwrap().len(), 5);
        let mut r = text.as_bytes();
        let block = read(&mut r).unwrap().unwrap();
        assert_eq!((block.lines, block.header.unwrap()), (14, h));
        assert!(r.is_empty());
    }

    #[test]
    fn the_same_games_whoever_plays_them() {
        let h = Header::parse(&lines(&sample())).unwrap();
        let with = |from: &str, to: &str| {
            let mut l = lines(&sample().replace(from, to));
            let body: String = l[1..].iter().map(|x| format!("{x}\n")).collect();
            l[0] = format!("{START}{:016x} shard 1/2]", fnv1a(body.as_bytes()));
            Header::parse(&l).unwrap()
        };
        // Another participant, or another SPRT: the same games.
        let other = with("[Participant a algo=random", "[Participant c algo=greedy");
        assert!(h.same_schedule(&other).is_err());
        assert_eq!(h.same_games(&other), Ok(()));
        assert_eq!(h.same_games(&with("[SPRT 0 5", "[SPRT 0 9")), Ok(()));
        // Another seed: other games, named.
        let e = h.same_games(&with("[Seed 9]", "[Seed 8]")).unwrap_err();
        assert_eq!(e, "not the same games: [Seed 9] against [Seed 8]");
        // A participant more: other seatings.
        let three = with(
            "tc=depth=2 timeout=5]\n",
            "tc=depth=2 timeout=5]\n[Participant c algo=random tc=nodes=10 timeout=60000]\n",
        );
        assert_eq!(
            h.same_games(&three).unwrap_err(),
            "2 participants against 3"
        );
    }

    #[test]
    fn an_edited_or_malformed_header_is_an_error() {
        let text = sample().replace("[Seed 9]", "[Seed 8]");
        let e = Header::parse(&lines(&text)).unwrap_err();
        assert!(e.contains("the header was edited"), "{e}");
        for (from, to, says) in [
            ("[Players 3]", "[Players 5]", "bad [Players]"),
            ("[Games 5]", "[Games many]", "bad [Games]"),
            ("[Seatings all]", "[Colour blue]", "unknown header tag"),
            ("shard 1/2", "shard 2/2", "expected K/N"),
            ("[Participant b", "[Participant a", "repeated participant"),
            ("[SPRT 0 5", "[SPRT 5 0", "bad [SPRT]"),
        ] {
            let text = sample().replace(from, to);
            let mut l = lines(&text);
            // Keep the fingerprint right, so the content is what is judged.
            let body: String = l[1..].iter().map(|x| format!("{x}\n")).collect();
            let shard = l[0].split(" shard ").nth(1).unwrap().to_string();
            l[0] = format!("{START}{:016x} shard {shard}", fnv1a(body.as_bytes()));
            let e = Header::parse(&l).unwrap_err();
            assert!(e.contains(says), "{to}: {e}");
        }
        // Not a header at all: the games start at once.
        let mut r: &[u8] = b"[Game 1]\n";
        assert!(read(&mut r).unwrap().is_none());
        // A block that never ends is cut off.
        let endless = format!("{START}x]\n{}", "[Seed 1]\n".repeat(1000));
        assert!(
            read(&mut endless.as_bytes())
                .unwrap_err()
                .contains("more than")
        );
    }
}
