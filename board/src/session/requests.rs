//! The page's request bodies, read as both hosts read them (`splut gui`'s
//! API and the static board's session in WebAssembly): a body that is not
//! the JSON asked for is a [`Refusal::BadRequest`], and a new game is
//! checked by [`NewGame::check`] within [`MOVETIME`]; a hint's or a
//! review's time by [`analysis_ms`] within [`ANALYSIS_MS`].

use super::Pace;
use super::Refusal;
use super::new_game::NewGame;
// The bounds of a new game are its own; here for the hosts that read
// the page's bodies.
pub use super::new_game::{DEFAULT_MOVETIME, MOVETIME};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::ops::RangeInclusive;

/// Bounds on the time an engine thinks for a hint or for each position of
/// a review, in ms (the defaults: [`super::config::HINT_MS`],
/// [`super::config::REVIEW_MS`]).
pub const ANALYSIS_MS: RangeInclusive<u64> = 10..=10_000;

/// `POST /api/games/<id>/hint` or `…/review`: how long the engine thinks
/// for each position.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AnalysisIn {
    /// In ms; the host's default if none.
    pub movetime: Option<u64>,
}

/// The `movetime` of a hint's or review's body (`default` if none, or if
/// the body is empty), refused outside [`ANALYSIS_MS`].
pub fn analysis_ms(text: &str, default: u64) -> Result<u64, Refusal> {
    let req: AnalysisIn = if text.trim().is_empty() {
        AnalysisIn::default()
    } else {
        body(text)?
    };
    let ms = req.movetime.unwrap_or(default);
    if !ANALYSIS_MS.contains(&ms) {
        return Err(Refusal::BadInput(format!(
            "movetime must be {} to {} ms",
            ANALYSIS_MS.start(),
            ANALYSIS_MS.end()
        )));
    }
    Ok(ms)
}

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

    #[test]
    fn analysis_times_default_and_are_bounded() {
        assert_eq!(analysis_ms("", 500), Ok(500));
        assert_eq!(analysis_ms(" {} ", 100), Ok(100));
        assert_eq!(analysis_ms(r#"{"movetime":10}"#, 500), Ok(10));
        assert_eq!(analysis_ms(r#"{"movetime":10000}"#, 500), Ok(10_000));
        for bad in [r#"{"movetime":9}"#, r#"{"movetime":10001}"#] {
            let e = analysis_ms(bad, 500).unwrap_err();
            assert_eq!(
                e,
                Refusal::BadInput("movetime must be 10 to 10000 ms".into())
            );
        }
        for bad in [r#"{"movetime":-1}"#, r#"{"ms":5}"#, "x"] {
            let e = analysis_ms(bad, 500).unwrap_err();
            assert!(matches!(e, Refusal::BadRequest(_)), "{bad}: {e:?}");
        }
    }
}
