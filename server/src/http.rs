//! The HTTP side: a small HTTP/1.1 server on std's `TcpListener` (a
//! thread per connection), and the checks every request passes before the
//! API sees it (Host header against DNS rebinding, Origin on
//! state-changing requests, body size).
//!
//! It reads requests itself, with bounds on everything a client controls
//! (the request line and header lines, their number, the body, the time a
//! request may take to arrive, the connections at once): a hostile or
//! broken client is refused (4xx) or disconnected, and never holds memory
//! or a thread for long. (tiny_http, used before, let a request of
//! `HTTP/2.0` deadlock its connection's thread for good, and buffered
//! header lines of any length.)

use super::api::{Games, Reply};
use super::rate::Rates;
use splut_board::session::Refusal;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Largest request body read.
pub const MAX_BODY: usize = 64 * 1024;

/// Most requests handled at once (long-polls included: each person at a
/// table holds one, so 200 tables of 4 hold 800; a waiting long-poll is a
/// sleeping thread).
const MAX_REQUESTS: usize = 1536;

/// Most connections open at once; more are closed as they come.
const MAX_CONNECTIONS: usize = 2048;

/// Longest request line or header line, in bytes.
const MAX_LINE: usize = 16 * 1024;

/// Most bytes of a request's head (request line and headers).
const MAX_HEAD: usize = 64 * 1024;

/// Most header lines.
const MAX_HEADERS: usize = 100;

/// How long a request may take to arrive, from its first byte.
const REQUEST_TIME: Duration = Duration::from_secs(30);

/// How long a kept-alive connection may wait for its next request.
const IDLE_TIME: Duration = Duration::from_secs(60);

/// Most requests on one connection.
const MAX_KEEP_ALIVE: usize = 1000;

/// The Host values this server answers to, and whether it is exposed
/// (bound beyond loopback, or given a public name).
pub struct Hosts {
    allowed: Vec<String>,
    /// The public names (with the port where none was given).
    public: Vec<String>,
    /// Bound to a loopback address: only this machine reaches it.
    loopback: bool,
}

impl Hosts {
    /// The loopback names and `host`, each with `port`, and each public
    /// name (`splut.example.org`, or with a port); exposed unless `host`
    /// is a loopback address or `localhost` and no public name is given.
    pub fn new(host: &str, port: u16, public: &[String]) -> Hosts {
        let mut allowed: Vec<String> = ["127.0.0.1", "localhost", "[::1]"]
            .iter()
            .map(|h| format!("{h}:{port}"))
            .collect();
        let h = if host.contains(':') && !host.starts_with('[') {
            format!("[{host}]")
        } else {
            host.to_string()
        };
        allowed.push(format!("{h}:{port}"));
        let mut names = Vec::new();
        for name in public {
            names.push(name.clone());
            if !has_port(name) {
                names.push(format!("{name}:{port}"));
            }
        }
        allowed.extend(names.iter().cloned());
        let loopback = host.eq_ignore_ascii_case("localhost")
            || host
                .trim_matches(['[', ']'])
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        Hosts {
            allowed,
            public: names,
            loopback,
        }
    }

    pub(crate) fn allows(&self, host: &str) -> bool {
        self.allowed.iter().any(|a| a.eq_ignore_ascii_case(host))
    }

    /// Whether an `Origin` is a public name's: `http://` or `https://`
    /// and the name (the page as a proxy or DNS name serves it). Besides
    /// these, only `http://` and the request's own Host is accepted.
    pub(crate) fn allows_origin(&self, origin: &str) -> bool {
        let lower = origin.to_ascii_lowercase();
        lower
            .strip_prefix("http://")
            .or_else(|| lower.strip_prefix("https://"))
            .is_some_and(|name| self.public.iter().any(|p| p.eq_ignore_ascii_case(name)))
    }

    /// Reached beyond this machine (bound beyond loopback, or by a public
    /// name, through a proxy): no shutdown from the page.
    pub fn exposed(&self) -> bool {
        !self.loopback || !self.public.is_empty()
    }

