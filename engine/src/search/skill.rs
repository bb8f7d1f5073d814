//! Strength levels: the engine played weaker on purpose, for people
//! (`Skill Level`, `UCI_LimitStrength` with `UCI_Elo`; protocol.md).
//!
//! A level below the top is the full search made smaller and fallible in
//! the ways a beginner is, not a player that drops pieces at random:
//!
//! - **a small search**: a node cap and a depth cap that grow with the
//!   level, so the lowest levels see little beyond their own turn;
//! - **blind spots**: the lower levels search with an evaluation that
//!   overlooks what beginners overlook: a troll that could throw a turn
//!   later (`danger`) and kills set up by a levitation
//!   (`levitation_threat`) below [`BLIND_DANGER_BELOW`]; a line of fire
//!   that can still be parried (`threat`, `exposed_line`) below
//!   [`BLIND_THREAT_BELOW`];
//! - **a choice among good turns**: it searches the best
//!   [`Skill::lines`] turns (`MultiPV`) and picks one at random, each with
//!   weight `exp((score − best) / temperature)`, the temperature rising as
//!   the level falls. A proven loss is chosen only when every line is
//!   one, so a level does not walk into a loss it has seen;
//! - **kills overlooked**: a proven win is played, except that below
//!   [`SEE_KILLS_FROM`] a kill it found is overlooked now and then (half
//!   of them at level 0), and below [`SEE_LEVITATION_KILLS_FROM`] a kill
//!   set up by a levitation more often (all of them at level 0)
//!   ([`Skill::sees_win`]). An overlooked kill is missed for this turn
//!   only, so a level still finishes a game it has won.
//!
//! The choice is seeded by the `Seed` option and the position, and the
//! node cap makes the search run on one thread, so a level's turn is
//! reproducible from the same state (as `go nodes` is: the table keeps
//! what earlier searches found, `uginewgame` clears it).
//!
//! Levels below the top always search with the hand-written evaluation
//! (its weights in [`crate::eval::EvalParams`], weakened as above); only
//! the top level, [`TOP`], is the full engine with its default
//! evaluation and every option as set.
//!
//! The levels' Elo ratings ([`LADDER`]) were measured by tournament
//! (docs/results/levels.md); `UCI_Elo` is turned into a level by
//! interpolating on them ([`level_for_elo`]).

use super::SmallRng;
use super::complete_turn::{complete_turn, turn_part};
use super::score::Score;
use super::{Algorithm, Info, Limits, Outcome, Search, Settings};
use crate::eval::EvalParams;
use crate::options::{ELO_MAX, ELO_MIN, Id, SKILL_MAX, Values};
use rand::{Rng, SeedableRng};
use splut_rules::{Position, StepKind};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The top level: the full engine.
pub const TOP: f64 = SKILL_MAX as f64;

/// Below this level, `danger` and `levitation_threat` are not seen.
pub const BLIND_DANGER_BELOW: f64 = 12.0;

/// Below this level, parryable threats (`threat`, `exposed_line`) are not
/// seen either; a threat the victim cannot parry still is.
pub const BLIND_THREAT_BELOW: f64 = 6.0;

/// Below this level, a kill the next seat can make (`kill_now`,
/// `threat_unanswered`) is seen only in part: a share `((level + 1) /
/// (BLIND_KILL_BELOW + 1))²` of its weight.
pub const BLIND_KILL_BELOW: f64 = 8.0;

/// From this level on, every kill found is played (below it, one in two
/// at level 0, more as the level rises).
pub const SEE_KILLS_FROM: f64 = 8.0;

/// From this level on, every kill set up by a levitation is played (below
/// it, none at level 0).
pub const SEE_LEVITATION_KILLS_FROM: f64 = 12.0;

