//! The table server of `splut gui` (the crate `splut-server`): a web
//! board for people and engines at tables, on the board's game machine
//! ([`splut_board::session`]). `splut gui` turns its arguments into a
//! [`Config`] and calls [`run`].
//!
//! - [`http`]: the HTTP side, a small bounded HTTP/1.1 server, and the
//!   checks every request passes ([`rate`]: the requests' rate).
//! - [`api`]: the JSON API the page speaks, with the lobby and the
//!   history of the tables (`api/lobby.rs`) and the games kept
//!   (`api/kept.rs`).
//! - [`tables`]: who may do what at a game's table (its tokens).
//! - [`store`]: where the games are kept (SQLite, or memory).
//! - [`game`]: the game's host, one game's machine driven on a thread of
//!   its own, its engine's lines and timers carried to it.
//! - [`engines`]: the games' engines, spawned and carried ([`engines::Link`]);
//!   [`pool`]: the engine seats in this process, their searches sharing a
//!   bounded pool.
//! - [`analyst`]: hints and reviews against an engine of their own.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod analyst;
pub mod api;
pub mod engines;
pub mod game;
pub mod http;
pub mod pool;
pub mod rate;
pub mod store;
pub mod tables;

pub use engines::{Engines, Link, QUIT_GRACE};
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// `splut gui` options.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to bind (127.0.0.1 unless told otherwise).
    pub host: String,
    /// Names the server is reached by besides its address (behind a
    /// proxy, or by DNS): accepted in `Host` and `Origin`.
    pub public_names: Vec<String>,
    /// Port; 0 takes any free one.
    pub port: u16,
    /// The engine's program and arguments: the analyst's, and every
    /// game's when `searches` is `None`.
    pub engine: Vec<String>,
    /// Engine seats in this process, at most this many searches at once;
    /// `None` starts `engine` for each game (`--engine`).
    pub searches: Option<usize>,
    /// Most games at once.
    pub max_games: usize,
    /// Open the default browser.
    pub open: bool,
    /// A game nobody asked about for this long is closed.
    pub abandon_after: Duration,
    /// Pause between the steps of an engine's turn, so a person sees
    /// each piece move.
    pub step_pause: Duration,
    /// The games database (SQLite); `None` keeps the games in memory
    /// only, as they were before there was a database.
    pub db: Option<std::path::PathBuf>,
    /// Whether a write to `db` is acknowledged only once synced to the
    /// disk (`--db-sync disk`); else once the operating system has it.
    pub db_sync: bool,
}

/// Splits an engine command line into words; `"…"` and `'…'` group words.
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            None => cur.push(c),
        }
    }
    if quote.is_some() {
        return Err("--engine: unclosed quote".into());
    }
    if any || !cur.is_empty() {
        words.push(cur);
    }
    if words.is_empty() {
        return Err("--engine: empty command".into());
    }
    Ok(words)
}

/// Runs the server until Ctrl-C or `POST /api/shutdown`; returns the
/// exit code.
pub fn run(cfg: Config) -> i32 {
    let listener = match std::net::TcpListener::bind((cfg.host.as_str(), cfg.port)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot listen on {}:{}: {e}", cfg.host, cfg.port);
            return 2;
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: no address to listen on: {e}");
            return 2;
        }
    };
    let store = match store::sqlite::Sqlite::open(cfg.db.as_deref()) {
        Ok(s) => Arc::new(s.syncing(cfg.db_sync)),
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let engines = match cfg.searches {
        Some(n) => Engines::InProcess(pool::Pool::new(n)),
        None => Engines::Process(cfg.engine.clone()),
    };
    let games = api::Games::new(cfg.engine.clone(), engines, cfg.step_pause, store);
    let games = Arc::new(games.with_max_games(cfg.max_games));
    // Before the address is printed: a client that sees it finds the
    // games where they were.
    match games.resume() {
        Ok(0) => {}
        Ok(n) => eprintln!("resumed {n} unfinished game(s)"),
        Err(e) => {
            eprintln!("error: cannot read the kept games: {e}");
            return 2;
        }
    }
    let hosts = Arc::new(http::Hosts::new(&cfg.host, addr.port(), &cfg.public_names));
    let shown = if addr.ip().is_unspecified() {
        format!("127.0.0.1:{}", addr.port())
    } else {
        addr.to_string()
    };
    let url = format!("http://{shown}/");
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening on {url}");
        let _ = out.flush();
    }
    if let Some(e) = &games.engine_error_text() {
        eprintln!("warning: {e}");
    }
    // Ctrl-C stops every engine before exiting.
    let g = games.clone();
    let _ = ctrlc::set_handler(move || shutdown(&g));
    let g = games.clone();
    let after = cfg.abandon_after;
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(Duration::from_millis(500).min(after));
            g.reap(after);
            // Invited people away at their turn: the engine stands in.
            g.take_over();
        }
    });
    if cfg.open {
        open_browser(&url);
    }
    http::serve(listener, games, hosts);
    0
}

