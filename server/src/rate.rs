//! The rate of requests per client: a token bucket per IP address, held
//! only where the server is exposed (bound beyond loopback).
//!
//! The numbers leave one person's page room: it asks for a game's state
//! in a long-poll (one request a change, at most one a step of the
//! engine's turn), and otherwise a request or a few per click or key
//! (a step, the form's preview, the threats shown). Even an engine
//! playing at full speed (`--step-pause 0`) changes the state at most a
//! few times a second against a person, and a page with all
//! [`super::api::MAX_GAMES`] games open polls each; a burst of
//! [`BURST`] and [`PER_SECOND`] a second is far above that, and far
//! below what a script hammering the server sends.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Requests a client may send at once, after a quiet while.
pub const BURST: f64 = 120.0;

/// Requests a second a client may keep up.
pub const PER_SECOND: f64 = 30.0;

/// Most clients remembered; past it, the quiet ones (their buckets full
/// again, no different from a new client's) and then the longest unseen
/// are dropped.
pub const MAX_CLIENTS: usize = 4096;

/// One client's bucket.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    seen: Instant,
}

/// Every client's bucket.
#[derive(Debug)]
pub struct Rates {
    burst: f64,
    per_second: f64,
    max_clients: usize,
    clients: HashMap<IpAddr, Bucket>,
}

impl Default for Rates {
    fn default() -> Rates {
        Rates::new(BURST, PER_SECOND, MAX_CLIENTS)
    }
}

impl Rates {
    /// Buckets of `burst` tokens, refilled at `per_second`, for at most
    /// `max_clients` clients.
    pub fn new(burst: f64, per_second: f64, max_clients: usize) -> Rates {
        Rates {
            burst,
            per_second,
            max_clients: max_clients.max(1),
            clients: HashMap::new(),
        }
    }

    /// Takes a token of `ip`'s at `now`: `Ok`, or how long until it has
    /// one (a whole number of seconds, at least 1, for `Retry-After`).
    pub fn take(&mut self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        if !self.clients.contains_key(&ip) && self.clients.len() >= self.max_clients {
            self.make_room(now);
        }
        let (burst, per_second) = (self.burst, self.per_second);
        let b = self.clients.entry(ip).or_insert(Bucket {
            tokens: burst,
            seen: now,
        });
        let since = now.saturating_duration_since(b.seen).as_secs_f64();
        b.tokens = (b.tokens + since * per_second).min(burst);
        b.seen = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            return Ok(());
        }
        let wait = (1.0 - b.tokens) / per_second;
        Err(Duration::from_secs(wait.ceil().max(1.0) as u64))
    }

    /// Drops the clients whose buckets are full again; if none, the one
    /// unseen the longest.
    fn make_room(&mut self, now: Instant) {
        let (burst, per_second) = (self.burst, self.per_second);
        self.clients.retain(|_, b| {
            b.tokens + now.saturating_duration_since(b.seen).as_secs_f64() * per_second < burst
        });
        if self.clients.len() >= self.max_clients
            && let Some(oldest) = self
                .clients
                .iter()
                .min_by_key(|(_, b)| b.seen)
                .map(|(ip, _)| *ip)
        {
            self.clients.remove(&oldest);
        }
    }

    /// How many clients are remembered.
    pub fn len(&self) -> usize {
        self.clients.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.clients.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u32) -> IpAddr {
        IpAddr::V4(std::net::Ipv4Addr::from(n))
    }

    #[test]
    fn a_burst_then_the_refill_rate() {
        let mut r = Rates::new(5.0, 2.0, 10);
        let t = Instant::now();
        for _ in 0..5 {
            assert!(r.take(ip(1), t).is_ok());
        }
        assert_eq!(r.take(ip(1), t), Err(Duration::from_secs(1)));
        // Another client has its own bucket.
        assert!(r.take(ip(2), t).is_ok());
        // Half a second refills one token (2 a second), not two.
        let t = t + Duration::from_millis(500);
        assert!(r.take(ip(1), t).is_ok());
        assert!(r.take(ip(1), t).is_err());
        // A long quiet refills up to the burst, no more.
        let t = t + Duration::from_secs(100);
        for _ in 0..5 {
            assert!(r.take(ip(1), t).is_ok());
        }
        assert!(r.take(ip(1), t).is_err());
    }

    #[test]
    fn retry_after_is_the_wait_for_a_token_in_whole_seconds() {
        let mut r = Rates::new(1.0, 0.25, 10);
        let t = Instant::now();
        assert!(r.take(ip(1), t).is_ok());
        assert_eq!(r.take(ip(1), t), Err(Duration::from_secs(4)));
    }

    #[test]
    fn the_table_of_clients_stays_bounded() {
        let mut r = Rates::new(3.0, 1.0, 4);
        let t = Instant::now();
        for n in 0..1000 {
            let _ = r.take(ip(n), t + Duration::from_millis(n as u64));
            assert!(r.len() <= 4, "{} clients", r.len());
        }
        // A busy client is kept while quiet ones come and go... unless
        // every other is as busy: then the longest unseen goes.
        let mut r = Rates::new(3.0, 1.0, 2);
        for _ in 0..3 {
            r.take(ip(1), t).unwrap();
        }
        r.take(ip(2), t).unwrap();
        // ip(2)'s bucket is not full (2 of 3), ip(1)'s is empty: the
        // longest unseen (either, same instant) is dropped, room is made.
        assert!(r.take(ip(3), t + Duration::from_millis(1)).is_ok());
        assert_eq!(r.len(), 2);
        // ip(1) full again after 3 s: dropped first.
        let mut r = Rates::new(3.0, 1.0, 2);
        r.take(ip(1), t).unwrap();
        for _ in 0..3 {
            r.take(ip(2), t + Duration::from_secs(3)).unwrap();
        }
        assert!(r.take(ip(3), t + Duration::from_secs(3)).is_ok());
        assert!(
            r.take(ip(2), t + Duration::from_secs(3)).is_err(),
            "ip 2 kept, empty"
        );
    }
}
