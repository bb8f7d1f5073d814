//! Game records: one text file, a game appended as each ends, which
//! `splut replay` reads back and validates.
//!
//! ```text
//! [Game 12]
//! [Players 3]
//! [Seats r=ab y=mcts g=ab]
//! [Opening random 4 steps, seed 1, #3]
//! [Start startpos]
//! [OpeningSteps 4]
//! [TimeControl ab=movetime=100 mcts=movetime=100]
//! [Result g > r > y]
//! [Reason last sorcerer standing]
//! r e2e3
//! y b5c5 b6c6
//! …
//! ```
//!
//! - Tags are `[Name value]`. `Seats` names the participant on each seat;
//!   `Start` is `startpos` or an SPN; the first `OpeningSteps` steps are the
//!   opening. `Result` lists the seats from first place to last, `>`
//!   between places and `=` between seats that share one (a draw).
//! - Then one line per turn: the seat and its steps, in order. The last
//!   line may be a partial turn when a participant forfeited.
//! - A blank line ends the game.
//! - Each tag appears once, and `Seats` names exactly the seats that play.
//!
//! [`RecordReader`] reads a file game by game, so a file of any size
//! takes the memory of one game; a line over [`MAX_LINE`] bytes, a line
//! that is not UTF-8 or a malformed game is reported and reading goes on.
//!
//! The board (`splut gui`'s page, with its server or static in
//! WebAssembly) writes its game with [`board_record`] and loads one with
//! [`first_game`], so both hosts write and read the same text.

pub use crate::judge::{Forfeit, Places, Reason};
use crate::judge::{Judge, places, places_text};
use splut_rules::{Game, Position, Seat};
use std::fmt::Write as _;

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// 1-based game number in the tournament.
    pub number: usize,
    /// Players at the start.
    pub players: usize,
    /// Participant name per seat in the game.
    pub seats: Vec<(Seat, String)>,
    /// Opening label.
    pub opening: String,
    /// `startpos` or an SPN.
    pub start: String,
    /// How many of the steps are the opening.
    pub opening_steps: usize,
    /// Time control per participant name.
    pub time_control: String,
    /// Places.
    pub places: Places,
    /// Why it ended.
    pub reason: Reason,
    /// Turns: the seat and its steps as text.
    pub turns: Vec<(Seat, Vec<String>)>,
}

/// The result's places, read by the rules' reader of places.
fn parse_places(s: &str) -> Result<Places, String> {
    s.parse::<splut_rules::Places>().map(|p| p.to_groups())
}

/// What a record says of a game besides its steps and how it ended: the
/// labels whoever played it gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labels {
    /// 1-based game number in the tournament.
    pub number: usize,
    /// Participant name per seat in the game.
    pub seats: Vec<(Seat, String)>,
    /// Opening label.
    pub opening: String,
    /// Whether the game starts from the standard start (`startpos`);
    /// otherwise the record gives its start's SPN.
    pub from_startpos: bool,
    /// How many of the game's first steps are the opening.
    pub opening_steps: usize,
    /// Time control per participant name.
    pub time_control: String,
}

impl GameRecord {
    /// The record of `game`, ended for `reason`: the players, start, turns
    /// and places come from the game, the rest from `labels`. Every
    /// record written is made here.
    pub fn new(labels: Labels, game: &Game, reason: Reason) -> GameRecord {
        let Labels {
            number,
            seats,
            opening,
            from_startpos,
            opening_steps,
            time_control,
        } = labels;
        GameRecord {
            number,
            players: game.start().players_left() as usize,
            seats,
            opening,
            start: if from_startpos {
                "startpos".to_string()
            } else {
                game.start().to_spn()
            },
            opening_steps,
            time_control,
            places: places(game, &reason),
            reason,
            turns: GameRecord::turns_of(game),
        }
    }

    /// The record as text (ends with a blank line).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let seats: Vec<String> = self
            .seats
            .iter()
            .map(|(seat, name)| format!("{}={name}", seat.letter()))
            .collect();
        let _ = writeln!(s, "[Game {}]", self.number);
        let _ = writeln!(s, "[Players {}]", self.players);
        let _ = writeln!(s, "[Seats {}]", seats.join(" "));
        let _ = writeln!(s, "[Opening {}]", self.opening);
        let _ = writeln!(s, "[Start {}]", self.start);
        let _ = writeln!(s, "[OpeningSteps {}]", self.opening_steps);
        let _ = writeln!(s, "[TimeControl {}]", self.time_control);
        let _ = writeln!(s, "[Result {}]", places_text(&self.places));
        let _ = writeln!(s, "[Reason {}]", self.reason);
        for (seat, steps) in &self.turns {
            let _ = writeln!(s, "{} {}", seat.letter(), steps.join(" "));
        }
        s.push('\n');
        s
    }

    /// A game's turns as records list them: the seat and the text of the
    /// steps it played in each turn.
    pub fn turns_of(game: &Game) -> Vec<(Seat, Vec<String>)> {
        game.turns()
            .into_iter()
            .map(|(seat, steps)| (seat, steps.iter().map(|s| s.to_string()).collect()))
            .collect()
    }

    /// The participant name of a seat.
    pub fn name_of(&self, seat: Seat) -> Option<&str> {
        self.seats
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, n)| n.as_str())
    }
}

