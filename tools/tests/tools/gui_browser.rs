//! The web board's page in a real browser: headless Chromium driven over
//! WebDriver (chromedriver, W3C protocol, spoken with the tests' tiny HTTP
//! client), against both of its hosts: `splut gui` (the native server and
//! its engine process) and the static folder of `scripts/web` on a plain
//! file server (the API answered in the page, board-local.js, the engine
//! in a Web Worker). Each test runs once per [`Host`].
//! Needs the Debian packages `chromium` and `chromium-driver`; without them
//! the test fails, unless `SPLUT_SKIP_BROWSER=1` says to skip it; the
//! static host needs the folder too (`web_dir`: `SPLUT_SKIP_WEB=1` skips
//! that host alone).

use crate::support::gui::*;
use serde_json::{Value, json};
use splut_rules::{Position, Square};
use std::cell::Cell;
use std::process::{Child, Command, Stdio};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// The element key of W3C WebDriver.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The token the page keeps for game `id` (the host's, or its link's).
pub(crate) fn page_token(b: &Browser, id: u64) -> Option<String> {
    b.js(&format!(
        "return JSON.parse(localStorage.getItem('splut.tokens') || '{{}}')['{id}'] || null;"
    ))
    .as_str()
    .map(str::to_string)
}

/// A 4-player position where yellow (d8), green (e8) and blue (f8) have
/// only their sorcerers, walled in by each other, the rocks and the
/// board's edge, so their only step is `pass`; red's troll (c7) crushes
/// one of them a turn, each with its first step (onto d7 and north, then
/// e7, then f7), and the game ends on red's third turn.
pub(crate) const FOUR_BOXED_SPN: &str = "R/ySgSbS/rTRRR1/7/9/7/5/1rS1/1 r 3 5 - - -";

/// A position (2 players, red to move, 3 steps) where red can levitate
/// (`d2d3@f3`) and its troll can throw the rock on f3 (north kills green).
pub(crate) const THROW_SPN: &str = "R/gTgDgS/5/7/R7R/7/3R1/rSrDrT/1 r 3 3 - - -";

fn find_program(names: &[&str]) -> Option<String> {
    let path = std::env::var("PATH").unwrap_or_default();
    for name in names {
        for dir in path.split(':').chain(["/usr/bin", "/usr/lib/chromium"]) {
            let p = std::path::Path::new(dir).join(name);
            if p.is_file() {
                return Some(p.to_string_lossy().into_owned());
            }
        }
    }
    None
}

