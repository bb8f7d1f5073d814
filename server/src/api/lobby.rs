//! The tables as others see them (issue 53): the history of finished
//! games (`GET /api/history`, a page at a time) and the lobby of open
//! tables (`GET /api/lobby`, `POST /api/lobby/<id>/sit`). Who sits where
//! is told here once, for both ([`sitter`]): never a token.

use super::{Games, Reply, query_pairs, query_value, short};
use crate::store::{FinishedGame, StoreError};
use splut_board::session::requests;
use splut_board::session::{Refusal, SeatConfig};
use splut_rules::{Places, Seat};

/// Games in a page of the history unless the request asks for fewer.
pub const HISTORY_PAGE: usize = 20;

/// Most games in a page of the history.
pub const MAX_HISTORY_PAGE: usize = 50;

/// Most tables the lobby lists (the newest).
pub const MAX_LOBBY: usize = 100;

/// Who sits at a seat, as the history and the lobby tell it: its letter
/// and `who`, `engine` (with its algorithm and level), `person` (with the
/// name they gave, if any, whether they left the engine their seat, and
/// the turns the engine played for them, `stood_in`, which the record
/// writes `person-unrated(engine:…)`) or `open` (a friend's seat nobody
/// took yet); with `places`, its place.
pub fn sitter(c: &SeatConfig, places: Option<&Places>) -> serde_json::Value {
    let mut v = if c.engine {
        serde_json::json!({
            "who": "engine",
            "algorithm": c.algorithm,
            "level": c.level,
        })
    } else if c.open() {
        serde_json::json!({ "who": "open" })
    } else {
        serde_json::json!({
            "who": "person",
            "name": c.name,
            "invited": c.invited,
            "left": c.left,
            "stood_in": c.stood_in,
        })
    };
    v["seat"] = c.seat.to_string().into();
    if let Some(p) = places {
        v["place"] = p.place_of(c.seat).into();
    }
    v
}

/// A finished game as the history lists it: its id, times, result, step
/// count and each seat with its place.
fn history_entry(g: &FinishedGame) -> serde_json::Value {
    let places: Option<Places> = g.result.parse().ok();
    let seats: Vec<SeatConfig> = serde_json::from_str(&g.seats).unwrap_or_default();
    let seats: Vec<serde_json::Value> = seats.iter().map(|c| sitter(c, places.as_ref())).collect();
    serde_json::json!({
        "id": g.id,
        "created": g.created,
        "ended": g.ended,
        "result": g.result,
        "steps": g.steps,
        "seats": seats,
    })
}

/// `GET /api/history`'s query: `before` (a game id: the games below it)
/// and `limit` (1 or more; above [`MAX_HISTORY_PAGE`] counts as it).
fn history_query(query: &str) -> Result<(Option<u64>, usize), Refusal> {
    for (k, _) in query_pairs(query)? {
        if k != "before" && k != "limit" {
            return Err(Refusal::BadRequest(format!(
                "unknown parameter '{}' (before or limit)",
                short(&k, 20)
            )));
        }
    }
    let number = |key: &str, what: &str| -> Result<Option<u64>, Refusal> {
        query_value(query, key)?
            .map(|v| {
                v.parse::<u64>().map_err(|_| {
                    Refusal::BadRequest(format!("{key}: expected {what}, not '{}'", short(&v, 20)))
                })
            })
            .transpose()
    };
    let before = number("before", "a game id")?;
    let limit = match number("limit", "a number of games")? {
        None => HISTORY_PAGE,
        Some(0) => return Err(Refusal::BadRequest("limit: at least 1".into())),
        Some(n) => usize::try_from(n).map_or(MAX_HISTORY_PAGE, |n| n.min(MAX_HISTORY_PAGE)),
    };
    Ok((before, limit))
}

/// `POST /api/lobby/<id>/sit`'s body: the seat taken and the name given.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SitIn {
    seat: String,
    name: String,
}

impl Games {
    /// `GET /api/history?before=<id>&limit=<n>`: the finished games,
    /// newest first, a page at a time: `{"games": [{"id", "created",
    /// "ended", "result", "steps", "seats": [sitter with place]}], "next":
    /// the id to ask `before` for the next page, or null when there is
    /// none}`.
    /// Times in seconds since the Unix epoch, `steps` a count.
    pub(super) fn history(&self, query: &str) -> Result<Reply, Refusal> {
        let (before, limit) = history_query(query)?;
        // One more than the page: whether there is a next one.
        let mut games = self
            .store
            .finished(before, limit + 1)
            .map_err(|e: StoreError| Refusal::Store(format!("cannot read the games: {e}")))?;
        let more = games.len() > limit;
        games.truncate(limit);
        let next = more.then(|| games.last().map(|g| g.id)).flatten();
        let list: Vec<serde_json::Value> = games.iter().map(history_entry).collect();
        Ok(Reply::json(
            200,
            serde_json::json!({ "games": list, "next": next }),
        ))
    }