/// Longest line a records file may have. A turn line is a few dozen bytes,
/// so anything longer is damage; it is skipped, not read into memory.
pub const MAX_LINE: usize = 1 << 20;

/// Most bytes one game may take: 100 000 turns are about 3 MB, so more is
/// damage (a missing blank line, say), and is not kept in memory.
pub const MAX_GAME: usize = 64 << 20;

/// A game of a records file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadGame {
    /// 1-based line where the game starts.
    pub line: usize,
    /// Its number, if its `[Game]` tag was read.
    pub number: Option<usize>,
    /// What is wrong, naming the line where it can.
    pub reason: String,
}

impl std::fmt::Display for BadGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.number {
            Some(n) => write!(f, "game {n} (line {}): {}", self.line, self.reason),
            None => write!(f, "game at line {}: {}", self.line, self.reason),
        }
    }
}

/// Where a game's lines are in its file, so a judgement can name the
/// line it is about (see [`validate_at`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameLines {
    /// Each tag's name and line.
    pub tags: Vec<(String, usize)>,
    /// Each turn's line, in order.
    pub turns: Vec<usize>,
}

impl GameLines {
    /// The line of tag `name`.
    pub fn tag(&self, name: &str) -> Option<usize> {
        self.tags.iter().find(|t| t.0 == name).map(|t| t.1)
    }
}

/// One line as read.
enum Line {
    Eof,
    Text(String),
    TooLong,
    NotUtf8,
    Failed(std::io::Error),
}

/// Reads a records file game by game, keeping one game in memory: a bad
/// game (unreadable line, malformed tag, …) is reported and reading goes
/// on with the next. Yields each game with the line it starts on.
pub struct RecordReader<R> {
    input: R,
    /// Lines read so far.
    line_no: usize,
    buf: Vec<u8>,
    done: bool,
    /// The lines of the game last yielded.
    lines: GameLines,
}

impl<R: std::io::BufRead> RecordReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> RecordReader<R> {
        RecordReader {
            input,
            line_no: 0,
            buf: Vec::new(),
            done: false,
            lines: GameLines::default(),
        }
    }

    /// Where the lines of the game last yielded are (empty before the
    /// first, and for a game that could not be read).
    pub fn lines(&self) -> &GameLines {
        &self.lines
    }

    /// The next line, at most [`MAX_LINE`] bytes of it kept.
    fn next_line(&mut self) -> Line {
        self.buf.clear();
        let mut too_long = false;
        let mut any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Line::Failed(e),
            };
            if chunk.is_empty() {
                if !any {
                    return Line::Eof;
                }
                break;
            }
            any = true;
            let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            if !too_long {
                if self.buf.len() + take > MAX_LINE {
                    too_long = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(&chunk[..take]);
                }
            }
            self.input.consume(take + usize::from(end));
            if end {
                break;
            }
        }
        self.line_no += 1;
        if too_long {
            return Line::TooLong;
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        match String::from_utf8(std::mem::take(&mut self.buf)) {
            Ok(s) => Line::Text(s),
            Err(_) => Line::NotUtf8,
        }
    }
}

impl<R: std::io::BufRead> Iterator for RecordReader<R> {
    type Item = Result<(usize, GameRecord), BadGame>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut line = loop {
            match self.next_line() {
                Line::Eof => {
                    self.done = true;
                    return None;
                }
                Line::Text(t) if t.trim().is_empty() => {}
                other => break other,
            }
        };
        self.lines = GameLines::default();
        let mut game = GameParser::new(self.line_no);
        let mut error: Option<String> = None;
        let mut bytes = 0usize;
        // After an error the rest of the game is read and dropped, so the
        // next game starts where it should.
        loop {
            let at = self.line_no;
            match line {
                Line::Eof => break,
                Line::Text(t) if t.trim().is_empty() => break,
                Line::Text(t) => {
                    bytes += t.len() + 1;
                    if error.is_none() {
                        if bytes > MAX_GAME {
                            error = Some(format!(
                                "line {at}: the game is longer than {MAX_GAME} bytes"
                            ));
                            // Keep the number for the report, drop the rest.
                            let number = game.number;
                            game = GameParser::new(game.first_line);
                            game.number = number;
                        } else if let Err(e) = game.line(&t, at) {
                            error = Some(e);
                        }
                    }
                }
                Line::TooLong => {
                    error.get_or_insert(format!("line {at}: longer than {MAX_LINE} bytes"));
                }
                Line::NotUtf8 => {
                    error.get_or_insert(format!("line {at}: not valid UTF-8"));
                }
                Line::Failed(e) => {
                    error.get_or_insert(format!("line {}: cannot read: {e}", at + 1));
                    self.done = true;
                    break;
                }
            }
            line = self.next_line();
        }
        let first_line = game.first_line;
        let number = game.number;
        Some(match error {
            Some(reason) => Err(BadGame {
                line: first_line,
                number,
                reason,
            }),
            None => game
                .finish()
                .map(|(g, lines)| {
                    self.lines = lines;
                    (first_line, g)
                })
                .map_err(|reason| BadGame {
                    line: first_line,
                    number,
                    reason,
                }),
        })
    }
}