    /// Bound beyond loopback: every client is held to the rate
    /// ([`super::rate`]). (Behind a proxy on loopback every client comes
    /// from the proxy's address: the rate is the proxy's to enforce.)
    pub fn rate_limited(&self) -> bool {
        !self.loopback
    }
}

/// Whether a host name ends in `:port` (`[::1]` alone has none).
fn has_port(name: &str) -> bool {
    match name.rsplit_once(':') {
        Some((_, p)) => {
            !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && !name.ends_with(']')
        }
        None => false,
    }
}

/// Checks a `--public-name`: a host name or address, with a port or not,
/// nothing else (no scheme, path or spaces).
pub fn check_public_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 253
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        && !name.starts_with(['.', '-', ':']);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "--public-name: expected a host name, optionally with :port (like splut.example.org:443), not '{name}'"
        ))
    }
}

/// A request as read from the socket.
struct Request {
    method: String,
    target: String,
    /// HTTP/1.0 (no keep-alive unless asked).
    http10: bool,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the client wants the connection kept after this request.
    fn keep_alive(&self) -> bool {
        let conn = self.header("Connection").unwrap_or("").to_ascii_lowercase();
        if self.http10 {
            conn.contains("keep-alive")
        } else {
            !conn.contains("close")
        }
    }
}

/// Why no request could be read: answered with a status (then the
/// connection is closed), or the connection just ends.
enum ReadError {
    Refuse(u16, &'static str),
    Close,
}

/// A connection's input with a deadline on every read.
struct Input {
    stream: TcpStream,
    buf: Vec<u8>,
    pos: usize,
    deadline: Instant,
}

impl Input {
    /// More bytes into the buffer; `Close` at the end of the input, an
    /// error or the deadline.
    fn fill(&mut self) -> Result<(), ReadError> {
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ReadError::Close);
        }
        let _ = self.stream.set_read_timeout(Some(left));
        let mut chunk = [0u8; 8192];
        match self.stream.read(&mut chunk) {
            Ok(0) | Err(_) => Err(ReadError::Close),
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                Ok(())
            }
        }
    }

    /// One line, without its CRLF (or LF), at most `max` bytes.
    fn line(&mut self, max: usize) -> Result<Vec<u8>, ReadError> {
        loop {
            if let Some(i) = self.buf[self.pos..].iter().position(|&b| b == b'\n') {
                let mut line = self.buf[self.pos..self.pos + i].to_vec();
                self.pos += i + 1;
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.len() > max {
                    return Err(ReadError::Refuse(431, "request line or header too long"));
                }
                return Ok(line);
            }
            if self.buf.len() - self.pos > max {
                return Err(ReadError::Refuse(431, "request line or header too long"));
            }
            self.fill()?;
        }
    }

    /// Exactly `n` bytes.
    fn bytes(&mut self, n: usize) -> Result<Vec<u8>, ReadError> {
        while self.buf.len() - self.pos < n {
            self.fill()?;
        }
        let out = self.buf[self.pos..self.pos + n].to_vec();
        self.pos += n;
        Ok(out)
    }

    /// Whether more input is buffered or comes before `wait` ends.
    fn wait_for_more(&mut self, wait: Duration) -> bool {
        if self.pos < self.buf.len() {
            return true;
        }
        self.deadline = Instant::now() + wait;
        self.fill().is_ok()
    }
}

