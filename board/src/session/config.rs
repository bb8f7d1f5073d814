//! What the page learns of its host and engine when it loads (`GET
//! /api/config`): one shape from both hosts, and the levels it offers
//! people, named and with a first visit's choice.

use super::levels::Levels;
use serde::Serialize;
use splut_rules::Position;
use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::time::Duration;

/// The time an engine thinks for a hint, in ms.
pub const HINT_MS: u64 = 500;

/// The time an engine thinks on each position of a review, in ms.
pub const REVIEW_MS: u64 = 100;

/// The names for people of the levels offered, weakest first, spread
/// evenly over the engine's `UCI_Elo` (or `Skill Level`) range.
pub const LEVEL_NAMES: [&str; 6] = [
    "Beginner",
    "Novice",
    "Casual",
    "Club player",
    "Strong",
    "Expert",
];

/// The named level a first visit is offered ([`LEVEL_NAMES`]' index):
/// one a newcomer can beat, not full strength, which beats people.
pub const FIRST_VISIT_LEVEL: usize = 0;

/// The value of the full-strength choice.
pub const FULL: &str = "full";

/// The bounds and default of an engine's time per turn, in ms.
#[derive(Clone, Debug, Serialize)]
pub struct Movetime {
    /// The least.
    pub min: u64,
    /// The most.
    pub max: u64,
    /// A new seat's.
    pub default: u64,
}

/// What a review calls a mistake and a blunder, and its time a position.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewConfig {
    /// A drop of the mover's chance at least this is a mistake.
    pub mistake: f64,
    /// … and at least this a blunder.
    pub blunder: f64,
    /// The engine's time on each position, in ms.
    pub movetime: u64,
}

/// The page's configuration, as both hosts send it.
#[derive(Clone, Debug, Serialize)]
pub struct Config {
    /// The engine's algorithms (the seats' choices).
    pub algorithms: Vec<String>,
    /// The engine, in words.
    pub engine: String,
    /// Why the engine could not start, if it could not.
    pub engine_error: Option<String>,
    /// The most games at once.
    pub max_games: usize,
    /// An engine's time per turn.
    pub movetime: Movetime,
    /// The pause between an engine's steps, in ms.
    pub step_pause: u64,
    /// The engine's level options.
    pub levels: Levels,
    /// The levels offered, as `[value, label]`, weakest first, full
    /// strength last ([`level_choices`]).
    pub level_choices: Vec<(String, String)>,
    /// The choice a first visit gets ([`first_visit_level`]).
    pub level_default: String,
    /// A review's thresholds and time.
    pub review: ReviewConfig,
    /// A hint's time, in ms.
    pub hint_movetime: u64,
    /// The seats of a new game of each player count the form offers,
    /// `{"2": ["r", "g"], …}` (the rules' starts).
    pub seats_by_players: BTreeMap<String, Vec<String>>,
}

impl Config {
    /// The configuration of a host whose engine has `algorithms` and
    /// `levels`, in words `engine` (`engine_error` if it did not start),
    /// with its bounds on the time per turn (`movetime`, `default`), its
    /// `step_pause` and at most `max_games` at once.
    pub fn new(
        (engine, engine_error): (String, Option<String>),
        algorithms: Vec<String>,
        levels: Levels,
        (movetime, default): (RangeInclusive<u64>, u64),
        step_pause: Duration,
        max_games: usize,
    ) -> Config {
        let level_choices = level_choices(&levels);
        Config {
            algorithms,
            engine,
            engine_error,
            max_games,
            movetime: Movetime {
                min: *movetime.start(),
                max: *movetime.end(),
                default,
            },
            step_pause: step_pause.as_millis() as u64,
            levels,
            level_default: first_visit_level(&level_choices),
            level_choices,
            review: ReviewConfig {
                mistake: crate::review::MISTAKE_DROP,
                blunder: crate::review::BLUNDER_DROP,
                movetime: REVIEW_MS,
            },
            hint_movetime: HINT_MS,
            seats_by_players: (2..=4)
                .filter_map(|n| Some((n.to_string(), Position::start(n)?)))
                .map(|(n, p)| (n, p.seats_in_game().map(|s| s.to_string()).collect()))
                .collect(),
        }
    }
}

