//! Playing levels: the strength options an engine advertises in its
//! answer to `ugi` (`UCI_LimitStrength`, `UCI_Elo`, `Skill Level`), read
//! from there, so the page offers only what the engine has.

use super::handshake::SHOW_WINPROB;
use serde::{Deserialize, Serialize};
use splut_protocol::words::{Id, OptionKind, find_option, has_option};
use std::time::Duration;

/// A spin option's default and bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Spin {
    /// Its default value.
    pub default: i64,
    /// Its least value.
    pub min: i64,
    /// Its greatest value.
    pub max: i64,
}

/// The full engine's strength at one time per turn, measured on the
/// ladder (docs/results/levels.md) rather than advertised by the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FullStrength {
    /// A lower bound of its Elo on the ladder's scale (`greedy` = 1000),
    /// at 95%: it wins nearly every game against the top capped level,
    /// so the measurement bounds it rather than pins it.
    pub at_least: i64,
    /// At this time per turn, in ms (the board's default).
    pub movetime: u64,
}

/// This engine at full strength and the board's default 1000 ms a turn:
/// `TC=movetime=1000 scripts/ladder 100 1 DIR` fits it at 2377 ± 151
/// (194 of 200 games won against level 18, 199 of 200 against level 16;
/// docs/results/levels.md, 2026-11-26), so over 2200. Only said of an
/// engine whose `id name` is `splut`.
pub const SPLUT_FULL_STRENGTH: FullStrength = FullStrength {
    at_least: 2200,
    movetime: 1000,
};

/// The level options an engine has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Levels {
    /// `UCI_Elo`, if it has it.
    pub elo: Option<Spin>,
    /// `Skill Level`, if it has it.
    pub skill: Option<Spin>,
    /// Whether it has `UCI_LimitStrength`.
    pub limit_strength: bool,
    /// Whether it has `UCI_ShowWinProb`.
    pub show_winprob: bool,
    /// Whether it has `Seed`: each game then gets its own
    /// ([`game_seed`]), so that a level does not answer the same steps
    /// the same way game after game.
    pub seed: bool,
    /// Its measured strength at full strength, if it is this engine.
    pub full_elo: Option<FullStrength>,
}

/// A game's `Seed` (0 to 2³² − 1, the engine's bounds) from its id and
/// the host's clock when it began: another for each game, so that the
/// levels, whose choices and blind spots are drawn from the seed and the
/// position, vary from game to game; a game keeps its seed (a turn taken
/// back and played again gets the same answer).
pub fn game_seed(id: u64, now: Duration) -> u64 {
    // SplitMix64's finaliser: nearby ids and times give unrelated seeds.
    let mut z = id
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(now.as_nanos() as u64);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) & 0xFFFF_FFFF
}

/// A seat's level: an Elo on the engine's ladder, or a skill level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Level {
    /// `UCI_LimitStrength` on and `UCI_Elo` at this value.
    Elo(i64),
    /// `Skill Level` at this value.
    Skill(i64),
}

/// The default and bounds of spin option `name` in the handshake's lines
/// (read by the protocol's words; names compare without case).
pub fn spin(ugi: &[String], name: &str) -> Option<Spin> {
    match find_option(ugi, name)?.kind {
        OptionKind::Spin { default, min, max } => {
            (min <= max).then_some(Spin { default, min, max })
        }
        _ => None,
    }
}

impl Levels {
    /// The level options in the handshake's lines.
    pub fn from_ugi(ugi: &[String]) -> Levels {
        Levels {
            elo: spin(ugi, "UCI_Elo"),
            skill: spin(ugi, "Skill Level"),
            limit_strength: has_option(ugi, "UCI_LimitStrength"),
            show_winprob: has_option(ugi, SHOW_WINPROB),
            seed: has_option(ugi, "Seed"),
            full_elo: ugi
                .iter()
                .any(|l| matches!(Id::parse(l), Ok(Id::Name(n)) if n.starts_with("splut ")))
                .then_some(SPLUT_FULL_STRENGTH),
        }
    }

    /// Whether the engine has `level`'s option and the value is in its
    /// bounds; the reason if not.
    pub fn check(&self, level: &Level) -> Result<(), String> {
        let (spin, what) = match level {
            Level::Elo(_) => (self.elo, "an Elo (UCI_Elo)"),
            Level::Skill(_) => (self.skill, "skill levels (Skill Level)"),
        };
        let Some(spin) = spin else {
            return Err(format!("seats: the engine has no {what}"));
        };
        let (Level::Elo(v) | Level::Skill(v)) = *level;
        if !(spin.min..=spin.max).contains(&v) {
            return Err(format!(
                "seats: level {v} out of the engine's bounds {} to {}",
                spin.min, spin.max
            ));
        }
        Ok(())
    }