    /// `GET /api/lobby`: the tables listed in the lobby that are still
    /// being played and have an open seat, newest first, at most
    /// [`MAX_LOBBY`]: `{"tables": [{"id", "created", "players", "seats":
    /// [sitter]}]}`. No token is needed, and none is shown.
    pub(super) fn lobby(&self) -> Reply {
        let mut listed: Vec<(u64, i64)> = self
            .tables()
            .iter()
            .filter(|(_, a)| a.lobby)
            .map(|(id, a)| (*id, a.created))
            .collect();
        listed.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
        let mut tables = Vec::new();
        for (id, created) in listed {
            if tables.len() == MAX_LOBBY {
                break;
            }
            let Some(s) = self.sessions().get(&id).cloned() else {
                continue;
            };
            // Still being played, with a seat nobody took.
            let Some((_, seats)) = s.mover() else {
                continue;
            };
            if !seats.iter().any(SeatConfig::open) {
                continue;
            }
            let seats: Vec<serde_json::Value> = seats.iter().map(|c| sitter(c, None)).collect();
            tables.push(serde_json::json!({
                "id": id,
                "created": created,
                "players": seats.len(),
                "seats": seats,
            }));
        }
        Reply::json(200, serde_json::json!({ "tables": tables }))
    }

    /// `POST /api/lobby/<id>/sit {"seat": "y", "name": "Yan"}`: takes an
    /// open seat of a listed table under that name (checked as a link's
    /// `join` checks it), at once for one person only; answers `{"id",
    /// "seat", "token"}`, the seat's token, as its link would give it.
    /// An unlisted or unknown table is not found (404), a seat taken or
    /// no friend's refused (409, 404): nothing changes.
    pub(super) fn sit(&self, id: &str, body: &str) -> Result<Reply, Refusal> {
        let b: SitIn = requests::body(body)?;
        let missing = || Refusal::NotFound("no such table in the lobby".into());
        let id = id.parse::<u64>().map_err(|_| missing())?;
        let mut letters = b.seat.chars();
        let seat = match (letters.next().and_then(Seat::from_letter), letters.next()) {
            (Some(seat), None) => seat,
            _ => {
                return Err(Refusal::BadInput(format!(
                    "seat: one of r, y, g, b, not '{}'",
                    short(&b.seat, 8)
                )));
            }
        };
        let token = match self.tables().get(&id) {
            Some(a) if a.lobby => a.seat_token(seat).map(str::to_string),
            _ => return Err(missing()),
        };
        let s = self.sessions().get(&id).cloned().ok_or_else(missing)?;
        s.sit(seat, &b.name)?;
        let token = token
            .ok_or_else(|| Refusal::NotFound(format!("no friend's seat '{seat}' at this table")))?;
        Ok(Reply::json(
            200,
            serde_json::json!({ "id": id, "seat": seat.to_string(), "token": token }),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::tests::seat;

    #[test]
    fn a_seat_is_told_as_engine_person_or_open_with_its_place() {
        let places: Places = "g > r = y".parse().unwrap();
        let engine = sitter(&seat('g', true, false), Some(&places));
        assert_eq!(
            engine,
            serde_json::json!({"seat": "g", "who": "engine", "algorithm": "auto",
                               "level": null, "place": 1})
        );
        let open = sitter(&seat('y', false, true), None);
        assert_eq!(open, serde_json::json!({"seat": "y", "who": "open"}));
        let mut yan = seat('y', false, true);
        yan.name = Some("Yan".into());
        let v = sitter(&yan, Some(&places));
        assert_eq!(v["who"], "person");
        assert_eq!(v["name"], "Yan");
        assert_eq!(v["place"], 2);
        assert_eq!(v["stood_in"], serde_json::json!([]));
        yan.stood_in = vec![5, 7];
        assert_eq!(
            sitter(&yan, None)["stood_in"],
            serde_json::json!([5, 7]),
            "the turns the engine played for them"
        );
        let mut left = seat('r', false, true);
        left.left = true;
        assert_eq!(
            sitter(&left, None)["who"],
            "person",
            "a seat left is not open"
        );
        assert_eq!(
            sitter(&seat('b', false, false), Some(&places))["place"],
            serde_json::Value::Null
        );
    }

    #[test]
    fn the_history_query_is_bounded_and_checked() {
        assert_eq!(history_query("").unwrap(), (None, HISTORY_PAGE));
        assert_eq!(history_query("before=7&limit=3").unwrap(), (Some(7), 3));
        assert_eq!(history_query("limit=1000").unwrap().1, MAX_HISTORY_PAGE);
        assert_eq!(
            history_query("limit=18446744073709551615").unwrap().1,
            MAX_HISTORY_PAGE
        );
        for bad in [
            "limit=0",
            "limit=-1",
            "limit=x",
            "before=-3",
            "before=99999999999999999999999",
            "before=1&before=2",
            "token=abc",
            "limit=%ZZ",
        ] {
            assert!(
                matches!(history_query(bad), Err(Refusal::BadRequest(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_history_entry_shows_no_token_and_the_places() {
        let mut seats = vec![seat('r', false, false), seat('g', false, true)];
        seats[1].name = Some("Gil".into());
        let g = FinishedGame {
            id: 4,
            created: 10,
            ended: 20,
            result: "g > r".into(),
            seats: serde_json::to_string(&seats).unwrap(),
            steps: 12,
        };
        let v = history_entry(&g);
        assert_eq!(v["steps"], 12);
        assert_eq!(v["seats"][0]["place"], 2);
        assert_eq!(v["seats"][1]["name"], "Gil");
        assert_eq!(v["seats"][1]["place"], 1);
    }
}
