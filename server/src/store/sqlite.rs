//! The [`Store`] in SQLite: a file `splut gui --db` names, or a database
//! in memory (the default: nothing is written, a restart forgets).
//!
//! Durability: the file is in WAL mode, and a write returns only after
//! its WAL frames are synced to the disk: a kept step survives `kill -9`
//! and a power cut alike. The sync is a group's (group commit): SQLite
//! commits without syncing (`synchronous=NORMAL`), and each writer then
//! waits for one `fsync` of the WAL made after its commit; one sync
//! covers every commit made before it began, so 200 tables' steps share
//! the disk's few hundred syncs a second instead of queueing one by one
//! behind the connection (docs/results/tables.md). The file is held with
//! `locking_mode=EXCLUSIVE`, so a second server cannot resume (and play
//! twice) the same games. The file is marked as this program's with
//! `application_id`, its schema's version with `user_version`: another
//! program's database, a newer schema or a file that is not a database is
//! refused with an error, and left as it was.

use super::{FinishedGame, NewGame, Status, Store, StoreError, StoredGame};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// `application_id`: "SPLT" in ASCII.
pub const APPLICATION_ID: i64 = 0x5350_4C54;

/// The schema's version (`user_version`); a migration from each older
/// version goes in `migrate`.
pub const SCHEMA_VERSION: i64 = 2;

