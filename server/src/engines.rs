//! The games' engines as the server holds them: spawned (a process, or
//! an engine seat in this process, [`crate::pool`]) and spoken to over
//! typed protocol commands and lines ([`Link`]). The board's machines
//! speak the protocol, the handshake included: here engines are only
//! spawned, their commands and lines carried, and ended.

use crate::pool;
use splut_board::session::handshake::{self, Progress};
use splut_play::client::Client;
use splut_protocol::Command;
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
/// handshake done by the board's [`handshake`] machine (this only carries
/// its lines, and keeps its clock), ended after; its answer to `ugi` (its
/// `id` and `option` lines).
pub fn probe(engines: &Engines, live: &Arc<AtomicUsize>) -> Result<Vec<String>, String> {
    let mut link = engines.spawn(live, (&Default::default(), &Default::default()))?;
    let began = Instant::now();
    let mut handshake = handshake::begin(Duration::ZERO);
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
