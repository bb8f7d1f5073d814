//! The fuzzer's side of the socket: one connection sends raw bytes (whole,
//! a few bytes at a time, or cut off and closed), then reads what comes
//! back and checks that every answer is a well-formed HTTP/1.1 response.
//! Nothing here blocks without a deadline.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// How a request's bytes go out.
#[derive(Clone, Debug)]
pub enum Pacing {
    /// In one write.
    Whole,
    /// `chunk` bytes at a time, `delay` between them (a slow client).
    Slow { chunk: usize, delay: Duration },
}

/// What the connection does after (or instead of) sending it all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Reads every answer expected.
    Read,
    /// Half-closes (the server sees the end of the input), then reads.
    HalfClose,
    /// Closes after sending this many bytes, reading nothing.
    Cut(usize),
    /// Sends it all and closes without reading the answer.
    Drop,
}

/// One connection's plan.
#[derive(Clone, Debug)]
pub struct Plan {
    pub bytes: Vec<u8>,
    pub pacing: Pacing,
    pub end: End,
    /// Answers expected (pipelined requests: several).
    pub answers: usize,
    /// Whether each request was a HEAD (no body in its answer); `None`
    /// for a HEAD the server may not have read as one (a broken request
    /// is refused with a body): the body is then read to the end of the
    /// connection, if there is one.
    pub head: Vec<Option<bool>>,
    /// Longest wait for each answer.
    pub timeout: Duration,
}

/// A parsed answer.
#[derive(Clone, Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// What came back on one connection.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The answers, in order.
    pub answers: Vec<Answer>,
    /// The connection ended (closed by the server) before all answers came.
    pub closed_early: bool,
    /// The deadline passed with an answer still missing.
    pub timed_out: bool,
    /// A reply that is not well-formed HTTP: why.
    pub malformed: Option<String>,
    /// Whether the connection could be made at all.
    pub connected: bool,
    /// Bytes sent.
    pub sent: usize,
}

/// Runs one connection to `port` by `plan`.
pub fn exchange(port: u16, plan: &Plan) -> Outcome {
    let mut out = Outcome::default();
    let Ok(mut s) = TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        Duration::from_secs(5),
    ) else {
        return out;
    };
    out.connected = true;
    let _ = s.set_nodelay(true);
    let _ = s.set_write_timeout(Some(Duration::from_secs(10)));
    let limit = match plan.end {
        End::Cut(n) => n.min(plan.bytes.len()),
        _ => plan.bytes.len(),
    };
    let data = &plan.bytes[..limit];
    // A server that refuses a huge body may close before it is all sent:
    // a failed write is not a failure, the answer is still read.
    match &plan.pacing {
        Pacing::Whole => {
            if s.write_all(data).is_ok() {
                out.sent = data.len();
            }
        }
        Pacing::Slow { chunk, delay } => {
            for piece in data.chunks((*chunk).max(1)) {
                if s.write_all(piece).is_err() {
                    break;
                }
                out.sent += piece.len();
                std::thread::sleep(*delay);
            }
        }
    }
    match plan.end {
        End::Cut(_) | End::Drop => {
            let _ = s.shutdown(Shutdown::Both);
            return out;
        }
        End::HalfClose => {
            let _ = s.shutdown(Shutdown::Write);
        }
        End::Read => {}
    }
    read_answers(&mut s, plan, &mut out);
    out
}