/// The measured ladder: (level, Elo), levels rising, Elo rising; `greedy`
/// is 1000. Measured 2026-11-25 in 2-player games at `--tc nodes=50000`
/// (the levels below the top cap their nodes lower; the top, the full
/// engine, is stronger with more time), each Elo the Bradley-Terry fit
/// of 4200 games rounded to 10, ±38 to ±88 at 95% relative to `greedy`
/// (docs/results/levels.md has the tournaments and `scripts/ladder`,
/// which replays them). Level 15 was measured afterwards, against 14 and
/// 16 (400 games, the joint fit 1444 ± 78): the strength between 14 and
/// 16 is not linear in the level. The first and last Elo are the bounds
/// of `UCI_Elo` ([`ELO_MIN`], [`ELO_MAX`]).
pub const LADDER: [(f64, f64); 12] = [
    (0.0, ELO_MIN as f64),
    (2.0, 1020.0),
    (4.0, 1080.0),
    (6.0, 1190.0),
    (8.0, 1260.0),
    (10.0, 1310.0),
    (12.0, 1360.0),
    (14.0, 1390.0),
    (15.0, 1440.0),
    (16.0, 1600.0),
    (18.0, 1730.0),
    (TOP, ELO_MAX as f64),
];

/// How a level below the top plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Skill {
    /// The level, 0 to just under [`TOP`] (fractional when it comes from
    /// `UCI_Elo`).
    pub level: f64,
    /// Best turns searched (`MultiPV`) to choose from.
    pub lines: usize,
    /// Nodes a turn's search may take at most.
    pub nodes: u64,
    /// Deepest iteration, in steps.
    pub depth: u32,
    /// The randomness of the choice: a line `temperature` centi-units
    /// worse than the best is chosen e (2.718…) times less often.
    pub temperature: f64,
}

impl Skill {
    /// The level `level` (clamped to 0..=[`TOP`]); `None` at the top,
    /// which is the full engine.
    pub fn at(level: f64) -> Option<Skill> {
        let level = if level.is_nan() {
            TOP
        } else {
            level.clamp(0.0, TOP)
        };
        if level >= TOP {
            return None;
        }
        let t = level / TOP;
        Some(Skill {
            level,
            lines: 1 + (5.0 * (1.0 - t).powf(1.5)).round() as usize,
            nodes: (400.0 * 2f64.powf(level / 2.8)).round() as u64,
            depth: 3 + (level / 2.0).floor() as u32,
            temperature: 250.0 * (1.0 - t) * (1.0 - t),
        })
    }

    /// The level the options ask for: `UCI_Elo` when `UCI_LimitStrength`
    /// is on (it wins over `Skill Level`), else `Skill Level`.
    pub fn from_options(v: &Values) -> Option<Skill> {
        if v.check(Id::LimitStrength) {
            Skill::at(level_for_elo(v.spin(Id::Elo) as f64))
        } else {
            Skill::at(v.spin(Id::SkillLevel) as f64)
        }
    }

    /// The weights this level searches with: `full`'s, with the terms it
    /// is blind to set to 0.
    pub fn params(&self, full: &EvalParams) -> EvalParams {
        let mut p = full.clone();
        if self.level < BLIND_DANGER_BELOW {
            p.danger = 0;
            p.levitation_threat = 0;
        }
        if self.level < BLIND_THREAT_BELOW {
            p.threat = 0;
            p.threat_per_spent_step = 0;
            p.exposed_line = 0;
        }
        if self.level < BLIND_KILL_BELOW {
            // A kill coming in the next turn is seen, dimly at first.
            let seen = ((self.level + 1.0) / (BLIND_KILL_BELOW + 1.0)).powi(2);
            let dim = |w: i32| (f64::from(w) * seen).round() as i32;
            p.threat_unanswered = dim(p.threat_unanswered);
            p.kill_now = dim(p.kill_now);
        }
        p
    }

    /// The limits of this level's search within `limits`: the tighter
    /// node and depth caps of the two.
    pub fn limits(&self, limits: &Limits) -> Limits {
        Limits {
            nodes: Some(limits.nodes.map_or(self.nodes, |n| n.min(self.nodes))),
            depth: Some(limits.depth.map_or(self.depth, |d| d.min(self.depth))),
            ..limits.clone()
        }
    }

