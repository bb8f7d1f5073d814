//! The engine as a child process. Nothing here blocks without a deadline:
//! stdin is written by its own thread (a hung engine with a full pipe must
//! not hang the fuzzer), stdout and stderr are read by their own threads,
//! and the child is killed when the driver is dropped.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Lines of the transcript kept for a failure report.
const TRANSCRIPT_LINES: usize = 400;
/// Bytes of stderr kept (the end of it: a panic message).
const STDERR_KEEP: usize = 64 * 1024;
/// Bytes of one session's input kept for the replay file.
const REPLAY_KEEP: usize = 32 << 20;

/// What the stdout thread saw.
pub enum Received {
    /// A line, without its `\n`, as raw bytes, and when it was read.
    Line(Vec<u8>, Instant),
    /// Stdout closed: the engine exited (or closed it).
    Eof,
}

/// A running engine.
pub struct Driver {
    child: Child,
    stdin: Option<Sender<Vec<u8>>>,
    stdout: Receiver<Received>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// The last lines sent (`>`) and received (`<`), escaped.
    pub transcript: VecDeque<String>,
    /// Everything sent this session (up to a cap), for a replay file.
    pub replay: Vec<u8>,
    /// Lines sent.
    pub lines_sent: u64,
    /// Whether stdout has closed.
    pub eof: bool,
    /// When the last line returned by [`Driver::recv`] was read from the
    /// pipe: a deadline is judged by it, not by when the fuzzer got round
    /// to it.
    pub arrived: Instant,
    started: Instant,
}

/// Bytes as printable text: control and non-ASCII bytes as `\xNN`, cut to
/// `max` bytes with the full length noted.
pub fn escape(bytes: &[u8], max: usize) -> String {
    let mut s = String::new();
    for &b in bytes.iter().take(max) {
        match b {
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    if bytes.len() > max {
        s.push_str(&format!("…[{} bytes in all]", bytes.len()));
    }
    s
}

impl Driver {
    /// Starts the engine binary: this crate's, or the one that
    /// `SPLUT_FUZZ_ENGINE` names (an older build, to see what the fuzzer
    /// finds in it).
    pub fn spawn() -> Driver {
        let engine = std::env::var_os("SPLUT_FUZZ_ENGINE")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_splut").into());
        Driver::spawn_command(Command::new(engine))
    }

    /// Starts the WebAssembly engine: `node <script>` (`splut-node.mjs`).
    pub fn spawn_node(script: &std::path::Path) -> Driver {
        let mut command = Command::new("node");
        command.arg(script);
        Driver::spawn_command(command)
    }

    /// Starts `command` as the engine.
    pub fn spawn_command(mut command: Command) -> Driver {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start splut");
        let (in_tx, in_rx) = channel::<Vec<u8>>();
        let mut stdin = child.stdin.take().expect("stdin");
        std::thread::spawn(move || {
            for bytes in in_rx {
                if stdin.write_all(&bytes).and_then(|_| stdin.flush()).is_err() {
                    break;
                }
            }
        });
        let (out_tx, out_rx) = channel();
        let stdout = child.stdout.take().expect("stdout");
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match r.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if line.last() == Some(&b'\n') {
                            line.pop();
                        }
                        if out_tx.send(Received::Line(line, Instant::now())).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = out_tx.send(Received::Eof);
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut err_pipe = child.stderr.take().expect("stderr");
        let keep = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut k = keep.lock().unwrap_or_else(|p| p.into_inner());
                k.extend_from_slice(&buf[..n]);
                if k.len() > STDERR_KEEP {
                    let cut = k.len() - STDERR_KEEP;
                    k.drain(..cut);
                }
            }
        });
        Driver {
            child,
            stdin: Some(in_tx),
            stdout: out_rx,
            stderr,
            transcript: VecDeque::new(),
            replay: Vec::new(),
            lines_sent: 0,
            eof: false,
            arrived: Instant::now(),
            started: Instant::now(),
        }
    }

    fn note(&mut self, entry: String) {
        if self.transcript.len() == TRANSCRIPT_LINES {
            self.transcript.pop_front();
        }
        let t = self.started.elapsed().as_millis();
        self.transcript.push_back(format!("{t:>7}ms {entry}"));
    }

    /// Queues bytes for the engine's stdin (each `\n`-ended line counts as
    /// one line sent). Never blocks.
    pub fn send(&mut self, bytes: &[u8]) {
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            let shown = line.strip_suffix(b"\n").unwrap_or(line);
            self.note(format!("> {}", escape(shown, 300)));
            if line.ends_with(b"\n") {
                self.lines_sent += 1;
            }
        }
        if self.replay.len() + bytes.len() <= REPLAY_KEEP {
            self.replay.extend_from_slice(bytes);
        }
        if let Some(tx) = &self.stdin {
            let _ = tx.send(bytes.to_vec());
        }
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_input(&mut self) {
        self.note("> (end of input)".into());
        self.stdin = None;
    }

    /// The next line, `Ok(None)` on timeout, `Err(())` once stdout closed.
    pub fn recv(&mut self, timeout: Duration) -> Result<Option<Vec<u8>>, ()> {
        if self.eof {
            return Err(());
        }
        match self.stdout.recv_timeout(timeout) {
            Ok(Received::Line(l, at)) => {
                self.arrived = at;
                self.note(format!("< {}", escape(&l, 300)));
                Ok(Some(l))
            }
            Ok(Received::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.note("< (end of output)".into());
                self.eof = true;
                Err(())
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    /// The exit status, if the engine has exited.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Waits up to `timeout` for the engine to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(s) = self.exited() {
                return Some(s);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The end of what the engine wrote to stderr.
    pub fn stderr_tail(&self) -> String {
        let k = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&k).into_owned()
    }

    /// Kills the engine (idempotent).
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.kill();
    }
}