    /// The options that set `level` (full strength for `None`), and the
    /// game's `seed`, in the order to send them; only options the engine
    /// has.
    pub fn options(&self, level: Option<Level>, seed: u64) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if self.seed {
            out.push(("Seed", seed.to_string()));
        }
        let limit = matches!(level, Some(Level::Elo(_)));
        if self.limit_strength {
            out.push(("UCI_LimitStrength", limit.to_string()));
        }
        match level {
            Some(Level::Elo(v)) => out.push(("UCI_Elo", v.to_string())),
            Some(Level::Skill(v)) => out.push(("Skill Level", v.to_string())),
            None => {
                if let Some(s) = self.skill {
                    out.push(("Skill Level", s.max.to_string()));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn levels_are_read_from_the_handshake() {
        let ugi = lines(&[
            "id name x",
            "option name Hash type spin default 64 min 1 max 65536",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 1500 min 800 max 2400",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name UCI_ShowWinProb type check default false",
            "option name Seed type spin default 0 min 0 max 4294967295",
        ]);
        let l = Levels::from_ugi(&ugi);
        assert_eq!(
            l.elo,
            Some(Spin {
                default: 1500,
                min: 800,
                max: 2400
            })
        );
        assert_eq!(
            l.skill,
            Some(Spin {
                default: 20,
                min: 0,
                max: 20
            })
        );
        assert!(l.limit_strength && l.show_winprob && l.seed);
        // Another engine: no measured full strength.
        assert_eq!(l.full_elo, None);
        let ours = Levels::from_ugi(&lines(&["id name splut 0.1.0"]));
        assert_eq!(ours.full_elo, Some(SPLUT_FULL_STRENGTH));
        assert!(l.check(&Level::Elo(800)).is_ok());
        assert!(l.check(&Level::Elo(2401)).is_err());
        assert!(l.check(&Level::Skill(-1)).is_err());
        assert_eq!(
            l.options(Some(Level::Elo(1200)), 7),
            vec![
                ("Seed", "7".into()),
                ("UCI_LimitStrength", "true".into()),
                ("UCI_Elo", "1200".into())
            ]
        );
        assert_eq!(
            l.options(None, 8),
            vec![
                ("Seed", "8".into()),
                ("UCI_LimitStrength", "false".into()),
                ("Skill Level", "20".into())
            ]
        );
        // An engine without them: no levels, nothing sent.
        let none = Levels::from_ugi(&ugi[..2]);
        assert_eq!(none, Levels::default());
        assert!(none.check(&Level::Skill(3)).is_err());
        assert!(none.options(None, 1).is_empty());
        // A malformed spin is no option.
        let bad = lines(&["option name UCI_Elo type spin default x min 1 max 2"]);
        assert_eq!(Levels::from_ugi(&bad).elo, None);
        let bad = lines(&["option name UCI_Elo type spin default 1 min 5 max 2"]);
        assert_eq!(Levels::from_ugi(&bad).elo, None);
    }

    #[test]
    fn each_game_gets_its_own_seed_within_the_engines_bounds() {
        let mut seen = std::collections::HashSet::new();
        for id in 1..50 {
            for ms in [0, 1, 1000] {
                let s = game_seed(id, Duration::from_millis(ms));
                assert!(s <= u64::from(u32::MAX));
                seen.insert(s);
            }
        }
        assert_eq!(seen.len(), 49 * 3);
        assert_eq!(game_seed(3, Duration::ZERO), game_seed(3, Duration::ZERO));
    }

    #[test]
    fn levels_read_from_json() {
        let l: Level = serde_json::from_str(r#"{"elo": 1400}"#).unwrap();
        assert_eq!(l, Level::Elo(1400));
        let l: Level = serde_json::from_str(r#"{"skill": 3}"#).unwrap();
        assert_eq!(l, Level::Skill(3));
        for bad in [
            r#"{"elo": "x"}"#,
            r#"{"rank": 1}"#,
            r#""elo""#,
            r#"{"elo": 1, "skill": 2}"#,
        ] {
            assert!(serde_json::from_str::<Level>(bad).is_err(), "{bad}");
        }
    }
}