// A records file may start with a header block (`tournament::header`),
// read before the games: the reader counts its lines.
impl<R: std::io::BufRead> RecordReader<R> {
    /// A reader of `input` whose first `lines` lines were already read
    /// (a file header), so the lines it reports are the file's.
    pub fn after_lines(input: R, lines: usize) -> RecordReader<R> {
        RecordReader {
            line_no: lines,
            ..RecordReader::new(input)
        }
    }
}

/// The lines of one game, as they come.
struct GameParser {
    first_line: usize,
    number: Option<usize>,
    /// Name, value, line.
    tags: Vec<(String, String, usize)>,
    turns: Vec<(Seat, Vec<String>)>,
    /// The line of each turn.
    turn_lines: Vec<usize>,
}

impl GameParser {
    fn new(first_line: usize) -> GameParser {
        GameParser {
            first_line,
            number: None,
            tags: Vec::new(),
            turns: Vec::new(),
            turn_lines: Vec::new(),
        }
    }

    fn line(&mut self, line: &str, at: usize) -> Result<(), String> {
        let line = line.trim_end();
        if let Some(tag) = line.strip_prefix('[') {
            let tag = tag
                .strip_suffix(']')
                .ok_or_else(|| format!("line {at}: a tag must end with ']'"))?;
            let (k, v) = tag.split_once(' ').unwrap_or((tag, ""));
            // A repeated tag is two games run together, or an edit: which
            // value counts would be a guess.
            if let Some((_, _, first)) = self.tags.iter().find(|t| t.0 == k) {
                return Err(format!(
                    "line {at}: a second [{k}] tag (the first is on line {first})"
                ));
            }
            if k == "Game" {
                self.number = v.parse().ok();
            }
            self.tags.push((k.to_string(), v.to_string(), at));
        } else {
            let mut words = line.split_whitespace();
            let seat = words
                .next()
                .and_then(seat_of)
                .ok_or_else(|| format!("line {at}: a turn starts with a seat letter"))?;
            self.turns.push((seat, words.map(String::from).collect()));
            self.turn_lines.push(at);
        }
        Ok(())
    }

    fn finish(self) -> Result<(GameRecord, GameLines), String> {
        let tag = |k: &str| {
            self.tags
                .iter()
                .find(|t| t.0 == k)
                .map(|t| t.1.clone())
                .ok_or_else(|| format!("no [{k}] tag"))
        };
        let number = tag("Game")?;
        let number = number
            .parse()
            .map_err(|_| format!("bad [Game] number '{number}'"))?;
        let players = tag("Players")?;
        let players = players
            .parse()
            .ok()
            .filter(|p| (2..=4).contains(p))
            .ok_or_else(|| format!("bad [Players] '{players}': expected 2, 3 or 4"))?;
        let mut seats: Vec<(Seat, String)> = Vec::new();
        for w in tag("Seats")?.split_whitespace() {
            let (s, name) = w.split_once('=').ok_or(format!("bad seat '{w}'"))?;
            let seat = seat_of(s).ok_or(format!("bad seat '{w}'"))?;
            if name.is_empty() {
                return Err(format!("seat '{w}' has no name"));
            }
            if seats.iter().any(|x| x.0 == seat) {
                return Err(format!("[Seats] names seat {s} twice"));
            }
            seats.push((seat, name.to_string()));
        }
        if seats.is_empty() {
            return Err("[Seats] names no seat".into());
        }
        let opening_steps = tag("OpeningSteps")?;
        let record = GameRecord {
            number,
            players,
            seats,
            opening: tag("Opening")?,
            start: tag("Start")?,
            opening_steps: opening_steps
                .parse()
                .map_err(|_| format!("bad [OpeningSteps] '{opening_steps}'"))?,
            time_control: tag("TimeControl")?,
            places: parse_places(&tag("Result")?)?,
            reason: Reason::parse(&tag("Reason")?)?,
            turns: self.turns,
        };
        let lines = GameLines {
            tags: self.tags.into_iter().map(|(k, _, at)| (k, at)).collect(),
            turns: self.turn_lines,
        };
        Ok((record, lines))
    }
}