/// Reads `plan.answers` answers (skipping `100 Continue`).
fn read_answers(s: &mut TcpStream, plan: &Plan, out: &mut Outcome) {
    let deadline = Instant::now() + plan.timeout;
    let mut buf: Vec<u8> = Vec::new();
    let mut eof = false;
    let mut chunk = [0u8; 16 * 1024];
    while out.answers.len() < plan.answers {
        let head = plan
            .head
            .get(out.answers.len())
            .copied()
            .unwrap_or(Some(false));
        match parse(&buf, head, eof) {
            Parsed::Done(a, used) => {
                buf.drain(..used);
                if a.status != 100 {
                    out.answers.push(a);
                }
                continue;
            }
            Parsed::Bad(why) => {
                out.malformed = Some(why);
                return;
            }
            Parsed::More => {}
        }
        if eof {
            if !buf.is_empty() {
                out.malformed = Some(format!(
                    "the connection closed inside an answer: {}",
                    escape(&buf, 200)
                ));
            }
            out.closed_early = true;
            return;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            out.timed_out = true;
            return;
        }
        let _ = s.set_read_timeout(Some(left.min(Duration::from_millis(500))));
        match s.read(&mut chunk) {
            Ok(0) => eof = true,
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() > 64 << 20 {
                    out.malformed = Some("an answer over 64 MiB".into());
                    return;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            // A reset after the server closed: the end of the input.
            Err(_) => eof = true,
        }
    }
}

enum Parsed {
    Done(Answer, usize),
    More,
    Bad(String),
}

/// One answer at the start of `buf`, if all of it is there.
fn parse(buf: &[u8], head_request: Option<bool>, eof: bool) -> Parsed {
    let Some(end) = find(buf, b"\r\n\r\n") else {
        if buf.len() > 1 << 20 {
            return Parsed::Bad("response headers over 1 MiB".into());
        }
        return Parsed::More;
    };
    let Ok(head) = std::str::from_utf8(&buf[..end]) else {
        return Parsed::Bad(format!(
            "response head not UTF-8: {}",
            escape(&buf[..end], 200)
        ));
    };
    let (status, headers) = match parse_head(head) {
        Ok(h) => h,
        Err(why) => return Parsed::Bad(why),
    };
    let start = end + 4;
    let a = Answer {
        status,
        headers,
        body: Vec::new(),
    };
    if head_request == Some(true) || status < 200 || status == 204 || status == 304 {
        return Parsed::Done(a, start);
    }
    if head_request.is_none() {
        if !eof {
            return Parsed::More;
        }
        if buf.len() == start {
            return Parsed::Done(a, start);
        }
    }
    parse_body(buf, start, a, eof)
}

/// A response head's status line and header lines: the status and the
/// headers, or why they are malformed.
fn parse_head(head: &str) -> Result<(u16, Vec<(String, String)>), String> {
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let mut w = status_line.splitn(3, ' ');
    let version = w.next().unwrap_or("");
    let code = w.next().unwrap_or("");
    if !matches!(version, "HTTP/1.1" | "HTTP/1.0") {
        return Err(format!(
            "bad status line '{}'",
            escape(status_line.as_bytes(), 200)
        ));
    }
    let Some(status) = code
        .parse::<u16>()
        .ok()
        .filter(|s| (100..600).contains(s) && code.len() == 3)
    else {
        return Err(format!(
            "bad status line '{}'",
            escape(status_line.as_bytes(), 200)
        ));
    };
    let mut headers = Vec::new();
    for l in lines {
        let Some((k, v)) = l.split_once(':') else {
            return Err(format!("bad header line '{}'", escape(l.as_bytes(), 200)));
        };
        if k.is_empty() || k.contains(|c: char| c.is_whitespace() || c.is_control()) {
            return Err(format!("bad header name '{}'", escape(k.as_bytes(), 200)));
        }
        headers.push((k.to_string(), v.trim().to_string()));
    }
    Ok((status, headers))
}

/// The body of answer `a`, from `start` in `buf`: chunked, of a length,
/// or up to the end of the connection (`eof`, whether it came).
fn parse_body(buf: &[u8], start: usize, mut a: Answer, eof: bool) -> Parsed {
    let chunked = a
        .header("Transfer-Encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"));
    if chunked {
        return match dechunk(&buf[start..]) {
            Ok(Some((body, used))) => {
                a.body = body;
                Parsed::Done(a, start + used)
            }
            Ok(None) if eof => Parsed::Bad("the connection closed inside a chunked body".into()),
            Ok(None) => Parsed::More,
            Err(e) => Parsed::Bad(e),
        };
    }
    match a.header("Content-Length") {
        Some(v) => {
            let Ok(n) = v.parse::<usize>() else {
                return Parsed::Bad(format!("bad Content-Length '{v}'"));
            };
            if buf.len() - start < n {
                return if eof {
                    Parsed::Bad(format!(
                        "body cut short: {} of {n} bytes",
                        buf.len() - start
                    ))
                } else {
                    Parsed::More
                };
            }
            a.body = buf[start..start + n].to_vec();
            Parsed::Done(a, start + n)
        }
        // No length: the body runs to the end of the connection.
        None if eof => {
            a.body = buf[start..].to_vec();
            Parsed::Done(a, buf.len())
        }
        None => Parsed::More,
    }
}

/// A chunked body: the body and the bytes used, `None` if not all there.
fn dechunk(b: &[u8]) -> Result<Option<(Vec<u8>, usize)>, String> {
    let mut body = Vec::new();
    let mut i = 0;
    loop {
        let Some(nl) = find(&b[i..], b"\r\n") else {
            return Ok(None);
        };
        let line = std::str::from_utf8(&b[i..i + nl]).map_err(|_| "bad chunk size".to_string())?;
        let size = line.split(';').next().unwrap_or("").trim();
        let n = usize::from_str_radix(size, 16).map_err(|_| format!("bad chunk size '{size}'"))?;
        i += nl + 2;
        if n == 0 {
            // Trailers, then an empty line.
            let Some(e) = find(&b[i..], b"\r\n") else {
                return Ok(None);
            };
            if e == 0 {
                return Ok(Some((body, i + 2)));
            }
            i += e + 2;
            continue;
        }
        if b.len() < i + n + 2 {
            return Ok(None);
        }
        body.extend_from_slice(&b[i..i + n]);
        if &b[i + n..i + n + 2] != b"\r\n" {
            return Err("a chunk not followed by CRLF".into());
        }
        i += n + 2;
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Bytes as printable text, cut to `max` bytes with the length noted.
pub fn escape(bytes: &[u8], max: usize) -> String {
    let mut s = String::new();
    for &b in bytes.iter().take(max) {
        match b {
            b'\\' => s.push_str("\\\\"),
            b'\r' => s.push_str("\\r"),
            b'\n' => s.push_str("\\n"),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    if bytes.len() > max {
        s.push_str(&format!("… ({} bytes)", bytes.len()));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse() {
        let b = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}HTTP/1.1 404 Not Found\r\n";
        let Parsed::Done(a, used) = parse(b, Some(false), false) else {
            panic!()
        };
        assert_eq!((a.status, a.body.as_slice()), (200, &b"{}"[..]));
        assert!(matches!(
            parse(&b[used..], Some(false), false),
            Parsed::More
        ));
        let c = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n";
        let Parsed::Done(a, used) = parse(c, Some(false), false) else {
            panic!()
        };
        assert_eq!((a.body.as_slice(), used), (&b"ab"[..], c.len()));
        assert!(matches!(
            parse(b"HTTP/2 200\r\n\r\n", Some(false), false),
            Parsed::Bad(_)
        ));
        assert!(matches!(
            parse(
                b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab",
                Some(false),
                true
            ),
            Parsed::Bad(_)
        ));
    }
}