    /// The settings of this level's search: alpha-beta (`auto`) with the
    /// hand-written evaluation weakened ([`Skill::params`]), at least
    /// [`Skill::lines`] lines.
    pub fn settings(&self, full: &Settings) -> Settings {
        Settings {
            algorithm: Algorithm::Auto,
            params: full.params.map(|p| self.params(p)),
            // The levels weaken the hand-written evaluation (and were
            // calibrated with it), whatever `UseNNUE` says.
            net: None,
            multi_pv: full.multi_pv.max(self.lines),
            skill: None,
            ..full.clone()
        }
    }

    /// The chance that this level sees a win it has found: a kill set up
    /// by a levitation (`levitation`) is seen from level 0 never to level
    /// [`SEE_LEVITATION_KILLS_FROM`] always, any other from level 0 half
    /// the time to level [`SEE_KILLS_FROM`] always.
    pub fn sees_win(&self, levitation: bool) -> f64 {
        if levitation {
            (self.level / SEE_LEVITATION_KILLS_FROM).min(1.0)
        } else {
            (0.5 + 0.5 * self.level / SEE_KILLS_FROM).min(1.0)
        }
    }

    /// Chooses one of `lines` (one iteration's best turns from `root`,
    /// best first). A proven win is played if this level sees it
    /// ([`Skill::sees_win`]); otherwise a line at random among those that
    /// are not seen as wins, with weights falling with the score's
    /// distance from the best of them; proven losses only if all are.
    pub fn choose(&self, root: &Position, lines: &[Info], rng: &mut impl Rng) -> usize {
        let Some(best) = lines.first() else {
            return 0;
        };
        let scores: Vec<Score> = lines.iter().map(|l| l.score).collect();
        if !matches!(best.score, Score::Win(_)) {
            return self.softmax(&scores, rng);
        }
        let levitation = turn_part(root, &best.pv)
            .0
            .iter()
            .any(|s| s.kind() == StepKind::Levitate);
        if rng.random::<f64>() < self.sees_win(levitation) {
            return 0;
        }
        // Overlooked: a line that does not win, and whose steps do not
        // leave a kill for the rest of the turn to find.
        let others: Vec<usize> = (0..lines.len())
            .filter(|&k| {
                let (_, end) = turn_part(root, &lines[k].pv);
                let kill_left = end.turn() == root.turn() && end.can_kill_this_turn();
                !matches!(lines[k].score, Score::Win(_)) && !kill_left
            })
            .collect();
        if others.is_empty() {
            return 0;
        }
        let scores: Vec<Score> = others.iter().map(|&k| lines[k].score).collect();
        others[self.softmax(&scores, rng)]
    }

    /// One of `scores` (best first) at random, weighted by `exp((score −
    /// best) / temperature)`; proven losses only if every score is one.
    fn softmax(&self, scores: &[Score], rng: &mut impl Rng) -> usize {
        let best = scores.iter().map(|&s| value(s)).fold(f64::MIN, f64::max);
        if scores.iter().all(|s| matches!(s, Score::Loss(_))) {
            // Lost whatever it does: hold out longest.
            return scores.iter().position(|&s| value(s) == best).unwrap_or(0);
        }
        let temperature = self.temperature.max(1.0);
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| match s {
                Score::Loss(_) => 0.0,
                s => ((value(s) - best) / temperature).exp(),
            })
            .collect();
        let total: f64 = weights.iter().sum();
        if total.is_nan() || total <= 0.0 {
            return 0;
        }
        let mut x = rng.random::<f64>() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        0
    }
}

/// A score as a number for the choice: proven results far beyond any
/// evaluation, sooner wins and later losses better.
fn value(s: Score) -> f64 {
    match s {
        Score::Cp(v) => f64::from(v),
        Score::Win(t) => 1e6 - f64::from(t),
        Score::Loss(t) => -1e6 + f64::from(t),
    }
}

/// The level for an Elo rating: linear between the two measured levels
/// around it on [`LADDER`], clamped to its ends.
pub fn level_for_elo(elo: f64) -> f64 {
    let (first, last) = (LADDER[0], LADDER[LADDER.len() - 1]);
    if elo <= first.1 {
        return first.0;
    }
    if elo >= last.1 {
        return last.0;
    }
    for w in LADDER.windows(2) {
        let ((l0, e0), (l1, e1)) = (w[0], w[1]);
        if elo <= e1 {
            return l0 + (l1 - l0) * (elo - e0) / (e1 - e0);
        }
    }
    last.0
}