/// Stops every game's engine (waiting up to 3 s for them to be reaped)
/// and exits.
pub fn shutdown(games: &api::Games) -> ! {
    games.close_all();
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    while games.live.load(std::sync::atomic::Ordering::SeqCst) > 0
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::process::exit(0)
}

/// Asks the desktop to open `url`; a failure is only reported.
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    match std::process::Command::new(program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        // Reaped on its own thread: no zombie while the server runs.
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(e) => eprintln!("could not open a browser ({program}: {e}); open {url}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_commands_split() {
        assert_eq!(split_command("a b  c").unwrap(), vec!["a", "b", "c"]);
        assert_eq!(
            split_command("'/x y/splut' --flag \"\"").unwrap(),
            vec!["/x y/splut", "--flag", ""]
        );
        assert!(split_command("  ").is_err());
        assert!(split_command("a 'b").is_err());
    }

    #[test]
    fn hosts_are_checked() {
        let h = http::Hosts::new("127.0.0.1", 8080, &[]);
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            assert!(h.allows(ok), "{ok}");
        }
        for bad in ["evil.com:8080", "127.0.0.1:8081", "localhost", "127.0.0.1"] {
            assert!(!h.allows(bad), "{bad}");
        }
    }

    #[test]
    fn public_names_are_answered_to_and_exposure_follows_the_address() {
        let names = [
            "splut.example.org".to_string(),
            "play.example.net:443".to_string(),
        ];
        let h = http::Hosts::new("0.0.0.0", 8080, &names);
        assert!(h.exposed());
        for ok in [
            "splut.example.org",
            "splut.example.org:8080",
            "SPLUT.example.org",
            "play.example.net:443",
            "0.0.0.0:8080",
        ] {
            assert!(h.allows(ok), "{ok}");
        }
        for bad in [
            "splut.example.org:444",
            "play.example.net",
            "evil.example.org",
        ] {
            assert!(!h.allows(bad), "{bad}");
        }
        for ok in [
            "http://splut.example.org",
            "https://splut.example.org",
            "https://play.example.net:443",
        ] {
            assert!(h.allows_origin(ok), "{ok}");
        }
        for bad in [
            "https://evil.example.org",
            "http://127.0.0.1:8080",
            "ftp://splut.example.org",
            "splut.example.org",
            "null",
        ] {
            assert!(!h.allows_origin(bad), "{bad}");
        }
        for local in ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"] {
            let h = http::Hosts::new(local, 8080, &[]);
            assert!(!h.exposed() && !h.rate_limited(), "{local}");
            // Behind a proxy: no shutdown, the rate is the proxy's.
            let h = http::Hosts::new(local, 8080, &names);
            assert!(h.exposed() && !h.rate_limited(), "{local}");
        }
        for public in ["0.0.0.0", "::", "192.168.1.5"] {
            let h = http::Hosts::new(public, 8080, &[]);
            assert!(h.exposed() && h.rate_limited(), "{public}");
        }
        assert!(http::check_public_name("splut.example.org:443").is_ok());
        for bad in ["", "https://x.org", "x.org/path", "a b", ":80"] {
            assert!(http::check_public_name(bad).is_err(), "{bad}");
        }
    }
}
