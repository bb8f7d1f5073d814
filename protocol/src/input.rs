//! The protocol's input and error text: bounded lines, one rule for
//! splitting words, and error messages safe to print to any terminal.
//!
//! - A line is at most [`MAX_LINE`] bytes; a longer one is read to its end
//!   without being kept and refused as a whole.
//! - Words are separated by runs of ASCII spaces and tabs, nothing else; a
//!   trailing `\n` or `\r\n` ends the line. Any other control byte (a `\r`
//!   inside the line, NUL, ESC…) makes the whole line an error, so that
//!   `isready\rquery spn` cannot silently run half of itself.
//! - Error messages escape control characters and are cut to
//!   [`MAX_ERROR`] characters; echoed words are cut to [`MAX_ECHO`].

use std::io::BufRead;

/// Longest input line, in bytes, not counting its newline (1 MiB: a `position …
/// moves` line of a 30,000-turn game fits).
pub const MAX_LINE: usize = 1 << 20;

/// Longest error message written back, in characters.
pub const MAX_ERROR: usize = 400;

/// Longest echo of one input word inside an error message, in characters.
pub const MAX_ECHO: usize = 60;

/// One line read from the input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line within the bound (its end of line removed; bytes that are
    /// not UTF-8 became U+FFFD).
    Text(String),
    /// A line longer than [`MAX_LINE`]; `bytes` is its full length.
    TooLong {
        /// Bytes the line had, newline excluded.
        bytes: u64,
    },
    /// The end of the input (or a read error, which ends it too).
    End,
}

/// Reads one line of at most [`MAX_LINE`] bytes, never holding more than
/// that in memory.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Line {
    buf.clear();
    let mut total: u64 = 0;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (taken, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let body = if ended { taken - 1 } else { taken };
        total += body as u64;
        if total <= MAX_LINE as u64 {
            buf.extend_from_slice(&chunk[..body]);
        }
        input.consume(taken);
        if ended {
            break;
        }
    }
    if !any {
        return Line::End;
    }
    if total > MAX_LINE as u64 {
        buf.clear();
        return Line::TooLong { bytes: total };
    }
    line_of(buf)
}

/// One line's bytes (those before its `\n`) as the protocol reads them:
/// over [`MAX_LINE`] bytes it is refused whole, else one trailing `\r` is
/// dropped and bytes that are not UTF-8 become U+FFFD; nothing else is
/// touched (a byte-order mark stays part of the first word). For hosts
/// that split their input into lines themselves (WebAssembly).
pub fn line_of(bytes: &[u8]) -> Line {
    if bytes.len() > MAX_LINE {
        return Line::TooLong {
            bytes: bytes.len() as u64,
        };
    }
    let body = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    Line::Text(String::from_utf8_lossy(body).into_owned())
}

/// A line holding a control character other than a space or a tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ControlCharacter {
    /// The character.
    pub character: char,
    /// Where it is in the line, in bytes.
    pub at: usize,
}

impl std::fmt::Display for ControlCharacter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "control character {} at byte {}; the line is ignored (words are separated by spaces and tabs only)",
            escape(&self.character.to_string()),
            self.at
        )
    }
}

impl std::error::Error for ControlCharacter {}

/// The words of a line, or an error naming the first control character
/// that is neither a space nor a tab.
pub fn words(line: &str) -> Result<Vec<&str>, ControlCharacter> {
    if let Some((at, character)) = line
        .char_indices()
        .find(|&(_, c)| c.is_control() && c != ' ' && c != '\t')
    {
        return Err(ControlCharacter { character, at });
    }
    Ok(line.split([' ', '\t']).filter(|w| !w.is_empty()).collect())
}