/// Where `pv` ends the turn of `root`'s side to move, as a hash (turns
/// that end in the same position are the same turn).
fn turn_end(root: &Position, pv: &[splut_rules::Step]) -> u64 {
    turn_part(root, pv).1.hash()
}

/// Salt of the choice's random numbers, so that they differ from the
/// reference players' for the same seed and position.
const CHOICE_SALT: u64 = 0x5b1e_7e4e_15c0_de01;

/// The lines a level's search reported: the last iteration's, and the
/// one before's, for when the last was cut short.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lines {
    last: Vec<Info>,
    before: Vec<Info>,
}

impl Lines {
    /// One more report of the search.
    pub(crate) fn add(&mut self, i: &Info) {
        if i.multipv <= 1 {
            self.before = std::mem::take(&mut self.last);
        }
        self.last.push(i.clone());
    }
}

/// One search at `skill`'s level: the smaller search with its blind spots
/// and lines, then the choice among the last iteration's lines, played as
/// a whole turn ([`choose_turn`]). Every report passes through to
/// `report`.
pub(crate) fn think(
    search: &Search<'_>,
    skill: &Skill,
    stop: Arc<AtomicBool>,
    report: &mut dyn FnMut(&Info),
) -> Outcome {
    let limits = skill.limits(search.limits);
    let settings = skill.settings(search.settings);
    let weaker = Search {
        limits: &limits,
        settings: &settings,
        ponder: search.ponder.clone(),
        // Run in slices, a level's search is run by the slices themselves
        // (`PreparedSearch::run_slice`), which choose once at its end.
        pause: None,
        ..*search
    };
    let mut lines = Lines::default();
    let outcome = weaker.think(stop, &mut |i| {
        lines.add(i);
        report(i);
    });
    choose_turn(search, skill, &settings, outcome, lines)
}

