//! Time management: how long one search may take.
//!
//! A search plays a whole turn (up to 3 steps), so the clock is shared out
//! per turn. With `movetime` the search uses exactly that time less the
//! move overhead. With a clock it aims at about a twentieth of the time left
//! plus most of the increment (`soft`: no new iteration starts after it) and
//! never goes past a third of the time left (`hard`: the search stops). The
//! move overhead (time lost between engine and referee) comes off first, but
//! never more than half of the time.

use std::time::Duration;

/// How much time a search may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop searching at this.
    pub hard: Option<Duration>,
}

/// Time left on the mover's clock and its increment, in milliseconds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Clock {
    /// Time left.
    pub time: u64,
    /// Increment per turn.
    pub inc: u64,
}

/// Turns a game is assumed to have left, for sharing out a clock.
const TURNS_TO_GO: u64 = 20;

/// Time left after the move overhead: the overhead never takes more than
/// half of it, so a short `movetime` (20 ms with the default overhead of
/// 30) still buys a real search.
fn less_overhead(ms: u64, overhead: u64) -> u64 {
    ms - overhead.min(ms / 2)
}

/// The budget for one search.
pub fn budget(movetime: Option<u64>, clock: Option<Clock>, overhead: u64) -> Budget {
    let ms = |m: u64| Some(Duration::from_millis(m.max(1)));
    let by_movetime = movetime.map(|m| less_overhead(m, overhead));
    let by_clock = clock.map(|c| {
        let left = less_overhead(c.time, overhead);
        let target = left / TURNS_TO_GO + c.inc.saturating_mul(3) / 4;
        let hard = target.saturating_mul(3).min(left / 3);
        (target.min(hard), hard)
    });
    match (by_movetime, by_clock) {
        (None, None) => Budget {
            soft: None,
            hard: None,
        },
        (Some(m), None) => Budget {
            soft: ms(m),
            hard: ms(m),
        },
        (None, Some((soft, hard))) => Budget {
            soft: ms(soft),
            hard: ms(hard),
        },
        (Some(m), Some((soft, hard))) => Budget {
            soft: ms(m.min(soft)),
            hard: ms(m.min(hard)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_used_less_the_overhead() {
        let b = budget(Some(1000), None, 30);
        assert_eq!(b.hard, Some(Duration::from_millis(970)));
        assert_eq!(b.soft, b.hard);
    }

    #[test]
    fn a_clock_is_shared_out_and_never_overspent() {
        let b = budget(
            None,
            Some(Clock {
                time: 60_000,
                inc: 0,
            }),
            30,
        );
        let soft = b.soft.unwrap().as_millis();
        let hard = b.hard.unwrap().as_millis();
        assert!((2500..=3500).contains(&soft), "{soft}");
        assert!(hard >= soft && hard <= 60_000 / 3);
        // Nearly flagged: still under a third of what is left.
        let b = budget(None, Some(Clock { time: 90, inc: 0 }), 30);
        assert!(b.hard.unwrap().as_millis() <= 20);
        // No limit at all.
        assert_eq!(budget(None, None, 30).hard, None);
    }

    #[test]
    fn the_overhead_never_takes_more_than_half() {
        let b = budget(Some(20), None, 30);
        assert_eq!(b.hard, Some(Duration::from_millis(10)));
        assert_eq!(
            budget(Some(1), None, 30).hard,
            Some(Duration::from_millis(1))
        );
        let b = budget(None, Some(Clock { time: 40, inc: 0 }), 30);
        assert_eq!(
            b.hard,
            Some(Duration::from_millis(3)),
            "a third of the 20 ms left"
        );
    }

    #[test]
    fn huge_values_do_not_overflow() {
        let b = budget(
            Some(u64::MAX),
            Some(Clock {
                time: u64::MAX,
                inc: u64::MAX,
            }),
            u64::MAX,
        );
        assert!(b.hard.is_some() && b.soft <= b.hard);
    }
}