/// Whether a character must not reach a terminal raw: control characters,
/// line and paragraph separators, and the invisible marks that reorder or
/// hide text (bidi marks, overrides and isolates, zero-width characters).
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// `text` with every unsafe character written as `\xNN` or `\u{…}`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if unsafe_char(c) {
            if (c as u32) < 0x80 {
                out.push_str(&format!("\\x{:02x}", c as u32));
            } else {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` cut to `max` characters, saying how much was left out.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!("{}… ({} more bytes)", &text[..at], text.len() - at),
    }
}

/// An input word as an error message shows it: escaped, at most
/// [`MAX_ECHO`] characters.
pub fn echo(word: &str) -> String {
    cut(&escape(word), MAX_ECHO)
}

/// An error message as it is written: escaped, at most [`MAX_ERROR`]
/// characters.
pub fn error_text(what: &str) -> String {
    cut(&escape(what), MAX_ERROR)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    fn lines(bytes: &[u8]) -> Vec<Line> {
        // A tiny buffer so lines span many reads.
        let mut r = BufReader::with_capacity(7, Cursor::new(bytes.to_vec()));
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_line(&mut r, &mut buf) {
                Line::End => return out,
                l => out.push(l),
            }
        }
    }

    #[test]
    fn lines_end_at_newlines_and_lose_a_trailing_cr() {
        assert_eq!(
            lines(b"isready\r\nquery spn\nlast"),
            vec![
                Line::Text("isready".into()),
                Line::Text("query spn".into()),
                Line::Text("last".into())
            ]
        );
        assert_eq!(lines(b"\n"), vec![Line::Text(String::new())]);
        assert_eq!(lines(b""), vec![]);
    }

    #[test]
    fn a_lines_bytes_lose_one_trailing_cr_and_keep_the_rest() {
        let text = |b: &[u8]| match line_of(b) {
            Line::Text(t) => t,
            other => panic!("{other:?}"),
        };
        assert_eq!(text(b"isready\r"), "isready");
        assert_eq!(text(b"isready\r\r"), "isready\r");
        assert_eq!(text("\u{feff}ugi".as_bytes()), "\u{feff}ugi");
        assert_eq!(text(b"a\xffb"), "a\u{fffd}b");
        let mut long = vec![b'x'; MAX_LINE];
        assert_eq!(text(&long).len(), MAX_LINE);
        long.push(b'\r');
        assert_eq!(
            line_of(&long),
            Line::TooLong {
                bytes: MAX_LINE as u64 + 1
            }
        );
    }

    #[test]
    fn an_overlong_line_is_refused_whole_and_the_next_one_read() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nisready\n");
        assert_eq!(
            lines(&input),
            vec![
                Line::TooLong {
                    bytes: MAX_LINE as u64 + 10
                },
                Line::Text("isready".into())
            ]
        );
        let mut exact = vec![b'y'; MAX_LINE];
        exact.push(b'\n');
        assert!(matches!(&lines(&exact)[0], Line::Text(t) if t.len() == MAX_LINE));
    }

    #[test]
    fn words_split_on_spaces_and_tabs_only() {
        assert_eq!(words(" go \t depth  3 ").unwrap(), vec!["go", "depth", "3"]);
        // A no-break space is part of a word, not a separator.
        assert_eq!(words("go\u{a0}depth").unwrap(), vec!["go\u{a0}depth"]);
        let e = words("isready\rquery spn").unwrap_err();
        assert_eq!(
            e,
            ControlCharacter {
                character: '\r',
                at: 7
            }
        );
        assert!(e.to_string().contains("\\x0d at byte 7"), "{e}");
        assert!(words("go\0").unwrap_err().to_string().contains("\\x00"));
        assert!(
            words("\u{1b}[2J")
                .unwrap_err()
                .to_string()
                .contains("\\x1b")
        );
    }

    #[test]
    fn errors_are_escaped_and_bounded() {
        assert_eq!(escape("a\u{1b}[31mb\u{202e}"), "a\\x1b[31mb\\u{202e}");
        assert_eq!(
            escape("\u{61c}\u{2028}\u{2066}é"),
            "\\u{61c}\\u{2028}\\u{2066}é"
        );
        let long = "é".repeat(1000);
        let e = echo(&long);
        assert!(
            e.starts_with("éé") && e.ends_with("(1880 more bytes)"),
            "{e}"
        );
        assert!(error_text(&long).chars().count() < MAX_ERROR + 30);
        assert_eq!(echo("e2e3"), "e2e3");
    }
}
