//! A hint or a review as a state machine with no I/O, run by both hosts
//! against an engine of its own (the analyst): `splut gui`'s second
//! engine process and the static board's second engine worker.
//!
//! Made from the game ([`Analysis::new`], which refuses as the page's API
//! refuses), it gives the analyst's protocol lines ([`Analysis::commands`]:
//! `position spn … moves …` and `go movetime N` for each position asked
//! about) and takes what the analyst said, read by the host's engine
//! reader in [`Analysis::searched`]'s position ([`Analysis::engine_event`]),
//! until it has its answer ([`Analysis::outcome`]): the JSON of `POST
//! /api/games/<id>/hint` or `…/review`, or why it failed. A position
//! whose game is over is decided without the engine.
//!
//! The analyst's spawn and end are the host's; a fresh analyst's
//! handshake is the machine's ([`super::handshake`]), and a host may keep
//! an analyst between analyses (its handshake done once). The machine
//! asks one search at a time, each answered by a `bestmove`.

use super::config::{HINT_MS, REVIEW_MS};
use super::handshake::{self, Handshake, Progress};
use super::{EngineEvent, HUNG_AFTER, Refusal, WinProb, requests};
use crate::marks::step_marks;
use crate::review::{BLUNDER_DROP, Evaluation, MISTAKE_DROP, judge, turn_bounds};
use serde_json::{Value, json};
use splut_play::judge::Forfeit;
use splut_protocol::Command;
use splut_protocol::command::{Go, PositionCommand};
use splut_rules::{Game, Position, Seat, StepText};
use std::time::Duration;

/// What is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The engine's best turn for the side to move, not played.
    Hint,
    /// Every turn of the game judged by its mover's drop in expected
    /// score, with the engine's better turn.
    Review,
}

impl Kind {
    /// The kind named as the page's API names it (`hint`, `review`).
    pub fn named(name: &str) -> Option<Kind> {
        match name {
            "hint" => Some(Kind::Hint),
            "review" => Some(Kind::Review),
            _ => None,
        }
    }

    /// Its name in the API and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Hint => "hint",
            Kind::Review => "review",
        }
    }

    /// The engine's time on each position when the request names none.
    pub fn default_ms(self) -> u64 {
        match self {
            Kind::Hint => HINT_MS,
            Kind::Review => REVIEW_MS,
        }
    }
}

/// A hint or a review under way.
#[derive(Clone, Debug)]
pub struct Analysis {
    kind: Kind,
    ms: u64,
    game: Game,
    /// The steps played before each position asked about.
    bounds: Vec<usize>,
    /// What the engine thought of each position asked about so far.
    evals: Vec<Evaluation>,
    /// The last scored report of the search under way: its score and the
    /// chances it gives, if they read.
    last: Option<(String, Option<WinProb>)>,
    /// Lines for the analyst, not yet taken.
    out: Vec<Command>,
    /// Reads the analyst's lines into events.
    reader: super::reader::EngineReader,
    /// A fresh analyst's handshake, while it is under way.
    handshake: Option<Handshake>,
    /// Whether this analysis did a handshake to its end (the analyst is
    /// ready for the next analysis).
    handshaken: bool,
    outcome: Option<Result<Value, Refusal>>,
}

impl Analysis {
    /// A `kind` of analysis of `game` as the request `body` asks it (its
    /// `movetime`, in [`requests::ANALYSIS_MS`]): refused for a body that
    /// does not read or a time out of bounds, and a hint in a finished
    /// game. `fresh`: the analyst was just spawned, and the analysis
    /// does its handshake before its first search (else the analyst is
    /// one kept ready from an analysis before).
    pub fn new(kind: Kind, game: &Game, body: &str, fresh: bool) -> Result<Analysis, Refusal> {
        let ms = requests::analysis_ms(body, kind.default_ms())?;
        let bounds = match kind {
            Kind::Hint if game.position().is_game_over() => return Err(Refusal::GameOver),
            Kind::Hint => vec![game.steps().len()],
            Kind::Review => turn_bounds(game),
        };
        let mut a = Analysis {
            kind,
            ms,
            game: game.clone(),
            evals: Vec::with_capacity(bounds.len()),
            bounds,
            last: None,
            out: Vec::new(),
            reader: super::reader::EngineReader::new(),
            handshake: fresh.then(|| handshake::begin(Duration::ZERO)),
            handshaken: false,
            outcome: None,
        };
        a.ask_next();
        Ok(a)
    }

    /// What is asked.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The engine's time on each position, in ms.
    pub fn movetime(&self) -> u64 {
        self.ms
    }

    /// How long the host waits for an answer (the handshake's, or a
    /// search's) from the moment it sent its lines: past it, the analyst
    /// is hung. (The analysis keeps no clock: the handshake's lines come
    /// in milliseconds, well within it.)
    pub fn limit(&self) -> Duration {
        Duration::from_millis(self.ms) + HUNG_AFTER
    }

