//! The games kept in the store: a new game written before it is
//! acknowledged, and the unfinished ones resumed at start.

use super::{Access, Games, NewGame, Reply, Session, Status, StoredGame, unix_now};
use crate::store::StoreError;
use splut_board::session::{Pace, Refusal, SeatConfig};
use splut_rules::{Game, Position};
use std::sync::atomic::Ordering;

impl Games {
    /// Writes a new game, with the steps it starts with, to the store.
    pub(super) fn keep_new(
        &self,
        id: u64,
        game: &Game,
        seats: &[SeatConfig],
        pace: Pace,
        access: &Access,
    ) -> Result<(), Refusal> {
        let not_saved = |e: StoreError| Refusal::Store(format!("not saved: {e}"));
        let new = NewGame {
            id,
            start: game.start().to_spn(),
            seats: serde_json::to_string(seats).unwrap_or_default(),
            pace: pace_name(pace),
            created: access.created,
            access: serde_json::to_string(access).unwrap_or_default(),
        };
        self.store.create(&new).map_err(not_saved)?;
        let steps: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
        if !steps.is_empty() {
            self.store.append(id, 0, &steps).map_err(not_saved)?;
        }
        Ok(())
    }

    /// Plays on the store's unfinished games, each under its old id from
    /// its start, seats and steps (an engine to move thinks again); new
    /// ids go above every kept one. At most `--max-games`, the newest: the
    /// older ones, and any that no longer read, are kept as abandoned.
    /// Returns how many were resumed.
    pub fn resume(&self) -> Result<usize, String> {
        let highest = self.store.highest_id().map_err(|e| e.0)?;
        self.next_id.fetch_max(highest + 1, Ordering::SeqCst);
        let games = self.store.unfinished().map_err(|e| e.0)?;
        let skip = games.len().saturating_sub(self.max_games);
        let mut resumed = 0;
        for (i, g) in games.into_iter().enumerate() {
            let id = g.game.id;
            let outcome = if i < skip {
                Err(format!("over {} games to resume", self.max_games))
            } else {
                self.resume_one(g)
            };
            match outcome {
                Ok(()) => resumed += 1,
                Err(why) => {
                    eprintln!("warning: game {id} not resumed: {why}");
                    let _ = self.store.end(id, &Status::Abandoned { at: unix_now() });
                }
            }
        }
        Ok(resumed)
    }

    /// `GET /api/history/<id>/record`: a finished game as a records file,
    /// as `GET /api/games/<id>/record` writes a game being played.
    pub(super) fn history_record(&self, id: &str) -> Result<Reply, Refusal> {
        let missing = || Refusal::NotFound("no such finished game".into());
        let id = id.parse::<u64>().map_err(|_| missing())?;
        let g = self
            .store
            .game(id)
            .map_err(read_failed)?
            .ok_or_else(missing)?;
        if !matches!(g.status, Status::Finished { .. }) {
            return Err(missing());
        }
        let (_, game, seats, _) = read_back(&g).map_err(Refusal::Store)?;
        Ok(Reply {
            status: 200,
            content_type: "text/plain; charset=utf-8",
            body: splut_board::session::record_text(&game, &seats),
            download: Some(format!("splut-game-{id}.txt")),
            shutdown: false,
            retry_after: None,
        })
    }

    /// One kept game, playing again.
    fn resume_one(&self, g: StoredGame) -> Result<(), String> {
        let (id, game, seats, pace) = read_back(&g)?;
        let mut access: Access = if g.game.access.is_empty() {
            // Kept before tables: new tokens (its old page cannot come back).
            let a = Access::new(&seats, None).map_err(|e| e.to_string())?;
            let text = serde_json::to_string(&a).unwrap_or_default();
            self.store.set_access(id, &text).map_err(|e| e.0)?;
            a
        } else {
            serde_json::from_str(&g.game.access).map_err(|e| format!("bad tokens: {e}"))?
        };
        access.created = g.game.created;
        let session = Session::start(
            (id, game, seats),
            self.engines.clone(),
            self.live.clone(),
            (self.step_pause, self.levels, pace),
            self.store.clone(),
        )
        .map_err(|e| e.to_string())?;
        // Its pages knew versions counted since it began: count on from
        // the clock's milliseconds, above any of them.
        let ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        session.lift_version(ms);
        self.sessions().insert(id, session);
        self.tables().insert(id, access);
        Ok(())
    }
}

/// A kept game read back: its id, the game replayed from its start, its
/// seats and pace.
pub(super) fn read_back(g: &StoredGame) -> Result<(u64, Game, Vec<SeatConfig>, Pace), String> {
    let start = Position::from_spn(&g.game.start).map_err(|e| format!("bad start: {e}"))?;
    let mut game = Game::new(start);
    for (i, step) in g.steps.iter().enumerate() {
        game.play_text(step)
            .map_err(|e| format!("step {} '{step}': {e}", i + 1))?;
    }
    let seats: Vec<SeatConfig> =
        serde_json::from_str(&g.game.seats).map_err(|e| format!("bad seats: {e}"))?;
    if !seats
        .iter()
        .map(|s| s.seat)
        .eq(game.start().seats_in_game())
    {
        return Err("bad seats: not the game's".into());
    }
    let pace = serde_json::from_value(serde_json::Value::String(g.game.pace.clone()))
        .map_err(|e| format!("bad pace: {e}"))?;
    Ok((g.game.id, game, seats, pace))
}

/// A failed read of the store, as the request's refusal.
fn read_failed(e: StoreError) -> Refusal {
    Refusal::Store(format!("cannot read the games: {e}"))
}

/// A pace as the store keeps it: its name in the API (`normal`).
fn pace_name(pace: Pace) -> String {
    serde_json::to_value(pace)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "normal".into())
}
