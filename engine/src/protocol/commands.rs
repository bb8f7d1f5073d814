//! The commands that carry arguments, as the engine takes them: they are
//! read by the protocol's one parser ([`splut_protocol::command`]); here
//! `go`'s limits become a search's [`Limits`] for the game at hand.
//! Nothing here touches the engine's state.

use crate::search::time::Clock;
use crate::search::{Limits, MAX_DEPTH};
use splut_rules::Seat;

pub use splut_protocol::command::{
    Go, GoCommandError, MAX_MS, PositionCommand, PositionCommandError, SetOption,
    SetOptionCommandError, parse_setoption,
};

/// A search's limits from `go`'s, for a game whose p1 is `p1`, with
/// `side` to move: the side to move's clock, and a depth no deeper than
/// the deepest iteration.
pub fn limits(go: &Go, p1: Seat, side: Seat) -> Result<Limits, GoCommandError> {
    let clock = go.clock(p1, side)?;
    Ok(Limits {
        depth: go.depth.map(|d| d.min(u64::from(MAX_DEPTH)) as u32),
        nodes: go.nodes,
        movetime: go.movetime,
        clock: clock.map(|(time, inc)| Clock { time, inc }),
        infinite: go.infinite,
        ponder: go.ponder,
    })
}

/// Parses the words after `go` for a game whose p1 is `p1`, with `side`
/// to move.
pub fn parse_go(words: &[&str], p1: Seat, side: Seat) -> Result<Limits, GoCommandError> {
    limits(&Go::parse(words)?, p1, side)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn go_becomes_the_searchs_limits() {
        let l = parse_go(&w("depth 5 nodes 1000 movetime 200"), Seat::Red, Seat::Red).unwrap();
        assert_eq!(
            (l.depth, l.nodes, l.movetime),
            (Some(5), Some(1000), Some(200))
        );
        let l = parse_go(&w("depth 100000"), Seat::Red, Seat::Red).unwrap();
        assert_eq!(l.depth, Some(MAX_DEPTH), "bounded by the deepest iteration");
        let l = parse_go(
            &w("p1time 1000 p2time 2000 p1inc 10 p2inc 20"),
            Seat::Red,
            Seat::Green,
        )
        .unwrap();
        assert_eq!(
            l.clock,
            Some(Clock {
                time: 2000,
                inc: 20
            })
        );
        let p = parse_go(&w("ponder movetime 50"), Seat::Red, Seat::Red).unwrap();
        assert!(p.ponder && !p.infinite && p.movetime == Some(50));
        assert!(
            parse_go(&w("infinite"), Seat::Red, Seat::Red)
                .unwrap()
                .infinite
        );
        assert!(matches!(
            parse_go(&w("gtime 100"), Seat::Red, Seat::Red),
            Err(GoCommandError::NoTimeForTheMover {
                side: Seat::Red,
                p: 1
            })
        ));
    }
}
