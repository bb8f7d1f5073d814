//! The records file read game by game ([`RecordReader`]), one game in
//! memory at a time, and a whole text at once ([`parse_records`]).

use super::{GameRecord, Reason, parse_places};
use splut_rules::Seat;

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

impl std::error::Error for BadGame {}

/// Where a game's lines are in its file, so a judgement can name the
/// line it is about (see [`validate_at`](super::validate_at)).
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
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, BadGame> {
    RecordReader::new(text.as_bytes())
        .map(|g| g.map(|(_, g)| g))
        .collect()
}
