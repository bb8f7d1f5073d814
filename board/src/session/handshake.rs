//! The board's engine handshake: the protocol's machine
//! ([`splut_protocol::handshake`]) asking for win probabilities where the
//! engine offers them, each line awaited at most [`HUNG_AFTER`]. The
//! session, the analysis and the hosts that ask an engine what it offers
//! all begin theirs here.

use super::HUNG_AFTER;
use std::time::Duration;

pub use splut_protocol::handshake::{Handshake, Progress, SHOW_WINPROB};

/// The board's handshake with a fresh engine, begun at `now`.
pub fn begin(now: Duration) -> Handshake {
    Handshake::new(now, HUNG_AFTER).asking_win_probabilities()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_asks_for_win_probabilities_and_waits_its_hung_limit() {
        let mut h = begin(Duration::from_millis(5));
        assert_eq!(h.deadline(), Some(Duration::from_millis(5) + HUNG_AFTER));
        h.commands();
        h.line(
            "option name UCI_ShowWinProb type check default false",
            Duration::ZERO,
        );
        h.line("ugiok", Duration::from_millis(6));
        let sent: Vec<String> = h.commands().iter().map(|c| c.to_string()).collect();
        assert_eq!(
            sent,
            ["setoption name UCI_ShowWinProb value true", "isready"]
        );
    }
}
