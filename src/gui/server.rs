//! The HTTP side: tiny_http's accept loop, a thread per request, and the
//! checks every request passes before the API sees it (Host header against
//! DNS rebinding, Origin on state-changing requests, body size).

use super::api::{Games, Reply};
use super::refusal::Refusal;
use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tiny_http::{Header, Request, Response, Server};

/// Largest request body read.
pub const MAX_BODY: usize = 64 * 1024;

/// Most requests handled at once (long-polls included).
const MAX_REQUESTS: usize = 64;

/// The Host values this server answers to.
pub struct Hosts {
    allowed: Vec<String>,
}

impl Hosts {
    /// The loopback names and `host`, each with `port`.
    pub fn new(host: &str, port: u16) -> Hosts {
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
        Hosts { allowed }
    }

    pub(crate) fn allows(&self, host: &str) -> bool {
        self.allowed.iter().any(|a| a.eq_ignore_ascii_case(host))
    }
}

fn header<'a>(req: &'a Request, name: &str) -> Option<&'a str> {
    req.headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
}

/// The checks, then the API.
fn answer(games: &Games, hosts: &Hosts, req: &mut Request) -> Reply {
    match check(hosts, req) {
        Ok((method, body)) => games.handle(&method, req.url(), &body),
        Err(r) => r.into(),
    }
}

/// The checks every request passes: its method and body, or the refusal.
fn check(hosts: &Hosts, req: &mut Request) -> Result<(String, String), Refusal> {
    let Some(host) = header(req, "Host").filter(|h| hosts.allows(h)) else {
        return Err(Refusal::Forbidden(
            "this server only answers to its own address (Host header)".into(),
        ));
    };
    let method = req.method().as_str().to_ascii_uppercase();
    let changes = !matches!(method.as_str(), "GET" | "HEAD" | "OPTIONS");
    if changes
        && let Some(origin) = header(req, "Origin")
        && !origin.eq_ignore_ascii_case(&format!("http://{host}"))
    {
        return Err(Refusal::Forbidden(
            "cross-origin requests may not change anything".into(),
        ));
    }
    if req.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(Refusal::TooLarge(MAX_BODY));
    }
    // A chunked body has no length up front: read one byte past the cap.
    let mut body = Vec::new();
    if req
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .is_err()
    {
        return Err(Refusal::BadRequest(
            "the request body could not be read".into(),
        ));
    }
    if body.len() > MAX_BODY {
        return Err(Refusal::TooLarge(MAX_BODY));
    }
    let Ok(body) = String::from_utf8(body) else {
        return Err(Refusal::BadRequest("the request body is not UTF-8".into()));
    };
    Ok((method, body))
}

fn respond(req: Request, reply: Reply) {
    let mut resp = Response::from_string(reply.body).with_status_code(reply.status);
    let mut add = |k: &str, v: &str| {
        if let Ok(h) = Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            resp.add_header(h);
        }
    };
    add("Content-Type", reply.content_type);
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
    let _ = req.respond(resp);
}

/// Serves until the process exits.
pub fn serve(server: Server, games: Arc<Games>, hosts: Arc<Hosts>) {
    let running = Arc::new(AtomicUsize::new(0));
    for mut req in server.incoming_requests() {
        if running.load(Ordering::SeqCst) >= MAX_REQUESTS {
            respond(req, Refusal::Busy.into());
            continue;
        }
        running.fetch_add(1, Ordering::SeqCst);
        let (games, hosts, running) = (games.clone(), hosts.clone(), running.clone());
        std::thread::spawn(move || {
            let reply = answer(&games, &hosts, &mut req);
            let exit = reply.shutdown;
            respond(req, reply);
            running.fetch_sub(1, Ordering::SeqCst);
            if exit {
                super::shutdown(&games);
            }
        });
    }
}
