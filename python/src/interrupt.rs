//! Long calls that Ctrl-C interrupts: the work runs on a worker thread
//! with the GIL released while the calling thread wakes every [`POLL`] to
//! let Python check for signals. When a signal handler raises (Ctrl-C:
//! `KeyboardInterrupt`), the work is told to stop, waited for, and the
//! exception returned.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the calling thread checks for signals while work runs.
pub(crate) const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread, the GIL released, and returns what it
/// returned. Every [`POLL`] the calling thread checks for signals; once a
/// handler raises, `stop` is called (again every [`POLL`]) until the work
/// returns, and the handler's exception is the result.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &(dyn Fn() + Sync),
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let done = AtomicBool::new(false);
    let result: Mutex<Option<T>> = Mutex::new(None);
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let value = work();
            if let Ok(mut slot) = result.lock() {
                *slot = Some(value);
            }
            done.store(true, Ordering::Release);
            caller.unpark();
        });
        let mut interrupted: Option<PyErr> = None;
        loop {
            py.detach(|| wait(&done, POLL));
            if done.load(Ordering::Acquire) || worker.is_finished() {
                break;
            }
            if interrupted.is_none() {
                interrupted = py.check_signals().err();
            }
            if interrupted.is_some() {
                stop();
            }
        }
        let joined = py.detach(|| worker.join());
        if let Some(e) = interrupted {
            return Err(e);
        }
        let value = joined
            .ok()
            .and_then(|()| result.lock().ok()?.take())
            .ok_or_else(|| PyRuntimeError::new_err("the work failed (internal error)"))?;
        Ok(value)
    })
}

/// Parks until `done` is set or `timeout` has passed.
fn wait(done: &AtomicBool, timeout: Duration) {
    let until = Instant::now() + timeout;
    while !done.load(Ordering::Acquire) {
        let now = Instant::now();
        if now >= until {
            return;
        }
        std::thread::park_timeout(until - now);
    }
}
