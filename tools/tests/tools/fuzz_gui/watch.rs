//! The server under test: the real `splut gui` on a free loopback port,
//! its stderr kept (a panic is a failure), and a thread that samples its
//! memory (`VmRSS`) and its child processes (its engines) from /proc.

use crate::support::gui::children_of;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Read;
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Bytes of the server's stderr kept for a report (the end of it).
const STDERR_KEEP: usize = 256 * 1024;

/// A zombie child seen for this long is one the server never reaped.
pub const ZOMBIE_GRACE: Duration = Duration::from_secs(3);

/// What the sampler saw.
#[derive(Debug, Default)]
pub struct Samples {
    /// RSS in KiB at the first sample, and the largest.
    pub rss_first_kib: u64,
    pub rss_peak_kib: u64,
    /// Most children at once.
    pub children_peak: usize,
    /// Most threads and open file descriptors of the server at once.
    pub threads_peak: u64,
    pub fds_peak: usize,
    /// Every child ever seen: its pid and its start time (a pid alone
    /// may be another process's later).
    pub pids: BTreeMap<u32, u64>,
    /// When each child was first seen a zombie.
    zombie_since: HashMap<u32, Instant>,
    /// Zombies older than [`ZOMBIE_GRACE`].
    pub stale_zombies: BTreeSet<u32>,
    pub samples: u64,
}

/// The server and its watchers.
pub struct Server {
    pub child: Child,
    pub port: u16,
    stderr: Arc<Mutex<Vec<u8>>>,
    pub samples: Arc<Mutex<Samples>>,
    stop: Arc<AtomicBool>,
}

/// A number field of /proc/<pid>/status (`VmRSS` in KiB, `Threads`).
pub fn status_field(pid: u32, name: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// Open file descriptors of process `pid`.
pub fn fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

impl Server {
    /// `splut gui --port 0` with `args`.
    pub fn start(args: &[&str]) -> Server {
        let (mut child, port, mut out) = crate::support::gui::spawn(args, Stdio::piped());
        // Anything more on stdout is drained, so the server never blocks.
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = out.read_to_end(&mut sink);
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut err = child.stderr.take().unwrap();
        let keep = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut k = keep.lock().unwrap();
                k.extend_from_slice(&buf[..n]);
                if k.len() > 2 * STDERR_KEEP {
                    let cut = k.len() - STDERR_KEEP;
                    k.drain(..cut);
                }
            }
        });
        let samples = Arc::new(Mutex::new(Samples::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let (pid, s, st) = (child.id(), samples.clone(), stop.clone());
        std::thread::spawn(move || {
            while !st.load(Ordering::SeqCst) {
                sample(pid, &s);
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        Server {
            child,
            port,
            stderr,
            samples,
            stop,
        }
    }

    /// The server's stderr so far (its end).
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Whether the server process still runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The children of the server now.
    pub fn children(&self) -> Vec<(u32, char)> {
        children_of(self.child.id())
    }

    /// Stops sampling.
    pub fn stop_sampling(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop_sampling();
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn sample(pid: u32, s: &Mutex<Samples>) {
    let Some(rss) = status_field(pid, "VmRSS") else {
        return;
    };
    let threads = status_field(pid, "Threads").unwrap_or(0);
    let fds = fds(pid);
    let kids = children_of(pid);
    let now = Instant::now();
    let mut s = s.lock().unwrap();
    if s.samples == 0 {
        s.rss_first_kib = rss;
    }
    s.samples += 1;
    s.rss_peak_kib = s.rss_peak_kib.max(rss);
    s.children_peak = s.children_peak.max(kids.len());
    s.threads_peak = s.threads_peak.max(threads);
    s.fds_peak = s.fds_peak.max(fds);
    for &(p, _) in &kids {
        if !s.pids.contains_key(&p)
            && let Some(t) = start_time(p)
        {
            s.pids.insert(p, t);
        }
    }
    let zombies: Vec<u32> = kids.iter().filter(|k| k.1 == 'Z').map(|k| k.0).collect();
    s.zombie_since.retain(|p, _| zombies.contains(p));
    for p in zombies {
        let since = *s.zombie_since.entry(p).or_insert(now);
        if now.duration_since(since) > ZOMBIE_GRACE {
            s.stale_zombies.insert(p);
        }
    }
}

/// When process `pid` started (field 22 of /proc/<pid>/stat, in ticks
/// since boot).
pub fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.rsplit_once(')')?.1;
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the process `pid` that started at `started` still runs (not a
/// zombie, and not another process given the same pid since).
pub fn still_running(pid: u32, started: u64) -> bool {
    crate::support::gui::running(pid) && start_time(pid) == Some(started)
}
