//! Where `splut gui` keeps its games: one interface ([`Store`]) with what
//! the server needs of a database, so another database (PostgreSQL, when
//! one machine is not enough) can replace the one implementation here,
//! SQLite ([`sqlite::Sqlite`]). The host writes each step through it
//! before any answer shows the step, so a step once acknowledged survives
//! `kill -9`; at start the unfinished games are read back and resumed.

pub mod sqlite;

use std::fmt;

/// A new game as the store keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// Its id in the API.
    pub id: u64,
    /// Its start (SPN).
    pub start: String,
    /// Who plays each seat: the board's seat configs as JSON.
    pub seats: String,
    /// The pace of the engine's steps (`none`, `normal`, `slow`, `step`).
    pub pace: String,
    /// When it was made, in seconds since the Unix epoch.
    pub created: i64,
    /// Its table's tokens as JSON (`crate::tables::Access`; empty for a
    /// game kept before tables).
    pub access: String,
}

/// Where a stored game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Being played (resumed after a restart).
    Playing,
    /// Over: its places as records write them (`g > r = y`), and when.
    Finished {
        /// The places, first to last.
        result: String,
        /// Seconds since the Unix epoch.
        at: i64,
    },
    /// Closed before its end (nobody looked at it, or another replaced
    /// it): kept, not resumed.
    Abandoned {
        /// Seconds since the Unix epoch.
        at: i64,
    },
}

/// A stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// Its start, seats, pace and creation time.
    pub game: NewGame,
    /// Its steps, in order, as text.
    pub steps: Vec<String>,
    /// Where it stands.
    pub status: Status,
}

/// A finished game as the history lists it: no steps (their count only)
/// and no tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    /// Its id in the API.
    pub id: u64,
    /// When it was made, in seconds since the Unix epoch.
    pub created: i64,
    /// When it ended, likewise.
    pub ended: i64,
    /// Its places as records write them (`g > r = y`).
    pub result: String,
    /// Who played each seat: the board's seat configs as JSON.
    pub seats: String,
    /// How many steps it had.
    pub steps: usize,
}

/// Why the store could not do what it was asked: its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StoreError {}

/// What the server needs of a database. Every write returns only once it
/// is durable (committed): the server acknowledges nothing before that.
pub trait Store: Send + Sync {
    /// Keeps a new game, with no steps.
    fn create(&self, game: &NewGame) -> Result<(), StoreError>;
    /// Keeps `steps` as game `id`'s steps from index `from` on, all or
    /// none.
    fn append(&self, id: u64, from: usize, steps: &[String]) -> Result<(), StoreError>;
    /// Deletes game `id`'s steps from index `keep` on (a take-back); a
    /// finished game is being played again.
    fn take_back(&self, id: u64, keep: usize) -> Result<(), StoreError>;
    /// Keeps game `id`'s seats anew (a person named theirs).
    fn set_seats(&self, id: u64, seats: &str) -> Result<(), StoreError>;
    /// Keeps game `id`'s table tokens anew (a game kept before tables).
    fn set_access(&self, id: u64, access: &str) -> Result<(), StoreError>;
    /// Marks game `id` finished (or abandoned) with `status`; a game that
    /// is no longer being played is left as it is by `Abandoned`.
    fn end(&self, id: u64, status: &Status) -> Result<(), StoreError>;
    /// The games being played, with their steps, oldest first.
    fn unfinished(&self) -> Result<Vec<StoredGame>, StoreError>;
    /// At most `limit` finished games, newest (highest id) first, those
    /// below id `before` if given: what the history lists, with no steps
    /// read (their count only) and no tokens.
    fn finished(&self, before: Option<u64>, limit: usize) -> Result<Vec<FinishedGame>, StoreError>;
    /// One game, if it is kept.
    fn game(&self, id: u64) -> Result<Option<StoredGame>, StoreError>;
    /// The highest id of any game kept (0 for none): new ids go above it.
    fn highest_id(&self) -> Result<u64, StoreError>;
}

/// Now, in seconds since the Unix epoch (0 if the clock is before it).
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