/// The seat of a one-letter word.
fn seat_of(w: &str) -> Option<Seat> {
    let mut c = w.chars();
    match (c.next().and_then(Seat::from_letter), c.next()) {
        (Some(s), None) => Some(s),
        _ => None,
    }
}

/// Parses a whole records text into games; the first bad game is the
/// error (naming its line). `splut replay` reads with [`RecordReader`]
/// instead, which goes on past bad games.
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, String> {
    RecordReader::new(text.as_bytes())
        .map(|g| g.map(|(_, g)| g).map_err(|b| b.to_string()))
        .collect()
}

/// Who plays a seat of a game on the board (`splut gui`'s page, with its
/// server or static in WebAssembly): a person, or an engine at a time per
/// turn and a level. A board's record names the seats by it
/// ([`board_record`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Participant {
    /// A person, playing by clicks.
    Person,
    /// A person for whom the engine played these turns while they were
    /// away or after they left (a table's takeover): unrated for them.
    StoodIn {
        /// The turns the engine played, in order.
        turns: Vec<u32>,
    },
    /// An engine.
    Engine {
        /// Its `Algorithm` option.
        algorithm: String,
        /// Its time per turn in ms.
        movetime: u64,
        /// Its level; full strength if none.
        level: Option<Strength>,
    },
}

/// An engine's level on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// `UCI_LimitStrength` on and `UCI_Elo` at this value.
    Elo(i64),
    /// `Skill Level` at this value.
    Skill(i64),
}

impl Participant {
    /// The name a record gives it: `person`, or the engine's
    /// `<algorithm>-<ms>ms`, with `-elo<v>` or `-skill<v>` for a level
    /// (`alphabeta-1000ms-elo1500`); a person the engine stood in for,
    /// `person-unrated(engine:5,7)` (the turns it played).
    pub fn name(&self) -> String {
        match self {
            Participant::Person => "person".to_string(),
            Participant::StoodIn { turns } => {
                let turns: Vec<String> = turns.iter().map(u32::to_string).collect();
                format!("person-unrated(engine:{})", turns.join(","))
            }
            Participant::Engine {
                algorithm,
                movetime,
                level,
            } => {
                let level = match level {
                    Some(Strength::Elo(v)) => format!("-elo{v}"),
                    Some(Strength::Skill(v)) => format!("-skill{v}"),
                    None => String::new(),
                };
                format!("{algorithm}-{movetime}ms{level}")
            }
        }
    }
}

/// The board's `[TimeControl]`: each engine's `<name>=movetime=<ms>` once,
/// sorted, then when a person plays `person=none`, or with the people's
/// `clock` (`(base, increment)` in ms) `person=clock=<base>+<increment>`.
fn board_time_control(seats: &[(Seat, Participant)], clock: Option<(u64, u64)>) -> String {
    let mut tcs: Vec<String> = seats
        .iter()
        .filter_map(|(_, p)| match p {
            Participant::Engine { movetime, .. } => {
                Some(format!("{}=movetime={movetime}", p.name()))
            }
            Participant::Person | Participant::StoodIn { .. } => None,
        })
        .collect();
    tcs.sort();
    tcs.dedup();
    if seats
        .iter()
        .any(|(_, p)| matches!(p, Participant::Person | Participant::StoodIn { .. }))
    {
        tcs.push(match clock {
            Some((base, increment)) => format!("person=clock={base}+{increment}"),
            None => "person=none".into(),
        });
    }
    tcs.join(" ")
}

/// Takes back the steps of a turn `game` has begun and not finished, so
/// that it ends after its last whole turn. A game that is over keeps its
/// every step (the winning step may end a turn early).
pub fn cut_to_whole_turns(game: &mut Game) {
    if game.position().is_game_over() {
        return;
    }
    let turn = game.position().turn();
    game.undo_turn(turn);
}

/// A game played on the board, as the record `splut gui` and the static
/// web board download (`splut replay` reads it): game 1, opening
/// `splut gui`, the start as an SPN, the seats named by who plays them
/// ([`Participant::name`]) with their time controls. A finished game ends
/// with the last sorcerer standing; an unfinished one is cut to its last
/// whole turn ([`cut_to_whole_turns`]) and recorded as a draw by a turn
/// limit at that turn, the only ending the format has for a game nobody
/// won.
pub fn board_record(game: &Game, seats: &[(Seat, Participant)]) -> GameRecord {
    board_record_clocked(game, seats, None)
}

/// [`board_record`] of a game whose people played on a clock (`(base,
/// increment)` in ms, Fischer): its `[TimeControl]` says
/// `person=clock=<base>+<increment>` where an untimed game's says
/// `person=none`.
pub fn board_record_clocked(
    game: &Game,
    seats: &[(Seat, Participant)],
    clock: Option<(u64, u64)>,
) -> GameRecord {
    let mut game = game.clone();
    cut_to_whole_turns(&mut game);
    let reason = if game.position().is_game_over() {
        Reason::LastSorcerer
    } else {
        Reason::TurnLimit(game.position().turn().saturating_sub(1))
    };
    board_record_ended(&game, seats, clock, reason)
}

