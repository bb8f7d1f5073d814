//! The engine's clock: a monotonic [`Instant`] that the search, the
//! protocol and the bench read.
//!
//! On every target with an operating system it is `std::time::Instant`.
//! `wasm32-unknown-unknown` has no clock of its own (`std`'s `Instant`
//! panics there), so a host that runs the engine in WebAssembly gives it
//! one with [`set_source`] (milliseconds from any fixed origin, such as
//! `performance.now()`); until it does, time stands still there and only
//! node and depth limits end a search.

use std::time::Duration;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod imp {
    use std::time::Duration;

    /// A moment on the monotonic clock.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(std::time::Instant);

    impl Instant {
        pub fn now() -> Instant {
            Instant(std::time::Instant::now())
        }

        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_duration_since(earlier.0)
        }

        pub fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d)
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod imp {
    use std::sync::OnceLock;
    use std::time::Duration;

    /// The host's clock, in milliseconds.
    pub static SOURCE: OnceLock<fn() -> f64> = OnceLock::new();

    /// A moment on the host's clock, in milliseconds.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            Instant(SOURCE.get().map_or(0.0, |f| f()))
        }

        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }

        pub fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }
}

/// A moment on the engine's clock.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Instant(imp::Instant);

impl Instant {
    /// Now.
    pub fn now() -> Instant {
        Instant(imp::Instant::now())
    }

    /// Time since this moment (zero if the clock went back).
    pub fn elapsed(&self) -> Duration {
        Instant::now().saturating_duration_since(*self)
    }

    /// Time from `earlier` to this moment (zero if `earlier` is later).
    pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
        self.0.saturating_duration_since(earlier.0)
    }
}

impl std::ops::Add<Duration> for Instant {
    type Output = Instant;
    fn add(self, d: Duration) -> Instant {
        Instant(self.0.add(d))
    }
}

/// Gives the engine its clock on `wasm32-unknown-unknown`: `now_ms`
/// returns milliseconds since any fixed origin and never goes back. The
/// first source given stays; returns whether this one was taken. On other
/// targets the engine has `std`'s clock, and this does nothing (false).
pub fn set_source(now_ms: fn() -> f64) -> bool {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        imp::SOURCE.set(now_ms).is_ok()
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        let _ = now_ms;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_runs_forward() {
        let t = Instant::now();
        std::thread::sleep(Duration::from_millis(5));
        assert!(t.elapsed() >= Duration::from_millis(5));
        assert!(t + Duration::from_millis(1) > t);
        assert_eq!(t.saturating_duration_since(Instant::now()), Duration::ZERO);
        assert!(!set_source(|| 0.0), "std's clock is not replaced");
    }
}
