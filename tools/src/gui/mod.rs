//! `splut gui`: a local web board. A small HTTP server (`server`) serves
//! the page (`page/`, embedded) and a JSON API (`api`); each game
//! (`session`) has one engine spoken to over the protocol ([`Link`]): an
//! engine in this process whose searches share a bounded [`pool`], or,
//! with `--engine`, a process of its own (through [`splut_play::client`]).
//! The board's machines speak the protocol (the handshake included):
//! here engines are only spawned, and their lines and commands carried.

pub mod analyst;
pub mod api;
pub mod pool;
pub mod rate;
pub mod server;
pub mod session;
pub mod store;
pub mod table;
pub use splut_board::threats;

use splut_board::session::handshake::{Handshake, Progress};
use splut_play::client::Client;
use splut_protocol::Command;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

/// How long `quit` is given before the process is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How long the probe waits for each line before it looks at the time.
const PROBE_POLL: Duration = Duration::from_millis(20);

/// Spawns the engine `command` (program and arguments), counted in
/// `live` while it lives; no handshake (the board's machines do it).
pub fn spawn_engine(command: &[String], live: &Arc<AtomicUsize>) -> Result<Client, String> {
    Client::spawn(command)
        .map(|c| c.count_in(live))
        .map_err(|e| e.to_string())
}

/// What the games' engine offers: a fresh one from `engines`, its
/// handshake done by the board's [`Handshake`] machine (this only carries
/// its lines, and keeps its clock), ended after; its answer to `ugi` (its
/// `id` and `option` lines).
pub fn probe(engines: &Engines, live: &Arc<AtomicUsize>) -> Result<Vec<String>, String> {
    let mut link = engines.spawn(live, (&Default::default(), &Default::default()))?;
    let began = Instant::now();
    let mut handshake = Handshake::new(Duration::ZERO);
    let outcome = loop {
        if let Err(e) = handshake
            .commands()
            .iter()
            .try_for_each(|c| link.command(c))
        {
            break Err(e);
        }
        if handshake.done() {
            break Ok(handshake.lines().to_vec());
        }
        if let Some(why) = handshake.overdue(began.elapsed()) {
            break Err(format!("the engine failed its handshake: {why}"));
        }
        match link.recv(PROBE_POLL) {
            Ok(Some(line)) => {
                if let Progress::Failed(why) = handshake.line(&line, began.elapsed()) {
                    break Err(format!("the engine refused its handshake: {why}"));
                }
            }
            Ok(None) if !link.alive() => break Err("the engine exited".into()),
            Ok(None) => {}
            Err(e) => break Err(e),
        }
    };
    link.quit(QUIT_GRACE);
    outcome
}

/// Where the games' engines come from.
#[derive(Clone)]
pub enum Engines {
    /// A process per game, running this command (`--engine`).
    Process(Vec<String>),
    /// An engine per game in this process, its searches in this pool.
    InProcess(pool::Pool),
}

impl Engines {
    /// A fresh engine for a game, spawned (no handshake: the game's
    /// machine does it); a process is counted in `live`, an in-process
    /// engine's waits for a slot in `waited` and its lines ring `bell`.
    pub fn spawn(
        &self,
        live: &Arc<AtomicUsize>,
        (waited, bell): (&Arc<pool::Waited>, &Arc<pool::Bell>),
    ) -> Result<Link, String> {
        match self {
            Engines::Process(command) => spawn_engine(command, live).map(Link::Process),
            Engines::InProcess(pool) => pool::Seat::start(pool, waited, bell).map(Link::InProcess),
        }
    }

    /// The pool's searches running and waiting (none without a pool).
    pub fn searches(&self) -> (usize, usize) {
        match self {
            Engines::Process(_) => (0, 0),
            Engines::InProcess(pool) => pool.counts(),
        }
    }
}

/// One game's engine: a process, or an engine in this process; both
/// speak protocol lines.
pub enum Link {
    /// A process (`--engine`).
    Process(Client),
    /// An engine in this process.
    InProcess(pool::Seat),
}

impl Link {
    /// Sends one command: a process its line, an engine in this process
    /// the command itself.
    pub fn command(&mut self, command: &Command) -> Result<(), String> {
        match self {
            Link::Process(c) => c.command(command).map_err(|e| e.to_string()),
            Link::InProcess(s) => s.command(command.clone()),
        }
    }

    /// The engine's next line, waiting at most `wait` for it; `Ok(None)`
    /// also once it ended ([`Link::alive`] tells).
    pub fn recv(&mut self, wait: Duration) -> Result<Option<String>, String> {
        match self {
            Link::Process(c) => c.recv(wait).map_err(|e| e.to_string()),
            Link::InProcess(s) => Ok(s.recv(wait)),
        }
    }

    /// Whether its lines ring the game's bell ([`pool::Bell`]): an
    /// in-process engine's do; a process's are polled.
    pub fn rings(&self) -> bool {
        matches!(self, Link::InProcess(_))
    }

    /// Whether the engine still runs.
    pub fn alive(&mut self) -> bool {
        match self {
            Link::Process(c) => c.alive(),
            Link::InProcess(s) => s.alive(),
        }
    }

    /// Ends the engine: a process is given `grace` to quit, then killed.
    pub fn quit(self, grace: Duration) {
        match self {
            Link::Process(c) => {
                c.quit(grace);
            }
            Link::InProcess(s) => s.quit(),
        }
    }
}

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
    let hosts = Arc::new(server::Hosts::new(
        &cfg.host,
        addr.port(),
        &cfg.public_names,
    ));
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
    server::serve(listener, games, hosts);
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
        let h = server::Hosts::new("127.0.0.1", 8080, &[]);
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
        let h = server::Hosts::new("0.0.0.0", 8080, &names);
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
            let h = server::Hosts::new(local, 8080, &[]);
            assert!(!h.exposed() && !h.rate_limited(), "{local}");
            // Behind a proxy: no shutdown, the rate is the proxy's.
            let h = server::Hosts::new(local, 8080, &names);
            assert!(h.exposed() && !h.rate_limited(), "{local}");
        }
        for public in ["0.0.0.0", "::", "192.168.1.5"] {
            let h = server::Hosts::new(public, 8080, &[]);
            assert!(h.exposed() && h.rate_limited(), "{public}");
        }
        assert!(server::check_public_name("splut.example.org:443").is_ok());
        for bad in ["", "https://x.org", "x.org/path", "a b", ":80"] {
            assert!(server::check_public_name(bad).is_err(), "{bad}");
        }
    }
}