/// [`board_record_clocked`] of a game a judge ended where it stands (the
/// board's draw rules: a repetition may end it within a turn), with that
/// reason and every step.
pub fn board_record_ended(
    game: &Game,
    seats: &[(Seat, Participant)],
    clock: Option<(u64, u64)>,
    reason: Reason,
) -> GameRecord {
    let labels = Labels {
        number: 1,
        seats: seats.iter().map(|(s, p)| (*s, p.name())).collect(),
        opening: "splut gui".into(),
        from_startpos: false,
        opening_steps: 0,
        time_control: board_time_control(seats, clock),
    };
    GameRecord::new(labels, game, reason)
}

/// Most characters of a reader's error a board's refusal quotes.
const REFUSAL_CHARS: usize = 200;

/// The game a board loads from a records text (`splut gui`'s page, with
/// its server or static): the first game's start and its steps, to go on
/// playing from. The whole text must read ([`parse_records`]); the steps
/// are the record's, not yet played. Errors are the board's refusal:
/// `bad record: …`, the reader's reason cut to 200 characters with any
/// control character shown as `?`.
pub fn first_game(text: &str) -> Result<(Position, Vec<String>), String> {
    let games = parse_records(text).map_err(|e| {
        let e: String = e
            .chars()
            .take(REFUSAL_CHARS)
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
        format!("bad record: {e}")
    })?;
    let Some(g) = games.into_iter().next() else {
        return Err("bad record: no game in it".into());
    };
    let start = if g.start == "startpos" {
        Position::start(g.players).ok_or_else(|| "bad record: player count".to_string())?
    } else {
        Position::from_spn(&g.start).map_err(|e| format!("bad record: {e}"))?
    };
    let steps = g.turns.into_iter().flat_map(|t| t.1).collect();
    Ok((start, steps))
}

/// What a judgement of a record is about: a tag or a turn line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spot {
    Tag(&'static str),
    /// 0-based turn.
    Turn(usize),
}

/// Why a record is invalid, and where.
struct Invalid {
    spot: Spot,
    why: String,
}

impl Invalid {
    fn at(spot: Spot, why: impl Into<String>) -> Invalid {
        Invalid {
            spot,
            why: why.into(),
        }
    }
}

/// Replays a game and judges it again with the referee's [`Judge`]: every
/// step legal and played by the seat to move, whole turns (but the last,
/// after a forfeit or a repetition), play stopping where the judge ends
/// the game, and the reason and result the judge gives.
pub fn validate(g: &GameRecord) -> Result<(), String> {
    judge_record(g).map_err(|e| e.why)
}

/// [`validate`], the error naming the line it is about (the tag or the
/// turn line, from `lines`, as [`RecordReader::lines`] gives them):
/// `line 22: the result says r > g, the game gives g > r`.
pub fn validate_at(g: &GameRecord, lines: &GameLines) -> Result<(), String> {
    judge_record(g).map_err(|e| {
        let line = match e.spot {
            Spot::Tag(name) => lines.tag(name),
            Spot::Turn(i) => lines.turns.get(i).copied(),
        };
        match line {
            Some(at) => format!("line {at}: {}", e.why),
            None => e.why,
        }
    })
}

fn judge_record(g: &GameRecord) -> Result<(), Invalid> {
    let start = if g.start == "startpos" {
        Position::start(g.players).ok_or(Invalid::at(Spot::Tag("Players"), "bad player count"))?
    } else {
        Position::from_spn(&g.start).map_err(|e| Invalid::at(Spot::Tag("Start"), e.to_string()))?
    };
    check_seats(g, &start)?;
    let total_steps: usize = g.turns.iter().map(|t| t.1.len()).sum();
    if g.opening_steps > total_steps {
        return Err(Invalid::at(
            Spot::Tag("OpeningSteps"),
            format!(
                "[OpeningSteps {}] but the game has only {total_steps} steps",
                g.opening_steps
            ),
        ));
    }
    let (game, ended) = replay(g, start)?;
    let reason = |why: String| Invalid::at(Spot::Tag("Reason"), why);
    let pos = game.position();
    let n = game.steps().len();
    let at_end = ended.as_ref().filter(|e| e.0 == n).map(|e| &e.1);
    // What the record claims, checked first: it says best what is wrong.
    match &g.reason {
        Reason::LastSorcerer if !pos.is_game_over() => {
            return Err(reason("the game is not over".into()));
        }
        Reason::TurnLimit(t) if pos.turn() <= *t => {
            return Err(reason(format!(
                "turn limit {t} claimed at turn {}",
                pos.turn()
            )));
        }
        Reason::Repetition(r) if !matches!(at_end, Some(Reason::Repetition(_))) => {
            return Err(reason(format!(
                "repetition {r} claimed, but the last position did not occur {r} times"
            )));
        }
        Reason::Forfeit { seat, what } => check_forfeit(&game, *seat, what).map_err(reason)?,
        _ => {}
    }
    // Then the judge: the game stops where it ends it, for the reason given.
    if let Some((k, r)) = &ended
        && *k < n
    {
        return Err(Invalid::at(
            Spot::Turn(turn_of_step(g, *k)),
            format!("the game ended after step {k} ({r}) but the record goes on to step {n}"),
        ));
    }
    match (&g.reason, at_end) {
        (Reason::Forfeit { .. }, None) => {}
        // The winning step, then a step past the end of the turn.
        (
            Reason::Forfeit {
                what: Forfeit::PastTurnEnd { .. },
                ..
            },
            Some(Reason::LastSorcerer),
        ) => {}
        (claimed, Some(judged)) if claimed == judged => {}
        (claimed, judged) => {
            return Err(reason(format!(
                "the record says {claimed}, the game gives {}",
                judged.map_or("no end".to_string(), |r| r.to_string())
            )));
        }
    }
    check_places(g, &game)
}