/// The schema (of version [`SCHEMA_VERSION`]).
const SCHEMA: &str = "
CREATE TABLE games (
    id      INTEGER PRIMARY KEY,
    start   TEXT NOT NULL,
    seats   TEXT NOT NULL,
    pace    TEXT NOT NULL,
    created INTEGER NOT NULL,
    status  TEXT NOT NULL DEFAULT 'playing'
            CHECK (status IN ('playing', 'finished', 'abandoned')),
    result  TEXT,
    ended   INTEGER,
    access  TEXT NOT NULL DEFAULT ''
);
CREATE TABLE steps (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx  INTEGER NOT NULL,
    step TEXT NOT NULL,
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
CREATE INDEX games_by_status ON games(status);
";

/// From version 1: a table's tokens beside each game.
const TO_2: &str = "ALTER TABLE games ADD COLUMN access TEXT NOT NULL DEFAULT '';";

/// Games kept in SQLite, behind one connection.
pub struct Sqlite {
    conn: Mutex<Connection>,
    /// The WAL file, synced for the writes (none in memory, or when
    /// told not to sync).
    wal: Option<PathBuf>,
    /// Writes committed so far (counted under the connection's lock).
    commits: AtomicU64,
    /// Writes known synced to the disk; held while one syncs, so the
    /// writers behind it find theirs synced.
    synced: Mutex<u64>,
    /// Syncs made (the figures of a group commit).
    syncs: AtomicU64,
}

impl Sqlite {
    /// Opens (or makes) the database at `path`, or one in memory for
    /// `None`; its schema is made or brought up to date.
    pub fn open(path: Option<&Path>) -> Result<Sqlite, StoreError> {
        let named = path.map_or_else(|| "memory".into(), |p| p.display().to_string());
        let fail = |e: rusqlite::Error| StoreError(format!("games database {named}: {e}"));
        let mut conn = match path {
            Some(p) => Connection::open(p),
            None => Connection::open_in_memory(),
        }
        .map_err(fail)?;
        // A file another server holds is refused at once, not waited for.
        conn.busy_timeout(std::time::Duration::ZERO).map_err(fail)?;
        conn.pragma_update(None, "locking_mode", "EXCLUSIVE")
            .map_err(fail)?;
        migrate(&mut conn).map_err(|e| StoreError(format!("games database {named}: {e}")))?;
        if path.is_some() {
            // Not in a transaction, and only once the file is known ours.
            conn.pragma_update(None, "journal_mode", "WAL")
                .map_err(fail)?;
        }
        // Commits do not sync: `write` syncs the WAL for a group of them.
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(fail)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(fail)?;
        let wal = path.map(|p| {
            let mut name = p.as_os_str().to_owned();
            name.push("-wal");
            PathBuf::from(name)
        });
        Ok(Sqlite {
            conn: Mutex::new(conn),
            wal,
            commits: AtomicU64::new(0),
            synced: Mutex::new(0),
            syncs: AtomicU64::new(0),
        })
    }

    /// With `false`, a write returns once committed, its WAL frames
    /// with the operating system, not yet synced (`--db-sync os`): it
    /// survives the server's crash or `kill -9`, not a power cut.
    pub fn syncing(mut self, on: bool) -> Sqlite {
        if !on {
            self.wal = None;
        }
        self
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic elsewhere must not lose the games.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Commits `f`'s changes and returns once they are on the disk.
    fn write(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mine = {
            let mut conn = self.conn();
            f(&mut conn)?;
            self.commits.fetch_add(1, Ordering::SeqCst) + 1
        };
        self.sync(mine)
    }

    /// Waits until commit number `mine` is synced: by a sync that began
    /// after it, this writer's own if none did.
    fn sync(&self, mine: u64) -> Result<(), StoreError> {
        let Some(wal) = &self.wal else {
            return Ok(());
        };
        let mut synced = self.synced.lock().unwrap_or_else(|e| e.into_inner());
        if *synced >= mine {
            return Ok(());
        }
        // Every commit counted now is in the WAL (a checkpoint synced
        // what it moved to the database).
        let upto = self.commits.load(Ordering::SeqCst);
        // Opened for each sync, not held: SQLite may remove the WAL and
        // make it anew, and one open a group of writes costs nothing.
        std::fs::OpenOptions::new()
            .write(true)
            .open(wal)
            .and_then(|f| f.sync_data())
            .map_err(|e| StoreError(format!("games database: syncing {}: {e}", wal.display())))?;
        *synced = upto;
        self.syncs.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Sets one text `column` of game `id` (`seats`, `access`).
    fn set_column(&self, id: u64, column: &str, value: &str) -> Result<(), StoreError> {
        self.write(|conn| {
            conn.execute(
                &format!("UPDATE games SET {column} = ?2 WHERE id = ?1"),
                params![key(id)?, value],
            )
            .map_err(err)?;
            Ok(())
        })
    }

    /// The games with this status, each with its steps.
    fn games_where(&self, status: &str, order: &str) -> Result<Vec<StoredGame>, StoreError> {
        let conn = self.conn();
        let sql = format!(
            "SELECT id, start, seats, pace, created, status, result, ended, access
             FROM games WHERE status = ?1 ORDER BY {order}"
        );
        let mut stmt = conn.prepare(&sql).map_err(err)?;
        let rows = stmt
            .query_map([status], row_game)
            .map_err(err)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(err)?;
        rows.into_iter().map(|g| with_steps(&conn, g?)).collect()
    }
}

/// A rusqlite error as the store's.
fn err(e: rusqlite::Error) -> StoreError {
    StoreError(format!("games database: {e}"))
}

/// A game's id as SQLite's integer.
fn key(id: u64) -> Result<i64, StoreError> {
    i64::try_from(id).map_err(|_| StoreError(format!("game id {id} out of range")))
}

/// Makes the schema in an empty database, or checks that the file is this
/// program's and brings its schema up to date; anything else is refused
/// and nothing is written.
fn migrate(conn: &mut Connection) -> Result<(), String> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| e.to_string())?;
    let read = |pragma: &str| -> Result<i64, String> {
        tx.pragma_query_value(None, pragma, |r| r.get(0))
            .map_err(|e| e.to_string())
    };
    let (app, version) = (read("application_id")?, read("user_version")?);
    let tables: i64 = tx
        .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    match (app, version) {
        (0, 0) if tables == 0 => {
            tx.execute_batch(SCHEMA).map_err(|e| e.to_string())?;
            tx.execute_batch(&format!(
                "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
            ))
            .map_err(|e| e.to_string())?;
        }
        (APPLICATION_ID, SCHEMA_VERSION) => {}
        (APPLICATION_ID, 1) => {
            tx.execute_batch(TO_2).map_err(|e| e.to_string())?;
            tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION};"))
                .map_err(|e| e.to_string())?;
        }
        (APPLICATION_ID, v) if v > SCHEMA_VERSION => {
            return Err(format!(
                "schema version {v} is newer than this program's ({SCHEMA_VERSION}): \
                 use a newer splut"
            ));
        }
        (APPLICATION_ID, v) => return Err(format!("unknown schema version {v}")),
        _ => {
            return Err(format!(
                "not a splut gui database (application_id {app:#x}, {tables} tables): \
                 name a new file or one splut gui made"
            ));
        }
    }
    tx.commit().map_err(|e| e.to_string())
}