/// Chromium and chromedriver; `None` (skip) only with
/// `SPLUT_SKIP_BROWSER=1`, else a missing one fails the test.
pub(crate) fn browser_programs() -> Option<(String, String)> {
    let (chromium, chromedriver) = (
        find_program(&["chromium", "chromium-browser", "google-chrome"]),
        find_program(&["chromedriver"]),
    );
    let (Some(chromium), Some(chromedriver)) = (chromium, chromedriver) else {
        if std::env::var("SPLUT_SKIP_BROWSER").as_deref() == Ok("1") {
            eprintln!(
                "gui_browser: skipped (SPLUT_SKIP_BROWSER=1; chromium or chromedriver missing)"
            );
            return None;
        }
        panic!(
            "chromium and chromedriver are needed for this test: \
             apt-get install -y chromium chromium-driver (or set SPLUT_SKIP_BROWSER=1 to skip it)"
        );
    };
    Some((chromium, chromedriver))
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Longest a page's load may take before it is tried again (`go`).
const PAGE_LOAD: Duration = Duration::from_secs(20);

/// Whether some test's browsers are running now.
static BROWSER_BUSY: Mutex<bool> = Mutex::new(false);
/// Told when they are done.
static BROWSER_FREE: Condvar = Condvar::new();

thread_local! {
    /// How many of this thread's browsers are running.
    static BROWSERS_HERE: Cell<usize> = const { Cell::new(0) };
}

/// One test's turn at the browser: the tests run their browsers one test
/// at a time. Two Chromiums, each with an engine thinking, on a 2-core
/// machine beside the other tests' engines slowed a page's load past a
/// minute (CI, 2026-11-27). A test may hold several browsers at once (its
/// people and spectators): its thread takes the turn once.
struct BrowserTurn;

impl BrowserTurn {
    fn take() -> BrowserTurn {
        BROWSERS_HERE.with(|n| {
            if n.get() == 0 {
                let mut busy = BROWSER_BUSY.lock().unwrap_or_else(|e| e.into_inner());
                while *busy {
                    busy = BROWSER_FREE.wait(busy).unwrap_or_else(|e| e.into_inner());
                }
                *busy = true;
            }
            n.set(n.get() + 1);
        });
        BrowserTurn
    }
}

impl Drop for BrowserTurn {
    fn drop(&mut self) {
        BROWSERS_HERE.with(|n| {
            n.set(n.get() - 1);
            if n.get() == 0 {
                *BROWSER_BUSY.lock().unwrap_or_else(|e| e.into_inner()) = false;
                BROWSER_FREE.notify_one();
            }
        });
    }
}

/// A chromedriver process and one browser session.
pub(crate) struct Browser {
    driver: Child,
    port: u16,
    session: String,
    /// Put before the names of its screenshots ("static-" on the static
    /// host, whose pictures never go to docs/img).
    shots: &'static str,
    /// Last, so it is given up after the browser has gone.
    _turn: BrowserTurn,
}

impl Browser {
    pub(crate) fn start(chromium: &str, chromedriver: &str) -> Browser {
        let turn = BrowserTurn::take();
        let port = free_port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let mut b = Browser {
            driver,
            port,
            session: String::new(),
            shots: "",
            _turn: turn,
        };
        let t0 = Instant::now();
        loop {
            if let Ok(r) = request(port, "GET", "/status", &[], b"")
                && r.json()["value"]["ready"] == true
            {
                break;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            // A load that hangs is an error after this long (see `go`),
            // not a WebDriver request that never answers.
            "timeouts": {"pageLoad": PAGE_LOAD.as_millis() as u64},
            "goog:chromeOptions": {
                "binary": chromium,
                // No calls out: this machine's network is closed, and
                // Chromium's background connections fail many at a time.
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1200,960",
                         "--disable-background-networking", "--disable-component-update",
                         "--disable-sync", "--disable-quic", "--no-first-run"],
            },
        }}});
        let v = b.call("POST", "/session", Some(caps));
        b.session = v["sessionId"].as_str().expect("session id").to_string();
        b
    }

    /// A WebDriver command; returns its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let r = request(
            self.port,
            method,
            path,
            &[("Content-Type", "application/json")],
            body.as_bytes(),
        )
        .expect("WebDriver request");
        let v = r.json();
        assert_eq!(r.status, 200, "WebDriver {method} {path}: {}", r.body);
        v["value"].clone()
    }

    fn s(&self, rest: &str) -> String {
        format!("/session/{}{rest}", self.session)
    }

    /// Navigates to `url`. A load that has not ended after [`PAGE_LOAD`]
    /// is tried once more: on CI a static page's load once hung for over
    /// a minute, alone among hundreds, and never here.
    pub(crate) fn go(&self, url: &str) {
        let body = json!({ "url": url }).to_string();
        for attempt in 1..=2 {
            let r = request(
                self.port,
                "POST",
                &self.s("/url"),
                &[("Content-Type", "application/json")],
                body.as_bytes(),
            )
            .expect("WebDriver request");
            if r.status == 200 {
                return;
            }
            let timed_out = r.json()["value"]["error"] == "timeout";
            assert!(timed_out && attempt == 1, "WebDriver POST /url: {}", r.body);
            eprintln!("gui_browser: loading {url} timed out; loading it again");
        }
    }

    /// Opens the page at `url` and waits until it says it is ready;
    /// returns when that was (ms from its start).
    pub(crate) fn open(&self, url: &str, what: &str) -> Value {
        self.go(url);
        self.wait(
            "window.splut && window.splut.ready",
            Duration::from_secs(10),
            what,
        )
    }

    pub(crate) fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            &self.s("/execute/sync"),
            Some(json!({"script": script, "args": []})),
        )
    }

    fn find(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            &self.s("/element"),
            Some(json!({"using": "css selector", "value": css})),
        );
        v[ELEMENT].as_str().unwrap().to_string()
    }

    /// Opens the folds (`<details>`) around the element `css`, as a person
    /// opens "New game" or "Advanced" before using what is inside.
    pub(crate) fn reveal(&self, css: &str) {
        self.js(&format!(
            "let d = document.querySelector({css:?}); d = d && d.closest('details'); \
             while (d) {{ d.open = true; d = d.parentElement && d.parentElement.closest('details'); }} \
             return null;"
        ));
    }

    pub(crate) fn click(&self, css: &str) {
        self.reveal(css);
        let e = self.find(css);
        self.call(
            "POST",
            &self.s(&format!("/element/{e}/click")),
            Some(json!({})),
        );
    }

    /// The id of the game the page shows (empty before the first).
    pub(crate) fn shown_game(&self) -> String {
        let v = self.js("return document.getElementById('board').dataset.gameId || '';");
        v.as_str().unwrap_or("").to_string()
    }

    /// Waits until the page shows a game other than `old` (a new game
    /// started or loaded).
    pub(crate) fn wait_other_game(&self, old: &str, what: &str) {
        self.wait(
            &format!("document.getElementById('board').dataset.gameId !== '{old}'"),
            Duration::from_secs(10),
            what,
        );
    }

    /// Asks for a hint and waits for it: its steps as the board holds
    /// them (space-separated), and the first.
    pub(crate) fn hint(&self) -> (Value, String) {
        self.click("#hint");
        let hint = self.wait(
            "document.getElementById('board').dataset.hint",
            Duration::from_secs(10),
            "the hint",
        );
        let first = hint
            .as_str()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string();
        (hint, first)
    }

    /// In the threats position (`THROW_SPN`, Red to move): Red's sorcerer
    /// walks into its own line of fire (`d2d3`) and Red's throw kills it
    /// (`f2f3*w`), ending the game; then the review, which marks the
    /// blunder.
    pub(crate) fn self_kill_reviewed(&self) {
        self.js("playStep('d2d3'); return null;");
        self.wait("game.step_count === 1", Duration::from_secs(5), "the step");
        self.js("playStep('f2f3*w'); return null;");
        self.wait("game.gameover", Duration::from_secs(5), "the end");
        self.click("#review");
        self.wait(
            "document.querySelector('.review-turn[data-mark=\"blunder\"]')",
            Duration::from_secs(20),
            "the review's blunder",
        );
    }

    /// A phone's screen from now on, 390 × 844 CSS pixels, emulated by
    /// Chromium (DevTools through chromedriver): a mobile viewport with
    /// touch.
    pub(crate) fn phone(&self) {
        let cdp = |cmd: &str, params: Value| {
            self.call(
                "POST",
                &self.s("/goog/cdp/execute"),
                Some(json!({"cmd": cmd, "params": params})),
            );
        };
        cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true}),
        );
        cdp(
            "Emulation.setTouchEmulationEnabled",
            json!({"enabled": true, "maxTouchPoints": 5}),
        );
    }

    /// Plays the engine step waiting at the *step by step* pace (*Next
    /// step*), and waits until the page shows it played.
    pub(crate) fn next_step(&self) {
        self.wait("game.waiting", Duration::from_secs(20), "the engine's step");
        let before = self.js("return game.step_count;");
        self.click("#next-step");
        self.wait(
            &format!("game.step_count > {before}"),
            Duration::from_secs(10),
            "the next step",
        );
    }

    pub(crate) fn click_square(&self, sq: &str) {
        self.click(&format!("[data-square=\"{sq}\"]"));
    }

    /// Start, saying yes when the page asks before it replaces a running
    /// game.
    pub(crate) fn start_game(&self) {
        self.click("#start");
        if self
            .js("return !document.getElementById('replace-confirm').classList.contains('hidden');")
            == true
        {
            self.click("#confirm-replace");
        }
    }

    pub(crate) fn choose(&self, step: &str) {
        self.click(&format!("#chooser button[data-step=\"{step}\"]"));
    }

    /// Gives the file input `css` the file at `path`, as a person picking
    /// it does.
    pub(crate) fn upload(&self, css: &str, path: &std::path::Path) {
        let e = self.find(css);
        self.call(
            "POST",
            &self.s(&format!("/element/{e}/value")),
            Some(json!({ "text": path.to_string_lossy() })),
        );
    }

    pub(crate) fn type_into(&self, css: &str, text: &str) {
        self.reveal(css);
        let e = self.find(css);
        self.call(
            "POST",
            &self.s(&format!("/element/{e}/clear")),
            Some(json!({})),
        );
        if text.is_empty() {
            return;
        }
        self.call(
            "POST",
            &self.s(&format!("/element/{e}/value")),
            Some(json!({ "text": text })),
        );
    }

    /// Waits until `script` (an expression) is truthy; returns its value.
    pub(crate) fn wait(&self, expr: &str, limit: Duration, what: &str) -> Value {
        let t0 = Instant::now();
        loop {
            let v = self.js(&format!("return {expr};"));
            if !(v.is_null() || v == false || v == "" || v == 0) {
                return v;
            }
            if t0.elapsed() >= limit {
                panic!(
                    "timed out waiting for {what}; the page: {}",
                    self.page_now()
                );
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// What the page shows and its game's state, for a failure's message.
    fn page_now(&self) -> Value {
        self.js(
            "const g = (typeof game !== 'undefined' && game) || {}; return { \
               status: (document.getElementById('status') || {}).textContent, \
               error: (document.getElementById('error-text') || {}).textContent, \
               game: { id: g.id, version: g.version, side: g.side, steps: g.step_count, \
                 over: g.gameover, thinking: g.thinking, unanswered: g.unanswered, \
                 error: g.error, seats: g.seats }, \
               log: (window.splut && window.splut.log || []).slice(-5) };",
        )
    }

    pub(crate) fn screenshot(&self, name: &str) {
        // Let the pieces' slide (250 ms) end.
        std::thread::sleep(Duration::from_millis(300));
        let v = self.call("GET", &self.s("/screenshot"), None);
        let png = base64_decode(v.as_str().unwrap());
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("target");
        let _ = std::fs::create_dir_all(&dir);
        std::fs::write(dir.join(format!("{}{name}", self.shots)), png).unwrap();
    }
}

impl Browser {
    /// A screenshot of the element `css` alone, to `target/<name>` (and
    /// to `docs/img/<name>` with `SPLUT_GUI_IMAGES=1`: the
    /// README's pictures).
    pub(crate) fn screenshot_of(&self, css: &str, name: &str) {
        std::thread::sleep(Duration::from_millis(300));
        let e = self.find(css);
        let v = self.call("GET", &self.s(&format!("/element/{e}/screenshot")), None);
        let png = base64_decode(v.as_str().unwrap());
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        let _ = std::fs::create_dir_all(root.join("target"));
        std::fs::write(
            root.join("target").join(format!("{}{name}", self.shots)),
            &png,
        )
        .unwrap();
        if self.shots.is_empty() && std::env::var("SPLUT_GUI_IMAGES").as_deref() == Ok("1") {
            std::fs::write(root.join("docs/img").join(name), &png).unwrap();
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(self.port, "DELETE", &self.s(""), &[], b"");
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in s.bytes().filter_map(val) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// The page's two hosts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Host {
    /// `splut gui`: the native server and its engine process.
    Native,
    /// The folder `scripts/web` wrote (`web_dir`) on a plain file server:
    /// the API answered in the page, the engine in a Web Worker.
    Static,
}

/// Two `#[test]`s for a test body taking a [`Host`]: one on each host.
macro_rules! on_both_hosts {
    ($body:ident: $native:ident, $static_:ident) => {
        #[test]
        fn $native() {
            $body(Host::Native)
        }
        #[test]
        fn $static_() {
            $body(Host::Static)
        }
    };
}

/// The page's host for one test.
pub(crate) struct Site {
    pub(crate) host: Host,
    gui: Option<Gui>,
    port: u16,
}

impl Site {
    /// `host`, and a browser; `None` (skip) where `browser_programs` or,
    /// for the static host, `web_dir` says to skip. `gui_args` are
    /// `splut gui`'s (the native host's).
    pub(crate) fn start(host: Host, gui_args: &[&str]) -> Option<(Site, Browser)> {
        let (chromium, chromedriver) = browser_programs()?;
        let site = match host {
            Host::Native => {
                let gui = Gui::start(gui_args);
                let port = gui.port;
                Site {
                    host,
                    gui: Some(gui),
                    port,
                }
            }
            Host::Static => {
                let (port, _) = static_server(crate::web::web_dir()?);
                Site {
                    host,
                    gui: None,
                    port,
                }
            }
        };
        let mut b = Browser::start(&chromium, &chromedriver);
        if host == Host::Static {
            b.shots = "static-";
        }
        Some((site, b))
    }

    pub(crate) fn url(&self) -> String {
        match self.host {
            Host::Native => format!("http://127.0.0.1:{}/", self.port),
            Host::Static => format!("http://127.0.0.1:{}/index.html", self.port),
        }
    }

    /// The native server, for the parts of a test that inspect it directly.
    pub(crate) fn gui(&self) -> Option<&Gui> {
        self.gui.as_ref()
    }

    /// The API's answer to GET `path`: the server's natively; on the
    /// static host the page's own (its `api`, answered by board-local.js).
    pub(crate) fn get(&self, b: &Browser, path: &str) -> Value {
        match &self.gui {
            Some(gui) => {
                // As the page asks: with the token its game gave it.
                let token = game_in_path(path).and_then(|id| page_token(b, id));
                let r = gui.get_as(path, token.as_deref());
                assert_eq!(r.status, 200, "{path}: {}", r.body);
                if path.ends_with("/record") {
                    Value::String(r.body)
                } else {
                    r.json()
                }
            }
            None => b.js(&format!("return await api('GET', {});", json!(path))),
        }
    }

    /// The game's state, as its host holds it.
    pub(crate) fn state(&self, b: &Browser, id: u64) -> Value {
        self.get(b, &format!("/api/games/{id}"))
    }

    /// Polls the game's state until `done` holds (or panics after `limit`).
    pub(crate) fn wait_for(
        &self,
        b: &Browser,
        id: u64,
        limit: Duration,
        what: &str,
        done: impl Fn(&Value) -> bool,
    ) -> Value {
        if let Some(gui) = &self.gui {
            if let Some(t) = page_token(b, id) {
                keep_token(gui.port, id, &t);
            }
            return gui.wait_for(id, limit, what, done);
        }
        let t0 = Instant::now();
        loop {
            let st = self.state(b, id);
            if done(&st) {
                return st;
            }
            assert!(t0.elapsed() < limit, "timed out waiting for {what}: {st}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The id of the game the page shows.
fn game_id(b: &Browser) -> u64 {
    b.js("return document.getElementById('board').dataset.gameId;")
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// The page's board against the server's state and the engine's own
/// answer: the SPN it drew, and every square's content.
fn check_board(b: &Browser, site: &Site, id: u64) -> Value {
    let st = site.state(b, id);
    let drawn = b.js(
        "const o = {}; for (const r of document.querySelectorAll('[data-square]')) \
         o[r.dataset.square] = r.dataset.content; \
         return {spn: document.getElementById('board').dataset.spn, squares: o};",
    );
    let spn = st["spn"].as_str().unwrap();
    assert_eq!(drawn["spn"], spn, "the page drew another position");
    let start = st["start"].as_str().unwrap();
    assert_eq!(engine_query(start, &steps_of(&st), "spn"), spn);
    check_squares(&drawn["squares"], &Position::from_spn(spn).unwrap());
    st
}

/// Every square's content as the page drew it against `pos`.
fn check_squares(squares: &Value, pos: &Position) {
    let squares = squares.as_object().unwrap();
    assert_eq!(squares.len(), 41);
    for sq in Square::all() {
        let want = pos.piece_at(sq).map_or(String::new(), |p| p.to_string());
        assert_eq!(squares[&sq.to_string()], want.as_str(), "square {sq}");
    }
}

/// What the page's board shows: its SPN, whether it is a preview, every
/// square's content.
fn drawn(b: &Browser) -> Value {
    b.js(
        "const o = {}; for (const r of document.querySelectorAll('[data-square]')) \
         o[r.dataset.square] = r.dataset.content; const d = document.getElementById('board').dataset; \
         return {spn: d.spn || null, preview: d.preview === '1', squares: o};",
    )
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

/// Milliseconds from the person's last step being sent to the engine's
/// first step drawn, read from the page's render log.
fn engine_latency(b: &Browser, steps_before: u64) -> f64 {
    let v = b.js(&format!(
        "const l = window.splut.log.find(e => e.steps > {steps_before}); \
         return l ? l.t - window.splut.stepPosted : null;"
    ));
    v.as_f64().expect("the engine's step was drawn")
}

on_both_hosts!(plays_a_whole_game: the_page_plays_a_whole_game_in_a_real_browser_native, the_page_plays_a_whole_game_in_a_real_browser_static);

fn plays_a_whole_game(host: Host) {
    // The native engine is killed below: a process of its own.
    let splut = format!("'{}'", env!("CARGO_BIN_EXE_splut"));
    let Some((site, b)) = Site::start(host, &["--engine", &splut]) else {
        return;
    };
    let movetime = 200.0;
    let mut ready_ms = Vec::new();
    let mut latency = Vec::new();

    // Interactive within 300 ms of opening: read a few times.
    for _ in 0..5 {
        let ready = b.open(&site.url(), "the page");
        ready_ms.push(ready.as_f64().unwrap());
    }

    // A 2-player game against the engine: red is a person.
    let set_seat = |seat: &str, kind: &str, algo: &str, ms: u32| {
        b.click(&format!("#kind-{seat} option[value=\"{kind}\"]"));
        b.click(&format!("#algo-{seat} option[value=\"{algo}\"]"));
        b.type_into(&format!("#ms-{seat}"), &ms.to_string());
    };
    set_seat("g", "engine", "alphabeta", movetime as u32);
    b.start_game();
    b.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game's board",
    );
    let id = game_id(&b);
    check_board(&b, &site, id);
    b.screenshot("gui-start.png");
    // Click the dwarf, its square lights up as a target, click it.
    b.click_square("e2");
    let lit =
        b.js("return [...document.querySelectorAll('.hit.target')].map(e => e.dataset.square);");
    assert_eq!(lit, json!(["e3"]));
    b.click_square("e3");
    b.wait(
        "window.splut.log.some(e => e.steps >= 3 && e.side === 'r' && !e.thinking)",
        Duration::from_secs(15),
        "the engine's reply",
    );
    latency.push(engine_latency(&b, 1) - movetime);
    check_board(&b, &site, id);
    // Take back: the engine's turn and the person's, to the start.
    b.click("#takeback");
    b.wait(
        "game.step_count === 0",
        Duration::from_secs(5),
        "the take-back",
    );
    b.wait(
        "document.querySelector('[data-square=\"e2\"]').dataset.content === 'rD'",
        Duration::from_secs(5),
        "the board after the take-back",
    );
    let st = check_board(&b, &site, id);
    assert_eq!(st["step_count"], 0);
    // The record link and the SPN box.
    if host == Host::Native {
        // The static host makes the file in the page when the link is
        // clicked (no href): its record is read through the page below.
        let href = b.js("return document.getElementById('download').getAttribute('href');");
        // The game's token rides in the link: a download sends no header.
        let href = href.as_str().unwrap();
        assert!(
            href.starts_with(&format!("/api/games/{id}/record?token=")),
            "{href}"
        );
        let gui = site.gui().unwrap();
        let r = gui.get_as(href, None);
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            gui.get_as(&format!("/api/games/{id}/record"), None).status,
            403
        );
    }
    let record = site.get(&b, &format!("/api/games/{id}/record"));
    assert!(record.as_str().unwrap().starts_with("[Game 1]"), "{record}");
    assert_eq!(
        b.js("return document.getElementById('spn-text').value;"),
        st["spn"]
    );
    b.js("window.splut.log = []; return null;");
    b.click_square("e2");
    b.click_square("e3");
    b.wait(
        "window.splut.log.some(e => e.steps >= 3 && e.side === 'r' && !e.thinking)",
        Duration::from_secs(15),
        "the engine's reply",
    );
    latency.push(engine_latency(&b, 1) - movetime);
    check_board(&b, &site, id);
    // More turns for the timing: the page's own playStep with the first
    // legal step (the clicks are tested above and below).
    for _ in 0..6 {
        let st = site.state(&b, id);
        if st["gameover"] == true {
            break;
        }
        assert_eq!(st["side"], "r");
        let mut n = st["step_count"].as_u64().unwrap();
        while b.js("return game.side === 'r' && !game.gameover;") == true {
            b.js("playStep(game.legal[0]); return null;");
            n += 1;
            b.wait(
                &format!("game.step_count >= {n}"),
                Duration::from_secs(5),
                "the person's step",
            );
        }
        if b.js("return game.gameover;") == true {
            break;
        }
        b.wait(
            &format!("window.splut.log.some(e => e.steps > {n}) || game.gameover"),
            Duration::from_secs(15),
            "the engine's reply",
        );
        latency.push(engine_latency(&b, n) - movetime);
        b.wait(
            "(game.side === 'r' && !game.thinking) || game.gameover",
            Duration::from_secs(15),
            "the engine's whole turn",
        );
    }
    check_board(&b, &site, id);

    // From a prepared position: a levitation, a plain step, a throw.
    b.type_into("#start-spn", THROW_SPN);
    b.wait(
        "document.getElementById('kind-g')",
        Duration::from_secs(5),
        "the seats",
    );
    set_seat("r", "person", "auto", 1000);
    set_seat("g", "engine", "alphabeta", movetime as u32);
    b.start_game();
    b.wait_other_game(&id.to_string(), "the new game");
    let id = game_id(&b);
    let st = check_board(&b, &site, id);
    assert!(st["legal"].as_array().unwrap().contains(&json!("d2d3@f3")));
    b.click_square("d2");
    b.click_square("d3");
    // The chooser: step alone, or take the rock on f3 along.
    let choices = b.js("return [...document.querySelectorAll('#chooser button[data-step]')].map(e => e.dataset.step);");
    assert_eq!(choices, json!(["d2d3", "d2d3@f3"]));
    // The levitation says where the rock goes.
    assert_eq!(
        b.js(
            "return document.querySelector('#chooser button[data-step=\"d2d3@f3\"]').textContent;"
        ),
        "levitate the rock from f3 to f4"
    );
    b.choose("d2d3@f3");
    b.wait(
        "document.querySelector('[data-square=\"f4\"]').dataset.levitated === '1'",
        Duration::from_secs(5),
        "the levitated rock",
    );
    b.screenshot("gui-levitation.png");
    check_board(&b, &site, id);
    b.click_square("f2");
    b.click_square("f3");
    b.wait(
        "document.querySelector('[data-square=\"f3\"]').dataset.content === 'rT'",
        Duration::from_secs(5),
        "the troll's step",
    );
    b.click_square("f3");
    b.click_square("f4");
    let choices = b.js("return [...document.querySelectorAll('#chooser button[data-step]')].map(e => e.dataset.step).sort();");
    assert_eq!(choices, json!(["f3f4*e", "f3f4*n", "f3f4*s", "f3f4*w"]));
    // Each throw says where the rock lands and whom it crushes, and the
    // board draws each flight and landing.
    let words = b.js("return Object.fromEntries([...document.querySelectorAll('#chooser button[data-step]')].map(e => [e.dataset.step, e.textContent]));");
    assert_eq!(
        words["f3f4*n"],
        "throw north: lands on f8, crushing Green's sorcerer"
    );
    assert_eq!(words["f3f4*w"], "throw west: lands on b4");
    assert_eq!(words["f3f4*s"], "throw south: lands on f2");
    let landings = b.js("return Object.fromEntries([...document.querySelectorAll('#throw-preview g[data-step]')].map(e => [e.dataset.step, e.dataset.landing + ' ' + e.dataset.crushed]));");
    assert_eq!(
        landings,
        json!({"f3f4*n": "f8 gS", "f3f4*e": "h4 ", "f3f4*s": "f2 ", "f3f4*w": "b4 "})
    );
    b.screenshot_of("#left", "gui-throw.png");
    b.choose("f3f4*w");
    b.wait(
        "window.splut.log.some(e => e.steps >= 4 && e.side === 'r' && !e.thinking)",
        Duration::from_secs(15),
        "the engine's reply",
    );
    latency.push(engine_latency(&b, 3) - movetime);
    let st = check_board(&b, &site, id);
    assert_eq!(
        st["turns"][0]["steps"],
        json!(["d2d3@f3", "f2f3", "f3f4*w"])
    );
    assert_eq!(st["turns"][1]["seat"], "g");

    // The engine dies: the page says so and offers a restart. Native
    // only: the static host's engine is a Web Worker inside the page,
    // which the test cannot kill from outside.
    if let Some(gui) = site.gui() {
        engine_dies_and_restarts(&b, gui, &site, id);
    }

    // A bad SPN is said plainly, and the game on the board stays.
    b.type_into("#start-spn", "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - x");
    b.start_game();
    let text = b.wait(
        "!document.getElementById('error').classList.contains('hidden') && \
         document.getElementById('error-text').textContent",
        Duration::from_secs(5),
        "the SPN error",
    );
    assert!(text.as_str().unwrap().starts_with("bad SPN"), "{text}");
    assert_eq!(
        b.js("return document.getElementById('board').dataset.gameId;"),
        id.to_string()
    );

    // The killing throw, and the banner.
    b.type_into("#start-spn", THROW_SPN);
    b.start_game();
    b.wait_other_game(&id.to_string(), "the new game");
    b.click_square("f2");
    b.click_square("f3");
    b.choose("f2f3*n");
    let winner = b.wait(
        "!document.getElementById('banner').classList.contains('hidden') && document.getElementById('banner').dataset.winner",
        Duration::from_secs(10),
        "the banner",
    );
    assert_eq!(winner, "r");
    let text = b.js("return document.getElementById('banner-title').textContent;");
    assert_eq!(text, "Red wins!");
    // How it ended and every place, in words.
    let reason = b.js("return document.getElementById('banner-reason').textContent;");
    assert_eq!(
        reason,
        "The end: Red's troll f2→f3 throws the rock north: Green's sorcerer is crushed on f8, Green is out (2nd)."
    );
    assert_eq!(
        b.js("return document.getElementById('banner-places').textContent;"),
        "Places: 1st Red · 2nd Green"
    );
    b.screenshot("gui-win.png");

    // A 4-player engine game watched to its end: from a position where
    // the others can only pass and red's troll crushes them one a turn,
    // so it ends in a few turns whatever the engines' seeds (from the
    // start, its length varied from 30 to over 160 turns, and CI's
    // 300 s were once not enough).
    b.type_into("#start-spn", FOUR_BOXED_SPN);
    b.wait(
        "document.getElementById('kind-b')",
        Duration::from_secs(5),
        "the four seats",
    );
    for (seat, kind, algo) in [
        ("r", "person", "alphabeta"),
        ("y", "engine", "greedy"),
        ("g", "engine", "random"),
        ("b", "engine", "greedy"),
    ] {
        set_seat(seat, kind, algo, 20);
    }
    // "Engines only" makes red the engine's too; full strength, as a
    // level below it may overlook a kill for a turn or more.
    b.click("#engines-only");
    b.click("#level option[value=\"full\"]");
    let kill_id = b.shown_game();
    b.start_game();
    b.wait_other_game(&kill_id, "the new game");
    b.wait(
        "!document.getElementById('banner').classList.contains('hidden')",
        Duration::from_secs(120),
        "the end of the 4-player game",
    );
    let id = game_id(&b);
    let st = check_board(&b, &site, id);
    assert_eq!(st["gameover"], true);
    assert!(
        st["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["engine"] == true),
        "{}",
        st["seats"]
    );
    assert_eq!(
        b.js("return document.getElementById('banner').dataset.winner;"),
        st["winner"]
    );
    // Each engine turn: from the first render that shows it thinking to
    // the render of its first step.
    let watched = b.js("const l = window.splut.log, out = [], seen = new Set(); \
         for (let i = 0; i < l.length; i++) if (l[i].think && !seen.has(l[i].think)) { \
           seen.add(l[i].think); \
           const s = l[i].steps, j = l.findIndex((e, k) => k > i && e.steps > s); \
           if (j > 0) out.push(l[j].t - l[i].t); } return out;");
    let mut watched: Vec<f64> = watched
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_f64())
        .map(|t| t - 20.0)
        .collect();
    b.screenshot("gui-4p.png");
    // The finished game's engine is stopped (the server's count: native only).
    if let Some(gui) = site.gui() {
        gui.wait_engines(0, Duration::from_secs(5));
    }

    println!("gui: engine steps shown after their turn (ms): {latency:.0?}");
    let ready = median(&mut ready_ms);
    let reply = median(&mut latency);
    let watch = median(&mut watched);
    println!(
        "gui: page interactive after {ready:.0} ms (median of {}); engine step shown \
         {reply:.0} ms after its {movetime} ms turn (median of {}); in the watched 4-player \
         game {watch:.0} ms past the 20 ms turn (median of {} turns)",
        ready_ms.len(),
        latency.len(),
        watched.len()
    );
    // Generous bounds: machines are noisy; docs/results/speed.md gives the medians.
    assert!(ready < 3000.0, "page interactive after {ready} ms");
    assert!(reply < 3000.0, "engine step {reply} ms late");
}

/// `splut gui`'s engine process is killed: the page says so, offers a
/// restart, and the game goes on with a new engine.
fn engine_dies_and_restarts(b: &Browser, gui: &Gui, site: &Site, id: u64) {
    for (pid, _) in gui.children() {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    b.wait(
        "!document.getElementById('restart').classList.contains('hidden')",
        Duration::from_secs(10),
        "the restart button",
    );
    let text = b.js("return document.getElementById('error-text').textContent;");
    assert!(text.as_str().unwrap().contains("engine crashed"), "{text}");
    b.screenshot("gui-crash.png");
    b.click("#restart");
    b.wait(
        "document.getElementById('error').classList.contains('hidden')",
        Duration::from_secs(10),
        "the restarted engine",
    );
    assert_eq!(gui.engines(), 1);
    check_board(b, site, id);
}

on_both_hosts!(the_new_game_form: the_new_game_form_is_labelled_and_shows_the_start_in_a_real_browser_native, the_new_game_form_is_labelled_and_shows_the_start_in_a_real_browser_static);

fn the_new_game_form(host: Host) {
    let Some((site, b)) = Site::start(host, &[]) else {
        return;
    };
    b.open(&site.url(), "the page");
    // A first visit (a fresh browser profile, nothing remembered): the
    // form offers a beatable named level, not full strength, on both hosts.
    assert_eq!(
        b.js("return [document.getElementById('level').value, \
              document.getElementById('level').selectedOptions[0].textContent.split(' ·')[0]];"),
        json!(["elo:1040", "Beginner"]),
        "{host:?}: the first visit's level"
    );
    // A server's tables (the lobby, the history, friends' seats): shown
    // by splut gui, none on the static board, not even at #lobby.
    let tables = b.js(
        "location.hash = '#lobby';          return [!document.getElementById('tables-nav').classList.contains('hidden'),                  !!document.querySelector('#kind-g option[value=\"invite\"]')];",
    );
    let native = host == Host::Native;
    assert_eq!(tables, json!([native, native]), "{host:?}: the tables");
    b.wait(
        &format!(
            "document.getElementById('lobby-view').classList.contains('hidden') === {}",
            !native
        ),
        Duration::from_secs(5),
        "the lobby view (or none)",
    );
    b.js("location.hash = ''; return 1;");

    // Each seat's controls have visible labels, and are named by them
    // (the algorithm and time in the "Advanced" fold, opened).
    b.reveal("#algo-r");
    let heads = b.js("return ['col-kind', 'col-algo', 'col-ms'].map(id => { \
           const e = document.getElementById(id), r = e.getBoundingClientRect(); \
           return r.width > 0 && r.height > 0 ? e.textContent : null; });");
    assert_eq!(heads, json!(["Person/Engine", "Algorithm", "ms per turn"]));
    for (seat, name) in [("r", "Red"), ("g", "Green")] {
        for (control, label) in [
            ("kind", "Person/Engine"),
            ("algo", "Algorithm"),
            ("ms", "ms per turn"),
        ] {
            let e = b.find(&format!("#{control}-{seat}"));
            let computed = b.call("GET", &b.s(&format!("/element/{e}/computedlabel")), None);
            assert_eq!(computed, format!("{name} {label}"), "#{control}-{seat}");
        }
    }

    // Before Start the board shows the start of the form's player count,
    // and follows it; no game is made for it.
    for players in [3, 4, 2] {
        b.click(&format!("#players option[value=\"{players}\"]"));
        let want = site.get(&b, &format!("/api/preview?players={players}"))["spn"].clone();
        b.wait(
            &format!("document.getElementById('board').dataset.spn === {want}"),
            Duration::from_secs(5),
            "the start drawn",
        );
        let d = drawn(&b);
        assert_eq!(d["preview"], true);
        let start = Position::start(players).unwrap();
        assert_eq!(d["spn"], start.to_spn());
        check_squares(&d["squares"], &start);
        let seats = b.js(
            "return [...document.querySelectorAll('#seats select[data-seat]')].map(e => e.dataset.seat).join('');",
        );
        assert_eq!(seats, ["rg", "ryg", "rygb"][players - 2]);
    }
    // And an SPN's position; a bad one is said under it and draws nothing.
    b.type_into("#start-spn", THROW_SPN);
    b.wait(
        &format!("document.getElementById('board').dataset.spn === '{THROW_SPN}'"),
        Duration::from_secs(5),
        "the SPN drawn",
    );
    check_squares(
        &drawn(&b)["squares"],
        &Position::from_spn(THROW_SPN).unwrap(),
    );
    b.type_into("#start-spn", "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - x");
    let hint = b.wait(
        "document.getElementById('spn-hint').textContent",
        Duration::from_secs(5),
        "the SPN hint",
    );
    assert!(hint.as_str().unwrap().contains("bad SPN"), "{hint}");
    b.wait(
        "!document.getElementById('board').dataset.spn",
        Duration::from_secs(5),
        "an empty board",
    );
    b.type_into("#start-spn", "");
    b.wait(
        &format!(
            "document.getElementById('board').dataset.spn === '{}' && \
             !document.getElementById('spn-hint').textContent",
            Position::start(2).unwrap().to_spn()
        ),
        Duration::from_secs(5),
        "the 2-player start again",
    );
    assert_eq!(b.shown_game(), "", "a game was made for the preview");
    if let Some(gui) = site.gui() {
        // The server's own count (the static host has no status route).
        assert_eq!(gui.get("/api/status").json()["games"], 0);
    }

    // "Engines only": every seat shows as the engine, and no seat can be
    // made a person; unchecked, each seat's own choice is back.
    b.click("#players option[value=\"3\"]");
    b.wait(
        "document.getElementById('kind-y')",
        Duration::from_secs(5),
        "3 seats",
    );
    let kinds = "return [...document.querySelectorAll('#seats select[data-seat]')] \
                 .map(e => e.value + (e.disabled ? '-' : '+'));";
    assert_eq!(b.js(kinds), json!(["person+", "engine+", "engine+"]));
    b.click("#engines-only");
    assert_eq!(b.js(kinds), json!(["engine-", "engine-", "engine-"]));
    // Drawn again for another player count: still all engines.
    b.click("#players option[value=\"4\"]");
    assert_eq!(
        b.js(kinds),
        json!(["engine-", "engine-", "engine-", "engine-"])
    );
    b.screenshot("gui-newgame.png");
    b.click("#engines-only");
    assert_eq!(
        b.js(kinds),
        json!(["person+", "engine+", "engine+", "engine+"])
    );
    b.click("#players option[value=\"2\"]");
    b.click("#engines-only");
    for seat in ["r", "g"] {
        b.type_into(&format!("#ms-{seat}"), "20");
    }
    b.start_game();
    b.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game",
    );
    let id = game_id(&b);
    let st = site.state(&b, id);
    assert_eq!(
        st["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["engine"].as_bool().unwrap())
            .collect::<Vec<_>>(),
        [true, true]
    );
    assert_eq!(drawn(&b)["preview"], false);
    // The engines play: no person is asked for a step.
    site.wait_for(&b, id, Duration::from_secs(20), "the engines' steps", |s| {
        s["step_count"].as_u64().unwrap() >= 3
    });
}

/// The screenshot for the README: `SPLUT_GUI_SCREENSHOT=docs/gui.png`.
#[test]
fn screenshot_for_the_readme() {
    let Ok(target) = std::env::var("SPLUT_GUI_SCREENSHOT") else {
        return;
    };
    let (Some(chromium), Some(chromedriver)) = (
        find_program(&["chromium", "chromium-browser", "google-chrome"]),
        find_program(&["chromedriver"]),
    ) else {
        panic!("chromium and chromedriver are needed");
    };
    let gui = Gui::start(&[]);
    let b = Browser::start(&chromium, &chromedriver);
    b.open(&gui.url(), "the page");
    b.type_into("#start-spn", THROW_SPN);
    b.click("#kind-g option[value=\"engine\"]");
    b.start_game();
    b.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game's board",
    );
    b.click_square("d2");
    b.click_square("d3");
    b.choose("d2d3@f3");
    b.wait(
        "document.querySelector('[data-square=\"f4\"]').dataset.levitated === '1'",
        Duration::from_secs(5),
        "the levitated rock",
    );
    b.click_square("f2");
    b.click_square("f3");
    b.wait(
        "document.querySelector('[data-square=\"f3\"]').dataset.content === 'rT'",
        Duration::from_secs(5),
        "the troll's step",
    );
    b.click_square("f3");
    b.click_square("f4");
    std::thread::sleep(Duration::from_millis(400));
    let v = b.call("GET", &b.s("/screenshot"), None);
    std::fs::write(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(target),
        base64_decode(v.as_str().unwrap()),
    )
    .unwrap();
}

/// Whether the element `css` is shown (not `.hidden`, with a size).
pub(crate) fn shown(b: &Browser, css: &str) -> bool {
    b.js(&format!(
        "const e = document.querySelector('{css}'); \
         return !!e && !e.classList.contains('hidden') && e.getBoundingClientRect().height > 0;"
    )) == true
}

on_both_hosts!(hints_threats_review_browsing: hints_threats_evaluation_review_and_browsing_in_a_real_browser_native, hints_threats_evaluation_review_and_browsing_in_a_real_browser_static);

fn hints_threats_review_browsing(host: Host) {
    let Some((site, b)) = Site::start(host, &[]) else {
        return;
    };
    b.open(&site.url(), "the page");
    // The engine offers levels: a level column.
    assert_eq!(b.js("return !!document.getElementById('col-level');"), true);

    // A person against the engine: the engine's view is a bar and a graph.
    b.click("#kind-g option[value=\"engine\"]");
    b.click("#algo-g option[value=\"alphabeta\"]");
    b.type_into("#ms-g", "100");
    b.start_game();
    b.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game",
    );
    let id = game_id(&b);
    b.click_square("e2");
    b.click_square("e3");
    b.wait("game && game.side === 'r' && !game.thinking && game.step_count === 3 && game.evals.length > 0",
        Duration::from_secs(15), "the engine's reply");
    let bar = b.js("return [...document.querySelectorAll('#evalbar span')].map(e => [e.dataset.seat, Number(e.dataset.p)]);");
    let bar = bar.as_array().unwrap();
    assert_eq!(bar.len(), 2, "{bar:?}");
    let sum: f64 = bar.iter().map(|x| x[1].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 0.01, "{bar:?}");
    assert!(shown(&b, "#evalbar"));
    assert_eq!(
        b.js("return document.querySelectorAll('#graph polyline').length;"),
        2
    );

    // A hint: arrows for the engine's turn, nothing played.
    let (hint, first) = b.hint();
    assert!(
        site.state(&b, id)["legal"]
            .as_array()
            .unwrap()
            .contains(&json!(first)),
        "{hint}"
    );
    let arrows = b.js("return [...document.querySelectorAll('#arrows .arrow-g[data-step]')].map(e => e.dataset.step).join(' ');");
    assert_eq!(arrows, hint);
    assert_eq!(site.state(&b, id)["step_count"], 3);
    b.screenshot_of("#left", "gui-hint.png");

    // Browsing: the position after the first turn, the game unchanged,
    // no step offered; then back to the game.
    b.click("#moves li[data-turn=\"0\"]");
    b.wait(
        "document.getElementById('board').dataset.viewing === '1'",
        Duration::from_secs(5),
        "the position browsed",
    );
    let spns = site.get(&b, &format!("/api/games/{id}/positions"))["spns"].clone();
    assert_eq!(drawn(&b)["spn"], spns[1]);
    check_squares(
        &drawn(&b)["squares"],
        &Position::from_spn(spns[1].as_str().unwrap()).unwrap(),
    );
    assert!(shown(&b, "#browsing"));
    assert_eq!(
        b.js("return document.querySelectorAll('.hit.from').length;"),
        0
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#arrows .arrow-g').length;"),
        0
    );
    assert_eq!(site.state(&b, id)["step_count"], 3);
    // One step of a turn, and the arrow keys step by step.
    b.click("#moves li[data-turn=\"1\"] span[data-end=\"2\"]");
    b.wait(
        "document.getElementById('board').dataset.viewing === '2'",
        Duration::from_secs(5),
        "the position after step 2",
    );
    assert_eq!(drawn(&b)["spn"], spns[2]);
    b.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'})); return null;");
    b.wait(
        "document.getElementById('board').dataset.viewing === '1'",
        Duration::from_secs(5),
        "a step back",
    );
    assert_eq!(drawn(&b)["spn"], spns[1]);
    b.click("#live");
    b.wait(
        "!document.getElementById('board').dataset.viewing",
        Duration::from_secs(5),
        "the live game",
    );
    check_board(&b, &site, id);
    assert!(
        b.js("return document.querySelectorAll('.hit.from').length;")
            .as_u64()
            .unwrap()
            > 0
    );

    // Threats: red's kill at hand, drawn and listed; a blunder reviewed.
    b.type_into("#start-spn", THROW_SPN);
    b.click("#kind-g option[value=\"person\"]");
    b.start_game();
    b.wait_other_game(&id.to_string(), "the new game");
    let id = game_id(&b);
    b.click("#threats-toggle");
    b.wait(
        "document.querySelector('#threat-marks .kill-mark[data-steps=\"f2f3*n\"]')",
        Duration::from_secs(10),
        "the kill at hand drawn",
    );
    let listed = b.js("return document.getElementById('threat-list').textContent;");
    assert!(
        listed
            .as_str()
            .unwrap()
            .contains("Red can kill Green now: f2f3*n"),
        "{listed}"
    );
    b.screenshot_of("#left", "gui-threats.png");
    // Red's sorcerer walks into its own line of fire: green's throw is
    // no threat, red's own throw kills it.
    b.self_kill_reviewed();
    assert_eq!(b.js("return document.querySelector('#moves li[data-turn=\"0\"]').classList.contains('blunder');"), true);
    // The review's chances over the game, one line a seat.
    assert_eq!(
        b.js("return document.querySelectorAll('#graph polyline').length;"),
        2
    );
    b.click(".review-turn[data-turn=\"0\"]");
    b.wait(
        "document.getElementById('board').dataset.viewing === '0'",
        Duration::from_secs(5),
        "the position before the blunder",
    );
    assert_eq!(drawn(&b)["spn"], THROW_SPN);
    let best = b.js("return [...document.querySelectorAll('#arrows .arrow-g[data-step]')].map(e => e.dataset.step);");
    let best = best.as_array().unwrap();
    assert!(!best.is_empty());
    let mut p = Position::from_spn(THROW_SPN).unwrap();
    for s in best {
        p.play(p.parse_step(s.as_str().unwrap()).unwrap());
    }
    assert!(
        !p.in_game(splut_rules::Seat::Green),
        "the better turn kills: {best:?}"
    );
    b.screenshot_of("main", "gui-review.png");
    assert_eq!(site.state(&b, id)["gameover"], true);

    // The game's record loaded from a file: the same game, every seat a
    // person.
    let record = site.get(&b, &format!("/api/games/{id}/record"));
    let record = record.as_str().unwrap();
    let path = crate::support::temp("gui-browser", "game.txt");
    std::fs::write(&path, record).unwrap();
    b.upload("#record-file", &path);
    b.wait_other_game(&id.to_string(), "the loaded game");
    let loaded = check_board(&b, &site, game_id(&b));
    assert_eq!(steps_of(&loaded), ["d2d3", "f2f3*w"]);
    assert_eq!(loaded["start"], THROW_SPN);
    assert!(
        loaded["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["engine"] == false)
    );
}

on_both_hosts!(levels_offered_and_remembered: levels_are_offered_and_remembered_in_a_real_browser_native, levels_are_offered_and_remembered_in_a_real_browser_static);

fn levels_offered_and_remembered(host: Host) {
    // Natively an engine advertising another Elo range (800-2400) than
    // splut's; the static host's levels are board-local.js's (1040-1970,
    // no full-strength Elo claimed).
    let engine = match host {
        Host::Native => levels_engine(
            "gui-browser",
            &crate::support::temp("gui-browser", "levels.log"),
        ),
        Host::Static => String::new(),
    };
    let Some((site, b)) = Site::start(host, &["--engine", &engine]) else {
        return;
    };
    b.go(&site.url());
    b.wait(
        "window.splut && window.splut.ready && document.getElementById('level-g')",
        Duration::from_secs(10),
        "the levels",
    );
    b.reveal("#level-g");
    let e = b.find("#level-g");
    let label = b.call("GET", &b.s(&format!("/element/{e}/computedlabel")), None);
    assert_eq!(label, "Green Level");
    let values =
        b.js("return [...document.querySelectorAll('#level-g option')].map(o => o.value);");
    // One scale: six ratings spread over the engine's UCI_Elo range, named
    // for people with the Elo beside each, then full strength.
    let labels =
        b.js("return [...document.querySelectorAll('#level option')].map(o => o.textContent);");
    match host {
        Host::Native => {
            assert_eq!(
                values,
                json!([
                    "elo:800", "elo:1070", "elo:1330", "elo:1600", "elo:1870", "elo:2130", "full"
                ])
            );
            assert_eq!(labels[0], "Beginner · 800");
            assert_eq!(labels[5], "Expert · 2130");
            // This engine's full strength, measured at the board's 1 s a turn.
            assert_eq!(labels[6], "Full strength · over 2200 at 1 s a turn");
        }
        Host::Static => {
            assert_eq!(
                values,
                json!([
                    "elo:1040", "elo:1200", "elo:1350", "elo:1510", "elo:1660", "elo:1820", "full"
                ])
            );
            assert_eq!(labels[0], "Beginner · 1040");
            assert_eq!(labels[5], "Expert · 1820");
            assert_eq!(labels[6], "Full strength");
        }
    }
    let (third, first) = (values[2].as_str().unwrap(), values[0].as_str().unwrap());
    // One choice sets every engine seat; a seat's own choice shows "mixed".
    b.click(&format!("#level option[value=\"{third}\"]"));
    assert_eq!(
        b.js("return [...document.querySelectorAll('#seats-advanced select[id^=level-]')].map(e => e.value);"),
        json!([third, third])
    );
    b.click(&format!("#level-g option[value=\"{first}\"]"));
    assert_eq!(
        b.js("return document.getElementById('level').value;"),
        "mixed"
    );
    b.click("#kind-g option[value=\"engine\"]");
    b.type_into("#ms-g", "20");
    b.start_game();
    b.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game",
    );
    let id = game_id(&b);
    assert_eq!(
        site.state(&b, id)["seats"][1]["level"],
        json!({"elo": first[4..].parse::<u32>().unwrap()})
    );
    // The win bar says whose view it shows: Green's, at its level.
    b.click_square("e2");
    b.click_square("e3");
    let view = b.wait(
        "!document.getElementById('evalbar-view').classList.contains('hidden') && \
         document.getElementById('evalbar-view').textContent",
        Duration::from_secs(15),
        "the win bar's view",
    );
    assert!(
        view.as_str()
            .unwrap()
            .starts_with("Green's view, an engine at Beginner"),
        "{view}"
    );
    // A level chosen while the game runs is said to be for the next one.
    let said = b.js(&format!(
        "const l = document.getElementById('level'); l.value = '{first}'; \
         l.dispatchEvent(new Event('change')); \
         return !document.getElementById('level-next').classList.contains('hidden');"
    ));
    assert_eq!(said, json!(true), "the level's note");
    // Remembered on the next visit.
    b.go(&site.url());
    b.wait(
        "window.splut && window.splut.ready && document.getElementById('level-g')",
        Duration::from_secs(10),
        "the page again",
    );
    assert_eq!(
        b.js("return document.getElementById('level-g').value;"),
        first
    );
}

/// 3 players: red (a person) has one step left; then yellow's troll can
/// throw the rock on f3 north onto green's sorcerer on f8, and no throw of
/// yellow's reaches red's sorcerer.
const KILL_3P_SPN: &str = "R/gTgDgS/5/7/yS7R/yD6/3R1/rDrSyT/R r 1 3 - - -";

/// Whether the element `css` lies wholly inside the window.
pub(crate) fn in_viewport(b: &Browser, css: &str) -> bool {
    b.js(&format!(
        "const r = document.querySelector('{css}').getBoundingClientRect(); \
         return r.width > 0 && r.left >= 0 && r.top >= 0 && \
         r.right <= window.innerWidth && r.bottom <= window.innerHeight;"
    )) == true
}

/// A tap with a finger (W3C touch actions) on the element `css`.
fn tap(b: &Browser, css: &str) {
    let e = b.find(css);
    let actions = json!({"actions": [{
        "type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"},
        "actions": [
            {"type": "pointerMove", "duration": 0, "origin": {ELEMENT: e}, "x": 0, "y": 0},
            {"type": "pointerDown", "button": 0},
            {"type": "pause", "duration": 50},
            {"type": "pointerUp", "button": 0},
        ],
    }]});
    b.call("POST", &b.s("/actions"), Some(actions));
    b.call("DELETE", &b.s("/actions"), None);
}

on_both_hosts!(what_happened_help_and_a_phone: what_happened_help_and_a_phone_in_a_real_browser_native, what_happened_help_and_a_phone_in_a_real_browser_static);

fn what_happened_help_and_a_phone(host: Host) {
    let Some((site, b)) = Site::start(host, &[]) else {
        return;
    };
    b.open(&site.url(), "the page");
    b.type_into("#start-spn", KILL_3P_SPN);
    b.wait(
        "document.getElementById('kind-y')",
        Duration::from_secs(5),
        "the seats",
    );
    b.click("#kind-y option[value=\"engine\"]");
    b.click("#algo-y option[value=\"greedy\"]");
    b.type_into("#ms-y", "100");
    b.click("#kind-g option[value=\"engine\"]");
    b.type_into("#ms-g", "100");
    b.start_game();
    b.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game",
    );
    let id = game_id(&b);
    // The form folds away while the game runs.
    assert_eq!(
        b.js("return document.getElementById('newgame').open;"),
        false
    );
    b.click_square("d2");
    b.click_square("d3");
    b.wait(
        "game.side === 'r' && !game.thinking && game.step_count > 1",
        Duration::from_secs(20),
        "yellow's turn",
    );
    let st = site.state(&b, id);
    let yellow = st["turns"][1]["steps"].clone();
    assert_eq!(st["turns"][1]["seat"], "y");
    // The log names the killer and the victim; the seat list the place.
    let told = b.js("return document.querySelector('#log li[data-turn=\"1\"]').textContent;");
    assert!(
        told.as_str().unwrap().ends_with(
            "Yellow's troll f2→f3 throws the rock north: Green's sorcerer is crushed on f8, Green is out (3rd)."
        ),
        "{told}"
    );
    let green = b.js(
        "const e = document.querySelector('#seat-list li[data-seat=\"g\"]'); \
         return [e.classList.contains('out'), e.dataset.place, e.textContent];",
    );
    assert_eq!(green[0], true);
    assert_eq!(green[1], "3");
    assert!(green[2].as_str().unwrap().contains("out, 3rd"), "{green}");
    // Yellow's turn is marked on the board until red moves: its steps'
    // squares, the flight and the kill.
    let marked = b.js("return document.getElementById('board').dataset.lastSteps;");
    let yellow_text: Vec<&str> = yellow
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(marked, yellow_text.join(" "));
    assert_eq!(
        b.js("return document.querySelector('#last-top [data-mark=\"kill\"]').dataset.at;"),
        "f8"
    );
    assert_eq!(
        b.js("return document.querySelector('#last-top [data-mark=\"flight\"]').dataset.at;"),
        "f8"
    );
    assert_eq!(
        b.js("return document.querySelector('#last-marks [data-mark=\"to\"][data-at=\"f3\"]') !== null;"),
        true
    );
    // The win bar gives the seat that is out nothing, and shows numbers.
    assert_eq!(
        b.js("return [...document.querySelectorAll('#evalbar span')].map(e => e.dataset.seat).includes('g');"),
        false
    );
    b.screenshot_of("main", "gui-kill.png");
    // Red moves: its own step is marked now, yellow's no longer.
    let step = b.js("return game.legal[0];");
    b.js(&format!("playStep({step}); return null;"));
    b.wait(
        &format!("document.getElementById('board').dataset.lastSteps === {step}"),
        Duration::from_secs(5),
        "red's step marked",
    );

    // Start asks before it replaces the running game.
    b.click("#start");
    assert!(shown(&b, "#replace-confirm"));
    b.click("#cancel-replace");
    assert!(!shown(&b, "#replace-confirm"));
    assert_eq!(game_id(&b), id);

    // Step by step: an engines-only game whose engine steps wait for
    // "Next step"; then no pause, and the game runs on.
    b.click("#pace option[value=\"step\"]");
    b.click("#engines-only");
    b.start_game();
    b.wait_other_game(&id.to_string(), "the engines' game");
    let id = game_id(&b);
    b.wait(
        "!document.getElementById('next-step').classList.contains('hidden')",
        Duration::from_secs(10),
        "the Next step button",
    );
    assert_eq!(site.state(&b, id)["step_count"], 0);
    b.click("#next-step");
    b.wait(
        "game.step_count === 1",
        Duration::from_secs(10),
        "the step asked for",
    );
    b.click("#pace option[value=\"none\"]");
    site.wait_for(
        &b,
        id,
        Duration::from_secs(20),
        "the game running on",
        |s| s["step_count"].as_u64().unwrap() >= 4,
    );
    b.click("#engines-only");

    // How to play opens and closes.
    b.click("#help-open");
    assert!(shown(&b, "#help"));
    let text = b.js("return document.getElementById('help').textContent;");
    assert!(
        text.as_str().unwrap().contains("the last sorcerer left"),
        "{text}"
    );
    b.screenshot("gui-help-full.png");
    b.screenshot_of("#help", "gui-help.png");
    b.click("#help-close");
    assert!(!shown(&b, "#help"));

    // A phone: the whole board and Start fit the screen, the squares are
    // big enough to touch, and a tap makes a step.
    b.phone();
    // A first visit: the game above no longer followed (its next state
    // would keep it again, and so would the page going) nor kept, which a
    // reload would bring back.
    b.js("pollToken++; game = null; localStorage.removeItem('splut.game'); return null;");
    b.open(&site.url(), "the page on a phone");
    let inner = b.js("return [window.innerWidth, window.innerHeight];");
    assert_eq!(inner, json!([390, 844]));
    assert!(in_viewport(&b, "#board"), "the board is cut off");
    assert!(
        in_viewport(&b, "#start"),
        "Start is cut off: {} in {inner}",
        b.js("return JSON.stringify(document.getElementById('start').getBoundingClientRect());")
    );
    let side = b
        .js("return document.querySelector('[data-square=\"e5\"]').getBoundingClientRect().width;");
    assert!(side.as_f64().unwrap() >= 40.0, "squares of {side} px");
    b.screenshot("gui-phone-start.png");
    tap(&b, "#start");
    b.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the phone's game",
    );
    tap(&b, "[data-square=\"e2\"]");
    tap(&b, "[data-square=\"e3\"]");
    b.wait(
        "game.step_count >= 1",
        Duration::from_secs(10),
        "the tapped step",
    );
    assert_eq!(
        site.state(&b, game_id(&b))["turns"][0]["steps"],
        json!(["e2e3"])
    );
    assert!(in_viewport(&b, "#board"));
    // "What happened" is on the first screen, under the board and its
    // buttons; the square names are at least 10 px high.
    assert!(
        in_viewport(&b, "#happened"),
        "What happened is below the screen: {}",
        b.js("return JSON.stringify(document.getElementById('happened').getBoundingClientRect());")
    );
    let label = b.js("const t = document.querySelector('.coord'); \
         return parseFloat(getComputedStyle(t).fontSize) * \
           document.getElementById('board').getBoundingClientRect().width / 504;");
    assert!(
        label.as_f64().unwrap() >= 10.0,
        "square names of {label} px"
    );
    b.screenshot("gui-phone.png");
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    if host == Host::Native && std::env::var("SPLUT_GUI_IMAGES").as_deref() == Ok("1") {
        std::fs::copy(
            root.join("target/gui-phone.png"),
            root.join("docs/img/gui-phone.png"),
        )
        .unwrap();
    }
}

on_both_hosts!(the_pages_words: the_pages_words_for_the_rules_events_agree_with_the_rules_in_a_real_browser_native, the_pages_words_for_the_rules_events_agree_with_the_rules_in_a_real_browser_static);

/// The page's words for the rules' events (narrate.js, from the state's
/// `turns[].events`, splut-board's events) against the rules core: random
/// games of 2, 3 and 4 players, every step told without a gap, every kill
/// told, the seats out in the rules' order (the places themselves are the
/// state's, from `Game::places`: gui_analysis.rs).
fn the_pages_words(host: Host) {
    let mut seed = 0x5eed_u64;
    let mut games = Vec::new();
    for g in 0..90 {
        let players = 2 + g % 3;
        let mut game = splut_rules::Game::new(Position::start(players).unwrap());
        while !game.position().is_game_over() && game.steps().len() < 600 {
            let legal = game.position().legal_step_vec();
            let s = legal[(splut_rules::splitmix64(&mut seed) % legal.len() as u64) as usize];
            game.play(s).unwrap();
        }
        let out: Vec<String> = game.eliminations().iter().map(|s| s.to_string()).collect();
        let events = splut_board::events::turn_events(&game);
        let turns: Vec<Value> = game
            .turns()
            .into_iter()
            .zip(events)
            .map(|((seat, steps), events)| {
                json!({"seat": seat.letter().to_string(),
                       "steps": steps.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                       "events": events})
            })
            .collect();
        games.push(json!({"turns": turns, "out": out, "steps": game.steps().len()}));
    }
    let Some((site, b)) = Site::start(host, &[]) else {
        return;
    };
    b.open(&site.url(), "the page");
    let script = format!(
        "const games = {}; const out = {{steps: 0, kills: 0, bad: []}}; \
         const gap = (w) => /undefined|null|NaN/.test(w); \
         for (const g of games) {{ \
           const told = narrateGame(g.turns); \
           const n = told.turns.reduce((a, t) => a + t.events.length, 0); \
           if (n !== g.steps) out.bad.push('events ' + n + ' of ' + g.steps + ' steps'); \
           for (const t of told.turns) {{ \
             const turn = turnSentences(t.events, {{}}); \
             if (gap(turn)) out.bad.push('gap: ' + turn); \
             for (const ev of t.events) {{ \
               out.steps++; \
               const words = sentence(ev, {{}}), short = stepWords(ev); \
               if (gap(words) || gap(short)) out.bad.push('gap: ' + words + ' / ' + short); \
               for (const o of ev.out) {{ out.kills++; if (!words.includes(SEAT_NAME[o] + ' is out')) out.bad.push('untold: ' + words); }} \
             }} \
           }} \
           if (JSON.stringify(told.outOrder) !== JSON.stringify(g.out)) \
             out.bad.push('out ' + JSON.stringify(told.outOrder) + ' vs ' + JSON.stringify(g.out)); \
         }} \
         return out;",
        Value::Array(games)
    );
    let out = b.js(&script);
    assert_eq!(out["bad"], json!([]), "{out}");
    assert!(out["steps"].as_u64().unwrap() > 10_000, "{out}");
    assert!(out["kills"].as_u64().unwrap() > 50, "{out}");
}

/// The board's top on the screen, in CSS pixels.
fn board_top(b: &Browser) -> f64 {
    b.js("return document.getElementById('board').getBoundingClientRect().top;")
        .as_f64()
        .unwrap()
}

on_both_hosts!(notices_marks_and_a_person_out: notices_marks_and_a_person_out_in_a_real_browser_native, notices_marks_and_a_person_out_in_a_real_browser_static);

/// Issue 52's page items: legal squares in no seat's colour, arrowheads
/// with a rim, the error, the confirm and the end banner over the board
/// (it does not move), and a person out of a 4-player game: the header
/// says so, no hint or take-back, only the last turn marked.
fn notices_marks_and_a_person_out(host: Host) {
    let Some((site, b)) = Site::start(host, &[]) else {
        return;
    };
    b.open(&site.url(), "the page");
    b.type_into("#start-spn", THROW_SPN);
    b.wait(
        "document.getElementById('kind-g')",
        Duration::from_secs(5),
        "the seats",
    );
    b.click("#kind-g option[value=\"engine\"]");
    b.start_game();
    b.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game",
    );
    let id = game_id(&b);
    let top = board_top(&b);

    // A legal square: a light grey, no seat's hue, and a dot.
    b.click_square("d2");
    let fill = b.js(
        "const c = getComputedStyle(document.querySelector('.hit.target')).fill; \
         return [c, document.querySelectorAll('.target-dot').length];",
    );
    let rgb: Vec<f64> = fill[0]
        .as_str()
        .unwrap()
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter(|x| !x.is_empty())
        .take(3)
        .map(|x| x.parse().unwrap())
        .collect();
    let spread =
        rgb.iter().cloned().fold(0.0, f64::max) - rgb.iter().cloned().fold(255.0, f64::min);
    assert!(spread < 30.0, "a legal square's tint {fill}");
    assert!(fill[1].as_u64().unwrap() >= 1, "{fill}");
    b.click_square("d2");

    // Red's kills at hand: green arrowheads on Green's sorcerer, each with
    // a white rim and a shadow.
    b.click("#threats-toggle");
    let heads = b.wait(
        "document.querySelectorAll('#threat-marks .head').length && \
         [...document.querySelectorAll('#threat-marks .head')].map(h => { \
           const c = getComputedStyle(h); return [c.stroke, parseFloat(c.strokeWidth), c.filter]; })",
        Duration::from_secs(10),
        "the kills' arrowheads",
    );
    for h in heads.as_array().unwrap() {
        assert_eq!(h[0], "rgb(255, 255, 255)", "{heads}");
        assert!(h[1].as_f64().unwrap() >= 1.5, "{heads}");
        assert!(h[2].as_str().unwrap().contains("drop-shadow"), "{heads}");
    }
    b.click("#threats-toggle");

    // The error bar and the confirm lie over the board.
    b.js("showError('a test error', true); return null;");
    assert!(shown(&b, "#error"));
    assert_eq!(board_top(&b), top, "the error moved the board");
    b.js("showError('', false); return null;");
    b.click("#start");
    assert!(shown(&b, "#replace-confirm"));
    assert_eq!(board_top(&b), top, "the confirm moved the board");
    b.click("#cancel-replace");

    // The end: the banner lies over the board too, and hides on request.
    // Red's throw north crushes Green's sorcerer in the board's top rows:
    // the banner lies over the bottom, and hides no part of the kill.
    b.js("playStep('f2f3*n'); return null;");
    b.wait(
        "!document.getElementById('banner').classList.contains('hidden')",
        Duration::from_secs(5),
        "the end banner",
    );
    assert_eq!(board_top(&b), top, "the banner moved the board");
    let hidden = b.js(
        "const a = document.getElementById('banner').getBoundingClientRect(); \
         const k = document.querySelector('#last-top [data-mark=\"kill\"]').getBoundingClientRect(); \
         return a.left < k.right && k.left < a.right && a.top < k.bottom && k.top < a.bottom;",
    );
    assert_eq!(hidden, false, "the banner hides the kill");
    b.click("#banner-close");
    assert!(!shown(&b, "#banner"));
    assert_eq!(site.state(&b, id)["gameover"], true);

    // 4 players, Green a person: Yellow's troll crushes Green's sorcerer,
    // and the three engines play on.
    b.type_into(
        "#start-spn",
        "R/gTgDgS/5/bS6/yS7R/yD5bT/3R1/rDrSyT/R y 3 3 - - -",
    );
    b.wait(
        "document.getElementById('kind-y')",
        Duration::from_secs(5),
        "the seats",
    );
    // Leaving the field redraws the seats (its "change"): first that.
    b.js("document.activeElement.blur(); return null;");
    b.click("#kind-r option[value=\"engine\"]");
    b.type_into("#ms-r", "100");
    b.click("#kind-y option[value=\"engine\"]");
    b.click("#algo-y option[value=\"greedy\"]");
    b.type_into("#ms-y", "100");
    b.click("#kind-b option[value=\"engine\"]");
    b.type_into("#ms-b", "100");
    b.click("#kind-g option[value=\"person\"]");
    // Full strength: a level below it (a first visit's) may overlook the
    // kill, and each game draws its own seed.
    b.click("#level option[value=\"full\"]");
    // Step by step, until Green is out: then the page offers to let the
    // engines finish at full speed (issue 63).
    b.click("#pace option[value=\"step\"]");
    b.start_game();
    b.wait_other_game(&id.to_string(), "the 4-player game");
    while b.js("return game.places.g === undefined && !game.gameover;") == true {
        assert!(!shown(&b, "#finish-fast"), "offered while Green plays");
        assert!(!shown(&b, "#end-here"), "an end offered while Green plays");
        b.next_step();
    }
    b.wait(
        "!document.getElementById('finish-fast').classList.contains('hidden')",
        Duration::from_secs(5),
        "the offer to finish at full speed",
    );
    b.click("#finish-fast");
    b.wait("game.pace === 'none'", Duration::from_secs(5), "full speed");
    let seen = b.wait(
        // A whole last turn: the game over, or another seat to move (the
        // engines may already think again: at no pause they always do).
        "(game.turns.length >= 3 || game.gameover) \
           && (game.gameover || game.side !== game.turns[game.turns.length - 1].seat) && { \
           over: game.gameover, out: document.getElementById('status').dataset.out, \
           status: document.getElementById('status').textContent, \
           hint: document.getElementById('hint').disabled, \
           takeback: document.getElementById('takeback').disabled, \
           marked: document.getElementById('board').dataset.lastSteps, \
           last: game.turns[game.turns.length - 1].steps.join(' '), \
           first: game.turns[0].steps.join(' '), killer: game.turns[0].seat }",
        Duration::from_secs(30),
        "the engines playing on",
    );
    assert_eq!(seen["killer"], "y", "{seen}");
    assert!(seen["first"].as_str().unwrap().contains('*'), "{seen}");
    // Only the last turn is marked, never the pile since Green's turn.
    assert_eq!(seen["marked"], seen["last"], "{seen}");
    if seen["over"] == false {
        assert_eq!(seen["out"], "g", "{seen}");
        assert!(
            seen["status"]
                .as_str()
                .unwrap()
                .starts_with("You are out (Green, 4th)."),
            "{seen}"
        );
        assert_eq!(seen["hint"], true, "{seen}");
        assert_eq!(seen["takeback"], true, "{seen}");
        // The host ends it there: the seats still in share the places
        // left, Green keeps its 4th. Step by step first, so that the
        // engines do not end it meanwhile.
        b.click("#pace option[value=\"step\"]");
        b.wait(
            "game.pace === 'step'",
            Duration::from_secs(5),
            "step by step",
        );
        if b.js("return game.gameover;") == true {
            return;
        }
        b.click("#end-here");
        let end = b.wait(
            "game.gameover && !document.getElementById('banner').classList.contains('hidden') && {                title: document.getElementById('banner-title').textContent,                places: document.getElementById('banner-places').textContent }",
            Duration::from_secs(10),
            "the game ended with the places so far",
        );
        assert_eq!(end["title"], "Drawn", "{end}");
        let places = end["places"].as_str().unwrap();
        assert!(
            places.contains("1st") && places.ends_with("4th Green"),
            "{end}"
        );
    }
}

/// A 2-player game, Red a person, Green the engine at `ms` a turn: Red's
/// first turn (one step, by clicks) played, and Green thinking; the
/// game's id and its start.
fn green_thinking(b: &Browser, site: &Site, ms: u32) -> (u64, Value) {
    b.open(&site.url(), "the page");
    b.click("#kind-g option[value=\"engine\"]");
    b.click("#algo-g option[value=\"alphabeta\"]");
    b.type_into("#ms-g", &ms.to_string());
    // Full strength, which thinks its whole time (a first visit's level
    // answers at once).
    b.click("#level option[value=\"full\"]");
    b.start_game();
    b.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game",
    );
    let id = game_id(b);
    let start = drawn(b)["spn"].clone();
    b.click_square("e2");
    b.click_square("e3");
    b.wait(
        "game.step_count === 1 && game.thinking && game.thinking.seat === 'g' && \
         document.getElementById('thinking').textContent.startsWith('Green thinking')",
        Duration::from_secs(10),
        "Green thinking",
    );
    (id, start)
}

on_both_hosts!(take_back_while_the_engine_thinks: a_take_back_while_the_engine_thinks_stops_it_in_a_real_browser_native, a_take_back_while_the_engine_thinks_stops_it_in_a_real_browser_static);

/// Issue 52: "Take back a turn" pressed while the engine searches (a long
/// movetime): the board goes back to the start and is the person's again,
/// and the engine's search is dropped: it plays no step over the rest of
/// its time (neither Green's turn nor Red's); then the person plays and
/// the engine answers as usual.
fn take_back_while_the_engine_thinks(host: Host) {
    let Some((site, b)) = Site::start(host, &[]) else {
        return;
    };
    let ms = 3000;
    let (id, start) = green_thinking(&b, &site, ms);
    let pressed = Instant::now();
    b.click("#takeback");
    b.wait(
        "game.step_count === 0 && !game.thinking && game.side === 'r'",
        Duration::from_secs(5),
        "the take-back",
    );
    assert_eq!(drawn(&b)["spn"], start, "the board is not the start");
    // The person's again: Red's pieces offer their steps.
    b.wait(
        "document.querySelectorAll('.hit.from').length > 0",
        Duration::from_secs(5),
        "Red's steps offered",
    );
    // Until the stopped search's answer has come (the state owes none:
    // `unanswered`), and a moment after, no step appears and the engine
    // does not think again (Red is to move). No window to guess: the late
    // answer is the one that would be played wrongly.
    b.js("window.splut.log = []; return null;");
    let mut answered_at = None;
    loop {
        let seen = b.js(
            "return {log: window.splut.log.filter(e => e.steps > 0 || e.thinking).length, \
             steps: game.step_count, side: game.side, thinking: !!game.thinking};",
        );
        assert_eq!(
            seen,
            json!({"log": 0, "steps": 0, "side": "r", "thinking": false}),
            "the engine played or thought after the take-back"
        );
        let owed = site.state(&b, id)["unanswered"].as_u64();
        match answered_at {
            None if owed == Some(0) => answered_at = Some(Instant::now()),
            Some(t) if t.elapsed() > Duration::from_millis(500) => break,
            _ => {}
        }
        assert!(
            pressed.elapsed() < Duration::from_millis(u64::from(ms) + 10_000),
            "the stopped search never answered: {}",
            site.state(&b, id)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let st = site.state(&b, id);
    assert_eq!(st["step_count"], 0, "{st}");
    assert_eq!(st["side"], "r", "{st}");
    // Red plays again, and Green answers with its own turn.
    b.click_square("e2");
    b.click_square("e3");
    let st = site.wait_for(
        &b,
        id,
        Duration::from_secs(15),
        "Green's turn after Red's",
        |s| s["side"] == "r" && s["step_count"].as_u64().unwrap() >= 3 && s["thinking"].is_null(),
    );
    assert_eq!(st["turns"][0]["steps"], json!(["e2e3"]), "{st}");
    assert_eq!(st["turns"][1]["seat"], "g", "{st}");
}

on_both_hosts!(hint_while_the_engine_thinks: a_hint_while_the_engine_thinks_is_not_the_engines_in_a_real_browser_native, a_hint_while_the_engine_thinks_is_not_the_engines_in_a_real_browser_static);

/// Issue 52: Hint pressed while the engine thinks on its own turn must not
/// give the engine's turn as a hint (the person has nothing to play).
fn hint_while_the_engine_thinks(host: Host) {
    let Some((site, b)) = Site::start(host, &[]) else {
        return;
    };
    green_thinking(&b, &site, 3000);
    // The thinking line, the same on both hosts: the last report with a
    // depth, its score, nodes, time and line.
    b.wait(
        "/^Green thinking…\\ndepth \\d+  score (cp -?\\d+|win \\d+|loss \\d+)  nodes \\d+  \
         time \\d+ ms\\npv [a-i]\\d/.test(document.getElementById('thinking').textContent)",
        Duration::from_secs(5),
        "the thinking line",
    );
    let button = b.js("const h = document.getElementById('hint'); return {disabled: h.disabled};");
    if button["disabled"] == false {
        b.click("#hint");
        // The answer: a hint shown, or refused, and the button back.
        b.wait(
            "document.getElementById('hint').textContent === 'Hint' && \
             (document.getElementById('board').dataset.hint || \
              document.getElementById('error-text').textContent)",
            Duration::from_secs(10),
            "the hint's answer",
        );
    }
    let seen = b.js("return {step_count: game.step_count, side: game.side, \
         hint: document.getElementById('board').dataset.hint || null, \
         text: document.getElementById('hint-text').classList.contains('hidden') ? null : \
           document.getElementById('hint-text').textContent};");
    eprintln!("{host:?}: the Hint button during Green's turn: {button}; then {seen}");
    assert!(
        seen["hint"].is_null() && seen["text"].is_null(),
        "{host:?}: a hint was given while the engine thought on its own turn: {seen}"
    );
}

on_both_hosts!(reload_mid_game: a_reload_mid_game_brings_the_game_back_in_a_real_browser_native, a_reload_mid_game_brings_the_game_back_in_a_real_browser_static);

/// Issue 52: a reload mid-game brings the game back, its position, seats
/// and turns, and it goes on: natively the page attaches to the game the
/// server still plays; on the static board, whose game went with the page,
/// it is started again from the steps the browser kept.
fn reload_mid_game(host: Host) {
    let Some((site, b)) = Site::start(host, &[]) else {
        return;
    };
    let (id, _) = green_thinking(&b, &site, 1000);
    let before = site.wait_for(&b, id, Duration::from_secs(15), "Green's answer", |s| {
        s["side"] == "r" && s["thinking"].is_null() && s["step_count"].as_u64() >= Some(2)
    });
    b.open(&site.url(), "the page again");
    let steps = before["step_count"].as_u64().unwrap();
    b.wait(
        &format!("document.body.dataset.ready && game && game.step_count === {steps}"),
        Duration::from_secs(15),
        "the game back",
    );
    let after = b.js("return game;");
    for key in ["spn", "start", "seats", "side"] {
        assert_eq!(after[key], before[key], "{host:?}: {key}");
    }
    let turns = |s: &Value| -> Vec<Value> {
        s["turns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["steps"].clone())
            .collect()
    };
    assert_eq!(turns(&after), turns(&before), "{host:?}");
    if host == Host::Native {
        assert_eq!(
            after["id"],
            json!(id),
            "natively the same game, attached to"
        );
    }
    assert_eq!(drawn(&b)["spn"], before["spn"], "the board drawn");
    // It goes on: Red's steps are offered again.
    b.wait(
        "document.querySelectorAll('.hit.from').length > 0",
        Duration::from_secs(5),
        "Red's steps offered",
    );
}

/// Issue 52: "Replace it" (a new game over one in play) leaves no poll of
/// the old game behind to fail when the server closes it (natively: the
/// static host answers in the page, with no HTTP requests to watch).
#[test]
fn replacing_a_game_leaves_no_poll_behind_in_a_real_browser_native() {
    let Some((site, b)) = Site::start(Host::Native, &[]) else {
        return;
    };
    // A game whose long poll waits: Green thinks for 3 s.
    let (id, _) = green_thinking(&b, &site, 3000);
    b.start_game();
    b.wait(
        &format!("game && game.id !== {id}"),
        Duration::from_secs(10),
        "the new game",
    );
    std::thread::sleep(Duration::from_millis(1500));
    let failed = b.js("return performance.getEntriesByType('resource') \
           .filter(e => e.name.includes('/api/games/') && e.responseStatus >= 400) \
           .map(e => `${e.responseStatus} ${e.name}`);");
    let seen = b.js("return performance.getEntriesByType('resource') \
           .filter(e => e.name.includes('/api/games/')).length;");
    assert!(seen.as_u64() > Some(2), "the polls are seen: {seen}");
    assert_eq!(failed, json!([]), "old polls failed after Replace");
    assert_eq!(
        b.js("return document.getElementById('error-text').textContent;"),
        json!(""),
        "no error said"
    );
}
