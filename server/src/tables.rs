//! Who may do what at a game's table: every game is a table, and every
//! request about it carries a token (`Authorization: Bearer <token>`).
//! The one who made the game holds the host's token (their seats are the
//! people at their screen, and only they take back, restart or close);
//! each invited seat has a token of its own, given in its invitation
//! link, and only that token plays it; the spectators' token sees the
//! game and plays nothing. Tokens are 128 random bits from the operating
//! system, compared in constant time, and never shown to anyone but the
//! host (the state shows who sits where, never a token).

use rand::TryRngCore;
use rand::rngs::OsRng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use splut_board::session::{Refusal, SeatConfig};
use splut_rules::Seat;

/// A table's tokens: the host's, the spectators' and each invited seat's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    host: String,
    spectator: String,
    /// Each invited seat and its token (`[["y", token], …]` as kept).
    #[serde(serialize_with = "seats_out", deserialize_with = "seats_in")]
    invited: Vec<(Seat, String)>,
    /// Seconds an invited person may be away at their turn before the
    /// engine plays for them (none: never).
    #[serde(default)]
    pub takeover: Option<u64>,
    /// Listed in the lobby of open tables: anyone may take an invited
    /// seat nobody took yet (`POST /api/lobby/<id>/sit`). Kept with the
    /// tokens; a table kept before the lobby is not listed.
    #[serde(default)]
    pub lobby: bool,
    /// When the table was made, in seconds since the Unix epoch (kept
    /// beside the tokens, in the game's row, not with them).
    #[serde(skip)]
    pub created: i64,
}

/// Invited seats and their tokens as kept: each seat by its letter.
fn seats_out<S: Serializer>(invited: &[(Seat, String)], s: S) -> Result<S::Ok, S::Error> {
    let kept: Vec<(char, &str)> = invited
        .iter()
        .map(|(seat, t)| (seat.letter(), t.as_str()))
        .collect();
    kept.serialize(s)
}

/// Invited seats and their tokens read back: a letter that is no seat
/// does not read.
fn seats_in<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(Seat, String)>, D::Error> {
    use serde::de::Error as _;
    Vec::<(char, String)>::deserialize(d)?
        .into_iter()
        .map(|(c, t)| {
            Seat::from_letter(c)
                .map(|seat| (seat, t))
                .ok_or_else(|| D::Error::custom(format!("no seat '{c}'")))
        })
        .collect()
}

/// Who a request comes from, by its token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// The one who made the game (the people at their screen).
    Host,
    /// The person invited to this seat.
    Seat(Seat),
    /// Someone watching.
    Spectator,
}

impl Access {
    /// New tokens for a game with these seats (an invited seat gets one).
    pub fn new(seats: &[SeatConfig], takeover: Option<u64>) -> Result<Access, Refusal> {
        Ok(Access {
            takeover,
            lobby: false,
            created: super::store::unix_now(),
            host: token()?,
            spectator: token()?,
            invited: seats
                .iter()
                .filter(|s| s.invited)
                .map(|s| Ok((s.seat, token()?)))
                .collect::<Result<_, Refusal>>()?,
        })
    }

    /// Who holds `token`; `None` for no token or another's.
    pub fn who(&self, token: Option<&str>) -> Option<Who> {
        let token = token?;
        if same(token, &self.host) {
            Some(Who::Host)
        } else if same(token, &self.spectator) {
            Some(Who::Spectator)
        } else {
            self.invited
                .iter()
                .find(|(_, t)| same(token, t))
                .map(|&(seat, _)| Who::Seat(seat))
        }
    }

    /// `who`, or a refusal for a request without a token of this table.
    pub fn check(&self, token: Option<&str>) -> Result<Who, Refusal> {
        self.who(token).ok_or_else(|| {
            Refusal::Forbidden(match token {
                None => "this game needs its link: no token was sent".into(),
                Some(_) => "this token is not one of this game's".into(),
            })
        })
    }

    /// The token of invited seat `seat` (the lobby gives it to whoever
    /// takes the seat).
    pub fn seat_token(&self, seat: Seat) -> Option<&str> {
        self.invited
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, t)| t.as_str())
    }

    /// The tokens as the host gets them, to make the links: `{"host",
    /// "spectator", "seats": {"y": token, …}}`.
    pub fn links(&self) -> serde_json::Value {
        let seats: serde_json::Map<String, serde_json::Value> = self
            .invited
            .iter()
            .map(|(seat, t)| (seat.to_string(), t.clone().into()))
            .collect();
        serde_json::json!({ "host": self.host, "spectator": self.spectator, "seats": seats })
    }
}

impl Who {
    /// Whether this one plays `seat` (a person's seat at the host's
    /// screen is the host's; an invited one its guest's).
    pub fn plays(self, seat: Seat, seats: &[SeatConfig]) -> bool {
        let Some(s) = seats.iter().find(|s| s.seat == seat) else {
            return false;
        };
        match self {
            Who::Host => !s.engine && !s.invited,
            Who::Seat(mine) => mine == seat,
            Who::Spectator => false,
        }
    }