/// Reads one request (the body too, up to [`MAX_BODY`]).
fn read_request(input: &mut Input) -> Result<Request, ReadError> {
    input.deadline = Instant::now() + REQUEST_TIME;
    // Empty lines before a request are allowed (RFC 9112, 2.2).
    let mut line = input.line(MAX_LINE)?;
    let mut skipped = 0;
    while line.is_empty() {
        skipped += 1;
        if skipped > 8 {
            return Err(ReadError::Refuse(400, "empty request line"));
        }
        line = input.line(MAX_LINE)?;
    }
    let Ok(line) = String::from_utf8(line) else {
        return Err(ReadError::Refuse(400, "the request line is not ASCII"));
    };
    let words: Vec<&str> = line.split(' ').collect();
    let [method, target, version] = words[..] else {
        return Err(ReadError::Refuse(400, "bad request line"));
    };
    let token = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?={}".contains(&b))
    };
    if !token(method) || target.is_empty() || !target.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ReadError::Refuse(400, "bad request line"));
    }
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        v if v.starts_with("HTTP/") => {
            return Err(ReadError::Refuse(505, "only HTTP/1.0 and HTTP/1.1"));
        }
        _ => return Err(ReadError::Refuse(400, "bad request line")),
    };
    let mut headers = Vec::new();
    let mut head = line.len();
    loop {
        let h = input.line(MAX_LINE)?;
        if h.is_empty() {
            break;
        }
        head += h.len() + 2;
        if head > MAX_HEAD || headers.len() >= MAX_HEADERS {
            return Err(ReadError::Refuse(431, "request headers too large"));
        }
        let Ok(h) = String::from_utf8(h) else {
            return Err(ReadError::Refuse(400, "a header is not ASCII"));
        };
        let Some((name, value)) = h.split_once(':') else {
            return Err(ReadError::Refuse(400, "bad header line"));
        };
        if !token(name)
            || !value
                .bytes()
                .all(|b| b == b'\t' || (b' '..=b'~').contains(&b))
        {
            return Err(ReadError::Refuse(400, "bad header line"));
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    let mut req = Request {
        method: method.to_string(),
        target: target.to_string(),
        http10,
        headers,
        body: Vec::new(),
    };
    req.body = read_body(input, &req)?;
    Ok(req)
}

/// The body: by `Content-Length`, or chunked; at most [`MAX_BODY`].
fn read_body(input: &mut Input, req: &Request) -> Result<Vec<u8>, ReadError> {
    let lengths: Vec<&str> = req
        .headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("Content-Length"))
        .map(|(_, v)| v.as_str())
        .collect();
    let chunked = match req.header("Transfer-Encoding") {
        None => false,
        Some(te) if te.eq_ignore_ascii_case("chunked") && lengths.is_empty() => true,
        Some(_) => return Err(ReadError::Refuse(400, "unsupported Transfer-Encoding")),
    };
    let length = match lengths.first() {
        None => 0,
        Some(first) => {
            if lengths.iter().any(|l| l != first)
                || first.is_empty()
                || !first.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(ReadError::Refuse(400, "bad Content-Length"));
            }
            match first.parse::<usize>() {
                Ok(n) if n <= MAX_BODY => n,
                _ => return Err(ReadError::Refuse(413, "request body too large")),
            }
        }
    };
    match req.header("Expect") {
        Some(e) if !e.eq_ignore_ascii_case("100-continue") => {
            return Err(ReadError::Refuse(417, "unsupported Expect"));
        }
        // The client waits for this before it sends the body.
        Some(_) if length > 0 || chunked => {
            let _ = input.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        _ => {}
    }
    if !chunked {
        return input.bytes(length);
    }
    let mut body = Vec::new();
    loop {
        let line = input.line(MAX_LINE)?;
        let size = String::from_utf8_lossy(&line);
        let size = size.split(';').next().unwrap_or("").trim();
        if size.is_empty() || size.len() > 8 {
            return Err(ReadError::Refuse(400, "bad chunk size"));
        }
        let Ok(n) = usize::from_str_radix(size, 16) else {
            return Err(ReadError::Refuse(400, "bad chunk size"));
        };
        if n == 0 {
            // Trailers, up to an empty line.
            for _ in 0..=MAX_HEADERS {
                if input.line(MAX_LINE)?.is_empty() {
                    return Ok(body);
                }
            }
            return Err(ReadError::Refuse(431, "too many trailers"));
        }
        if body.len() + n > MAX_BODY {
            return Err(ReadError::Refuse(413, "request body too large"));
        }
        body.extend_from_slice(&input.bytes(n)?);
        if !input.line(2)?.is_empty() {
            return Err(ReadError::Refuse(400, "a chunk not followed by CRLF"));
        }
    }
}

