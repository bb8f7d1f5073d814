//! The page's request bodies, read as both hosts read them (`splut gui`'s
//! API and the static board's session in WebAssembly): a body that is not
//! the JSON asked for is a [`Refusal::BadRequest`], and a new game is
//! checked by [`NewGame::check`] within [`MOVETIME`].

use super::Pace;
use super::Refusal;
use super::new_game::NewGame;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::ops::RangeInclusive;

/// Bounds on an engine's time per turn in a new game, in ms.
pub const MOVETIME: RangeInclusive<u64> = 10..=600_000;

/// An engine's time per turn when a seat names none, in ms.
pub const DEFAULT_MOVETIME: u64 = 1000;

/// `POST /api/games/<id>/step`: a person's step.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepIn {
    /// The step's text (`e2e3`).
    pub step: String,
}

/// `POST /api/games/<id>/pace`: a change of pace.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaceIn {
    /// The new pace.
    pub pace: Pace,
}

/// A request body as `T`; refused as bad JSON if it does not read.
pub fn body<T: DeserializeOwned>(body: &str) -> Result<T, Refusal> {
    serde_json::from_str(body).map_err(|e| Refusal::BadRequest(format!("bad JSON: {e}")))
}

/// `POST /api/games`'s body, read (not yet checked).
pub fn new_game(text: &str) -> Result<NewGame, Refusal> {
    body(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_read_or_are_bad_requests() {
        assert_eq!(body::<StepIn>(r#"{"step":"e2e3"}"#).unwrap().step, "e2e3");
        assert_eq!(
            body::<PaceIn>(r#"{"pace":"slow"}"#).unwrap().pace,
            Pace::Slow
        );
        for bad in ["", "{}", r#"{"step":1}"#, r#"{"step":"e2e3","x":1}"#] {
            let e = body::<StepIn>(bad).map(|_| ()).unwrap_err();
            assert!(
                matches!(&e, Refusal::BadRequest(m) if m.starts_with("bad JSON: ")),
                "{bad}: {e:?}"
            );
        }
        assert!(body::<PaceIn>(r#"{"pace":"fast"}"#).is_err());
        assert!(new_game(r#"{"players":2,"seats":[]}"#).is_ok());
        assert!(new_game(r#"{"players":"two"}"#).is_err());
    }
}