/// The 0-based turn that plays step `k` (0-based) of a record.
fn turn_of_step(g: &GameRecord, k: usize) -> usize {
    let mut steps = 0;
    for (i, (_, turn)) in g.turns.iter().enumerate() {
        steps += turn.len();
        if steps > k {
            return i;
        }
    }
    g.turns.len().saturating_sub(1)
}

/// The names must sit on the seats that play: a record whose seats are
/// another game's would credit the result to the wrong participants.
fn check_seats(g: &GameRecord, start: &Position) -> Result<(), Invalid> {
    let mut playing: Vec<Seat> = start.seats_in_game().collect();
    let mut named: Vec<Seat> = g.seats.iter().map(|s| s.0).collect();
    playing.sort();
    named.sort();
    if named != playing {
        let letters = |v: &[Seat]| v.iter().map(|s| s.letter().to_string()).collect::<Vec<_>>();
        return Err(Invalid::at(
            Spot::Tag("Seats"),
            format!(
                "[Seats] names seats {} but the game is played by {}",
                letters(&named).join(" "),
                letters(&playing).join(" ")
            ),
        ));
    }
    // A start position has `players` seats by construction; an SPN must
    // agree with the tag.
    if playing.len() != g.players {
        return Err(Invalid::at(
            Spot::Tag("Players"),
            format!(
                "[Players {}] but the start position has {} players",
                g.players,
                playing.len()
            ),
        ));
    }
    Ok(())
}

/// The result must be the places the game and its reason give.
fn check_places(g: &GameRecord, game: &Game) -> Result<(), Invalid> {
    let expected = places(game, &g.reason);
    let same = expected.len() == g.places.len()
        && expected.iter().zip(&g.places).all(|(a, b)| {
            let mut a = a.clone();
            let mut b = b.clone();
            a.sort();
            b.sort();
            a == b
        });
    if !same {
        return Err(Invalid::at(
            Spot::Tag("Result"),
            format!(
                "the result says {}, the game gives {}",
                places_text(&g.places),
                places_text(&expected)
            ),
        ));
    }
    Ok(())
}

/// Plays a record's turns into a [`Game`], checking that each turn line is
/// one whole turn of the seat to move; with the first end the judge sees in
/// the game proper (after how many steps, and why).
fn replay(g: &GameRecord, start: Position) -> Result<(Game, Option<(usize, Reason)>), Invalid> {
    let mut game = Game::new(start);
    let mut judge = Judge::new(g.reason.adjudication());
    let mut ended: Option<(usize, Reason)> = None;
    for (i, (seat, steps)) in g.turns.iter().enumerate() {
        let bad = |why: String| Invalid::at(Spot::Turn(i), format!("turn {}: {why}", i + 1));
        let last = i + 1 == g.turns.len();
        let to_move = game.position().side_to_move();
        if *seat != to_move {
            return Err(bad(format!(
                "{} plays, but {} is to move",
                seat.letter(),
                to_move.letter()
            )));
        }
        let turn = game.position().turn();
        for (j, t) in steps.iter().enumerate() {
            if game.position().turn() != turn {
                return Err(bad(format!(
                    "step {} '{t}' is past the end of the turn",
                    j + 1
                )));
            }
            // The referee judges from the end of the opening on.
            let proper = game.steps().len() >= g.opening_steps;
            if proper && ended.is_none() {
                ended = judge
                    .before_turn(game.position())
                    .map(|r| (game.steps().len(), r));
            }
            game.play_text(t).map_err(|e| bad(e.to_string()))?;
            if proper && let Some(r) = judge.after_step(game.position()) {
                ended.get_or_insert((game.steps().len(), r));
            }
        }
        // A forfeit, or a repetition (the judge counts positions after
        // every step), may end the game in the middle of a turn.
        let ended_here = last && matches!(g.reason, Reason::Forfeit { .. } | Reason::Repetition(_));
        let pos = game.position();
        if pos.turn() == turn && !pos.is_game_over() && !ended_here {
            return Err(bad("the turn is not finished".into()));
        }
    }
    if ended.is_none() && game.steps().len() >= g.opening_steps {
        ended = judge
            .before_turn(game.position())
            .map(|r| (game.steps().len(), r));
    }
    Ok((game, ended))
}

