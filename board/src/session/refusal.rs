//! Why the board refuses a request. The session and its host's API say
//! *why* with a [`Refusal`]; the host alone turns it into its answer (for
//! `splut gui`, an HTTP status and the `{"error": "…"}` body, the message
//! being its `Display`).

use std::fmt;

/// A refused request: what went wrong, with the message the page shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No such game, action, route or file.
    NotFound(String),
    /// A request that is not well formed: bad JSON, a missing or unknown
    /// field, a bad query parameter, a body that is not UTF-8.
    BadRequest(String),
    /// A well-formed request with a bad value: an SPN, a player count,
    /// seats, an algorithm, a time per turn.
    BadInput(String),
    /// A step that is not legal in the position.
    IllegalStep(String),
    /// A person's step while the engine is to move.
    NotPersonsTurn,
    /// A step in a finished game.
    GameOver,
    /// A take-back with no step to take back.
    NothingToTakeBack,
    /// `next` with no engine step waiting for it.
    NothingWaiting,
    /// The game's engine is down (crashed, or not synced yet): restart it.
    EngineDown(String),
    /// The engine could not be started.
    EngineFailed(String),
    /// As many games as allowed are running.
    TooManyGames(usize),
    /// The Host or Origin is not this server's.
    Forbidden(String),
    /// A body over this many bytes.
    TooLarge(usize),
    /// Too many requests at once.
    Busy,
    /// The host's games database failed (a change not kept is undone).
    Store(String),
    /// A table's seat someone else took first (the lobby's).
    Taken(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotFound(m)
            | Refusal::BadRequest(m)
            | Refusal::BadInput(m)
            | Refusal::IllegalStep(m)
            | Refusal::EngineDown(m)
            | Refusal::EngineFailed(m)
            | Refusal::Forbidden(m)
            | Refusal::Taken(m) => f.write_str(m),
            Refusal::Store(m) => f.write_str(m),
            Refusal::NotPersonsTurn => f.write_str("it is the engine's turn"),
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::NothingToTakeBack => f.write_str("nothing to take back"),
            Refusal::NothingWaiting => f.write_str("no engine step is waiting"),
            Refusal::TooManyGames(n) => write!(f, "at most {n} games at once: close one first"),
            Refusal::TooLarge(n) => write!(f, "request body over {n} bytes"),
            Refusal::Busy => f.write_str("too many requests at once"),
        }
    }
}