/// The levels an engine with `levels` offers, on one scale, as `[value,
/// label]`: with `UCI_Elo`, [`LEVEL_NAMES`] at ratings spread over its
/// range (`elo:<n>`, rounded to 10); with only `Skill Level`, at skill
/// levels (`skill:<n>`); then full strength (with its measured Elo if
/// known). Only full strength when it offers neither.
pub fn level_choices(levels: &Levels) -> Vec<(String, String)> {
    let full_elo = levels.full_elo.map_or(String::new(), |f| {
        format!(
            " · over {} at {} s a turn",
            f.at_least,
            f.movetime as f64 / 1000.0
        )
    });
    let full = (FULL.to_string(), format!("Full strength{full_elo}"));
    let (spin, elo) = match (levels.elo, levels.skill) {
        (Some(s), _) => (s, true),
        (None, Some(s)) => (s, false),
        (None, None) => return vec![full],
    };
    let mut out: Vec<(String, String)> = Vec::new();
    for (i, name) in LEVEL_NAMES.iter().enumerate() {
        let raw =
            spin.min as f64 + (spin.max - spin.min) as f64 * i as f64 / LEVEL_NAMES.len() as f64;
        let choice = if elo {
            let v = ((raw / 10.0).round() as i64 * 10).clamp(spin.min, spin.max);
            (format!("elo:{v}"), format!("{name} · {v}"))
        } else {
            let v = raw.round() as i64;
            (format!("skill:{v}"), format!("{name} (skill {v})"))
        };
        if !out.iter().any(|o| o.0 == choice.0) {
            out.push(choice);
        }
    }
    out.push(full);
    out
}

/// The choice of `choices` ([`level_choices`]) a first visit gets: the
/// named level [`FIRST_VISIT_LEVEL`] (or the nearest below it), full
/// strength when no other is offered.
pub fn first_visit_level(choices: &[(String, String)]) -> String {
    let named = &choices[..choices.len().saturating_sub(1)];
    match named.get(FIRST_VISIT_LEVEL).or(named.last()) {
        Some(choice) => choice.0.clone(),
        None => FULL.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::levels::{FullStrength, Spin};

    fn spin(min: i64, max: i64) -> Spin {
        Spin {
            default: max,
            min,
            max,
        }
    }

    #[test]
    fn this_engines_elo_levels_are_named_over_its_range() {
        let levels = Levels {
            elo: Some(spin(930, 1910)),
            full_elo: Some(FullStrength {
                at_least: 2000,
                movetime: 1000,
            }),
            ..Levels::default()
        };
        let choices = level_choices(&levels);
        let values: Vec<&str> = choices.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(
            values,
            [
                "elo:930", "elo:1090", "elo:1260", "elo:1420", "elo:1580", "elo:1750", "full"
            ]
        );
        assert_eq!(choices[1].1, "Novice · 1090");
        assert_eq!(choices[6].1, "Full strength · over 2000 at 1 s a turn");
        assert_eq!(first_visit_level(&choices), "elo:930");
    }

    #[test]
    fn skill_levels_none_and_narrow_ranges() {
        let skill = Levels {
            skill: Some(spin(0, 20)),
            ..Levels::default()
        };
        let choices = level_choices(&skill);
        assert_eq!(choices[0], ("skill:0".into(), "Beginner (skill 0)".into()));
        assert_eq!(choices[5].0, "skill:17");
        assert_eq!(choices[6], (FULL.into(), "Full strength".into()));
        // No levels: full strength alone, and that is the default.
        let none = level_choices(&Levels::default());
        assert_eq!(none.len(), 1);
        assert_eq!(first_visit_level(&none), FULL);
        // A range of one value: one named level, offered first.
        let one = level_choices(&Levels {
            elo: Some(spin(1500, 1500)),
            ..Levels::default()
        });
        assert_eq!(one.len(), 2);
        assert_eq!(first_visit_level(&one), "elo:1500");
    }
}