/// Checks a forfeit against the game: the seat was still playing, and a
/// claim about its last step is true.
fn check_forfeit(game: &Game, seat: Seat, what: &Forfeit) -> Result<(), String> {
    let pos = game.position();
    if !pos.in_game(seat) {
        return Err(format!(
            "{} forfeited after leaving the game",
            seat.letter()
        ));
    }
    match what {
        Forfeit::IllegalStep { text, .. } => {
            if pos.side_to_move() != seat {
                return Err(format!(
                    "{} is said to have played '{text}', but {} is to move",
                    seat.letter(),
                    pos.side_to_move().letter()
                ));
            }
            if pos.parse_step(text).is_ok() {
                return Err(format!("'{text}' is claimed illegal but is legal"));
            }
        }
        Forfeit::PastTurnEnd { text } => {
            let over = pos.is_game_over() || pos.side_to_move() != seat;
            if game.turns().last().map(|t| t.0) != Some(seat) || !over {
                return Err(format!(
                    "'{text}' is said to come after {}'s turn ended, but that turn is not over",
                    seat.letter()
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2-player record of these turns from the start, ending so.
    fn record(turns: &[(Seat, &str)], reason: Reason, places: Places) -> GameRecord {
        GameRecord {
            number: 1,
            players: 2,
            seats: vec![(Seat::Red, "a".into()), (Seat::Green, "b".into())],
            opening: "test".into(),
            start: "startpos".into(),
            opening_steps: 0,
            time_control: String::new(),
            places,
            reason,
            turns: turns
                .iter()
                .map(|(s, t)| (*s, t.split_whitespace().map(String::from).collect()))
                .collect(),
        }
    }

    fn forfeit(seat: Seat, what: Forfeit) -> Reason {
        Reason::Forfeit { seat, what }
    }

    const R: Seat = Seat::Red;
    const G: Seat = Seat::Green;

    #[test]
    fn the_judge_checks_where_and_why_a_game_ended() {
        let three = [(R, "e2e3"), (G, "e8e7 f8f7"), (R, "d2d3 e3e4 f2f3")];
        let draw = vec![vec![R, G]];
        assert_eq!(
            validate(&record(&three, Reason::TurnLimit(3), draw.clone())),
            Ok(())
        );
        // Play went on past the turn limit.
        let e = validate(&record(&three, Reason::TurnLimit(2), draw.clone())).unwrap_err();
        assert!(e.contains("ended after step 3 (turn limit 2)"), "{e}");
        // The game gives a turn limit, not a repetition.
        let e = validate(&record(&three, Reason::Repetition(3), draw)).unwrap_err();
        assert!(e.contains("did not occur 3 times"), "{e}");
    }

    #[test]
    fn a_game_from_the_last_turn_an_spn_may_give_is_replayed_past_it() {
        // The referee and `splut replay` play steps into a `Game`: a turn
        // at MAX_TURN ends like any other, into turn MAX_TURN + 1.
        let turns = [(R, "e2e3 e3e4 d2d3"), (G, "e8e7 e7e6 f8f7")];
        let last = splut_rules::MAX_TURN + 1;
        let mut g = record(&turns, Reason::TurnLimit(last), vec![vec![R, G]]);
        g.start = format!(
            "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 {} - - -",
            splut_rules::MAX_TURN
        );
        assert_eq!(validate(&g), Ok(()));
    }

    #[test]
    fn forfeit_claims_are_checked_against_the_game() {
        let two = [(R, "e2e3"), (G, "e8e7 f8f7")];
        let red_lost = vec![vec![G], vec![R]];
        let illegal = |text: &str| Forfeit::IllegalStep {
            text: text.into(),
            why: "whatever".into(),
        };
        let ok = record(&two, forfeit(R, illegal("e5e6")), red_lost.clone());
        assert_eq!(validate(&ok), Ok(()));
        let e = validate(&record(&two, forfeit(R, illegal("e3e4")), red_lost.clone()));
        assert!(e.unwrap_err().contains("claimed illegal but is legal"));
        // Green is not to move.
        let green_lost = vec![vec![R], vec![G]];
        let e = validate(&record(
            &two,
            forfeit(G, illegal("e5e6")),
            green_lost.clone(),
        ));
        assert!(e.unwrap_err().contains("but r is to move"));
        // A step past the end of green's turn: green's turn is over.
        let past = Forfeit::PastTurnEnd {
            text: "d8d7".into(),
        };
        let ok = record(&two, forfeit(G, past.clone()), green_lost);
        assert_eq!(validate(&ok), Ok(()));
        let e = validate(&record(&two, forfeit(R, past), red_lost)).unwrap_err();
        assert!(e.contains("that turn is not over"), "{e}");
    }
    fn engine(algorithm: &str, movetime: u64, level: Option<Strength>) -> Participant {
        Participant::Engine {
            algorithm: algorithm.into(),
            movetime,
            level,
        }
    }

    #[test]
    fn a_board_names_its_seats_and_their_time_controls() {
        let mut game = Game::new(Position::start(3).unwrap());
        game.play_all("e2e3").unwrap();
        let seats = [
            (R, Participant::Person),
            (Seat::Yellow, engine("mcts", 50, Some(Strength::Elo(1500)))),
            (G, engine("alphabeta", 50, Some(Strength::Skill(3)))),
        ];
        let text = board_record(&game, &seats).to_text();
        let spn = game.start().to_spn();
        assert_eq!(
            text,
            format!(
                "[Game 1]\n[Players 3]\n\
                 [Seats r=person y=mcts-50ms-elo1500 g=alphabeta-50ms-skill3]\n\
                 [Opening splut gui]\n[Start {spn}]\n[OpeningSteps 0]\n\
                 [TimeControl alphabeta-50ms-skill3=movetime=50 mcts-50ms-elo1500=movetime=50 person=none]\n\
                 [Result r = y = g]\n[Reason turn limit 1]\nr e2e3\n\n"
            )
        );
        // Two engines of one name: one time control.
        let same = [
            (R, engine("greedy", 20, None)),
            (G, engine("greedy", 20, None)),
        ];
        let two = Game::new(Position::start(2).unwrap());
        let r = board_record(&two, &same);
        assert_eq!(r.time_control, "greedy-20ms=movetime=20");
        assert_eq!(r.name_of(G), Some("greedy-20ms"));
        assert_eq!(r.reason, Reason::TurnLimit(0));
        assert!(r.turns.is_empty());
    }

    #[test]
    fn an_unfinished_game_is_cut_to_its_last_whole_turn_and_reads_back() {
        let mut game = Game::new(Position::start(2).unwrap());
        // Red's turn, green's turn, and two steps of red's second.
        game.play_all("e2e3 e8e7 f8f7 d2d3 e3e4").unwrap();
        let seats = [(R, Participant::Person), (G, engine("auto", 1000, None))];
        let r = board_record(&game, &seats);
        assert_eq!(r.reason, Reason::TurnLimit(2));
        assert_eq!(r.places, vec![vec![R, G]]);
        assert_eq!(r.turns.len(), 2);
        assert_eq!(validate(&r), Ok(()));
        // Read back: the same start and the whole turns' steps.
        let (start, steps) = first_game(&r.to_text()).unwrap();
        assert_eq!(&start, game.start());
        assert_eq!(steps, ["e2e3", "e8e7", "f8f7"]);
        // The game itself is left as it was.
        assert_eq!(game.steps().len(), 5);
        let mut whole = game.clone();
        cut_to_whole_turns(&mut whole);
        assert_eq!(whole.steps().len(), 3);
        cut_to_whole_turns(&mut whole);
        assert_eq!(whole.steps().len(), 3);
    }

    #[test]
    fn a_bad_record_is_refused_as_the_board_refuses_it() {
        assert_eq!(first_game(""), Err("bad record: no game in it".into()));
        let e = first_game("[Game 1]\n[Start startpos]\n").unwrap_err();
        assert!(e.starts_with("bad record: game 1 (line 1): "), "{e}");
        let good = record(&[(R, "e2e3")], Reason::TurnLimit(1), vec![vec![R, G]]);
        let mut bad_start = good.clone();
        bad_start.start = "nonsense".into();
        let e = first_game(&bad_start.to_text()).unwrap_err();
        assert!(e.starts_with("bad record: "), "{e}");
        let mut players = good.clone();
        players.players = 7;
        let e = first_game(&players.to_text()).unwrap_err();
        assert!(
            e.starts_with("bad record: game 1 (line 1): bad [Players]"),
            "{e}"
        );
        // The reason quoted is short and has no control characters.
        let long = format!("[Game 1]\n[Result {}\u{7}]\n", "x".repeat(500));
        let e = first_game(&long).unwrap_err();
        assert!(e.chars().count() <= 200 + "bad record: ".len(), "{e}");
        assert!(!e.chars().any(char::is_control), "{e}");
        // Steps are not played here: the board plays them (`moves: …`).
        let mut illegal = good;
        illegal.turns = vec![(R, vec!["e2e9".into()])];
        let (_, steps) = first_game(&illegal.to_text()).unwrap();
        assert_eq!(steps, ["e2e9"]);
    }
}