/// A `games` row (its steps still to read).
fn row_game(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<StoredGame, StoreError>> {
    let id: i64 = r.get(0)?;
    let status: String = r.get(5)?;
    let result: Option<String> = r.get(6)?;
    let ended: Option<i64> = r.get(7)?;
    let status = match (status.as_str(), result, ended) {
        ("playing", _, _) => Ok(Status::Playing),
        ("finished", Some(result), Some(at)) => Ok(Status::Finished { result, at }),
        ("abandoned", _, Some(at)) => Ok(Status::Abandoned { at }),
        (s, _, _) => Err(StoreError(format!("game {id}: bad status '{s}'"))),
    };
    let game = NewGame {
        id: id as u64,
        start: r.get(1)?,
        seats: r.get(2)?,
        pace: r.get(3)?,
        created: r.get(4)?,
        access: r.get(8)?,
    };
    Ok(status.map(|status| StoredGame {
        game,
        steps: Vec::new(),
        status,
    }))
}

/// The game with its steps read.
fn with_steps(conn: &Connection, mut g: StoredGame) -> Result<StoredGame, StoreError> {
    let mut stmt = conn
        .prepare("SELECT step FROM steps WHERE game = ?1 ORDER BY idx")
        .map_err(err)?;
    g.steps = stmt
        .query_map([key(g.game.id)?], |r| r.get(0))
        .map_err(err)?
        .collect::<Result<_, _>>()
        .map_err(err)?;
    Ok(g)
}

impl Store for Sqlite {
    fn create(&self, g: &NewGame) -> Result<(), StoreError> {
        self.write(|conn| {
            conn.execute(
                "INSERT INTO games (id, start, seats, pace, created, access)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![key(g.id)?, g.start, g.seats, g.pace, g.created, g.access],
            )
            .map_err(err)?;
            Ok(())
        })
    }

    fn append(&self, id: u64, from: usize, steps: &[String]) -> Result<(), StoreError> {
        self.write(|conn| {
            let tx = conn.transaction().map_err(err)?;
            {
                let mut stmt = tx
                    .prepare("INSERT INTO steps (game, idx, step) VALUES (?1, ?2, ?3)")
                    .map_err(err)?;
                for (i, s) in steps.iter().enumerate() {
                    stmt.execute(params![key(id)?, (from + i) as i64, s])
                        .map_err(err)?;
                }
            }
            tx.commit().map_err(err)
        })
    }

    fn take_back(&self, id: u64, keep: usize) -> Result<(), StoreError> {
        self.write(|conn| {
            let tx = conn.transaction().map_err(err)?;
            tx.execute(
                "DELETE FROM steps WHERE game = ?1 AND idx >= ?2",
                params![key(id)?, keep as i64],
            )
            .map_err(err)?;
            tx.execute(
                "UPDATE games SET status = 'playing', result = NULL, ended = NULL
                 WHERE id = ?1 AND status = 'finished'",
                [key(id)?],
            )
            .map_err(err)?;
            tx.commit().map_err(err)
        })
    }

    fn set_seats(&self, id: u64, seats: &str) -> Result<(), StoreError> {
        self.set_column(id, "seats", seats)
    }

    fn set_access(&self, id: u64, access: &str) -> Result<(), StoreError> {
        self.set_column(id, "access", access)
    }

    fn end(&self, id: u64, status: &Status) -> Result<(), StoreError> {
        self.write(|conn| {
            match status {
                Status::Playing => Ok(0),
                Status::Finished { result, at } => conn.execute(
                    "UPDATE games SET status = 'finished', result = ?2, ended = ?3 WHERE id = ?1",
                    params![key(id)?, result, at],
                ),
                Status::Abandoned { at } => conn.execute(
                    "UPDATE games SET status = 'abandoned', ended = ?2
                     WHERE id = ?1 AND status = 'playing'",
                    params![key(id)?, at],
                ),
            }
            .map_err(err)?;
            Ok(())
        })
    }

    fn unfinished(&self) -> Result<Vec<StoredGame>, StoreError> {
        self.games_where("playing", "id")
    }

    fn finished(&self, before: Option<u64>, limit: usize) -> Result<Vec<FinishedGame>, StoreError> {
        // An id past SQLite's integers is above every kept one.
        let before = before
            .and_then(|b| i64::try_from(b).ok())
            .unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT id, created, ended, result, seats,
                        (SELECT count(*) FROM steps WHERE steps.game = games.id)
                 FROM games WHERE status = 'finished' AND id < ?1
                 ORDER BY id DESC LIMIT ?2",
            )
            .map_err(err)?;
        stmt.query_map(params![before, limit], |r| {
            Ok(FinishedGame {
                id: r.get::<_, i64>(0)?.max(0) as u64,
                created: r.get(1)?,
                ended: r.get::<_, Option<i64>>(2)?.unwrap_or(0),
                result: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
                seats: r.get(4)?,
                steps: r.get::<_, i64>(5)?.max(0) as usize,
            })
        })
        .map_err(err)?
        .collect::<Result<_, _>>()
        .map_err(err)
    }

    fn game(&self, id: u64) -> Result<Option<StoredGame>, StoreError> {
        let conn = self.conn();
        let g = conn
            .query_row(
                "SELECT id, start, seats, pace, created, status, result, ended, access
                 FROM games WHERE id = ?1",
                [key(id)?],
                row_game,
            )
            .optional()
            .map_err(err)?;
        match g {
            Some(g) => with_steps(&conn, g?).map(Some),
            None => Ok(None),
        }
    }

    fn highest_id(&self) -> Result<u64, StoreError> {
        let id: i64 = self
            .conn()
            .query_row("SELECT coalesce(max(id), 0) FROM games", [], |r| r.get(0))
            .map_err(err)?;
        Ok(id.max(0) as u64)
    }
}

#[cfg(test)]
mod tests;