    /// Only the host may do this (take back, restart, close, …).
    pub fn host_only(self, what: &str) -> Result<(), Refusal> {
        match self {
            Who::Host => Ok(()),
            _ => Err(Refusal::Forbidden(format!(
                "only the one who made the game may {what}"
            ))),
        }
    }

    /// As the state tells the page who it is: `{"role": "host"}`,
    /// `{"role": "seat", "seat": "y"}` or `{"role": "spectator"}`.
    pub fn view(self) -> serde_json::Value {
        match self {
            Who::Host => serde_json::json!({ "role": "host" }),
            Who::Seat(seat) => serde_json::json!({ "role": "seat", "seat": seat.to_string() }),
            Who::Spectator => serde_json::json!({ "role": "spectator" }),
        }
    }
}

/// A fresh token: 128 bits from the operating system, in hex.
fn token() -> Result<String, Refusal> {
    let mut bytes = [0u8; 16];
    OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| Refusal::Store(format!("no randomness for a token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// `a == b` in a time that does not tell how much of them matched.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A seat of the engine (`auto`) or a person, invited or not.
    pub(crate) fn seat(seat: char, engine: bool, invited: bool) -> SeatConfig {
        SeatConfig {
            seat: Seat::from_letter(seat).unwrap(),
            engine,
            algorithm: "auto".into(),
            movetime: 100,
            level: None,
            invited,
            name: None,
            stand_in: false,
            left: false,
            stood_in: Vec::new(),
            clock: None,
        }
    }

    #[test]
    fn each_token_plays_its_seats_only() {
        let seats = [
            seat('r', false, false),
            seat('y', false, true),
            seat('g', true, false),
        ];
        let a = Access::new(&seats, None).unwrap();
        let links = a.links();
        let host = links["host"].as_str().unwrap();
        let guest = links["seats"]["y"].as_str().unwrap();
        let watcher = links["spectator"].as_str().unwrap();
        assert_eq!(links["seats"].as_object().unwrap().len(), 1);
        assert_eq!(host.len(), 32);
        assert!(host.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(host, guest);
        assert_eq!(a.who(Some(host)), Some(Who::Host));
        assert_eq!(a.who(Some(guest)), Some(Who::Seat(Seat::Yellow)));
        assert_eq!(a.who(Some(watcher)), Some(Who::Spectator));
        assert_eq!(a.who(None), None);
        assert_eq!(a.who(Some("")), None);
        assert_eq!(a.who(Some(&host[..31])), None);
        assert!(matches!(a.check(Some("x")), Err(Refusal::Forbidden(_))));
        // The host plays the person at its screen, not the guest's seat
        // nor the engine's; the guest its own seat only.
        assert!(Who::Host.plays(Seat::Red, &seats));
        assert!(!Who::Host.plays(Seat::Yellow, &seats));
        assert!(!Who::Host.plays(Seat::Green, &seats));
        assert!(Who::Seat(Seat::Yellow).plays(Seat::Yellow, &seats));
        assert!(!Who::Seat(Seat::Yellow).plays(Seat::Red, &seats));
        assert!(!Who::Spectator.plays(Seat::Red, &seats));
        assert!(!Who::Host.plays(Seat::Blue, &seats));
        assert!(Who::Host.host_only("x").is_ok());
        assert!(Who::Seat(Seat::Yellow).host_only("x").is_err());
        // Kept and read back as they were, each seat by its letter.
        let text = serde_json::to_string(&a).unwrap();
        assert!(
            text.contains(&format!(r#""invited":[["y","{guest}"]]"#)),
            "{text}"
        );
        let bad = text.replace(r#"[["y","#, r#"[["x","#);
        assert!(serde_json::from_str::<Access>(&bad).is_err(), "{bad}");
        let mut back = serde_json::from_str::<Access>(&text).unwrap();
        assert_eq!(back.created, 0, "the time is the row's, not kept here");
        back.created = a.created;
        assert_eq!(back, a);
        assert_eq!(a.seat_token(Seat::Yellow), Some(guest));
        assert_eq!(a.seat_token(Seat::Red), None);
    }

    #[test]
    fn the_lobby_flag_is_kept_and_old_tables_are_unlisted() {
        let seats = [seat('r', false, false), seat('g', false, true)];
        let mut a = Access::new(&seats, Some(60)).unwrap();
        assert!(!a.lobby);
        a.lobby = true;
        let text = serde_json::to_string(&a).unwrap();
        assert!(serde_json::from_str::<Access>(&text).unwrap().lobby);
        // Kept before the lobby: no field, not listed.
        let old = text.replace(",\"lobby\":true", "");
        assert!(!old.contains("lobby"), "{old}");
        assert!(!serde_json::from_str::<Access>(&old).unwrap().lobby);
    }

    #[test]
    fn tokens_differ_every_time() {
        let seats = [seat('r', false, true), seat('g', false, true)];
        let (a, b) = (
            Access::new(&seats, None).unwrap(),
            Access::new(&seats, None).unwrap(),
        );
        assert_ne!(a.links(), b.links());
    }
}