    /// The commands to send the analyst now, in order.
    pub fn commands(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.out)
    }

    /// The position the analyst is searching (its `info` lines' win
    /// probabilities are read in it); `None` once done.
    pub fn searched(&self) -> Option<&Position> {
        if self.outcome.is_some() {
            return None;
        }
        let b = *self.bounds.get(self.evals.len())?;
        self.game.positions().get(b)
    }

    /// The answer once done: the page's JSON, or why it failed.
    pub fn outcome(&self) -> Option<&Result<Value, Refusal>> {
        self.outcome.as_ref()
    }

    /// Whether it is done (answered or failed).
    pub fn done(&self) -> bool {
        self.outcome.is_some()
    }

    /// Whether the analysis did a fresh analyst's handshake to its end:
    /// the analyst is ready for another analysis.
    pub fn handshaken(&self) -> bool {
        self.handshaken
    }

    /// One line from the analyst: its handshake's while that is under
    /// way, else read by the analysis's own reader.
    pub fn engine_line(&mut self, line: &str) {
        if self.done() {
            return;
        }
        if let Some(h) = self.handshake.as_mut() {
            let progress = h.line(line, Duration::ZERO);
            self.out.extend(h.commands());
            match progress {
                Progress::Waiting => {}
                Progress::Done => {
                    self.handshake = None;
                    self.handshaken = true;
                    self.ask_next();
                }
                Progress::Failed(why) => self.fail(&format!("it refused its handshake: {why}")),
            }
            return;
        }
        let searched = self.searched().copied();
        if let Some(event) = self.reader.read(line, searched.as_ref()) {
            self.engine_event(event);
        }
    }

    /// What the analyst said, read in [`Analysis::searched`]'s position
    /// ([`Analysis::engine_line`] reads its lines into these).
    pub fn engine_event(&mut self, event: EngineEvent) {
        if self.done() {
            return;
        }
        match event {
            EngineEvent::Info(view, winprob) => {
                if let Some(score) = view.score {
                    self.last = Some((score, winprob));
                }
            }
            EngineEvent::Refused(why) => self.fail(&why),
            EngineEvent::Answer(answer) => {
                let best = match answer {
                    // The engine's steps, as it wrote them: the page draws
                    // those that are legal ([`step_marks`]).
                    Ok(steps) => steps
                        .iter()
                        .map_while(|s| StepText::parse(s).ok())
                        .collect(),
                    // `bestmove (none)`: no better turn.
                    Err(Forfeit::NoStep) => Vec::new(),
                    Err(e) => return self.fail(&e.to_string()),
                };
                let (score, probs) = self.last.take().unzip();
                let winprob = self.every_seat(probs.flatten().as_deref());
                self.evals.push(Evaluation {
                    score,
                    winprob,
                    best,
                });
                self.ask_next();
            }
        }
    }

    /// The analyst is gone, or did not answer in time (`why`): the
    /// analysis fails.
    pub fn engine_gone(&mut self, why: &str) {
        if !self.done() {
            self.fail(why);
        }
    }

    fn fail(&mut self, why: &str) {
        let kind = self.kind.name();
        self.out.clear();
        self.outcome = Some(Err(Refusal::EngineFailed(format!(
            "the engine failed the {kind}: {why}"
        ))));
    }

    /// Every seat of the game with its chance in `probs` (0 if it has
    /// none: a seat out of the game, or no report that read).
    fn every_seat(&self, probs: Option<&[(Seat, f64)]>) -> WinProb {
        self.game
            .start()
            .seats_in_game()
            .map(|s| {
                let p = probs.and_then(|w| w.iter().find(|x| x.0 == s));
                (s, p.map_or(0.0, |x| x.1))
            })
            .collect()
    }

    /// Asks the analyst about the next position, deciding those of a
    /// finished game on the spot; the answer once none is left.
    fn ask_next(&mut self) {
        while let Some(&b) = self.bounds.get(self.evals.len()) {
            let pos = &self.game.positions()[b];
            if pos.is_game_over() {
                // Decided: the winner 1, every other seat 0.
                let won: Vec<(Seat, f64)> = pos.winner().map(|w| (w, 1.0)).into_iter().collect();
                let winprob = self.every_seat(Some(&won));
                self.evals.push(Evaluation {
                    score: None,
                    winprob,
                    best: Vec::new(),
                });
                continue;
            }
            if let Some(h) = self.handshake.as_mut() {
                // A fresh analyst: its handshake first; its `readyok`
                // asks again.
                self.out.extend(h.commands());
                return;
            }
            self.out.push(PositionCommand::spn(&self.game, b).into());
            self.out.push(Go::movetime(self.ms).into());
            return;
        }
        self.outcome = Some(Ok(self.answer()));
    }

    /// The page's JSON, every position evaluated.
    fn answer(&self) -> Value {
        match self.kind {
            Kind::Hint => {
                let pos = self.game.position();
                let e = &self.evals[0];
                json!({
                    "step_count": self.game.steps().len(),
                    "seat": pos.side_to_move().letter().to_string(),
                    "marks": step_marks(pos, &e.best),
                    "steps": e.best.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                    "score": e.score,
                    "winprob": crate::letters::probabilities(&e.winprob, serde_json::value::Serializer)
                        .unwrap_or(Value::Null),
                })
            }
            Kind::Review => json!({
                "movetime": self.ms,
                "mistake": MISTAKE_DROP,
                "blunder": BLUNDER_DROP,
                "turns": judge(&self.game, &self.evals),
            }),
        }
    }
}

#[cfg(test)]
mod tests;