/// The turn a level plays after its search (`search` at the full
/// settings, `settings` the level's, [`Skill::settings`]) ended with
/// `outcome`, having reported `lines`: one of the lines, drawn as
/// [`Skill::choose`] says, its turn completed.
pub(crate) fn choose_turn(
    search: &Search<'_>,
    skill: &Skill,
    settings: &Settings,
    mut outcome: Outcome,
    lines: Lines,
) -> Outcome {
    let Lines {
        last: mut lines,
        before,
    } = lines;
    // Turns the last iteration did not reach, from the one before.
    let ends: Vec<u64> = lines.iter().map(|l| turn_end(search.root, &l.pv)).collect();
    lines.extend(
        before
            .into_iter()
            .filter(|l| !ends.contains(&turn_end(search.root, &l.pv))),
    );
    if lines.len() < 2 || outcome.turn.is_empty() {
        return outcome;
    }
    let seed = search.settings.seed ^ search.root.hash() ^ CHOICE_SALT;
    let k = skill.choose(search.root, &lines, &mut SmallRng::seed_from_u64(seed));
    if k == 0 {
        return outcome;
    }
    let chosen = &lines[k];
    outcome.turn = complete_turn(search.root, &chosen.pv, search, settings);
    outcome.info = Info {
        score: chosen.score,
        pv: chosen.pv.clone(),
        depth: chosen.depth,
        seldepth: chosen.seldepth,
        multipv: 0,
        ..outcome.info
    };
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_and_the_top_is_the_full_engine() {
        assert_eq!(Skill::at(TOP), None);
        assert_eq!(Skill::at(25.0), None);
        assert_eq!(Skill::at(f64::NAN), None);
        let mut last: Option<Skill> = None;
        for l in 0..SKILL_MAX {
            let s = Skill::at(l as f64).unwrap();
            if let Some(p) = &last {
                assert!(s.nodes > p.nodes && s.depth >= p.depth, "{l}");
                assert!(s.temperature < p.temperature && s.lines <= p.lines, "{l}");
            }
            last = Some(s);
        }
        assert_eq!(Skill::at(-3.0).unwrap().level, 0.0);
    }

    #[test]
    fn low_levels_are_blind_to_danger_and_parryable_threats() {
        let full = EvalParams {
            levitation_threat: 100,
            ..EvalParams::default()
        };
        let low = Skill::at(0.0).unwrap().params(&full);
        assert_eq!((low.danger, low.threat, low.levitation_threat), (0, 0, 0));
        // A kill in the next turn: seen at 1/81 of its weight at level 0.
        assert_eq!(low.threat_unanswered, (full.threat_unanswered + 40) / 81);
        assert_eq!(low.kill_now, (full.kill_now + 40) / 81);
        let mid = Skill::at(8.0).unwrap().params(&full);
        assert_eq!((mid.danger, mid.threat), (0, full.threat));
        assert_eq!(mid.kill_now, full.kill_now);
        assert_eq!(Skill::at(19.0).unwrap().params(&full), full);
    }

    #[test]
    fn limits_take_the_tighter_caps() {
        let s = Skill::at(4.0).unwrap();
        let l = s.limits(&Limits::default());
        assert_eq!((l.nodes, l.depth), (Some(s.nodes), Some(s.depth)));
        let given = Limits {
            nodes: Some(10),
            depth: Some(2),
            movetime: Some(100),
            ..Limits::default()
        };
        let l = s.limits(&given);
        assert_eq!(
            (l.nodes, l.depth, l.movetime),
            (Some(10), Some(2), Some(100))
        );
    }

    fn line(score: Score) -> Info {
        Info {
            score,
            ..Info::default()
        }
    }

    #[test]
    fn the_choice_takes_seen_wins_shuns_losses_and_favours_better_lines() {
        let root = Position::start(2).unwrap();
        let s = Skill::at(0.0).unwrap();
        let mut rng = SmallRng::seed_from_u64(1);
        let win = [line(Score::Win(1)), line(Score::Cp(10_000))];
        let loss = [line(Score::Cp(-50)), line(Score::Loss(2))];
        let mut seen = 0;
        for _ in 0..1000 {
            seen += usize::from(s.choose(&root, &win, &mut rng) == 0);
            assert_eq!(s.choose(&root, &loss, &mut rng), 0);
        }
        // Level 0 plays half the kills it finds; level 8 every one.
        assert!((400..600).contains(&seen), "{seen}");
        let s8 = Skill::at(SEE_KILLS_FROM).unwrap();
        assert!((0..100).all(|_| s8.choose(&root, &win, &mut rng) == 0));
        let all_won = [line(Score::Win(1)), line(Score::Win(2))];
        assert!((0..100).all(|_| s.choose(&root, &all_won, &mut rng) == 0));
        let all_lost = [line(Score::Loss(2)), line(Score::Loss(3))];
        assert_eq!(s.choose(&root, &all_lost, &mut rng), 1);
        let close = [
            line(Score::Cp(100)),
            line(Score::Cp(90)),
            line(Score::Cp(-900)),
        ];
        let mut counts = [0; 3];
        for _ in 0..1000 {
            counts[s.choose(&root, &close, &mut rng)] += 1;
        }
        assert!(counts[0] > counts[1] && counts[1] > 300, "{counts:?}");
        assert!(counts[2] < 20, "{counts:?}");
        assert_eq!(s.choose(&root, &[], &mut rng), 0);
    }

    #[test]
    fn elo_maps_onto_the_ladder() {
        assert_eq!(LADDER[0].1, ELO_MIN as f64);
        assert_eq!(LADDER[LADDER.len() - 1], (TOP, ELO_MAX as f64));
        for w in LADDER.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{w:?}");
        }
        assert_eq!(level_for_elo(0.0), 0.0);
        assert_eq!(level_for_elo(ELO_MAX as f64 + 500.0), TOP);
        let mut last = -1.0;
        for elo in (ELO_MIN..=ELO_MAX).step_by(25) {
            let l = level_for_elo(elo as f64);
            assert!(l >= last, "{elo}");
            last = l;
        }
        for (level, elo) in LADDER {
            assert!((level_for_elo(elo) - level).abs() < 1e-9);
        }
    }
}