/// The request's `Authorization: Bearer <token>`, if it has one (the
/// table's token: [`super::tables`]).
fn bearer(req: &Request) -> Option<&str> {
    let value = req.header("Authorization")?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// The checks, then the API.
fn answer(games: &Games, hosts: &Hosts, req: &Request, stream: &TcpStream) -> Reply {
    match check(hosts, req) {
        Ok((method, body)) => {
            let gone = || closed(stream);
            games.handle(&method, &req.target, &body, (bearer(req), &gone))
        }
        Err(r) => r.into(),
    }
}

/// Whether the client has closed the connection (or it was reset): a
/// look at its input that neither waits nor takes anything.
fn closed(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return false;
    }
    let mut byte = [0u8; 1];
    let gone = match stream.peek(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    };
    let _ = stream.set_nonblocking(false);
    gone
}

/// The checks every request passes: its method and body, or the refusal.
fn check(hosts: &Hosts, req: &Request) -> Result<(String, String), Refusal> {
    let Some(host) = req.header("Host").filter(|h| hosts.allows(h)) else {
        return Err(Refusal::Forbidden(
            "this server only answers to its own address (Host header)".into(),
        ));
    };
    let method = req.method.to_ascii_uppercase();
    let changes = !matches!(method.as_str(), "GET" | "HEAD" | "OPTIONS");
    if changes
        && let Some(origin) = req.header("Origin")
        && !origin.eq_ignore_ascii_case(&format!("http://{host}"))
        && !hosts.allows_origin(origin)
    {
        return Err(Refusal::Forbidden(
            "cross-origin requests may not change anything".into(),
        ));
    }
    if hosts.exposed() && method == "POST" && req.target.split('?').next() == Some("/api/shutdown")
    {
        return Err(Refusal::Forbidden(
            "this server is reachable beyond this machine: it cannot be stopped from the page (stop it where it runs, with Ctrl-C)".into(),
        ));
    }
    let Ok(body) = String::from_utf8(req.body.clone()) else {
        return Err(Refusal::BadRequest("the request body is not UTF-8".into()));
    };
    Ok((method, body))
}

/// The reason phrase of a status.
fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        417 => "Expectation Failed",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Unknown",
    }
}

/// Writes `reply` (no body for a HEAD request); whether it was sent.
fn respond(stream: &mut TcpStream, reply: &Reply, head_only: bool, keep: bool) -> bool {
    let mut h = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
    let mut add = |k: &str, v: &str| {
        // A value with a line break would end the header.
        if !v.contains(['\r', '\n']) {
            h.push_str(&format!("{k}: {v}\r\n"));
        }
    };
    add("Content-Type", reply.content_type);
    add("Content-Length", &reply.body.len().to_string());
    add("Cache-Control", "no-store");
    add("X-Content-Type-Options", "nosniff");
    // No framing by other sites, no scripts from anywhere else.
    add("X-Frame-Options", "DENY");
    add(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
    );
    if let Some(name) = &reply.download {
        add(
            "Content-Disposition",
            &format!("attachment; filename=\"{name}\""),
        );
    }
    if let Some(s) = reply.retry_after {
        add("Retry-After", &s.to_string());
    }
    add("Connection", if keep { "keep-alive" } else { "close" });
    h.push_str("\r\n");
    let mut out = h.into_bytes();
    if !head_only {
        out.extend_from_slice(reply.body.as_bytes());
    }
    stream.write_all(&out).and_then(|_| stream.flush()).is_ok()
}

/// What every connection shares: the games, the names answered to, the
/// requests running, and each client's rate.
struct Shared {
    games: Arc<Games>,
    hosts: Arc<Hosts>,
    running: AtomicUsize,
    rates: Mutex<Rates>,
}

impl Shared {
    /// `Some(refusal)` when the server is bound beyond loopback and the client at `ip`
    /// is over its rate: 429, with `Retry-After`.
    fn over_rate(&self, ip: Option<std::net::IpAddr>) -> Option<Reply> {
        let ip = ip.filter(|_| self.hosts.rate_limited())?;
        let mut rates = self.rates.lock().unwrap_or_else(|e| e.into_inner());
        let wait = rates.take(ip, Instant::now()).err()?;
        Some(Reply {
            retry_after: Some(wait.as_secs()),
            ..Reply::error(429, "too many requests from this address: wait a moment")
        })
    }
}

/// Serves one connection: its requests in turn, until it closes, asks to,
/// breaks a rule, or idles.
fn connection(stream: TcpStream, shared: &Shared) {
    let (games, hosts, running) = (&*shared.games, &*shared.hosts, &shared.running);
    let ip = stream.peer_addr().ok().map(|a| a.ip());
    let _ = stream.set_write_timeout(Some(REQUEST_TIME));
    let _ = stream.set_nodelay(true);
    let Ok(mut out) = stream.try_clone() else {
        return;
    };
    let mut input = Input {
        stream,
        buf: Vec::new(),
        pos: 0,
        deadline: Instant::now(),
    };
    for n in 0..MAX_KEEP_ALIVE {
        if n > 0 && !input.wait_for_more(IDLE_TIME) {
            break;
        }
        let req = match read_request(&mut input) {
            Ok(r) => r,
            Err(ReadError::Close) => break,
            Err(ReadError::Refuse(status, why)) => {
                respond(&mut out, &Reply::error(status, why), false, false);
                linger(&mut input, &out);
                break;
            }
        };
        let head_only = req.method.eq_ignore_ascii_case("HEAD");
        let keep = req.keep_alive() && n + 1 < MAX_KEEP_ALIVE;
        if let Some(reply) = shared.over_rate(ip) {
            if !respond(&mut out, &reply, head_only, keep) || !keep {
                break;
            }
            continue;
        }
        if running.fetch_add(1, Ordering::SeqCst) >= MAX_REQUESTS {
            running.fetch_sub(1, Ordering::SeqCst);
            respond(&mut out, &Refusal::Busy.into(), head_only, false);
            break;
        }
        let reply = answer(games, hosts, &req, &out);
        let sent = respond(&mut out, &reply, head_only, keep && !reply.shutdown);
        running.fetch_sub(1, Ordering::SeqCst);
        if reply.shutdown {
            let _ = out.shutdown(Shutdown::Both);
            super::shutdown(games);
        }
        if !sent || !keep {
            break;
        }
    }
    let _ = out.shutdown(Shutdown::Both);
}

/// Closes after a refusal without losing it: the client may still be
/// sending what was refused, and closing with unread input would reset the
/// connection and drop the answer on its way. The end of the output is
/// sent, then the input is read and dropped for a little while.
fn linger(input: &mut Input, out: &TcpStream) {
    let _ = out.shutdown(Shutdown::Write);
    let deadline = Instant::now() + Duration::from_secs(1);
    let mut drained = 0;
    let mut chunk = [0u8; 16 * 1024];
    while drained < 1 << 20 {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || input.stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match input.stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// Serves until the process exits.
pub fn serve(listener: TcpListener, games: Arc<Games>, hosts: Arc<Hosts>) {
    let shared = Arc::new(Shared {
        games,
        hosts,
        running: AtomicUsize::new(0),
        rates: Mutex::new(Rates::default()),
    });
    let open = Arc::new(AtomicUsize::new(0));
    for conn in listener.incoming() {
        let stream = match conn {
            Ok(s) => s,
            // A connection reset before it was taken, or no file
            // descriptor left for now: the server goes on.
            Err(_) => {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            drop(stream);
            continue;
        }
        let (s, o) = (shared.clone(), open.clone());
        let spawned = std::thread::Builder::new().spawn(move || {
            connection(stream, &s);
            o.fetch_sub(1, Ordering::SeqCst);
        });
        if spawned.is_err() {
            // No thread to be had: the connection was dropped with it.
            open.fetch_sub(1, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
